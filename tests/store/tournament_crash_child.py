"""The child process of ``test_tournament_crash.py``: plays sit-and-go tournaments on a store until
it is killed (the same protocol as ``crash_child.py``: ``go SEED`` forks a worker, ``reap PID``
waits for one the parent killed).

A worker resumes the channel's tournament (voiding an unfinished hand, as the bot does at
start-up), or opens, fills and starts a new one, then plays: level changes, hands that move
tournament chips, eliminations, and the payout when one player is left. It writes ``begin KIND
KEY`` before each step and ``done KIND KEY`` after its commit returned: ``level T:N`` (level N of
tournament T), ``payout T``, ``hand T:H``.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys

GUILD = 1
CHANNEL = 78
MEMBERS = (1, 2, 3, 4)
STACK = 100


async def play(db: str, log_path: str, seed: int) -> None:
    from bot.store import Store

    fd = os.open(log_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    def note(*words: object) -> None:
        os.write(fd, (" ".join(str(w) for w in words) + "\n").encode())

    note("start", seed)
    rng = random.Random(seed)
    store = await Store.open(db)
    try:
        for hand in await store.list_unfinished_hands():
            await store.void_hand(hand.id, "crash test restart")
        note("ready")
        while True:
            record = await store.tournament_in_channel(CHANNEL)
            if record is None:
                record = await store.create_tournament(GUILD, CHANNEL, 1, buy_in=10, state={})
            for member in MEMBERS:
                if record.status == "registering" and member not in record.paid:
                    await store.enter_tournament(record.id, member, {}, key=f"join-{member}")
            if record.status == "registering":
                record = await store.start_tournament(
                    record.id, {}, stakes={}, settings={},
                    seats={m: (n, STACK) for n, m in enumerate(MEMBERS, start=1)},
                )
            tid, table = record.id, record.table_id
            assert table is not None
            seats = {s.member_id: s for s in await store.seats(table)}
            alive = [m for m, s in seats.items() if s.stack > 0]
            if len(alive) <= 1:
                note("begin", "payout", tid)
                payments = {m: 0 for m in record.paid}
                payments[alive[0]] = record.pool
                await store.end_tournament(tid, payments, {"winner": alive[0]})
                note("done", "payout", tid)
                continue
            if rng.random() < 0.3:
                level = record.level + 1
                note("begin", "level", f"{tid}:{level}")
                await store.save_tournament(tid, {"level": level}, level=level, level_started=None)
                note("done", "level", f"{tid}:{level}")
                continue
            players = rng.sample(alive, 2)
            by_seat = {seats[m].seat_no: m for m in players}
            hand = await store.create_hand(table, players=by_seat, deck="Ah Kd", commitment="c", salt="s")
            stacks = {n: seats[m].stack for n, m in by_seat.items()}
            loser, winner = rng.sample(sorted(stacks), 2)
            lost = min(stacks[loser], rng.choice([10, STACK * 4, STACK * 4]))
            stacks[loser] -= lost
            stacks[winner] += lost
            note("begin", "hand", f"{tid}:{hand}")
            await store.settle_hand(hand, stacks, "phh")
            note("done", "hand", f"{tid}:{hand}")
            busted = [by_seat[n] for n, s in stacks.items() if s == 0]
            if busted:
                await store.eliminate_tournament_players(tid, busted, {"out": busted})
    finally:
        await store.close()


def serve(db: str, log_path: str) -> None:
    import traceback

    import bot.store  # noqa: F401  # imported once, before any fork

    for line in sys.stdin:
        command, argument = line.split()
        if command == "go":
            pid = os.fork()
            if pid == 0:
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
