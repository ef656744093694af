"""The transaction a store method's body runs in: the one interface both backends implement
(:mod:`bot.store.backend`; SQLite's group commit runs bodies on a :class:`ThreadTx`,
:mod:`bot.store.group_commit`)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

Row = tuple[Any, ...]


class Tx:
    """One open transaction: run statements, read rows; ``now`` is the transaction's timestamp
    (``now_dt`` as a datetime, ``now`` as the stored text)."""

    def __init__(self, now: datetime, now_text: str) -> None:
        self.now_dt = now
        self.now = now_text

    async def all(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        """Every row of a query, as tuples."""
        raise NotImplementedError

    async def one(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        """The first row of a query, or None (for queries that return at most a few rows)."""
        rows = await self.all(sql, params)
        return rows[0] if rows else None

    async def value(self, sql: str, params: Iterable[Any] = ()) -> Any:
        """The first column of the first row (None when there is no row)."""
        row = await self.one(sql, params)
        return None if row is None else row[0]

    async def run(self, sql: str, params: Iterable[Any] = ()) -> tuple[int, int | None]:
        """Execute a statement; returns ``(rowcount, lastrowid)`` (the new row's ``id`` after an
        ``INSERT`` into a table that has one, else None on PostgreSQL)."""
        raise NotImplementedError

    async def lock_one(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        """:meth:`one` for a ``SELECT`` from one table that also locks the rows it reads until the
        transaction ends, in one round trip (:meth:`lock` and a read in one): PostgreSQL appends
        ``FOR UPDATE``; SQLite needs nothing (``BEGIN IMMEDIATE`` holds the write lock)."""
        return await self.one(sql, params)

    async def lock(self, table: str, column: str, value: Any) -> None:
        """Lock the rows of ``table`` whose ``column`` is ``value`` until the transaction ends, in a
        ``locking`` transaction (see :meth:`Backend.transaction`). SQLite: nothing to do, since
        ``BEGIN IMMEDIATE`` already holds the whole database's write lock."""

    async def lock_rows(self, table: str, where: dict[str, Any]) -> None:
        """:meth:`lock` for the rows matching every ``column: value`` of ``where``."""
