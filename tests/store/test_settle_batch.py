"""Settlements arriving together (a wave of hands ending at once): each caller hears what it would
have heard alone.

On PostgreSQL settlements are stored many to a transaction (``bot.store.pg_batch``), which may only
settle a hand the ordinary transaction would settle; a repeat, a conflict or a refusal goes that way
alone and gets its precise answer. On SQLite they share a group commit. One batch here mixes good
settlements with a repeat, a conflicting repeat, a voided hand, wrong seats, a wrong sum, a seat
changed behind the store's back, a stale lease and the same hand twice; the outcomes must be the
same on both backends, and the seats, players, ledger and hands are read back with the drivers and
compared with the stacks the test chose.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.store import ActionConflict, StaleLease, Store, StoreError
from bot.store.backend import PostgresBackend
from bot.store.records import Settlement
from bot.store.stats import HandStatLine
from tests.postgres import RawDb
from tests.store.test_deal_batch import CountingPool, seated

G = 100
START = {1: 150, 2: 250}  # the stacks seated() buys in


async def dealt(store: Store, n: int) -> tuple[int, int, dict[int, int]]:
    """A hand in progress at a new table: (table, hand, seat -> member)."""
    table, players = await seated(store, n)
    hand = await store.create_hand(table, players=players, deck="Ah Kd", commitment="c", salt="s",
                                   actions=["seats 1 2"])
    return table, hand, players


def won(n: int) -> dict[int, int]:
    """Final stacks: seat 1 wins n + 1 chips from seat 2."""
    return {1: START[1] + n + 1, 2: START[2] - n - 1}


def outcome(result: Any) -> str:
    if isinstance(result, BaseException):
        return type(result).__name__
    assert isinstance(result, Settlement)
    return "applied" if result.applied else "repeat"


def stored(db_path: Path | str, table: int, hand: int) -> tuple[Any, ...]:
    """(status, phh, seat stacks, players' final stacks, ledger rows) of one hand, read with the drivers."""
    with RawDb(db_path) as db:
        [(status, phh)] = db.execute("SELECT status, phh FROM hands WHERE id = ?", (hand,))
        stacks = db.execute("SELECT seat_no, stack FROM seats WHERE table_id = ? ORDER BY seat_no", (table,))
        finals = db.execute(
            "SELECT seat_no, final_stack FROM hand_players WHERE hand_id = ? ORDER BY seat_no", (hand,)
        )
        ledger = db.execute(
            "SELECT member_id, delta, stack_delta, kind, reason, op_key, table_id FROM ledger"
            " WHERE hand_id = ? AND kind = 'hand' ORDER BY id",
            (hand,),
        )
    return (status, phh, [tuple(map(int, r)) for r in stacks], [tuple(r) for r in finals],
            [tuple(r) for r in ledger])


def settled_as(n: int, table: int, hand: int, players: dict[int, int], hand_no: int = 1) -> tuple[Any, ...]:
    finals = won(n)
    return (
        "finished", f"phh {hand}", sorted(finals.items()), sorted(finals.items()),
        [(players[seat], 0, finals[seat] - START[seat], "hand", f"hand #{hand_no} at table {table}",
          f"hand:{hand}", table) for seat in (1, 2)],
    )


async def test_a_mixed_wave_answers_each_caller_as_alone(store: Store, db_path: Path | str) -> None:
    hands = [await dealt(store, n) for n in range(10)]
    (t_good, h_good, p_good), (_, h_rep, _), (_, h_con, _), (_, h_void, _), (_, h_seats, _) = hands[:5]
    (_, h_sum, _), (t_moved, h_moved, _), (t_stale, h_stale, _), (t_lease, h_lease, p_lease) = hands[5:9]
    (t_twice, h_twice, p_twice) = hands[9]
    await store.settle_hand(h_rep, won(1), f"phh {h_rep}")
    await store.settle_hand(h_con, won(2), f"phh {h_con}")
    await store.void_hand(h_void, "test")
    with RawDb(db_path) as db:  # behind the store's back: the seat no longer holds its starting stack
        db.execute("UPDATE seats SET stack = stack + 1 WHERE table_id = ? AND seat_no = 1", (t_moved,))
    stale = await store.take_table(t_stale, "me", timedelta(minutes=5))
    lease = await store.take_table(t_lease, "me", timedelta(minutes=5))
    assert stale is not None and lease is not None
    backend = store._backend
    batching = isinstance(backend, PostgresBackend)
    before = (backend.settlements.batches, backend.settlements.stored) if batching else None

    results = await asyncio.gather(
        store.settle_hand(h_good, won(0), f"phh {h_good}"),
        store.settle_hand(h_rep, won(1), f"phh {h_rep}"),
        store.settle_hand(h_con, won(5), f"phh {h_con}"),
        store.settle_hand(h_void, won(3), "phh"),
        store.settle_hand(h_seats, {1: 400}, "phh"),
        store.settle_hand(h_sum, {1: 1, 2: 1}, "phh"),
        store.settle_hand(h_moved, won(6), "phh"),
        store.settle_hand(h_stale, won(7), "phh", lease=stale + 1),
        store.settle_hand(h_lease, won(8), f"phh {h_lease}", lease=lease),
        store.settle_hand(h_twice, won(9), f"phh {h_twice}"),
        store.settle_hand(h_twice, won(9), f"phh {h_twice}"),
        return_exceptions=True,
    )
    assert [outcome(r) for r in results] == [
        "applied", "repeat", ActionConflict.__name__, StoreError.__name__, StoreError.__name__,
        StoreError.__name__, StoreError.__name__, StaleLease.__name__, "applied", "applied", "repeat",
    ]
    assert "voided" in str(results[3]) and "exactly the seats" in str(results[4])
    assert "add up" in str(results[5]) and "changed during the hand" in str(results[6])
    first = results[0]
    assert isinstance(first, Settlement)
    assert first.net == {p_good[1]: 1, p_good[2]: -1} and first.final_stacks == won(0)

    assert stored(db_path, t_good, h_good) == settled_as(0, t_good, h_good, p_good)
    assert stored(db_path, t_lease, h_lease) == settled_as(8, t_lease, h_lease, p_lease)
    assert stored(db_path, t_twice, h_twice) == settled_as(9, t_twice, h_twice, p_twice)
    for table, hand, status in ((t_moved, h_moved, "in_progress"), (t_stale, h_stale, "in_progress")):
        row = stored(db_path, table, hand)
        assert row[0] == status and row[4] == [] and all(final is None for _, final in row[3])
    if isinstance(backend, PostgresBackend):
        assert before is not None
        # The three new settlements were made by batches (two: the hand named twice waited for the
        # second, where it was no longer in progress), not one transaction each.
        assert (backend.settlements.batches - before[0], backend.settlements.stored - before[1]) == (2, 3)


async def test_a_wave_of_settlements_is_a_few_statements_on_postgresql(
    store: Store, db_path: Path | str
) -> None:
    backend = store._backend
    if not isinstance(backend, PostgresBackend):
        pytest.skip("the batched settlement is PostgreSQL's (SQLite's group commit: test_group_commit.py)")
    hands = [await dealt(store, n) for n in range(16)]
    counting = CountingPool(backend.pool)
    backend.pool = counting  # type: ignore[assignment]
    results = await asyncio.gather(
        *(store.settle_hand(h, won(n), f"phh {h}") for n, (_, h, _) in enumerate(hands))
    )
    # One transaction per settlement was a dozen statements each.
    assert len(counting.statements) < len(hands), counting.statements
    assert all(r.applied for r in results)
    for n, (table, hand, players) in enumerate(hands):
        assert stored(db_path, table, hand) == settled_as(n, table, hand, players)
    assert (await store.audit()).ok


async def test_a_failed_settlement_batch_sends_each_its_own_way(
    store: Store, db_path: Path | str, monkeypatch: pytest.MonkeyPatch
) -> None:
    backend = store._backend
    if not isinstance(backend, PostgresBackend):
        pytest.skip("the batched settlement is PostgreSQL's")
    hands = [await dealt(store, n) for n in range(6)]
    # The batch's writing statement fails, after the seats were locked: it rolls back whole.
    monkeypatch.setattr("bot.store.pg_batch.SETTLE_WRITE", "SELECT 1 / 0")
    before = (backend.settlements.batches, backend.settlements.stored)
    results = await asyncio.gather(
        *(store.settle_hand(h, won(n), f"phh {h}") for n, (_, h, _) in enumerate(hands))
    )
    assert (backend.settlements.batches - before[0], backend.settlements.stored - before[1]) == (1, 0)
    assert all(r.applied for r in results)
    for n, (table, hand, players) in enumerate(hands):
        assert stored(db_path, table, hand) == settled_as(n, table, hand, players)
    assert (await store.audit()).ok


def lines_of(n: int, players: dict[int, int], *, showdown: bool = True) -> list[HandStatLine]:
    """Stat lines of a hand settled as ``won(n)``: seat 1 collects a pot of 2n + 4."""
    return [
        HandStatLine(players[1], n + 1, 2 * n + 4, 2 * n + 4, showdown, True, 1, 0),
        HandStatLine(players[2], -n - 1, 0, 2 * n + 4, showdown, n % 2 == 0, 0, 1),
    ]


async def test_stat_lines_arriving_together_are_each_answered_as_alone(
    store: Store, db_path: Path | str
) -> None:
    plain = [await dealt(store, n) for n in range(5)]
    # One member at two tables: both hands' lines add to the same day's totals in one batch.
    both = 999
    shared: list[tuple[int, int, dict[int, int]]] = []
    for n in (5, 6):
        table = await store.create_table(G, 8100 + n, 1)
        players = {1: both, 2: 500 + n}
        for seat, stack in START.items():
            await store.buy_in(G, table.id, players[seat], stack)
        hand = await store.create_hand(table.id, players=players, deck="Ah Kd", commitment="c", salt="s")
        shared.append((table.id, hand, players))
    for n, (_, hand, _) in enumerate(plain + shared):
        if n != 3:  # the fourth stays in progress
            await store.settle_hand(hand, won(n), "phh")
    (_, h0, p0), (_, h1, p1), (_, h_rep, p_rep), (_, h_open, p_open), (_, h_wrong, p_wrong) = plain
    (_, h_a, p_a), (_, h_b, p_b) = shared
    assert await store.record_hand_stats(h_rep, lines_of(2, p_rep))
    backend = store._backend
    batching = isinstance(backend, PostgresBackend)
    before = (backend.stat_lines.batches, backend.stat_lines.stored) if batching else None

    wrong = lines_of(4, p_wrong)
    wrong[0] = HandStatLine(p_wrong[1], 7, 0, 0, False, False, 0, 0)
    results = await asyncio.gather(
        store.record_hand_stats(h0, lines_of(0, p0)),
        store.record_hand_stats(h1, lines_of(1, p1)),
        store.record_hand_stats(h_rep, lines_of(2, p_rep)),
        store.record_hand_stats(h_open, lines_of(3, p_open)),
        store.record_hand_stats(h_wrong, wrong),
        store.record_hand_stats(h_a, lines_of(5, p_a)),
        store.record_hand_stats(h_b, lines_of(6, p_b, showdown=False)),
        store.record_hand_stats(h1, lines_of(1, p1)),
        return_exceptions=True,
    )
    assert [r if isinstance(r, bool) else type(r).__name__ for r in results] == [
        True, True, False, StoreError.__name__, StoreError.__name__, True, True, False,
    ]
    assert "settled" in str(results[3]) and "differs" in str(results[4])
    with RawDb(db_path) as db:
        counted = db.execute("SELECT hand_id, COUNT(*) FROM hand_stats GROUP BY hand_id")
        kept = {int(h): int(n) for h, n in counted}
        day = db.execute(
            "SELECT hands, won, showdowns, showdowns_won, net, biggest, vpip, bets, calls FROM member_days"
            " WHERE member_id = ?",
            (both,),
        )
    assert kept == {h0: 2, h1: 2, h_rep: 2, h_a: 2, h_b: 2}
    # Worked out from lines_of: both collected 14 (hand 5, at a showdown) and 16 (hand 6, none).
    assert [tuple(map(int, r)) for r in day] == [(2, 2, 1, 1, 6 + 7, 16, 2, 2, 0)]
    if isinstance(backend, PostgresBackend):
        assert before is not None
        assert (backend.stat_lines.batches - before[0], backend.stat_lines.stored - before[1]) == (2, 4)
    assert (await store.audit()).ok


async def test_a_wave_of_stat_lines_is_a_few_statements_on_postgresql(
    store: Store, db_path: Path | str
) -> None:
    backend = store._backend
    if not isinstance(backend, PostgresBackend):
        pytest.skip("the batched stat lines are PostgreSQL's")
    hands = [await dealt(store, n) for n in range(16)]
    for n, (_, hand, _) in enumerate(hands):
        await store.settle_hand(hand, won(n), "phh")
    counting = CountingPool(backend.pool)
    backend.pool = counting  # type: ignore[assignment]
    results = await asyncio.gather(
        *(store.record_hand_stats(h, lines_of(n, players)) for n, (_, h, players) in enumerate(hands))
    )
    assert results == [True] * len(hands)
    assert len(counting.statements) < len(hands), counting.statements  # ten or so each, alone
    with RawDb(db_path) as db:
        rows = db.execute("SELECT hand_id, member_id, net, collected FROM hand_stats")
    assert sorted(tuple(map(int, r)) for r in rows) == sorted(
        (h, line.member_id, line.net, line.collected)
        for n, (_, h, players) in enumerate(hands) for line in lines_of(n, players)
    )
