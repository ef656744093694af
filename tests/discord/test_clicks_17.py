"""Every click is answered with the true reason (issue 17): a forged or junk custom_id, another
channel's table id, and Fold next to a free Check (asked "Fold anyway?" first)."""

from __future__ import annotations

from pathlib import Path

from tests.discord.helpers import (
    current_prompt,
    label_starting,
    live_table,
    new_bot,
    open_table,
    prompted_member,
)
from tests.fakediscord import FakeDiscord, FakeInteraction, FakeMember, FakeMessage, start_bot
from tests.fakediscord.interactions import MESSAGE_COMPONENT
from tests.fakediscord.models import BUTTON


async def forged(fake: FakeDiscord, who: FakeMember, message: FakeMessage, custom_id: str) -> FakeInteraction:
    """A modified client's click: a custom_id the message does not have."""
    return await fake._inject_interaction(
        MESSAGE_COMPONENT, who, fake.channels[message.channel_id],
        {"custom_id": custom_id, "component_type": BUTTON}, message=message,
        label=f"forged {custom_id!r}", wait=True, within=5.0, expect_response=True,
    )


async def test_forged_and_foreign_clicks_get_the_true_reason(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob, carol = (guild.member(n) for n in ("alice", "bob", "carol"))
    poker, lobby = guild.channel("poker"), guild.channel("lobby")
    here = await open_table(fake, alice, poker, [alice, bob])
    dave = guild.add_member("dave")
    there = await open_table(fake, carol, lobby, [carol, dave])
    other_id = next(c["custom_id"] for c in there.all_components()
                    if str(c.get("custom_id", "")).startswith("ws:join:"))

    for junk in ("hello", "ws:nothing:1", "ws:act:x", "a" * 100):
        res = await forged(fake, alice, here, junk)
        assert res.ephemeral and "not on this message" in res.text, (junk, res.text)
    # The other channel's table is open: the reason says so (it said "closed").
    res = await forged(fake, alice, here, other_id)
    assert res.ephemeral and "another channel" in res.text and "closed" not in res.text, res.text


async def test_fold_next_to_a_free_check_asks_first(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob, carol = (guild.member(n) for n in ("alice", "bob", "carol"))
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice, bob, carol])
    await fake.slash(alice, "table deal", channel=poker)
    for _ in range(20):           # to the first prompt where checking is free (fourth street)
        prompt = current_prompt(fake, poker)
        if "Check" in prompt.button_labels:
            break
        label = label_starting(prompt, "Call", "Bring-in") or ""
        await fake.click(prompted_member(guild, prompt), prompt, label=label)
    prompt = current_prompt(fake, poker)
    player = prompted_member(guild, prompt)
    asked = await fake.click(player, prompt, label="Fold")
    assert asked.ephemeral and "fold anyway?" in asked.text, asked.text
    assert f"{player.user.username} folds" not in live_table(fake, poker).text    # nothing happened yet
    (question,) = [m for m in asked.messages if m.ephemeral]
    done = await fake.click(player, question, label="Fold anyway")
    assert not done.rejected, done.text
    assert f"{player.user.username} folds" in live_table(fake, poker).text
