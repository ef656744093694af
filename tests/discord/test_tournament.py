"""A whole sit-and-go on Discord, through the real discord.py client against the fake Discord: six
members register with /tournament join (the sixth fills it and it starts), then play every hand by
clicking the table message's buttons until one of them has every chip; the prizes are paid into
the balances once and the channel shows the standings."""

from __future__ import annotations

from pathlib import Path

from bot.tables.clock import FakeClock
from tests.discord.helpers import (
    STARTING_CHIPS,
    channel_text,
    label_starting,
    live_table,
    new_bot,
    prompted_member,
    total_chips,
)
from tests.fakediscord import FakeDiscord, start_bot


async def test_six_members_play_a_sit_and_go_to_one_winner(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    clock = FakeClock()
    bot = new_bot(tmp_path / "ws.sqlite3", clock=clock)
    await start_bot(bot, fake)
    guild = fake.guild()
    members = [guild.member(n) for n in ("alice", "bob", "carol")]
    members += [guild.add_member(n) for n in ("dave", "erin", "fred")]
    room = guild.channel("poker")
    started = await fake.slash(guild.member("owner"), "season start", {"name": "Autumn"}, channel=room)
    assert "starts now" in started.text, started.text

    made = await fake.slash(members[0], "tournament create",
                            {"game": "seven-card-stud", "buy_in": 100, "starting_stack": 100,
                             "preset": "turbo", "level": "2h", "seats": 6}, channel=room)
    assert "Sit-and-go open for registration" in made.text, made.text
    for member in members[:5]:
        res = await fake.slash(member, "tournament join", channel=room)
        assert " is in (" in res.text, res.text
    again = await fake.slash(members[0], "tournament join", channel=room)
    assert "already" in again.text.lower(), again.text
    status = await fake.slash(members[5], "tournament status", channel=room)
    assert "Registering: 5 of 6" in status.text
    last = await fake.slash(members[5], "tournament join", channel=room)
    assert "The tournament starts" in channel_text(fake, room) or "starts" in last.text, last.text
    assert await total_chips(bot, guild.id) == 6 * STARTING_CHIPS - 600   # the pool is not a balance

    clicks, badges = 0, 0
    while "wins the tournament!" not in channel_text(fake, room):
        try:
            table = live_table(fake, room)
        except LookupError:
            raise AssertionError(channel_text(fake, room)[-2000:]) from None
        badges += "Tournament · level" in table.text   # the level and its countdown, on the message
        label = None
        if " to act" in table.text:
            label = label_starting(table, "Check", "Call", "Bring-in", "Show")
        if label is None:
            await clock.advance(5)                  # between hands: the table deals by itself
            continue
        res = await fake.click(prompted_member(guild, table), table, label=label)
        assert not res.rejected, res.text
        clicks += 1
        assert clicks < 2000
    assert badges > 0

    text = channel_text(fake, room)
    assert text.count(" is out in ") == 5
    prizes = {m.name: await bot.store.balance(guild.id, m.id) - 900 for m in members}
    assert sum(prizes.values()) == 600 and max(prizes.values()) == 390       # 65/35 of six buy-ins
    winner = next(name for name, prize in prizes.items() if prize == 390)
    assert f"{winner} wins the tournament!" in text
    standings = text.split("Standings and prizes:\n")[1]
    for name, prize in prizes.items():
        assert name in standings
        if prize:
            assert f"{name}: {prize}" in standings, standings
    report = await bot.store.audit()
    assert report.ok, report.all_problems()
    assert await total_chips(bot, guild.id) == 6 * STARTING_CHIPS

    # The season counts the finish: the winner outlasted five (6 points), the first one out none (1).
    season = await fake.slash(members[0], "season standings", {"by": "points"}, channel=room)
    lines = season.text.splitlines()
    assert "by tournament points" in lines[0], season.text
    assert lines[1] == f"1. {winner}: 6 points", season.text
    scores = sorted(line.rsplit(": ", 1)[1] for line in lines[1:7])
    assert scores == ["1 point"] + [f"{n} points" for n in range(2, 7)], season.text
    out_first = text.split(" is out in ")[0].rsplit("\n", 1)[-1].strip()
    assert f"6. {out_first}: 1 point" in season.text, (out_first, season.text)
    status = await fake.slash(members[0], "tournament status", channel=room)
    assert "no tournament" in status.text.lower()


async def test_tournament_replies_show_names_as_written(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """A member nicknamed ``*Ann* <@1>`` is neither italic nor a mention in /tournament's replies."""
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3", clock=FakeClock())
    await start_bot(bot, fake)
    guild = fake.guild()
    organiser = guild.member("alice")
    tricky = guild.add_member("ann", nick="*Ann* <@1>")
    room = guild.channel("poker")
    made = await fake.slash(organiser, "tournament create", {"game": "seven-card-stud", "buy_in": 100,
                                                             "seats": 2}, channel=room)
    assert "Sit-and-go open for registration" in made.text, made.text
    joined = await fake.slash(tricky, "tournament join", channel=room)
    assert "\\*Ann\\* \\<\\@1\\> is in (" in joined.text, joined.text
    left = await fake.slash(tricky, "tournament leave", channel=room)
    assert "*Ann*" not in left.text.replace("\\*", ""), left.text
