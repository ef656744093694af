"""Per-table settings of the table service (kept in the store's table ``settings`` JSON).

>>> TableOptions.from_dict({"turn_timeout": None, "auto_deal_after": 5}).to_dict()["auto_deal_after"]
5.0
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

LOG_MODES = ("thread", "summary", "off")
"""Where a finished hand's full log goes (``/table create log:``); ``summary`` is the default."""

BOMB_POT_BIG_BLINDS = 5
"""A bomb pot's ante when the dealer names none: five big blinds ("a typical ante in a bomb pot is
five times the big blind", PokerNews; docs/rules.md)."""

JOIN_BLIND = ("wait", "post")
"""How a player joins a running flop game: wait for the big blind (default), or post one."""

_NOT_SECONDS = frozenset({"log", "straddle", "bomb_pot_every", "bomb_pot_ante", "join_blind"})


@dataclass(frozen=True, slots=True)
class TableOptions:
    """Timers and dealing (SPEC §7), in seconds, and the flop games' straddle and bomb pots.

    ``turn_timeout``: time to act before check-else-fold (None: no timer, as in the terminal).
    ``reminder_after``: a reminder prompt this long after the prompt (None or >= the timeout: none).
    ``auto_deal_after``: deal the next hand by itself this long after a hand ends (None: the dealer
    deals). ``private_timeout``: how long a private message may take before it counts as
    undeliverable (the hand never waits longer). ``log``: where a front end puts each finished
    hand's full narrated log (``LOG_MODES``: ``thread`` of the hand's summary message, ``summary``
    as a text attachment of it, ``off``); the table service only keeps it.
    """

    turn_timeout: float | None = 60.0
    reminder_after: float | None = 30.0
    auto_deal_after: float | None = None
    private_timeout: float = 5.0
    log: str = "summary"
    straddle: bool = False
    """Flop games: the player under the gun (left of the big blind) straddles every hand, twice the
    big blind, and acts last before the flop (a mandatory straddle; never heads-up)."""
    bomb_pot_every: int | None = None
    """Flop games: every Nth hand of the table (its hand number a multiple of N) is a bomb pot,
    when it is a flop game (None: only when the dealer calls one, ``/table bomb-pot``)."""
    bomb_pot_ante: int | None = None
    """What each player antes in a bomb pot (None: ``BOMB_POT_BIG_BLINDS`` big blinds)."""
    join_blind: str = "wait"
    """Flop games: a player who sits down, or comes back, while the game runs ``wait``s for the big
    blind (``bot.tables.blinds``), or ``post``s a big blind to be dealt in at once."""

    def __post_init__(self) -> None:
        if self.log not in LOG_MODES:
            raise ValueError(f"log must be one of {', '.join(LOG_MODES)}, not {self.log!r}")
        if self.join_blind not in JOIN_BLIND:
            raise ValueError(f"join_blind is {' or '.join(JOIN_BLIND)}, not {self.join_blind!r}")
        if not isinstance(self.straddle, bool):
            raise ValueError(f"straddle is on or off, not {self.straddle!r}")
        for name in ("bomb_pot_every", "bomb_pot_ante"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise ValueError(f"{name} must be a whole number above zero (or none), not {value!r}")
        for f in fields(self):
            if f.name in _NOT_SECONDS:
                continue
            value = getattr(self, f.name)
            if value is None and f.name != "private_timeout":
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                raise ValueError(f"{f.name} must be a number of seconds above zero, not {value!r}")
            object.__setattr__(self, f.name, float(value))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableOptions:
        """Options from a mapping; unknown keys are ignored (the settings JSON holds other things)."""
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})

    def to_dict(self) -> dict[str, Any]:
        """Every option as ``{name: seconds or None}`` (``log``: its mode; the straddle and bomb
        pots as they are)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}
