"""Which tables this process drives, when several bot processes share one database.

A guild belongs to one gateway shard, ``(guild_id >> 22) % shard_count``; a process serves the
guilds of its shards. Within those it drives a table only while it holds the table's lease
(:mod:`bot.store.leases`): taken when the table is created or loaded, renewed every third of the
lease, taken over from another process only once that one's lease has lapsed. :meth:`run` is the
keeper loop: it renews, drops the tables whose lease was lost (``TableService.drop``) and takes
over tables whose lease lapsed or was released (``TableService.adopt``). On a clean stop
:meth:`release` hands every lease back so a successor takes the tables at once.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import uuid
from collections.abc import Iterable, Sized
from datetime import timedelta
from typing import Protocol

from bot.store import Store

log = logging.getLogger(__name__)


class Adopter(Protocol):
    """What the keeper loop needs of the table service (``bot.tables.service.TableService``; a
    protocol here because the service imports this module)."""

    async def adopt(self) -> Sized:
        """Load the free tables of this process's shards; returns the ones taken."""
        ...

    async def drop(self, table_id: int) -> None:
        """Stop driving a table whose lease was lost."""
        ...

DEFAULT_LEASE_SECONDS = 30.0


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord routes a guild to.

    >>> shard_of(41771983423143937, 4)   # (id >> 22) % 4
    2
    """
    return (guild_id >> 22) % shard_count


class TableLeases:
    """This process's claim on tables (see the module docstring).

    ``shard_count`` / ``shard_ids``: the shards this process serves (None: every guild). ``owner``:
    this process's name in the lease rows (default: host, pid and a random suffix, so a restarted
    process never mistakes its predecessor's live leases for its own). ``seconds``: how long a
    lease lasts unrenewed.
    """

    def __init__(
        self,
        store: Store,
        *,
        shard_count: int | None = None,
        shard_ids: Iterable[int] | None = None,
        owner: str | None = None,
        seconds: float = DEFAULT_LEASE_SECONDS,
    ) -> None:
        self.store = store
        self.shard_count = shard_count
        self.shard_ids = frozenset(shard_ids) if shard_ids is not None else None
        self.owner = owner or f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.ttl = timedelta(seconds=seconds)
        self.held: set[int] = set()
        self.elsewhere: set[int] = set()
        """Tables of our shards whose live lease another process holds (as last seen)."""
        self.generations: dict[int, int] = {}
        """The generation of each lease taken (every hand write carries it: fencing, see
        :mod:`bot.store.leases`)."""

    def serves(self, guild_id: int) -> bool:
        """Whether this process's shards include the guild."""
        if self.shard_count is None or self.shard_ids is None:
            return True
        return shard_of(guild_id, self.shard_count) in self.shard_ids

    async def claim(self, table_id: int) -> bool:
        """Take or renew the table's lease; False while another process's lease is live."""
        generation = await self.store.take_table(table_id, self.owner, self.ttl)
        if generation is not None:
            self.held.add(table_id)
            self.elsewhere.discard(table_id)
            self.generations[table_id] = generation
            return True
        self.held.discard(table_id)
        self.elsewhere.add(table_id)
        return False

    async def renew(self) -> set[int]:
        """Renew every lease held; returns the table ids whose lease was lost meanwhile."""
        kept = await self.store.renew_leases(self.owner, self.held, self.ttl)
        lost = self.held - kept
        self.held = kept
        self.elsewhere |= lost
        return lost

    async def release(self) -> None:
        """Hand every lease back (a clean stop)."""
        if self.held:
            await self.store.release_leases(self.owner, self.held)
            self.held.clear()

    async def run(self, service: Adopter) -> None:
        """Renew, drop lost tables and adopt free ones, every third of a lease, until cancelled."""
        loop = asyncio.get_running_loop()
        interval = self.ttl.total_seconds() / 3
        renewed_at = loop.time()
        while True:
            await asyncio.sleep(interval)
            try:
                lost = await self.renew()
                renewed_at = loop.time()
            except Exception as error:  # the database out of reach: keep trying, but see below
                log.error("table leases could not be renewed: %s", error)
                if loop.time() - renewed_at < self.ttl.total_seconds() * 0.8:
                    continue
                # Unrenewed for most of a lease: another process may take these tables at any
                # moment, so stop dealing them here before it can.
                lost, self.held = set(self.held), set()
            for table_id in lost:
                log.warning("table %s: lease lost; no longer dealing it in this process", table_id)
                await service.drop(table_id)
            try:
                adopted = await service.adopt()
            except Exception as error:
                log.error("could not take over tables: %s", error)
                continue
            if adopted:
                log.info("took over %d table(s) whose lease had lapsed or was released", len(adopted))
