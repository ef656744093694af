"""Transactions and the helpers shared by the store's parts.

The database itself (SQLite or PostgreSQL, the lock or the pool, the SQL dialect) is the
backend's business: see :mod:`bot.store.backend`. The parts write one SQL text for both.
"""

from __future__ import annotations

import inspect
import json
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Mapping
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from bot.store.backend import Backend, SqliteBackend, retrying
from bot.store.errors import StaleLease, StoreError
from bot.store.group_commit import Together
from bot.store.records import JSONObject, LedgerEntry
from bot.store.tx import Row as Row
from bot.store.tx import Tx as Tx

T = TypeVar("T")

Clock = Callable[[], datetime]
"""Returns the current time as an aware datetime; injected so tests control time."""

MAX_AMOUNT = 10**12
"""The largest amount one request may move (keeps every sum far from SQLite's 64-bit limit)."""

_TIME_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"
_MAX_ID = 2**63 - 1

LEDGER_COLUMNS = (
    "id, guild_id, member_id, delta, stack_delta, kind, reason, op_key, counterparty_id, actor_id, "
    "table_id, hand_id, created"
)


def utc_now() -> datetime:
    """The default clock: now, in UTC."""
    return datetime.now(UTC)


def format_time(moment: datetime) -> str:
    """Store a time as fixed-width UTC text, so text order is time order.

    >>> format_time(datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC))
    '2026-01-02T03:04:05.000000Z'
    """
    if moment.tzinfo is None:
        raise ValueError("times must be timezone-aware")
    # isoformat() ("...+00:00" in UTC) takes two thirds of strftime's time (every write calls this).
    if moment.tzinfo is not UTC:
        moment = moment.astimezone(UTC)
    return moment.isoformat(timespec="microseconds")[:-6] + "Z"


def parse_time(text: str) -> datetime:
    """Read a time written by :func:`format_time`.

    >>> parse_time('2026-01-02T03:04:05.000000Z').isoformat()
    '2026-01-02T03:04:05+00:00'
    """
    return datetime.strptime(text, _TIME_FORMAT).replace(tzinfo=UTC)


def check_id(value: int, what: str) -> int:
    """Refuse anything but a positive 64-bit integer id (Discord snowflakes, row ids)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= _MAX_ID:
        raise StoreError(f"That is not a valid {what} id.")
    return value


def check_amount(amount: int, what: str = "amount") -> int:
    """Refuse a zero, negative, non-integer or absurdly large amount of chips."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise StoreError(f"The {what} must be a whole number of chips.")
    if amount <= 0:
        raise StoreError(f"The {what} must be more than zero chips.")
    if amount > MAX_AMOUNT:
        raise StoreError(f"The {what} must be at most {MAX_AMOUNT:,} chips.")
    return amount


def check_text(text: str, what: str, *, limit: int = 500) -> str:
    """Refuse an empty or overlong free-text field (a reason, a note)."""
    if not isinstance(text, str) or not text.strip():
        raise StoreError(f"Please give a {what}.")
    if len(text) > limit:
        raise StoreError(f"The {what} must be at most {limit} characters.")
    return text.strip()


def op_key(kind: str, key: str | None) -> str:
    """The stored idempotency key: ``"{kind}:{key}"``, or a fresh random key when ``key`` is None.

    Callers pass the id of the Discord interaction (or anything unique to the request) so a retry
    or a double click applies once.

    >>> op_key("transfer", "1234")
    'transfer:1234'
    """
    if key is None:
        return f"{kind}:{uuid.uuid4().hex}"
    if not isinstance(key, str) or not key or len(key) > 200:
        raise StoreError("That request key is not valid.")
    return f"{kind}:{key}"


