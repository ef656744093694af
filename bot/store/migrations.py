"""Schema migrations, numbered from 1 and tracked by ``PRAGMA user_version``.

``MIGRATIONS[n - 1]`` turns a version ``n - 1`` database into version ``n``. Each step runs in one
``BEGIN IMMEDIATE`` transaction together with its ``PRAGMA user_version = n`` (the version lives in
the database header and is transactional), so a crash mid-migration leaves the previous version
intact. Opening an up-to-date database runs nothing. Steps are append-only history: never edit a
released step, add a new one.

1. Core economy: guild settings, balances, the append-only ledger, tables and seats.
2. Daily claim: the guild's daily amount and cooldown, each member's last claim.
3. Hands: hands (deck, commitment, stakes and rulings dealt under, status, PHH), the players dealt
   in with their starting and final stacks, the append-only action log; ledger rows may name a hand.
4. The action log in PHH: every stored command becomes the PHH action string of what the engine did
   (``bot.store.action_log``), so unfinished hands resume from PHH. A Python step: the append-only
   trigger is lifted for the rewrite and re-created with the text of step 3.
5. Table messages: the Discord message each table's presenter draws the table on
   (``bot.store.messages``).
6. Display preferences: how the Discord layer shows things, per guild (``look``) and per member
   (``dm``) (``bot.store.messages``).
7. Games (issue 12): every hand records the game it was dealt as (``hands.game``); hands dealt
   before were all Sex in the Middle East.
8. Table leases: which process drives each table (owner, expiry), for several bot processes on one
   database (see :mod:`bot.store.leases`).
9. Lease generations (issue 18): each lease's generation, which fences a former holder's writes
   (``bot.store.leases``).
10. Tournaments (issue 23): tournaments, their entries, levels and request keys; ledger rows may
    name a tournament (``bot.store.tournaments``).
11. Stats (issue 24): one public line per player of each settled hand (``hand_stats``, with covering
    indexes by member, by time and by table, so each figure is read from one index range), each
    member's leaderboard opt-out, the guild's hidden role, and seasons (``bot.store.stats``).
12. Daily stat totals (``member_days``): each member's figures per UTC day and game, kept with the
    stat lines, so a long period (a season, a year, all time) adds up a few rows per day instead
    of every hand; filled from the lines already kept.

>>> LATEST == len(MIGRATIONS)
True
>>> [s.split("(")[0].strip() for s in split_statements("CREATE TABLE a (x); CREATE TABLE b (y);")]
['CREATE TABLE a', 'CREATE TABLE b']
"""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable

import aiosqlite

from bot.store.action_log import migrate_action_log
from bot.store.errors import SchemaTooNew

_V1_CORE = """
CREATE TABLE guild_settings (
    guild_id       INTEGER PRIMARY KEY,
    starting_chips INTEGER NOT NULL DEFAULT 1000 CHECK (starting_chips >= 0),
    dealer_role_id INTEGER,
    updated        TEXT NOT NULL
) STRICT;

CREATE TABLE balances (
    guild_id  INTEGER NOT NULL,
    member_id INTEGER NOT NULL,
    chips     INTEGER NOT NULL CHECK (chips >= 0),
    created   TEXT NOT NULL,
    PRIMARY KEY (guild_id, member_id)
) STRICT;

CREATE TABLE tables (
    id         INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    dealer_id  INTEGER NOT NULL,
    stakes     TEXT NOT NULL DEFAULT '{}',
    rulings    TEXT NOT NULL DEFAULT '{}',
    settings   TEXT NOT NULL DEFAULT '{}',
    status     TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
    created    TEXT NOT NULL,
    closed     TEXT
) STRICT;
CREATE UNIQUE INDEX tables_one_open_per_channel ON tables (channel_id) WHERE status = 'open';
CREATE INDEX tables_by_guild ON tables (guild_id, status);

CREATE TABLE seats (
    table_id  INTEGER NOT NULL REFERENCES tables (id),
    seat_no   INTEGER NOT NULL CHECK (seat_no >= 1),
    member_id INTEGER NOT NULL,
    stack     INTEGER NOT NULL CHECK (stack >= 0),
    status    TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'sitting_out', 'away')),
    joined    TEXT NOT NULL,
    PRIMARY KEY (table_id, seat_no),
    UNIQUE (table_id, member_id)
) STRICT;

CREATE TABLE ledger (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    member_id       INTEGER NOT NULL,
    delta           INTEGER NOT NULL,
    stack_delta     INTEGER NOT NULL DEFAULT 0,
    kind            TEXT NOT NULL,
    reason          TEXT NOT NULL,
    op_key          TEXT NOT NULL,
    counterparty_id INTEGER,
    actor_id        INTEGER,
    table_id        INTEGER REFERENCES tables (id),
    created         TEXT NOT NULL,
    UNIQUE (guild_id, op_key, member_id),
    CHECK (stack_delta = 0 OR table_id IS NOT NULL)
) STRICT;
CREATE INDEX ledger_by_member ON ledger (guild_id, member_id, id);
CREATE INDEX ledger_by_table ON ledger (table_id) WHERE table_id IS NOT NULL;
CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;
CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;
"""

