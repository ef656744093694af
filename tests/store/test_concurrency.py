"""Hundreds of concurrent transfers, buy-ins and settlements through one store: totals exact."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from pathlib import Path

from bot.store import Store

G = 100
MEMBERS = list(range(1, 21))
TABLES = 4
BUY_IN = 500
HANDS_PER_TABLE = 6


async def test_concurrent_movements_keep_totals_exact(store: Store, db_path: Path, totals) -> None:
    rng = random.Random(20260301)
    for member in MEMBERS:  # 1,000 starting chips + 10,000: no transfer below can be short
        await store.grant(G, member, 10_000, reason="bankroll")
    expected_balance = dict.fromkeys(MEMBERS, 11_000)
    expected_stack: Counter[int] = Counter()

    # 300 transfers, among them 40 keys sent three times at once (double clicks): each applies once.
    transfers = []
    for i in range(260):
        a, b = rng.sample(MEMBERS, 2)
        transfers.append((a, b, rng.randint(1, 30), f"t{i}", 1))
    for i in range(40):
        a, b = rng.sample(MEMBERS, 2)
        transfers.append((a, b, rng.randint(1, 30), f"dup{i}", 3))
    for a, b, amount, _, _ in transfers:
        expected_balance[a] -= amount
        expected_balance[b] += amount

    # Each table seats four members and plays hands; each settlement is sent twice at once.
    seating = [MEMBERS[4 * t : 4 * t + 4] for t in range(TABLES)]
    plans: list[list[dict[int, int]]] = []
    for players in seating:
        stacks = dict.fromkeys(players, BUY_IN)
        plan = []
        for _ in range(HANDS_PER_TABLE):
            winner = rng.choice(players)
            for p in players:
                if p != winner:
                    lost = min(stacks[p], rng.randint(0, 40))
                    stacks[p] -= lost
                    stacks[winner] += lost
            plan.append(dict(stacks))
        plans.append(plan)
        for p in players:
            expected_balance[p] -= BUY_IN
            expected_stack[p] = stacks[p]

    tables = [(await store.create_table(G, 7000 + t, 1)).id for t in range(TABLES)]

    async def play(table: int, players: list[int], plan: list[dict[int, int]]) -> None:
        await asyncio.gather(
            *(store.buy_in(G, table, p, BUY_IN, seat_no=i + 1) for i, p in enumerate(players))
        )
        seat_of = {p: i + 1 for i, p in enumerate(players)}
        for finals in plan:
            hand = await store.create_hand(
                table, players={s: p for p, s in seat_of.items()}, deck="Ah Kd", commitment="c", salt="s"
            )
            stored = await asyncio.gather(*(store.append_action(hand, 1, "p1 cc") for _ in range(2)))
            assert sorted(stored) == [False, True]  # the same action twice at once is stored once
            await store.append_action(hand, 2, "p2 f")
            results = await asyncio.gather(
                *(
                    store.settle_hand(hand, {seat_of[p]: v for p, v in finals.items()}, "phh")
                    for _ in range(2)
                )
            )
            assert sorted(r.applied for r in results) == [False, True]

    receipts = await asyncio.gather(
        *(
            store.transfer(G, a, b, amount, key=key)
            for a, b, amount, key, times in transfers
            for _ in range(times)
        ),
        *(play(table, players, plan) for table, players, plan in zip(tables, seating, plans, strict=True)),
    )
    applied = [r for r in receipts[: sum(t[4] for t in transfers)] if r is not None and r.applied]
    assert len(applied) == len(transfers) == 300

    for member in MEMBERS:
        assert await store.peek_balance(G, member) == expected_balance[member]
    stacks = {s.member_id: s.stack for t in tables for s in await store.seats(t)}
    assert stacks == dict(expected_stack)
    balances, in_play, ledger = totals(db_path)
    assert balances + in_play == ledger == 20 * 11_000  # no chip created or destroyed
    report = await store.audit()
    assert report.ok, report.all_problems()


async def test_cancelled_callers_leave_no_transaction_open(store: Store, db_path: Path, totals) -> None:
    """Callers cancelled at random moments (as Discord interactions time out) may or may not have
    moved their chips, but each movement is whole, the store keeps working, and nothing is lost."""
    rng = random.Random(7)
    for member in MEMBERS[:6]:
        await store.balance(G, member)
    table = (await store.create_table(G, 7100, 1)).id
    for round_ in range(8):
        tasks = [
            asyncio.create_task(store.transfer(G, *rng.sample(MEMBERS[:6], 2), rng.randint(1, 20)))
            for _ in range(20)
        ]
        tasks.append(asyncio.create_task(store.buy_in(G, table, MEMBERS[round_ % 6], 10)))
        tasks.append(asyncio.create_task(store.cash_out(G, table, MEMBERS[(round_ + 3) % 6])))
        for _ in range(rng.randint(0, 30)):
            await asyncio.sleep(0)
        for task in tasks:
            if rng.random() < 0.5:
                task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    # The lock is free and no transaction was left open: a plain write still works.
    assert (await store.grant(G, MEMBERS[0], 1, reason="still alive")).applied
    balances, in_play, ledger = totals(db_path)
    assert balances + in_play == ledger == 6 * 1000 + 1
    report = await store.audit()
    assert report.ok, report.all_problems()
