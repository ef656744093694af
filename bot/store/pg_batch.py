"""PostgreSQL's batched hot writes: the actions and the deals of many tables stored by one statement.

Storing an action is the store's hottest write (every click), and dealing comes in storms (every
table deals at once after a restart). As a transaction of its own an action costs five round
trips to the server (``BEGIN``, lock the hand, read its status and count, ``INSERT``, ``COMMIT``)
and a deal about nine (lock the table, read its newest hand, rewrite each dealt seat, insert the
hand, its players, its first actions), each with a commit; on a busy machine the round trips,
each a wake-up of a server process, are what limits a process's throughput (a storm of 2,000
deals on a pool of ten connections took 1.9 s). So the requests that arrive while a statement is
in flight are stored together by the next one (:class:`StatementBatch`): a single statement over
arrays of the requests, in its own implicit transaction -- one round trip and one commit for all.

**The batch decides nothing.** Each statement stores a request only when it is certainly what the
ordinary transaction would store, judged from rows it locks (``FOR UPDATE``) so that a concurrent
write to them waits. A table or hand named twice keeps its order: the later request waits for the
next statement. Every other request -- a repeat, a conflict, a gap, a hand that is over, a table
that is closed or busy, a seat that changed hands, a stale lease, a statement that failed -- is
answered "not stored" (None) and its caller runs the ordinary transaction alone, which decides it
and raises the precise error. So one bad request never fails the others, and a failed statement
(nothing of it is stored) only sends its callers the ordinary way.

**Durable before acknowledged.** A caller's ``await`` returns only after the statement -- and so
its commit -- has returned (``tests/store/test_group_commit_crash.py`` kills a process mid-play on
both backends).

The two statements:

* :data:`APPEND_SQL` (:meth:`bot.store.hands.HandStore.append_action` with one action): the hand
  is in progress (its row locked, so a concurrent settlement or another append of that hand
  waits), the number is one more than the actions stored, and the writer's table lease, if it
  gave one, is the table's current one (the lease row is locked too, as
  :meth:`StoreBase._check_lease` does).
* :data:`DEAL_SQL` (:meth:`bot.store.hands.HandStore.create_hand`): the table is open (its row
  locked, so deals at one table take turns), its newest hand is not in progress, every dealt seat
  is held by the member named (each seat's row is rewritten unchanged and read back in one
  ``UPDATE ... RETURNING``, as the transaction does, so a serializable top-up or cash-out running
  meanwhile must retry and then sees the hand), and the lease, if given, is current. Then the
  hand, its players with their starting stacks, and its first actions are inserted.

Why a stale read cannot store a wrong row: under ``READ COMMITTED`` the locked and updated rows are
read in their newest committed version, but the other reads come from the statement's snapshot and
may miss a row committed meanwhile (by another process). For an append, a count that is too low
makes the number either not the next one (not stored) or one already taken (the primary key
refuses it: ``ON CONFLICT DO NOTHING``, not stored); it is never too high (the log is append-only).
For a deal, a newest hand that is too old means a newer hand exists, numbered one more than the
one read (hands are numbered 1, 2, ... per table): the new hand's number is taken, or the table
has a hand in progress, and the unique index refuses it (``ON CONFLICT DO NOTHING``, not stored:
its players and actions, inserted only for the hands the insert returns, are not stored either).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    import asyncpg

R = TypeVar("R")
T = TypeVar("T")

Connection = Any
"""An asyncpg connection (a pool's proxy)."""

MAX_BATCH = 1000
"""The most requests one statement stores."""


@dataclass
class _Queued(Generic[R, T]):
    request: R
    future: asyncio.Future[T | None]


class StatementBatch(Generic[R, T]):
    """The queue of one kind of request and the task that stores them many to a statement (see the
    module docstring). ``pool`` returns the open pool, or None once it is closed; ``store`` runs
    one statement for a list of requests (at most one per ``key``) on a connection and returns
    the result of each stored one by its position (a request missing from it was not stored)."""

    def __init__(
        self,
        name: str,
        pool: Callable[[], asyncpg.Pool[Any] | None],
        store: Callable[[Connection, list[R]], Awaitable[Mapping[int, T]]],
        key: Callable[[R], Hashable],
    ) -> None:
        self._name = name
        self._pool = pool
        self._store_batch = store
        self._key = key
        self._queue: deque[_Queued[R, T]] = deque()
        self._task: asyncio.Task[None] | None = None
        self.batches = 0
        """Statements run so far (for benchmarks and tests)."""
        self.stored = 0
        """Requests they stored."""
        self.largest = 0
        """The most requests one statement was asked to store."""

    async def submit(self, request: R) -> T | None:
        """The request's result once a statement has stored and committed it; None when it was not
        stored (the caller then runs the ordinary transaction)."""
        future: asyncio.Future[T | None] = asyncio.get_running_loop().create_future()
        self._queue.append(_Queued(request, future))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._drain(), name=f"wildstud-{self._name}-batch")
        return await future

    async def flush(self) -> None:
        """Wait until every request queued so far has been answered."""
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
                    item.future.set_result(None)

    async def _drain_queue(self) -> None:
        while self._queue:
            batch: list[_Queued[R, T]] = []
            later: list[_Queued[R, T]] = []
            keys: set[Hashable] = set()
            while self._queue and len(batch) < MAX_BATCH:
                item = self._queue.popleft()
                if item.future.done():  # its caller was cancelled
                    continue
                key = self._key(item.request)
                if key in keys:  # one per hand or table per statement; the next in the next one
                    later.append(item)
                    continue
                keys.add(key)
                batch.append(item)
            self._queue.extendleft(reversed(later))
            if batch:
                await self._run(batch)

    async def _run(self, batch: list[_Queued[R, T]]) -> None:
        results: Mapping[int, T] = {}
        pool = self._pool()
        try:
            if pool is not None:
                async with pool.acquire() as conn:
                    results = await self._store_batch(conn, [item.request for item in batch])
        except Exception:
            results = {}  # nothing of a failed statement is stored: every caller runs its own
        finally:
            self.batches += 1
            self.stored += len(results)
            self.largest = max(self.largest, len(batch))
            for index, item in enumerate(batch):
                if not item.future.done():
                    item.future.set_result(results.get(index))


