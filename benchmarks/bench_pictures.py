"""Speed and size of the card pictures: an 8-seat table picture, PNG bytes, one core.

Run by hand (not part of the tests)::

    .venv/bin/python benchmarks/bench_pictures.py               # 400 table states, 5 runs
    .venv/bin/python benchmarks/bench_pictures.py --states 1000 --runs 7 --json out.json

Each state is a different moment of an 8-seat hand, drawn from a seeded ``random.Random``: every
seat gets 2 or 3 down cards and 1 to 4 up cards from one shuffled deck, a stack, a bet, one seat is
to act, some have folded, one or two ranks beyond fives are wild, and the pot changes. So the card
sprites are cached after the first pictures (as on a running bot), but stacks, bets, the pot and
the player to act change from picture to picture as they do in play. Timed: ``table_png`` (draw,
palette, PNG encode). Reported: the first picture (cold caches), the median and 95th percentile
per picture over each run, and the largest and median PNG size; also one hand picture and one
7-hand showdown for reference.

Target (issue 11): an 8-seat table picture in <= 10 ms and <= 150 KB.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine.cards.card import FULL_DECK, Rank
from bot.render.pictures import (
    HandPicture,
    SeatPicture,
    ShowdownPicture,
    ShownHand,
    TablePicture,
    WildRank,
    hand_png,
    showdown_png,
    table_png,
)

TARGET_MS = 10.0
TARGET_BYTES = 150_000
NAMES = ("Ann", "Bea", "Cid", "Dot", "Eve the Magnificent", "Fay", "Gus", "Hal")


def make_state(rng: random.Random) -> TablePicture:
    """One random 8-seat table moment (see the module docstring)."""
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    to_act = rng.randrange(8)
    seats = []
    for i, name in enumerate(NAMES):
        n_up = rng.randint(1, 4)
        up = tuple(deck.pop() for _ in range(n_up))
        folded = i != to_act and rng.random() < 0.25
        seats.append(SeatPicture(
            name=name, stack=rng.randrange(0, 20_000), up=up, down=2 if n_up < 4 else rng.choice((2, 3)),
            folded=folded, to_act=i == to_act, dealer=i == 0, bet=rng.choice((0, 0, 20, 40, 80)),
            note="all-in" if rng.random() < 0.05 else "",
        ))
    ranks = rng.sample([r for r in Rank if r is not Rank.FIVE], rng.randint(1, 2))
    wilds = (WildRank(Rank.FIVE), *(WildRank(r, deck.pop(), deck.pop()) for r in ranks))
    return TablePicture(title=f"Hand #{rng.randrange(1, 999)} · sixth street · fixed limit 20/40",
                        seats=tuple(seats), pot=rng.randrange(40, 5_000), wilds=wilds)


def one_run(states: list[TablePicture]) -> dict[str, float]:
    times: list[float] = []
    sizes: list[int] = []
    for state in states:
        start = time.perf_counter()
        png = table_png(state)
        times.append((time.perf_counter() - start) * 1000)
        sizes.append(len(png))
    times.sort()
    return {
        "median_ms": statistics.median(times),
        "p95_ms": times[int(len(times) * 0.95) - 1],
        "max_bytes": max(sizes),
        "median_bytes": statistics.median(sizes),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=400, help="table states per run")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--json", type=Path, help="write the figures here as JSON")
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    first = make_state(rng)
    start = time.perf_counter()
    table_png(first)
    cold_ms = (time.perf_counter() - start) * 1000
    runs = []
    for _ in range(args.runs):
        states = [make_state(rng) for _ in range(args.states)]
        runs.append(one_run(states))
    median_ms = statistics.median(r["median_ms"] for r in runs)
    p95_ms = statistics.median(r["p95_ms"] for r in runs)
    max_bytes = max(r["max_bytes"] for r in runs)

    deck = list(FULL_DECK)
    rng.shuffle(deck)
    own = tuple(deck[:6])
    hand = HandPicture("Hand #41 · sixth street", own, own[2:], first.wilds)
    start = time.perf_counter()
    hand_bytes = len(hand_png(hand))
    hand_ms = (time.perf_counter() - start) * 1000
    rng.shuffle(deck)
    showdown = ShowdownPicture("Hand #41 · showdown",
                               tuple(ShownHand(n, tuple(deck.pop() for _ in range(7)), 0) for n in NAMES[:7]),
                               first.wilds)
    start = time.perf_counter()
    sd_bytes = len(showdown_png(showdown))
    sd_ms = (time.perf_counter() - start) * 1000

    print(f"python {platform.python_version()} on {platform.machine()}, {args.runs} runs x {args.states} "
          "8-seat table states")
    print(f"first picture (cold caches): {cold_ms:.1f} ms")
    for i, r in enumerate(runs, 1):
        print(f"run {i}: median {r['median_ms']:.2f} ms, p95 {r['p95_ms']:.2f} ms, "
              f"largest {r['max_bytes']:,} B, median {r['median_bytes']:,.0f} B")
    print(f"table picture: median {median_ms:.2f} ms (target <= {TARGET_MS:g}), p95 {p95_ms:.2f} ms, "
          f"largest {max_bytes:,} B (target <= {TARGET_BYTES:,})")
    print(f"hand picture: {hand_ms:.1f} ms, {hand_bytes:,} B; "
          f"7-hand showdown: {sd_ms:.1f} ms, {sd_bytes:,} B")
    ok = median_ms <= TARGET_MS and max_bytes <= TARGET_BYTES
    print("within target" if ok else "OVER TARGET")
    if args.json:
        out: dict[str, Any] = {"cold_ms": cold_ms, "median_ms": median_ms, "p95_ms": p95_ms,
                               "max_bytes": max_bytes, "runs": runs, "hand_ms": hand_ms,
                               "hand_bytes": hand_bytes, "showdown_ms": sd_ms, "showdown_bytes": sd_bytes}
        args.json.write_text(json.dumps(out, indent=2))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
