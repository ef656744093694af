"""Terminal and command-line defects a tester and a newcomer found after issue 17."""

from __future__ import annotations

import asyncio
import io
import re
import sqlite3
from pathlib import Path

import pytest

from bot.cli import main
from bot.console.commands import InputError, parse_action
from bot.console.game import PlayConfig, play
from bot.tables.notices import ActionOption, Prompt

PROMPT = Prompt(1, "Ann", 7, 3, (ActionOption("fold", label="fold"),
                                 ActionOption("call", 10, label="call 10"),
                                 ActionOption("raise", 40, 40, 40, label="raise to 40")), "")


def run(db: Path, typed: str, **kwargs: object) -> str:
    out = io.StringIO()
    config = PlayConfig(db=db, **{"humans": ["Ann"], "bots": 1, "seed": 2, **kwargs})  # type: ignore[arg-type]
    assert asyncio.run(play(config, io.StringIO(typed), out)) == 0
    return out.getvalue()


@pytest.mark.parametrize("typed", ["²", "fold ²", "call ²", "raise ²", "٣", "9" * 5000, "raise " + "9" * 5000,
                                   "call " + "1" * 5000])
def test_digits_that_are_not_ascii_or_too_many_are_refused_with_a_line(typed: str) -> None:
    # str.isdigit() accepts "²" (int() refuses it) and int() refuses more than 4,300 digits.
    with pytest.raises(InputError) as refused:
        parse_action(typed, PROMPT)
    assert len(str(refused.value).splitlines()) == 1 and len(str(refused.value)) < 200


def test_superscripts_and_long_numbers_at_the_table_are_answered(tmp_path: Path) -> None:
    long = "9" * 5000
    text = run(tmp_path / "x.db", f"\n²\nfold ²\ncall ²\n{long}\nverify ²\nq\n")
    assert "I don't understand '²'" in text
    assert "is too large a number" in text or "Choose a number" in text


def test_a_superscript_at_the_dealers_choice_prompt_is_refused(tmp_path: Path) -> None:
    text = run(tmp_path / "x.db", f"\n²\n{'9' * 5000}\nq\n", game="dealers-choice", seed=1)
    assert text.count("you deal: choose the game") == 1          # the menu once,
    assert text.count("No game here is called") == 2             # one line for each refusal


def test_play_on_a_database_of_a_newer_schema_says_one_line(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "new.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE notes(x)")
        conn.execute("PRAGMA user_version = 100")
    conn.close()
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    assert main(["play", "--db", str(db), "--name", "Ann"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err


def test_hot_seat_history_never_writes_a_players_down_cards(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "hs.db"
    # Bob brings in, Ann folds: Bob wins uncontested, nobody's down cards were shown.
    text = run(db, "\n\n1\n\nf\nhistory 1 Ann\nhistory 1 Bob\nhistory 1\nq\n",
               humans=["Ann", "Bob"], bots=0, seed=5)
    with sqlite3.connect(db) as conn:
        full = conn.execute("SELECT phh FROM hands WHERE hand_no = 1").fetchone()[0]
    conn.close()
    down = re.findall(r'"d dh p\d ([2-9TJQKA][cdhs])+', full)
    assert down                                                  # the full history has them
    written = sorted(tmp_path.glob("wildstud-hand-1*.phh"))
    assert len(written) == 3, text
    for path in written:
        mine = path.read_text(encoding="utf-8")
        assert not re.search(r'"d dh p\d [2-9TJQKA][cdhs]', mine), mine
    assert "as the table saw it" in text and "as Ann saw it" not in text and "as Bob saw it" not in text


UNUSABLE = {
    "missing.phh": 'variant = "F7S"\n',
    "game.phh": ('_game = "nope"\nvariant = "F7S"\nante_trimming_status = true\nantes = [0, 0]\n'
                 'bring_in = 1\nsmall_bet = 2\nbig_bet = 4\nstarting_stacks = [100, 100]\nactions = []\n'),
}


@pytest.mark.parametrize("name", [*UNUSABLE, "hidden.phh"])
@pytest.mark.parametrize("as_json", [False, True])
def test_replay_of_an_unusable_history_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, as_json: bool
) -> None:
    path = tmp_path / name
    if name == "hidden.phh":
        hand = Path(__file__).resolve().parents[1] / "hands" / "06-split-pot-odd-chip.toml"
        text = re.sub(r'"d dh p1 [2-9TJQKA][cdhs]', '"d dh p1 ??', hand.read_text(encoding="utf-8"))
        assert "??" in text
    else:
        text = UNUSABLE[name]
    path.write_text(text, encoding="utf-8")
    assert main(["replay", str(path), *(["--json"] if as_json else [])]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1, (out, err)


def test_auto_with_a_file_stands_the_computer_players_up(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "auto.db"
    out = io.StringIO()
    config = PlayConfig(db=db, humans=[], bots=3, auto=True, hands=1, seed=4)
    assert asyncio.run(play(config, io.StringIO(""), out)) == 0
    assert out.getvalue().count("leaves the table with") == 3
    capsys.readouterr()
    assert main(["audit", "--db", str(db)]) == 0
    # Every chip is back in a balance (the three started with 1,000 each).
    assert "3 members, 3,000 chips in balances, 0 in play" in capsys.readouterr().out
    with sqlite3.connect(db) as conn:
        seated = conn.execute("SELECT COUNT(*) FROM seats").fetchone()[0]
    conn.close()
    assert seated == 0
    # At the keyboard next, nobody is staked by the house: each computer player has their chips.
    text = run(db, "q\n", bots=3, seed=4)
    assert "the house stakes them" not in text
