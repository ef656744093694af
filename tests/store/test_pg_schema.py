"""The PostgreSQL schema is the SQLite schema's twin, step for step; opening targets and migrating.

Each backend's catalogue is read independently (SQLite's ``PRAGMA`` tables, PostgreSQL's
``information_schema`` and ``pg_indexes``), never through the store.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from bot.store import SCHEMA_VERSION, SchemaTooNew, Store, StoreError
from bot.store.migrations import MIGRATIONS
from bot.store.pg_migrations import PG_MIGRATIONS
from tests.postgres import PostgresServer, RawDb


def sqlite_shape(path: Path) -> tuple[set[tuple[str, str, bool]], set[str], set[str]]:
    """(table, column, nullable) of every column; the index names; the trigger names."""
    with sqlite3.connect(path) as db:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        columns = set()
        for table in tables:
            for _, name, _, notnull, _, pk in db.execute(f'PRAGMA table_info("{table}")'):
                columns.add((table, name, not (notnull or pk)))
        indexes = {
            r[0]
            for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
        }
        triggers = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")}
    return columns, indexes, triggers


def postgres_shape(url: str) -> tuple[set[tuple[str, str, bool]], set[str], set[str]]:
    with RawDb(url) as db:
        columns = {
            (t, c, n == "YES")
            for t, c, n in db.execute(
                "SELECT table_name, column_name, is_nullable FROM information_schema.columns"
                " WHERE table_schema = current_schema() AND table_name <> 'wildstud_schema'"
            )
        }
        # Only the indexes created by name (PostgreSQL also names one per key and unique constraint).
        indexes = {
            r[0]
            for r in db.execute(
                "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()"
                " AND indexname NOT LIKE '%_pkey' AND indexname NOT LIKE '%_key'"
            )
        }
        triggers = {
            r[0]
            for r in db.execute(
                "SELECT tgname FROM pg_trigger WHERE NOT tgisinternal"
            )
            if not r[0].endswith("_truncate")  # SQLite has no TRUNCATE to forbid
        }
    return columns, indexes, triggers


def test_every_migration_has_its_postgresql_twin() -> None:
    assert len(PG_MIGRATIONS) == len(MIGRATIONS) == SCHEMA_VERSION


@pytest.mark.parametrize("version", range(1, SCHEMA_VERSION + 1))
async def test_each_step_builds_the_same_schema_on_both(
    version: int, tmp_path: Path, postgres_server: PostgresServer
) -> None:
    path, url = tmp_path / "twin.sqlite3", postgres_server.create_database()
    for target in (path, url):
        store = await Store.open(target, upto_version=version)
        await store.close()
    sqlite_columns, sqlite_indexes, sqlite_triggers = sqlite_shape(path)
    pg_columns, pg_indexes, pg_triggers = postgres_shape(url)
    assert pg_columns == sqlite_columns
    assert pg_indexes == sqlite_indexes
    assert pg_triggers == sqlite_triggers


async def test_postgres_migrations_are_versioned_and_opening_twice_changes_nothing(
    postgres_server: PostgresServer,
) -> None:
    url = postgres_server.create_database()
    async with await Store.open(url, upto_version=2) as store:
        assert store.backend == "postgresql"
    with RawDb(url) as db:
        assert db.execute("SELECT version FROM wildstud_schema") == [(2,)]
        assert "hands" not in db.tables()
        db.execute("INSERT INTO guild_settings (guild_id, starting_chips, updated) VALUES (1, 555, 'x')")
    async with await Store.open(url) as store:  # the rest of the steps; the settings are still there
        assert (await store.guild_settings(1)).starting_chips == 555
    with RawDb(url) as db:
        assert db.execute("SELECT version FROM wildstud_schema") == [(SCHEMA_VERSION,)]
        before = {t: db.execute(f'SELECT * FROM "{t}"') for t in db.tables()}
    async with await Store.open(url):
        pass
    with RawDb(url) as db:
        assert {t: db.execute(f'SELECT * FROM "{t}"') for t in db.tables()} == before


async def test_a_newer_postgres_schema_is_refused(postgres_server: PostgresServer) -> None:
    url = postgres_server.create_database()
    async with await Store.open(url):
        pass
    with RawDb(url) as db:
        db.execute("UPDATE wildstud_schema SET version = ?", (SCHEMA_VERSION + 1,))
    with pytest.raises(SchemaTooNew):
        await Store.open(url)


@pytest.mark.parametrize("target", ["mysql://bot@db/chips", "postgresq://typo/x", "http://example.org/db"])
async def test_an_unknown_scheme_is_refused_and_creates_nothing(
    target: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(StoreError, match="postgresql://") as refused:
        await Store.open(target)
    assert target.split(":")[0] in str(refused.value)
    assert os.listdir(tmp_path) == []  # no folder named after the scheme, no file


async def test_sqlite_urls_and_database_url_select_the_backend(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, postgres_server: PostgresServer
) -> None:
    monkeypatch.chdir(tmp_path)
    async with await Store.open("sqlite:rel.sqlite3") as store:
        assert store.backend == "sqlite" and store.path == Path("rel.sqlite3")
    async with await Store.open(f"sqlite://{tmp_path}/abs.sqlite3") as store:
        assert store.path == tmp_path / "abs.sqlite3"
    assert (tmp_path / "rel.sqlite3").is_file() and (tmp_path / "abs.sqlite3").is_file()
    url = postgres_server.create_database()
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "not-used.sqlite3"))
    monkeypatch.setenv("DATABASE_URL", url)
    async with await Store.open() as store:  # DATABASE_URL wins over DATABASE_PATH
        assert store.backend == "postgresql" and store.path is None
    assert not (tmp_path / "not-used.sqlite3").exists()
