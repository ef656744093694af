"""Cards and the deck: ``card`` (ranks, suits, cards, parsing) and ``deck`` (the shuffled deck and
the card source a hand deals from)."""
