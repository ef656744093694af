"""SIGKILL at random points of buy-ins, settlements and transfers: nothing committed is lost or
doubled, nothing half-done survives, and the audit stays green.

A child process (a worker forked by ``crash_child.py``) plays on one database and logs ``begin``
before each chip movement and ``done`` after its commit returned. The test kills it with SIGKILL
at a random moment, reopens the database, audits it, and starts the next worker on the same file
(which voids the hand left unfinished, as the bot does at start-up). At the end every
acknowledged movement must be in the ledger exactly once, every refused or never-started one
absent, and each run's one in-flight movement either wholly present or wholly absent.

It runs on both backends (``db_path`` is a SQLite file or a PostgreSQL database): on PostgreSQL
the killed worker's server session is rolled back by the server when its socket closes.

Run with ``-s`` to see the kill points exercised (also recorded as the ``kill_points`` property).
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

from bot.store import Store
from tests.postgres import RawDb

RUNS = 60
CHILD = Path(__file__).with_name("crash_child.py")
ROOT = Path(__file__).resolve().parents[2]


def expected_members(db: RawDb, kind: str, key: str) -> int:
    """How many ledger rows (one per member) a committed movement writes."""
    if kind == "transfer":
        return 2
    if kind in ("settle", "void"):
        hand_id = int(key.split(":")[1])
        return int(db.execute("SELECT COUNT(*) FROM hand_players WHERE hand_id = ?", (hand_id,))[0][0])
    return 1


class Children:
    """``crash_child.py`` running as a subprocess, forking a worker per run on request."""

    def __init__(self, db: Path | str, log: Path) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.server = subprocess.Popen(
            [sys.executable, str(CHILD), str(db), str(log)],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )

    def ask(self, line: str) -> str:
        assert self.server.stdin is not None and self.server.stdout is not None
        self.server.stdin.write(f"{line}\n".encode())
        self.server.stdin.flush()
        return self.server.stdout.readline().decode().strip()

    def close(self) -> None:
        assert self.server.stdin is not None and self.server.stdout is not None
        self.server.stdin.close()
        self.server.wait(timeout=10)
        self.server.stdout.close()


def run_and_kill(children: Children, seed: int, log: Path, rng: random.Random) -> list[list[str]]:
    """Start a worker and SIGKILL it: a fifth of the time within 40 ms of its start (opening,
    migrating, recovering), otherwise a random moment up to 150 ms after it is ready. Returns the
    log lines the run wrote, split into words."""
    start = log.stat().st_size if log.exists() else 0
    pid = int(children.ask(f"go {seed}"))
    early = rng.random() < 0.2
    marker = b"\nstart " if early else b"\nready\n"
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if log.exists() and marker in b"\n" + log.read_bytes()[start:]:
            break
        time.sleep(0.001)
    time.sleep(rng.uniform(0.0, 0.04) if early else rng.uniform(0.0, 0.15))
    os.kill(pid, signal.SIGKILL)
    assert children.ask(f"reap {pid}") == "reaped"
    lines = [line.split() for line in log.read_bytes()[start:].decode().splitlines()]
    assert not any(words[0] == "error" for words in lines), lines
    return lines


async def audit_ok(db: Path | str) -> None:
    async with await Store.open(db) as store:
        report = await store.audit()
        assert report.ok, report.all_problems()


def classify(run_lines: list[list[str]], db: RawDb) -> str:
    """Where this run was killed: between operations, during start-up, or inside one operation
    (before or after its commit, which the ledger tells)."""
    if not run_lines:
        return "before the store opened"
    if not any(words == ["ready"] for words in run_lines):
        in_flight = [w for w in run_lines if w[0] == "begin"]
        if in_flight and run_lines[-1][0] == "begin":
            return f"start-up recovery: void {committed_state(run_lines[-1], db)}"
        return "start-up (opening, migrating)"
    last = run_lines[-1]
    if last[0] != "begin":
        return "between operations"
    return f"{last[1]} {committed_state(last, db)}"


def committed_state(words: list[str], db: RawDb) -> str:
    kind, key = words[1], words[2]
    if kind == "create":
        return "(not a chip movement)"
    if kind == "action":
        hand, seq = (int(x) for x in key.split(":"))
        found = db.execute("SELECT 1 FROM hand_actions WHERE hand_id = ? AND seq = ?", (hand, seq))
    else:
        found = db.execute("SELECT 1 FROM ledger WHERE op_key = ?", (key,))
    return "committed, not yet acknowledged" if found else "begun, not committed"


def test_sigkill_never_loses_or_doubles_a_committed_movement(
    db_path: Path | str, tmp_path: Path, record_property
) -> None:
    log = tmp_path / "ops.log"
    rng = random.Random(1234)
    runs: list[list[list[str]]] = []
    children = Children(db_path, log)
    try:
        for seed in range(1, RUNS + 1):
            runs.append(run_and_kill(children, seed, log, rng))
            asyncio.run(audit_ok(db_path))  # after every kill, not only at the end
    finally:
        children.close()

    with RawDb(db_path) as db:
        rows = Counter(r[0] for r in db.execute("SELECT op_key FROM ledger WHERE op_key <> 'start'"))
        acknowledged: set[str] = set()
        kill_points: Counter[str] = Counter()
        for run in runs:
            kill_points[classify(run, db)] += 1
            for words in run:
                if words[0] == "done" and words[1] == "action":
                    hand, seq = (int(x) for x in words[2].split(":"))
                    sql = "SELECT 1 FROM hand_actions WHERE hand_id = ? AND seq = ?"
                    assert db.execute(sql, (hand, seq)), f"acknowledged action {words[2]} lost"
                elif words[0] == "done" and words[1] != "create":
                    key = words[2]
                    assert rows[key] == expected_members(db, words[1], key), f"{key}: {rows[key]} rows"
                    acknowledged.add(key)
                elif words[0] == "refused":
                    assert rows[words[2]] == 0
            last = run[-1] if run else ["(nothing)"]
            if last[0] == "begin" and last[1] not in ("create", "action"):
                # The one in-flight movement: all of it or none of it.
                assert rows[last[2]] in (0, expected_members(db, last[1], last[2])), last
                acknowledged.add(last[2])
        assert set(rows) <= acknowledged, f"movements nobody started: {set(rows) - acknowledged}"
        settled = db.execute("SELECT COUNT(*) FROM hands WHERE status = 'finished'")[0][0]
        voided = db.execute("SELECT COUNT(*) FROM hands WHERE status = 'voided'")[0][0]

    summary = ", ".join(f"{name}: {n}" for name, n in sorted(kill_points.items()))
    record_property("kill_points", summary)
    print(
        f"\n{RUNS} kills, {len(kill_points)} distinct kill points ({summary});"
        f" {len(acknowledged)} movements checked, {settled} hands settled, {voided} voided"
    )
    inside = [name for name in kill_points if "commit" in name and "void" not in name]
    assert len(inside) >= 3, kill_points  # kills landed inside several kinds of transaction
