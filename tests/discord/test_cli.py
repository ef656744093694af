"""Starting the bot: ``python -m bot`` without a token, ``wildstud sync`` against the fake
Discord, the dev-guild sync at start-up, the owner's ``@Wildstud sync``, and the token never
appearing in the logs."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli.sync import sync_commands
from bot.discord.client import WildstudBot
from bot.settings import Settings
from tests.discord.helpers import new_bot
from tests.fakediscord import FakeDiscord, start_bot

ROOT = Path(__file__).resolve().parents[2]


def test_python_m_bot_without_a_token_says_how_to_get_one(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_PATH", "DEV_GUILD_ID")}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode != 0
    assert "DISCORD_TOKEN" in done.stderr
    assert "discord.com/developers/applications" in done.stderr
    assert "wildstud play" in done.stderr
    assert not (tmp_path / "data").exists()  # nothing was created


def test_wildstud_run_reads_the_token_from_dotenv_not_the_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.cli import main

    for name in ("DISCORD_TOKEN", "DEV_GUILD_ID"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    assert main(["run"]) == 2
    assert "no Discord bot token" in capsys.readouterr().err
    assert main(["sync"]) == 2


async def test_sync_registers_every_command(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    guild = fake.guild()
    names = await sync_commands(fake.token, guild.id)
    assert names == ["allin", "bet", "call", "check", "chips", "draw", "fold", "hand", "muck", "raise",
                     "ruling", "season", "show", "stand", "stats", "table", "tournament"]
    synced = fake.synced[guild.id]
    subcommands = {
        name: sorted(o["name"] for o in cmd.get("options", []) if o["type"] == 1)
        for name, cmd in synced.items()
    }
    assert subcommands["table"] == sorted(
        [
            "create",
            "join",
            "leave",
            "sit-out",
            "back",
            "deal",
            "status",
            "close",
            "stakes",
            "automuck",
            "timer",
            "game",
            "games",
            "dealer-role",
            "look",
            "dm",
            "straddle",
            "bomb-pot",
            "join-blind",
        ]
    )
    assert subcommands["ruling"] == ["list", "reset", "set"]
    assert subcommands["chips"] == sorted(
        ["balance", "leaderboard", "give", "daily", "grant", "take", "ledger", "settle", "setup"]
    )
    assert subcommands["hand"] == ["history", "replay", "verify", "void"]
    assert subcommands["stats"] == ["optout", "player", "setup", "table"]
    assert subcommands["season"] == ["end", "standings", "start"]
    board = next(o for o in synced["chips"]["options"] if o["name"] == "leaderboard")
    periods = [c["value"] for c in board["options"][0]["choices"]]
    assert periods == ["day", "week", "month", "year", "all", "season"]
    assert subcommands["tournament"] == sorted(
        ["create", "join", "leave", "start", "rebuy", "status", "cancel"]
    )
    sit_and_go = next(o for o in synced["tournament"]["options"] if o["name"] == "create")
    assert {o["name"] for o in sit_and_go["options"]} == {
        "game", "buy_in", "starting_stack", "preset", "schedule", "level", "payouts", "late_registration",
        "rebuys", "seats", "rotate",
    }
    preset = next(o for o in sit_and_go["options"] if o["name"] == "preset")
    assert [c["value"] for c in preset["choices"]] == ["turbo", "regular", "slow"]
    create = next(o for o in synced["table"]["options"] if o["name"] == "create")
    assert {"stakes", "seats", "timer", "ante", "bring_in", "small_bet", "big_bet", "log", "game"} <= {
        o["name"] for o in create["options"]
    }
    log = next(o for o in create["options"] if o["name"] == "log")
    assert [c["value"] for c in log["choices"]] == ["thread", "summary", "off"]
    assert next(o for o in create["options"] if o["name"] == "game").get("autocomplete") is True
    ruling_set = next(o for o in synced["ruling"]["options"] if o["name"] == "set")
    assert [(o["name"], o.get("autocomplete")) for o in ruling_set["options"]] == [
        ("name", True),
        ("value", True),
    ]
    assert [o["name"] for o in synced["raise"]["options"]] == ["amount"]
    await sync_commands(fake.token)
    assert set(fake.synced[None]) == set(names)


async def test_dev_guild_sync_at_start_and_owner_sync(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    guild = fake.guild()
    settings = Settings(
        discord_token=None, dev_guild_id=guild.id, database_path=tmp_path / "ws.sqlite3", log_level="INFO"
    )
    bot = WildstudBot(settings)
    await start_bot(bot, fake)
    assert [gid for gid, _ in fake.sync_calls] == [guild.id]  # no global sync at start-up
    assert "table" in fake.synced[guild.id]
    poker = guild.channel("poker")
    mention = f"<@{fake.bot_user.id}>"
    await fake.send_user_message(guild.member("alice"), poker, f"{mention} sync")
    assert "owner" in fake.last_message(poker).text
    assert len(fake.sync_calls) == 1
    await fake.send_user_message(guild.member("owner"), poker, f"{mention} sync")
    assert "Synced" in fake.last_message(poker).text and len(fake.sync_calls) == 2
    await fake.send_user_message(guild.member("alice"), poker, f"{mention} hello there")  # ignored


async def test_the_token_is_never_logged(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake_discord)
    guild = fake_discord.guild()
    await fake_discord.slash(guild.member("alice"), "table create", channel=guild.channel("poker"))
    assert caplog.records
    assert fake_discord.token not in caplog.text


def test_an_unknown_log_level_is_refused_before_anything_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A typo in LOG_LEVEL used to be silently read as INFO; the admin would never learn why DEBUG
    # lines are missing. It is a settings error like a non-numeric DEV_GUILD_ID (exit 2).
    from bot.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("LOG_LEVEL", "loud")
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert "LOG_LEVEL" in err and "'LOUD'" in err and "DEBUG" in err
    assert "not-a-real-token" not in err


def test_sync_says_so_in_one_line_when_discord_cannot_be_reached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # No network (or a DNS failure) raised an aiohttp connection error, an OSError, which escaped as
    # a 60-line traceback. The admin should read one line saying Discord could not be reached.
    import bot.cli.sync as sync_module
    from bot.cli import main

    async def unreachable(token: str, guild: int | None) -> list[str]:
        raise ConnectionRefusedError(111, "Connect call failed ('127.0.0.1', 9)")

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setattr(sync_module, "sync_commands", unreachable)
    assert main(["sync"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("wildstud sync: could not reach Discord")
    assert "Traceback" not in err and err.count("\n") == 1


def test_logs_are_plain_text_when_piped_or_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    # discord.py colours its log lines whenever it thinks it runs in Docker, even into a pipe; a
    # host's log viewer then shows escape codes. Off a TTY (or with NO_COLOR) the format is plain.
    import io

    from bot.cli.run import log_formatter

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    record = logging.LogRecord("bot", logging.WARNING, __file__, 1, "hello", None, None)
    piped = log_formatter(io.StringIO())
    assert piped is not None and "\x1b[" not in piped.format(record)
    assert log_formatter(Tty()) is None  # a real terminal: discord.py's own colours
    monkeypatch.setenv("NO_COLOR", "1")
    assert log_formatter(Tty()) is not None
