"""Fixtures for the table-service tests: a real SQLite file per test and a harness around it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import Store


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "tables.sqlite3"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(db_path)
    try:
        yield opened
        report = await opened.audit()          # chips conserved after every test (ledger = balances)
        assert report.ok, report.all_problems()
    finally:
        await opened.close()
