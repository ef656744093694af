"""The table service: seats, hands, actions, timers, persistence and notices (issue 5; DESIGN "Layers").

Every front end (Discord cogs, the terminal) calls a ``TableService``. It owns one ``Table`` per
(guild, channel), applies changes one at a time under that table's ``asyncio.Lock`` (commands,
button clicks and timers share it), stores every action before anyone hears of it, and tells the
front end what happened through a ``Presenter`` (``bot.tables.notices``). It never imports Discord.

Driving it::

    service = TableService(store, presenter, clock=LoopClock())
    await service.start()                      # load open tables, resume unfinished hands
    key = TableKey(guild_id, channel_id)
    await service.create_table(key, dealer=alice, stakes=PRESETS["small"])
    await service.join(key, alice, "Alice", buy_in=1000)
    await service.join(key, bob, "Bob")
    await service.deal(key, alice)             # -> prompts the first player
    await service.act(key, bob, prompt.hand_id, prompt.turn, "call")

Refusals raise ``TableError`` (an ``IllegalAction``) with a reason for the player; nothing changes.

Rules implemented here: SPEC §2 (the deal rotates one seat per hand, dealing starts left of the
button; players without chips or sitting out are not dealt in), SPEC §7 (timer: reminder, then
check-else-fold with the bring-in posted; a player who times out is marked away and sits out from the
next hand; leaving mid-hand folds at that seat's turn), SPEC §8 (rulings and stakes changed by the
dealer take effect from the next deal, are announced before it and recorded with each hand), the
fair-deal commitment of DESIGN "Fairness", and the dealer's misdeal ruling (``void_hand``: the hand
in progress is void, every chip goes back to where it was before it, and the next deal keeps the
button, as a misdeal is re-dealt by the same dealer).
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import Awaitable, Sequence
from dataclasses import replace
from functools import partial
from typing import Any

from bot.engine.betting import LegalActions
from bot.engine.cards import Card, Deck
from bot.engine.errors import IllegalAction
from bot.engine.events import StreetStarted
from bot.engine.hand import StudHand
from bot.engine.phh import export_phh
from bot.engine.rulings import Rulings
from bot.engine.stakes import PRESETS, TableStakes
from bot.render.cards import chips, street_name
from bot.render.narrate import Line, Narrator
from bot.render.private import best_now, private_text
from bot.render.settings import rulings_changes, stakes_change, stakes_line
from bot.render.table import SeatView, TableView, format_table
from bot.render.wilds import wild_list
from bot.store import Store, StoreError
from bot.store.records import HandRecord, TableRecord
from bot.tables.clock import Clock, LoopClock
from bot.tables.codec import decode_action, decode_seats, encode_action, encode_seats
from bot.tables.errors import NoTable, NotDealer, StaleAction, TableError
from bot.tables.fairness import DealCommitment
from bot.tables.leases import TableLeases
from bot.tables.notices import (
    ActionOption,
    NoticeKind,
    Presenter,
    PrivateNotice,
    Prompt,
    PublicNotice,
    Reply,
    ShowdownNotice,
    TableKey,
    Undeliverable,
)
from bot.tables.options import TableOptions
from bot.tables.state import LiveHand, SeatState, Table

log = logging.getLogger(__name__)

MAX_SEATS = 8

DEFAULT_VOID_REASON = "voided by the dealer"
"""The reason ``TableService.void_hand`` records when the dealer gives none."""

MAX_VOID_REASON = 200
"""The longest reason (in characters) a dealer may give for voiding a hand."""

PLAYER_ACTIONS = frozenset({
    "fold", "check", "call", "check_or_call", "bring_in", "complete", "bet", "raise", "all_in",
    "show", "muck",
})
"""What a player may send to ``TableService.act`` (``all-in``, ``All In`` and ``allin`` also mean
``all_in``)."""


def _action_name(action: str) -> str:
    """``action`` as the engine spells it: ``All-in`` -> ``all_in``."""
    name = action.strip().lower().replace("-", "_").replace(" ", "_")
    return "all_in" if name == "allin" else name


class TableService:
    """All tables of one process (see the module docstring).

    ``store``: an open ``bot.store.Store``. ``presenter``: the front end. ``clock``: schedules the
    timers (``FakeClock`` in tests). ``rng``: shuffles decks and makes salts; the default is the OS
    CSPRNG (``secrets.SystemRandom``) -- pass a seeded ``random.Random`` only for reproducible demos
    and tests. ``default_options``: timers and dealing for new tables.
    """

    def __init__(
        self,
        store: Store,
        presenter: Presenter,
        *,
        clock: Clock | None = None,
        rng: random.Random | None = None,
        default_options: TableOptions | None = None,
        leases: TableLeases | None = None,
    ) -> None:
        self.store = store
        self.leases = leases
        """With several processes on one database: the tables this one may drive (else None)."""
        self.presenter = presenter
        self.clock: Clock = clock if clock is not None else LoopClock()
        self.rng: random.Random = rng if rng is not None else secrets.SystemRandom()
        self.default_options = default_options or TableOptions()
        self._tables: dict[TableKey, Table] = {}
        self._create_lock = asyncio.Lock()

    # ==================================================================== start-up and lookup
    async def start(self) -> list[TableKey]:
        """Load every open table from the store and resume its unfinished hand, if any.

        A hand is resumed by replaying its stored actions through the engine from its stored deck;
        the player to act is prompted again and timers are re-armed. A hand that cannot be replayed
        (or whose deck does not match its commitment) is voided through the store, which gives every
        chip back, and the channel is told. Then, at each table with no hand in progress, seats that
        asked to leave during the last hand are cashed out and an automatic deal is scheduled again
        (``TableOptions.auto_deal_after``). Returns the keys of the tables loaded.
        """
        await self.adopt()
        return list(self._tables)

    async def adopt(self) -> list[TableKey]:
        """Load the open tables not loaded yet, as :meth:`start` describes; with ``leases``, only
        those of this process's shards whose lease it holds or can take. Returns their keys."""
        new: list[Table] = []
        for record in await self.store.open_tables():
            key = TableKey(record.guild_id, record.channel_id)
            if key in self._tables:
                continue
            if self.leases is not None and not (
                self.leases.serves(record.guild_id) and await self.leases.claim(record.id)
            ):
                continue
            loaded = await self._load_table(record)
            self._tables[key] = loaded
            new.append(loaded)
        if not new:
            return []
        by_id = {t.table_id: t for t in new}
        for hand in await self.store.list_unfinished_hands():
            table = by_id.get(hand.table_id)
            if table is None:
                continue
            async with table.lock:
                await self._resume(table, hand)
        for table in new:
            async with table.lock:
                await self._finish_leaving(table)
                self._maybe_schedule_auto_deal(table)     # a table that deals by itself goes on
        return [t.key for t in new]

    async def drop(self, table_id: int) -> None:
        """Stop driving a table whose lease another process took: cancel its timers and forget it
        (after any operation holding its lock has finished)."""
        for key, table in list(self._tables.items()):
            if table.table_id == table_id:
                async with table.lock:
                    table.cancel_timers()
                    if table.auto_deal is not None:
                        table.auto_deal.cancel()
                        table.auto_deal = None
                    self._tables.pop(key, None)

    async def close(self) -> None:
        """Cancel every timer (call before closing the store)."""
        for table in self._tables.values():
            table.cancel_timers()
            if table.auto_deal is not None:
                table.auto_deal.cancel()
                table.auto_deal = None

    def tables(self) -> list[TableKey]:
        """The keys of the open tables this service knows."""
        return list(self._tables)

    def table(self, key: TableKey) -> Table:
        """The table at ``key`` (read it; change it only through the service). Raises ``NoTable``."""
        table = self._tables.get(key)
        if table is None:
            if self.leases is not None and self.leases.elsewhere:
                raise NoTable(
                    "There is no table here that this Wildstud process deals. If one is open, another"
                    " process is dealing it (a restart in progress?): try again in a moment."
                )
            raise NoTable("There is no table in this channel. The dealer can open one with /table create.")
        return table

    def has_table(self, key: TableKey) -> bool:
        """Whether ``key`` has an open table."""
        return key in self._tables

    async def _load_table(self, record: TableRecord) -> Table:
        settings = dict(record.settings)
        names = {int(k): str(v) for k, v in dict(settings.get("names", {})).items()}
        table = Table(
            key=TableKey(record.guild_id, record.channel_id),
            table_id=record.id,
            dealer=record.dealer_id,
            stakes=TableStakes.from_dict(record.stakes) if record.stakes else PRESETS["small"],
            rulings=Rulings.from_dict(record.rulings),
            options=TableOptions.from_dict(settings),
            names=names,
            max_seats=int(settings.get("max_seats", MAX_SEATS)),
        )
        if settings.get("pending_stakes"):
            table.pending_stakes = TableStakes.from_dict(settings["pending_stakes"])
        if settings.get("pending_rulings"):
            table.pending_rulings = Rulings.from_dict(settings["pending_rulings"])
        leaving = {int(m) for m in settings.get("leaving", ())}
        for seat in await self.store.seats(record.id):
            table.seats[seat.seat_no] = SeatState(
                seat.seat_no, seat.member_id, table.name(seat.member_id), seat.stack, seat.status,
                leaving=seat.member_id in leaving,
            )
        recent = await self.store.table_hands(record.id, limit=5)
        if recent:
            table.hands_dealt = recent[0].hand_no
        for hand in recent:
            # The button of the last hand actually dealt; if that hand was voided (a misdeal), the
            # next deal keeps it. A hand voided before its deal order was stored never had one.
            if not hand.actions:
                continue
            try:
                table.button = decode_seats(hand.actions[0])[-1]
            except ValueError:
                table.button = None
            table.redeal = hand.status == "voided"
            break
        return table

    # ==================================================================== tables
    async def create_table(
        self,
        key: TableKey,
        dealer: int,
        *,
        stakes: TableStakes | None = None,
        rulings: Rulings | None = None,
        options: TableOptions | None = None,
        max_seats: int = MAX_SEATS,
    ) -> Table:
        """Open a table in a channel with ``dealer`` (its creator) as the dealer; at most
        ``max_seats`` (2..8) players may sit at it.

        Raises ``TableError`` if the channel already has one (or the store refuses).
        """
        if isinstance(max_seats, bool) or not isinstance(max_seats, int) or not 2 <= max_seats <= MAX_SEATS:
            raise TableError(f"A table has 2 to {MAX_SEATS} seats.")
        async with self._create_lock:
            if key in self._tables:
                raise TableError("This channel already has a table.")
            stakes = stakes or PRESETS["small"]
            rulings = rulings or Rulings()
            options = options or self.default_options
            try:
                record = await self.store.create_table(
                    key.guild, key.channel, dealer,
                    stakes=stakes.to_dict(), rulings=rulings.to_dict(),
                    settings={**options.to_dict(), "max_seats": max_seats},
                )
            except StoreError as exc:
                raise TableError(exc.reason) from None
            table = Table(key, record.id, dealer, stakes, rulings, options, max_seats=max_seats)
            if self.leases is not None:
                await self.leases.claim(record.id)  # a new table: nobody else holds it
            self._tables[key] = table
        await self._post(table, NoticeKind.INFO, f"Table open: {stakes_line(stakes)}.")
        return table

    async def close_table(self, key: TableKey, member: int, *, dealer_rights: bool = False) -> dict[int, int]:
        """Close the table between hands: every stack goes back to its owner's balance.

        Returns the chips returned per member. Raises ``NotDealer`` or ``TableError`` (a hand is on).
        """
        table = self.table(key)
        async with table.lock:
            self._check_dealer(table, member, dealer_rights)
            if table.hand is not None:
                raise TableError(
                    "A hand is in progress; close the table when it ends, or void it first"
                    " (/hand void: every chip goes back)."
                )
            try:
                returned = await self.store.close_table(key.guild, table.table_id)
            except StoreError as exc:
                raise TableError(exc.reason) from None
            table.cancel_timers()
            if table.auto_deal is not None:
                table.auto_deal.cancel()
            del self._tables[key]
        text = "Table closed." + "".join(
            f" {table.name(m)} gets {chips(c)} back." for m, c in returned.items()
        )
        await self._post(table, NoticeKind.SEATING, text)
        return returned

    # ==================================================================== seats
    async def join(
        self, key: TableKey, member: int, name: str, *, buy_in: int | None = None, seat_no: int | None = None
    ) -> SeatState:
        """Seat ``member`` (shown as ``name``) with ``buy_in`` chips from their balance.

        The default buy-in is the most the balance and the table's maximum allow. Joining during a
        hand is fine: the new seat is dealt in from the next hand. Raises ``TableError`` (full
        table, already seated, outside the buy-in limits, balance too small...).
        """
        table = self.table(key)
        async with table.lock:
            if table.seat_of(member) is not None:
                raise TableError("You already have a seat at this table.")
            name = " ".join(name.split())[:32] or f"player {member}"
            stakes = table.stakes
            if buy_in is None:
                balance = await self.store.balance(key.guild, member)
                buy_in = min(balance, stakes.max_buy_in)
                if buy_in < stakes.min_buy_in:
                    raise TableError(
                        f"The minimum buy-in here is {chips(stakes.min_buy_in)} chips;"
                        f" you have {chips(balance)}."
                    )
            try:
                receipt = await self.store.buy_in(
                    key.guild, table.table_id, member, buy_in, seat_no=seat_no, max_seats=table.max_seats
                )
            except StoreError as exc:
                raise TableError(exc.reason) from None
            assert receipt.seat is not None
            table.names[member] = name
            await self._save_settings(table)
            seat = SeatState(receipt.seat.seat_no, member, name, receipt.seat.stack, receipt.seat.status)
            table.seats[seat.seat_no] = seat
            when = " from the next hand" if table.hand is not None else ""
            await self._post(
                table, NoticeKind.SEATING,
                f"{name} sits down in seat {seat.seat_no} with {chips(seat.stack)} chips{when}.",
            )
            if table.hand is None:
                await self._post_table(table)
                self._maybe_schedule_auto_deal(table)
            return seat

    async def leave(self, key: TableKey, member: int) -> str:
        """Leave the table. Between hands (or if not dealt in) the stack goes back to the balance now;
        during a hand the seat is folded at its turn (chips already in stay in the pot) and cashed
        out when the hand ends (SPEC §7). Returns what happened, for the player."""
        table = self.table(key)
        async with table.lock:
            seat = self._seat(table, member)
            live = table.hand
            engine_seat = live.seat_of(member) if live is not None else None
            if live is None or engine_seat is None:
                return await self._cash_out(table, seat)
            if seat.leaving:       # said once in the channel is enough
                return "You are already leaving: your chips go back to your balance when this hand ends."
            seat.leaving = True
            try:
                await self._save_settings(table)   # a leave survives a restart (SPEC §7)
            except TableError:
                seat.leaving = False
                raise
            engine = live.engine
            if not engine.folded(engine_seat) and engine.actor == engine_seat:
                await self._post(table, NoticeKind.SEATING, f"{seat.name} is leaving the table.")
                await self._auto_fold(table, engine_seat)
                return "You fold and leave; your chips go back to your balance when this hand ends."
            await self._post(table, NoticeKind.SEATING, f"{seat.name} will leave when this hand ends.")
            if engine.folded(engine_seat) or engine.is_all_in(engine_seat):
                return "You leave when this hand ends; your chips then go back to your balance."
            return "You will fold at your turn and leave; your chips go back to your balance after the hand."

    async def sit_out(self, key: TableKey, member: int) -> str:
        """Sit out from the next hand on (a hand in progress is played out). Returns a confirmation."""
        table = self.table(key)
        async with table.lock:
            seat = self._seat(table, member)
            if seat.status == "sitting_out":       # said once in the channel is enough
                return "You are already sitting out. Use back to play again."
            await self._set_status(table, seat, "sitting_out")
            await self._post(table, NoticeKind.SEATING, f"{seat.name} sits out.")
            return "You are sitting out from the next hand. Use back to play again."

    async def back(self, key: TableKey, member: int) -> str:
        """Come back after sitting out or being marked away: dealt in from the next hand. During a
        hand it also takes back a ``leave``: the seat stays (if it was already folded for leaving,
        it stays folded in this hand)."""
        table = self.table(key)
        async with table.lock:
            seat = self._seat(table, member)
            stays = seat.leaving
            if seat.status == "active" and not stays:
                return "You are already playing."
            if stays:
                seat.leaving = False
                try:
                    await self._save_settings(table)
                except TableError:
                    seat.leaving = True
                    raise
            if seat.status != "active":
                await self._set_status(table, seat, "active")
                await self._post(table, NoticeKind.SEATING, f"{seat.name} is back.")
            else:
                await self._post(table, NoticeKind.SEATING, f"{seat.name} stays at the table.")
            if table.hand is None:
                self._maybe_schedule_auto_deal(table)
            if stays and seat.status == "active" and table.hand is not None:
                return "You stay at the table (you play on if you have not folded yet)."
            return "Welcome back: you are dealt in from the next hand."

    async def top_up(self, key: TableKey, member: int, amount: int) -> SeatState:
        """Add chips from the balance to the seat, between hands (or when not dealt in)."""
        table = self.table(key)
        async with table.lock:
            seat = self._seat(table, member)
            try:
                receipt = await self.store.top_up(key.guild, table.table_id, member, amount)
            except StoreError as exc:
                raise TableError(exc.reason) from None
            assert receipt.seat is not None
            seat.stack = receipt.seat.stack
            await self._post(
                table, NoticeKind.SEATING, f"{seat.name} adds {chips(amount)}: stack {chips(seat.stack)}."
            )
            if table.hand is None:
                self._maybe_schedule_auto_deal(table)
            return seat

    # ==================================================================== settings
    async def set_ruling(
        self, key: TableKey, member: int, name: str, value: str, *, dealer_rights: bool = False
    ) -> str:
        """Queue one ruling change for the next deal (SPEC §8). Returns the confirmation line.

        Raises ``NotDealer``; an unknown ruling or option raises ``TableError`` listing valid ones.
        """
        table = self.table(key)
        async with table.lock:
            self._check_dealer(table, member, dealer_rights)
            base = table.pending_rulings or table.rulings
            try:
                new = base.with_ruling(name, value)
            except ValueError as exc:
                raise TableError(str(exc)) from None
            table.pending_rulings = None if new == table.rulings else new
            await self._save_settings(table)
            change = rulings_changes(table.rulings, new) or "No change from the rulings in force."
            return f"{change}\nTakes effect from the next deal."

    async def reset_rulings(self, key: TableKey, member: int, *, dealer_rights: bool = False) -> str:
        """Queue a return to the default rulings for the next deal."""
        table = self.table(key)
        async with table.lock:
            self._check_dealer(table, member, dealer_rights)
            default = Rulings()
            table.pending_rulings = None if default == table.rulings else default
            await self._save_settings(table)
            change = rulings_changes(table.rulings, default) or "The rulings are already the defaults."
            return f"{change}\nTakes effect from the next deal."

    async def set_stakes(
        self, key: TableKey, member: int, stakes: TableStakes, *, dealer_rights: bool = False
    ) -> str:
        """Queue new stakes for the next deal (SPEC §8). Returns the confirmation line."""
        table = self.table(key)
        async with table.lock:
            self._check_dealer(table, member, dealer_rights)
            table.pending_stakes = None if stakes == table.stakes else stakes
            await self._save_settings(table)
            change = stakes_change(table.stakes, stakes) or "No change from the stakes in force."
            return f"{change}\nTakes effect from the next deal."

    async def set_options(
        self, key: TableKey, member: int, *, dealer_rights: bool = False, **changes: Any
    ) -> TableOptions:
        """Change timers or auto-deal (``TableOptions`` fields); takes effect from the next prompt,
        except that a turn waiting with no timer at all gets the new timer at once (otherwise a
        no-timer table whose player to act has gone away could never move on)."""
        table = self.table(key)
        async with table.lock:
            self._check_dealer(table, member, dealer_rights)
            try:
                table.options = replace(table.options, **changes)
            except (TypeError, ValueError) as exc:
                raise TableError(str(exc)) from None
            await self._save_settings(table)
            live = table.hand
            if live is not None and live.deadline is None and live.engine.actor is not None:
                self._arm_timers(table, live.hand_id, live.turn)
            return table.options

    # ==================================================================== dealing
    async def deal(self, key: TableKey, member: int | None = None, *, dealer_rights: bool = False) -> int:
        """Deal the next hand; returns its hand id. ``member`` None means the table itself (auto-deal).

        Applies and announces queued stakes/rulings first, moves the button one seat, shuffles with
        the service's rng, announces the deck commitment before the first card, then posts the
        antes and third street, sends each player their cards and prompts the first to act.
        Raises ``NotDealer``, or ``TableError`` with the reason when fewer than two players can play.
        """
        table = self.table(key)
        async with table.lock:
            if member is not None:
                self._check_dealer(table, member, dealer_rights)
            return await self._deal(table)

    async def _deal(self, table: Table) -> int:
        if table.hand is not None:
            raise TableError(f"Hand #{table.hand.hand_no} is still being played.")
        if table.auto_deal is not None:
            table.auto_deal.cancel()
            table.auto_deal = None
        ready = [s for _, s in sorted(table.seats.items()) if s.ready]
        if len(ready) < 2:
            reason = self._no_deal_reason(table, ready)
            await self._post(table, NoticeKind.NO_DEAL, reason)
            raise TableError(reason)
        await self._apply_pending(table)
        numbers = [s.seat_no for s in ready]
        button = _coming_button(table, numbers)
        at = numbers.index(button)
        order = numbers[at + 1 :] + numbers[: at + 1]
        seats = [table.seats[n] for n in order]
        deal = DealCommitment.shuffle(self.rng)
        try:
            hand_id = await self.store.create_hand(
                table.table_id,
                players={s.seat_no: s.member for s in seats},
                deck=[c.code for c in deal.order],
                commitment=deal.digest,
                salt=deal.salt,
                stakes=table.stakes.to_dict(),
                rulings=table.rulings.to_dict(),
            )
        except StoreError as exc:
            raise TableError(exc.reason) from None
        try:
            await self.store.append_action(hand_id, 1, encode_seats(tuple(order)))
        except StoreError as exc:
            await self.store.void_hand(hand_id, "the deal order could not be recorded")
            raise TableError(f"The deal could not be recorded: {exc.reason}") from None
        table.button = button
        table.redeal = False
        table.hands_dealt += 1
        names = tuple(s.name for s in seats)
        engine = StudHand([s.stack for s in seats], table.stakes, table.rulings, Deck.from_order(deal.order))
        live = LiveHand(
            hand_id=hand_id,
            hand_no=table.hands_dealt,
            engine=engine,
            deal=deal,
            seat_nos=tuple(order),
            members=tuple(s.member for s in seats),
            names=names,
            stakes=table.stakes,
            rulings=table.rulings,
            narrator=Narrator(names, showing_hand=table.rulings.showing_hand),
            actions=[encode_seats(tuple(order))],
        )
        table.hand = live
        await self._post(
            table, NoticeKind.HAND_START,
            f"Hand #{live.hand_no}: {names[-1]} deals to {_join(names)}."
            f" {table.stakes.describe().capitalize()}."
            f"\nDeck commitment: {deal.digest} (SHA-256 of the deck and a salt, shown after the hand)",
            hand_id,
        )
        await self._after_change(table, street_dealt=True)
        return hand_id

    def _no_deal_reason(self, table: Table, ready: Sequence[SeatState]) -> str:
        others: list[str] = []
        for seat in sorted(table.seats.values(), key=lambda s: s.seat_no):
            if seat.ready:
                continue
            if seat.leaving:
                others.append(f"{seat.name} is leaving")
            elif seat.status == "sitting_out":
                others.append(f"{seat.name} is sitting out")
            elif seat.status == "away":
                others.append(f"{seat.name} is away")
            elif seat.stack <= 0:
                others.append(f"{seat.name} has no chips")
        who = "nobody is" if not ready else f"only {ready[0].name} is"
        text = f"No deal: two players with chips are needed and {who} ready"
        if others:
            text += " (" + "; ".join(others) + ")"
        return text + "."

    async def _apply_pending(self, table: Table) -> None:
        lines: list[str] = []
        stakes, rulings = table.stakes, table.rulings
        if table.pending_stakes is not None and table.pending_stakes != stakes:
            lines.append(stakes_change(stakes, table.pending_stakes))
            stakes = table.pending_stakes
        if table.pending_rulings is not None and table.pending_rulings != rulings:
            lines.append(rulings_changes(rulings, table.pending_rulings))
            rulings = table.pending_rulings
        table.pending_stakes = None
        table.pending_rulings = None
        if not lines:
            return
        try:
            await self.store.update_table(
                table.key.guild, table.table_id, stakes=stakes.to_dict(), rulings=rulings.to_dict(),
                settings=self._settings(table),
            )
        except StoreError as exc:
            raise TableError(exc.reason) from None
        table.stakes, table.rulings = stakes, rulings
        await self._post(table, NoticeKind.SETTINGS, "New for this deal:\n" + "\n".join(lines))

    # ==================================================================== actions
    async def act(
        self,
        key: TableKey,
        member: int,
        hand_id: int,
        turn: int,
        action: str,
        amount: int | None = None,
    ) -> None:
        """Apply ``member``'s ``action`` (``fold check call bring_in complete bet raise all_in``;
        ``bet``/``raise`` with ``amount``, the street total "to").

        ``hand_id`` and ``turn`` are those of the prompt the player answers: an action meant for
        another hand or an earlier turn is refused with ``StaleAction`` and changes nothing, as is
        anything the engine refuses (``IllegalAction``). The action is stored before any notice.
        ``timeout`` is not a player's action (only the table's timer and a leaving seat use it),
        and neither is anything else outside ``PLAYER_ACTIONS``: ``TableError``.
        """
        if _action_name(action) not in PLAYER_ACTIONS:
            raise TableError(
                f"{action!r} is not an action: use fold, check, call, bring in, complete, bet, raise, "
                "all-in, show or muck."
            )
        table = self.table(key)
        async with table.lock:
            seat = self.check_turn(key, member, hand_id, turn)
            await self._apply(table, seat, action, amount)

    def check_turn(
        self, key: TableKey, member: int, hand_id: int, turn: int, *, table_id: int | None = None
    ) -> int:
        """The engine seat of ``member`` if a move for ``hand_id`` / ``turn`` is theirs to make now.

        Only reads, so a front end may call it before deferring an interaction; ``act`` calls it
        again under the table lock, so a move that passes here and then loses a race is still
        refused. ``table_id`` (from a button) must be the channel's current table. Raises
        ``StaleAction`` for another table, another hand or an earlier turn, ``TableError`` for a
        member not in the hand or not to act, ``NoTable`` if the channel has no table.
        """
        table = self.table(key)
        if table_id is not None and table.table_id != table_id:
            raise StaleAction("That button belongs to a table that has been closed.")
        live = table.hand
        if live is None or live.hand_id != hand_id:
            raise StaleAction("That hand is over.")
        if turn != live.turn:
            raise StaleAction("That was for an earlier turn; the hand has moved on.")
        seat = live.seat_of(member)
        if seat is None:
            raise TableError("You are not in this hand.")
        actor = live.engine.actor
        if actor != seat:
            who = "nobody" if actor is None else live.names[actor]
            raise TableError(f"It is not your turn: {who} is to act.")
        return seat

    async def _apply(self, table: Table, seat: int, action: str, amount: int | None) -> None:
        """Validate, store, then apply one command for engine ``seat``; then tell everyone."""
        live = table.hand
        assert live is not None
        engine = live.engine
        name = _action_name(action)
        if name not in ("bet", "raise", "complete"):
            amount = None
        engine.verify(seat, name, amount)  # IllegalAction: nothing changed
        text = encode_action(seat, name, amount)
        try:
            await self.store.append_action(live.hand_id, live.turn, text)
        except StoreError as exc:
            raise TableError(f"Your action could not be recorded, so it did not happen: {exc.reason}") \
                from None
        engine.act(seat, name, amount)
        live.actions.append(text)
        table.cancel_timers()
        live.deadline = None
        table.last_prompt = None
        await self._after_change(table)

    async def _auto_fold(self, table: Table, seat: int) -> None:
        """Fold a leaving seat at its turn (or post the bring-in it owes: it may not fold)."""
        live = table.hand
        assert live is not None
        action = "fold" if live.engine.legal_actions(seat).fold else "timeout"
        await self._apply(table, seat, action, None)

    async def _after_change(self, table: Table, *, street_dealt: bool = False) -> None:
        """Narrate new events, then finish the hand or move to the next turn."""
        live = table.hand
        assert live is not None
        engine = live.engine
        events = engine.events_since(live.narrated)
        live.narrated += len(events)
        street_dealt = street_dealt or any(isinstance(e, StreetStarted) for e in events)
        showdown = await self._tell(table, live.narrator.lines(events))
        if engine.is_over:
            await self._finish(table, showdown)
            return
        await self._post_table(table)
        if street_dealt:
            await self._send_private(table)
        await self._next_turn(table)

    async def _tell(self, table: Table, lines: Sequence[Line]) -> list[str]:
        """Post the hand's new log lines; the showdown's lines are held back and returned, to go out
        as one showdown notice once the hand is settled."""
        live = table.hand
        assert live is not None
        showdown: list[str] = []
        in_showdown = False
        for line in lines:
            if line.kind == "result" and line.text == "Showdown":
                in_showdown = True
                continue
            if in_showdown and line.kind == "result":
                showdown.append(line.text)
                continue
            await self._post(table, NoticeKind(line.kind), line.text, live.hand_id)
        return showdown

    async def _next_turn(self, table: Table) -> None:
        live = table.hand
        assert live is not None
        seat = live.engine.actor
        if seat is None:
            return
        table_seat = table.seats.get(live.seat_nos[seat])
        if table_seat is not None and table_seat.leaving:
            await self._auto_fold(table, seat)
            return
        self._arm_timers(table, live.hand_id, live.turn)
        prompt = self._prompt(table, live, seat)
        table.last_prompt = prompt
        await self._say(self.presenter.prompt(table.key, prompt))

    # ==================================================================== timers
    def _arm_timers(self, table: Table, hand_id: int, turn: int) -> None:
        table.cancel_timers()
        options = table.options
        if table.hand is not None:
            table.hand.deadline = None
        if options.turn_timeout is None:
            return
        if table.hand is not None:
            table.hand.deadline = self.clock.now() + options.turn_timeout
        remind = options.reminder_after
        if remind is not None and remind < options.turn_timeout:
            reminder = partial(self._remind, table.key, hand_id, turn)
            table.timers.append(self.clock.call_later(remind, reminder))
        table.timers.append(
            self.clock.call_later(options.turn_timeout, partial(self._expire, table.key, hand_id, turn))
        )

    def _current(self, key: TableKey, hand_id: int, turn: int) -> tuple[Table, LiveHand] | None:
        table = self._tables.get(key)
        if table is None or table.hand is None:
            return None
        if table.hand.hand_id != hand_id or table.hand.turn != turn or table.hand.engine.actor is None:
            return None
        return table, table.hand

    async def _remind(self, key: TableKey, hand_id: int, turn: int) -> None:
        table = self._tables.get(key)
        if table is None:
            return
        async with table.lock:
            found = self._current(key, hand_id, turn)
            if found is None:
                return
            _, live = found
            seat = live.engine.actor
            assert seat is not None
            prompt = replace(self._prompt(table, live, seat), reminder=True)
            table.last_prompt = prompt
            await self._say(self.presenter.prompt(key, prompt))

    async def _expire(self, key: TableKey, hand_id: int, turn: int) -> None:
        table = self._tables.get(key)
        if table is None:
            return
        async with table.lock:
            found = self._current(key, hand_id, turn)
            if found is None:
                return
            _, live = found
            seat = live.engine.actor
            assert seat is not None
            member = live.members[seat]
            live.timed_out.add(seat)
            table_seat = table.seat_of(member)
            if table_seat is not None and table_seat.status == "active":
                try:
                    await self._set_status(table, table_seat, "away")
                except TableError:
                    log.exception("could not mark a seat away")
                await self._say(self.presenter.reply(key, Reply(
                    member,
                    "You ran out of time, so the dealer acted for you (check if possible, else fold). "
                    "You are marked away and sit out from the next hand; use back to play again.",
                )))
                await self._post(table, NoticeKind.SEATING, f"{live.names[seat]} is away (out of time).")
            await self._apply(table, seat, "timeout", None)

    def _maybe_schedule_auto_deal(self, table: Table) -> None:
        delay = table.options.auto_deal_after
        if delay is None or table.hand is not None or table.auto_deal is not None:
            return
        if sum(1 for s in table.seats.values() if s.ready) < 2:
            return
        table.auto_deal = self.clock.call_later(delay, partial(self._auto_deal, table.key))

    async def _auto_deal(self, key: TableKey) -> None:
        table = self._tables.get(key)
        if table is None:
            return
        async with table.lock:
            table.auto_deal = None
            if table.hand is not None:
                return
            try:
                await self._deal(table)
            except TableError:
                pass  # the reason was posted; the next join or back re-arms the auto-deal

    # ==================================================================== voiding a hand
    async def void_hand(
        self,
        key: TableKey,
        member: int,
        reason: str = "",
        *,
        dealer_rights: bool = False,
        name: str | None = None,
    ) -> str:
        """The dealer voids the hand in progress (a misdeal, a dispute, a stuck hand); returns a
        confirmation for the dealer.

        Only the dealer may (the table's creator, or ``dealer_rights`` as the front end grants them:
        SPEC §8). ``reason`` is said in the channel and kept in the ledger (blank: "voided by the
        dealer"; at most ``MAX_VOID_REASON`` characters); ``name`` is how the channel names the
        dealer (default: their name at this table). Under the table lock, like a hand's end: the
        store voids the hand (``Store.void_hand``: the seats kept their starting stacks all hand, so
        every chip, antes and bring-in included, is back where it was before the hand, and the
        ledger records the void); the turn timers stop; the channel is told who voided it and why;
        the deck and salt are revealed as after every hand, so the commitment can still be
        checked; seats that left during the hand are cashed out. The next deal keeps this hand's
        button (a misdeal is re-dealt by the same dealer), also after a restart. Prompts of the
        voided hand are refused from then on (``StaleAction``).

        Raises ``NotDealer``, or ``TableError`` when no hand is in progress or the reason is too long;
        a refusal changes nothing.
        """
        table = self.table(key)
        text = " ".join(reason.split()) or DEFAULT_VOID_REASON
        async with table.lock:
            self._check_dealer(table, member, dealer_rights)
            if len(text) > MAX_VOID_REASON:
                raise TableError(f"Keep the reason to {MAX_VOID_REASON} characters.")
            live = table.hand
            if live is None:
                raise TableError("No hand is in progress, so there is nothing to void.")
            who = " ".join((name or "").split())[:32] or table.name(member)
            try:
                await self.store.void_hand(live.hand_id, f"{text} (voided by {who})")
            except StoreError as exc:
                raise TableError(exc.reason) from None
            table.cancel_timers()
            live.deadline = None
            live.void_reason = text
            table.last_prompt = None
            await self._post(
                table, NoticeKind.VOID,
                f"Hand #{live.hand_no} is void: {who} voided it ({text}). Every chip bet in it is back"
                " with its owner: each stack is what it was before the hand.",
                live.hand_id,
            )
            deal = live.deal
            await self._post(
                table, NoticeKind.REVEAL,
                f"Hand #{live.hand_no} deck and salt, to check against the commitment:\n"
                f"wildstud verify {deal.digest} {deal.salt} {deal.deck}",
                live.hand_id,
            )
            table.hand = None
            table.redeal = True
            await self._finish_leaving(table)
            await self._post_table(table)
            self._maybe_schedule_auto_deal(table)
            return f"Hand #{live.hand_no} is void; every chip went back to where it was before the hand."

    # ==================================================================== the end of a hand
    async def _finish(self, table: Table, showdown_lines: list[str]) -> None:
        live = table.hand
        assert live is not None
        engine = live.engine
        result = engine.result
        assert result is not None
        table.cancel_timers()
        finals = {live.seat_nos[i]: result.final_stacks[i] for i in range(len(live.seat_nos))}
        try:
            await self.store.settle_hand(live.hand_id, finals, self._history(live))
        except StoreError:
            log.exception("could not settle hand %s", live.hand_id)
            await self._post(
                table, NoticeKind.INFO,
                f"Hand #{live.hand_no} could not be settled; it will be settled when the bot restarts.",
                live.hand_id,
            )
            table.hand = None
            return
        if result.showdown:
            winnings = {live.members[i]: w for i, w in enumerate(result.winnings) if w}
            shown = tuple(
                (live.names[s], line) for s, line in zip(result.show_order, showdown_lines, strict=False)
            )
            await self._say(self.presenter.showdown(
                table.key,
                ShowdownNotice(live.hand_id, "Showdown\n" + "\n".join(showdown_lines), shown, winnings),
            ))
        for i, seat_no in enumerate(live.seat_nos):
            seat = table.seats.get(seat_no)
            if seat is not None and seat.member == live.members[i]:
                seat.stack = result.final_stacks[i]
        deal = live.deal
        await self._post(
            table, NoticeKind.REVEAL,
            f"Hand #{live.hand_no} deck and salt, to check against the commitment:\n"
            f"wildstud verify {deal.digest} {deal.salt} {deal.deck}",
            live.hand_id,
        )
        table.hand = None
        table.last_prompt = None
        await self._finish_leaving(table)
        for seat in sorted(table.seats.values(), key=lambda s: s.seat_no):
            if seat.stack <= 0:
                await self._post(table, NoticeKind.SEATING, f"{seat.name} is out of chips.")
        await self._post_table(table)
        self._maybe_schedule_auto_deal(table)

    async def _finish_leaving(self, table: Table) -> None:
        """Between hands: cash out every seat that asked to leave during the hand (SPEC §7), also
        after a restart that came between the hand's settlement and the cash-out."""
        if table.hand is not None or not any(seat.leaving for seat in table.seats.values()):
            return
        for seat in sorted(table.seats.values(), key=lambda s: s.seat_no):
            if not seat.leaving:
                continue
            try:
                await self._cash_out(table, seat)
            except TableError as exc:  # the hand is settled; the seat stays until it can leave
                log.warning("cash-out of %s failed: %s", seat.name, exc.reason)
                seat.leaving = False
                await self._post(table, NoticeKind.SEATING, f"{seat.name} could not leave: {exc.reason}")
        try:
            await self._save_settings(table)           # nobody is leaving any more
        except TableError as exc:
            log.warning("could not save the table settings: %s", exc.reason)

    def _history(self, live: LiveHand) -> str:
        """The hand's PHH text (SPEC §9) with names, table seats, hand number and deck commitment."""
        try:
            return export_phh(
                live.engine,
                players=list(live.names),
                seats=list(live.seat_nos),
                deck_commitment=live.deal.digest,
                fields={"hand": live.hand_no},
            )
        except Exception:  # the settlement must not fail for want of a history text
            log.exception("PHH export failed for hand %s", live.hand_id)
            return f"# hand {live.hand_no}: export failed\nactions = {live.actions!r}\n"

    async def _cash_out(self, table: Table, seat: SeatState) -> str:
        try:
            receipt = await self.store.cash_out(table.key.guild, table.table_id, seat.member)
        except StoreError as exc:
            raise TableError(exc.reason) from None
        table.seats.pop(seat.seat_no, None)
        await self._post(
            table, NoticeKind.SEATING,
            f"{seat.name} leaves the table with {chips(receipt.amount)} chips.",
        )
        return f"You left the table; {chips(receipt.amount)} chips went back to your balance."

    # ==================================================================== recovery
    async def _resume(self, table: Table, record: HandRecord) -> None:
        try:
            live, told = self._rebuild(table, record)
        except (IllegalAction, ValueError, KeyError, IndexError) as exc:
            reason = f"its log could not be replayed ({exc})"
            await self.store.void_hand(record.id, reason)
            await self._post(
                table, NoticeKind.VOID,
                f"Hand #{record.hand_no} could not be resumed after a restart and is void: every chip bet in"
                " it is back with its owner.",
                record.id,
            )
            if record.actions:           # like any voided hand, it is re-dealt with its button
                table.redeal = True
            return
        table.hand = live
        table.button = live.button_seat_no
        table.hands_dealt = max(table.hands_dealt, record.hand_no)
        events = live.engine.events
        if live.engine.is_over:
            # The action that ended the hand was stored, then the process stopped before the hand
            # was settled, so its ending was probably never told: tell it from that action on.
            live.narrator.lines(events[:told])
            live.narrated = len(events)
            await self._post(
                table, NoticeKind.INFO, f"Hand #{live.hand_no} ended just before a restart:", live.hand_id
            )
            showdown = await self._tell(table, live.narrator.lines(events[told:]))
            await self._finish(table, showdown)
            return
        live.narrator.lines(events)  # consume: the log so far was already told
        live.narrated = len(events)
        await self._post(
            table, NoticeKind.INFO,
            f"Hand #{live.hand_no} resumes after a restart: same cards, same pot.", live.hand_id,
        )
        await self._post_table(table)
        await self._send_private(table)
        await self._next_turn(table)

    def _rebuild(self, table: Table, record: HandRecord) -> tuple[LiveHand, int]:
        """The hand replayed from its stored deck and actions, and how many of its events came
        before its last stored action."""
        if not record.actions:
            raise ValueError("the hand has no deal order")
        order = decode_seats(record.actions[0])
        players = {p.seat_no: p for p in record.players}
        if sorted(order) != sorted(players):
            raise ValueError("the deal order does not match the players")
        deck = tuple(Card.parse(code) for code in record.deck)
        deal = DealCommitment.from_parts(deck, record.salt)
        if deal.digest != record.commitment:
            raise ValueError("the stored deck does not match its commitment")
        stakes = TableStakes.from_dict(record.stakes)
        rulings = Rulings.from_dict(record.rulings)
        members = tuple(players[n].member_id for n in order)
        names = tuple(table.name(m) for m in members)
        engine = StudHand([players[n].starting_stack for n in order], stakes, rulings, Deck.from_order(deck))
        told = 0
        for text in record.actions[1:]:
            told = len(engine.events)
            seat, action, amount = decode_action(text)
            engine.act(seat, action, amount)
        live = LiveHand(
            hand_id=record.id,
            hand_no=record.hand_no,
            engine=engine,
            deal=deal,
            seat_nos=order,
            members=members,
            names=names,
            stakes=stakes,
            rulings=rulings,
            narrator=Narrator(names, showing_hand=rulings.showing_hand),
            actions=list(record.actions),
        )
        return live, told

    # ==================================================================== queries for front ends
    def current_prompt(self, key: TableKey) -> Prompt | None:
        """The prompt of the player to act now, if a hand is waiting for one."""
        table = self.table(key)
        live = table.hand
        if live is None or live.engine.actor is None:
            return None
        return self._prompt(table, live, live.engine.actor)

    def my_cards(self, key: TableKey, member: int) -> PrivateNotice:
        """The member's own cards now (for a "My cards" button when private messages fail).

        Raises ``TableError`` if they are not in the hand in progress.
        """
        table = self.table(key)
        live = table.hand
        seat = live.seat_of(member) if live is not None else None
        if live is None or seat is None:
            raise TableError("You are not in a hand at this table.")
        return self._private(live, seat)

    def table_view(self, key: TableKey) -> TableView:
        """The table as everyone may see it now."""
        return self._view(self.table(key))

    def status_text(self, key: TableKey) -> str:
        """The table state as text (what ``/table status`` shows)."""
        return format_table(self._view(self.table(key)))

    # ==================================================================== building notices
    def _prompt(self, table: Table, live: LiveHand, seat: int) -> Prompt:
        engine = live.engine
        legal = engine.legal_actions(seat)
        options = action_options(legal)
        to_call = legal.call or 0
        deadline = live.deadline
        labels = " · ".join(o.label for o in options)
        where = f"{street_name(engine.street)}, pot {chips(engine.pot_total)}"
        text = f"{live.names[seat]}, your turn ({where}): {labels}"
        return Prompt(
            member=live.members[seat],
            name=live.names[seat],
            hand_id=live.hand_id,
            turn=live.turn,
            options=options,
            text=text,
            deadline=deadline,
            to_call=to_call,
            pot=engine.pot_total,
        )

    def _private(self, live: LiveHand, seat: int) -> PrivateNotice:
        engine = live.engine
        cards = engine.cards(seat)
        up = engine.up_cards(seat)
        text = private_text(
            live.hand_no, street_name(engine.street), cards, up, engine.community_card,
            engine.wild_ranks, live.rulings.wild_in_flush,
        )
        own = list(cards) + ([engine.community_card] if engine.community_card is not None else [])
        best = best_now(own, engine.wild_ranks, live.rulings.wild_in_flush)
        return PrivateNotice(
            member=live.members[seat],
            name=live.names[seat],
            hand_id=live.hand_id,
            street=engine.street,
            down_cards=engine.down_cards(seat),
            up_cards=up,
            community_card=engine.community_card,
            wild_ranks=engine.wild_ranks,
            best=best,
            text=text,
        )

    async def _send_private(self, table: Table) -> None:
        """Each live player's own cards, delivered concurrently with a timeout; failures are
        recorded and told once in the channel, and never hold up the hand."""
        live = table.hand
        assert live is not None
        notices = [self._private(live, s) for s in live.engine.live_seats]
        timeout = table.options.private_timeout
        results = await asyncio.gather(
            *(self._deliver(table.key, n, timeout) for n in notices), return_exceptions=False
        )
        for notice, failure in zip(notices, results, strict=True):
            if failure is None:
                continue
            if notice.member not in table.undeliverable:
                table.undeliverable.add(notice.member)
                await self._post(
                    table, NoticeKind.DM_FAILED,
                    f"I couldn't send {notice.name} their cards ({failure}). {notice.name}: use My cards"
                    " to see them.",
                    live.hand_id,
                )

    async def _deliver(self, key: TableKey, notice: PrivateNotice, seconds: float) -> str | None:
        try:
            async with asyncio.timeout(seconds):
                await self.presenter.private(key, notice)
        except Undeliverable as exc:
            return exc.reason
        except TimeoutError:
            return "the message timed out"
        except Exception as exc:  # a broken front end must not stall the hand
            log.exception("private message failed")
            return f"error: {exc}"
        return None

    def _view(self, table: Table) -> TableView:
        live = table.hand
        seats: list[SeatView] = []
        if live is None:
            # What the next hand will be: its number, the seat that will deal it (D) and its
            # stakes, including a change the dealer has queued (SPEC §8).
            title = f"Between hands (next: hand #{table.hands_dealt + 1})"
            ready_seats = [n for n, s in sorted(table.seats.items()) if s.ready]
            next_button = _coming_button(table, ready_seats) if ready_seats else None
            for seat in sorted(table.seats.values(), key=lambda s: s.seat_no):
                status = {"sitting_out": "sitting out", "away": "away"}.get(seat.status, "")
                if not status and seat.stack <= 0:
                    status = "out of chips"
                if seat.leaving:
                    status = "leaving"
                seats.append(SeatView(seat.seat_no, seat.name, seat.stack, status, (), 0, 0, 0, False,
                                      seat.seat_no == next_button))
            ready = sum(1 for s in table.seats.values() if s.ready)
            footer = "Waiting for the dealer to deal."
            if ready < 2:
                footer = "Waiting for players (two are needed)."
            if table.options.auto_deal_after is not None and ready >= 2:
                footer = f"The next hand is dealt in {table.options.auto_deal_after:g} seconds."
            stakes = table.pending_stakes or table.stakes
            return TableView(title, stakes.describe(), tuple(seats), 0, (), footer)
        if live.void_reason is not None:
            return self._void_view(table, live)
        engine = live.engine
        actor = engine.actor
        dealt = {n: i for i, n in enumerate(live.seat_nos)}
        for seat in sorted(table.seats.values(), key=lambda s: s.seat_no):
            i = dealt.get(seat.seat_no)
            if i is None or live.members[i] != seat.member:
                seats.append(SeatView(seat.seat_no, seat.name, seat.stack, "not dealt in", (), 0, 0, 0,
                                      False, False))
                continue
            folded = engine.folded(i)
            status = "folded" if folded else ("all-in" if engine.is_all_in(i) else "")
            if seat.leaving and not status:
                status = "leaving"
            up = () if folded else engine.up_cards(i)
            hidden = 0 if folded else len(engine.down_cards(i))
            if engine.betting_closed and not folded:
                up, hidden = engine.cards(i), 0
            seats.append(SeatView(
                seat.seat_no, seat.name, engine.stack(i), status, up, hidden, engine.contribution(i),
                engine.street_contribution(i), actor == i, i == len(live.seat_nos) - 1,
            ))
        title = f"Hand #{live.hand_no} · {street_name(engine.street)}"
        footer = ""
        if actor is not None:
            legal = engine.legal_actions(actor)
            owe = legal.call or legal.bring_in
            footer = f"{live.names[actor]} to act" + (f": {chips(owe)} to call" if owe and legal.call else "")
            if legal.bring_in is not None:
                footer = f"{live.names[actor]} to act: bring in {chips(legal.bring_in)} or complete"
        wilds = tuple(wild_list(engine.wild_ranks, engine.wild_events, live.names))
        return TableView(title, live.stakes.describe(), tuple(seats), engine.pot_total, wilds, footer,
                         engine.community_card)

    @staticmethod
    def _void_view(table: Table, live: LiveHand) -> TableView:
        """A voided hand's last table view: no cards (they are gathered up), no pot, each seat back
        at the stack it had before the hand."""
        dealt = dict(zip(live.seat_nos, live.members, strict=True))
        seats = tuple(
            SeatView(seat.seat_no, seat.name, seat.stack, "" if dealt.get(seat.seat_no) == seat.member
                     else "not dealt in", (), 0, 0, 0, False, seat.seat_no == live.button_seat_no)
            for seat in sorted(table.seats.values(), key=lambda s: s.seat_no)
        )
        return TableView(f"Hand #{live.hand_no} · void", live.stakes.describe(), seats, 0, (),
                         f"Void: {live.void_reason}. Every chip went back.")

    # ==================================================================== helpers
    async def _post(self, table: Table, kind: NoticeKind, text: str, hand_id: int | None = None) -> None:
        await self._say(self.presenter.post(table.key, PublicNotice(kind, text, hand_id)))

    async def _post_table(self, table: Table) -> None:
        view = self._view(table)
        hand_id = table.hand.hand_id if table.hand is not None else None
        await self._say(self.presenter.post(
            table.key, PublicNotice(NoticeKind.TABLE, format_table(view), hand_id, view)
        ))

    @staticmethod
    async def _say(call: Awaitable[None]) -> None:
        """Await a presenter call; a failing front end is logged, never allowed to stop the hand."""
        try:
            await call
        except Exception:
            log.exception("presenter call failed")

    def _seat(self, table: Table, member: int) -> SeatState:
        seat = table.seat_of(member)
        if seat is None:
            raise TableError("You don't have a seat at this table.")
        return seat

    @staticmethod
    def _check_dealer(table: Table, member: int, dealer_rights: bool) -> None:
        if member != table.dealer and not dealer_rights:
            raise NotDealer("Only the dealer (the table creator, or someone with dealer rights) may do this.")

    async def _set_status(self, table: Table, seat: SeatState, status: str) -> None:
        try:
            await self.store.set_seat_status(table.table_id, seat.member, status)  # type: ignore[arg-type]
        except StoreError as exc:
            raise TableError(exc.reason) from None
        seat.status = status

    def _settings(self, table: Table) -> dict[str, Any]:
        settings: dict[str, Any] = table.options.to_dict()
        settings["names"] = {str(m): n for m, n in table.names.items()}
        settings["max_seats"] = table.max_seats
        if table.pending_stakes is not None:
            settings["pending_stakes"] = table.pending_stakes.to_dict()
        if table.pending_rulings is not None:
            settings["pending_rulings"] = table.pending_rulings.to_dict()
        leaving = sorted(s.member for s in table.seats.values() if s.leaving)
        if leaving:
            settings["leaving"] = leaving       # folded at their turn, cashed out after the hand
        return settings

    async def _save_settings(self, table: Table) -> None:
        try:
            await self.store.update_table(table.key.guild, table.table_id, settings=self._settings(table))
        except StoreError as exc:
            raise TableError(exc.reason) from None


