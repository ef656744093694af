"""A tournament's extra cost per action: the same hands at a cash table and at a sit-and-go table.

Run by hand (not part of the tests)::

    .venv/bin/python benchmarks/bench_tournament.py              # 6 players, 60 hands, 3 runs
    .venv/bin/python benchmarks/bench_tournament.py --players 8 --hands 100 --runs 5

Each run plays ``--hands`` hands through the table service (a fresh in-memory SQLite store, the
recording presenter, a fake clock, seeded decks) twice: at a cash table (stakes 20/40) and at a
tournament's table (the ``turbo`` schedule with levels of 5 hands, stacks deep enough that nobody
busts, so both play the same number of hands). Every player checks, calls or brings in (the same
cheap policy at both tables, so the figures compare the tables, not the players). Reported per
action, median of the runs: the time, the store transactions and the updates handed to the front
end (each update is at most one Discord message edit; the level clock must add none: Discord
draws its ``<t:UNIX:R>`` countdown itself).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.store import Store
from bot.tables.clock import FakeClock
from bot.tables.notices import Actor, TableKey, Update
from bot.tables.options import TableOptions
from bot.tables.recording import RecordingPresenter
from bot.tables.service import TableService
from bot.tournament.model import GamePlan, Options
from bot.tournament.structure import LevelLength, Structure

KEY = TableKey(1, 1)
OPTIONS = TableOptions(turn_timeout=None, reminder_after=None)


class Counting(RecordingPresenter):
    """Counts the updates the service hands the front end."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    async def update(self, table: TableKey, update: Update) -> None:
        self.count += 1
        await super().update(table, update)


async def play(tournament: bool, players: int, hands: int, seed: int) -> dict[str, float]:
    store = await Store.open(":memory:")
    transactions = 0
    original = store._backend.transaction

    def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal transactions
        transactions += 1
        return original(*args, **kwargs)

    store._backend.transaction = counted  # type: ignore[method-assign]
    presenter = Counting()
    clock = FakeClock()
    service = TableService(store, presenter, clock=clock, rng=random.Random(seed),
                           default_options=OPTIONS, wall=lambda: 1_800_000_000.0 + clock.now())
    service.tournaments.auto_deal_after = None
    members = list(range(101, 101 + players))
    if tournament:
        options = Options(plan=GamePlan(("seven-card-stud",)),
                          structure=Structure.preset("turbo", LevelLength("hands", 5)),
                          buy_in=10, starting_stack=1_000_000, seats=players)
        await service.tournaments.create(KEY, Actor(members[0]), options)
        for member in members:
            await service.tournaments.join(KEY, Actor(member, f"P{member}"), f"j{member}")
    else:
        await service.create_table(KEY, members[0])
        for member in members:
            await store.grant(1, member, 10**9, reason="bench")
            await service.join(KEY, member, f"P{member}", buy_in=4000)
    actions = 0
    before_tx, before_updates = transactions, presenter.count
    started = time.perf_counter()
    for _ in range(hands):
        await service.deal(KEY)
        while (prompt := service.current_prompt(KEY)) is not None:
            names = [o.action for o in prompt.options]
            action = next(a for a in ("check", "bring_in", "call", "show") if a in names)
            await service.act(KEY, prompt.member, prompt.hand_id, prompt.turn, action)
            actions += 1
    elapsed = time.perf_counter() - started
    result = {
        "actions": actions,
        "us_per_action": 1e6 * elapsed / actions,
        "tx_per_action": (transactions - before_tx) / actions,
        "updates_per_action": (presenter.count - before_updates) / actions,
        "tx_per_hand": (transactions - before_tx) / hands,
    }
    await service.close()
    await store.close()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--hands", type=int, default=60)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    rows: dict[str, list[dict[str, float]]] = {"cash": [], "tournament": []}
    for run in range(args.runs):
        for name in rows:
            rows[name].append(asyncio.run(play(name == "tournament", args.players, args.hands, run + 1)))
    print(f"{args.players} players, {args.hands} hands, median of {args.runs} runs")
    print(f"{'table':<11} {'actions':>8} {'µs/action':>10} {'tx/action':>10} {'tx/hand':>8}"
          f" {'updates/action':>15}")
    for name, runs in rows.items():
        def med(field: str, runs: list[dict[str, float]] = runs) -> float:
            return statistics.median(r[field] for r in runs)
        print(f"{name:<11} {med('actions'):>8.0f} {med('us_per_action'):>10.0f} {med('tx_per_action'):>10.2f}"
              f" {med('tx_per_hand'):>8.1f} {med('updates_per_action'):>15.2f}")


if __name__ == "__main__":
    main()
