"""The chip economy of one guild: settings, balances, transfers, grants and takes, the daily claim,
the leaderboard and the ledger.

Every balance movement writes its ledger rows in the same transaction, so the ledger sums to the
balances at every commit. A member's first use in a guild opens their account with the guild's
starting chips (default 1,000).
"""

from __future__ import annotations

import enum
from datetime import datetime, timedelta

from bot.store.base import (
    LEDGER_COLUMNS,
    StoreBase,
    Tx,
    check_amount,
    check_id,
    check_text,
    format_time,
    ledger_entry,
    op_key,
    parse_time,
)
from bot.store.errors import DailyNotReady, InsufficientChips, StoreError
from bot.store.records import GuildSettings, LeaderboardRow, LedgerEntry, Receipt


class _Unset(enum.Enum):
    UNSET = enum.auto()


UNSET = _Unset.UNSET
"""Marks a keyword argument of :meth:`EconomyStore.update_guild_settings` as "leave unchanged"."""


def _insufficient(available: int, requested: int, verb: str) -> InsufficientChips:
    return InsufficientChips(
        f"You have {available:,} chips; you can't {verb} {requested:,}.",
        available=available,
        requested=requested,
    )


class EconomyStore(StoreBase):
    """Guild settings and balance movements (mixed into :class:`bot.store.Store`)."""

    # -- guild settings -------------------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's economy settings (defaults until changed)."""
        check_id(guild_id, "server")
        async with self._transaction(write=False) as tx:
            return await self._guild_settings(tx, guild_id)

    async def _guild_settings(self, tx: Tx, guild_id: int) -> GuildSettings:
        row = await tx.one(
            "SELECT starting_chips, daily_amount, daily_cooldown_s, dealer_role_id"
            " FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        if row is None:
            return GuildSettings(guild_id)
        return GuildSettings(
            guild_id=guild_id,
            starting_chips=row[0],
            daily_amount=row[1],
            daily_cooldown=timedelta(seconds=row[2]),
            dealer_role_id=row[3],
        )

    async def update_guild_settings(
        self,
        guild_id: int,
        *,
        starting_chips: int | _Unset = UNSET,
        daily_amount: int | _Unset = UNSET,
        daily_cooldown: timedelta | _Unset = UNSET,
        dealer_role_id: int | _Unset | None = UNSET,
    ) -> GuildSettings:
        """Change some of the guild's settings; arguments left :data:`UNSET` keep their value.

        ``starting_chips`` (>= 0) applies to members who have not played yet; ``daily_amount`` 0
        turns the daily claim off; ``daily_cooldown`` is at least 0 seconds (whole seconds kept);
        ``dealer_role_id`` None clears the dealer role. Raises :class:`StoreError` for a negative
        amount or cooldown.
        """
        check_id(guild_id, "server")
        for name, value in (("starting chips", starting_chips), ("daily amount", daily_amount)):
            if value is not UNSET and (
                isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 10**12
            ):
                raise StoreError(f"The {name} must be a whole number of chips, zero or more.")
        if daily_cooldown is not UNSET and (
            not isinstance(daily_cooldown, timedelta) or daily_cooldown < timedelta(0)
        ):
            raise StoreError("The daily cooldown must be zero or more.")
        if isinstance(dealer_role_id, int):
            check_id(dealer_role_id, "role")
        async with self._transaction() as tx:
            current = await self._guild_settings(tx, guild_id)
            new = GuildSettings(
                guild_id=guild_id,
                starting_chips=current.starting_chips if starting_chips is UNSET else starting_chips,
                daily_amount=current.daily_amount if daily_amount is UNSET else daily_amount,
                daily_cooldown=current.daily_cooldown if daily_cooldown is UNSET else daily_cooldown,
                dealer_role_id=current.dealer_role_id if dealer_role_id is UNSET else dealer_role_id,
            )
            await tx.run(
                "INSERT INTO guild_settings (guild_id, starting_chips, daily_amount, daily_cooldown_s,"
                " dealer_role_id, updated) VALUES (?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET starting_chips = excluded.starting_chips,"
                " daily_amount = excluded.daily_amount, daily_cooldown_s = excluded.daily_cooldown_s,"
                " dealer_role_id = excluded.dealer_role_id, updated = excluded.updated",
                (
                    guild_id,
                    new.starting_chips,
                    new.daily_amount,
                    int(new.daily_cooldown.total_seconds()),
                    new.dealer_role_id,
                    tx.now,
                ),
            )
            return await self._guild_settings(tx, guild_id)

    # -- balances -------------------------------------------------------------------------------

    async def balance(self, guild_id: int, member_id: int) -> int:
        """The member's balance (chips not at a table). First use grants the starting chips."""
        check_id(guild_id, "server")
        check_id(member_id, "member")
        async with self._transaction() as tx:
            return await self._ensure_member(tx, guild_id, member_id)

    async def peek_balance(self, guild_id: int, member_id: int) -> int | None:
        """The member's balance, or None if they have no account yet (opens nothing)."""
        check_id(guild_id, "server")
        check_id(member_id, "member")
        async with self._transaction(write=False) as tx:
            return await self._balance(tx, guild_id, member_id)

    async def _replay(
        self, tx: Tx, guild_id: int, key: str, expected: dict[int, int], what: str
    ) -> Receipt | None:
        """If ``key`` was used already, return that movement's receipt (a retry) or refuse a key
        reused for a different movement; None if the key is new."""
        rows = await self._ledger_rows(tx, guild_id, key)
        if not rows:
            return None
        if {row.member_id: row.delta for row in rows} != expected:
            raise StoreError(f"This request was already used for a different {what}.")
        balances = {m: await self._balance(tx, guild_id, m) or 0 for m in expected}
        return Receipt(key, False, balances)

    async def transfer(
        self,
        guild_id: int,
        sender_id: int,
        recipient_id: int,
        amount: int,
        *,
        key: str | None = None,
        note: str | None = None,
    ) -> Receipt:
        """Move ``amount`` chips from the sender's balance to the recipient's.

        ``key`` makes the transfer idempotent: a retry with the same key (and the same details)
        returns a receipt with ``applied=False`` and moves nothing; the same key with different
        details is refused. Raises :class:`StoreError` for a zero/negative amount or a transfer to
        oneself, and :class:`InsufficientChips` if the sender's balance is short.
        """
        check_id(guild_id, "server")
        check_id(sender_id, "member")
        check_id(recipient_id, "member")
        check_amount(amount)
        if sender_id == recipient_id:
            raise StoreError("You can't give chips to yourself.")
        reason = "transfer" if note is None else check_text(note, "note", limit=200)
        stored_key = op_key("transfer", key)
        # Locking, not serializable (see bot.store.backend): the two balance rows are locked first,
        # in ascending member order in every transfer, so transfers between the same members (in
        # either direction, from any process) wait for each other instead of aborting each other.
        # Everything else it reads is decided under those locks (the key's ledger rows are those
        # of a transfer between the same two members; a missing balance row is inserted, and two
        # inserting at once is a unique violation, retried); the balances it writes are real
        # changes, so a serializable method that read them meanwhile must retry.
        async with self._transaction(locking=True) as tx:
            for member in sorted((sender_id, recipient_id)):
                await tx.lock_rows("balances", {"guild_id": guild_id, "member_id": member})
            expected = {sender_id: -amount, recipient_id: amount}
            replay = await self._replay(tx, guild_id, stored_key, expected, "transfer")
            if replay is not None:
                return replay
            available = await self._ensure_member(tx, guild_id, sender_id)
            if amount > available:
                raise _insufficient(available, amount, "give")
            await self._ensure_member(tx, guild_id, recipient_id)
            balances: dict[int, int] = {}
            for member, delta in sorted(((sender_id, -amount), (recipient_id, amount))):
                balances[member] = await self._move_balance(tx, guild_id, member, delta)
            for member, other, delta in (
                (sender_id, recipient_id, -amount),
                (recipient_id, sender_id, amount),
            ):
                await self._append_ledger(
                    tx,
                    guild_id,
                    member,
                    delta=delta,
                    kind="transfer",
                    reason=reason,
                    key=stored_key,
                    counterparty_id=other,
                    actor_id=sender_id,
                )
            return Receipt(stored_key, True, balances)

    async def grant(
        self,
        guild_id: int,
        member_id: int,
        amount: int,
        *,
        reason: str,
        by: int | None = None,
        key: str | None = None,
    ) -> Receipt:
        """An admin adds ``amount`` chips to a member's balance, with a reason (ledger kind ``grant``).

        ``by`` is the admin's member id (kept in the ledger). Idempotent on ``key`` like
        :meth:`transfer`. Raises :class:`StoreError` for a bad amount or an empty reason.
        """
        return await self._adjust(guild_id, member_id, amount, reason=reason, by=by, key=key, kind="grant")

    async def take(
        self,
        guild_id: int,
        member_id: int,
        amount: int,
        *,
        reason: str,
        by: int | None = None,
        key: str | None = None,
    ) -> Receipt:
        """An admin removes ``amount`` chips from a member's balance, with a reason (kind ``take``).

        Raises :class:`InsufficientChips` if the balance is short (chips at a table are not
        touched), :class:`StoreError` for a bad amount or an empty reason.
        """
        return await self._adjust(guild_id, member_id, amount, reason=reason, by=by, key=key, kind="take")

    async def _adjust(
        self,
        guild_id: int,
        member_id: int,
        amount: int,
        *,
        reason: str,
        by: int | None,
        key: str | None,
        kind: str,
    ) -> Receipt:
        check_id(guild_id, "server")
        check_id(member_id, "member")
        if by is not None:
            check_id(by, "member")
        check_amount(amount)
        reason = check_text(reason, "reason", limit=200)
        stored_key = op_key(kind, key)
        delta = amount if kind == "grant" else -amount
        async with self._transaction() as tx:
            replay = await self._replay(tx, guild_id, stored_key, {member_id: delta}, kind)
            if replay is not None:
                return replay
            available = await self._ensure_member(tx, guild_id, member_id)
            if available + delta < 0:
                raise InsufficientChips(
                    f"That member has {available:,} chips; you can't take {amount:,}.",
                    available=available,
                    requested=amount,
                )
            balance = await self._move_balance(tx, guild_id, member_id, delta)
            await self._append_ledger(
                tx, guild_id, member_id, delta=delta, kind=kind, reason=reason, key=stored_key, actor_id=by
            )
            return Receipt(stored_key, True, {member_id: balance})

    async def claim_daily(self, guild_id: int, member_id: int) -> Receipt:
        """The member claims the guild's daily chips (ledger kind ``daily``).

        Raises :class:`StoreError` if the guild has the daily claim off (the default), and
        :class:`DailyNotReady` (with ``next_claim``) if the member claimed less than the guild's
        cooldown ago. The time comes from the store's clock.
        """
        check_id(guild_id, "server")
        check_id(member_id, "member")
        async with self._transaction() as tx:
            settings = await self._guild_settings(tx, guild_id)
            if not settings.daily_enabled:
                raise StoreError("Daily chips are off in this server.")
            await self._ensure_member(tx, guild_id, member_id)
            last = await tx.value(
                "SELECT last_daily FROM balances WHERE guild_id = ? AND member_id = ?", (guild_id, member_id)
            )
            if last is not None:
                next_claim = parse_time(last) + settings.daily_cooldown
                if tx.now_dt < next_claim:
                    raise DailyNotReady(
                        f"Your next daily chips are ready at {format_time(next_claim)[:16].replace('T', ' ')}"
                        " UTC.",
                        next_claim=next_claim,
                    )
            claims = await tx.value(
                "SELECT COUNT(*) FROM ledger WHERE guild_id = ? AND member_id = ? AND kind = 'daily'",
                (guild_id, member_id),
            )
            stored_key = f"daily:{int(claims) + 1}"
            balance = await self._move_balance(tx, guild_id, member_id, settings.daily_amount)
            await self._append_ledger(
                tx,
                guild_id,
                member_id,
                delta=settings.daily_amount,
                kind="daily",
                reason="daily chips",
                key=stored_key,
            )
            await tx.run(
                "UPDATE balances SET last_daily = ? WHERE guild_id = ? AND member_id = ?",
                (tx.now, guild_id, member_id),
            )
            return Receipt(stored_key, True, {member_id: balance})

    # -- reading --------------------------------------------------------------------------------

    async def leaderboard(self, guild_id: int, *, limit: int = 10) -> list[LeaderboardRow]:
        """The guild's members by balance plus chips in play at its open tables, richest first
        (ties by member id). Only members with an account are listed."""
        check_id(guild_id, "server")
        if limit < 1:
            raise StoreError("The leaderboard needs at least one row.")
        async with self._transaction(write=False) as tx:
            rows = await tx.all(
                "SELECT member_id, chips, in_play FROM (SELECT b.member_id, b.chips, COALESCE(("
                "  SELECT SUM(s.stack) FROM seats s JOIN tables t ON t.id = s.table_id"
                "  WHERE t.guild_id = b.guild_id AND s.member_id = b.member_id AND t.status = 'open'"
                "  AND NOT EXISTS (SELECT 1 FROM tournaments tt WHERE tt.table_id = t.id)"
                "), 0) AS in_play"
                " FROM balances b WHERE b.guild_id = ?) AS board"
                " ORDER BY chips + in_play DESC, member_id LIMIT ?",
                (guild_id, limit),
            )
        return [LeaderboardRow(member_id=r[0], balance=r[1], in_play=r[2]) for r in rows]

    async def member_ledger(self, guild_id: int, member_id: int, *, limit: int = 20) -> list[LedgerEntry]:
        """The member's ledger rows in this guild, most recent first, at most ``limit``."""
        check_id(guild_id, "server")
        check_id(member_id, "member")
        async with self._transaction(write=False) as tx:
            rows = await tx.all(
                f"SELECT {LEDGER_COLUMNS} FROM ledger WHERE guild_id = ? AND member_id = ?"
                " ORDER BY id DESC LIMIT ?",
                (guild_id, member_id, limit),
            )
        return [ledger_entry(row) for row in rows]

    async def guild_ledger(
        self,
        guild_id: int,
        *,
        member_id: int | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
    ) -> list[LedgerEntry]:
        """The guild's ledger, oldest first; optionally one member's and/or rows in ``[since, until)``."""
        check_id(guild_id, "server")
        clauses = ["guild_id = ?"]
        params: list[object] = [guild_id]
        if member_id is not None:
            clauses.append("member_id = ?")
            params.append(check_id(member_id, "member"))
        if since is not None:
            clauses.append("created >= ?")
            params.append(format_time(since))
        if until is not None:
            clauses.append("created < ?")
            params.append(format_time(until))
        async with self._transaction(write=False) as tx:
            rows = await tx.all(
                f"SELECT {LEDGER_COLUMNS} FROM ledger WHERE {' AND '.join(clauses)} ORDER BY id", params
            )
        return [ledger_entry(row) for row in rows]

    async def guild_ids(self) -> list[int]:
        """Every guild that has settings, an account or a table, ascending."""
        async with self._transaction(write=False) as tx:
            rows = await tx.all(
                "SELECT guild_id FROM guild_settings UNION SELECT guild_id FROM balances"
                " UNION SELECT guild_id FROM tables UNION SELECT guild_id FROM ledger ORDER BY 1"
            )
        return [row[0] for row in rows]
