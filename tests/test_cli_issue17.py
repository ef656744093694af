"""Command-line defects of issue 17, each driven through the real ``wildstud`` command."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
URL = "postgresql://nobody:secret@127.0.0.1:1/wildstud"
"""A PostgreSQL URL; nothing listens there, and without asyncpg nothing may even try."""

BLOCK_ASYNCPG = '''
import sys

class _NoAsyncpg:
    """An installation without asyncpg: importing it fails like a missing package does."""

    def find_spec(self, name, path=None, target=None):
        if name == "asyncpg" or name.startswith("asyncpg."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, _NoAsyncpg())
'''


def wildstud(args: list[str], tmp_path: Path, *, no_asyncpg: bool = False,
             stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8", "DISCORD_TOKEN": "x"}
    env.pop("DATABASE_URL", None)
    env["DATABASE_PATH"] = str(tmp_path / "default.sqlite3")
    if no_asyncpg:
        site = tmp_path / "site"
        site.mkdir(exist_ok=True)
        (site / "sitecustomize.py").write_text(BLOCK_ASYNCPG)
        env["PYTHONPATH"] = os.pathsep.join([str(site), str(ROOT)])
    return subprocess.run([sys.executable, "-m", "bot", *args], input=stdin, capture_output=True,
                          text=True, cwd=tmp_path, env=env, timeout=120, check=False)


def test_the_simulated_missing_asyncpg_is_really_missing_and_only_there(tmp_path: Path) -> None:
    # Keep the simulation honest: with the blocker asyncpg cannot be imported, without it it can.
    probe = ["-c", "import asyncpg"]
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(BLOCK_ASYNCPG)
    blocked = subprocess.run([sys.executable, *probe], capture_output=True, text=True, check=False,
                             env={**os.environ, "PYTHONPATH": str(site)})
    assert blocked.returncode == 1 and "ModuleNotFoundError" in blocked.stderr
    free = subprocess.run([sys.executable, *probe], capture_output=True, text=True, check=False)
    assert free.returncode == 0, free.stderr


@pytest.mark.parametrize("command", [
    ["audit", "--db", URL],
    ["ledger", "--guild", "1", "--db", URL],
    ["history", "--hand", "1", "--db", URL],
    ["verify", "--hand", "1", "--db", URL],
    ["play", "--name", "Ann", "--db", URL],
    ["migrate-db", "--from", "SOURCE", "--to", URL],
])
def test_a_postgresql_url_without_asyncpg_is_one_line_saying_how_to_install_it(
    tmp_path: Path, command: list[str]
) -> None:
    if "SOURCE" in command:   # migrate-db first checks its SQLite source: give it a real one
        made = wildstud(["play", "--auto", "--hands", "1", "--seed", "1", "--db", "src.sqlite3"], tmp_path)
        assert made.returncode == 0, made.stderr
        command = [str(tmp_path / "src.sqlite3") if word == "SOURCE" else word for word in command]
    result = wildstud(command, tmp_path, no_asyncpg=True, stdin="q\n")
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert "pip install 'wildstud[postgres]'" in lines[0]
    assert "secret" not in result.stderr + result.stdout


def test_requirements_install_the_postgresql_extra() -> None:
    # Procfile hosts install requirements.txt; the docs send hosts without disks to PostgreSQL.
    lines = [line.split("#")[0].strip() for line in (ROOT / "requirements.txt").read_text().splitlines()]
    assert ".[postgres]" in lines


def test_play_refuses_a_database_in_a_missing_folder(tmp_path: Path) -> None:
    target = tmp_path / "missing" / "dir" / "x.db"
    result = wildstud(["play", "--name", "Ann", "--db", str(target)], tmp_path, stdin="q\n")
    assert result.returncode == 2
    assert f"no folder {target.parent}" in result.stderr
    assert not (tmp_path / "missing").exists()


def test_play_still_makes_the_default_data_folder_of_a_fresh_clone(tmp_path: Path) -> None:
    env_db = tmp_path / "data" / "wildstud.sqlite3"
    env = {**os.environ, "NO_COLOR": "1", "DATABASE_PATH": str(env_db)}
    env.pop("DATABASE_URL", None)
    result = subprocess.run([sys.executable, "-m", "bot", "play", "--name", "Ann"], input="q\n",
                            capture_output=True, text=True, cwd=ROOT, env=env, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    assert env_db.is_file()


def test_replay_of_a_file_that_is_not_toml_exits_2_and_says_so_once(tmp_path: Path) -> None:
    bad = tmp_path / "notes.phh"
    bad.write_text("this is = not [toml\n")
    for extra in ([], ["--json"]):
        result = wildstud(["replay", str(bad), *extra], tmp_path)
        assert result.returncode == 2
        assert result.stdout == ""
        assert len(result.stderr.strip().splitlines()) == 1
        assert "not valid TOML" in result.stderr


def test_replay_of_toml_that_is_no_history_says_it_once(tmp_path: Path) -> None:
    bad = tmp_path / "other.toml"
    bad.write_text('title = "a config file"\n')
    result = wildstud(["replay", str(bad)], tmp_path)
    assert result.returncode == 2
    told = (result.stdout + result.stderr).count("variant must be")   # razz's reader names FR and F7S/8 too
    assert told == 1, result.stdout + result.stderr


def test_ledger_of_a_member_without_rows_names_the_member(tmp_path: Path) -> None:
    made = wildstud(["play", "--auto", "--hands", "1", "--seed", "1", "--db", "x.sqlite3"], tmp_path)
    assert made.returncode == 0, made.stderr
    result = wildstud(["ledger", "--guild", "1", "--member", "424242", "--db", "x.sqlite3"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "no ledger rows for member 424242 in guild 1"


def test_simulate_one_hand_says_hand() -> None:
    result = subprocess.run([sys.executable, "-m", "bot", "simulate", "--hands", "1", "--seed", "2"],
                            capture_output=True, text=True, cwd=ROOT, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("1 hand, ")
    assert "1 hands" not in result.stdout
    assert "s for 1 hand)" in result.stdout
