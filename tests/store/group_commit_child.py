"""The child process of ``test_group_commit_crash.py``: many tables play at once on one store, so
their hot writes (deals, actions, settlements) share group commits (SQLite) or batched statements
(PostgreSQL: deals and actions), until it is killed.

Usage: ``python group_commit_child.py DB LOG SEED``. Every write is logged ``done KIND KEY`` only
after the store call returned (after its batch committed), with ``os.write`` on an ``O_APPEND``
descriptor, so a SIGKILL loses no line that was written. Kinds and keys: ``create HAND``,
``action HAND:SEQ:TEXT``, ``settle HAND``, ``void HAND``; ``batch N`` after each settlement is
the largest batch so far (proof that the writes were grouped).
"""

from __future__ import annotations

import asyncio
import os
import random
import sys

GUILD = 1
TABLES = 16


async def play(db: str, log_path: str, seed: int) -> None:
    from bot.store import Store
    from bot.store.backend import PostgresBackend, SqliteBackend

    fd = os.open(log_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    def note(*words: object) -> None:
        os.write(fd, (" ".join(str(w) for w in words) + "\n").encode())

    store = await Store.open(db)
    try:
        for hand in await store.list_unfinished_hands():  # start-up recovery, as the bot does
            await store.void_hand(hand.id, "crash test restart")
            note("done", "void", hand.id)
        tables = []
        for n in range(TABLES):
            table = await store.table_in_channel(500 + n)
            if table is None:
                stakes = {"min_buy_in": 20, "max_buy_in": 400}
                table = await store.create_table(GUILD, 500 + n, 1, stakes=stakes)
                await store.buy_in(GUILD, table.id, 1000 + 2 * n, 400)
                await store.buy_in(GUILD, table.id, 1001 + 2 * n, 400)
            tables.append(table.id)
        note("ready")
        rng = random.Random(seed)

        async def table_loop(table_id: int) -> None:
            while True:
                seats = {s.seat_no: s for s in await store.seats(table_id)}
                hand = await store.create_hand(
                    table_id, players={no: s.member_id for no, s in seats.items()}, deck="Ah Kd 5c 9s",
                    commitment="c", salt="s", actions=["seats 1 2"],
                )
                note("done", "create", hand)
                for seq in range(2, rng.randint(2, 6) + 1):
                    text = f"p{seq % 2 + 1}-cc-{rng.randrange(10**6)}"
                    await store.append_action(hand, seq, text)
                    note("done", "action", f"{hand}:{seq}:{text}")
                stacks = {no: s.stack for no, s in seats.items()}
                moved = min(stacks[1], rng.randint(0, 30))
                stacks[1] -= moved
                stacks[2] += moved
                await store.settle_hand(hand, stacks, "phh")
                note("done", "settle", hand)
                backend = store._backend
                if isinstance(backend, SqliteBackend):
                    note("batch", backend.group.largest)
                elif isinstance(backend, PostgresBackend):  # its batched statements
                    note("batch", max(backend.appends.largest, backend.deals.largest))

        await asyncio.gather(*(table_loop(t) for t in tables))
    finally:
        await store.close()


if __name__ == "__main__":
    asyncio.run(play(sys.argv[1], sys.argv[2], int(sys.argv[3])))
