"""Appends arriving together: each caller hears exactly what it would have heard alone.

On PostgreSQL single actions are stored many to a statement (``bot.store.pg_batch``), and the
statement may only store what the ordinary transaction would have stored; everything else falls
back to that transaction, which raises the precise error. On SQLite they share a group commit.
One batch here mixes every case -- the next action, a repeat, a conflict, a gap, a hand that is
over, a stale lease, a current lease, the same hand twice -- and the outcomes must be the same on
both backends, read back with the drivers.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.store import ActionConflict, StaleLease, Store, StoreError
from bot.store.backend import PostgresBackend
from tests.postgres import RawDb

G = 100


async def hand_at_new_table(store: Store, n: int) -> tuple[int, int]:
    table = await store.create_table(G, 7000 + n, 1)
    await store.buy_in(G, table.id, 10 + 2 * n, 100)
    await store.buy_in(G, table.id, 11 + 2 * n, 100)
    hand = await store.create_hand(
        table.id, players={1: 10 + 2 * n, 2: 11 + 2 * n}, deck="Ah Kd", commitment="c", salt="s",
        actions=["seats 1 2"],
    )
    return table.id, hand


def outcome(result: Any) -> str:
    if isinstance(result, BaseException):
        return type(result).__name__
    return repr(result)


async def test_a_mixed_batch_answers_each_caller_as_alone(store: Store, db_path: Path | str) -> None:
    hands = [await hand_at_new_table(store, n) for n in range(7)]
    (_, next_one), (_, repeat), (_, conflict), (_, gap), (_, over) = hands[:5]
    (stale_t, stale), (lease_t, leased) = hands[5:]
    await store.settle_hand(over, {1: 100, 2: 100}, "phh")
    stale_generation = await store.take_table(stale_t, "me", timedelta(minutes=5))
    generation = await store.take_table(lease_t, "me", timedelta(minutes=5))
    assert stale_generation is not None and generation is not None
    backend = store._backend
    batching = isinstance(backend, PostgresBackend)
    before = (backend.appends.batches, backend.appends.stored) if batching else None

    results = await asyncio.gather(
        store.append_action(next_one, 2, "p1 cc"),
        store.append_action(repeat, 1, "seats 1 2"),
        store.append_action(conflict, 1, "seats 2 1"),
        store.append_action(gap, 5, "p1 cc"),
        store.append_action(over, 2, "p1 cc"),
        store.append_action(stale, 2, "p1 cc", lease=stale_generation + 1),
        store.append_action(leased, 2, "p2 cc", lease=generation),
        store.append_action(next_one, 3, "p2 f"),  # the same hand again, after its action 2
        return_exceptions=True,
    )
    assert [outcome(r) for r in results] == [
        "True", "False", ActionConflict.__name__, StoreError.__name__, StoreError.__name__,
        StaleLease.__name__, "True", "True",
    ]
    assert "out of order" in str(results[3]) and "over" in str(results[4])
    with RawDb(db_path) as db:
        logs = {
            hand: [row[0] for row in db.execute(
                "SELECT action FROM hand_actions WHERE hand_id = ? ORDER BY seq", (hand,))]
            for _, hand in hands
        }
    assert logs == {
        next_one: ["seats 1 2", "p1 cc", "p2 f"], repeat: ["seats 1 2"], conflict: ["seats 1 2"],
        gap: ["seats 1 2"], over: ["seats 1 2"], stale: ["seats 1 2"], leased: ["seats 1 2", "p2 cc"],
    }
    if isinstance(backend, PostgresBackend):
        assert before is not None
        # The three new actions were stored by the batch statements (two: the repeated hand
        # waited for the second), not by the fallback transaction.
        assert (backend.appends.batches - before[0], backend.appends.stored - before[1]) == (2, 3)


async def test_many_hands_share_one_statement(store: Store, db_path: Path | str) -> None:
    backend = store._backend
    if not isinstance(backend, PostgresBackend):
        pytest.skip("the batched statement is PostgreSQL's (SQLite's group commit: test_group_commit.py)")
    hands = [hand for _, hand in [await hand_at_new_table(store, n) for n in range(12)]]
    batches = backend.appends.batches
    assert await asyncio.gather(*(store.append_action(h, 2, f"p1 cc {h}") for h in hands)) == [True] * 12
    assert backend.appends.batches - batches == 1 and backend.appends.largest >= 12
    with RawDb(db_path) as db:
        rows = db.execute("SELECT hand_id, action FROM hand_actions WHERE seq = 2 ORDER BY hand_id")
    assert rows == [(h, f"p1 cc {h}") for h in sorted(hands)]
