"""Slow, independent references for the low rankings (brute force; tests only).

Written from the rules, not from ``bot.engine.values``: every choice of five cards (every subset,
for badugi) is valued as a plain tuple that Python compares, and the smallest wins. Nothing here
uses masks, tables or caches.

* ace-to-five: ``(count pattern, ranks by count then rank)`` with the ace as 1; a pattern that
  sorts earlier is a better low (no pair, one pair, two pair, trips, full house, quads).
* deuce-to-seven: the high-poker category (straights and flushes count, the ace only high), then
  its tie-break ranks; the smallest is the best low.
* badugi: ``(-size, ranks high to low)`` over the subsets with no suit or rank twice, ace 1.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from bot.engine.cards.card import Card, Rank

Score = tuple[tuple[int, ...], tuple[int, ...]]


def low_rank(card: Card) -> int:
    return 1 if card.rank is Rank.ACE else int(card.rank)


def _grouped(ranks: Sequence[int]) -> Score:
    counts = Counter(ranks)
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    return tuple(counts[r] for r in order), tuple(order)


def ref_ace_to_five(cards: Sequence[Card]) -> tuple[Score, tuple[int, ...]]:
    """``(score, the five ranks that play, sorted high to low)``; a smaller score is better."""
    n = min(5, len(cards))
    best = min(combinations(cards, n), key=lambda five: _grouped([low_rank(c) for c in five]))
    ranks = [low_rank(c) for c in best]
    return _grouped(ranks), tuple(sorted(ranks, reverse=True))


def ref_eight_or_better(cards: Sequence[Card]) -> tuple[int, ...] | None:
    """The best eight-or-better low's ranks high to low, or ``None``: the lowest five different
    ranks no higher than eight, compared top card first."""
    lows = [tuple(sorted((low_rank(c) for c in five), reverse=True)) for five in combinations(cards, 5)]
    qualifying = [r for r in lows if len(set(r)) == 5 and r[0] <= 8]
    return min(qualifying) if qualifying else None


def _high_category(five: Sequence[Card]) -> tuple[int, tuple[int, ...]]:
    ranks = [int(c.rank) for c in five]
    pattern, order = _grouped(ranks)
    flush = len({c.suit for c in five}) == 1
    straight = len(set(ranks)) == 5 and max(ranks) - min(ranks) == 4
    if straight and flush:
        return 8, (max(ranks),)
    if pattern == (4, 1):
        return 7, order
    if pattern == (3, 2):
        return 6, order
    if flush:
        return 5, order
    if straight:
        return 4, (max(ranks),)
    category = {(3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1, (1, 1, 1, 1, 1): 0}[pattern]
    return category, order


def ref_deuce_to_seven(cards: Sequence[Card]) -> tuple[tuple[int, tuple[int, ...]], tuple[int, ...]]:
    """``(high-poker value, the five ranks high to low)`` of the lowest five; smaller is better."""
    best = min(combinations(cards, 5), key=_high_category)
    return _high_category(best), tuple(sorted((int(c.rank) for c in best), reverse=True))


def ref_badugi(cards: Sequence[Card]) -> tuple[int, tuple[int, ...]]:
    """``(-size, ranks high to low)`` of the best badugi; smaller is better."""
    scores = []
    for size in range(1, 5):
        for combo in combinations(cards, size):
            if len({c.suit for c in combo}) == size and len({c.rank for c in combo}) == size:
                scores.append((-size, tuple(sorted((low_rank(c) for c in combo), reverse=True))))
    return min(scores)
