"""Restarts and timers: a bot restarted mid-hand resumes it and the old buttons still work with
every chip accounted for; a player who runs out of time is folded (check if possible) and marked
away (SPEC §7); two tables in two channels never leak into each other."""

from __future__ import annotations

import re
from pathlib import Path

from bot.tables.clock import FakeClock
from tests.discord.helpers import (
    STARTING_CHIPS,
    channel_text,
    current_prompt,
    dealt_deck,
    hand_over,
    label_starting,
    live_table,
    new_bot,
    open_table,
    pings,
    play_passively,
    prompted_member,
    said,
    total_chips,
)
from tests.fakediscord import FakeDiscord, restart_bot, start_bot


async def test_restart_mid_hand_resumes_and_old_buttons_work(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    db = tmp_path / "ws.sqlite3"
    first = new_bot(db)
    await start_bot(first, fake)
    guild = fake.guild()
    alice, bob, carol = (guild.member(n) for n in ("alice", "bob", "carol"))
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice, bob, carol])
    await fake.slash(alice, "table deal", channel=poker)
    for _ in range(4):  # bring-in, two calls, then one check on fourth street
        prompt = current_prompt(fake, poker)
        await fake.click(
            prompted_member(guild, prompt),
            prompt,
            label=label_starting(prompt, "Check", "Call", "Bring-in", "Show") or "",
        )
    table_message = fake.find_message(poker, containing="Hand #1 ·")
    pending = current_prompt(fake, poker)
    pot_before = re.search(r"Pot (\d+)", pending.text)
    assert pot_before is not None

    second = new_bot(db)
    await restart_bot(first, second, fake)
    assert "resumes after a restart" in table_message.text
    # Still one table message for the hand: the restarted bot found its message and edits it.
    assert [m for m in fake.channel_messages(poker) if "Hand #1 ·" in m.text] == [table_message]
    # The button posted before the restart still works (its custom_id carries table, hand, turn).
    actor = prompted_member(guild, pending)
    res = await fake.click(actor, pending, label=label_starting(pending, "Check") or "")
    assert res.response_type == 7 and said(res) == "", res.text
    assert re.search(r"\bchecks\b", table_message.text)
    await play_passively(fake, guild, poker, 1)
    assert fake.find_message(poker, containing="Showdown")
    report = await second.store.audit()
    assert report.ok, report.all_problems()
    assert await total_chips(second, guild.id) == 3 * STARTING_CHIPS
    assert int(pot_before.group(1)) > 0


async def test_timeout_posts_the_bring_in_then_folds(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    clock = FakeClock()
    bot = new_bot(tmp_path / "ws.sqlite3", clock=clock)
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob, carol = (guild.member(n) for n in ("alice", "bob", "carol"))
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice, bob, carol], timer=30)
    await fake.slash(alice, "table deal", channel=poker)

    slow = prompted_member(guild, current_prompt(fake, poker))
    mark = len(fake.requests)
    await clock.advance(15)  # the reminder, at half the time
    (ping,) = pings(fake, poker)
    assert ping.content.startswith(f"<@{slow.id}> reminder: your turn")
    await clock.advance(15)
    # A timer has no interaction: the reminder costs one ping (the table is unchanged), the
    # timeout at most one edit, one ping and the deletion of the reminder.
    in_channel = [r for r in fake.requests[mark:] if r.bucket == f"channel-messages:{poker.id}"]
    assert len(in_channel) <= 1 + 3, [(r.method, r.path) for r in in_channel]
    # SPEC §7: a pending bring-in is posted, never completed, and never folded.
    texts = live_table(fake, poker).text
    assert f"{slow.user.username} brings in for 10" in texts
    assert f"{slow.user.username} is away" in texts
    assert "ran out of time" in fake.dms_for(slow)[-1].text

    facing = prompted_member(guild, current_prompt(fake, poker))
    await clock.advance(30)  # facing the bring-in, no check is possible: fold
    assert f"{facing.user.username} folds" in channel_text(fake, poker)
    # Both timed-out players sit out the next hand until they come back.
    back = await fake.slash(facing, "table back", channel=poker)
    assert back.ephemeral and "Welcome back" in back.text


async def test_two_tables_in_two_channels_never_leak(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    guild = fake.guild()
    dave, erin = guild.add_member("dave"), guild.add_member("erin")
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    alice, bob = guild.member("alice"), guild.member("bob")
    poker, lobby = guild.channel("poker"), guild.channel("lobby")
    await open_table(fake, alice, poker, [alice, bob])
    await open_table(fake, dave, lobby, [dave, erin], stakes="micro")
    await fake.slash(alice, "table deal", channel=poker)
    await fake.slash(dave, "table deal", channel=lobby)
    # Interleave the two hands, one action at a time, until both are over.
    for _ in range(60):
        for channel in (poker, lobby):
            if not hand_over(fake, channel, 1):
                prompt = current_prompt(fake, channel)
                await fake.click(
                    prompted_member(guild, prompt),
                    prompt,
                    label=label_starting(prompt, "Check", "Call", "Bring-in", "Show") or "",
                )
        if hand_over(fake, poker, 1) and hand_over(fake, lobby, 1):
            break
    assert hand_over(fake, poker, 1) and hand_over(fake, lobby, 1)

    for channel, own, foreign in (
        (poker, ("alice", "bob"), ("dave", "erin")),
        (lobby, ("dave", "erin"), ("alice", "bob")),
    ):
        text = channel_text(fake, channel)
        assert all(name in text for name in own)
        assert not any(name in text for name in foreign), channel.name
        # The other table's deck order and commitment never appear here.
        other = lobby if channel is poker else poker
        other_deck = "".join(c.code for c in await dealt_deck(bot, guild, other, 1))
        assert other_deck not in text.replace(" ", "")
    # Each member's DMs name only their own table's channel.
    for member, channel in ((alice, poker), (bob, poker), (dave, lobby), (erin, lobby)):
        dms = fake.dms_for(member)
        assert dms and all(f"<#{channel.id}>" in m.text for m in dms)
    # Stakes stayed per table: the micro table's antes are 1, the small table's 5.
    assert "Antes: 1 each" in channel_text(fake, lobby)
    assert "Antes: 5 each" in channel_text(fake, poker)
    report = await bot.store.audit()
    assert report.ok, report.all_problems()
    assert await total_chips(bot, guild.id) == 4 * STARTING_CHIPS


async def test_restart_between_hands_reuses_the_table_message(
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
    await play_passively(fake, guild, poker, 1)
    lobby = fake.find_message(poker, with_button="Deal")
    assert lobby.text.startswith("### Between hands")

    second = new_bot(db)
    await restart_bot(first, second, fake)
    # The table message's Deal button works after the restart, and the click itself turns that
    # message into hand #2's table (type 7): still one table message, no stale lobby left behind.
    res = await fake.click(alice, lobby, label="Deal")
    assert "Hand #2 is dealt" in said(res) and res.response_type == 7
    assert lobby.text.startswith("### Hand #2 ·")
    assert not any("Deal" in m.button_labels for m in fake.channel_messages(poker))
    # (hand #1's summary keeps only its Replay button)
    assert [m.id for m in fake.channel_messages(poker) if set(m.button_labels) - {"Replay"}] == [lobby.id]
    report = await second.store.audit()
    assert report.ok, report.all_problems()
