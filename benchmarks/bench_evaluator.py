"""Speed of the wild-card evaluator: hands per second, single process, median of several runs.

Run by hand (not part of the tests)::

    .venv/bin/python benchmarks/bench_evaluator.py            # default: 20,000 hands, 7 runs
    .venv/bin/python benchmarks/bench_evaluator.py --hands 50000 --runs 9 --json out.json

What it measures, on the same random 7-card hands (seeded):

* ``strength`` (the fast path, an int) and ``evaluate`` (a ``HandValue``; its best five and
  description are worked out lazily, so they are not part of this figure), each with

  - no wild ranks, and
  - realistic wild sets: fives plus 0 to 4 follow ranks (as frozensets: one set per deal,
    shared by that deal's hands, which is how the engine calls it; ``--set-objects`` passes
    plain ``set`` objects instead, which cannot be cached);

* ``evaluate`` plus ``best``/``describe()`` (what a showdown message needs);
* the low rankings of ``bot.engine.values`` on the same hands: the ace-to-five key (razz, all
  seven cards), the eight-or-better qualifier, the named ace-to-five value with ``describe()``,
  the deuce-to-seven key of the first five cards and the badugi key of the first four;
* when the ``bench`` extra is installed (treys, phevaluator, eval7), the same hands through
  them -- they know no wild cards, so they get the no-wild hands -- and our figures as ratios
  to theirs, measured in the same run, round-robin, so machine load hits everyone alike.

Also reported: the time to build every table up front (``build_tables``; normally entries are
made on first use) and the import time of ``bot.engine.values.evaluator``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

t0 = time.perf_counter()
from bot.engine.cards.card import FULL_DECK, Card, Rank  # noqa: E402
from bot.engine.values import ace_to_five, badugi, deuce_to_seven, evaluator  # noqa: E402

IMPORT_SECONDS = time.perf_counter() - t0

FOLLOW_RANKS = [r for r in Rank if r is not Rank.FIVE]


def make_hands(count: int, seed: int) -> list[tuple[Card, ...]]:
    rng = random.Random(seed)
    return [tuple(rng.sample(FULL_DECK, 7)) for _ in range(count)]


def make_wild_sets(count: int, seed: int, per_deal: int, as_set: bool) -> list[Any]:
    """One wild set per deal of ``per_deal`` hands: fives plus 0 to 4 follow ranks."""
    rng = random.Random(seed + 1)
    out: list[Any] = []
    while len(out) < count:
        ranks = {Rank.FIVE, *rng.sample(FOLLOW_RANKS, rng.randint(0, 4))}
        wild = set(ranks) if as_set else frozenset(ranks)
        out.extend([wild] * per_deal)
    return out[:count]


def time_pass(run: Callable[[], object], count: int) -> float:
    start = time.perf_counter()
    run()
    return count / (time.perf_counter() - start)


def contenders(hands: list[tuple[Card, ...]], wilds: list[Any]) -> dict[str, Callable[[], object]]:
    strength, evaluate = evaluator.strength, evaluator.evaluate
    none: frozenset[Rank] = frozenset()
    pairs = list(zip(hands, wilds, strict=True))

    def noop(cards: Sequence[Card], wild: object) -> int:
        return 0

    runs: dict[str, Callable[[], object]] = {
        "python call floor (no-op)": lambda: [noop(h, none) for h in hands],
        "strength, no wilds": lambda: [strength(h, none) for h in hands],
        "strength, fives + 0-4 follow ranks": lambda: [strength(h, w) for h, w in pairs],
        "evaluate, no wilds": lambda: [evaluate(h, none) for h in hands],
        "evaluate, fives + 0-4 follow ranks": lambda: [evaluate(h, w) for h, w in pairs],
        "evaluate + best + describe, wilds": lambda: [
            (v.best, v.describe()) for v in (evaluate(h, w) for h, w in pairs)
        ],
    }
    fives = [h[:5] for h in hands]
    fours = [h[:4] for h in hands]
    low_key, a5, qualifies = ace_to_five.ace_to_five_key, ace_to_five.ace_to_five, ace_to_five.qualifies_eight
    d27, bad = deuce_to_seven.deuce_to_seven_key, badugi.badugi_key
    runs["ace-to-five key, 7 cards"] = lambda: [low_key(h) for h in hands]
    runs["eight-or-better qualifier, 7 cards"] = lambda: [qualifies(h) for h in hands]
    runs["ace-to-five value + describe, 7 cards"] = lambda: [a5(h).describe() for h in hands]
    runs["deuce-to-seven key, 5 cards"] = lambda: [d27(h) for h in fives]
    runs["deuce-to-seven key, 7 cards"] = lambda: [d27(h) for h in hands]
    runs["badugi key, 4 cards"] = lambda: [bad(h) for h in fours]
    codes = [[c.code for c in h] for h in hands]
    try:
        treys = importlib.import_module("treys")
        ev = treys.Evaluator()
        th = [[treys.Card.new(c) for c in h] for h in codes]
        runs["treys 0.1.x (no wilds)"] = lambda: [ev.evaluate(h[:2], h[2:]) for h in th]
    except ImportError:
        pass
    try:
        phe = importlib.import_module("phevaluator")
        ids = [[c.index for c in h] for h in hands]  # (rank - 2) * 4 + suit: phevaluator's ids
        fn = phe.evaluate_cards
        runs["phevaluator (C, no wilds)"] = lambda: [fn(*h) for h in ids]
    except ImportError:
        pass
    try:
        e7 = importlib.import_module("eval7")
        eh = [[e7.Card(c) for c in h] for h in codes]
        fe = e7.evaluate
        runs["eval7 (Cython, no wilds)"] = lambda: [fe(h) for h in eh]
    except ImportError:
        pass
    return runs


def check_agreement(hands: list[tuple[Card, ...]]) -> int:
    """Disagreements with treys on who wins each consecutive pair of no-wild hands (if present)."""
    try:
        treys = importlib.import_module("treys")
    except ImportError:
        return -1
    ev = treys.Evaluator()
    ours = [evaluator.strength(h, frozenset()) for h in hands]
    theirs = [-ev.evaluate([treys.Card.new(c.code) for c in h[:2]], [treys.Card.new(c.code) for c in h[2:]])
              for h in hands]  # treys: lower is better
    bad = 0
    for i in range(len(hands) - 1):
        a = (ours[i] > ours[i + 1]) - (ours[i] < ours[i + 1])
        b = (theirs[i] > theirs[i + 1]) - (theirs[i] < theirs[i + 1])
        bad += a != b
    return bad


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=20_000, help="random 7-card hands (default 20000)")
    parser.add_argument("--runs", type=int, default=7, help="timed passes per contender (default 7, min 5)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--per-deal", type=int, default=6, help="hands sharing one wild set (default 6)")
    parser.add_argument("--set-objects", action="store_true", help="pass wild ranks as plain sets")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    runs_wanted = max(5, args.runs)

    t, cpu = time.perf_counter(), time.process_time()
    entries = evaluator.build_tables()
    build_seconds, build_cpu = time.perf_counter() - t, time.process_time() - cpu

    hands = make_hands(args.hands, args.seed)
    wilds = make_wild_sets(args.hands, args.seed, args.per_deal, args.set_objects)
    disagreements = check_agreement(hands[:5000])
    runs = contenders(hands, wilds)
    for run in runs.values():  # warm-up pass
        run()
    rates: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(runs_wanted):
        for name, run in runs.items():
            rates[name].append(time_pass(run, len(hands)))
    medians = {name: statistics.median(v) for name, v in rates.items()}

    print(f"Python {sys.version.split()[0]}, {args.hands} random 7-card hands, median of {runs_wanted} runs")
    print(f"import bot.engine.values.evaluator: {IMPORT_SECONDS * 1000:.0f} ms; "
          f"build_tables() (both rulings, {entries} non-flush entries): {build_seconds:.2f} s "
          f"(CPU {build_cpu:.2f} s)")
    if disagreements >= 0:
        print(f"winner agreement with treys on 4,999 no-wild pairs: {disagreements} disagreements")
    width = max(len(n) for n in medians)
    print(f"{'contender':<{width}}  {'hands/s':>12}  {'min - max':>21}")
    for name, med in medians.items():
        lo, hi = min(rates[name]), max(rates[name])
        print(f"{name:<{width}}  {med:>12,.0f}  {lo:>10,.0f} - {hi:<10,.0f}")
    ratios: dict[str, dict[str, float]] = {}
    for ref in [n for n in medians if "(" in n and "no-op" not in n]:
        ours_names = [n for n in medians if n.startswith(("strength", "evaluate"))]
        ratios[ref] = {ours: medians[ours] / medians[ref] for ours in ours_names}
        print(f"ratio to {ref}: " + ", ".join(f"{ours}: {r:.2f}x" for ours, r in ratios[ref].items()))
    if args.json:
        args.json.write_text(json.dumps({
            "python": sys.version.split()[0],
            "hands": args.hands,
            "runs": runs_wanted,
            "import_seconds": IMPORT_SECONDS,
            "build_tables_seconds": build_seconds,
            "build_tables_cpu_seconds": build_cpu,
            "median_hands_per_second": medians,
            "all_runs": rates,
            "ratios": ratios,
            "treys_disagreements": disagreements,
        }, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
