"""``wildstud simulate [--players N] [--hands K] [--seed S] [--json]``: random legal hands.

Plays ``K`` hands of ``N`` players with a seeded random player and prints what players ask about:
how many ranks end up wild, how often each category wins, how often pots are split, how often
the community card is needed -- and complete hands per second (the engine's benchmark). The same
seed gives the same hands. ``--structure`` picks fixed limit (default), pot limit or no limit at
the ``small``/``pot-limit``/``no-limit`` presets; ``--ruling NAME=VALUE`` (repeatable) changes a
ruling. ``--game NAME`` plays one game of the stud family (default sex-in-the-middle-east);
``--list-games`` prints the game names, one a line. ``--json`` prints one JSON object
(:meth:`bot.engine.simulate.SimulationStats.to_dict`).
"""

from __future__ import annotations

import json
import secrets
import sys
from typing import Any


def register(subparsers: Any) -> None:
    """Add the ``simulate`` sub-command."""
    parser = subparsers.add_parser(
        "simulate",
        help="play random legal hands: wild-rank, winning-hand and split-pot statistics, hands/s",
        description="Play random legal hands and report statistics and complete hands per second.",
    )
    parser.add_argument("--players", type=int, default=8, metavar="N",
                        help="players per hand, 2-8 (default 8)")
    parser.add_argument("--hands", type=int, default=1000, metavar="K", help="hands to play (default 1000)")
    parser.add_argument("--seed", type=int, metavar="S", help="random seed (default: a fresh one, printed)")
    parser.add_argument(
        "--structure",
        choices=("fixed-limit", "pot-limit", "no-limit"),
        default="fixed-limit",
        help="betting structure (default fixed-limit 20/40, ante 5, bring-in 10)",
    )
    parser.add_argument(
        "--ruling",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="change a ruling, e.g. --ruling five_follows_five=absorb (repeatable)",
    )
    parser.add_argument("--game", default="sex-in-the-middle-east", metavar="NAME",
                        help="the game to deal (default sex-in-the-middle-east; see --list-games)")
    parser.add_argument("--list-games", action="store_true", help="print the game names, one a line")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: Any) -> int:
    """Run the simulation; returns the exit status (2 for bad arguments)."""
    from bot.engine.betting.stakes import PRESETS
    from bot.engine.errors import RulingError
    from bot.engine.games.catalogue import GAMES, game_of
    from bot.engine.games.rulings import Rulings
    from bot.engine.simulate import simulate

    if args.list_games:
        for name in GAMES:
            print(name)
        return 0
    try:
        game = game_of(args.game)
    except ValueError as exc:
        print(f"wildstud simulate: {exc}", file=sys.stderr)
        return 2
    if not 2 <= args.players <= 8:
        print("wildstud simulate: --players must be 2 to 8", file=sys.stderr)
        return 2
    if args.hands < 1:
        print("wildstud simulate: --hands must be at least 1", file=sys.stderr)
        return 2
    rulings = Rulings()
    for item in args.ruling:
        name, sep, value = item.partition("=")
        if not sep:
            print(f"wildstud simulate: --ruling needs NAME=VALUE, got {item!r}", file=sys.stderr)
            return 2
        try:
            key, option = game.parse_ruling(name.strip(), value.strip())
            rulings = rulings.with_ruling(key, option)
        except RulingError as exc:
            print(f"wildstud simulate: {exc}", file=sys.stderr)
            return 2
    stakes = PRESETS["small" if args.structure == "fixed-limit" else args.structure]
    seed = args.seed if args.seed is not None else secrets.randbelow(2**32)
    stats = simulate(players=args.players, hands=args.hands, seed=seed, stakes=stakes, rulings=rulings,
                     game=game)
    if args.json:
        out = stats.to_dict()
        out["rulings"] = {k: v for k, v in rulings.changed_from_default().items() if k in game.rulings}
        print(json.dumps(out))
    else:
        for line in stats.describe():
            print(line)
    return 0
