"""Attacks on the Discord side (a reviewer's tests), through the real discord.py client against the
fake Discord: every interaction is answered in time and never "This interaction failed"; refusals
are short private reasons and change nothing; odd input, stale and doubled clicks, restarts, slow
channels and closed DMs do not break a table."""

from __future__ import annotations

import io
import re
from collections.abc import Awaitable
from pathlib import Path

import discord
import pytest
from PIL import Image

from bot.discord.client import WildstudBot
from bot.engine.games.catalogue import GAMES
from bot.engine.games.rulings import RULINGS
from bot.render.pictures import PICTURE_WIDTH
from bot.settings import Settings
from bot.tables.clock import FakeClock
from bot.tables.notices import ActionOption
from tests.discord.helpers import (
    STARTING_CHIPS,
    channel_text,
    current_prompt,
    hand_log,
    hand_over,
    label_starting,
    new_bot,
    open_table,
    prompted_member,
    said,
    table_message,
    total_chips,
)
from tests.fakediscord import (
    FakeChannel,
    FakeDiscord,
    FakeGuild,
    FakeInteraction,
    FakeMember,
    FakeMessage,
    GuildSpec,
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
        passive = label_starting(prompt, "Check", "Call", "Bring-in", "Show") or ""
        await fake.click(actor, prompt, label=passive)
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
    assert said(done) == f"You {verb} {low:,}.", done.text
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
        assert res.ephemeral and f"{low:,} to {high:,}" in said(res), (typed, res.text)
        assert await _hand_log(bot) == before
    assert not fake.bot_errors
    # Thousands separators are fine: "1,0" style input is read as plain digits.
    opened = await fake.click(actor, prompt, label=label)
    res = await fake.submit_modal(opened, {"Amount": f" {high:,} "})
    assert said(res).endswith(f"{high:,}."), res.text


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
    assert res.ephemeral and "Your table is open" in res.text
    assert table_message(fake, poker).button_labels == ["Join", "Deal"]
    again = await fake.slash(alice, "table create", channel=poker)
    assert again.ephemeral and "already has a table" in again.text


# ----------------------------------------------------------------------- acting out of turn


async def test_out_of_turn_and_outsiders_change_nothing(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    guild = fake.guild()
    dave = guild.add_member("dave")  # a plain member of the server who never sits down
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    alice, bob, carol = (guild.member(n) for n in ("alice", "bob", "carol"))
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice, bob, carol])
    await fake.slash(alice, "table deal", channel=poker)
    prompt = current_prompt(fake, poker)
    actor = prompted_member(guild, prompt)
    waiting = [m for m in (alice, bob, carol) if m.id != actor.id]
    before = await _hand_log(bot)
    posts = len(fake.channel_messages(poker))
    commands: list[tuple[str, dict[str, object]]] = [
        ("bet", {"amount": 20}),
        ("raise", {"amount": 40}),
        ("call", {}),
        ("check", {}),
        ("fold", {}),
        ("allin", {}),
        ("show", {}),
        ("muck", {}),
    ]
    actions = [label for label in prompt.button_labels if label not in ("My cards", "Join")]
    assert actions  # the bring-in's choices: Bring-in and Complete (fixed limit)
    for member, reason in [*((m, "not your turn") for m in waiting), (dave, "not in this hand")]:
        for name, options in commands:
            res = await fake.slash(member, name, options, channel=poker)
            # Answered, privately, with the reason; never "This interaction failed".
            assert not res.rejected and res.ephemeral and reason in res.text, (name, res.text)
        for label in actions:
            res = await fake.click(member, prompt, label=label)
            assert not res.rejected and res.ephemeral and reason in res.text, (label, res.text)
    # dave's "My cards" shows nobody's cards.
    mine = await fake.click(dave, prompt, label="My cards")
    assert mine.ephemeral and "Your cards" not in mine.text
    assert await _hand_log(bot) == before
    assert len(fake.channel_messages(poker)) == posts  # nothing was said in the channel either
    # The player to act is still prompted and can act.
    res = await fake.slash(actor, "call", channel=poker)
    assert said(res) == "You bring in 10."


async def test_wagers_outside_the_limits_are_refused_with_a_reason(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob = guild.member("alice"), guild.member("bob")
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice, bob], stakes="no-limit")
    await fake.slash(alice, "table deal", channel=poker)
    actor = prompted_member(guild, current_prompt(fake, poker))
    before = await _hand_log(bot)
    # Zero, negative and non-numeric amounts never reach the bot: the option has min_value 1 and
    # integer type, which the Discord client enforces (the fake refuses them the same way).
    for bad in (0, -5):
        with pytest.raises(ValueError, match="min_value"):
            await fake.slash(actor, "bet", {"amount": bad}, channel=poker)
    with pytest.raises(TypeError):
        await fake.slash(actor, "raise", {"amount": "lots"}, channel=poker)
    # No limit, minimum bet 20, stacks 995 after the ante: 1 is below the smallest completion,
    # 999,999 is more than the stack; without an amount the player is told the range.
    for command, options, reason in (
        ("bet", {"amount": 1}, "20"),
        ("raise", {"amount": 19}, "20"),
        ("bet", {"amount": 999_999}, "995"),
        ("raise", {}, "20 to 995"),
    ):
        res = await fake.slash(actor, command, options, channel=poker)
        assert not res.rejected and res.ephemeral and reason in res.text, (options, res.text)
        # Refusals read as sentences (the engine's reasons are lower-case clauses such as
        # "the smallest complete is to 20"; "Say how much: complete to from 20 to 995." was
        # the old, garbled, prompt for a missing amount).
        assert res.text[0].isupper() and res.text.endswith("."), res.text
        assert "to from" not in res.text
    assert await _hand_log(bot) == before
    assert not fake.bot_errors


# ------------------------------------------------------------------- stale and doubled clicks


