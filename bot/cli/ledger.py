"""``wildstud ledger --guild ID [--member ID] [--db PATH|URL] [--csv]``: print or export a guild's ledger.

Oldest first. Without ``--csv`` it prints aligned columns, with each member's name (as they sat
down at the guild's tables) after the member id; with ``--csv`` it writes CSV (with a header row,
the columns of :data:`COLUMNS`) to standard output, for a spreadsheet. ``delta`` moves the
member's balance and ``stack_delta`` their chips at ``table`` (see :data:`bot.store.records.LedgerKind`);
``game`` is the game the row's hand was dealt as (the last column, so older CSV readers keep their
columns).
"""

from __future__ import annotations

import argparse
import csv
import sys
from typing import TYPE_CHECKING, Any

from bot.cli.database import DB_HELP

if TYPE_CHECKING:
    from bot.store import LedgerEntry, Store

COLUMNS = (
    "id",
    "time",
    "member",
    "delta",
    "stack_delta",
    "kind",
    "reason",
    "table",
    "hand",
    "counterparty",
    "actor",
    "key",
    "game",
)
"""The CSV header; ``game`` (the game of the row's hand, empty for rows without one) came last."""


def register(subparsers: Any) -> None:
    """Add the ``ledger`` sub-command."""
    parser = subparsers.add_parser(
        "ledger",
        help="print or export (CSV) a guild's chip ledger",
        description="Print a guild's ledger, oldest first, or export it as CSV with --csv.",
    )
    parser.add_argument("--guild", type=int, required=True, metavar="ID", help="the guild (server) id")
    parser.add_argument("--member", type=int, metavar="ID", help="only this member's rows")
    parser.add_argument("--db", metavar="PATH|URL", help=DB_HELP)
    parser.add_argument("--csv", action="store_true", help="write CSV to standard output")
    parser.set_defaults(func=run)


def _row(entry: LedgerEntry, games: dict[int, str]) -> list[str]:
    def opt(value: int | None) -> str:
        return "" if value is None else str(value)

    return [
        str(entry.id),
        entry.created.strftime("%Y-%m-%d %H:%M:%S"),
        str(entry.member_id),
        str(entry.delta),
        str(entry.stack_delta),
        entry.kind,
        entry.reason,
        opt(entry.table_id),
        opt(entry.hand_id),
        opt(entry.counterparty_id),
        opt(entry.actor_id),
        entry.op_key,
        games.get(entry.hand_id, "") if entry.hand_id is not None else "",
    ]


def run(args: argparse.Namespace) -> int:
    """Print the ledger; returns the exit status (2 if the database or guild id is unusable)."""
    from bot.cli.database import Unreadable, database_target, read_database
    from bot.store import StoreError

    try:
        target = database_target(args.db)
    except ValueError as error:
        print(f"ledger: {error}", file=sys.stderr)
        return 2

    async def read(store: Store) -> tuple[list[LedgerEntry], dict[int, str], dict[int, str]]:
        entries = await store.guild_ledger(args.guild, member_id=args.member)
        names: dict[int, str] = {}
        # Names are kept only with the tables (the name each member sat down under, by member id).
        for table_id in sorted({e.table_id for e in entries if e.table_id is not None}):
            settings = (await store.get_table(table_id)).settings
            found = settings.get("names") if isinstance(settings, dict) else None
            if isinstance(found, dict):
                names.update({int(k): str(v) for k, v in found.items() if str(k).isdigit()})
        return entries, names, await store.hand_games(args.guild)

    try:
        entries, names, games = read_database(target, read)
    except (Unreadable, StoreError) as error:
        print(f"ledger: {error}", file=sys.stderr)
        return 2
    rows = [_row(entry, games) for entry in entries]
    if args.csv:
        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(COLUMNS)
        writer.writerows(rows)
        return 0
    if not rows:
        whom = f"member {args.member} in " if args.member is not None else ""
        print(f"no ledger rows for {whom}guild {args.guild}")
        return 0
    # The printed table (not the CSV) adds each member's name after the id, where it is known.
    columns = [*COLUMNS[:3], "name", *COLUMNS[3:]]
    rows = [[*r[:3], names.get(e.member_id, ""), *r[3:]] for r, e in zip(rows, entries, strict=True)]
    shown = [columns, *rows]
    widths = [max(len(r[i]) for r in shown) for i in range(len(columns))]
    numeric = {"id", "member", "delta", "stack_delta", "table", "hand", "counterparty", "actor"}
    for r in shown:
        cells = [
            cell.rjust(width) if columns[i] in numeric else cell.ljust(width)
            for i, (cell, width) in enumerate(zip(r, widths, strict=True))
        ]
        print("  ".join(cells).rstrip())
    return 0
