"""Hands: the action log, settlement, voiding, recovery after a restart, settle-up."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from bot.store import ActionConflict, Store, StoreError

G = 100
ALICE, BOB, CAROL = 11, 12, 13
DECK = ["7c", "2d", "Qc", "8h", "5s", "Ts"]


async def seated_table(store: Store, stacks: dict[int, int] | None = None) -> int:
    stacks = stacks or {ALICE: 300, BOB: 200, CAROL: 100}
    table = await store.create_table(
        G, 9000, ALICE, stakes={"ante": 1, "bring_in": 2}, rulings={"raise_cap": 3}
    )
    for member, stack in stacks.items():
        await store.buy_in(G, table.id, member, stack)
    return table.id


async def new_hand(store: Store, table: int) -> int:
    return await store.create_hand(
        table, players={1: ALICE, 2: BOB, 3: CAROL}, deck=DECK, commitment="ab" * 32, salt="cd" * 16
    )


async def test_create_hand_records_deck_stakes_rulings_and_starting_stacks(store: Store) -> None:
    table = await seated_table(store)
    hand = await store.get_hand(await new_hand(store, table))
    assert (hand.hand_no, hand.status, hand.deck, hand.commitment) == (
        1,
        "in_progress",
        tuple(DECK),
        "ab" * 32,
    )
    assert hand.stakes == {"ante": 1, "bring_in": 2} and hand.rulings == {"raise_cap": 3}
    assert [(p.seat_no, p.member_id, p.starting_stack) for p in hand.players] == [
        (1, ALICE, 300),
        (2, BOB, 200),
        (3, CAROL, 100),
    ]
    assert hand.actions == () and hand.next_seq == 1


async def test_create_hand_refusals(store: Store) -> None:
    table = await seated_table(store)
    with pytest.raises(StoreError, match="not held"):
        await store.create_hand(table, players={1: BOB}, deck=DECK, commitment="c", salt="s")
    with pytest.raises(StoreError, match="deck"):
        await store.create_hand(table, players={1: ALICE}, deck=[], commitment="c", salt="s")
    await new_hand(store, table)
    with pytest.raises(StoreError, match="already in progress"):
        await new_hand(store, table)


async def test_actions_are_stored_in_order_and_idempotently(store: Store) -> None:
    hand = await new_hand(store, await seated_table(store))
    assert await store.append_action(hand, 1, "d dh p1 7c2dQc")
    assert not await store.append_action(hand, 1, "d dh p1 7c2dQc")  # a retry: nothing new
    with pytest.raises(ActionConflict):
        await store.append_action(hand, 1, "p1 f")
    with pytest.raises(StoreError, match="next action of this hand is 2"):
        await store.append_action(hand, 3, "p1 cc")
    assert await store.append_action(hand, 2, "p3 pb")
    assert (await store.get_hand(hand)).actions == ("d dh p1 7c2dQc", "p3 pb")


async def test_a_batch_of_actions_is_all_or_nothing(store: Store) -> None:
    hand = await new_hand(store, await seated_table(store))
    assert await store.append_actions(hand, 1, ["d dh p1 7c2dQc", "d dh p2 8h9hTs"]) == 2
    # A retry that overlaps what is stored adds only the new line.
    assert await store.append_actions(hand, 2, ["d dh p2 8h9hTs", "d dh p3 2c3cKd"]) == 1
    with pytest.raises(ActionConflict):  # the new 4th line is not stored when the 3rd conflicts
        await store.append_actions(hand, 3, ["p3 f", "p1 pb"])
    assert (await store.get_hand(hand)).actions == ("d dh p1 7c2dQc", "d dh p2 8h9hTs", "d dh p3 2c3cKd")


async def test_settlement_moves_stacks_once(store: Store) -> None:
    table = await seated_table(store)
    hand = await new_hand(store, table)
    await store.append_action(hand, 1, "p3 pb")
    # Alice wins 60 from Bob and 40 from Carol: 300+200+100 = 360+160+80.
    settled = await store.settle_hand(hand, {1: 400, 2: 140, 3: 60}, "phh text")
    assert settled.applied and settled.net == {ALICE: 100, BOB: -60, CAROL: -40}
    again = await store.settle_hand(hand, {1: 400, 2: 140, 3: 60}, "phh text")
    assert not again.applied and again.net == settled.net
    assert [s.stack for s in await store.seats(table)] == [400, 140, 60]
    record = await store.get_hand(hand)
    assert (record.status, record.phh) == ("finished", "phh text")
    assert [p.final_stack for p in record.players] == [400, 140, 60]
    with pytest.raises(ActionConflict, match="different results"):
        await store.settle_hand(hand, {1: 300, 2: 240, 3: 60}, "phh text")
    with pytest.raises(StoreError, match="over"):
        await store.append_action(hand, 2, "p1 cc")
    assert (await store.audit()).ok


@pytest.mark.parametrize(
    ("finals", "message"),
    [
        ({1: 400, 2: 140, 3: 61}, "add up to 601 chips, but 600"),  # a chip created
        ({1: 460, 2: 140}, "exactly the seats"),  # Carol's seat missing
        ({1: 400, 2: 140, 3: 60, 4: 0}, "exactly the seats"),
        ({1: 700, 2: -100, 3: 0}, "zero or more"),
    ],
)
async def test_bad_settlements_are_refused_and_change_nothing(store: Store, snap, finals, message) -> None:
    hand = await new_hand(store, await seated_table(store))
    before = snap()
    with pytest.raises(StoreError, match=message):
        await store.settle_hand(hand, finals, "phh")
    assert snap() == before


async def test_void_returns_every_contribution_and_records_the_reason(store: Store) -> None:
    table = await seated_table(store)
    hand = await new_hand(store, table)
    await store.append_action(hand, 1, "p3 pb")
    await store.append_action(hand, 2, "p1 cbr 20")
    assert await store.void_hand(hand, "log unreadable after restart")
    assert not await store.void_hand(hand, "again")
    # Stacks are the starting stacks: the bring-in and the completion went back to their seats.
    assert [s.stack for s in await store.seats(table)] == [300, 200, 100]
    record = await store.get_hand(hand)
    assert (record.status, record.void_reason) == ("voided", "log unreadable after restart")
    [row, *_] = await store.member_ledger(G, CAROL)
    assert (row.kind, row.delta, row.stack_delta, row.hand_id) == ("void", 0, 0, hand)
    assert "log unreadable after restart" in row.reason
    with pytest.raises(StoreError, match="voided"):
        await store.settle_hand(hand, {1: 300, 2: 200, 3: 100}, "phh")
    assert (await store.audit()).ok
    # The next hand is number 2.
    assert (await store.get_hand(await new_hand(store, table))).hand_no == 2


async def test_unfinished_hands_survive_a_restart_with_everything_to_replay(db_path: Path, clock) -> None:
    async with await Store.open(db_path, clock=clock) as store:
        table = await seated_table(store)
        finished = await new_hand(store, table)
        await store.settle_hand(finished, {1: 310, 2: 190, 3: 100}, "phh")
        open_hand = await new_hand(store, table)
        for seq, action in enumerate(["d dh p1 7c2dQc", "p3 pb", "p1 cc"], start=1):
            await store.append_action(open_hand, seq, action)
    async with await Store.open(db_path, clock=clock) as store:
        [hand] = await store.list_unfinished_hands()
        assert hand.id == open_hand and hand.actions == ("d dh p1 7c2dQc", "p3 pb", "p1 cc")
        assert hand.deck == tuple(DECK) and hand.stakes == {"ante": 1, "bring_in": 2}
        assert [(p.member_id, p.starting_stack) for p in hand.players] == [
            (ALICE, 310),
            (BOB, 190),
            (CAROL, 100),
        ]
        assert hand.guild_id == G and hand.channel_id == 9000
        assert await store.list_unfinished_hands(guild_id=G + 1) == []
        assert (await store.audit()).ok


async def test_audit_catches_a_seat_changed_behind_an_unfinished_hand(db_path: Path, store: Store) -> None:
    from tests.postgres import RawDb

    hand = await new_hand(store, await seated_table(store))
    with RawDb(db_path) as db:  # simulate a bug: a stack moved during the hand, ledger and all
        db.execute("UPDATE seats SET stack = stack + 5 WHERE member_id = ?", (BOB,))
        db.execute(
            "INSERT INTO ledger (guild_id, member_id, delta, stack_delta, kind, reason, op_key, table_id,"
            " created)"
            " SELECT ?, ?, 0, 5, 'hand', 'bug', 'bug', table_id, 'x' FROM seats WHERE member_id = ?",
            (G, BOB, BOB),
        )
    report = await store.audit()
    assert not report.ok
    assert any(f"hand {hand} is in progress" in p for p in report.all_problems())


async def test_settle_up_nets_hands_in_the_period_with_fewest_payments(store: Store, clock) -> None:
    table = await seated_table(store, {ALICE: 300, BOB: 300, CAROL: 300})
    clock.advance(days=-1)  # last night's hand is outside tonight's period
    old = await new_hand(store, table)
    await store.settle_hand(old, {1: 0, 2: 600, 3: 300}, "phh")
    clock.advance(days=1)
    start = clock.now
    results = [{1: 120, 2: 530, 3: 250}, {1: 170, 2: 480, 3: 250}]  # Alice +170, Bob -120, Carol -50 tonight
    for finals in results:
        clock.advance(minutes=10)
        await store.settle_hand(await new_hand(store, table), finals, "phh")
    report = await store.settle_up(G, start, clock.now + timedelta(seconds=1))
    assert report.net == {ALICE: 170, BOB: -120, CAROL: -50}
    assert sorted((p.payer, p.payee, p.amount) for p in report.payments) == [
        (BOB, ALICE, 120),
        (CAROL, ALICE, 50),
    ]


async def test_a_hand_and_its_first_actions_are_stored_in_one_transaction(store: Store) -> None:
    table = await seated_table(store)
    hand_id = await store.create_hand(
        table, players={1: ALICE, 2: BOB}, deck=DECK, commitment="c", salt="s", actions=["seats 2 1"]
    )
    assert (await store.get_hand(hand_id)).actions == ("seats 2 1",)
    await store.void_hand(hand_id, "test")
    with pytest.raises(StoreError, match="non-empty"):      # a bad first action: no hand at all
        await store.create_hand(table, players={1: ALICE}, deck=DECK, commitment="c", salt="s", actions=[""])
    assert [h.id for h in await store.table_hands(table)] == [hand_id]
