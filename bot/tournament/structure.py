"""A tournament's structure: its levels (the stakes of each) and how long a level lasts.

A stud level sets the ante, the bring-in and the small and big bet (fixed limit). A level also
carries ``small_blind`` and ``big_blind`` for the flop and draw games that later issues add: the
table stakes of the stud engine have no blinds yet, so until the stakes record grows fields of
those names the blinds live here only, in the level (and are stored with the tournament).

The presets ``turbo``, ``regular`` and ``slow`` share one schedule of stakes and differ in the
level's length (5, 10 and 15 minutes), the way PokerStars Home Games' and card rooms' "turbo"
events shorten the level rather than jump the stakes; home games run 15-20 minute levels with the
stakes up about half a level (docs/rules.md, "Tournaments"). Past the schedule's last level every
level doubles the one before, so a tournament always ends.

>>> s = Structure.preset("turbo")
>>> s.length, s.level(1).stakes().describe()
(LevelLength(unit='minutes', amount=5), 'fixed limit 20/40, ante 5 and bring-in 5')
>>> s.level(len(s.levels) + 1).small_bet == 2 * s.levels[-1].small_bet
True
>>> Structure.parse("5/10/20/40, 10/15/30/60", LevelLength("hands", 8)).level(2).bring_in
15
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from bot.engine.errors import StakesError
from bot.engine.stakes import TableStakes

UNITS = ("minutes", "hands")
"""How a level's length is counted."""

PRESET_NAMES = ("turbo", "regular", "slow")
"""The structure presets (contract names)."""


class StructureError(ValueError):
    """A level, a schedule or a length that cannot be played; the message says why, for people."""


@dataclass(frozen=True, slots=True)
class Level:
    """The stakes of one level, in tournament chips.

    ``ante``, ``bring_in``, ``small_bet``, ``big_bet``: the stud stakes (fixed limit).
    ``small_blind``, ``big_blind``: for blind games (flop, draw); kept with the level until the
    table stakes have blinds. Zero blinds are allowed (no blind game can be dealt at them).
    """

    ante: int
    bring_in: int
    small_bet: int
    big_bet: int
    small_blind: int = 0
    big_blind: int = 0

    def __post_init__(self) -> None:
        for name in ("ante", "bring_in", "small_bet", "big_bet", "small_blind", "big_blind"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise StructureError(f"a level's {name.replace('_', ' ')} must be a whole number of chips")
        if self.big_blind < self.small_blind:
            raise StructureError(
                f"the big blind ({self.big_blind}) cannot be less than the small blind ({self.small_blind})"
            )
        try:
            self.stakes()
        except StakesError as error:
            raise StructureError(str(error)) from None

    def stakes(self) -> TableStakes:
        """The stud table stakes of this level (fixed limit; buy-in bounds are not used by tournaments)."""
        return TableStakes.fixed_limit(
            ante=self.ante, bring_in=self.bring_in, small_bet=self.small_bet, big_bet=self.big_bet,
            min_buy_in=1, max_buy_in=1,
        )

    def doubled(self) -> Level:
        """This level with every amount doubled (the levels past a schedule's end)."""
        return Level(*(2 * v for v in (self.ante, self.bring_in, self.small_bet, self.big_bet,
                                        self.small_blind, self.big_blind)))

    def describe(self, *, blinds: bool = True) -> str:
        """``"20/40, ante 5, bring-in 5"`` (and the blinds when there are any and ``blinds``)."""
        text = f"{self.small_bet:,}/{self.big_bet:,}, ante {self.ante:,}, bring-in {self.bring_in:,}"
        if self.big_blind and blinds:
            text += f" (blinds {self.small_blind:,}/{self.big_blind:,})"
        return text

    def to_dict(self) -> dict[str, int]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Level:
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(data) - known)
        if unknown:
            raise StructureError(f"unknown level field(s): {', '.join(unknown)}")
        return cls(**dict(data))


@dataclass(frozen=True, slots=True)
class LevelLength:
    """How long a level lasts: ``amount`` minutes or hands (1 to 240)."""

    unit: str
    amount: int

    def __post_init__(self) -> None:
        if self.unit not in UNITS:
            raise StructureError(f"a level lasts some minutes or hands, not {self.unit!r}")
        if isinstance(self.amount, bool) or not isinstance(self.amount, int) or not 1 <= self.amount <= 240:
            raise StructureError(f"a level lasts 1 to 240 {self.unit}, not {self.amount!r}")

    @classmethod
    def parse(cls, text: str) -> LevelLength:
        """``"10"`` or ``"10m"``/``"10 minutes"`` (minutes), ``"8h"``/``"8 hands"`` (hands)."""
        words = text.strip().lower().replace(" ", "")
        for suffix, unit in (("minutes", "minutes"), ("minute", "minutes"), ("min", "minutes"),
                             ("m", "minutes"), ("hands", "hands"), ("hand", "hands"), ("h", "hands")):
            if words.endswith(suffix):
                number, unit_name = words[: -len(suffix)], unit
                break
        else:
            number, unit_name = words, "minutes"
        if not number.isdigit():
            raise StructureError(f"a level length is like 10m or 8h, not {text!r}")
        return cls(unit_name, int(number))

    def describe(self) -> str:
        one = self.unit[:-1]
        return f"{self.amount} {one if self.amount == 1 else self.unit}"


