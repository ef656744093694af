"""``wildstud replay FILE [--json] [--no-check]``: re-run a PHH hand history and tell the hand.

Without ``--json`` it narrates the hand street by street (cards dealt -- down cards too, a history
is public --, wild ranks added and why, the bring-in and who acts first, every action, pots,
showdown and winners). With ``--json`` it prints one JSON object (see
:func:`bot.engine.replay.report_json`: ``wild_ranks``, ``wild_events``, ``pots``, ``winnings``,
``finishing_stacks``, ``showdown``, ``error`` ...). ``FILE`` may be ``-`` for standard input.

Exit status: 0 when every action is legal and the recorded results (if any) agree with the
engine; 1 when the history has an illegal action, cards that do not fit or results that
disagree (the problem, with the action's position, goes to standard error and, with ``--json``,
into ``error``); 2 when the file cannot be read or is not a usable hand history: not TOML, a
missing or malformed field, an unknown ``_game``, cards written ``??`` (one line on standard error,
nothing else).
"""

from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    """Add the ``replay`` sub-command."""
    parser = subparsers.add_parser(
        "replay",
        help="re-run a PHH hand history through the engine and narrate it",
        description="Replay a hand history (PHH TOML, SPEC §9): check every action and the "
        "recorded results, and tell the hand.",
    )
    parser.add_argument("file", metavar="FILE", help="the history (.toml or .phh); - for standard input")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the story")
    parser.add_argument(
        "--no-check",
        action="store_true",
        help="do not compare the recorded finishing_stacks, winnings and wild ranks",
    )
    parser.set_defaults(func=run)


def run(args: Any) -> int:
    """Replay ``args.file``; returns the exit status."""
    from bot.engine.replay import narrate, replay_text, report_json

    name = str(args.file)
    try:
        text = sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"wildstud replay: cannot read {name}: {exc}", file=sys.stderr)
        return 2
    try:
        tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError) as exc:
        reason = exc if isinstance(exc, tomllib.TOMLDecodeError) else "arrays or tables nested too deeply"
        print(f"wildstud replay: {name} is not a hand history (not valid TOML: {reason})", file=sys.stderr)
        return 2
    report = replay_text(text, check_results=not args.no_check)
    if report.error is not None and report.error.kind == "format":   # not a hand we can deal
        print(f"wildstud replay: {name} is not a usable hand history: {report.error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report_json(report), ensure_ascii=False))
    elif report.history is not None:      # a history that did not parse is told once, below
        for line in narrate(report):
            print(line)
    if report.error is not None:
        print(f"wildstud replay: {name}: {report.error}", file=sys.stderr)
        return 1
    return 0
