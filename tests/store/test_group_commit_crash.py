"""SIGKILL while sixteen tables write at once: nothing acknowledged is lost under the group commit.

A child (``group_commit_child.py``) plays sixteen tables side by side on one store, so on SQLite
their deals, actions and settlements share batches (the child logs the largest batch so far);
it logs ``done ...`` only after a store call returned. The test kills it at a random moment, audits
the database, and starts the next child on the same file (which voids the hands left
unfinished). At the end: every acknowledged deal, action (with its exact text) and settlement is
stored, each hand's log is numbered without gaps, every settled hand has its ledger rows, and the
batches really held several writes. Runs on both backends (PostgreSQL: deals and actions stored
many to a statement, ``bot.store.pg_batch``; settlements one transaction each on its pool).
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from bot.store import Store
from tests.postgres import RawDb

RUNS = 12
CHILD = Path(__file__).with_name("group_commit_child.py")
ROOT = Path(__file__).resolve().parents[2]


def run_and_kill(db: Path | str, log: Path, seed: int, rng: random.Random) -> list[list[str]]:
    """Start a child and SIGKILL it mid-play; returns the lines it wrote."""
    start = log.stat().st_size if log.exists() else 0
    child = subprocess.Popen(
        [sys.executable, str(CHILD), str(db), str(log), str(seed)],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stderr=subprocess.PIPE,
    )
    # Killed after a random number of acknowledged writes (not a time: the machine's speed varies),
    # then a random few milliseconds more, so the kill lands anywhere in a batch.
    wanted = rng.randint(1, 80)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and child.poll() is None:
        written = log.read_bytes()[start:] if log.exists() else b""
        if b"\nready\n" in b"\n" + written and written.count(b"\ndone ") >= wanted:
            break
        time.sleep(0.002)
    assert child.poll() is None, child.communicate()[1].decode()
    time.sleep(rng.uniform(0.0, 0.02))
    os.kill(child.pid, signal.SIGKILL)
    child.wait(timeout=30)
    assert child.stderr is not None
    child.stderr.close()
    return [line.split() for line in log.read_bytes()[start:].decode().splitlines()]


async def audit_ok(db: Path | str) -> None:
    async with await Store.open(db) as store:
        report = await store.audit()
        assert report.ok, report.all_problems()


def test_sigkill_mid_batch_loses_nothing_acknowledged(db_path: Path | str, tmp_path: Path) -> None:
    log = tmp_path / "writes.log"
    rng = random.Random(20)
    lines: list[list[str]] = []
    for seed in range(1, RUNS + 1):
        lines += run_and_kill(db_path, log, seed, rng)
        asyncio.run(audit_ok(db_path))  # after every kill

    with RawDb(db_path) as db:
        actions: dict[int, list[tuple[int, str]]] = {}
        rows = db.execute("SELECT hand_id, seq, action FROM hand_actions ORDER BY hand_id, seq")
        for hand, seq, text in rows:
            actions.setdefault(int(hand), []).append((int(seq), str(text)))
        status = {int(h): str(s) for h, s in db.execute("SELECT id, status FROM hands")}
        ledger = {int(h): int(n) for h, n in db.execute(
            "SELECT hand_id, COUNT(*) FROM ledger WHERE kind = 'hand' GROUP BY hand_id")}
        players = {int(h): int(n) for h, n in db.execute(
            "SELECT hand_id, COUNT(*) FROM hand_players GROUP BY hand_id")}

    acknowledged = {"create": 0, "action": 0, "settle": 0, "void": 0}
    largest = 0
    for words in lines:
        if words[0] == "batch":
            largest = max(largest, int(words[1]))
        if words[0] != "done":
            continue
        kind = words[1]
        acknowledged[kind] += 1
        if kind == "create":
            hand = int(words[2])
            assert hand in status and actions[hand][0] == (1, "seats 1 2"), f"acknowledged deal {hand} lost"
        elif kind == "action":
            hand_text, seq_text, text = words[2].split(":", 2)
            hand, seq = int(hand_text), int(seq_text)
            assert (seq, text) in actions.get(hand, []), f"acknowledged action {words[2]} lost"
        elif kind == "settle":
            hand = int(words[2])
            assert status[hand] == "finished", f"acknowledged settlement of {hand} lost"
            assert ledger[hand] == players[hand]
        else:
            assert status[int(words[2])] == "voided"
    for hand, log_of_hand in actions.items():
        assert [seq for seq, _ in log_of_hand] == list(range(1, len(log_of_hand) + 1)), hand
    # Every kind was checked.
    assert acknowledged["settle"] > 0 and acknowledged["action"] >= RUNS, acknowledged
    assert largest > 1, "the writes never shared a batch: the batching was not exercised"
    print(f"\n{RUNS} kills; acknowledged {acknowledged}; largest batch {largest}")
