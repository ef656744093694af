"""Migrations: from an empty file, from each earlier version (with its data), idempotent reopen."""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest

import bot.store.migrations as migrations
from bot.store import SCHEMA_VERSION, DailyNotReady, SchemaTooNew, Store

G, ALICE, BOB = 100, 11, 12
NOW = "2026-03-01T19:00:00.000000Z"


def version(path: Path) -> int:
    with sqlite3.connect(path) as db:
        return int(db.execute("PRAGMA user_version").fetchone()[0])


async def build(path: Path, upto: int) -> None:
    """A database as Wildstud left it at schema version ``upto`` (only the first migrations run)."""
    store = await Store.open(path, upto_version=upto)
    await store.close()
    assert version(path) == upto


def write_v1_game(path: Path) -> None:
    """What a version-1 Wildstud wrote after a short game, in that version's own columns: Alice
    and Bob got 1,000 each, Alice gave Bob 100 and bought in for 300 at a table in channel 9000."""
    with sqlite3.connect(path) as db:
        db.execute(
            "INSERT INTO guild_settings (guild_id, starting_chips, updated) VALUES (?, 1000, ?)", (G, NOW)
        )
        db.executemany(
            "INSERT INTO balances (guild_id, member_id, chips, created) VALUES (?, ?, ?, ?)",
            [(G, ALICE, 600, NOW), (G, BOB, 1100, NOW)],
        )
        db.execute(
            "INSERT INTO tables (id, guild_id, channel_id, dealer_id, created) VALUES (1, ?, 9000, ?, ?)",
            (G, ALICE, NOW),
        )
        db.execute(
            "INSERT INTO seats (table_id, seat_no, member_id, stack, joined) VALUES (1, 1, ?, 300, ?)",
            (ALICE, NOW),
        )
        rows = [
            (ALICE, 1000, 0, "starting", "start", None),
            (BOB, 1000, 0, "starting", "start", None),
            (ALICE, -100, 0, "transfer", "transfer:x", None),
            (BOB, 100, 0, "transfer", "transfer:x", None),
            (ALICE, -300, 300, "buy_in", "buy_in:y", 1),
        ]
        db.executemany(
            "INSERT INTO ledger (guild_id, member_id, delta, stack_delta, kind, reason, op_key, table_id,"
            " created)"
            " VALUES (?, ?, ?, ?, ?, 'old', ?, ?, ?)",
            [(G, m, d, s, k, key, t, NOW) for m, d, s, k, key, t in rows],
        )


async def test_an_empty_file_becomes_the_latest_schema(tmp_path: Path) -> None:
    path = tmp_path / "empty.sqlite3"
    path.touch()
    async with await Store.open(path) as store:
        assert (await store.audit()).ok
    assert version(path) == SCHEMA_VERSION == len(migrations.MIGRATIONS) == 12


async def test_a_missing_folder_is_created(tmp_path: Path) -> None:
    path = tmp_path / "data" / "nested" / "wildstud.sqlite3"
    async with await Store.open(path):
        pass
    assert path.is_file()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"  # WAL persists in the file


async def test_from_version_1_keeps_the_data_and_gains_daily_and_hands(
    tmp_path: Path, clock, read_schema
) -> None:
    path = tmp_path / "v1.sqlite3"
    await build(path, 1)
    write_v1_game(path)
    async with await Store.open(path, clock=clock) as store:
        assert (await store.audit()).ok
        assert (await store.balance(G, ALICE), await store.balance(G, BOB)) == (600, 1100)
        # v2: the daily claim exists and is off by default for old guilds.
        assert (await store.guild_settings(G)).daily_amount == 0
        await store.update_guild_settings(G, daily_amount=50)
        assert (await store.claim_daily(G, BOB)).balances == {BOB: 1150}
        # v3: hands at the table the old version opened, with Alice's old seat.
        await store.buy_in(G, 1, BOB, 200)
        hand = await store.create_hand(1, players={1: ALICE, 2: BOB}, deck="Ah", commitment="c", salt="s")
        await store.settle_hand(hand, {1: 350, 2: 150}, "phh")
        assert (await store.audit()).ok
    assert version(path) == SCHEMA_VERSION
    fresh = tmp_path / "fresh.sqlite3"
    await build(fresh, SCHEMA_VERSION)
    assert read_schema(path) == read_schema(fresh)


async def test_from_version_2_keeps_the_last_daily_claim(tmp_path: Path, clock) -> None:
    path = tmp_path / "v2.sqlite3"
    await build(path, 2)
    write_v1_game(path)
    last = clock.now - timedelta(hours=2)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE guild_settings SET daily_amount = 25, daily_cooldown_s = 10800")  # 3 hours
        db.execute(
            "UPDATE balances SET last_daily = ? WHERE member_id = ?",
            (last.strftime("%Y-%m-%dT%H:%M:%S.%fZ"), BOB),
        )
    async with await Store.open(path, clock=clock) as store:
        settings = await store.guild_settings(G)
        assert (settings.daily_amount, settings.daily_cooldown) == (25, timedelta(hours=3))
        with pytest.raises(DailyNotReady) as caught:  # claimed 2 hours ago, cooldown 3 hours
            await store.claim_daily(G, BOB)
        assert caught.value.next_claim == last + timedelta(hours=3)
        assert (await store.claim_daily(G, ALICE)).balances == {ALICE: 625}
        assert await store.list_unfinished_hands() == []
        assert (await store.audit()).ok


async def test_opening_twice_changes_nothing(tmp_path: Path, read_schema, snapshot_of) -> None:
    path = tmp_path / "twice.sqlite3"
    async with await Store.open(path) as store:
        await store.transfer(G, ALICE, BOB, 5)
    schema, rows = read_schema(path), snapshot_of(path)
    async with await Store.open(path):
        pass
    assert (read_schema(path), snapshot_of(path)) == (schema, rows)


async def test_a_failed_migration_leaves_the_previous_version(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "broken.sqlite3"
    await build(path, 1)
    broken = "CREATE TABLE half_done (x INTEGER);\nCREATE TABLE half_done (x INTEGER);\n"
    monkeypatch.setattr(migrations, "MIGRATIONS", (migrations.MIGRATIONS[0], broken))
    monkeypatch.setattr(migrations, "LATEST", 2)
    with pytest.raises(sqlite3.OperationalError, match="already exists"):
        await Store.open(path)
    assert version(path) == 1
    with sqlite3.connect(path) as db:  # the step's first statement was rolled back with it
        assert db.execute("SELECT COUNT(*) FROM sqlite_master WHERE name = 'half_done'").fetchone()[0] == 0


async def test_a_database_from_a_newer_wildstud_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(SchemaTooNew):
        await Store.open(path)
    assert version(path) == SCHEMA_VERSION + 1
