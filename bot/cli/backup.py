"""``wildstud backup PATH [--db PATH]``: copy the database to a new file, safely while the bot runs.

Uses SQLite's online backup API (:meth:`sqlite3.Connection.backup`), which copies a consistent
snapshot -- including changes still in the write-ahead log, which a plain ``cp`` of the main file
would miss -- and restarts by itself when the bot writes mid-copy. The source is opened read-only
and must be a Wildstud database, at any schema version (an older one is copied as it is: back up
before the first start after an upgrade). The copy is written
to a temporary file beside ``PATH``, checked with ``PRAGMA quick_check``, switched to a single
self-contained file (rollback journal) and only then renamed to ``PATH``; an existing ``PATH`` is
never overwritten. SQLite only: a PostgreSQL ``--db`` (or ``DATABASE_URL``) is refused, since
``pg_dump`` is PostgreSQL's own tool for this. To restore: stop the bot, move the backup to the
database path (removing any ``-wal``/``-shm`` files left beside the old one), start the bot.

Exit status 0 on success, 2 when the source cannot be read or ``PATH`` cannot be written.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any

PAGES_PER_STEP = 1024
"""Pages copied per backup step; between steps the bot may write (the copy then restarts)."""


def register(subparsers: Any) -> None:
    """Add the ``backup`` sub-command."""
    parser = subparsers.add_parser(
        "backup",
        help="copy the database to a new file (safe while the bot runs)",
        description=(
            "Copy the Wildstud database to PATH with SQLite's online backup API: a consistent copy "
            "even while the bot is running. PATH must not exist yet."
        ),
    )
    parser.add_argument("path", metavar="PATH", type=Path, help="the new backup file")
    parser.add_argument(
        "--db",
        metavar="PATH",
        help="SQLite database to copy (default: $DATABASE_URL, else $DATABASE_PATH, "
        "else ./data/wildstud.sqlite3); a PostgreSQL database is refused: back it up with pg_dump",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Back up the database; returns the exit status."""
    from bot.cli.database import database_target, shown
    from bot.store import NotWildstudDatabase
    from bot.store.backend import sqlite_file_version

    try:
        found = database_target(args.db)
    except ValueError as error:
        print(f"backup: {error}", file=sys.stderr)
        return 2
    if not isinstance(found, Path):
        print(f"backup: {shown(found)} is a PostgreSQL database; wildstud backup copies only a SQLite "
              "file (back PostgreSQL up with pg_dump)", file=sys.stderr)
        return 2
    source: Path = found
    target: Path = args.path
    if target.exists() or target.is_symlink():
        print(f"backup: {target} already exists; a backup never overwrites a file (choose a new name)",
              file=sys.stderr)
        return 2
    if not target.parent.is_dir():
        print(f"backup: no folder {target.parent} to write {target.name} in", file=sys.stderr)
        return 2

    # A Wildstud database at any schema version: the README asks for a backup before the first
    # start after an upgrade, so an older schema is copied as it is (nothing is migrated).
    if not source.exists():
        print(f"backup: no database at {source}", file=sys.stderr)
        return 2
    if not source.is_file():
        print(f"backup: cannot open {source}: it is not a database file", file=sys.stderr)
        return 2
    try:
        if source.stat().st_size == 0 or sqlite_file_version(source) == 0:
            raise NotWildstudDatabase(f"cannot open {source}: not a Wildstud database (it has no tables)")
        pages, version = backup(source, target)
    except NotWildstudDatabase as error:
        print(f"backup: {error}", file=sys.stderr)
        return 2
    except (sqlite3.Error, OSError) as error:
        print(f"backup: cannot write {target}: {' '.join(str(error).split())}", file=sys.stderr)
        return 2
    print(f"backed up {source} to {target} ({pages} pages, schema version {version})")
    return 0


def backup(source: Path, target: Path) -> tuple[int, int]:
    """Copy ``source`` (opened read-only) to a new file ``target``; returns ``(pages, user_version)``.

    Raises ``sqlite3.Error`` or ``OSError``; ``target`` then does not exist.
    """
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".partial", dir=target.parent)
    os.close(handle)
    try:
        src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
        try:
            dst = sqlite3.connect(temporary)
            try:
                src.backup(dst, pages=PAGES_PER_STEP)
                dst.execute("PRAGMA journal_mode = DELETE")     # one self-contained file
                found = [row[0] for row in dst.execute("PRAGMA quick_check")]
                if found != ["ok"]:
                    raise sqlite3.DatabaseError(f"the copy fails quick_check: {found[0]}")
                pages = int(dst.execute("PRAGMA page_count").fetchone()[0])
                version = int(dst.execute("PRAGMA user_version").fetchone()[0])
            finally:
                dst.close()
        finally:
            src.close()
        if target.exists():
            raise FileExistsError(f"{target} appeared while backing up")
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return pages, version
