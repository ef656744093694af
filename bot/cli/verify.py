"""``wildstud verify``: check what a hand opened of its fair-deal commitment.

Three forms::

    wildstud verify COMMITMENT --leaves LEAVES [--open OPENING...]   # per-card (new hands)
    wildstud verify COMMITMENT SALT DECK...                         # whole deck (older hands)
    wildstud verify --hand ID [--member ID] [--db PATH|URL]         # a hand in the database

Per-card (every new hand; see ``bot.tables.fairness``): the 52 published leaves must hash to the
commitment announced before the deal, and each opening ``POSITION:CARD:SALT`` must hash to its leaf.
Only the openings given are checked; every other position stays closed. Whole deck: SHA-256 of the
deck order and the salt must equal the commitment. ``--hand`` checks the public openings of a stored
hand (with ``--member``, that member's own down cards too: for whoever runs the bot).

Exit status 0 when everything given matches, 1 when something does not (the failing position is
named), 2 when the input cannot be read (a commitment that is not 64 hex digits, unreadable leaves,
an opening or deck that does not parse, no database at the path: ``verify`` never creates one).
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
        help="check a hand's opened cards against the commitment announced before the deal",
        description=(
            "Check that a hand's cards were fixed before the first card. Per-card (new hands): the "
            "leaves must hash to the commitment and each opening POSITION:CARD:SALT to its leaf. "
            "Whole deck (older hands): SHA-256 of the deck order and the salt must equal the commitment."
        ),
    )
    parser.add_argument("commitment", nargs="?", help="the 64-hex-digit commitment announced before the deal")
    parser.add_argument(
        "rest", nargs="*", metavar="SALT DECK",
        help="a whole-deck commitment's salt and deck order (top card first, e.g. 7c2dQc... or 7c 2d Qc ...)",
    )
    parser.add_argument("--leaves", metavar="LEAVES",
                        help="the 52 published leaf hashes (comma-separated), for a per-card commitment")
    parser.add_argument("--open", dest="openings", nargs="+", action="extend", default=[],
                        metavar="OPENING", help="with --leaves: openings POSITION:CARD:SALT to check")
    parser.add_argument("--hand", type=int, metavar="ID", help="verify a stored hand instead (needs --db)")
    parser.add_argument("--member", type=int, metavar="ID",
                        help="with --hand: also open this member's own down cards")
    parser.add_argument("--db", metavar="PATH|URL", help=DB_HELP)
    parser.set_defaults(func=run)


def _fail(message: str) -> int:
    print(f"wildstud verify: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    """Verify and print the verdict; returns the exit status."""
    if args.hand is not None:
        return _stored(args)
    if args.member is not None:
        return _fail("--member goes with --hand")
    if not args.commitment:
        return _fail("give COMMITMENT --leaves LEAVES --open OPENING..., COMMITMENT SALT DECK..., "
                     "or --hand ID")
    expected = args.commitment.strip().lower()
    if not re.fullmatch(r"[0-9a-f]{64}", expected):
        return _fail(f"a commitment is 64 hex digits (SHA-256, announced before the deal), "
                     f"not {args.commitment!r}")
    if args.leaves is not None:
        if args.rest:
            return _fail("with --leaves, give the openings after --open (POSITION:CARD:SALT ...)")
        return _per_card(expected, args.leaves, args.openings)
    if args.openings:
        return _fail("--open needs --leaves (the 52 leaf hashes published after the hand)")
    if len(args.rest) < 2:
        return _fail("give COMMITMENT --leaves LEAVES --open OPENING... (per-card), "
                     "or COMMITMENT SALT DECK...")
    return _whole_deck(expected, args.rest[0], " ".join(args.rest[1:]))


def _whole_deck(expected: str, salt: str, deck_text: str) -> int:
    from bot.tables.fairness import commitment as compute
    from bot.tables.fairness import parse_deck

    try:
        actual = compute(parse_deck(deck_text), salt)
    except ValueError as exc:
        return _fail(str(exc))
    if actual == expected:
        print(f"OK: the deck matches commitment {actual}")
        print("The deck order was fixed before the first card was dealt.")
        return 0
    print("MISMATCH: this deck and salt do not hash to the announced commitment.")
    print(f"  announced: {expected}")
    print(f"  computed:  {actual}")
    return 1


def _per_card(expected: str, leaves_text: str, opening_texts: list[str]) -> int:
    from bot.tables.fairness import Opening, check_openings, parse_leaves

    try:
        leaves = parse_leaves(leaves_text)
        openings = [Opening.parse(text) for text in opening_texts]
    except ValueError as exc:
        return _fail(str(exc))
    verdict = check_openings(expected, leaves, openings)
    if verdict.ok:
        print(f"OK: the 52 leaves match commitment {expected}")
        if openings:
            shown = ", ".join(f"{o.position} {o.card}" for o in sorted(openings, key=lambda o: o.position))
            print(f"{len(openings)} opened, each matches its leaf: {shown}")
        else:
            print("No openings given: every position stays closed.")
        print(f"{52 - len({o.position for o in openings})} positions stay closed.")
        print("These cards were fixed before the first card was dealt.")
        return 0
    for position, reason in verdict.failures:
        where = "leaves" if position == 0 else f"position {position}"
        print(f"MISMATCH at {where}: {reason}")
    return 1


def _stored(args: argparse.Namespace) -> int:
    from bot.cli.database import Unreadable, read_database
    from bot.cli.play import database_path
    from bot.tables.reveal import stored_reveal

    try:
        path = database_path(args.db)
        reveal = read_database(path, lambda store: stored_reveal(store, args.hand, args.member))
    except (Unreadable, LookupError, ValueError) as exc:
        return _fail(str(exc))
    if reveal.scheme == "deck":
        print(f"Hand {reveal.hand_id} was dealt under a whole-deck commitment; its deck was revealed.")
        return _whole_deck(reveal.commitment, reveal.salt, reveal.deck)
    if args.member is not None and not reveal.own:
        return _fail(f"member {args.member} was not dealt into hand {args.hand}")
    print(f"Hand {reveal.hand_id}: {len(reveal.openings) - len(reveal.own)} public cards"
          + (f" and {len(reveal.own)} down cards of member {args.member}" if reveal.own else "")
          + " opened.")
    return _per_card(reveal.commitment, ",".join(reveal.leaves), [str(o) for o in reveal.openings])
