"""A local fake of the Discord API for end-to-end tests with the real discord.py client.

Quick start (see README.md in this directory)::

    async with FakeDiscord.start(guilds=[GuildSpec("Home game", members=["alice", "bob"])]) as fake:
        await start_bot(bot, fake)
        alice = fake.guild().member("alice")
        res = await fake.slash(alice, "table create", {"stakes": "small"})
        assert "Table" in res.text
"""

from __future__ import annotations

import discord

from .interactions import FakeInteraction
from .models import (
    EPHEMERAL,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
)
from .server import DiscordError, FakeDiscord, GuildSpec, RateLimitWait, RecordedRequest, Traffic


async def start_bot(bot: discord.Client, fake: FakeDiscord, *, within: float = 5.0) -> None:
    """Log ``bot`` in against ``fake``, connect it and wait for READY (``FakeDiscord.start_bot``)."""
    await fake.start_bot(bot, within=within)


async def stop_bot(bot: discord.Client, fake: FakeDiscord, *, within: float = 5.0) -> None:
    """Close ``bot`` and wait until its gateway connection is gone (``FakeDiscord.stop_bot``)."""
    await fake.stop_bot(bot, within=within)


async def restart_bot(
    old: discord.Client, new: discord.Client, fake: FakeDiscord, *, within: float = 5.0
) -> None:
    """Stop ``old``, then start ``new`` against the same fake state (``FakeDiscord.restart_bot``)."""
    await fake.restart_bot(old, new, within=within)


__all__ = [
    "EPHEMERAL",
    "DiscordError",
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeInteraction",
    "FakeMember",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "GuildSpec",
    "RateLimitWait",
    "RecordedRequest",
    "Traffic",
    "restart_bot",
    "start_bot",
    "stop_bot",
]
