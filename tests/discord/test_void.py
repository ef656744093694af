"""``/hand void``: the dealer's misdeal or dispute ruling on the hand in progress, through the real
discord.py client against the fake Discord (peers.md §4 item 9; SPEC §8 on who the dealer is)."""

from __future__ import annotations

from pathlib import Path

import discord

from bot.tables.notices import TableKey
from tests.discord.helpers import (
    STARTING_CHIPS,
    current_prompt,
    deal_order,
    label_starting,
    new_bot,
    open_table,
    play_passively,
    prompted_member,
    table_message,
    total_chips,
)
from tests.fakediscord import FakeDiscord, GuildSpec, start_bot


async def test_dealer_voids_the_hand_chips_go_back_and_old_buttons_are_stale(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob, carol = (guild.member(n) for n in ("alice", "bob", "carol"))
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice, bob, carol])
    table_id = bot.service.table(TableKey(guild.id, poker.id)).table_id
    before = {s.member_id: s.stack for s in await bot.store.seats(table_id)}
    # Each joined with the default buy-in: the whole 1,000 balance (the small preset allows 4,000).
    assert before == {m.id: STARTING_CHIPS for m in (alice, bob, carol)}

    refused = await fake.slash(alice, "hand void", channel=poker)       # no hand yet
    assert refused.ephemeral and "nothing to void" in refused.text
    await fake.slash(alice, "table deal", channel=poker)
    for _ in range(3):                    # the bring-in and two calls: chips are in the pot
        prompt = current_prompt(fake, poker)
        label = label_starting(prompt, "Check", "Call", "Bring-in", "Show")
        assert label is not None
        await fake.click(prompted_member(guild, prompt), prompt, label=label)
    hand_table = fake.find_message(poker, containing="Hand #1 ·")
    stale = current_prompt(fake, poker)
    waiting_for = prompted_member(guild, stale)
    stale_label = label_starting(stale, "Check", "Call", "Fold")
    assert stale_label is not None

    # A player who is not the dealer is refused privately, and the hand goes on untouched.
    not_dealer = await fake.slash(bob, "hand void", {"reason": "I want my ante back"}, channel=poker)
    assert not_dealer.ephemeral and "Only the dealer" in not_dealer.text
    assert current_prompt(fake, poker) is stale and stale.buttons
    assert not any("is void" in m.text for m in fake.channel_messages(poker))
    close = await fake.slash(alice, "table close", channel=poker)
    assert close.ephemeral and "/hand void" in close.text               # the way out of a hand

    # alice deals and plays (her ante is in the pot), so her void needs bob's and carol's consent
    # (issue 18): she is told so, and they are asked in the channel with buttons.
    asked = await fake.slash(alice, "hand void", {"reason": "a down card was dealt face up"}, channel=poker)
    assert asked.ephemeral and "not void yet" in asked.text and "alice is dealt in" in asked.text
    question = next(m for m in fake.channel_messages(poker)
                    if "agree to void hand #1" in m.text and "Agree to void" in m.button_labels)
    assert f"<@{bob.id}>" in question.text and f"<@{carol.id}>" in question.text
    own = await fake.click(alice, question, label="Agree to void")        # not hers to give
    assert own.ephemeral and "Only bob and carol" in own.text
    waiting = await fake.click(bob, question, label="Agree to void")
    assert waiting.ephemeral and "waiting for carol" in waiting.text
    done = await fake.click(carol, question, label="Agree to void")
    assert done.ephemeral and "Hand #1 is void" in done.text
    texts = [m.text for m in fake.channel_messages(poker)]
    assert any(
        "Hand #1 is void: alice voided it (a down card was dealt face up),"
        " with the agreement of bob and carol" in t and "back with its owner" in t
        for t in texts
    ), texts
    # As after any hand, the cards everyone saw are opened; the deck itself is never shown.
    reveal = [t for t in texts if "Hand #1 deck: the" in t]
    assert reveal and "stay closed" in reveal[0] and "/hand verify 1" in reveal[0], texts
    # The hand's table message became its void summary, without buttons; a between-hands table
    # message follows.
    assert "Hand #1 · void" in hand_table.text and not hand_table.buttons
    assert "Between hands · next: hand #2" in table_message(fake, poker).text

    # The old prompt's button (from a client still showing it) is refused as stale, moves nothing.
    click = await fake.click(waiting_for, stale, label=stale_label, stale=True)
    assert click.ephemeral and "That hand is over" in click.text
    after = {s.member_id: s.stack for s in await bot.store.seats(table_id)}
    assert after == before                                               # every chip went back
    assert await total_chips(bot, guild.id) == 3 * STARTING_CHIPS
    report = await bot.store.audit()
    assert report.ok, report.all_problems()

    # The misdeal is re-dealt with the same button: the same deal order as hand #1.
    await fake.slash(alice, "table deal", channel=poker)
    await play_passively(fake, guild, poker, 2)
    assert deal_order(fake, poker, 2) == deal_order(fake, poker, 1)
    assert (await bot.store.audit()).ok


async def test_dealer_role_and_manage_server_may_void(tmp_path: Path) -> None:
    spec = GuildSpec(
        "Club",
        members=("alice", "dave", "erin", "fred"),
        channels=("tables",),
        roles={"Dealer": discord.Permissions.none(), "Admin": discord.Permissions(manage_guild=True)},
        member_roles={"dave": ["Dealer"], "erin": ["Admin"]},
    )
    async with FakeDiscord.start(guilds=[spec]) as fake:
        bot = new_bot(tmp_path / "ws.sqlite3")
        await start_bot(bot, fake)
        guild = fake.guild("Club")
        alice, dave, erin, fred = (guild.member(n) for n in ("alice", "dave", "erin", "fred"))
        tables = guild.channel("tables")
        await open_table(fake, alice, tables, [alice, fred])
        for hand_no, member in ((1, dave), (2, erin)):
            await fake.slash(alice, "table deal", channel=tables)
            refused = await fake.slash(fred, "hand void", channel=tables)
            assert refused.ephemeral and "Only the dealer" in refused.text
            res = await fake.slash(member, "hand void", channel=tables)
            assert res.ephemeral and f"Hand #{hand_no} is void" in res.text, res.text
            name = member.user.username
            assert any(
                f"Hand #{hand_no} is void: {name} voided it (voided by the dealer)" in m.text
                for m in fake.channel_messages(tables)
            )
        table_id = bot.service.table(TableKey(guild.id, tables.id)).table_id
        assert sorted(s.stack for s in await bot.store.seats(table_id)) == [STARTING_CHIPS] * 2
        assert (await bot.store.audit()).ok
        await fake.stop_bot(bot)
        fake.assert_clean()
