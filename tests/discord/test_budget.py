"""The message budget Discord never throttles (issue 11), measured from the requests the fake
recorded with its rate limits on, through the real discord.py client: whole hands played by
clicking the table message only.

* at most one request to the table's channel per action on average over a hand, and never more
  than two for one interaction;
* at most 0.5 requests under the global limit per action on average over a 4-player hand (the DM
  channels are open after the first hand, as on a bot that has been running: opening one costs a
  request once per player and process);
* an 8-player hand clicked at one action per (scaled) second finishes with no request waiting on
  a rate limit.

The figures for real time (time scale 1.0) are in ``benchmarks/bench_discord_budget.py``.
"""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from bot.render.pictures import PICTURE_WIDTH, TABLE_SIZE
from tests.discord.budget import play_draw_hand, play_hand
from tests.discord.helpers import hand_log, live_table, new_bot, open_table, pings
from tests.fakediscord import FakeDiscord, GuildSpec, start_bot


def _decodes(data: bytes) -> tuple[int, int]:
    image = Image.open(io.BytesIO(data))
    image.load()          # a truncated or corrupt PNG fails here
    return image.size


async def test_a_four_player_hand_stays_within_the_budget(tmp_path: Path) -> None:
    names = ("ann", "bea", "cid", "dot")
    spec = GuildSpec("Club", members=names, channels=("poker",))
    async with FakeDiscord.start(guilds=[spec]) as fake:
        bot = new_bot(tmp_path / "ws.sqlite3")
        await start_bot(bot, fake)
        guild = fake.guild("Club")
        poker = guild.channel("poker")
        players = [guild.member(n) for n in names]
        await open_table(fake, players[0], poker, players)
        await play_hand(fake, guild, poker, players[0], 1, 4)         # opens the DM channels
        cost = await play_hand(fake, guild, poker, players[0], 2, 4)
        assert len(cost.actions) >= 4 * 5                               # every street was played
        assert cost.most_channel <= 2, [(a.label, a.channel) for a in cost.actions]
        assert cost.channel_per_action <= 1.0, cost.channel_per_action
        assert cost.global_per_action <= 0.5, cost.global_per_action
        assert cost.waits == 0 and fake.rate_limited == []
        # A click moves the table without any channel request at all (callback type 7 and the
        # ping through the interaction's webhook); only the end of the hand posts the next table.
        assert sum(1 for a in cost.actions if a.channel == 0) >= len(cost.actions) - 1
        # The channel holds the two summaries and the table, and no ping (nobody is to act).
        messages = fake.channel_messages(poker)
        assert len(messages) == 3 and pings(fake, poker) == []
        assert live_table(fake, poker) is messages[-1] and "Deal" in messages[-1].button_labels
        assert "Hand #2:" in hand_log(fake, poker, 2)
        # Every picture the channel and the DMs hold decodes, at its size.
        for message in messages:
            for attachment in message.attachments:
                if attachment.filename.endswith(".png"):
                    assert _decodes(attachment.data) == TABLE_SIZE
        for member in players:
            dms = fake.dms_for(member)
            assert len(dms) == 2 * 2                                    # third and seventh street
            for dm in dms:
                (picture,) = dm.attachments
                assert _decodes(picture.data)[0] == PICTURE_WIDTH
        await fake.stop_bot(bot)
        fake.assert_clean()


async def test_an_eight_player_hand_at_one_action_a_second_never_waits_on_a_rate_limit(
    tmp_path: Path,
) -> None:
    # Time scale 0.05: every window is 1/20 of Discord's (5 per 250 ms per channel), and the
    # players click every 50 ms, so the ratio of actions to windows is Discord's at one action a
    # second.
    scale = 0.05
    names = tuple(f"p{i}" for i in range(8))
    spec = GuildSpec("Club", members=names, channels=("poker",))
    async with FakeDiscord.start(guilds=[spec], time_scale=scale) as fake:
        bot = new_bot(tmp_path / "ws.sqlite3")
        await start_bot(bot, fake)
        guild = fake.guild("Club")
        poker = guild.channel("poker")
        players = [guild.member(n) for n in names]
        await open_table(fake, players[0], poker, players)
        mark = len(fake.requests)
        waits = len(fake.rate_limit_waits)
        cost = await play_hand(fake, guild, poker, players[0], 1, 8, pace=1.0 * scale)
        assert len(cost.actions) >= 8 + 4                               # at least two streets
        assert fake.rate_limit_waits[waits:] == [], fake.rate_limit_waits[waits:]
        traffic = fake.traffic(mark)
        assert traffic.rate_limited == 0 and traffic.waited == 0, traffic
        assert cost.most_channel <= 2 and cost.channel_per_action <= 1.0
        await fake.stop_bot(bot)
        fake.assert_clean()


async def test_a_draw_hand_stays_within_the_budget_of_a_stud_hand(tmp_path: Path) -> None:
    # Five-card draw at 4 players, every draw made in the private picker (Choose discards, the pick,
    # Draw 2: one action): the same budget as stud's, and a draw itself costs the channel nothing
    # and nothing under the global limit (the table is redrawn through the webhook of the click that
    # opened the picker; the new cards come in the picker, not by DM).
    names = ("ann", "bea", "cid", "dot")
    spec = GuildSpec("Club", members=names, channels=("poker",))
    async with FakeDiscord.start(guilds=[spec]) as fake:
        bot = new_bot(tmp_path / "ws.sqlite3")
        await start_bot(bot, fake)
        guild = fake.guild("Club")
        poker = guild.channel("poker")
        players = [guild.member(n) for n in names]
        await open_table(fake, players[0], poker, players, game="five-card-draw")
        await play_draw_hand(fake, guild, poker, players[0], 1, 4)      # opens the DM channels
        cost = await play_draw_hand(fake, guild, poker, players[0], 2, 4)
        draws = [a for a in cost.actions if a.label.startswith("Draw")]
        assert len(draws) == 4, [a.label for a in cost.actions]
        assert all(a.channel == 0 and a.global_counted == 0 for a in draws), draws
        assert cost.most_channel <= 2, [(a.label, a.channel) for a in cost.actions]
        assert cost.channel_per_action <= 1.0, cost.channel_per_action
        assert cost.global_per_action <= 0.5, cost.global_per_action
        assert cost.waits == 0 and fake.rate_limited == []
        # Each player got their five cards by DM once per hand, nothing more (the draw's cards came
        # in the picker).
        for member in players:
            assert len(fake.dms_for(member)) == 2, member.name
        await fake.stop_bot(bot)
        fake.assert_clean()
