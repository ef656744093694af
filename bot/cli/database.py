"""The ``--db`` option shared by the commands that open the store, and the read-only opening.

``--db`` takes a SQLite file path, ``sqlite:PATH`` or a ``postgresql://`` URL; without it the
``DATABASE_URL`` setting applies, else ``DATABASE_PATH``. A value with any other ``scheme:`` is
refused with the schemes that work (it never becomes a folder named after its scheme).

The read-only commands (``audit``, ``ledger``, ``verify --hand``, ``history``) go through
:func:`read_database`, which opens the store with :meth:`bot.store.Store.open_readonly`: nothing
is created, migrated or (SQLite) switched to WAL, and a database that is not Wildstud's is
refused with a one-line reason. The commands that write (``play``, ``run``) open it normally.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from bot.store import Store

T = TypeVar("T")

DB_HELP = (
    "the database: a SQLite file, sqlite:PATH or postgresql://USER:PASSWORD@HOST/DB "
    "(default: $DATABASE_URL, else $DATABASE_PATH, else ./data/wildstud.sqlite3)"
)


class Unreadable(Exception):
    """The database cannot be read; ``str(error)`` is one line saying why (exit status 2)."""


def database_target(explicit: str | Path | None) -> str | Path:
    """``--db`` if given, else the settings' database: a :class:`~pathlib.Path` for SQLite, the URL
    (a ``str``) for PostgreSQL. Raises ``ValueError`` (a one-line reason) for an unknown scheme."""
    from bot.store.backend import parse_target

    if explicit is None or str(explicit) == "":
        from bot.settings import load_settings

        explicit = load_settings().database
    kind, target = parse_target(explicit if isinstance(explicit, Path) else str(explicit))
    return Path(target) if kind == "sqlite" else target


def shown(target: str | Path) -> str:
    """The database as messages name it: the file, or the URL without its password."""
    from bot.store.backend import redact

    return str(target) if isinstance(target, Path) else redact(target)


def missing_database(target: str | Path) -> str | None:
    """Why ``target`` holds no Wildstud database (None if it does), checked without creating one:
    a SQLite file that does not exist, or a PostgreSQL database without Wildstud's schema (or one
    that cannot be reached)."""
    if isinstance(target, Path):
        if str(target) == ":memory:" or target.is_file():
            return None
        return f"no database at {target}"

    from bot.store.pg_migrations import holds_wildstud

    try:
        found = asyncio.run(holds_wildstud(target))
    except ImportError:
        return "PostgreSQL needs the asyncpg package: pip install 'wildstud[postgres]'"
    except Exception as error:  # the server's or the network's reason, whatever it is
        return _one_line(f"cannot open {shown(target)}: {error}")
    return None if found else f"no Wildstud database at {shown(target)} (it has no Wildstud tables)"


def database_errors() -> tuple[type[BaseException], ...]:
    """The exceptions that mean "this database cannot be used" on either backend."""
    from bot.store.errors import database_failures

    return database_failures()


def read_database(target: str | Path, work: Callable[[Store], Awaitable[T]]) -> T:
    """Open ``target`` (a SQLite file or a PostgreSQL URL, as :func:`database_target` gives it)
    read-only, run ``work(store)`` and close it; returns what ``work`` returns.

    Raises :class:`Unreadable` for a missing or non-Wildstud database, a schema this code cannot
    read, a damaged file (SQLite errors, text that is not UTF-8) or a PostgreSQL server that cannot
    be reached or refuses. Errors of ``work`` itself (a ``StoreError`` for a bad id, say) pass
    through.
    """
    from bot.store import NotWildstudDatabase, SchemaTooNew, Store

    async def run() -> T:
        async with await Store.open_readonly(target) as store:
            return await work(store)

    try:
        return asyncio.run(run())
    except (NotWildstudDatabase, SchemaTooNew) as error:
        raise Unreadable(_one_line(str(error))) from None
    except UnicodeDecodeError:
        raise Unreadable(
            f"cannot read {shown(target)}: the database is damaged (text that is not UTF-8)"
        ) from None
    except database_errors() as error:  # damaged pages, an unreadable file, no server
        verb = "read" if isinstance(target, Path) else "open"  # PostgreSQL: the server or login refused
        raise Unreadable(_one_line(f"cannot {verb} {shown(target)}: {error}")) from None


def _one_line(text: str) -> str:
    return " ".join(text.split())


async def member_names(store: Store, table_ids: list[int]) -> dict[int, str]:
    """The names members sat down under at these tables (kept in each table's settings), by id;
    a later table's name wins."""
    names: dict[int, str] = {}
    for table_id in table_ids:
        settings = (await store.get_table(table_id)).settings
        found = settings.get("names") if isinstance(settings, dict) else None
        if isinstance(found, dict):
            names.update({int(k): str(v) for k, v in found.items() if str(k).isdigit()})
    return names
