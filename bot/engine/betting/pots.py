"""Pots from contributions (SPEC §6): main pot, side pots and the uncalled bet.

Pots are derived, never kept: from each seat's total contribution to the hand and whether it is
still live (not folded). The distinct contribution levels of the live seats cut the chips into
layers; each layer is a pot the live seats that reached it may win. Folded chips stay in the pots
they reached. Chips that no other seat matched -- the part of the single highest contribution above
the next highest -- are an uncalled bet and go back to their owner (this includes a bring-in that
everyone folds to); returned chips are not winnings.

>>> split = split_pots([100, 300, 300, 50], [True, True, True, False])
>>> [(p.amount, p.eligible) for p in split.pots]
[(350, (0, 1, 2)), (400, (1, 2))]
>>> split.returned
(0, 0, 0, 0)
>>> uncalled([15, 75, 15], [False, True, False])   # everyone folds to a 60 bet on fifth street
(1, 60)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pot:
    """One pot: ``amount`` in chips and the live seats ``eligible`` to win it (ascending)."""

    amount: int
    eligible: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PotSplit:
    """``pots``: main pot first, then side pots; ``returned``: uncalled chips per seat."""

    pots: tuple[Pot, ...]
    returned: tuple[int, ...]


def uncalled(contributions: Sequence[int], live: Sequence[bool]) -> tuple[int | None, int]:
    """The uncalled bet: ``(seat, chips)`` if one live seat's contribution is above every other
    seat's (live or folded), else ``(None, 0)``. The chips are the difference to the next highest.
    """
    top = -1
    top_seat: int | None = None
    second = 0
    for seat, amount in enumerate(contributions):
        if amount > top:
            if top >= 0:
                second = top
            top, top_seat = amount, seat
        elif amount > second:
            second = amount
    if top_seat is None or top <= second or not live[top_seat]:
        return None, 0
    return top_seat, top - second


def split_pots(contributions: Sequence[int], live: Sequence[bool]) -> PotSplit:
    """Cut total contributions into pots (SPEC §6), after taking out the uncalled bet.

    ``contributions[i]``: chips seat ``i`` put in this hand (antes included); ``live[i]``: seat ``i``
    has not folded. Returns the pots (empty pots are left out) and the chips returned per seat. The
    sum of the pots plus the returned chips equals the sum of the contributions.
    """
    n = len(contributions)
    amounts = list(contributions)
    returned = [0] * n
    seat, chips = uncalled(amounts, live)
    if seat is not None:
        returned[seat] = chips
        amounts[seat] -= chips
    levels = sorted({amounts[i] for i in range(n) if live[i] and amounts[i] > 0})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = 0
        for a in amounts:
            if a > previous:
                amount += (a if a < level else level) - previous
        eligible = tuple(i for i in range(n) if live[i] and amounts[i] >= level)
        if amount:
            pots.append(Pot(amount, eligible))
        previous = level
    # Folded chips above the highest live contribution (only possible in odd sequences) join the top pot.
    leftover = sum(a - previous for a in amounts if a > previous)
    if leftover:
        if pots:
            pots[-1] = Pot(pots[-1].amount + leftover, pots[-1].eligible)
        else:
            pots.append(Pot(leftover, tuple(i for i in range(n) if live[i])))
    return PotSplit(tuple(pots), tuple(returned))


def share_pot(amount: int, winners_in_odd_chip_order: Sequence[int]) -> dict[int, int]:
    """Split ``amount`` among the winners: equal shares, the odd chips one each in the given order.

    >>> share_pot(101, [2, 0])
    {2: 51, 0: 50}
    """
    k = len(winners_in_odd_chip_order)
    share, odd = divmod(amount, k)
    return {seat: share + (1 if i < odd else 0) for i, seat in enumerate(winners_in_odd_chip_order)}


def chicago_shares(amount: int, high_winners: Sequence[int], spade: int | None) -> dict[int, int]:
    """Split one pot: the high half (the odd chip with it) among ``high_winners`` (given in odd-chip
    order), the other half to ``spade``; with no spade the high hands take it all.

    >>> chicago_shares(45, [0], 1)
    {0: 23, 1: 22}
    >>> chicago_shares(45, [0], 0)
    {0: 45}
    """
    if spade is None:
        return share_pot(amount, high_winners)
    spade_half = amount // 2
    shares = share_pot(amount - spade_half, high_winners)
    shares[spade] = shares.get(spade, 0) + spade_half
    return shares
