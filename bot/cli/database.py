"""Reading a Wildstud database for the read-only commands (``audit``, ``ledger``, ``verify --hand``).

They open the file with :meth:`bot.store.Store.open_readonly`: nothing is created, migrated or
switched to WAL, and a file that is not a Wildstud database is refused with a one-line reason.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from bot.store import Store

T = TypeVar("T")


class Unreadable(Exception):
    """The database cannot be read; ``str(error)`` is one line saying why (exit status 2)."""


def read_database(path: Path, work: Callable[[Store], Awaitable[T]]) -> T:
    """Open ``path`` read-only, run ``work(store)`` and close it; returns what ``work`` returns.

    Raises :class:`Unreadable` for a missing or non-Wildstud file, a schema this code cannot read, or
    a damaged file (SQLite errors, text that is not UTF-8). Errors of ``work`` itself (a
    ``StoreError`` for a bad id, say) pass through.
    """
    from bot.store import NotWildstudDatabase, SchemaTooNew, Store

    async def run() -> T:
        async with await Store.open_readonly(path) as store:
            return await work(store)

    try:
        return asyncio.run(run())
    except (NotWildstudDatabase, SchemaTooNew) as error:
        raise Unreadable(_one_line(str(error))) from None
    except UnicodeDecodeError:
        raise Unreadable(f"cannot read {path}: the database is damaged (text that is not UTF-8)") from None
    except (sqlite3.DatabaseError, OSError) as error:  # damaged pages, an unreadable file
        raise Unreadable(_one_line(f"cannot read {path}: {error}")) from None


def _one_line(text: str) -> str:
    return " ".join(text.split())
