"""``wildstud migrate-db`` and the database commands on PostgreSQL.

The copy is checked independently: every table's rows read with sqlite3 on one side and psycopg
on the other must be the same rows, and the PostgreSQL store must go on from there (new ids after
the copied ones, the unfinished hand still resumable).
"""

from __future__ import annotations

import asyncio
import hashlib
import os
from datetime import timedelta
from pathlib import Path

import pytest

from bot.cli import main
from bot.store import Store
from tests.postgres import PostgresServer, RawDb

G, H, ALICE, BOB, CAROL = 100, 200, 11, 12, 13


async def _play(path: Path | str) -> dict[str, int]:
    """Two guilds' worth of history: every kind of ledger row, hands finished, voided and unfinished."""
    async with await Store.open(path) as store:
        await store.update_guild_settings(G, daily_amount=25, daily_cooldown=timedelta(0))
        await store.claim_daily(G, CAROL)
        await store.transfer(G, ALICE, BOB, 100, key="t1")
        await store.grant(G, CAROL, 40, reason="birthday", by=ALICE)
        await store.take(H, ALICE, 10, reason="fee", by=BOB)
        table = await store.create_table(G, 9000, ALICE, stakes={"min_buy_in": 20})
        for member in (ALICE, BOB, CAROL):
            await store.buy_in(G, table.id, member, 300)
        done = await store.create_hand(table.id, players={1: ALICE, 2: BOB}, deck="Ah Kd", commitment="c",
                                       salt="s")
        await store.append_actions(done, 1, ["d dh p1 Ah", "d dh p2 Kd", "p1 cbr 20", "p2 f"])
        await store.settle_hand(done, {1: 350, 2: 250}, "phh text")
        voided = await store.create_hand(table.id, players={1: ALICE, 3: CAROL}, deck="2c", commitment="c",
                                         salt="s")
        await store.void_hand(voided, "bot restarted")
        await store.top_up(G, table.id, CAROL, 50)
        await store.cash_out(G, table.id, BOB)
        closed = await store.create_table(G, 9001, BOB)
        await store.buy_in(G, closed.id, BOB, 100)
        await store.close_table(G, closed.id)
        other = await store.create_table(H, 9100, ALICE)
        await store.buy_in(H, other.id, ALICE, 200)
        await store.buy_in(H, other.id, BOB, 200)
        live = await store.create_hand(other.id, players={1: ALICE, 2: BOB}, deck="3d 4d", commitment="c",
                                       salt="s")
        await store.append_action(live, 1, "d dh p1 3d")
        assert (await store.audit()).ok
        return {"table": table.id, "live": live}


def _rows(target: Path | str) -> dict[str, list[tuple[object, ...]]]:
    with RawDb(target) as db:
        names = [n for n in db.tables() if n != "wildstud_schema"]
        return {n: sorted(db.execute(f'SELECT * FROM "{n}"'), key=repr) for n in names}


def test_migrate_db_copies_everything_and_audits_both_sides(
    tmp_path: Path, postgres_server: PostgresServer, capsys: pytest.CaptureFixture[str]
) -> None:
    path, url = tmp_path / "home.sqlite3", postgres_server.create_database()
    ids = asyncio.run(_play(path))
    assert main(["migrate-db", "--from", str(path), "--to", url]) == 0
    out = capsys.readouterr().out
    assert "audit SQLite: OK (2 guilds)" in out and "audit PostgreSQL: OK (2 guilds)" in out

    source, copied = _rows(path), _rows(url)
    assert set(copied) == set(source)
    for name, rows in source.items():
        assert copied[name] == rows, name
    assert len(source["ledger"]) > 15 and len(source["hand_actions"]) == 5

    async def go_on() -> None:
        async with await Store.open(url) as store:
            assert [h.id for h in await store.list_unfinished_hands()] == [ids["live"]]
            hand = await store.get_hand(ids["live"])
            assert hand.actions == ("d dh p1 3d",) and hand.deck == ("3d", "4d")
            new = await store.create_table(G, 9500, CAROL)  # ids continue after the copied ones
            assert new.id == max(r[0] for r in source["tables"]) + 1
            receipt = await store.transfer(G, BOB, ALICE, 5)
            assert receipt.balances[ALICE] == (await store.peek_balance(G, ALICE))
            again = await store.transfer(G, ALICE, BOB, 100, key="t1")  # the copied key still counts
            assert not again.applied
            assert (await store.audit()).ok

    asyncio.run(go_on())


def test_migrate_db_refuses_a_target_that_is_not_empty(
    tmp_path: Path, postgres_server: PostgresServer, capsys: pytest.CaptureFixture[str]
) -> None:
    path, url = tmp_path / "home.sqlite3", postgres_server.create_database()
    asyncio.run(_play(path))
    assert main(["migrate-db", "--from", str(path), "--to", url]) == 0
    before = _rows(url)
    capsys.readouterr()
    assert main(["migrate-db", "--from", str(path), "--to", url]) == 2
    assert "not empty" in capsys.readouterr().err
    assert _rows(url) == before


