"""The only code that maps a ``Table`` to and from the store, and the one place a store refusal
(``StoreError``) becomes a refusal of the table (``TableError``, with the store's reason).

A table's record holds its dealer, stakes and rulings; its ``settings`` JSON holds the timers and
dealing options (``TableOptions``), the display names of members who sat there, the seat limit,
stakes and rulings queued for the next deal, the members leaving after the hand in progress, and
the members who set auto-muck (``automuck``: a list of member ids), the members waiting for the
big blind (``waiting``: ``bot.tables.blinds``), a bomb pot the dealer called for the next flop hand
(``bomb_pot_next``), and the table's game (``game``,
``pending_game``, the dealer's-choice list ``games``, a dealer's choice waiting for its answer
``choice`` and the number of the last one asked, ``choice_seq``: see ``bot.tables.games``).
Seats are rows of their own; the button and the redeal flag are worked out again from the last
hands on load.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from bot.engine.betting.stakes import PRESETS, TableStakes
from bot.engine.games.catalogue import DEALERS_CHOICE, DEFAULT_GAME, GAMES
from bot.engine.games.rulings import Rulings
from bot.engine.hand.options import NO_OPTIONS, HandOptions
from bot.store import StaleLease, Store, StoreError
from bot.store.errors import database_failures
from bot.store.records import HandRecord, Seat, TableRecord
from bot.store.stats import HandStatLine
from bot.tables.codec import decode_seats, encode_seats
from bot.tables.errors import DatabaseUnavailable, LeaseLost, TableError
from bot.tables.fairness import DealCommitment
from bot.tables.games import PendingChoice
from bot.tables.notices import TableKey
from bot.tables.options import TableOptions
from bot.tables.state import SeatState, Table

log = logging.getLogger(__name__)

MAX_SEATS = 8

log = logging.getLogger(__name__)


@contextmanager
def refused(prefix: str = "") -> Iterator[None]:
    """Turn a ``StoreError`` inside the block into a ``TableError`` with its reason (after
    ``prefix``, if given), and a failure of the database itself (``database_failures``: out of
    reach, a dropped connection, a conflict still failing after the retries) into
    ``DatabaseUnavailable``, logged; nothing else is caught."""
    try:
        yield
    except StaleLease as exc:
        raise LeaseLost(exc.reason) from None
    except StoreError as exc:
        raise TableError(f"{prefix}{exc.reason}") from None
    except database_failures() as exc:
        log.warning("database failure: %s: %s", type(exc).__name__, " ".join(str(exc).split())[:300])
        raise DatabaseUnavailable() from exc


class Repository:
    """Tables in the store (see the module docstring). ``store``: an open ``bot.store.Store``."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # ------------------------------------------------------------------ loading
    async def open_tables(self) -> list[Table]:
        """Every open table, loaded with its seats."""
        return [await self.load(record) for record in await self.store.open_tables()]

    async def unfinished_hands(self) -> list[HandRecord]:
        """Hands dealt but neither settled nor voided (to resume after a restart)."""
        return await self.store.list_unfinished_hands()

    async def hand(self, hand_id: int) -> HandRecord:
        """One stored hand, as the store has it now."""
        with refused():
            return await self.store.get_hand(hand_id)

    async def unfinished_hand(self, table: Table) -> HandRecord | None:
        """The table's hand dealt but neither settled nor voided, if any."""
        with refused():
            hands = await self.store.list_unfinished_hands(table.key.guild)
        return next((h for h in hands if h.table_id == table.table_id), None)

    async def load(self, record: TableRecord) -> Table:
        """The ``Table`` of a stored record, with its seats, button and hand count."""
        settings = dict(record.settings)
        table = table_shell(record)
        if settings.get("pending_stakes"):
            table.pending_stakes = TableStakes.from_dict(settings["pending_stakes"])
        if settings.get("pending_rulings"):
            table.pending_rulings = Rulings.from_dict(settings["pending_rulings"])
        table.game = _game_setting(settings.get("game"), DEFAULT_GAME.name)
        if settings.get("pending_game"):
            table.pending_game = _game_setting(settings["pending_game"], None)
        table.allowed_games = tuple(str(g) for g in settings.get("games", ()) if str(g) in GAMES)
        table.choice_seq = int(settings.get("choice_seq", 0))
        if settings.get("choice"):
            try:
                table.choice = PendingChoice.from_dict(dict(settings["choice"]))
            except (KeyError, TypeError, ValueError):
                table.choice = None     # unreadable: the next deal asks again
        leaving = {int(m) for m in settings.get("leaving", ())}
        waiting = {int(m) for m in settings.get("waiting", ())}
        table.automuck = {int(m) for m in settings.get("automuck", ())}
        table.bomb_pot_next = bool(settings.get("bomb_pot_next", False))
        for seat in await self.store.seats(record.id):
            table.seats[seat.seat_no] = SeatState(
                seat.seat_no, seat.member_id, table.name(seat.member_id), seat.stack, seat.status,
                leaving=seat.member_id in leaving, waiting=seat.member_id in waiting,
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

    # ------------------------------------------------------------------ tables
    async def create(
        self, key: TableKey, dealer: int, stakes: TableStakes, rulings: Rulings, options: TableOptions,
        max_seats: int, game: str = DEFAULT_GAME.name, allowed_games: tuple[str, ...] = (),
    ) -> Table:
        """Open a table in the store and return it (no seats yet). ``game``: a game name or
        ``dealers-choice``; ``allowed_games``: the dealer's-choice list, stored with the table in
        the same write."""
        table = Table(TableKey(key.guild, key.channel), 0, dealer, stakes, rulings, options,
                      max_seats=max_seats, game=game)
        table.allowed_games = allowed_games
        with refused():
            record = await self.store.create_table(
                key.guild, key.channel, dealer, stakes=stakes.to_dict(), rulings=rulings.to_dict(),
                settings=self.settings(table),
            )
        table.table_id = record.id
        return table

    async def close(self, table: Table) -> dict[int, int]:
        """Close the table: every stack goes back to its owner's balance (chips per member)."""
        with refused():
            return await self.store.close_table(table.key.guild, table.table_id)

    def settings(self, table: Table) -> dict[str, Any]:
        """The table's ``settings`` JSON (see the module docstring)."""
        settings: dict[str, Any] = table.options.to_dict()
        settings["names"] = {str(m): n for m, n in table.names.items()}
        settings["max_seats"] = table.max_seats
        if table.pending_stakes is not None:
            settings["pending_stakes"] = table.pending_stakes.to_dict()
        if table.pending_rulings is not None:
            settings["pending_rulings"] = table.pending_rulings.to_dict()
        if table.game != DEFAULT_GAME.name:
            settings["game"] = table.game
        if table.pending_game is not None:
            settings["pending_game"] = table.pending_game
        if table.allowed_games:
            settings["games"] = list(table.allowed_games)
        if table.choice_seq:
            settings["choice_seq"] = table.choice_seq
        if table.choice is not None:
            settings["choice"] = table.choice.to_dict()
        leaving = sorted(s.member for s in table.seats.values() if s.leaving)
        if leaving:
            settings["leaving"] = leaving       # folded at their turn, cashed out after the hand
        if table.automuck:
            settings["automuck"] = sorted(table.automuck)
        if table.bomb_pot_next:
            settings["bomb_pot_next"] = True     # called by the dealer for the next flop hand
        waiting = sorted(s.member for s in table.seats.values() if s.waiting)
        if waiting:
            settings["waiting"] = waiting       # waiting for the big blind (bot.tables.blinds)
        return settings

    async def save_settings(self, table: Table) -> None:
        """Store the table's settings JSON as it is now."""
        with refused():
            await self.store.update_table(table.key.guild, table.table_id, settings=self.settings(table))

    async def save_game(self, table: Table, stakes: TableStakes, rulings: Rulings) -> None:
        """Store new stakes and rulings in force (with the settings as they are now)."""
        with refused():
            await self.store.update_table(
                table.key.guild, table.table_id, stakes=stakes.to_dict(), rulings=rulings.to_dict(),
                settings=self.settings(table),
            )

    # ------------------------------------------------------------------ seats and chips
    async def balance(self, table: Table, member: int) -> int:
        """The member's chip balance in the table's server."""
        with refused():
            return await self.store.balance(table.key.guild, member)

    async def buy_in(self, table: Table, member: int, amount: int, seat_no: int | None) -> Seat:
        """Move ``amount`` chips from the balance to a new seat (the seat the store gave)."""
        with refused():
            receipt = await self.store.buy_in(
                table.key.guild, table.table_id, member, amount, seat_no=seat_no, max_seats=table.max_seats
            )
        assert receipt.seat is not None
        return receipt.seat

    async def top_up(self, table: Table, member: int, amount: int) -> Seat:
        """Add ``amount`` chips from the balance to the member's seat."""
        with refused():
            receipt = await self.store.top_up(table.key.guild, table.table_id, member, amount)
        assert receipt.seat is not None
        return receipt.seat

    async def cash_out(self, table: Table, member: int) -> int:
        """Give up the seat; its stack goes back to the balance. Returns the chips returned."""
        with refused():
            receipt = await self.store.cash_out(table.key.guild, table.table_id, member)
        return receipt.amount

    async def set_status(self, table: Table, seat: SeatState, status: str) -> None:
        """Store and set a seat's status (``active``, ``sitting_out``, ``away``)."""
        with refused():
            await self.store.set_seat_status(table.table_id, seat.member, status)  # type: ignore[arg-type]
        seat.status = status

    # ------------------------------------------------------------------ hands
    async def create_hand(
        self, table: Table, seats: Sequence[SeatState], deal: DealCommitment, game: str = DEFAULT_GAME.name,
        rulings: Rulings | None = None, stakes: TableStakes | None = None, options: HandOptions = NO_OPTIONS,
    ) -> int:
        """Store a new hand of ``game`` dealt to ``seats`` (in deal order, the button last) from
        ``deal`` under ``rulings`` and ``stakes`` (default: the table's; a flop hand's carry its
        blinds), with its deal order (and its straddle and bomb pot, ``options``) as its first
        action, in one transaction; returns its id."""
        order = tuple(s.seat_no for s in seats)
        with refused():
            return await self.store.create_hand(
                table.table_id,
                players={s.seat_no: s.member for s in seats},
                deck=[c.code for c in deal.order],
                commitment=deal.digest,
                salt=deal.salt,
                stakes=(stakes or table.stakes).to_dict(),
                rulings=(rulings or table.rulings).to_dict(),
                game=game,
                actions=[encode_seats(order, options)],
                lease=table.lease,
            )

    async def append_action(self, table: Table, hand_id: int, seq: int, text: str) -> None:
        """Store action number ``seq`` of a hand before it is applied (under the table's lease)."""
        with refused("Your action could not be recorded, so it did not happen: "):
            await self.store.append_action(hand_id, seq, text, lease=table.lease)

    async def void_hand(self, table: Table, hand_id: int, reason: str) -> None:
        """Void a hand: every chip goes back to where it was before it (``Store.void_hand``)."""
        with refused():
            await self.store.void_hand(hand_id, reason, lease=table.lease)

    async def settle_hand(
        self, table: Table, hand_id: int, final_stacks: Mapping[int, int], phh: str
    ) -> None:
        """Settle a finished hand: final stacks by table seat, and its PHH history text."""
        with refused():
            await self.store.settle_hand(hand_id, final_stacks, phh, lease=table.lease)

    async def record_stats(self, hand_id: int, lines: Sequence[HandStatLine]) -> None:
        """Store a settled hand's stat lines. Best effort: a failure is logged and the lines are
        written later by ``bot.tables.stats.catch_up`` (at start-up), so the hand is never held up."""
        try:
            await self.store.record_hand_stats(hand_id, lines)
        except StoreError as error:
            log.warning("the stats of hand %d were not recorded now: %s", hand_id, error)


def _game_setting(value: object, default: str | None) -> str:
    """A stored game setting, or ``default`` if it is not one this code knows (e.g. written by a
    newer version): a table never fails to load over its game."""
    text = str(value) if value is not None else ""
    if text == DEALERS_CHOICE or text in GAMES:
        return text
    return default if default is not None else DEFAULT_GAME.name


def table_shell(record: TableRecord) -> Table:
    """A stored table's settings as a ``Table`` with no seats, no hand and no pending changes: its
    key, id, dealer, stakes, rulings, options, the names of the members who sat there and its seat
    limit (``Repository.load`` adds the rest; a replay seats a stored hand's players in it)."""
    settings = dict(record.settings)
    return Table(
        key=TableKey(record.guild_id, record.channel_id),
        table_id=record.id,
        dealer=record.dealer_id,
        stakes=TableStakes.from_dict(record.stakes) if record.stakes else PRESETS["small"],
        rulings=Rulings.from_dict(record.rulings),
        options=TableOptions.from_dict(settings),
        names={int(k): str(v) for k, v in dict(settings.get("names", {})).items()},
        max_seats=int(settings.get("max_seats", MAX_SEATS)),
    )
