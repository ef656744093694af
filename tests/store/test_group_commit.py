"""SQLite's group commit (``bot.store.group_commit``): many writes, one transaction and one fsync,
and each caller still hears exactly its own outcome.

Every test queues its writes while it holds the backend's lock, so they are known to land in one
batch (checked through ``GroupCommit.largest``); then it reads the file with sqlite3, not through
the store. The crash half (nothing acknowledged is lost to a SIGKILL mid-batch) is in
``test_group_commit_crash.py``.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable, Coroutine
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.store import Store, StoreError
from bot.store.backend import SqliteBackend
from bot.store.group_commit import GroupCommit
from bot.store.tx import Tx

G = 100
HANDS = 8


def group_of(store: Store) -> GroupCommit:
    backend = store._backend
    assert isinstance(backend, SqliteBackend)
    return backend.group


async def one_batch(store: Store, calls: list[Callable[[], Awaitable[Any]]]) -> list[Any]:
    """Start every call while the backend's lock is held, so they all queue, then let them run as
    one batch; returns each call's result or exception, in order."""
    backend = store._backend
    assert isinstance(backend, SqliteBackend)
    before = group_of(store).batches
    async with backend._lock:
        tasks = [asyncio.ensure_future(call()) for call in calls]
        for _ in range(3):
            await asyncio.sleep(0)
    results = await asyncio.gather(*tasks, return_exceptions=True)
    assert group_of(store).batches == before + 1, "the writes did not share one batch"
    assert group_of(store).largest >= len(calls)
    return results


async def hands_at_tables(store: Store, count: int) -> list[int]:
    hands = []
    for n in range(count):
        table = await store.create_table(G, 9000 + n, 1)
        await store.buy_in(G, table.id, 10 + 2 * n, 100)
        await store.buy_in(G, table.id, 11 + 2 * n, 100)
        hands.append(
            await store.create_hand(
                table.id, players={1: 10 + 2 * n, 2: 11 + 2 * n}, deck="Ah Kd", commitment="c", salt="s",
                actions=["seats 1 2"],
            )
        )
    return hands


def logged(path: Path) -> dict[int, list[str]]:
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT hand_id, action FROM hand_actions ORDER BY hand_id, seq").fetchall()
    out: dict[int, list[str]] = {}
    for hand, action in rows:
        out.setdefault(hand, []).append(action)
    return out


@pytest.fixture
async def sqlite_store(tmp_path: Path) -> Any:
    async with await Store.open(tmp_path / "g.sqlite3") as opened:
        yield opened


async def test_concurrent_appends_share_one_commit_and_all_are_stored(
    sqlite_store: Store, tmp_path: Path
) -> None:
    hands = await hands_at_tables(sqlite_store, HANDS)
    results = await one_batch(
        sqlite_store, [lambda h=h: sqlite_store.append_action(h, 2, f"p1 cc {h}") for h in hands]
    )
    assert results == [True] * HANDS
    assert logged(tmp_path / "g.sqlite3") == {h: ["seats 1 2", f"p1 cc {h}"] for h in hands}


async def test_a_refused_write_fails_alone(sqlite_store: Store, tmp_path: Path) -> None:
    hands = await hands_at_tables(sqlite_store, HANDS)
    # The fourth call skips a number: only it is refused; the batch around it commits.
    seqs = [2, 2, 2, 5, 2, 2, 2, 2]
    results = await one_batch(
        sqlite_store,
        [lambda h=h, s=s: sqlite_store.append_action(h, s, "p1 cc")
         for h, s in zip(hands, seqs, strict=True)],
    )
    assert isinstance(results[3], StoreError) and "out of order" in str(results[3])
    assert [r for i, r in enumerate(results) if i != 3] == [True] * (HANDS - 1)
    stored = logged(tmp_path / "g.sqlite3")
    assert stored[hands[3]] == ["seats 1 2"]
    assert all(stored[h] == ["seats 1 2", "p1 cc"] for i, h in enumerate(hands) if i != 3)


def inserting(hand: int, seq: int, then: Callable[[Tx], Coroutine[Any, Any, None]] | None = None) -> Any:
    async def body(tx: Tx) -> int:
        await tx.run(
            "INSERT INTO hand_actions (hand_id, seq, action, created) VALUES (?, ?, 'x', ?)",
            (hand, seq, tx.now),
        )
        if then is not None:
            await then(tx)
        return seq

    return body


