"""``wildstud stats --guild ID [--member ID] [--csv] [--db PATH|URL]``: every member's stats, per game.

One row per member and game, all time: hands, hands won, showdowns and showdowns won, net chips,
biggest pot won, VPIP and the aggression factor (defined in docs/playing.md "Stats"), then a row
``all games`` per member when they played more than one. Without ``--csv`` aligned columns with each
member's name (as they sat down at the guild's tables); with ``--csv`` CSV with a header row (the
columns of :data:`COLUMNS`) on standard output. The database is opened read-only. Hands settled
before stats were kept get their stat lines when the bot next starts; until then the command says
how many hands are not counted yet.
"""

from __future__ import annotations

import argparse
import csv
import sys
from typing import TYPE_CHECKING, Any

from bot.cli.database import DB_HELP

if TYPE_CHECKING:
    from bot.store import Store
    from bot.store.stats import GameTotals

COLUMNS = (
    "member", "game", "hands", "won", "showdowns", "showdowns_won", "net", "biggest_pot_won", "vpip",
    "aggression",
)
"""The CSV header. ``vpip`` is a fraction (0..1) and ``aggression`` (bets+raises)/calls, both empty
when undefined (no hands; no calls)."""


def register(subparsers: Any) -> None:
    """Add the ``stats`` sub-command."""
    parser = subparsers.add_parser(
        "stats",
        help="print or export (CSV) a guild's stats per member and game",
        description="Print each member's stats per game (all time), or export them as CSV with --csv.",
    )
    parser.add_argument("--guild", type=int, required=True, metavar="ID", help="the guild (server) id")
    parser.add_argument("--member", type=int, metavar="ID", help="only this member")
    parser.add_argument("--csv", action="store_true", help="write CSV to standard output")
    parser.add_argument("--db", metavar="PATH|URL", help=DB_HELP)
    parser.set_defaults(func=run)


def _cells(member: int, totals: GameTotals) -> list[str]:
    vpip, aggression = totals.vpip, totals.aggression
    return [
        str(member), totals.game or "all games", str(totals.hands), str(totals.won), str(totals.showdowns),
        str(totals.showdowns_won), str(totals.net), str(totals.biggest_pot_won),
        "" if vpip is None else f"{vpip:.4f}", "" if aggression is None else f"{aggression:.4f}",
    ]


def run(args: argparse.Namespace) -> int:
    """Print the stats; returns the exit status (2 if the database or an id is unusable)."""
    from bot.cli.database import Unreadable, database_target, member_names, read_database
    from bot.store import StoreError
    from bot.store.stats import combine

    try:
        target = database_target(args.db)
    except ValueError as error:
        print(f"stats: {error}", file=sys.stderr)
        return 2

    async def read(store: Store) -> tuple[list[tuple[int, GameTotals]], dict[int, str], int]:
        rows = await store.guild_stats(args.guild, member_id=args.member)
        names = await member_names(store, await store.guild_table_ids(args.guild))
        return rows, names, len(await store.hands_without_stats(limit=100_000))

    try:
        rows, names, pending = read_database(target, read)
    except (Unreadable, StoreError) as error:
        print(f"stats: {error}", file=sys.stderr)
        return 2
    table: list[list[str]] = []
    members = sorted({m for m, _ in rows})
    for member in members:
        mine = [t for m, t in rows if m == member]
        table += [_cells(member, t) for t in mine]
        total = combine(mine)
        if len(mine) > 1 and total is not None:
            table.append(_cells(member, total))
    if pending:
        print(f"stats: {pending:,} settled hand(s) have no stat lines yet and are not counted;"
              " they are written when the bot next starts", file=sys.stderr)
    if args.csv:
        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(COLUMNS)
        writer.writerows(table)
        return 0
    if not table:
        who = f"member {args.member} in " if args.member is not None else ""
        print(f"no hands for {who}guild {args.guild}")
        return 0
    columns = [COLUMNS[0], "name", *COLUMNS[1:]]
    shown = [columns, *([r[0], names.get(int(r[0]), ""), *r[1:]] for r in table)]
    for r in shown[1:]:
        r[-2] = "-" if r[-2] == "" else f"{float(r[-2]):.0%}"
        r[-1] = "-" if r[-1] == "" else f"{float(r[-1]):.2f}"
    widths = [max(len(r[i]) for r in shown) for i in range(len(columns))]
    text_columns = {"name", "game"}
    for r in shown:
        print("  ".join(
            cell.ljust(width) if columns[i] in text_columns else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(r, widths, strict=True))
        ).rstrip())
    return 0