SCHEDULE: tuple[Level, ...] = (
    Level(5, 5, 20, 40, 10, 20),
    Level(5, 10, 30, 60, 15, 30),
    Level(10, 10, 40, 80, 20, 40),
    Level(10, 15, 60, 120, 30, 60),
    Level(15, 20, 80, 160, 40, 80),
    Level(20, 25, 100, 200, 50, 100),
    Level(25, 40, 150, 300, 75, 150),
    Level(30, 50, 200, 400, 100, 200),
    Level(50, 75, 300, 600, 150, 300),
    Level(75, 100, 400, 800, 200, 400),
    Level(100, 150, 600, 1200, 300, 600),
    Level(150, 200, 800, 1600, 400, 800),
    Level(200, 250, 1000, 2000, 500, 1000),
    Level(300, 400, 1500, 3000, 750, 1500),
    Level(400, 500, 2000, 4000, 1000, 2000),
)
"""The presets' stakes: the small bet up about 50 % a level (docs/rules.md, "Tournaments"); the
ante about a quarter of the small bet, the bring-in a quarter to a third; blinds half and one small
bet. With the default starting stack of 1,500 a player starts with 75 small bets."""

_PRESET_MINUTES = {"turbo": 5, "regular": 10, "slow": 15}

DEFAULT_STARTING_STACK = 1500


@dataclass(frozen=True, slots=True)
class Structure:
    """The levels of a tournament and the length of each. ``level(n)`` is 1-based; past the last
    level each level doubles the one before."""

    levels: tuple[Level, ...]
    length: LevelLength

    def __post_init__(self) -> None:
        if not self.levels:
            raise StructureError("a schedule needs at least one level")
        if len(self.levels) > 40:
            raise StructureError("a schedule has at most 40 levels")
        for before, after in zip(self.levels, self.levels[1:], strict=False):
            amounts = ("ante", "bring_in", "small_bet", "big_bet")
            if any(getattr(after, name) < getattr(before, name) for name in amounts):
                raise StructureError(
                    f"the stakes never go down from one level to the next ({before.describe()}"
                    f" then {after.describe()})"
                )

    @classmethod
    def preset(cls, name: str, length: LevelLength | None = None) -> Structure:
        """The preset ``turbo``, ``regular`` or ``slow``; ``length`` overrides its level length."""
        if name not in _PRESET_MINUTES:
            raise StructureError(f"unknown structure {name!r}: the presets are {', '.join(PRESET_NAMES)}")
        return cls(SCHEDULE, length or LevelLength("minutes", _PRESET_MINUTES[name]))

    @classmethod
    def parse(cls, text: str, length: LevelLength) -> Structure:
        """A custom schedule: levels separated by commas, each ``ANTE/BRING-IN/SMALL/BIG`` and
        optionally ``/SB/BB`` (blinds), e.g. ``"5/10/20/40, 10/15/30/60"``."""
        levels: list[Level] = []
        for number, part in enumerate(text.split(","), start=1):
            fields = [f.strip().replace("_", "") for f in part.strip().split("/")]
            if len(fields) not in (4, 6) or not all(f.isdigit() for f in fields):
                raise StructureError(
                    f"level {number} ({part.strip()!r}) is not ANTE/BRING-IN/SMALL/BIG[/SB/BB] in chips"
                )
            try:
                levels.append(Level(*(int(f) for f in fields)))
            except StructureError as error:
                raise StructureError(f"level {number}: {error}") from None
        return cls(tuple(levels), length)

    def level(self, number: int) -> Level:
        """The stakes of level ``number`` (1-based)."""
        if number < 1:
            raise StructureError("levels count from 1")
        if number <= len(self.levels):
            return self.levels[number - 1]
        level = self.levels[-1]
        for _ in range(number - len(self.levels)):
            level = level.doubled()
        return level

    def to_dict(self) -> dict[str, Any]:
        return {"levels": [level.to_dict() for level in self.levels],
                "length": {"unit": self.length.unit, "amount": self.length.amount}}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Structure:
        levels: Sequence[Mapping[str, Any]] = data["levels"]
        return cls(tuple(Level.from_dict(level) for level in levels), LevelLength(**data["length"]))
