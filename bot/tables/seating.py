"""Seats: joining with a buy-in, leaving (now, or folded at the seat's turn and cashed out after the
hand: SPEC §7), sitting out, coming back, topping up, and cashing out the seats that left during a
hand. Every method runs inside the table's ``locked`` block (``bot.tables.registry``)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from bot.engine.games.catalogue import GAMES
from bot.render.cards import chips
from bot.tables.errors import TableError
from bot.tables.games import setting_games
from bot.tables.notices import NoticeKind
from bot.tables.repository import Repository
from bot.tables.snapshot import table_notice
from bot.tables.state import SeatState, Table

log = logging.getLogger(__name__)


class Seating:
    """Seat changes at a table (see the module docstring).

    ``fold_leaving(table, engine_seat)`` folds a leaving seat whose turn it is (the hand runner);
    ``hand_may_start(table)`` is called when a seat change may let the next hand be dealt.
    """

    def __init__(
        self,
        repository: Repository,
        fold_leaving: Callable[[Table, int], Awaitable[None]],
        hand_may_start: Callable[[Table], None],
    ) -> None:
        self.repository = repository
        self._fold_leaving = fold_leaving
        self._hand_may_start = hand_may_start

    @staticmethod
    def seat(table: Table, member: int) -> SeatState:
        """The member's seat; ``TableError`` if they have none."""
        seat = table.seat_of(member)
        if seat is None:
            raise TableError("You don't have a seat at this table.")
        return seat

    async def join(
        self, table: Table, member: int, name: str, buy_in: int | None, seat_no: int | None
    ) -> SeatState:
        """Seat ``member`` with ``buy_in`` chips (default: as many as the balance and the table's
        maximum allow). Raises ``TableError``."""
        if table.seat_of(member) is not None:
            raise TableError("You already have a seat at this table.")
        name = " ".join(name.split())[:32] or f"player {member}"
        stakes = table.stakes
        if buy_in is None:
            balance = await self.repository.balance(table, member)
            buy_in = min(balance, stakes.max_buy_in)
            if buy_in < stakes.min_buy_in:
                raise TableError(
                    f"The minimum buy-in here is {chips(stakes.min_buy_in)} chips; you have {chips(balance)}."
                )
        # The name is stored before the buy-in, whose commit seats the player: a failure in between
        # leaves a name for nobody, never chips in a seat this table does not know.
        had = table.names.get(member)
        table.names[member] = name
        try:
            await self.repository.save_settings(table)
        except TableError:
            if had is None:
                del table.names[member]
            else:
                table.names[member] = had
            raise
        stored = await self.repository.buy_in(table, member, buy_in, seat_no)
        seat = SeatState(stored.seat_no, member, name, stored.stack, stored.status)
        table.seats[seat.seat_no] = seat
        await self._wait_for_big_blind(table, seat)
        when = " from the next hand" if table.hand is not None else ""
        text = f"{name} sits down in seat {seat.seat_no} with {chips(seat.stack)} chips{when}."
        if seat.waiting and table.options.join_blind == "wait" and _deals_positional(table):
            text += f" {name} is dealt in when the big blind comes round."
        table.post(NoticeKind.SEATING, text)
        if table.hand is None:
            table.tell(table_notice(table))
        self._hand_may_start(table)
        return seat

    async def leave(self, table: Table, member: int) -> str:
        """Leave now, or at the seat's turn in the hand in progress. Returns what happened."""
        seat = self.seat(table, member)
        live = table.hand
        engine_seat = live.seat_of(member) if live is not None else None
        if live is None or engine_seat is None:
            return await self.cash_out(table, seat)
        if seat.leaving:       # said once in the channel is enough
            return "You are already leaving: your chips go back to your balance when this hand ends."
        seat.leaving = True
        try:
            await self.repository.save_settings(table)   # a leave survives a restart (SPEC §7)
        except TableError:
            seat.leaving = False
            raise
        engine = live.engine
        if not engine.folded(engine_seat) and engine.actor == engine_seat:
            table.post(NoticeKind.SEATING, f"{seat.name} is leaving the table.")
            await self._fold_leaving(table, engine_seat)
            return "You fold and leave; your chips go back to your balance when this hand ends."
        table.post(NoticeKind.SEATING, f"{seat.name} will leave when this hand ends.")
        if engine.folded(engine_seat) or engine.is_all_in(engine_seat):
            return "You leave when this hand ends; your chips then go back to your balance."
        return "You will fold at your turn and leave; your chips go back to your balance after the hand."

    async def sit_out(self, table: Table, member: int) -> str:
        """Sit out from the next hand on. Returns a confirmation."""
        seat = self.seat(table, member)
        if seat.status == "sitting_out":       # said once in the channel is enough
            return "You are already sitting out. Use back to play again."
        await self.repository.set_status(table, seat, "sitting_out")
        table.post(NoticeKind.SEATING, f"{seat.name} sits out.")
        return "You are sitting out from the next hand. Use back to play again."

    async def back(self, table: Table, member: int) -> str:
        """Come back after sitting out or being away; during a hand it also takes back a leave."""
        seat = self.seat(table, member)
        stays = seat.leaving
        if seat.status == "active" and not stays:
            return "You are already playing."
        if stays:
            seat.leaving = False
            try:
                await self.repository.save_settings(table)
            except TableError:
                seat.leaving = True
                raise
        if seat.status != "active":
            await self.repository.set_status(table, seat, "active")
            table.post(NoticeKind.SEATING, f"{seat.name} is back.")
            await self._wait_for_big_blind(table, seat)
        else:
            table.post(NoticeKind.SEATING, f"{seat.name} stays at the table.")
        self._hand_may_start(table)
        if stays and seat.status == "active" and table.hand is not None:
            return "You stay at the table (you play on if you have not folded yet)."
        return "Welcome back: you are dealt in from the next hand."

    async def _wait_for_big_blind(self, table: Table, seat: SeatState) -> None:
        """A seat taken, or a player back from sitting out or being away, while the game runs
        (a hand was dealt here before) waits for the big blind before a blind game deals it in
        (``bot.tables.blinds``). A tournament deals everyone (a player away is blinded away). Kept
        in the settings JSON; a failure to store it only logs (the seat then plays at once)."""
        if table.hands_dealt == 0 or table.tournament is not None or seat.waiting:
            return
        seat.waiting = True
        try:
            await self.repository.save_settings(table)
        except TableError as exc:
            seat.waiting = False
            log.warning("could not store that %s waits for the big blind: %s", seat.name, exc.reason)

    async def top_up(self, table: Table, member: int, amount: int) -> SeatState:
        """Add chips from the balance to the member's seat."""
        seat = self.seat(table, member)
        stored = await self.repository.top_up(table, member, amount)
        seat.stack = stored.stack
        table.post(NoticeKind.SEATING, f"{seat.name} adds {chips(amount)}: stack {chips(seat.stack)}.")
        self._hand_may_start(table)
        return seat

    async def cash_out(self, table: Table, seat: SeatState) -> str:
        """Give up ``seat``: its stack goes back to the balance. Returns a confirmation."""
        amount = await self.repository.cash_out(table, seat.member)
        table.seats.pop(seat.seat_no, None)
        table.post(NoticeKind.SEATING, f"{seat.name} leaves the table with {chips(amount)} chips.")
        return f"You left the table; {chips(amount)} chips went back to your balance."

    async def finish_leaving(self, table: Table) -> None:
        """Between hands: cash out every seat that asked to leave during the hand (SPEC §7), also
        after a restart that came between the hand's settlement and the cash-out."""
        if table.hand is not None or not any(seat.leaving for seat in table.seats.values()):
            return
        for seat in sorted(table.seats.values(), key=lambda s: s.seat_no):
            if not seat.leaving:
                continue
            try:
                await self.cash_out(table, seat)
            except TableError as exc:  # the hand is settled; the seat stays until it can leave
                log.warning("cash-out of %s failed: %s", seat.name, exc.reason)
                seat.leaving = False
                table.post(NoticeKind.SEATING, f"{seat.name} could not leave: {exc.reason}")
        try:
            await self.repository.save_settings(table)           # nobody is leaving any more
        except TableError as exc:
            log.warning("could not save the table settings: %s", exc.reason)


def _deals_positional(table: Table) -> bool:
    """The table's game (or one of its dealer's-choice games) has a button and blinds or antes
    by position: a player seated while it runs waits for the big blind (``bot.tables.blinds``)."""
    setting = table.pending_game or table.game
    return any(GAMES[n].positional for n in setting_games(setting, table.allowed_games))
