"""The two database backends behind the store: embedded SQLite (the default) and PostgreSQL.

The store's parts write one SQL text, with ``?`` placeholders, and run it through :class:`Tx`
(``all`` / ``one`` / ``value`` / ``run``). Each backend turns that text into its own dialect:

* :class:`SqliteBackend` -- one aiosqlite connection per process. aiosqlite serialises
  statements but not transactions, so every transaction (reads too, so they never see another
  coroutine's half-written transaction) runs under one :class:`asyncio.Lock`. Writes use
  ``BEGIN IMMEDIATE``, which takes SQLite's write lock up front; reads a deferred ``BEGIN``.
* :class:`PostgresBackend` -- an asyncpg connection pool, so transactions run side by side (in
  this process and in other processes on the same database). Writes run at ``SERIALIZABLE``
  isolation; PostgreSQL aborts any transaction whose result could differ from some serial order
  (SQLSTATE 40001/40P01) and the store retries the whole method (see :func:`retrying`). This was
  chosen over row locks (``SELECT ... FOR UPDATE``) because it keeps today's guarantee -- every
  store method behaves as if it ran alone -- for every method, including ones written later by
  someone who does not think about locking: a read-then-write (a balance check, "is there a hand
  in progress", "was this idempotency key used") can never be decided on a stale read. Reads run
  at ``REPEATABLE READ READ ONLY``: one consistent snapshot, never aborted.

  The hot paths are the exception: storing a hand's actions (``append_actions``, every
  click), dealing (``create_hand``), settling (``settle_hand``) and storing a hand's stat lines
  (``record_hand_stats``) run at ``READ COMMITTED`` and lock what they read first (:meth:`Tx.lock`,
  ``SELECT ... FOR UPDATE``: the hand's row; the table's row and each dealt seat's row), so
  concurrent calls for one hand or table take turns and calls for different ones never conflict
  (a single action, and a deal, is stored by a statement shared with the others arriving
  meanwhile, under the same rules: :mod:`bot.store.pg_batch`). Under ``SERIALIZABLE`` they did:
  PostgreSQL's predicate locks on B-tree pages are page-sized, so appends to neighbouring hands
  aborted each other (measured: 5,741 retries for 4,000 appends, 20 hands at once) and so did
  deals at neighbouring tables. A
  transfer between two members (``transfer``) runs so too: it locks the two balance rows in
  ascending member order, so transfers in opposite directions wait for each other (at
  ``SERIALIZABLE`` each read both balances and then wrote them, one of every such pair was
  aborted, and under contention some gave up after every retry: issue 18). A method
  may use this mode only if it locks every row whose reading decides what it writes, and
  rewrites (unchanged) any row a serializable method might change on a decision it read before
  (a serializable transaction retries when a row it changes was rewritten meanwhile; a lock
  alone does not make it).

PostgreSQL translation (:func:`to_postgres`): ``?`` becomes ``$1, $2, ...`` (not inside quotes);
an ``INSERT`` into a table with an ``id`` column gets ``RETURNING id`` so :meth:`Tx.run` can
return the new row id as SQLite's ``lastrowid`` does; ``SUM`` results (``numeric`` in PostgreSQL)
come back as ``int``. So a new store function written once, in the SQL both engines share
(standard SQL: no ``PRAGMA``, no SQLite-only functions, ``FALSE`` rather than ``0`` for a false
condition, no output aliases inside ``ORDER BY`` expressions), works on both; the store test-suite
runs every test against both backends.
"""

from __future__ import annotations

import asyncio
import functools
import os
import random
import re
import sqlite3
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterable
from contextlib import asynccontextmanager
from datetime import datetime
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, ParamSpec, TypeVar
from urllib.parse import urlsplit, urlunsplit

import aiosqlite

from bot.store.deal import Deal
from bot.store.errors import DriverMissing, StoreError
from bot.store.group_commit import GroupCommit, Together
from bot.store.pg_batch import (
    Append,
    HandLines,
    Settle,
    StatementBatch,
    append_batch,
    deal_batch,
    settle_batch,
    stats_batch,
    warm,
)
from bot.store.tx import Row, Tx

if TYPE_CHECKING:
    import asyncpg

