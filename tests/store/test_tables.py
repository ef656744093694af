"""Tables and seats: buy-in limits, top-ups, cash-outs, closing, and guild boundaries."""

from __future__ import annotations

import pytest

from bot.store import InsufficientChips, Store, StoreError

G, OTHER = 100, 200
ALICE, BOB, CAROL = 11, 12, 13
CHANNEL = 9000
STAKES = {"structure": "fixed-limit", "ante": 1, "min_buy_in": 100, "max_buy_in": 500}


async def new_table(store: Store, channel: int = CHANNEL, guild: int = G, **settings: int) -> int:
    table = await store.create_table(
        guild, channel, ALICE, stakes=STAKES, rulings={"raise_cap": 3}, settings=settings
    )
    return table.id


async def test_table_keeps_stakes_rulings_and_settings_verbatim(store: Store) -> None:
    table = await store.create_table(G, CHANNEL, ALICE, stakes=STAKES, rulings={"burn_cards": "on"})
    again = await store.get_table(table.id)
    assert again.stakes == STAKES and again.rulings == {"burn_cards": "on"} and again.settings == {}
    assert (again.status, again.dealer_id, again.guild_id) == ("open", ALICE, G)
    assert (await store.table_in_channel(CHANNEL)) == again
    with pytest.raises(StoreError, match="already has an open table"):
        await store.create_table(G, CHANNEL, BOB)


async def test_buy_in_moves_chips_from_balance_to_seat(store: Store) -> None:
    table = await new_table(store)
    receipt = await store.buy_in(G, table, BOB, 300)
    assert receipt.balance == 700 and receipt.seat is not None  # 1,000 - 300
    assert (receipt.seat.seat_no, receipt.seat.stack, receipt.seat.status) == (1, 300, "active")
    second = await store.buy_in(G, table, CAROL, 100, seat_no=5)
    assert second.seat is not None and second.seat.seat_no == 5
    assert [(s.member_id, s.seat_no) for s in await store.seats(table)] == [(BOB, 1), (CAROL, 5)]
    [row, _] = await store.member_ledger(G, BOB)
    assert (row.kind, row.delta, row.stack_delta, row.table_id) == ("buy_in", -300, 300, table)


@pytest.mark.parametrize(
    ("amount", "kwargs", "message"),
    [
        (99, {}, "minimum buy-in at this table is 100"),  # from the table's stakes
        (501, {}, "maximum buy-in at this table is 500"),
        (150, {"min_buy_in": 200}, "minimum buy-in at this table is 200"),  # a limit passed in wins
        (600, {"max_buy_in": 550}, "maximum buy-in at this table is 550"),
        (0, {}, "more than zero"),
        (200, {"seat_no": 9}, "numbered 1 to 8"),
    ],
)
async def test_buy_in_outside_the_limits_is_refused(
    store: Store, snap, amount: int, kwargs, message: str
) -> None:
    table = await new_table(store)
    before = snap()
    with pytest.raises(StoreError, match=message):
        await store.buy_in(G, table, BOB, amount, **kwargs)
    assert snap() == before


async def test_buy_in_more_than_the_balance_is_refused(store: Store) -> None:
    table = await new_table(store)
    await store.transfer(G, BOB, CAROL, 950)  # Bob keeps 50
    with pytest.raises(InsufficientChips, match="you can't buy in for 100"):
        await store.buy_in(G, table, BOB, 100)


async def test_seats_are_unique_and_tables_fill_up(store: Store) -> None:
    table = await new_table(store, max_seats=2)
    await store.buy_in(G, table, ALICE, 100, seat_no=2)
    with pytest.raises(StoreError, match="Seat 2 is taken"):
        await store.buy_in(G, table, BOB, 100, seat_no=2)
    with pytest.raises(StoreError, match="already have a seat"):
        await store.buy_in(G, table, ALICE, 100)
    await store.buy_in(G, table, BOB, 100)  # the lowest free seat: 1
    with pytest.raises(StoreError, match="full"):
        await store.buy_in(G, table, CAROL, 100)


async def test_another_guilds_table_is_refused(store: Store, snap) -> None:
    table = await new_table(store, guild=OTHER)
    await store.buy_in(OTHER, table, BOB, 100)
    before = snap()
    for attempt in (
        store.buy_in(G, table, ALICE, 100),
        store.top_up(G, table, BOB, 10),
        store.cash_out(G, table, BOB),
        store.close_table(G, table),
    ):
        with pytest.raises(StoreError, match="another server"):
            await attempt
    assert snap() == before


