"""Cards as players read them: rank and suit symbol (``A♥``), hidden cards, chip amounts.

>>> from bot.engine.cards.card import parse_cards
>>> cards(parse_cards("Ah Td 5c"))
'A♥ T♦ 5♣'
>>> board(parse_cards("Kd 7s"), hidden=2)
'▒▒ ▒▒ K♦ 7♠'
>>> chips(12500)
'12,500'
>>> street_name(3), street_ordinal(7)
('third street', '7th')
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.engine.cards.card import Card, Rank
from bot.engine.vocab import street_name, street_ordinal

__all__ = ["HIDDEN", "board", "card", "cards", "chips", "rank_list", "street_name", "street_ordinal"]

HIDDEN = "▒▒"
"""How another player's down card is shown (its face is never sent to anyone else)."""



def card(c: Card) -> str:
    """One card with its suit symbol, e.g. ``K♠``."""
    return str(c)


def cards(cs: Iterable[Card]) -> str:
    """Cards separated by spaces, in the order given."""
    return " ".join(str(c) for c in cs)


def board(up: Iterable[Card], hidden: int = 0) -> str:
    """A seat's cards as the table sees them: ``hidden`` card backs, then the up cards."""
    parts = [HIDDEN] * hidden + [str(c) for c in up]
    return " ".join(parts)


def chips(amount: int) -> str:
    """A chip amount with thousands separators."""
    return f"{amount:,}"


def rank_list(ranks: Iterable[Rank]) -> str:
    """Wild ranks as words, e.g. ``fives, twos and jacks``."""
    words = [r.plural for r in ranks]
    if not words:
        return "nothing"
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " and " + words[-1]
