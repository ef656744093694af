"""The hand runner: dealing, actions, turn timers, the end of a hand, the dealer's void, and resuming
an unfinished hand after a restart.

Rules implemented here: SPEC §2 (the deal rotates one seat per hand, dealing starts left of the
button; players without chips or sitting out are not dealt in), SPEC §7 (timer: reminder, then
check-else-fold with the bring-in posted; a player who times out is marked away and sits out from
the next hand; a leaving seat folds at its turn), SPEC §8 (rulings and stakes changed by the dealer
take effect from the next deal, are announced before it and recorded with each hand), the
fair-deal commitment of DESIGN "Fairness", and the dealer's misdeal ruling (``void``: every chip
goes back to where it was before the hand, and the next deal keeps the button), and the showdown of
SPEC §6 as card rooms run it (a hand that could still win is shown by the table; a beaten hand is
asked to show or muck, or mucked at once for a player who set auto-muck). Every action is
stored before anyone hears of it. Methods that take a ``Table`` run inside its ``locked`` block;
the timer callbacks take the lock themselves.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from functools import partial

from bot.engine.cards.deck import Deck
from bot.engine.command import Command, Kind
from bot.engine.errors import IllegalAction
from bot.engine.games.catalogue import DEALERS_CHOICE, GAMES, game_of
from bot.engine.hand.events import CardDealt, ShowdownStarted, StreetStarted
from bot.engine.hand.hand import StudHand
from bot.engine.hand.options import NO_OPTIONS, HandOptions, Post
from bot.engine.phh.export import export_phh
from bot.render.cards import chips
from bot.render.narrate import Line, Narrator
from bot.render.settings import rulings_changes, stakes_change
from bot.store.records import HandRecord
from bot.tables.blinds import bomb_pot_ante, clockwise_from, dealt_in, is_bomb_pot
from bot.tables.clock import Clock
from bot.tables.codec import encode_action, encode_seats
from bot.tables.errors import DatabaseUnavailable, LeaseLost, StaleAction, TableError
from bot.tables.fairness import DealCommitment
from bot.tables.games import (
    PendingChoice,
    allowed_or_all,
    fallback_game,
    game_rulings_text,
    rulings_for,
    setting_stakes,
    setting_title,
    titles,
)
from bot.tables.notices import (
    GameChoiceNotice,
    NoticeKind,
    PrivateNotice,
    PublicNotice,
    Reply,
    ShowdownNotice,
    TableKey,
    TableNotice,
)
from bot.tables.registry import Registry
from bot.tables.repository import Repository
from bot.tables.reveal import live_reveal, replay_stored, reveal_text
from bot.tables.seating import Seating
from bot.tables.snapshot import hand_prompt, own_cards, snapshot, table_notice
from bot.tables.state import LiveHand, SeatState, Table
from bot.tables.stats import lines_for
from bot.tables.tournaments import Tournaments
from bot.tables.voiding import lapse

log = logging.getLogger(__name__)

RETRY_SECONDS = (2.0, 5.0, 10.0, 30.0, 60.0)
"""After a store failure, how long the table waits before it tries again to catch up with the store
(then every minute while the database stays out of reach)."""


class HandRunner:
    """Hands at the tables of one ``Registry`` (see the module docstring)."""

    def __init__(
        self, registry: Registry, repository: Repository, seating: Seating, clock: Clock, rng: random.Random
    ) -> None:
        self.registry = registry
        self.repository = repository
        self.seating = seating
        self.clock = clock
        self.rng = rng
        self.tournaments: Tournaments | None = None
        """Set by the service: the hooks of a tournament's table (levels, eliminations, the end)."""

    # ==================================================================== dealing
    async def deal(self, table: Table, *, game: str | None = None) -> int | None:
        """Deal the next hand; returns its hand id, or None when the table is dealer's choice and
        the player on the button is now asked for the game (the deal follows their answer,
        ``choose``). ``game``: the game chosen for this deal. Raises ``TableError`` (a hand is on,
        a choice is waiting, or fewer than two players can play: that reason is also told in the
        channel). A waiting choice whose chooser is no longer ready to play lapses, and the player
        on the button now is asked."""
        await self.resync(table)
        if table.hand is not None:
            if table.hand.engine.is_over:
                raise DatabaseUnavailable(
                    f"The database is unreachable, so hand #{table.hand.hand_no}'s result is not recorded"
                    " yet and the next hand cannot be dealt: both as soon as it is back.")
            raise TableError(f"Hand #{table.hand.hand_no} is still being played.")
        if table.tournament is not None and game is None:
            assert self.tournaments is not None
            if not await self.tournaments.before_deal(table):
                return None     # the tournament ended between hands (a rebuy offer lapsed)
        ready = [s for _, s in sorted(table.seats.items()) if s.ready]
        if game is None and table.choice is not None:
            if any(s.member == table.choice.member for s in ready):
                raise TableError(f"{table.choice.name} is choosing the game for this deal.")
            # The chooser left or sat out meanwhile: the question lapses, and this deal asks the
            # player on the button now.
            table.choice = None
            table.cancel_choice_timer()
        if table.auto_deal is not None:
            table.auto_deal.cancel()
            table.auto_deal = None
        if len(ready) < 2:
            reason = _no_deal_reason(table, ready)
            table.post(NoticeKind.NO_DEAL, reason)
            raise TableError(reason)
        await self._apply_pending(table)
        button = table.coming_button(table.button_seats())
        if game is None:
            if table.game == DEALERS_CHOICE:
                await self._ask(table, table.seats[button])
                return None
            game = table.game
        chosen = game_of(game)
        rulings = rulings_for(chosen, table.rulings)
        numbers = [s.seat_no for s in ready]
        if chosen.positional and table.options.join_blind == "wait":
            # A seat waiting for the big blind is dealt in when it is its big blind (bot.tables.blinds).
            numbers = dealt_in(numbers, {s.seat_no for s in ready if s.waiting}, button)
        order = clockwise_from(numbers, button)
        seats = [table.seats[n] for n in order]
        deal = DealCommitment.shuffle(self.rng)
        # One stakes record for every family: a flop hand plays the table's blinds, or the ones its
        # bet size gives (docs/rules.md, "Flop games at the table"); the hand records what it used.
        stakes = table.stakes.with_standard_blinds() if chosen.positional else table.stakes
        options = NO_OPTIONS
        if chosen.positional:        # the table's straddle, and a bomb pot called or due
            bomb = is_bomb_pot(table.options, table.bomb_pot_next, table.hands_dealt + 1)
            options = HandOptions(straddle=table.options.straddle,
                                  bomb_pot=bomb_pot_ante(table.options, stakes) if bomb else 0,
                                  posts=_posts(seats, stakes.big_blind) if not bomb else ())
        try:   # built before the hand is stored: a game the engine cannot deal stores nothing
            engine = StudHand([s.stack for s in seats], stakes, rulings, Deck.from_order(deal.order),
                              manual_showdown=True, game=chosen, button=len(seats) - 1, options=options)
        except NotImplementedError:
            raise TableError(f"{chosen.title} cannot be dealt yet.") from None
        except ValueError as exc:        # e.g. blinds the stakes cannot give: nothing is stored
            raise TableError(f"{chosen.title} cannot be dealt at these stakes: {exc}") from None
        try:
            hand_id = await self.repository.create_hand(table, seats, deal, chosen.name, rulings, stakes,
                                                        options)
        except DatabaseUnavailable:
            self.store_failed(table)   # it may have been stored all the same: resync finds it
            raise
        table.button = button
        table.redeal = False
        table.hands_dealt += 1
        await self._stop_waiting(table, seats, bomb_pot_dealt=table.bomb_pot_next and bool(options.bomb_pot))
        names = tuple(s.name for s in seats)
        live = LiveHand(
            hand_id=hand_id,
            hand_no=table.hands_dealt,
            engine=engine,
            deal=deal,
            seat_nos=tuple(order),
            members=tuple(s.member for s in seats),
            names=names,
            stakes=stakes,
            rulings=rulings,
            narrator=Narrator(names, showing_hand=rulings.showing_hand, wild_ranks=engine.game.wilds.ranks),
            game=chosen,
            actions=[encode_seats(tuple(order), options)],
        )
        table.hand = live
        if table.tournament is not None:
            assert self.tournaments is not None
            self.tournaments.hand_dealt(table, live.members, [s.stack for s in seats])
        table.post(
            NoticeKind.HAND_START,
            f"Hand #{live.hand_no}: {names[-1]} deals to {_join(names)}."
            f" {chosen.title}, {chosen.describe_stakes(stakes)}.{_bomb_pot_words(options)}"
            f"\nDeck commitment: {deal.digest} (a salted SHA-256 of each card; the cards everyone sees"
            " are opened after the hand, your own down cards to you)",
            hand_id,
        )
        await self._after_change(table, street_dealt=True)
        return hand_id

    async def _stop_waiting(self, table: Table, seats: Sequence[SeatState], *, bomb_pot_dealt: bool) -> None:
        """The seats just dealt in no longer wait for the big blind, and a bomb pot the dealer
        called is dealt (kept in the settings JSON; a failure only logs: the hand is stored, and at
        worst a seat waits one more time, or the bomb pot comes again)."""
        dealt = [s for s in seats if s.waiting]
        if not dealt and not bomb_pot_dealt:
            return
        for seat in dealt:
            seat.waiting = False
        if bomb_pot_dealt:
            table.bomb_pot_next = False
        try:
            await self.repository.save_settings(table)
        except TableError as exc:
            log.warning("table %s: could not store who waits for the big blind: %s", table.table_id,
                        exc.reason)

    async def _apply_pending(self, table: Table) -> None:
        lines: list[str] = []
        stakes, rulings = table.stakes, table.rulings
        if table.pending_stakes is not None and table.pending_stakes != stakes:
            setting = table.pending_game or table.game
            lines.append(stakes_change(
                stakes, table.pending_stakes,
                lambda s: setting_stakes(s, table.game, table.allowed_games),
                lambda s: setting_stakes(s, setting, table.allowed_games)))
            stakes = table.pending_stakes
        if table.pending_rulings is not None and table.pending_rulings != rulings:
            lines.append(rulings_changes(rulings, table.pending_rulings))
            rulings = table.pending_rulings
        game_changed = table.pending_game is not None and table.pending_game != table.game
        if game_changed and table.pending_game is not None:
            lines.append(f"Game: {setting_title(table.game, table.allowed_games)} → "
                         f"{setting_title(table.pending_game, table.allowed_games)}")
            if table.pending_game != DEALERS_CHOICE:
                lines.append(game_of(table.pending_game).describe())
        before = (table.game, table.pending_stakes, table.pending_rulings, table.pending_game)
        if game_changed and table.pending_game is not None:
            table.game = table.pending_game
        table.pending_stakes = None
        table.pending_rulings = None
        table.pending_game = None
        if not lines:
            return
        try:
            await self.repository.save_game(table, stakes, rulings)
        except TableError:
            # Not stored, so not in force: the changes stay queued for the next deal.
            table.game, table.pending_stakes, table.pending_rulings, table.pending_game = before
            raise
        table.stakes, table.rulings = stakes, rulings
        table.post(NoticeKind.SETTINGS, "New for this deal:\n" + "\n".join(lines))

    # ==================================================================== dealer's choice
    async def _ask(self, table: Table, seat: SeatState) -> None:
        """Ask the player on the button of the coming deal for its game; the timer (the table's
        turn timer; none when it has none) picks the fallback game."""
        games = allowed_or_all(table.allowed_games)
        fallback = fallback_game(table.allowed_games)
        table.choice_seq += 1
        deadline = None
        timeout = table.options.turn_timeout
        if timeout is not None:
            deadline = self.clock.now() + timeout
        choice = PendingChoice(table.choice_seq, seat.member, seat.name, games, fallback, deadline)
        table.choice = choice
        await self.repository.save_settings(table)
        self._tell_choice(table, choice)

    def _tell_choice(self, table: Table, choice: PendingChoice) -> None:
        table.cancel_choice_timer()
        fallback = GAMES[choice.fallback].title
        timer = ""
        if choice.deadline is not None:
            seconds = max(0, round(choice.deadline - self.clock.now()))
            timer = f" ({seconds} s, else {fallback})"
            table.choice_timer = self.clock.call_later(
                seconds, partial(self._choice_expired, table.key, choice.choice_id)
            )
        text = (f"Dealer's choice: {choice.name} deals the next hand and chooses the game{timer}: "
                f"{titles(choice.games)}.")
        options = tuple((name, GAMES[name].describe()) for name in choice.games)
        table.tell(GameChoiceNotice(table.table_id, choice.choice_id, choice.member, choice.name, options,
                                    choice.fallback, choice.deadline, text))

    async def reask(self, table: Table) -> None:
        """After a restart: ask the waiting dealer's choice again, under a new number (a select
        posted before the restart is refused as stale) and with a fresh timer."""
        old = table.choice
        if old is None or table.hand is not None:
            return
        table.choice_seq += 1
        deadline = None
        if table.options.turn_timeout is not None:
            deadline = self.clock.now() + table.options.turn_timeout
        choice = PendingChoice(table.choice_seq, old.member, old.name, old.games, old.fallback, deadline,
                               first_id=old.first)
        table.choice = choice
        await self.repository.save_settings(table)
        table.post(NoticeKind.INFO,
                   f"The bot restarted while {old.name} was choosing the game: they choose again.")
        self._tell_choice(table, choice)

    async def choose(self, table: Table, member: int | None, choice_id: int, name: str) -> int | None:
        """The answer to dealer's choice number ``choice_id``: announce the game (its short rules
        and rulings) and deal it. ``member`` None is the timer. Raises ``StaleAction`` when that
        choice is no longer waiting, ``TableError`` for someone else or a game not on the list."""
        choice = table.choice
        if choice is None or choice.choice_id != choice_id:
            raise StaleAction(choice_refusal(table, choice_id))
        if member is not None and member != choice.member:
            raise TableError(f"{choice.name} deals this hand and chooses its game.")
        try:
            game = game_of(name)
        except ValueError:
            raise TableError(f"Choose one of: {titles(choice.games)}.") from None
        if game.name not in choice.games:
            raise TableError(f"{game.title} is not on this table's list: {titles(choice.games)}.")
        table.choice = None
        table.cancel_choice_timer()
        await self.repository.save_settings(table)
        who = f"{choice.name} chooses"
        if member is None:
            who = f"{choice.name} did not choose in time, so the game is"
        table.post(NoticeKind.SETTINGS,
                   f"{who} {game.describe()}\n{game_rulings_text(game, table.rulings)}")
        try:
            return await self.deal(table, game=game.name)
        except TableError as exc:
            log.info("dealer's choice made but not dealt: %s", exc)
            return None

    async def _choice_expired(self, key: TableKey, choice_id: int) -> None:
        if key not in self.registry:
            return
        async with self.registry.locked(key) as table:
            choice = table.choice
            if choice is None or choice.choice_id != choice_id:
                return
            table.choice_timer = None
            await self.choose(table, None, choice_id, choice.fallback)

    async def cancel_choice(self, table: Table) -> None:
        """Forget a waiting dealer's choice (the table closes)."""
        if table.choice is not None:
            table.choice = None
            table.cancel_choice_timer()

    # ==================================================================== actions
    @staticmethod
    def check_turn(table: Table, member: int, hand_id: int, turn: int, *, table_id: int | None = None) -> int:
        """The engine seat of ``member`` if a move for ``hand_id`` / ``turn`` is theirs to make now
        (see ``TableService.check_turn``)."""
        if table_id is not None and table.table_id != table_id:
            raise StaleAction("That button belongs to a table that has been closed.")
        live = table.hand
        if live is None or live.hand_id != hand_id or live.void_reason is not None:
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

    async def apply(self, table: Table, seat: int, command: Command) -> None:
        """Validate, store, then apply one command for engine ``seat``; then tell everyone.
        ``IllegalAction``/``TableError``: nothing changed."""
        live = table.hand
        assert live is not None
        engine = live.engine
        command = engine.verify(seat, command)  # resolved; IllegalAction: nothing changed
        text = encode_action(seat, command)
        try:
            await self.repository.append_action(table, live.hand_id, live.turn, text)
        except LeaseLost:
            raise                      # another process deals the table now: nothing to catch up
        except TableError:
            # The store failed or refused what the engine allows (another writer, a dropped
            # connection after the commit?): catch up with the store before the next move.
            self.store_failed(table)
            raise
        engine.apply(seat, command)
        live.actions.append(text)
        table.cancel_timers()
        live.deadline = None
        await self._after_change(table)

    async def fold_leaving(self, table: Table, seat: int) -> None:
        """Fold a leaving seat at its turn (or post the bring-in it owes: it may not fold)."""
        live = table.hand
        assert live is not None
        kind = Kind.FOLD if live.engine.legal_actions(seat).fold else Kind.TIMEOUT
        await self.apply(table, seat, Command(kind))

    async def _after_change(self, table: Table, *, street_dealt: bool = False) -> None:
        """Narrate new events, then finish the hand or move to the next turn."""
        live = table.hand
        assert live is not None
        engine = live.engine
        events = engine.events_since(live.narrated)
        live.narrated += len(events)
        street_dealt = street_dealt or any(isinstance(e, StreetStarted) for e in events)
        self._tell(table, live, events)
        if engine.is_over:
            await self._finish(table, live.showdown_lines)
            return
        # Everyone's cards when a street starts; otherwise whoever was dealt a card outside a street's
        # start (Baseball: a bought card, and the rest of the pass it paused).
        dealt_to = {e.deal.seat for e in events if isinstance(e, CardDealt)}
        privates = [own_cards(live, seat) for seat in engine.live_seats if street_dealt or seat in dealt_to]
        await self._next_turn(table, privates)

    @staticmethod
    def _tell(table: Table, live: LiveHand, events: Sequence[object]) -> None:
        """Post the hand's new log lines. The engine's showdown (``ShowdownStarted`` and what
        follows, over one operation or several) is held back in ``live.showdown_lines``, to go out
        as one showdown notice once the hand is settled."""
        for line in _narrate(live, events):
            table.post(NoticeKind(line.kind), line.text, live.hand_id)
        if live.in_showdown:
            lapse(table)                  # a void asked for before the showdown lapses as it begins

    async def _next_turn(self, table: Table, privates: Sequence[PrivateNotice] | None = None) -> None:
        """Prompt the player to act, or act for a seat the table answers for (a leaving seat, a
        showdown's cards that speak, auto-muck). ``privates``: after an action or a deal, the table
        is told first, then these players' own cards; None when the caller told the table itself.
        A prompted turn snapshots the table once, after its timers are armed: the table notice,
        the prompt and the update's final table are that one snapshot."""
        live = table.hand
        assert live is not None
        seat = live.engine.actor
        auto = None if seat is None else self._answered_by_table(table, live, seat)
        if seat is None or auto is not None:
            if privates is not None:
                table.tell(table_notice(table))
                for notice in privates:
                    table.tell(notice)
            if seat is not None and auto is not None:
                await self._auto(table, seat, Command(auto))
            return
        self.arm_timers(table, live.hand_id, live.turn)
        if privates is None:
            prompt = hand_prompt(table)
        else:
            now = snapshot(table)
            table.tell(TableNotice(now))
            for notice in privates:
                table.tell(notice)
            prompt = now.prompt
        if live.engine.phase == "showdown":
            # Anyone asked to show or muck sees the hands shown before them first.
            fresh = live.showdown_lines[live.showdown_posted :]
            if fresh:
                heading = ["Showdown"] if live.showdown_posted == 0 else []
                table.post(NoticeKind.RESULT, "\n".join(heading + fresh), live.hand_id)
                live.showdown_posted = len(live.showdown_lines)
        assert prompt is not None
        table.tell(prompt)

    @staticmethod
    def _answered_by_table(table: Table, live: LiveHand, seat: int) -> Kind | None:
        """What the table does by itself for engine ``seat`` to act, if anything: a leaving seat
        folds (or posts the bring-in it owes); at the showdown (card rooms', SPEC §6) a hand that
        could still win a pot is shown without asking (cards speak) and a beaten hand is mucked for
        a player who set auto-muck; anyone else is asked."""
        table_seat = table.seats.get(live.seat_nos[seat])
        if table_seat is not None and table_seat.leaving:
            return Kind.FOLD if live.engine.legal_actions(seat).fold else Kind.TIMEOUT
        if live.engine.phase == "showdown":
            if not live.engine.legal_actions(seat).muck:
                return Kind.SHOW
            if live.members[seat] in table.automuck:
                return Kind.MUCK
        return None

    async def _auto(self, table: Table, seat: int, command: Command) -> None:
        """An action the table takes by itself (a show, a muck, a leaving seat's fold, a timeout)
        within someone else's operation: a store failure must not undo theirs, so it is only
        logged (``apply`` has armed the catch-up with the store)."""
        action = command.kind.value
        try:
            await self.apply(table, seat, command)
        except DatabaseUnavailable:
            log.warning("table %s: %s for seat %s not stored; retrying later", table.table_id, action, seat)
        except TableError as exc:
            log.warning("table %s: %s for seat %s refused: %s", table.table_id, action, seat, exc.reason)

    # ==================================================================== store failures
    def store_failed(self, table: Table) -> None:
        """A write to the store failed or was refused while a hand may be half recorded: bring the
        table back in line with the store before its next operation, and by itself soon."""
        table.resync = True
        table.cancel_timers()          # the turn's timer would only fail again; the catch-up re-arms it
        if table.hand is not None:
            table.hand.deadline = None
        self._arm_retry(table)

    def _arm_retry(self, table: Table) -> None:
        if table.retry is not None:
            return
        delay = RETRY_SECONDS[min(table.retries, len(RETRY_SECONDS) - 1)]
        table.retry = self.clock.call_later(delay, partial(self._retry, table.key, table.table_id))

    async def _retry(self, key: TableKey, table_id: int) -> None:
        if key not in self.registry:
            return
        async with self.registry.locked(key) as table:
            if table.table_id != table_id:
                return
            table.retry = None
            try:
                await self.resync(table)
            except TableError as exc:
                log.warning("table %s: still cannot catch up with the store: %s", table_id, exc.reason)

    async def resync(self, table: Table) -> None:
        """After a store failure (``Table.resync``), make the table what the store says, as a
        restart would: a hand whose stored log is what this process holds goes on (its turn is
        prompted again with a fresh timer); one whose log differs (a write that failed but was
        committed, another writer) is rebuilt from the store; one that ended but could not be
        settled is settled from its stored log; a hand stored by a deal that reported a failure is
        resumed. Raises ``DatabaseUnavailable`` (the retry timer stays armed) while the database is
        still out of reach."""
        if not table.resync:
            return
        live = table.hand
        try:
            record = (await self.repository.hand(live.hand_id) if live is not None
                      else await self.repository.unfinished_hand(table))
        except TableError:
            table.retries += 1
            self._arm_retry(table)
            raise
        table.resync = False
        table.retries = 0
        if table.retry is not None:
            table.retry.cancel()
            table.retry = None
        if live is not None and record is not None and record.status == "in_progress" \
                and list(record.actions) == live.actions:
            if live.engine.is_over:
                await self._finish(table, live.showdown_lines)      # settle it now (told once)
            else:
                table.post(NoticeKind.INFO, f"The database is back: hand #{live.hand_no} goes on.",
                           live.hand_id)
                await self._next_turn(table)
            return
        table.cancel_timers()
        table.hand = None
        if record is None:
            return
        if record.status == "voided":
            table.post(NoticeKind.VOID, f"Hand #{record.hand_no} is void ({record.void_reason}): every chip"
                       " bet in it is back with its owner.", record.id)
            table.redeal = bool(record.actions)
            await self.seating.finish_leaving(table)
            table.tell(table_notice(table))
            return
        await self.resume(table, record, outage=True)

    # ==================================================================== timers
    def arm_timers(self, table: Table, hand_id: int, turn: int) -> None:
        """(Re)start the turn's reminder and expiry timers (none when the table has no timer)."""
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

    @staticmethod
    def _current(table: Table, hand_id: int, turn: int) -> LiveHand | None:
        live = table.hand
        if live is None or live.hand_id != hand_id or live.turn != turn or live.engine.actor is None:
            return None
        return live

    async def _remind(self, key: TableKey, hand_id: int, turn: int) -> None:
        if key not in self.registry:
            return
        async with self.registry.locked(key) as table:
            if self._current(table, hand_id, turn) is None:
                return
            prompt = hand_prompt(table, reminder=True)
            if prompt is not None:
                table.tell(prompt)

    async def _expire(self, key: TableKey, hand_id: int, turn: int) -> None:
        if key not in self.registry:
            return
        async with self.registry.locked(key) as table:
            live = self._current(table, hand_id, turn)
            if live is None:
                return
            seat = live.engine.actor
            assert seat is not None
            member = live.members[seat]
            live.timed_out.add(seat)
            table_seat = table.seat_of(member)
            if table.tournament is not None:
                # A tournament deals a player who is not there and blinds and antes them away
                # (the card-room rule): never marked away, never removed.
                table.tell(Reply(member, "You ran out of time, so the dealer acted for you (check if"
                                         " possible, else fold). You stay dealt in."))
            elif table_seat is not None and table_seat.status == "active":
                try:
                    await self.repository.set_status(table, table_seat, "away")
                except TableError:
                    log.exception("could not mark a seat away")
                decision = live.engine.decision
                if live.engine.phase == "showdown":
                    did = "mucked your beaten hand"
                elif decision is not None:
                    did = {"buy": "declined the extra card for you", "run_twice": "ran it once for you",
                           "discard": f"discarded {decision.fallback} for you",
                           "draw": "stood pat for you"}.get(decision.kind, "folded for you")
                else:
                    did = "acted for you (check if possible, else fold)"
                table.tell(Reply(
                    member,
                    f"You ran out of time, so the dealer {did}. "
                    "You are marked away and sit out from the next hand; use back to play again.",
                ))
                table.post(NoticeKind.SEATING, f"{live.names[seat]} is away (out of time).")
            await self._auto(table, seat, Command(Kind.TIMEOUT))

    def schedule_auto_deal(self, table: Table) -> None:
        """Between hands, deal by itself after ``TableOptions.auto_deal_after`` seconds (if set and
        two players are ready)."""
        delay = table.options.auto_deal_after
        if delay is None or table.hand is not None or table.auto_deal is not None:
            return
        if sum(1 for s in table.seats.values() if s.ready) < 2:
            return
        table.auto_deal = self.clock.call_later(delay, partial(self._auto_deal, table.key))

    def deal_later(self, table: Table, delay: float) -> None:
        """Deal by itself after ``delay`` seconds (a tournament waiting for rebuys)."""
        if table.auto_deal is not None:
            table.auto_deal.cancel()
        table.auto_deal = self.clock.call_later(delay, partial(self._auto_deal, table.key))

    async def _auto_deal(self, key: TableKey) -> None:
        if key not in self.registry:
            return
        async with self.registry.locked(key) as table:
            table.auto_deal = None
            if table.hand is not None:
                return
            try:
                await self.deal(table)
            except DatabaseUnavailable:
                # Nobody clicked, so nobody else tries again: deal as soon as the store is back.
                delay = RETRY_SECONDS[min(table.retries, len(RETRY_SECONDS) - 1)]
                log.warning("table %s: automatic deal not stored; trying again in %ss", table.table_id, delay)
                table.auto_deal = self.clock.call_later(delay, partial(self._auto_deal, key))
            except TableError:
                pass  # the reason was posted; the next join or back re-arms the auto-deal

    # ==================================================================== the dealer's void
    @staticmethod
    def check_voidable(live: LiveHand) -> None:
        """Refuse to void a hand that is over but not settled yet (the database was out of reach):
        a void would throw its real result away."""
        if live.engine.is_over:
            raise DatabaseUnavailable(
                f"The database is unreachable, so hand #{live.hand_no}'s result is not recorded yet (it"
                " will be as soon as it is back); a hand that is over cannot be voided.")

    async def void(self, table: Table, reason: str, who: str, consent: str = "") -> str:
        """Void the hand in progress (see ``TableService.void_hand``); returns the confirmation.
        ``consent``: how the void was agreed to, said after who voided it (", with the agreement of
        Ben")."""
        await self.resync(table)
        live = table.hand
        if live is None:
            raise TableError("No hand is in progress, so there is nothing to void.")
        self.check_voidable(live)
        try:
            await self.repository.void_hand(table, live.hand_id, f"{reason} (voided by {who}{consent})")
        except DatabaseUnavailable:
            self.store_failed(table)
            raise
        table.cancel_timers()
        table.void_request = None
        live.deadline = None
        live.void_reason = reason
        table.post(
            NoticeKind.VOID,
            f"Hand #{live.hand_no} is void: {who} voided it ({reason}){consent}. Every chip bet in it is"
            " back with its owner: each stack is what it was before the hand.",
            live.hand_id,
        )
        table.tell(table_notice(table))            # the hand's last state: void, no cards, no pot
        _reveal(table, live)
        table.hand = None
        table.redeal = True
        await self.seating.finish_leaving(table)
        table.tell(table_notice(table))
        self.schedule_auto_deal(table)
        return f"Hand #{live.hand_no} is void; every chip went back to where it was before the hand."

    # ==================================================================== the end of a hand
    async def _finish(self, table: Table, showdown_lines: list[str]) -> None:
        live = table.hand
        assert live is not None
        result = live.engine.result
        assert result is not None
        table.cancel_timers()
        table.void_request = None         # a void asked for lapses with the hand
        finals = {live.seat_nos[i]: result.final_stacks[i] for i in range(len(live.seat_nos))}
        try:
            await self.repository.settle_hand(table, live.hand_id, finals, _history(live))
        except DatabaseUnavailable:
            # The hand stays, over, until the store has its result: the retry (or the next deal)
            # settles it from the stored log, as a restart would. No chip is lost meanwhile.
            if not live.unsettled:
                live.unsettled = True
                table.post(
                    NoticeKind.INFO,
                    f"Hand #{live.hand_no} is over, but the database is unreachable, so its result is not"
                    " recorded yet: it will be as soon as the database is back (every chip is safe).",
                    live.hand_id,
                )
            self.store_failed(table)
            return
        except LeaseLost:
            # Another process took the table over (this one stalled past its lease): it settles
            # the hand from the stored log; this one lets go of it.
            log.warning("table %s: lease lost before hand %s was settled", table.table_id, live.hand_id)
            table.cancel_timers()
            table.hand = None
            return
        except TableError:
            log.exception("could not settle hand %s", live.hand_id)
            table.post(
                NoticeKind.INFO,
                f"Hand #{live.hand_no} could not be settled; it will be settled when the bot restarts.",
                live.hand_id,
            )
            table.hand = None
            return
        await self.repository.record_stats(live.hand_id, lines_for(live.members, live.engine))
        if result.showdown:
            # Built from the engine's result: who showed (in showing order) and who won what. The
            # showdown's lines begin with one line per hand in show order ("shows" or "mucks").
            winnings = {live.members[i]: w for i, w in enumerate(result.winnings) if w}
            shown = tuple(
                (live.names[s], line)
                for s, line in zip(result.show_order, showdown_lines, strict=False) if s in result.shown
            )
            text = "Showdown\n" + "\n".join(showdown_lines)
            table.tell(ShowdownNotice(live.hand_id, text, shown, winnings))
        for i, seat_no in enumerate(live.seat_nos):
            seat = table.seats.get(seat_no)
            if seat is not None and seat.member == live.members[i]:
                seat.stack = result.final_stacks[i]
        table.tell(table_notice(table, over=True))  # the hand's final state
        _reveal(table, live)
        table.hand = None
        await self.seating.finish_leaving(table)
        if table.tournament is not None:
            assert self.tournaments is not None
            finals = {live.members[i]: result.final_stacks[i] for i in range(len(live.members))}
            if await self.tournaments.after_hand(table, finals, live.hand_id):
                return          # the tournament is over: prizes paid, the table closed
        for seat in sorted(table.seats.values(), key=lambda s: s.seat_no):
            if seat.stack <= 0 and table.tournament is None:
                table.post(NoticeKind.SEATING, f"{seat.name} is out of chips.")
        table.tell(table_notice(table))
        self.schedule_auto_deal(table)

    # ==================================================================== recovery
    async def resume(self, table: Table, record: HandRecord, *, outage: bool = False) -> None:
        """Replay an unfinished hand from its stored deck and actions and go on with it: the
        player to act is prompted again and timers re-armed. A hand that cannot be replayed (or
        whose deck does not match its commitment) is voided and the channel told. ``outage``: the
        catch-up after a store failure rather than a restart (only the wording differs)."""
        after = "now that the database is back" if outage else "after a restart"
        before = "while the database was unreachable" if outage else "just before a restart"
        try:
            live, told = _rebuild(table, record)
        except (IllegalAction, ValueError, KeyError, IndexError, NotImplementedError) as exc:
            await self.repository.void_hand(table, record.id, f"its log could not be replayed ({exc})")
            table.post(
                NoticeKind.VOID,
                f"Hand #{record.hand_no} could not be resumed {after} and is void: every chip bet in"
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
            _narrate(live, events[:told])
            live.showdown_posted = len(live.showdown_lines)
            live.narrated = len(events)
            table.post(NoticeKind.INFO, f"Hand #{live.hand_no} ended {before}:", live.hand_id)
            self._tell(table, live, events[told:])
            await self._finish(table, live.showdown_lines)
            return
        _narrate(live, events)  # consume: the log so far was already told
        live.narrated = len(events)
        # A showdown under way is told again before its next prompt (the hands shown so far).
        table.post(
            NoticeKind.INFO, f"Hand #{live.hand_no} resumes {after}: same cards, same pot.",
            live.hand_id,
        )
        table.tell(table_notice(table))
        for seat in live.engine.live_seats:
            table.tell(own_cards(live, seat))
        await self._next_turn(table)


def _narrate(live: LiveHand, events: Sequence[object]) -> list[Line]:
    """The log lines of new ``events`` to post now; the showdown's lines (from ``ShowdownStarted``
    on) are added to ``live.showdown_lines`` instead."""
    if live.in_showdown:
        live.showdown_lines += [line.text for line in live.narrator.lines(events)]  # type: ignore[arg-type]
        return []
    at = next((i for i, e in enumerate(events) if isinstance(e, ShowdownStarted)), None)
    if at is None:
        return live.narrator.lines(events)  # type: ignore[arg-type]
    lines: list[Line] = live.narrator.lines(events[:at])  # type: ignore[arg-type]
    # Narrating ShowdownStarted flushes any street line still pending, then adds the showdown's own
    # heading (which the showdown notice writes itself).
    lines += live.narrator.lines(events[at : at + 1])[:-1]  # type: ignore[arg-type]
    live.in_showdown = True
    live.showdown_lines += [line.text for line in live.narrator.lines(events[at + 1 :])]  # type: ignore[arg-type]
    return lines


def _reveal(table: Table, live: LiveHand) -> None:
    """After a hand (finished or voided): open the cards everyone saw, nothing else (issue 10)."""
    table.tell(PublicNotice(
        NoticeKind.REVEAL, reveal_text(live.hand_no, live.hand_id, live.deal, live.engine), live.hand_id,
        reveal=live_reveal(live.hand_no, live.hand_id, live.deal, live.engine),
    ))


def _rebuild(table: Table, record: HandRecord) -> tuple[LiveHand, int]:
    """The hand replayed from its stored deck and actions, and how many of its events came before
    its last stored action."""
    engine, order, deal, told = replay_stored(record)
    players = {p.seat_no: p for p in record.players}
    stakes, rulings, game = engine.stakes, engine.rulings, engine.game
    members = tuple(players[n].member_id for n in order)
    names = tuple(table.name(m) for m in members)
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
        narrator=Narrator(names, showing_hand=rulings.showing_hand, wild_ranks=engine.game.wilds.ranks),
        game=game,
        actions=list(record.actions),
    )
    return live, told


