"""Streets as data: what each street of a game deals and how its betting opens (SPEC §2).

>>> [s.number for s in STREETS], STREETS[0].passes
([3, 4, 5, 6, 7], (False, False, True))
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Street:
    """One street of seven-card stud.

    ``passes``: one entry per pass around the table, ``True`` for a face-up card. ``burn``: a card
    is burned first when the ``burn_cards`` ruling is on. ``big_bet``: fixed limit uses the big bet.
    ``opener``: ``"bring-in"`` (lowest door card) or ``"high-hand"`` (highest showing hand).
    """

    number: int
    passes: tuple[bool, ...]
    burn: bool
    big_bet: bool
    opener: str


STREETS: tuple[Street, ...] = (
    Street(3, (False, False, True), False, False, "bring-in"),
    Street(4, (True,), True, False, "high-hand"),
    Street(5, (True,), True, True, "high-hand"),
    Street(6, (True,), True, True, "high-hand"),
    Street(7, (False,), True, True, "high-hand"),
)
"""Third to seventh street (SPEC §2, WSOP-LA stud section; burns per TDA RP-10)."""
