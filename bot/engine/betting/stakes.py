"""Table stakes (SPEC §5): the betting structure and its amounts, in whole chips.

>>> s = TableStakes.fixed_limit(ante=5, bring_in=10, small_bet=20, big_bet=40)
>>> s.bet_unit(3), s.bet_unit(5)
(20, 40)
>>> TableStakes.from_dict(s.to_dict()) == s
True
>>> TableStakes.fixed_limit(ante=5, bring_in=20, small_bet=20, big_bet=40)
Traceback (most recent call last):
...
bot.engine.errors.StakesError: the bring-in (20) must be less than the small bet (20)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any

from bot.engine.errors import StakesError

STRUCTURES: tuple[str, ...] = ("fixed-limit", "pot-limit", "no-limit")
"""Betting structures, default first."""


@dataclass(frozen=True, slots=True)
class TableStakes:
    """Stakes of a table, all in chips (``int``).

    ``structure``: ``fixed-limit`` (``small_bet`` on third and fourth street, ``big_bet`` on fifth to
    seventh), ``pot-limit`` or ``no-limit`` (``min_bet``: the smallest bet, and the smallest first
    wager above the bring-in). ``ante`` may be 0; ``bring_in`` is a forced bet above 0 and below the
    small bet (or minimum bet). ``min_buy_in``/``max_buy_in`` bound what a player brings to the table.
    Fields of the other structure are 0. Invalid combinations raise ``StakesError`` (a ValueError).
    """

    structure: str = "fixed-limit"
    ante: int = 5
    bring_in: int = 10
    small_bet: int = 20
    big_bet: int = 40
    min_bet: int = 0
    min_buy_in: int = 400
    max_buy_in: int = 4000
    small_blind: int = 0
    big_blind: int = 0

    def __post_init__(self) -> None:
        if self.structure not in STRUCTURES:
            raise StakesError(f"unknown structure {self.structure!r}: choose one of {', '.join(STRUCTURES)}")
        for name in ("ante", "bring_in", "small_bet", "big_bet", "min_bet", "min_buy_in", "max_buy_in",
                     "small_blind", "big_blind"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise StakesError(f"{name} must be a whole number of chips, not {value!r}")
            if value < 0:
                raise StakesError(f"{name} cannot be negative ({value})")
        if self.bring_in <= 0:
            raise StakesError(f"the bring-in must be more than zero (got {self.bring_in})")
        if self.structure == "fixed-limit":
            if self.small_bet <= 0:
                raise StakesError("fixed limit needs a small bet above zero")
            if self.bring_in >= self.small_bet:
                raise StakesError(
                    f"the bring-in ({self.bring_in}) must be less than the small bet ({self.small_bet})"
                )
            if self.big_bet < self.small_bet:
                raise StakesError(
                    f"the big bet ({self.big_bet}) cannot be less than the small bet ({self.small_bet})"
                )
            if self.min_bet != 0:
                raise StakesError("fixed limit uses small_bet and big_bet, not min_bet (leave it 0)")
        else:
            if self.min_bet <= 0:
                raise StakesError(f"{self.structure} needs a minimum bet above zero")
            if self.bring_in >= self.min_bet:
                raise StakesError(
                    f"the bring-in ({self.bring_in}) must be less than the minimum bet ({self.min_bet})"
                )
            if self.small_bet != 0 or self.big_bet != 0:
                raise StakesError(f"{self.structure} uses min_bet, not small_bet/big_bet (leave them 0)")
        if self.small_blind > self.big_blind:
            raise StakesError(
                f"the small blind ({self.small_blind}) cannot be more than the big blind ({self.big_blind})"
            )
        if self.min_buy_in <= 0:
            raise StakesError("the minimum buy-in must be more than zero")
        if self.max_buy_in < self.min_buy_in:
            raise StakesError(
                f"the maximum buy-in ({self.max_buy_in}) is below the minimum buy-in ({self.min_buy_in})"
            )

    @classmethod
    def fixed_limit(
        cls, *, ante: int, bring_in: int, small_bet: int, big_bet: int,
        min_buy_in: int | None = None, max_buy_in: int | None = None,
    ) -> TableStakes:
        """Fixed-limit stakes; buy-ins default to 10 and 100 big bets."""
        return cls(
            "fixed-limit", ante, bring_in, small_bet, big_bet, 0,
            min_buy_in if min_buy_in is not None else 10 * big_bet,
            max_buy_in if max_buy_in is not None else 100 * big_bet,
        )

    @classmethod
    def pot_limit(
        cls, *, ante: int, bring_in: int, min_bet: int,
        min_buy_in: int | None = None, max_buy_in: int | None = None,
    ) -> TableStakes:
        """Pot-limit stakes; buy-ins default to 20 and 200 minimum bets."""
        return cls(
            "pot-limit", ante, bring_in, 0, 0, min_bet,
            min_buy_in if min_buy_in is not None else 20 * min_bet,
            max_buy_in if max_buy_in is not None else 200 * min_bet,
        )

    @classmethod
    def no_limit(
        cls, *, ante: int, bring_in: int, min_bet: int,
        min_buy_in: int | None = None, max_buy_in: int | None = None,
    ) -> TableStakes:
        """No-limit stakes; buy-ins default to 20 and 200 minimum bets."""
        return cls(
            "no-limit", ante, bring_in, 0, 0, min_bet,
            min_buy_in if min_buy_in is not None else 20 * min_bet,
            max_buy_in if max_buy_in is not None else 200 * min_bet,
        )

    def with_blinds(self, small_blind: int, big_blind: int) -> TableStakes:
        """A copy with the blinds of the flop games set (validated as the constructor does)."""
        return replace(self, small_blind=small_blind, big_blind=big_blind)

    def with_standard_blinds(self) -> TableStakes:
        """These stakes with blinds for the flop games when none are set: the big blind is the
        small bet (fixed limit) or the minimum bet (pot and no limit), the small blind half of it
        (at least 1), so a table's flop games play for the same bets as its stud games.

        >>> small, micro = PRESETS["small"].with_standard_blinds(), PRESETS["micro"].with_standard_blinds()
        >>> small.small_blind, small.big_blind, micro.small_blind, micro.big_blind
        (10, 20, 1, 2)
        """
        if self.big_blind:
            return self
        big = self.small_bet if self.structure == "fixed-limit" else self.min_bet
        return self.with_blinds(max(1, big // 2), big)

    def check_blinds(self) -> None:
        """``StakesError`` unless these stakes can deal a game with blinds (a big blind above 0)."""
        if self.big_blind <= 0:
            raise StakesError("a game with blinds needs a big blind above zero (set big_blind)")

    def blind_bet_unit(self, big_bet: bool) -> int:
        """A game with blinds: fixed limit's small bet is the big blind and its big bet twice that;
        pot and no limit's minimum bet is the big blind."""
        return 2 * self.big_blind if big_bet and self.structure == "fixed-limit" else self.big_blind

    @property
    def is_fixed_limit(self) -> bool:
        """True for the fixed-limit structure."""
        return self.structure == "fixed-limit"

    def bet_unit(self, street: int) -> int:
        """The size of a bet on ``street`` (3..7): fixed limit's small or big bet, else ``min_bet``."""
        if self.structure != "fixed-limit":
            return self.min_bet
        return self.small_bet if street <= 4 else self.big_bet

    @property
    def completion(self) -> int:
        """The smallest first wager above the bring-in on third street (small bet or minimum bet)."""
        return self.small_bet if self.structure == "fixed-limit" else self.min_bet

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableStakes:
        """Stakes from a mapping of field names; missing amounts of the other structure are 0.

        Raises ``StakesError`` for unknown keys or bad values.
        """
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(data) - known)
        if unknown:
            raise StakesError(
                f"unknown stakes field(s) {', '.join(unknown)}: known are {', '.join(sorted(known))}"
            )
        values = dict(data)
        structure = values.get("structure", "fixed-limit")
        if structure != "fixed-limit":
            values.setdefault("small_bet", 0)
            values.setdefault("big_bet", 0)
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        """All fields as ``{name: value}``."""
        return asdict(self)

    def describe(self) -> str:
        """A one-line summary, e.g. ``"fixed limit 20/40, ante 5 and bring-in 10"``, amounts with
        thousands separators as every chip amount the players read.

        >>> PRESETS["micro"].describe()
        'fixed limit 2/4, ante 1 and bring-in 1'
        >>> TableStakes.fixed_limit(ante=100, bring_in=300, small_bet=600, big_bet=1200).describe()
        'fixed limit 600/1,200, ante 100 and bring-in 300'
        """
        if self.structure == "fixed-limit":
            head = f"fixed limit {self.small_bet:,}/{self.big_bet:,}"
        else:
            head = f"{self.structure.replace('-', ' ')}, minimum bet {self.min_bet:,}"
        text = f"{head}, ante {self.ante:,} and bring-in {self.bring_in:,}"
        if self.big_blind:
            text += f"; blinds {self.small_blind:,}/{self.big_blind:,}"
        return text


PRESETS: dict[str, TableStakes] = {
    "micro": TableStakes.fixed_limit(ante=1, bring_in=1, small_bet=2, big_bet=4),
    "small": TableStakes.fixed_limit(ante=5, bring_in=10, small_bet=20, big_bet=40),
    "medium": TableStakes.fixed_limit(ante=25, bring_in=50, small_bet=100, big_bet=200),
    "pot-limit": TableStakes.pot_limit(ante=5, bring_in=10, min_bet=20),
    "no-limit": TableStakes.no_limit(ante=5, bring_in=10, min_bet=20),
}
"""Named stakes a dealer can pick; ``small`` equals ``TableStakes()``."""
