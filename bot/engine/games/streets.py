"""Streets as data: what each street of a game deals, and how its betting opens (SPEC §2, §5).

A game is a tuple of ``Street`` rows, walked in order by the hand's one street loop: burn a card
(when the ``burn_cards`` ruling is on), deal the passes (one card to each live seat per pass, face up
or down), then a betting round opened as ``opener`` says. ``shortage``: when the stub cannot give
every live seat this street's card, one community card is dealt face up for all (TDA RP-10H; only
a last, single-pass down street can have it). ``big_bet``: fixed limit bets the big bet.
``board``: cards dealt face up to the shared board on this street (the flop games: three on the
flop, one on the turn and one on the river), after the burn and the passes. ``discard``: before
this street's cards each live seat throws away that many of its down cards (Crazy Pineapple: one,
after the flop betting).

Street numbers are unique across every family, so a number alone names a street in the log and the
narration (``bot.engine.vocab.STREET_NAMES``): stud's are 3..7 (third to seventh street), the flop
games' 10..13 (pre-flop, flop, turn, river), the draw games' 20..24 (``draw_streets``).

>>> [s.number for s in STREETS], STREETS[0].passes, STREETS[0].opener
([3, 4, 5, 6, 7], (False, False, True), 'low-card')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Opener = Literal["low-card", "high-card", "high-hand", "low-hand", "blinds", "button"]
"""Who opens a street's betting: a bring-in by the ``low-card`` (the lowest door card) or the
``high-card`` (razz: the highest door card, aces low); or first to act by the ``high-hand`` (the
best showing hand) or the ``low-hand`` (razz: the lowest showing hand); or by position: ``blinds``
(the blinds are posted from the button before the street's cards, and the first seat left of the
big blind, or of the straddle, acts first; heads-up the button is the small blind and acts first)
and ``button`` (the first live seat left of the button); see ``bot.engine.hand.opening``."""

POSITIONAL: frozenset[Opener] = frozenset({"blinds", "button"})
"""Openers that go by the button's position (the flop games and the draw games)."""


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
    board: int = 0
    discard: int = 0

    def __post_init__(self) -> None:
        if self.shortage and (self.passes != (False,)):
            raise ValueError("only a street of one down card can be dealt as a community card")
        if self.draw < 0 or (self.draw and any(self.passes)):
            raise ValueError("a draw street deals no face-up card and draws 0 or more cards")
        if self.board < 0:
            raise ValueError("a street cannot deal a negative number of board cards")


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

TRIPLE_DRAW_STREETS = draw_streets(5, 3, 5, "blinds")
"""Deuce-to-seven triple draw: blinds, five down, a bet, then three times a draw of any number of
cards and a bet (the small bet before the second draw, the big bet after)."""

BADUGI_STREETS = draw_streets(4, 3, 4, "blinds")
"""Badugi: as triple draw with four cards."""
PRE_FLOP, FLOP, TURN, RIVER = 10, 11, 12, 13
"""The flop games' street numbers (see the module docstring)."""


def flop_streets(down: int, discard: int = 0) -> tuple[Street, ...]:
    """A flop game's four streets: ``down`` cards to each seat pre-flop (the blinds open), then the
    flop (three board cards), the turn and the river (one each), each after a burn and opened by
    the first live seat left of the button; fixed limit bets the big bet on the turn and river.
    ``discard``: down cards each seat throws away after the flop betting, before the turn."""
    return (
        Street(PRE_FLOP, (False,) * down, False, False, "blinds"),
        Street(FLOP, (), True, False, "button", board=3),
        Street(TURN, (), True, True, "button", board=1, discard=discard),
        Street(RIVER, (), True, True, "button", board=1),
    )


HOLDEM_STREETS = flop_streets(2)
"""Texas Hold'em: two down cards each, a board of five."""

OMAHA_STREETS = flop_streets(4)
"""Omaha: four down cards each, a board of five."""

PINEAPPLE_STREETS = flop_streets(3, discard=1)
"""Crazy Pineapple: three down cards each, one thrown away after the flop betting."""
