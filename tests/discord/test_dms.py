"""Private messages: closed DMs (Discord error 50007, on opening the DM channel or on sending) fall
back to the "My cards" button; the channel is told once; the hand never waits."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.discord.helpers import (
    current_prompt,
    hand_log,
    label_starting,
    live_table,
    new_bot,
    open_table,
    play_passively,
    prompted_member,
)
from tests.fakediscord import FakeDiscord, start_bot


@pytest.mark.parametrize("on_create", [False, True], ids=["refused-on-send", "refused-on-open"])
async def test_closed_dms_fall_back_to_my_cards(
    fake_discord: FakeDiscord, tmp_path: Path, on_create: bool
) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob, carol = (guild.member(n) for n in ("alice", "bob", "carol"))
    poker = guild.channel("poker")
    fake.set_dm_closed(carol, on_create=on_create)

    await open_table(fake, alice, poker, [alice, bob, carol])
    await fake.slash(alice, "table deal", channel=poker)
    # The hand did not wait for carol's DM: the first player is already prompted.
    prompt = current_prompt(fake, poker)
    assert "My cards" in prompt.button_labels

    cards = await fake.click(carol, prompt, label="My cards")
    assert cards.ephemeral and "Your cards:" in cards.text and "Hand #1, third street" in cards.text
    # bob's DM and carol's ephemeral answer describe different hands of cards.
    assert (
        fake.dms_for(bob)
        and fake.dms_for(bob)[-1].text.split("Your cards: ")[1].split("\n")[0]
        != (cards.text.split("Your cards: ")[1].split("\n")[0])
    )
    # alice and bob got their DMs; carol got none (her DMs are closed).
    assert fake.dms_for(carol) == []
    assert len(fake.dms_for(alice)) == 1 and len(fake.dms_for(bob)) == 1

    # The channel is told at the table's next change (the DM went out after the table moved).
    actor = prompted_member(guild, prompt)
    await fake.click(actor, prompt, label=label_starting(prompt, "Bring-in") or "")
    assert "couldn't send carol" in live_table(fake, poker).text
    await play_passively(fake, guild, poker, 1)
    # Two down-card streets, two private messages for carol that could not be delivered, and the
    # channel was told once (SPEC/issue: "tell the channel once").
    assert hand_log(fake, poker, 1).count("couldn't send carol") == 1
    # Only one DM attempt per hand for carol: after the first refusal the bot stops trying (403s
    # count toward Discord's invalid-request limit).
    if on_create:
        attempts = [r for r in fake.requests_matching("POST", "/users/@me/channels") if r.status == 400]
    else:
        attempts = [r for r in fake.requests_matching("POST", "/channels/*/messages") if r.status == 403]
    assert len(attempts) == 1
    assert len(fake.dms_for(alice)) == 2 and len(fake.dms_for(bob)) == 2  # third and seventh street


async def test_my_cards_outside_a_hand_is_refused(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob, carol = (guild.member(n) for n in ("alice", "bob", "carol"))
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice, bob])
    await fake.slash(alice, "table deal", channel=poker)
    prompt = current_prompt(fake, poker)
    # carol is not in the hand: she is told so, privately, and sees nobody's cards.
    res = await fake.click(carol, prompt, label="My cards")
    assert res.ephemeral and "not in a hand" in res.text and "Your cards" not in res.text