async def test_a_write_that_fails_after_writing_leaves_nothing_and_spares_the_others(
    sqlite_store: Store, tmp_path: Path
) -> None:
    hands = await hands_at_tables(sqlite_store, 3)

    async def fail(tx: Tx) -> None:
        raise StoreError("changed my mind")

    async def duplicate(tx: Tx) -> None:  # a statement's own error: the primary key is taken
        await tx.run("INSERT INTO hand_actions (hand_id, seq, action, created) VALUES (?, 1, 'y', ?)",
                     (hands[2], tx.now))

    results = await one_batch(
        sqlite_store,
        [
            lambda: sqlite_store._write(inserting(hands[0], 2)),
            lambda: sqlite_store._write(inserting(hands[1], 2, fail)),
            lambda: sqlite_store._write(inserting(hands[2], 2, duplicate)),
            lambda: sqlite_store._write(inserting(hands[0], 3)),
        ],
    )
    assert results[0] == 2 and results[3] == 3
    assert isinstance(results[1], StoreError)
    assert isinstance(results[2], sqlite3.IntegrityError)
    stored = logged(tmp_path / "g.sqlite3")
    assert stored == {hands[0]: ["seats 1 2", "x", "x"], hands[1]: ["seats 1 2"], hands[2]: ["seats 1 2"]}


async def test_a_write_that_ends_the_transaction_fails_alone_and_the_rest_commit_once(
    sqlite_store: Store, tmp_path: Path
) -> None:
    # As SQLite does on a full disk or an I/O error: the whole transaction is rolled back under
    # the batch's feet. The writes before it are run again without it, and stored once.
    hands = await hands_at_tables(sqlite_store, 3)

    async def end_everything(tx: Tx) -> None:
        await tx.run("ROLLBACK")
        raise sqlite3.OperationalError("disk I/O error (simulated)")

    results = await one_batch(
        sqlite_store,
        [
            lambda: sqlite_store._write(inserting(hands[0], 2)),
            lambda: sqlite_store._write(inserting(hands[1], 2, end_everything)),
            lambda: sqlite_store._write(inserting(hands[2], 2)),
        ],
    )
    assert results[0] == 2 and results[2] == 2
    assert isinstance(results[1], sqlite3.OperationalError)
    assert logged(tmp_path / "g.sqlite3") == {
        hands[0]: ["seats 1 2", "x"], hands[1]: ["seats 1 2"], hands[2]: ["seats 1 2", "x"]
    }


async def test_a_failed_commit_fails_exactly_its_batch(sqlite_store: Store, tmp_path: Path) -> None:
    # Foreign keys checked at COMMIT, and one write breaks one: the COMMIT fails, every caller of
    # that batch hears so, nothing of theirs is stored, and the next batch is unaffected.
    hands = await hands_at_tables(sqlite_store, 2)

    async def defer(tx: Tx) -> None:
        await tx.run("PRAGMA defer_foreign_keys = ON")

    results = await one_batch(
        sqlite_store,
        [
            lambda: sqlite_store._write(inserting(hands[0], 2, defer)),
            lambda: sqlite_store._write(inserting(999_999, 1)),  # no such hand
            lambda: sqlite_store._write(inserting(hands[1], 2)),
        ],
    )
    assert all(isinstance(r, sqlite3.IntegrityError) for r in results), results
    assert logged(tmp_path / "g.sqlite3") == {hands[0]: ["seats 1 2"], hands[1]: ["seats 1 2"]}
    assert await sqlite_store.append_action(hands[0], 2, "p1 cc")
    assert logged(tmp_path / "g.sqlite3")[hands[0]] == ["seats 1 2", "p1 cc"]


async def test_a_write_that_awaits_something_else_is_refused_alone(
    sqlite_store: Store, tmp_path: Path
) -> None:
    hands = await hands_at_tables(sqlite_store, 2)

    async def nap(tx: Tx) -> None:
        await asyncio.sleep(0.01)

    results = await one_batch(
        sqlite_store,
        [
            lambda: sqlite_store._write(inserting(hands[0], 2, nap)),
            lambda: sqlite_store._write(inserting(hands[1], 2)),
        ],
    )
    assert isinstance(results[0], RuntimeError) and results[1] == 2
    assert logged(tmp_path / "g.sqlite3") == {hands[0]: ["seats 1 2"], hands[1]: ["seats 1 2", "x"]}


