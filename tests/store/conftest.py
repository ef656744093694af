"""Fixtures for the store tests: a real SQLite file per test, a hand-driven clock, and an
independent read of the database through the standard library (not through the store)."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.store import Store


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


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "wildstud.sqlite3"


@pytest.fixture
async def store(db_path: Path, clock: FakeClock) -> AsyncIterator[Store]:
    async with await Store.open(db_path, clock=clock) as opened:
        yield opened


def snapshot(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table, read with the standard library's sqlite3 (committed data only)."""
    with sqlite3.connect(path) as db:
        names = [
            r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        ]
        return {name: sorted(db.execute(f'SELECT * FROM "{name}"').fetchall(), key=repr) for name in names}


def schema(path: Path) -> list[tuple[object, ...]]:
    """The schema text and version, for "opening twice changes nothing"."""
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT type, name, sql FROM sqlite_master ORDER BY type, name").fetchall()
        version = db.execute("PRAGMA user_version").fetchone()
    return [*rows, ("user_version", version[0], None)]


def ledger_balance_totals(path: Path) -> tuple[int, int, int]:
    """(sum of balances, sum of seat stacks, sum of every ledger delta + stack delta)."""
    with sqlite3.connect(path) as db:
        balances = db.execute("SELECT COALESCE(SUM(chips), 0) FROM balances").fetchone()[0]
        stacks = db.execute("SELECT COALESCE(SUM(stack), 0) FROM seats").fetchone()[0]
        ledger = db.execute("SELECT COALESCE(SUM(delta + stack_delta), 0) FROM ledger").fetchone()[0]
    return balances, stacks, ledger


@pytest.fixture
def snap(db_path: Path) -> Callable[[], dict[str, list[tuple[object, ...]]]]:
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
