"""The ``wildstud`` command line: one module per sub-command in this package.

Each command module defines ``register(subparsers)`` which adds its parser and sets
``func`` to a callable taking the parsed ``argparse.Namespace`` and returning an exit status.
Heavy imports (discord, aiosqlite) happen inside the command, so ``wildstud evaluate`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

# Sub-command modules, in the order ``wildstud --help`` lists them (``migrate_db`` registers
# ``migrate-db``). ``run`` is the default.
COMMANDS: tuple[str, ...] = (
    "run",
    "play",
    "sync",
    "evaluate",
    "audit",
    "ledger",
    "stats",
    "export",
    "backup",
    "replay",
    "simulate",
    "verify",
    "history",
    "migrate_db",
)


def build_parser() -> argparse.ArgumentParser:
    """Build the ``wildstud`` argument parser with every registered sub-command."""
    parser = argparse.ArgumentParser(
        prog="wildstud",
        description=(
            "Wildstud: a dealer for home poker games (Sex in the Middle East, the stud games, Hold'em,"
            " Omaha...), on Discord or in a terminal."
        ),
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        module = importlib.import_module(f"bot.cli.{name}")
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``wildstud`` and ``python -m bot``; returns the process exit status."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if not args_list and "run" in COMMANDS:
        args_list = ["run"]
    args = parser.parse_args(args_list)
    if getattr(args, "func", None) is None:
        parser.print_help()
        return 2
    try:
        status: int = args.func(args)
        sys.stdout.flush()
    except RuntimeError as error:
        from bot.store.errors import DriverMissing

        if not isinstance(error, DriverMissing):
            raise
        # A PostgreSQL URL without the driver: one line saying how to install it, not a traceback.
        print(f"wildstud {args.command}: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (``wildstud ledger ... | head``): stop quietly, as Unix tools do.
        # Point stdout at /dev/null so the interpreter's final flush does not complain again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return status
