"""``/stats``, ``/season`` and ``/chips leaderboard period:`` on the fake Discord (issue 24).

The hands are short ones (the bring-in is posted and the other player folds), so every figure is
known without looking at a card: the antes (5 each) make a pot of 10, the bring-in comes back
uncalled, the player who brought in collects the pot (+5) and the folder loses their ante (-5).
Neither put chips in voluntarily (VPIP 0%) and nobody called (aggression undefined).
"""

from __future__ import annotations

import io
import re
from pathlib import Path

from PIL import Image

from tests.discord.helpers import new_bot, open_table
from tests.discord.test_chips_and_hands import _play_short_hand
from tests.fakediscord import FakeDiscord, start_bot
from tests.fakediscord.models import FakeMember


async def _short_hand(fake: FakeDiscord, alice: FakeMember, poker: object) -> None:
    await fake.slash(alice, "table deal", channel=poker)
    await _play_short_hand(fake, fake.guild(), poker)


async def test_stats_tables_leaderboards_and_seasons(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    guild = fake.guild()
    alice, bob, owner = guild.member("alice"), guild.member("bob"), guild.member("owner")
    poker = guild.channel("poker")
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    await open_table(fake, alice, poker, [alice, bob])

    none = await fake.slash(alice, "stats player", channel=poker)
    assert none.ephemeral and "no hands played" in none.text
    await _short_hand(fake, alice, poker)

    texts = {m.user.username: (await fake.slash(m, "stats player", channel=poker)) for m in (alice, bob)}
    for res in texts.values():
        assert res.ephemeral
        assert "1 hand" in res.text and "VPIP 0%, aggression -" in res.text, res.text
        (picture,) = [a for m in res.messages for a in m.attachments]
        assert picture.filename == "wildstud-stats.png"
        assert Image.open(io.BytesIO(picture.data)).size == (760, 400)
    winner = next(n for n, r in texts.items() if "1 won" in r.text)
    loser = "bob" if winner == "alice" else "alice"
    assert "net +5, biggest pot won 10" in texts[winner].text
    assert "0 won" in texts[loser].text and "net -5, biggest pot won 0" in texts[loser].text
    peek = await fake.slash(bob, "stats player", {"member": alice, "game": "sex-in-the-middle-east",
                                                  "period": "day"}, channel=poker)
    assert "alice's stats, the last 24 hours" in peek.text and "Sex in the Middle East" in peek.text
    wrong = await fake.slash(bob, "stats player", {"game": "go-fish"}, channel=poker)
    assert wrong.ephemeral and "no game called" in wrong.text

    night = await fake.slash(bob, "stats table", channel=poker)
    assert not night.ephemeral and "1 hand dealt, biggest pot 10" in night.text
    assert f"{winner}: up 5 (1 hand)" in night.text and f"{loser}: down 5 (1 hand)" in night.text

    board = await fake.slash(alice, "chips leaderboard", {"period": "day"}, channel=poker)
    lines = board.text.splitlines()
    assert "the last 24 hours" in lines[0]
    assert lines[1] == f"1. {winner}: +5 (1 hand)" and lines[2] == f"2. {loser}: -5 (1 hand)"

    # A member's own opt-out and the server's hidden role both leave people off every board.
    loser_member = guild.member(loser)
    await fake.slash(loser_member, "stats optout", {"hide": True}, channel=poker)
    board = await fake.slash(alice, "chips leaderboard", {"period": "all"}, channel=poker)
    assert loser not in board.text and f"1. {winner}: +5" in board.text
    richest = await fake.slash(alice, "chips leaderboard", channel=poker)
    assert loser not in richest.text.split("\n", 1)[1]
    await fake.slash(loser_member, "stats optout", {"hide": False}, channel=poker)
    hidden = guild.add_role("no-boards")
    guild.member(winner).roles.append(hidden)
    await fake.refresh_guild(guild)
    refused = await fake.slash(alice, "stats setup", {"hidden_role": hidden}, channel=poker)
    assert refused.ephemeral and "Manage Server" in refused.text
    await fake.slash(owner, "stats setup", {"hidden_role": hidden}, channel=poker)
    board = await fake.slash(alice, "chips leaderboard", {"period": "all"}, channel=poker)
    assert winner not in board.text and f"1. {loser}: -5" in board.text
    await fake.slash(owner, "stats setup", channel=poker)  # clears the role
    board = await fake.slash(alice, "chips leaderboard", {"period": "all"}, channel=poker)
    assert f"1. {winner}: +5" in board.text

    # Seasons: Manage Server starts and ends them; the last one's final standings stay readable.
    none = await fake.slash(alice, "season standings", channel=poker)
    assert "No season yet" in none.text
    for command in ("stats player", "chips leaderboard"):
        early = await fake.slash(alice, command, {"period": "season"}, channel=poker)
        assert "No season yet" in early.text
    refused = await fake.slash(alice, "season start", {"name": "Spring"}, channel=poker)
    assert refused.ephemeral and "Manage Server" in refused.text
    started = await fake.slash(owner, "season start", {"name": "Spring"}, channel=poker)
    assert "Season **Spring** starts now" in started.text
    again = await fake.slash(owner, "season start", {"name": "Summer"}, channel=poker)
    assert again.ephemeral and "running" in again.text
    await _short_hand(fake, alice, poker)
    await _short_hand(fake, alice, poker)
    standings = await fake.slash(bob, "season standings", {"by": "chips"}, channel=poker)
    found = re.findall(r"^\d\. (\w+): ([+-]\d+) chips$", standings.text, flags=re.M)
    assert sorted(int(n) for _, n in found) in ([-10, 10], [0, 0]), standings.text
    mine = await fake.slash(alice, "stats player", {"period": "season"}, channel=poker)
    assert "stats, season Spring" in mine.text and "Season Spring (running): 2 hands" in mine.text
    ended = await fake.slash(owner, "season end", channel=poker)
    assert "The season is over. Final standings:" in ended.text and "ended" in ended.text
    await _short_hand(fake, alice, poker)  # after the season: not in its standings
    later = await fake.slash(bob, "season standings", {"by": "chips"}, channel=poker)
    assert re.findall(r"^\d\. (\w+): ([+-]\d+) chips$", later.text, flags=re.M) == found
    nothing = await fake.slash(owner, "season end", channel=poker)
    assert nothing.ephemeral and "No season is running" in nothing.text
    report = await bot.store.audit()
    assert report.ok, report.all_problems()
