"""``wildstud play --tournament PRESET``: computer players play a sit-and-go to the end (``--auto``)
and a person plays one against them, leaves and resumes it."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from tests.console.test_terminal import audit_ok, run_cli


def standings(out: str) -> list[tuple[str, str, int, int]]:
    tail = out.split("Standings and prizes (pool 400):")[1].strip().splitlines()
    rows = []
    for line in tail:
        found = re.match(r"\s*(\d+\w\w) (\w+)\s+prize\s+([\d,]+)\s+balance ([\d,]+)", line)
        assert found, line
        place, name, prize, balance = found.groups()
        rows.append((place, name, int(prize.replace(",", "")), int(balance.replace(",", ""))))
    return rows


def test_auto_plays_a_sit_and_go_to_the_end_reproducibly(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    args = ["--tournament", "turbo", "--auto", "--seed", "7"]
    one = run_cli(args, "")
    two = run_cli([*args, "--db", str(db)], "")
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    rows = standings(one.stdout)
    assert rows == standings(two.stdout)                   # the same seed, the same tournament
    assert [r[0] for r in rows] == ["1st", "2nd", "3rd", "4th"]
    assert [r[2] for r in rows] == [260, 140, 0, 0]        # 65/35 of four buy-ins of 100
    assert [r[3] for r in rows] == [1160, 1040, 900, 900]
    assert " wins the tournament!" in one.stdout
    # The standings are printed once, in the terminal's fuller form (prizes, pool and balances),
    # not also as the table's own list ("1st Ann: 260") just before it.
    assert one.stdout.count("Standings and prizes") == 1
    assert not re.search(r"^\d+\w\w (\(tied\) )?\w+(: [\d,]+)?$", one.stdout, re.M), one.stdout[-600:]
    assert one.stdout.count(" is out in ") == 3
    # Nobody types in --auto: each hand points at --verify, never at the verify command.
    assert "Type verify" not in one.stdout and "--auto --verify prints the whole check" in one.stdout
    assert "wildstud verify --hand" in two.stdout           # with a database: the command for it
    assert audit_ok(db)
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT status, pool FROM tournaments").fetchall() == [("finished", 0)]
        levels = conn.execute("SELECT level FROM tournament_levels ORDER BY level").fetchall()
    assert [n for (n,) in levels][:2] == [1, 2]                # levels of 5 hands came and went


def test_a_person_plays_leaves_and_resumes_the_tournament(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    first = run_cli(["--tournament", "slow", "--bots", "2", "--name", "Ann", "--db", str(db)], "call\nq\n")
    assert first.returncode == 0, first.stderr
    assert "Tournament, level 1 · Hand #1" in first.stdout
    assert "The tournament is saved" in first.stdout
    again = run_cli(["--tournament", "slow", "--bots", "2", "--name", "Ann", "--db", str(db)], "q\n")
    assert again.returncode == 0 and "Tournament #1 resumes." in again.stdout
    assert audit_ok(db)


def test_an_unknown_preset_is_refused() -> None:
    bad = run_cli(["--tournament", "hyper", "--auto"], "")
    assert bad.returncode == 2 and "invalid choice" in bad.stderr
