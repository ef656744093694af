"""Fixtures for the store tests: a real database per test, on each backend (``backend`` is
``sqlite``, a file, or ``postgresql``, a fresh database on the test server of ``tests/postgres.py``),
a hand-driven clock, and an independent read of the database through the drivers (sqlite3,
psycopg), not through the store.

``db_path`` is the test database's target: a SQLite ``Path`` or a ``postgresql://`` URL; every
test that takes it (or ``store``, ``snap``) runs once per backend."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.store import Store
from tests.postgres import RawDb

BACKENDS = ("sqlite", "postgresql")


class FakeClock:
    """A clock the test moves by hand (starts 2026-03-01 20:00 UTC, a Sunday night game)."""

    def __init__(self) -> None:
        self.now = datetime(2026, 3, 1, 20, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kwargs: float) -> None:
        self.now += timedelta(**kwargs)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """The backend under test: every test using it (through ``db_path``, ``store``) runs on both."""
    return str(request.param)


@pytest.fixture
def db_path(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Path | str:
    if backend == "postgresql":
        return str(request.getfixturevalue("pg_url"))
    return tmp_path / "wildstud.sqlite3"


@pytest.fixture
async def store(db_path: Path | str, clock: FakeClock) -> AsyncIterator[Store]:
    async with await Store.open(db_path, clock=clock) as opened:
        yield opened


def snapshot(path: Path | str) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table, read with sqlite3 or psycopg (committed data only)."""
    with RawDb(path) as db:
        return {name: sorted(db.execute(f'SELECT * FROM "{name}"'), key=repr) for name in db.tables()}


def schema(path: Path) -> list[tuple[object, ...]]:
    """The schema text and version of a SQLite file, for "opening twice changes nothing"."""
    import sqlite3

    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT type, name, sql FROM sqlite_master ORDER BY type, name").fetchall()
        version = db.execute("PRAGMA user_version").fetchone()
    return [*rows, ("user_version", version[0], None)]


def ledger_balance_totals(path: Path | str) -> tuple[int, int, int]:
    """(sum of balances, sum of seat stacks, sum of every ledger delta + stack delta)."""
    with RawDb(path) as db:
        balances = db.execute("SELECT COALESCE(SUM(chips), 0) FROM balances")[0][0]
        stacks = db.execute("SELECT COALESCE(SUM(stack), 0) FROM seats")[0][0]
        ledger = db.execute("SELECT COALESCE(SUM(delta + stack_delta), 0) FROM ledger")[0][0]
    return int(balances), int(stacks), int(ledger)


@pytest.fixture
def snap(db_path: Path | str) -> Callable[[], dict[str, list[tuple[object, ...]]]]:
    """``snap()``: the test database's rows now (see :func:`snapshot`)."""
    return lambda: snapshot(db_path)


@pytest.fixture
def read_schema() -> Callable[[Path], list[tuple[object, ...]]]:
    return schema


@pytest.fixture
def totals() -> Callable[[Path], tuple[int, int, int]]:
    return ledger_balance_totals


@pytest.fixture
def snapshot_of() -> Callable[[Path], dict[str, list[tuple[object, ...]]]]:
    return snapshot
