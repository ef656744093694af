"""The table service: seats, hands, actions, timers, persistence and notices (no Discord here).

Front ends use ``TableService`` (``bot.tables.service``) and implement ``Presenter``
(``bot.tables.notices``): one ``Update`` per operation, ending with a ``TableSnapshot``; see those
modules for the API.
"""

from bot.tables.clock import Clock, FakeClock, LoopClock
from bot.tables.errors import NoTable, NotDealer, StaleAction, TableError
from bot.tables.notices import (
    ActionOption,
    Actor,
    NoticeKind,
    NoticePresenter,
    Presenter,
    PrivateNotice,
    Prompt,
    PublicNotice,
    Reply,
    ShowdownNotice,
    TableKey,
    TableSnapshot,
    Undeliverable,
    Update,
)
from bot.tables.options import TableOptions
from bot.tables.service import TableService

__all__ = [
    "ActionOption",
    "Actor",
    "Clock",
    "FakeClock",
    "LoopClock",
    "NoTable",
    "NotDealer",
    "NoticeKind",
    "NoticePresenter",
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
    "TableSnapshot",
    "Undeliverable",
    "Update",
]
