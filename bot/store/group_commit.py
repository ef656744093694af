"""SQLite's group commit: the hot writes of many callers in one transaction, one fsync for all.

A store method on the hot path (storing an action, dealing, settling) hands its transaction to
:meth:`GroupCommit.write` as a *body*: an ``async`` function of a :class:`~bot.store.backend.Tx`
that awaits nothing but its ``tx`` (and helpers that do the same). Writes queue up while the
database is busy; then one hop to the connection's thread runs the whole queue (a *batch*):

    BEGIN IMMEDIATE
      body 1; body 2; ...                   -- if one raises: ROLLBACK, and the batch again as
    COMMIT                                  -- one fsync (WAL, synchronous=FULL) for the batch

    BEGIN IMMEDIATE
      SAVEPOINT w; body 1; RELEASE w        -- or ROLLBACK TO w on its error: it alone fails
      SAVEPOINT w; body 2; RELEASE w
      ...
    COMMIT

The first form is the common one (a body raises only for a refused request: a repeated click, a
stale lease); it saves the two savepoint statements of every write, a third to half of the
statements of an action. A batch with a refusal costs its statements twice.

Each body runs on that thread, driven to completion without the event loop: its ``tx`` calls
(:class:`ThreadTx`) run the statements directly on the ``sqlite3`` connection and never
suspend, so one batch costs one round trip to the thread instead of ~6 per write, and one fsync
instead of one per write.

The guarantees, as with one transaction per call:

* **Durable before acknowledged.** A caller's ``await`` returns (or raises the body's own error)
  only after the ``COMMIT`` of the batch that holds its write has returned, so nothing a caller
  was told is stored can be lost to a crash (``tests/store/test_group_commit_crash.py`` kills a
  process mid-batch to check).
* **Isolated failures.** A body that raises is rolled back to its savepoint; the others in the
  batch are kept and committed, and only that caller gets the error. A statement whose error
  rolls back the whole transaction (SQLite does so for a full disk, an I/O error) fails its own
  caller, and the batch is run again without it. An error of the batch itself (``BEGIN`` or
  ``COMMIT`` failing) goes to exactly the callers of that batch; nothing of theirs is stored.
* **Order.** Writes run in the order they were submitted, so one table's writes (which its
  table lock already makes one at a time) keep their order; each body sees every earlier write.
* **Serial as before.** A batch holds the backend's lock, so it never interleaves with another
  transaction of this process; other processes wait for SQLite's write lock as always.

A caller cancelled while its write is still queued takes it out of the queue (nothing is
stored); once its batch has started, the write goes ahead and the caller simply does not hear
of it, as if it had been cancelled just after its commit.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections import deque
from collections.abc import Callable, Coroutine, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

import aiosqlite

from bot.store.tx import Row, Tx

T = TypeVar("T")

Body = Callable[[Tx], Coroutine[Any, Any, T]]
"""A write's transaction body: run once per attempt, on a fresh :class:`Tx`."""

MAX_BATCH = 1000
"""The most writes one batch holds (a bound on how long one batch keeps the connection)."""

_SAVEPOINT = "wildstud_write"


