"""Buttons carry their table, hand and turn: a stale button and a double click change nothing; only
the player to act may act; pot-limit bets ask for the amount in a modal; the slash commands do the
same as the buttons."""

from __future__ import annotations

import re
from pathlib import Path

from tests.discord.helpers import (
    current_prompt,
    label_starting,
    live_table,
    new_bot,
    open_table,
    prompted_member,
    prompts,
    said,
)
from tests.fakediscord import FakeDiscord, start_bot


async def _hand_log(bot: object, fake: FakeDiscord) -> tuple[str, ...]:
    """The stored action log of the hand in progress (what the table service wrote)."""
    store = bot.store  # type: ignore[attr-defined]
    (hand,) = await store.list_unfinished_hands()
    return tuple(hand.actions)


async def test_stale_button_and_double_click_change_nothing(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob, carol = (guild.member(n) for n in ("alice", "bob", "carol"))
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice, bob, carol])
    await fake.slash(alice, "table deal", channel=poker)

    first = current_prompt(fake, poker)
    bring_in = prompted_member(guild, first)
    # Somebody else presses the player's button: refused, privately, and nothing moves.
    other = next(m for m in (alice, bob, carol) if m.id != bring_in.id)
    before = await _hand_log(bot, fake)
    wrong = await fake.click(other, first, label=label_starting(first, "Bring-in") or "")
    assert wrong.ephemeral and "not your turn" in wrong.text
    assert await _hand_log(bot, fake) == before

    # A double click: both clicks leave before the bot answers either; one action happens.
    label = label_starting(first, "Bring-in") or ""
    one = await fake.click(bring_in, first, label=label, wait=False)
    two = await fake.click(bring_in, first, label=label, wait=False)
    await fake.settle()
    after = await _hand_log(bot, fake)
    assert len(after) == len(before) + 1
    answers = [one.text, two.text]
    assert sum("earlier turn" in a for a in answers) == 1, answers
    assert sum(m.text.count("brings in for") for m in fake.channel_messages(poker)) == 1
    # The click that acted was answered by redrawing the table (type 7), the other refused.
    assert sorted([one.response_type or 0, two.response_type or 0]) == [4, 7]

    # The same old button pressed again later, from a client still showing the table as it was:
    # stale, refused, nothing changes.
    messages_before = len(fake.channel_messages(poker))
    stale = await fake.click(bring_in, first, label=label, stale=True)
    assert stale.ephemeral and "earlier turn" in stale.text
    assert await _hand_log(bot, fake) == after
    assert len(fake.channel_messages(poker)) == messages_before


async def test_slash_commands_act_like_buttons(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob, carol = (guild.member(n) for n in ("alice", "bob", "carol"))
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice, bob, carol])
    none_yet = await fake.slash(alice, "call", channel=poker)
    assert none_yet.ephemeral and "Nobody is to act" in none_yet.text
    await fake.slash(alice, "table deal", channel=poker)

    actor = prompted_member(guild, current_prompt(fake, poker))
    bystander = next(m for m in (alice, bob, carol) if m.id != actor.id)
    res = await fake.slash(bystander, "fold", channel=poker)
    assert res.ephemeral and "not your turn" in res.text
    # /call from the bring-in posts the bring-in (what is owed).
    res = await fake.slash(actor, "call", channel=poker)
    assert said(res) == "You bring in 10."
    # Next player: /raise without an amount in fixed limit completes to the one legal total.
    actor = prompted_member(guild, current_prompt(fake, poker))
    res = await fake.slash(actor, "raise", channel=poker)
    assert said(res) == "You complete to 20.", res.text
    actor = prompted_member(guild, current_prompt(fake, poker))
    log_before = await _hand_log(bot, fake)
    res = await fake.slash(actor, "check", channel=poker)  # facing a completion: no check
    assert res.ephemeral and "cannot check" in res.text and await _hand_log(bot, fake) == log_before
    res = await fake.slash(actor, "bet", {"amount": 25}, channel=poker)
    assert res.ephemeral and await _hand_log(bot, fake) == log_before  # 25 is no legal total here
    mark = len(fake.requests)
    res = await fake.slash(actor, "fold", channel=poker)
    assert said(res) == "You fold."
    in_channel = [r for r in fake.requests[mark:] if r.bucket == f"channel-messages:{poker.id}"]
    assert [r.method for r in in_channel] == ["PATCH"]          # one channel request: the table
    table = live_table(fake, poker)
    assert "folds" in table.text
    # A slash command edits the table with one channel request and pings through its own
    # interaction (a follow-up with the mention only), never through the channel.
    ping = next(m for m in res.messages if not m.ephemeral)
    assert "your turn" in ping.content and not ping.buttons


async def test_pot_limit_raise_asks_for_the_amount(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob = guild.member("alice"), guild.member("bob")
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice, bob], stakes="pot-limit")
    await fake.slash(alice, "table deal", channel=poker)
    # Play on until a wager with a choice of amounts is offered (pot limit: a range on the button).
    for _ in range(10):
        prompt = current_prompt(fake, poker)
        actor = prompted_member(guild, prompt)
        label = next((lb for lb in prompt.button_labels if re.search(r"\d-\d", lb)), None)
        if label is not None:
            break
        passive = label_starting(prompt, "Check", "Call", "Bring-in", "Show") or ""
        await fake.click(actor, prompt, label=passive)
    assert label is not None
    head, _, span = label.rpartition(" ")
    low, high = (int(x.replace(",", "")) for x in span.split("-"))
    verb = {"Complete to": "complete to", "Bet": "bet", "Raise to": "raise to"}[head]
    seen = len(prompts(fake, poker))
    opened = await fake.click(actor, prompt, label=label)
    assert opened.response_type == 9 and opened.modal is not None
    # Out of range: refused, nothing changes.
    too_much = await fake.submit_modal(opened, {"Amount": str(high + 1)})
    assert too_much.ephemeral and "Choose an amount" in too_much.text
    assert len(prompts(fake, poker)) == seen
    amount = (low + high) // 2
    opened = await fake.click(actor, prompt, label=label)
    done = await fake.submit_modal(opened, {"Amount": str(amount)})
    assert said(done) == f"You {verb} {amount:,}."
    assert done.response_type == 7      # the modal's answer redrew the table message
    assert str(amount) in live_table(fake, poker).text.replace(",", "")
