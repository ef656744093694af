"""``wildstud stats`` and ``wildstud export`` (issue 24) on a database with hands played through the
table service (random folds, calls and showdowns).

The export's spectator files are checked against what was public, worked out here from the engine's
own deal: every up card, the community card, and the down cards of the hands shown; any other card
in a file is a leak. The CSVs are checked against the store's settlements (nets sum to zero).
"""

from __future__ import annotations

import asyncio
import csv
import io
import os
import random
import stat
from pathlib import Path

import pytest

from bot.cli import main
from bot.engine.cards.card import Card
from bot.store import Store
from bot.tables.reveal import rebuild
from tests.tables.helpers import Harness
from tests.tables.test_secrecy import card_tokens

GUILD = 1  # the Harness's table key is (guild 1, channel 100)


async def _play(path: Path, hands: int) -> dict[str, int]:
    async with await Store.open(path) as store:
        h = Harness(store, path, rng=random.Random(11))
        await h.table(("Ann", 500), ("Bea", 500), ("Cid", 500))
        rng = random.Random(3)
        for _ in range(hands):
            await h.service.deal(h.key, h.members["Ann"])
            while h.service.table(h.key).hand is not None:
                prompt = h.prompt()
                options = [o for o in prompt.options if not o.needs_amount]
                pick = rng.choice(options)
                await h.service.act(h.key, prompt.member, prompt.hand_id, prompt.turn, pick.command)
        return dict(h.members)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, int]]:
    path = tmp_path_factory.mktemp("db") / "ws.sqlite3"
    return path, asyncio.run(_play(path, 6))


def test_stats_prints_and_exports_each_member_per_game(played, capsys: pytest.CaptureFixture[str]) -> None:
    path, members = played
    assert main(["stats", "--guild", str(GUILD), "--db", str(path), "--csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert {int(r["member"]) for r in rows} == set(members.values())
    assert all(int(r["hands"]) == 6 for r in rows)
    assert sum(int(r["net"]) for r in rows) == 0
    assert all(0 <= int(r["showdowns_won"]) <= int(r["showdowns"]) <= 6 for r in rows)
    assert main(["stats", "--guild", str(GUILD), "--db", str(path), "--member", str(members["Bea"])]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:3] == ["member", "name", "game"]
    assert out[1].split()[:3] == [str(members["Bea"]), "Bea", "sex-in-the-middle-east"]
    assert main(["stats", "--guild", "999", "--db", str(path)]) == 0
    assert capsys.readouterr().out == "no hands for guild 999\n"
    assert main(["stats", "--guild", str(GUILD), "--db", str(path.parent / "nope.sqlite3")]) == 2


def test_export_writes_what_spectators_saw_and_the_results(
    played, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, members = played
    out = tmp_path / "export"
    assert main(["export", "--guild", str(GUILD), "--out", str(out), "--db", str(path)]) == 0
    assert "wrote 6 hand(s) as spectators saw them" in capsys.readouterr().out
    files = sorted(out.glob("hand-*.phh"))
    assert len(files) == 6

    async def records() -> list:
        async with await Store.open(path) as store:
            return [await store.get_hand(i) for i in await store.finished_hand_ids(GUILD)]

    stored = asyncio.run(records())
    for record, file in zip(stored, files, strict=True):
        assert file.name == f"hand-{record.id:07d}.phh"
        engine, _, _ = rebuild(record)
        result = engine.result
        assert result is not None
        public: set[Card] = {c for s in range(engine.seat_count) for c in engine.up_cards(s)}
        if engine.community_card is not None:
            public.add(engine.community_card)
        public |= {c for s in result.shown for c in engine.down_cards(s)}
        text = file.read_text()
        assert card_tokens(text) <= public, f"hand {record.id} leaks {card_tokens(text) - public}"
        assert "??" in text or len(result.shown) == engine.seat_count
    with (out / "results.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 6 * 3
    for record in stored:
        mine = [r for r in rows if int(r["hand"]) == record.id]
        assert sum(int(r["net"]) for r in mine) == 0
        assert {(int(r["member"]), int(r["final"])) for r in mine} == {
            (p.member_id, p.final_stack) for p in record.players
        }
    assert {r["name"] for r in rows} == set(members)

    full = tmp_path / "full"
    assert (
        main(
            [
                "export",
                "--guild",
                str(GUILD),
                "--out",
                str(full),
                "--db",
                str(path),
                "--full",
                "--since",
                stored[3].ended.isoformat(),
            ]
        )
        == 0
    )
    captured = capsys.readouterr()
    assert "every player's down cards" in captured.err and "complete histories (--full)" in captured.out
    assert sorted(p.name for p in full.glob("*.phh")) == [f"hand-{r.id:07d}.phh" for r in stored[3:]]
    assert (full / f"hand-{stored[3].id:07d}.phh").read_text() == stored[3].phh + "\n"

    # Bad input changes nothing: a folder that is not empty, a date that is not one.
    assert main(["export", "--guild", str(GUILD), "--out", str(out), "--db", str(path)]) == 2
    assert "not an empty folder" in capsys.readouterr().err
    assert (
        main(
            [
                "export",
                "--guild",
                str(GUILD),
                "--out",
                str(tmp_path / "x"),
                "--db",
                str(path),
                "--since",
                "last tuesday",
            ]
        )
        == 2
    )
    assert "not a date" in capsys.readouterr().err and not (tmp_path / "x").exists()


def test_full_export_is_private_to_the_operator_whatever_the_umask(
    played, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = played
    full, public = tmp_path / "full", tmp_path / "public"
    old = os.umask(0o022)
    try:
        assert main(["export", "--guild", str(GUILD), "--out", str(full), "--db", str(path), "--full"]) == 0
        assert main(["export", "--guild", str(GUILD), "--out", str(public), "--db", str(path)]) == 0
    finally:
        os.umask(old)
    capsys.readouterr()
    assert stat.S_IMODE(full.stat().st_mode) == 0o700
    assert {stat.S_IMODE(f.stat().st_mode) for f in full.iterdir()} == {0o600}
    assert {stat.S_IMODE(f.stat().st_mode) for f in public.iterdir()} == {0o644}


def test_a_folder_that_cannot_be_written_is_a_one_line_refusal(
    played, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = played
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    assert main(["export", "--guild", str(GUILD), "--out", str(blocker / "out"), "--db", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("export: cannot write ") and err.count("\n") == 1 and "Traceback" not in err
