"""Table leases: one owner at a time, taken over only after lapsing, released at once on request."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

import pytest

from bot.store import StaleLease, Store, StoreError
from tests.postgres import RawDb

G, ALICE, BOB = 100, 11, 12
TTL = timedelta(seconds=30)


async def test_a_live_lease_is_never_taken_and_a_lapsed_one_is(store: Store, clock) -> None:
    table = (await store.create_table(G, 9000, ALICE)).id
    assert await store.claim_table(table, "process-a", TTL)
    assert await store.claim_table(table, "process-a", TTL)  # the owner renews by claiming again
    clock.advance(seconds=29)
    assert not await store.claim_table(table, "process-b", TTL)
    owner, expires = await store.table_lease(table) or ("", None)
    assert owner == "process-a" and expires == clock.now + timedelta(seconds=1)
    assert await store.renew_leases("process-a", [table], TTL) == {table}
    clock.advance(seconds=29)
    assert not await store.claim_table(table, "process-b", TTL)  # renewed: still live
    clock.advance(seconds=1)
    assert await store.claim_table(table, "process-b", TTL)  # lapsed exactly now: taken over
    assert await store.renew_leases("process-a", [table], TTL) == set()  # a's renewal finds it gone
    assert not await store.claim_table(table, "process-a", TTL)
    assert (await store.table_lease(table) or ("",))[0] == "process-b"


async def test_released_leases_can_be_taken_at_once(store: Store) -> None:
    tables = [(await store.create_table(G, 9000 + i, ALICE)).id for i in range(3)]
    for table in tables:
        assert await store.claim_table(table, "old", TTL)
    assert await store.release_leases("old", tables[:1]) == 1
    assert await store.claim_table(tables[0], "new", TTL)
    assert not await store.claim_table(tables[1], "new", TTL)
    assert await store.release_leases("old") == 2
    assert all([await store.claim_table(t, "new", TTL) for t in tables[1:]])


async def test_bad_lease_requests_are_refused(store: Store) -> None:
    table = (await store.create_table(G, 9000, ALICE)).id
    with pytest.raises(StoreError):
        await store.claim_table(table + 1, "a", TTL)
    with pytest.raises(StoreError):
        await store.claim_table(table, "", TTL)
    with pytest.raises(StoreError):
        await store.claim_table(table, "a", timedelta(0))
    assert await store.table_lease(table) is None


async def test_two_processes_claiming_at_once_get_one_owner(db_path: Path | str, clock) -> None:
    """Two stores (two connections, as two processes have) race for twenty tables many times."""
    async with await Store.open(db_path, clock=clock) as one, await Store.open(db_path, clock=clock) as two:
        tables = [(await one.create_table(G, 9000 + i, ALICE)).id for i in range(20)]
        for _ in range(3):
            results = await asyncio.gather(
                *(s.claim_table(t, name, TTL) for t in tables for s, name in ((one, "one"), (two, "two")))
            )
            pairs = list(zip(results[::2], results[1::2], strict=True))
            owners = {t: (await one.table_lease(t) or ("",))[0] for t in tables}
            for table, (won_one, won_two) in zip(tables, pairs, strict=True):
                assert won_one != won_two  # exactly one of them
                assert owners[table] == ("one" if won_one else "two")
            clock.advance(seconds=31)  # everything lapses: the next round races afresh
    with RawDb(db_path) as db:
        assert db.execute("SELECT COUNT(*) FROM table_leases")[0][0] == 20


async def test_a_stale_lease_holder_cannot_write_into_a_hand(store: Store, clock) -> None:
    """Fencing (issue 18): every hand write carries the lease generation its writer holds; once
    another process has taken the table over, the old holder's writes are refused whole."""
    table = (await store.create_table(G, 9000, ALICE)).id
    for member in (ALICE, BOB):
        await store.buy_in(G, table, member, 100)
    old = await store.take_table(table, "old", TTL)
    assert old == 1 and await store.take_table(table, "old", TTL) == 1          # a renewal keeps it
    hand = await store.create_hand(table, players={1: ALICE, 2: BOB}, deck=["As", "Kd"], commitment="c",
                                   salt="s", actions=["seats 1 2"], lease=old)
    assert await store.append_action(hand, 2, "p1 pb", lease=old)
    clock.advance(seconds=31)                                      # the old holder stalls past its lease
    new = await store.take_table(table, "new", TTL)
    assert new == 2
    with pytest.raises(StaleLease):
        await store.append_action(hand, 3, "p2 cc", lease=old)
    with pytest.raises(StaleLease):
        await store.settle_hand(hand, {1: 100, 2: 100}, "phh", lease=old)
    with pytest.raises(StaleLease):
        await store.void_hand(hand, "mine", lease=old)
    assert (await store.get_hand(hand)).actions == ("seats 1 2", "p1 pb")
    assert await store.append_action(hand, 3, "p2 f", lease=new)
    await store.void_hand(hand, "test over", lease=new)
    with pytest.raises(StaleLease):                               # nor may it deal a new hand
        await store.create_hand(table, players={1: ALICE, 2: BOB}, deck=["As"], commitment="c", salt="s",
                                lease=old)
    assert await store.release_leases("new") == 1
    assert await store.take_table(table, "old", TTL) == 3          # a released lease keeps counting
