"""The store's tournaments: buy-ins into the pool, the level clock, tournament chips at the table
(never the balance), the payout once, and the audit of it all; on both backends."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.store import InsufficientChips, Store, StoreError
from tests.postgres import RawDb
from tests.store.conftest import FakeClock

G, CH = 1, 500
ORG, ANN, BOB, CAT = 11, 12, 13, 14


async def entered(store: Store, buy_in: int = 100, members: tuple[int, ...] = (ANN, BOB, CAT)) -> int:
    t = await store.create_tournament(G, CH, ORG, buy_in=buy_in, state={"v": 0})
    for member in members:
        await store.enter_tournament(t.id, member, {"v": member}, key=f"join-{member}")
    return t.id


async def started(store: Store, buy_in: int = 100) -> int:
    tid = await entered(store, buy_in)
    await store.start_tournament(
        tid, {"v": "started"}, stakes={"ante": 5}, settings={"tournament": tid},
        seats={ANN: (1, 1500), BOB: (2, 1500), CAT: (3, 1500)},
    )
    return tid


async def audit_ok(store: Store) -> None:
    report = await store.audit()
    assert report.ok, report.all_problems()


async def test_buy_ins_make_the_pool_and_a_retry_pays_once(store: Store) -> None:
    tid = await entered(store)
    again = await store.enter_tournament(tid, ANN, {"v": 1}, key="join-12")
    assert not again.applied
    record = await store.get_tournament(tid)
    assert record.pool == 300 and record.paid == {ANN: 100, BOB: 100, CAT: 100}
    assert await store.balance(G, ANN) == 900
    assert record.state == {"v": CAT}
    with pytest.raises(StoreError, match="already"):
        await store.enter_tournament(tid, ANN, {}, key="other")
    await store.take(G, ORG, 950, reason="test")
    with pytest.raises(InsufficientChips):
        await store.enter_tournament(tid, ORG, {}, key="org")
    assert (await store.get_tournament(tid)).pool == 300
    await audit_ok(store)


async def test_leaving_before_the_start_refunds(store: Store) -> None:
    tid = await entered(store)
    await store.leave_tournament(tid, BOB, {"v": "left"})
    record = await store.get_tournament(tid)
    assert record.pool == 200 and BOB not in record.paid and await store.balance(G, BOB) == 1000
    await store.enter_tournament(tid, BOB, {}, key="back")  # and may come back
    await store.leave_tournament(tid, BOB, {})
    await audit_ok(store)


async def test_a_freeroll_moves_no_chips(store: Store) -> None:
    tid = await entered(store, buy_in=0)
    assert (await store.get_tournament(tid)).pool == 0
    assert await store.balance(G, ANN) == 1000
    await audit_ok(store)


async def test_one_tournament_per_channel(store: Store) -> None:
    await entered(store)
    with pytest.raises(StoreError, match="already has a tournament"):
        await store.create_tournament(G, CH, ORG, buy_in=0, state={})


async def test_tournament_chips_are_not_the_balance(store: Store) -> None:
    tid = await started(store)
    record = await store.get_tournament(tid)
    assert record.status == "running" and record.table_id is not None
    table = record.table_id
    assert {s.member_id: s.stack for s in await store.seats(table)} == {ANN: 1500, BOB: 1500, CAT: 1500}
    assert await store.balance(G, ANN) == 900
    for refused in (
        store.cash_out(G, table, ANN),
        store.buy_in(G, table, ORG, 500),
        store.top_up(G, table, ANN, 10),
        store.close_table(G, table),
    ):
        with pytest.raises(StoreError, match="tournament"):
            await refused
    board = {row.member_id: row for row in await store.leaderboard(G)}
    assert board[ANN].in_play == 0 and board[ANN].balance == 900
    report = await store.audit(G)
    assert report.ok and report.guilds[0].in_play == 0
    assert await store.is_tournament_table(table)


async def test_a_whole_tournament_pays_once(store: Store, clock: FakeClock) -> None:
    tid = await started(store)
    table = (await store.get_tournament(tid)).table_id
    assert table is not None
    players = {1: ANN, 2: BOB, 3: CAT}
    hand = await store.create_hand(table, players=players, deck="Ah", commitment="c", salt="s")
    await store.settle_hand(hand, {1: 3000, 2: 0, 3: 1500}, "phh")
    await store.eliminate_tournament_players(tid, [BOB], {"v": "bob out"})
    with pytest.raises(StoreError, match="with chips"):
        await store.eliminate_tournament_players(tid, [CAT], {})
    clock.advance(minutes=10)
    await store.save_tournament(tid, {"v": "level 2"}, level=2, level_started=clock.now)
    levels = await store.tournament_levels(tid)
    assert [n for n, _ in levels] == [1, 2] and levels[1][1] - levels[0][1] == timedelta(minutes=10)
    hand = await store.create_hand(table, players={1: ANN, 3: CAT}, deck="Ah", commitment="c", salt="s")
    await store.settle_hand(hand, {1: 4500, 3: 0}, "phh")
    with pytest.raises(StoreError, match="add up"):
        await store.end_tournament(tid, {ANN: 195, CAT: 100}, {})
    receipt = await store.end_tournament(tid, {ANN: 195, CAT: 105}, {"v": "done"})
    assert receipt.applied and receipt.balances == {ANN: 1095, CAT: 1005}
    again = await store.end_tournament(tid, {ANN: 195, CAT: 105}, {"v": "done"})
    assert not again.applied and await store.balance(G, ANN) == 1095
    record = await store.get_tournament(tid)
    assert record.status == "finished" and record.pool == 0 and record.prizes == {ANN: 195, BOB: 0, CAT: 105}
    assert (await store.get_table(table)).status == "closed" and await store.seats(table) == []
    assert await store.tournament_in_channel(CH) is None
    await audit_ok(store)
    await store.create_tournament(G, CH, ORG, buy_in=0, state={})  # the channel is free again


async def test_cancel_returns_the_pool(store: Store) -> None:
    tid = await entered(store)
    receipt = await store.end_tournament(tid, {ANN: 100, BOB: 100, CAT: 100}, {}, cancelled=True)
    assert receipt.applied and await store.balance(G, BOB) == 1000
    assert (await store.get_tournament(tid)).status == "cancelled"
    await audit_ok(store)


async def test_rebuys_and_late_entries_get_tournament_chips(store: Store) -> None:
    tid = await started(store)
    table = (await store.get_tournament(tid)).table_id
    assert table is not None
    hand = await store.create_hand(table, players={1: ANN, 2: BOB}, deck="Ah", commitment="c", salt="s")
    await store.settle_hand(hand, {1: 3000, 2: 0}, "phh")
    await store.enter_tournament(tid, BOB, {}, rebuy=True, key="rebuy-1", chips=1500)
    await store.enter_tournament(tid, ORG, {}, key="late", chips=1500, seat_no=4)
    with pytest.raises(StoreError, match="without any"):
        await store.enter_tournament(tid, ANN, {}, rebuy=True, key="rebuy-2", chips=1500)
    assert (await store.get_tournament(tid)).paid[ANN] == 100  # the refused rebuy paid nothing
    record = await store.get_tournament(tid)
    assert record.pool == 500 and record.paid[BOB] == 200
    assert {s.member_id: s.stack for s in await store.seats(table)}[BOB] == 1500
    await audit_ok(store)


async def test_the_audit_catches_a_pool_that_does_not_match(store: Store, db_path: object) -> None:
    tid = await entered(store)
    with RawDb(db_path) as db:  # type: ignore[arg-type]
        db.execute("UPDATE tournaments SET pool = 250 WHERE id = ?", (tid,))
    problems = (await store.audit()).all_problems()
    assert any("pool is 250" in p for p in problems), problems
