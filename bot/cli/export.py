"""``wildstud export --guild ID --out DIR [--since DATE] [--full] [--db PATH|URL]``: a guild's hands
as a folder of PHH files and a CSV of results.

One file per settled hand, ``hand-<id>.phh``, as a spectator saw it: every up card, every hand shown
at the showdown, and ``??`` (PHH's unknown card) for every other down card (the same text
``wildstud history`` prints). ``--full`` writes each hand's complete stored history instead, every
down card included, folded and mucked hands too (replayable with ``wildstud replay``): it is for
whoever runs the bot, never for players, and the command says so. ``results.csv`` holds one row per
player of each hand (the columns of :data:`COLUMNS`). ``--since DATE`` (``YYYY-MM-DD``, UTC, or an
ISO time) keeps the hands that ended then or later. ``DIR`` is created; an existing folder must be
empty (nothing is overwritten). ``--full`` files are the operator's alone: the folder is created
``0700`` and each file ``0600`` whatever the umask. The database is opened read-only. Exit status 0,
or 2 with a one-line reason (a folder that cannot be written included).
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.cli.database import DB_HELP

if TYPE_CHECKING:
    from bot.store import Store

COLUMNS = ("hand", "table", "hand_no", "game", "ended", "seat", "member", "name", "starting", "final", "net")
"""``results.csv``'s header: one row per player of each exported hand."""

FULL_WARNING = (
    "export --full: these files hold every player's down cards, folded and mucked hands too;"
    " they are the operator's record: do not hand them to players"
)


def register(subparsers: Any) -> None:
    """Add the ``export`` sub-command."""
    parser = subparsers.add_parser(
        "export",
        help="write a guild's hands as PHH files (as spectators saw them) and a CSV of results",
        description=(
            "Write one PHH file per settled hand into DIR (as a spectator saw it; --full: every card,"
            " for the bot's host) and results.csv."
        ),
    )
    parser.add_argument("--guild", type=int, required=True, metavar="ID", help="the guild (server) id")
    parser.add_argument("--out", required=True, metavar="DIR", help="the folder to write (new or empty)")
    parser.add_argument("--since", metavar="DATE", help="only hands that ended on or after DATE (UTC)")
    parser.add_argument("--full", action="store_true",
                        help="complete histories with every player's down cards (the operator's copy)")
    parser.add_argument("--db", metavar="PATH|URL", help=DB_HELP)
    parser.set_defaults(func=run)


def parse_since(text: str) -> datetime:
    """``YYYY-MM-DD`` (midnight UTC) or an ISO time (UTC unless it says otherwise).

    >>> parse_since("2026-03-01").isoformat(), parse_since("2026-03-01T20:30").isoformat()
    ('2026-03-01T00:00:00+00:00', '2026-03-01T20:30:00+00:00')
    """
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"--since {text!r} is not a date: use YYYY-MM-DD or YYYY-MM-DDTHH:MM") from None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


def run(args: argparse.Namespace) -> int:
    """Write the folder; returns the exit status."""
    from bot.cli.database import Unreadable, database_target, member_names, read_database
    from bot.store import StoreError
    from bot.tables.reveal import viewer_history

    try:
        target = database_target(args.db)
        since = parse_since(args.since) if args.since else None
    except ValueError as error:
        print(f"export: {error}", file=sys.stderr)
        return 2
    out = Path(args.out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        print(f"export: {out} exists and is not an empty folder; nothing was written", file=sys.stderr)
        return 2

    async def read(store: Store) -> tuple[dict[str, str], list[list[str]], list[str]]:
        names = await member_names(store, await store.guild_table_ids(args.guild))
        files: dict[str, str] = {}
        rows: list[list[str]] = []
        skipped: list[str] = []
        for hand_id in await store.finished_hand_ids(args.guild, since=since):
            record = await store.get_hand(hand_id)
            try:
                text = record.phh or "" if args.full else viewer_history(record, None, names)
            except ValueError as error:
                skipped.append(f"hand {hand_id}: {error}")
                continue
            if not text:
                skipped.append(f"hand {hand_id}: no stored history")
                continue
            files[f"hand-{hand_id:07d}.phh"] = text if text.endswith("\n") else text + "\n"
            ended = record.ended.strftime("%Y-%m-%dT%H:%M:%SZ") if record.ended else ""
            for p in record.players:
                final = p.final_stack if p.final_stack is not None else p.starting_stack
                rows.append([
                    str(hand_id), str(record.table_id), str(record.hand_no), record.game, ended,
                    str(p.seat_no), str(p.member_id), names.get(p.member_id, ""), str(p.starting_stack),
                    str(final), str(final - p.starting_stack),
                ])
        return files, rows, skipped

    try:
        files, rows, skipped = read_database(target, read)
    except (Unreadable, StoreError) as error:
        print(f"export: {error}", file=sys.stderr)
        return 2
    if args.full:
        print(FULL_WARNING, file=sys.stderr)
    try:
        _write(out, files, rows, private=args.full)
    except OSError as error:
        print(f"export: cannot write {out}: {error.strerror or error}", file=sys.stderr)
        return 2
    for reason in skipped:
        print(f"export: skipped {reason}", file=sys.stderr)
    view = "complete histories (--full)" if args.full else "as spectators saw them"
    print(f"wrote {len(files):,} hand(s) {view} and results.csv to {out}")
    return 0


def _write(out: Path, files: dict[str, str], rows: list[list[str]], *, private: bool) -> None:
    """Write the hand files and ``results.csv`` into ``out``; ``private``: ``0700``/``0600`` modes."""
    out.mkdir(parents=True, exist_ok=True, mode=0o700 if private else 0o777)
    if private:
        out.chmod(0o700)  # mkdir's mode is masked by the umask, and an existing empty folder keeps its own
    file_mode = 0o600 if private else 0o666

    def create(name: str) -> int:
        fd = os.open(out / name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, file_mode)
        if private:
            os.fchmod(fd, 0o600)
        return fd

    for name, text in files.items():
        with open(create(name), "w", encoding="utf-8") as handle:
            handle.write(text)
    with open(create("results.csv"), "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(COLUMNS)
        writer.writerows(rows)
