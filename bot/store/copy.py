"""Copy a whole SQLite store into an empty PostgreSQL store (``wildstud migrate-db``).

Every table of the SQLite schema is copied row for row, ids included, parents before children
(the order follows the foreign keys, so a table added by a later migration is copied too without
a change here), in one PostgreSQL transaction: a failure leaves the target as empty as it was.
The identity sequences then continue after the copied ids. The source is read in one transaction
(a consistent snapshot); stop the bot before copying so nothing changes behind the copy.
"""

from __future__ import annotations

from graphlib import TopologicalSorter

from bot.store.backend import PostgresBackend, SqliteBackend
from bot.store.base import format_time, utc_now
from bot.store.errors import StoreError
from bot.store.store import Store

_SKIP = ("sqlite_%",)


async def copy_sqlite_to_postgres(source: Store, target: Store) -> dict[str, int]:
    """Copy every row of ``source`` (a SQLite store) into ``target`` (an empty PostgreSQL store
    at the same schema version); returns the rows copied per table.

    Raises :class:`StoreError` if the backends are not SQLite -> PostgreSQL or the target already
    holds rows (nothing is copied then).
    """
    src, dst = source._backend, target._backend
    if not isinstance(src, SqliteBackend) or not isinstance(dst, PostgresBackend):
        raise StoreError("migrate-db copies a SQLite database into a PostgreSQL database.")
    now = utc_now()
    async with src.transaction(now, format_time(now), write=False) as tx:
        names = [
            row[0]
            for row in await tx.all(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE ? ORDER BY name",
                _SKIP,
            )
        ]
        parents: dict[str, set[str]] = {}
        columns: dict[str, list[str]] = {}
        for name in names:
            columns[name] = [row[1] for row in await tx.all(f'PRAGMA table_info("{name}")')]
            parents[name] = {
                row[2] for row in await tx.all(f'PRAGMA foreign_key_list("{name}")') if row[2] != name
            }
        order = list(TopologicalSorter(parents).static_order())
        rows = {name: await tx.all(f'SELECT * FROM "{name}"') for name in order}

    assert dst.pool is not None
    async with dst.pool.acquire() as conn, conn.transaction():
        for name in order:
            if await conn.fetchval(f'SELECT EXISTS (SELECT 1 FROM "{name}")'):
                raise StoreError(
                    f"The target database is not empty (table {name} has rows); migrate-db copies only"
                    " into an empty database."
                )
        copied: dict[str, int] = {}
        for name in order:
            if rows[name]:
                await conn.copy_records_to_table(name, records=rows[name], columns=columns[name])
            copied[name] = len(rows[name])
            if name in dst.id_tables:
                # Identity columns keep counting after the copied ids.
                await conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{name}', 'id'),"
                    f' COALESCE((SELECT MAX(id) FROM "{name}"), 0) + 1, false)'
                )
    return copied


async def row_counts(store: Store, tables: list[str]) -> dict[str, int]:
    """How many rows each of ``tables`` holds in ``store`` (either backend), in one snapshot."""
    counts: dict[str, int] = {}
    async with store._transaction(write=False) as tx:
        for name in tables:
            counts[name] = int(await tx.value(f'SELECT COUNT(*) FROM "{name}"'))
    return counts
