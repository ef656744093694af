"""Attacks on the Discord side (a reviewer's tests), through the real discord.py client against the
fake Discord: every interaction is answered in time and never "This interaction failed"; refusals
are short private reasons and change nothing; odd input, stale and doubled clicks, restarts, slow
channels and closed DMs do not break a table."""

from __future__ import annotations

import re
from pathlib import Path

from tests.discord.helpers import (
    current_prompt,
    label_starting,
    new_bot,
    open_table,
    prompted_member,
)
from tests.fakediscord import (
    FakeChannel,
    FakeDiscord,
    FakeGuild,
    FakeMember,
    FakeMessage,
    restart_bot,
    start_bot,
)


async def _hand_log(bot: object) -> tuple[str, ...]:
    """The stored action log of the one hand in progress (what the table service wrote)."""
    (hand,) = await bot.store.list_unfinished_hands()  # type: ignore[attr-defined]
    return tuple(hand.actions)


async def _to_range_wager(
    fake: FakeDiscord, guild: FakeGuild, channel: FakeChannel
) -> tuple[FakeMessage, FakeMember, str, int, int]:
    """Check/call along until a player is offered a wager with a range of amounts (pot limit);
    returns the prompt, that player, the button's label and the range it states."""
    for _ in range(10):
        prompt = current_prompt(fake, channel)
        actor = prompted_member(guild, prompt)
        label = next((lb for lb in prompt.button_labels if re.search(r"\d-\d", lb)), None)
        if label is not None:
            low, high = (int(x.replace(",", "")) for x in label.rpartition(" ")[2].split("-"))
            return prompt, actor, label, low, high
        await fake.click(actor, prompt, label=label_starting(prompt, "Check", "Call", "Bring-in") or "")
    raise AssertionError("no range wager offered")


# ---------------------------------------------------------------------------------------- modals


async def test_amount_modal_opened_before_a_restart_is_still_answered(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    # Bug found: discord.py keeps a modal only in the memory of the process that opened it, so a
    # player who opened the "Raise" modal, then submitted it after the bot restarted, got no answer
    # at all ("This interaction failed") and their raise was lost. The same happened to anyone who
    # took longer than the modal's 10-minute timeout to type. The modal's custom_id carries the
    # table, hand and turn, like the buttons', so the submission can be answered from it alone.
    fake = fake_discord
    db = tmp_path / "ws.sqlite3"
    bot = new_bot(db)
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob = guild.member("alice"), guild.member("bob")
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice, bob], stakes="pot-limit")
    await fake.slash(alice, "table deal", channel=poker)
    prompt, actor, label, low, _ = await _to_range_wager(fake, guild, poker)
    opened = await fake.click(actor, prompt, label=label)
    assert opened.modal is not None
    before = await _hand_log(bot)

    second = new_bot(db)
    await restart_bot(bot, second, fake)
    done = await fake.submit_modal(opened, {"Amount": str(low)})
    verb = {"Complete to": "complete to", "Bet": "bet", "Raise to": "raise to"}[label.rpartition(" ")[0]]
    assert done.ephemeral and done.text == f"You {verb} {low:,}.", done.text
    assert len(await _hand_log(second)) == len(before) + 1
    # Submitting the same modal again is a stale second click: refused, nothing moves.
    again = await fake.submit_modal(opened, {"Amount": str(low)})
    assert again.ephemeral and "earlier turn" in again.text
    assert len(await _hand_log(second)) == len(before) + 1


async def test_amount_modal_refuses_odd_input_with_the_range(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob = guild.member("alice"), guild.member("bob")
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice, bob], stakes="pot-limit")
    await fake.slash(alice, "table deal", channel=poker)
    prompt, actor, label, low, high = await _to_range_wager(fake, guild, poker)
    before = await _hand_log(bot)
    # Bug found: "4²" passed str.isdigit() and then crashed int(), so the player got "Something
    # went wrong" and an error was logged. Every one of these must be a plain refusal that states
    # the range, with nothing logged and nothing stored.
    for typed in ("4²", "-5", "abc", "1.5", "0", str(low - 1), str(high + 1), "१२"):
        opened = await fake.click(actor, prompt, label=label)
        res = await fake.submit_modal(opened, {"Amount": typed})
        assert res.ephemeral and f"{low:,} to {high:,}" in res.text, (typed, res.text)
        assert await _hand_log(bot) == before
    assert not fake.bot_errors
    # Thousands separators are fine: "1,0" style input is read as plain digits.
    opened = await fake.click(actor, prompt, label=label)
    res = await fake.submit_modal(opened, {"Amount": f" {high:,} "})
    assert res.ephemeral and res.text.endswith(f"{high:,}."), res.text


async def test_only_the_player_to_act_may_open_or_submit_the_amount_modal(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob, carol = (guild.member(n) for n in ("alice", "bob", "carol"))
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice, bob], stakes="pot-limit")
    await fake.slash(alice, "table deal", channel=poker)
    prompt, actor, label, low, _ = await _to_range_wager(fake, guild, poker)
    other = bob if actor.id == alice.id else alice
    for member, reason in ((other, "not your turn"), (carol, "not in this hand")):
        res = await fake.click(member, prompt, label=label)
        assert res.modal is None and res.ephemeral and reason in res.text, res.text
    # The player opens the modal, but the turn passes (here: they act by slash command) before
    # they submit it: the submission is stale and changes nothing.
    opened = await fake.click(actor, prompt, label=label)
    await fake.slash(actor, "call", channel=poker)
    after = await _hand_log(bot)
    res = await fake.submit_modal(opened, {"Amount": str(low)})
    assert res.ephemeral and "earlier turn" in res.text
    assert await _hand_log(bot) == after


# ------------------------------------------------------------------------------- slow paths


async def test_table_create_is_answered_when_the_channel_is_slow(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    # Bug found: /table create posted "Table open" in the channel before answering the
    # interaction. A rate-limited channel (Discord: 5 messages per 5 s per channel, easily hit
    # during a hand) pushed the answer past the deadline: "This interaction failed", yet the table
    # was open. Here the deadline is scaled down to 0.3 s and the channel post waits 0.5 s.
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice = guild.member("alice")
    poker = guild.channel("poker")
    fake.interaction_deadline = 0.3
    fake.rate_limit("POST", "/channels/{id}/messages", retry_after=0.5)
    res = await fake.slash(alice, "table create", channel=poker)
    assert not res.rejected, res.rejected
    assert not res.ephemeral and res.original is not None and res.original.button_labels == ["Join", "Deal"]
    # A refusal after the answer started stays private: the public "thinking" is taken away.
    again = await fake.slash(alice, "table create", channel=poker)
    assert again.ephemeral and "already has a table" in again.text
