"""The terminal items of issue 14: what a new user tripped on in ``wildstud play``."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

from bot.console.game import PlayConfig, play


def run(db: Path, typed: str, **kwargs: object) -> str:
    out = io.StringIO()
    config = PlayConfig(db=db, **{"humans": ["Ann"], "bots": 1, "seed": 2, **kwargs})  # type: ignore[arg-type]
    assert asyncio.run(play(config, io.StringIO(typed), out)) == 0
    return out.getvalue()


def test_stakes_set_at_the_table_survive_the_next_run(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    first = run(db, "stakes medium\n\n" + "c\n" * 40)
    assert "Hand #1: " in first and "Fixed limit 100/200" in first
    second = run(db, "\nq\n")                      # a plain `wildstud play`: no --stakes
    assert "Hand #2: " in second and "Fixed limit 100/200" in second
    assert "→ fixed limit 20/40" not in second
    # Asked for on the command line, other stakes replace them, and the change is said at start-up.
    third = run(db, "\nq\n", stakes="small")
    start = third.split("Hand #3")[0]
    assert "Stakes: fixed limit 100/200, ante 25 and bring-in 50 → fixed limit 20/40" in start
