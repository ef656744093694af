"""Persistence: chips, the ledger, tables, seats and hands (the only code speaking SQL).

The database is an embedded SQLite file (the default) or PostgreSQL (a ``postgresql://`` URL),
behind the same API; :mod:`~bot.store.backend` says how each keeps concurrent transactions apart
(SQLite: one lock per process and ``BEGIN IMMEDIATE``; PostgreSQL: ``SERIALIZABLE`` with the
whole method retried on a conflict).

Open one :class:`Store` per process (``async with await Store.open(path) as store``). Every chip
movement is a ledger row written in the same transaction as the balance or stack it moves, so the
ledger always sums to the balances and no crash creates or destroys a chip. Refused requests raise
:class:`StoreError` (a reason a player can read) and change nothing.

Parts: :mod:`~bot.store.economy` (balances, transfers, grants, daily, leaderboard, ledger),
:mod:`~bot.store.tables` (tables, seats, buy-in, top-up, cash-out), :mod:`~bot.store.hands`
(hand lifecycle, action log, settlement, void, recovery, settle-up), :mod:`~bot.store.audit`,
:mod:`~bot.store.migrations` and :mod:`~bot.store.pg_migrations` (their PostgreSQL twins),
:mod:`~bot.store.leases` (which process drives a table), :mod:`~bot.store.copy` (SQLite to
PostgreSQL), :mod:`~bot.store.settle_up` (the payment minimiser).
"""

from bot.store.economy import UNSET
from bot.store.errors import (
    ActionConflict,
    DailyNotReady,
    InsufficientChips,
    NotWildstudDatabase,
    SchemaTooNew,
    StaleLease,
    StoreError,
)
from bot.store.migrations import LATEST as SCHEMA_VERSION
from bot.store.records import (
    AuditReport,
    GuildAudit,
    GuildSettings,
    HandPlayer,
    HandRecord,
    LeaderboardRow,
    LedgerEntry,
    Payment,
    Receipt,
    Seat,
    SeatReceipt,
    Settlement,
    SettleUp,
    TableRecord,
)
from bot.store.settle_up import square_up
from bot.store.store import Store

__all__ = [
    "SCHEMA_VERSION",
    "UNSET",
    "ActionConflict",
    "AuditReport",
    "DailyNotReady",
    "GuildAudit",
    "GuildSettings",
    "HandPlayer",
    "HandRecord",
    "InsufficientChips",
    "LeaderboardRow",
    "LedgerEntry",
    "NotWildstudDatabase",
    "Payment",
    "Receipt",
    "SchemaTooNew",
    "Seat",
    "SeatReceipt",
    "SettleUp",
    "Settlement",
    "StaleLease",
    "Store",
    "StoreError",
    "TableRecord",
    "square_up",
]
