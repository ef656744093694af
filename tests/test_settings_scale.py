"""Settings for running at scale: DATABASE_URL, SHARD_COUNT, SHARD_IDS, TABLE_LEASE_SECONDS."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.settings import load_settings


def test_database_url_wins_over_database_path() -> None:
    env = {"DATABASE_PATH": "x.sqlite3", "DATABASE_URL": "postgresql://a@b/c"}
    settings = load_settings(env, dotenv=False)
    assert settings.database == "postgresql://a@b/c"
    assert load_settings({"DATABASE_PATH": "x.sqlite3"}, dotenv=False).database == Path("x.sqlite3")


@pytest.mark.parametrize(
    ("count", "ids", "expected"),
    [("4", "", (0, 1, 2, 3)), ("8", "0-3", (0, 1, 2, 3)), ("8", "4-5, 7", (4, 5, 7)), ("2", "1,1", (1,))],
)
def test_shards_are_read_as_ranges(count: str, ids: str, expected: tuple[int, ...]) -> None:
    settings = load_settings({"SHARD_COUNT": count, "SHARD_IDS": ids}, dotenv=False)
    assert (settings.shard_count, settings.shard_ids) == (int(count), expected)


def test_unsharded_by_default() -> None:
    settings = load_settings({}, dotenv=False)
    assert (settings.shard_count, settings.shard_ids, settings.lease_seconds) == (None, None, 30.0)


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be a whole number"),
        ({"SHARD_COUNT": "two"}, "SHARD_COUNT must be a whole number"),
        ({"SHARD_IDS": "0-3"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "2-4"}, "shards 0 to 3"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "3-1"}, "shards 0 to 3"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "a"}, "list of shard numbers"),
        ({"TABLE_LEASE_SECONDS": "0"}, "TABLE_LEASE_SECONDS"),
    ],
)
def test_bad_shard_settings_are_refused_in_one_line(env: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        load_settings(env, dotenv=False)


def test_run_refuses_bad_shards_before_connecting(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("SHARD_COUNT", "2")
    monkeypatch.setenv("SHARD_IDS", "5")
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert "SHARD_IDS must name shards 0 to 1" in err and len(err.strip().splitlines()) == 1
