"""``wildstud audit [--db PATH|URL]``: check that no chip was created or lost.

For every guild: the ledger sums to the balances, the chips in play match buy-ins, cash-outs and
settled hand results (each hand summing to zero), unfinished hands' seats still hold their
starting stacks, and no balance is negative (see :mod:`bot.store.audit`). Prints ``OK`` lines, or
each discrepancy; exit status 0 when consistent, 1 on any discrepancy, 2 when the database cannot
be opened or is damaged (SQLite's quick_check). The database is opened read-only: nothing is
written.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from typing import TYPE_CHECKING, Any

from bot.cli.database import DB_HELP

if TYPE_CHECKING:
    from bot.store import AuditReport, Store


def register(subparsers: Any) -> None:
    """Add the ``audit`` sub-command."""
    parser = subparsers.add_parser(
        "audit",
        help="check every guild's ledger against balances and chips in play",
        description=(
            "Check, for every guild, that the ledger sums to the balances, that chips in play match "
            "buy-ins, cash-outs and hand results, and that no balance is negative. "
            "Exit status 1 on any discrepancy."
        ),
    )
    parser.add_argument("--db", metavar="PATH|URL", help=DB_HELP)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Audit the database and print the result; returns the exit status."""
    from bot.cli.database import Unreadable, database_target, read_database

    try:
        target = database_target(args.db)
    except ValueError as error:
        print(f"audit: {error}", file=sys.stderr)
        return 2

    async def audit(store: Store) -> AuditReport:
        damage = await store.damage()            # the audit is run on a database one suspects
        if damage:
            raise sqlite3.DatabaseError(f"the database is damaged ({damage[0]})")
        return await store.audit()

    try:
        report = read_database(target, audit)
    except Unreadable as error:
        print(f"audit: {error}", file=sys.stderr)
        return 2
    for problem in report.problems:
        print(f"DISCREPANCY: {problem}")
    for guild in report.guilds:
        summary = (
            f"guild {guild.guild_id}: {guild.members} members, {guild.balances:,} chips in balances,"
            f" {guild.in_play:,} in play"
        )
        if guild.ok:
            print(f"OK {summary}")
        else:
            print(f"FAIL {summary}")
            for problem in guild.problems:
                print(f"DISCREPANCY: guild {guild.guild_id}: {problem}")
    if not report.guilds and not report.problems:
        print("OK (no guilds yet)")
    return 0 if report.ok else 1
