"""``wildstud audit`` and ``wildstud ledger`` on a database a short game has used; settings."""

from __future__ import annotations

import argparse
import asyncio
import csv
import io
import sqlite3
from pathlib import Path

import pytest

from bot.cli import COMMANDS
from bot.cli import audit as audit_cli
from bot.cli import ledger as ledger_cli
from bot.settings import load_settings
from bot.store import Store

G, ALICE, BOB = 100, 11, 12


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="wildstud")
    subparsers = root.add_subparsers(dest="command")
    audit_cli.register(subparsers)
    ledger_cli.register(subparsers)
    return root


def run(*argv: str) -> int:
    args = parser().parse_args(list(argv))
    status: int = args.func(args)
    return status


@pytest.fixture
def played(tmp_path: Path) -> Path:
    """A database after a short game: a transfer, two buy-ins, one settled hand, one cash-out."""
    path = tmp_path / "game.sqlite3"

    async def play() -> None:
        async with await Store.open(path) as store:
            await store.transfer(G, ALICE, BOB, 100)
            table = await store.create_table(G, 9000, ALICE)
            await store.buy_in(G, table.id, ALICE, 300)
            await store.buy_in(G, table.id, BOB, 300)
            hand = await store.create_hand(
                table.id, players={1: ALICE, 2: BOB}, deck="Ah", commitment="c", salt="s"
            )
            await store.append_action(hand, 1, "p1 cbr 20")
            await store.settle_hand(hand, {1: 350, 2: 250}, "phh")
            await store.cash_out(G, table.id, BOB)

    asyncio.run(play())
    return path


def test_commands_are_registered() -> None:
    assert "audit" in COMMANDS and "ledger" in COMMANDS


def test_audit_says_ok_on_a_used_database(played: Path, capsys) -> None:
    assert run("audit", "--db", str(played)) == 0
    out = capsys.readouterr().out
    # Alice 900 - 300 = 600 in her balance, Bob 1,100 - 300 + 250 = 1,050; Alice's 350 in play.
    assert out.strip() == f"OK guild {G}: 2 members, 1,650 chips in balances, 350 in play"


def test_audit_reports_each_discrepancy_and_fails(played: Path, capsys) -> None:
    with sqlite3.connect(played) as db:  # a chip appears from nowhere, and a seat loses ten
        db.execute("UPDATE balances SET chips = chips + 1 WHERE member_id = ?", (BOB,))
        db.execute("UPDATE seats SET stack = stack - 10")
    assert run("audit", "--db", str(played)) == 1
    out = capsys.readouterr().out
    assert f"member {BOB}'s ledger sums to 1,050 but the balance is 1,051" in out
    assert (
        f"member {ALICE}'s buy-ins, cash-outs and hand results come to 350 but they have 340 in play" in out
    )
    assert out.startswith(f"FAIL guild {G}")


def test_audit_without_a_database_exits_2(tmp_path: Path, capsys) -> None:
    assert run("audit", "--db", str(tmp_path / "none.sqlite3")) == 2
    assert "no database" in capsys.readouterr().err
    assert not (tmp_path / "none.sqlite3").exists()  # the audit creates nothing


def test_ledger_csv_export_sums_to_the_balances(played: Path, capsys) -> None:
    assert run("ledger", "--guild", str(G), "--db", str(played), "--csv") == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert list(rows[0]) == list(ledger_cli.COLUMNS)
    # starting x2, transfer x2, buy-in x2, hand x2, cash-out x1
    assert [r["kind"] for r in rows] == [
        "starting", "starting", "transfer", "transfer", "buy_in", "buy_in", "hand", "hand", "cash_out"
    ]  # fmt: skip
    by_member: dict[str, int] = {}
    for r in rows:
        by_member[r["member"]] = by_member.get(r["member"], 0) + int(r["delta"])
    assert by_member == {str(ALICE): 600, str(BOB): 1050}


def test_ledger_prints_a_table(played: Path, capsys) -> None:
    assert run("ledger", "--guild", str(G), "--member", str(BOB), "--db", str(played)) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:5] == ["id", "time", "member", "name", "delta"]
    assert len(lines) == 1 + 5  # Bob: starting, transfer, buy-in, hand, cash-out
    assert "cash-out at table 1" in lines[-1]
    assert run("ledger", "--guild", "999", "--db", str(played)) == 0


