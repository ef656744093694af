"""PostgreSQL's batched append: the actions of many hands stored by one statement.

Storing an action is the store's hottest write (every click). As a transaction of its own it
costs five round trips to the server (``BEGIN``, lock the hand, read its status and count,
``INSERT``, ``COMMIT``) and a commit; on a busy machine the round trips, each a wake-up of a
server process, are what limits a process's throughput. So the actions that arrive while a batch
is in flight are stored together by the next one: a single ``INSERT ... SELECT`` over arrays of
the requests, in its own implicit transaction -- one round trip and one commit for all.

The statement stores a request only when it is certainly the hand's next action, judged as
:meth:`bot.store.hands.HandStore.append_actions` judges it: the hand is in progress (its row is
locked, ``FOR UPDATE``, so a concurrent settlement or another append of that hand waits), the
number is one more than the actions stored, and the writer's table lease, if it gave one, is the
table's current one (the lease row is locked too, as :meth:`StoreBase._check_lease` does). A
hand named twice keeps its order: the later request waits for the next statement. Every other
request -- a repeat, a conflict, a gap, a hand that is over, a stale lease, a statement that
failed -- is answered "not stored" and its caller runs the ordinary transaction, which decides it
and raises the precise error. So the batch can only ever store what that transaction would have
stored; it never refuses anything itself.

Why a stale read cannot store a wrong row: under ``READ COMMITTED`` the locked rows are read in
their newest committed version, but the count comes from the statement's snapshot and may miss
an action committed meanwhile (by another process). A count that is too low makes the request's
number either not the next one (not stored, the transaction decides) or one already taken (the
primary key refuses it: ``ON CONFLICT DO NOTHING``, not stored). It is never too high (the log is
append-only).

The caller's ``await`` returns only after the statement -- and so its commit -- has returned:
nothing acknowledged is lost.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import asyncpg

MAX_BATCH = 1000
"""The most actions one statement stores."""

APPEND_SQL = """
WITH req AS (
    SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::bigint[])
        AS r (hand_id, seq, action, created, lease)
), hand AS (
    SELECT id, status, table_id FROM hands WHERE id = ANY ($1::bigint[]) ORDER BY id FOR UPDATE
), lease AS (
    SELECT table_id, generation FROM table_leases
    WHERE table_id IN (SELECT table_id FROM hand) ORDER BY table_id FOR UPDATE
)
INSERT INTO hand_actions (hand_id, seq, action, created)
SELECT req.hand_id, req.seq, req.action, req.created
FROM req JOIN hand ON hand.id = req.hand_id
WHERE hand.status = 'in_progress'
  AND req.seq = 1 + (SELECT COUNT(*) FROM hand_actions a WHERE a.hand_id = req.hand_id)
  AND (req.lease IS NULL
       OR req.lease = (SELECT lease.generation FROM lease WHERE lease.table_id = hand.table_id))
ON CONFLICT DO NOTHING
RETURNING hand_id, seq
"""


@dataclass
class _Append:
    hand_id: int
    seq: int
    action: str
    created: str
    lease: int | None
    future: asyncio.Future[bool]


class AppendBatch:
    """The queue of one pool's single-action appends and the task that stores them in batches
    (see the module docstring). ``pool`` returns the open pool, or None once it is closed."""

    def __init__(self, pool: Callable[[], asyncpg.Pool[Any] | None]) -> None:
        self._pool = pool
        self._queue: deque[_Append] = deque()
        self._task: asyncio.Task[None] | None = None
        self.batches = 0
        """Statements run so far (for benchmarks)."""
        self.stored = 0
        """Actions they stored."""
        self.largest = 0
        """The most actions one statement was asked to store."""

    async def append(self, hand_id: int, seq: int, action: str, created: str, lease: int | None) -> bool:
        """True once action ``seq`` of the hand is stored and committed by a batch; False when the
        batch did not store it (the caller then runs the ordinary transaction)."""
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._queue.append(_Append(hand_id, seq, action, created, lease, future))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._drain(), name="wildstud-append-batch")
        return await future

    async def flush(self) -> None:
        """Wait until every append queued so far has been answered."""
        while self._task is not None and not self._task.done():
            await asyncio.wait([self._task])

    async def _drain(self) -> None:
        try:
            await self._drain_queue()
        finally:
            # Cancelled (the event loop is closing): what is still queued goes its ordinary way.
            while self._queue:
                item = self._queue.popleft()
                if not item.future.done():
                    item.future.set_result(False)

    async def _drain_queue(self) -> None:
        while self._queue:
            batch: list[_Append] = []
            later: list[_Append] = []
            hands: set[int] = set()
            while self._queue and len(batch) < MAX_BATCH:
                item = self._queue.popleft()
                if item.future.done():  # its caller was cancelled
                    continue
                if item.hand_id in hands:  # one per hand per statement; the next in the next one
                    later.append(item)
                    continue
                hands.add(item.hand_id)
                batch.append(item)
            self._queue.extendleft(reversed(later))
            if batch:
                await self._store(batch)

    async def _store(self, batch: list[_Append]) -> None:
        stored: set[tuple[int, int]] = set()
        pool = self._pool()
        try:
            if pool is not None:
                async with pool.acquire() as conn:
                    rows = await conn.fetch(
                        APPEND_SQL,
                        [a.hand_id for a in batch],
                        [a.seq for a in batch],
                        [a.action for a in batch],
                        [a.created for a in batch],
                        [a.lease for a in batch],
                    )
                stored = {(int(r[0]), int(r[1])) for r in rows}
        except Exception:
            stored = set()  # nothing of a failed statement is stored: every caller runs its own
        finally:
            self.batches += 1
            self.stored += len(stored)
            self.largest = max(self.largest, len(batch))
            for item in batch:
                if not item.future.done():
                    item.future.set_result((item.hand_id, item.seq) in stored)
