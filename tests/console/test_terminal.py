"""``wildstud play`` driven through stdin and stdout, end to end (issue 5, "Terminal table")."""

from __future__ import annotations

import asyncio
import io
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

from bot.console.commands import InputError, parse_action
from bot.console.game import PlayConfig, play
from bot.engine.cards.card import Card
from bot.engine.command import Command, Kind
from bot.store import Store
from bot.tables.notices import ActionOption, Prompt

ROOT = Path(__file__).resolve().parents[2]


def run_cli(
    args: list[str], stdin: str, db: Path | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"}
    if db is not None:
        env["DATABASE_PATH"] = str(db)
    return subprocess.run(
        [sys.executable, "-m", "bot", "play", *args], input=stdin, capture_output=True, text=True,
        cwd=ROOT, env=env, timeout=timeout, check=False,
    )


def audit_ok(db: Path) -> bool:
    async def check() -> bool:
        store = await Store.open(db)
        try:
            return (await store.audit()).ok
        finally:
            await store.close()
    return asyncio.run(check())


def test_a_full_hand_against_computer_players_then_resume_after_quitting(tmp_path: Path) -> None:
    db = tmp_path / "play.sqlite3"
    # Enter deals; "c" calls (checks when free, posts a forced bring-in) at every turn.
    first = run_cli(["--bots", "2", "--name", "Ann", "--seed", "3"], "\n" + "c\n" * 3, db)
    assert first.returncode == 0, first.stderr
    out = first.stdout
    assert "Hand #1: " in out and "Ann, your turn" in out
    assert re.search(r"Your cards: \[.. ..\] ", out)               # Ann sees her own down cards
    assert "is saved; run wildstud play again" in out            # input ran out mid-hand
    assert "Traceback" not in first.stderr
    # The next run resumes the same hand and plays it to the end.
    # "show" answers a show-or-muck prompt; where a bet is asked for it is refused and asked again.
    second = run_cli(["--bots", "2", "--name", "Ann", "--seed", "3"], "c\nshow\n" * 12, db)
    assert second.returncode == 0, second.stderr
    assert "Hand #1 resumes after a restart" in second.stdout
    # One resume line (the terminal no longer adds its own "was not finished: it resumes first").
    assert [line for line in second.stdout.splitlines() if "Hand #1" in line and "resume" in line] == [
        "Hand #1 resumes after a restart: same cards, same pot."]
    assert re.search(r"wins (the|side|the main) pot", second.stdout)
    assert "Between hands (next: hand #2)" in second.stdout
    assert audit_ok(db)
    with sqlite3.connect(db) as conn:
        status = conn.execute("SELECT status FROM hands ORDER BY id LIMIT 1").fetchone()[0]
        stacks = conn.execute("SELECT SUM(stack) FROM seats").fetchone()[0]
    assert status == "finished" and stacks == 3000


def test_bad_input_gets_the_reason_and_a_new_prompt(tmp_path: Path) -> None:
    db = tmp_path / "play.sqlite3"
    result = run_cli(["--bots", "1", "--name", "Ann", "--seed", "5"], "\nhello\n99\nraise 7\n?\nq\n", db)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "I don't understand 'hello'" in out
    assert "Choose a number from 1 to" in out
    assert "Not allowed:" in out                                 # the engine's reason for raise 7
    assert "Type the number of an option" in out                # help
    assert out.count("Ann, your turn") >= 4                     # a new prompt after each refusal


def test_hot_seat_shows_down_cards_only_to_the_player_at_the_keyboard(tmp_path: Path) -> None:
    db = tmp_path / "hot.sqlite3"
    result = run_cli(["--seats", "Ann", "Bob", "--seed", "4"], "\n" + "c\nshow\n" * 40, db)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    owner: str | None = None
    checked = 0
    for i, line in enumerate(lines):
        handed = re.match(r"Pass the keyboard to (\w+)", line)
        if handed:
            owner = handed.group(1)
        if "Your cards:" in line:
            # Cards are shown only after that player took the keyboard (pressed Enter at their own
            # "Name>" pause), and the next prompt is theirs.
            assert owner is not None
            since_pass = lines[max(k for k in range(i) if lines[k].startswith("Pass the keyboard")):i]
            assert any(x.startswith(f"{owner}> ") for x in since_pass)
            following = next(x for x in lines[i:] if ", your turn" in x)
            assert following.startswith(f"{owner}, your turn")
            checked += 1
    assert checked >= 4
    assert re.search(r"wins (the|side|the main) pot", result.stdout)


def test_auto_is_reproducible_and_ends_with_everyones_chips() -> None:
    args = ["--auto", "--hands", "2", "--seed", "7", "--bots", "3", "--verify"]
    one, two = run_cli(args, ""), run_cli(args, "")
    assert one.returncode == 0 and one.stdout == two.stdout, one.stderr
    out = one.stdout
    assert out.count("── Hand #") == 2
    assert "\x1b[" not in out                                    # no colour codes when piped
    tail = out.split("Chips after 2 hands:")[1].strip().splitlines()
    assert len(tail) == 3
    total = sum(int(re.search(r"([\d,]+)\s+\(", row).group(1).replace(",", "")) for row in tail)  # type: ignore[union-attr]
    assert total == 3 * 1000                                     # chips conserved
    verify_lines = [line for line in out.splitlines() if line.startswith("wildstud verify ")]
    assert len(verify_lines) == 2                                # one whole check per hand
    for verify_line in verify_lines:
        checked = subprocess.run([sys.executable, "-m", "bot", *verify_line.split()[1:]], capture_output=True,
                                 text=True, cwd=ROOT, check=False)
        assert checked.returncode == 0, checked.stdout + checked.stderr


def test_ctrl_c_leaves_cleanly_and_keeps_the_chips(tmp_path: Path) -> None:
    db = tmp_path / "int.sqlite3"
    env = {**os.environ, "NO_COLOR": "1", "DATABASE_PATH": str(db), "PYTHONIOENCODING": "utf-8"}
    # A terminal's Ctrl-C: start the game with SIGINT's default disposition even when these tests
    # run as a background job (a non-interactive shell's "cmd &" ignores SIGINT, and children
    # inherit that, so the signal would be lost and end of input would end the game instead).
    proc = subprocess.Popen([sys.executable, "-m", "bot", "play", "--bots", "2", "--name", "Ann"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=ROOT, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("\n")
    proc.stdin.flush()
    seen = ""
    deadline = time.monotonic() + 60
    while "your turn" not in seen and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        seen += line
    assert "your turn" in seen
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Your chips are saved" in out
    assert "Traceback" not in err
    assert audit_ok(db)


def test_in_process_game_with_redirected_streams(tmp_path: Path) -> None:
    out = io.StringIO()
    config = PlayConfig(db=tmp_path / "io.sqlite3", humans=["Ann"], bots=1, seed=2)
    status = asyncio.run(play(config, io.StringIO("\n" + "c\n" * 10), out))
    assert status == 0
    assert "Ann, your turn" in out.getvalue()


PROMPT = Prompt(1, "Ann", 3, 4, (
    ActionOption("fold", label="fold"),
    ActionOption("call", 20, label="call 20"),
    ActionOption("raise", 40, 40, 200, label="raise to 40-200"),
    ActionOption("all_in", 480, label="all-in (480)"),
), "")


@pytest.mark.parametrize(("typed", "expected"), [
    ("f", ("fold", None)),
    ("CALL", ("call", None)),
    ("raise to 1,000", ("raise", 1000)),
    ("bet 60", ("raise", 60)),             # "bet" means the one wager allowed now
    ("all in", ("all_in", None)),
    ("4", ("all_in", None)),
])
def test_typed_actions(typed: str, expected: tuple[str, int | None]) -> None:
    assert parse_action(typed, PROMPT) == Command(Kind(expected[0]), expected[1])


@pytest.mark.parametrize(("typed", "reason"), [
    ("", "Type your action"),
    ("3", "Say how much"),
    ("r", "Say how much"),
    ("raise lots", "not a number"),
    ("9", "from 1 to 4"),
])
def test_typed_actions_refused_with_a_reason(typed: str, reason: str) -> None:
    with pytest.raises(InputError, match=reason):
        parse_action(typed, PROMPT)


def test_computer_players_from_an_earlier_run_finish_the_resumed_hand(tmp_path: Path) -> None:
    db = tmp_path / "fewer.sqlite3"
    first = io.StringIO()
    asyncio.run(play(PlayConfig(db=db, humans=["Ann"], bots=3, seed=3), io.StringIO("\n"), first))
    assert "is saved" in first.getvalue()
    second = io.StringIO()
    asyncio.run(play(PlayConfig(db=db, humans=["Ann"], bots=1, seed=3), io.StringIO("c\n" * 20), second))
    out = second.getvalue()
    assert "resumes after a restart" in out
    assert "Pass the keyboard" not in out        # the other computer players still play themselves
    assert audit_ok(db)


# ----------------------------------------------------------------------------- found by a newcomer
FIXED = Prompt(1, "Ann", 3, 4, (
    ActionOption("fold", label="fold"),
    ActionOption("call", 10, label="call 10"),
    ActionOption("complete", 20, 20, 20, label="complete to 20"),
), "", to_call=10)
FREE = Prompt(1, "Ann", 3, 5, (
    ActionOption("fold", label="fold"),
    ActionOption("check", label="check"),
    ActionOption("bet", 20, 20, 20, label="bet 20"),
    ActionOption("bet", 40, 40, 40, label="bet 40"),
), "")


@pytest.mark.parametrize(("typed", "prompt", "reason"), [
    # "raise -20" used to become "raise 20" (the minus was read as the dash of "all-in"), so a typo
    # completed the bet; an amount below zero is never a bet.
    ("raise -20", FIXED, "negative"),
    ("complete to -20", FIXED, "negative"),
    # "call 50" used to check silently when nothing was owed (the 50 was dropped): a player who typed
    # an amount meant something else, so say what a call is here instead of guessing.
    ("call 50", FREE, "nothing to call"),
    ("call 50", FIXED, "The call is 10"),
    ("fold 20", FIXED, "fold takes no amount"),
    # Fixed limit: an amount that is not one of the listed totals gets the listed totals back, not
    # the engine's stack message ("the most you can make it is 975" when the limit is 20).
    ("raise 5000", FIXED, "fixed limit: complete to 20"),
    ("bet 30", FREE, "fixed limit: bet 20 or 40"),
])
def test_amounts_that_do_not_fit_the_action_are_refused(typed: str, prompt: Prompt, reason: str) -> None:
    with pytest.raises(InputError, match=reason):
        parse_action(typed, prompt)


@pytest.mark.parametrize(("typed", "prompt", "expected"), [
    ("call 10", FIXED, ("call", None)),          # the amount of the call, said out loud: fine
    ("c", FREE, ("check", None)),                # documented: call checks when that is free
    ("bet 40", FREE, ("bet", 40)),
    ("all-in", PROMPT, ("all_in", None)),
    ("all in 480", PROMPT, ("all_in", None)),
])
def test_amounts_that_fit_the_action_are_accepted(
    typed: str, prompt: Prompt, expected: tuple[str, int | None]
) -> None:
    assert parse_action(typed, prompt) == Command(Kind(expected[0]), expected[1])


def test_hot_seat_passes_the_keyboard_at_every_new_hand(tmp_path: Path) -> None:
    # The player who acted last in a hand may be first to act in the next. Everyone watched the
    # showdown, so whoever sits at the keyboard then is unknown: the next hand's down cards must
    # wait for "Pass the keyboard to ...", like any change of player.
    out = io.StringIO()
    config = PlayConfig(db=tmp_path / "hot.sqlite3", humans=["Ann", "Bob"], bots=0, seed=11)
    # Enter deals and passes the keyboard; "c" acts, "show" shows at the showdown. Each is harmless
    # where another is expected.
    asyncio.run(play(config, io.StringIO("\nc\nshow\n" * 150), out))
    lines = out.getvalue().splitlines()
    checked = 0
    for i, line in enumerate(lines):
        if "Your cards:" not in line:
            continue
        last = max(k for k in range(i) if lines[k].startswith(("── Hand #", "Pass the keyboard to")))
        assert lines[last].startswith("Pass the keyboard to"), "\n".join(lines[last:i + 1])
        checked += 1
    assert checked >= 10 and out.getvalue().count("── Hand #") >= 3


def test_hot_seat_clears_the_scrollback_too(tmp_path: Path) -> None:
    # Clearing only the screen leaves the last player's cards one scroll away: the terminal's
    # "erase saved lines" (ESC [3J) goes with the clear.
    out = io.StringIO()
    config = PlayConfig(db=tmp_path / "tty.sqlite3", humans=["Ann", "Bob"], bots=0, seed=11, tty=True)
    asyncio.run(play(config, io.StringIO("\n\nc\n\nq\n"), out))
    text = out.getvalue()
    assert "\x1b[2J" in text and "\x1b[3J" in text


def test_between_hands_rulings_list_their_options_and_half_commands_say_what_to_type(tmp_path: Path) -> None:
    # A newcomer reading "raise_cap: 3 (default)" cannot guess that "none" is a value; and
    # "ruling raise_cap" without a value used to get only "I don't understand".
    out = io.StringIO()
    config = PlayConfig(db=tmp_path / "r.sqlite3", humans=["Ann"], bots=1, seed=2)
    asyncio.run(play(config, io.StringIO("rulings\nruling raise_cap\nstakes\nq\n"), out))
    text = out.getvalue()
    assert "raise_cap: 3 (default)" in text and "or: 4 · none" in text
    assert "Type ruling NAME VALUE" in text
    assert "Type stakes and one of: micro, small" in text


def test_auto_ends_with_the_chips_not_a_table_for_a_hand_that_never_comes() -> None:
    # After the last --auto hand the summary follows; a "Between hands (next: hand #3)" table
    # before it announced a hand that is never played.
    out = io.StringIO()
    asyncio.run(play(PlayConfig(db=None, bots=3, auto=True, hands=2, seed=7), io.StringIO(""), out))
    text = out.getvalue()
    assert "Between hands (next: hand #2)" in text
    assert "next: hand #3" not in text


def test_auto_reveal_line_checks_the_opened_cards_even_with_the_in_memory_database() -> None:
    # The example: Cleo wins uncontested. --auto keeps its database in memory, so
    # "/hand verify" or "--hand ID" could not work: the line must carry the whole check.
    # The check is kilobytes of hex: printed when asked for (--verify), not by default.
    quiet = run_cli(["--auto", "--hands", "1", "--seed", "3", "--bots", "7"], "")
    assert "wildstud verify " not in quiet.stdout and "--verify prints the whole check" in quiet.stdout
    result = run_cli(["--auto", "--hands", "1", "--seed", "3", "--bots", "7", "--verify"], "")
    assert result.returncode == 0, result.stderr
    assert "/hand verify" not in result.stdout and "--hand" not in result.stdout
    (line,) = [x for x in result.stdout.splitlines() if x.startswith("wildstud verify ")]
    assert " --leaves " in line and " --open " in line
    checked = subprocess.run([sys.executable, "-m", "bot", *line.split()[1:]], capture_output=True,
                             text=True, cwd=ROOT, check=False)
    assert checked.returncode == 0 and "stay closed" in checked.stdout, checked.stdout + checked.stderr


def test_auto_log_is_a_spectators_view_and_names_the_stored_check(tmp_path: Path) -> None:
    # The log may name a down card only if its hand was shown (or turned face up): checked hand by
    # hand against the complete histories in the database (deal lines: cards 1, 2 and 7 of a
    # player are down; "pN sm CARDS" shows a hand).
    db = tmp_path / "auto.sqlite3"
    result = run_cli(["--auto", "--hands", "6", "--seed", "5", "--bots", "4", "--db", str(db)], "")
    assert result.returncode == 0, result.stderr
    assert f"wildstud verify --hand 1 --db {db}" in result.stdout
    from tests.tables.test_secrecy import card_tokens

    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT hand_no, phh FROM hands ORDER BY hand_no").fetchall()
    logs = re.split(r"── Hand #\d+", result.stdout)[1:]
    assert len(rows) == len(logs) == 6
    mucked = 0
    for (_, phh), log in zip(rows, logs, strict=True):
        dealt: dict[str, list[str]] = {}
        shown: set[str] = set()
        for action in tomllib.loads(phh)["actions"]:
            words = action.split()
            if words[:2] == ["d", "dh"]:
                dealt.setdefault(words[2], []).extend(words[3][i:i + 2] for i in range(0, len(words[3]), 2))
            elif len(words) == 3 and words[1] == "sm":
                shown.add(words[0])
            elif words[1:] == ["sm"]:
                mucked += 1
        down = {Card.parse(c) for p, cards in dealt.items() if p not in shown
                for i, c in enumerate(cards) if i in (0, 1, 6)}
        assert not card_tokens(log) & down, log
    assert mucked, "no hand in these runs reached a muck"


def test_hot_seat_redraw_never_repeats_a_crazy_pineapple_discard_prompt(tmp_path: Path) -> None:
    # The discard prompt names the player's hole cards ("1) discard A♠  2) discard K♦ ..."), and so
    # may a refusal; the screen redrawn for the next player at the keyboard must show neither.
    out = io.StringIO()

    class Player(io.StringIO):
        """Enter at each pause, ``c`` at a betting prompt, ``1`` at a discard; ``q`` after 300."""

        reads = 0
        seen = 0

        def readline(self, *_: object) -> str:
            # Input is read ahead on a thread: wait for the next question before answering it.
            for _wait in range(400):
                text = out.getvalue()
                if len(text) > self.seen and text.endswith((">", "> ", ": ")):
                    break
                time.sleep(0.005)
            self.seen = len(text)
            self.reads += 1
            lines = text.rstrip(" ").splitlines() or [""]
            if self.reads > 300:
                return "q\n"
            if lines[-1] != ">":
                return "\n"
            return "1\n" if "1) discard" in lines[-2] else "c\n"

    config = PlayConfig(db=tmp_path / "cp.sqlite3", humans=["Ann", "Bob"], bots=0, seed=5, tty=True,
                        game="crazy-pineapple")
    asyncio.run(play(config, Player(), out))
    text = out.getvalue()
    assert "1) discard" in text and text.count("\x1b[3J") >= 4       # discards were asked, hands passed
    for redraw in text.split("\x1b[3J")[1:]:
        shown_again = re.split(r"(?:Ann|Bob)> ", redraw)[0]          # up to the next player's pause
        assert "1) discard" not in shown_again and "Not allowed" not in shown_again, shown_again
