"""``wildstud backup PATH [--db PATH]`` (issue 14): SQLite's online backup of the database."""

from __future__ import annotations

import asyncio
import os
import sqlite3
from pathlib import Path

import pytest

from bot.cli import main
from bot.store import Store
from tests.store.test_cli import played  # noqa: F401  (the fixture)


def dump(path: Path) -> list[str]:
    """Every schema statement and row, read with the standard library (not through the store)."""
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return list(db.iterdump())
    finally:
        db.close()


def test_backup_while_the_bot_runs_holds_changes_not_yet_checkpointed(
    played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]  # noqa: F811
) -> None:
    copy = tmp_path / "backup.sqlite3"

    async def scenario() -> None:
        # The bot keeps its store open; its latest transfer sits in the WAL, not yet in the main file.
        async with await Store.open(played) as store:
            await store.transfer(100, 12, 11, 7)
            assert await asyncio.to_thread(os.path.getsize, f"{played}-wal") > 0
            assert await asyncio.to_thread(main, ["backup", str(copy), "--db", str(played)]) == 0
            await store.transfer(100, 12, 11, 1)          # the bot goes on writing afterwards

    asyncio.run(scenario())
    assert capsys.readouterr().out.startswith(f"backed up {played} to {copy}")
    with sqlite3.connect(copy) as db:
        deltas = sorted(row[0] for row in db.execute("SELECT delta FROM ledger WHERE kind = 'transfer'"))
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"   # one self-contained file
    db.close()
    # The transfer of 7 still in the WAL is copied; the one of 1 made after the backup is not.
    assert deltas == [-100, -7, 7, 100]
    assert not Path(f"{copy}-wal").exists()
    assert main(["audit", "--db", str(copy)]) == 0                # a restored copy is a sound database


def test_backup_is_a_faithful_copy(played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    copy = tmp_path / "copy.sqlite3"
    assert main(["backup", str(copy), "--db", str(played)]) == 0
    assert dump(copy) == dump(played)


def test_backup_refuses_without_changing_anything(
    played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]  # noqa: F811
) -> None:
    existing = tmp_path / "existing.sqlite3"
    existing.write_bytes(b"keep me")
    foreign = tmp_path / "foreign.sqlite3"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE notes (x)")
    db.close()
    cases = [
        ([str(existing), "--db", str(played)], "already exists"),
        ([str(tmp_path / "new1.sqlite3"), "--db", str(tmp_path / "missing.sqlite3")], "no database"),
        ([str(tmp_path / "new2.sqlite3"), "--db", str(foreign)], "not a Wildstud database"),
        ([str(tmp_path / "no-folder" / "new3.sqlite3"), "--db", str(played)], "no folder"),
    ]
    for argv, reason in cases:
        assert main(["backup", *argv]) == 2
        err = capsys.readouterr().err
        assert reason in err and err.count("\n") == 1, err
    assert existing.read_bytes() == b"keep me"
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == ["existing.sqlite3", "foreign.sqlite3", "game.sqlite3"]