# -- actions ---------------------------------------------------------------------------------------

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


@dataclass(frozen=True)
class Append:
    """One action to store: number ``seq`` of the hand, at time ``created`` (the stored text)."""

    hand_id: int
    seq: int
    action: str
    created: str
    lease: int | None


async def store_appends(conn: Connection, batch: list[Append]) -> dict[int, bool]:
    """Run :data:`APPEND_SQL` for ``batch`` (one per hand); True for each stored action by position."""
    rows = await conn.fetch(
        APPEND_SQL,
        [a.hand_id for a in batch],
        [a.seq for a in batch],
        [a.action for a in batch],
        [a.created for a in batch],
        [a.lease for a in batch],
    )
    stored = {(int(r[0]), int(r[1])) for r in rows}
    return {i: True for i, a in enumerate(batch) if (a.hand_id, a.seq) in stored}


def append_batch(pool: Callable[[], asyncpg.Pool[Any] | None]) -> StatementBatch[Append, bool]:
    """The single-action appends of one pool, one statement per batch (:data:`APPEND_SQL`)."""
    return StatementBatch("append", pool, store_appends, key=lambda a: a.hand_id)


# -- deals -----------------------------------------------------------------------------------------

DEAL_SQL = """
WITH req AS (
    SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
                         $7::text[], $8::text[], $9::bigint[], $10::bigint[])
        AS r (table_id, deck, commitment, salt, stakes, rulings, started, game, lease, players)
), want AS (
    SELECT * FROM unnest($11::bigint[], $12::bigint[], $13::bigint[]) AS w (table_id, seat_no, member_id)
), first AS (
    SELECT * FROM unnest($14::bigint[], $15::bigint[], $16::text[]) AS f (table_id, seq, action)
), tbl AS (
    SELECT id, status, stakes, rulings FROM tables WHERE id = ANY ($1::bigint[]) ORDER BY id FOR UPDATE
), lease AS (
    SELECT table_id, generation FROM table_leases
    WHERE table_id = ANY ($1::bigint[]) ORDER BY table_id FOR UPDATE
), seat AS (
    UPDATE seats SET stack = seats.stack FROM want
    WHERE seats.table_id = want.table_id AND seats.seat_no = want.seat_no
      AND seats.member_id = want.member_id
    RETURNING seats.table_id, seats.seat_no, seats.member_id, seats.stack
), ok AS (
    SELECT req.*, tbl.stakes AS table_stakes, tbl.rulings AS table_rulings,
           COALESCE(last.hand_no, 0) + 1 AS hand_no
    FROM req JOIN tbl ON tbl.id = req.table_id
    LEFT JOIN LATERAL (
        SELECT h.hand_no, h.status FROM hands h WHERE h.table_id = req.table_id
        ORDER BY h.hand_no DESC LIMIT 1
    ) last ON TRUE
    WHERE tbl.status = 'open'
      AND (last.status IS NULL OR last.status <> 'in_progress')
      AND req.players = (SELECT COUNT(*) FROM seat WHERE seat.table_id = req.table_id)
      AND (req.lease IS NULL
           OR req.lease = (SELECT lease.generation FROM lease WHERE lease.table_id = req.table_id))
), hand AS (
    INSERT INTO hands (table_id, hand_no, deck, commitment, salt, stakes, rulings, started, game)
    SELECT table_id, hand_no, deck, commitment, salt, COALESCE(stakes, table_stakes),
           COALESCE(rulings, table_rulings), started, game
    FROM ok
    ON CONFLICT DO NOTHING
    RETURNING id, table_id, started
), dealt AS (
    INSERT INTO hand_players (hand_id, seat_no, member_id, starting_stack)
    SELECT hand.id, seat.seat_no, seat.member_id, seat.stack
    FROM hand JOIN seat ON seat.table_id = hand.table_id
), logged AS (
    INSERT INTO hand_actions (hand_id, seq, action, created)
    SELECT hand.id, first.seq, first.action, hand.started
    FROM hand JOIN first ON first.table_id = hand.table_id
)
SELECT table_id, id FROM hand
"""


