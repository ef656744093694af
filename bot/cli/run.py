"""``wildstud run`` (also ``wildstud`` and ``python -m bot`` with no arguments): start the Discord bot.

Settings come from the environment and a ``.env`` file (``bot.settings``): ``DISCORD_TOKEN``
(required), ``DATABASE_URL`` or ``DATABASE_PATH``, ``DEV_GUILD_ID``, ``LOG_LEVEL``; with
``SHARD_COUNT`` (and ``SHARD_IDS``) the bot runs as an ``AutoShardedBot`` over those shards
(docs/operations.md, "Running at scale"). Without a token
the command exits with status 2 and says how to get one; ``wildstud play`` works without Discord.
The token is never printed or logged. Exit status 0 after a clean stop (Ctrl-C), 1 when Discord
refuses the token or the bot cannot start.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from typing import Any, TextIO

NO_TOKEN = """\
wildstud run: no Discord bot token. Set DISCORD_TOKEN in the environment or in a .env file.

To get a token: open https://discord.com/developers/applications, create an application (or pick
yours), open "Bot", press "Reset Token" and copy it into .env as DISCORD_TOKEN=... (see
.env.example and the README section "Put it on Discord in six steps"). Never share or commit the token.

No Discord at hand? `wildstud play` deals a table in this terminal, no token needed."""


def register(subparsers: Any) -> None:
    """Add the ``run`` sub-command."""
    parser = subparsers.add_parser(
        "run",
        help="start the Discord bot (the default command; needs DISCORD_TOKEN)",
        description=(
            "Start the Discord bot. Reads DISCORD_TOKEN, DATABASE_URL or DATABASE_PATH, DEV_GUILD_ID, "
            "LOG_LEVEL, SHARD_COUNT and SHARD_IDS from the environment or a .env file. Register the slash "
            "commands once with `wildstud sync`."
        ),
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Start the bot and block until it stops; returns the exit status."""
    from bot.settings import load_settings

    try:
        settings = load_settings()
    except ValueError as error:
        print(f"wildstud run: {error}", file=sys.stderr)
        return 2
    if settings.discord_token is None:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    import discord

    configure_logging(settings.log_level, sys.stderr)
    # Wildstud never joins voice: discord.py's warnings about missing voice libraries are noise.
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
    try:
        return asyncio.run(_run(settings.discord_token))
    except KeyboardInterrupt:
        return 0


def configure_logging(level_name: str, stream: TextIO) -> None:
    """Log to ``stream`` at ``level_name`` (``LOG_LEVEL``) through discord.py's handler, with no
    secret in any line at any level (``bot.logs.keep_secrets``)."""
    import discord

    from bot.logs import keep_secrets

    level = logging.getLevelNamesMapping()[level_name]
    handler = logging.StreamHandler(stream)
    formatter = log_formatter(stream)
    if formatter is None:
        discord.utils.setup_logging(handler=handler, level=level)
    else:
        discord.utils.setup_logging(handler=handler, level=level, formatter=formatter)
    keep_secrets()


def log_formatter(stream: TextIO) -> logging.Formatter | None:
    """A plain log format when ``stream`` is not a TTY or ``NO_COLOR`` is set (hosts collect logs
    from a pipe, where colour codes are noise); ``None`` lets discord.py colour a terminal.

    discord.py's own check turns colour on inside any Docker container, hence this one.
    """
    if os.environ.get("NO_COLOR") or not stream.isatty():
        return logging.Formatter(
            "[{asctime}] [{levelname:<8}] {name}: {message}", "%Y-%m-%d %H:%M:%S", style="{"
        )
    return None


async def _run(token: str) -> int:
    import sqlite3

    import discord

    from bot.cli.database import database_errors
    from bot.discord.client import make_bot
    from bot.store import NotWildstudDatabase, SchemaTooNew, StoreError
    from bot.store.backend import redact

    log = logging.getLogger("bot.cli.run")
    # OSError is left to the clause below: Discord or the database server out of reach.
    unusable: tuple[type[BaseException], ...] = (
        sqlite3.Error, SchemaTooNew, StoreError, NotWildstudDatabase,
        *(e for e in database_errors() if e is not OSError),
    )
    async with make_bot() as bot:
        try:
            await bot.start(token)
        except unusable as error:
            log.error(
                "Could not open the database %s: %s (check DATABASE_URL / DATABASE_PATH)",
                redact(str(bot.database_path)),
                error,
            )
            return 1
        except OSError as error:
            log.error("Could not reach Discord or the database: %s", error)
            return 1
        except discord.LoginFailure:
            log.error(
                "Discord refused the token: check DISCORD_TOKEN (Developer Portal -> Bot -> Reset Token)."
            )
            return 1
        except discord.PrivilegedIntentsRequired:
            log.error(
                "Discord refused the connection: this bot needs no privileged intents; check the portal."
            )
            return 1
    return 0
