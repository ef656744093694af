"""``/ruling``: only the dealer may change a ruling; a change is announced in the channel before
the next deal only, and applies from that deal (SPEC §8)."""

from __future__ import annotations

from pathlib import Path

import discord

from tests.discord.helpers import hand_log, live_table, new_bot, open_table, play_passively
from tests.fakediscord import FakeDiscord, GuildSpec, start_bot


async def test_non_dealer_is_refused_and_dealer_change_waits_for_the_next_deal(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob, carol = (guild.member(n) for n in ("alice", "bob", "carol"))
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice, bob, carol])
    key_rulings = lambda: bot.service.table(bot.service.tables()[0]).rulings  # noqa: E731

    refused = await fake.slash(bob, "ruling set", {"name": "raise_cap", "value": "4"}, channel=poker)
    assert refused.ephemeral and "Only the dealer" in refused.text
    assert key_rulings().raise_cap == "3"
    listed = await fake.slash(bob, "ruling list", channel=poker)
    assert "raise_cap: 3 (default)" in listed.text and "From the next deal" not in listed.text

    await fake.slash(alice, "table deal", channel=poker)
    # The dealer changes a ruling during hand #1: it waits for the next deal.
    done = await fake.slash(alice, "ruling set", {"name": "raise-cap", "value": "4"}, channel=poker)
    assert done.ephemeral and "raise_cap: 3 → 4" in done.text and "next deal" in done.text
    assert key_rulings().raise_cap == "3"
    assert not any("raise_cap" in m.text for m in fake.channel_messages(poker))
    listed = await fake.slash(carol, "ruling list", channel=poker)
    assert "From the next deal" in listed.text and "raise_cap: 3 → 4" in listed.text

    await play_passively(fake, guild, poker, 1)
    assert "raise_cap" not in hand_log(fake, poker, 1)
    await fake.slash(alice, "table deal", channel=poker)
    # Announced on the table message at the deal, then kept at the top of hand #2's log.
    # (The table message escapes its lines' Markdown: raise\_cap shows as raise_cap.)
    assert "raise_cap: 3 → 4" in live_table(fake, poker).text.replace("\\", "")
    assert key_rulings().raise_cap == "4"

    await play_passively(fake, guild, poker, 2)
    log = hand_log(fake, poker, 2)
    assert log.count("raise_cap: 3 → 4") == 1  # told once
    assert log.index("raise_cap: 3 → 4") < log.index("Hand #2:")  # ... before hand #2's first line
    await fake.slash(alice, "table deal", channel=poker)
    assert "raise_cap" not in live_table(fake, poker).text  # not announced again before hand #3

    # Reset: back to the defaults from the next deal, announced once then.
    reset = await fake.slash(alice, "ruling reset", channel=poker)
    assert "raise_cap: 4 → 3" in reset.text


async def test_autocomplete_offers_valid_names_then_that_rulings_options(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    await start_bot(new_bot(tmp_path / "ws.sqlite3"), fake)
    alice = fake.guild().member("alice")
    names = await fake.autocomplete(alice, "ruling set", {"name": "wild"}, focused="name")
    # No table here: every game's rulings (issue 21 adds the flop games' wild_rank).
    assert names.choice_values == ["wild_in_flush", "wild_rank"]
    values = await fake.autocomplete(
        alice, "ruling set", {"name": "follow_target", "value": ""}, focused="value"
    )
    # SPEC §3: the four follow_target options, default first.
    assert values.choice_values == ["next-up-card", "next-card-void", "next-card-announced", "indicator-card"]


async def test_unknown_ruling_is_refused_with_the_valid_names(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    await start_bot(new_bot(tmp_path / "ws.sqlite3"), fake)
    guild = fake.guild()
    alice = guild.member("alice")
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice])
    res = await fake.slash(alice, "ruling set", {"name": "jokers", "value": "wild"}, channel=poker)
    assert res.ephemeral and "follow_target" in res.text
    bad = await fake.slash(alice, "ruling set", {"name": "raise_cap", "value": "9"}, channel=poker)
    assert bad.ephemeral and "none" in bad.text


async def test_dealer_role_and_manage_server_may_set_rulings(tmp_path: Path) -> None:
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
        await open_table(fake, alice, tables, [alice])
        for member, allowed in ((dave, True), (erin, True), (fred, False)):
            res = await fake.slash(
                member, "ruling set", {"name": "burn_cards", "value": "on"}, channel=tables
            )
            assert ("Only the dealer" in res.text) is not allowed, (member.user.username, res.text)
        # A configured dealer role replaces the name rule: Manage Server sets it.
        refused = await fake.slash(fred, "table dealer-role", {"role": guild.role("Admin")}, channel=tables)
        assert refused.ephemeral and "Manage Server" in refused.text
        await fake.slash(erin, "table dealer-role", {"role": guild.role("Admin")}, channel=tables)
        res = await fake.slash(dave, "ruling set", {"name": "burn_cards", "value": "off"}, channel=tables)
        assert "Only the dealer" in res.text
        await fake.stop_bot(bot)
        fake.assert_clean()
