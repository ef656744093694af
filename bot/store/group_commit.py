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

Writes of one kind next to each other in a batch (a storm of deals after a restart) may be stored
together by a few set statements instead of their bodies (:class:`Together`; the deals':
:mod:`bot.store.sqlite_batch`): the set stores only what each body would store, exactly so, and
each write it leaves runs its own body right after it, which decides it (and raises for it). If
the set itself raises, the batch runs again with every write alone.

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
from collections.abc import Callable, Coroutine, Iterable, Iterator, Mapping
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


@dataclass(frozen=True)
class Together:
    """How a write may be stored together with the writes of its kind next to it in a batch, by
    one set of statements (:mod:`bot.store.sqlite_batch`): ``many(conn, requests)`` stores what it
    certainly may of ``requests`` (in submission order) exactly as their bodies would, and returns
    the result of each one it stored, by position; each write it does not store runs its own body
    right after it, in order. ``many`` of a run of one write is never called (its body is cheaper)."""

    many: Callable[[sqlite3.Connection, list[Any]], Mapping[int, Any]]
    request: Any


@dataclass
class _Write:
    body: Body[Any]
    now: datetime
    now_text: str
    future: asyncio.Future[Any]
    together: Together | None = None


@dataclass
class BatchOutcome:
    """What one batch did: each write's result or error by position, or the batch's own error
    (``BEGIN``/``COMMIT`` failed: every write not already failed gets it; none is stored)."""

    results: dict[int, Any] = field(default_factory=dict)
    errors: dict[int, Exception] = field(default_factory=dict)
    batch_error: BaseException | None = None
    attempts: int = 0
    together: int = 0
    """Writes the last attempt stored by a set of statements (:class:`Together`)."""


BatchWrite = tuple[Body[Any], datetime, str, Together | None]
"""A write as :func:`run_batch` takes it: its body, its time (datetime and text) and its set form."""


def _steps(writes: list[BatchWrite], together: bool) -> Iterator[list[int]]:
    """The batch's writes by position, one at a time, or a run of writes next to each other that
    share a set form (:class:`Together`) together (only while ``together``)."""
    index = 0
    while index < len(writes):
        form = writes[index][3]
        end = index + 1
        if together and form is not None:
            while end < len(writes) and (other := writes[end][3]) is not None and other.many == form.many:
                end += 1
        yield list(range(index, end))
        index = end


def run_batch(conn: sqlite3.Connection, writes: list[BatchWrite]) -> BatchOutcome:
    """Run ``writes`` in one transaction on ``conn`` (the connection's own thread); see the module
    docstring. First without savepoints (two statements fewer a write: a third to half of an
    action's); if a body raises, the whole transaction is rolled back and the batch runs again
    with a savepoint for each write, so that only the failed one is undone. A run of writes with a
    set form is stored by it first (:class:`Together`); should that raise, the batch runs again
    with each of them alone."""
    outcome = BatchOutcome()
    isolated = False
    together = True

    def body_of(index: int) -> bool:
        """Run write ``index``'s own body; False when the attempt must start over."""
        nonlocal isolated
        body, now, now_text, _ = writes[index]
        if isolated:
            conn.execute(f"SAVEPOINT {_SAVEPOINT}")
        try:
            value = drive(body(ThreadTx(conn, now, now_text)))
        except Exception as error:
            if not isolated:
                # Its writes cannot be undone alone: all again, each in a savepoint.
                isolated = True
                return False
            outcome.errors[index] = error
            if not conn.in_transaction:
                # The error ended the whole transaction (SQLite does for a full disk, an I/O
                # error): the writes before it are gone too; run them again without it.
                return False
            conn.execute(f"ROLLBACK TO {_SAVEPOINT}")
            conn.execute(f"RELEASE {_SAVEPOINT}")
        else:
            if isolated:
                conn.execute(f"RELEASE {_SAVEPOINT}")
            outcome.results[index] = value
        return True

    def run_of(indices: list[int]) -> bool:
        """Store a run of writes that share a set form; False when the attempt must start over."""
        nonlocal together
        form = writes[indices[0]][3]
        assert form is not None
        if isolated:
            conn.execute(f"SAVEPOINT {_SAVEPOINT}")
        try:
            stored = form.many(conn, [writes[i][3].request for i in indices])  # type: ignore[union-attr]
        except Exception:
            together = False  # each write alone, its own body deciding (and raising) for it
            return False
        if isolated:
            conn.execute(f"RELEASE {_SAVEPOINT}")
        for position, value in stored.items():
            outcome.results[indices[position]] = value
        outcome.together += len(stored)
        return all(body_of(i) for i in indices if i not in outcome.results)

    try:
        while True:
            outcome.attempts += 1
            outcome.results.clear()
            outcome.together = 0
            conn.execute("BEGIN IMMEDIATE")
            completed = True
            for step in _steps(writes, together):
                pending = [i for i in step if i not in outcome.errors]
                if len(pending) > 1:
                    completed = run_of(pending)
                elif pending:
                    completed = body_of(pending[0])
                if not completed:
                    break
            if not completed:
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
        self.together = 0
        """Writes stored by a set of statements with others of their kind (:class:`Together`)."""
        self.busy = 0.0
        """Seconds the batches took, from the hop to the thread to the answer (for benchmarks)."""

    def write(
        self, body: Body[T], now: datetime, now_text: str, together: Together | None = None
    ) -> asyncio.Future[T]:
        """Queue ``body`` for the next batch (or, with writes of its kind next to it, its set form
        ``together``); the future gives its result once the batch has committed (cancelling it
        before its batch begins takes the write out of the queue). A plain function, not a
        coroutine: every hot write awaits this future, and a storm queues thousands at once."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.append(_Write(body, now, now_text, future, together))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._drain(), name="wildstud-group-commit")
        return future

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
            writes: list[BatchWrite] = [(w.body, w.now, w.now_text, w.together) for w in batch]
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
        self.together += outcome.together
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
