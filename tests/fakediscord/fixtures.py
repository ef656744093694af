"""pytest fixtures for the fake Discord (registered from tests/conftest.py via ``pytest_plugins``).

``fake_discord``: a running :class:`FakeDiscord` with one guild, "Home game" (members alice, bob
and carol; channels poker and lobby; owner "owner"). More guilds, roles, members and channels can
be added before the test starts its bot. At teardown any bot still running is closed, and with
``fake.strict`` (the default) the test fails if the bot hit a route the fake lacks, the fake hit
an internal error, or discord.py logged an error (set ``fake.strict = False`` or clear
``fake.bot_errors`` in tests that provoke errors on purpose).
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from .server import FakeDiscord, GuildSpec

DEFAULT_GUILD = GuildSpec(name="Home game", members=("alice", "bob", "carol"), channels=("poker", "lobby"))


@pytest_asyncio.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A fake Discord on 127.0.0.1 with the "Home game" guild; discord.py points at it."""
    async with FakeDiscord.start(guilds=[DEFAULT_GUILD]) as fake:
        yield fake
        for bot in list(fake.bots):
            await fake.stop_bot(bot)
        if fake.strict:
            fake.assert_clean()
