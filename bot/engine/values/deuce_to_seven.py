"""Deuce-to-seven low (Kansas City lowball): the worst high hand wins.

Hands rank exactly as in high poker, read upside down: aces are only high (A-2-3-4-5 is an
ace-high hand, not a straight), straights and flushes count against you, and the best hand is
7-5-4-3-2 in at least two suits ("number one", also called the wheel). From more than five cards
the best five play; with fewer than five (not dealt in any game yet) the cards there are rank
without straights or flushes.

How it is fast: with five different ranks the rank mask (bit ``r`` for rank ``r``) read as a
number orders no-pair hands, a straight is a mask of five adjacent bits, and a flush one suit;
paired hands go through ``_grouped``, cached by ranks.

>>> from bot.engine.cards.card import parse_cards
>>> deuce_to_seven(parse_cards("7h 5c 4d 3s 2s")).describe()
'Number one, the wheel (7-5-4-3-2)'
>>> deuce_to_seven(parse_cards("Ah 5c 4d 3s 2s")).name, deuce_to_seven(parse_cards("8h 7c 6d 5s 4s")).name
('ace-five low', 'eight-high straight')
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from typing import Final

from bot.engine.cards.card import Card
from bot.engine.values.low import LowValue, grouped_name, noun, pick_cards

_PAIR, _TWO_PAIR, _TRIPS, _STRAIGHT, _FLUSH, _FULL_HOUSE, _QUADS, _STRAIGHT_FLUSH = range(1, 9)
_NUMBER_ONE: Final = 0b10111100           # 7-5-4-3-2 as a rank mask
_BY_PATTERN: Final = {(2, 1, 1, 1): _PAIR, (2, 2, 1): _TWO_PAIR, (3, 1, 1): _TRIPS, (3, 2): _FULL_HOUSE,
                      (4, 1): _QUADS, (2, 1, 1): _PAIR, (2, 2): _TWO_PAIR, (3, 1): _TRIPS, (4,): _QUADS,
                      (2, 1): _PAIR, (3,): _TRIPS, (2,): _PAIR}


def _nibbles(category: int, ranks: Sequence[int]) -> int:
    key = category << 20
    for shift, rank in zip(range(16, -1, -4), ranks, strict=False):
        key |= rank << shift
    return key


@functools.lru_cache(maxsize=4096)
def _grouped(ranks: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """``(key, ranks in order of importance)`` for cards with a repeated rank (no straight or flush
    is possible)."""
    groups = sorted(((c, r) for r, c in Counter(ranks).items()), reverse=True)
    pattern = tuple(c for c, _ in groups)
    order = tuple(r for c, r in groups for _ in range(c))
    return _nibbles(_BY_PATTERN[pattern], [r for _, r in groups]), order


def _key_few(cards: Sequence[Card]) -> int:
    """The key of at most five cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card.rank
    if mask.bit_count() < len(cards):
        return _grouped(tuple(sorted(int(c.rank) for c in cards)))[0]
    if len(cards) < 5:
        return mask
    suit = cards[0].suit
    flush = all(card.suit is suit for card in cards)
    straight = mask == (mask & -mask) * 31
    if straight:
        return _nibbles(_STRAIGHT_FLUSH if flush else _STRAIGHT, [mask.bit_length() - 1])
    return (_FLUSH << 20) | mask if flush else mask


def deuce_to_seven_key(cards: Sequence[Card]) -> int:
    """The deuce-to-seven low of ``cards`` as a key: lower is better (five play from more)."""
    if len(cards) <= 5:
        return _key_few(cards)
    return min(_key_few(five) for five in combinations(cards, 5))


def deuce_to_seven(cards: Sequence[Card]) -> LowValue:
    """The best deuce-to-seven low of ``cards``, named. Raises ``ValueError`` for no cards."""
    if not cards:
        raise ValueError("a low needs at least one card")
    best = tuple(cards) if len(cards) <= 5 else min(combinations(cards, 5), key=_key_few)
    key = _key_few(best)
    category = key >> 20
    if category in (0, _FLUSH, _STRAIGHT, _STRAIGHT_FLUSH):
        mask = key & 0xFFFFF if category != _STRAIGHT and category != _STRAIGHT_FLUSH else 0
        ranks = tuple(sorted((int(c.rank) for c in best), reverse=True))
        top = noun(ranks[0])
        if category == _STRAIGHT:
            name = f"{top}-high straight"
        elif category == _STRAIGHT_FLUSH:
            name = f"{top}-high straight flush"
        elif category == _FLUSH:
            name = f"{top}-high flush"
        elif mask == _NUMBER_ONE:
            name = "number one, the wheel"
        else:
            name = f"{top} low" if len(ranks) == 1 else f"{top}-{noun(ranks[1])} low"
    else:
        _, ranks = _grouped(tuple(sorted(int(c.rank) for c in best)))
        groups = sorted(((c, r) for r, c in Counter(ranks).items()), reverse=True)
        name = grouped_name(groups)
    return LowValue(key, ranks, pick_cards(best, ranks, 14), name)
