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

Opener = Literal["low-card", "high-card", "high-hand", "low-hand", "button"]
"""Who opens a street's betting: a bring-in by the ``low-card`` (the lowest door card) or the
``high-card`` (razz: the highest door card, aces low); or first to act by the ``high-hand`` (the
best showing hand) or the ``low-hand`` (razz: the lowest showing hand), or the first live seat left
of the ``button`` (draw games); see ``bot.engine.hand.opening``."""


@dataclass(frozen=True, slots=True)
class Street:
    """One street: ``number`` (3 = third street), ``passes`` (per pass, ``True`` for a face-up card),
    ``burn``, ``big_bet``, ``opener`` and ``shortage`` (see the module docstring); ``draw``: the most
    cards a seat may draw on this street before its betting (draw games; 0 = no draw), each live
    seat in turn from the first left of the button (``bot.engine.hand.drawing``)."""

    number: int
    passes: tuple[bool, ...]
    burn: bool
    big_bet: bool
    opener: Opener
    shortage: bool = False
    draw: int = 0

    def __post_init__(self) -> None:
        if self.shortage and (self.passes != (False,)):
            raise ValueError("only a street of one down card can be dealt as a community card")
        if self.draw < 0 or (self.draw and any(self.passes)):
            raise ValueError("a draw street deals no face-up card and draws 0 or more cards")


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


BEFORE_DRAW, AFTER_DRAW = 20, 24
"""The draw games' street numbers: 20 before the first draw, 21..23 after the first to third draw
of a triple draw game, 24 after a single draw game's one draw (``bot.engine.vocab.STREET_NAMES``)."""


def draw_streets(cards: int, draws: int, most: int, first: Opener = "button") -> tuple[Street, ...]:
    """A draw game: ``cards`` down, a betting round opened by ``first``, then ``draws`` times a draw
    of up to ``most`` cards and a betting round opened left of the button. Fixed limit bets the
    small bet before the first draw and after it when there are three draws, the big bet after."""
    deal = Street(BEFORE_DRAW, (False,) * cards, False, False, first)
    if draws == 1:
        return deal, Street(AFTER_DRAW, (), False, True, "button", draw=most)
    return (deal, *(Street(BEFORE_DRAW + k, (), False, k >= 2, "button", draw=most)
                    for k in range(1, draws + 1)))


FIVE_CARD_DRAW_STREETS = draw_streets(5, 1, 3)
"""Five-card draw: five down, a bet, one draw of up to three (ruling ``draw_limit``), a bet."""
