"""Table leases: which bot process drives each table, when several share one database.

A lease is one row per table: the ``owner`` (a process's name, unique per process run) and when
the lease ``expires``. The owner renews it well before then; another process may take it only
once it has lapsed, so two processes never drive the same table, even while a rolling restart
has both connected to the same guild. A process that stops cleanly releases its leases at once.
Times come from the store's clock: keep the hosts' clocks in sync (NTP), far closer than a lease
lasts. One process alone (SQLite, unsharded) needs no leases.

**Fencing.** A lease also has a ``generation``, which grows by one each time another owner takes the
table (a renewal keeps it; a released lease keeps its row, marked lapsed, so the count never starts
again). :meth:`LeaseStore.take_table` returns it, and every write a lease holder makes to a hand
(``create_hand``, ``append_actions``, ``settle_hand``, ``void_hand`` with ``lease=``) is checked
against it in the same transaction: a process that stalled past its lease while another took the
table over gets :class:`StaleLease` and writes nothing, even if its own renewal has not told it yet.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from bot.store.base import StoreBase, check_id, check_text, format_time, parse_time
from bot.store.errors import StoreError

_RELEASED = "0001-01-01T00:00:00.000000Z"
"""The ``expires`` of a released lease: lapsed for everyone, and its row (and generation) kept."""


def _ttl(ttl: timedelta) -> timedelta:
    if not isinstance(ttl, timedelta) or ttl <= timedelta(0):
        raise StoreError("A lease must last more than zero seconds.")
    return ttl


class LeaseStore(StoreBase):
    """Table leases (mixed into :class:`bot.store.Store`)."""

    async def claim_table(self, table_id: int, owner: str, ttl: timedelta) -> bool:
        """Take or renew the table's lease for ``owner`` until now + ``ttl``; True if ``owner``
        holds it now. False (and nothing changes) while another owner's lease is live."""
        return await self.take_table(table_id, owner, ttl) is not None

    async def take_table(self, table_id: int, owner: str, ttl: timedelta) -> int | None:
        """:meth:`claim_table`, returning the lease's generation (see the module docstring) when
        ``owner`` holds it now, else None."""
        check_id(table_id, "table")
        owner = check_text(owner, "lease owner", limit=200)
        ttl = _ttl(ttl)
        async with self._transaction() as tx:
            if not await tx.value("SELECT 1 FROM tables WHERE id = ?", (table_id,)):
                raise StoreError("There is no such table.")
            count, _ = await tx.run(
                "INSERT INTO table_leases (table_id, owner, expires, generation) VALUES (?, ?, ?, 1)"
                " ON CONFLICT (table_id) DO UPDATE SET owner = excluded.owner, expires = excluded.expires,"
                " generation = CASE WHEN table_leases.owner = excluded.owner THEN table_leases.generation"
                " ELSE table_leases.generation + 1 END"
                " WHERE table_leases.owner = excluded.owner OR table_leases.expires <= ?",
                (table_id, owner, format_time(tx.now_dt + ttl), tx.now),
            )
            if count != 1:
                return None
            return int(await tx.value("SELECT generation FROM table_leases WHERE table_id = ?", (table_id,)))

    async def renew_leases(self, owner: str, table_ids: Iterable[int], ttl: timedelta) -> set[int]:
        """Extend ``owner``'s leases on ``table_ids`` to now + ``ttl``; returns the ids it still
        holds (a lease another process has taken over is not renewed and not returned)."""
        owner = check_text(owner, "lease owner", limit=200)
        ttl = _ttl(ttl)
        ids = sorted({check_id(t, "table") for t in table_ids})
        if not ids:
            return set()
        marks = ", ".join("?" * len(ids))
        async with self._transaction() as tx:
            await tx.run(
                f"UPDATE table_leases SET expires = ? WHERE owner = ? AND table_id IN ({marks})",
                (format_time(tx.now_dt + ttl), owner, *ids),
            )
            rows = await tx.all(
                f"SELECT table_id FROM table_leases WHERE owner = ? AND table_id IN ({marks})",
                (owner, *ids),
            )
        return {int(row[0]) for row in rows}

    async def release_leases(self, owner: str, table_ids: Iterable[int] | None = None) -> int:
        """Give up ``owner``'s leases (all of them, or those on ``table_ids``) so another process
        may take the tables at once; returns how many were released. The rows stay, lapsed, so a
        lease's generation keeps counting (fencing)."""
        owner = check_text(owner, "lease owner", limit=200)
        async with self._transaction() as tx:
            if table_ids is None:
                count, _ = await tx.run(
                    "UPDATE table_leases SET expires = ? WHERE owner = ? AND expires <> ?",
                    (_RELEASED, owner, _RELEASED),
                )
                return count
            count = 0
            for table_id in sorted(set(table_ids)):
                released, _ = await tx.run(
                    "UPDATE table_leases SET expires = ? WHERE owner = ? AND table_id = ? AND expires <> ?",
                    (_RELEASED, owner, check_id(table_id, "table"), _RELEASED),
                )
                count += released
            return count

    async def table_lease(self, table_id: int) -> tuple[str, datetime] | None:
        """``(owner, expires)`` of the table's lease, live or lapsed, or None if it has none."""
        check_id(table_id, "table")
        async with self._transaction(write=False) as tx:
            row = await tx.one("SELECT owner, expires FROM table_leases WHERE table_id = ?", (table_id,))
        return None if row is None else (str(row[0]), parse_time(row[1]))
