"""The settle-up minimiser against an independent exhaustive search."""

from __future__ import annotations

import itertools
from collections import defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.store import square_up
from bot.store.settle_up import EXACT_LIMIT


def brute_force_minimum(net: dict[int, int]) -> int:
    """Fewest payments, by trying every way to settle the first unsettled member against each
    member of the opposite sign (exhaustive backtracking, exponential; an independent method)."""
    debts = [v for v in net.values() if v]

    def search(start: int) -> int:
        while start < len(debts) and debts[start] == 0:
            start += 1
        if start == len(debts):
            return 0
        best = len(debts)
        for j in range(start + 1, len(debts)):
            if debts[j] * debts[start] < 0:
                debts[j] += debts[start]
                best = min(best, 1 + search(start + 1))
                debts[j] -= debts[start]
        return best

    return search(0)


def balanced(values: list[int]) -> dict[int, int]:
    """Member ids 1.. with these results, plus one member absorbing the remainder."""
    net = {i + 1: v for i, v in enumerate(values)}
    net[len(values) + 1] = -sum(values)
    return net


def check_squares(net: dict[int, int], payments) -> None:
    after: dict[int, int] = defaultdict(int, net)
    for p in payments:
        assert p.amount > 0 and p.payer != p.payee
        assert net[p.payer] < 0 < net[p.payee]  # only losers pay, only winners are paid
        after[p.payer] += p.amount
        after[p.payee] -= p.amount
    assert all(v == 0 for v in after.values())


# Small amounts make zero-sum sub-groups (where greedy alone is not optimal) common.
@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-6, 6), min_size=0, max_size=7))
def test_square_up_is_minimal_and_squares_everyone(values: list[int]) -> None:
    net = balanced(values)
    payments = square_up(net)
    check_squares(net, payments)
    assert len(payments) == brute_force_minimum(net)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-500, 500), min_size=EXACT_LIMIT, max_size=EXACT_LIMIT + 6))
def test_large_groups_still_square_up_within_n_minus_one(values: list[int]) -> None:
    net = balanced(values)
    payments = square_up(net)
    check_squares(net, payments)
    assert len(payments) <= max(0, sum(1 for v in net.values() if v) - 1)


def test_pairs_that_cancel_settle_separately() -> None:
    # {+4, +4, -8} and {+6, -3, -3} each square up internally with 2 payments: 4 in all. Greedy on
    # everyone at once first matches -8 with +6 and needs 5 (by hand: 6, 3, 3, 1, 1).
    net = {1: 4, 2: 4, 3: -8, 4: 6, 5: -3, 6: -3}
    payments = square_up(net)
    check_squares(net, payments)
    assert len(payments) == 4 == brute_force_minimum(net)


def test_refuses_results_that_do_not_sum_to_zero() -> None:
    with pytest.raises(ValueError):
        square_up({1: 5, 2: -4})


def test_brute_force_reference_on_a_known_case() -> None:
    # A owes 10, B owes 20, C is owed 30: two payments; everyone square needs none.
    assert brute_force_minimum({1: -10, 2: -20, 3: 30}) == 2
    assert brute_force_minimum({1: 0, 2: 0}) == 0
    assert all(brute_force_minimum(dict(enumerate(p))) == 1 for p in itertools.permutations([5, -5]))
