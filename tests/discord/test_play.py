"""A whole hand on Discord, through the real discord.py client against the fake Discord: three
members open a table, join with the button, deal, and play to showdown with buttons on the one table
message; each DM holds exactly its owner's cards."""

from __future__ import annotations

import re
from pathlib import Path

from bot.engine.cards.card import Card
from tests.discord.helpers import (
    STARTING_CHIPS,
    current_prompt,
    deal_order,
    dealt_deck,
    hand_log,
    label_starting,
    live_table,
    new_bot,
    open_table,
    pings,
    play_passively,
    prompted_member,
    total_chips,
)
from tests.fakediscord import FakeDiscord, start_bot


async def test_three_members_play_a_hand_to_showdown(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob, carol = (guild.member(n) for n in ("alice", "bob", "carol"))
    poker = guild.channel("poker")

    lobby = await open_table(fake, alice, poker, [alice, bob, carol])
    # The table message is edited as players sit down (one message, not one per join).
    assert all(name in lobby.text for name in ("alice", "bob", "carol"))

    dealt = await fake.slash(alice, "table deal", channel=poker)
    assert dealt.ephemeral and "Hand #1" in dealt.text
    table_message = fake.find_message(poker, containing="Hand #1 ·")
    # The table message /table create posted became hand #1's: one message per table, edited.
    assert table_message is lobby
    assert "Pot" in table_message.text and "My cards" in table_message.button_labels
    # It carries the current player's buttons: the bring-in is posted from the table message,
    # and the click is answered by redrawing it (type 7), with the next player pinged.
    first = prompted_member(guild, current_prompt(fake, poker))
    bring_in = label_starting(table_message, "Bring-in")
    assert bring_in is not None
    res = await fake.click(first, table_message, label=bring_in)
    assert res.response_type == 7 and "brings in" in table_message.text
    assert len(pings(fake, poker)) == 1       # only the latest ping stays

    clicks = await play_passively(fake, guild, poker, 1)
    assert clicks >= 3 * 5 - 1  # a decision per player on each of the five streets (one made above)

    # The hand's table message became its summary (only its Replay button), with the showdown and the log;
    # a new table message for between hands sits below it.
    summary = fake.find_message(poker, containing="Showdown")
    assert summary is table_message and "wins" in summary.text and summary.button_labels == ["Replay"]
    assert "Hand #1 deck" in summary.text and "Wild: fives" in summary.text
    assert "brings in" in hand_log(fake, poker, 1)
    lobby_now = live_table(fake, poker)
    assert lobby_now.id > summary.id and "Deal" in lobby_now.button_labels
    assert pings(fake, poker) == []          # nobody to act: the last ping is gone
    # The channel holds the summary and the table (plus nothing else from the bot).
    assert [m.id for m in fake.channel_messages(poker)] == [summary.id, lobby_now.id]

    # Each DM holds exactly its owner's cards. The independent reference is the stored deck and
    # SPEC §2: with three players and nobody folding, pass k (0..6) gives player i deck[3k + i];
    # passes 0, 1 and 6 are down cards.
    deck = await dealt_deck(bot, guild, poker, 1)
    order = deal_order(fake, poker, 1)
    members = {"alice": alice, "bob": bob, "carol": carol}
    dealt_cards = {name: [deck[3 * k + i] for k in range(7)] for i, name in enumerate(order)}
    down = {name: {cards[0], cards[1], cards[6]} for name, cards in dealt_cards.items()}
    for name, member in members.items():
        dms = [m.text for m in fake.dms_for(member)]
        assert len(dms) == 2, dms  # a DM when a down card comes: third and seventh street
        last = re.search(r"Your cards: (.*)", dms[-1])
        assert last is not None
        shown = [Card.parse(tok) for tok in re.findall(r"[2-9TJQKA][♣♦♥♠]", last.group(1))]
        assert shown == dealt_cards[name]
        others = set().union(*(d for n, d in down.items() if n != name))
        for text in dms:
            your_line = re.search(r"Your cards: (.*)", text)
            assert your_line is not None
            assert not any(str(card) in your_line.group(1) for card in others)

    # Every chip is accounted for: the ledger matches balances and stacks, and the total is what
    # the three members started with.
    report = await bot.store.audit()
    assert report.ok, report.all_problems()
    assert await total_chips(bot, guild.id) == 3 * STARTING_CHIPS
