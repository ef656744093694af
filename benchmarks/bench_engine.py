"""Speed of the stud engine: complete hands per second, single process, median of several runs.

Run by hand (not part of the tests)::

    .venv/bin/python benchmarks/bench_engine.py                 # 8 players, 2,000 hands, 5 runs
    .venv/bin/python benchmarks/bench_engine.py --players 4 --hands 5000 --runs 7 --json out.json

Each run plays ``--hands`` complete hands with ``bot.engine.simulate`` (a fresh ``StudHand`` per
hand, dealt from a deck shuffled by a seeded ``random.Random``, played to the end by the seeded
random player, showdown included), fixed limit 20/40 with default rulings, and times only the play
(not the statistics). Each run uses a different seed so the figure is not one lucky deal
sequence. Reported: every run's hands/s, the median, and the mean number of actions per hand (the
random player's style drives it; more raises mean more actions). Also, with ``--replay``, the speed
of replaying each hand from its exported PHH text.

Target (issue 3): at least 1,000 complete 8-player hands per second on one core.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine.hand.hand import StudHand
from bot.engine.phh.export import export_phh
from bot.engine.replay.replayer import replay_text
from bot.engine.simulate import simulate

TARGET = 1000.0


def one_run(players: int, hands: int, seed: int) -> dict[str, float]:
    stats = simulate(players=players, hands=hands, seed=seed)
    return {"hands_per_second": stats.hands_per_second, "mean_actions": stats.actions / max(1, hands)}


def replay_run(players: int, hands: int, seed: int) -> float:
    played: list[StudHand] = []
    simulate(players=players, hands=hands, seed=seed, on_hand=played.append)
    texts = [export_phh(h) for h in played]
    start = time.perf_counter()
    for text in texts:
        report = replay_text(text)
        assert report.ok, report.error
    return len(texts) / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--replay", action="store_true", help="also time replaying exported PHH text")
    parser.add_argument("--json", metavar="PATH", help="write the figures as JSON")
    args = parser.parse_args(argv)

    simulate(players=args.players, hands=min(200, args.hands), seed=args.seed - 1)  # warm caches
    runs = [one_run(args.players, args.hands, args.seed + i) for i in range(args.runs)]
    rates = [r["hands_per_second"] for r in runs]
    median = statistics.median(rates)
    print(f"engine: {args.players} players, {args.hands} hands x {args.runs} runs "
          f"(python {platform.python_version()}, {platform.machine()})")
    for i, r in enumerate(runs):
        print(f"  run {i + 1}: {r['hands_per_second']:8.0f} hands/s  ({r['mean_actions']:.1f} actions/hand)")
    verdict = "meets" if median >= TARGET else "below"
    print(f"median: {median:.0f} complete hands/s ({verdict} the {TARGET:.0f}/s target)")
    out: dict[str, Any] = {"players": args.players, "hands": args.hands, "runs": rates, "median": median,
                           "mean_actions": statistics.mean(r["mean_actions"] for r in runs)}
    if args.replay:
        count = min(args.hands, 500)
        replays = [replay_run(args.players, count, args.seed + 100 + i) for i in range(args.runs)]
        out["replay_median"] = statistics.median(replays)
        print(f"replay of exported PHH text: median {out['replay_median']:.0f} hands/s")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
