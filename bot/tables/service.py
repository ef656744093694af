"""The table service: the one facade every front end (Discord cogs, the terminal) calls (issue 5;
DESIGN "Layers"). It never imports Discord.

Driving it::

    service = TableService(store, presenter, clock=LoopClock())
    await service.start()                      # load open tables, resume unfinished hands
    key = TableKey(guild_id, channel_id)
    await service.create_table(key, dealer=alice, stakes=PRESETS["small"])
    await service.join(key, alice, "Alice", buy_in=1000)
    await service.join(key, bob, "Bob")
    await service.deal(key, alice)             # -> prompts the first player
    await service.act(key, bob, prompt.hand_id, prompt.turn, Command(Kind.CALL))

Every operation on a table (a command, a click, a timer, a restart) runs under that table's lock
and produces ONE ``Update`` for the presenter: the notices it caused, in order, ending with a
frozen snapshot of the table (``bot.tables.notices``), handed over after the lock is released
(``bot.tables.registry``). Queries return frozen values
(``snapshot``, ``current_prompt``, ``my_cards``); front ends never read live state. Commands take
the member asking, as an ``Actor`` (member, display name, dealer rights) or a bare member id.
Refusals raise ``TableError`` (an ``IllegalAction``) with a reason for the player; nothing changes.

The work is split by job: ``registry`` (tables by key, the one ``locked(key)``), ``repository``
(the store), ``seating``, ``runner`` (deal, act, timers, finish, void, resume) and ``snapshot``
(views from ``bot.render.views``).
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bot.engine.betting.stakes import PRESETS, TableStakes
from bot.engine.command import PLAYER_KINDS, Command, Kind
from bot.engine.games.catalogue import DEALERS_CHOICE, DEFAULT_GAME, GAMES
from bot.engine.games.rulings import Rulings
from bot.render.cards import chips
from bot.render.settings import rulings_changes, stakes_change, stakes_line
from bot.render.table import TableView, format_table
from bot.render.views import table_view
from bot.store import Store
from bot.store.records import HandRecord
from bot.tables.blinds import bomb_pot_ante
from bot.tables.clock import Clock, LoopClock
from bot.tables.errors import NotDealer, StaleAction, TableError
from bot.tables.games import (
    GameSettings,
    PendingChoice,
    allowed_or_all,
    applicable_rulings,
    check_game_setting,
    parse_game_list,
    parse_ruling_for,
    setting_games,
    setting_stakes,
    setting_title,
    titles,
)
from bot.tables.leases import TableLeases
from bot.tables.notices import (
    Actor,
    NoticeKind,
    Presenter,
    PrivateNotice,
    Prompt,
    PublicNotice,
    TableKey,
    TableSnapshot,
    Update,
    VoidConsentNotice,
)
from bot.tables.options import TableOptions
from bot.tables.prompting import resolve
from bot.tables.registry import NO_TABLE, Registry
from bot.tables.repository import MAX_SEATS, Repository
from bot.tables.robot import Situation, situation
from bot.tables.runner import HandRunner, choice_refusal
from bot.tables.seating import Seating
from bot.tables.snapshot import current, hand_prompt, own_cards, snapshot, table_notice
from bot.tables.state import SeatState, Table, VoidRequest
from bot.tables.tournaments import Tournaments, Wall
from bot.tables.voiding import FLOOR, consent_reason, consenters, join, lapse

log = logging.getLogger(__name__)

__all__ = ["DEFAULT_VOID_REASON", "MAX_SEATS", "MAX_VOID_REASON", "TableService"]

DEFAULT_VOID_REASON = "voided by the dealer"
"""The reason ``TableService.void_hand`` records when the dealer gives none."""

MAX_VOID_REASON = 200
"""The longest reason (in characters) a dealer may give for voiding a hand."""


def _not_tournament(table: Table, why: str) -> None:
    """Refuse a cash-table command at a tournament's table, saying why."""
    if table.tournament is not None:
        raise TableError(f"This is a tournament table: {why}.")


def _actor(who: Actor | int, dealer_rights: bool = False) -> Actor:
    """``who`` as an ``Actor``; a bare member id has dealer rights only if ``dealer_rights``."""
    if isinstance(who, Actor):
        return replace(who, dealer_rights=True) if dealer_rights and not who.dealer_rights else who
    return Actor(who, dealer_rights=dealer_rights)