async def test_buttons_from_an_earlier_hand_or_a_closed_table_are_refused(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob = guild.member("alice"), guild.member("bob")
    poker = guild.channel("poker")
    lobby = await open_table(fake, alice, poker, [alice, bob])
    await fake.slash(alice, "table deal", channel=poker)
    first = current_prompt(fake, poker)
    bring_in = prompted_member(guild, first)
    complete = label_starting(first, "Complete") or ""
    await fake.click(bring_in, first, label=label_starting(first, "Bring-in") or "")
    second = current_prompt(fake, poker)
    folder = prompted_member(guild, second)
    call = label_starting(second, "Call", "Complete") or ""
    await fake.click(folder, second, label="Fold")  # hand #1 is over
    assert first.button_labels == ["Replay"]  # hand #1's table message is its summary now
    await fake.slash(alice, "table deal", channel=poker)
    log = await _hand_log(bot)
    # Hand #1's buttons, pressed during hand #2 by the players they were for (a client still
    # showing the message as it was): refused privately.
    for member, label in ((bring_in, complete), (folder, call)):
        res = await fake.click(member, first, label=label, stale=True)
        assert res.ephemeral and "That hand is over." in res.text, res.text
    assert await _hand_log(bot) == log

    # Close the table (after hand #2) and open a new one in the same channel: the old table's
    # buttons (Join, Deal, My cards, actions) now belong to a closed table.
    current = current_prompt(fake, poker)
    await fake.click(
        prompted_member(guild, current), current, label=label_starting(current, "Bring-in") or ""
    )
    current = current_prompt(fake, poker)
    hand_two = current
    await fake.click(prompted_member(guild, current), current, label="Fold")
    old_lobby = table_message(fake, poker)
    await fake.slash(alice, "table close", channel=poker)
    assert not old_lobby.buttons and "Table closed." in old_lobby.text
    await fake.slash(bob, "table create", channel=poker)
    assert hand_two.button_labels == ["Replay"]  # the hand's message lost its own buttons when it ended
    for message, label in ((hand_two, "My cards"), (hand_two, "Call 10"), (old_lobby, "Join")):
        res = await fake.click(alice, message, label=label, stale=True)
        assert res.ephemeral and "closed" in res.text, (label, res.text)
    assert lobby.button_labels == ["Replay"]  # the first table's lobby became hand #1's summary
    assert not fake.bot_errors


async def test_double_clicks_act_once(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob, carol = (guild.member(n) for n in ("alice", "bob", "carol"))
    poker = guild.channel("poker")
    # Two members open a table in the same channel at the same moment: one table, one public
    # table message; the other is told privately.
    opens = [await fake.slash(m, "table create", channel=poker, wait=False) for m in (alice, bob)]
    await fake.settle()
    assert all(o.ephemeral for o in opens)
    texts = sorted(o.text for o in opens)
    assert "already has a table" in texts[0] and "Your table is open" in texts[1], texts
    assert not any(m.loading for m in fake.channel_messages(poker))
    assert len([m for m in fake.channel_messages(poker) if m.buttons]) == 1
    lobby = table_message(fake, poker)
    # Join, clicked twice before the bot answers either: one seat, one buy-in.
    clicks = [await fake.click(bob, lobby, label="Join", wait=False) for _ in range(2)]
    clicks += [await fake.click(m, lobby, label="Join", wait=False) for m in (alice, carol)]
    await fake.settle()
    assert all(c.response_type is not None and not c.rejected for c in clicks)
    texts = [c.text for c in clicks[:2]]
    assert sum("You sit in seat" in t for t in texts) == 1 and sum("already" in t for t in texts) == 1, texts
    balance = await fake.slash(bob, "chips balance", channel=poker)
    assert balance.text == "You have 0 chips, plus 1,000 at the tables."
    # Deal, clicked twice: one hand.
    deals = [await fake.click(alice, lobby, label="Deal", wait=False) for _ in range(2)]
    await fake.settle()
    assert sum("Hand #1 is dealt" in d.text for d in deals) == 1, [d.text for d in deals]
    assert sum("Hand #1:" in m.text for m in fake.channel_messages(poker)) == 1
    # The same slash command sent twice at once (a laggy client): one action.
    actor = prompted_member(guild, current_prompt(fake, poker))
    before = await _hand_log(bot)
    calls = [await fake.slash(actor, "call", channel=poker, wait=False) for _ in range(2)]
    await fake.settle()
    assert len(await _hand_log(bot)) == len(before) + 1
    assert sorted(c.text.startswith("You bring in") for c in calls) == [False, True], [c.text for c in calls]
    # Fold clicked three times by the next player: folds once.
    prompt = current_prompt(fake, poker)
    folder = prompted_member(guild, prompt)
    folds = [await fake.click(folder, prompt, label="Fold", wait=False) for _ in range(3)]
    await fake.settle()
    assert all(f.response_type is not None and not f.rejected for f in folds)
    assert sum(m.text.count(f"{folder.user.username} folds") for m in fake.channel_messages(poker)) == 1
    assert len(await _hand_log(bot)) == len(before) + 2


# ------------------------------------------------------------------------ seats and chips


async def test_join_limits_leave_mid_hand_and_close_mid_hand(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob, carol = (guild.member(n) for n in ("alice", "bob", "carol"))
    poker = guild.channel("poker")
    # Small preset: fixed limit 20/40, buy-in 400 to 4,000 (and every member starts with 1,000).
    await fake.slash(alice, "table create", channel=poker)
    await fake.slash(guild.member("owner"), "chips grant", {"member": carol, "amount": 4000}, channel=poker)
    for member, buy_in, reason in (
        (bob, 399, "minimum buy-in"),
        (carol, 4001, "maximum buy-in"),  # carol has 5,000 now
        (bob, 1500, "1,000"),  # more than bob's balance
    ):
        res = await fake.slash(member, "table join", {"buy_in": buy_in}, channel=poker)
        assert res.ephemeral and reason in res.text and "You sit" not in res.text, (buy_in, res.text)
    with pytest.raises(ValueError):  # the option's min_value is 1: the client refuses 0 and less
        await fake.slash(bob, "table join", {"buy_in": 0}, channel=poker)
    for member in (alice, bob, carol):
        res = await fake.slash(member, "table join", {"buy_in": 500}, channel=poker)
        assert res.text.startswith("You sit in seat"), res.text
    twice = await fake.slash(bob, "table join", {"buy_in": 200}, channel=poker)
    assert twice.ephemeral and "already have a seat" in twice.text
    balance = await fake.slash(bob, "chips balance", channel=poker)
    assert balance.text == "You have 500 chips, plus 500 at the tables."

    await fake.slash(alice, "table deal", channel=poker)
    prompt = current_prompt(fake, poker)
    first = prompted_member(guild, prompt)
    await fake.click(first, prompt, label=label_starting(prompt, "Bring-in") or "")  # bring-in 10
    prompt = current_prompt(fake, poker)
    second = prompted_member(guild, prompt)
    await fake.click(second, prompt, label="Call 10")
    # The dealer may not close the table during a hand: refused, nothing moves.
    closing = await fake.slash(alice, "table close", channel=poker)
    assert closing.ephemeral and "hand is in progress" in closing.text
    # `second` (ante 5 + call 10 in the pot) leaves before their next turn: they are folded when
    # it comes, and their 15 chips stay in the pot.
    left = await fake.slash(second, "table leave", channel=poker)
    assert left.ephemeral and "fold at your turn" in left.text, left.text
    third = prompted_member(guild, current_prompt(fake, poker))
    await fake.slash(third, "call", channel=poker)  # third street closes; fourth street begins
    for _ in range(20):
        if hand_over(fake, poker, 1):
            break
        prompt = current_prompt(fake, poker)
        actor = prompted_member(guild, prompt)
        assert actor.id != second.id  # the leaver is never prompted again
        await fake.click(actor, prompt, label=label_starting(prompt, "Check", "Call", "Show") or "")
    assert hand_over(fake, poker, 1)
    texts = channel_text(fake, poker)
    assert f"{second.user.username} folds" in texts
    # The leaver got back their stack minus the 15 left in the pot, and no longer has a seat.
    off_table = {alice.id: 500, bob.id: 500, carol.id: 4500}[second.id]  # balance after buying in for 500
    balance = await fake.slash(second, "chips balance", channel=poker)
    assert balance.text == f"You have {off_table + 500 - 15:,} chips.", balance.text
    status = await fake.slash(alice, "table status", channel=poker)
    assert second.user.username not in status.text
    report = await bot.store.audit()
    assert report.ok, report.all_problems()
    assert await total_chips(bot, guild.id) == 3 * STARTING_CHIPS + 4000
    closed = await fake.slash(alice, "table close", channel=poker)
    assert "went back to 2 player(s)" in closed.text


async def test_leaving_at_your_own_turn_folds_at_once(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob, carol = (guild.member(n) for n in ("alice", "bob", "carol"))
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice, bob, carol])
    await fake.slash(alice, "table deal", channel=poker)
    prompt = current_prompt(fake, poker)
    bring_in = prompted_member(guild, prompt)
    # The bring-in leaves at their own turn: they may not fold the bring-in, so it is posted
    # for them (SPEC §7) and they are out of the hand; the next player is prompted.
    res = await fake.slash(bring_in, "table leave", channel=poker)
    assert res.ephemeral and not res.rejected
    texts = channel_text(fake, poker)
    assert f"{bring_in.user.username} brings in for 10" in texts
    nxt = prompted_member(guild, current_prompt(fake, poker))
    assert nxt.id != bring_in.id
    # Leaving twice is answered too.
    again = await fake.slash(bring_in, "table leave", channel=poker)
    assert again.ephemeral and not again.rejected and again.text
    report = await bot.store.audit()
    assert report.ok, report.all_problems()


async def test_chips_refusals(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob, owner = guild.member("alice"), guild.member("bob"), guild.member("owner")
    me = guild.member(fake.bot_user.id)  # the bot is a member of the server too
    poker = guild.channel("poker")
    for options, reason in (
        ({"member": alice, "amount": 10}, "yourself"),
        ({"member": me, "amount": 10}, "Bots"),
        ({"member": bob, "amount": 1001}, "1,000"),
    ):
        res = await fake.slash(alice, "chips give", options, channel=poker)
        assert res.ephemeral and reason in res.text, (options, res.text)
    with pytest.raises(ValueError):
        await fake.slash(alice, "chips give", {"member": bob, "amount": -10}, channel=poker)
    for command in ("chips grant", "chips take", "chips setup"):
        options = {} if command == "chips setup" else {"member": alice, "amount": 10}
        res = await fake.slash(bob, command, options, channel=poker)
        assert res.ephemeral and "Manage Server" in res.text, (command, res.text)
    # Taking more than a member has is refused with the balance; a bot gets no chips.
    res = await fake.slash(owner, "chips take", {"member": bob, "amount": 1001}, channel=poker)
    assert res.ephemeral and "1,000" in res.text, res.text
    res = await fake.slash(owner, "chips grant", {"member": me, "amount": 10}, channel=poker)
    assert res.ephemeral and "Bots" in res.text, res.text
    for member in (alice, bob):
        res = await fake.slash(member, "chips balance", channel=poker)
        assert res.text == "You have 1,000 chips."
    # Bug found: looking at the bot's balance (or granting it chips) opened an account for it
    # with the starting chips, and it showed up on the leaderboard. Looking at a member who has
    # never played opened theirs too.
    carol = guild.member("carol")
    res = await fake.slash(alice, "chips balance", {"member": me}, channel=poker)
    assert res.ephemeral and "Bots" in res.text, res.text
    res = await fake.slash(alice, "chips balance", {"member": carol}, channel=poker)
    assert res.text == "carol has no chips here yet.", res.text
    res = await fake.slash(carol, "chips balance", {"member": alice}, channel=poker)
    assert res.text == "alice has 1,000 chips.", res.text
    board = await fake.slash(alice, "chips leaderboard", channel=poker)
    assert fake.bot_user.username not in board.text
    assert [line.split(":")[0] for line in board.text.splitlines()[1:]] == ["1. alice", "2. bob"]
    report = await bot.store.audit()
    assert report.ok, report.all_problems()


async def test_hand_commands_before_any_hand(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob = guild.member("alice"), guild.member("bob")
    poker = guild.channel("poker")
    for command in ("hand history", "hand verify"):
        res = await fake.slash(alice, command, channel=poker)
        assert res.ephemeral and "no table" in res.text.lower(), res.text
    await open_table(fake, alice, poker, [alice, bob])
    for command, options in (("hand history", {}), ("hand verify", {}), ("hand history", {"number": 3})):
        res = await fake.slash(alice, command, options, channel=poker)
        assert res.ephemeral and not res.messages[0].attachments and "hand" in res.text.lower(), res.text
    await fake.slash(alice, "table deal", channel=poker)
    # During hand #1: no history yet; verify shows the commitment only, never the deck.
    res = await fake.slash(bob, "hand history", channel=poker)
    assert "No hand has finished" in res.text
    res = await fake.slash(bob, "hand verify", channel=poker)
    assert "Commitment" in res.text and "Deck (" not in res.text and "Salt" not in res.text


# ---------------------------------------------------------------------------------- rulings


async def test_ruling_autocomplete_offers_only_what_set_accepts(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob = guild.member("alice"), guild.member("bob")
    poker, lobby = guild.channel("poker"), guild.channel("lobby")
    # Autocomplete is answered even where there is no table (it only lists names and options).
    names = await fake.autocomplete(bob, "ruling set", {"name": ""}, focused="name", channel=lobby)
    offered = names.choice_values
    assert len(offered) == len(RULINGS) and set(offered) == set(RULINGS)
    assert all(len(c["name"]) <= 100 for c in names.choices)
    nothing = await fake.autocomplete(bob, "ruling set", {"name": "zzz"}, focused="name", channel=lobby)
    assert nothing.response_type == 8 and nothing.choices == []
    unknown = await fake.autocomplete(
        bob, "ruling set", {"name": "jokers", "value": ""}, focused="value", channel=lobby
    )
    assert unknown.response_type == 8 and unknown.choices == []

    await open_table(fake, alice, poker, [alice, bob])
    # At a table the names are the rulings of its game (issue 12: rulings belong to games).
    names = await fake.autocomplete(bob, "ruling set", {"name": ""}, focused="name", channel=poker)
    offered = names.choice_values
    assert offered == list(GAMES["sex-in-the-middle-east"].rulings)
    for name in offered:
        values = await fake.autocomplete(alice, "ruling set", {"name": name, "value": ""}, focused="value",
                                         channel=poker)
        assert values.choice_values and all(len(c["name"]) <= 100 for c in values.choices)
        for value in values.choice_values:
            res = await fake.slash(alice, "ruling set", {"name": name, "value": value}, channel=poker)
            # Each offered option is accepted (a change, or "no change" for the one in force).
            assert res.ephemeral and "next deal" in res.text, (name, value, res.text)
    assert not fake.bot_errors


async def test_ruling_refusals_name_the_valid_choices(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob = guild.member("alice"), guild.member("bob")
    poker = guild.channel("poker")
    res = await fake.slash(alice, "ruling set", {"name": "raise_cap", "value": "4"}, channel=poker)
    assert res.ephemeral and "no table" in res.text.lower()
    await open_table(fake, alice, poker, [alice, bob])
    res = await fake.slash(alice, "ruling set", {"name": "jokers", "value": "wild"}, channel=poker)
    # An unknown name: the reply lists every ruling of the table's game (issue 12).
    game_rulings = GAMES["sex-in-the-middle-east"].rulings
    assert res.ephemeral and all(name in res.text for name in game_rulings), res.text
    res = await fake.slash(alice, "ruling set", {"name": "burn_cards", "value": "sometimes"}, channel=poker)
    assert res.ephemeral and "off" in res.text and "on" in res.text, res.text
    for command, options in (("ruling set", {"name": "burn_cards", "value": "on"}), ("ruling reset", {})):
        res = await fake.slash(bob, command, options, channel=poker)
        assert res.ephemeral and "Only the dealer" in res.text, res.text
    listed = await fake.slash(bob, "ruling list", channel=poker)
    assert "From the next deal" not in listed.text  # nothing was queued by any refusal
    assert len(listed.text) <= 2000


async def test_every_kind_of_interaction_is_answered_while_the_channel_is_slow(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    # Before each interaction that leads to channel posts or edits, the next channel post and the
    # next edit are each rate-limited for 0.2 s, and the deadline is scaled down to 0.15 s: an
    # interaction that posts or edits before answering misses it ("This interaction failed").
    # Everything must answer first and do the slow work after.
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob, carol = (guild.member(n) for n in ("alice", "bob", "carol"))
    poker = guild.channel("poker")
    fake.interaction_deadline = 0.15

    async def slowly(call: Awaitable[FakeInteraction]) -> FakeInteraction:
        fake.rate_limit("POST", "/channels/{id}/messages", retry_after=0.2)
        fake.rate_limit("PATCH", "/channels/{id}/messages/{mid}", retry_after=0.2)
        res = await call
        assert res.response_type is not None and not res.rejected, (res.label, res.rejected)
        return res

    await slowly(fake.slash(alice, "table create", {"stakes": "pot-limit"}, channel=poker))
    lobby = table_message(fake, poker)
    await slowly(fake.click(alice, lobby, label="Join"))
    await slowly(fake.slash(bob, "table join", channel=poker))
    await slowly(fake.click(alice, lobby, label="Deal"))
    prompt = current_prompt(fake, poker)
    bring_in = label_starting(prompt, "Bring-in") or ""
    await slowly(fake.click(prompted_member(guild, prompt), prompt, label=bring_in))
    prompt, actor, label, low, _ = await _to_range_wager(fake, guild, poker)
    opened = await fake.click(actor, prompt, label=label)
    await slowly(fake.submit_modal(opened, {"Amount": str(low)}))
    await slowly(fake.slash(carol, "table join", channel=poker))
    actor = prompted_member(guild, current_prompt(fake, poker))
    await slowly(fake.slash(actor, "table leave", channel=poker))
    await fake.wait_for(lambda: hand_over(fake, poker, 1), what="the hand to end")
    await slowly(fake.slash(alice, "table close", channel=poker))
    assert lobby.button_labels == ["Replay"]       # it became hand #1's summary


# ------------------------------------------------------------------- limits and mentions


def _message_bodies(fake: FakeDiscord) -> list[dict[str, object]]:
    """Every message body the bot sent: channel posts and edits, DMs, interaction answers."""
    bodies: list[dict[str, object]] = []
    for request in fake.requests:
        body = request.json if isinstance(request.json, dict) else {}
        if "/callback" in request.path:
            body = body.get("data") or {}
        if isinstance(body, dict) and ("content" in body or "components" in body):
            bodies.append(body)
    return bodies


async def test_eight_players_with_hostile_nicknames_fit_discord_and_ping_nobody(tmp_path: Path) -> None:
    # Nicknames may hold up to 32 characters of almost anything: mass mentions, role and user
    # mentions, markdown and code fences. With eight of them at one table (the most seats, and
    # 8 x 7 cards > 52, so the community card comes into play) every message must stay within
    # Discord's limits (the fake refuses what Discord refuses) and nothing may ping anyone but
    # the player to act.
    nicks = [
        "@everyone",
        "@here look",
        "<@&1> role ping",
        "```code fence```",
        "**bold** __under__ ~~x~~",
        "`tick` " + "w" * 25,
        "|| spoiler || " + "x" * 18,
        "A" * 32,
    ]
    names = [f"p{i}" for i in range(8)]
    spec = GuildSpec("Club", members=tuple(names), channels=("tables",))
    async with FakeDiscord.start(guilds=[spec]) as fake:
        guild = fake.guild("Club")
        for name, nick in zip(names, nicks, strict=True):
            guild.member(name).nick = nick
        bot = new_bot(tmp_path / "ws.sqlite3")
        await start_bot(bot, fake)
        tables = guild.channel("tables")
        players = [guild.member(n) for n in names]
        await open_table(fake, players[0], tables, players, stakes="no-limit")
        await fake.slash(players[0], "table deal", channel=tables)
        clicks = 0
        while not hand_over(fake, tables, 1):
            prompt = current_prompt(fake, tables)
            actor = prompted_member(guild, prompt)
            await fake.click(actor, prompt, label="My cards")
            passive = label_starting(prompt, "Check", "Call", "Bring-in", "Show") or ""
            await fake.click(actor, prompt, label=passive)
            clicks += 1
            assert clicks < 80
        assert fake.find_message(tables, containing="Showdown")
        status = await fake.slash(players[3], "table status", channel=tables)
        assert all(len(m.content) <= 2000 for m in status.messages)
        await fake.stop_bot(bot)
        fake.assert_clean()  # no route the fake lacks, no refused message, nothing logged
        for body in _message_bodies(fake):
            allowed = body.get("allowed_mentions")
            assert isinstance(allowed, dict), body
            assert not {"everyone", "roles"} & set(allowed.get("parse", [])), body  # type: ignore[arg-type]
            assert not allowed.get("roles"), body  # type: ignore[union-attr]
            users = allowed.get("users") or []  # type: ignore[union-attr]
            # A public message may ping at most one user, named explicitly (the player to act);
            # only private (ephemeral) answers, which ping nobody, keep discord.py's default.
            if not int(body.get("flags") or 0) & 64:  # type: ignore[call-overload]
                assert "users" not in allowed.get("parse", []) and len(users) <= 1, body  # type: ignore[union-attr]


# ----------------------------------------------------------------------------- private cards

_CARD = re.compile(r"[2-9TJQKA][♣♦♥♠]")


def _dealt(text: str) -> tuple[list[str], set[str]]:
    """The cards of a private message's "Your cards:" line, in order, and which are down cards
    (shown in brackets)."""
    match = re.search(r"Your cards: (.*)", text)
    assert match is not None, text
    line = match.group(1)
    down = {c for group in re.findall(r"\[([^\]]*)\]", line) for c in _CARD.findall(group)}
    return _CARD.findall(line), down


async def test_each_dm_holds_only_its_owners_cards_and_folded_cards_stay_secret(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    guild = fake.guild()
    dave = guild.add_member("dave")
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    alice, bob, carol = (guild.member(n) for n in ("alice", "bob", "carol"))
    poker = guild.channel("poker")
    players = [alice, bob, carol, dave]
    await open_table(fake, alice, poker, players)
    for member in players:      # a DM after every street (the default is down cards only)
        res = await fake.slash(member, "table dm", {"when": "every-street"}, channel=poker)
        assert res.ephemeral and "every street" in res.text
    await fake.slash(alice, "table deal", channel=poker)
    prompt = current_prompt(fake, poker)
    await fake.click(prompted_member(guild, prompt), prompt, label=label_starting(prompt, "Bring-in") or "")
    prompt = current_prompt(fake, poker)
    folder = prompted_member(guild, prompt)
    await fake.click(folder, prompt, label="Fold")
    for _ in range(60):
        if hand_over(fake, poker, 1):
            break
        prompt = current_prompt(fake, poker)
        passive = label_starting(prompt, "Check", "Call", "Show") or ""
        await fake.click(prompted_member(guild, prompt), prompt, label=passive)
    assert hand_over(fake, poker, 1)

    seen: dict[int, set[str]] = {}
    down_cards: dict[int, set[str]] = {}
    for member in players:
        for dm in fake.dms_for(member):      # each DM carries the player's own hand picture
            (picture,) = dm.attachments
            assert picture.filename == "hand.png"
            assert Image.open(io.BytesIO(picture.data)).width == PICTURE_WIDTH
        dms = [m.text for m in fake.dms_for(member)]
        # One message per street while in the hand: the folder saw third street only.
        assert len(dms) == (1 if member is folder else 5), (member.name, len(dms))
        previous: list[str] = []
        for text in dms:
            assert text.startswith(f"Table in <#{poker.id}>\nHand #1, "), text
            cards, down = _dealt(text)
            # Each street adds to what the player had: nothing of theirs changes or vanishes.
            assert cards[: len(previous)] == previous and len(cards) > len(previous), (previous, cards)
            previous = cards
            down_cards[member.id] = down
        seen[member.id] = set(previous)
    # Cards are unique in a deck, so no card may be in two players' private messages: a DM that
    # held another player's card would make two of these sets meet.
    for a in players:
        for b in players:
            if a is not b:
                assert not seen[a.id] & seen[b.id], (a.name, b.name)
    # The folder's down cards never reach the channel (folded hands are never shown), and
    # nobody's down cards are shown before the showdown.
    everything = channel_text(fake, poker)
    assert not any(card in everything for card in down_cards[folder.id]), down_cards[folder.id]
    before_showdown = everything.split("Showdown")[0]
    for member in players:
        assert not any(card in before_showdown for card in down_cards[member.id]), member.name


async def test_closed_dms_are_told_once_over_several_hands(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob = guild.member("alice"), guild.member("bob")
    poker = guild.channel("poker")
    fake.set_dm_closed(bob)
    await open_table(fake, alice, poker, [alice, bob])
    for hand_no in (1, 2):
        await fake.slash(alice, "table deal", channel=poker)
        prompt = current_prompt(fake, poker)
        mine = await fake.click(bob, prompt, label="My cards")
        assert mine.ephemeral and f"Hand #{hand_no}, third street" in mine.text
        await fake.click(
            prompted_member(guild, prompt), prompt, label=label_starting(prompt, "Bring-in") or ""
        )
        prompt = current_prompt(fake, poker)
        await fake.click(prompted_member(guild, prompt), prompt, label="Fold")
        assert hand_over(fake, poker, hand_no)
    # Said once, in the channel (the table's lines and hand #1's log), never again in hand #2.
    assert hand_log(fake, poker, 1).count("couldn't send bob") == 1
    assert "couldn't send bob" not in hand_log(fake, poker, 2)
    # One refused attempt per hand at most (403s count toward Discord's invalid-request limit).
    refused = [r for r in fake.requests_matching("POST", "/channels/*/messages") if r.status == 403]
    assert len(refused) <= 2
    assert len(fake.dms_for(alice)) == 2 and fake.dms_for(bob) == []


# ---------------------------------------------------------------------------------- restarts


async def test_restart_mid_hand_old_buttons_my_cards_and_stale_turns(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    db = tmp_path / "ws.sqlite3"
    first = new_bot(db)
    await start_bot(first, fake)
    guild = fake.guild()
    alice, bob, carol = (guild.member(n) for n in ("alice", "bob", "carol"))
    poker = guild.channel("poker")
    fake.set_dm_closed(carol)
    await open_table(fake, alice, poker, [alice, bob, carol])
    await fake.slash(alice, "table deal", channel=poker)
    earliest = current_prompt(fake, poker)
    first_actor = prompted_member(guild, earliest)
    first_complete = earliest.find_component(label=label_starting(earliest, "Complete"))["custom_id"]
    await fake.click(first_actor, earliest, label=label_starting(earliest, "Bring-in") or "")
    pending = current_prompt(fake, poker)
    before = await _hand_log(first)
    cards_before = await fake.click(carol, pending, label="My cards")

    second = new_bot(db)
    await restart_bot(first, second, fake)
    assert await _hand_log(second) == before
    # The turn before the restart is still refused as stale; "My cards" from before the restart
    # shows carol the same cards; the pending prompt's buttons act.
    stale = await fake.click(first_actor, earliest, custom_id=first_complete, stale=True)
    assert stale.ephemeral and "earlier turn" in stale.text
    cards_after = await fake.click(carol, pending, label="My cards")
    assert _dealt(cards_after.text) == _dealt(cards_before.text)
    actor = prompted_member(guild, pending)
    res = await fake.click(actor, pending, label=label_starting(pending, "Call") or "")
    assert res.response_type == 7 and said(res) == "", res.text  # the table moved, nothing to add
    assert len(await _hand_log(second)) == len(before) + 1
    for _ in range(40):
        if hand_over(fake, poker, 1):
            break
        prompt = current_prompt(fake, poker)
        label = label_starting(prompt, "Check", "Call", "Show") or ""
        await fake.click(prompted_member(guild, prompt), prompt, label=label)
    assert hand_over(fake, poker, 1)
    report = await second.store.audit()
    assert report.ok, report.all_problems()
    assert await total_chips(second, guild.id) == 3 * STARTING_CHIPS
    # The resumed hand's DMs (alice and bob were sent their cards again) hold only their own.
    assert not {c for m in fake.dms_for(alice) for c in _dealt(m.text)[0]} & {
        c for m in fake.dms_for(bob) for c in _dealt(m.text)[0]
    }


# ---------------------------------------------------------------------------------- start-up


async def test_a_refused_dev_guild_sync_does_not_stop_the_bot(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    # Bug found: with DEV_GUILD_ID naming a server the bot was not invited to (or invited without
    # the applications.commands scope), Discord answers the start-up sync with 403 "Missing
    # Access", and the bot died in setup_hook with a traceback. The dev-guild sync is a
    # convenience: the bot must say what is wrong and run on.
    fake = fake_discord
    guild = fake.guild()
    settings = Settings(
        discord_token=None, dev_guild_id=guild.id, database_path=tmp_path / "ws.sqlite3", log_level="INFO"
    )
    fake.inject_error(
        "PUT", "/applications/{app}/guilds/{gid}/commands", status=403, code=50001, message="Missing Access"
    )
    bot = WildstudBot(settings)
    await start_bot(bot, fake)
    assert fake.bot_errors == []  # a warning, not an error
    res = await fake.slash(guild.member("alice"), "table create", channel=guild.channel("poker"))
    assert "Your table is open" in res.text


async def test_owner_sync_refused_by_discord_or_misspelt_is_answered(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    await start_bot(new_bot(tmp_path / "ws.sqlite3"), fake)
    guild = fake.guild()
    owner, poker = guild.member("owner"), guild.channel("poker")
    mention = f"<@{fake.bot_user.id}>"
    # A word other than "global" used to sync this server as if nothing was said.
    await fake.send_user_message(owner, poker, f"{mention} sync everywhere")
    assert "sync global" in fake.last_message(poker).text and fake.sync_calls == []
    # Discord refusing the sync (here: 403 Missing Access) is told to the owner, not only logged.
    fake.inject_error(
        "PUT", "/applications/{app}/guilds/{gid}/commands", status=403, code=50001, message="Missing Access"
    )
    await fake.send_user_message(owner, poker, f"{mention} sync")
    answer = fake.last_message(poker).text
    assert "Discord refused" in answer and "Missing Access" in answer, answer
    assert fake.bot_errors == []


async def test_closing_after_a_restart_takes_the_buttons_off_the_table_message(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    db = tmp_path / "ws.sqlite3"
    first = new_bot(db)
    await start_bot(first, fake)
    guild = fake.guild()
    alice, bob = guild.member("alice"), guild.member("bob")
    poker = guild.channel("poker")
    lobby = await open_table(fake, alice, poker, [alice, bob])
    second = new_bot(db)
    await restart_bot(first, second, fake)
    res = await fake.slash(alice, "table close", channel=poker)
    assert "went back to 2 player(s)" in res.text
    # The restarted bot never touched the table message before the close, yet it must still
    # take its Join and Deal buttons off (they would only answer "closed" now).
    assert not lobby.buttons and "Table closed." in lobby.text, lobby.button_labels


async def test_a_channel_the_bot_cannot_post_in_is_refused_at_create(tmp_path: Path) -> None:
    # Without Send Messages in the channel, every table message, prompt and hand line would fail
    # (403, code 50013) while the table itself went on: players pressing Deal got "Hand #1 is
    # dealt." and then nothing. Discord tells the bot its permissions in the channel with every
    # interaction, so /table create (and Deal) can say what to fix instead.
    spec = GuildSpec("Club", members=("alice", "bob"), channels=("tables",))
    async with FakeDiscord.start(guilds=[spec]) as fake:
        guild = fake.guild("Club")
        for role in (guild.everyone, guild.role(fake.bot_user.username)):
            role.permissions &= ~discord.Permissions(send_messages=True).value
        # The fake does not compute channel permissions; make its REST side refuse as Discord would.
        fake.inject_error(
            "POST", "/channels/{id}/messages", status=403, code=50013, message="Missing Permissions", times=99
        )
        bot = new_bot(tmp_path / "ws.sqlite3")
        await start_bot(bot, fake)
        alice, tables = guild.member("alice"), guild.channel("tables")
        res = await fake.slash(alice, "table create", channel=tables)
        assert res.ephemeral and "Send Messages" in res.text, res.text
        assert not bot.service.tables()  # nothing was opened
        # With the permission, a post Discord still refuses (here: whatever 403 the channel
        # answers) leaves an open table and a creator who is told what happened.
        for role in (guild.everyone, guild.role(fake.bot_user.username)):
            role.permissions |= discord.Permissions(send_messages=True).value
        res = await fake.slash(alice, "table create", channel=tables)
        assert res.ephemeral and "Your table is open" in res.text and "couldn't post" in res.text, res.text
        status = await fake.slash(alice, "table status", channel=tables)
        assert "Between hands" in status.text
        await fake.stop_bot(bot)
        # The table service logs each refused channel post; nothing else went wrong.
        assert all("presenter call failed" in e for e in fake.bot_errors), fake.bot_errors
        fake.bot_errors.clear()
        fake.assert_clean()


async def test_an_action_that_happened_is_not_reported_as_failed_when_the_channel_fails(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    # Bug found: after a click was applied, the cog posted the collected hand lines itself; when
    # Discord refused that post (here 403 Missing Permissions, e.g. a permission removed
    # mid-hand) the player was told "Something went wrong ... Please try again" although their
    # fold had happened, and trying again only met "That hand is over".
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob = guild.member("alice"), guild.member("bob")
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice, bob])
    await fake.slash(alice, "table deal", channel=poker)
    prompt = current_prompt(fake, poker)
    await fake.click(prompted_member(guild, prompt), prompt, label=label_starting(prompt, "Bring-in") or "")
    prompt = current_prompt(fake, poker)
    for method, path in (("POST", "/channels/{id}/messages"), ("PATCH", "/channels/{id}/messages/{mid}")):
        fake.inject_error(method, path, status=403, code=50013, message="Missing Permissions", times=20)
    res = await fake.click(prompted_member(guild, prompt), prompt, label="Fold")
    # Answered by the click itself (the hand's summary, type 7): nothing to apologise for.
    assert res.response_type == 7 and said(res) == "", res.text
    assert await bot.store.list_unfinished_hands() == []  # the fold ended the hand
    # The refused post of the next table message is logged as a warning; nothing is reported as a
    # bug of the click.
    assert all("presenter call failed" in e for e in fake.bot_errors), fake.bot_errors
    fake.bot_errors.clear()
    # /table leave and /table close also happen even when their channel updates are refused.
    left = await fake.slash(bob, "table leave", channel=poker)
    assert "went back" in left.text, left.text
    closed = await fake.slash(alice, "table close", channel=poker)
    assert "Table closed" in closed.text, closed.text
    assert all("presenter call failed" in e for e in fake.bot_errors), fake.bot_errors
    fake.bot_errors.clear()


# -------------------------------------------------------------------------------- two tables


async def test_one_member_at_two_tables_sees_each_tables_own_cards(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob, carol = (guild.member(n) for n in ("alice", "bob", "carol"))
    poker, lobby = guild.channel("poker"), guild.channel("lobby")
    # bob sits at both tables with 400 each (the smallest buy-in), so his balance covers both.
    for channel, dealer in ((poker, alice), (lobby, carol)):
        await fake.slash(dealer, "table create", channel=channel)
        for member in (dealer, bob):
            res = await fake.slash(member, "table join", {"buy_in": 400}, channel=channel)
            assert res.text.startswith("You sit"), res.text
        await fake.slash(dealer, "table deal", channel=channel)
    mine: dict[int, list[str]] = {}
    for channel in (poker, lobby):
        res = await fake.click(bob, current_prompt(fake, channel), label="My cards")
        mine[channel.id] = _dealt(res.text)[0]
        # The same cards as bob's DM for that table (DMs name their table's channel).
        dm = next(m.text for m in reversed(fake.dms_for(bob)) if f"<#{channel.id}>" in m.text)
        assert _dealt(dm)[0] == mine[channel.id]
    assert not set(mine[poker.id]) & set(mine[lobby.id])
    # Acting at one table never touches the other: bob's /call in a channel where he is not to
    # act is refused there, whatever he is asked to do at the other table.
    checked = 0
    for channel, other in ((poker, lobby), (lobby, poker)):
        actor = prompted_member(guild, current_prompt(fake, channel))
        if actor.id != bob.id:
            checked += 1
            before = len(fake.channel_messages(other))
            res = await fake.slash(bob, "call", channel=channel)
            assert res.ephemeral and "not your turn" in res.text
            assert len(fake.channel_messages(other)) == before
    assert checked  # with this seed bob is not first to act at both tables
    report = await bot.store.audit()
    assert report.ok, report.all_problems()


# ------------------------------------------------------------------------ component limits


def test_custom_ids_labels_and_modal_text_fit_discord_even_at_extreme_values() -> None:
    # Discord refuses a custom_id over 100 characters, a label over 80, a modal title over 45 and
    # a placeholder over 100. Ids are SQLite rowids (at most 2**63 - 1) and amounts are bounded by
    # Discord's integer options (2**53); the longest action name is "bring_in"/"complete".
    from bot.discord.ui.amount import AmountButton, AmountModal
    from bot.discord.ui.betting import ActionButton
    from bot.discord.ui.lobby import DealButton, JoinButton
    from bot.discord.ui.text import button_label

    big, chips_max = 2**63 - 1, 2**53
    for action in ("fold", "check", "call", "bring_in", "complete", "bet", "raise", "all_in", "show", "muck"):
        item = ActionButton(big, big, big, action, chips_max, label=action)
        assert len(item.item.custom_id or "") <= 100
        assert len(AmountButton(big, big, big, action).item.custom_id or "") <= 100
        for option in (
            ActionOption(action, chips_max),
            ActionOption(action, chips_max, chips_max - 1, chips_max),
        ):
            assert 0 < len(button_label(option)) <= 80
        modal = AmountModal(big, big, big, action, chips_max - 1, chips_max)
        assert len(modal.custom_id) <= 100 and len(modal.title) <= 45
        assert len(modal.amount.placeholder or "") <= 100
    for cls in (JoinButton, DealButton):
        assert len(cls(big).item.custom_id or "") <= 100


async def test_a_stuck_no_timer_hand_moves_once_the_dealer_sets_a_timer(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    # Bug found (table service, tiny fix made there): at a table with no timer, a player to act
    # who went away held the hand forever. /table close is refused during a hand, and /table
    # timer applied "from the next turn" only, which never came: nothing short of restarting the
    # bot moved the hand (peers.md §3 #22: "even the force-end command failed"). Now a turn that
    # has no timer gets the dealer's new one at once.
    fake = fake_discord
    clock = FakeClock()
    bot = new_bot(tmp_path / "ws.sqlite3", clock=clock)
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob = guild.member("alice"), guild.member("bob")
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice, bob], timer=0)
    await fake.slash(alice, "table deal", channel=poker)
    away = prompted_member(guild, current_prompt(fake, poker))
    await clock.advance(3600)
    assert prompted_member(guild, current_prompt(fake, poker)).id == away.id  # no timer: waits
    res = await fake.slash(alice, "table timer", {"seconds": 30}, channel=poker)
    assert "starting now" in res.text, res.text
    await clock.advance(30)
    await fake.settle()
    texts = channel_text(fake, poker)
    # SPEC §7: out of time, the bring-in is posted for them and they are marked away.
    assert f"{away.user.username} is away" in texts and f"{away.user.username} brings in" in texts
    assert prompted_member(guild, current_prompt(fake, poker)).id != away.id


async def test_daily_chips_claimed_twice_at_once_pay_once(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, owner, poker = guild.member("alice"), guild.member("owner"), guild.channel("poker")
    await fake.slash(owner, "chips setup", {"daily_amount": 25, "daily_hours": 12}, channel=poker)
    claims = [await fake.slash(alice, "chips daily", channel=poker, wait=False) for _ in range(3)]
    await fake.settle()
    assert all(c.response_type is not None and not c.rejected for c in claims)
    assert sum(c.text.startswith("+25 chips") for c in claims) == 1, [c.text for c in claims]
    balance = await fake.slash(alice, "chips balance", channel=poker)
    assert balance.text == "You have 1,025 chips."
    report = await bot.store.audit()
    assert report.ok, report.all_problems()
