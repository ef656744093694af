"""Terminal defects of issue 17, driven through ``wildstud play``'s stdin and stdout."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from bot.console.commands import InputError, parse_action
from bot.tables.notices import ActionOption, Prompt

ROOT = Path(__file__).resolve().parents[2]


def play(args: list[str], stdin: str, db: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"}
    env.pop("DATABASE_URL", None)
    db_args = ["--db", str(db)] if db is not None else []
    return subprocess.run([sys.executable, "-m", "bot", "play", *args, *db_args], input=stdin,
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=180, check=False)


def wildstud(command_line: str) -> subprocess.CompletedProcess[str]:
    """Run a ``wildstud ...`` line the terminal printed."""
    words = shlex.split(command_line)
    assert words[0] == "wildstud"
    return subprocess.run([sys.executable, "-m", "bot", *words[1:]], capture_output=True, text=True,
                          cwd=ROOT, timeout=120, check=False)


def hands_of(out: str) -> list[str]:
    return out.split("── Hand #")[1:]


def test_each_showdown_line_is_printed_once(tmp_path: Path) -> None:
    # Ann calls everything and mucks when asked: with three computer players, some showdowns ask
    # two players in turn whether to show, and the lines told before each question came back.
    turns = "c\nmuck\n\n" * 40
    out = play(["--bots", "3", "--name", "Ann", "--seed", "2"], "\n" + turns, tmp_path / "x.db").stdout
    told = 0
    for hand in hands_of(out):
        lines = [line.rpartition("> ")[2] for line in hand.splitlines()
                 if re.search(r"^(\S+ mucks|\S+ shows \[)", line.rpartition("> ")[2])]
        told += len(lines)
        assert len(lines) == len(set(lines)), lines
        if lines:     # every hand that reached the showdown says how it ended
            assert re.search(r"wins (the|side|the main) pot", hand)
    assert told >= 6          # the run reached several showdowns


def test_the_banner_names_the_game_of_the_hand_that_resumes(tmp_path: Path) -> None:
    db = tmp_path / "x.db"
    first = play(["--bots", "2", "--name", "Ann", "--seed", "3"], "\nc\n", db)
    assert "is saved" in first.stdout
    second = play(["--bots", "2", "--name", "Ann", "--seed", "3", "--game", "seven-card-stud"], "q\n", db)
    assert second.returncode == 0, second.stderr
    lines = second.stdout.splitlines()
    assert lines[0] == "Wildstud: Sex in the Middle East"
    assert "Seven-Card Stud" not in lines[0]
    assert "From the next hand: Seven-Card Stud." in second.stdout
    # The resume notice comes after the banner, not above it.
    assert second.stdout.index("Hand #1 resumes") > second.stdout.index("Wildstud:")


def test_a_ruling_changed_mid_hand_applies_from_the_next_deal(tmp_path: Path) -> None:
    db = tmp_path / "x.db"
    out = play(["--bots", "2", "--name", "Ann", "--seed", "3"],
               "\nrulings\nruling raise_cap 4\nrulings\nq\n", db).stdout
    assert "Change one with: ruling NAME VALUE" in out
    assert "I don't understand" not in out
    assert "Ruling raise_cap: 3 → 4" in out and "Takes effect from the next deal." in out
    assert "From the next deal: Ruling raise_cap: 3 → 4" in out
    # Still this hand's rulings in force, the change kept for the next deal.
    again = play(["--bots", "2", "--name", "Ann", "--seed", "3"], "q\n", db)
    assert again.returncode == 0
    finish = "c\nshow\n" * 12 + "rulings\nq\n"
    between = play(["--bots", "2", "--name", "Ann", "--seed", "3"], finish, db).stdout
    assert "raise_cap: 4" in between


def test_words_after_an_action_are_refused(tmp_path: Path) -> None:
    result = play(["--bots", "2", "--name", "Ann", "--seed", "3"], "\ncall 10 please\n2 please\nq\n",
                  tmp_path / "x.db")
    out = result.stdout
    assert "I don't understand 'please' after call" in out
    assert "I don't understand 'please' after 2" in out
    assert "Ann calls" not in out


PROMPT = Prompt(1, "Ann", 3, 4, (
    ActionOption("fold", label="fold"),
    ActionOption("call", 20, label="call 20"),
    ActionOption("raise", 40, 40, 200, label="raise to 40-200"),
), "")


def test_parse_action_takes_only_an_action_and_its_amount() -> None:
    assert parse_action("call", PROMPT) == ("call", None)
    assert parse_action("call 20", PROMPT) == ("call", None)
    assert parse_action("raise to 80", PROMPT) == ("raise", 80)
    assert parse_action("r 1,00", PROMPT) == ("raise", 100)
    for text in ("call 20 please", "call please", "raise 80 now", "fold now",
                 "2 please", "raise 80 90"):
        try:
            parse_action(text, PROMPT)
        except InputError as exc:
            assert "I don't understand" in str(exc)
        else:
            raise AssertionError(f"{text!r} was accepted")


def test_auto_prints_no_long_check_unless_asked(tmp_path: Path) -> None:
    quiet = play(["--auto", "--hands", "2", "--seed", "7"], "")
    assert quiet.returncode == 0, quiet.stderr
    assert max(len(line) for line in quiet.stdout.splitlines()) < 300
    assert "--leaves" not in quiet.stdout
    assert quiet.stdout.count("wildstud play --auto --verify prints the whole check.") == 2
    asked = play(["--auto", "--hands", "2", "--seed", "7", "--verify"], "")
    checks = [line for line in asked.stdout.splitlines() if line.startswith("wildstud verify ")]
    assert len(checks) == 2
    for check in checks:          # the whole, self-contained check passes
        result = wildstud(check)
        assert result.returncode == 0, result.stdout + result.stderr


def test_openings_and_the_deck_check_are_shown_on_request(tmp_path: Path) -> None:
    db = tmp_path / "x.db"
    # One turn without asking, then openings; the hand is played out, then verify between hands.
    out = play(["--bots", "1", "--name", "Ann", "--seed", "5"],
               "\nc\nopenings\n" + "c\nshow\n" * 12 + "verify\nq\n", db).stdout
    first_turn = out.split("Ann, your turn")[0]
    assert "Your down cards' openings" not in first_turn
    assert "Your cards:" in first_turn
    openings = [line for line in out.splitlines() if "Your down cards' openings" in line]
    assert len(openings) == 1
    assert "wildstud verify --hand 1 --member " in openings[0]
    verify = re.search(r"^(?:Press Enter to deal.*?: )?(wildstud verify --hand \d+ --db \S+)$", out, re.M)
    assert verify is not None, out[-2000:]
    result = wildstud(verify.group(1))
    assert result.returncode == 0, result.stdout + result.stderr