async def test_a_write_cancelled_while_queued_is_not_stored(sqlite_store: Store, tmp_path: Path) -> None:
    hands = await hands_at_tables(sqlite_store, 2)
    backend = sqlite_store._backend
    assert isinstance(backend, SqliteBackend)
    async with backend._lock:
        dropped = asyncio.ensure_future(sqlite_store.append_action(hands[0], 2, "p1 cc"))
        kept = asyncio.ensure_future(sqlite_store.append_action(hands[1], 2, "p1 cc"))
        await asyncio.sleep(0)
        dropped.cancel()
        await asyncio.sleep(0)
    assert await kept is True
    assert dropped.cancelled()
    assert logged(tmp_path / "g.sqlite3") == {hands[0]: ["seats 1 2"], hands[1]: ["seats 1 2", "p1 cc"]}


async def test_one_tables_writes_keep_their_order_in_a_batch(sqlite_store: Store, tmp_path: Path) -> None:
    # Submitted in order within one batch, each sees the one before it (seq 3 needs seq 2).
    [hand] = await hands_at_tables(sqlite_store, 1)
    results = await one_batch(
        sqlite_store, [lambda s=s: sqlite_store.append_action(hand, s, f"a{s}") for s in range(2, 8)]
    )
    assert results == [True] * 6
    assert logged(tmp_path / "g.sqlite3")[hand] == ["seats 1 2", *(f"a{s}" for s in range(2, 8))]


async def test_close_commits_what_is_queued(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "g.sqlite3")
    hands = await hands_at_tables(store, 3)
    pending = [asyncio.ensure_future(store.append_action(h, 2, "p1 cc")) for h in hands]
    await asyncio.sleep(0)
    await store.close()
    assert [await p for p in pending] == [True, True, True]
    assert all(actions == ["seats 1 2", "p1 cc"] for actions in logged(tmp_path / "g.sqlite3").values())


async def traced(store: Store, calls: list[Callable[[], Awaitable[Any]]]) -> tuple[list[Any], list[str]]:
    """:func:`one_batch`, with every statement SQLite ran meanwhile (its trace callback, set on the
    connection's own thread)."""
    backend = store._backend
    assert isinstance(backend, SqliteBackend) and backend.db is not None
    conn = backend.db._conn
    statements: list[str] = []
    await backend.db._execute(conn.set_trace_callback, statements.append)  # type: ignore[no-untyped-call]
    try:
        results = await one_batch(store, calls)
    finally:
        await backend.db._execute(conn.set_trace_callback, None)  # type: ignore[no-untyped-call]
    return results, statements


async def test_a_batch_without_refusals_runs_no_savepoints(sqlite_store: Store, tmp_path: Path) -> None:
    hands = await hands_at_tables(sqlite_store, HANDS)
    results, statements = await traced(
        sqlite_store, [lambda h=h: sqlite_store.append_action(h, 2, f"p1 cc {h}") for h in hands]
    )
    assert results == [True] * HANDS
    assert not [s for s in statements if "SAVEPOINT" in s.upper()], statements
    inserts = [s for s in statements if s.startswith("INSERT INTO hand_actions")]
    assert len(inserts) == HANDS and statements.count("COMMIT") == 1
    assert logged(tmp_path / "g.sqlite3") == {h: ["seats 1 2", f"p1 cc {h}"] for h in hands}

    # One refusal: the batch is rolled back and run again, each write in a savepoint; every other
    # write is stored once.
    seqs = [3, 3, 9, 3, 3, 3, 3, 3]
    results, statements = await traced(
        sqlite_store,
        [lambda h=h, s=s: sqlite_store.append_action(h, s, "p2 cc")
         for h, s in zip(hands, seqs, strict=True)],
    )
    assert isinstance(results[2], StoreError)
    assert [r for i, r in enumerate(results) if i != 2] == [True] * (HANDS - 1)
    assert statements.count("ROLLBACK") == 1 and statements.count("COMMIT") == 1
    assert len([s for s in statements if s.startswith("SAVEPOINT")]) == HANDS
    stored = logged(tmp_path / "g.sqlite3")
    assert stored[hands[2]] == ["seats 1 2", f"p1 cc {hands[2]}"]
    assert all(stored[h] == ["seats 1 2", f"p1 cc {h}", "p2 cc"] for i, h in enumerate(hands) if i != 2)


# -- deals stored together (bot.store.sqlite_batch) -------------------------------------------------


