"""Read-only commands (``audit``, ``ledger``, ``verify --hand``) on files that are not a usable
Wildstud database: exit status 2, one line on standard error, no traceback, and the file unchanged
(issue 14). Also: on a real database they read it without writing it."""

from __future__ import annotations

import asyncio
import hashlib
import shutil
import sqlite3
from pathlib import Path

import pytest

from bot.cli import main
from bot.store import NotWildstudDatabase, SchemaTooNew, Store
from tests.store.test_cli import played  # noqa: F401  (the fixture)

G = 100
COMMANDS = (["audit"], ["ledger", "--guild", str(G)], ["verify", "--hand", "1"])


def digest(path: Path) -> str | None:
    """The file's bytes (None for a directory or device), to prove a command wrote nothing."""
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None


def bad_files(tmp_path: Path, good: Path) -> dict[str, Path]:
    files: dict[str, Path] = {"directory": tmp_path / "a-directory", "missing": tmp_path / "missing.sqlite3"}
    files["directory"].mkdir()
    files["text"] = tmp_path / "notes.sqlite3"
    files["text"].write_text("this is not a database\n")
    files["empty"] = tmp_path / "empty.sqlite3"
    files["empty"].touch()
    files["other"] = tmp_path / "other.sqlite3"
    with sqlite3.connect(files["other"]) as db:          # another program's file, a rollback journal
        db.execute("CREATE TABLE ledger (x)")
        db.execute("INSERT INTO ledger VALUES (1)")
    db.close()
    files["newer"] = tmp_path / "newer.sqlite3"
    shutil.copy(good, files["newer"])
    with sqlite3.connect(files["newer"]) as db:
        db.execute("PRAGMA user_version = 99")
    db.close()
    files["older"] = tmp_path / "older.sqlite3"

    async def older() -> None:
        async with await Store.open(files["older"], upto_version=2):
            pass

    asyncio.run(older())
    # Damaged text: a ledger reason whose bytes are no longer UTF-8 (SQLite itself does not notice).
    files["bad-text"] = tmp_path / "bad-text.sqlite3"
    data = good.read_bytes()
    at = data.index(b"buy_in")
    files["bad-text"].write_bytes(data[:at] + b"\xff\xfe" + data[at + 2:])
    # Damaged structure: the header of the ledger's root page overwritten.
    with sqlite3.connect(good) as db:
        size = db.execute("PRAGMA page_size").fetchone()[0]
        root = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'ledger'").fetchone()[0]
    db.close()
    files["bad-page"] = tmp_path / "bad-page.sqlite3"
    at = (root - 1) * size
    files["bad-page"].write_bytes(data[:at] + b"\xff" * 12 + data[at + 12:])
    return files


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_bad_database_files_exit_2_with_one_line_and_stay_unchanged(
    played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]  # noqa: F811
) -> None:
    for kind, path in bad_files(tmp_path, played).items():
        before = digest(path)
        status = main([*command, "--db", str(path)])
        out, err = capsys.readouterr()
        if kind == "bad-page" and command[0] != "audit":
            # Only the audit reads every page (quick_check); the others may not touch the damage.
            assert status in (0, 1, 2) and "Traceback" not in err
        else:
            assert status == 2, (kind, out, err)
            assert err.count("\n") == 1 and "Traceback" not in err, (kind, err)
        assert digest(path) == before, f"{command[0]} changed the {kind} file"
        wal = Path(f"{path}-wal")                  # SQLite's side file of a WAL database: nothing in it
        assert not wal.exists() or wal.stat().st_size == 0, kind
    assert not (tmp_path / "missing.sqlite3").exists()


def test_dev_null_is_refused_and_not_created(capsys: pytest.CaptureFixture[str]) -> None:
    for command in COMMANDS:
        assert main([*command, "--db", "/dev/null"]) == 2
        assert capsys.readouterr().err.count("\n") == 1


def test_no_tables_created_and_no_wal_switch(tmp_path: Path) -> None:
    # The old read path ran the migrations and switched the file to WAL.
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE notes (x)")
    db.close()
    for command in COMMANDS:
        assert main([*command, "--db", str(other)]) == 2
    with sqlite3.connect(other) as db:
        names = [row[0] for row in db.execute("SELECT name FROM sqlite_master")]
        mode = db.execute("PRAGMA journal_mode").fetchone()[0]
    db.close()
    assert names == ["notes"] and mode == "delete"


def test_read_only_commands_read_a_real_database_without_writing(
    played: Path, capsys: pytest.CaptureFixture[str]  # noqa: F811
) -> None:
    before = digest(played)
    assert main(["audit", "--db", str(played)]) == 0
    assert main(["ledger", "--guild", str(G), "--db", str(played)]) == 0
    assert main(["verify", "--hand", "1", "--db", str(played)]) == 2   # its toy deck is not 52 cards
    capsys.readouterr()
    assert digest(played) == before


def test_open_readonly_refuses_writes_and_non_wildstud_files(played: Path, tmp_path: Path) -> None:  # noqa: F811
    files = bad_files(tmp_path, played)

    async def check() -> None:
        async with await Store.open_readonly(played) as store:
            with pytest.raises(sqlite3.OperationalError):
                await store.transfer(G, 11, 12, 1)
        with pytest.raises(NotWildstudDatabase, match="no database"):
            await Store.open_readonly(tmp_path / "nothing")
        with pytest.raises(SchemaTooNew):
            await Store.open_readonly(files["newer"])
        for kind in ("directory", "text", "empty", "other", "older"):
            with pytest.raises(NotWildstudDatabase):
                await Store.open_readonly(files[kind])

    asyncio.run(check())
