"""The :class:`Store`: opening the database and the whole store API in one object."""

from __future__ import annotations

import os
from pathlib import Path
from types import TracebackType

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
from bot.store.hands import HandStore
from bot.store.leases import LeaseStore
from bot.store.tables import TableStore

__all__ = ["BUSY_TIMEOUT_MS", "Store"]


class Store(EconomyStore, TableStore, HandStore, AuditStore, LeaseStore):
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

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()
