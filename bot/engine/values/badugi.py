"""Badugi: the most cards of different suits and different ranks, then the lowest (aces low).

A hand plays its largest set of cards with no two of a suit and no two of a rank (a four-card
hand, a "badugi", beats any three-card hand, and so on down to one card); between hands of the
same size the highest card decides, then the next (so 7-4-3-2 beats 7-5-2-A). Suits never break
a tie. Aces are low (the best hand is A-2-3-4 in four suits), as in the rooms and in pokerkit's
``BadugiHand``.

How it is fast: every subset of up to four cards is tried, largest first, with one rank mask and
one suit mask each; a subset's rank mask read as a number orders hands of its size.

>>> from bot.engine.cards.card import parse_cards
>>> badugi(parse_cards("7h 4c 2d 2s")).name
'three-card badugi, 7-4-2'
>>> badugi(parse_cards("Ks 4h 3d Ac")).describe()
'Badugi, K-4-3-A'
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Final

from bot.engine.cards.card import Card
from bot.engine.values.low import LowValue, pick_cards, spell

_LOW_BIT: Final = (0, 0, *(1 << (r - 1) for r in range(2, 14)), 1)
_SIZE_WORDS: Final = ("", "one-card badugi", "two-card badugi", "three-card badugi", "badugi")


def _best(cards: Sequence[Card]) -> tuple[int, tuple[Card, ...]]:
    for size in range(min(4, len(cards)), 0, -1):
        best_mask = 0
        best: tuple[Card, ...] = ()
        for combo in combinations(cards, size):
            ranks = suits = 0
            for card in combo:
                rank_bit = _LOW_BIT[card.rank]
                suit_bit = 1 << card.suit
                if ranks & rank_bit or suits & suit_bit:
                    break
                ranks |= rank_bit
                suits |= suit_bit
            else:
                if not best or ranks < best_mask:
                    best_mask, best = ranks, combo
        if best:
            return ((4 - size) << 13) | best_mask, best
    raise ValueError("a badugi needs at least one card")


def badugi_key(cards: Sequence[Card]) -> int:
    """The badugi value of ``cards`` as a key: lower is better."""
    return _best(cards)[0]


def badugi(cards: Sequence[Card]) -> LowValue:
    """The best badugi of ``cards`` (one or more), named ``"three-card badugi, 7-4-2"``."""
    key, best = _best(cards)
    mask = key & ((1 << 13) - 1)
    ranks = tuple(bit + 1 for bit in range(12, -1, -1) if mask >> bit & 1)
    name = f"{_SIZE_WORDS[len(ranks)]}, {spell(ranks)}"
    return LowValue(key, ranks, pick_cards(best, ranks, 1), name)
