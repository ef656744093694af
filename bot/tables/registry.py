"""The open tables of one process, by key, and the one way to change one: ``locked(key)``.

Every operation on a table (a command, a click, a timer, a restart) runs inside
``async with registry.locked(key) as table:``. It takes that table's lock, so changes happen one at
a time, and when the operation ends (done or refused) it hands what the operation said
(``Table.outbox``) to the ``release`` callback, still under the lock, so one table's updates reach
the front end in the order they happened.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

from bot.tables.errors import NoTable
from bot.tables.notices import TableKey
from bot.tables.state import Table

NO_TABLE = "There is no table in this channel. The dealer can open one with /table create."


class Registry:
    """Tables by key (see the module docstring).

    ``release(table)`` is awaited at the end of every ``locked`` block; it should send the table's
    outbox as one update and never raise. ``no_table()`` gives the ``NoTable`` reason for a key
    with no table (default :data:`NO_TABLE`; several processes on one database say more).
    """

    def __init__(
        self, release: Callable[[Table], Awaitable[None]], no_table: Callable[[], str] | None = None
    ) -> None:
        self._tables: dict[TableKey, Table] = {}
        self._release = release
        self._no_table = no_table or (lambda: NO_TABLE)
        self.creating = asyncio.Lock()
        """Held while a table is being opened (one table per channel)."""

    def get(self, key: TableKey) -> Table:
        """The table at ``key``. Raises ``NoTable``."""
        table = self._tables.get(key)
        if table is None:
            raise NoTable(self._no_table())
        return table

    def find(self, key: TableKey) -> Table | None:
        """The table at ``key``, or None."""
        return self._tables.get(key)

    def keys(self) -> list[TableKey]:
        """The keys of the open tables."""
        return list(self._tables)

    def values(self) -> list[Table]:
        """The open tables."""
        return list(self._tables.values())

    def __contains__(self, key: object) -> bool:
        return key in self._tables

    def add(self, table: Table) -> None:
        """Register a table just opened or loaded."""
        self._tables[table.key] = table

    def remove(self, table: Table) -> None:
        """Forget a closed table (its timers are cancelled)."""
        self._cancel(table)
        self._tables.pop(table.key, None)

    @asynccontextmanager
    async def locked(self, key: TableKey, *, table: Table | None = None) -> AsyncIterator[Table]:
        """Hold the lock of the table at ``key`` (or of ``table``, which need not be registered
        yet) for one operation; its notices go out as one update when the block ends.

        Raises ``NoTable`` before taking anything if there is no such table.
        """
        found = table if table is not None else self.get(key)
        async with found.lock:
            try:
                yield found
            finally:
                await self._release(found)

    def close(self) -> None:
        """Cancel every table's timers (call before closing the store)."""
        for table in self._tables.values():
            self._cancel(table)

    @staticmethod
    def _cancel(table: Table) -> None:
        table.cancel_timers()
        table.cancel_choice_timer()
        if table.auto_deal is not None:
            table.auto_deal.cancel()
            table.auto_deal = None
        if table.retry is not None:
            table.retry.cancel()
            table.retry = None
