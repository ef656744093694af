"""Prizes: the payout percentages, whole-chip prizes that sum to the pool, ties, and the
independent chip model (ICM) for a tournament stopped before its end.

Percentages (docs/rules.md, "Tournaments"): 65/35 for up to 6 entrants and 50/30/20 for 7 to 9
(the World Series of Poker's online sit-and-go rules; PokerStrategy's and PokerDictionary's
glossaries give the same 9-player split), or ``winner-takes-all``. Prizes are whole chips: each
place gets its share rounded down and the chips left over go to the best places, one each, so
the prizes always sum to the pool.

>>> prizes(1000, percentages("standard", 6))
(650, 350)
>>> prizes(100, (50, 30, 20)), prizes(7, (65, 35))
((50, 30, 20), (5, 2))
>>> [round(float(v), 2) for v in icm_equity([50, 30, 20], [70, 30])]
[45.18, 32.25, 22.57]
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache

PAYOUTS = ("standard", "winner-takes-all")
"""The payout options (contract names); ``standard`` is the default."""


def percentages(scheme: str, entrants: int) -> tuple[int, ...]:
    """The percentage of the pool each place wins, best first, for ``entrants`` players."""
    if scheme not in PAYOUTS:
        raise ValueError(f"unknown payouts {scheme!r}: choose {' or '.join(PAYOUTS)}")
    if entrants < 1:
        raise ValueError("a tournament needs entrants")
    if scheme == "winner-takes-all" or entrants == 1:
        return (100,)
    return (65, 35) if entrants <= 6 else (50, 30, 20)


def prizes(pool: int, shares: Sequence[int]) -> tuple[int, ...]:
    """Whole-chip prizes of ``pool`` split by ``shares`` (percentages or any weights), best place
    first; the remainder of the rounding goes one chip each to the best places."""
    if pool < 0:
        raise ValueError("the pool cannot be negative")
    total = sum(shares)
    base = [pool * share // total for share in shares]
    left = pool - sum(base)
    for index in range(left):
        base[index % len(base)] += 1
    return tuple(base)


def split_tied(amounts: Sequence[int]) -> tuple[int, ...]:
    """Players tied for some places share those places' prizes equally; the odd chips go one each
    to the first of them (listed in the order they are to get them)."""
    total, count = sum(amounts), len(amounts)
    return tuple(total // count + (1 if index < total % count else 0) for index in range(count))


def icm_equity(stacks: Sequence[int], payouts: Sequence[int | Fraction]) -> list[Fraction]:
    """Each player's expected prize by the Malmuth-Harville model: the chance to finish first is
    the share of the chips; given the places above, the chance to finish next is the share of the
    chips left. Exact (fractions), over every finishing order of the paid places; players without
    chips get nothing."""
    if any(s < 0 for s in stacks) or sum(stacks) <= 0:
        raise ValueError("ICM needs chips in play")
    count = len(stacks)
    paid = list(payouts)[:count]
    alive = tuple(i for i, s in enumerate(stacks) if s > 0)

    @cache
    def value(remaining: frozenset[int], place: int) -> tuple[Fraction, ...]:
        # Expected prize of each player from ``place`` on, with ``remaining`` still to place.
        result = [Fraction(0)] * count
        if place >= len(paid) or not remaining:
            return tuple(result)
        chips = sum(stacks[i] for i in remaining)
        for winner in remaining:
            chance = Fraction(stacks[winner], chips)
            result[winner] += chance * paid[place]
            rest = value(remaining - {winner}, place + 1)
            for i in remaining:
                result[i] += chance * rest[i]
        return tuple(result)

    return list(value(frozenset(alive), 0))


def icm_prizes(stacks: Sequence[int], payouts: Sequence[int]) -> tuple[int, ...]:
    """Whole-chip ICM prizes: the players with chips share the prizes of as many places as there
    are of them (the sum of those payouts). Each equity is rounded down and the chips left over go
    one each to the largest fractions (ties: the bigger stack, then the earlier player)."""
    alive = sum(1 for s in stacks if s > 0)
    pool = sum(payouts[:alive])
    equity = icm_equity(stacks, payouts)
    base = [int(e) for e in equity]  # floor: equities are never negative
    left = pool - sum(base)
    order = sorted(range(len(stacks)), key=lambda i: (-(equity[i] - base[i]), -stacks[i], i))
    for index in order[:left]:
        base[index] += 1
    return tuple(base)