class ThreadTx(Tx):
    """A transaction's statements run directly on the ``sqlite3`` connection, on its thread
    (inside a batch): every call completes before it returns, so a body never suspends."""

    def __init__(self, conn: sqlite3.Connection, now: datetime, now_text: str) -> None:
        super().__init__(now, now_text)
        self._conn = conn

    async def all(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        return [tuple(row) for row in self._conn.execute(sql, tuple(params)).fetchall()]

    async def run(self, sql: str, params: Iterable[Any] = ()) -> tuple[int, int | None]:
        cursor = self._conn.execute(sql, tuple(params))
        return cursor.rowcount, cursor.lastrowid


def drive(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a body's coroutine to its end without an event loop; it must never suspend (a
    :class:`ThreadTx` never does). Raises what the body raises."""
    try:
        coroutine.send(None)
    except StopIteration as stop:
        result: T = stop.value
        return result
    coroutine.close()
    raise RuntimeError("a group-committed write awaited something other than its transaction")


@dataclass
class _Write:
    body: Body[Any]
    now: datetime
    now_text: str
    future: asyncio.Future[Any]


@dataclass
class BatchOutcome:
    """What one batch did: each write's result or error by position, or the batch's own error
    (``BEGIN``/``COMMIT`` failed: every write not already failed gets it; none is stored)."""

    results: dict[int, Any] = field(default_factory=dict)
    errors: dict[int, Exception] = field(default_factory=dict)
    batch_error: BaseException | None = None
    attempts: int = 0


def run_batch(conn: sqlite3.Connection, writes: list[tuple[Body[Any], datetime, str]]) -> BatchOutcome:
    """Run ``writes`` (body, now, now_text) in one transaction on ``conn`` (the connection's own
    thread); see the module docstring. First without savepoints (two statements fewer a write:
    a third to half of an action's); if a body raises, the whole transaction is rolled back and
    the batch runs again with a savepoint for each write, so that only the failed one is undone."""
    outcome = BatchOutcome()
    isolated = False
    try:
        while True:
            outcome.attempts += 1
            outcome.results.clear()
            conn.execute("BEGIN IMMEDIATE")
            rerun = False
            for index, (body, now, now_text) in enumerate(writes):
                if index in outcome.errors:
                    continue
                if isolated:
                    conn.execute(f"SAVEPOINT {_SAVEPOINT}")
                try:
                    value = drive(body(ThreadTx(conn, now, now_text)))
                except Exception as error:
                    if not isolated:
                        # Its writes cannot be undone alone: all again, each in a savepoint.
                        isolated = rerun = True
                        break
                    outcome.errors[index] = error
                    if not conn.in_transaction:
                        # The error ended the whole transaction (SQLite does for a full disk, an
                        # I/O error): the writes before it are gone too; run them again without it.
                        rerun = True
                        break
                    conn.execute(f"ROLLBACK TO {_SAVEPOINT}")
                    conn.execute(f"RELEASE {_SAVEPOINT}")
                else:
                    if isolated:
                        conn.execute(f"RELEASE {_SAVEPOINT}")
                    outcome.results[index] = value
            if rerun:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                continue
            conn.execute("COMMIT")
            return outcome
    except BaseException as error:
        outcome.results.clear()
        outcome.batch_error = error
        if conn.in_transaction:
            conn.rollback()
        return outcome


class GroupCommit:
    """The queue of one SQLite connection's hot writes and the task that commits them in
    batches (see the module docstring). ``lock`` is the backend's transaction lock;
    ``connection`` returns the open connection, or None once the store is closed."""

    def __init__(self, lock: asyncio.Lock, connection: Callable[[], aiosqlite.Connection | None]) -> None:
        self._lock = lock
        self._connection = connection
        self._queue: deque[_Write] = deque()
        self._task: asyncio.Task[None] | None = None
        self.batches = 0
        """Batches committed or failed so far (for benchmarks)."""
        self.writes = 0
        """Writes those batches held."""
        self.largest = 0
        """The most writes one batch held."""
        self.busy = 0.0
        """Seconds the batches took, from the hop to the thread to the answer (for benchmarks)."""

    async def write(self, body: Body[T], now: datetime, now_text: str) -> T:
        """Run ``body`` in the next batch; returns its result once the batch has committed."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.append(_Write(body, now, now_text, future))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._drain(), name="wildstud-group-commit")
        return await future

    async def flush(self) -> None:
        """Wait until every write queued so far has been committed (or has failed)."""
        while self._task is not None and not self._task.done():
            await asyncio.wait([self._task])

    async def _drain(self) -> None:
        try:
            while self._queue:
                async with self._lock:
                    batch: list[_Write] = []
                    while self._queue and len(batch) < MAX_BATCH:
                        write = self._queue.popleft()
                        if not write.future.done():  # a caller cancelled before its batch began
                            batch.append(write)
                    if batch:
                        await self._commit(batch)
        except BaseException:
            # Cancelled (the event loop is closing): nobody will commit what is still queued.
            while self._queue:
                write = self._queue.popleft()
                if not write.future.done():
                    write.future.set_exception(RuntimeError("the store stopped before this write was stored"))
            raise

    async def _commit(self, batch: list[_Write]) -> None:
        db = self._connection()
        if db is None:
            outcome = BatchOutcome(batch_error=RuntimeError("the store is closed"))
        else:
            writes = [(w.body, w.now, w.now_text) for w in batch]
            started = time.perf_counter()
            try:
                # aiosqlite's own queue to its thread (what its execute() uses): one hop for the
                # whole batch, in order with every other statement of this connection.
                outcome = await db._execute(run_batch, db._conn, writes)  # type: ignore[no-untyped-call]
            except Exception as error:  # the connection is gone: nothing of the batch ran
                outcome = BatchOutcome(batch_error=error)
            except BaseException:
                # Cancelled (the loop is closing): the batch may still run, but nobody can be told
                # that it committed.
                for write in batch:
                    if not write.future.done():
                        write.future.set_exception(
                            RuntimeError("the store stopped before this write was confirmed")
                        )
                raise
            self.busy += time.perf_counter() - started
        self.batches += 1
        self.writes += len(batch)
        self.largest = max(self.largest, len(batch))
        for index, write in enumerate(batch):
            if write.future.done():
                continue
            if index in outcome.errors:
                write.future.set_exception(outcome.errors[index])
            elif outcome.batch_error is not None:
                write.future.set_exception(outcome.batch_error)
            else:
                write.future.set_result(outcome.results[index])
