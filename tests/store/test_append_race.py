"""Appending actions from many coroutines at once (the hot path, row-locked on PostgreSQL)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.store import ActionConflict, Store
from tests.postgres import RawDb

G = 100


async def _hands(store: Store, count: int) -> list[int]:
    hands = []
    for i in range(count):
        table = await store.create_table(G, 8000 + i, 1)
        await store.buy_in(G, table.id, 2 * i + 10, 100)
        await store.buy_in(G, table.id, 2 * i + 11, 100)
        hands.append(
            await store.create_hand(
                table.id, players={1: 2 * i + 10, 2: 2 * i + 11}, deck="Ah Kd", commitment="c", salt="s"
            )
        )
    return hands


async def test_many_hands_append_at_once_without_gaps_or_doubles(db_path: Path | str, store: Store) -> None:
    hands = await _hands(store, 12)

    async def play(hand: int) -> None:
        for seq in range(1, 16):
            assert await store.append_action(hand, seq, f"p{seq % 2 + 1} cc {hand}")

    await asyncio.gather(*(play(h) for h in hands))
    with RawDb(db_path) as db:
        for hand in hands:
            rows = db.execute("SELECT seq, action FROM hand_actions WHERE hand_id = ? ORDER BY seq", (hand,))
            assert rows == [(seq, f"p{seq % 2 + 1} cc {hand}") for seq in range(1, 16)]


async def test_two_different_actions_racing_for_one_turn_store_one(store: Store) -> None:
    (hand,) = await _hands(store, 1)
    for seq in range(1, 11):
        results = await asyncio.gather(
            store.append_action(hand, seq, "p1 f"), store.append_action(hand, seq, "p1 cc"),
            return_exceptions=True,
        )
        stored = (await store.get_hand(hand)).actions[seq - 1]
        assert sorted(map(repr, results)) == sorted(
            [repr(True), repr(ActionConflict(f"Action {seq} of this hand is already {stored!r}, not "
                                             f"{'p1 cc' if stored == 'p1 f' else 'p1 f'!r}."))]
        )
    assert len((await store.get_hand(hand)).actions) == 10
    with pytest.raises(ActionConflict):
        await store.append_action(hand, 1, "p9 nonsense")


async def test_a_deal_racing_a_cash_out_or_top_up_of_its_players_stays_consistent(
    db_path: Path | str, clock
) -> None:
    """Two connections (as two processes): one deals, the other moves a dealt seat at once. Either
    the hand starts with the seat intact and the move is refused, or the move lands first (a
    cash-out: the deal is refused; a top-up: the deal deals the new stack); the audit stays green."""
    from bot.store import StoreError

    async with await Store.open(db_path, clock=clock) as one, await Store.open(db_path, clock=clock) as two:
        for member in (21, 22):
            await one.grant(G, member, 10_000, reason="bankroll")
        for round_ in range(16):
            table = await one.create_table(G, 8500 + round_, 1)
            for member in (21, 22):
                await one.buy_in(G, table.id, member, 100, key=f"{round_}-{member}")
            move = (
                two.cash_out(G, table.id, 22)
                if round_ % 2
                else two.top_up(G, table.id, 22, 10, max_buy_in=500)
            )
            deal, moved = await asyncio.gather(
                one.create_hand(table.id, players={1: 21, 2: 22}, deck="Ah", commitment="c", salt="s"),
                move,
                return_exceptions=True,
            )
            dealt, went = not isinstance(deal, BaseException), not isinstance(moved, BaseException)
            for result in (deal, moved):
                assert not isinstance(result, BaseException) or isinstance(result, StoreError), result
            if round_ % 2:  # a cash-out and a deal of that seat cannot both happen
                assert dealt != went, (deal, moved)
            else:  # a top-up lands before the deal (which deals the new stack) or is refused
                assert dealt, deal
            if dealt:
                hand = await one.get_hand(int(deal))  # type: ignore[arg-type]
                seat = await one.seat_of(table.id, 22)
                assert seat is not None and hand.players[1].starting_stack == seat.stack
                await one.void_hand(hand.id, "test")
            report = await one.audit()
            assert report.ok, report.all_problems()