_V2_DAILY = """
ALTER TABLE guild_settings ADD COLUMN daily_amount INTEGER NOT NULL DEFAULT 0 CHECK (daily_amount >= 0);
ALTER TABLE guild_settings ADD COLUMN daily_cooldown_s INTEGER NOT NULL DEFAULT 86400
    CHECK (daily_cooldown_s >= 0);
ALTER TABLE balances ADD COLUMN last_daily TEXT;
"""

_V3_HANDS = """
CREATE TABLE hands (
    id          INTEGER PRIMARY KEY,
    table_id    INTEGER NOT NULL REFERENCES tables (id),
    hand_no     INTEGER NOT NULL CHECK (hand_no >= 1),
    deck        TEXT NOT NULL,
    commitment  TEXT NOT NULL,
    salt        TEXT NOT NULL,
    stakes      TEXT NOT NULL,
    rulings     TEXT NOT NULL,
    status      TEXT NOT NULL DEFAULT 'in_progress'
                CHECK (status IN ('in_progress', 'finished', 'voided')),
    phh         TEXT,
    void_reason TEXT,
    started     TEXT NOT NULL,
    ended       TEXT,
    UNIQUE (table_id, hand_no),
    CHECK ((status = 'in_progress') = (ended IS NULL)),
    CHECK (status <> 'finished' OR phh IS NOT NULL),
    CHECK (status <> 'voided' OR void_reason IS NOT NULL)
) STRICT;
CREATE UNIQUE INDEX hands_one_in_progress_per_table ON hands (table_id) WHERE status = 'in_progress';
CREATE TRIGGER hands_ended_are_final BEFORE UPDATE ON hands WHEN OLD.status <> 'in_progress'
BEGIN
    SELECT RAISE(ABORT, 'a finished or voided hand cannot change');
END;

CREATE TABLE hand_players (
    hand_id        INTEGER NOT NULL REFERENCES hands (id),
    seat_no        INTEGER NOT NULL CHECK (seat_no >= 1),
    member_id      INTEGER NOT NULL,
    starting_stack INTEGER NOT NULL CHECK (starting_stack >= 0),
    final_stack    INTEGER CHECK (final_stack >= 0),
    PRIMARY KEY (hand_id, seat_no),
    UNIQUE (hand_id, member_id)
) STRICT;

CREATE TABLE hand_actions (
    hand_id INTEGER NOT NULL REFERENCES hands (id),
    seq     INTEGER NOT NULL CHECK (seq >= 1),
    action  TEXT NOT NULL,
    created TEXT NOT NULL,
    PRIMARY KEY (hand_id, seq)
) STRICT, WITHOUT ROWID;
CREATE TRIGGER hand_actions_no_update BEFORE UPDATE ON hand_actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;
CREATE TRIGGER hand_actions_no_delete BEFORE DELETE ON hand_actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;

ALTER TABLE ledger ADD COLUMN hand_id INTEGER REFERENCES hands (id);
CREATE INDEX ledger_by_hand ON ledger (hand_id) WHERE hand_id IS NOT NULL;
CREATE INDEX ledger_by_time ON ledger (guild_id, created);
"""


async def _v4_phh_action_log(db: aiosqlite.Connection) -> None:
    trigger = next(s for s in split_statements(_V3_HANDS) if "TRIGGER hand_actions_no_update" in s)
    await db.execute("DROP TRIGGER hand_actions_no_update")
    await migrate_action_log(db)
    await db.execute(trigger)


_V5_TABLE_MESSAGES = """
CREATE TABLE table_messages (
    table_id   INTEGER PRIMARY KEY REFERENCES tables (id),
    message_id INTEGER NOT NULL,
    hand_id    INTEGER REFERENCES hands (id)
) STRICT;
"""

_V6_DISPLAY_PREFS = """
CREATE TABLE display_prefs (
    guild_id  INTEGER NOT NULL,
    member_id INTEGER NOT NULL CHECK (member_id >= 0),
    name      TEXT NOT NULL CHECK (name IN ('look', 'dm')),
    value     TEXT NOT NULL,
    updated   TEXT NOT NULL,
    PRIMARY KEY (guild_id, member_id, name)
) STRICT;
"""

