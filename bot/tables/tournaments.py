"""Sit-and-go tournaments at a table (issue 23): registration, the start, the level clock between
hands, eliminations, rebuys, the end with its prizes, and a cancel.

The model is :mod:`bot.tournament.model` (pure); the money and the tournament chips are the
store's (:mod:`bot.store.tournaments`). A model change is made on a copy and becomes the live one
only once the store has taken it, so a refusal changes nothing.

At the table (hooks the runner calls under the table's lock): before each deal the level may move
on (its stakes become the table's; announced), rebuy offers of the last hand lapse (those players
are out) and the game of a rotation is set; after each hand the busted players leave the table
with their place announced (or are offered a rebuy), and when one player is left the prizes are
paid and the table closes, the final hand's summary listing the standings and prizes. A player who
runs out of time is dealt in and blinded and anted away, never marked away or removed. The level
clock costs no request of its own: the table message shows the level and a countdown that
Discord renders by itself (``<t:UNIX:R>``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime

from bot.engine.games.catalogue import DEALERS_CHOICE
from bot.engine.games.rulings import Rulings
from bot.render.cards import chips
from bot.store import Store, StoreError
from bot.store.records import TournamentRecord
from bot.tables.errors import NotDealer, TableError
from bot.tables.leases import TableLeases
from bot.tables.notices import Actor, NoticeKind, TableKey
from bot.tables.options import TableOptions
from bot.tables.registry import Registry
from bot.tables.repository import Repository
from bot.tables.state import SeatState, Table, TournamentPlay
from bot.tournament.model import (
    CANCEL_RULINGS,
    Elimination,
    Options,
    Tournament,
    TournamentError,
)

REBUY_WINDOW = 30.0
"""Seconds a busted player has to rebuy (``/tournament rebuy``) before the next deal."""

Wall = Callable[[], float]
"""Seconds since the epoch (the level clock; ``time.time`` unless a test passes its own)."""


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``22nd``."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _copy(model: Tournament) -> Tournament:
    return Tournament.from_dict(model.to_dict())


def _out_line(row: Elimination, prize: int) -> str:
    tied = " (tied)" if row.tied else ""
    won = f", winning {chips(prize)}" if prize else ""
    return f"{row.name} is out in {ordinal(row.place)} place{tied}{won}."


STANDINGS_HEAD = "Standings and prizes:"
"""The line of a finished tournament's notice the standings follow (a front end that lists them
its own way, the terminal with each balance, leaves the notice's list out from there)."""


def standings_text(model: Tournament, prizes: dict[int, int]) -> str:
    """The standings with each prize, best first."""
    lines = []
    for row in model.standings():
        prize = prizes.get(row.member, 0)
        tied = " (tied)" if row.tied else ""
        lines.append(f"{ordinal(row.place)}{tied} {row.name}" + (f": {chips(prize)}" if prize else ""))
    return "\n".join(lines)


