"""Refusals from the table service.

``TableError`` extends the engine's ``IllegalAction`` so a front end catches one exception family
for everything a player may be told "no" about (SPEC house rule: one family, a readable
``reason``, nothing changed). Store refusals (``StoreError``) reach callers as ``TableError`` with
the store's reason.
"""

from __future__ import annotations

from bot.engine.errors import IllegalAction


class TableError(IllegalAction):
    """A command the table refused; ``reason`` is meant for the player, and nothing changed."""


class NoTable(TableError):
    """There is no open table in that channel."""


class StaleAction(TableError):
    """The action was meant for an earlier hand or turn (an old button, a double click)."""


class NotDealer(TableError):
    """Only the table's dealer (or a member with dealer rights) may do this."""


class DatabaseUnavailable(TableError):
    """The database could not store the change (out of reach, a dropped connection, a conflict that
    kept failing): nothing was done in memory, and the table catches up with the store by itself
    once the database is back (``HandRunner.resync``)."""

    def __init__(self, reason: str = "The database is unreachable, so your action was not taken;"
                                      " try again in a moment.") -> None:
        super().__init__(reason)


class LeaseLost(TableError):
    """Another process took this table's lease (this one stalled past it): the store refused the
    write, nothing changed, and this process stops dealing the table (its keeper drops it)."""
