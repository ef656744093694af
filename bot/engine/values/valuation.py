"""Hand values for hands bigger than the evaluator's (Baseball's extra cards) and Chicago's spade.

``best_value`` is the best five-card hand of 5 or more cards: for more than 7 it is the best over
every 7-card subset, since any five cards lie in some seven (research notes §1.3). ``best_showing``
ranks 1 or more up cards: the showing categories (quads, trips, two pair, pair, high cards) fit in
four cards, so the best 4-card subset is the showing hand of them all. ``hole_spade`` finds the
best spade dealt face down (Chicago; the split itself is ``bot.engine.betting.pots.chicago_shares``).

>>> from bot.engine.cards.card import parse_cards
>>> best_value(parse_cards("Ah Ad Kh 4c Tc 5d 6c Qc"), frozenset()).describe()
'One pair, aces'
>>> hole_spade({0: parse_cards("Ks 3h"), 2: parse_cards("Qs 2d")}, low=False, ace_low=False)
0
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from itertools import combinations

from bot.engine.cards.card import Card, Rank, Suit
from bot.engine.values.evaluator import HandValue, evaluate, strength
from bot.engine.values.showing import ShowingValue, showing_value


def best_value(cards: Sequence[Card], wild_ranks: Collection[Rank], *,
               wild_in_flush: str = "any-card") -> HandValue:
    """``evaluate`` for 5 or more cards (``ValueError`` as ``evaluate`` for fewer than 5)."""
    if len(cards) <= 7:
        return evaluate(cards, wild_ranks, wild_in_flush=wild_in_flush)
    best = max(combinations(cards, 7), key=lambda seven: strength(seven, wild_ranks,
                                                                  wild_in_flush=wild_in_flush))
    return evaluate(best, wild_ranks, wild_in_flush=wild_in_flush)


def best_showing(up_cards: Sequence[Card], wild_ranks: Collection[Rank], *,
                 showing_hand: str = "wild-aware") -> ShowingValue:
    """``showing_value`` for 1 or more up cards."""
    if len(up_cards) <= 4:
        return showing_value(up_cards, wild_ranks, showing_hand=showing_hand)
    return max((showing_value(four, wild_ranks, showing_hand=showing_hand)
                for four in combinations(up_cards, 4)), key=lambda v: v.strength)


def _spade_order(card: Card, ace_low: bool) -> int:
    return 1 if ace_low and card.rank is Rank.ACE else int(card.rank)


def hole_spade(down_cards: Mapping[int, Sequence[Card]], *, low: bool, ace_low: bool) -> int | None:
    """The seat holding the highest (``low``: lowest) spade among its down cards, or ``None`` when
    none of the given seats has a spade down. ``ace_low``: the ace of spades is the lowest spade
    (ruling ``low_chicago_ace``). Face-up spades never count (give down cards only)."""
    best: tuple[int, int] | None = None
    for seat, cards in down_cards.items():
        for card in cards:
            if card.suit is not Suit.SPADES:
                continue
            value = _spade_order(card, ace_low)
            key = -value if low else value
            if best is None or key > best[0]:
                best = (key, seat)
    return None if best is None else best[1]
