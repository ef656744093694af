"""The :class:`Store`: opening the database and the whole store API in one object."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from types import TracebackType

import aiosqlite

from bot.store.audit import AuditStore
from bot.store.backend import (
    BUSY_TIMEOUT_MS,
    POOL_SIZE,
    Backend,
    PostgresBackend,
    SqliteBackend,
    check_target,
)
from bot.store.base import Clock, utc_now
from bot.store.economy import EconomyStore
from bot.store.errors import NotWildstudDatabase, SchemaTooNew
from bot.store.hands import HandStore
from bot.store.leases import LeaseStore
from bot.store.messages import MessageStore
from bot.store.migrations import LATEST, schema_version
from bot.store.stats import StatsStore
from bot.store.tables import TableStore
from bot.store.tournaments import TournamentStore

__all__ = ["BUSY_TIMEOUT_MS", "Store"]

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


class Store(
    EconomyStore, TableStore, MessageStore, HandStore, AuditStore, LeaseStore, StatsStore, TournamentStore
):
    """Wildstud's persistent state: chips, ledger, tables, seats, hands (the only code speaking SQL).

    Open it once per process and close it on shutdown::

        async with await Store.open(settings.database) as store:
            await store.transfer(guild_id, alice, bob, 100, key=str(interaction.id))

    The database is an embedded SQLite file (the default) or a PostgreSQL server
    (``postgresql://...``); the API is the same. Every method is a coroutine that runs in its
    own transaction, so concurrent callers never see each other's half-done work: on SQLite the
    process's transactions take turns under one lock (``BEGIN IMMEDIATE`` for writes); on
    PostgreSQL they run side by side at ``SERIALIZABLE`` isolation and a method aborted by a
    conflict is retried whole (row locks were not chosen: serializable transactions protect every
    read-then-write, including ones added later; see :mod:`bot.store.backend`). A refused
    request raises :class:`bot.store.StoreError` and changes nothing.
    """

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str] | None = None,
        *,
        clock: Clock | None = None,
        upto_version: int | None = None,
        pool_size: int | None = None,
    ) -> Store:
        """Open (creating if needed) the database and bring its schema up to date.

        ``path`` is a SQLite file path, ``sqlite:PATH`` or a ``postgresql://`` URL; it defaults to
        the ``DATABASE_URL`` setting, else ``DATABASE_PATH`` (``./data/wildstud.sqlite3``).
        SQLite: the file's folder is created if missing; WAL, ``synchronous=FULL``, foreign keys
        and a busy timeout are set. PostgreSQL: a pool of ``pool_size`` connections (default
        :data:`bot.store.backend.POOL_SIZE`); the database must exist (the schema is created in
        it). Then pending migrations are applied (:mod:`bot.store.migrations`,
        :mod:`bot.store.pg_migrations`). ``clock`` supplies the time of every record (default:
        now, UTC). ``upto_version`` stops migrating at an older schema; it exists to build old
        databases in tests, and the store's methods expect the latest schema.

        Raises :class:`bot.store.StoreError` for a setting with an unknown scheme (nothing is
        created), :class:`bot.store.SchemaTooNew` for a database from a newer Wildstud.
        """
        if path is None:
            from bot.settings import load_settings

            path = load_settings().database
        kind, target = check_target(os.fspath(path) if not isinstance(path, Path) else path)
        backend: Backend
        if kind == "postgresql":
            backend = await PostgresBackend.connect(target, upto_version, pool_size=pool_size or POOL_SIZE)
        else:
            backend = await SqliteBackend.connect(Path(target), upto_version)
        return cls(backend, clock or utc_now)

    @classmethod
    async def open_readonly(cls, path: str | os.PathLike[str], *, clock: Clock | None = None) -> Store:
        """Open an existing Wildstud database at ``path`` for reading only.

        ``path`` is a SQLite file path, ``sqlite:PATH`` or a ``postgresql://`` URL. PostgreSQL: a
        pool of read-only sessions (``default_transaction_read_only``) on a database already at
        the latest schema; nothing is migrated (an older one raises
        :class:`bot.store.NotWildstudDatabase`, like a file). SQLite (``mode=ro``): unlike
        :meth:`open` it creates no file or folder, sets no persistent pragma (no WAL switch) and
        runs no migration, so the file's bytes stay as they were (for a WAL database SQLite may
        leave its empty ``-wal``/``-shm`` side files, which the next writer reuses); any write
        through the store fails with ``sqlite3.OperationalError``.

        Raises :class:`bot.store.NotWildstudDatabase` (a one-line reason) for a missing path, a
        directory or device, a file that is not SQLite, another program's SQLite file or an older
        schema; :class:`bot.store.SchemaTooNew` for a newer one; :class:`bot.store.StoreError`
        for an unknown scheme. A damaged file may still raise ``sqlite3.DatabaseError`` (or
        ``UnicodeDecodeError`` for damaged text) while rows are read.
        """
        kind, target = check_target(os.fspath(path) if not isinstance(path, Path) else path)
        if kind == "postgresql":
            return cls(await PostgresBackend.connect_readonly(target), clock or utc_now)
        file = Path(target)
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
        return cls(SqliteBackend(db, file), clock or utc_now)

    async def damage(self) -> list[str]:
        """SQLite's ``PRAGMA quick_check`` findings (damaged pages, broken indexes); empty when the file
        is sound. It reads every page, so it costs a full scan of the file. PostgreSQL: always
        empty (the server checks its own pages; there is no such query to run)."""
        if self.backend != "sqlite":
            return []
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