P = ParamSpec("P")
T = TypeVar("T")

POSTGRES_SCHEMES = ("postgresql", "postgres")
"""URL schemes that select PostgreSQL."""

SCHEMES_HELP = "a file path, sqlite:PATH, or postgresql://USER:PASSWORD@HOST:PORT/DATABASE"
"""What a database setting may be, for error messages."""

BUSY_TIMEOUT_MS = 5000
"""How long a SQLite write waits for another process's write lock before failing (milliseconds)."""

MAX_TRIES = 20
"""How often a PostgreSQL transaction aborted by a serialization conflict is tried in all."""

POOL_SIZE = 10
"""Connections in a PostgreSQL pool: enough for a process's concurrent transactions (each holds a
connection for a few milliseconds), few enough that many shards fit in ``max_connections``."""


class DatabaseTargetError(ValueError):
    """A database setting that is neither a SQLite path nor a PostgreSQL URL."""


def parse_target(target: str | Path) -> tuple[str, str]:
    """Classify a ``--db`` / ``DATABASE_URL`` / ``DATABASE_PATH`` value.

    Returns ``("sqlite", path)`` for a plain path or ``sqlite:PATH`` (``sqlite:///abs/file`` is
    ``/abs/file``, ``sqlite://rel/file`` is ``rel/file``), or ``("postgresql", url)`` for a
    ``postgresql://`` or ``postgres://`` URL. Raises :class:`DatabaseTargetError` for any other
    ``scheme:`` (a URL is a URL: it never becomes a folder named after its scheme).

    >>> parse_target("data/wildstud.sqlite3")
    ('sqlite', 'data/wildstud.sqlite3')
    >>> parse_target("sqlite:///srv/chips.db")
    ('sqlite', '/srv/chips.db')
    >>> parse_target("postgresql://bot@db/wildstud")
    ('postgresql', 'postgresql://bot@db/wildstud')
    >>> parse_target("mysql://x")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bot.store.backend.DatabaseTargetError: unknown database scheme 'mysql:' in 'mysql://x'; use a file...
    """
    if isinstance(target, Path):
        return "sqlite", str(target)
    text = target.strip()
    if not text:
        raise DatabaseTargetError(f"an empty database setting; use {SCHEMES_HELP}")
    match = re.match(r"([A-Za-z][A-Za-z0-9+.\-]*):", text)
    # One letter before a colon is a Windows drive (C:\...), not a scheme.
    if match is None or len(match.group(1)) == 1:
        return "sqlite", text
    scheme = match.group(1).lower()
    if scheme == "sqlite":
        rest = text[match.end() :]
        rest = rest[2:] if rest.startswith("//") else rest
        if not rest:
            raise DatabaseTargetError(f"{text!r} names no file; use sqlite:PATH")
        return "sqlite", rest
    if scheme in POSTGRES_SCHEMES:
        return "postgresql", text
    raise DatabaseTargetError(f"unknown database scheme '{scheme}:' in {redact(text)!r}; use {SCHEMES_HELP}")


def redact(url: str) -> str:
    """A URL with its password replaced by ``***`` (for messages and logs).

    >>> redact("postgresql://bot:s3cret@db:5432/wildstud")
    'postgresql://bot:***@db:5432/wildstud'
    """
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<unreadable URL>"
    if parts.password is None:
        return url
    netloc = f"{parts.username or ''}:***@{parts.hostname or ''}"
    if parts.port is not None:
        netloc += f":{parts.port}"
    return urlunsplit(parts._replace(netloc=netloc))


