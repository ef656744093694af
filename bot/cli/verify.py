"""``wildstud verify``: check a revealed deck order against its fair-deal commitment.

Two forms::

    wildstud verify COMMITMENT SALT DECK...      # the three values a table reveals after a hand
    wildstud verify --hand ID [--db PATH|URL]    # a finished hand stored in the database

The commitment is SHA-256 of the deck order (card codes run together, top card first) followed by
``:`` and the salt (see ``bot.tables.fairness``). Exit status 0 when it matches, 1 when it does not,
2 when the input cannot be read (a commitment that is not 64 hex digits, an unreadable deck, no
database at the path: ``verify`` never creates one).
"""

from __future__ import annotations

import argparse
import re
import sys
from typing import Any

from bot.cli.database import DB_HELP


def register(subparsers: Any) -> None:
    """Add the ``verify`` sub-command."""
    parser = subparsers.add_parser(
        "verify",
        help="check a revealed deck order against the commitment announced before the deal",
        description=(
            "Check that a hand's deck was fixed before the first card: SHA-256 of the deck order "
            "and the salt must equal the commitment announced at the start of the hand."
        ),
    )
    parser.add_argument("commitment", nargs="?", help="the 64-hex-digit commitment announced before the deal")
    parser.add_argument("salt", nargs="?", help="the 32-hex-digit salt revealed after the hand")
    parser.add_argument(
        "deck", nargs="*", help="the revealed deck order, top card first (e.g. 7c2dQc... or 7c 2d Qc ...)"
    )
    parser.add_argument("--hand", type=int, metavar="ID", help="verify a stored hand instead (needs --db)")
    parser.add_argument("--db", metavar="PATH|URL", help=DB_HELP)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Verify and print the verdict; returns the exit status."""
    from bot.tables.fairness import commitment as compute
    from bot.tables.fairness import parse_deck

    if args.hand is not None:
        from bot.cli.database import database_errors, database_target, missing_database
        from bot.tables.stored import load_revealed_deck

        try:
            path = database_target(args.db)
        except ValueError as exc:
            print(f"wildstud verify: {exc}", file=sys.stderr)
            return 2
        missing = missing_database(path)
        if missing is not None:
            # Only check: opening a missing database would create an empty one there.
            print(f"wildstud verify: {missing} (give the one the table plays on with --db)",
                  file=sys.stderr)
            return 2
        try:
            found = load_revealed_deck(path, args.hand)
        except (LookupError, ValueError) as exc:
            print(f"wildstud verify: {exc}", file=sys.stderr)
            return 2
        except database_errors() as exc:
            print(f"wildstud verify: cannot open {path}: {exc}", file=sys.stderr)
            return 2
        expected, salt, deck_text = found
    else:
        if not args.commitment or not args.salt or not args.deck:
            print("wildstud verify: give COMMITMENT SALT DECK..., or --hand ID", file=sys.stderr)
            return 2
        expected, salt, deck_text = args.commitment, args.salt, " ".join(args.deck)
        if not re.fullmatch(r"[0-9a-fA-F]{64}", expected.strip()):
            print(f"wildstud verify: a commitment is 64 hex digits (SHA-256, announced before the deal), "
                  f"not {expected!r}", file=sys.stderr)
            return 2
    try:
        order = parse_deck(deck_text)
        actual = compute(order, salt)
    except ValueError as exc:
        print(f"wildstud verify: {exc}", file=sys.stderr)
        return 2
    if actual == expected.strip().lower():
        print(f"OK: the deck matches commitment {actual}")
        print("The deck order was fixed before the first card was dealt.")
        return 0
    print("MISMATCH: this deck and salt do not hash to the announced commitment.")
    print(f"  announced: {expected.strip().lower()}")
    print(f"  computed:  {actual}")
    return 1
