"""The child process of ``test_crash.py``: plays chip movements on a store until it is killed.

Usage: ``python crash_child.py DB LOG``. It imports the store once, then serves commands on stdin:
``go SEED`` forks a worker process that plays on DB (and prints the worker's pid), ``reap PID``
waits for a worker the parent has killed (and prints ``reaped``). Forking from an importer that
holds no connection and runs no thread makes each worker start in a millisecond, so the test can
afford many kills; each worker is a separate process with its own connection, killed by SIGKILL.

Every operation writes ``begin KIND KEY`` to LOG before it starts and ``done KIND KEY`` (or
``refused KIND KEY``) only after the store call has returned, i.e. after its transaction
committed. Lines go out with ``os.write`` on an ``O_APPEND`` descriptor, so a SIGKILL loses none
that were written. ``KEY`` is the ledger's ``op_key`` (for actions: ``HAND:SEQ``).
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
from collections.abc import Awaitable
from typing import TypeVar

T = TypeVar("T")

GUILD = 1
CHANNEL = 77
MEMBERS = list(range(1, 7))


async def play(db: str, log_path: str, seed: int) -> None:
    from bot.store import Store, StoreError

    fd = os.open(log_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    def note(*words: object) -> None:
        os.write(fd, (" ".join(str(w) for w in words) + "\n").encode())

    note("start", seed)
    store = await Store.open(db)
    try:
        # Start-up recovery, as the bot does: hands that cannot be resumed are voided.
        for hand in await store.list_unfinished_hands():
            note("begin", "void", f"void:{hand.id}")
            await store.void_hand(hand.id, "crash test restart")
            note("done", "void", f"void:{hand.id}")
        table = await store.table_in_channel(CHANNEL)
        if table is None:
            table = await store.create_table(GUILD, CHANNEL, 1, stakes={"min_buy_in": 20, "max_buy_in": 400})
        note("ready")
        rng = random.Random(seed)

        async def step(kind: str, key: str, call: Awaitable[T]) -> T | None:
            note("begin", kind, key)
            try:
                result = await call
            except StoreError:
                note("refused", kind, key)
                return None
            note("done", kind, result if kind == "create" else key)
            return result

        count = 0
        while True:
            count += 1
            key = f"{seed}-{count}"
            seated = {s.member_id: s for s in await store.seats(table.id)}
            kind = rng.choice(
                ["transfer", "transfer", "transfer", "grant", "buy_in", "cash_out", "hand", "hand"]
            )
            if kind == "transfer":
                a, b = rng.sample(MEMBERS, 2)
                await step(
                    "transfer", f"transfer:{key}", store.transfer(GUILD, a, b, rng.randint(1, 80), key=key)
                )
            elif kind == "grant":
                member = rng.choice(MEMBERS)
                await step("grant", f"grant:{key}", store.grant(GUILD, member, 150, reason="house", key=key))
            elif kind == "buy_in":
                free = [m for m in MEMBERS if m not in seated]
                if free:
                    member, amount = rng.choice(free), rng.randint(20, 300)
                    await step(
                        "buy_in", f"buy_in:{key}", store.buy_in(GUILD, table.id, member, amount, key=key)
                    )
            elif kind == "cash_out":
                if seated:
                    member = rng.choice(sorted(seated))
                    await step(
                        "cash_out", f"cash_out:{key}", store.cash_out(GUILD, table.id, member, key=key)
                    )
            elif len(seated) >= 2:
                players = {s.seat_no: s.member_id for s in seated.values()}
                hand = await step(
                    "create",
                    "-",
                    store.create_hand(
                        table.id, players=players, deck="Ah Kd 5c 9s", commitment="c", salt="s"
                    ),
                )
                assert hand is not None
                for seq in range(1, rng.randint(1, 4) + 1):
                    await step("action", f"{hand}:{seq}", store.append_action(hand, seq, f"p{seq} cc"))
                stacks = {s.seat_no: s.stack for s in seated.values()}
                winner = rng.choice(sorted(stacks))
                for seat in stacks:
                    if seat != winner:
                        lost = min(stacks[seat], rng.randint(0, 60))
                        stacks[seat] -= lost
                        stacks[winner] += lost
                await step("settle", f"hand:{hand}", store.settle_hand(hand, stacks, "phh"))
    finally:
        await store.close()


def serve(db: str, log_path: str) -> None:
    """Fork a worker per ``go SEED`` line; reap killed workers on ``reap PID``."""
    import traceback

    import bot.store  # noqa: F401  # imported once, before any fork

    for line in sys.stdin:
        command, argument = line.split()
        if command == "go":
            pid = os.fork()
            if pid == 0:  # the worker
                try:
                    asyncio.run(play(db, log_path, int(argument)))
                except BaseException:
                    with open(log_path, "a") as log:
                        log.write("error " + traceback.format_exc().replace("\n", " | ") + "\n")
                finally:
                    os._exit(1)
            print(pid, flush=True)
        elif command == "reap":
            os.waitpid(int(argument), 0)
            print("reaped", flush=True)


if __name__ == "__main__":
    serve(sys.argv[1], sys.argv[2])
