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


@dataclass(frozen=True, slots=True)
class TableOptions:
    """Timers and dealing (SPEC §7), in seconds.

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

    def __post_init__(self) -> None:
        if self.log not in LOG_MODES:
            raise ValueError(f"log must be one of {', '.join(LOG_MODES)}, not {self.log!r}")
        for f in fields(self):
            if f.name == "log":
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
        """Every option as ``{name: seconds or None}`` (and ``log``: its mode)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}
