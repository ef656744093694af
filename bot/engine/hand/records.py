"""The hand's small value types: the ``Decision`` it may wait for and the ``HandResult`` it ends with.

>>> [c.label for c in Decision(2, "buy", 20, "4h").choices]
['buy the card for 20', 'decline']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

from bot.engine.cards.card import Card, Rank
from bot.engine.command import Command, Kind
from bot.engine.values.evaluator import HandValue
from bot.engine.values.low import LowValue

DecisionKind = Literal["buy", "pay", "discard", "run_twice", "draw"]
"""``buy``: buy an extra card or decline it; ``pay``: match the pot or fold; ``discard``: throw
away one of your down cards (Crazy Pineapple); ``run_twice``: deal the rest of the board twice, or
once; ``draw``: a draw game's draw (up to ``amount`` cards, or stand pat)."""


@dataclass(frozen=True, slots=True)
class Decision:
    """The hand waits for ``seat``: ``kind`` ``"buy"`` (buy the extra card for ``amount`` chips, or
    decline), ``"pay"`` (match the pot, ``amount`` chips, at most the stack, or fold), ``"discard"``
    (one of ``cards``, the seat's down cards; ``amount`` 0), ``"run_twice"`` (run it twice or
    once; ``amount`` 0) or ``"draw"`` (discard up to ``amount`` cards and be dealt as many, or
    stand pat: answered with ``Command(Kind.DRAW, cards=...)`` or ``Command(Kind.STAND)``; the
    timer stands pat). ``card``: the face-up card that asks for it ("" when no card asks).
    ``fallback``: the card a timer discards (``discard``)."""

    seat: int
    kind: DecisionKind
    amount: int
    card: str
    cards: tuple[Card, ...] = ()
    fallback: Card | None = None

    @property
    def choices(self) -> tuple[Command, ...]:
        """The answers, as commands: the yes first and the no (what a timer does) last -- buy or
        decline, pay or fold, run it twice or once -- or a discard of each card."""
        if self.kind == "buy":
            return Command(Kind.BUY, self.amount), Command(Kind.DECLINE)
        if self.kind == "draw":
            return Command(Kind.DRAW), Command(Kind.STAND)
        if self.kind == "discard":
            return tuple(Command(Kind.DISCARD, cards=(card,)) for card in self.cards)
        if self.kind == "run_twice":
            return Command(Kind.RUN_TWICE), Command(Kind.RUN_ONCE)
        return Command(Kind.PAY, self.amount), Command(Kind.FOLD)

    @property
    def timeout_choice(self) -> Command:
        """What the timer answers: decline, fold, run it once, or discard ``fallback``."""
        if self.kind == "discard":
            assert self.fallback is not None
            return Command(Kind.DISCARD, None, True, (self.fallback,))
        return Command(self.choices[-1].kind, None, True)


@dataclass(frozen=True, slots=True)
class PotResult:
    """One pot at the end of the hand: ``amount``, live seats ``eligible``, ``winners`` and their
    ``shares`` (``(seat, chips)``, odd chips included, in odd-chip order); ``run``: 1 for the second
    run's half of a pot when the hand is run twice, else 0."""

    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[tuple[int, int], ...]
    run: int = 0


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended.

    ``pots``: main pot first. ``returned``: uncalled chips given back per seat (not winnings).
    ``shown``: each shown hand's value by seat; ``mucked``: seats that mucked; ``show_order``: the
    order hands were shown (empty when everyone else folded). ``winnings``: chips collected from
    pots per seat. ``final_stacks``: stacks after the hand. ``showdown``: False when all but one
    folded. ``wild_ranks``: the wild ranks at the end, in the order they became wild. ``lows``: in
    razz and stud hi-lo, each shown hand's low by seat (hi-lo: only hands with an eight-or-better).
    ``boards``: a flop game's board, or both when the hand was run twice; then ``pots`` holds the
    first run's halves and then the second's (``PotResult.run``), and ``second_shown`` /
    ``second_lows`` the hands' values on the second board (``shown``/``lows``: on the first).
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
    boards: tuple[tuple[Card, ...], ...] = ()
    second_shown: Mapping[int, HandValue] = field(default_factory=lambda: MappingProxyType({}))
    second_lows: Mapping[int, LowValue] = field(default_factory=lambda: MappingProxyType({}))
