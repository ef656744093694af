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
from bot.store.errors import NotWildstudDatabase, SchemaTooNew
from bot.store.hands import HandStore
from bot.store.messages import MessageStore
from bot.store.migrations import LATEST, migrate, schema_version
from bot.store.tables import TableStore

BUSY_TIMEOUT_MS = 5000
"""How long a write waits for another process's write lock before failing (milliseconds)."""

_WILDSTUD_TABLES = frozenset(
    {"guild_settings", "balances", "ledger", "tables", "seats", "hands", "hand_actions"}
)
"""Tables every current Wildstud database has; a read-only open refuses a file without them."""


def _readonly_uri(file: Path) -> str:
    """The ``file:...?mode=ro`` URI of an existing regular file (SQLite then never creates it)."""
    if not file.exists():
        raise NotWildstudDatabase(f"no database at {file}")
    if not file.is_file():
        raise NotWildstudDatabase(f"cannot open {file}: it is not a database file")
    return f"{file.resolve().as_uri()}?mode=ro"


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

    @classmethod
    async def open_readonly(cls, path: str | os.PathLike[str], *, clock: Clock | None = None) -> Store:
        """Open an existing Wildstud database at ``path`` for reading only (SQLite's ``mode=ro``).

        Unlike :meth:`open` it creates no file or folder, sets no persistent pragma (no WAL switch)
        and runs no migration, so the file's bytes stay as they were (for a WAL database SQLite may
        leave its empty ``-wal``/``-shm`` side files, which the next writer reuses); any write
        through the store fails with ``sqlite3.OperationalError``.

        Raises :class:`bot.store.NotWildstudDatabase` (a one-line reason) for a missing path, a
        directory or device, a file that is not SQLite, another program's SQLite file or an older
        schema; :class:`bot.store.SchemaTooNew` for a newer one. A damaged file may still raise
        ``sqlite3.DatabaseError`` (or ``UnicodeDecodeError`` for damaged text) while rows are read.
        """
        file = Path(path)
        db = await aiosqlite.connect(_readonly_uri(file), uri=True, isolation_level=None)
        try:
            await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
            await db.execute("PRAGMA foreign_keys = ON")
            try:
                version = await schema_version(db)
                async with db.execute("SELECT name FROM sqlite_master WHERE type = 'table'") as cursor:
                    names = {str(row[0]) for row in await cursor.fetchall()}
            except sqlite3.DatabaseError as error:
                raise NotWildstudDatabase(f"cannot open {file}: not a SQLite database ({error})") from None
            if version > LATEST:
                raise SchemaTooNew(
                    f"cannot open {file}: the database is at schema version {version}, "
                    f"but this Wildstud knows only up to {LATEST}"
                )
            if version == 0 or not _WILDSTUD_TABLES <= names:
                raise NotWildstudDatabase(
                    f"cannot open {file}: not a Wildstud database (it has no Wildstud tables)"
                )
            if version < LATEST:
                raise NotWildstudDatabase(
                    f"cannot open {file}: schema version {version} is older than this Wildstud's {LATEST}; "
                    "start the bot (or `wildstud play`) on it once to upgrade it, then try again"
                )
        except BaseException:
            await db.close()
            raise
        return cls(db, file, clock or utc_now)

    async def damage(self) -> list[str]:
        """SQLite's ``PRAGMA quick_check`` findings (damaged pages, broken indexes); empty when the file
        is sound. It reads every page, so it costs a full scan of the file."""
        async with self._transaction(write=False) as tx:
            rows = await tx.all("PRAGMA quick_check")
        found = [str(row[0]) for row in rows]
        return [] if found == ["ok"] else found

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()