class Tournaments:
    """The tournaments of one table service (see the module docstring)."""

    def __init__(
        self, store: Store, registry: Registry, repository: Repository, default_options: TableOptions,
        wall: Wall | None = None,
    ) -> None:
        self.store = store
        self.registry = registry
        self.repository = repository
        self.default_options = default_options
        self.wall: Wall = wall or time.time
        self._locks: dict[int, asyncio.Lock] = {}
        self.auto_deal_after: float | None = 3.0
        """A tournament's table deals by itself this long after a hand (when the table options
        have no auto-deal); None for a front end that deals itself (the terminal)."""
        self.leases: TableLeases | None = None
        """Set by the service with several processes: a tournament's new table is claimed, like
        any new table."""
        self.deal_later: Callable[[Table, float], None] | None = None
        """Set by the service: deal at this table after so many seconds (a rebuy window)."""
        self.on_start: Callable[[Table], None] | None = None
        """Called with a tournament's table once it is open (the service arms its first deal)."""

    def _lock(self, channel: int) -> asyncio.Lock:
        return self._locks.setdefault(channel, asyncio.Lock())

    async def _record(self, key: TableKey) -> TournamentRecord:
        record = await self.store.tournament_in_channel(key.channel)
        if record is None or record.guild_id != key.guild:
            raise TableError("There is no tournament in this channel: /tournament create opens one.")
        return record

    # ------------------------------------------------------------------ registration
    async def create(self, key: TableKey, organiser: Actor, options: Options) -> str:
        """Open registration. The organiser is not entered (they /tournament join like anyone)."""
        async with self._lock(key.channel):
            if key in self.registry:
                raise TableError("This channel has a table; use another channel for the tournament.")
            model = Tournament.new(options, organiser.member)
            try:
                await self.store.create_tournament(key.guild, key.channel, organiser.member,
                                                   buy_in=options.buy_in, state=model.to_dict())
            except StoreError as error:
                raise TableError(str(error)) from None
            return describe_options(options)

    async def join(self, key: TableKey, who: Actor, request: str) -> str:
        """Enter the tournament (the buy-in goes into the pool). Before the start, or during late
        registration (a seat and a starting stack at once). A full table starts by itself."""
        async with self._lock(key.channel):
            record = await self._record(key)
            if record.status == "running":
                return await self._late_entry(key, record, who, request)
            model = Tournament.from_dict(record.state)
            try:
                model.register(who.member, who.name or f"player {who.member}")
                await self.store.enter_tournament(record.id, who.member, model.to_dict(), key=request)
            except (TournamentError, StoreError) as error:
                raise TableError(str(error)) from None
            text = (f"{who.name} is in ({len(model.entries)} of {model.options.seats});"
                    f" the prize pool is {chips(model.pool)}.")
            if model.full:
                text += "\n" + await self._start(key, record.id, model)
            return text

    async def _late_entry(self, key: TableKey, record: TournamentRecord, who: Actor, request: str) -> str:
        async with self.registry.locked(key) as table:
            play = self._play(table)
            model = _copy(play.model)
            taken = {s.seat_no for s in table.seats.values()}
            free = [n for n in range(1, table.max_seats + 1) if n not in taken]
            try:
                model.register(who.member, who.name or f"player {who.member}")
                if not free:
                    raise TournamentError("the table is full")
                await self.store.enter_tournament(record.id, who.member, model.to_dict(), key=request,
                                                  chips=model.options.starting_stack, seat_no=free[0])
            except (TournamentError, StoreError) as error:
                raise TableError(str(error)) from None
            play.model = model
            await self._reload_seats(table, names={who.member: who.name})
            table.post(NoticeKind.SEATING, f"{who.name} registers late and takes seat {free[0]} with"
                                           f" {chips(model.options.starting_stack)}.")
            return f"You are in, seat {free[0]}, from the next hand."

    async def leave(self, key: TableKey, who: Actor) -> str:
        """Leave before the start; the buy-in comes back."""
        async with self._lock(key.channel):
            record = await self._record(key)
            model = Tournament.from_dict(record.state)
            try:
                model.unregister(who.member)
                await self.store.leave_tournament(record.id, who.member, model.to_dict())
            except (TournamentError, StoreError) as error:
                raise TableError(str(error)) from None
            return f"You left the tournament; your buy-in of {chips(record.buy_in)} is back."

    async def start(self, key: TableKey, who: Actor) -> str:
        """The organiser (or someone with dealer rights) starts the tournament now."""
        async with self._lock(key.channel):
            record = await self._record(key)
            if who.member != record.organiser_id and not who.dealer_rights:
                raise NotDealer("Only the organiser (or someone with dealer rights) may start it.")
            if record.status != "registering":
                raise TableError("The tournament has already started.")
            return await self._start(key, record.id, Tournament.from_dict(record.state))

    async def _start(self, key: TableKey, tournament_id: int, model: Tournament) -> str:
        try:
            model.start(self.wall())
        except TournamentError as error:
            raise TableError(str(error)) from None
        options = self.default_options
        if options.auto_deal_after is None and self.auto_deal_after is not None:
            options = replace(options, auto_deal_after=self.auto_deal_after)
        members = list(model.entries)
        table = Table(key, 0, model.organiser, model.stakes_level.stakes(), Rulings(), options,
                      names={m: e.name for m, e in model.entries.items()}, max_seats=model.options.seats,
                      game=_first_game(model))
        settings = self.repository.settings(table)
        seats = {m: (n, model.options.starting_stack) for n, m in enumerate(members, start=1)}
        try:
            record = await self.store.start_tournament(
                tournament_id, model.to_dict(), stakes=table.stakes.to_dict(), settings=settings, seats=seats,
            )
        except StoreError as error:
            raise TableError(str(error)) from None
        assert record.table_id is not None
        if self.leases is not None:
            await self.leases.claim(record.table_id)    # a new table: nobody else holds it
        loaded = await self.repository.load(await self.store.get_table(record.table_id))
        loaded.tournament = TournamentPlay(tournament_id, model, model.organiser)
        self.registry.add(loaded)
        async with self.registry.locked(key, table=loaded):
            loaded.post(NoticeKind.INFO, start_text(model))
            if self.on_start is not None:
                self.on_start(loaded)
        return "The tournament starts."

    async def rebuy(self, key: TableKey, who: Actor, request: str) -> str:
        """A busted player rebuys (another buy-in; a new starting stack from the next hand)."""
        async with self.registry.locked(key) as table:
            play = self._play(table)
            model = _copy(play.model)
            try:
                model.rebuy(who.member)
                await self.store.enter_tournament(play.tournament_id, who.member, model.to_dict(), rebuy=True,
                                                  key=request, chips=model.options.starting_stack)
            except (TournamentError, StoreError) as error:
                raise TableError(str(error)) from None
            play.model = model
            if not any(e.pending_rebuy for e in model.entries.values()):
                play.rebuy_until = 0.0       # nobody else to wait for: deal as usual
                if self.deal_later is not None and table.hand is None:
                    self.deal_later(table, table.options.auto_deal_after or 0.0)
            await self._reload_seats(table)
            table.post(NoticeKind.SEATING, f"{table.name(who.member)} rebuys for"
                                           f" {chips(model.options.starting_stack)}.")
            return "You rebought; you are dealt in from the next hand."

    async def status(self, key: TableKey) -> str:
        """Level, time to the next, stakes now and next, stacks, places paid (or the registration)."""
        table = self.registry.find(key)
        if table is not None and table.tournament is not None:
            return status_text(table.tournament.model)
        record = await self._record(key)
        model = Tournament.from_dict(record.state)
        names = ", ".join(e.name for e in model.entries.values()) or "nobody yet"
        return (f"Registering: {len(model.entries)} of {model.options.seats} ({names}).\n"
                f"{describe_options(model.options)}\nPrize pool: {chips(model.pool)}.")

    async def cancel(self, key: TableKey, who: Actor, ruling: str = "icm") -> str:
        """Cancel. Before the start every buy-in comes back; after it the chips in play are paid
        by ``ruling``: ``icm`` (default) or ``refund``. A hand in progress is voided first."""
        if ruling not in CANCEL_RULINGS:
            raise TableError(f"A cancel pays by {' or '.join(CANCEL_RULINGS)}.")
        async with self._lock(key.channel):
            record = await self._record(key)
            if who.member != record.organiser_id and not who.dealer_rights:
                raise NotDealer("Only the organiser (or someone with dealer rights) may cancel it.")
            table = self.registry.find(key)
            if record.status == "registering" or table is None or table.tournament is None:
                model = Tournament.from_dict(record.state)
                payments = model.cancel(ruling)
                await self.store.end_tournament(record.id, payments, model.to_dict(), cancelled=True)
                return "The tournament is cancelled; every buy-in is back."
            async with self.registry.locked(key) as locked:
                if locked.hand is not None:
                    raise TableError("A hand is in progress: void it first (/hand void), then cancel.")
                play = self._play(locked)
                model = _copy(play.model)
                payments = model.cancel(ruling)
                await self.store.end_tournament(play.tournament_id, payments, model.to_dict(), cancelled=True)
                play.model = model
                self.registry.remove(locked)
                how = ("by the independent chip model" if ruling == "icm"
                       else "by returning every buy-in and rebuy")
                locked.post(NoticeKind.RESULT, f"The tournament is cancelled and paid {how}:\n"
                                               + payments_text(model, payments))
                return "Cancelled."

    # ------------------------------------------------------------------ hooks at the table
    def _play(self, table: Table) -> TournamentPlay:
        if table.tournament is None:
            raise TableError("This table is not a tournament's.")
        return table.tournament

    async def attach(self, tables: Sequence[Table]) -> None:
        """After a restart: give each loaded tournament table its running tournament, the stakes of
        its level and its game."""
        running = {r.table_id: r for r in await self.store.active_tournaments() if r.status == "running"}
        for table in tables:
            record = running.get(table.table_id)
            if record is None:
                continue
            model = Tournament.from_dict(record.state)
            table.tournament = TournamentPlay(record.id, model, record.organiser_id)
            table.stakes = model.stakes_level.stakes()

    async def before_deal(self, table: Table) -> bool:
        """Between hands, before a deal: lapse rebuy offers, move the level on, set the game. False
        when the tournament has ended (then there is no deal)."""
        play = self._play(table)
        waiting = [e.name for e in play.model.entries.values() if e.pending_rebuy]
        left = play.rebuy_until - self.wall()
        if waiting and left > 0:
            table.post(NoticeKind.NO_DEAL, f"Waiting {left:.0f} s for {', '.join(waiting)} to rebuy"
                                           " (/tournament rebuy).")
            if self.deal_later is not None:
                self.deal_later(table, left)
            return False
        model = _copy(play.model)
        before = model.before_hand(self.wall())
        out = [row for row in before.eliminated if not model.entries[row.member].alive]
        if before.finished:
            play.model = model
            prizes = model.prizes()
            for row in out:
                table.post(NoticeKind.SEATING, _out_line(row, prizes.get(row.member, 0)))
            await self._finish(table, None)
            return False
        if out:
            await self.store.eliminate_tournament_players(play.tournament_id, [r.member for r in out],
                                                          model.to_dict())
            await self._reload_seats(table)
            for row in out:
                table.post(NoticeKind.SEATING, _out_line(row, 0))
        if before.level_change is not None:
            started = datetime.fromtimestamp(model.level_started, UTC)
            await self.store.save_tournament(play.tournament_id, model.to_dict(), level=model.level,
                                             level_started=started)
            table.stakes = before.level_change.level.stakes()
            stakes = before.level_change.level.describe(blinds=False)
            table.post(NoticeKind.SETTINGS, f"Level {model.level}: {stakes}.")
        game = model.game()
        if game != table.game and model.options.plan.games != (DEALERS_CHOICE,):
            table.game = game
        play.model = model
        return True

    def hand_dealt(self, table: Table, members: Sequence[int], stacks: Sequence[int]) -> None:
        play = self._play(table)
        play.starts = dict(zip(members, stacks, strict=True))
        play.model.hand_started(len(members))

    async def after_hand(self, table: Table, finals: dict[int, int], hand_id: int) -> bool:
        """A hand ended (``finals``: member -> stack). Busted players leave the table with their
        place, or are offered a rebuy; True when the tournament has ended."""
        play = self._play(table)
        model = _copy(play.model)
        after = model.record_hand(play.starts, finals)
        out = [row for row in after.eliminated if not model.entries[row.member].alive]
        if after.finished:
            play.model = model
            prizes = model.prizes()
            for row in out:
                table.post(NoticeKind.SEATING, _out_line(row, prizes.get(row.member, 0)), hand_id)
            await self._finish(table, hand_id)
            return True
        if out:
            await self.store.eliminate_tournament_players(play.tournament_id, [r.member for r in out],
                                                          model.to_dict())
        else:
            await self.store.save_tournament(play.tournament_id, model.to_dict(), level=model.level,
                                             level_started=datetime.fromtimestamp(model.level_started, UTC))
        play.model = model
        await self._reload_seats(table)
        for row in out:
            table.post(NoticeKind.SEATING, _out_line(row, 0), hand_id)
        if after.may_rebuy:
            # The next deal waits for the window (also when too few are left to deal without them).
            play.rebuy_until = self.wall() + REBUY_WINDOW
            if self.deal_later is not None:
                self.deal_later(table, REBUY_WINDOW)
        for member in after.may_rebuy:
            table.post(NoticeKind.SEATING, f"{table.name(member)} is out of chips and may rebuy"
                                           f" ({chips(model.options.buy_in)}: /tournament rebuy) within"
                                           f" {REBUY_WINDOW:.0f} seconds.", hand_id)
        if model.heads_up and len(model.alive) == 2 and out:
            table.post(NoticeKind.INFO, "Heads-up: two players are left.", hand_id)
        return False

    async def _finish(self, table: Table, hand_id: int | None) -> None:
        play = self._play(table)
        model = play.model
        prizes = model.prizes()
        await self.store.end_tournament(play.tournament_id, prizes, model.to_dict())
        self.registry.remove(table)
        winner = next(r for r in model.standings() if r.place == 1)
        table.post(NoticeKind.RESULT,
                   f"{winner.name} wins the tournament!\n{STANDINGS_HEAD}\n"
                   + standings_text(model, prizes), hand_id)

    async def _reload_seats(self, table: Table, names: dict[int, str] | None = None) -> None:
        """The seats as the store has them now (after eliminations, rebuys, a late entry)."""
        if names:
            table.names.update(names)
            await self.repository.save_settings(table)
        fresh = await self.store.seats(table.table_id)
        old = {s.member: s for s in table.seats.values()}
        table.seats.clear()
        for seat in fresh:
            kept = old.get(seat.member_id)
            table.seats[seat.seat_no] = SeatState(seat.seat_no, seat.member_id, table.name(seat.member_id),
                                                  seat.stack, "active", kept.leaving if kept else False)