def test_settings_read_dotenv_from_the_working_directory(tmp_path: Path, monkeypatch) -> None:
    for name in ("DATABASE_PATH", "DEV_GUILD_ID", "LOG_LEVEL", "DISCORD_TOKEN"):
        monkeypatch.setenv(name, "placeholder")  # recorded, so the test leaves the environment as it was
        monkeypatch.delenv(name)
    (tmp_path / ".env").write_text("DATABASE_PATH=chips/here.sqlite3\nLOG_LEVEL=debug\n")
    monkeypatch.chdir(tmp_path)
    settings = load_settings()
    assert (settings.database_path, settings.log_level, settings.dev_guild_id) == (
        Path("chips/here.sqlite3"),
        "DEBUG",
        None,
    )
    monkeypatch.setenv("DATABASE_PATH", "elsewhere.sqlite3")  # the real environment wins over .env
    assert load_settings().database_path == Path("elsewhere.sqlite3")


async def test_store_opens_the_default_path_with_its_folder(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("DATABASE_PATH", "placeholder")
    monkeypatch.delenv("DATABASE_PATH")
    monkeypatch.chdir(tmp_path)
    async with await Store.open() as store:
        assert store.path == Path("data/wildstud.sqlite3")
    assert (tmp_path / "data" / "wildstud.sqlite3").is_file()


@pytest.mark.parametrize("command", ["audit", "ledger"])
def test_a_file_that_is_not_a_wildstud_database_exits_2(tmp_path: Path, capsys, command: str) -> None:
    # Exit status 2 is documented for "the database cannot be opened"; 1 would tell an operator
    # that chips went missing. Neither a text file nor another program's SQLite database (its
    # own "ledger" table clashes with our schema) can be opened, so both must give 2 and a reason,
    # not a traceback.
    text_file = tmp_path / "notes.sqlite3"
    text_file.write_text("this is not a database\n")
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE ledger (x)")
    extra = ["--guild", str(G)] if command == "ledger" else []
    for path in (text_file, other):
        assert run(command, "--db", str(path), *extra) == 2, path.name
        err = capsys.readouterr().err
        assert err.startswith(f"{command}: cannot open {path}: "), err


def test_ledger_says_the_game_of_each_hand_row(tmp_path: Path, capsys) -> None:
    """Issue 12: each hand row names its game (the last column, so the CSV's earlier columns keep
    their places); rows without a hand leave it empty; a hand stored without one is Sex in the
    Middle East."""
    path = tmp_path / "games.sqlite3"

    async def play() -> tuple[int, int]:
        async with await Store.open(path) as store:
            table = await store.create_table(G, 9000, ALICE)
            await store.buy_in(G, table.id, ALICE, 300)
            await store.buy_in(G, table.id, BOB, 300)
            hands: list[int] = []
            for game, finals in ((None, {1: 320, 2: 280}), ("seven-card-stud", {1: 300, 2: 300})):
                extra = {} if game is None else {"game": game}
                hand = await store.create_hand(
                    table.id, players={1: ALICE, 2: BOB}, deck="Ah", commitment="c", salt="s", **extra
                )
                await store.settle_hand(hand, finals, "phh")
                hands.append(hand)
            return hands[0], hands[1]

    first, second = asyncio.run(play())
    assert run("ledger", "--guild", str(G), "--db", str(path), "--csv") == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert list(ledger_cli.COLUMNS)[-1] == "game" and list(rows[0]) == list(ledger_cli.COLUMNS)
    games = {(r["kind"], r["hand"]): r["game"] for r in rows}
    assert games[("hand", str(first))] == "sex-in-the-middle-east"
    assert games[("hand", str(second))] == "seven-card-stud"
    assert all(r["game"] == "" for r in rows if not r["hand"])
    assert run("ledger", "--guild", str(G), "--db", str(path)) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[-1] == "game"
    # The columns: id, date, time, member, delta, stack_delta, kind, ...
    printed = [line.split()[-1] for line in lines[1:] if line.split()[6] == "hand"]
    assert printed == ["sex-in-the-middle-east"] * 2 + ["seven-card-stud"] * 2
