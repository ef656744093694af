"""PostgreSQL's batched hot writes: the actions, deals, settlements and stat lines of many tables
stored together.

Storing an action is the store's hottest write (every click), and dealing comes in storms (every
table deals at once after a restart). As a transaction of its own an action costs five round
trips to the server (``BEGIN``, lock the hand, read its status and count, ``INSERT``, ``COMMIT``)
and a deal about nine (lock the table, read its newest hand, rewrite each dealt seat, insert the
hand, its players, its first actions), each with a commit; on a busy machine the round trips,
each a wake-up of a server process, are what limits a process's throughput (a storm of 2,000
deals on a pool of ten connections took 1.9 s). So the requests that arrive while a batch is in
flight are stored together by the next one (:class:`StatementBatch`): one statement over arrays of
the requests (actions), or one transaction of a few such statements (deals) -- a few round trips
and one commit for all.

**The batch decides nothing.** A batch stores a request only when it is certainly what the
ordinary transaction would store, judged from rows it locks (``FOR UPDATE``) so that a concurrent
write to them waits. A table or hand named twice keeps its order: the later request waits for the
next batch. Every other request -- a repeat, a conflict, a gap, a hand that is over, a table
that is closed or busy, a seat that changed hands, a stale lease, a batch that failed -- is
answered "not stored" (None) and its caller runs the ordinary transaction alone, which decides it
and raises the precise error. So one bad request never fails the others, and a failed batch
(nothing of it is stored) only sends its callers the ordinary way.

**Durable before acknowledged.** A caller's ``await`` returns only after the batch's commit has
returned (``tests/store/test_group_commit_crash.py`` kills a process mid-play on
both backends).

The two batches:

* :data:`APPEND_SQL` (:meth:`bot.store.hands.HandStore.append_action` with one action): the hand
  is in progress (its row locked, so a concurrent settlement or another append of that hand
  waits), the number is one more than the actions stored, and the writer's table lease, if it
  gave one, is the table's current one (the lease row is locked too, as
  :meth:`StoreBase._check_lease` does).
* :func:`store_deals` (:meth:`bot.store.hands.HandStore.create_hand`): one transaction of a few
  statements over arrays of the deals, reading as the ordinary transaction reads: the tables' rows
  locked first (deals at one table take turns), then, each statement seeing the newest committed
  rows, the leases given (locked), the newest hands, and every dealt seat, rewritten unchanged and
  read back in one ``UPDATE ... RETURNING`` (so a serializable top-up or cash-out running
  meanwhile must retry and then sees the hand). A deal is stored when its table is open, its
  newest hand is not in progress, its lease (if given) is current and every seat is held by the
  member named: the hand (numbered one more than the newest), its players with their starting
  stacks, and its first actions.

* :func:`store_settlements` (:meth:`bot.store.hands.HandStore.settle_hand`) and
  :func:`store_stat_lines` (:meth:`bot.store.stats.StatsStore.record_hand_stats`): likewise, the
  hands' rows locked first, then what the transaction reads; a hand that is certainly settled (or
  given its lines) now is, in one statement, whose row counts are checked (a batch that wrote
  other than its locked reads promised is rolled back whole: :class:`BatchAborted`). A repeat
  goes the ordinary way, which answers it.

Why a stale read cannot store a wrong action: under ``READ COMMITTED`` the locked rows are read in
their newest committed version, but the count comes from the statement's snapshot and may miss an
action committed meanwhile (by another process). A count that is too low makes the number either
not the next one (not stored) or one already taken (the primary key refuses it: ``ON CONFLICT DO
NOTHING``, not stored); it is never too high (the log is append-only). A deal reads nothing
before its table's lock; its hands insert keeps ``ON CONFLICT DO NOTHING`` all the same (a hand
it does not insert gets no players or actions, and its caller goes the ordinary way).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from bot.store.deal import Deal

if TYPE_CHECKING:
    import asyncpg

R = TypeVar("R")
T = TypeVar("T")

Connection = Any
"""An asyncpg connection (a pool's proxy)."""

MAX_BATCH = 1000
"""The most requests one batch stores (a class's default; see :class:`StatementBatch`)."""


WARM_SQL = "SELECT cardinality($1::bigint[]) + cardinality($2::text[])"


async def warm(conn: Connection) -> None:
    """A new connection's ``init`` (the pools of :class:`bot.store.backend.PostgresBackend`): bind
    the array types every batch binds (``bigint[]``, ``text[]``) once. asyncpg looks up an array
    type's codec on each connection the first time a statement binds it: three queries (one of them
    the type catalogue's recursive walk, with JIT switched off and on around it), which a storm of
    deals just after a restart waited for on every connection at once (30-80 ms each, measured
    on two busy cores); at connect time the pool's connections do it side by side, ~2 ms."""
    await conn.fetchval(WARM_SQL, [], [])


@dataclass
class _Queued(Generic[R, T]):
    request: R
    future: asyncio.Future[T | None]


class StatementBatch(Generic[R, T]):
    """The queue of one kind of request and the tasks that store them many to a batch (see the
    module docstring). ``pool`` returns the open pool, or None once it is closed; ``store`` runs
    one batch of requests (at most one per ``key``) on a connection and returns the result of each
    stored one by its position (a request missing from it was not stored). Up to ``parallel``
    batches run at once, each on a connection of its own, never two with the same key (so one
    table's or hand's requests keep their order); each holds at most ``largest`` requests."""

    def __init__(
        self,
        name: str,
        pool: Callable[[], asyncpg.Pool[Any] | None],
        store: Callable[[Connection, list[R]], Awaitable[Mapping[int, T]]],
        key: Callable[[R], Hashable],
        *,
        parallel: int = 1,
        largest: int = MAX_BATCH,
    ) -> None:
        self._name = name
        self._pool = pool
        self._store_batch = store
        self._key = key
        self._parallel = parallel
        self._most = largest
        self._queue: deque[_Queued[R, T]] = deque()
        self._drains: set[asyncio.Task[None]] = set()
        self._busy: set[Hashable] = set()
        """The keys of the requests in a batch in flight."""
        self.batches = 0
        """Batches run so far (for benchmarks and tests)."""
        self.stored = 0
        """Requests they stored."""
        self.largest = 0
        """The most requests one batch was asked to store."""

    def submit(self, request: R) -> asyncio.Future[T | None]:
        """Queue ``request``: the future gives its result once a batch has stored and committed it,
        None when it was not stored (the caller then runs the ordinary transaction). A plain
        function, not a coroutine: every hot write awaits this future, a storm thousands at once."""
        future: asyncio.Future[T | None] = asyncio.get_running_loop().create_future()
        self._queue.append(_Queued(request, future))
        if len(self._drains) >= self._parallel:
            self._drains = {task for task in self._drains if not task.done()}
        if len(self._drains) < self._parallel:
            self._drains.add(asyncio.create_task(self._drain(), name=f"wildstud-{self._name}-batch"))
        return future

    async def flush(self) -> None:
        """Wait until every request queued so far has been answered."""
        while any(not task.done() for task in self._drains):
            await asyncio.wait(self._drains)

    async def _drain(self) -> None:
        try:
            await self._drain_queue()
        except BaseException:
            # Cancelled (the event loop is closing): what is still queued goes its ordinary way.
            while self._queue:
                item = self._queue.popleft()
                if not item.future.done():
                    item.future.set_result(None)
            raise

    async def _drain_queue(self) -> None:
        while self._queue:
            batch: list[_Queued[R, T]] = []
            later: list[_Queued[R, T]] = []
            keys: set[Hashable] = set()
            while self._queue and len(batch) < self._most:
                item = self._queue.popleft()
                if item.future.done():  # its caller was cancelled
                    continue
                key = self._key(item.request)
                if key in keys or key in self._busy:  # the next of that key after this one's batch
                    later.append(item)
                    continue
                keys.add(key)
                batch.append(item)
            self._queue.extendleft(reversed(later))
            if not batch:
                return  # everything queued waits for a batch in flight, whose task takes it next
            self._busy |= keys
            try:
                await self._run(batch)
            finally:
                self._busy -= keys

    async def _run(self, batch: list[_Queued[R, T]]) -> None:
        results: Mapping[int, T] = {}
        pool = self._pool()
        try:
            if pool is not None:
                async with pool.acquire() as conn:
                    results = await self._store_batch(conn, [item.request for item in batch])
        except Exception:
            results = {}  # nothing of a failed batch is stored: every caller runs its own
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

POOL_PARALLEL = 4
"""Batches of one kind (deals, settlements, stat lines) run at once, each on a connection of the
pool (of ten by default): a storm is split among them (server processes work side by side) and a
write in quiet times waits for no other batch."""

POOL_BATCH = 500
"""The most deals (settlements, hands' stat lines) one batch stores."""

# A deal batch is one transaction of a few statements, each over arrays of every request: the
# round trips are per batch, not per deal. Not one statement as the append: a single statement's
# reads all see its start's snapshot (a newest hand read there could be older than the locked
# table row), and the planner, blind to how many rows a data-modifying CTE returns, joined them
# by nested loops (0.7 s for 1,000 deals).

DEAL_LOCK_TABLES = """
SELECT id, status, stakes, rulings FROM tables WHERE id = ANY ($1::bigint[]) ORDER BY id FOR UPDATE
"""

DEAL_LOCK_LEASES = """
SELECT table_id, generation FROM table_leases WHERE table_id = ANY ($1::bigint[]) ORDER BY table_id FOR UPDATE
"""

DEAL_NEWEST_HANDS = """
SELECT t.id, h.hand_no, h.status
FROM unnest($1::bigint[]) AS t (id)
JOIN LATERAL (
    SELECT hand_no, status FROM hands WHERE table_id = t.id ORDER BY hand_no DESC LIMIT 1
) h ON TRUE
"""

DEAL_SEATS = """
UPDATE seats SET stack = seats.stack
FROM unnest($1::bigint[], $2::bigint[], $3::bigint[]) AS w (table_id, seat_no, member_id)
WHERE seats.table_id = w.table_id AND seats.seat_no = w.seat_no AND seats.member_id = w.member_id
RETURNING seats.table_id, seats.seat_no, seats.stack
"""

DEAL_HANDS = """
INSERT INTO hands (table_id, hand_no, deck, commitment, salt, stakes, rulings, started, game)
SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[],
                     $7::text[], $8::text[], $9::text[])
ON CONFLICT DO NOTHING
RETURNING table_id, id
"""

DEAL_PLAYERS_AND_ACTIONS = """
WITH dealt AS (
    INSERT INTO hand_players (hand_id, seat_no, member_id, starting_stack)
    SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[])
)
INSERT INTO hand_actions (hand_id, seq, action, created)
SELECT * FROM unnest($5::bigint[], $6::bigint[], $7::text[], $8::text[])
"""


async def store_deals(conn: Connection, batch: list[Deal]) -> dict[int, int]:
    """Store the deals of ``batch`` (one per table) in one transaction, each only if it is
    certainly what :meth:`bot.store.hands.HandStore.create_hand`'s transaction would store, read
    as that transaction reads it: the table's row locked first, then (each statement of a
    ``READ COMMITTED`` transaction reads the newest committed rows) the lease, the newest hand,
    the seats. Returns the new hand's id for each stored deal by position."""
    hands: dict[int, int] = {}  # table -> its new hand
    in_order = sorted(batch, key=lambda d: d.table_id)  # rows locked in one order, as everywhere
    ids = [d.table_id for d in in_order]
    async with conn.transaction(isolation="read_committed"):
        tables = {int(r[0]): r for r in await conn.fetch(DEAL_LOCK_TABLES, ids)}
        leased = [d.table_id for d in in_order if d.lease is not None]
        leases = {int(r[0]): int(r[1]) for r in await conn.fetch(DEAL_LOCK_LEASES, leased)} if leased else {}
        newest = {int(r[0]): (int(r[1]), str(r[2])) for r in await conn.fetch(DEAL_NEWEST_HANDS, ids)}
        ready: list[tuple[Deal, int]] = []  # with its hand number
        for d in in_order:
            table = tables.get(d.table_id)
            last_no, last_status = newest.get(d.table_id, (0, ""))
            if table is None or table[1] != "open" or last_status == "in_progress":
                continue
            if d.lease is not None and leases.get(d.table_id) != d.lease:
                continue
            ready.append((d, last_no + 1))
        seats = [(d.table_id, seat, member) for d, _ in ready for seat, member in sorted(d.players.items())]
        stacks: dict[tuple[int, int], int] = {}
        if seats:
            rows = await conn.fetch(DEAL_SEATS, *(list(column) for column in zip(*seats, strict=True)))
            stacks = {(int(r[0]), int(r[1])): int(r[2]) for r in rows}
        ready = [(d, no) for d, no in ready if all((d.table_id, seat) in stacks for seat in d.players)]
        if not ready:
            return {}
        hands = {
            int(r[0]): int(r[1])
            for r in await conn.fetch(
                DEAL_HANDS,
                [d.table_id for d, _ in ready],
                [no for _, no in ready],
                [d.deck for d, _ in ready],
                [d.commitment for d, _ in ready],
                [d.salt for d, _ in ready],
                [d.stakes or tables[d.table_id][2] for d, _ in ready],
                [d.rulings or tables[d.table_id][3] for d, _ in ready],
                [d.started for d, _ in ready],
                [d.game for d, _ in ready],
            )
        }
        stored = [d for d, _ in ready if d.table_id in hands]
        players = [
            (hands[d.table_id], seat, member, stacks[d.table_id, seat])
            for d in stored for seat, member in sorted(d.players.items())
        ]
        actions = [
            (hands[d.table_id], seq, text, d.started) for d in stored for seq, text in enumerate(d.actions, 1)
        ]
        if stored:
            await conn.execute(
                DEAL_PLAYERS_AND_ACTIONS,
                *(list(column) for column in zip(*players, strict=True)),
                *([list(column) for column in zip(*actions, strict=True)] if actions else [[], [], [], []]),
            )
    return {i: hands[d.table_id] for i, d in enumerate(batch) if d.table_id in hands}


def deal_batch(pool: Callable[[], asyncpg.Pool[Any] | None]) -> StatementBatch[Deal, int]:
    """The deals of one pool, one transaction per batch (:func:`store_deals`)."""
    return StatementBatch(
        "deal", pool, store_deals, key=lambda d: d.table_id, parallel=POOL_PARALLEL, largest=POOL_BATCH
    )


# -- settlements -----------------------------------------------------------------------------------

SETTLE_LOCK_HANDS = """
SELECT h.id, h.status, h.table_id, t.guild_id, h.hand_no
FROM hands h JOIN tables t ON t.id = h.table_id
WHERE h.id = ANY ($1::bigint[]) ORDER BY h.id FOR UPDATE OF h
"""

SETTLE_PLAYERS = """
SELECT hand_id, seat_no, member_id, starting_stack FROM hand_players WHERE hand_id = ANY ($1::bigint[])
"""

SETTLE_LOCK_SEATS = """
SELECT s.table_id, s.seat_no, s.member_id, s.stack
FROM seats s JOIN unnest($1::bigint[], $2::bigint[]) AS w (table_id, seat_no)
  ON s.table_id = w.table_id AND s.seat_no = w.seat_no
ORDER BY s.table_id, s.seat_no FOR UPDATE OF s
"""

SETTLE_WRITE = """
WITH stacks AS (
    UPDATE seats SET stack = w.final
    FROM unnest($1::bigint[], $2::bigint[], $3::bigint[]) AS w (table_id, seat_no, final)
    WHERE seats.table_id = w.table_id AND seats.seat_no = w.seat_no
    RETURNING 1
), finals AS (
    UPDATE hand_players SET final_stack = w.final
    FROM unnest($4::bigint[], $2::bigint[], $3::bigint[]) AS w (hand_id, seat_no, final)
    WHERE hand_players.hand_id = w.hand_id AND hand_players.seat_no = w.seat_no
    RETURNING 1
), ledger_rows AS (
    INSERT INTO ledger (guild_id, member_id, delta, stack_delta, kind, reason, op_key, table_id, hand_id,
                        created)
    SELECT guild_id, member_id, 0, stack_delta, 'hand', reason, 'hand:' || hand_id, table_id, hand_id, created
    FROM unnest($5::bigint[], $6::bigint[], $7::bigint[], $8::text[], $1::bigint[], $4::bigint[],
                $9::text[])
        AS l (guild_id, member_id, stack_delta, reason, table_id, hand_id, created)
    RETURNING 1
), ended AS (
    UPDATE hands SET status = 'finished', phh = w.phh, ended = w.ended
    FROM unnest($10::bigint[], $11::text[], $12::text[]) AS w (id, phh, ended)
    WHERE hands.id = w.id
    RETURNING 1
)
SELECT (SELECT COUNT(*) FROM stacks), (SELECT COUNT(*) FROM finals), (SELECT COUNT(*) FROM ledger_rows),
       (SELECT COUNT(*) FROM ended)
"""


@dataclass(frozen=True)
class Settle:
    """One hand to settle, as :meth:`bot.store.hands.HandStore.settle_hand` has checked its input:
    ``finals`` seat -> final stack; ``ended`` the stored time."""

    hand_id: int
    finals: Mapping[int, int]
    phh: str
    ended: str
    lease: int | None


class BatchAborted(Exception):
    """A batch's writes did not do what its locked reads promised: it is rolled back whole."""


async def store_settlements(conn: Connection, batch: list[Settle]) -> dict[int, dict[int, int]]:
    """Settle the hands of ``batch`` (one per hand) in one transaction, each only if it is
    certainly what :meth:`bot.store.hands.HandStore.settle_hand`'s transaction would do, read as
    it reads: the hands' rows locked first, then the leases given (locked), the players, and the
    dealt seats (locked). A hand is settled when it is in progress, its lease (if given) is
    current, the final stacks name exactly its seats and add up to the starting stacks, and each
    seat still holds its player at the starting stack: the seats' stacks, the players' final
    stacks, one ledger row per player and the hand's status, history and end, in one statement.
    Returns each settled hand's net result by member, by position. A hand already settled or
    voided, or refused, is not settled here: its caller goes the ordinary way (which answers a
    repeated settlement, or raises the precise error)."""
    in_order = sorted(batch, key=lambda s: s.hand_id)
    ids = [s.hand_id for s in in_order]
    async with conn.transaction(isolation="read_committed"):
        hands = {int(r[0]): r for r in await conn.fetch(SETTLE_LOCK_HANDS, ids)}
        tables = {s.hand_id: int(hands[s.hand_id][2]) for s in in_order if s.hand_id in hands}
        leased = sorted({tables[s.hand_id] for s in in_order if s.lease is not None and s.hand_id in tables})
        leases = {int(r[0]): int(r[1]) for r in await conn.fetch(DEAL_LOCK_LEASES, leased)} if leased else {}
        players: dict[int, dict[int, tuple[int, int]]] = {}  # hand -> seat -> (member, starting)
        for r in await conn.fetch(SETTLE_PLAYERS, ids):
            players.setdefault(int(r[0]), {})[int(r[1])] = (int(r[2]), int(r[3]))
        ready: list[Settle] = []
        for s in in_order:
            hand = hands.get(s.hand_id)
            dealt = players.get(s.hand_id, {})
            if hand is None or hand[1] != "in_progress" or set(s.finals) != set(dealt):
                continue
            if sum(s.finals.values()) != sum(start for _, start in dealt.values()):
                continue
            if s.lease is not None and leases.get(tables[s.hand_id]) != s.lease:
                continue
            ready.append(s)
        wanted = sorted((tables[s.hand_id], seat) for s in ready for seat in s.finals)
        seats: dict[tuple[int, int], tuple[int, int]] = {}
        if wanted:
            for r in await conn.fetch(SETTLE_LOCK_SEATS, *(list(c) for c in zip(*wanted, strict=True))):
                seats[int(r[0]), int(r[1])] = (int(r[2]), int(r[3]))
        ready = [
            s for s in ready
            if all(seats.get((tables[s.hand_id], seat)) == players[s.hand_id][seat] for seat in s.finals)
        ]
        if not ready:
            return {}
        rows = [
            (s, seat, players[s.hand_id][seat][0], players[s.hand_id][seat][1])
            for s in ready for seat in sorted(s.finals)
        ]
        counts = await conn.fetchrow(
            SETTLE_WRITE,
            [tables[s.hand_id] for s, *_ in rows],
            [seat for _, seat, _, _ in rows],
            [s.finals[seat] for s, seat, _, _ in rows],
            [s.hand_id for s, *_ in rows],
            [int(hands[s.hand_id][3]) for s, *_ in rows],
            [member for _, _, member, _ in rows],
            [s.finals[seat] - start for s, seat, _, start in rows],
            [f"hand #{hands[s.hand_id][4]} at table {tables[s.hand_id]}" for s, *_ in rows],
            [s.ended for s, *_ in rows],
            [s.hand_id for s in ready],
            [s.phh for s in ready],
            [s.ended for s in ready],
        )
        if counts is None or tuple(counts) != (len(rows), len(rows), len(rows), len(ready)):
            raise BatchAborted(f"a settlement batch wrote {counts}, not {len(rows)} rows")
    settled = {
        s.hand_id: {member: s.finals[seat] - start for seat, (member, start) in players[s.hand_id].items()}
        for s in ready
    }
    return {i: settled[s.hand_id] for i, s in enumerate(batch) if s.hand_id in settled}


def settle_batch(pool: Callable[[], asyncpg.Pool[Any] | None]) -> StatementBatch[Settle, dict[int, int]]:
    """The settlements of one pool, one transaction per batch (:func:`store_settlements`)."""
    return StatementBatch(
        "settle", pool, store_settlements, key=lambda s: s.hand_id, parallel=POOL_PARALLEL, largest=POOL_BATCH
    )


# -- stat lines ------------------------------------------------------------------------------------

STATS_LOCK_HANDS = """
SELECT h.id, h.status, h.table_id, t.guild_id, h.game, h.ended
FROM hands h JOIN tables t ON t.id = h.table_id
WHERE h.id = ANY ($1::bigint[]) ORDER BY h.id FOR UPDATE OF h
"""

STATS_PLAYERS = """
SELECT hand_id, member_id, final_stack, starting_stack FROM hand_players WHERE hand_id = ANY ($1::bigint[])
"""

STATS_KEPT = """
SELECT DISTINCT hand_id FROM hand_stats WHERE hand_id = ANY ($1::bigint[])
"""

STATS_WRITE = """
WITH lines AS (
    INSERT INTO hand_stats (hand_id, member_id, guild_id, table_id, game, ended, net, collected, pot,
                            showdown, vpip, bets, calls)
    SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[], $5::text[], $6::text[],
                         $7::bigint[], $8::bigint[], $9::bigint[], $10::bigint[], $11::bigint[],
                         $12::bigint[], $13::bigint[])
    RETURNING 1
), days AS (
    INSERT INTO member_days (guild_id, member_id, day, game, hands, won, showdowns, showdowns_won, net,
                             biggest, vpip, bets, calls)
    SELECT * FROM unnest($14::bigint[], $15::bigint[], $16::text[], $17::text[], $18::bigint[],
                         $19::bigint[], $20::bigint[], $21::bigint[], $22::bigint[], $23::bigint[],
                         $24::bigint[], $25::bigint[], $26::bigint[])
    ON CONFLICT (guild_id, member_id, day, game) DO UPDATE SET
        hands = member_days.hands + excluded.hands, won = member_days.won + excluded.won,
        showdowns = member_days.showdowns + excluded.showdowns,
        showdowns_won = member_days.showdowns_won + excluded.showdowns_won,
        net = member_days.net + excluded.net,
        biggest = CASE WHEN excluded.biggest > member_days.biggest THEN excluded.biggest
                  ELSE member_days.biggest END,
        vpip = member_days.vpip + excluded.vpip, bets = member_days.bets + excluded.bets,
        calls = member_days.calls + excluded.calls
    RETURNING 1
)
SELECT (SELECT COUNT(*) FROM lines), (SELECT COUNT(*) FROM days)
"""


@dataclass(frozen=True)
class StatLine:
    """One player's line, as :class:`bot.store.stats.HandStatLine` (``showdown``/``vpip`` 0 or 1)."""

    member_id: int
    net: int
    collected: int
    pot: int
    showdown: int
    vpip: int
    bets: int
    calls: int


@dataclass(frozen=True)
class HandLines:
    """The stat lines of one settled hand, one per member."""

    hand_id: int
    lines: tuple[StatLine, ...]


async def store_stat_lines(conn: Connection, batch: list[HandLines]) -> dict[int, bool]:
    """Store the lines of ``batch`` (one per hand) in one transaction, each only if it is certainly
    what :meth:`bot.store.stats.StatsStore.record_hand_stats`'s transaction would store, read as it
    reads: the hands' rows locked first, then their players and whether they have lines already.
    A hand's lines are stored when it is finished, has none yet, and they name exactly its players
    with each one's net as settled and no negative count: the lines, and each member's day totals
    (one upsert per member, day and game, the batch's lines summed first). True for each stored
    hand by position; the others go the ordinary way (a repeat answers False there)."""
    in_order = sorted(batch, key=lambda h: h.hand_id)
    ids = [h.hand_id for h in in_order]
    async with conn.transaction(isolation="read_committed"):
        hands = {int(r[0]): r for r in await conn.fetch(STATS_LOCK_HANDS, ids)}
        nets: dict[int, dict[int, int]] = {}
        for r in await conn.fetch(STATS_PLAYERS, ids):
            if r[2] is not None:
                nets.setdefault(int(r[0]), {})[int(r[1])] = int(r[2]) - int(r[3])
        kept = {int(r[0]) for r in await conn.fetch(STATS_KEPT, ids)}
        ready = [
            h for h in in_order
            if h.hand_id in hands and hands[h.hand_id][1] == "finished" and h.hand_id not in kept
            and {line.member_id: line.net for line in h.lines} == nets.get(h.hand_id)
            and all(min(line.collected, line.pot, line.bets, line.calls) >= 0 for line in h.lines)
        ]
        if not ready:
            return {}
        rows = [
            (hands[h.hand_id], h.hand_id, line)
            for h in ready for line in sorted(h.lines, key=lambda line: line.member_id)
        ]
        days: dict[tuple[int, int, str, str], list[int]] = {}
        for hand, _, line in rows:
            key = (int(hand[3]), line.member_id, str(hand[5])[:10], str(hand[4]))
            won = int(line.collected > 0)
            add = [1, won, line.showdown, int(line.showdown and won), line.net, line.collected, line.vpip,
                   line.bets, line.calls]
            total = days.setdefault(key, [0] * 9)
            # Summed, but the biggest pot won (the sixth) is the larger one: as one upsert after another.
            pairs = enumerate(zip(total, add, strict=True))
            days[key] = [max(a, b) if i == 5 else a + b for i, (a, b) in pairs]
        counts = await conn.fetchrow(
            STATS_WRITE,
            [hand_id for _, hand_id, _ in rows],
            [line.member_id for *_, line in rows],
            [int(hand[3]) for hand, *_ in rows],
            [int(hand[2]) for hand, *_ in rows],
            [str(hand[4]) for hand, *_ in rows],
            [str(hand[5]) for hand, *_ in rows],
            [line.net for *_, line in rows],
            [line.collected for *_, line in rows],
            [line.pot for *_, line in rows],
            [line.showdown for *_, line in rows],
            [line.vpip for *_, line in rows],
            [line.bets for *_, line in rows],
            [line.calls for *_, line in rows],
            *(list(column) for column in zip(*((*key, *total) for key, total in days.items()), strict=True)),
        )
        if counts is None or tuple(counts) != (len(rows), len(days)):
            raise BatchAborted(f"a stat line batch wrote {counts}, not {len(rows)} lines, {len(days)} days")
    stored = {h.hand_id for h in ready}
    return {i: True for i, h in enumerate(batch) if h.hand_id in stored}


def stats_batch(pool: Callable[[], asyncpg.Pool[Any] | None]) -> StatementBatch[HandLines, bool]:
    """The stat lines of one pool, one transaction per batch (:func:`store_stat_lines`)."""
    return StatementBatch(
        "stats", pool, store_stat_lines, key=lambda h: h.hand_id, parallel=POOL_PARALLEL, largest=POOL_BATCH
    )
