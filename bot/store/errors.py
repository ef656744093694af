"""Exceptions raised by the store.

:class:`StoreError` is the one family for refused requests: its message is a sentence a player can
read ("You have 900 chips; you can't give 1,000."), and a refused request changes nothing (the
transaction that discovered the problem is rolled back). Programming errors (a closed store, a
database made by a newer Wildstud) are ordinary exceptions.
"""

from __future__ import annotations

import functools
import sqlite3
from datetime import datetime


class StoreError(Exception):
    """A request the store refused; ``reason`` (also ``str(error)``) is meant for the player."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class InsufficientChips(StoreError):
    """The member's balance (or seat stack) does not cover the amount asked for."""

    def __init__(self, reason: str, *, available: int, requested: int) -> None:
        super().__init__(reason)
        self.available = available
        self.requested = requested


class DailyNotReady(StoreError):
    """The daily claim is still cooling down; ``next_claim`` is the first moment it is allowed (UTC)."""

    def __init__(self, reason: str, *, next_claim: datetime) -> None:
        super().__init__(reason)
        self.next_claim = next_claim


class ActionConflict(StoreError):
    """A hand's action log already holds a different action at that sequence number (or a hand was
    already settled with different results): two writers disagree about what happened."""


class StaleLease(StoreError):
    """A write by a process whose table lease another process has since taken (its generation is
    older than the lease's): refused, so a process that stalled past its lease cannot write into a
    hand the new owner drives (fencing)."""


class SchemaTooNew(RuntimeError):
    """The database was written by a newer Wildstud (its ``user_version`` is above ours)."""


class NotWildstudDatabase(RuntimeError):
    """A read-only open found no Wildstud database at the path (missing, a directory, not SQLite,
    another program's SQLite file, or an older schema that only a writing open may upgrade); the
    message is one line naming the reason."""


@functools.cache
def database_failures() -> tuple[type[BaseException], ...]:
    """The exceptions (never a :class:`StoreError`) that mean the database could not do what was
    asked, on either backend: the server or the file out of reach, a dropped connection, a lock or
    a serialization conflict still failing after the store's retries, damaged pages. Whether a write
    that failed this way was committed is unknown (the connection may have dropped after the commit)."""
    errors: tuple[type[BaseException], ...] = (sqlite3.Error, OSError)
    try:
        import asyncpg
    except ImportError:  # pragma: no cover - depends on the installation
        return errors
    return (*errors, asyncpg.PostgresError, asyncpg.InterfaceError)
