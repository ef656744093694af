"""Files of issue 18: the live database is created 0600; a writing open (``play --db``,
``migrate-db --from``, the bot) refuses another program's SQLite file instead of adding Wildstud's
tables to it and switching it to WAL; ``backup`` copies a database at an older schema as it is; the
terminal's ``history`` refuses a hand number it cannot have instead of crashing."""

from __future__ import annotations

import asyncio
import hashlib
import io
import sqlite3
import stat
from pathlib import Path

import pytest

from bot.cli import main
from bot.console.game import PlayConfig, play
from bot.store import NotWildstudDatabase, Store
from bot.store.migrations import LATEST


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def other_programs_file(path: Path) -> Path:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
        db.execute("INSERT INTO photos (name) VALUES ('holiday.jpg')")
    db.close()
    return path


def test_the_live_database_is_created_readable_by_its_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "new" / "wildstud.sqlite3"

    async def scenario() -> None:
        async with await Store.open(path) as store:
            await store.transfer(1, 11, 12, 5)       # a write: the -wal file exists now too

    asyncio.run(scenario())
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    for side in (Path(f"{path}-wal"), Path(f"{path}-shm")):
        if side.exists():
            assert stat.S_IMODE(side.stat().st_mode) & 0o077 == 0, side


def test_a_writing_open_refuses_another_programs_sqlite_file(tmp_path: Path) -> None:
    photos = other_programs_file(tmp_path / "photos.db")
    text = tmp_path / "notes.db"
    text.write_text("this is not a database\n")
    before = {p: digest(p) for p in (photos, text)}
    for path in (photos, text):
        with pytest.raises(NotWildstudDatabase):
            asyncio.run(Store.open(path))
        assert digest(path) == before[path]
        assert not Path(f"{path}-wal").exists()
    empty = tmp_path / "empty.db"
    empty.touch()

    async def opens(path: Path) -> None:
        async with await Store.open(path):
            pass

    asyncio.run(opens(empty))                         # an empty file is a new database
    asyncio.run(opens(empty))                         # and then a Wildstud one


def test_play_and_migrate_db_refuse_another_programs_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    photos = other_programs_file(tmp_path / "photos.db")
    before = digest(photos)
    assert main(["play", "--db", str(photos), "--auto", "--hands", "1"]) == 2
    err = capsys.readouterr().err
    assert "not a Wildstud database" in err and "Traceback" not in err
    assert main(["migrate-db", "--from", str(photos), "--to", "postgresql://nobody@127.0.0.1:1/x"]) == 2
    assert "not a Wildstud database" in capsys.readouterr().err
    assert digest(photos) == before and not Path(f"{photos}-wal").exists()


def test_backup_copies_a_database_at_an_older_schema_as_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = tmp_path / "old.sqlite3"

    async def build() -> None:
        async with await Store.open(old, upto_version=LATEST - 1):
            pass

    asyncio.run(build())
    before = digest(old)
    copy = tmp_path / "before-upgrade.sqlite3"
    assert main(["backup", str(copy), "--db", str(old)]) == 0
    assert f"schema version {LATEST - 1}" in capsys.readouterr().out
    assert digest(old) == before
    with sqlite3.connect(copy) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == LATEST - 1
    db.close()
    photos = other_programs_file(tmp_path / "photos.db")
    assert main(["backup", str(tmp_path / "b2.sqlite3"), "--db", str(photos)]) == 2
    assert "not a Wildstud database" in capsys.readouterr().err


@pytest.mark.parametrize("typed", ["history 99999999999999999999", "history ²", "history 0", "history ٣"])
def test_history_refuses_a_hand_number_it_cannot_have(tmp_path: Path, typed: str) -> None:
    out = io.StringIO()
    config = PlayConfig(db=tmp_path / "h.sqlite3", humans=["Ann"], bots=1, seed=2)
    assert asyncio.run(play(config, io.StringIO(f"{typed}\nq\n"), out)) == 0
    text = out.getvalue()
    assert "Traceback" not in text
    assert "No hand has finished" in text or "There is no finished hand" in text or "not a player" in text
