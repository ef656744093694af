"""SQLite's set-based hot writes: a run of deals in one group commit stored by a few statements.

A deal as a transaction body of its own (:meth:`bot.store.hands.HandStore.create_hand`) is six
statements on the connection's thread (read the table, its newest hand, its seats; insert the
hand, its players, its first actions), about 0.06 ms of that thread and of the GIL each, so a
storm of 2,000 deals after a restart held the thread for some 130 ms. Inside a group commit
(:mod:`bot.store.group_commit`), a run of deals is stored instead by :func:`store_deals`: three
reads over every table of the run, then the hands, their players and their first actions, each
one statement for all of them.

**It decides nothing.** The batch runs inside ``BEGIN IMMEDIATE`` (the database's write lock is
held, every read is the newest state), after every write queued before the run. It stores a
deal only when it is certainly what the body would store -- the table is open, its newest hand
is not in progress, the lease (if given) is the table's current one, every dealt seat is held by
the member named -- and exactly as the body stores it (the hand numbered one more than the
newest, the table's stakes and rulings unless the deal gives its own, the seats' stacks as the
starting stacks, the write's time). Every other deal, and every deal after the first of its table
in the run, is left to its own body, run after the set in the order submitted, which decides it
and raises the precise error. So a refused deal fails alone, and deals of one table keep their
order (deals of different tables touch different rows, so storing them first changes nothing).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

from bot.store.deal import Deal

_IDS = "SELECT value FROM json_each(?)"

TABLES_SQL = f"SELECT id, status, stakes, rulings FROM tables WHERE id IN ({_IDS})"

LEASES_SQL = f"SELECT table_id, generation FROM table_leases WHERE table_id IN ({_IDS})"

NEWEST_HANDS_SQL = (
    # SQLite takes a bare column of a MAX() query from the row that has the maximum.
    f"SELECT table_id, MAX(hand_no), status FROM hands WHERE table_id IN ({_IDS}) GROUP BY table_id"
)

SEATS_SQL = f"SELECT table_id, seat_no, member_id, stack FROM seats WHERE table_id IN ({_IDS})"

HANDS_SQL = """
INSERT INTO hands (table_id, hand_no, deck, commitment, salt, stakes, rulings, started, game)
SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'),
       json_extract(value, '$[3]'), json_extract(value, '$[4]'), json_extract(value, '$[5]'),
       json_extract(value, '$[6]'), json_extract(value, '$[7]'), json_extract(value, '$[8]')
FROM json_each(?)
RETURNING table_id, id
"""

PLAYERS_SQL = "INSERT INTO hand_players (hand_id, seat_no, member_id, starting_stack) VALUES (?, ?, ?, ?)"

ACTIONS_SQL = "INSERT INTO hand_actions (hand_id, seq, action, created) VALUES (?, ?, ?, ?)"


def store_deals(conn: sqlite3.Connection, batch: Sequence[Deal]) -> dict[int, int]:
    """Store the deals of ``batch`` that are certainly what their bodies would store (see the
    module docstring) on ``conn``, in its open write transaction; returns the new hand's id of
    each deal stored, by position. May raise what a statement raises (the group commit then runs
    every deal's own body)."""
    first: dict[int, int] = {}  # table -> the position of its first deal in the run
    for position, deal in enumerate(batch):
        first.setdefault(deal.table_id, position)
    ids = json.dumps(list(first))
    # The columns are STRICT INTEGER and TEXT: sqlite3 returns them as int and str already.
    tables = {r[0]: r for r in conn.execute(TABLES_SQL, (ids,))}
    leased = [table_id for table_id, position in first.items() if batch[position].lease is not None]
    leases = dict(conn.execute(LEASES_SQL, (json.dumps(leased),)).fetchall()) if leased else {}
    newest = {r[0]: (r[1], r[2]) for r in conn.execute(NEWEST_HANDS_SQL, (ids,))}
    seats = {(r[0], r[1]): (r[2], r[3]) for r in conn.execute(SEATS_SQL, (ids,))}

    ready: list[tuple[int, Deal, int, str, str]] = []  # position, deal, hand number, stakes, rulings
    for table_id, position in first.items():
        deal = batch[position]
        table = tables.get(table_id)
        if table is None or table[1] != "open":
            continue
        if deal.lease is not None and leases.get(table_id) != deal.lease:
            continue
        last_no, last_status = newest.get(table_id, (0, ""))
        if last_status == "in_progress":
            continue
        held = (seats.get((table_id, seat), (None, 0))[0] == member for seat, member in deal.players.items())
        if not all(held):
            continue
        ready.append((position, deal, last_no + 1, deal.stakes or table[2], deal.rulings or table[3]))
    if not ready:
        return {}

    rows = [
        [d.table_id, no, d.deck, d.commitment, d.salt, stakes, rulings, d.started, d.game]
        for _, d, no, stakes, rulings in ready
    ]
    hands = dict(conn.execute(HANDS_SQL, (json.dumps(rows),)).fetchall())
    conn.executemany(
        PLAYERS_SQL,
        [
            (hands[d.table_id], seat, member, seats[d.table_id, seat][1])
            for _, d, *_ in ready for seat, member in sorted(d.players.items())
        ],
    )
    conn.executemany(
        ACTIONS_SQL,
        [
            (hands[d.table_id], seq, action, d.started)
            for _, d, *_ in ready for seq, action in enumerate(d.actions, start=1)
        ],
    )
    return {position: hands[d.table_id] for position, d, *_ in ready}
