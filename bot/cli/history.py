"""``wildstud history --hand ID [--member ID|NAME | --full] [--db PATH|URL]``: a finished hand's PHH
history.

Without options it prints the hand as a spectator saw it: every up card and every hand shown at
showdown, ``??`` (PHH's unknown card) for every other down card. ``--member`` prints it as that
member saw it (their own down cards too): their member id, or the name they played the hand under
(case-insensitive: the terminal's players have names, not ids to hand). ``--full`` prints the
complete stored history, every player's down cards included, which ``wildstud replay`` can re-run:
it is for whoever runs the bot (the database holds every card), never to be handed to players.
Exit status 0, or 2 when the hand, the member or the database cannot be read (it is opened
read-only: ``history`` never creates or changes one).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from bot.cli.database import DB_HELP

FULL_WARNING = "# --full: this history includes every player's down cards, folded and mucked hands too.\n"


def register(subparsers: Any) -> None:
    """Add the ``history`` sub-command."""
    parser = subparsers.add_parser(
        "history",
        help="print a finished hand's PHH history as players saw it (--full: every card)",
        description=(
            "Print a finished hand's history (PHH). By default as a spectator saw it; --member as "
            "that member saw it (their id, or their name at the table); --full with every player's "
            "down cards (replayable; for the bot's host)."
        ),
    )
    parser.add_argument("--hand", type=int, required=True, metavar="ID", help="the hand's id")
    who = parser.add_mutually_exclusive_group()
    who.add_argument("--member", metavar="ID|NAME",
                     help="as this member saw it: their member id, or the name they played under "
                          "(any case)")
    who.add_argument("--full", action="store_true",
                     help="the complete history: includes every player's down cards")
    parser.add_argument("--db", metavar="PATH|URL", help=DB_HELP)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the history; returns the exit status."""
    from bot.cli.database import Unreadable, read_database
    from bot.cli.play import database_path
    from bot.store import Store, StoreError
    from bot.tables.reveal import viewer_history

    async def read(store: Store) -> str:
        try:
            record = await store.get_hand(args.hand)
        except StoreError as exc:
            reason = exc.reason.rstrip(".")
            raise LookupError(f"hand {args.hand}: {reason[:1].lower()}{reason[1:]}") from None
        if record.status != "finished":
            raise ValueError(f"hand {args.hand} is {record.status.replace('_', ' ')}: "
                             "only a finished hand has a history")
        if args.full:
            if not record.phh:
                raise ValueError(f"hand {args.hand} has no stored history")
            return FULL_WARNING + record.phh
        # The names the players sat down under, kept with their table.
        settings = (await store.get_table(record.table_id)).settings
        found = settings.get("names") if isinstance(settings, dict) else None
        names: dict[int, str] = {}
        if isinstance(found, dict):
            names = {int(k): str(v) for k, v in found.items() if str(k).isdigit()}
        member = None
        if args.member is not None:
            member = dealt_member(args.member, [p.member_id for p in record.players], names, args.hand)
        return viewer_history(record, member, names)

    try:
        text = read_database(database_path(args.db), read)  # ValueError: an unknown --db scheme
    except (Unreadable, LookupError, ValueError) as exc:
        print(f"wildstud history: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


def dealt_member(typed: str, dealt: list[int], names: dict[int, str], hand: int) -> int:
    """The member of hand ``hand`` that ``--member`` means: a member id dealt into it, or the one
    player dealt in under that name (compared without case, as the terminal does). Raises
    ``ValueError`` saying why for anyone else, or for a name two players of the hand share.

    >>> dealt_member("ada", [900, 10001], {900: "Ada", 10001: "Tess"}, 4)
    900
    >>> dealt_member("10001", [900, 10001], {900: "Ada", 10001: "Tess"}, 4)
    10001
    """
    text = typed.strip()
    number = int(text) if text.isascii() and text.isdigit() else None
    if number in dealt:
        return number
    wanted = text.casefold()
    named = [m for m in dealt if names.get(m, "").casefold() == wanted]
    if len(named) == 1:
        return named[0]
    if named:
        which = ", ".join(f"{names[m]} (member {m})" for m in named)
        raise ValueError(f"{text!r} names more than one player of hand {hand}: {which}; "
                         "give the member id instead")
    players = ", ".join(f"{names.get(m, '?')} (member {m})" for m in dealt)
    if number is not None:
        raise ValueError(f"member {number} was not dealt into hand {hand}; its players: {players}")
    raise ValueError(f"no player named {text!r} was dealt into hand {hand}; its players: {players}")