class TableService:
    """All tables of one process (see the module docstring).

    ``store``: an open ``bot.store.Store``. ``presenter``: the front end. ``clock``: schedules the
    timers (``FakeClock`` in tests). ``rng``: shuffles decks and makes salts; the default is the OS
    CSPRNG (``secrets.SystemRandom``) -- pass a seeded ``random.Random`` only for reproducible demos
    and tests. ``default_options``: timers and dealing for new tables. ``wall``: seconds since the
    epoch for tournaments' level clocks (default ``time.time``). ``floor``: who may void a hand
    without the players' consent, as the front end names them (``bot.tables.voiding.FLOOR``:
    Discord's Manage Server), or "" where nobody may (the terminal).
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
        wall: Wall | None = None,
        floor: str = FLOOR,
    ) -> None:
        self.store = store
        self.floor = floor
        self.leases = leases
        """With several processes on one database: the tables this one may drive (else None)."""
        self.presenter = presenter
        self.clock: Clock = clock if clock is not None else LoopClock()
        self.rng: random.Random = rng if rng is not None else secrets.SystemRandom()
        self.default_options = default_options or TableOptions()
        self.registry = Registry(self._collect, self._deliver, self._no_table)
        self.repository = Repository(store)
        self.seating = Seating(self.repository, self._fold_leaving, self._hand_may_start)
        self.runner = HandRunner(self.registry, self.repository, self.seating, self.clock, self.rng)
        self.tournaments = Tournaments(store, self.registry, self.repository, self.default_options, wall)
        """Sit-and-go tournaments: registration, the start, rebuys, status, cancel (front ends call
        it directly); its hooks run at a tournament's table through the runner."""
        self.tournaments.on_start = self.runner.schedule_auto_deal
        self.tournaments.deal_later = self.runner.deal_later
        self.tournaments.leases = leases
        self.runner.tournaments = self.tournaments

    # ==================================================================== start-up and lookup
    async def start(self) -> list[TableKey]:
        """Load every open table from the store and resume its unfinished hand, if any.

        A hand is resumed by replaying its stored actions through the engine from its stored deck;
        the player to act is prompted again and timers are re-armed. A hand that cannot be replayed
        (or whose deck does not match its commitment) is voided through the store, which gives every
        chip back, and the channel is told. Then, at each table with no hand in progress, seats that
        asked to leave during the last hand are cashed out and an automatic deal is scheduled again
        (``TableOptions.auto_deal_after``). Each table's restart is one update. Returns the keys of
        the tables loaded.
        """
        await self.adopt()
        return self.registry.keys()

    async def adopt(self) -> list[TableKey]:
        """Load the open tables not loaded yet, as :meth:`start` describes; with ``leases``, only
        those of this process's shards whose lease it holds or can take. Returns their keys."""
        loaded: list[Table] = []
        for record in await self.store.open_tables():
            if TableKey(record.guild_id, record.channel_id) in self.registry:
                continue
            if self.leases is not None and not (
                self.leases.serves(record.guild_id) and await self.leases.claim(record.id)
            ):
                continue
            table = await self.repository.load(record)
            if self.leases is not None:
                table.lease = self.leases.generations.get(record.id)
            self.registry.add(table)
            loaded.append(table)
        if not loaded:
            return []  # nothing new: no need to scan the unfinished hands
        await self.tournaments.attach(loaded)
        hands: dict[int, list[HandRecord]] = {}
        for hand in await self.repository.unfinished_hands():
            hands.setdefault(hand.table_id, []).append(hand)
        for table in loaded:
            async with self.registry.locked(table.key) as locked:
                for hand in hands.get(locked.table_id, ()):
                    await self.runner.resume(locked, hand)
                if locked.choice is not None:
                    if locked.hand is None:
                        await self.runner.reask(locked)     # a restart re-asks the dealer's choice
                    else:
                        locked.choice = None
                await self.seating.finish_leaving(locked)
                self.runner.schedule_auto_deal(locked)     # a table that deals by itself goes on
        return [table.key for table in loaded]

    async def drop(self, table_id: int) -> None:
        """Stop driving a table whose lease another process took: cancel its timers and forget it
        (after any operation holding its lock has finished)."""
        for table in self.registry.values():
            if table.table_id == table_id:
                async with table.lock:
                    self.registry.remove(table)

    def _no_table(self) -> str:
        """Why a key has no table here: with leases held elsewhere, it may be another process's."""
        if self.leases is not None and self.leases.elsewhere:
            return (
                "There is no table here that this Wildstud process deals. If one is open, another"
                " process is dealing it (a restart in progress?): try again in a moment."
            )
        return NO_TABLE

    async def close(self) -> None:
        """Cancel every timer (call before closing the store)."""
        self.registry.close()

    def tables(self) -> list[TableKey]:
        """The keys of the open tables this service knows."""
        return self.registry.keys()

    def stale_reason(self, table_id: int) -> str:
        """Why a button of table ``table_id`` does nothing here: its table is open in another
        channel (or server), or it was closed (issue 17: both said "closed")."""
        if any(table.table_id == table_id for table in self.registry.values()):
            return "That button belongs to a table in another channel, not this one."
        return "That button belongs to a table that has been closed."

    def has_table(self, key: TableKey) -> bool:
        """Whether ``key`` has an open table."""
        return key in self.registry

    def table(self, key: TableKey) -> Table:
        """The live table at ``key``, for tests and tools that inspect the service; front ends read
        ``snapshot`` instead, and change a table only through the service. Raises ``NoTable``."""
        return self.registry.get(key)

    # ==================================================================== queries for front ends
    def snapshot(self, key: TableKey) -> TableSnapshot:
        """The table now, as a frozen value (``NoTable`` if there is none)."""
        return snapshot(self.registry.get(key))

    def current_prompt(self, key: TableKey) -> Prompt | None:
        """The prompt of the player to act now, if a hand is waiting for one."""
        return hand_prompt(self.registry.get(key))

    def my_cards(self, key: TableKey, member: int) -> PrivateNotice:
        """The member's own cards now (for a "My cards" button when private messages fail).

        Raises ``TableError`` if they are not in the hand in progress.
        """
        live = self.registry.get(key).hand
        seat = live.seat_of(member) if live is not None else None
        if live is None or seat is None:
            raise TableError("You are not in a hand at this table.")
        return own_cards(live, seat)

    def situation(self, key: TableKey, member: int) -> Situation:
        """What ``member``'s seat may know now in the hand in progress (their own cards, every up
        card, the legal actions), for a computer player. Raises ``TableError`` if not in it."""
        live = self.registry.get(key).hand
        seat = live.seat_of(member) if live is not None else None
        if live is None or seat is None:
            raise TableError("You are not in a hand at this table.")
        return situation(live.engine, seat)

    def table_view(self, key: TableKey) -> TableView:
        """The table as everyone may see it now."""
        return table_view(self.snapshot(key))

    def status_text(self, key: TableKey) -> str:
        """The table state as text (what ``/table status`` shows)."""
        return format_table(self.table_view(key))

    # ==================================================================== tables
    async def create_table(
        self,
        key: TableKey,
        dealer: Actor | int,
        *,
        stakes: TableStakes | None = None,
        rulings: Rulings | None = None,
        options: TableOptions | None = None,
        max_seats: int = MAX_SEATS,
        game: str | None = None,
        games: str | Sequence[str] | None = None,
    ) -> TableSnapshot:
        """Open a table in a channel with ``dealer`` (its creator) as the dealer; at most
        ``max_seats`` (2..8) players may sit at it. Returns the new table.

        ``game``: a game name or ``dealers-choice`` (default ``sex-in-the-middle-east``);
        ``games``: the dealer's-choice list (names, or one comma list; default every game dealt).
        Raises ``TableError`` if the channel already has one, for an unknown game (or the store
        refuses).
        """
        if isinstance(max_seats, bool) or not isinstance(max_seats, int) or not 2 <= max_seats <= MAX_SEATS:
            raise TableError(f"A table has 2 to {MAX_SEATS} seats.")
        setting = check_game_setting(game) if game is not None else DEFAULT_GAME.name
        allowed = parse_game_list(games) if games is not None else ()
        async with self.registry.creating:
            if key in self.registry:
                raise TableError("This channel already has a table.")
            stakes = stakes or PRESETS["small"]
            table = await self.repository.create(
                key, _actor(dealer).member, stakes, rulings or Rulings(), options or self.default_options,
                max_seats, setting, allowed,     # one write: never a table row this process lacks
            )
            if self.leases is not None:
                await self.leases.claim(table.table_id)  # a new table: nobody else holds it
                table.lease = self.leases.generations.get(table.table_id)
            self.registry.add(table)
        async with self.registry.locked(key, table=table):
            described = setting_stakes(stakes, setting, table.allowed_games)
            table.post(NoticeKind.INFO, f"Table open: {stakes_line(stakes, described)}. "
                                        f"Game: {setting_title(setting, table.allowed_games)}.")
            notice = table_notice(table)
            table.tell(notice)
            assert notice.snapshot is not None
            return notice.snapshot

    async def close_table(
        self, key: TableKey, who: Actor | int, *, dealer_rights: bool = False
    ) -> dict[int, int]:
        """Close the table between hands: every stack goes back to its owner's balance.

        Returns the chips returned per member. Raises ``NotDealer`` or ``TableError`` (a hand is on).
        """
        async with self.registry.locked(key) as table:
            self._check_dealer(table, _actor(who, dealer_rights))
            _not_tournament(table, "/tournament cancel ends a tournament")
            if table.hand is not None:
                raise TableError(
                    "A hand is in progress; close the table when it ends, or void it first"
                    " (/hand void: every chip goes back)."
                )
            returned = await self.repository.close(table)
            await self.runner.cancel_choice(table)
            self.registry.remove(table)
            text = "Table closed." + "".join(
                f" {table.name(m)} gets {chips(c)} back." for m, c in returned.items()
            )
            table.post(NoticeKind.SEATING, text)
            return returned

    # ==================================================================== seats
    async def join(
        self, key: TableKey, who: Actor | int, name: str | None = None, *, buy_in: int | None = None,
        seat_no: int | None = None,
    ) -> SeatState:
        """Seat the member (shown as ``name``, default: the actor's name) with ``buy_in`` chips from
        their balance.

        The default buy-in is the most the balance and the table's maximum allow. Joining during a
        hand is fine: the new seat is dealt in from the next hand. Raises ``TableError`` (full
        table, already seated, outside the buy-in limits, balance too small...).
        """
        actor = _actor(who)
        async with self.registry.locked(key) as table:
            _not_tournament(table, "/tournament join registers (late registration, if it is open)")
            seat = await self.seating.join(table, actor.member, name or actor.name, buy_in, seat_no)
            return replace(seat)

    async def leave(self, key: TableKey, who: Actor | int) -> str:
        """Leave the table. Between hands (or if not dealt in) the stack goes back to the balance now;
        during a hand the seat is folded at its turn (chips already in stay in the pot) and cashed
        out when the hand ends (SPEC §7). Returns what happened, for the player."""
        async with self.registry.locked(key) as table:
            _not_tournament(table, "a player stays in until they are out of chips")
            return await self.seating.leave(table, _actor(who).member)

    async def sit_out(self, key: TableKey, who: Actor | int) -> str:
        """Sit out from the next hand on (a hand in progress is played out). Returns a confirmation."""
        async with self.registry.locked(key) as table:
            _not_tournament(table, "a player who is away is dealt in and blinded away")
            return await self.seating.sit_out(table, _actor(who).member)

    async def back(self, key: TableKey, who: Actor | int) -> str:
        """Come back after sitting out or being marked away: dealt in from the next hand. During a
        hand it also takes back a ``leave``: the seat stays (if it was already folded for leaving,
        it stays folded in this hand)."""
        async with self.registry.locked(key) as table:
            return await self.seating.back(table, _actor(who).member)

    async def top_up(self, key: TableKey, who: Actor | int, amount: int) -> SeatState:
        """Add chips from the balance to the seat, between hands (or when not dealt in)."""
        async with self.registry.locked(key) as table:
            _not_tournament(table, "tournament chips are not bought; /tournament rebuy, when open")
            return replace(await self.seating.top_up(table, _actor(who).member, amount))

    async def set_automuck(self, key: TableKey, who: Actor | int, on: bool) -> str:
        """Turn the member's auto-muck on or off: with it on, a hand that may be mucked at the
        showdown (beaten by a hand already shown, not all-in, not turned face up) is mucked without
        a prompt; a hand that could win a pot is always shown. A seat setting: only a seated player
        may set it, and it is kept in the table's settings, so it survives a restart. Takes effect
        at once: a player asked to show or muck right now mucks. Returns a confirmation.
        Raises ``TableError`` if the member is not seated here."""
        member = _actor(who).member
        async with self.registry.locked(key) as table:
            if table.seat_of(member) is None:
                raise TableError("You are not seated at this table: join first, then set auto-muck.")
            was = member in table.automuck
            if on:
                table.automuck.add(member)
            else:
                table.automuck.discard(member)
            if was != on:
                try:
                    await self.repository.save_settings(table)
                except TableError:
                    (table.automuck.discard if on else table.automuck.add)(member)   # nothing changed
                    raise
            live = table.hand
            if on and live is not None and live.engine.phase == "showdown":
                seat = live.engine.actor
                if seat is not None and live.members[seat] == member and live.engine.legal_actions(seat).muck:
                    await self.runner.apply(table, seat, Command(Kind.MUCK))     # the prompt it answers
            if on:
                return ("Auto-muck is on: at the showdown a beaten hand of yours is mucked without asking"
                        " (a hand that could win is always shown).")
            return "Auto-muck is off: at the showdown you are asked to show or muck a beaten hand."

    # ==================================================================== settings
    async def set_ruling(
        self, key: TableKey, who: Actor | int, name: str, value: str, *, dealer_rights: bool = False
    ) -> str:
        """Queue one ruling change for the next deal (SPEC §8). Returns the confirmation line.

        Raises ``NotDealer``; an unknown ruling or option, or a ruling that does not apply to the
        table's game (under dealer's choice: to any of its games), raises ``TableError`` listing
        the valid ones.
        """
        async with self.registry.locked(key) as table:
            self._check_dealer(table, _actor(who, dealer_rights))
            base = table.pending_rulings or table.rulings
            setting = table.pending_game or table.game
            try:
                key_name, option = parse_ruling_for(setting, table.allowed_games, name, value)
                new = base.with_ruling(key_name, option)
            except ValueError as exc:
                raise TableError(str(exc)) from None
            table.pending_rulings = None if new == table.rulings else new
            await self.repository.save_settings(table)
            change = rulings_changes(table.rulings, new) or "No change from the rulings in force."
            return f"{change}\nTakes effect from the next deal."

    async def reset_rulings(self, key: TableKey, who: Actor | int, *, dealer_rights: bool = False) -> str:
        """Queue a return to the default rulings for the next deal."""
        async with self.registry.locked(key) as table:
            self._check_dealer(table, _actor(who, dealer_rights))
            default = Rulings()
            table.pending_rulings = None if default == table.rulings else default
            await self.repository.save_settings(table)
            change = rulings_changes(table.rulings, default) or "The rulings are already the defaults."
            return f"{change}\nTakes effect from the next deal."

    async def set_game(
        self, key: TableKey, who: Actor | int, game: str, *, dealer_rights: bool = False
    ) -> str:
        """Queue the table's game for the next deal: a game name or ``dealers-choice`` (announced
        before that deal, like a ruling). Returns the confirmation line. Raises ``NotDealer``, or
        ``TableError`` naming the games for an unknown one."""
        setting = check_game_setting(game)
        async with self.registry.locked(key) as table:
            self._check_dealer(table, _actor(who, dealer_rights))
            _not_tournament(table, "the tournament's game was set when it was created")
            before = table.pending_game or table.game
            table.pending_game = None if setting == table.game else setting
            await self.repository.save_settings(table)
            if setting == before:
                return f"No change: the game is already {setting_title(setting, table.allowed_games)}."
            text = f"Game: {setting_title(table.game, table.allowed_games)} → " \
                   f"{setting_title(setting, table.allowed_games)}"
            return f"{text}\nTakes effect from the next deal."

    async def set_games(
        self, key: TableKey, who: Actor | int, games: str | Sequence[str], *, dealer_rights: bool = False
    ) -> str:
        """Set the dealer's-choice list (game names, or one comma list), used from the next
        dealer's choice asked. Returns the confirmation line. Raises ``NotDealer``, or ``TableError``
        for an unknown game or an empty list."""
        names = parse_game_list(games)
        async with self.registry.locked(key) as table:
            self._check_dealer(table, _actor(who, dealer_rights))
            table.allowed_games = names
            await self.repository.save_settings(table)
            text = f"Dealer's choice games: {titles(names)}."
            if (table.pending_game or table.game) != DEALERS_CHOICE:
                text += (" (The table deals one game now: /table game dealers-choice lets each dealer"
                         " choose.)")
            return text

    async def choose_game(self, key: TableKey, who: Actor | int, choice_id: int, game: str) -> int | None:
        """The dealer's-choice answer of the player on the button: ``choice_id`` is the number of
        the question they answer (``GameChoiceNotice``), ``game`` a game name on its list. The game
        is announced with its short rules and rulings, then dealt; returns the hand id (None if the
        hand could not be dealt: the reason is told in the channel).

        Raises ``StaleAction`` when that question is no longer waiting (the game was chosen, the
        timer chose it, a restart asked again), ``TableError`` for anyone else or a game not on
        the list. A refusal changes nothing."""
        member = _actor(who).member
        async with self.registry.locked(key) as table:
            return await self.runner.choose(table, member, choice_id, game)

    def check_choice(self, key: TableKey, member: int, choice_id: int) -> None:
        """Only reads: raise ``StaleAction`` if question ``choice_id`` is not waiting, ``TableError``
        if ``member`` is not the one to answer it (a front end calls this before deferring)."""
        table = self.registry.get(key)
        choice = table.choice
        if choice is None or choice.choice_id != choice_id:
            raise StaleAction(choice_refusal(table, choice_id))
        if choice.member != member:
            raise TableError(f"{choice.name} deals this hand and chooses its game.")

    def pending_choice(self, key: TableKey) -> PendingChoice | None:
        """The dealer's choice waiting for its answer, if any."""
        return self.registry.get(key).choice

    def games(self, key: TableKey) -> GameSettings:
        """The table's game settings now (``NoTable`` if there is none)."""
        table = self.registry.get(key)
        setting = table.pending_game or table.game
        return GameSettings(
            setting=table.game,
            pending=table.pending_game,
            allowed=allowed_or_all(table.allowed_games),
            hand_game=table.hand.game.name if table.hand is not None else None,
            choice=table.choice,
            rulings=applicable_rulings(setting, table.allowed_games),
        )

    async def set_stakes(
        self, key: TableKey, who: Actor | int, stakes: TableStakes, *, dealer_rights: bool = False
    ) -> str:
        """Queue new stakes for the next deal (SPEC §8). Returns the confirmation line."""
        async with self.registry.locked(key) as table:
            self._check_dealer(table, _actor(who, dealer_rights))
            _not_tournament(table, "the levels set the stakes")
            table.pending_stakes = None if stakes == table.stakes else stakes
            await self.repository.save_settings(table)
            setting = table.pending_game or table.game
            change = (stakes_change(table.stakes, stakes,
                                    lambda s: setting_stakes(s, setting, table.allowed_games))
                      or "No change from the stakes in force.")
            return f"{change}\nTakes effect from the next deal."

    async def set_options(
        self, key: TableKey, who: Actor | int, *, dealer_rights: bool = False, **changes: Any
    ) -> TableOptions:
        """Change timers or auto-deal (``TableOptions`` fields); takes effect from the next prompt,
        except that a turn waiting with no timer at all gets the new timer at once (otherwise a
        no-timer table whose player to act has gone away could never move on)."""
        async with self.registry.locked(key) as table:
            self._check_dealer(table, _actor(who, dealer_rights))
            try:
                table.options = replace(table.options, **changes)
            except (TypeError, ValueError) as exc:
                raise TableError(str(exc)) from None
            await self.repository.save_settings(table)
            live = table.hand
            if live is not None and live.deadline is None and live.engine.actor is not None:
                self.runner.arm_timers(table, live.hand_id, live.turn)
            return table.options

    def bomb_pot_called(self, key: TableKey) -> bool:
        """A bomb pot is called for the next flop hand at table ``key``."""
        return self.registry.get(key).bomb_pot_next

    async def call_bomb_pot(self, key: TableKey, who: Actor | int, on: bool = True, *,
                            dealer_rights: bool = False) -> str:
        """The dealer calls a bomb pot for the next flop hand (``on``), or takes the call back;
        kept in the settings JSON. Returns the confirmation; the channel is told too. Raises
        ``NotDealer``, or ``TableError`` at a table that deals no flop game."""
        async with self.registry.locked(key) as table:
            self._check_dealer(table, _actor(who, dealer_rights))
            setting = table.pending_game or table.game
            names = setting_games(setting, table.allowed_games)
            if on and not any(GAMES[n].positional for n in names):
                raise TableError(f"Bomb pots are for the flop games; this table deals "
                                 f"{setting_title(setting, table.allowed_games)}.")
            if table.bomb_pot_next == on:
                return ("A bomb pot is already called for the next flop hand." if on
                        else "No bomb pot is called.")
            table.bomb_pot_next = on
            try:
                await self.repository.save_settings(table)
            except TableError:
                table.bomb_pot_next = not on
                raise
            ante = bomb_pot_ante(table.options, table.pending_stakes or table.stakes)
            text = (f"Bomb pot for the next flop hand: everyone antes {chips(ante)}, no blinds and no"
                    " betting before the flop." if on else "The bomb pot is called off.")
            table.post(NoticeKind.SETTINGS, text)
            return text

    # ==================================================================== dealing and acting
    async def deal(
        self, key: TableKey, who: Actor | int | None = None, *, dealer_rights: bool = False
    ) -> int | None:
        """Deal the next hand; returns its hand id. ``who`` None means the table itself (auto-deal).
        At a dealer's-choice table the player on the button is asked for the game first: then this
        returns None and the hand is dealt when they answer (``choose_game``) or the timer picks
        the fallback game.

        Applies and announces queued stakes/rulings first, moves the button one seat, shuffles with
        the service's rng, announces the deck commitment before the first card, then posts the
        antes and third street, sends each player their cards and prompts the first to act.
        Raises ``NotDealer``, or ``TableError`` with the reason when fewer than two players can play.
        """
        async with self.registry.locked(key) as table:
            if who is not None:
                self._check_dealer(table, _actor(who, dealer_rights))
            return await self.runner.deal(table)

    async def act(
        self, key: TableKey, who: Actor | int, hand_id: int, turn: int, command: Command, *,
        table_id: int | None = None,
    ) -> None:
        """Apply the member's ``command``: ``fold check call bring_in complete bet raise all_in``
        (a wager with its street total "to"), at the showdown ``show muck``, and at a decision its
        choices (Baseball: ``pay`` or ``fold``, ``buy`` or ``decline``). At the showdown only a
        player whose hand may be mucked is ever asked (a hand that could win is shown by the table
        itself, and auto-muck answers for those who set it).

        ``hand_id`` and ``turn`` are those of the prompt the player answers: a command meant for
        another hand or an earlier turn is refused with ``StaleAction`` and changes nothing, as is
        anything the engine refuses (``IllegalAction``). The action is stored before any notice.
        ``timeout`` is not a player's command (only the table's timer and a leaving seat use it),
        and neither is PHH's ``wager``: ``TableError``. ``table_id`` (from a button) must be the
        channel's current table (``StaleAction`` saying whose it is).

        One pass: the turn is checked here once, the engine resolves the command once
        (``StudHand.verify``) and that resolved command is stored and applied.
        """
        if command.kind not in PLAYER_KINDS or command.timed_out:
            raise TableError(f"{command.label!r} is not a player's action.")
        async with self.registry.locked(key) as table:
            if table_id is not None and table.table_id != table_id:
                raise StaleAction(self.stale_reason(table_id))
            await self.runner.resync(table)
            seat = self.runner.check_turn(table, _actor(who).member, hand_id, turn)
            await self.runner.apply(table, seat, command)

    async def act_on_prompt(
        self, key: TableKey, who: Actor | int, command: Command
    ) -> tuple[Command, int | None]:
        """Act on whatever the member is prompted for now (the slash commands and the terminal).

        ``call`` checks when nothing is owed and posts the bring-in when that is what is owed;
        ``bet``/``raise``/``complete`` mean whichever wager is legal now and need an amount (the
        street total) unless only one total is legal. Returns the command done and the chips the
        prompt showed for it, for the reply (a wager's street total, a call's or bring-in's chips,
        all-in's total, a decision's price; None for fold, check, show, muck, decline). Raises
        ``TableError`` when nobody or somebody else is to act, or with the legal amounts; the engine
        refuses the rest.
        """
        if command.kind not in PLAYER_KINDS or command.timed_out:
            raise TableError(f"{command.label!r} is not a player's action.")
        member = _actor(who).member
        async with self.registry.locked(key) as table:
            await self.runner.resync(table)
            prompt = hand_prompt(table)
            if prompt is None:
                raise TableError("Nobody is to act right now.")
            if prompt.member != member:
                live = table.hand
                if live is None or live.seat_of(member) is None:
                    raise TableError("You are not in this hand.")
                raise TableError(f"It is not your turn: {prompt.name} is to act.")
            done = resolve(prompt, command)
            option = prompt.option(done.kind.value)
            chips = done.amount if done.amount is not None or option is None else option.amount
            seat = self.runner.check_turn(table, member, prompt.hand_id, prompt.turn)
            await self.runner.apply(table, seat, done)
            return done, chips

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
        table = self.registry.get(key)
        if table_id is not None and table.table_id != table_id:
            raise StaleAction(self.stale_reason(table_id))
        return self.runner.check_turn(table, member, hand_id, turn, table_id=table_id)

    # ==================================================================== voiding a hand
    async def void_hand(
        self,
        key: TableKey,
        who: Actor | int,
        reason: str = "",
        *,
        dealer_rights: bool = False,
        name: str | None = None,
    ) -> str:
        """The dealer voids the hand in progress (a misdeal, a dispute, a stuck hand); returns a
        confirmation for the dealer.

        Only the dealer may (the table's creator, or an actor with dealer rights: SPEC §8).
        ``reason`` is said in the channel and kept in the ledger (blank: "voided by the dealer"; at
        most ``MAX_VOID_REASON`` characters); ``name`` is how the channel names the dealer
        (default: the actor's name, else their name at this table). Under the table lock, like a
        hand's end: the store voids the hand (``Store.void_hand``: the seats kept their starting
        stacks all hand, so every chip, antes and bring-in included, is back where it was before
        the hand, and the ledger records the void); the turn timers stop; the channel is told who
        voided it and why; the cards everyone saw are opened as after every hand, so the
        commitment can still be checked; seats that left during the hand are cashed out. The next deal keeps
        this hand's button (a misdeal is re-dealt by the same dealer), also after a restart.
        Prompts of the voided hand are refused from then on (``StaleAction``).

        Fairness (``bot.tables.voiding``): once the showdown has begun, or when the one asking has
        chips in the hand, the void needs the agreement of every other player still in it
        (``VoidConsentNotice``, answered with ``answer_void``) unless they have Manage Server; the
        channel is told who asked, why, and whose agreement is needed, and so is the one asking
        (the returned text). Every void is announced with who asked for it and why.

        Raises ``NotDealer``, or ``TableError`` when no hand is in progress or the reason is too long;
        a refusal changes nothing.
        """
        actor = _actor(who, dealer_rights)
        text = " ".join(reason.split()) or DEFAULT_VOID_REASON
        async with self.registry.locked(key) as table:
            self._check_dealer(table, actor)
            if len(text) > MAX_VOID_REASON:
                raise TableError(f"Keep the reason to {MAX_VOID_REASON} characters.")
            await self.runner.resync(table)
            live = table.hand
            if live is None:
                raise TableError("No hand is in progress, so there is nothing to void.")
            self.runner.check_voidable(live)
            who_text = " ".join((name or actor.name or "").split())[:32] or table.name(actor.member)
            why = consent_reason(live, actor)
            needed = consenters(live, actor) if why is not None else {}
            if not needed:
                return await self.runner.void(table, text, who_text)
            request = VoidRequest(secrets.randbits(48), live.hand_id, actor.member, who_text, text, why or "",
                                  needed)
            table.void_request = request
            names = join(list(needed.values()))
            floor = f" (or {self.floor})" if self.floor else ""
            overrule = f" (or {self.floor} may void it)" if self.floor else ""
            question = (f"{who_text} asks to void hand #{live.hand_no} ({text}). Because {why}, a void"
                        f" needs the agreement of {names}{floor}.")
            table.post(NoticeKind.INFO, question, live.hand_id)
            table.tell(VoidConsentNotice(table.table_id, request.request_id, live.hand_id, live.hand_no,
                                         who_text, text, tuple(needed.items()), question))
            return (f"Hand #{live.hand_no} is not void yet: because {why}, voiding it needs the agreement"
                    f" of {names}, who are asked now{overrule}.")

    async def answer_void(self, key: TableKey, who: Actor | int, request_id: int, agree: bool) -> str:
        """A player's answer to void request ``request_id`` (``VoidConsentNotice``): once every
        player asked has agreed, the hand is void (announced with who asked, why and who agreed);
        one refusal ends the request and the hand goes on; a request whose reason for consent
        changed since it was made (the showdown began) lapses, the answer uncounted. Returns what
        happened, for the player.
        Raises ``StaleAction`` for a request that is over, ``TableError`` for someone not asked."""
        member = _actor(who).member
        async with self.registry.locked(key) as table:
            request, live = table.void_request, table.hand
            if request is None or request.request_id != request_id or live is None \
                    or live.hand_id != request.hand_id:
                raise StaleAction("That request to void a hand is over.")
            if member not in request.needed:
                raise TableError(f"Only {join(list(request.needed.values()))} are asked about this void.")
            change = lapse(table)        # agreements given for an old reason never count for a new one
            if change is not None:
                return (f"That request to void hand #{live.hand_no} lapsed: {change}; your answer does"
                        " not count, and the dealer may ask again.")
            name = request.needed[member]
            if not agree:
                table.void_request = None
                table.post(NoticeKind.INFO,
                           f"{name} does not agree to void hand #{live.hand_no}: it goes on.", live.hand_id)
                return f"You did not agree: hand #{live.hand_no} goes on."
            request.agreed.add(member)
            waiting = [n for m, n in request.needed.items() if m not in request.agreed]
            if waiting:
                table.post(NoticeKind.INFO, f"{name} agrees to void hand #{live.hand_no}; waiting for"
                           f" {join(waiting)}.", live.hand_id)
                return f"You agreed; waiting for {join(waiting)}."
            table.void_request = None
            agreed = join(list(request.needed.values()))
            return await self.runner.void(table, request.reason, request.asker_name,
                                          f", with the agreement of {agreed}")

    def void_request(self, key: TableKey) -> VoidRequest | None:
        """The void waiting for consent at the table, if any."""
        return self.registry.get(key).void_request

    # ==================================================================== helpers
    def _collect(self, table: Table) -> Update | None:
        """The end of an operation, under the table's lock: its notices and the table now, as one
        frozen update (None when the operation said nothing). The table is snapshotted once: when
        the operation ended on a new turn, the snapshot its prompt came from is the table now."""
        if not table.outbox:
            return None
        notices, table.outbox = tuple(table.outbox), []
        is_open = self.registry.find(table.key) is table

        def undelivered(notice: PrivateNotice, reason: str) -> PublicNotice | None:
            if notice.member in table.undeliverable:
                return None
            table.undeliverable.add(notice.member)
            return PublicNotice(
                NoticeKind.DM_FAILED,
                f"I couldn't send {notice.name} their cards ({reason}). {notice.name}: use My cards"
                " to see them.",
                notice.hand_id,
            )

        table.collected += 1
        return Update(
            table.table_id, notices, current(table, notices) if is_open else None, now=self.clock.now(),
            private_timeout=table.options.private_timeout, undelivered=undelivered,
            number=table.collected,
        )

    async def _deliver(self, table: Table, update: Update) -> None:
        """Hand an update to the front end, after the table's lock was released (one delivery at
        a time per table, in order: ``Registry.locked``). A failing front end is logged, never
        allowed to stop the hand."""
        if table.collected > update.number:
            update = replace(update, superseded=True)
        try:
            await self.presenter.update(table.key, update)
        except Exception:
            log.exception("presenter call failed")

    async def _fold_leaving(self, table: Table, seat: int) -> None:
        await self.runner.fold_leaving(table, seat)

    def _hand_may_start(self, table: Table) -> None:
        self.runner.schedule_auto_deal(table)

    @staticmethod
    def _check_dealer(table: Table, actor: Actor) -> None:
        if actor.member != table.dealer and not actor.dealer_rights:
            raise NotDealer("Only the dealer (the table creator, or someone with dealer rights) may do this.")
