"""The ``--db`` option shared by the commands that open the store (audit, ledger, verify, play).

``--db`` takes a SQLite file path, ``sqlite:PATH`` or a ``postgresql://`` URL; without it the
``DATABASE_URL`` setting applies, else ``DATABASE_PATH``. A value with any other ``scheme:`` is
refused with the schemes that work (it never becomes a folder named after its scheme).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

DB_HELP = (
    "the database: a SQLite file, sqlite:PATH or postgresql://USER:PASSWORD@HOST/DB "
    "(default: $DATABASE_URL, else $DATABASE_PATH, else ./data/wildstud.sqlite3)"
)


def database_target(explicit: str | Path | None) -> str | Path:
    """``--db`` if given, else the settings' database. Raises ``ValueError`` (a one-line reason)
    for an unknown scheme."""
    from bot.store.backend import parse_target

    if explicit is None or str(explicit) == "":
        from bot.settings import load_settings

        explicit = load_settings().database
    kind, target = parse_target(explicit if isinstance(explicit, Path) else str(explicit))
    return Path(target) if kind == "sqlite" else target


def missing_database(target: str | Path) -> str | None:
    """Why ``target`` holds no Wildstud database (None if it does), checked without creating one:
    a SQLite file that does not exist, or a PostgreSQL database without Wildstud's schema (or one
    that cannot be reached)."""
    if isinstance(target, Path):
        if str(target) == ":memory:" or target.is_file():
            return None
        return f"no database at {target}"

    from bot.store.backend import redact
    from bot.store.pg_migrations import holds_wildstud

    try:
        found = asyncio.run(holds_wildstud(target))
    except ImportError:
        return "PostgreSQL needs the asyncpg package: pip install 'wildstud[postgres]'"
    except Exception as error:  # the server's or the network's reason, whatever it is
        return f"cannot open {redact(target)}: {error}"
    return None if found else f"no Wildstud database at {redact(target)} (it has no Wildstud tables)"


def database_errors() -> tuple[type[BaseException], ...]:
    """The exceptions that mean "this database cannot be used" on either backend."""
    import sqlite3

    errors: tuple[type[BaseException], ...] = (sqlite3.DatabaseError, OSError)
    try:
        import asyncpg
    except ImportError:
        return errors
    return (*errors, asyncpg.PostgresError, asyncpg.InterfaceError)
