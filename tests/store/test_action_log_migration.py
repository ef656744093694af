"""Migration 4 on a real database written by the code before it (``tests/fixtures/codec-v3.sqlite3``).

How the fixture was made (schema 3, commit 0ef0356, before any change of this migration): a short
script drove ``TableService`` on a fresh file with a ``FakeClock`` (turn timer 60 s, no reminder)
and ``RecordingPresenter``, answering each prompt through ``TableService.act``:

* table 1 (guild 1, channel 100, fixed limit 20/40, ante 5, bring-in 10): Ann (member 101, 1000
  chips), Bea (102, 1000), Cid (103, 400). Hand 1 on a stacked deck (Bea Ks Kd Kh 9c 8d 2c 3h,
  Cid Qs Qd 2h Jc 4d 4s 7c, Ann As Ac 9h 9d 6h 6c Th): Cid ``bring_in``, Ann ``complete``, Bea
  ``raise 40``, Cid ``check_or_call``, Ann ``call``; fourth street Ann ``bet 20``, Bea ``call``,
  Cid ``fold``; then checks to the showdown (finished). Hand 2 (seeded deck): Ann ``bring_in``,
  the clock advanced 61 s so Bea's timer folds her (``timeout``), Cid ``call``; left unfinished.
* table 2 (channel 200, no limit, minimum bet 20): Dan (201, 500), Eve (202, 800). Hand 1: Dan
  ``bring_in``, Eve ``complete 30``, Dan ``raise 90``, Eve ``All-in``, Dan ``call`` (finished at
  the showdown). Hand 2: Dan ``bring_in``, Eve ``complete``, Dan ``call``, Eve ``bet 50``, Dan
  ``raise 150``; left unfinished with Eve to act.

The expected PHH strings below are written by hand from those commands and the stakes (what each
command put the seat's street total *to*), not produced by the code under test; for the finished
hands they are also checked against the ``phh`` history each hand stored when it was settled.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from bot.engine.phh import parse_phh
from bot.store import SCHEMA_VERSION, Store

FIXTURE = Path(__file__).parent.parent / "fixtures" / "codec-v3.sqlite3"

OLD = {
    1: ["seats 2 3 1", "p2 bring_in", "p3 complete", "p1 raise 40", "p2 check_or_call", "p3 call",
        "p3 bet 20", "p1 call", "p2 fold", "p3 check", "p1 check", "p3 check", "p1 check", "p3 check",
        "p1 check"],
    2: ["seats 3 1 2", "p2 bring_in", "p3 timeout", "p1 call"],
    3: ["seats 2 1", "p2 bring_in", "p1 complete 30", "p2 raise 90", "p1 all_in", "p2 call"],
    4: ["seats 1 2", "p1 bring_in", "p2 complete", "p1 call", "p2 bet 50", "p1 raise 150"],
}

NEW = {
    1: ["seats 2 3 1", "p2 pb", "p3 cbr 20", "p1 cbr 40", "p2 cc", "p3 cc",
        "p3 cbr 20", "p1 cc", "p2 f", "p3 cc", "p1 cc", "p3 cc", "p1 cc", "p3 cc", "p1 cc"],
    2: ["seats 3 1 2", "p2 pb", "p3 f  # timed out", "p1 cc"],
    # Eve (p1, table seat 2) had 800 and paid the ante of 5: all-in is "to 795".
    3: ["seats 2 1", "p2 pb", "p1 cbr 30", "p2 cbr 90", "p1 cbr 795", "p2 cc"],
    # Eve's bare "complete" is the completion to the minimum bet, 20.
    4: ["seats 1 2", "p1 pb", "p2 cbr 20", "p1 cc", "p2 cbr 50", "p1 cbr 150"],
}


def _logs(path: Path) -> dict[int, list[str]]:
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT hand_id, action FROM hand_actions ORDER BY hand_id, seq").fetchall()
    out: dict[int, list[str]] = {}
    for hand_id, action in rows:
        out.setdefault(hand_id, []).append(action)
    return out


def _version(path: Path) -> int:
    with sqlite3.connect(path) as db:
        return int(db.execute("PRAGMA user_version").fetchone()[0])


def _copy(tmp_path: Path) -> Path:
    path = tmp_path / "old.sqlite3"
    shutil.copyfile(FIXTURE, path)
    return path


def test_the_fixture_is_what_its_docstring_says() -> None:
    assert _version(FIXTURE) == 3
    assert _logs(FIXTURE) == OLD


async def test_the_log_becomes_phh_and_everything_else_stays(
    tmp_path: Path, snapshot_of, read_schema
) -> None:
    path = _copy(tmp_path)
    before = snapshot_of(path)
    async with await Store.open(path) as store:
        assert (await store.audit()).ok
        assert [h.status for h in [await store.get_hand(i) for i in (1, 2, 3, 4)]] == [
            "finished", "in_progress", "finished", "in_progress"]
    # 4 converts the log; 5, 6 add tables; 7 hands.game; 8 table leases; 9 their generation;
    # 10 tournaments; 11 stats; 12 daily stat totals
    assert _version(path) == SCHEMA_VERSION == 12
    assert _logs(path) == NEW
    after = snapshot_of(path)
    # Migration 6 appends hands.game: every hand dealt before it was Sex in the Middle East.
    assert {row[-1] for row in after["hands"]} == {"sex-in-the-middle-east"}
    after["hands"] = [row[:-1] for row in after["hands"]]
    # Migration 10 appends ledger.tournament_id: no row of that time belongs to a tournament.
    assert {row[-1] for row in after["ledger"]} == {None}
    after["ledger"] = [row[:-1] for row in after["ledger"]]
    for table, rows in before.items():        # only the action log changed
        if table != "hand_actions":
            assert after[table] == rows, table
    fresh = tmp_path / "fresh.sqlite3"
    async with await Store.open(fresh):
        pass
    assert read_schema(path) == read_schema(fresh)   # the append-only trigger is back, as it was
    with sqlite3.connect(path) as db, pytest.raises(sqlite3.IntegrityError, match="append-only"):
        db.execute("UPDATE hand_actions SET action = 'p1 f' WHERE hand_id = 2 AND seq = 2")


async def test_a_finished_hands_log_is_its_settled_history(tmp_path: Path) -> None:
    # The PHH each finished hand stored at settlement (written by the exporter from the engine's
    # log) lists the same player actions as the converted log, in order (its deal lines and the
    # showdown's show lines aside, which the log does not hold).
    path = _copy(tmp_path)
    async with await Store.open(path) as store:
        for hand_id in (1, 3):
            record = await store.get_hand(hand_id)
            assert record.phh is not None
            history = parse_phh(record.phh)
            played = [a.text.strip() for a in history.actions if not a.is_deal and a.kind != "sm"]
            assert played == list(record.actions[1:])
            assert list(history.seats or ()) == [int(s) for s in record.actions[0].split()[1:]]


async def test_opening_again_changes_nothing(tmp_path: Path, snapshot_of) -> None:
    path = _copy(tmp_path)
    async with await Store.open(path):
        pass
    rows = snapshot_of(path)
    async with await Store.open(path):
        pass
    assert snapshot_of(path) == rows


async def test_a_log_that_does_not_replay_is_left_as_it_was(tmp_path: Path) -> None:
    # Damage hand 4 (an action nobody could take); migration 4 converts the others and leaves it,
    # for the table service to void on start-up as it always did with a log it cannot replay.
    path = _copy(tmp_path)
    with sqlite3.connect(path) as db:
        db.execute(
            "INSERT INTO hand_actions (hand_id, seq, action, created) VALUES (4, 7, 'p1 raise 1', 'x')"
        )
    async with await Store.open(path):
        pass
    logs = _logs(path)
    assert logs[4] == [*OLD[4], "p1 raise 1"]
    assert {k: v for k, v in logs.items() if k != 4} == {k: v for k, v in NEW.items() if k != 4}
