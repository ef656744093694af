"""The chip economy of a guild: starting chips, transfers, grants, takes, daily claim, leaderboard."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.store import DailyNotReady, InsufficientChips, Store, StoreError

G, H = 100, 200  # two guilds
ALICE, BOB, CAROL = 11, 12, 13


async def test_first_use_grants_the_guilds_starting_chips(store: Store) -> None:
    # The default is 1,000 (issue 4); a second call grants nothing more.
    assert await store.balance(G, ALICE) == 1000
    assert await store.balance(G, ALICE) == 1000
    [entry] = await store.member_ledger(G, ALICE)
    assert (entry.kind, entry.reason, entry.delta) == ("starting", "starting chips", 1000)


async def test_starting_chips_follow_the_guild_setting_and_are_per_guild(store: Store) -> None:
    await store.update_guild_settings(H, starting_chips=250)
    assert await store.balance(H, ALICE) == 250
    assert await store.balance(G, ALICE) == 1000  # the same person in another guild has another account
    assert await store.peek_balance(G, BOB) is None  # peeking opens nothing


async def test_transfer_moves_chips_and_records_both_sides(store: Store) -> None:
    receipt = await store.transfer(G, ALICE, BOB, 120)
    # 1,000 - 120 and 1,000 + 120.
    assert receipt.applied and receipt.balances == {ALICE: 880, BOB: 1120}
    [alice_row, *_] = await store.member_ledger(G, ALICE)
    [bob_row, *_] = await store.member_ledger(G, BOB)
    assert (alice_row.delta, alice_row.counterparty_id) == (-120, BOB)
    assert (bob_row.delta, bob_row.counterparty_id) == (120, ALICE)
    assert alice_row.op_key == bob_row.op_key == receipt.op_key


async def test_transfer_retried_with_the_same_key_applies_once(store: Store) -> None:
    first = await store.transfer(G, ALICE, BOB, 50, key="interaction-1")
    again = await store.transfer(G, ALICE, BOB, 50, key="interaction-1")
    assert first.applied and not again.applied
    assert again.balances == {ALICE: 950, BOB: 1050}
    assert await store.balance(G, ALICE) == 950
    # The same key for a different transfer is refused, not silently ignored.
    with pytest.raises(StoreError, match="already used"):
        await store.transfer(G, ALICE, BOB, 60, key="interaction-1")


@pytest.mark.parametrize(
    ("sender", "recipient", "amount", "message"),
    [
        (ALICE, BOB, 0, "more than zero"),
        (ALICE, BOB, -5, "more than zero"),
        (ALICE, BOB, True, "whole number"),
        (ALICE, BOB, 2.5, "whole number"),
        (ALICE, ALICE, 10, "yourself"),
        (ALICE, BOB, 1001, "you can't give 1,001"),  # one more than the 1,000 starting chips
        (ALICE, -3, 10, "not a valid member"),
    ],
)
async def test_invalid_transfers_are_refused_and_change_nothing(
    store: Store, snap, sender: int, recipient: int, amount: int, message: str
) -> None:
    await store.balance(G, BOB)
    before = snap()
    with pytest.raises(StoreError, match=message):
        await store.transfer(G, sender, recipient, amount)
    assert snap() == before  # not even Alice's account was opened


async def test_overdraft_reports_what_is_available(store: Store) -> None:
    with pytest.raises(InsufficientChips) as caught:
        await store.transfer(G, ALICE, BOB, 5000)
    assert (caught.value.available, caught.value.requested) == (1000, 5000)


async def test_admin_grant_and_take_with_reason(store: Store) -> None:
    await store.grant(G, ALICE, 500, reason="won the raffle", by=BOB)
    receipt = await store.take(G, ALICE, 300, reason="typo in last grant", by=BOB)
    assert receipt.balances == {ALICE: 1200}  # 1,000 + 500 - 300
    take_row, grant_row, _start = await store.member_ledger(G, ALICE)
    assert (grant_row.kind, grant_row.reason, grant_row.actor_id) == ("grant", "won the raffle", BOB)
    assert (take_row.kind, take_row.delta) == ("take", -300)
    with pytest.raises(InsufficientChips):
        await store.take(G, ALICE, 1201, reason="too much")
    with pytest.raises(StoreError, match="reason"):
        await store.grant(G, ALICE, 5, reason="   ")


async def test_daily_claim_is_off_by_default(store: Store) -> None:
    settings = await store.guild_settings(G)
    assert not settings.daily_enabled
    with pytest.raises(StoreError, match="off"):
        await store.claim_daily(G, ALICE)


async def test_daily_claim_respects_the_cooldown(store: Store, clock) -> None:
    await store.update_guild_settings(G, daily_amount=100, daily_cooldown=timedelta(hours=20))
    assert (await store.claim_daily(G, ALICE)).balances == {ALICE: 1100}
    clock.advance(hours=19, minutes=59)
    with pytest.raises(DailyNotReady) as caught:
        await store.claim_daily(G, ALICE)
    # Claimed at 20:00 with a 20-hour cooldown: ready at 16:00 the next day.
    assert caught.value.next_claim == clock.now.replace(hour=16, minute=0)
    clock.advance(minutes=1)
    assert (await store.claim_daily(G, ALICE)).balances == {ALICE: 1200}
    assert [e.kind for e in await store.member_ledger(G, ALICE)] == ["daily", "daily", "starting"]


async def test_leaderboard_counts_chips_in_play(store: Store) -> None:
    await store.transfer(G, BOB, CAROL, 300)  # Bob 700, Carol 1,300
    table = await store.create_table(G, 5000, ALICE)
    await store.buy_in(G, table.id, BOB, 500)  # Bob: 200 + 500 in play, still 700 in total
    await store.transfer(G, ALICE, CAROL, 1)  # Alice 999, Carol 1,301
    rows = await store.leaderboard(G)
    assert [(r.member_id, r.balance, r.in_play, r.total) for r in rows] == [
        (CAROL, 1301, 0, 1301),
        (ALICE, 999, 0, 999),
        (BOB, 200, 500, 700),
    ]
    assert [r.member_id for r in await store.leaderboard(G, limit=1)] == [CAROL]


async def test_member_ledger_is_most_recent_first_and_limited(store: Store, clock) -> None:
    for amount in (1, 2, 3, 4):
        clock.advance(minutes=1)
        await store.transfer(G, ALICE, BOB, amount)
    rows = await store.member_ledger(G, ALICE, limit=3)
    assert [r.delta for r in rows] == [-4, -3, -2]
    assert rows[0].created > rows[1].created


async def test_settings_refuse_negative_values(store: Store) -> None:
    with pytest.raises(StoreError):
        await store.update_guild_settings(G, starting_chips=-1)
    with pytest.raises(StoreError):
        await store.update_guild_settings(G, daily_cooldown=timedelta(seconds=-1))
    updated = await store.update_guild_settings(G, dealer_role_id=777)
    assert updated.dealer_role_id == 777 and updated.starting_chips == 1000
    assert (await store.update_guild_settings(G, dealer_role_id=None)).dealer_role_id is None


async def test_the_ledger_is_append_only_in_the_database(db_path, store: Store) -> None:
    from tests.postgres import RawDb

    await store.balance(G, ALICE)
    statements = ["UPDATE ledger SET delta = 5", "DELETE FROM ledger"]
    if RawDb(db_path).postgres:
        statements.append("TRUNCATE ledger")  # SQLite has no TRUNCATE; its DELETE fires the trigger
    for statement in statements:
        db = RawDb(db_path)
        with db, pytest.raises(db.IntegrityError, match="append-only"):
            db.execute(statement)


async def test_audit_is_green_after_ordinary_use(store: Store) -> None:
    await store.transfer(G, ALICE, BOB, 10)
    await store.grant(H, CAROL, 10, reason="welcome")
    report = await store.audit()
    assert report.ok, report.all_problems()
    assert [(g.guild_id, g.members, g.balances) for g in report.guilds] == [(G, 2, 2000), (H, 1, 1010)]
