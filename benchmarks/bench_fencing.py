"""The store's costs added by issue 18, measured on PostgreSQL: lease fencing on every hand write,
and transfers between two members locking both balances in a fixed order.

Run by hand (not part of the tests)::

    .venv/bin/python benchmarks/bench_fencing.py                    # a throwaway server
    .venv/bin/python benchmarks/bench_fencing.py --postgres postgresql://bot:pw@db/bench --appends 4000

1. ``append_action`` latency at ``--hands`` tables at once, without a lease (one process, as
   without shards) and with one (every append locks and reads the table's lease row in its
   transaction): p50 and p99 in milliseconds.
2. Opposite transfers between the same two members, ``--concurrency`` at a time in each direction
   from two connections pools (as two processes): completed, failed, and per-transfer latency.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_load import percentile, start_postgres
from bot.store import Store

GUILD = 1


async def appends(url: str, hands: int, count: int, leased: bool) -> list[float]:
    async with await Store.open(url) as store:
        for member in (1, 2):
            await store.grant(GUILD, member, 1_000_000, reason="bench")
        ids: list[tuple[int, int | None]] = []
        for i in range(hands):
            table = await store.create_table(GUILD, 10_000 + i + (hands if leased else 0), 1)
            await store.buy_in(GUILD, table.id, 1, 100)
            await store.buy_in(GUILD, table.id, 2, 100)
            lease = await store.take_table(table.id, "bench", timedelta(minutes=5)) if leased else None
            hand = await store.create_hand(table.id, players={1: 1, 2: 2}, deck=["As"], commitment="c",
                                           salt="s", actions=["seats 1 2"], lease=lease)
            ids.append((hand, lease))
        times: list[float] = []

        async def one(hand: int, lease: int | None) -> None:
            for seq in range(2, count // hands + 2):
                start = time.perf_counter()
                await store.append_action(hand, seq, f"p1 cc {seq}", lease=lease)
                times.append((time.perf_counter() - start) * 1000)

        await asyncio.gather(*(one(h, lease) for h, lease in ids))
        return times


async def transfers(url: str, count: int, concurrency: int) -> tuple[int, int, list[float]]:
    async with await Store.open(url) as one, await Store.open(url) as two:
        for member in (11, 12):
            await one.grant(GUILD, member, 100_000, reason="bench")
        done, failed, times = 0, 0, []
        gate = asyncio.Semaphore(2 * concurrency)

        async def give(store: Store, sender: int, recipient: int, n: int) -> None:
            nonlocal done, failed
            async with gate:
                start = time.perf_counter()
                try:
                    await store.transfer(GUILD, sender, recipient, 1, key=f"{sender}-{n}")
                    done += 1
                except Exception:
                    failed += 1
                times.append((time.perf_counter() - start) * 1000)

        await asyncio.gather(*(give(one, 11, 12, n) for n in range(count)),
                             *(give(two, 12, 11, n) for n in range(count)))
        return done, failed, times


def line(name: str, times: list[float]) -> str:
    return (f"{name}: {len(times)} calls, p50 {statistics.median(times):.2f} ms,"
            f" p99 {percentile(times, 0.99):.2f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--postgres", help="an empty database the benchmark may fill")
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--appends", type=int, default=2000)
    parser.add_argument("--transfers", type=int, default=300, help="in each direction")
    parser.add_argument("--concurrency", type=int, default=8)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="wildstud-fencing-"))
    stop: list[str] = []
    try:
        url = args.postgres
        if url is None:
            url, stop = start_postgres(folder)
        plain = asyncio.run(appends(url, args.hands, args.appends, leased=False))
        fenced = asyncio.run(appends(url, args.hands, args.appends, leased=True))
        print(line("append, no lease", plain))
        print(line("append, fenced by a lease", fenced))
        done, failed, times = asyncio.run(transfers(url, args.transfers, args.concurrency))
        print(line(f"opposite transfers ({done} done, {failed} failed)", times))
    finally:
        if stop:
            subprocess.run(stop, check=False, capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