def action_options(legal: LegalActions) -> tuple[ActionOption, ...]:
    """The prompt's buttons from the engine's legal actions, with exact amounts.

    Fixed limit gives one option per legal total; pot and no limit one option with a range.
    """
    out: list[ActionOption] = []
    if legal.fold:
        out.append(ActionOption("fold", label="fold"))
    if legal.check:
        out.append(ActionOption("check", label="check"))
    if legal.call is not None:
        out.append(ActionOption("call", legal.call, label=f"call {chips(legal.call)}"))
    if legal.bring_in is not None:
        out.append(ActionOption("bring_in", legal.bring_in, label=f"bring in {chips(legal.bring_in)}"))
    if legal.wager is not None and legal.min_to is not None and legal.max_to is not None:
        verb = {"complete": "complete to", "bet": "bet", "raise": "raise to"}.get(legal.wager, legal.wager)
        if legal.to_options:
            for to in legal.to_options:
                out.append(ActionOption(legal.wager, to, to, to, label=f"{verb} {chips(to)}"))
        elif legal.min_to == legal.max_to:
            out.append(ActionOption(legal.wager, legal.min_to, legal.min_to, legal.max_to,
                                    label=f"{verb} {chips(legal.min_to)}"))
        else:
            out.append(ActionOption(legal.wager, legal.min_to, legal.min_to, legal.max_to,
                                    label=f"{verb} {chips(legal.min_to)}-{chips(legal.max_to)}"))
    if legal.all_in_to is not None:
        out.append(ActionOption("all_in", legal.all_in_to, label=f"all-in ({chips(legal.all_in_to)})"))
    if legal.show:
        out.append(ActionOption("show", label="show"))
    if legal.muck:
        out.append(ActionOption("muck", label="muck"))
    return tuple(out)


def _coming_button(table: Table, ready: Sequence[int]) -> int:
    """The button seat of the table's next deal, among the ``ready`` seat numbers (ascending): the
    same seat again after a voided hand (a misdeal is re-dealt with the same button) if it is still
    ready, else the next one clockwise (SPEC §2)."""
    if table.redeal and table.button is not None and table.button in ready:
        return table.button
    return _next_button(table.button, ready)


def _next_button(previous: int | None, ready: Sequence[int]) -> int:
    """The next button seat: the first ready seat clockwise after ``previous`` (SPEC §2)."""
    if previous is None:
        return ready[0]
    for seat_no in ready:
        if seat_no > previous:
            return seat_no
    return ready[0]


def _join(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]
