"""The table message id each table's presenter keeps, and finding a table's hand by its number."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import Store, StoreError

G = 100
ALICE, BOB = 11, 12
DECK = ["7c", "2d", "Qc", "8h", "5s", "Ts"]


async def two_seat_table(store: Store) -> int:
    table = await store.create_table(G, 9000, ALICE)
    for member in (ALICE, BOB):
        await store.buy_in(G, table.id, member, 200)
    return table.id


async def new_hand(store: Store, table: int) -> int:
    return await store.create_hand(table, players={1: ALICE, 2: BOB}, deck=DECK, commitment="ab" * 32,
                                   salt="cd" * 16)


async def test_the_table_message_is_kept_replaced_and_forgotten(db_path: Path) -> None:
    async with await Store.open(db_path) as store:
        table = await two_seat_table(store)
        other = (await store.create_table(G, 9001, BOB)).id
        assert await store.table_message(table) is None
        await store.set_table_message(table, 555)                 # the lobby
        hand = await new_hand(store, table)
        await store.set_table_message(other, 777)
        await store.set_table_message(table, 556, hand)           # hand #1's message replaces it
    async with await Store.open(db_path) as store:                # survives a restart
        assert await store.table_message(table) == (556, hand)
        assert await store.table_message(other) == (777, None)
        await store.set_table_message(table, None)
        assert await store.table_message(table) is None
        assert await store.table_message(other) == (777, None)
        with pytest.raises(StoreError):
            await store.set_table_message(table, -1)


async def test_a_hand_is_found_by_its_number_beyond_the_last_200(store: Store) -> None:
    table = await two_seat_table(store)
    ids: list[int] = []
    for _ in range(205):                                          # all but the last are finished
        if ids:
            await store.settle_hand(ids[-1], {1: 200, 2: 200}, f"phh {ids[-1]}")
        ids.append(await new_hand(store, table))
    first = await store.hand_by_number(table, 1, finished=True)
    assert first is not None and first.id == ids[0] and first.hand_no == 1 and first.phh == f"phh {ids[0]}"
    last = await store.hand_by_number(table)                      # the last hand, still being played
    assert last is not None and last.id == ids[-1] and last.status == "in_progress"
    last_done = await store.hand_by_number(table, finished=True)
    assert last_done is not None and last_done.id == ids[-2] and last_done.status == "finished"
    assert await store.hand_by_number(table, 206) is None
    assert await store.hand_by_number((await store.create_table(G, 9002, ALICE)).id) is None


async def test_display_prefs_are_kept_per_guild_and_member_and_replaced(store: Store) -> None:
    # Runs on both backends: the upsert (ON CONFLICT ... DO UPDATE) and the CHECK on the name.
    assert await store.display_pref(G, 0, "look") is None
    await store.set_display_pref(G, 0, "look", "text")
    await store.set_display_pref(G, ALICE, "dm", "down-cards")
    await store.set_display_pref(G + 1, 0, "look", "pictures")
    await store.set_display_pref(G, 0, "look", "pictures")       # replaced, not a second row
    assert await store.display_pref(G, 0, "look") == "pictures"
    assert await store.display_pref(G, ALICE, "dm") == "down-cards"
    assert await store.display_pref(G, BOB, "dm") is None
    assert await store.display_pref(G + 1, 0, "look") == "pictures"
    for name, member in (("colour", ALICE), ("dm", -1)):
        with pytest.raises(StoreError, match="no display preference"):
            await store.set_display_pref(G, member, name, "x")
    assert await store.display_pref(G, ALICE, "colour") is None


async def test_each_hand_keeps_the_game_it_was_dealt_as(store: Store) -> None:
    table = await two_seat_table(store)
    first = await new_hand(store, table)                          # no game given: the default
    await store.settle_hand(first, {1: 200, 2: 200}, "phh")
    second = await store.create_hand(table, players={1: ALICE, 2: BOB}, deck=DECK, commitment="ab" * 32,
                                     salt="cd" * 16, game="seven-card-stud")
    other = await store.create_table(G + 1, 9003, ALICE)
    assert await store.hand_games(G) == {first: "sex-in-the-middle-east", second: "seven-card-stud"}
    assert (await store.get_hand(second)).game == "seven-card-stud"
    assert await store.hand_games(G + 1) == {} and other.guild_id == G + 1