@dataclass(frozen=True)
class Deal:
    """One hand to start, as :meth:`bot.store.hands.HandStore.create_hand` has checked its input:
    ``players`` seat -> member; ``stakes``/``rulings`` JSON text, None for the table's own;
    ``actions`` the first entries of its log (numbers 1, 2, ...); ``started`` the stored time."""

    table_id: int
    players: Mapping[int, int]
    deck: str
    commitment: str
    salt: str
    stakes: str | None
    rulings: str | None
    game: str
    actions: Sequence[str]
    started: str
    lease: int | None


async def store_deals(conn: Connection, batch: list[Deal]) -> dict[int, int]:
    """Run :data:`DEAL_SQL` for ``batch`` (one per table); the new hand's id for each stored deal
    by position."""
    seats = [(d.table_id, seat, member) for d in batch for seat, member in sorted(d.players.items())]
    firsts = [(d.table_id, seq, text) for d in batch for seq, text in enumerate(d.actions, start=1)]
    rows = await conn.fetch(
        DEAL_SQL,
        [d.table_id for d in batch],
        [d.deck for d in batch],
        [d.commitment for d in batch],
        [d.salt for d in batch],
        [d.stakes for d in batch],
        [d.rulings for d in batch],
        [d.started for d in batch],
        [d.game for d in batch],
        [d.lease for d in batch],
        [len(d.players) for d in batch],
        [s[0] for s in seats],
        [s[1] for s in seats],
        [s[2] for s in seats],
        [f[0] for f in firsts],
        [f[1] for f in firsts],
        [f[2] for f in firsts],
    )
    hands = {int(r[0]): int(r[1]) for r in rows}
    return {i: hands[d.table_id] for i, d in enumerate(batch) if d.table_id in hands}


def deal_batch(pool: Callable[[], asyncpg.Pool[Any] | None]) -> StatementBatch[Deal, int]:
    """The deals of one pool, one statement per batch (:data:`DEAL_SQL`)."""
    return StatementBatch("deal", pool, store_deals, key=lambda d: d.table_id)
