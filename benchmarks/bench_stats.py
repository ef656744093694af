"""Stats on a big guild: ``/stats``, ``/stats table`` and ``/chips leaderboard period:`` against
100,000 settled hands, SQLite and PostgreSQL side by side.

Run by hand (not part of the tests)::

    .venv/bin/python benchmarks/bench_stats.py                      # 100,000 hands, both backends
    .venv/bin/python benchmarks/bench_stats.py --hands 20000 --backends sqlite
    .venv/bin/python benchmarks/bench_stats.py --without-indexes    # the same, migration 9's indexes dropped
    .venv/bin/python benchmarks/bench_stats.py --postgres postgresql://bot:pw@db/bench

The guild is filled straight through the database driver (the store's own API would take an hour
for 100,000 hands): 20 tables, 40 members, 3 to 6 players a hand over a year, one stat line per
player (``hand_stats``, about 450,000 rows) with random but consistent figures (each hand's nets sum
to zero). Then each command's store reads, as the cogs make them, are timed ``--runs`` times for
random members: ``/stats player`` (the seasons, the member's totals per game, the chart's series,
and the season line: the member's season totals), ``/stats player period:day`` (hourly series),
``/stats table``, ``/chips leaderboard period:month`` and ``/season standings`` (half a year).
Reported: p50 / p95 / max wall-clock milliseconds per command, and the median CPU time of this
process (SQLite runs in it; a PostgreSQL query's own work runs in the server), which a busy shared
machine does not inflate. Target (issue 24): ``/stats`` under 50 ms on both.
PostgreSQL: ``--postgres URL`` (an empty database), else a throwaway server (initdb/pg_ctl).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_load import start_postgres
from bot.store import Store
from bot.store.base import format_time

GUILD = 4242
TABLES = 20
MEMBERS = 40
TARGET_MS = 50.0
GAMES = ("sex-in-the-middle-east", "seven-card-stud", "follow-the-queen", "baseball")
INDEXES = ("hand_stats_by_member", "hand_stats_by_time", "hand_stats_by_table", "member_days_by_day")


def rows(
    hands: int, seed: int = 1
) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """(hands, hand_players, hand_stats) rows of a year of play."""
    rng = random.Random(seed)
    start = datetime(2025, 12, 1, tzinfo=UTC)
    step = timedelta(days=365) / hands
    hand_rows, player_rows, stat_rows = [], [], []
    numbers = dict.fromkeys(range(1, TABLES + 1), 0)
    for hand_id in range(1, hands + 1):
        table = rng.randint(1, TABLES)
        numbers[table] += 1
        ended = format_time(start + step * hand_id)
        game = rng.choice(GAMES)
        hand_rows.append(
            (
                hand_id,
                table,
                numbers[table],
                "Ah Kd",
                "ab" * 32,
                "cd" * 16,
                "{}",
                "{}",
                "finished",
                "phh",
                ended,
                ended,
                game,
            )
        )
        members = rng.sample(range(1, MEMBERS + 1), rng.randint(3, 6))
        pot = rng.randint(10, 2000)
        winner = rng.choice(members)
        shares = {m: rng.randint(0, pot // len(members)) for m in members if m != winner}
        shares[winner] = pot - sum(shares.values())
        for seat, member in enumerate(members, 1):
            collected = pot if member == winner else 0
            net = collected - shares[member]
            player_rows.append((hand_id, seat, member, 1000, 1000 + net))
            showdown = int(rng.random() < 0.3)
            stat_rows.append(
                (
                    hand_id,
                    member,
                    GUILD,
                    table,
                    game,
                    ended,
                    net,
                    collected,
                    pot,
                    showdown,
                    int(rng.random() < 0.4),
                    rng.randint(0, 3),
                    rng.randint(0, 3),
                )
            )
    return hand_rows, player_rows, stat_rows


async def fill(store: Store, hands: int) -> None:
    """Write the guild through the store's own transaction (raw SQL, many rows per statement)."""
    hand_rows, player_rows, stat_rows = rows(hands)
    async with store._transaction() as tx:
        for table in range(1, TABLES + 1):
            await tx.run(
                "INSERT INTO tables (id, guild_id, channel_id, dealer_id, created) VALUES (?, ?, ?, ?, ?)",
                (table, GUILD, 9000 + table, 1, format_time(datetime(2025, 12, 1, tzinfo=UTC))),
            )
        for sql, batch in (
            (
                "INSERT INTO hands (id, table_id, hand_no, deck, commitment, salt, stakes, rulings,"
                " status, phh, started, ended, game) VALUES ",
                hand_rows,
            ),
            (
                "INSERT INTO hand_players (hand_id, seat_no, member_id, starting_stack, final_stack) VALUES ",
                player_rows,
            ),
            (
                "INSERT INTO hand_stats (hand_id, member_id, guild_id, table_id, game, ended, net,"
                " collected, pot, showdown, vpip, bets, calls) VALUES ",
                stat_rows,
            ),
        ):
            width = len(batch[0])
            per = max(1, 30000 // width)
            one = "(" + ", ".join("?" * width) + ")"
            for i in range(0, len(batch), per):
                chunk = batch[i : i + per]
                await tx.run(sql + ", ".join([one] * len(chunk)), [v for row in chunk for v in row])
        # The daily totals, as their migration fills them from the lines already kept.
        await tx.run(
            "INSERT INTO member_days (guild_id, member_id, day, game, hands, won, showdowns, showdowns_won,"
            " net, biggest, vpip, bets, calls)"
            " SELECT guild_id, member_id, SUBSTR(ended, 1, 10), game, COUNT(*),"
            " SUM(CASE WHEN collected > 0 THEN 1 ELSE 0 END), SUM(showdown),"
            " SUM(CASE WHEN showdown = 1 AND collected > 0 THEN 1 ELSE 0 END), SUM(net), MAX(collected),"
            " SUM(vpip), SUM(bets), SUM(calls)"
            " FROM hand_stats GROUP BY guild_id, member_id, SUBSTR(ended, 1, 10), game"
        )


async def stats_player(store: Store, member: int, hourly: bool = False) -> None:
    """The store reads of ``/stats player`` (all time, or the last day with an hourly chart)."""
    now = datetime(2026, 12, 1, tzinfo=UTC)
    since = now - timedelta(days=1) if hourly else None
    seasons = await store.seasons(GUILD)
    await store.member_stats(GUILD, member, since=since)
    await store.net_series(GUILD, member, since=since, hourly=hourly)
    season = seasons[0]
    await store.member_stats(GUILD, member, since=season.started, until=season.ended)


async def season_standings(store: Store) -> None:
    """The store read of ``/season standings`` (the season's net chips per member)."""
    season = (await store.seasons(GUILD))[0]
    await store.net_leaderboard(GUILD, since=season.started, until=season.ended, limit=30)


async def timed(label: str, runs: int, work: Callable[[int], Awaitable[None]]) -> dict[str, float]:
    rng = random.Random(5)
    times, cpu = [], []
    for _ in range(runs):
        started, started_cpu = time.perf_counter(), time.process_time()
        await work(rng.randint(1, MEMBERS))
        times.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
    times.sort()
    figures = {
        "p50": statistics.median(times),
        "p95": times[int(len(times) * 0.95) - 1],
        "max": times[-1],
        "cpu": statistics.median(cpu),
    }
    print(
        f"  {label:<34} p50 {figures['p50']:6.1f} ms   p95 {figures['p95']:6.1f} ms"
        f"   max {figures['max']:6.1f} ms   (CPU of this process, p50 {figures['cpu']:6.1f} ms)"
    )
    return figures


async def bench(target: str | Path, hands: int, runs: int, without_indexes: bool) -> float:
    async with await Store.open(target) as store:
        started = time.perf_counter()
        await fill(store, hands)
        async with store._transaction() as tx:
            season_start = format_time(datetime(2026, 6, 1, tzinfo=UTC))
            await tx.run(
                "INSERT INTO seasons (guild_id, name, started, started_by) VALUES (?, ?, ?, ?)",
                (GUILD, "Summer", season_start, 1),
            )
            if without_indexes:
                for index in INDEXES:
                    await tx.run(f"DROP INDEX {index}")
        if store.backend == "postgresql":
            async with store._transaction() as tx:
                await tx.run("ANALYZE")
        count = await store.member_stats(GUILD, 1)
        lines = sum(t.hands for _, t in await store.guild_stats(GUILD))
        print(
            f"{store.backend}: {hands:,} hands, {lines:,} stat lines, filled in"
            f" {time.perf_counter() - started:.1f} s{' (indexes dropped)' if without_indexes else ''}"
        )
        assert count, "member 1 played no hand"
        player = await timed("/stats player (all time)", runs, lambda m: stats_player(store, m))
        await timed("/stats player period:day", runs, lambda m: stats_player(store, m, hourly=True))
        await timed("/stats table", runs, lambda m: _table(store, m))
        await timed("/season standings", runs, lambda m: season_standings(store))
        month = datetime(2026, 11, 1, tzinfo=UTC)
        await timed("/chips leaderboard period:month", runs, lambda m: _board(store, month))
        return player["p50"]


async def _table(store: Store, member: int) -> None:
    await store.table_night(1 + member % TABLES)


async def _board(store: Store, since: datetime) -> None:
    await store.net_leaderboard(GUILD, since=since, limit=30)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument("--postgres", metavar="URL", help="an empty PostgreSQL database to use")
    parser.add_argument(
        "--without-indexes", action="store_true", help="drop the stat lines' and daily totals' indexes"
    )
    args = parser.parse_args()
    verdicts = []
    for backend in args.backends.split(","):
        with tempfile.TemporaryDirectory() as folder:
            stop: list[str] = []
            if backend == "sqlite":
                target: str | Path = Path(folder) / "bench.sqlite3"
            elif args.postgres:
                target = args.postgres
            else:
                target, stop = start_postgres(Path(folder))
            try:
                p50 = asyncio.run(bench(target, args.hands, args.runs, args.without_indexes))
            finally:
                if stop:
                    import subprocess

                    subprocess.run(stop, check=False, capture_output=True)
            verdicts.append(
                f"{backend}: /stats p50 {p50:.1f} ms ({'under' if p50 < TARGET_MS else 'OVER'}"
                f" the {TARGET_MS:.0f} ms target)"
            )
    print("\n".join(verdicts))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