_V7_HAND_GAME = """
ALTER TABLE hands ADD COLUMN game TEXT NOT NULL DEFAULT 'sex-in-the-middle-east';
"""

_V8_LEASES = """
CREATE TABLE table_leases (
    table_id INTEGER PRIMARY KEY REFERENCES tables (id),
    owner    TEXT NOT NULL,
    expires  TEXT NOT NULL
) STRICT;
"""

_V9_LEASE_GENERATION = """
ALTER TABLE table_leases ADD COLUMN generation INTEGER NOT NULL DEFAULT 1;
"""
"""Fencing (issue 18): a lease's generation grows each time another owner takes the table, and
every hand write of a lease holder carries the generation it holds (``bot.store.leases``)."""

_V10_TOURNAMENTS = """
CREATE TABLE tournaments (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    organiser_id  INTEGER NOT NULL,
    table_id      INTEGER REFERENCES tables (id),
    status        TEXT NOT NULL CHECK (status IN ('registering', 'running', 'finished', 'cancelled')),
    buy_in        INTEGER NOT NULL CHECK (buy_in >= 0),
    pool          INTEGER NOT NULL CHECK (pool >= 0),
    level         INTEGER NOT NULL CHECK (level >= 1),
    level_started TEXT,
    state         TEXT NOT NULL,
    created       TEXT NOT NULL,
    ended         TEXT
) STRICT;
CREATE INDEX tournaments_by_channel ON tournaments (channel_id, status);
CREATE TABLE tournament_entries (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    member_id     INTEGER NOT NULL,
    paid          INTEGER NOT NULL CHECK (paid >= 0),
    prize         INTEGER CHECK (prize >= 0),
    joined        TEXT NOT NULL,
    PRIMARY KEY (tournament_id, member_id)
) STRICT;
CREATE TABLE tournament_levels (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    level         INTEGER NOT NULL CHECK (level >= 1),
    started       TEXT NOT NULL,
    PRIMARY KEY (tournament_id, level)
) STRICT;
CREATE TABLE tournament_keys (
    op_key        TEXT PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id)
) STRICT;
ALTER TABLE ledger ADD COLUMN tournament_id INTEGER REFERENCES tournaments (id);
CREATE INDEX ledger_by_tournament ON ledger (tournament_id) WHERE tournament_id IS NOT NULL;
"""

_V11_STATS = """
CREATE TABLE hand_stats (
    hand_id   INTEGER NOT NULL REFERENCES hands (id),
    member_id INTEGER NOT NULL,
    guild_id  INTEGER NOT NULL,
    table_id  INTEGER NOT NULL REFERENCES tables (id),
    game      TEXT NOT NULL,
    ended     TEXT NOT NULL,
    net       INTEGER NOT NULL,
    collected INTEGER NOT NULL CHECK (collected >= 0),
    pot       INTEGER NOT NULL CHECK (pot >= 0),
    showdown  INTEGER NOT NULL CHECK (showdown IN (0, 1)),
    vpip      INTEGER NOT NULL CHECK (vpip IN (0, 1)),
    bets      INTEGER NOT NULL CHECK (bets >= 0),
    calls     INTEGER NOT NULL CHECK (calls >= 0),
    PRIMARY KEY (hand_id, member_id)
) STRICT;
CREATE INDEX hand_stats_by_member
    ON hand_stats (guild_id, member_id, ended, game, net, collected, showdown, vpip, bets, calls);
CREATE INDEX hand_stats_by_time ON hand_stats (guild_id, ended, member_id, net);
CREATE INDEX hand_stats_by_table ON hand_stats (table_id, member_id, net, pot, hand_id);
CREATE INDEX hands_by_status ON hands (status, id);

CREATE TABLE leaderboard_optouts (
    guild_id  INTEGER NOT NULL,
    member_id INTEGER NOT NULL,
    updated   TEXT NOT NULL,
    PRIMARY KEY (guild_id, member_id)
) STRICT;

CREATE TABLE leaderboard_settings (
    guild_id       INTEGER PRIMARY KEY,
    hidden_role_id INTEGER,
    updated        TEXT NOT NULL
) STRICT;

CREATE TABLE seasons (
    id         INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    name       TEXT NOT NULL,
    started    TEXT NOT NULL,
    ended      TEXT,
    started_by INTEGER NOT NULL,
    ended_by   INTEGER
) STRICT;
CREATE UNIQUE INDEX seasons_one_running ON seasons (guild_id) WHERE ended IS NULL;
CREATE INDEX seasons_by_guild ON seasons (guild_id, started);
"""

