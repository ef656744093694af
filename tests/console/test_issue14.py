"""The terminal items of issue 14: what a new user tripped on in ``wildstud play``."""

from __future__ import annotations

import asyncio
import io
import re
from pathlib import Path

import pytest

from bot.console.game import PlayConfig, play


def run(db: Path, typed: str, **kwargs: object) -> str:
    out = io.StringIO()
    config = PlayConfig(db=db, **{"humans": ["Ann"], "bots": 1, "seed": 2, **kwargs})  # type: ignore[arg-type]
    assert asyncio.run(play(config, io.StringIO(typed), out)) == 0
    return out.getvalue()


def test_stakes_set_at_the_table_survive_the_next_run(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    first = run(db, "stakes medium\n\n" + "c\nshow\n" * 40)   # show if asked at the showdown
    assert "Hand #1: " in first and "fixed limit 100/200" in first
    second = run(db, "\nq\n")                      # a plain `wildstud play`: no --stakes
    assert "Hand #2: " in second and "fixed limit 100/200" in second
    assert "→ fixed limit 20/40" not in second
    # Asked for on the command line, other stakes replace them, and the change is said at start-up.
    third = run(db, "\nq\n", stakes="small")
    start = third.split("Hand #3")[0]
    assert "Stakes: fixed limit 100/200, ante 25 and bring-in 50 → fixed limit 20/40" in start


def test_a_resumed_hot_seat_hand_says_with_whom_then_seats_the_new_line_up(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    first = run(db, "\n\n" + "c\n", humans=["Ann", "Bea"], bots=0)   # quit mid-hand (input runs out)
    assert "is saved; run wildstud play again" in first
    second = run(db, "\nc\nshow\n" * 40 + "q\n", humans=["Cid"], bots=1)
    head = second.split("Pass the keyboard")[0]
    assert re.search(r"Hand #1 is finished by the players it was dealt to, (Ann and Bea|Bea and Ann); "
                     r"then Cid and Ada sit down\.", head), head
    assert [line for line in head.splitlines() if line.startswith("Hand #1") and "resume" in line] == [
        "Hand #1 resumes after a restart: same cards, same pot."]       # one resume line
    assert "Pass the keyboard to Ann" in second or "Pass the keyboard to Bea" in second
    after = second.split("Hand #2: ")[1] if "Hand #2: " in second else ""
    assert after and "Cid" in after.splitlines()[0] and "Ann" not in after.splitlines()[0]


def test_rulings_and_chips_are_answered_during_a_hand(tmp_path: Path) -> None:
    text = run(tmp_path / "r.sqlite3", "\nrulings\nchips\nq\n")
    during = text.split("your turn", 1)[1]
    assert "I don't understand" not in during
    assert "This hand is dealt under:" in during and "raise_cap: 3 (default)" in during
    assert "Ann: " in during and " at the table, " in during and " in the bank" in during
    assert "? for help" in during or "your turn" in during        # still Ann's turn afterwards


def test_an_unknown_long_line_is_not_echoed_whole(tmp_path: Path) -> None:
    junk = "z" * 5000
    text = run(tmp_path / "e.sqlite3", f"{junk}\n\n{junk}\nq\n")
    assert junk not in text and "z" * 41 not in text
    assert text.count("I don't understand 'zzzz") == 2          # between hands and at a turn


def test_chips_after_one_hand_is_singular() -> None:
    out = io.StringIO()
    asyncio.run(play(PlayConfig(db=None, bots=2, auto=True, hands=1, seed=7), io.StringIO(""), out))
    assert "Chips after 1 hand:" in out.getvalue() and "1 hands" not in out.getvalue()


def test_the_ledger_names_terminal_players(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from bot.cli import main
    from bot.console.game import ROBOT_BASE, human_id

    db = tmp_path / "l.sqlite3"
    run(db, "\nc\nq\n")
    assert main(["ledger", "--guild", "1", "--db", str(db)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:5] == ["id", "time", "member", "name", "delta"]
    rows = [line.split() for line in lines[1:]]
    # Each row: id, date, time, member id, then the name that member sat down under.
    assert {(r[3], r[4]) for r in rows} == {(str(human_id("Ann")), "Ann"), (str(ROBOT_BASE), "Ada")}
    assert main(["ledger", "--guild", "1", "--db", str(db), "--csv"]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert "name" not in header.split(",")                     # the CSV columns stay as documented


@pytest.mark.parametrize("moves", ["c\nshow\n" * 40, "f\n" * 3 + "c\n" * 40], ids=["showdown", "fold"])
def test_history_writes_a_finished_hand_as_the_player_saw_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], moves: str
) -> None:
    import sqlite3

    from bot.cli import main
    from bot.engine.replay.replayer import replay_text

    monkeypatch.chdir(tmp_path)
    db = tmp_path / "hist.sqlite3"
    text = run(db, "\n" + moves + "history\nhistory 1\nhistory 7\nq\n")
    assert "Hand #1 as Ann saw it: written to wildstud-hand-1.phh." in text
    assert "written to wildstud-hand-1-2.phh." in text             # a second copy, not an overwrite
    assert "There is no finished hand #7 here." in text
    mine = (tmp_path / "wildstud-hand-1.phh").read_text(encoding="utf-8")
    # The full history from the database, to compare with (read with the standard library).
    with sqlite3.connect(db) as conn:
        full = conn.execute("SELECT phh FROM hands WHERE hand_no = 1").fetchone()[0]
    conn.close()
    report = replay_text(full)
    assert report.hand is not None and report.history is not None and report.hand.result is not None
    hand, players = report.hand, list(report.history.players or ())
    ann = players.index("Ann")
    shown = set(report.hand.result.shown)
    for seat in range(hand.seat_count):
        for card in hand.down_cards(seat):
            visible = seat == ann or seat in shown
            assert (card.code in mine) == visible, (seat, card, visible)
    for seat in range(hand.seat_count):
        assert all(card.code in mine for card in hand.up_cards(seat))
    if moves.startswith("f"):               # Ann folded: Ada's down cards stay hidden
        assert "??" in mine and "replays this file only when none is hidden" in text
    else:                                   # a showdown: every card was seen, and the file replays
        assert "??" not in mine and main(["replay", "wildstud-hand-1.phh"]) == 0
    capsys.readouterr()