async def seated_tables(store: Store, count: int, *, seats: int = 2) -> list[tuple[int, dict[int, int]]]:
    """``count`` new tables with ``seats`` members bought in (stacks 100, 110, ...): id, seat -> member."""
    out = []
    for n in range(count):
        table = await store.create_table(G, 7000 + n, 1, stakes={"ante": n})
        players = {seat: 5000 + 10 * n + seat for seat in range(1, seats + 1)}
        for seat, member in players.items():
            await store.buy_in(G, table.id, member, 90 + 10 * seat, key=f"{n}:{seat}")
        out.append((table.id, players))
    return out


def dealing(
    store: Store, table_id: int, players: dict[int, int], **extra: Any
) -> Callable[[], Awaitable[Any]]:
    return lambda: store.create_hand(
        table_id, players=players, deck=f"Ah Kd {table_id}c", commitment=f"c{table_id}", salt="s",
        actions=["seats 1 2", f"p1 note {table_id}"], **extra,
    )


def hands_read(path: Path) -> dict[int, list[tuple[Any, ...]]]:
    """Each table's hands as sqlite3 reads them: (hand_no, deck, stakes, players, actions)."""
    with sqlite3.connect(path) as db:
        out: dict[int, list[tuple[Any, ...]]] = {}
        for hand_id, table_id, hand_no, deck, stakes, status in db.execute(
            "SELECT id, table_id, hand_no, deck, stakes, status FROM hands ORDER BY id"
        ).fetchall():
            players = db.execute(
                "SELECT seat_no, member_id, starting_stack FROM hand_players WHERE hand_id = ?"
                " ORDER BY seat_no",
                (hand_id,),
            ).fetchall()
            actions = db.execute(
                "SELECT action FROM hand_actions WHERE hand_id = ? ORDER BY seq", (hand_id,)
            ).fetchall()
            logged_actions = [a for (a,) in actions]
            out.setdefault(table_id, []).append((hand_no, deck, stakes, status, players, logged_actions))
    return out


def first_deal(n: int, table_id: int, players: dict[int, int]) -> tuple[Any, ...]:
    """What :func:`hands_read` must read for the first hand :func:`dealing` dealt at the n-th table
    :func:`seated_tables` made: the table's stakes, the buy-ins as the starting stacks."""
    return (
        1, f"Ah Kd {table_id}c", f'{{"ante":{n}}}', "in_progress",
        [(seat, member, 90 + 10 * seat) for seat, member in sorted(players.items())],
        ["seats 1 2", f"p1 note {table_id}"],
    )


async def test_a_storm_of_deals_is_stored_by_a_few_set_statements(
    sqlite_store: Store, tmp_path: Path
) -> None:
    tables = await seated_tables(sqlite_store, 12, seats=3)
    before = group_of(sqlite_store).together
    results, statements = await traced(sqlite_store, [dealing(sqlite_store, t, p) for t, p in tables])
    assert all(isinstance(r, int) for r in results) and len(set(results)) == len(tables), results
    assert group_of(sqlite_store).together - before == len(tables)
    # One statement for every table's hand, none of a deal's own (its table read, its seats' UPDATE).
    assert len([s for s in statements if s.lstrip().startswith("INSERT INTO hands")]) == 1, statements
    assert not [s for s in statements if "FROM tables WHERE id = ?" in s or "UPDATE seats" in s]
    assert statements.count("COMMIT") == 1 and "ROLLBACK" not in statements
    hands = hands_read(tmp_path / "g.sqlite3")
    assert hands == {t: [first_deal(n, t, p)] for n, (t, p) in enumerate(tables)}
    assert sorted(results) == sorted(
        r[0] for r in sqlite3.connect(tmp_path / "g.sqlite3").execute("SELECT id FROM hands").fetchall()
    )
    assert (await sqlite_store.audit()).ok


async def test_a_storm_with_a_second_deal_at_one_table_refuses_only_that_one(
    sqlite_store: Store, tmp_path: Path
) -> None:
    tables = await seated_tables(sqlite_store, 10)
    calls = [dealing(sqlite_store, t, p) for t, p in tables]
    calls.insert(6, dealing(sqlite_store, *tables[2]))  # table 2 again: its first deal is now in progress
    before = group_of(sqlite_store).together
    results = await one_batch(sqlite_store, calls)
    assert isinstance(results[6], StoreError) and "already in progress" in str(results[6])
    hand_ids = [r for i, r in enumerate(results) if i != 6]
    assert all(isinstance(r, int) for r in hand_ids) and len(set(hand_ids)) == len(tables)
    assert group_of(sqlite_store).together - before == len(tables)
    assert hands_read(tmp_path / "g.sqlite3") == {t: [first_deal(n, t, p)] for n, (t, p) in enumerate(tables)}


