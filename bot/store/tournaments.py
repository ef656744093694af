"""Tournaments: their entries, the prize pool in the ledger, the level clock, tournament chips at
the tournament's table, and the payout at the end.

Money and tournament chips are kept apart. A buy-in (or rebuy) moves chips from the member's
balance into the tournament's pool (ledger kind ``tournament_buy_in``: ``delta = -x``, no stack);
the pool is the ``tournaments.pool`` column and the audit recomputes it from the ledger. Tournament
chips at the table are seat stacks put there by ``tournament_chips`` rows (``delta = 0``), so hands
settle exactly as at any table but never touch a balance. When the tournament ends (or is
cancelled) ONE transaction takes the chips off the table, pays each prize into the balances
(``tournament_prize`` / ``tournament_refund``), empties the pool, closes the table and marks the
tournament finished: a retry or a second caller finds it finished and pays nothing.

The tournament's own state (the model of :mod:`bot.tournament`, as JSON) is stored verbatim in
``state``; the level and its start are also columns, and each level's start is a row of
``tournament_levels``, so the level clock survives a restart.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from bot.store.base import (
    StoreBase,
    Tx,
    check_amount,
    check_id,
    dump_json,
    format_time,
    load_json,
    parse_time,
)
from bot.store.errors import InsufficientChips, StoreError
from bot.store.records import Receipt, TournamentRecord

TOURNAMENT_STATUSES = ("registering", "running", "finished", "cancelled")
_OPEN = ("registering", "running")
_COLUMNS = (
    "id, guild_id, channel_id, organiser_id, table_id, status, buy_in, pool, level, level_started,"
    " state, created, ended"
)


def _record(row: tuple[Any, ...], entries: dict[int, tuple[int, int | None]]) -> TournamentRecord:
    return TournamentRecord(
        id=row[0], guild_id=row[1], channel_id=row[2], organiser_id=row[3], table_id=row[4],
        status=row[5], buy_in=row[6], pool=row[7], level=row[8],
        level_started=None if row[9] is None else parse_time(row[9]),
        state=load_json(row[10]), created=parse_time(row[11]),
        ended=None if row[12] is None else parse_time(row[12]),
        paid={m: p for m, (p, _) in entries.items()},
        prizes={m: z for m, (_, z) in entries.items() if z is not None},
    )


class TournamentStore(StoreBase):
    """Tournaments (mixed into :class:`bot.store.Store`)."""

    async def _tournament(self, tx: Tx, tournament_id: int) -> TournamentRecord:
        row = await tx.one(f"SELECT {_COLUMNS} FROM tournaments WHERE id = ?", (tournament_id,))
        if row is None:
            raise StoreError("There is no such tournament.")
        entries = {
            m: (p, z)
            for m, p, z in await tx.all(
                "SELECT member_id, paid, prize FROM tournament_entries WHERE tournament_id = ?"
                " ORDER BY member_id",
                (tournament_id,),
            )
        }
        return _record(row, entries)

    async def _open(self, tx: Tx, tournament_id: int) -> TournamentRecord:
        record = await self._tournament(tx, tournament_id)
        if record.status not in _OPEN:
            raise StoreError(f"That tournament is {record.status}.")
        return record

    async def create_tournament(
        self, guild_id: int, channel_id: int, organiser_id: int, *, buy_in: int, state: Mapping[str, Any]
    ) -> TournamentRecord:
        """Open registration for a tournament in a channel. Raises :class:`StoreError` if the
        channel has a tournament still registering or running, or an open table."""
        check_id(guild_id, "server")
        check_id(channel_id, "channel")
        check_id(organiser_id, "member")
        if isinstance(buy_in, bool) or not isinstance(buy_in, int) or buy_in < 0:
            raise StoreError("The buy-in must be a whole number of chips, 0 for a freeroll.")
        if buy_in:
            check_amount(buy_in, "buy-in")
        text = dump_json(state, "tournament")
        async with self._transaction() as tx:
            if await tx.value(
                "SELECT 1 FROM tournaments WHERE channel_id = ? AND status IN ('registering', 'running')",
                (channel_id,),
            ):
                raise StoreError("This channel already has a tournament.")
            if await tx.value("SELECT 1 FROM tables WHERE channel_id = ? AND status = 'open'", (channel_id,)):
                raise StoreError("This channel has an open table; close it or use another channel.")
            _, tournament_id = await tx.run(
                "INSERT INTO tournaments (guild_id, channel_id, organiser_id, status, buy_in, pool, level,"
                " state, created) VALUES (?, ?, ?, 'registering', ?, 0, 1, ?, ?)",
                (guild_id, channel_id, organiser_id, buy_in, text, tx.now),
            )
            assert tournament_id is not None
            return await self._tournament(tx, tournament_id)

    async def get_tournament(self, tournament_id: int) -> TournamentRecord:
        check_id(tournament_id, "tournament")
        async with self._transaction(write=False) as tx:
            return await self._tournament(tx, tournament_id)

    async def tournament_in_channel(self, channel_id: int) -> TournamentRecord | None:
        """The channel's tournament that is registering or running, if any."""
        check_id(channel_id, "channel")
        async with self._transaction(write=False) as tx:
            found = await tx.value(
                "SELECT id FROM tournaments WHERE channel_id = ? AND status IN ('registering', 'running')",
                (channel_id,),
            )
            return None if found is None else await self._tournament(tx, int(found))

    async def active_tournaments(self) -> list[TournamentRecord]:
        """Every tournament registering or running (to resume after a restart), oldest first."""
        async with self._transaction(write=False) as tx:
            ids = await tx.all(
                "SELECT id FROM tournaments WHERE status IN ('registering', 'running') ORDER BY id"
            )
            return [await self._tournament(tx, int(row[0])) for row in ids]

    async def finished_tournaments(
        self, guild_id: int, *, since: datetime | None = None, until: datetime | None = None
    ) -> list[TournamentRecord]:
        """The guild's tournaments that finished (not cancelled) in ``[since, until)``, oldest first:
        a season's tournament points (``bot.tables.seasons``)."""
        check_id(guild_id, "server")
        where: list[str] = ["guild_id = ?", "status = 'finished'"]
        params: list[object] = [guild_id]
        if since is not None:
            where.append("ended >= ?")
            params.append(format_time(since))
        if until is not None:
            where.append("ended < ?")
            params.append(format_time(until))
        async with self._transaction(write=False) as tx:
            ids = await tx.all(f"SELECT id FROM tournaments WHERE {' AND '.join(where)} ORDER BY id", params)
            return [await self._tournament(tx, int(row[0])) for row in ids]

    async def enter_tournament(
        self,
        tournament_id: int,
        member_id: int,
        state: Mapping[str, Any],
        *,
        rebuy: bool = False,
        key: str,
        chips: int | None = None,
        seat_no: int | None = None,
    ) -> Receipt:
        """The member pays the buy-in into the pool (a first entry, or a rebuy), and the
        tournament's state becomes ``state``. Once the tournament runs, ``chips`` tournament chips
        go on their seat in the same transaction (``seat_no``: a late entrant's new seat; a
        rebuy's seat is the one they have). Idempotent on ``key`` (a retry moves nothing).
        Raises :class:`InsufficientChips` if the balance is short, :class:`StoreError` if the
        tournament is over, the member is already entered (first entry) or not entered (rebuy)."""
        check_id(tournament_id, "tournament")
        check_id(member_id, "member")
        stored_key = f"tournament:{tournament_id}:{'rebuy' if rebuy else 'entry'}:{key}"
        text = dump_json(state, "tournament")
        async with self._transaction() as tx:
            record = await self._open(tx, tournament_id)
            guild = record.guild_id
            if await tx.value("SELECT 1 FROM tournament_keys WHERE op_key = ?", (stored_key,)):
                return Receipt(stored_key, False, {member_id: await self._balance(tx, guild, member_id) or 0})
            entered = member_id in record.paid
            if entered != rebuy:
                raise StoreError("You are already in this tournament." if entered
                                 else "You are not in this tournament.")
            balance = await self._ensure_member(tx, guild, member_id)
            if record.buy_in:
                if balance < record.buy_in:
                    raise InsufficientChips(
                        f"You have {balance:,} chips; the buy-in is {record.buy_in:,}.",
                        available=balance, requested=record.buy_in,
                    )
                balance = await self._move_balance(tx, guild, member_id, -record.buy_in)
                await self._append_ledger(
                    tx, guild, member_id, delta=-record.buy_in, kind="tournament_buy_in",
                    reason=f"{'rebuy' if rebuy else 'buy-in'}, tournament {tournament_id}", key=stored_key,
                    tournament_id=tournament_id,
                )
            if rebuy:
                await tx.run(
                    "UPDATE tournament_entries SET paid = paid + ? WHERE tournament_id = ? AND member_id = ?",
                    (record.buy_in, tournament_id, member_id),
                )
            else:
                await tx.run(
                    "INSERT INTO tournament_entries (tournament_id, member_id, paid, joined)"
                    " VALUES (?, ?, ?, ?)",
                    (tournament_id, member_id, record.buy_in, tx.now),
                )
            if chips is not None:
                if record.status != "running" or record.table_id is None:
                    raise StoreError("Tournament chips go on a seat once the tournament runs.")
                await self._chips_in(tx, record, record.table_id, member_id, seat_no, chips,
                                     "rebuy" if rebuy else "late entry")
            await tx.run("INSERT INTO tournament_keys (op_key, tournament_id) VALUES (?, ?)",
                         (stored_key, tournament_id))
            await tx.run(
                "UPDATE tournaments SET pool = pool + ?, state = ? WHERE id = ?",
                (record.buy_in, text, tournament_id),
            )
            return Receipt(stored_key, True, {member_id: balance})

    async def leave_tournament(self, tournament_id: int, member_id: int, state: Mapping[str, Any]) -> Receipt:
        """Before the start: the member's buy-in comes back (``tournament_refund``) and their entry
        goes. Raises :class:`StoreError` once the tournament has started."""
        check_id(tournament_id, "tournament")
        check_id(member_id, "member")
        text = dump_json(state, "tournament")
        async with self._transaction() as tx:
            record = await self._open(tx, tournament_id)
            if record.status != "registering":
                raise StoreError("You can only leave a tournament before it starts.")
            if member_id not in record.paid:
                raise StoreError("You are not in this tournament.")
            paid = record.paid[member_id]
            guild = record.guild_id
            balance = await self._ensure_member(tx, guild, member_id)
            count = await tx.value(
                "SELECT COUNT(*) FROM ledger WHERE guild_id = ? AND member_id = ? AND tournament_id = ?"
                " AND kind = 'tournament_refund'",
                (guild, member_id, tournament_id),
            )
            key = f"tournament:{tournament_id}:leave:{member_id}:{int(count) + 1}"
            if paid:
                balance = await self._move_balance(tx, guild, member_id, paid)
                await self._append_ledger(
                    tx, guild, member_id, delta=paid, kind="tournament_refund",
                    reason=f"left tournament {tournament_id}", key=key, tournament_id=tournament_id,
                )
            await tx.run("DELETE FROM tournament_entries WHERE tournament_id = ? AND member_id = ?",
                         (tournament_id, member_id))
            await tx.run("UPDATE tournaments SET pool = pool - ?, state = ? WHERE id = ?",
                         (paid, text, tournament_id))
            return Receipt(key, True, {member_id: balance})

    async def start_tournament(
        self,
        tournament_id: int,
        state: Mapping[str, Any],
        *,
        stakes: Mapping[str, Any],
        settings: Mapping[str, Any],
        seats: Mapping[int, tuple[int, int]],
    ) -> TournamentRecord:
        """Start: open the tournament's table in its channel (``stakes``/``settings`` as for
        :meth:`create_table`), seat each entrant (``seats``: member -> (seat number, starting
        chips)) with tournament chips, and start level 1 now; all in one transaction."""
        check_id(tournament_id, "tournament")
        text = dump_json(state, "tournament")
        async with self._transaction() as tx:
            record = await self._open(tx, tournament_id)
            if record.status != "registering":
                raise StoreError("The tournament has already started.")
            if set(seats) != set(record.paid):
                raise StoreError("Every entrant, and only they, must be seated.")
            if await tx.value("SELECT 1 FROM tables WHERE channel_id = ? AND status = 'open'",
                              (record.channel_id,)):
                raise StoreError("This channel has an open table; close it first.")
            _, table_id = await tx.run(
                "INSERT INTO tables (guild_id, channel_id, dealer_id, stakes, rulings, settings, created)"
                " VALUES (?, ?, ?, ?, '{}', ?, ?)",
                (record.guild_id, record.channel_id, record.organiser_id, dump_json(stakes, "stakes"),
                 dump_json(settings, "settings"), tx.now),
            )
            assert table_id is not None
            await tx.run(
                "UPDATE tournaments SET status = 'running', table_id = ?, level = 1, level_started = ?,"
                " state = ? WHERE id = ?",
                (table_id, tx.now, text, tournament_id),
            )
            await tx.run("INSERT INTO tournament_levels (tournament_id, level, started) VALUES (?, 1, ?)",
                         (tournament_id, tx.now))
            for member, (seat_no, chips) in sorted(seats.items()):
                await self._chips_in(tx, record, table_id, member, seat_no, chips, "starting stack")
            return await self._tournament(tx, tournament_id)

    async def _chips_in(
        self, tx: Tx, record: TournamentRecord, table_id: int, member: int, seat_no: int | None,
        chips: int, why: str,
    ) -> None:
        check_amount(chips, "stack")
        seat = await tx.one("SELECT seat_no, stack FROM seats WHERE table_id = ? AND member_id = ?",
                            (table_id, member))
        if seat is None:
            if seat_no is None:
                raise StoreError("That player has no seat.")
            await tx.run(
                "INSERT INTO seats (table_id, seat_no, member_id, stack, joined) VALUES (?, ?, ?, ?, ?)",
                (table_id, seat_no, member, chips, tx.now),
            )
        else:
            if seat[1] != 0:
                raise StoreError("A player gets tournament chips only without any.")
            await tx.run("UPDATE seats SET stack = ? WHERE table_id = ? AND member_id = ?",
                         (chips, table_id, member))
        count = await tx.value(
            "SELECT COUNT(*) FROM ledger WHERE table_id = ? AND member_id = ?"
                " AND kind = 'tournament_chips'",
            (table_id, member),
        )
        await self._append_ledger(
            tx, record.guild_id, member, delta=0, stack_delta=chips, kind="tournament_chips",
            reason=f"{why}, tournament {record.id}", key=f"tournament:{record.id}:chips:{int(count) + 1}",
            table_id=table_id, tournament_id=record.id,
        )

    async def _chips_out(self, tx: Tx, record: TournamentRecord, member: int, why: str) -> None:
        assert record.table_id is not None
        seat = await tx.one("SELECT stack FROM seats WHERE table_id = ? AND member_id = ?",
                            (record.table_id, member))
        if seat is None:
            return
        if seat[0]:
            count = await tx.value(
                "SELECT COUNT(*) FROM ledger WHERE table_id = ? AND member_id = ?"
                " AND kind = 'tournament_chips'",
                (record.table_id, member),
            )
            await self._append_ledger(
                tx, record.guild_id, member, delta=0, stack_delta=-seat[0], kind="tournament_chips",
                reason=f"{why}, tournament {record.id}", key=f"tournament:{record.id}:chips:{int(count) + 1}",
                table_id=record.table_id, tournament_id=record.id,
            )
        await tx.run("DELETE FROM seats WHERE table_id = ? AND member_id = ?", (record.table_id, member))

    async def eliminate_tournament_players(
        self, tournament_id: int, members: list[int], state: Mapping[str, Any]
    ) -> TournamentRecord:
        """Busted players leave the table (their seats, which hold no chips, are freed); the state
        is saved in the same transaction."""
        check_id(tournament_id, "tournament")
        text = dump_json(state, "tournament")
        async with self._transaction() as tx:
            record = await self._open(tx, tournament_id)
            assert record.table_id is not None
            for member in members:
                stack = await tx.value("SELECT stack FROM seats WHERE table_id = ? AND member_id = ?",
                                       (record.table_id, member))
                if stack:
                    raise StoreError("A player with chips is not out.")
                await self._chips_out(tx, record, member, "eliminated")
            await tx.run("UPDATE tournaments SET state = ? WHERE id = ?", (text, tournament_id))
            return await self._tournament(tx, tournament_id)

    async def save_tournament(
        self, tournament_id: int, state: Mapping[str, Any], *, level: int, level_started: datetime | None,
    ) -> TournamentRecord:
        """Save the state between hands; a new ``level`` (with its start) is recorded in the same
        transaction, so a crash keeps the old level or the new one, never half of it."""
        check_id(tournament_id, "tournament")
        text = dump_json(state, "tournament")
        async with self._transaction() as tx:
            record = await self._open(tx, tournament_id)
            started = None if level_started is None else format_time(level_started)
            if level != record.level:
                if level < record.level:
                    raise StoreError("A tournament's level never goes back.")
                await tx.run(
                    "INSERT INTO tournament_levels (tournament_id, level, started) VALUES (?, ?, ?)"
                    " ON CONFLICT (tournament_id, level) DO NOTHING",
                    (tournament_id, level, started or tx.now),
                )
            await tx.run(
                "UPDATE tournaments SET state = ?, level = ?, level_started = ? WHERE id = ?",
                (text, level, started, tournament_id),
            )
            return await self._tournament(tx, tournament_id)

    async def tournament_levels(self, tournament_id: int) -> list[tuple[int, datetime]]:
        """Each level reached and when it started, in order."""
        check_id(tournament_id, "tournament")
        async with self._transaction(write=False) as tx:
            rows = await tx.all(
                "SELECT level, started FROM tournament_levels WHERE tournament_id = ? ORDER BY level",
                (tournament_id,),
            )
        return [(int(level), parse_time(started)) for level, started in rows]

    async def end_tournament(
        self,
        tournament_id: int,
        payments: Mapping[int, int],
        state: Mapping[str, Any],
        *,
        cancelled: bool = False,
    ) -> Receipt:
        """The end (``cancelled``: a cancel): take every tournament chip off the table, close it,
        pay ``payments`` (member -> chips, summing to the pool) into the balances, and mark the
        tournament finished or cancelled, in one transaction. Paid once: when the tournament has
        already ended this pays nothing and returns ``applied=False``."""
        check_id(tournament_id, "tournament")
        text = dump_json(state, "tournament")
        async with self._transaction() as tx:
            record = await self._tournament(tx, tournament_id)
            key = f"tournament:{tournament_id}:{'cancel' if cancelled else 'prize'}"
            if record.status not in _OPEN:
                now = {m: await self._balance(tx, record.guild_id, m) or 0 for m in payments}
                return Receipt(key, False, now)
            if set(payments) - set(record.paid):
                raise StoreError("Only entrants are paid.")
            if any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in payments.values()):
                raise StoreError("A prize is a whole number of chips.")
            if sum(payments.values()) != record.pool:
                raise StoreError(
                    f"The prizes ({sum(payments.values()):,}) must add up to the pool ({record.pool:,})."
                )
            if record.table_id is not None:
                if await tx.value("SELECT 1 FROM hands WHERE table_id = ? AND status = 'in_progress'",
                                  (record.table_id,)):
                    raise StoreError("A hand is still in progress at the tournament's table.")
                for (member,) in await tx.all("SELECT member_id FROM seats WHERE table_id = ?",
                                              (record.table_id,)):
                    await self._chips_out(tx, record, int(member), "tournament over")
                await tx.run("UPDATE tables SET status = 'closed', closed = ? WHERE id = ?",
                             (tx.now, record.table_id))
            balances: dict[int, int] = {}
            kind = "tournament_refund" if cancelled else "tournament_prize"
            for member in sorted(record.paid):
                amount = payments.get(member, 0)
                await tx.run(
                    "UPDATE tournament_entries SET prize = ? WHERE tournament_id = ? AND member_id = ?",
                    (amount, tournament_id, member),
                )
                if amount:
                    await self._ensure_member(tx, record.guild_id, member)
                    balances[member] = await self._move_balance(tx, record.guild_id, member, amount)
                    await self._append_ledger(
                        tx, record.guild_id, member, delta=amount, kind=kind,
                        reason=f"{'cancelled' if cancelled else 'prize'}, tournament {tournament_id}",
                        key=key, tournament_id=tournament_id,
                    )
            await tx.run(
                "UPDATE tournaments SET status = ?, pool = 0, state = ?, ended = ? WHERE id = ?",
                ("cancelled" if cancelled else "finished", text, tx.now, tournament_id),
            )
            return Receipt(key, True, balances)

    async def is_tournament_table(self, table_id: int) -> bool:
        check_id(table_id, "table")
        async with self._transaction(write=False) as tx:
            return await self._is_tournament_table(tx, table_id)

    async def _is_tournament_table(self, tx: Tx, table_id: int) -> bool:
        return bool(await tx.value("SELECT 1 FROM tournaments WHERE table_id = ?", (table_id,)))
