"""``wildstud migrate-db --from PATH --to URL``: move a server's chips from SQLite to PostgreSQL.

Copies every guild setting, balance, ledger row, table, seat, hand, hand player and action (ids
included) from the SQLite file into an empty PostgreSQL database, in one transaction, then audits
both databases and compares them: the same guilds, balances and chips in play on each side, and
every table's row count equal. Stop the bot first. The source is brought up to this Wildstud's
schema version first (as starting the bot would); nothing else in it changes.

Exit status 0 when the copy is complete and both audits are green and agree; 1 when an audit
fails or the two sides differ; 2 when nothing was copied (a missing source, a target that is not
a PostgreSQL URL or is not empty, a database that cannot be opened).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    """Add the ``migrate-db`` sub-command."""
    parser = subparsers.add_parser(
        "migrate-db",
        help="copy a SQLite database into an empty PostgreSQL database, then audit both",
        description=(
            "Copy every guild, balance, ledger row, table, hand and action from a SQLite database into "
            "an empty PostgreSQL database, then run the audit on both sides. Stop the bot first."
        ),
    )
    parser.add_argument("--from", dest="source", required=True, metavar="PATH", help="the SQLite file")
    parser.add_argument(
        "--to", dest="target", required=True, metavar="URL",
        help="the PostgreSQL database, postgresql://USER:PASSWORD@HOST:PORT/DATABASE (must be empty)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Copy, audit both sides and print the result; returns the exit status."""
    from bot.cli.database import database_errors, missing_database
    from bot.store import NotWildstudDatabase, SchemaTooNew, StoreError
    from bot.store.backend import parse_target, redact

    try:
        source_kind, source = parse_target(args.source)
        target_kind, target = parse_target(args.target)
    except ValueError as error:
        print(f"migrate-db: {error}", file=sys.stderr)
        return 2
    if source_kind != "sqlite":
        print(f"migrate-db: --from must be a SQLite file, not {redact(source)}", file=sys.stderr)
        return 2
    if target_kind != "postgresql":
        print(f"migrate-db: --to must be a postgresql:// URL, not {target}", file=sys.stderr)
        return 2
    missing = missing_database(Path(source))
    if missing is not None:
        print(f"migrate-db: {missing}", file=sys.stderr)
        return 2
    try:
        return asyncio.run(_migrate(Path(source), target))
    except (StoreError, SchemaTooNew, NotWildstudDatabase) as error:
        print(f"migrate-db: {error}", file=sys.stderr)
        return 2
    except database_errors() as error:
        print(f"migrate-db: cannot copy: {error}", file=sys.stderr)
        return 2


async def _migrate(source_path: Path, target_url: str) -> int:
    from bot.store import AuditReport, Store
    from bot.store.backend import redact
    from bot.store.copy import copy_sqlite_to_postgres, row_counts

    def summary(report: AuditReport) -> list[tuple[int, int, int, int, bool]]:
        return [(g.guild_id, g.members, g.balances, g.in_play, g.ok) for g in report.guilds]

    async with await Store.open(source_path) as source, await Store.open(target_url) as target:
        copied = await copy_sqlite_to_postgres(source, target)
        print(f"copied {source_path} -> {redact(target_url)}:")
        for name, count in copied.items():
            print(f"  {name}: {count:,} rows")
        before, after = await source.audit(), await target.audit()
        counted = await row_counts(target, list(copied))
    status = 0
    if counted != copied:
        status = 1
        print(f"MISMATCH: rows in PostgreSQL after the copy: {counted}")
    for side, report in (("SQLite", before), ("PostgreSQL", after)):
        if report.ok:
            print(f"audit {side}: OK ({len(report.guilds)} guilds)")
        else:
            status = 1
            print(f"audit {side}: FAIL")
            for problem in report.all_problems():
                print(f"DISCREPANCY: {problem}")
    if summary(before) != summary(after):
        status = 1
        print("MISMATCH: the two databases do not hold the same guilds, balances and chips in play")
    else:
        for guild, members, balances, in_play, _ in summary(after):
            print(
                f"  guild {guild}: {members} members, {balances:,} chips in balances, {in_play:,} in play"
                " (both sides)"
            )
    return status
