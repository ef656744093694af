"""What a hand replay costs the bot per click (issue 24): every click on Back / Next / Street (and
opening it) reads the hand and its table from the store, replays the whole hand through the engine
and draws the step's pictures, because nothing is kept between clicks (the buttons survive a
restart). Discord wants the click answered within 3 seconds.

Run by hand (not part of the tests)::

    .venv/bin/python benchmarks/bench_replay.py                # 4 and 8 players, every game
    .venv/bin/python benchmarks/bench_replay.py --rounds 5

Reported per game and table size: the hand's steps, the time to read and rebuild the replay
(``stored_replay``), and to lay out one step with its pictures (``replay_layout``, the table picture
and the member's hand picture as PNG): mean and slowest over every step.
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.discord.ui.replay import replay_layout
from bot.store import Store
from bot.tables.games import dealable_games
from bot.tables.replays import stored_replay
from tests.tables.helpers import Harness
from tests.tables.test_secrecy import SHORT


async def one(game: str, players: int, rounds: int) -> str:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "ws.sqlite3"
        async with await Store.open(path) as store:
            h = Harness(store, path, rng=random.Random(1))
            names = [f"P{i}" for i in range(players)]
            await h.table(*((n, 1000) for n in names), stakes=SHORT)
            await h.service.set_game(h.key, h.members["P0"], game)
            hand_id = await h.service.deal(h.key, h.members["P0"])
            assert hand_id is not None
            await h.passive()                          # everyone to the showdown: the longest hands
            member = h.members["P0"]
            builds: list[float] = []
            layouts: list[float] = []
            steps = 0
            for _ in range(rounds):
                start = time.perf_counter()
                replay = await stored_replay(store, await store.get_hand(hand_id), member)
                builds.append(time.perf_counter() - start)
                steps = len(replay.steps)
                for step in range(steps):
                    start = time.perf_counter()
                    replay_layout(replay, step)
                    layouts.append(time.perf_counter() - start)
            return (f"{game:24} {players} players {steps:3} steps"
                    f"  rebuild {statistics.mean(builds) * 1000:6.1f} ms"
                    f"  step {statistics.mean(layouts) * 1000:6.1f} ms (slowest {max(layouts) * 1000:6.1f})")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}")
    for players in (4, 8):
        for game in dealable_games():
            print(await one(game, players, args.rounds), flush=True)


if __name__ == "__main__":
    asyncio.run(main())
