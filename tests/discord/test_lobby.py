"""The lobby message (issue 14): reused as the first hand's table message only while under 15
minutes old -- judged against an injected wall clock, since the fake makes snowflakes from the
current time -- and a lobby the bot may not delete is forgotten rather than kept stale."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import discord

from tests.discord.helpers import new_bot, open_table, play_passively
from tests.fakediscord import FakeDiscord, start_bot


async def test_a_fresh_lobby_becomes_the_hands_message(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob = guild.member("alice"), guild.member("bob")
    poker = guild.channel("poker")
    lobby = await open_table(fake, alice, poker, [alice, bob])
    bot.presenter.wall_clock = lambda: discord.utils.utcnow() + timedelta(minutes=14)
    await fake.slash(alice, "table deal", channel=poker)
    assert fake.find_message(poker, containing="Hand #1 ·") is lobby and not lobby.deleted


async def test_an_old_lobby_is_deleted_and_the_hand_gets_a_new_message(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob = guild.member("alice"), guild.member("bob")
    poker = guild.channel("poker")
    lobby = await open_table(fake, alice, poker, [alice, bob])
    bot.presenter.wall_clock = lambda: discord.utils.utcnow() + timedelta(minutes=16)
    await fake.slash(alice, "table deal", channel=poker)
    hand_message = fake.find_message(poker, containing="Hand #1 ·")
    assert hand_message is not lobby and lobby.deleted
    assert fake.channel_messages(poker)[-1] is not lobby


async def test_a_lobby_the_bot_may_not_delete_is_not_kept_stale(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob = guild.member("alice"), guild.member("bob")
    poker = guild.channel("poker")
    lobby = await open_table(fake, alice, poker, [alice, bob])
    bot.presenter.wall_clock = lambda: discord.utils.utcnow() + timedelta(minutes=16)
    fake.inject_error("DELETE", "/channels/{id}/messages/{id}", status=403, code=50013,
                      message="Missing Permissions")
    await fake.slash(alice, "table deal", channel=poker)
    hand_message = fake.find_message(poker, containing="Hand #1 ·")
    assert hand_message is not lobby and not lobby.deleted          # the delete was refused
    # The refused lobby is forgotten: the hand is played on its own message, and the next lobby is
    # not drawn on the old, buried one.
    before = lobby.text
    await play_passively(fake, guild, poker, 1)
    assert lobby.text == before and "Hand #1 ·" not in lobby.text
    assert "Between hands" in fake.find_message(poker, with_button="Deal").text
