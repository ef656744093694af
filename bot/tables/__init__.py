"""The table service: seats, hands, actions, timers, persistence and notices (no Discord here).

Front ends use ``TableService`` (``bot.tables.service``) and implement ``Presenter``
(``bot.tables.notices``); see those modules for the API.
"""

from bot.tables.clock import Clock, FakeClock, LoopClock
from bot.tables.errors import NoTable, NotDealer, StaleAction, TableError
from bot.tables.notices import (
    ActionOption,
    NoticeKind,
    Presenter,
    PrivateNotice,
    Prompt,
    PublicNotice,
    Reply,
    ShowdownNotice,
    TableKey,
    Undeliverable,
)
from bot.tables.options import TableOptions
from bot.tables.service import TableService

__all__ = [
    "ActionOption",
    "Clock",
    "FakeClock",
    "LoopClock",
    "NoTable",
    "NotDealer",
    "NoticeKind",
    "Presenter",
    "PrivateNotice",
    "Prompt",
    "PublicNotice",
    "Reply",
    "ShowdownNotice",
    "StaleAction",
    "TableError",
    "TableKey",
    "TableOptions",
    "TableService",
    "Undeliverable",
]
