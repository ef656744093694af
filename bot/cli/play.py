"""``wildstud play``: play Sex in the Middle East in the terminal (no Discord needed).

Examples::

    wildstud play --auto --hands 3 --seed 7     # watch computer players (nothing is saved)
    wildstud play                               # you against 3 computer players
    wildstud play --bots 5 --name Ann           # you (Ann) against 5
    wildstud play --seats Ann Bob Cy            # three people at one keyboard (hot seat)
    wildstud play --game seven-card-stud        # another game (or dealers-choice)
    wildstud play --tournament turbo            # a sit-and-go against computer players
    wildstud play --tournament regular --auto --seed 7   # computer players only, to the end

Chips are kept in the database ``--db`` (a SQLite file or a ``postgresql://`` URL; default
``$DATABASE_URL``, else ``$DATABASE_PATH``, else ``./data/wildstud.sqlite3``); ``--auto`` uses a
throwaway in-memory database unless ``--db`` is given. Ctrl-C, ``q`` or end of input leaves
cleanly; the next run resumes an unfinished hand.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from bot.cli.database import DB_HELP


def database_path(explicit: str | None) -> str | Path:
    """``--db`` if given, else the ``DATABASE_URL`` / ``DATABASE_PATH`` setting: a SQLite ``Path``
    or a PostgreSQL URL. Raises ``ValueError`` for an unknown scheme."""
    from bot.cli.database import database_target

    return database_target(explicit or None)


def register(subparsers: Any) -> None:
    """Add the ``play`` sub-command."""
    parser = subparsers.add_parser(
        "play",
        help="play in the terminal: you against computer players, or several people at one keyboard",
        description=(
            "Play in the terminal: Sex in the Middle East (seven-card stud, fives and followers wild) by"
            " default, or any game with --game (stud, Hold'em, Omaha...; type `games` at the table"
            " for the list). "
            "Chips are kept in the local database between runs."
        ),
    )
    parser.add_argument("--bots", type=int, default=None, metavar="N",
                        help="computer players (1-7; default 3, or 4 with --auto)")
    parser.add_argument("--seats", nargs="+", metavar="NAME",
                        help="hot seat: these people take turns at this keyboard")
    parser.add_argument("--name", help="your name at the table (default: your login name)")
    parser.add_argument("--auto", action="store_true",
                        help="computer players only: play --hands hands and print the whole log")
    parser.add_argument("--hands", type=int, default=3, metavar="N",
                        help="hands to play with --auto (default 3)")
    parser.add_argument("--seed", type=int,
                        help="seed the shuffle and the computer players (reproducible runs)")
    parser.add_argument("--stakes", default=None,
                        help="stakes preset: micro, small (the default for a new table), medium, pot-limit "
                             "or no-limit; without it a saved table keeps its stakes")
    parser.add_argument("--game", metavar="NAME",
                        help="the game: sex-in-the-middle-east (default), seven-card-stud, texas-holdem,"
                             " omaha, ... (type `games` at the table for the list) or dealers-choice (each"
                             " dealer picks)")
    parser.add_argument("--tournament", metavar="PRESET", choices=("turbo", "regular", "slow"),
                        help="play a sit-and-go (turbo, regular or slow levels) to the end instead of a"
                             " cash game; with --auto, computer players only")
    parser.add_argument("--verify", action="store_true",
                        help="print each hand's whole deck check after it (long with --auto's in-memory "
                             "database; at the keyboard, type verify between hands instead)")
    parser.add_argument("--db", metavar="PATH|URL", help=DB_HELP)
    parser.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                        help="colour output (default: only on a terminal, and not if NO_COLOR is set)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Check the arguments, run the game, and turn Ctrl-C into a clean exit."""
    import asyncio

    from bot.console.game import PlayConfig, names_for, play
    from bot.console.terminal import wants_color
    from bot.engine.betting.stakes import PRESETS
    from bot.tables.errors import TableError
    from bot.tables.games import check_game_setting

    humans = [] if args.auto else names_for(args.seats, args.name)
    bots = args.bots if args.bots is not None else (4 if args.auto else (0 if args.seats else 3))
    problems: list[str] = []
    if bots < 0:
        problems.append("--bots cannot be negative")
    elif args.auto and bots < 2:
        problems.append("--auto needs at least 2 computer players")
    elif len(humans) + bots < 2:
        problems.append("a game needs at least 2 players")
    if len(humans) + bots > 8:
        problems.append(f"at most 8 players fit at a table (asked for {len(humans) + bots})")
    if len({h.lower() for h in humans}) != len(humans):
        problems.append("each player needs a different name")
    if args.hands < 1:
        problems.append("--hands must be at least 1")
    if args.stakes is not None and args.stakes.lower() not in PRESETS:
        problems.append(f"unknown --stakes {args.stakes!r}: choose one of {', '.join(PRESETS)}")
    game = None
    if args.game is not None:
        try:
            game = check_game_setting(args.game)
        except TableError as exc:
            problems.append(f"--game: {exc.reason}")
    db: str | Path | None = None
    if args.db or not args.auto:
        try:
            db = database_path(args.db)
        except ValueError as error:
            problems.append(str(error))
    if problems:
        for problem in problems:
            print(f"wildstud play: {problem}", file=sys.stderr)
        return 2
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="replace")
    if isinstance(db, Path) and str(db) != ":memory:" and db.exists() and not db.is_file():
        print(f"wildstud play: cannot open {db}: it is not a database file", file=sys.stderr)
        return 2
    if args.db and isinstance(db, Path) and str(db) != ":memory:" and not db.parent.is_dir():
        # A typed path with a typo must not grow folders (the default ./data is made, see settings).
        print(f"wildstud play: no folder {db.parent} for --db {db}: create it first, or give another path",
              file=sys.stderr)
        return 2
    color = {"always": True, "never": False}.get(args.color, wants_color(sys.stdout))
    config = PlayConfig(db=db, humans=humans, bots=bots, auto=args.auto, hands=args.hands, seed=args.seed,
                        stakes=args.stakes.lower() if args.stakes else None, color=color,
                        tty=sys.stdout.isatty(), game=game, verify=args.verify)
    import sqlite3

    from bot.store import NotWildstudDatabase, SchemaTooNew

    try:
        if args.tournament:
            from bot.console.tournament import TerminalTournament

            return asyncio.run(TerminalTournament(config, args.tournament, sys.stdin, sys.stdout).run())
        return asyncio.run(play(config, sys.stdin, sys.stdout))
    except (NotWildstudDatabase, SchemaTooNew) as exc:  # another program's, or a newer Wildstud's, file
        print(f"wildstud play: {exc}", file=sys.stderr)
        return 2
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:   # a damaged or foreign file at --db
        print(f"wildstud play: cannot open {db}: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nStopped. Your chips are saved; run wildstud play again to continue.", file=sys.stdout)
        return 130