def dump_json(value: Mapping[str, Any] | None, what: str) -> str:
    """JSON text of a stakes/rulings/settings mapping (keys sorted, compact)."""
    if value is None:
        value = {}
    if not isinstance(value, Mapping):
        raise StoreError(f"The {what} must be a mapping.")
    try:
        return json.dumps(dict(value), sort_keys=True, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as error:
        raise StoreError(f"The {what} cannot be stored: {error}.") from error


def load_json(text: str) -> JSONObject:
    """Parse JSON text stored by :func:`dump_json`."""
    value = json.loads(text)
    assert isinstance(value, dict)
    return value


def ledger_entry(row: Row) -> LedgerEntry:
    """Build a :class:`LedgerEntry` from a row selected with :data:`LEDGER_COLUMNS`."""
    return LedgerEntry(
        id=row[0],
        guild_id=row[1],
        member_id=row[2],
        delta=row[3],
        stack_delta=row[4],
        kind=row[5],
        reason=row[6],
        op_key=row[7],
        counterparty_id=row[8],
        actor_id=row[9],
        table_id=row[10],
        hand_id=row[11],
        created=parse_time(row[12]),
    )


class StoreBase:
    """The backend, clock and the helpers every part of the store uses.

    Every public coroutine method a part defines is wrapped in :func:`~bot.store.backend.retrying`
    (by ``__init_subclass__``), so a method added later is retried on a PostgreSQL serialization
    conflict without anyone remembering to: each public method must therefore be one transaction.
    """

    def __init__(self, backend: Backend, clock: Clock) -> None:
        self._backend = backend
        self._clock = clock
        self.backend = backend.kind
        """``"sqlite"`` or ``"postgresql"``."""
        self.target = backend.target
        """The database: the SQLite file's path, or the PostgreSQL URL without its password."""
        self.path: Path | None = backend.path if isinstance(backend, SqliteBackend) else None
        """The SQLite file (None on PostgreSQL)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name, member in list(vars(cls).items()):
            if not name.startswith("_") and inspect.iscoroutinefunction(member):
                setattr(cls, name, retrying(member))

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has run."""
        return self._backend.closed

    async def close(self) -> None:
        """Close the connection or pool (waits for a transaction in progress). Idempotent."""
        await self._backend.close()

    @asynccontextmanager
    async def _transaction(self, *, write: bool = True, locking: bool = False) -> AsyncIterator[Tx]:
        """Run the body in one transaction; commit on success, roll back on error.

        A :class:`StoreError` raised by the body therefore changes nothing. On SQLite the
        transactions of a process take turns under one lock; on PostgreSQL writes are
        ``SERIALIZABLE``, or, with ``locking``, ``READ COMMITTED`` with the rows the body reads
        locked by ``tx.lock`` (hot paths only; see :mod:`bot.store.backend`).
        """
        now = self._clock()
        async with self._backend.transaction(now, format_time(now), write=write, locking=locking) as tx:
            yield tx

    def _write(
        self, body: Callable[[Tx], Coroutine[Any, Any, T]], *, locking: bool = False,
        together: Together | None = None, now: tuple[datetime, str] | None = None,
    ) -> Awaitable[T]:
        """Run ``body`` as one write transaction; the awaitable gives its result once committed, for
        the hot writes (an action, a deal, a settlement). On SQLite it joins a group commit with
        the other writes waiting meanwhile (:mod:`bot.store.group_commit`): so ``body`` must await
        nothing but its ``tx`` (and helpers that do the same), and may run more than once; there
        ``together`` (its set form) may store it with writes of its kind next to it instead. As
        with :meth:`_transaction`, an error raised by the body changes nothing. ``now``: the
        transaction's time and its text (:func:`format_time`), by default the clock's now."""
        if now is None:
            moment = self._clock()
            now = moment, format_time(moment)
        return self._backend.write(*now, body, locking=locking, together=together)

    async def _check_lease(self, tx: Tx, table_id: int, lease: int | None) -> None:
        """Fencing, inside a hand write's transaction: refuse it (:class:`StaleLease`) when
        ``lease`` (the generation the writer holds; None: a process without leases) is not the
        table's lease generation any more. The lease row is locked until the write commits, so a
        take-over waits for it rather than slip in between."""
        if lease is None:
            return
        await tx.lock_rows("table_leases", {"table_id": table_id})
        current = await tx.value("SELECT generation FROM table_leases WHERE table_id = ?", (table_id,))
        if current is None or int(current) != lease:
            raise StaleLease(
                "Another Wildstud process deals this table now (this one lost its lease), so your"
                " action was not taken: try again in a moment."
            )

    # -- members and the ledger -------------------------------------------------------------

    async def _starting_chips(self, tx: Tx, guild_id: int) -> int:
        value = await tx.value("SELECT starting_chips FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return 1000 if value is None else int(value)

    async def _balance(self, tx: Tx, guild_id: int, member_id: int) -> int | None:
        value = await tx.value(
            "SELECT chips FROM balances WHERE guild_id = ? AND member_id = ?", (guild_id, member_id)
        )
        return None if value is None else int(value)

    async def _ensure_member(self, tx: Tx, guild_id: int, member_id: int) -> int:
        """The member's balance, opening their account with the guild's starting chips on first use
        (ledger kind ``starting``, reason "starting chips", key ``start``)."""
        balance = await self._balance(tx, guild_id, member_id)
        if balance is not None:
            return balance
        start = await self._starting_chips(tx, guild_id)
        await tx.run(
            "INSERT INTO balances (guild_id, member_id, chips, created) VALUES (?, ?, ?, ?)",
            (guild_id, member_id, start, tx.now),
        )
        await self._append_ledger(
            tx, guild_id, member_id, delta=start, kind="starting", reason="starting chips", key="start"
        )
        return start

    async def _append_ledger(
        self,
        tx: Tx,
        guild_id: int,
        member_id: int,
        *,
        delta: int,
        kind: str,
        reason: str,
        key: str,
        stack_delta: int = 0,
        counterparty_id: int | None = None,
        actor_id: int | None = None,
        table_id: int | None = None,
        hand_id: int | None = None,
        tournament_id: int | None = None,
    ) -> None:
        await tx.run(
            "INSERT INTO ledger (guild_id, member_id, delta, stack_delta, kind, reason, op_key,"
            " counterparty_id, actor_id, table_id, hand_id, tournament_id, created)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                guild_id,
                member_id,
                delta,
                stack_delta,
                kind,
                reason,
                key,
                counterparty_id,
                actor_id,
                table_id,
                hand_id,
                tournament_id,
                tx.now,
            ),
        )

    async def _move_balance(self, tx: Tx, guild_id: int, member_id: int, delta: int) -> int:
        """Add ``delta`` to an existing balance (callers check it stays >= 0); returns the new one.

        A plain ``UPDATE``: ``INSERT ... ON CONFLICT DO UPDATE`` would evaluate ``CHECK (chips >= 0)``
        on the would-be inserted row and refuse every negative delta.
        """
        count, _ = await tx.run(
            "UPDATE balances SET chips = chips + ? WHERE guild_id = ? AND member_id = ?",
            (delta, guild_id, member_id),
        )
        assert count == 1, "balance row missing"
        balance = await self._balance(tx, guild_id, member_id)
        assert balance is not None
        return balance

    async def _ledger_rows(self, tx: Tx, guild_id: int, key: str) -> list[LedgerEntry]:
        rows = await tx.all(
            f"SELECT {LEDGER_COLUMNS} FROM ledger WHERE guild_id = ? AND op_key = ? ORDER BY id",
            (guild_id, key),
        )
        return [ledger_entry(row) for row in rows]