@functools.lru_cache(maxsize=4096)
def to_postgres(sql: str, id_tables: frozenset[str] = frozenset()) -> tuple[str, bool]:
    """Translate the store's SQL to PostgreSQL: ``?`` -> ``$n`` outside quotes and comments; an
    ``INSERT INTO`` one of ``id_tables`` gains ``RETURNING id``. Returns ``(sql, returns_id)``.

    >>> to_postgres("SELECT 'a?' FROM t WHERE x = ? AND y = ?")
    ("SELECT 'a?' FROM t WHERE x = $1 AND y = $2", False)
    >>> to_postgres("INSERT INTO hands (a) VALUES (?)", frozenset({"hands"}))
    ('INSERT INTO hands (a) VALUES ($1) RETURNING id', True)
    """
    out: list[str] = []
    count = 0
    i = 0
    while i < len(sql):
        char = sql[i]
        if char in "'\"":
            end = sql.index(char, i + 1) + 1  # SQL doubles a quote inside: two adjacent literals
            out.append(sql[i:end])
            i = end
            continue
        if sql.startswith("--", i):
            end = sql.find("\n", i)
            end = len(sql) if end < 0 else end
            out.append(sql[i:end])
            i = end
            continue
        if char == "?":
            count += 1
            out.append(f"${count}")
        else:
            out.append(char)
        i += 1
    text = "".join(out)
    insert = re.match(r"\s*INSERT\s+INTO\s+\"?(\w+)\"?", text, re.IGNORECASE)
    if insert and insert.group(1).lower() in id_tables and not re.search(r"\bRETURNING\b", text, re.I):
        return f"{text.rstrip().rstrip(';')} RETURNING id", True
    return text, False


class Backend:
    """A database the store runs transactions on (see the module docstring)."""

    kind: str
    """``"sqlite"`` or ``"postgresql"``."""
    retryable: tuple[type[BaseException], ...] = ()
    """Exceptions after which a whole store method is run again (none for SQLite)."""
    retries = 0
    """How many times a store method was run again after a conflict (for logs and benchmarks)."""

    def __init__(self, target: str) -> None:
        self.target = target
        self.retried: Counter[str] = Counter()
        """Retries by method name and conflict (``"create_hand: SerializationError"``)."""

    @property
    def closed(self) -> bool:
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    def transaction(self, now: datetime, now_text: str, *, write: bool, locking: bool = False) -> Any:
        """An async context manager yielding a :class:`Tx`; commits on success, rolls back on error.

        ``locking``: a write that protects what it reads with :meth:`Tx.lock` instead of relying on
        serializable isolation (PostgreSQL runs it at ``READ COMMITTED``); for hot paths only."""
        raise NotImplementedError

    def write(self, now: datetime, now_text: str, body: Callable[[Tx], Coroutine[Any, Any, T]], *,
              locking: bool = False, together: Together | None = None) -> Awaitable[T]:
        """Run ``body`` as one write transaction; the awaitable gives its result once committed: a
        hot write (see :meth:`StoreBase._write`). ``body`` awaits nothing but its ``tx`` and may be
        run more than once (SQLite runs it in a group commit, :mod:`bot.store.group_commit`, and
        there stores it by its set form ``together`` with others of its kind next to it)."""
        return self._write_alone(now, now_text, body, locking)

    async def _write_alone(self, now: datetime, now_text: str, body: Callable[[Tx], Coroutine[Any, Any, T]],
                           locking: bool) -> T:
        async with self.transaction(now, now_text, write=True, locking=locking) as tx:
            return await body(tx)


# -- SQLite --------------------------------------------------------------------------------------


