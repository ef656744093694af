"""Ace-to-five low (razz) and the eight-or-better qualifier (the low half of stud hi-lo).

The best five cards for low: aces are low, straights and flushes do not count, pairs do. So the
best low from any number of cards is the five lowest different ranks when there are five; only
then pairs come in (a pair is worse than any hand without one, two pair worse than one pair, and
so on: ``PATTERNS``). With fewer than five cards (the up cards of a razz hand on fourth to sixth
street) the same rules rank the cards there are. The eight-or-better low is the ace-to-five low
when it has no pair and no card above an eight; a hand without one has no low in hi-lo.

How it is fast: the ranks present, as a 13-bit mask with the ace as bit 0, decide every hand with
five different ranks: the lowest five set bits (one table lookup, ``_LOW5``) are the low, and that
mask, read as a number, already orders lows (a lower top card, then the next...). Hands with
fewer different ranks (under 1% of seven-card hands) go through ``_grouped``, cached by ranks.

>>> from bot.engine.cards.card import parse_cards
>>> ace_to_five(parse_cards("8h 6c 4d 3s As Kc Kd")).describe()
'Eight-six low (8-6-4-3-A)'
>>> ace_to_five(parse_cards("5h 4c 3d 2s As")).name, eight_or_better(parse_cards("9h 6c 4d 3s As"))
('wheel', None)
>>> ace_to_five(parse_cards("9h 9c 4d 4s 4h Kd Ks")).name
'two pair, nines and fours'
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from typing import Final

from bot.engine.cards.card import Card
from bot.engine.values.low import LowValue, grouped_name, noun, pick_cards

_LOW_BIT: Final = (0, 0, *(1 << (r - 1) for r in range(2, 14)), 1)
"""By ``Rank`` value (2..14): the card's bit in a low rank mask; the ace is bit 0."""

EIGHT_OR_BETTER: Final = 1 << 8
"""A five-card low key under this is an eight-or-better low (every card ace to eight, no pair)."""

PATTERNS: Final = tuple(sorted(
    {(1,) * n for n in range(1, 6)}
    | {p for p in ((2, 1, 1, 1), (2, 1, 1), (2, 1), (2,), (2, 2, 1), (2, 2), (3, 1, 1), (3, 1), (3,),
                   (3, 2), (4, 1), (4,))}
))
"""Rank-count patterns, sorted: for a given number of cards, a pattern earlier in this order is a
better low (no pair < one pair < two pair < three of a kind < full house < four of a kind)."""

_PATTERN_INDEX: Final = {pattern: index for index, pattern in enumerate(PATTERNS)}


def _lowest(mask: int, n: int) -> int:
    """The lowest ``n`` set bits of ``mask``, or 0 if it has fewer."""
    out = 0
    for _ in range(n):
        if not mask:
            return 0
        bit = mask & -mask
        out |= bit
        mask ^= bit
    return out


_LOW5: Final = tuple(_lowest(mask, 5) for mask in range(1 << 13))


def _bits_ranks(mask: int) -> tuple[int, ...]:
    """The low ranks (ace 1) of a mask's bits, highest first."""
    return tuple(bit + 1 for bit in range(12, -1, -1) if mask >> bit & 1)


@functools.lru_cache(maxsize=4096)
def _grouped(ranks: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """``(key, ranks in order of importance)`` of the best low from ``ranks`` (ace 1, sorted), for
    hands with fewer different ranks than cards that play: every choice of five is tried."""
    n = min(5, len(ranks))
    best: tuple[int, tuple[int, ...]] | None = None
    for combo in set(combinations(ranks, n)):
        counts = Counter(combo)
        groups = sorted(((c, r) for r, c in counts.items()), reverse=True)
        pattern = tuple(c for c, _ in groups)
        order = tuple(r for c, r in groups for _ in range(c))
        if len(counts) == n:
            key = sum(1 << (r - 1) for r in combo)
        else:
            key = (_PATTERN_INDEX[pattern] + 1) << 20
            for shift, (_, rank) in zip(range(16, -1, -4), groups, strict=False):
                key |= rank << shift
        if best is None or key < best[0]:
            best = (key, order)
    assert best is not None
    return best


def ace_to_five_key(cards: Sequence[Card]) -> int:
    """The ace-to-five low of ``cards`` as a key: lower is better. Keys compare hands with the
    same number of cards (five or more, or the same number of up cards)."""
    mask = 0
    for card in cards:
        mask |= _LOW_BIT[card.rank]
    n = len(cards)
    best = _LOW5[mask] if n >= 5 else _lowest(mask, n)
    if best:
        return best
    return _grouped(tuple(sorted(_low_rank(card) for card in cards)))[0]


def _low_rank(card: Card) -> int:
    return 1 if card.rank == 14 else int(card.rank)


def ace_to_five(cards: Sequence[Card]) -> LowValue:
    """The best ace-to-five low of ``cards`` (any number; five play when there are five), named.

    Raises ``ValueError`` for no cards."""
    if not cards:
        raise ValueError("a low needs at least one card")
    key = ace_to_five_key(cards)
    n = min(5, len(cards))
    if key < 1 << 13:
        ranks = _bits_ranks(key)
        if ranks == (5, 4, 3, 2, 1):
            name = "wheel"
        elif n == 1:
            name = f"{noun(ranks[0])} low"
        else:
            name = f"{noun(ranks[0])}-{noun(ranks[1])} low"
    else:
        _, ranks = _grouped(tuple(sorted(_low_rank(card) for card in cards)))
        counts = Counter(ranks)
        groups = sorted(((c, r) for r, c in counts.items()), reverse=True)
        name = grouped_name(groups)
    return LowValue(key, ranks, pick_cards(cards, ranks, 1), name)


def eight_or_better(cards: Sequence[Card]) -> LowValue | None:
    """The eight-or-better low of ``cards`` (five or more), or ``None`` when they make none."""
    if len(cards) < 5:
        return None
    value = ace_to_five(cards)
    return value if value.key < EIGHT_OR_BETTER else None


def qualifies_eight(cards: Sequence[Card]) -> bool:
    """``cards`` hold an eight-or-better low (five different ranks from ace to eight)."""
    return len(cards) >= 5 and ace_to_five_key(cards) < EIGHT_OR_BETTER
