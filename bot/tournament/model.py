"""A sit-and-go tournament as a pure state machine: entries, the level clock, hands, eliminations,
rebuys, late registration, the end and a cancel.

Nothing here does I/O or reads the time: callers pass ``now`` (seconds since the epoch) and the
stacks each hand started and ended with. Rules (docs/rules.md, "Tournaments"):

- Everyone starts with the same stack; the buy-ins (and rebuys) make the prize pool.
- Levels change between hands only: ``before_hand`` moves the level on when its minutes have run
  out (by the wall clock; after a long stop several levels may pass at once, keeping the cadence)
  or when it has had its hands.
- A player who ends a hand without chips is busted. During the rebuy levels they may rebuy (a
  new starting stack for another buy-in) until the next hand is dealt; otherwise they are out.
  Players out in the same hand place by the chips they started that hand with, more chips placing
  higher; equal stacks tie and share the prizes of their places (the TDA's rule, PokerStars' live
  tournament rules). Each still gets a distinct place number, in seat order for the listing.
- The last player with chips wins. ``heads_up`` is true when two are left.
- Cancelled before the start: every buy-in is refunded. After: the organiser's ruling, ``icm``
  (default: the places already decided keep their prizes, the chips in play share the rest by the
  independent chip model) or ``refund`` (every buy-in and rebuy returned as if nothing had been
  played).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.engine.games import DEALERS_CHOICE, GAMES, game_of
from bot.tournament.payouts import PAYOUTS, icm_prizes, percentages, prizes, split_tied
from bot.tournament.structure import DEFAULT_STARTING_STACK, Level, Structure, StructureError

MAX_SEATS = 8
"""One table seats 2 to 8; a second table is a later step."""

CANCEL_RULINGS = ("icm", "refund")
"""How a tournament cancelled after its start is paid (contract names); ``icm`` is the default."""

ROTATE = ("level", "orbit")
"""A rotation of games changes game each level or each orbit."""


class TournamentError(ValueError):
    """A request the tournament refuses; the message says why, for people."""


class Phase(enum.StrEnum):
    REGISTERING = "registering"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class GamePlan:
    """Which game is dealt: one game, ``dealers-choice``, or a rotation of games changing each
    ``level`` or ``orbit`` (``horse``-style lists)."""

    games: tuple[str, ...]
    rotate: str = "level"

    def __post_init__(self) -> None:
        if not self.games:
            raise TournamentError("name a game, dealers-choice or a list of games")
        if self.rotate not in ROTATE:
            raise TournamentError(f"a rotation changes game each {' or '.join(ROTATE)}")
        for name in self.games:
            if name != DEALERS_CHOICE and name not in GAMES:
                raise TournamentError(f"unknown game {name!r}")
        if DEALERS_CHOICE in self.games and len(self.games) > 1:
            raise TournamentError("dealers-choice cannot be part of a rotation")

    @classmethod
    def parse(cls, text: str, rotate: str = "level") -> GamePlan:
        """``"seven-card-stud"``, ``"dealers-choice"`` or ``"razz, seven-card-stud, ..."``."""
        names: list[str] = []
        for part in text.split(","):
            if not part.strip():
                continue
            if part.strip().lower() in (DEALERS_CHOICE, "dealer's choice", "dealers choice"):
                names.append(DEALERS_CHOICE)
                continue
            try:
                names.append(game_of(part.strip()).name)
            except ValueError:
                raise TournamentError(f"unknown game {part.strip()!r}") from None
        return cls(tuple(names), rotate)

    def game(self, index: int) -> str:
        """The game of the ``index``-th level or orbit (0-based)."""
        return self.games[index % len(self.games)]

    def describe(self) -> str:
        if len(self.games) == 1:
            return "dealer's choice" if self.games[0] == DEALERS_CHOICE else game_of(self.games[0]).title
        titles = ", ".join(game_of(name).title for name in self.games)
        return f"{titles} (a new game each {self.rotate})"


@dataclass(frozen=True, slots=True)
class Options:
    """What the organiser chose. ``late_registration_levels``/``rebuy_levels``: registration and
    rebuys stay open through that many levels (0: none)."""

    plan: GamePlan
    structure: Structure
    buy_in: int = 0
    starting_stack: int = DEFAULT_STARTING_STACK
    payouts: str = "standard"
    seats: int = 6
    late_registration_levels: int = 0
    rebuy_levels: int = 0

    def __post_init__(self) -> None:
        if isinstance(self.buy_in, bool) or not isinstance(self.buy_in, int) or not 0 <= self.buy_in <= 10**9:
            raise TournamentError("the buy-in is a whole number of chips, 0 for a freeroll")
        if not isinstance(self.starting_stack, int) or not 1 <= self.starting_stack <= 10**9:
            raise TournamentError("the starting stack is a whole number of chips above zero")
        first = self.structure.level(1)
        if self.starting_stack < first.ante + first.bring_in:
            raise TournamentError(
                f"a starting stack of {self.starting_stack:,} cannot pay the first level's ante and bring-in"
            )
        if self.payouts not in PAYOUTS:
            raise TournamentError(f"payouts are {' or '.join(PAYOUTS)}")
        if not isinstance(self.seats, int) or not 2 <= self.seats <= MAX_SEATS:
            raise TournamentError(f"a sit-and-go seats 2 to {MAX_SEATS} players (one table)")
        for name in ("late_registration_levels", "rebuy_levels"):
            value = getattr(self, name)
            if not isinstance(value, int) or not 0 <= value <= 20:
                raise TournamentError(f"{name.replace('_', ' ')} is 0 to 20")

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": list(self.plan.games), "rotate": self.plan.rotate,
            "structure": self.structure.to_dict(), "buy_in": self.buy_in,
            "starting_stack": self.starting_stack, "payouts": self.payouts, "seats": self.seats,
            "late_registration_levels": self.late_registration_levels, "rebuy_levels": self.rebuy_levels,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Options:
        return cls(
            plan=GamePlan(tuple(data["games"]), data["rotate"]),
            structure=Structure.from_dict(data["structure"]),
            buy_in=data["buy_in"], starting_stack=data["starting_stack"], payouts=data["payouts"],
            seats=data["seats"], late_registration_levels=data["late_registration_levels"],
            rebuy_levels=data["rebuy_levels"],
        )


@dataclass(slots=True)
class Entry:
    """One player in the tournament. ``paid``: buy-in plus rebuys. ``out``: the index of the
    elimination group that knocked them out (None while in); ``busted_with``: the chips they
    started the hand they busted in with (their rank within the group)."""

    member: int
    name: str
    stack: int
    paid: int
    rebuys: int = 0
    out: int | None = None
    busted_with: int | None = None
    pending_rebuy: bool = False

    @property
    def alive(self) -> bool:
        return self.out is None


@dataclass(frozen=True, slots=True)
class Elimination:
    """A player out of the tournament, and their place (1 is the winner)."""

    member: int
    name: str
    place: int
    tied: bool = False


@dataclass(frozen=True, slots=True)
class LevelChange:
    """The level moved on before a hand."""

    number: int
    level: Level


@dataclass(frozen=True, slots=True)
class BeforeHand:
    """What happened before a deal: a level change, rebuy offers that lapsed, the end."""

    level_change: LevelChange | None
    eliminated: tuple[Elimination, ...]
    finished: bool


@dataclass(frozen=True, slots=True)
class AfterHand:
    """What a hand's result did: players out, players offered a rebuy, the end."""

    eliminated: tuple[Elimination, ...]
    may_rebuy: tuple[int, ...]
    finished: bool


