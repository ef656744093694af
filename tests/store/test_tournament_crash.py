"""SIGKILL during tournaments' level changes, hands and payouts: nothing acknowledged is lost, a
prize is paid once, and the audit (pool, entries, tournament chips) stays green after every kill.

It reuses the crash test's machinery (``test_crash.run_and_kill``, its forking child protocol)
with ``tournament_crash_child.py``; both backends.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from tests.postgres import RawDb
from tests.store.test_crash import ROOT, Children, audit_ok, run_and_kill

RUNS = 40
CHILD = Path(__file__).with_name("tournament_crash_child.py")


class TournamentChildren(Children):
    def __init__(self, db: Path | str, log: Path) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.server = subprocess.Popen(
            [sys.executable, str(CHILD), str(db), str(log)],
            cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        )


def kill_at(children: Children, seed: int, log: Path, rng: random.Random, marker: bytes) -> list[list[str]]:
    """Start a worker and SIGKILL it 0-4 ms after it logs ``marker`` (the start of a level change
    or a payout), so the kill lands inside that transaction or just after its commit."""
    start = log.stat().st_size if log.exists() else 0
    pid = int(children.ask(f"go {seed}"))
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if log.exists() and marker in log.read_bytes()[start:]:
            break
        time.sleep(0.0005)
    time.sleep(rng.uniform(0.0, 0.004))
    os.kill(pid, signal.SIGKILL)
    assert children.ask(f"reap {pid}") == "reaped"
    lines = [line.split() for line in log.read_bytes()[start:].decode().splitlines()]
    assert not any(words[0] == "error" for words in lines), lines
    return lines


def test_sigkill_during_level_changes_and_payouts(db_path: Path | str, tmp_path: Path) -> None:
    log = tmp_path / "ops.log"
    rng = random.Random(2323)
    runs: list[list[list[str]]] = []
    children = TournamentChildren(db_path, log)
    try:
        for seed in range(1, RUNS + 1):
            if seed % 3 == 0:
                runs.append(kill_at(children, seed, log, rng, b"begin payout"))
            elif seed % 3 == 1:
                runs.append(kill_at(children, seed, log, rng, b"begin level"))
            else:
                runs.append(run_and_kill(children, seed, log, rng))
            asyncio.run(audit_ok(db_path))
    finally:
        children.close()

    kill_points: Counter[str] = Counter()
    with RawDb(db_path) as db:
        rows = db.execute("SELECT tournament_id, level FROM tournament_levels")
        levels = {(int(t), int(n)) for t, n in rows}
        for tid, level in db.execute("SELECT id, level FROM tournaments"):
            reached = max((n for t, n in levels if t == tid), default=1)
            assert level == reached, f"tournament {tid} is at level {level} but its levels reach {reached}"
        status = dict(db.execute("SELECT id, status FROM tournaments"))
        prize_rows = Counter(
            int(t) for (t,) in db.execute("SELECT tournament_id FROM ledger WHERE kind = 'tournament_prize'")
        )
        for run in runs:
            last = run[-1] if run else ["(nothing)"]
            if last[0] == "begin":
                kill_points[f"inside {last[1]}"] += 1
            for words in run:
                if words[0] == "done" and words[1] == "level":
                    tid, level = (int(x) for x in words[2].split(":"))
                    assert (tid, level) in levels, f"acknowledged level {words[2]} lost"
                if words[0] == "done" and words[1] == "payout":
                    assert status[int(words[2])] == "finished"
        for tid, state in status.items():
            # One winner each: one prize row when finished, none before.
            assert prize_rows[int(tid)] == (1 if state == "finished" else 0), (tid, state)
        finished = sum(1 for s in status.values() if s == "finished")
    print(f"\n{RUNS} kills ({dict(kill_points)}); {finished} tournaments paid, {len(levels)} levels")
    assert finished >= 2
    assert kill_points["inside level"] >= 2 and kill_points["inside payout"] >= 2, kill_points