async def test_buy_in_retried_with_the_same_key_seats_once(store: Store) -> None:
    table = await new_table(store)
    first = await store.buy_in(G, table, BOB, 200, key="click-1")
    again = await store.buy_in(G, table, BOB, 200, key="click-1")
    assert first.applied and not again.applied and again.balance == 800
    assert len(await store.seats(table)) == 1


async def test_top_up_respects_the_maximum_buy_in(store: Store) -> None:
    table = await new_table(store)
    await store.buy_in(G, table, BOB, 400)
    with pytest.raises(StoreError, match="maximum buy-in at this table is 500 chips; you have 400"):
        await store.top_up(G, table, BOB, 101)
    receipt = await store.top_up(G, table, BOB, 100)
    assert receipt.seat is not None and receipt.seat.stack == 500 and receipt.balance == 500
    with pytest.raises(StoreError, match="don't have a seat"):
        await store.top_up(G, table, CAROL, 100)


async def test_top_up_and_cash_out_wait_for_the_hand_to_end(store: Store) -> None:
    table = await new_table(store)
    await store.buy_in(G, table, ALICE, 200)
    await store.buy_in(G, table, BOB, 200)
    hand = await store.create_hand(table, players={1: ALICE, 2: BOB}, deck="Ah Kh", commitment="c", salt="s")
    with pytest.raises(StoreError, match="between hands"):
        await store.top_up(G, table, ALICE, 50)
    with pytest.raises(StoreError, match="when it ends"):
        await store.cash_out(G, table, BOB)
    # Carol was not dealt in: she may sit down and leave during the hand.
    await store.buy_in(G, table, CAROL, 150)
    await store.cash_out(G, table, CAROL)
    await store.settle_hand(hand, {1: 300, 2: 100}, "phh")
    receipt = await store.cash_out(G, table, BOB)
    assert (receipt.amount, receipt.balance, receipt.seat) == (100, 900, None)  # 800 + 100


async def test_cash_out_returns_the_stack_and_frees_the_seat(store: Store) -> None:
    table = await new_table(store)
    await store.buy_in(G, table, BOB, 250)
    receipt = await store.cash_out(G, table, BOB, key="leave-1")
    assert (receipt.amount, receipt.balance) == (250, 1000)
    assert not (await store.cash_out(G, table, BOB, key="leave-1")).applied
    assert await store.seats(table) == []
    with pytest.raises(StoreError, match="don't have a seat"):
        await store.cash_out(G, table, BOB)


async def test_closing_a_table_cashes_everyone_out(store: Store) -> None:
    table = await new_table(store)
    await store.buy_in(G, table, BOB, 250)
    await store.buy_in(G, table, CAROL, 300)
    hand = await store.create_hand(table, players={1: BOB, 2: CAROL}, deck="2c", commitment="c", salt="s")
    with pytest.raises(StoreError, match="in progress"):
        await store.close_table(G, table)
    await store.void_hand(hand, "dealer closed the game")
    assert await store.close_table(G, table) == {BOB: 250, CAROL: 300}
    assert (await store.balance(G, BOB), await store.balance(G, CAROL)) == (1000, 1000)
    assert (await store.get_table(table)).status == "closed"
    with pytest.raises(StoreError, match="closed"):
        await store.buy_in(G, table, BOB, 100)
    # The channel is free for a new table.
    assert await new_table(store) != table
    assert (await store.audit()).ok


async def test_seat_status(store: Store) -> None:
    table = await new_table(store)
    await store.buy_in(G, table, BOB, 100)
    assert (await store.set_seat_status(table, BOB, "sitting_out")).status == "sitting_out"
    with pytest.raises(StoreError):
        await store.set_seat_status(table, BOB, "asleep")  # type: ignore[arg-type]
    with pytest.raises(StoreError):
        await store.set_seat_status(table, CAROL, "away")


async def test_update_table_changes_the_next_hand_only(store: Store) -> None:
    table = await new_table(store)
    await store.buy_in(G, table, ALICE, 100)
    hand = await store.create_hand(table, players={1: ALICE}, deck="2c", commitment="c", salt="s")
    await store.update_table(G, table, rulings={"raise_cap": 4}, dealer_id=BOB)
    assert (await store.get_hand(hand)).rulings == {"raise_cap": 3}  # SPEC §8: dealt under the old rulings
    updated = await store.get_table(table)
    assert (updated.rulings, updated.dealer_id, updated.stakes) == ({"raise_cap": 4}, BOB, STAKES)
