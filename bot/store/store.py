"""The :class:`Store`: opening the database and the whole store API in one object."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from types import TracebackType

import aiosqlite

from bot.store.audit import AuditStore
from bot.store.base import Clock, utc_now
from bot.store.economy import EconomyStore
from bot.store.hands import HandStore
from bot.store.messages import MessageStore
from bot.store.migrations import migrate
from bot.store.tables import TableStore

BUSY_TIMEOUT_MS = 5000
"""How long a write waits for another process's write lock before failing (milliseconds)."""


class Store(EconomyStore, TableStore, MessageStore, HandStore, AuditStore):
    """Wildstud's persistent state: chips, ledger, tables, seats, hands (the only code speaking SQL).

    Open it once per process and close it on shutdown::

        async with await Store.open(settings.database_path) as store:
            await store.transfer(guild_id, alice, bob, 100, key=str(interaction.id))

    Every method is a coroutine that runs in its own transaction (``BEGIN IMMEDIATE`` for writes)
    under one lock, so concurrent callers never see each other's half-done work. A refused request
    raises :class:`bot.store.StoreError` and changes nothing.
    """

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str] | None = None,
        *,
        clock: Clock | None = None,
        upto_version: int | None = None,
    ) -> Store:
        """Open (creating if needed) the database at ``path`` and bring its schema up to date.

        ``path`` defaults to the ``DATABASE_PATH`` setting (``./data/wildstud.sqlite3``); its
        folder is created if missing. Sets WAL, ``synchronous=FULL``, foreign keys and a busy
        timeout, then applies pending migrations (:mod:`bot.store.migrations`). ``clock`` supplies
        the time of every record (default: now, UTC). ``upto_version`` stops migrating at an older
        schema; it exists to build old databases in tests, and the store's methods expect the
        latest schema. Raises :class:`bot.store.SchemaTooNew` for a database from a newer Wildstud.
        """
        if sqlite3.sqlite_version_info < (3, 37, 0):  # STRICT tables
            raise RuntimeError(
                f"Wildstud needs SQLite 3.37 or newer; this Python has {sqlite3.sqlite_version}"
            )
        if path is None:
            from bot.settings import load_settings

            path = load_settings().database_path
        file = Path(path)
        if str(file) != ":memory:":
            file.parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(file, isolation_level=None)
        try:
            await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
            await db.execute("PRAGMA journal_mode = WAL")  # outside any transaction; persists in the file
            await db.execute("PRAGMA synchronous = FULL")
            await db.execute("PRAGMA foreign_keys = ON")
            await migrate(db, upto_version)
        except BaseException:
            await db.close()
            raise
        return cls(db, file, clock or utc_now)

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()
