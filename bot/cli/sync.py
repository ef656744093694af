"""``wildstud sync [--guild ID]``: register the slash commands with Discord, then exit.

Run it once after installing or upgrading (not on every start: Discord limits how often commands
may be created). Without ``--guild`` the commands are registered globally (they can take a while to
appear everywhere); with ``--guild ID`` they are copied to that one server, where they show at once
(handy for testing). Needs ``DISCORD_TOKEN`` like ``wildstud run``; opens no gateway connection and
no database. Exit status 0 on success, 1 when Discord refuses or cannot be reached, 2 without a
token.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any


def register(subparsers: Any) -> None:
    """Add the ``sync`` sub-command."""
    parser = subparsers.add_parser(
        "sync",
        help="register the bot's slash commands with Discord (globally, or in one server)",
        description=(
            "Register the slash commands with Discord and exit. Global by default (may take a while to "
            "show); --guild ID registers them in one server at once."
        ),
    )
    parser.add_argument(
        "--guild", type=int, metavar="ID", help="the server (guild) ID to register the commands in"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Sync the commands; returns the exit status."""
    from bot.cli.run import NO_TOKEN
    from bot.settings import load_settings

    try:
        settings = load_settings()
    except ValueError as error:
        print(f"wildstud sync: {error}", file=sys.stderr)
        return 2
    if settings.discord_token is None:
        print(NO_TOKEN.replace("wildstud run:", "wildstud sync:"), file=sys.stderr)
        return 2
    import discord

    try:
        names = asyncio.run(sync_commands(settings.discord_token, args.guild))
    except discord.LoginFailure:
        print("wildstud sync: Discord refused the token (check DISCORD_TOKEN).", file=sys.stderr)
        return 1
    except discord.HTTPException as error:
        print(f"wildstud sync: Discord refused the commands: {error}", file=sys.stderr)
        return 1
    except (OSError, TimeoutError) as error:
        print(f"wildstud sync: could not reach Discord: {error or type(error).__name__}", file=sys.stderr)
        return 1
    where = f"server {args.guild}" if args.guild is not None else "globally"
    print(f"Registered {len(names)} slash commands {where}: {', '.join('/' + n for n in names)}")
    return 0


async def sync_commands(token: str, guild_id: int | None = None) -> list[str]:
    """Log in (REST only), register the commands globally or in ``guild_id``; returns their names."""
    import discord

    from bot.discord.client import WildstudBot
    from bot.settings import load_settings

    bot = WildstudBot(load_settings(dotenv=False), commands_only=True)
    try:
        await bot.login(token)
        guild = discord.Object(guild_id) if guild_id is not None else None
        if guild is not None:
            bot.tree.copy_global_to(guild=guild)
        synced = await bot.tree.sync(guild=guild)
    finally:
        await bot.close()
    return sorted(command.name for command in synced)
