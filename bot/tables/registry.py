"""The open tables of one process, by key, and the one way to change one: ``locked(key)``.

Every operation on a table (a command, a click, a timer, a restart) runs inside
``async with registry.locked(key) as table:``. It takes that table's lock, so changes happen one at
a time. When the operation ends (done or refused), what it said (``Table.outbox``) is made into ONE
frozen update by the ``collect`` callback, still under the lock; the lock is then released and the
update handed to the ``deliver`` callback, so a slow front end (a Discord call) never holds a table.
Updates of one table are delivered one at a time, in the order they were collected: the table's
``delivery`` lock is queued for before anything else can run (asyncio's locks are first come,
first served), and ``Table.collected`` tells a delivery whether a newer update of the same table
is already waiting behind it.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

from bot.tables.errors import NoTable
from bot.tables.notices import TableKey, Update
from bot.tables.state import Table

NO_TABLE = "There is no table in this channel. The dealer can open one with /table create."


class Registry:
    """Tables by key (see the module docstring).

    ``collect(table)`` is called at the end of every ``locked`` block, under the lock: the table's
    outbox as one update, or None when the operation said nothing. ``deliver(table, update)`` is
    awaited after the lock is released, in the order of collection; it should never raise.
    ``no_table()`` gives the ``NoTable`` reason for a key with no table (default :data:`NO_TABLE`;
    several processes on one database say more).
    """

    def __init__(
        self,
        collect: Callable[[Table], Update | None],
        deliver: Callable[[Table, Update], Awaitable[None]],
        no_table: Callable[[], str] | None = None,
    ) -> None:
        self._tables: dict[TableKey, Table] = {}
        self._collect = collect
        self._deliver = deliver
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
        yet) for one operation; its notices go out as one update when the block ends, after the
        lock is released (the block's caller waits for that delivery).

        Raises ``NoTable`` before taking anything if there is no such table.
        """
        found = table if table is not None else self.get(key)
        update: Update | None = None
        try:
            async with found.lock:
                try:
                    yield found
                finally:
                    update = self._collect(found)
        finally:
            if update is not None:
                # No await between the release above and queueing here: updates keep their order.
                async with found.delivery:
                    await self._deliver(found, update)

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
