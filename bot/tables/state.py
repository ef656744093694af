"""The table service's in-memory state: seats, the hand in progress, and each table.

The store is the source of truth for chips and for the action log; these objects mirror it for one
process and hold what only lives in memory (the engine object, the narrator, timers, the lock).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.engine.betting.stakes import TableStakes
from bot.engine.games.catalogue import DEFAULT_GAME, Game
from bot.engine.games.rulings import Rulings
from bot.engine.hand.hand import StudHand
from bot.render.narrate import Narrator
from bot.render.views import TournamentBadge
from bot.tables.clock import TimerHandle
from bot.tables.fairness import DealCommitment
from bot.tables.games import PendingChoice
from bot.tables.notices import Notice, NoticeKind, PublicNotice, TableKey
from bot.tables.options import TableOptions
from bot.tournament.model import Tournament

SeatStatus = str
"""``active``, ``sitting_out`` or ``away`` (the store's seat statuses)."""


@dataclass
class SeatState:
    """A seat at the table. ``seat_no`` runs 1..8 clockwise; ``stack`` is the chips at the table as of
    the last settled hand (the engine holds the live stack during a hand)."""

    seat_no: int
    member: int
    name: str
    stack: int
    status: SeatStatus = "active"
    leaving: bool = False
    waiting: bool = False
    """Sat down (or came back) while the game was running: waits for the big blind before a blind
    game deals it in (``bot.tables.blinds``); games without blinds deal it at once. Cleared when
    the seat is dealt a hand."""

    @property
    def ready(self) -> bool:
        """Would be dealt into the next hand: active, not leaving, with chips."""
        return self.status == "active" and not self.leaving and self.stack > 0


@dataclass
class LiveHand:
    """The hand in progress at a table.

    ``seat_nos[i]``/``members[i]``/``names[i]`` describe engine seat ``i`` (deal order, PHH p{i+1}).
    ``actions`` are the stored log entries (``actions[0]`` is the deal order); the next action is
    number ``turn`` = ``len(actions) + 1``, the number a prompt's answer must carry.
    """

    hand_id: int
    hand_no: int
    engine: StudHand
    deal: DealCommitment
    seat_nos: tuple[int, ...]
    members: tuple[int, ...]
    names: tuple[str, ...]
    stakes: TableStakes
    rulings: Rulings
    narrator: Narrator
    game: Game = DEFAULT_GAME
    """The game this hand is dealt as (``bot.engine.games.catalogue``)."""
    actions: list[str] = field(default_factory=list)
    narrated: int = 0
    timed_out: set[int] = field(default_factory=set)
    deadline: float | None = None
    """Clock time the current turn's timer fires (None: no timer armed)."""
    void_reason: str | None = None
    """Set while a hand the dealer voided is being wound up (its last table view shows it void)."""
    showdown_lines: list[str] = field(default_factory=list)
    """The showdown's log lines so far (shows, mucks, pots), once it has begun; they go out as one
    showdown notice when the hand is settled."""
    showdown_posted: int = 0
    """How many of ``showdown_lines`` were already posted, because a player had to be asked to show
    or muck (they see the hands shown before them)."""
    in_showdown: bool = False
    unsettled: bool = False
    """The hand is over but the store could not settle it yet (the channel was told once)."""
    """The engine's showdown has begun (``ShowdownStarted`` was narrated)."""

    @property
    def turn(self) -> int:
        """The number the next action gets (and a prompt's answer must carry)."""
        return len(self.actions) + 1

    def seat_of(self, member: int) -> int | None:
        """The member's engine seat in this hand, if dealt in."""
        try:
            return self.members.index(member)
        except ValueError:
            return None

    @property
    def button_seat_no(self) -> int:
        """The dealer button's table seat (the last seat dealt)."""
        return self.seat_nos[-1]


@dataclass
class TournamentPlay:
    """A running tournament's live part at its table."""

    tournament_id: int
    model: Tournament
    organiser: int
    starts: dict[int, int] = field(default_factory=dict)
    """Each player's stack when the hand in progress was dealt."""
    rebuy_until: float = 0.0
    """When the rebuy offers of the last hand lapse (seconds since the epoch); the next deal waits."""

    def badge(self) -> TournamentBadge:
        model = self.model
        return TournamentBadge(
            tournament_id=self.tournament_id, level=model.level,
            # The stud stakes: the blinds wait for the blind games of later issues.
            stakes=model.stakes_level.describe(blinds=False),
            next_stakes=model.next_level.describe(blinds=False),
            next_at=model.next_level_at(), hands_left=model.hands_left_in_level(),
            players_left=len(model.alive), entrants=len(model.entries), heads_up=model.heads_up,
        )


@dataclass
class VoidRequest:
    """A void waiting for the consent of the other players still in the hand (see
    ``TableService.void_hand``): who asked, why, who must agree and who has."""

    request_id: int
    """Random, 48 bits: unique across restarts too, so a button of a request from before a restart
    never answers a new one (a counter would start again at 1)."""
    hand_id: int
    asker: int
    asker_name: str
    reason: str
    why: str
    """Why consent is needed ("the showdown has begun", "Ann is dealt in")."""
    needed: dict[int, str]
    """Member -> name of everyone whose agreement is needed."""
    agreed: set[int] = field(default_factory=set)


@dataclass
class Table:
    """One table: keyed by (guild, channel), one lock for every change."""

    key: TableKey
    table_id: int
    dealer: int
    stakes: TableStakes
    rulings: Rulings
    options: TableOptions
    seats: dict[int, SeatState] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)
    pending_stakes: TableStakes | None = None
    pending_rulings: Rulings | None = None
    game: str = DEFAULT_GAME.name
    """The game setting in force: a game name, or ``dealers-choice`` (``bot.tables.games``)."""
    pending_game: str | None = None
    """The game setting from the next deal, when the dealer changed it."""
    allowed_games: tuple[str, ...] = ()
    """The dealer's-choice list (empty: every game the engine deals)."""
    choice: PendingChoice | None = None
    """A dealer's choice waiting for its answer (no hand is in progress then)."""
    choice_seq: int = 0
    """The number of the last dealer's-choice question asked at this table."""
    choice_timer: TimerHandle | None = None
    button: int | None = None
    bomb_pot_next: bool = False
    """The dealer called a bomb pot: the next flop hand is one (then this clears)."""
    redeal: bool = False
    """The last hand dealt was voided: the next deal keeps its button (a misdeal is re-dealt by the
    same dealer) instead of moving it one seat."""
    hand: LiveHand | None = None
    hands_dealt: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    delivery: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held while one update of this table is delivered to the front end (after ``lock`` is
    released: a slow front end never holds the table), so updates go out one at a time, in order."""
    collected: int = 0
    """How many updates of this table were collected so far (``Update.number`` of the newest)."""
    timers: list[TimerHandle] = field(default_factory=list)
    auto_deal: TimerHandle | None = None
    void_request: VoidRequest | None = None
    """A void asked for and waiting for the other players' consent (lapses with the hand)."""
    lease: int | None = None
    """The generation of this process's lease on the table (None: no leases, one process); every
    hand write carries it, and the store refuses it once another process has taken the table."""
    resync: bool = False
    """A write to the store failed (or was refused) while this table may have had something half
    recorded: before anything else happens here the hand is brought back in line with the store
    (``HandRunner.resync``), as a restart would."""
    retry: TimerHandle | None = None
    """The timer that tries ``resync`` again while the database is out of reach."""
    retries: int = 0
    """How many times in a row ``resync`` found the database out of reach (sets the next delay)."""
    undeliverable: set[int] = field(default_factory=set)
    max_seats: int = 8
    """The most players who may sit here (2..8; the store refuses a buy-in beyond it)."""
    automuck: set[int] = field(default_factory=set)
    """Members who muck a losing hand at the showdown without being asked (``/table automuck``; kept
    in the table's settings JSON)."""
    tournament: TournamentPlay | None = None
    """A sit-and-go's running tournament, at its table (``bot.tables.tournaments``)."""
    outbox: list[Notice] = field(default_factory=list)
    """What the operation under way has to say, in order; sent as one update when it ends
    (``bot.tables.registry.Registry.locked``)."""

    def seat_of(self, member: int) -> SeatState | None:
        """The member's seat, if seated."""
        for seat in self.seats.values():
            if seat.member == member:
                return seat
        return None

    def name(self, member: int) -> str:
        """A member's display name (as given when they joined)."""
        return self.names.get(member, f"player {member}")

    def post(self, kind: NoticeKind, text: str, hand_id: int | None = None) -> None:
        """Add a public notice to the update under way."""
        self.outbox.append(PublicNotice(kind, text, hand_id))

    def tell(self, notice: Notice) -> None:
        """Add any notice (a prompt, a reply, a private notice, the showdown) to the update."""
        self.outbox.append(notice)

    def button_seats(self) -> list[int]:
        """The seat numbers (ascending) the button may go to at the next deal: the ready seats not
        waiting for the big blind (every ready seat when fewer than two are not waiting)."""
        ready = [n for n, s in sorted(self.seats.items()) if s.ready]
        playing = [n for n in ready if not self.seats[n].waiting]
        return playing if len(playing) >= 2 else ready

    def coming_button(self, ready: Sequence[int]) -> int:
        """The button seat of the next deal, among the ``ready`` seat numbers (ascending): the
        same seat again after a voided hand (a misdeal is re-dealt with the same button) if it is
        still ready, else the next one clockwise (SPEC §2)."""
        if self.redeal and self.button is not None and self.button in ready:
            return self.button
        if self.button is None:
            return ready[0]
        return next((n for n in ready if n > self.button), ready[0])

    def cancel_timers(self) -> None:
        """Cancel the turn timers (reminder and expiry)."""
        for handle in self.timers:
            handle.cancel()
        self.timers.clear()

    def cancel_choice_timer(self) -> None:
        """Cancel the dealer's-choice timer, if armed."""
        if self.choice_timer is not None:
            self.choice_timer.cancel()
            self.choice_timer = None
