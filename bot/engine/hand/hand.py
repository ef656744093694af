"""One hand of any game of the catalogue: a pure, deterministic state record plus rules.

``StudHand`` posts the antes and deals the first street when it is built, then waits for commands.
Every later street is dealt by the engine itself as soon as a betting round closes, by the one
street loop (``streets``) walking the game's ``streets`` from the card source it was given. The
hand is a ``HandState`` (``state``: per-seat records, the centre of the table, the wild state, the
log); the rules are functions of it: dealing (``dealing``), who opens (``opening``), decisions
(``decisions``), reading commands and the refusal messages (``planning``), the showdown and the
pots (``showdown``). ``StudHand`` is its public face: the queries, and ``verify``/``can``/``apply``
taking ``Command``s (decisions' answers too).

When at most one player can still bet (the rest are all-in), betting is closed: the hands are
turned face up (``BettingClosed``) and the remaining streets are dealt at once, then the showdown.
The cards are still dealt as stud deals them -- seventh street face down -- so the follow rule gives
the same wild ranks whether or not anyone is all-in. When all but one fold, the hand ends at once and
no more cards are dealt.

Commands validate first and raise ``IllegalAction`` (with a reason a player can read) without
changing anything. Each query is cheap.

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

from collections.abc import Sequence

from bot.engine.betting.pots import Pot
from bot.engine.betting.round import LegalActions
from bot.engine.betting.stakes import TableStakes
from bot.engine.cards.card import Card, Rank
from bot.engine.cards.deck import CardSource, Deck, DeckSource
from bot.engine.command import Command, Kind
from bot.engine.errors import IllegalAction
from bot.engine.games.catalogue import Game, game_of
from bot.engine.games.follow import WildEvent
from bot.engine.games.rulings import DEFAULT_RULINGS, Rulings
from bot.engine.hand import decisions, drawing, planning, showdown, streets
from bot.engine.hand.blinds import blind_seats, check_posts
from bot.engine.hand.dealing import post_antes, sync_wilds
from bot.engine.hand.events import ActionTaken, CardDealt, Event
from bot.engine.hand.openers import record_opener
from bot.engine.hand.opening import showing
from bot.engine.hand.options import NO_OPTIONS, HandOptions
from bot.engine.hand.records import Decision, HandResult
from bot.engine.hand.state import HandState, Phase
from bot.engine.log import Action, Deal, LogEntry
from bot.engine.values.showing import ShowingValue
from bot.engine.vocab import street_name

__all__ = ["MAX_SEATS", "MIN_SEATS", "StudHand"]

MIN_SEATS = 2
MAX_SEATS = 8

# The commands the named methods apply (values: made once).
_BRING_IN = Command(Kind.BRING_IN)
_COMPLETE = Command(Kind.COMPLETE)
_CALL = Command(Kind.CALL)
_CHECK = Command(Kind.CHECK)
_CHECK_OR_CALL = Command(Kind.CHECK_OR_CALL)
_FOLD = Command(Kind.FOLD)
_ALL_IN = Command(Kind.ALL_IN)
_SHOW = Command(Kind.SHOW)
_MUCK = Command(Kind.MUCK)
_TIMEOUT = Command(Kind.TIMEOUT)
_PAY = Command(Kind.PAY)
_BUY = Command(Kind.BUY)
_DECLINE = Command(Kind.DECLINE)
_STAND = Command(Kind.STAND)


def _wrap_event(entry: Event | Deal | Action) -> Event:
    """Stored Deal/Action records become their narration events."""
    if type(entry) is Deal:
        return CardDealt(entry)
    if type(entry) is Action:
        return ActionTaken(entry)
    return entry  # type: ignore[return-value]


def _as_source(source: CardSource | Deck | Sequence[Card] | None) -> CardSource:
    if source is None:
        return DeckSource(Deck())
    if isinstance(source, Deck):
        return DeckSource(source)
    if isinstance(source, (list, tuple)):
        return DeckSource(source)
    return source  # type: ignore[return-value]


class StudHand:
    """One hand of any game of the catalogue: the stud family (SPEC §2-§7; issue 12's games) and
    the flop games (issue 21).

    ``stacks``: chips of each seat, 2 to 8 seats, each above 0; in stud in DEAL ORDER (seat 0 =
    first seat left of the dealer = PHH p1). ``button``: the dealer button's seat (default 0); the
    flop games post the blinds, deal and act from it (PHH p1 is the seat left of it). ``options``:
    a flop game's straddle or bomb pot for this hand (``HandOptions``; stud ignores it).
    ``stakes``/``rulings``: what the hand is dealt under. ``source``: a ``CardSource`` (e.g. a
    replay's), a ``Deck`` (adapted; dealt from the top), a list of cards, or ``None`` for a fresh
    deck shuffled by ``secrets.SystemRandom``. ``manual_showdown``: players show or muck in show
    order with ``show``/``muck``; by default the showdown resolves itself (every live hand shown,
    cards speak). ``game``: a ``Game`` or its name (``bot.engine.games.catalogue``;
    default Sex in the Middle East). Raises ``ValueError`` for a bad seat count or stack, an unknown
    game, a ruling option the game does not offer (``RulingError``), a button outside the seats, or
    a game with blinds dealt without a big blind (``StakesError``).
    """

    __slots__ = ("state",)

    def __init__(
        self,
        stacks: Sequence[int],
        stakes: TableStakes,
        rulings: Rulings = DEFAULT_RULINGS,
        source: CardSource | Deck | Sequence[Card] | None = None,
        *,
        manual_showdown: bool = False,
        game: Game | str | None = None,
        button: int = 0,
        options: HandOptions = NO_OPTIONS,
    ) -> None:
        n = len(stacks)
        if not MIN_SEATS <= n <= MAX_SEATS:
            raise ValueError(f"a hand needs {MIN_SEATS} to {MAX_SEATS} players, got {n}")
        for seat, chips in enumerate(stacks):
            if not isinstance(chips, int) or isinstance(chips, bool) or chips <= 0:
                raise ValueError(f"seat {seat + 1} needs a stack of at least 1 chip, got {chips!r}")
        if not isinstance(button, int) or isinstance(button, bool) or not 0 <= button < n:
            raise ValueError(f"the button must be one of the hand's seats (0 to {n - 1}), got {button!r}")
        chosen = game_of(game)
        chosen.check_rulings(rulings)
        if chosen.has_blinds:
            stakes.check_blinds()
            check_posts(options, n, button)
        self.state = HandState(chosen, stakes, rulings, _as_source(source), list(stacks),
                               manual_showdown=manual_showdown, button=button, options=options)
        sync_wilds(self.state)
        post_antes(self.state)
        streets.proceed(self.state, 0)

    # ------------------------------------------------------------------ what the hand is dealt under
    @property
    def game(self) -> Game:
        """The game this hand is dealt as."""
        return self.state.game

    @property
    def stakes(self) -> TableStakes:
        """The stakes."""
        return self.state.stakes

    @property
    def rulings(self) -> Rulings:
        """The rulings."""
        return self.state.rulings

    @property
    def manual_showdown(self) -> bool:
        """Players show or muck in turn (else the showdown resolves itself)."""
        return self.state.manual_showdown

    # ------------------------------------------------------------------ queries
    @property
    def seat_count(self) -> int:
        """Number of seats dealt in."""
        return self.state.n

    @property
    def starting_stacks(self) -> tuple[int, ...]:
        """Stacks before the antes."""
        return self.state.starting

    @property
    def is_over(self) -> bool:
        """The hand has ended and ``result`` is set."""
        return self.state.result is not None

    @property
    def phase(self) -> Phase:
        """``"betting"`` (a seat must act), ``"decision"`` (``decision`` says what the actor is asked,
        e.g. Baseball's ``pay``/``fold`` or ``buy``/``decline``, Crazy Pineapple's ``discard``, run it
        twice or once; a timeout folds, declines, runs it once or discards for the player),
        ``"showdown"`` (manual showdown: a seat must show or muck) or ``"over"``."""
        return self.state.phase

    @property
    def street(self) -> int:
        """The current street: stud's 3..7, the flop games' 10..13 (pre-flop to river); the last
        street during the showdown."""
        return self.state.street

    @property
    def actor(self) -> int | None:
        """The seat whose turn it is (betting, a decision or a manual showdown), or ``None``."""
        return self.state.actor

    @property
    def betting_closed(self) -> bool:
        """At most one player could still bet, so the rest of the hand is dealt without betting."""
        return self.state.betting_closed

    @property
    def bring_in_seat(self) -> int | None:
        """The seat that had to bring in on third street (``None`` if there was no betting)."""
        return self.state.bring_in_seat

    def high_hand(self, street: int) -> int | None:
        """The seat with the best showing hand on ``street`` (4..7), as used for who acts first."""
        return self.state.high_hands.get(street)

    def first_actor(self, street: int) -> int | None:
        """The first seat to act on ``street`` (3..7), if that street had betting."""
        return self.state.first_actors.get(street)

    def last_aggressor(self, street: int) -> int | None:
        """The last seat to bet, complete or raise on ``street``, if any."""
        return self.state.last_aggressor.get(street)

    def legal_actions(self, seat: int | None = None) -> LegalActions:
        """What ``seat`` (default: the actor) may do now; empty for a seat whose turn it is not."""
        return planning.legal_actions(self.state, self.state.actor if seat is None else seat)

    def cards(self, seat: int) -> tuple[Card, ...]:
        """``seat``'s own cards in the order dealt (down and up; not the community card)."""
        return tuple(self.state.seats[seat].cards)

    def up_cards(self, seat: int) -> tuple[Card, ...]:
        """``seat``'s face-up cards, in order."""
        return tuple(self.state.seats[seat].up)

    def down_cards(self, seat: int) -> tuple[Card, ...]:
        """``seat``'s face-down cards, in order."""
        return tuple(self.state.seats[seat].down)

    @property
    def button(self) -> int:
        """The dealer button's seat. The flop and draw games go by it (blinds, the deal, the action); stud
        ignores it (its seats are in deal order: seat 0 is first left of the dealer)."""
        return self.state.button

    @property
    def blind_seats(self) -> tuple[int, int] | None:
        """A flop game's ``(small blind, big blind)`` seats (heads-up the button is the small
        blind); ``None`` in stud."""
        state = self.state
        return blind_seats(state.n, state.button) if state.game.positional else None

    @property
    def options(self) -> HandOptions:
        """This hand's straddle and bomb pot (a flop game's; stud ignores them)."""
        return self.state.options

    @property
    def board(self) -> tuple[Card, ...]:
        """A flop game's board: the flop, turn and river cards dealt so far (empty in stud)."""
        return tuple(self.state.board)

    @property
    def boards(self) -> tuple[tuple[Card, ...], ...]:
        """The boards: one, or two when the hand is run twice (the second shares the cards dealt
        before the players agreed, and has its own after them)."""
        state = self.state
        return tuple(tuple(state.board_of(run)) for run in range(state.runs))

    @property
    def runs(self) -> int:
        """1, or 2 once the players agreed to run it twice."""
        return self.state.runs

    def discarded(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` threw away (Crazy Pineapple; secret, as its down cards are)."""
        return tuple(card for entry in self.state.log
                     if type(entry) is Action and entry.seat == seat and entry.action == "discard"
                     for card in entry.cards)

    @property
    def community_card(self) -> Card | None:
        """The shared last card in a shortage (SPEC §2), else ``None``."""
        return self.state.community

    @property
    def indicator_cards(self) -> tuple[Card, ...]:
        """Cards turned in the centre to set a follow's rank (``follow_target = indicator-card``)."""
        return tuple(self.state.indicators)

    @property
    def burned_cards(self) -> tuple[Card, ...]:
        """Burned cards still out of the stub (secret; for audit and export)."""
        return tuple(self.state.burns)

    def showing(self, seat: int) -> ShowingValue:
        """``seat``'s showing hand: its up cards ranked with the current wilds (SPEC §5, ``showing_hand``)."""
        return showing(self.state, seat)

    def seat_wilds(self, seat: int) -> frozenset[Rank]:
        """The ranks wild for ``seat`` now: the shared wild set, or in low-hole-wild the rank of its
        lowest down card (secret: only its owner may be told before the showdown); the one set both
        the showdown and the player's "Best now" hint use."""
        return showdown.seat_wilds(self.state, seat)

    def stack(self, seat: int) -> int:
        """Chips ``seat`` has behind (not in the pot)."""
        return self.state.seats[seat].stack

    def contribution(self, seat: int) -> int:
        """Chips ``seat`` has put in this hand (antes included, returned chips excluded)."""
        return self.state.seats[seat].contributed

    def street_contribution(self, seat: int) -> int:
        """Chips ``seat`` has put in on the current street (its "to" total)."""
        return self.state.seats[seat].street_bet

    def folded(self, seat: int) -> bool:
        """``seat`` has folded."""
        return self.state.seats[seat].folded

    def is_all_in(self, seat: int) -> bool:
        """``seat`` is live with no chips behind (the command to go all-in is ``all_in``)."""
        return self.state.seats[seat].all_in

    @property
    def live_seats(self) -> tuple[int, ...]:
        """Seats that have not folded."""
        return self.state.live_seats()

    @property
    def wild_ranks(self) -> tuple[Rank, ...]:
        """Wild ranks in the order they became wild (SPEC §3)."""
        return self.state.wild_tuple

    @property
    def wild_events(self) -> tuple[WildEvent, ...]:
        """How each rank after the first became wild."""
        return tuple(self.state.follow.events)

    @property
    def follow_pending(self) -> Card | None:
        """The face-up trigger card whose follow is armed and not yet resolved, if any."""
        pending = self.state.follow.pending
        return None if pending is None else pending.card

    @property
    def pot_total(self) -> int:
        """All chips in the middle (every contribution, current street included, and payments)."""
        return self.state.pot_total

    def pots(self) -> tuple[Pot, ...]:
        """Main pot and side pots from the contributions so far (SPEC §6); a bet nobody has matched
        yet is left out (see ``pot_total`` for everything in the middle)."""
        return self.state.pots()

    @property
    def decision(self) -> Decision | None:
        """The decision the hand waits for (``actor`` decides; ``choices`` are its commands), or None."""
        return self.state.decision

    def drawn(self, seat: int) -> tuple[int, ...]:
        """How many cards each draw of ``seat`` took, in order (0 = stood pat); public."""
        return tuple(len(cards) for cards in self.state.seats[seat].discards)

    def discards(self, seat: int) -> tuple[tuple[Card, ...], ...]:
        """The cards ``seat`` threw away at each of its draws: SECRET for ever -- for that seat's
        own player and the history file only, never the table."""
        return tuple(self.state.seats[seat].discards)

    @property
    def opener(self) -> int | None:
        """The seat that opened the first betting round (its first bet), if anyone did."""
        return self.state.opener

    @property
    def reshuffled_at(self) -> tuple[int, ...]:
        """Draw games: the deal position (``Deal.seq``) of the first card dealt after each time the
        discards were reshuffled into a new stub."""
        return tuple(self.state.reshuffles)

    @property
    def dead_money(self) -> tuple[int, ...]:
        """Chips each seat paid into the pot outside the betting (Baseball's payments)."""
        return tuple(seat.dead for seat in self.state.seats)

    @property
    def log(self) -> tuple[LogEntry, ...]:
        """Every card dealt and every action, in order (append-only)."""
        return tuple(self.state.log)

    @property
    def events(self) -> tuple[Event, ...]:
        """Narration events, in order."""
        return tuple(map(_wrap_event, self.state.events))

    def events_since(self, index: int) -> tuple[Event, ...]:
        """Events from position ``index`` on (for a front end that narrates incrementally)."""
        return tuple(map(_wrap_event, self.state.events[index:]))

    @property
    def result(self) -> HandResult | None:
        """How the hand ended, once it is over."""
        return self.state.result

    @property
    def show_order(self) -> tuple[int, ...]:
        """The showdown order (SPEC §6), once the showdown has begun."""
        return self.state.show_order

    # ------------------------------------------------------------------ commands
    def verify(self, seat: int, command: Command) -> Command:
        """The command ``apply(seat, command)`` would perform, resolved: ``all_in`` as the call,
        bring-in or wager it is, ``timeout`` as what the timer takes, a ``complete`` or
        ``check_or_call`` as the exact action with its amount, a decision's answer with its price.
        Its PHH string replays the same action. Raises ``IllegalAction`` if the command would be
        refused; changes nothing."""
        state = self.state
        if state.decision is not None:
            self._check_decider(seat)
            if state.decision.kind == "draw":
                return drawing.check_draw(state, state.decision, command)
            return decisions.resolve(state.decision, command)
        kind, to, timed_out = planning.plan(state, seat, command)
        if kind == "wager":
            assert state.round is not None
            return Command(Kind(state.round.wager_name()), to, timed_out)
        return Command(Kind(kind), None, timed_out)

    def can(self, seat: int, command: Command) -> bool:
        """Whether ``apply(seat, command)`` would be accepted (it is not performed)."""
        try:
            self.verify(seat, command)
        except IllegalAction:
            return False
        return True

    def apply(self, seat: int, command: Command) -> Action:
        """Perform ``command`` for ``seat`` and return the action record it adds to the log.
        Raises ``IllegalAction`` (nothing changed) if ``verify`` would."""
        state = self.state
        if state.decision is not None:
            self._check_decider(seat)
            if state.decision.kind == "draw":
                action = drawing.answer_draw(state, seat, command)
                if state.live == 1:
                    showdown.win_by_fold(state)
                else:
                    streets.advance(state)
                return action
            action = decisions.answer(state, seat, command)
            if state.live == 1:
                showdown.win_by_fold(state)
            else:
                streets.advance(state)
            return action
        return self._perform(seat, planning.plan(state, seat, command))

    def _check_decider(self, seat: int) -> None:
        decision = self.state.decision
        assert decision is not None
        if self.state.result is not None:
            raise IllegalAction("the hand is over")
        if seat != decision.seat:
            raise IllegalAction(f"it is seat {decision.seat + 1}'s decision")

    # The commands by name (each is ``apply`` with its ``Command``).
    def bring_in(self, seat: int) -> None:
        """Post the bring-in (third street; SPEC §5)."""
        self.apply(seat, _BRING_IN)

    def complete(self, seat: int) -> None:
        """Complete the bring-in to the small bet (fixed limit) or the minimum bet (pot/no limit)."""
        self.apply(seat, _COMPLETE)

    def bet_or_raise_to(self, seat: int, amount: int) -> None:
        """Complete, bet or raise so that ``seat``'s street total is ``amount`` (SPEC §5 speaks "to")."""
        try:
            command = Command(Kind.WAGER, amount)
        except ValueError as exc:
            raise IllegalAction(str(exc)) from None
        self.apply(seat, command)

    def call(self, seat: int) -> None:
        """Call the bet (all-in for less if the stack is short)."""
        self.apply(seat, _CALL)

    def check(self, seat: int) -> None:
        """Check (nothing to call)."""
        self.apply(seat, _CHECK)

    def check_or_call(self, seat: int) -> None:
        """Check if nothing is owed, else call (PHH ``cc``)."""
        self.apply(seat, _CHECK_OR_CALL)

    def fold(self, seat: int) -> None:
        """Fold (the bring-in may not fold); at a pay-or-fold decision, fold."""
        self.apply(seat, _FOLD)

    def all_in(self, seat: int) -> None:
        """Put every chip in: a call, bring-in, bet or raise for the whole stack, where legal."""
        self.apply(seat, _ALL_IN)

    def show(self, seat: int) -> None:
        """Show the hand (manual showdown)."""
        self.apply(seat, _SHOW)

    def muck(self, seat: int) -> None:
        """Muck the hand unseen (manual showdown; only a beaten player not all-in may muck)."""
        self.apply(seat, _MUCK)

    def timeout(self, seat: int) -> None:
        """The seat's timer ran out (SPEC §7): check if legal, else fold; a forced bring-in is posted,
        never completed; a decision is declined or folded. In a manual showdown: muck if allowed,
        else show."""
        self.apply(seat, _TIMEOUT)

    def pay(self, seat: int) -> None:
        """A pay-or-fold decision (Baseball's three): match the pot (all-in if short)."""
        self.apply(seat, _PAY)

    def buy(self, seat: int) -> None:
        """A buy-or-decline decision (Baseball's four): buy the extra card at ``decision.amount``."""
        self.apply(seat, _BUY)

    def decline(self, seat: int) -> None:
        """A buy-or-decline decision: no extra card, no chips."""
        self.apply(seat, _DECLINE)

    def draw(self, seat: int, cards: Sequence[Card] = ()) -> None:
        """A draw decision: throw ``cards`` away and be dealt as many (none: stand pat)."""
        try:
            command = Command(Kind.DRAW, cards=tuple(cards))
        except ValueError as exc:
            raise IllegalAction(str(exc)) from None
        self.apply(seat, command)

    def stand_pat(self, seat: int) -> None:
        """A draw decision: keep every card."""
        self.apply(seat, _STAND)
    def discard(self, seat: int, card: Card) -> None:
        """Crazy Pineapple's discard decision: throw ``card`` away."""
        self.apply(seat, Command(Kind.DISCARD, cards=(card,)))

    # ------------------------------------------------------------------ execution
    def _perform(self, seat: int, plan: planning.Plan) -> Action:
        """Carry out a planned action; returns its record (the first log entry it adds)."""
        state = self.state
        kind, to, timed_out = plan
        mark = len(state.log)
        state.legal = None
        if kind in ("show", "muck"):
            showdown.showdown_step(state, seat, kind == "show", timed_out)
            return state.action_at(mark)
        rnd = state.round
        assert rnd is not None
        street = state.street
        record = state.seats[seat]
        if kind == "fold":
            rnd.fold(seat)
            state.live -= 1
            state.record(Action(street, seat, "fold", 0, to, False, timed_out))
        elif kind == "check":
            rnd.call(seat)
            state.record(Action(street, seat, "check", 0, to, False, timed_out))
        elif kind == "call":
            chips = rnd.call(seat)
            state.record(Action(street, seat, "call", chips, record.street_bet, record.stack == 0, timed_out))
        elif kind == "bring_in":
            chips = rnd.post_bring_in(seat)
            state.record(Action(street, seat, "bring_in", chips, record.street_bet, record.stack == 0,
                                timed_out))
        else:
            name = rnd.wager_name()
            if state.opener is None and street == state.game.streets[0].number:
                record_opener(state, seat)
            chips, _full = rnd.wager(seat, to)
            state.last_aggressor[street] = seat
            state.record(Action(street, seat, name, chips, to, record.stack == 0, timed_out))
        if state.live == 1:
            showdown.win_by_fold(state)
        else:
            nxt = rnd.next_actor(seat)
            if nxt is not None:
                state.actor = nxt
            else:
                streets.end_round(state)
        return state.action_at(mark)

    def __repr__(self) -> str:
        state = self.state
        return (f"StudHand(seats={state.n}, {street_name(state.street)}, phase={state.phase}, "
                f"actor={state.actor}, wild={''.join(r.char for r in state.wild_tuple)})")
