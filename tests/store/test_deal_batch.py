"""Deals arriving together (a storm after a restart): each caller hears what it would have heard alone.

On PostgreSQL deals are stored many to a statement (``bot.store.pg_batch``), which may only store
what the ordinary transaction would have stored; everything else goes that way alone and gets the
precise error. On SQLite they share a group commit. One batch here mixes good deals with a closed
table, a table with a hand in progress, a seat held by someone else, a stale lease, a current
lease and the same table twice; the outcomes must be the same on both backends, and what is stored
is read back with the drivers and compared with what the test itself set up (the buy-ins).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.store import StaleLease, Store, StoreError
from bot.store.backend import PostgresBackend
from tests.postgres import RawDb

G = 100
STACKS = (150, 250)


async def seated(store: Store, n: int) -> tuple[int, dict[int, int]]:
    """A new table with two seated members (stacks :data:`STACKS`); its id and seat -> member."""
    table = await store.create_table(G, 8000 + n, 1, stakes={"ante": n})
    players = {1: 10 + 2 * n, 2: 11 + 2 * n}
    for seat, stack in zip(players, STACKS, strict=True):
        await store.buy_in(G, table.id, players[seat], stack)
    return table.id, players


def deal(store: Store, table_id: int, players: dict[int, int], *, lease: int | None = None) -> Any:
    return store.create_hand(
        table_id, players=players, deck=f"Ah Kd {table_id}c", commitment=f"c{table_id}", salt="s",
        actions=["seats 1 2", f"p1 note {table_id}"], lease=lease,
    )


def outcome(result: Any) -> str:
    return type(result).__name__ if isinstance(result, BaseException) else "hand"


def stored_hands(db_path: Path | str) -> dict[int, tuple[Any, ...]]:
    """Every hand as the drivers read it: table -> (hand_no, deck, stakes, players, actions)."""
    with RawDb(db_path) as db:
        hands = db.execute("SELECT id, table_id, hand_no, deck, stakes, started FROM hands ORDER BY id")
        out: dict[int, tuple[Any, ...]] = {}
        for hand_id, table_id, hand_no, deck, stakes, started in hands:
            players = db.execute(
                "SELECT seat_no, member_id, starting_stack FROM hand_players WHERE hand_id = ?"
                " ORDER BY seat_no",
                (hand_id,),
            )
            actions = db.execute(
                "SELECT seq, action, created FROM hand_actions WHERE hand_id = ? ORDER BY seq", (hand_id,)
            )
            assert all(created == started for _, _, created in actions)
            out.setdefault(int(table_id), ())
            out[int(table_id)] += ((int(hand_no), deck, stakes, [tuple(map(int, p)) for p in players],
                                    [(int(s), a) for s, a, _ in actions]),)
    return out


def first_hand(n: int, table_id: int, players: dict[int, int]) -> tuple[Any, ...]:
    """What :func:`stored_hands` must read for the first hand dealt by :func:`deal` at the n-th
    table :func:`seated` made: its stakes copied from the table, the buy-ins as starting stacks."""
    return (
        1, f"Ah Kd {table_id}c", json.dumps({"ante": n}, separators=(",", ":")),
        [(seat, players[seat], stack) for seat, stack in zip((1, 2), STACKS, strict=True)],
        [(1, "seats 1 2"), (2, f"p1 note {table_id}")],
    )


async def test_a_mixed_storm_answers_each_caller_as_alone(store: Store, db_path: Path | str) -> None:
    tables = [await seated(store, n) for n in range(9)]
    (good1, p1), (good2, p2), (closed, pc), (busy, pb), (other, po) = tables[:5]
    (stale, ps), (leased, pl), (twice, pt), (good3, p3) = tables[5:]
    await store.close_table(G, closed)
    busy_hand = await deal(store, busy, pb)
    stale_generation = await store.take_table(stale, "me", timedelta(minutes=5))
    generation = await store.take_table(leased, "me", timedelta(minutes=5))
    assert stale_generation is not None and generation is not None
    backend = store._backend
    before = (backend.deals.batches, backend.deals.stored) if isinstance(backend, PostgresBackend) else None

    results = await asyncio.gather(
        deal(store, good1, p1),
        deal(store, closed, pc),
        deal(store, busy, pb),
        deal(store, other, {1: po[2], 2: po[1]}),  # the seats swapped: neither is held so
        deal(store, stale, ps, lease=stale_generation + 1),
        deal(store, leased, pl, lease=generation),
        deal(store, twice, pt),
        deal(store, twice, pt),  # the same table again: its first deal is now in progress
        deal(store, good2, p2),
        deal(store, good3, p3),
        return_exceptions=True,
    )
    assert [outcome(r) for r in results] == [
        "hand", StoreError.__name__, StoreError.__name__, StoreError.__name__, StaleLease.__name__,
        "hand", "hand", StoreError.__name__, "hand", "hand",
    ]
    assert "closed" in str(results[1]) and "already in progress" in str(results[2])
    assert "not held" in str(results[3]) and "already in progress" in str(results[7])

    hands = stored_hands(db_path)
    dealt = {good1: p1, leased: pl, twice: pt, good2: p2, good3: p3, busy: pb}
    assert set(hands) == set(dealt)
    for table_id, players in dealt.items():
        n = next(i for i, (t, _) in enumerate(tables) if t == table_id)
        assert hands[table_id] == (first_hand(n, table_id, players),)
    ids = [r for r in results if not isinstance(r, BaseException)]
    assert len(set(ids)) == 5 and busy_hand not in ids
    if isinstance(backend, PostgresBackend):
        assert before is not None
        # The five good deals were stored by the batch statements (two: the table named twice
        # waited for the second), not one transaction each.
        assert (backend.deals.batches - before[0], backend.deals.stored - before[1]) == (2, 5)
    assert (await store.audit()).ok


class CountingPool:
    """A pool that counts every statement its connections run (a query logger on each while it
    is lent out): the round trips to the server, counted outside the store."""

    def __init__(self, pool: Any) -> None:
        self._pool = pool
        self.statements: list[str] = []

    def _log(self, record: Any) -> None:
        self.statements.append(record.query)

    @asynccontextmanager
    async def acquire(self) -> AsyncIterator[Any]:
        async with self._pool.acquire() as conn:
            conn.add_query_logger(self._log)
            try:
                yield conn
            finally:
                conn.remove_query_logger(self._log)

    async def close(self) -> None:
        await self._pool.close()


async def test_a_storm_of_deals_is_a_few_statements_on_postgresql(store: Store, db_path: Path | str) -> None:
    backend = store._backend
    if not isinstance(backend, PostgresBackend):
        pytest.skip("the batched statement is PostgreSQL's (SQLite's group commit: test_group_commit.py)")
    tables = [await seated(store, n) for n in range(16)]
    counting = CountingPool(backend.pool)
    backend.pool = counting  # type: ignore[assignment]
    ids = await asyncio.gather(*(deal(store, t, players) for t, players in tables))
    # One transaction per deal was at least three statements each (BEGIN, ..., COMMIT): 48 and more.
    assert len(counting.statements) < len(tables), counting.statements
    assert len(set(ids)) == len(tables)
    hands = stored_hands(db_path)
    for n, (table_id, players) in enumerate(tables):
        assert hands[table_id] == (first_hand(n, table_id, players),)
    assert (await store.audit()).ok


async def test_a_storm_just_after_opening_waits_for_no_type_lookups(
    store: Store, db_path: Path | str
) -> None:
    # asyncpg looks up an array type's codec on each connection the first time a statement binds
    # it (the type catalogue's recursive walk, JIT switched off and on around it): the pool's
    # connections do so when they connect, not in the first storm after a restart.
    backend = store._backend
    if not isinstance(backend, PostgresBackend):
        pytest.skip("asyncpg's type lookups are PostgreSQL's")
    tables = [await seated(store, n) for n in range(12)]
    await store.close()
    async with await Store.open(db_path) as reopened:
        backend = reopened._backend
        assert isinstance(backend, PostgresBackend)
        counting = CountingPool(backend.pool)
        backend.pool = counting  # type: ignore[assignment]
        ids = await asyncio.gather(*(deal(reopened, t, players) for t, players in tables))
        assert len(set(ids)) == len(tables)
        looked_up = [s for s in counting.statements if "pg_catalog" in s or "jit" in s]
        assert not looked_up, looked_up
        assert counting.statements  # the batches' own statements were seen


async def test_a_failed_batch_sends_every_deal_its_own_way(
    store: Store, db_path: Path | str, monkeypatch: pytest.MonkeyPatch
) -> None:
    backend = store._backend
    if not isinstance(backend, PostgresBackend):
        pytest.skip("the batched statement is PostgreSQL's")
    tables = [await seated(store, n) for n in range(6)]
    # The batch's last statement fails, after its hands were inserted: the batch rolls back whole.
    monkeypatch.setattr("bot.store.pg_batch.DEAL_PLAYERS_AND_ACTIONS", "SELECT 1 / 0")
    before = (backend.deals.batches, backend.deals.stored)
    ids = await asyncio.gather(*(deal(store, t, players) for t, players in tables))
    assert (backend.deals.batches - before[0], backend.deals.stored - before[1]) == (1, 0)
    hands = stored_hands(db_path)
    assert sorted(hands) == sorted(t for t, _ in tables) and len(set(ids)) == len(tables)
    assert all(len(h) == 1 and h[0][0] == 1 for h in hands.values())


async def test_a_storm_with_one_duplicate_deal_refuses_only_that_one(
    store: Store, db_path: Path | str
) -> None:
    # Forty tables deal at once (a restart), one of them twice: the second deal there is refused
    # ("a hand is already in progress"), every other deal is stored as the table was set up.
    tables = [await seated(store, n) for n in range(40)]
    calls = [deal(store, t, players) for t, players in tables]
    calls.insert(23, deal(store, *tables[17]))
    results = await asyncio.gather(*calls, return_exceptions=True)
    refused = [i for i, r in enumerate(results) if isinstance(r, BaseException)]
    assert refused == [23], results  # the table's deals keep their order: the later one is refused
    assert isinstance(results[refused[0]], StoreError)
    assert "already in progress" in str(results[refused[0]])
    hands = stored_hands(db_path)
    assert hands == {t: (first_hand(n, t, players),) for n, (t, players) in enumerate(tables)}
    assert len({r for r in results if not isinstance(r, BaseException)}) == len(tables)
    assert (await store.audit()).ok
