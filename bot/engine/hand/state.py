"""A hand's state as one record: per-seat records, the centre of the table, the wild state, the log.

``HandState`` holds everything a hand is; the rules are functions of it in their own modules (the
street loop in ``streets``, dealing in ``dealing``, who opens and acts first in ``opening``,
decisions in ``decisions``, reading commands in ``planning``, the showdown in ``showdown``).
``SeatState`` is one seat: its cards (in the order dealt, and split into up and down), its chips
(stack, street total, contribution, payments outside the betting, chips returned) and whether it
folded. The betting round works on the same seat records (``BettingSeat``).

>>> from bot.engine.betting.stakes import TableStakes
>>> from bot.engine.cards.deck import Deck, DeckSource
>>> from bot.engine.games.catalogue import DEFAULT_GAME
>>> from bot.engine.games.rulings import DEFAULT_RULINGS
>>> state = HandState(DEFAULT_GAME, TableStakes(), DEFAULT_RULINGS, DeckSource(Deck.seeded(1)), [100, 50],
...                   manual_showdown=False)
>>> [seat.stack for seat in state.seats], state.pot_total, state.live
([100, 50], 0, 2)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from bot.engine.betting.pots import Pot, split_pots
from bot.engine.cards.card import Card, Rank
from bot.engine.games.wilds import make_tracker
from bot.engine.hand.options import NO_OPTIONS, HandOptions, Opening
from bot.engine.log import Action, Deal, LogEntry

if TYPE_CHECKING:  # pragma: no cover - annotations only
    from collections.abc import Iterator

    from bot.engine.betting.round import BettingRound, LegalActions
    from bot.engine.betting.stakes import TableStakes
    from bot.engine.cards.deck import CardSource
    from bot.engine.games.catalogue import Game
    from bot.engine.games.rulings import Rulings
    from bot.engine.games.wilds import WildTracker
    from bot.engine.hand.events import Event
    from bot.engine.hand.records import Decision, HandResult
    from bot.engine.values.evaluator import HandValue
    from bot.engine.values.low import LowValue

Phase = Literal["dealing", "betting", "decision", "showdown", "over"]
"""Where a hand is: dealing, waiting for a bet (``betting``), for a choice that is not a bet
(``decision``), for a show or muck (``showdown``), or ``over``."""


@dataclass(slots=True, eq=False)
class SeatState:
    """One seat of a hand. ``cards``: its own cards in the order dealt; ``up``/``down``: the same
    cards by face. ``up_ranks`` (sorted) and ``up_mask`` (bit ``1 << rank`` per up card) key the
    showing-hand cache. Chips: ``stack`` behind, ``street_bet`` (this street's total), ``contributed``
    (this hand, antes included), ``dead`` (payments outside the betting: Baseball's), ``returned``
    (uncalled chips given back)."""

    stack: int
    cards: list[Card] = field(default_factory=list)
    up: list[Card] = field(default_factory=list)
    down: list[Card] = field(default_factory=list)
    up_ranks: tuple[Rank, ...] = ()
    up_mask: int = 0
    street_bet: int = 0
    contributed: int = 0
    dead: int = 0
    returned: int = 0
    folded: bool = False
    discards: list[tuple[Card, ...]] = field(default_factory=list)
    """Draw games: the cards this seat threw away at each of its draws (empty = stood pat). Secret
    forever: the owner's own, and the history file's (``StudHand.discards``)."""

    @property
    def all_in(self) -> bool:
        """Live with no chips behind."""
        return not self.folded and self.stack == 0

    def add_up_rank(self, rank: Rank) -> None:
        """Note a face-up card's rank (for the showing-hand cache)."""
        self.up_ranks = tuple(sorted((*self.up_ranks, rank)))
        self.up_mask |= 1 << rank


class HandState:
    """Everything one hand is (see the module docstring). The rules modules read and change it;
    ``StudHand`` is its public face."""

    __slots__ = (
        "accepted",
        "actor",
        "betting_closed",
        "board",
        "bring_in_seat",
        "burns",
        "button",
        "community",
        "deal_seq",
        "dealer",
        "decision",
        "discard_pile",
        "events",
        "first_actors",
        "follow",
        "forced",
        "game",
        "high_hands",
        "indicators",
        "last_aggressor",
        "legal",
        "live",
        "log",
        "lows",
        "manual_showdown",
        "mucked",
        "n",
        "opener",
        "openers",
        "options",
        "phase",
        "reshuffles",
        "result",
        "round",
        "rulings",
        "run_asked",
        "run_from",
        "seats",
        "second_board",
        "seen",
        "show_index",
        "show_order",
        "shown",
        "source",
        "stakes",
        "starting",
        "street",
        "to_draw",
        "wild_mask",
        "wild_tuple",
    )

    def __init__(self, game: Game, stakes: TableStakes, rulings: Rulings, source: CardSource,
                 stacks: list[int], *, manual_showdown: bool, button: int = 0,
                 options: HandOptions = NO_OPTIONS) -> None:
        self.game = game
        self.options = options
        self.stakes = stakes
        self.rulings = rulings
        self.source = source
        self.manual_showdown = manual_showdown
        self.n = len(stacks)
        self.starting = tuple(stacks)
        self.seats = [SeatState(chips) for chips in stacks]
        self.live = self.n                          # seats not folded
        self.button = button                        # the dealer button (flop and draw games' positions)
        self.forced: Opening | None = None          # what the blinds left for the pre-flop betting
        # The centre of the table: the shortage's community card, follow indicator cards, burns,
        # a flop game's board.
        self.community: Card | None = None
        self.board: list[Card] = []
        # Run it twice: asked once; the street index the second run starts at (None: one run),
        # and the second run's own board cards (it shares the board dealt before it).
        self.run_asked = False
        self.run_from: int | None = None
        self.second_board: list[Card] = []
        self.indicators: list[Card] = []
        self.burns: list[Card] = []
        self.seen: set[Card] = set()
        self.deal_seq = 0
        # Draw games: discards not yet reshuffled into the stub, as (seat, card); the ``deal_seq``
        # of the first card dealt after each reshuffle; the seat that opened (``openers``).
        self.discard_pile: list[tuple[int, Card]] = []
        self.reshuffles: list[int] = []
        self.opener: int | None = None
        self.to_draw = 0                                # cards the seat that just drew is owed
        self.openers: tuple[Card, ...] = ()
        self.log: list[LogEntry] = []
        # Narration events; Deal and Action records are stored bare and wrapped in CardDealt /
        # ActionTaken when read, which keeps the dealing and betting paths cheap.
        self.events: list[Event | Deal | Action] = []
        # The wild state: the game's tracker, and its ranks as a tuple and a bit mask.
        self.follow: WildTracker = make_tracker(game, rulings)
        self.wild_tuple: tuple[Rank, ...] = ()
        self.wild_mask = 0
        # Where the hand is.
        self.street = game.streets[0].number
        self.phase: Phase = "dealing"
        self.actor: int | None = None
        self.round: BettingRound | None = None
        self.legal: LegalActions | None = None       # the actor's legal actions, cleared by every command
        self.decision: Decision | None = None
        self.dealer: Iterator[Decision] | None = None   # the street loop, paused at a decision
        self.accepted = False                         # the answer to the last decision
        self.betting_closed = False
        self.high_hands: dict[int, int] = {}
        self.first_actors: dict[int, int | None] = {}
        self.bring_in_seat: int | None = None
        self.last_aggressor: dict[int, int] = {}
        # The showdown.
        self.show_order: tuple[int, ...] = ()
        self.show_index = 0
        self.shown: dict[int, HandValue] = {}      # high values (hands of five or more cards)
        self.lows: dict[int, LowValue] = {}         # razz and hi-lo: the shown hands' lows
        self.mucked: list[int] = []
        self.result: HandResult | None = None

    # ------------------------------------------------------------------ derived
    def able(self) -> list[int]:
        """Live seats with chips (those who can still bet)."""
        return [i for i, seat in enumerate(self.seats) if not seat.folded and seat.stack > 0]

    def live_seats(self) -> tuple[int, ...]:
        """Seats that have not folded."""
        return tuple(i for i, seat in enumerate(self.seats) if not seat.folded)

    @property
    def pot_total(self) -> int:
        """Every chip in the middle: contributions (this street's included) and payments."""
        return sum(seat.contributed + seat.dead for seat in self.seats)

    def pots(self) -> tuple[Pot, ...]:
        """Main pot and side pots from the contributions so far, payments in the main pot."""
        return self.with_dead(split_pots(self.contributions(), self.live_flags()).pots)

    def contributions(self) -> list[int]:
        """Each seat's contribution this hand."""
        return [seat.contributed for seat in self.seats]

    def live_flags(self) -> list[bool]:
        """Per seat: not folded."""
        return [not seat.folded for seat in self.seats]

    def with_dead(self, pots: tuple[Pot, ...]) -> tuple[Pot, ...]:
        """Dead money (Baseball's payments) belongs to the main pot (docs/rules.md, Baseball)."""
        dead = sum(seat.dead for seat in self.seats)
        if not dead:
            return pots
        if not pots:
            return (Pot(dead, self.live_seats()),)
        main = pots[0]
        return (Pot(main.amount + dead, main.eligible), *pots[1:])

    def record(self, action: Action) -> None:
        """Append an action to the log and the narration."""
        self.log.append(action)
        self.events.append(action)

    def action_at(self, index: int) -> Action:
        """The log entry at ``index``, which must be an action."""
        entry = self.log[index]
        assert type(entry) is Action
        return entry

    def hand_cards(self, seat: int, run: int = 0) -> list[Card]:
        """``seat``'s cards with the community card, if one was dealt, and the board (of ``run``)."""
        cards = list(self.seats[seat].cards)
        if self.community is not None:
            cards.append(self.community)
        cards.extend(self.board_of(run))
        return cards

    @property
    def runs(self) -> int:
        """How many times the rest of the board is dealt: 2 when the hand is run twice."""
        return 1 if self.run_from is None else 2

    def board_of(self, run: int) -> list[Card]:
        """The board of ``run`` (0 or 1): the second shares what was dealt before it."""
        if run == 0:
            return self.board
        shared = sum(street.board for street in self.game.streets[: self.run_from])
        return self.board[:shared] + self.second_board

    def left_of(self, seat: int, step: int = 1) -> int:
        """The seat ``step`` places clockwise from ``seat``."""
        return (seat + step) % self.n
