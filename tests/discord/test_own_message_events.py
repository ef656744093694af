"""The bot reads no gateway event about its own messages (``WildstudBot._skip_own_message_events``):
every click edits the table message and posts a ping, and discord.py would build a whole ``Message``
of each event only to dispatch it to nobody. Other members' messages are read as before."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord

from tests.discord.helpers import new_bot, open_table, play_passively
from tests.fakediscord import FakeDiscord, start_bot


async def test_own_message_events_are_not_read_others_are(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    seen: list[tuple[str, int]] = []

    async def on_message(message: discord.Message) -> None:
        seen.append(("create", message.author.id))

    async def on_raw_message_edit(event: Any) -> None:
        seen.append(("edit", event.message.author.id))

    bot.add_listener(on_message)
    bot.add_listener(on_raw_message_edit)
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob, carol = (guild.member(n) for n in ("alice", "bob", "carol"))
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice, bob, carol])
    deal = await fake.click(alice, fake.last_message(poker), label="Deal")
    assert deal.response_type == 7
    await play_passively(fake, guild, poker, 1)
    await fake.settle()
    assert bot.user is not None
    # The hand edited the table message and posted pings and DMs: none of it was read back.
    own = [event for event in seen if event[1] == bot.user.id]
    assert own == []
    # A member's message is still read (the owner's "@Wildstud sync" is one).
    await fake.send_user_message(alice, poker, "hello")
    assert ("create", alice.id) in seen