def choice_refusal(table: Table, choice_id: int) -> str:
    """Why an answer to dealer's choice question ``choice_id`` does nothing: it was asked again
    under a newer number (after a restart), it was answered (or its timer chose), or the table
    never asked it."""
    if choice_id > table.choice_seq or choice_id <= 0:
        return "This table never asked that question."
    choice = table.choice
    if choice is not None and choice.first <= choice_id < choice.choice_id:
        return (f"That question was asked again after the bot restarted: {choice.name} chooses on the"
                " newest one.")
    return "The game for that deal was already chosen."


def _history(live: LiveHand) -> str:
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


def _posts(seats: Sequence[SeatState], big_blind: int) -> tuple[Post, ...]:
    """Under ``join_blind = post``: each seat still waiting for the big blind and dealt in away from
    the blinds posts a live big blind (engine seats: ``seats`` in deal order, the button last)."""
    n = len(seats)
    blinds = {n - 1, 0} if n == 2 else {0, 1}
    return tuple(Post(i, live=big_blind) for i, s in enumerate(seats) if s.waiting and i not in blinds)


def _bomb_pot_words(options: HandOptions) -> str:
    """`` Bomb pot: everyone antes 100; no blinds, no betting before the flop.`` for a bomb pot."""
    if not options.bomb_pot:
        return ""
    return f" Bomb pot: everyone antes {chips(options.bomb_pot)}; no blinds, no betting before the flop."


def _no_deal_reason(table: Table, ready: Sequence[SeatState]) -> str:
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


def _join(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]
