"""Streets as data: what each street of a game deals, and how its betting opens (SPEC §2, §5).

A game is a tuple of ``Street`` rows, walked in order by the hand's one street loop: burn a card
(when the ``burn_cards`` ruling is on), deal the passes (one card to each live seat per pass, face up
or down), then a betting round opened as ``opener`` says. ``shortage``: when the stub cannot give
every live seat this street's card, one community card is dealt face up for all (TDA RP-10H; only
a last, single-pass down street can have it). ``big_bet``: fixed limit bets the big bet.

>>> [s.number for s in STREETS], STREETS[0].passes, STREETS[0].opener
([3, 4, 5, 6, 7], (False, False, True), 'low-card')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Opener = Literal["low-card", "high-card", "high-hand", "low-hand"]
"""Who opens a street's betting: a bring-in by the ``low-card`` (the lowest door card) or the
``high-card`` (razz: the highest door card, aces low); or first to act by the ``high-hand`` (the
best showing hand) or the ``low-hand`` (razz: the lowest showing hand); see
``bot.engine.hand.opening``."""


@dataclass(frozen=True, slots=True)
class Street:
    """One street: ``number`` (3 = third street), ``passes`` (per pass, ``True`` for a face-up card),
    ``burn``, ``big_bet``, ``opener`` and ``shortage`` (see the module docstring)."""

    number: int
    passes: tuple[bool, ...]
    burn: bool
    big_bet: bool
    opener: Opener
    shortage: bool = False

    def __post_init__(self) -> None:
        if self.shortage and (self.passes != (False,)):
            raise ValueError("only a street of one down card can be dealt as a community card")


def stud_streets(bring_in: Opener = "low-card", later: Opener = "high-hand") -> tuple[Street, ...]:
    """Seven-card stud's five streets, opened by ``bring_in`` on third street and ``later`` after."""
    return (
        Street(3, (False, False, True), False, False, bring_in),
        Street(4, (True,), True, False, later),
        Street(5, (True,), True, True, later),
        Street(6, (True,), True, True, later),
        Street(7, (False,), True, True, later, shortage=True),
    )


STREETS = stud_streets()
"""Seven-card stud: third to seventh street (SPEC §2, WSOP-LA stud section; burns per TDA RP-10)."""

RAZZ_STREETS = stud_streets("high-card", "low-hand")
"""Razz: the stud deal, the highest door card brings in, the lowest showing hand acts first."""