async def test_a_table_settled_then_dealt_in_one_batch_keeps_that_order(
    sqlite_store: Store, tmp_path: Path
) -> None:
    # A settlement between deals breaks their run: the deal after it sees the hand settled.
    tables = await seated_tables(sqlite_store, 4)
    (t0, p0), (t1, p1), (t2, p2), (t3, p3) = tables
    first = await dealing(sqlite_store, t0, p0)()
    busy = await dealing(sqlite_store, t2, p2)()
    results = await one_batch(
        sqlite_store,
        [
            dealing(sqlite_store, t1, p1),
            lambda: sqlite_store.settle_hand(first, {1: 90, 2: 120}, "phh"),
            dealing(sqlite_store, t0, p0),
            dealing(sqlite_store, t2, p2),
            dealing(sqlite_store, t3, p3),
        ],
    )
    assert isinstance(results[0], int) and results[1].applied and isinstance(results[2], int)
    assert isinstance(results[3], StoreError) and isinstance(results[4], int)
    hands = hands_read(tmp_path / "g.sqlite3")
    assert [(h[0], h[3], h[4]) for h in hands[t0]] == [
        (1, "finished", [(1, p0[1], 100), (2, p0[2], 110)]),
        (2, "in_progress", [(1, p0[1], 90), (2, p0[2], 120)]),
    ]
    assert [h[0] for h in hands[t2]] == [1] and busy == min(r[0] for r in sqlite3.connect(
        tmp_path / "g.sqlite3").execute("SELECT id FROM hands WHERE table_id = ?", (t2,)).fetchall())
    assert (await sqlite_store.audit()).ok


async def test_a_set_statement_that_fails_sends_every_deal_its_own_way(
    sqlite_store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The set's last statement fails after its hands and players were inserted: all of it is
    # rolled back, and each deal is stored once by its own body.
    tables = await seated_tables(sqlite_store, 6)
    monkeypatch.setattr("bot.store.sqlite_batch.ACTIONS_SQL", "INSERT INTO no_such_table VALUES (?, ?, ?, ?)")
    before = group_of(sqlite_store).together
    results = await one_batch(sqlite_store, [dealing(sqlite_store, t, p) for t, p in tables])
    assert all(isinstance(r, int) for r in results) and len(set(results)) == len(tables)
    assert group_of(sqlite_store).together == before
    assert hands_read(tmp_path / "g.sqlite3") == {t: [first_deal(n, t, p)] for n, (t, p) in enumerate(tables)}


async def test_deals_stored_together_are_what_each_deal_alone_stores(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The same storm on two files, at the same (fake) times: stored by the set statements on one,
    # each by its own body on the other (the set form refused). Every row of every table is equal.
    from tests.store.conftest import FakeClock, snapshot

    async def storm(path: Path, together: bool) -> list[Any]:
        async with await Store.open(path, clock=FakeClock()) as store:
            tables = await seated_tables(store, 8, seats=3)
            generation = await store.take_table(tables[3][0], "me", timedelta(minutes=5))
            busy = await dealing(store, *tables[5])()
            calls = [dealing(store, t, p) for t, p in tables]
            calls[1] = dealing(store, *tables[1], stakes={"ante": 7, "bring_in": 9})
            calls[2] = dealing(store, *tables[2], rulings={"stub": "x"}, game="razz")
            calls[3] = dealing(store, *tables[3], lease=generation)
            calls[4] = dealing(store, tables[4][0], {1: tables[4][1][1], 3: tables[4][1][3]})  # two of three
            calls.append(dealing(store, *tables[0]))
            before = group_of(store).together
            results = await one_batch(store, calls)
            assert (group_of(store).together - before > 0) == together
            return [busy, *(r if isinstance(r, int) else str(r) for r in results)]

    def refuse(conn: Any, batch: Any) -> Any:
        raise sqlite3.OperationalError("the set form refused (test)")

    with monkeypatch.context() as patched:
        patched.setattr("bot.store.hands.sqlite_deals", refuse)
        results_alone = await storm(tmp_path / "alone.sqlite3", False)
    results_together = await storm(tmp_path / "together.sqlite3", True)
    assert results_together == results_alone
    assert sum(isinstance(r, str) for r in results_alone) == 2  # the busy table, the table dealt twice
    assert snapshot(tmp_path / "together.sqlite3") == snapshot(tmp_path / "alone.sqlite3")
