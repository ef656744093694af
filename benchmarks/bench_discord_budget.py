"""The Discord message budget (issue 11), measured from the requests the fake Discord recorded, with
Discord's rate limits on, through the real discord.py client and the real bot.

Run by hand (not part of the tests; the 8-player hand takes about a minute in real time)::

    .venv/bin/python benchmarks/bench_discord_budget.py                  # Discord's real windows
    .venv/bin/python benchmarks/bench_discord_budget.py --scale 0.1      # windows 10x shorter
    .venv/bin/python benchmarks/bench_discord_budget.py --json out.json

Scenes: a 4-player table plays two hands back to back as fast as the bot answers (the second hand
is the one that counts: the DM channels are open by then, as on a running bot); an 8-player table
plays one hand clicked at one action per second (``--pace``, scaled with ``--scale`` so the ratio
of actions to Discord's 5-per-5-s windows stays Discord's); a 4-player five-card draw table plays
two hands the same way. Every action is a click on the table message (the deal with its Deal
button), except a draw: "Choose discards", the pick in the private picker and its "Draw 2" count
as one action. Reported per hand: actions, requests per action to the
table's channel (mean and most for one action), under the global limit, and through interactions
(exempt from both), 429s and discord.py's waits on a limit, and the wall time of the hand.

Targets (issue 11): at most 1 channel request per action on average and never more than 2 for one
interaction; at most 0.5 global requests per action over a 4-player hand; an 8-player hand at one
action a second with no request waiting on a rate limit.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.discord.budget import HandCost, play_draw_hand, play_hand
from tests.discord.helpers import new_bot, open_table
from tests.fakediscord import FakeDiscord, GuildSpec, start_bot


async def _table(
    players: int, hands: int, scale: float, pace: float, db: Path, game: str = ""
) -> list[HandCost]:
    names = tuple(f"p{i}" for i in range(players))
    spec = GuildSpec("Club", members=names, channels=("poker",))
    async with FakeDiscord.start(guilds=[spec], time_scale=scale) as fake:
        bot = new_bot(db)
        await start_bot(bot, fake)
        guild = fake.guild("Club")
        poker = guild.channel("poker")
        members = [guild.member(n) for n in names]
        await open_table(fake, members[0], poker, members, **({"game": game} if game else {}))
        if game:      # a draw game: every draw through the private picker
            costs = [await play_draw_hand(fake, guild, poker, members[0], hand_no, players)
                     for hand_no in range(1, hands + 1)]
        else:
            costs = [
                await play_hand(fake, guild, poker, members[0], hand_no, players, pace=pace * scale)
                for hand_no in range(1, hands + 1)
            ]
        await fake.stop_bot(bot)
        fake.assert_clean()
    return costs


def _row(name: str, cost: HandCost) -> dict[str, Any]:
    return {
        "scene": name,
        "players": cost.players,
        "actions": len(cost.actions),
        "channel_per_action": round(cost.channel_per_action, 3),
        "channel_most": cost.most_channel,
        "global_per_action": round(cost.global_per_action, 3),
        "interaction_per_action": round(cost.interaction_per_action, 3),
        "rate_limited": sum(a.rate_limited for a in cost.actions),
        "waits": cost.waits,
        "wall_seconds": round(cost.wall_seconds, 2),
    }


async def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scale", type=float, default=1.0, help="rate-limit time scale (1.0: Discord's)")
    parser.add_argument("--pace", type=float, default=1.0, help="seconds between actions at 8 players")
    parser.add_argument("--json", type=Path, help="write the figures here too")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        four = await _table(4, 2, args.scale, 0.0, Path(tmp) / "four.sqlite3")
        eight = await _table(8, 1, args.scale, args.pace, Path(tmp) / "eight.sqlite3")
        draw = await _table(4, 2, args.scale, 0.0, Path(tmp) / "draw.sqlite3", game="five-card-draw")
    rows = [
        _row("4 players, first hand (opens the DM channels)", four[0]),
        _row("4 players, second hand", four[1]),
        _row(f"8 players, one action per {args.pace:g} s", eight[0]),
        _row("4 players, five-card draw, second hand", draw[1]),
    ]
    print(f"time scale {args.scale:g}; Python {platform.python_version()}; {platform.machine()}")
    head = ("actions", "chan/act", "chan max", "glob/act", "inter/act", "429s", "waits", "wall s")
    print(f"{'scene':48} " + " ".join(f"{h:>9}" for h in head))
    for row in rows:
        values = (row["actions"], row["channel_per_action"], row["channel_most"], row["global_per_action"],
                  row["interaction_per_action"], row["rate_limited"], row["waits"], row["wall_seconds"])
        print(f"{row['scene']:48} " + " ".join(f"{v:>9}" for v in values))
    ok = (
        all(r["channel_per_action"] <= 1.0 and r["channel_most"] <= 2 for r in rows)
        and rows[1]["global_per_action"] <= 0.5
        and rows[3]["global_per_action"] <= 0.5
        and rows[2]["waits"] == 0
        and rows[2]["rate_limited"] == 0
    )
    print("targets met" if ok else "TARGETS MISSED")
    if args.json is not None:
        args.json.write_text(json.dumps({"time_scale": args.scale, "rows": rows}, indent=2))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main(sys.argv[1:])))
