"""The ``wildstud`` entry point itself: behaviour shared by every sub-command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_reader_that_goes_away_ends_the_command_quietly(tmp_path: Path) -> None:
    # `wildstud ... | head -1` closes the pipe after one line. Unix tools then stop quietly; a
    # Python program that keeps writing gets BrokenPipeError and, unhandled, prints a traceback.
    # 20,000 hands of output is far more than a pipe buffer holds, so the writer must hit it.
    line = json.dumps({"cards": ["Ah", "Kd", "5c", "2s", "9h", "9d", "Tc"], "wild": ["5", "2"]})
    hands = tmp_path / "hands.jsonl"
    hands.write_text((line + "\n") * 20000)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with hands.open("rb") as stdin:
        writer = subprocess.Popen(
            [sys.executable, "-m", "bot", "evaluate", "--jsonl"],
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            cwd=ROOT,
        )
    assert writer.stdout is not None and writer.stderr is not None
    first = writer.stdout.readline()
    writer.stdout.close()  # the reader goes away, like `head -1`
    err = writer.stderr.read().decode()
    assert writer.wait(timeout=60) == 0
    assert json.loads(first)["category"] == "four_of_a_kind"
    assert "Traceback" not in err and "BrokenPipeError" not in err


def test_watching_computer_players_through_head_stops_quietly(tmp_path: Path) -> None:
    # `wildstud play --auto ... | head` used to log "presenter call failed" with a BrokenPipeError
    # traceback for every later notice (hundreds of lines) and exit 1. It should stop at once.
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    writer = subprocess.Popen(
        [sys.executable, "-m", "bot", "play", "--auto", "--hands", "40", "--seed", "3"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=tmp_path,
    )
    assert writer.stdout is not None and writer.stderr is not None
    first = writer.stdout.readline()
    writer.stdout.close()
    err = writer.stderr.read().decode()
    assert writer.wait(timeout=120) == 0
    assert first.startswith(b"Wildstud")
    assert "Traceback" not in err and "presenter call failed" not in err
