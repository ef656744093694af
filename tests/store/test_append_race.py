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