def _first_game(model: Tournament) -> str:
    return model.options.plan.game(0)


def describe_options(options: Options) -> str:
    length = options.structure.length.describe()
    first = options.structure.level(1).describe(blinds=False)
    payouts = "winner takes all"
    if options.payouts != "winner-takes-all":
        payouts = "65/35 (up to 6 players), 50/30/20 (7 or more)"
    extras = []
    if options.late_registration_levels:
        extras.append(f"late registration for {options.late_registration_levels} level(s)")
    if options.rebuy_levels:
        extras.append(f"rebuys for {options.rebuy_levels} level(s)")
    buy_in = chips(options.buy_in) if options.buy_in else "free (a freeroll)"
    return (f"{options.plan.describe()}; buy-in {buy_in};"
            f" {chips(options.starting_stack)} to start; levels of {length} from {first};"
            f" {options.seats} seats; payouts {payouts}" + ("; " + ", ".join(extras) if extras else "") + ".")


def start_text(model: Tournament) -> str:
    names = ", ".join(e.name for e in model.entries.values())
    return (f"The tournament starts: {names}. {chips(model.options.starting_stack)} each;"
            f" level 1: {model.stakes_level.describe(blinds=False)}. Prize pool {chips(model.pool)};"
            " places paid:"
            f" {', '.join(chips(p) for p in model.paid_places())}.")


def status_text(model: Tournament) -> str:
    next_at = model.next_level_at()
    left = model.hands_left_in_level()
    when = f"<t:{int(next_at)}:R>" if next_at is not None else f"in {left} hand(s)"
    stacks = ", ".join(f"{e.name} {chips(e.stack)}" for e in sorted(model.alive, key=lambda e: -e.stack))
    paid = ", ".join(f"{ordinal(n)} {chips(p)}" for n, p in enumerate(model.paid_places(), start=1))
    return (f"Level {model.level}: {model.stakes_level.describe(blinds=False)}; next level {when}:"
            f" {model.next_level.describe(blinds=False)}.\nStacks: {stacks}.\nPlaces paid: {paid}"
            f" (pool {chips(model.pool)}).")


def payments_text(model: Tournament, payments: dict[int, int]) -> str:
    rows = sorted(payments.items(), key=lambda kv: -kv[1])
    return "\n".join(f"{model.entries[m].name}: {chips(a)}" for m, a in rows if a) or "Nothing to pay."
