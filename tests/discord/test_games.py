"""Dealer's choice through the real discord.py client against the fake Discord (issue 12): three
dealers in a row pick three games with the select menu only they may use; other members and stale
menus are refused privately; rulings belong to the table's game; ``/hand history`` names the game.

The games used are the ones the engine deals today: ``seven-card-stud``, ``sex-in-the-middle-east``
and ``deuces-wild`` (``follow-the-queen`` when deuces wild is not dealt)."""

from __future__ import annotations

import re
from pathlib import Path

from bot.engine.games.catalogue import GAMES
from bot.tables.games import FAMILY_TITLES, dealable, dealable_games
from tests.discord.helpers import hand_log, new_bot, open_table, play_passively
from tests.fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeMember, FakeMessage, start_bot

PLACEHOLDER = "Choose the game"


def choice_messages(fake: FakeDiscord, channel: FakeChannel) -> list[FakeMessage]:
    """The dealer's-choice questions in the channel, oldest first."""
    return [m for m in fake.channel_messages(channel) if "dealer's choice: pick the game" in m.content]


def mentioned(guild: FakeGuild, message: FakeMessage) -> FakeMember:
    match = re.search(r"<@(\d+)> dealer's choice", message.content)
    assert match, message.content
    return guild.member(int(match.group(1)))


async def test_three_dealers_in_a_row_pick_three_games(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob, carol = (guild.member(n) for n in ("alice", "bob", "carol"))
    poker = guild.channel("poker")
    third = "deuces-wild" if dealable("deuces-wild") else "follow-the-queen"
    picks = ["seven-card-stud", third, "sex-in-the-middle-east"]
    await open_table(fake, alice, poker, [alice, bob, carol], game="dealers-choice")
    res = await fake.slash(alice, "table games", {"names": ", ".join(picks)}, channel=poker)
    assert res.ephemeral and all(GAMES[p].title in res.text for p in picks), res.text

    choosers: list[str] = []
    for n, pick in enumerate(picks, 1):
        dealt = await fake.slash(alice, "table deal", channel=poker)
        assert "picks the game first" in dealt.text, dealt.text
        question = choice_messages(fake, poker)[-1]
        chooser = mentioned(guild, question)
        choosers.append(chooser.name)
        # Anyone else who touches the menu is refused privately, and nothing is dealt.
        other = next(m for m in (alice, bob, carol) if m.id != chooser.id)
        refused = await fake.select(other, question, [pick], placeholder=PLACEHOLDER)
        assert refused.ephemeral and "chooses its game" in refused.text, refused.text
        assert not any(f"Hand #{n}:" in m.text for m in fake.channel_messages(poker))
        chosen = await fake.select(chooser, question, [pick], placeholder=PLACEHOLDER)
        assert not chosen.rejected and not chosen.ephemeral, chosen.text
        # The hand is dealt: the menu is gone from the channel (issue 17: it stayed live).
        assert fake.message(question.id).deleted and not choice_messages(fake, poker)
        await play_passively(fake, guild, poker, n)
        # The hand's log (attached to its summary) opens with the choice, then the deal as that game.
        story = hand_log(fake, poker, n)
        announced = next(line for line in story.splitlines() if f"chooses {GAMES[pick].describe()}" in line)
        assert "Rulings: " in story[story.index(announced):]
        title = re.escape(GAMES[pick].title)
        assert re.search(rf"Hand #{n}: {chooser.name} deals to [^.]+\. {title},", story)
        history = await fake.slash(carol, "hand history", channel=poker)
        assert f"Hand #{n} ({GAMES[pick].title})" in history.text, history.text

    assert len(set(choosers)) == 3                     # the button moved a seat each hand
    table_id = bot.service.snapshot(bot.service.tables()[0]).table_id
    hands = await bot.store.table_hands(table_id, limit=3)
    assert [h.game for h in reversed(hands)] == picks


async def test_rulings_belong_to_the_tables_game(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob = guild.member("alice"), guild.member("bob")
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice, bob], game="seven-card-stud")
    listed = await fake.slash(bob, "ruling list", channel=poker)
    assert "Rulings of Seven-Card Stud" in listed.text and "raise_cap: 3 (default)" in listed.text
    assert "follow_target" not in listed.text
    refused = await fake.slash(alice, "ruling set", {"name": "follow_target", "value": "next-card-void"},
                               channel=poker)
    assert refused.ephemeral and "does not apply to seven-card-stud" in refused.text
    assert "raise_cap" in refused.text
    names = await fake.autocomplete(alice, "ruling set", {"name": "f"}, focused="name", channel=poker)
    assert "follow_target" not in names.choice_values and "burn_cards" not in names.choice_values
    values = await fake.autocomplete(alice, "ruling set", {"name": "open_pair_double", "value": ""},
                                     focused="value", channel=poker)
    assert values.choice_values == ["natural-pair", "off"]          # no wild-aware pairs without wilds
    games = await fake.autocomplete(alice, "table game", {"name": "stud"}, focused="name", channel=poker)
    assert games.choice_values == ["seven-card-stud", "seven-card-stud-hi-lo"]
    changed = await fake.slash(alice, "table game", {"name": "sex-in-the-middle-east"}, channel=poker)
    assert "Seven-Card Stud → Sex in the Middle East" in changed.text
    bad = await fake.slash(alice, "table game", {"name": "blackjack"}, channel=poker)
    assert bad.ephemeral and "Unknown game 'blackjack'" in bad.text
    listed = await fake.slash(bob, "ruling list", channel=poker)
    assert "Rulings of Sex in the Middle East" in listed.text and "follow_target" in listed.text


async def test_table_games_without_names_lists_every_game_by_family(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob = guild.member("alice"), guild.member("bob")
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice, bob], game="dealers-choice")
    await fake.slash(alice, "table games", {"names": "razz, seven-card-stud"}, channel=poker)
    listed = await fake.slash(bob, "table games", channel=poker)      # anyone may look
    assert listed.ephemeral, listed.text
    lines = listed.text.splitlines()
    assert lines[0] == "Game: dealer's choice (Razz, Seven-Card Stud)"
    assert "**Stud**" in lines
    for name in dealable_games():
        # Every game once, under its family's heading; the games on the list in bold.
        entry = next(line for line in lines if f"(`{name}`)" in line)
        bold = name in ("razz", "seven-card-stud")
        assert entry.startswith(f"- **{GAMES[name].title}**" if bold else f"- {GAMES[name].title} "), entry
        heading = next(line for line in reversed(lines[: lines.index(entry)]) if line.startswith("**"))
        assert heading == f"**{FAMILY_TITLES[GAMES[name].family]}**"
