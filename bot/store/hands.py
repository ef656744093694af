"""Hands: their deck, action log, settlement, voiding, recovery and the end-of-night settle-up.

The lifecycle the table service follows::

    hand_id = await store.create_hand(table_id, players={1: alice, 3: bob}, deck=codes,
                                      commitment=digest, salt=salt,
                                      actions=["seats 3 1"])  # the deal order (PHH's seats)
    await store.append_action(hand_id, 2, "p1 pb")            # one PHH action string each, stored
    await store.append_action(hand_id, 3, "p2 cbr 20")        # (fsync'd) before anyone hears of it
    ...
    await store.settle_hand(hand_id, {1: 1130, 3: 870}, phh_text)   # once, at the end

    # on start-up:
    for hand in await store.list_unfinished_hands():
        try: rebuild by replaying hand.deck / hand.actions through the engine
        except ...: await store.void_hand(hand.id, "its log could not be replayed")

The log holds what the table service writes (``bot.tables.codec``): the deal order, then the PHH
action string of each action the engine performed, so with the stored deck it is the hand history.
The store itself only keeps the texts in order, append-only; migration 4 (``bot.store.action_log``)
rewrote the logs of databases from before, when they held the commands as typed.

**Chips in play (the invariant the audit checks).** A seat's stack in the database is the
member's chips at the table *between* hands. While a hand is in progress the database keeps every
dealt seat at its starting stack (recorded in ``hand_players``) and the seat is frozen (no top-up,
no cash-out); the pot and the stacks behind are derived by the engine from the action log. So the
chips in play at a table equal its seats' stacks, which already include the unfinished hands'
pots. Settlement then writes the final stacks in one transaction, with one ledger row per player
(``kind = 'hand'``, ``stack_delta = final - starting``) that sum to zero; voiding writes nothing to
the stacks (every contribution is back with its seat by construction) and records the void in the
ledger with zero deltas. The audit checks, per table and member, that buy-ins + top-ups -
cash-outs + settled results = the seat's stack; that each settled hand sums to zero; and that each
unfinished hand's seats still hold its starting stacks.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from bot.store.backend import PostgresBackend
from bot.store.base import StoreBase, Tx, check_id, check_text, dump_json, format_time, load_json, parse_time
from bot.store.deal import Deal
from bot.store.errors import ActionConflict, StoreError
from bot.store.group_commit import Together
from bot.store.pg_batch import Append, Settle
from bot.store.records import HandPlayer, HandRecord, Settlement, SettleUp
from bot.store.settle_up import square_up
from bot.store.sqlite_batch import store_deals as sqlite_deals

_HAND_COLUMNS = (
    "h.id, h.table_id, t.guild_id, t.channel_id, h.hand_no, h.deck, h.commitment, h.salt, h.stakes,"
    " h.rulings, h.status, h.phh, h.void_reason, h.started, h.ended, h.game"
)
_MAX_ACTION_LENGTH = 2000
DEFAULT_HAND_GAME = "sex-in-the-middle-east"
"""The game of a hand that names none (every hand dealt before issue 12)."""


def _deck_text(deck: Sequence[str] | str) -> str:
    # Every deal checks a whole deck: split() finds an empty code or one with a space inside as
    # surely as a loop over each code's characters, in a fiftieth of the time (a storm deals 2,000).
    codes = deck.split() if isinstance(deck, str) else list(deck)
    try:
        text = " ".join(codes)
    except TypeError:
        text = ""
    if not codes or text.split() != codes:
        raise StoreError("The deck must be a non-empty list of card codes without spaces.")
    return text


def _check_actions(actions: Sequence[str]) -> list[str]:
    if isinstance(actions, str):
        raise StoreError("Actions come as a list of texts.")
    for action in actions:
        if not isinstance(action, str) or not action or len(action) > _MAX_ACTION_LENGTH:
            raise StoreError(f"An action is a non-empty text of at most {_MAX_ACTION_LENGTH} characters.")
    return list(actions)


class HandStore(StoreBase):
    """Hands and their action logs (mixed into :class:`bot.store.Store`)."""

    async def create_hand(
        self,
        table_id: int,
        *,
        players: Mapping[int, int],
        deck: Sequence[str] | str,
        commitment: str,
        salt: str,
        stakes: Mapping[str, Any] | None = None,
        rulings: Mapping[str, Any] | None = None,
        game: str = DEFAULT_HAND_GAME,
        actions: Sequence[str] = (),
        lease: int | None = None,
    ) -> int:
        """Start a hand at an open table; returns the hand's id.

        ``players`` maps seat number -> member id for everyone dealt in; each must be seated there
        (their current stacks become the hand's starting stacks). ``deck`` is the deck order as
        card codes, top first (a list, or one space-separated string); ``commitment`` and ``salt``
        are the published deck commitment and its salt (DESIGN: fairness). ``stakes`` and
        ``rulings`` default to the table's current ones; the hand keeps its own copy (SPEC §8).
        ``game`` is the name of the game it is dealt as (``bot.engine.games.catalogue``). ``actions``: the
        first entries of its action log (numbers 1, 2, ...; the table service's deal order),
        stored in the same transaction, so no hand is ever stored without them (a kill or a backup
        between two steps once left a hand that could not be resumed). Hands are numbered 1, 2,
        ... per table. ``lease``: the table lease generation the caller holds (fencing; see
        :mod:`bot.store.leases`); a stale one raises :class:`StaleLease` and stores nothing.

        Raises :class:`StoreError` if the table is closed, a hand is already in progress there, a
        player is not in the seat given, or the deck/commitment is empty.
        """
        check_id(table_id, "table")
        if not players:
            raise StoreError("A hand needs players.")
        for seat_no, member_id in players.items():
            check_id(seat_no, "seat")
            check_id(member_id, "member")
        deck_text = _deck_text(deck)
        commitment = check_text(commitment, "deck commitment", limit=200)
        salt = check_text(salt, "deck salt", limit=200)
        stakes_text = None if stakes is None else dump_json(stakes, "stakes")
        rulings_text = None if rulings is None else dump_json(rulings, "rulings")
        game = check_text(game, "game", limit=64)
        first = _check_actions(actions)
        backend = self._backend
        now = self._clock()
        # A storm of deals after a restart: stored with the others arriving meanwhile by a few
        # set statements when it is certainly what the transaction below would store (PostgreSQL:
        # bot.store.pg_batch; SQLite, inside its group commit: bot.store.sqlite_batch); anything
        # else (a closed or busy table, a seat that changed hands, ...) is decided by its own
        # transaction, _deal.
        deal = Deal(
            table_id=table_id, players=dict(players), deck=deck_text, commitment=commitment, salt=salt,
            stakes=stakes_text, rulings=rulings_text, game=game, actions=tuple(first),
            started=format_time(now), lease=lease,
        )
        if isinstance(backend, PostgresBackend):
            stored = await backend.deals.submit(deal)
            if stored is not None:
                return stored

        return await self._write(
            functools.partial(self._deal, deal), locking=True, together=Together(sqlite_deals, deal),
            now=(now, deal.started),
        )

    async def _deal(self, deal: Deal, tx: Tx) -> int:
        """:meth:`create_hand`'s transaction (its body: see :meth:`StoreBase._write`)."""
        # A hot path (every deal), so it locks what it reads rather than run serializable: the
        # table's row (deals at one table take turns), and each dealt seat's row, rewritten
        # unchanged so that a serializable top-up or cash-out of that seat running meanwhile must
        # retry and then sees the hand (a lock alone would not make it). See bot.store.backend.
        table_id = deal.table_id
        row = await tx.lock_one("SELECT status, stakes, rulings FROM tables WHERE id = ?", (table_id,))
        await self._check_lease(tx, table_id, deal.lease)
        if row is None:
            raise StoreError("There is no such table.")
        if row[0] != "open":
            raise StoreError("That table is closed.")
        # The newest hand is the only one that can be in progress (a hand starts only when none
        # is): one read of the table's own index entries, not of the index of every hand in
        # progress, which PostgreSQL's serializable transactions would see as a conflict with
        # every other table's deal.
        last = await tx.one(
            "SELECT hand_no, status FROM hands WHERE table_id = ? ORDER BY hand_no DESC LIMIT 1", (table_id,)
        )
        if last is not None and last[1] == "in_progress":
            raise StoreError("A hand is already in progress at this table.")
        dealt = sorted(deal.players.items())
        stacks = {  # every dealt seat rewritten unchanged and read, in one statement
            int(r[0]): int(r[1])
            for r in await tx.all(
                "UPDATE seats SET stack = stack WHERE table_id = ? AND ("
                + " OR ".join("(seat_no = ? AND member_id = ?)" for _ in dealt)
                + ") RETURNING seat_no, stack",
                [table_id, *(v for pair in dealt for v in pair)],
            )
        }
        for seat_no, _ in dealt:
            if seat_no not in stacks:
                raise StoreError(f"Seat {seat_no} is not held by that member.")
        hand_no = 1 if last is None else int(last[0]) + 1
        _, hand_id = await tx.run(
            "INSERT INTO hands (table_id, hand_no, deck, commitment, salt, stakes, rulings, started, game)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                table_id,
                hand_no,
                deal.deck,
                deal.commitment,
                deal.salt,
                deal.stakes or row[1],
                deal.rulings or row[2],
                tx.now,
                deal.game,
            ),
        )
        assert hand_id is not None
        await tx.run(
            "INSERT INTO hand_players (hand_id, seat_no, member_id, starting_stack) VALUES "
            + ", ".join("(?, ?, ?, ?)" for _ in dealt),
            [v for seat_no, member_id in dealt for v in (hand_id, seat_no, member_id, stacks[seat_no])],
        )
        if deal.actions:
            await tx.run(
                "INSERT INTO hand_actions (hand_id, seq, action, created) VALUES "
                + ", ".join("(?, ?, ?, ?)" for _ in deal.actions),
                [v for seq, text in enumerate(deal.actions, start=1) for v in (hand_id, seq, text, tx.now)],
            )
        return hand_id

    async def append_action(self, hand_id: int, seq: int, action: str, *, lease: int | None = None) -> bool:
        """Store action number ``seq`` (1, 2, ...) of a hand; returns True if stored now.

        When this returns, the action is committed to disk: only then may it be acknowledged or
        shown. Sequence numbers must follow on without gaps. Idempotent: the same ``(seq, action)``
        again returns False and changes nothing. Raises :class:`ActionConflict` if ``seq`` already
        holds a different action, :class:`StoreError` if the hand is over or ``seq`` is not the next
        number. ``action`` is opaque text (the engine's notation); the store never parses it.
        ``lease``: the table lease generation the caller holds (fencing): a stale one raises
        :class:`StaleLease` and stores nothing.
        """
        return await self.append_actions(hand_id, seq, [action], lease=lease) == 1

    async def append_actions(
        self, hand_id: int, first_seq: int, actions: Sequence[str], *, lease: int | None = None
    ) -> int:
        """Store several consecutive actions (``first_seq``, ``first_seq + 1``, ...) in one
        transaction, e.g. a street's deal lines; returns how many were new. All or nothing: the
        rules and errors of :meth:`append_action` apply to each, and any error stores none."""
        check_id(hand_id, "hand")
        if isinstance(first_seq, bool) or not isinstance(first_seq, int) or first_seq < 1:
            raise StoreError("Action numbers start at 1.")
        actions = _check_actions(actions)
        backend = self._backend
        if len(actions) == 1 and isinstance(backend, PostgresBackend):
            # The hot path (one click, one action): stored with the others arriving meanwhile by
            # one statement when it is certainly the next action; anything else is decided below.
            now = format_time(self._clock())
            if await backend.appends.submit(Append(hand_id, first_seq, actions[0], now, lease)):
                return 1

        async def body(tx: Tx) -> int:
            # Appends to this hand take turns from here on; one statement reads the status and the
            # count (every action pays for each round trip to the database).
            await tx.lock("hands", "id", hand_id)
            row = await tx.one(
                "SELECT status, (SELECT COUNT(*) FROM hand_actions WHERE hand_id = ?), table_id"
                " FROM hands WHERE id = ?",
                (hand_id, hand_id),
            )
            if row is None:
                raise StoreError("There is no such hand.")
            status, count = row[0], int(row[1])
            await self._check_lease(tx, int(row[2]), lease)
            added = 0
            for seq, action in enumerate(actions, start=first_seq):
                if seq <= count:
                    stored = await tx.value(
                        "SELECT action FROM hand_actions WHERE hand_id = ? AND seq = ?", (hand_id, seq)
                    )
                    if stored != action:
                        raise ActionConflict(
                            f"Action {seq} of this hand is already {stored!r}, not {action!r}."
                        )
                    continue
                if status != "in_progress":
                    raise StoreError("That hand is over.")
                if seq != count + 1:
                    raise StoreError(
                        f"Action {seq} is out of order: the next action of this hand is {count + 1}."
                    )
                await tx.run(
                    "INSERT INTO hand_actions (hand_id, seq, action, created) VALUES (?, ?, ?, ?)",
                    (hand_id, seq, action, tx.now),
                )
                count += 1
                added += 1
            return added

        return await self._write(body, locking=True)

    async def settle_hand(
        self, hand_id: int, final_stacks: Mapping[int, int], phh: str, *, lease: int | None = None
    ) -> Settlement:
        """Settle a finished hand in one transaction: write each dealt seat's final stack, one ledger
        row per player (``kind='hand'``, key ``hand:{hand_id}``, ``stack_delta = final - starting``),
        the PHH history, and mark the hand finished.

        ``final_stacks`` maps seat number -> stack after the hand, for exactly the seats dealt in;
        they must add up to the starting stacks (chips are conserved; pots are paid out). Applying
        the same settlement twice changes nothing (returns ``applied=False``). Raises
        :class:`ActionConflict` if the hand was already settled with other stacks,
        :class:`StoreError` if it was voided or the stacks are wrong, :class:`StaleLease` for a
        stale ``lease`` (fencing, as in :meth:`append_action`).
        """
        check_id(hand_id, "hand")
        phh = check_text(phh, "hand history", limit=1_000_000)
        finals: dict[int, int] = {}
        for seat_no, stack in final_stacks.items():
            if isinstance(stack, bool) or not isinstance(stack, int) or stack < 0:
                raise StoreError("Final stacks must be whole numbers of chips, zero or more.")
            finals[seat_no] = stack
        backend = self._backend
        if isinstance(backend, PostgresBackend):
            # Settled with the others arriving meanwhile when it certainly settles now; a repeat,
            # a refusal or anything else is decided below (see bot.store.pg_batch).
            ended = format_time(self._clock())
            net = await backend.settlements.submit(Settle(hand_id, dict(finals), phh, ended, lease))
            if net is not None:
                return Settlement(
                    hand_id=hand_id, applied=True, net=net, final_stacks=dict(sorted(finals.items()))
                )

        async def body(tx: Tx) -> Settlement:
            # A hot path (every hand), so it locks what it reads rather than run serializable (as
            # create_hand): the hand's row, so settling, voiding and appending to it take turns; the
            # players' rows are written only under that lock, and each seat's stack is written only
            # if it still holds the starting stack (an UPDATE re-checks that on the newest row).
            # Serializable, settlements of neighbouring hands aborted each other (see backend).
            await tx.lock("hands", "id", hand_id)
            hand = await self._hand(tx, hand_id)
            await self._check_lease(tx, hand.table_id, lease)
            starting = {p.seat_no: p for p in hand.players}
            if hand.status == "voided":
                raise StoreError("That hand was voided.")
            if hand.status == "finished":
                recorded = {p.seat_no: p.final_stack for p in hand.players}
                if recorded != finals:
                    raise ActionConflict("This hand was already settled with different results.")
                return self._settlement(hand, finals, applied=False)
            if set(finals) != set(starting):
                raise StoreError("The final stacks must name exactly the seats dealt into the hand.")
            total_before = sum(p.starting_stack for p in hand.players)
            if sum(finals.values()) != total_before:
                raise StoreError(
                    f"The final stacks add up to {sum(finals.values()):,} chips,"
                    f" but {total_before:,} were in play."
                )
            for player in hand.players:
                final = finals[player.seat_no]
                count, _ = await tx.run(
                    "UPDATE seats SET stack = ?"
                    " WHERE table_id = ? AND seat_no = ? AND member_id = ? AND stack = ?",
                    (final, hand.table_id, player.seat_no, player.member_id, player.starting_stack),
                )
                if count != 1:
                    raise StoreError(
                        f"Seat {player.seat_no} changed during the hand; the hand cannot be settled."
                    )
                await tx.run(
                    "UPDATE hand_players SET final_stack = ? WHERE hand_id = ? AND seat_no = ?",
                    (final, hand_id, player.seat_no),
                )
                await self._append_ledger(
                    tx,
                    hand.guild_id,
                    player.member_id,
                    delta=0,
                    stack_delta=final - player.starting_stack,
                    kind="hand",
                    reason=f"hand #{hand.hand_no} at table {hand.table_id}",
                    key=f"hand:{hand_id}",
                    table_id=hand.table_id,
                    hand_id=hand_id,
                )
            await tx.run(
                "UPDATE hands SET status = 'finished', phh = ?, ended = ? WHERE id = ?",
                (phh, tx.now, hand_id),
            )
            return self._settlement(hand, finals, applied=True)

        return await self._write(body, locking=True)

    @staticmethod
    def _settlement(hand: HandRecord, finals: Mapping[int, int], *, applied: bool) -> Settlement:
        # From the stacks just written (or found recorded): no second read of the hand.
        net = {p.member_id: finals[p.seat_no] - p.starting_stack for p in hand.players}
        stacks = {p.seat_no: finals[p.seat_no] for p in hand.players}
        return Settlement(hand_id=hand.id, applied=applied, net=net, final_stacks=stacks)

    async def void_hand(self, hand_id: int, reason: str, *, lease: int | None = None) -> bool:
        """Void an unfinished hand that cannot be resumed; returns True if voided now (False if it
        was already voided).

        Every contribution goes back to its seat: the seats were kept at their starting stacks
        during the hand, so no stack changes. The void is recorded in the ledger (``kind='void'``,
        key ``void:{hand_id}``, zero deltas, one row per player) with ``reason``. Raises
        :class:`StoreError` if the hand was already settled; :class:`StaleLease` for a stale
        ``lease`` (fencing, as in :meth:`append_action`).
        """
        check_id(hand_id, "hand")
        reason = check_text(reason, "reason", limit=500)
        async def body(tx: Tx) -> bool:
            hand = await self._hand(tx, hand_id)
            await self._check_lease(tx, hand.table_id, lease)
            if hand.status == "voided":
                return False
            if hand.status == "finished":
                raise StoreError("That hand is already settled.")
            for player in hand.players:
                await self._append_ledger(
                    tx,
                    hand.guild_id,
                    player.member_id,
                    delta=0,
                    kind="void",
                    reason=f"hand #{hand.hand_no} voided: {reason}",
                    key=f"void:{hand_id}",
                    table_id=hand.table_id,
                    hand_id=hand_id,
                )
            await tx.run(
                "UPDATE hands SET status = 'voided', void_reason = ?, ended = ? WHERE id = ?",
                (reason, tx.now, hand_id),
            )
            return True

        return await self._write(body)

    # -- reading --------------------------------------------------------------------------------

    async def _hand(self, tx: Tx, hand_id: int) -> HandRecord:
        row = await tx.one(
            f"SELECT {_HAND_COLUMNS} FROM hands h JOIN tables t ON t.id = h.table_id WHERE h.id = ?",
            (hand_id,),
        )
        if row is None:
            raise StoreError("There is no such hand.")
        return await self._hand_record(tx, row)

    async def _hand_record(self, tx: Tx, row: tuple[Any, ...]) -> HandRecord:
        hand_id = row[0]
        players = tuple(
            HandPlayer(seat_no=r[0], member_id=r[1], starting_stack=r[2], final_stack=r[3])
            for r in await tx.all(
                "SELECT seat_no, member_id, starting_stack, final_stack FROM hand_players"
                " WHERE hand_id = ? ORDER BY seat_no",
                (hand_id,),
            )
        )
        actions = tuple(
            r[0]
            for r in await tx.all(
                "SELECT action FROM hand_actions WHERE hand_id = ? ORDER BY seq", (hand_id,)
            )
        )
        return HandRecord(
            id=hand_id,
            table_id=row[1],
            guild_id=row[2],
            channel_id=row[3],
            hand_no=row[4],
            deck=tuple(row[5].split()),
            commitment=row[6],
            salt=row[7],
            stakes=load_json(row[8]),
            rulings=load_json(row[9]),
            status=row[10],
            players=players,
            actions=actions,
            phh=row[11],
            void_reason=row[12],
            started=parse_time(row[13]),
            ended=None if row[14] is None else parse_time(row[14]),
            game=row[15],
        )

    async def get_hand(self, hand_id: int) -> HandRecord:
        """Everything about one hand. Raises :class:`StoreError` if there is none."""
        check_id(hand_id, "hand")
        async with self._transaction(write=False) as tx:
            return await self._hand(tx, hand_id)

    async def list_unfinished_hands(self, guild_id: int | None = None) -> list[HandRecord]:
        """Every hand still in progress (of one guild, or all), oldest first, with deck order,
        stakes, rulings, players and action log: what start-up needs to rebuild each one."""
        sql = (
            f"SELECT {_HAND_COLUMNS} FROM hands h JOIN tables t ON t.id = h.table_id"
            " WHERE h.status = 'in_progress'"
        )
        params: tuple[int, ...] = ()
        if guild_id is not None:
            sql += " AND t.guild_id = ?"
            params = (check_id(guild_id, "server"),)
        async with self._transaction(write=False) as tx:
            return [await self._hand_record(tx, row) for row in await tx.all(sql + " ORDER BY h.id", params)]

    async def table_hands(self, table_id: int, *, limit: int = 10) -> list[HandRecord]:
        """The table's most recent hands, newest first."""
        check_id(table_id, "table")
        async with self._transaction(write=False) as tx:
            rows = await tx.all(
                f"SELECT {_HAND_COLUMNS} FROM hands h JOIN tables t ON t.id = h.table_id"
                " WHERE h.table_id = ? ORDER BY h.hand_no DESC LIMIT ?",
                (table_id, limit),
            )
            return [await self._hand_record(tx, row) for row in rows]

    async def hand_games(self, guild_id: int) -> dict[int, str]:
        """The game of every hand dealt in the guild, ``{hand id: game name}`` (for the ledger)."""
        check_id(guild_id, "server")
        async with self._transaction(write=False) as tx:
            rows = await tx.all(
                "SELECT h.id, h.game FROM hands h JOIN tables t ON t.id = h.table_id WHERE t.guild_id = ?",
                (guild_id,),
            )
        return {int(r[0]): str(r[1]) for r in rows}

    async def settle_up(self, guild_id: int, since: datetime, until: datetime) -> SettleUp:
        """Each member's net result from hands settled in ``[since, until)`` and the fewest payments
        that square everyone up ("A pays B 120"), as home games do at the end of a night.

        Nothing moves: this is a report. Members who broke even appear with 0 and pay nothing.
        """
        check_id(guild_id, "server")
        if until < since:
            raise StoreError("The end of the period is before its start.")
        async with self._transaction(write=False) as tx:
            rows = await tx.all(
                "SELECT member_id, SUM(stack_delta) FROM ledger WHERE guild_id = ? AND kind = 'hand'"
                " AND created >= ? AND created < ? GROUP BY member_id ORDER BY member_id",
                (guild_id, format_time(since), format_time(until)),
            )
        net = {row[0]: int(row[1]) for row in rows}
        return SettleUp(guild_id=guild_id, since=since, until=until, net=net, payments=square_up(net))