class SqliteTx(Tx):
    def __init__(self, db: aiosqlite.Connection, now: datetime, now_text: str) -> None:
        super().__init__(now, now_text)
        self._db = db

    async def all(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        rows = await self._db.execute_fetchall(sql, tuple(params))
        return [tuple(row) for row in rows]

    async def run(self, sql: str, params: Iterable[Any] = ()) -> tuple[int, int | None]:
        # One round trip to the connection's thread: the cursor is left to the garbage collector
        # rather than closed with a second round trip (it holds no rows).
        cursor = await self._db.execute(sql, tuple(params))
        return cursor.rowcount, cursor.lastrowid


class SqliteBackend(Backend):
    """One aiosqlite connection and its lock (see the module docstring)."""

    kind = "sqlite"

    def __init__(self, db: aiosqlite.Connection, path: Path) -> None:
        super().__init__(str(path))
        self.db: aiosqlite.Connection | None = db
        self.path = path
        self._lock = asyncio.Lock()
        self.group = GroupCommit(self._lock, lambda: self.db)
        """The hot writes' group commit (see :mod:`bot.store.group_commit`)."""

    @classmethod
    async def connect(cls, path: Path, upto: int | None) -> SqliteBackend:
        from bot.store.migrations import migrate

        if sqlite3.sqlite_version_info < (3, 37, 0):  # STRICT tables
            raise RuntimeError(
                f"Wildstud needs SQLite 3.37 or newer; this Python has {sqlite3.sqlite_version}"
            )
        if str(path) != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
            _prepare_file(path)
        db = await aiosqlite.connect(path, isolation_level=None)
        try:
            await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
            await db.execute("PRAGMA journal_mode = WAL")  # outside any transaction; persists in the file
            await db.execute("PRAGMA synchronous = FULL")
            await db.execute("PRAGMA foreign_keys = ON")
            await migrate(db, upto)
        except BaseException:
            await db.close()
            raise
        return cls(db, path)

    @property
    def closed(self) -> bool:
        return self.db is None

    def write(self, now: datetime, now_text: str, body: Callable[[Tx], Coroutine[Any, Any, T]], *,
              locking: bool = False, together: Together | None = None) -> Awaitable[T]:
        # The group commit's future itself: no coroutine between it and the store method awaiting it.
        return self.group.write(body, now, now_text, together)

    async def close(self) -> None:
        # Writes already queued are committed first (their callers are waiting to hear so).
        await self.group.flush()
        # An open aiosqlite 0.22 connection keeps its non-daemon thread, and so the process, alive.
        async with self._lock:
            if self.db is not None:
                db, self.db = self.db, None
                await db.close()

    @asynccontextmanager
    async def transaction(
        self, now: datetime, now_text: str, *, write: bool, locking: bool = False
    ) -> AsyncIterator[Tx]:
        async with self._lock:
            db = self.db
            if db is None:
                raise RuntimeError("the store is closed")
            try:
                await db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                yield SqliteTx(db, now, now_text)
                await db.execute("COMMIT")
            except BaseException:
                # Also on cancellation: a cancelled caller's statement (even its BEGIN or COMMIT)
                # may still be queued on the connection's thread. aiosqlite runs calls in order,
                # and sqlite3's rollback() does nothing outside a transaction, so this always
                # leaves the connection with no transaction open before the lock is released.
                await db.rollback()
                raise


_WILDSTUD_CORE = frozenset({"guild_settings", "balances", "ledger"})
"""Tables every Wildstud database has had since schema version 1."""


def _prepare_file(path: Path) -> None:
    """Before a writing open: create a missing database file readable by its owner only (0600: it
    holds every live deck and salt; SQLite gives its ``-wal``/``-shm`` files the same mode), and
    refuse a non-empty file that is not a Wildstud database (another program's SQLite file, a file
    that is not SQLite) rather than add our tables to it and switch it to WAL. Raises
    :class:`NotWildstudDatabase`."""
    from bot.store.errors import NotWildstudDatabase

    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        return
    except FileExistsError:
        pass
    if not path.is_file():
        raise NotWildstudDatabase(f"cannot open {path}: it is not a database file")
    if path.stat().st_size > 0:
        sqlite_file_version(path)


def sqlite_file_version(path: Path) -> int:
    """The schema version of the non-empty file at ``path``, read without writing anything; raises
    :class:`NotWildstudDatabase` unless it is a Wildstud SQLite database (any version; 0 for a
    SQLite file with no tables at all)."""
    from bot.store.errors import NotWildstudDatabase

    try:
        with open(path, "rb") as file:
            header = file.read(16)
        if header != b"SQLite format 3\x00":
            raise NotWildstudDatabase(f"cannot open {path}: not a SQLite database")
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            names = {str(r[0]) for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            conn.close()
    except sqlite3.DatabaseError as error:
        raise NotWildstudDatabase(f"cannot open {path}: not a SQLite database ({error})") from None
    except OSError as error:
        raise NotWildstudDatabase(f"cannot open {path}: {error.strerror or error}") from None
    from bot.store.migrations import LATEST

    # A version above ours is a newer Wildstud's to judge (the migration refuses it: SchemaTooNew).
    if (version == 0 and names) or (0 < version <= LATEST and not _WILDSTUD_CORE <= names):
        raise NotWildstudDatabase(
            f"cannot open {path}: not a Wildstud database (another program's SQLite file?);"
            " Wildstud adds its tables only to a new or empty file"
        )
    return version


# -- PostgreSQL ----------------------------------------------------------------------------------


def _plain(value: Any) -> Any:
    # SUM() of a bigint is numeric in PostgreSQL; chips are whole numbers.
    return int(value) if type(value) is Decimal else value


class PostgresTx(Tx):
    def __init__(
        self, conn: asyncpg.pool.PoolConnectionProxy[Any], id_tables: frozenset[str], now: datetime, text: str
    ) -> None:
        super().__init__(now, text)
        self._conn = conn
        self._id_tables = id_tables

    async def all(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        query, _ = to_postgres(sql, self._id_tables)
        rows = await self._conn.fetch(query, *params)
        return [tuple(_plain(v) for v in row) for row in rows]

    async def lock_one(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        return await self.one(f"{sql} FOR UPDATE", params)

    async def lock(self, table: str, column: str, value: Any) -> None:
        await self._conn.execute(f'SELECT 1 FROM "{table}" WHERE "{column}" = $1 FOR UPDATE', value)

    async def lock_rows(self, table: str, where: dict[str, Any]) -> None:
        conditions = " AND ".join(f'"{c}" = ${i}' for i, c in enumerate(where, start=1))
        await self._conn.execute(f'SELECT 1 FROM "{table}" WHERE {conditions} FOR UPDATE', *where.values())

    async def run(self, sql: str, params: Iterable[Any] = ()) -> tuple[int, int | None]:
        query, returns_id = to_postgres(sql, self._id_tables)
        if returns_id:
            row = await self._conn.fetchrow(query, *params)
            return (0, None) if row is None else (1, int(row[0]))
        status = await self._conn.execute(query, *params)
        # The command tag: "UPDATE 3", "INSERT 0 1", "DELETE 0".
        tail = status.rsplit(" ", 1)[-1]
        return (int(tail) if tail.isdigit() else 0), None


class PostgresBackend(Backend):
    """An asyncpg pool on one PostgreSQL database (see the module docstring)."""

    kind = "postgresql"

    def __init__(
        self, pool: asyncpg.Pool[Any], url: str, id_tables: frozenset[str],
        append_pool: asyncpg.Pool[Any] | None = None,
    ) -> None:
        import asyncpg

        super().__init__(redact(url))
        self.pool: asyncpg.Pool[Any] | None = pool
        self.id_tables = id_tables
        self._append_pool = append_pool
        self.appends: StatementBatch[Append, bool] = append_batch(
            lambda: None if self.pool is None else self._append_pool or self.pool
        )
        """Single actions stored many to a statement (see :mod:`bot.store.pg_batch`), on a
        connection of their own: an action never waits for a deal's or a settlement's connection."""
        self.deals: StatementBatch[Deal, int] = deal_batch(lambda: self.pool)
        """Deals stored many to a statement (see :mod:`bot.store.pg_batch`), on one of the pool's
        connections: a storm of deals after a restart costs a few statements, not a transaction each."""
        self.settlements: StatementBatch[Settle, dict[int, int]] = settle_batch(lambda: self.pool)
        """Settlements stored many to a transaction of a few statements, likewise."""
        self.stat_lines: StatementBatch[HandLines, bool] = stats_batch(lambda: self.pool)
        """Settled hands' stat lines, likewise."""
        self.retryable = (
            asyncpg.SerializationError,
            asyncpg.DeadlockDetectedError,
            # Two transactions inserting the same key at once: the loser's retry reads the winner's row.
            asyncpg.UniqueViolationError,
        )

    @classmethod
    async def connect(cls, url: str, upto: int | None, *, pool_size: int = POOL_SIZE) -> PostgresBackend:
        try:
            import asyncpg
        except ImportError:
            raise DriverMissing() from None
        from bot.store.pg_migrations import migrate

        pool = await asyncpg.create_pool(
            url, min_size=pool_size, max_size=pool_size, statement_cache_size=1024, command_timeout=60,
            init=warm,
        )
        try:
            async with pool.acquire() as conn:
                await migrate(conn, upto)
                rows = await conn.fetch(
                    "SELECT table_name FROM information_schema.columns"
                    " WHERE table_schema = current_schema() AND column_name = 'id'"
                )
            append_pool = await asyncpg.create_pool(
                url, min_size=1, max_size=1, statement_cache_size=1024, command_timeout=60, init=warm
            )
        except BaseException:
            await pool.close()
            raise
        return cls(pool, url, frozenset(str(row[0]) for row in rows), append_pool)

    @classmethod
    async def connect_readonly(cls, url: str, *, pool_size: int = 2) -> PostgresBackend:
        """A pool of read-only sessions on a database already at the latest schema; migrates
        nothing. Raises :class:`NotWildstudDatabase` for a database without Wildstud's schema or
        an older one, :class:`SchemaTooNew` for a newer one."""
        try:
            import asyncpg
        except ImportError:
            raise DriverMissing() from None
        from bot.store.errors import NotWildstudDatabase, SchemaTooNew
        from bot.store.migrations import LATEST
        from bot.store.pg_migrations import schema_version

        shown = redact(url)
        pool = await asyncpg.create_pool(
            url,
            min_size=1,
            max_size=pool_size,
            command_timeout=60,
            server_settings={"default_transaction_read_only": "on"},
        )
        try:
            async with pool.acquire() as conn:
                version = await schema_version(conn)
                rows = await conn.fetch(
                    "SELECT table_name FROM information_schema.columns"
                    " WHERE table_schema = current_schema() AND column_name = 'id'"
                )
            if version > LATEST:
                raise SchemaTooNew(
                    f"cannot open {shown}: the database is at schema version {version}, "
                    f"but this Wildstud knows only up to {LATEST}"
                )
            if version == 0:
                raise NotWildstudDatabase(
                    f"no Wildstud database at {shown} (it has no Wildstud tables)"
                )
            if version < LATEST:
                raise NotWildstudDatabase(
                    f"cannot open {shown}: schema version {version} is older than this Wildstud's "
                    f"{LATEST}; start the bot (or `wildstud play`) on it once to upgrade it, then try again"
                )
        except BaseException:
            await pool.close()
            raise
        return cls(pool, url, frozenset(str(row[0]) for row in rows))

    @property
    def closed(self) -> bool:
        return self.pool is None

    async def close(self) -> None:
        await self.appends.flush()
        await self.deals.flush()
        await self.settlements.flush()
        await self.stat_lines.flush()
        if self._append_pool is not None:
            append_pool, self._append_pool = self._append_pool, None
            await append_pool.close()
        if self.pool is not None:
            pool, self.pool = self.pool, None
            await pool.close()

    @asynccontextmanager
    async def transaction(
        self, now: datetime, now_text: str, *, write: bool, locking: bool = False
    ) -> AsyncIterator[Tx]:
        pool = self.pool
        if pool is None:
            raise RuntimeError("the store is closed")
        isolation: Literal["serializable", "repeatable_read", "read_committed"] = (
            "read_committed" if locking else "serializable" if write else "repeatable_read"
        )
        async with pool.acquire() as conn:
            async with conn.transaction(isolation=isolation, readonly=not write):
                yield PostgresTx(conn, self.id_tables, now, now_text)


def retrying(method: Callable[P, Awaitable[T]]) -> Callable[P, Awaitable[T]]:
    """Wrap a public store method: run it again when its backend reports a serialization conflict
    (PostgreSQL only; every store method is one transaction, so a retry redoes all of it). Up to
    :data:`MAX_TRIES` tries with a short random back-off; then the conflict is raised."""

    @functools.wraps(method)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        backend: Backend | None = getattr(args[0], "_backend", None)
        retryable = () if backend is None else backend.retryable
        for attempt in range(1, MAX_TRIES + 1):
            try:
                return await method(*args, **kwargs)
            except retryable as conflict:
                if attempt == MAX_TRIES:
                    raise
                assert backend is not None
                backend.retries += 1
                backend.retried[f"{method.__name__}: {type(conflict).__name__}"] += 1
                await asyncio.sleep(random.uniform(0, 0.002 * attempt))
        raise AssertionError("unreachable")

    return wrapper


def check_target(target: str | Path) -> tuple[str, str]:
    """:func:`parse_target`, with the error as a :class:`StoreError` (a sentence for the user)."""
    try:
        return parse_target(target)
    except DatabaseTargetError as error:
        raise StoreError(str(error)) from error
