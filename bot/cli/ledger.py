"""``wildstud ledger --guild ID [--member ID] [--db PATH|URL] [--csv]``: print or export a guild's ledger.

Oldest first. Without ``--csv`` it prints aligned columns; with ``--csv`` it writes CSV (with a
header row) to standard output, for a spreadsheet. ``delta`` moves the member's balance and
``stack_delta`` their chips at ``table`` (see :data:`bot.store.records.LedgerKind`).
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import sys
from typing import TYPE_CHECKING, Any

from bot.cli.database import DB_HELP

if TYPE_CHECKING:
    from bot.store import LedgerEntry

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
)


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


def _row(entry: LedgerEntry) -> list[str]:
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
    ]


def run(args: argparse.Namespace) -> int:
    """Print the ledger; returns the exit status (2 if the database or guild id is unusable)."""
    from bot.cli.database import database_errors, database_target, missing_database
    from bot.store import SchemaTooNew, Store, StoreError

    try:
        path = database_target(args.db)
    except ValueError as error:
        print(f"ledger: {error}", file=sys.stderr)
        return 2
    missing = missing_database(path)
    if missing is not None:
        print(f"ledger: {missing}", file=sys.stderr)
        return 2

    async def read() -> list[LedgerEntry]:
        async with await Store.open(path) as store:
            return await store.guild_ledger(args.guild, member_id=args.member)

    try:
        entries = asyncio.run(read())
    except (StoreError, SchemaTooNew) as error:
        print(f"ledger: {error}", file=sys.stderr)
        return 2
    except database_errors() as error:  # not a SQLite file, another program's database, no server
        print(f"ledger: cannot open {path}: {error}", file=sys.stderr)
        return 2
    rows = [_row(entry) for entry in entries]
    if args.csv:
        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(COLUMNS)
        writer.writerows(rows)
        return 0
    if not rows:
        print(f"no ledger rows for guild {args.guild}")
        return 0
    shown = [list(COLUMNS), *rows]
    widths = [max(len(r[i]) for r in shown) for i in range(len(COLUMNS))]
    numeric = {"id", "member", "delta", "stack_delta", "table", "hand", "counterparty", "actor"}
    for r in shown:
        cells = [
            cell.rjust(width) if COLUMNS[i] in numeric else cell.ljust(width)
            for i, (cell, width) in enumerate(zip(r, widths, strict=True))
        ]
        print("  ".join(cells).rstrip())
    return 0
