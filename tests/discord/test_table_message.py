"""The table message survives a restart through the store (issue 9): the restarted bot edits the
same message and never reads the channel's history to find it."""

from __future__ import annotations

from pathlib import Path

from tests.discord.helpers import current_prompt, label_starting, new_bot, open_table, prompted_member
from tests.fakediscord import FakeDiscord, restart_bot, start_bot


async def test_a_restart_mid_hand_edits_the_same_table_message(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    db = tmp_path / "ws.sqlite3"
    first = new_bot(db)
    await start_bot(first, fake)
    guild = fake.guild()
    alice, bob = guild.member("alice"), guild.member("bob")
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice, bob])
    await fake.slash(alice, "table deal", channel=poker)
    hand_message = fake.find_message(poker, containing="Hand #1 ·")
    edits_before = len(hand_message.history)
    second = new_bot(db)
    await restart_bot(first, second, fake)
    prompt = current_prompt(fake, poker)
    await fake.click(prompted_member(guild, prompt), prompt, label=label_starting(prompt, "Bring-in") or "")
    # One table message for hand #1, the one posted before the restart, edited after it.
    messages = [m for m in fake.channel_messages(poker) if "Hand #1 ·" in m.text]
    assert [m.id for m in messages] == [hand_message.id]
    assert len(hand_message.history) > edits_before and "to act" in hand_message.text
    assert fake.requests_matching("GET", "/channels/*/messages") == []
    assert fake.bot_errors == []
