"""The hand's small value types: the ``Decision`` it may wait for and the ``HandResult`` it ends with.

>>> [c.label for c in Decision(2, "buy", 20, "4h").choices]
['buy the card for 20', 'decline']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

from bot.engine.cards.card import Rank
from bot.engine.command import Command, Kind
from bot.engine.values.evaluator import HandValue
from bot.engine.values.low import LowValue

DecisionKind = Literal["buy", "pay", "draw"]
"""``buy``: buy an extra card or decline it; ``pay``: match the pot or fold; ``draw``: a draw
game's discard (``draw`` up to ``amount`` cards, or stand pat)."""


@dataclass(frozen=True, slots=True)
class Decision:
    """The hand waits for ``seat``: ``kind`` ``"buy"`` (buy the extra card for ``amount`` chips, or
    decline), ``"pay"`` (match the pot, ``amount`` chips, at most the stack, or fold) or
    ``"draw"`` (discard up to ``amount`` cards and be dealt as many, or stand pat: answered with
    ``Command(Kind.DRAW, cards=...)`` or ``Command(Kind.STAND)``; the timer stands pat).
    ``card``: the face-up card that asks for it (``""`` for a draw)."""

    seat: int
    kind: DecisionKind
    amount: int
    card: str

    @property
    def choices(self) -> tuple[Command, Command]:
        """The yes and the no, as commands: buy or decline, pay or fold."""
        if self.kind == "buy":
            return Command(Kind.BUY, self.amount), Command(Kind.DECLINE)
        if self.kind == "draw":
            return Command(Kind.DRAW), Command(Kind.STAND)
        return Command(Kind.PAY, self.amount), Command(Kind.FOLD)


@dataclass(frozen=True, slots=True)
class PotResult:
    """One pot at the end of the hand: ``amount``, live seats ``eligible``, ``winners`` and their
    ``shares`` (``(seat, chips)``, odd chips included, in odd-chip order)."""

    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended.

    ``pots``: main pot first. ``returned``: uncalled chips given back per seat (not winnings).
    ``shown``: each shown hand's value by seat; ``mucked``: seats that mucked; ``show_order``: the
    order hands were shown (empty when everyone else folded). ``winnings``: chips collected from
    pots per seat. ``final_stacks``: stacks after the hand. ``showdown``: False when all but one
    folded. ``wild_ranks``: the wild ranks at the end, in the order they became wild. ``lows``: in
    razz and stud hi-lo, each shown hand's low by seat (hi-lo: only hands with an eight-or-better).
    """

    pots: tuple[PotResult, ...]
    returned: tuple[int, ...]
    shown: Mapping[int, HandValue]
    mucked: tuple[int, ...]
    show_order: tuple[int, ...]
    winnings: tuple[int, ...]
    final_stacks: tuple[int, ...]
    showdown: bool
    wild_ranks: tuple[Rank, ...]
    lows: Mapping[int, LowValue] = field(default_factory=lambda: MappingProxyType({}))
