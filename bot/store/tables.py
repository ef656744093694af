"""Tables and seats: creating and closing tables, buy-ins, top-ups and cash-outs.

A seat's ``stack`` is the member's chips in play at that table. A buy-in moves chips from the
balance to a new seat, a top-up adds to a seat, a cash-out moves the whole stack back and frees
the seat; each writes one ledger row with ``delta`` (balance) and ``stack_delta`` (seat).

A seat dealt into an unfinished hand is frozen: no top-up and no cash-out until the hand is
settled or voided (the store keeps its stack at the hand's starting stack; see
:mod:`bot.store.hands`). Members not dealt in may buy in, top up or leave during a hand.

Buy-in limits: ``min_buy_in`` / ``max_buy_in`` passed to the call, else the table's stakes keys
``"min_buy_in"`` / ``"max_buy_in"`` (ints), else none. Seats are numbered from 1 up to
``max_seats`` (argument, else the table settings key ``"max_seats"``, else 8).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.store.base import (
    StoreBase,
    Tx,
    check_amount,
    check_id,
    dump_json,
    load_json,
    op_key,
    parse_time,
)
from bot.store.errors import InsufficientChips, StoreError
from bot.store.records import SEAT_STATUSES, Seat, SeatReceipt, SeatStatus, TableRecord

DEFAULT_MAX_SEATS = 8

_TABLE_COLUMNS = "id, guild_id, channel_id, dealer_id, stakes, rulings, settings, status, created, closed"


def _table(row: tuple[Any, ...]) -> TableRecord:
    return TableRecord(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        dealer_id=row[3],
        stakes=load_json(row[4]),
        rulings=load_json(row[5]),
        settings=load_json(row[6]),
        status=row[7],
        created=parse_time(row[8]),
        closed=None if row[9] is None else parse_time(row[9]),
    )


def _seat(row: tuple[Any, ...]) -> Seat:
    return Seat(table_id=row[0], seat_no=row[1], member_id=row[2], stack=row[3], status=row[4])


def _limit(explicit: int | None, stakes: Mapping[str, Any], name: str) -> int | None:
    value = explicit if explicit is not None else stakes.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise StoreError(f"This table's {name.replace('_', ' ')} is not a whole number of chips.")
    return value


class TableStore(StoreBase):
    """Tables, seats and the chips in play (mixed into :class:`bot.store.Store`)."""

    # -- tables ---------------------------------------------------------------------------------

    async def create_table(
        self,
        guild_id: int,
        channel_id: int,
        dealer_id: int,
        *,
        stakes: Mapping[str, Any] | None = None,
        rulings: Mapping[str, Any] | None = None,
        settings: Mapping[str, Any] | None = None,
    ) -> TableRecord:
        """Open a table in a channel; ``dealer_id`` is its creator. Stakes, rulings and settings are
        JSON-able mappings kept verbatim. Raises :class:`StoreError` if the channel already has an
        open table."""
        check_id(guild_id, "server")
        check_id(channel_id, "channel")
        check_id(dealer_id, "member")
        texts = (dump_json(stakes, "stakes"), dump_json(rulings, "rulings"), dump_json(settings, "settings"))
        async with self._transaction() as tx:
            if await tx.value("SELECT 1 FROM tables WHERE channel_id = ? AND status = 'open'", (channel_id,)):
                raise StoreError("This channel already has an open table.")
            _, table_id = await tx.run(
                "INSERT INTO tables (guild_id, channel_id, dealer_id, stakes, rulings, settings, created)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (guild_id, channel_id, dealer_id, *texts, tx.now),
            )
            assert table_id is not None
            return await self._table(tx, table_id)

    async def _table(self, tx: Tx, table_id: int, guild_id: int | None = None) -> TableRecord:
        row = await tx.one(f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,))
        if row is None:
            raise StoreError("There is no such table.")
        table = _table(row)
        if guild_id is not None and table.guild_id != guild_id:
            raise StoreError("That table belongs to another server.")
        return table

    async def _open_table(self, tx: Tx, table_id: int, guild_id: int) -> TableRecord:
        table = await self._table(tx, table_id, guild_id)
        if table.status != "open":
            raise StoreError("That table is closed.")
        return table

    async def get_table(self, table_id: int) -> TableRecord:
        """The table with this id. Raises :class:`StoreError` if there is none."""
        check_id(table_id, "table")
        async with self._transaction(write=False) as tx:
            return await self._table(tx, table_id)

    async def table_in_channel(self, channel_id: int) -> TableRecord | None:
        """The open table in a channel, if any."""
        check_id(channel_id, "channel")
        async with self._transaction(write=False) as tx:
            row = await tx.one(
                f"SELECT {_TABLE_COLUMNS} FROM tables WHERE channel_id = ? AND status = 'open'", (channel_id,)
            )
        return None if row is None else _table(row)

    async def open_tables(self, guild_id: int | None = None) -> list[TableRecord]:
        """Every open table (of one guild, or of all), oldest first."""
        async with self._transaction(write=False) as tx:
            if guild_id is None:
                rows = await tx.all(f"SELECT {_TABLE_COLUMNS} FROM tables WHERE status = 'open' ORDER BY id")
            else:
                rows = await tx.all(
                    f"SELECT {_TABLE_COLUMNS} FROM tables WHERE guild_id = ? AND status = 'open' ORDER BY id",
                    (check_id(guild_id, "server"),),
                )
        return [_table(row) for row in rows]

    async def update_table(
        self,
        guild_id: int,
        table_id: int,
        *,
        stakes: Mapping[str, Any] | None = None,
        rulings: Mapping[str, Any] | None = None,
        settings: Mapping[str, Any] | None = None,
        dealer_id: int | None = None,
    ) -> TableRecord:
        """Replace the table's stakes, rulings or settings (whole mappings; None keeps the current
        one), or hand the dealer role to another member. A hand in progress keeps the stakes and
        rulings it was dealt under (they are copied into the hand)."""
        check_id(guild_id, "server")
        check_id(table_id, "table")
        if dealer_id is not None:
            check_id(dealer_id, "member")
        changes: list[tuple[str, object]] = []
        for column, value in (("stakes", stakes), ("rulings", rulings), ("settings", settings)):
            if value is not None:
                changes.append((column, dump_json(value, column)))
        if dealer_id is not None:
            changes.append(("dealer_id", dealer_id))
        async with self._transaction() as tx:
            await self._open_table(tx, table_id, guild_id)
            for column, text in changes:
                await tx.run(f"UPDATE tables SET {column} = ? WHERE id = ?", (text, table_id))
            return await self._table(tx, table_id)

    async def close_table(self, guild_id: int, table_id: int) -> dict[int, int]:
        """Cash out every seat and close the table; returns the chips returned per member.

        Raises :class:`StoreError` if a hand is still in progress there (settle or void it first),
        or if the table is already closed.
        """
        check_id(guild_id, "server")
        check_id(table_id, "table")
        async with self._transaction() as tx:
            await self._open_table(tx, table_id, guild_id)
            await self._not_tournament(tx, table_id)
            if await tx.value(
                "SELECT 1 FROM hands WHERE table_id = ? AND status = 'in_progress'", (table_id,)
            ):
                raise StoreError("A hand is still in progress at this table.")
            returned: dict[int, int] = {}
            for row in await tx.all(
                "SELECT table_id, seat_no, member_id, stack, status FROM seats WHERE table_id = ?"
                " ORDER BY seat_no",
                (table_id,),
            ):
                seat = _seat(row)
                await self._cash_out(tx, guild_id, seat, f"cash_out:close:{table_id}", "table closed")
                returned[seat.member_id] = seat.stack
            await tx.run("UPDATE tables SET status = 'closed', closed = ? WHERE id = ?", (tx.now, table_id))
            return returned

    # -- seats ----------------------------------------------------------------------------------

    async def seats(self, table_id: int) -> list[Seat]:
        """The table's seats, by seat number."""
        check_id(table_id, "table")
        async with self._transaction(write=False) as tx:
            rows = await tx.all(
                "SELECT table_id, seat_no, member_id, stack, status FROM seats WHERE table_id = ?"
                " ORDER BY seat_no",
                (table_id,),
            )
        return [_seat(row) for row in rows]

    async def _seat_of(self, tx: Tx, table_id: int, member_id: int) -> Seat | None:
        row = await tx.one(
            "SELECT table_id, seat_no, member_id, stack, status FROM seats"
            " WHERE table_id = ? AND member_id = ?",
            (table_id, member_id),
        )
        return None if row is None else _seat(row)

    async def seat_of(self, table_id: int, member_id: int) -> Seat | None:
        """The member's seat at the table, if they have one."""
        check_id(table_id, "table")
        check_id(member_id, "member")
        async with self._transaction(write=False) as tx:
            return await self._seat_of(tx, table_id, member_id)

    async def set_seat_status(self, table_id: int, member_id: int, status: SeatStatus) -> Seat:
        """Mark a seat ``active``, ``sitting_out`` or ``away``. Raises :class:`StoreError` if the
        member has no seat there."""
        check_id(table_id, "table")
        check_id(member_id, "member")
        if status not in SEAT_STATUSES:
            raise StoreError(f"A seat's status is one of {', '.join(SEAT_STATUSES)}.")
        async with self._transaction() as tx:
            count, _ = await tx.run(
                "UPDATE seats SET status = ? WHERE table_id = ? AND member_id = ?",
                (status, table_id, member_id),
            )
            if count == 0:
                raise StoreError("You don't have a seat at this table.")
            seat = await self._seat_of(tx, table_id, member_id)
            assert seat is not None
            return seat

    async def _not_tournament(self, tx: Tx, table_id: int) -> None:
        """Refuse a movement between balances and seats at a tournament's table: its chips are
        tournament chips (:mod:`bot.store.tournaments`), worth nothing in the balance."""
        if await tx.value("SELECT 1 FROM tournaments WHERE table_id = ?", (table_id,)):
            raise StoreError(
                "This is a tournament table: its chips are tournament chips, not your balance."
            )

    async def _frozen(self, tx: Tx, table_id: int, member_id: int) -> bool:
        """Whether the member is dealt into the table's unfinished hand."""
        return bool(
            await tx.value(
                "SELECT 1 FROM hands h JOIN hand_players p ON p.hand_id = h.id"
                " WHERE h.table_id = ? AND h.status = 'in_progress' AND p.member_id = ?",
                (table_id, member_id),
            )
        )

    async def _seat_replay(
        self, tx: Tx, guild_id: int, key: str, table_id: int, member_id: int, delta: int | None
    ) -> SeatReceipt | None:
        """The receipt of an earlier use of ``key`` (a retry), None if the key is new; refuses a key
        reused for a different movement (``delta`` None: any amount, as for a cash-out)."""
        rows = await self._ledger_rows(tx, guild_id, key)
        if not rows:
            return None
        row = rows[0]
        if (
            len(rows) != 1
            or (row.member_id, row.table_id) != (member_id, table_id)
            or (delta is not None and row.delta != delta)
        ):
            raise StoreError("This request was already used for a different movement.")
        seat = await self._seat_of(tx, table_id, member_id)
        balance = await self._balance(tx, guild_id, member_id) or 0
        return SeatReceipt(key, False, abs(row.delta), seat, balance)

    async def buy_in(
        self,
        guild_id: int,
        table_id: int,
        member_id: int,
        amount: int,
        *,
        seat_no: int | None = None,
        min_buy_in: int | None = None,
        max_buy_in: int | None = None,
        max_seats: int | None = None,
        key: str | None = None,
    ) -> SeatReceipt:
        """Seat the member with ``amount`` chips moved from their balance (ledger kind ``buy_in``).

        ``seat_no`` picks a seat (else the lowest free one). Limits as in the module docstring.
        Idempotent on ``key``. Raises :class:`StoreError` if the table is closed or of another
        guild, the member is already seated, the seat is taken or out of range, the table is full,
        or the amount is outside the limits; :class:`InsufficientChips` if the balance is short.
        """
        check_id(guild_id, "server")
        check_id(table_id, "table")
        check_id(member_id, "member")
        check_amount(amount, "buy-in")
        stored_key = op_key("buy_in", key)
        async with self._transaction() as tx:
            table = await self._table(tx, table_id, guild_id)
            replay = await self._seat_replay(tx, guild_id, stored_key, table_id, member_id, -amount)
            if replay is not None:
                return replay
            if table.status != "open":
                raise StoreError("That table is closed.")
            await self._not_tournament(tx, table_id)
            if await self._seat_of(tx, table_id, member_id) is not None:
                raise StoreError("You already have a seat at this table.")
            low = _limit(min_buy_in, table.stakes, "min_buy_in")
            high = _limit(max_buy_in, table.stakes, "max_buy_in")
            if low is not None and amount < low:
                raise StoreError(f"The minimum buy-in at this table is {low:,} chips.")
            if high is not None and amount > high:
                raise StoreError(f"The maximum buy-in at this table is {high:,} chips.")
            seats_max = _limit(max_seats, table.settings, "max_seats") or DEFAULT_MAX_SEATS
            taken = {
                row[0] for row in await tx.all("SELECT seat_no FROM seats WHERE table_id = ?", (table_id,))
            }
            if seat_no is None:
                free = [n for n in range(1, seats_max + 1) if n not in taken]
                if not free:
                    raise StoreError("This table is full.")
                seat_no = free[0]
            elif isinstance(seat_no, bool) or not isinstance(seat_no, int) or not 1 <= seat_no <= seats_max:
                raise StoreError(f"Seats at this table are numbered 1 to {seats_max}.")
            elif seat_no in taken:
                raise StoreError(f"Seat {seat_no} is taken.")
            available = await self._ensure_member(tx, guild_id, member_id)
            if amount > available:
                raise InsufficientChips(
                    f"You have {available:,} chips; you can't buy in for {amount:,}.",
                    available=available,
                    requested=amount,
                )
            balance = await self._move_balance(tx, guild_id, member_id, -amount)
            await tx.run(
                "INSERT INTO seats (table_id, seat_no, member_id, stack, joined) VALUES (?, ?, ?, ?, ?)",
                (table_id, seat_no, member_id, amount, tx.now),
            )
            await self._append_ledger(
                tx,
                guild_id,
                member_id,
                delta=-amount,
                stack_delta=amount,
                kind="buy_in",
                reason=f"buy-in at table {table_id}",
                key=stored_key,
                table_id=table_id,
            )
            seat = await self._seat_of(tx, table_id, member_id)
            return SeatReceipt(stored_key, True, amount, seat, balance)

    async def top_up(
        self,
        guild_id: int,
        table_id: int,
        member_id: int,
        amount: int,
        *,
        max_buy_in: int | None = None,
        key: str | None = None,
    ) -> SeatReceipt:
        """Add ``amount`` chips from the balance to the member's seat (ledger kind ``top_up``); the
        new stack may not exceed the maximum buy-in. Refused while the member is dealt into a hand
        in progress. Idempotent on ``key``. Raises :class:`StoreError` / :class:`InsufficientChips`.
        """
        check_id(guild_id, "server")
        check_id(table_id, "table")
        check_id(member_id, "member")
        check_amount(amount, "top-up")
        stored_key = op_key("top_up", key)
        async with self._transaction() as tx:
            table = await self._table(tx, table_id, guild_id)
            replay = await self._seat_replay(tx, guild_id, stored_key, table_id, member_id, -amount)
            if replay is not None:
                return replay
            if table.status != "open":
                raise StoreError("That table is closed.")
            await self._not_tournament(tx, table_id)
            seat = await self._seat_of(tx, table_id, member_id)
            if seat is None:
                raise StoreError("You don't have a seat at this table.")
            if await self._frozen(tx, table_id, member_id):
                raise StoreError("You can top up between hands, not during one.")
            high = _limit(max_buy_in, table.stakes, "max_buy_in")
            if high is not None and seat.stack + amount > high:
                raise StoreError(
                    f"The maximum buy-in at this table is {high:,} chips; you have {seat.stack:,} in play."
                )
            available = await self._ensure_member(tx, guild_id, member_id)
            if amount > available:
                raise InsufficientChips(
                    f"You have {available:,} chips; you can't top up {amount:,}.",
                    available=available,
                    requested=amount,
                )
            balance = await self._move_balance(tx, guild_id, member_id, -amount)
            await tx.run(
                "UPDATE seats SET stack = stack + ? WHERE table_id = ? AND member_id = ?",
                (amount, table_id, member_id),
            )
            await self._append_ledger(
                tx,
                guild_id,
                member_id,
                delta=-amount,
                stack_delta=amount,
                kind="top_up",
                reason=f"top-up at table {table_id}",
                key=stored_key,
                table_id=table_id,
            )
            return SeatReceipt(
                stored_key, True, amount, await self._seat_of(tx, table_id, member_id), balance
            )

    async def cash_out(
        self, guild_id: int, table_id: int, member_id: int, *, key: str | None = None
    ) -> SeatReceipt:
        """The member leaves: their whole stack goes back to the balance (ledger kind ``cash_out``)
        and the seat is freed. Refused while the member is dealt into a hand in progress (fold
        them, settle the hand, then cash out). Idempotent on ``key``."""
        check_id(guild_id, "server")
        check_id(table_id, "table")
        check_id(member_id, "member")
        stored_key = op_key("cash_out", key)
        async with self._transaction() as tx:
            await self._table(tx, table_id, guild_id)
            replay = await self._seat_replay(tx, guild_id, stored_key, table_id, member_id, None)
            if replay is not None:
                return replay
            seat = await self._seat_of(tx, table_id, member_id)
            if seat is None:
                raise StoreError("You don't have a seat at this table.")
            await self._not_tournament(tx, table_id)
            if await self._frozen(tx, table_id, member_id):
                raise StoreError("You are in a hand; you can leave when it ends.")
            balance = await self._cash_out(tx, guild_id, seat, stored_key, f"cash-out at table {table_id}")
            return SeatReceipt(stored_key, True, seat.stack, None, balance)

    async def _cash_out(self, tx: Tx, guild_id: int, seat: Seat, key: str, reason: str) -> int:
        await self._ensure_member(tx, guild_id, seat.member_id)
        balance = await self._move_balance(tx, guild_id, seat.member_id, seat.stack)
        await tx.run("DELETE FROM seats WHERE table_id = ? AND seat_no = ?", (seat.table_id, seat.seat_no))
        await self._append_ledger(
            tx,
            guild_id,
            seat.member_id,
            delta=seat.stack,
            stack_delta=-seat.stack,
            kind="cash_out",
            reason=reason,
            key=key,
            table_id=seat.table_id,
        )
        return balance