def test_migrate_db_refuses_bad_arguments_and_changes_nothing(
    tmp_path: Path, postgres_server: PostgresServer, capsys: pytest.CaptureFixture[str]
) -> None:
    path, url = tmp_path / "home.sqlite3", postgres_server.create_database()
    assert main(["migrate-db", "--from", str(path), "--to", url]) == 2  # no such file
    assert "no database at" in capsys.readouterr().err
    asyncio.run(_play(path))
    assert main(["migrate-db", "--from", str(path), "--to", str(tmp_path / "copy.sqlite3")]) == 2
    assert "postgresql://" in capsys.readouterr().err
    assert main(["migrate-db", "--from", str(path), "--to", "mysql://x/y"]) == 2
    assert "unknown database scheme 'mysql:'" in capsys.readouterr().err
    assert sorted(os.listdir(tmp_path)) == ["home.sqlite3", "home.sqlite3-shm", "home.sqlite3-wal"] or sorted(
        os.listdir(tmp_path)
    ) == ["home.sqlite3"]
    with RawDb(url) as db:
        assert db.tables() == []  # the target was never touched


def test_audit_ledger_and_verify_work_on_postgres(
    postgres_server: PostgresServer, capsys: pytest.CaptureFixture[str]
) -> None:
    url = postgres_server.create_database()
    ids = asyncio.run(_play(url))
    assert main(["audit", "--db", url]) == 0
    out = capsys.readouterr().out
    assert f"OK guild {G}:" in out and f"OK guild {H}:" in out
    assert main(["ledger", "--guild", str(G), "--db", url, "--csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("id,time,member") and any("birthday" in line for line in lines)
    deck = [rank + suit for suit in "cdhs" for rank in "23456789TJQKA"]
    salt = "ab" * 16
    digest = hashlib.sha256(f"{''.join(deck)}:{salt}".encode()).hexdigest()

    async def deal_a_fair_hand() -> int:
        async with await Store.open(url) as store:
            hand = await store.create_hand(ids["table"], players={1: ALICE, 3: CAROL}, deck=deck,
                                           commitment=digest, salt=salt)
            await store.append_action(hand, 1, "seats 1 3")  # the deal order verify replays from
            seats = {s.seat_no: s.stack for s in await store.seats(ids["table"])}
            await store.settle_hand(hand, {1: seats[1], 3: seats[3]}, "phh")
            return hand

    fair = asyncio.run(deal_a_fair_hand())
    assert main(["verify", "--hand", str(fair), "--db", url]) == 0
    assert f"OK: the deck matches commitment {digest}" in capsys.readouterr().out
    assert main(["verify", "--hand", str(ids["live"]), "--db", url]) == 2  # still being played
    assert "still being played" in capsys.readouterr().err
    assert main(["history", "--hand", str(fair), "--full", "--db", url]) == 0
    assert capsys.readouterr().out.rstrip().endswith("phh")  # the stored history, after the warning

    async def write_through_a_readonly_store() -> None:
        async with await Store.open_readonly(url) as store:
            assert (await store.audit()).ok
            await store.grant(G, ALICE, 5, reason="a write", by=ALICE, key="ro")

    with RawDb(url) as db:
        before = db.execute("SELECT COUNT(*) FROM ledger")
    import asyncpg

    with pytest.raises(asyncpg.ReadOnlySQLTransactionError):  # the read-only commands' sessions
        asyncio.run(write_through_a_readonly_store())
    with RawDb(url) as db:
        assert db.execute("SELECT COUNT(*) FROM ledger") == before


def test_backup_refuses_a_postgresql_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "backup.sqlite3"
    assert main(["backup", str(target), "--db", "postgresql://bot:s3cret@db.invalid/wildstud"]) == 2
    err = capsys.readouterr().err
    assert "pg_dump" in err and "s3cret" not in err and "postgresql://bot:***@" in err
    monkeypatch.setenv("DATABASE_URL", "postgres://bot@db.invalid/wildstud")
    assert main(["backup", str(target)]) == 2
    assert "SQLite" in capsys.readouterr().err
    assert not target.exists()


def test_database_commands_refuse_an_empty_postgres_database_and_unknown_schemes(
    tmp_path: Path, postgres_server: PostgresServer, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = postgres_server.create_database()
    for argv in (["audit", "--db", url], ["ledger", "--guild", "1", "--db", url],
                 ["verify", "--hand", "1", "--db", url]):
        assert main(argv) == 2, argv
        assert "no Wildstud database" in capsys.readouterr().err
    with RawDb(url) as db:
        assert db.tables() == []  # nothing was created there
    monkeypatch.chdir(tmp_path)
    for argv in (["audit", "--db", "postgresql:"], ["audit", "--db", "mysql://a/b"],
                 ["ledger", "--guild", "1", "--db", "redis://x"], ["verify", "--hand", "1", "--db", "ftp://h/f"],
                 ["play", "--auto", "--db", "mongodb://x/y"]):
        status = main(argv)
        err = capsys.readouterr().err
        assert status == 2 and ("postgresql://" in err or "cannot open" in err), (argv, err)
    assert os.listdir(tmp_path) == []  # no folder named after a scheme


def test_play_keeps_its_chips_in_postgres(
    postgres_server: PostgresServer, capsys: pytest.CaptureFixture[str]
) -> None:
    url = postgres_server.create_database()
    assert main(["play", "--auto", "--hands", "2", "--seed", "5", "--db", url]) == 0
    capsys.readouterr()
    with RawDb(url) as db:
        hands = db.execute("SELECT status FROM hands ORDER BY id")
        assert [h[0] for h in hands] == ["finished", "finished"]
    assert main(["audit", "--db", url]) == 0
