"""``wildstud evaluate`` on the command line and in ``--jsonl`` mode."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from bot.cli.evaluate import evaluate_lines

ROOT = Path(__file__).resolve().parent.parent


def test_readme_example(capsys: pytest.CaptureFixture[str]) -> None:
    # Fives and twos wild: 9h 9d + the 5c and the 2s are four nines; the ace is the kicker.
    assert main(["evaluate", "Ah", "Kd", "5c", "2s", "9h", "9d", "Tc", "--wild", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Four of a kind, nines, ace kicker"
    assert out[1] == "best five: 9♥ 9♦ 5♣ 2♠ A♥"
    assert out[2].startswith("wilds: 5♣ as 9") and "2♠ as 9" in out[2]


def test_fives_are_wild_unless_turned_off(capsys: pytest.CaptureFixture[str]) -> None:
    # A-2-3-4-5: with fives wild the 5 still plays as the five (a straight, five high); with
    # --no-fives it is the natural wheel -- the same straight, and no wild is used.
    assert main(["evaluate", "Ah", "2c", "3d", "4s", "5h"]) == 0
    assert "5♥ as 5" in capsys.readouterr().out
    assert main(["evaluate", "Ah", "2c", "3d", "4s", "5h", "--no-fives"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Straight, five high") and "wilds: none used" in out


def test_several_wild_ranks_and_flush_ruling(capsys: pytest.CaptureFixture[str]) -> None:
    # Nines and jacks wild too: 9s Jd 5c Jh are four wilds; with the ace, five aces.
    assert main(["evaluate", "As", "9s", "Jd", "5c", "Jh", "--wild", "9", "J"]) == 0
    assert capsys.readouterr().out.startswith("Five of a kind, aces")
    # One wild with A♠ 9♠ 7♠ 2♠: double-ace flush by default, A-K under highest-missing.
    assert main(["evaluate", "As", "5c", "9s", "7s", "2s"]) == 0
    assert capsys.readouterr().out.startswith("Flush, ace-ace-nine-seven-two")
    assert main(["evaluate", "As", "5c", "9s", "7s", "2s", "--wild-in-flush", "highest-missing"]) == 0
    assert capsys.readouterr().out.startswith("Flush, ace-king-nine-seven-two")


def test_bad_input_exits_2_with_a_reason(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["evaluate", "Ah", "Ah", "Kd", "Qc", "Js"]) == 2
    assert "Ah appears twice" in capsys.readouterr().err
    assert main(["evaluate", "Ah", "Kd", "Qc", "Js"]) == 2
    assert "5 to 7 cards" in capsys.readouterr().err
    assert main(["evaluate", "Ah", "Kd", "Qc", "Js", "Zz"]) == 2
    assert "Zz" in capsys.readouterr().err


def test_jsonl_lines_and_errors() -> None:
    lines = [
        json.dumps({"cards": ["Ah", "Kd", "5c", "2s", "9h", "9d", "Tc"], "wild": ["5", "2"]}),
        "not json",
        "",
        json.dumps({"cards": ["Ah", "Kd", "Qc", "Js"], "wild": []}),
        # "no_fives": the 5c is a natural card here, so this is a plain ace-high hand.
        json.dumps({"cards": ["Ah", "Kd", "5c", "2s", "9h"], "no_fives": True}),
        json.dumps(
            {"cards": ["As", "5c", "9s", "7s", "2s"], "wild": ["5"], "wild_in_flush": "highest-missing"}
        ),
    ]
    out = io.StringIO()
    evaluate_lines(io.StringIO("\n".join(lines) + "\n"), out)
    results = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(results) == 5  # the blank line is not an input
    first = results[0]
    assert first["category"] == "four_of_a_kind" and isinstance(first["strength"], int)
    assert first["best"] == ["9h", "9d", "5c", "2s", "Ah"]
    assert set(first["wilds_as"]) == {"5c", "2s"} and all(v[0] == "9" for v in first["wilds_as"].values())
    assert "error" in results[1] and "error" in results[2]
    assert results[3]["category"] == "high_card" and results[3]["wilds_as"] == {}
    assert results[4] == {
        "category": "flush",
        "strength": results[4]["strength"],
        "best": ["As", "5c", "9s", "7s", "2s"],
        "wilds_as": {"5c": "Ks"},
    }


def test_jsonl_fives_are_wild_unless_the_line_says_no_fives() -> None:
    # issue 14: the same default as the plain command (fives wild; "wild" adds ranks).
    lines = [
        {"cards": ["Ah", "Kd", "5c", "2s", "9h"]},                     # no "wild": the 5c is wild
        {"cards": ["Ah", "Kd", "5c", "2s", "9h"], "wild": ["2"]},      # 2s added to the fives
        {"cards": ["Ah", "Kd", "5c", "2s", "9h"], "wild": ["2"], "no_fives": True},
        {"cards": ["Ah", "Kd", "5c", "2s", "9h"], "no_fives": "yes"},
    ]
    out = io.StringIO()
    evaluate_lines(io.StringIO("".join(json.dumps(x) + "\n" for x in lines)), out)
    results = [json.loads(line) for line in out.getvalue().splitlines()]
    assert results[0]["category"] == "one_pair" and set(results[0]["wilds_as"]) == {"5c"}
    assert results[1]["category"] == "three_of_a_kind" and set(results[1]["wilds_as"]) == {"5c", "2s"}
    assert results[2]["category"] == "one_pair" and set(results[2]["wilds_as"]) == {"2s"}
    assert "no_fives" in results[3]["error"]
    # The plain command agrees with the JSON line without "wild".
    from bot.cli.evaluate import evaluate_line

    plain = subprocess.run([sys.executable, "-m", "bot", "evaluate", "Ah", "Kd", "5c", "2s", "9h"],
                           capture_output=True, text=True, cwd=ROOT, check=True).stdout
    assert plain.startswith("One pair") and "wilds: 5♣ as" in plain
    assert evaluate_line(json.dumps(lines[0]))["category"] == "one_pair"


def test_jsonl_through_the_console_entry_point() -> None:
    # The real process: python -m bot evaluate --jsonl, one line in, one line out.
    line = json.dumps({"cards": ["5c", "5d", "5h", "5s", "Kd", "2c", "3h"], "wild": ["5"]})
    done = subprocess.run(
        [sys.executable, "-m", "bot", "evaluate", "--jsonl"],
        input=line + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
        timeout=60,
    )
    result = json.loads(done.stdout)
    # Four wilds + a king: five kings.
    assert result["category"] == "five_of_a_kind"
    assert result["best"][0] == "Kd" and len(result["wilds_as"]) == 4