_V12_MEMBER_DAYS = """
CREATE TABLE member_days (
    guild_id      INTEGER NOT NULL,
    member_id     INTEGER NOT NULL,
    day           TEXT NOT NULL,
    game          TEXT NOT NULL,
    hands         INTEGER NOT NULL,
    won           INTEGER NOT NULL,
    showdowns     INTEGER NOT NULL,
    showdowns_won INTEGER NOT NULL,
    net           INTEGER NOT NULL,
    biggest       INTEGER NOT NULL,
    vpip          INTEGER NOT NULL,
    bets          INTEGER NOT NULL,
    calls         INTEGER NOT NULL,
    PRIMARY KEY (guild_id, member_id, day, game)
) STRICT;
CREATE INDEX member_days_by_day ON member_days (guild_id, day, member_id, net, hands);
INSERT INTO member_days (guild_id, member_id, day, game, hands, won, showdowns, showdowns_won, net, biggest,
                         vpip, bets, calls)
    SELECT guild_id, member_id, SUBSTR(ended, 1, 10), game, COUNT(*),
           SUM(CASE WHEN collected > 0 THEN 1 ELSE 0 END), SUM(showdown),
           SUM(CASE WHEN showdown = 1 AND collected > 0 THEN 1 ELSE 0 END), SUM(net), MAX(collected),
           SUM(vpip), SUM(bets), SUM(calls)
    FROM hand_stats GROUP BY guild_id, member_id, SUBSTR(ended, 1, 10), game;
"""

Step = str | Callable[[aiosqlite.Connection], Awaitable[None]]
"""An SQL script, or (for data that SQL cannot convert) a coroutine run in the step's transaction."""

MIGRATIONS: tuple[Step, ...] = (
    _V1_CORE,
    _V2_DAILY,
    _V3_HANDS,
    _v4_phh_action_log,
    _V5_TABLE_MESSAGES,
    _V6_DISPLAY_PREFS,
    _V7_HAND_GAME,
    _V8_LEASES,
    _V9_LEASE_GENERATION,
    _V10_TOURNAMENTS,
    _V11_STATS,
    _V12_MEMBER_DAYS,
)
"""The migration steps; ``MIGRATIONS[n - 1]`` upgrades version ``n - 1`` to ``n``."""

LATEST: int = len(MIGRATIONS)
"""The schema version this code reads and writes."""


def split_statements(script: str) -> list[str]:
    """Split an SQL script into complete statements (trigger bodies stay whole).

    Uses :func:`sqlite3.complete_statement`, which understands ``CREATE TRIGGER ... BEGIN ... END;``.
    ``executescript`` cannot be used inside our transaction: it commits any open transaction first.
    """
    statements: list[str] = []
    start = 0
    for end, char in enumerate(script):
        if char == ";" and sqlite3.complete_statement(script[start : end + 1]):
            statements.append(script[start : end + 1].strip())
            start = end + 1
    if script[start:].strip():
        raise ValueError(
            f"incomplete SQL statement at the end of a migration: {script[start:].strip()[:60]!r}"
        )
    return statements


async def schema_version(db: aiosqlite.Connection) -> int:
    """The database's ``PRAGMA user_version`` (0 for a new, empty file)."""
    async with db.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    assert row is not None
    version: int = row[0]
    return version


async def migrate(db: aiosqlite.Connection, upto: int | None = None) -> int:
    """Apply the pending migrations up to ``upto`` (default :data:`LATEST`); returns the new version.

    ``db`` must use ``isolation_level=None`` and have no open transaction. Each step re-reads the
    version inside its ``BEGIN IMMEDIATE``, so two processes opening the same file at once do not
    apply a step twice. Raises :class:`SchemaTooNew` for a database newer than this code, and
    ``ValueError`` for an ``upto`` outside ``0..LATEST``.
    """
    target = LATEST if upto is None else upto
    if not 0 <= target <= LATEST:
        raise ValueError(f"schema version must be between 0 and {LATEST}, not {target}")
    current = await schema_version(db)
    if current > LATEST:
        raise SchemaTooNew(
            f"the database is at schema version {current}, but this Wildstud knows only up to {LATEST}"
        )
    for version in range(current + 1, target + 1):
        try:
            await db.execute("BEGIN IMMEDIATE")
            if await schema_version(db) >= version:  # another process got there first
                await db.execute("ROLLBACK")
                continue
            step = MIGRATIONS[version - 1]
            if isinstance(step, str):
                for statement in split_statements(step):
                    await db.execute(statement)
            else:
                await step(db)
            await db.execute(f"PRAGMA user_version = {version:d}")
            await db.execute("COMMIT")
        except BaseException:
            await db.rollback()  # a no-op if no transaction is open; runs after any queued statement
            raise
    return await schema_version(db)
