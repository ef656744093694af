"""Omaha's values against slow references that share no code with the engine: every choice of two
hole cards and three board cards valued by ``tests.reference_evaluator`` (high) and
``tests.reference_low`` (eight-or-better low), on random deals with and without a wild rank."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.cards.card import FULL_DECK, Card, Rank
from bot.engine.values.board import omaha_high, omaha_low
from tests.reference_evaluator import category_name, reference_evaluate, score_key
from tests.reference_low import ref_eight_or_better

DEALS = st.permutations(FULL_DECK).map(lambda deck: (deck[:4], deck[4:9]))
WILDS = st.sampled_from([frozenset(), frozenset({Rank.TWO}), frozenset({Rank.JACK})])


def reference_high(hole: list[Card], board: list[Card], wild: frozenset[Rank]) -> tuple[str, tuple[int, ...]]:
    best = max((reference_evaluate([*two, *three], wild)[0]
                for two in combinations(hole, 2) for three in combinations(board, 3)), key=score_key)
    return category_name(best), best[1]


def reference_low(hole: list[Card], board: list[Card]) -> tuple[int, ...] | None:
    lows = [low for two in combinations(hole, 2) for three in combinations(board, 3)
            if (low := ref_eight_or_better([*two, *three])) is not None]
    return min(lows) if lows else None


@settings(max_examples=150, deadline=None)
@given(DEALS, WILDS)
def test_omaha_high_is_the_best_two_plus_three(deal: tuple[list[Card], list[Card]],
                                               wild: frozenset[Rank]) -> None:
    hole, board = deal
    value = omaha_high(hole, board, wild)
    assert (value.category.value, tuple(int(r) for r in value.ranks)) == reference_high(hole, board, wild)
    used = [c for c in value.best if c in hole]
    assert len(used) == 2 and len(value.best) == 5          # exactly two of the hand


@settings(max_examples=300, deadline=None)
@given(DEALS)
def test_omaha_low_is_the_best_two_plus_three(deal: tuple[list[Card], list[Card]]) -> None:
    hole, board = deal
    low = omaha_low(hole, board)
    expected = reference_low(hole, board)
    if expected is None:
        assert low is None
    else:
        assert low is not None and low.ranks == expected
