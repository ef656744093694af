"""The fewest payments that square up a night's results (pure; no SQL).

Given each member's net result (winners positive, losers negative, summing to zero), find payments
"loser pays winner" that bring everyone to zero, as few as possible.

With ``n`` members not at zero, any set of payments forms groups that settle among themselves;
a group of ``k`` needs at least ``k - 1`` payments, and ``k - 1`` suffice (pay the largest debt to
the largest credit until the group is square: each payment clears at least one member and the last
clears two). So the minimum is ``n - g`` where ``g`` is the largest number of groups, each summing
to zero, that the members can be split into. For up to :data:`EXACT_LIMIT` members we find that
split exactly (a dynamic programme over subsets, ``O(2^n * n)``); beyond it we use the largest-
debtor / largest-creditor greedy match on everyone, which needs at most ``n - 1`` payments.

>>> [(p.payer, p.payee, p.amount) for p in square_up({1: 120, 2: -120, 3: 50, 4: -50})]
[(2, 1, 120), (4, 3, 50)]
>>> square_up({1: 0})
[]
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence

from bot.store.records import Payment

EXACT_LIMIT = 14
"""Largest number of non-zero members solved exactly (2^14 subsets: well under 0.1 s)."""


def square_up(net: Mapping[int, int]) -> list[Payment]:
    """The payments that bring every member's ``net`` to zero, fewest possible for up to
    :data:`EXACT_LIMIT` members with a non-zero result.

    Payments are listed largest first (ties by payer, then payee), so the answer is
    deterministic. Raises ``ValueError`` if the results do not sum to zero.
    """
    if sum(net.values()) != 0:
        raise ValueError("net results must sum to zero")
    members = sorted(m for m, v in net.items() if v != 0)
    groups = (
        _zero_sum_groups([net[m] for m in members])
        if len(members) <= EXACT_LIMIT
        else [list(range(len(members)))]
    )
    payments: list[Payment] = []
    for group in groups:
        payments.extend(_greedy({members[i]: net[members[i]] for i in group}))
    return sorted(payments, key=lambda p: (-p.amount, p.payer, p.payee))


def _zero_sum_groups(values: Sequence[int]) -> list[list[int]]:
    """Split indexes of ``values`` (summing to zero) into the most groups that each sum to zero."""
    n = len(values)
    if n == 0:
        return []
    full = (1 << n) - 1
    sums = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + values[low.bit_length() - 1]
    # best[mask]: the most zero-sum prefixes over orderings of the members in ``mask``.
    best = [0] * (full + 1)
    for mask in range(1, full + 1):
        top = 0
        rest = mask
        while rest:
            bit = rest & -rest
            rest ^= bit
            if best[mask ^ bit] > top:
                top = best[mask ^ bit]
        best[mask] = top + (1 if sums[mask] == 0 else 0)
    # Walk back to an ordering achieving it; its zero-sum prefixes cut it into groups.
    order: list[int] = []
    mask = full
    while mask:
        want = best[mask] - (1 if sums[mask] == 0 else 0)
        rest = mask
        while rest:
            bit = rest & -rest
            rest ^= bit
            if best[mask ^ bit] == want:
                order.append(bit.bit_length() - 1)
                mask ^= bit
                break
    order.reverse()
    groups: list[list[int]] = []
    current: list[int] = []
    running = 0
    for index in order:
        current.append(index)
        running += values[index]
        if running == 0:
            groups.append(sorted(current))
            current = []
    assert not current
    return groups


def _greedy(net: Mapping[int, int]) -> list[Payment]:
    """Largest debtor pays largest creditor, repeatedly (``net`` sums to zero)."""
    debtors = [(v, m) for m, v in net.items() if v < 0]  # most negative first
    creditors = [(-v, m) for m, v in net.items() if v > 0]  # largest credit first
    heapq.heapify(debtors)
    heapq.heapify(creditors)
    payments: list[Payment] = []
    while debtors and creditors:
        debt, payer = heapq.heappop(debtors)
        credit, payee = heapq.heappop(creditors)
        amount = min(-debt, -credit)
        payments.append(Payment(payer=payer, payee=payee, amount=amount))
        if debt + amount < 0:
            heapq.heappush(debtors, (debt + amount, payer))
        if credit + amount < 0:
            heapq.heappush(creditors, (credit + amount, payee))
    assert not debtors and not creditors
    return payments
