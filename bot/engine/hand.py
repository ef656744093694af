"""One hand of Sex in the Middle East: a pure, deterministic seven-card stud state machine.

``StudHand`` posts the antes and deals third street when it is built, then waits for commands.
Every later street is dealt by the engine itself as soon as a betting round closes, in the pass
order of SPEC §2, from the card source it was given. Derived state comes from small pure modules:
the wild set from ``follow`` (SPEC §3), the betting arithmetic from ``betting`` (SPEC §5), the pots
from ``pots`` (SPEC §6), hand values from ``evaluator`` and showing hands from ``showing``.

When at most one player can still bet (the rest are all-in), betting is closed: the hands are
turned face up (``BettingClosed``) and the remaining streets are dealt at once, then the showdown.
The cards are still dealt as stud deals them -- seventh street face down -- so the follow rule gives
the same wild ranks whether or not anyone is all-in. When all but one fold, the hand ends at once and
no more cards are dealt.

Commands validate first and raise ``IllegalAction`` (with a reason a player can read) without
changing anything. Each query is cheap; the hand keeps only per-seat lists, the log, the current
betting round and the follow tracker.

>>> from bot.engine.cards import Deck
>>> from bot.engine.stakes import TableStakes
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

from bot.engine.baseball import Decision
from bot.engine.betting import NO_ACTIONS, BettingRound, LegalActions
from bot.engine.cards import Card, Deck, Rank
from bot.engine.command import AMOUNT_KINDS, Command, Kind
from bot.engine.dealing import STREETS, CardSource, DeckSource
from bot.engine.errors import IllegalAction
from bot.engine.evaluator import HandValue
from bot.engine.events import (
    ActionTaken,
    BettingClosed,
    BringInSeat,
    BurnsScrambled,
    CardDealt,
    CommunityCardNeeded,
    Event,
    FirstToAct,
    FollowNoted,
    StreetStarted,
    UncalledReturned,
    WildRankAdded,
)
from bot.engine.follow import FollowNote, WildEvent
from bot.engine.games import Game, game_of
from bot.engine.hand_baseball import BaseballDealing
from bot.engine.hand_showdown import HandResult, PotResult, ShowdownMixin
from bot.engine.log import Action, Deal, LogEntry
from bot.engine.pots import Pot, split_pots, uncalled
from bot.engine.rulings import DEFAULT_RULINGS, Rulings
from bot.engine.showing import ShowingValue, door_card_key
from bot.engine.stakes import TableStakes
from bot.engine.valuation import best_showing
from bot.engine.vocab import normalise, street_name
from bot.engine.wilds import make_tracker

__all__ = ["COMMANDS", "MAX_SEATS", "MIN_SEATS", "HandResult", "PotResult", "StudHand"]

MIN_SEATS = 2
MAX_SEATS = 8

COMMANDS = ("bring_in", "complete", "bet", "raise", "call", "check", "check_or_call", "fold", "all_in",
            "show", "muck", "timeout", "pay", "buy", "decline")
"""Command names accepted by ``StudHand.act``."""


FIVE = Rank.FIVE


def _wrap_event(entry: Event | Deal | Action) -> Event:
    """Stored Deal/Action records become their narration events."""
    if type(entry) is Deal:
        return CardDealt(entry)
    if type(entry) is Action:
        return ActionTaken(entry)
    return entry  # type: ignore[return-value]


_DOOR_CACHE: dict[tuple[str, Card, bool], tuple[int, int, int]] = {}
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


class StudHand(BaseballDealing, ShowdownMixin):
    """One hand of seven-card stud with fives and followers wild (SPEC §2-§7).

    ``stacks``: chips of each seat in DEAL ORDER (seat 0 = first seat left of the dealer = PHH p1),
    2 to 8 seats, each above 0. ``stakes``/``rulings``: what the hand is dealt under. ``source``: a
    ``CardSource`` (e.g. a replay's), a ``Deck`` (adapted; dealt from the top), a list of cards, or
    ``None`` for a fresh deck shuffled by ``secrets.SystemRandom``. ``manual_showdown``: players show
    or muck in show order with ``show``/``muck``; by default the showdown resolves itself (every
    live hand shown, cards speak). ``game``: a ``Game`` or its name (``bot.engine.games``; default
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
        """Dead money (Baseball's payments) belongs to the main pot (README "baseball")."""
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

    def act(self, seat: int, action: str | Command, amount: int | None = None) -> Action:
        """Generic dispatch: ``action`` is a ``Command`` or one of ``COMMANDS`` (any spelling
        ``vocab.normalise`` reads). ``bet`` and ``raise`` need ``amount``, the street total, and
        both mean ``bet_or_raise_to`` (so does ``complete`` with an amount: a pot- or no-limit
        completion to that total); an amount given with any other name is ignored. Returns the
        action record; raises ``IllegalAction``."""
        if self._decision is not None and isinstance(action, str):
            return self._decide(seat, normalise(action))
        return self.apply(seat, self._command(action, amount))

    def apply(self, seat: int, command: Command) -> Action:
        """Perform ``command`` for ``seat`` and return the action record it adds to the log.
        Raises ``IllegalAction`` (nothing changed) if ``verify`` would."""
        if self._decision is not None:
            return self._decide(seat, "timeout" if command.timed_out else command.kind.value)
        kind, to, timed_out = self._plan_command(seat, command)
        return self._perform(seat, kind, to, timed_out)

    def can(self, seat: int, action: str | Command, amount: int | None = None) -> bool:
        """Whether ``act(seat, action, amount)`` would be accepted (it is not performed)."""
        try:
            self.verify(seat, action, amount)
        except IllegalAction:
            return False
        return True

    def verify(self, seat: int, action: str | Command, amount: int | None = None) -> Command:
        """The command ``act(seat, action, amount)`` would perform, resolved: ``all_in`` as the
        call, bring-in or wager it is, ``timeout`` as what the timer takes, a ``complete`` or
        ``check_or_call`` as the exact action with its amount. Its PHH string replays the same
        action. Raises ``IllegalAction`` if the command would be refused; changes nothing."""
        command = self._command(action, amount)
        kind, to, timed_out = self._plan_command(seat, command)
        if kind == "wager":
            assert self._round is not None
            return Command(Kind(self._round.wager_name()), to, timed_out)
        return Command(Kind(kind), None, timed_out)

    @staticmethod
    def _command(action: str | Command, amount: int | None) -> Command:
        if isinstance(action, Command):
            return action
        name = normalise(action)
        if name not in COMMANDS:
            raise IllegalAction(f"unknown action {action!r}: use {', '.join(COMMANDS)}")
        kind = Kind(name)
        try:
            return Command(kind, amount if kind in AMOUNT_KINDS else None)
        except ValueError as exc:
            raise IllegalAction(str(exc)) from None

    def _plan_command(self, seat: int, command: Command) -> tuple[str, int, bool]:
        """``_plan`` for a ``Command``; the command's own ``timed_out`` is kept."""
        kind = command.kind
        wager = kind in (Kind.BET, Kind.RAISE, Kind.WAGER)
        if wager or (kind is Kind.COMPLETE and command.amount is not None):
            if command.amount is None:
                raise IllegalAction(f"say how much to {command.label} to")
            plan = self._plan(seat, "to", command.amount, kind.value)
        else:
            plan = self._plan(seat, kind.value, None, None)
        if command.timed_out and not plan[2]:
            return plan[0], plan[1], True
        return plan

    # ------------------------------------------------------------------ validation
    def _plan(
        self, seat: int, command: str, amount: int | None, declared: str | None
    ) -> tuple[str, int, bool]:
        """Check a command; return ``(kind, to, timed_out)`` with kind one of bring_in, wager, call,
        check, fold, show, muck. Raises ``IllegalAction``; changes nothing."""
        if type(seat) is int and seat == self._actor and self._phase == "betting":
            # Fast path for the commands of a betting round.
            legal = self._legal or self.legal_actions(seat)
            if command == "check_or_call":
                command = "check" if legal.check else "call"
            if command == "call" and legal.call is not None:
                return "call", self._street_bets[seat] + legal.call, False
            if command == "check" and legal.check:
                return "check", self._street_bets[seat], False
            if command == "fold" and legal.fold:
                return "fold", self._street_bets[seat], False
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self._n:
            raise IllegalAction(f"there is no seat {seat!r} in this hand")
        if self._result is not None:
            raise IllegalAction("the hand is over")
        if seat != self._actor:
            if self._folded[seat]:
                raise IllegalAction("you have folded")
            who = "nobody" if self._actor is None else f"seat {self._actor + 1}"
            raise IllegalAction(f"it is not your turn: {who} is to act")
        legal = self.legal_actions(seat)
        timed_out = command == "timeout"
        if self._phase == "showdown":
            if command == "timeout":
                command = "muck" if legal.muck else "show"
            if command == "show":
                return "show", 0, timed_out
            if command == "muck":
                if not legal.muck:
                    raise IllegalAction(self._muck_refusal(seat))
                return "muck", 0, timed_out
            raise IllegalAction("it is the showdown: show or muck")
        if command in ("show", "muck"):
            raise IllegalAction("there is nothing to show yet: the betting is not over")
        if command == "timeout":
            if legal.bring_in is not None and not legal.fold:
                command = "bring_in"
            elif legal.check:
                command = "check"
            else:
                command = "fold"
        bet = self._street_bets[seat]
        if command == "check_or_call":
            command = "check" if legal.check else "call"
        if command == "fold":
            if not legal.fold:
                raise IllegalAction("the bring-in cannot fold: post the bring-in or complete")
            return "fold", bet, timed_out
        if command == "check":
            if not legal.check:
                if legal.bring_in is not None:
                    raise IllegalAction("you must bring in (or complete); you cannot check")
                raise IllegalAction(f"you cannot check: it is {legal.call} to call")
            return "check", bet, timed_out
        if command == "call":
            if legal.call is None:
                if legal.bring_in is not None:
                    raise IllegalAction("nothing to call yet: post the bring-in or complete")
                raise IllegalAction("there is no bet to call: check or bet")
            return "call", bet + legal.call, timed_out
        if command == "bring_in":
            if legal.bring_in is None:
                raise IllegalAction("the bring-in is not yours to post" if self._street == 3
                                    else "there is no bring-in after third street")
            return "bring_in", legal.bring_in, timed_out
        if command == "complete":
            # "complete" also names pot and no limit's first bet of third street (still a bet there).
            if legal.wager != "complete" and not (legal.wager == "bet" and self._street == 3):
                if self._street != 3:
                    raise IllegalAction("completing is for the bring-in on third street: bet or raise")
                if legal.wager is None:
                    raise IllegalAction("you cannot complete now")
                raise IllegalAction("the bet is already complete: raise instead")
            target = legal.complete_to if legal.wager == "complete" else legal.min_to   # pot/no limit: a bet
            if target is None:
                raise IllegalAction(f"you have {self._stacks[seat]} chips, not enough to complete: go all-in")
            return "wager", target, timed_out
        if command == "all_in":
            if legal.all_in_to is None:
                raise IllegalAction(self._all_in_refusal(legal))
            kind = legal.all_in_kind
            if kind == "call":
                return "call", legal.all_in_to, timed_out
            if kind == "bring_in":
                return "bring_in", legal.all_in_to, timed_out
            return "wager", legal.all_in_to, timed_out
        if command == "to":
            if not isinstance(amount, int) or isinstance(amount, bool):
                raise IllegalAction(f"the amount must be a whole number of chips, not {amount!r}")
            if legal.wager is None:
                raise IllegalAction(self._wager_refusal(legal))
            if declared == "complete" and legal.wager == "raise":
                raise IllegalAction("the bet is already complete: raise instead")
            if not legal.allows_to(amount):
                raise IllegalAction(self._amount_refusal(legal, amount, seat))
            return "wager", amount, timed_out
        raise IllegalAction(f"unknown action {command!r}")

    def _wager_refusal(self, legal: LegalActions) -> str:
        rnd = self._round
        if rnd is not None and rnd.cap is not None and rnd.aggressions >= rnd.cap:
            return f"the betting is capped at a bet and {rnd.cap - 1} raises: call or fold"
        if legal.call is not None and legal.all_in_kind == "call":
            return "you do not have enough chips to raise: call all-in or fold"
        if rnd is not None and not any(self._stacks[i] > 0 and not self._folded[i]
                                       for i in range(self._n) if i != legal.seat):
            return "everyone else is all-in: there is nobody to raise against; call or fold"
        if rnd is not None and legal.seat is not None and not rnd.others_can_exceed(legal.seat, rnd.current):
            return "nobody else can put in more than the current bet: call or fold"
        return "the betting was not reopened for you (a short all-in is not a full raise): call or fold"

    def _all_in_refusal(self, legal: LegalActions) -> str:
        if legal.wager is None:
            return self._wager_refusal(legal)
        if legal.to_options:
            return (f"this is fixed limit: {legal.wager} to {' or '.join(map(str, legal.to_options))}, "
                    "not all-in")
        return f"all-in is above the pot limit: you may {legal.wager} to at most {legal.max_to}"

    def _amount_refusal(self, legal: LegalActions, amount: int, seat: int) -> str:
        top = self._street_bets[seat] + self._stacks[seat]
        if amount > top:
            if legal.to_options:  # fixed limit: name the amounts there are, not the whole stack
                opts = " or ".join(str(x) for x in legal.to_options)
                return f"this is fixed limit: {legal.wager} to {opts} (you asked for {amount})"
            return f"you have only {self._stacks[seat]} chips: the most you can make it is {top}"
        if legal.min_to is None:
            return f"you can only go all-in (to {legal.all_in_to}), call or fold"
        if legal.to_options:
            opts = " or ".join(str(x) for x in legal.to_options)
            return f"this is fixed limit: {legal.wager} to {opts}"
        word = legal.wager
        if amount < legal.min_to:
            return f"the smallest {word} is to {legal.min_to}"
        return f"the largest {word} is to {legal.max_to} (pot limit)"

    def _muck_refusal(self, seat: int) -> str:
        if self._stacks[seat] == 0:
            return "an all-in hand is always shown"
        if self._betting_closed:
            return "the hands are already face up"
        return "you may muck only when a hand already shown beats yours"

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

    # ------------------------------------------------------------------ dealing
    def _post_antes(self) -> None:
        ante = self.stakes.ante
        if ante <= 0:
            return
        for seat in range(self._n):
            chips = min(ante, self._stacks[seat])
            self._stacks[seat] -= chips
            self._contrib[seat] += chips
            self._record(Action(3, seat, "ante", chips, 0, self._stacks[seat] == 0))

    def _draw(self, street: int, seat: int | None, face_up: bool, kind: str) -> Card:
        card = self._source.draw(seat, face_up)
        if card in self._seen:
            raise ValueError(f"the card source dealt {card.code} twice")
        self._seen.add(card)
        deal = Deal(self._deal_seq, street, seat, card, face_up, kind)
        self._deal_seq += 1
        self._log.append(deal)
        self._events.append(deal)
        if kind == "burn":
            self._burns.append(card)
            return card
        if seat is not None:
            self._cards[seat].append(card)
            (self._up if face_up else self._down)[seat].append(card)
            if face_up:
                self._add_up_rank(seat, card)
        elif kind == "community":
            self._community = card
        else:
            self._indicators.append(card)
        notes = self._follow.on_deal(deal)
        if notes:
            self._note(notes)
        return card

    def _add_up_rank(self, seat: int, card: Card) -> None:
        rank = card.rank
        self._up_ranks[seat] = tuple(sorted((*self._up_ranks[seat], rank)))
        self._up_mask[seat] |= 1 << rank

    def _sync_wilds(self) -> None:
        """Copy the tracker's wild ranks (they may grow, be replaced or vanish in some games)."""
        ranks = tuple(self._follow.wild_ranks)
        self._wild_tuple = ranks
        mask = 0
        for rank in ranks:
            mask |= 1 << rank
        self._wild_mask = mask

    def _note(self, notes: tuple[FollowNote, ...]) -> None:
        follow = self._follow
        self._sync_wilds()
        for note in notes:
            if note.kind == "added":
                self._events.append(WildRankAdded(follow.events[-1], self._wild_tuple))
            else:
                self._events.append(FollowNoted(note))

    def _proceed_from(self, street: int) -> None:
        """Deal ``street`` and start its betting; while betting is closed, deal on to the showdown."""
        if self.game.extra_card is not None or self.game.pay_rank is not None:
            self._dealer = self._deal_steps(street)
            self._run_dealer()
            return
        while True:
            self._street = street
            self._phase = "dealing"
            bets = self._street_bets
            for seat in range(self._n):
                bets[seat] = 0
            self._events.append(StreetStarted(street))
            if street == 7:
                self._deal_seventh()
            else:
                self._deal_street(street)
            if not self._betting_closed and self._start_round(street):
                return
            if street == 7:
                self._finish_cards()
                self._begin_showdown()
                return
            street += 1

    def _deal_street(self, street: int) -> None:
        spec = STREETS[street - 3]
        if spec.burn and self.rulings.burn_cards == "on":
            self._draw(street, None, False, "burn")
        for face_up in spec.passes:
            self._deal_pass(street, face_up)

    def _deal_pass(self, street: int, face_up: bool) -> None:
        """One card to each live seat in seat order (the hot path of ``_draw``, inlined)."""
        draw = self._source.draw
        seen, log, events = self._seen, self._log, self._events
        cards, pile, folded = self._cards, (self._up if face_up else self._down), self._folded
        up_ranks, up_mask = self._up_ranks, self._up_mask
        follow = self._follow
        trigger = follow.trigger
        seq = self._deal_seq
        for seat in range(self._n):
            if folded[seat]:
                continue
            card = draw(seat, face_up)
            size = len(seen)
            seen.add(card)
            if len(seen) == size:
                raise ValueError(f"the card source dealt {card.code} twice")
            deal = Deal(seq, street, seat, card, face_up, "hole")
            seq += 1
            log.append(deal)
            events.append(deal)
            cards[seat].append(card)
            pile[seat].append(card)
            if face_up:
                rank = card.rank
                up_ranks[seat] = tuple(sorted((*up_ranks[seat], rank)))
                up_mask[seat] |= 1 << rank
            if (face_up and card.rank is trigger) or follow.pending is not None:
                notes = follow.on_deal(deal)
                if notes:
                    self._note(notes)
        self._deal_seq = seq

    def _deal_seventh(self) -> None:
        """Seventh street: down cards, or one community card in a shortage (SPEC §2, TDA RP-10H)."""
        source = self._source
        live = [i for i in range(self._n) if not self._folded[i]]
        burn = self.rulings.burn_cards == "on"
        indicator = self.rulings.follow_target == "indicator-card"
        needed = len(live) + (1 if burn else 0) + (1 if indicator and self._follow.pending else 0)
        if source.remaining() < needed and burn and self._burns:
            scrambled = tuple(self._burns)
            source.scramble(scrambled)
            self._burns.clear()
            self._seen.difference_update(scrambled)
            self._events.append(BurnsScrambled(scrambled))
        community = source.remaining() < needed
        if community:
            self._events.append(CommunityCardNeeded(source.remaining(), len(live)))
        if burn and source.remaining() >= (2 if community else needed):
            self._draw(7, None, False, "burn")
        if community:
            self._draw(7, None, True, "community")
            self._indicators_while_pending(0)
            notes = self._follow.last_up()
            if notes:
                self._note(notes)
            return
        self._indicators_while_pending(len(live))
        self._deal_pass(7, False)
        notes = self._follow.last_up()        # no up card is left to follow (follow-the-queen)
        if notes:
            self._note(notes)

    def _indicators_while_pending(self, keep: int) -> None:
        """``indicator-card``: no up card will follow, so turn stub cards in the centre while a follow
        is armed (a five turned there arms another under ``chain``), keeping ``keep`` cards."""
        if self.rulings.follow_target != "indicator-card":
            return
        while self._follow.pending is not None and self._source.remaining() > keep:
            self._draw(7, None, True, "indicator")

    def _finish_cards(self) -> None:
        notes = self._follow.lapse()
        if notes:
            self._note(notes)

    # ------------------------------------------------------------------ betting rounds
    def _able(self) -> list[int]:
        return [i for i in range(self._n) if not self._folded[i] and self._stacks[i] > 0]

    def _start_round(self, street: int) -> bool:
        """Set up betting on ``street``; False if at most one player can bet (betting closes)."""
        if len(self._able()) <= 1:
            self._close_betting(street)
            return False
        stakes, rulings = self.stakes, self.rulings
        if street == 3:
            low = self._low_door_seat()
            seat = low
            passed_from: int | None = None
            if self._stacks[low] == 0:
                passed_from = low
                seat = next(s for s in ((low + k) % self._n for k in range(1, self._n))
                            if self._stacks[s] > 0 and not self._folded[s])
            self._bring_in_seat = low
            rnd = BettingRound(street, stakes, rulings, self._stacks, self._street_bets, self._contrib,
                               self._folded, bring_in_seat=seat, bring_in_may_fold=passed_from is not None)
            self._events.append(BringInSeat(seat, self._up[low][0], passed_from))
            first: int | None = seat
        else:
            open_pair = street == 4 and stakes.is_fixed_limit and self._open_pair()
            rnd = BettingRound(street, stakes, rulings, self._stacks, self._street_bets, self._contrib,
                               self._folded, open_pair=open_pair)
            same_as_sixth = street == 7 and self._community is not None and 6 in self._high_hands
            high = self._high_hands[6] if same_as_sixth else self._high_hand_seat()
            self._high_hands[street] = high
            first = rnd.first_actor(high)
            self._events.append(FirstToAct(street, high, first, same_as_sixth))
        if first is None:  # pragma: no cover - two players can bet, so someone must act
            self._close_betting(street)
            return False
        self._round = rnd
        self._first_actors[street] = first
        self._actor = first
        self._phase = "betting"
        return True

    def _close_betting(self, street: int) -> None:
        if not self._betting_closed:
            self._betting_closed = True
            self._return_uncalled()
            self._events.append(BettingClosed(street))

    def _low_door_seat(self) -> int:
        """The bring-in: lowest door card with the wild set now (SPEC §5, ``showing_hand``)."""
        wild = self._follow.wild_set
        how = self.rulings.showing_hand
        up = self._up

        def key(seat: int) -> tuple[int, int, int]:
            card = up[seat][0]
            memo = (how, card, card.rank in wild)
            value = _DOOR_CACHE.get(memo)
            if value is None:
                value = _DOOR_CACHE[memo] = door_card_key(card, wild, showing_hand=how)
            return value

        return min((s for s in range(self._n) if not self._folded[s]), key=key)

    def _high_hand_seat(self) -> int:
        """The live seat with the best showing hand; ties by position or by the highest card by suit."""
        by_suit = self.rulings.high_hand_tiebreak == "suit"
        best_seat = -1
        folded, ups = self._folded, self._up
        if not by_suit:                       # position: the first seat clockwise wins a tie
            best = -1
            for seat in range(self._n):
                if not folded[seat]:
                    value = self._showing(seat).strength
                    if value > best:
                        best, best_seat = value, seat
            return best_seat
        best_key: tuple[int, tuple[Card, ...]] | None = None
        for seat in range(self._n):
            if self._folded[seat]:
                continue
            up = ups[seat]
            key = (self._showing(seat).strength, tuple(sorted(up, reverse=True)))
            if best_key is None or key > best_key:
                best_key, best_seat = key, seat
        return best_seat

    def _open_pair(self) -> bool:
        """Fourth street: does any live player show a pair (SPEC §5, ``open_pair_double``)?"""
        rule = self.rulings.open_pair_double
        if rule == "off":
            return False
        wild = self._follow.wild_set
        for seat in range(self._n):
            if self._folded[seat]:
                continue
            a, b = self._up[seat][:2]
            if a.rank == b.rank:
                return True
            if rule == "wild-aware" and (a.rank in wild or b.rank in wild):
                return True
        return False

    def __repr__(self) -> str:
        return (f"StudHand(seats={self._n}, {street_name(self._street)}, phase={self._phase}, "
                f"actor={self._actor}, wild={''.join(r.char for r in self._wild_tuple)})")
