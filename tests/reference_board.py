"""Slow, independent references for the flop games' hand values (brute force; tests only).

Written from the rules, not from ``bot.engine.values.board``: every legal five is listed (any five
of hole and board for Hold'em; exactly two hole cards with exactly three board cards for Omaha),
each is scored by the slow references (``reference_evaluator`` for high; for low every rank each
wild could name, scored as a plain tuple), and the best is kept. No masks, tables or caches of the
fast code.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from functools import cache
from itertools import combinations, combinations_with_replacement

from bot.engine.cards.card import Card, Rank
from tests.reference_evaluator import Score, reference_evaluate, score_key


def holdem_fives(hole: Sequence[Card], board: Sequence[Card]) -> list[tuple[Card, ...]]:
    return list(combinations((*hole, *board), 5))


def omaha_fives(hole: Sequence[Card], board: Sequence[Card]) -> list[tuple[Card, ...]]:
    return [two + three for two in combinations(hole, 2) for three in combinations(board, 3)]


def ref_high(fives: Sequence[Sequence[Card]], wild: Collection[Rank],
             wild_in_flush: str = "any-card") -> Score:
    """The best high score over the given fives."""
    return max((reference_evaluate(list(five), wild, wild_in_flush)[0] for five in fives), key=score_key)


def _low_rank(card: Card) -> int:
    return 1 if card.rank is Rank.ACE else int(card.rank)


@cache
def _best_named(naturals: tuple[int, ...], wilds: int) -> tuple[int, ...] | None:
    """The best eight-or-better low (ranks high to low) of these natural low ranks with ``wilds``
    wild cards naming any ranks (only ace to eight can make such a low), or ``None``."""
    best: tuple[int, ...] | None = None
    for named in combinations_with_replacement(range(1, 9), wilds):
        ranks = naturals + named
        if max(ranks) > 8 or max(Counter(ranks).values()) > 1:
            continue
        low = tuple(sorted(ranks, reverse=True))
        if best is None or low < best:
            best = low
    return best


def ref_eight_low(fives: Sequence[Sequence[Card]], wild: Collection[Rank]) -> tuple[int, ...] | None:
    """The best eight-or-better low's ranks (high to low, ace 1) over the fives, or ``None``."""
    lows = []
    for five in fives:
        naturals = tuple(sorted(_low_rank(c) for c in five if c.rank not in wild))
        low = _best_named(naturals, 5 - len(naturals))
        if low is not None:
            lows.append(low)
    return min(lows) if lows else None