@dataclass(slots=True)
class Tournament:
    """The state of one sit-and-go. Build with :meth:`new`; store with ``to_dict``/``from_dict``."""

    options: Options
    organiser: int
    phase: Phase = Phase.REGISTERING
    entries: dict[int, Entry] = field(default_factory=dict)
    level: int = 1
    level_started: float = 0.0
    hands_in_level: int = 0
    hands: int = 0
    groups: int = 0
    game_index: int = 0
    hands_in_game: int = 0
    orbit_size: int = 0

    @classmethod
    def new(cls, options: Options, organiser: int) -> Tournament:
        return cls(options, organiser)

    # ------------------------------------------------------------------ reading
    @property
    def pool(self) -> int:
        """The prize pool: every buy-in and rebuy."""
        return sum(e.paid for e in self.entries.values())

    @property
    def alive(self) -> list[Entry]:
        return [e for e in self.entries.values() if e.alive]

    @property
    def heads_up(self) -> bool:
        return self.phase is Phase.RUNNING and len(self.alive) == 2

    @property
    def stakes_level(self) -> Level:
        return self.options.structure.level(self.level)

    @property
    def next_level(self) -> Level:
        return self.options.structure.level(self.level + 1)

    def next_level_at(self) -> float | None:
        """When the level ends (seconds since the epoch), for levels counted in minutes."""
        length = self.options.structure.length
        if length.unit != "minutes":
            return None
        return self.level_started + 60 * length.amount

    def hands_left_in_level(self) -> int | None:
        length = self.options.structure.length
        return length.amount - self.hands_in_level if length.unit == "hands" else None

    @property
    def late_registration_open(self) -> bool:
        return self.phase is Phase.REGISTERING or (
            self.phase is Phase.RUNNING and self.level <= self.options.late_registration_levels
        )

    @property
    def rebuys_open(self) -> bool:
        return self.phase is Phase.RUNNING and self.level <= self.options.rebuy_levels

    def paid_places(self) -> tuple[int, ...]:
        """The prizes of the places paid, best first (final once registration has closed)."""
        return prizes(self.pool, percentages(self.options.payouts, max(1, len(self.entries))))

    def game(self) -> str:
        """The game of the coming hand (``dealers-choice`` lets the table ask)."""
        return self.options.plan.game(self.game_index)

    def standings(self) -> list[Elimination]:
        """Everyone by place: players still in by chips (the winner once finished), then the
        eliminated, latest out first. Tied players (out in one hand with equal stacks) are marked."""
        alive = sorted(self.alive, key=lambda e: (-e.stack, e.member))
        rows = [Elimination(e.member, e.name, n) for n, e in enumerate(alive, start=1)]
        out = [e for e in self.entries.values() if e.out is not None]
        out.sort(key=lambda e: (-(e.out or 0), -(e.busted_with or 0), e.member))
        place = len(rows)
        for entry in out:
            place += 1
            tied = sum(1 for o in out if o.out == entry.out and o.busted_with == entry.busted_with) > 1
            rows.append(Elimination(entry.member, entry.name, place, tied))
        return rows

    def prizes(self) -> dict[int, int]:
        """Each member's prize once finished (players tied for places share them)."""
        if self.phase is not Phase.FINISHED:
            raise TournamentError("the tournament has not finished")
        return self._prizes_by_place(self.standings())

    def _prizes_by_place(self, rows: Sequence[Elimination]) -> dict[int, int]:
        table = self.paid_places()
        result = {row.member: 0 for row in rows}
        done: set[int] = set()
        for row in rows:
            if row.member in done:
                continue
            entry = self.entries[row.member]
            if row.tied:
                group = [r for r in rows if r.tied and self.entries[r.member].out == entry.out
                         and self.entries[r.member].busted_with == entry.busted_with]
            else:
                group = [row]
            amounts = [table[r.place - 1] if r.place <= len(table) else 0 for r in group]
            for r, amount in zip(group, split_tied(amounts), strict=True):
                result[r.member] = amount
                done.add(r.member)
        return result

    # ------------------------------------------------------------------ registering
    def register(self, member: int, name: str) -> Entry:
        """Enter ``member`` (paying the buy-in, into the pool). Before the start, or after it during
        late registration (with a starting stack, from the next hand)."""
        if self.phase in (Phase.FINISHED, Phase.CANCELLED):
            raise TournamentError(f"the tournament is {self.phase.value}")
        if member in self.entries:
            raise TournamentError("you are already registered")
        if not self.late_registration_open:
            raise TournamentError("registration is closed")
        if len(self.alive) >= self.options.seats:
            raise TournamentError(f"the table is full ({self.options.seats} seats)")
        entry = Entry(member, name, self.options.starting_stack, self.options.buy_in)
        self.entries[member] = entry
        return entry

    def unregister(self, member: int) -> Entry:
        """Leave before the start (the buy-in is refunded)."""
        if self.phase is not Phase.REGISTERING:
            raise TournamentError("you can only leave a tournament before it starts")
        if member not in self.entries:
            raise TournamentError("you are not registered")
        return self.entries.pop(member)

    @property
    def full(self) -> bool:
        return len(self.alive) >= self.options.seats

    def start(self, now: float) -> None:
        if self.phase is not Phase.REGISTERING:
            raise TournamentError(f"the tournament is {self.phase.value}")
        if len(self.entries) < 2:
            raise TournamentError("a tournament needs at least two players")
        self.phase = Phase.RUNNING
        self.level = 1
        self.level_started = now
        self.hands_in_level = 0

    # ------------------------------------------------------------------ hands
    def before_hand(self, now: float) -> BeforeHand:
        """Between hands: lapse the rebuy offers of the last hand, move the level on if its time
        or hands are up, and say whether the tournament has ended."""
        self._running()
        eliminated = self._close_rebuys()
        finished = self._check_finished()
        change: LevelChange | None = None
        length = self.options.structure.length
        old = self.level
        if not finished:
            if length.unit == "minutes":
                seconds = 60 * length.amount
                while now >= self.level_started + seconds:
                    self.level += 1
                    self.level_started += seconds
            elif self.hands_in_level >= length.amount:
                self.level += 1
                self.hands_in_level = 0
            if self.level != old:
                self.hands_in_level = 0
                change = LevelChange(self.level, self.stakes_level)
                if self.options.plan.rotate == "level":
                    self.game_index += self.level - old
        if finished:
            eliminated = (*eliminated, *self._winner())
        return BeforeHand(change, eliminated, finished)

    def hand_started(self, players: int) -> None:
        """A hand was dealt to ``players`` players (the orbit of a per-orbit rotation)."""
        self._running()
        if self.options.plan.rotate == "orbit" and len(self.options.plan.games) > 1:
            if self.orbit_size == 0:
                self.orbit_size = players
            if self.hands_in_game >= self.orbit_size:
                self.game_index += 1
                self.hands_in_game = 0
                self.orbit_size = players
            self.hands_in_game += 1

    def record_hand(self, start: Mapping[int, int], end: Mapping[int, int]) -> AfterHand:
        """A hand ended: ``start``/``end`` are the stacks of the players dealt in. Chips are
        conserved (a hand only moves chips between its players); players at 0 are busted."""
        self._running()
        if set(start) != set(end) or not set(start) <= set(self.entries):
            raise TournamentError(
                "a hand's players must be tournament players, the same at its start and end"
            )
        if sum(start.values()) != sum(end.values()) or any(v < 0 for v in end.values()):
            raise TournamentError("a hand must conserve the tournament's chips")
        for member, stack in start.items():
            entry = self.entries[member]
            if not entry.alive or entry.stack != stack:
                raise TournamentError(f"{entry.name} did not start the hand with {stack:,} chips")
        for member, stack in end.items():
            self.entries[member].stack = stack
        self.hands += 1
        self.hands_in_level += 1
        busted = [m for m, s in end.items() if s == 0]
        for member in busted:
            self.entries[member].busted_with = start[member]
        if self.rebuys_open and busted:
            for member in busted:
                self.entries[member].pending_rebuy = True
            return AfterHand((), tuple(busted), False)
        eliminated = self._eliminate(busted)
        finished = self._check_finished()
        if finished:
            eliminated = (*eliminated, *self._winner())
        return AfterHand(eliminated, (), finished)

    def rebuy(self, member: int) -> Entry:
        """A busted player buys a new starting stack (another buy-in, into the pool)."""
        entry = self.entries.get(member)
        if entry is None:
            raise TournamentError("you are not in this tournament")
        if not entry.pending_rebuy:
            raise TournamentError(
                "you can rebuy only after busting, before the next hand, during the rebuy levels"
            )
        entry.pending_rebuy = False
        entry.busted_with = None
        entry.stack = self.options.starting_stack
        entry.paid += self.options.buy_in
        entry.rebuys += 1
        return entry

    def _close_rebuys(self) -> tuple[Elimination, ...]:
        pending = [e.member for e in self.entries.values() if e.pending_rebuy]
        for member in pending:
            self.entries[member].pending_rebuy = False
        return self._eliminate(pending)

    def _eliminate(self, busted: Sequence[int]) -> tuple[Elimination, ...]:
        if not busted:
            return ()
        self.groups += 1
        for member in busted:
            self.entries[member].out = self.groups
        rows = {row.member: row for row in self.standings()}
        return tuple(sorted((rows[m] for m in busted), key=lambda r: -r.place))

    def _check_finished(self) -> bool:
        if len(self.alive) <= 1 and not any(e.pending_rebuy for e in self.entries.values()):
            self.phase = Phase.FINISHED
            return True
        return False

    def _winner(self) -> tuple[Elimination, ...]:
        return tuple(row for row in self.standings() if row.place == 1 and self.entries[row.member].alive)

    def _running(self) -> None:
        if self.phase is not Phase.RUNNING:
            raise TournamentError(f"the tournament is {self.phase.value}, not running")

    # ------------------------------------------------------------------ the end
    def cancel(self, ruling: str = "icm") -> dict[int, int]:
        """Stop the tournament; returns what each entrant is paid from the pool (summing to it).
        Before the start every buy-in is refunded whatever the ruling."""
        if ruling not in CANCEL_RULINGS:
            raise TournamentError(f"a cancel pays by {' or '.join(CANCEL_RULINGS)}")
        if self.phase in (Phase.FINISHED, Phase.CANCELLED):
            raise TournamentError(f"the tournament is already {self.phase.value}")
        started = self.phase is Phase.RUNNING
        if started:
            self._close_rebuys()
        self.phase = Phase.CANCELLED
        if not started or ruling == "refund":
            return {m: e.paid for m, e in self.entries.items()}
        rows = self.standings()
        result = self._prizes_by_place([r for r in rows if not self.entries[r.member].alive])
        table = self.paid_places()
        alive = [e for e in self.entries.values() if e.alive]
        remaining = list(table[: len(alive)]) + [0] * max(0, len(alive) - len(table))
        paid = icm_prizes([e.stack for e in alive], remaining)
        for entry, amount in zip(alive, paid, strict=True):
            result[entry.member] = amount
        return result

    # ------------------------------------------------------------------ storing
    def to_dict(self) -> dict[str, Any]:
        return {
            "options": self.options.to_dict(), "organiser": self.organiser, "phase": self.phase.value,
            "entries": [
                {"member": e.member, "name": e.name, "stack": e.stack, "paid": e.paid, "rebuys": e.rebuys,
                 "out": e.out, "busted_with": e.busted_with, "pending_rebuy": e.pending_rebuy}
                for e in self.entries.values()
            ],
            "level": self.level, "level_started": self.level_started, "hands_in_level": self.hands_in_level,
            "hands": self.hands, "groups": self.groups, "game_index": self.game_index,
            "hands_in_game": self.hands_in_game, "orbit_size": self.orbit_size,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Tournament:
        try:
            entries = {e["member"]: Entry(**e) for e in data["entries"]}
            return cls(
                options=Options.from_dict(data["options"]), organiser=data["organiser"],
                phase=Phase(data["phase"]), entries=entries, level=data["level"],
                level_started=data["level_started"], hands_in_level=data["hands_in_level"],
                hands=data["hands"], groups=data["groups"], game_index=data["game_index"],
                hands_in_game=data["hands_in_game"], orbit_size=data["orbit_size"],
            )
        except (KeyError, TypeError, StructureError) as error:
            raise TournamentError(f"a stored tournament cannot be read: {error}") from None
