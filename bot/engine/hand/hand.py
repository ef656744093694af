"""One hand of Sex in the Middle East: a pure, deterministic seven-card stud state machine.

``StudHand`` posts the antes and deals third street when it is built, then waits for commands.
Every later street is dealt by the engine itself as soon as a betting round closes, in the pass
order of SPEC §2, from the card source it was given. Derived state comes from small pure modules:
the wild set from ``follow`` (SPEC §3), the betting arithmetic from ``betting`` (SPEC §5), the pots
from ``pots`` (SPEC §6), hand values from ``evaluator`` and showing hands from ``showing``.
The hand's parts live in mixins: the deal and the start of each betting round in ``dealing``,
reading and checking commands (and the refusal messages) in ``planning``, the showdown in
``showdown`` and Baseball's deal that stops for a decision in ``baseball``.

When at most one player can still bet (the rest are all-in), betting is closed: the hands are
turned face up (``BettingClosed``) and the remaining streets are dealt at once, then the showdown.
The cards are still dealt as stud deals them -- seventh street face down -- so the follow rule gives
the same wild ranks whether or not anyone is all-in. When all but one fold, the hand ends at once and
no more cards are dealt.

Commands validate first and raise ``IllegalAction`` (with a reason a player can read) without
changing anything. Each query is cheap; the hand keeps only per-seat lists, the log, the current
betting round and the follow tracker.

>>> from bot.engine.cards.deck import Deck
>>> from bot.engine.betting.stakes import TableStakes
>>> hand = StudHand([500, 500, 500], TableStakes(), source=Deck.seeded(3))
>>> hand.street, hand.actor is not None, hand.legal_actions().names[:1]
(3, True, ('bring_in',))
>>> while not hand.is_over:
...     hand.timeout(hand.actor)        # bring-in posted, then everyone checks or folds
>>> sum(hand.result.final_stacks)
1500
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from bot.engine.betting.pots import Pot, split_pots, uncalled
from bot.engine.betting.round import NO_ACTIONS, BettingRound, LegalActions
from bot.engine.betting.stakes import TableStakes
from bot.engine.cards.card import Card, Rank
from bot.engine.cards.deck import CardSource, Deck, DeckSource
from bot.engine.games.baseball import Decision
from bot.engine.games.catalogue import Game, game_of
from bot.engine.games.follow import WildEvent
from bot.engine.games.rulings import DEFAULT_RULINGS, Rulings
from bot.engine.games.wilds import make_tracker
from bot.engine.hand.baseball import BaseballDealing
from bot.engine.hand.dealing import StreetDealing
from bot.engine.hand.events import ActionTaken, CardDealt, Event, UncalledReturned
from bot.engine.hand.planning import ActionPlanning
from bot.engine.hand.showdown import HandResult, ShowdownMixin
from bot.engine.log import Action, Deal, LogEntry
from bot.engine.values.evaluator import HandValue
from bot.engine.values.low import LowValue
from bot.engine.values.showing import ShowingValue
from bot.engine.values.valuation import best_showing
from bot.engine.vocab import street_name

__all__ = ["MAX_SEATS", "MIN_SEATS", "StudHand"]

MIN_SEATS = 2
MAX_SEATS = 8


FIVE = Rank.FIVE


def _wrap_event(entry: Event | Deal | Action) -> Event:
    """Stored Deal/Action records become their narration events."""
    if type(entry) is Deal:
        return CardDealt(entry)
    if type(entry) is Action:
        return ActionTaken(entry)
    return entry  # type: ignore[return-value]


_SHOWING_CACHE: dict[tuple[str, tuple[Rank, ...], int], ShowingValue] = {}
"""showing_value memoised on what it depends on: the ruling, the up ranks (sorted) and which of them
are wild (a bit mask), shared by all hands (bounded)."""


def _as_source(source: CardSource | Deck | Sequence[Card] | None) -> CardSource:
    if source is None:
        return DeckSource(Deck())
    if isinstance(source, Deck):
        return DeckSource(source)
    if isinstance(source, (list, tuple)):
        return DeckSource(source)
    return source  # type: ignore[return-value]


class StudHand(BaseballDealing, ShowdownMixin, ActionPlanning, StreetDealing):
    """One hand of seven-card stud with fives and followers wild (SPEC §2-§7).

    ``stacks``: chips of each seat in DEAL ORDER (seat 0 = first seat left of the dealer = PHH p1),
    2 to 8 seats, each above 0. ``stakes``/``rulings``: what the hand is dealt under. ``source``: a
    ``CardSource`` (e.g. a replay's), a ``Deck`` (adapted; dealt from the top), a list of cards, or
    ``None`` for a fresh deck shuffled by ``secrets.SystemRandom``. ``manual_showdown``: players show
    or muck in show order with ``show``/``muck``; by default the showdown resolves itself (every
    live hand shown, cards speak). ``game``: a ``Game`` or its name (``bot.engine.games.catalogue``; default
    Sex in the Middle East). Raises ``ValueError`` for a bad seat count or stack, an unknown game,
    or a ruling option the game does not offer (``RulingError``).
    """

    def __init__(
        self,
        stacks: Sequence[int],
        stakes: TableStakes,
        rulings: Rulings = DEFAULT_RULINGS,
        source: CardSource | Deck | Sequence[Card] | None = None,
        *,
        manual_showdown: bool = False,
        game: Game | str | None = None,
    ) -> None:
        n = len(stacks)
        if not MIN_SEATS <= n <= MAX_SEATS:
            raise ValueError(f"a stud hand needs {MIN_SEATS} to {MAX_SEATS} players, got {n}")
        for seat, chips in enumerate(stacks):
            if not isinstance(chips, int) or isinstance(chips, bool) or chips <= 0:
                raise ValueError(f"seat {seat + 1} needs a stack of at least 1 chip, got {chips!r}")
        self.game = game_of(game)
        self.game.check_rulings(rulings)
        self.stakes = stakes
        self.rulings = rulings
        self.manual_showdown = manual_showdown
        self._n = n
        self._source = _as_source(source)
        self._starting = tuple(stacks)
        self._stacks = list(stacks)
        self._contrib = [0] * n
        self._street_bets = [0] * n
        self._folded = [False] * n
        self._cards: list[list[Card]] = [[] for _ in range(n)]
        self._up: list[list[Card]] = [[] for _ in range(n)]
        self._up_ranks: list[tuple[Rank, ...]] = [() for _ in range(n)]   # sorted, for the showing cache
        self._up_mask = [0] * n                                            # bit 1 << rank per up card
        self._wild_mask = 0
        self._down: list[list[Card]] = [[] for _ in range(n)]
        self._community: Card | None = None
        self._indicators: list[Card] = []
        self._burns: list[Card] = []
        self._seen: set[Card] = set()
        self._deal_seq = 0
        self._log: list[LogEntry] = []
        # Narration events; Deal and Action records are stored bare and wrapped in CardDealt /
        # ActionTaken when read (``events``), which keeps the dealing and betting paths cheap.
        self._events: list[Event | Deal | Action] = []
        self._follow = make_tracker(self.game, rulings)
        self._wild_tuple: tuple[Rank, ...] = ()
        self._sync_wilds()
        self._street = 3
        self._round: BettingRound | None = None
        self._actor: int | None = None
        self._phase = "dealing"
        self._betting_closed = False
        self._high_hands: dict[int, int] = {}
        self._first_actors: dict[int, int | None] = {}
        self._bring_in_seat: int | None = None
        self._last_aggressor: dict[int, int] = {}
        self._returned = [0] * n
        self._show_order: tuple[int, ...] = ()
        self._show_index = 0
        self._shown: dict[int, HandValue] = {}
        self._lows: dict[int, LowValue] = {}
        self._mucked: list[int] = []
        self._result: HandResult | None = None
        self._legal: LegalActions | None = None   # cache for the actor; cleared by every command
        self._live = n
        self._dead = [0] * n                      # Baseball payments: in the pot, not bets
        self._decision: Decision | None = None
        self._dealer: Iterator[Decision] | None = None
        self._accepted = False
        self._post_antes()
        self._proceed_from(3)

    # ------------------------------------------------------------------ queries
    @property
    def seat_count(self) -> int:
        """Number of seats dealt in."""
        return self._n

    @property
    def starting_stacks(self) -> tuple[int, ...]:
        """Stacks before the antes."""
        return self._starting

    @property
    def is_over(self) -> bool:
        """The hand has ended and ``result`` is set."""
        return self._result is not None

    @property
    def phase(self) -> str:
        """``"betting"`` (a seat must act), ``"decision"`` (Baseball: ``decision`` says what the actor
        is asked: ``pay``/``fold`` or ``buy``/``decline``; a timeout folds or declines),
        ``"showdown"`` (manual showdown: a seat must show or muck) or ``"over"``."""
        return self._phase

    @property
    def street(self) -> int:
        """The current street, 3..7 (7 during showdown)."""
        return self._street

    @property
    def actor(self) -> int | None:
        """The seat whose turn it is (betting or manual showdown), or ``None``."""
        return self._actor

    @property
    def betting_closed(self) -> bool:
        """At most one player could still bet, so the rest of the hand is dealt without betting."""
        return self._betting_closed

    @property
    def bring_in_seat(self) -> int | None:
        """The seat that had to bring in on third street (``None`` if there was no betting)."""
        return self._bring_in_seat

    def high_hand(self, street: int) -> int | None:
        """The seat with the best showing hand on ``street`` (4..7), as used for who acts first."""
        return self._high_hands.get(street)

    def first_actor(self, street: int) -> int | None:
        """The first seat to act on ``street`` (3..7), if that street had betting."""
        return self._first_actors.get(street)

    def last_aggressor(self, street: int) -> int | None:
        """The last seat to bet, complete or raise on ``street``, if any."""
        return self._last_aggressor.get(street)

    def legal_actions(self, seat: int | None = None) -> LegalActions:
        """What ``seat`` (default: the actor) may do now; empty for a seat whose turn it is not."""
        if seat is None:
            seat = self._actor
        if seat is None or seat != self._actor:
            return NO_ACTIONS
        legal = self._legal
        if legal is None:
            if self._phase == "betting":
                assert self._round is not None
                legal = self._round.legal(seat)
            elif self._phase == "showdown":
                legal = LegalActions(seat, show=True, muck=self._may_muck(seat))
            elif self._phase == "decision" and self._decision is not None and self._decision.kind == "pay":
                legal = LegalActions(seat, fold=True)
            else:
                legal = NO_ACTIONS
            self._legal = legal
        return legal

    def cards(self, seat: int) -> tuple[Card, ...]:
        """``seat``'s own cards in the order dealt (down and up; not the community card)."""
        return tuple(self._cards[seat])

    def up_cards(self, seat: int) -> tuple[Card, ...]:
        """``seat``'s face-up cards, in order."""
        return tuple(self._up[seat])

    def down_cards(self, seat: int) -> tuple[Card, ...]:
        """``seat``'s face-down cards, in order."""
        return tuple(self._down[seat])

    @property
    def community_card(self) -> Card | None:
        """The shared seventh-street card in a shortage (SPEC §2), else ``None``."""
        return self._community

    @property
    def indicator_cards(self) -> tuple[Card, ...]:
        """Cards turned in the centre to set a follow's rank (``follow_target = indicator-card``)."""
        return tuple(self._indicators)

    @property
    def burned_cards(self) -> tuple[Card, ...]:
        """Burned cards still out of the stub (secret; for audit and export)."""
        return tuple(self._burns)

    def showing(self, seat: int) -> ShowingValue:
        """``seat``'s showing hand: its up cards ranked with the current wilds (SPEC §5, ``showing_hand``)."""
        return self._showing(seat)

    def _showing(self, seat: int) -> ShowingValue:
        """``showing_value`` of ``seat``'s up cards, memoised (see ``_SHOWING_CACHE``)."""
        how = self.rulings.showing_hand
        key = (how, self._up_ranks[seat], self._up_mask[seat] & self._wild_mask)
        value = _SHOWING_CACHE.get(key)
        if value is None:
            if len(_SHOWING_CACHE) > 200_000:
                _SHOWING_CACHE.clear()
            value = best_showing(self._up[seat], self._follow.wild_set, showing_hand=how)
            _SHOWING_CACHE[key] = value
        return value

    def stack(self, seat: int) -> int:
        """Chips ``seat`` has behind (not in the pot)."""
        return self._stacks[seat]

    def contribution(self, seat: int) -> int:
        """Chips ``seat`` has put in this hand (antes included, returned chips excluded)."""
        return self._contrib[seat]

    def street_contribution(self, seat: int) -> int:
        """Chips ``seat`` has put in on the current street (its "to" total)."""
        return self._street_bets[seat]

    def folded(self, seat: int) -> bool:
        """``seat`` has folded."""
        return self._folded[seat]

    def is_all_in(self, seat: int) -> bool:
        """``seat`` is live with no chips behind (the command to go all-in is ``all_in``)."""
        return not self._folded[seat] and self._stacks[seat] == 0

    @property
    def live_seats(self) -> tuple[int, ...]:
        """Seats that have not folded."""
        return tuple(i for i in range(self._n) if not self._folded[i])

    @property
    def wild_ranks(self) -> tuple[Rank, ...]:
        """Wild ranks in the order they became wild, ``FIVE`` first (SPEC §3)."""
        return self._wild_tuple

    @property
    def wild_events(self) -> tuple[WildEvent, ...]:
        """How each rank after the five became wild."""
        return tuple(self._follow.events)

    @property
    def follow_pending(self) -> Card | None:
        """The face-up five whose follow is armed and not yet resolved, if any."""
        pending = self._follow.pending
        return None if pending is None else pending.card

    @property
    def pot_total(self) -> int:
        """All chips in the middle (every contribution, current street included, and Baseball's
        payments)."""
        return sum(self._contrib) + sum(self._dead)

    def pots(self) -> tuple[Pot, ...]:
        """Main pot and side pots from the contributions so far (SPEC §6); a bet nobody has matched
        yet is left out (see ``pot_total`` for everything in the middle)."""
        live = [not f for f in self._folded]
        return self._with_dead(split_pots(self._contrib, live).pots)

    def _with_dead(self, pots: tuple[Pot, ...]) -> tuple[Pot, ...]:
        """Dead money (Baseball's payments) belongs to the main pot (docs/rules.md, Baseball)."""
        dead = sum(self._dead)
        if not dead:
            return pots
        if not pots:
            return (Pot(dead, tuple(s for s in range(self._n) if not self._folded[s])),)
        main = pots[0]
        return (Pot(main.amount + dead, main.eligible), *pots[1:])

    @property
    def decision(self) -> Decision | None:
        """Baseball: the buy-or-decline or pay-or-fold the hand waits for (``actor`` decides), else None."""
        return self._decision

    @property
    def dead_money(self) -> tuple[int, ...]:
        """Chips each seat paid into the pot outside the betting (Baseball's payments)."""
        return tuple(self._dead)
    @property
    def log(self) -> tuple[LogEntry, ...]:
        """Every card dealt and every action, in order (append-only)."""
        return tuple(self._log)

    @property
    def events(self) -> tuple[Event, ...]:
        """Narration events, in order."""
        return tuple(map(_wrap_event, self._events))

    def events_since(self, index: int) -> tuple[Event, ...]:
        """Events from position ``index`` on (for a front end that narrates incrementally)."""
        return tuple(map(_wrap_event, self._events[index:]))

    @property
    def result(self) -> HandResult | None:
        """How the hand ended, once it is over."""
        return self._result

    @property
    def show_order(self) -> tuple[int, ...]:
        """The showdown order (SPEC §6), once the showdown has begun."""
        return self._show_order

    # ------------------------------------------------------------------ commands
    def bring_in(self, seat: int) -> None:
        """Post the bring-in (third street; SPEC §5)."""
        self._execute(seat, "bring_in", None)

    def complete(self, seat: int) -> None:
        """Complete the bring-in to the small bet (fixed limit) or the minimum bet (pot/no limit)."""
        self._execute(seat, "complete", None)

    def bet_or_raise_to(self, seat: int, amount: int) -> None:
        """Complete, bet or raise so that ``seat``'s street total is ``amount`` (SPEC §5 speaks "to")."""
        self._execute(seat, "to", amount)

    def call(self, seat: int) -> None:
        """Call the bet (all-in for less if the stack is short)."""
        self._execute(seat, "call", None)

    def check(self, seat: int) -> None:
        """Check (nothing to call)."""
        self._execute(seat, "check", None)

    def check_or_call(self, seat: int) -> None:
        """Check if nothing is owed, else call (PHH ``cc``)."""
        self._execute(seat, "check_or_call", None)

    def fold(self, seat: int) -> None:
        """Fold (the bring-in may not fold)."""
        self._execute(seat, "fold", None)

    def all_in(self, seat: int) -> None:
        """Put every chip in: a call, bring-in, bet or raise for the whole stack, where legal."""
        self._execute(seat, "all_in", None)

    def show(self, seat: int) -> None:
        """Show the hand (manual showdown)."""
        self._execute(seat, "show", None)

    def muck(self, seat: int) -> None:
        """Muck the hand unseen (manual showdown; only a beaten player not all-in may muck)."""
        self._execute(seat, "muck", None)

    def timeout(self, seat: int) -> None:
        """The seat's timer ran out (SPEC §7): check if legal, else fold; a forced bring-in is posted,
        never completed. In a manual showdown: muck if allowed, else show."""
        self._execute(seat, "timeout", None)

    # ------------------------------------------------------------------ execution
    def _execute(self, seat: int, command: str, amount: int | None, declared: str | None = None) -> None:
        if self._decision is not None:
            self._decide(seat, command)
            return
        kind, to, timed_out = self._plan(seat, command, amount, declared)
        self._perform(seat, kind, to, timed_out)

    def _perform(self, seat: int, kind: str, to: int, timed_out: bool) -> Action:
        """Carry out a planned action; returns its record (the first log entry it adds)."""
        mark = len(self._log)
        self._legal = None
        if kind in ("show", "muck"):
            self._showdown_step(seat, kind == "show", timed_out)
            return self._action_at(mark)
        rnd = self._round
        assert rnd is not None
        street = self._street
        if kind == "fold":
            rnd.fold(seat)
            self._live -= 1
            self._record(Action(street, seat, "fold", 0, to, False, timed_out))
        elif kind == "check":
            rnd.call(seat)
            self._record(Action(street, seat, "check", 0, to, False, timed_out))
        elif kind == "call":
            chips = rnd.call(seat)
            self._record(Action(street, seat, "call", chips, self._street_bets[seat],
                                self._stacks[seat] == 0, timed_out))
        elif kind == "bring_in":
            chips = rnd.post_bring_in(seat)
            self._record(Action(street, seat, "bring_in", chips, self._street_bets[seat],
                                self._stacks[seat] == 0, timed_out))
        else:
            name = rnd.wager_name()
            chips, _full = rnd.wager(seat, to)
            self._last_aggressor[street] = seat
            self._record(Action(street, seat, name, chips, to, self._stacks[seat] == 0, timed_out))
        self._after_action(seat)
        return self._action_at(mark)

    def _action_at(self, index: int) -> Action:
        entry = self._log[index]
        assert type(entry) is Action
        return entry

    def _record(self, action: Action) -> None:
        self._log.append(action)
        self._events.append(action)

    def _after_action(self, seat: int) -> None:
        if self._live == 1:
            self._win_by_fold(self._folded.index(False))
            return
        rnd = self._round
        assert rnd is not None
        nxt = rnd.next_actor(seat)
        if nxt is not None:
            self._actor = nxt
            return
        self._end_round()

    def _end_round(self) -> None:
        self._actor = None
        self._round = None
        self._return_uncalled()
        street = self._street
        if street >= 7:
            self._finish_cards()
            self._begin_showdown()
        else:
            if len(self._able()) <= 1:
                # Betting is over for the hand: the hands are turned face up before the remaining
                # streets are dealt (SPEC §6, TDA 16), so say so before the next card.
                self._close_betting(street + 1)
            self._proceed_from(street + 1)

    def _return_uncalled(self) -> None:
        live = [not f for f in self._folded]
        seat, chips = uncalled(self._contrib, live)
        if seat is None or not chips:
            return
        self._stacks[seat] += chips
        self._contrib[seat] -= chips
        self._street_bets[seat] = max(0, self._street_bets[seat] - chips)
        self._returned[seat] += chips
        self._events.append(UncalledReturned(seat, chips))

    def __repr__(self) -> str:
        return (f"StudHand(seats={self._n}, {street_name(self._street)}, phase={self._phase}, "
                f"actor={self._actor}, wild={''.join(r.char for r in self._wild_tuple)})")
