"""The one narrator of a hand: a visitor over the engine's events, as ``chess.pgn`` visits a game.

``EventVisitor`` walks events in order and calls one ``visit_<event>`` method per event (every
default does nothing). ``Narrator`` is the visitor both front ends use -- the live table log
(``bot.render.narrate.TableNarrator``) and ``wildstud replay`` (``bot.engine.replay.replayer``): it keeps
what the table has seen (each seat's cards, the up cards, who folded, the wild ranks, whether the
hands were turned face up) and groups a street's deal -- its antes, its cards and the notes they
cause (a wild rank, a follow, a community card) -- into one block, said when the next event comes.
A subclass gives the voice: ``antes_lines``, ``deal_lines`` and the ``visit_`` methods of the
events it tells, each adding lines with ``say`` (or ``note`` for a line of the deal block).

>>> from bot.engine.cards.deck import Deck
>>> from bot.engine.hand.hand import StudHand
>>> from bot.engine.betting.stakes import TableStakes
>>> class Folds(Narrator[str]):
...     def visit_action_taken(self, event):
...         super().visit_action_taken(event)
...         if event.action.action == "fold":
...             self.say(f"{self.names[event.action.seat]} folds")
>>> hand = StudHand([500, 500], TableStakes(), source=Deck.seeded(3))
>>> hand.timeout(hand.actor); hand.fold(hand.actor)
>>> Folds(["Ann", "Bea"]).lines(hand.events)
['Ann folds']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Generic, TypeVar

from bot.engine.cards.card import Card, Rank
from bot.engine.hand.events import (
    ActionTaken,
    BettingClosed,
    BringInSeat,
    BurnsScrambled,
    CardDealt,
    CommunityCardNeeded,
    DiscardsReshuffled,
    DrawAceShown,
    Event,
    FirstToAct,
    FollowNoted,
    HandEnded,
    HandMucked,
    HandShown,
    NobodyOpened,
    OpenersShown,
    PotAwarded,
    ShowdownStarted,
    StreetStarted,
    UncalledReturned,
    WildRankAdded,
)
from bot.engine.log import FORCED, Action, Deal

L = TypeVar("L")

_METHODS: dict[type, str] = {
    StreetStarted: "visit_street_started", CardDealt: "visit_card_dealt",
    BurnsScrambled: "visit_burns_scrambled", CommunityCardNeeded: "visit_community_card_needed",
    WildRankAdded: "visit_wild_rank_added", FollowNoted: "visit_follow_noted",
    BringInSeat: "visit_bring_in_seat", FirstToAct: "visit_first_to_act", ActionTaken: "visit_action_taken",
    BettingClosed: "visit_betting_closed", UncalledReturned: "visit_uncalled_returned",
    ShowdownStarted: "visit_showdown_started", HandShown: "visit_hand_shown",
    HandMucked: "visit_hand_mucked", PotAwarded: "visit_pot_awarded", HandEnded: "visit_hand_ended",
    DiscardsReshuffled: "visit_discards_reshuffled", DrawAceShown: "visit_draw_ace_shown",
    OpenersShown: "visit_openers_shown", NobodyOpened: "visit_nobody_opened",
}

_DEAL_BLOCK = (CardDealt, WildRankAdded, FollowNoted, CommunityCardNeeded, BurnsScrambled)
"""Events that belong to the street being dealt (said with it); every other event ends the block."""

_BEFORE_CARDS = frozenset({*FORCED, "discard", "run_twice", "run_once"})
"""Actions taken at the start of a street, before its cards: they leave its deal block open."""


class EventVisitor:
    """Visits a hand's events in order: ``visit(events)`` calls ``visit_<event>(event)`` for each
    (``visit_street_started``, ``visit_card_dealt``, ..., ``visit_hand_ended``), after ``before``."""

    def visit(self, events: Iterable[Event]) -> None:
        """Visit ``events`` (the next ones of the hand), in order."""
        for event in events:
            self.before(event)
            method: Callable[[Any], None] = getattr(self, _METHODS[type(event)])
            method(event)

    def before(self, event: Event) -> None:
        """Called before each event's ``visit_`` method."""

    def visit_street_started(self, event: StreetStarted) -> None: ...
    def visit_card_dealt(self, event: CardDealt) -> None: ...
    def visit_burns_scrambled(self, event: BurnsScrambled) -> None: ...
    def visit_community_card_needed(self, event: CommunityCardNeeded) -> None: ...
    def visit_wild_rank_added(self, event: WildRankAdded) -> None: ...
    def visit_follow_noted(self, event: FollowNoted) -> None: ...
    def visit_bring_in_seat(self, event: BringInSeat) -> None: ...
    def visit_first_to_act(self, event: FirstToAct) -> None: ...
    def visit_action_taken(self, event: ActionTaken) -> None: ...
    def visit_betting_closed(self, event: BettingClosed) -> None: ...
    def visit_uncalled_returned(self, event: UncalledReturned) -> None: ...
    def visit_showdown_started(self, event: ShowdownStarted) -> None: ...
    def visit_hand_shown(self, event: HandShown) -> None: ...
    def visit_hand_mucked(self, event: HandMucked) -> None: ...
    def visit_pot_awarded(self, event: PotAwarded) -> None: ...
    def visit_hand_ended(self, event: HandEnded) -> None: ...
    def visit_discards_reshuffled(self, event: DiscardsReshuffled) -> None: ...
    def visit_draw_ace_shown(self, event: DrawAceShown) -> None: ...
    def visit_openers_shown(self, event: OpenersShown) -> None: ...
    def visit_nobody_opened(self, event: NobodyOpened) -> None: ...


class Narrator(EventVisitor, Generic[L]):
    """Turns one hand's events into lines of type ``L``; ``names``: the players in deal order.

    Keep one narrator per hand and visit every event once, in order. ``lines(events)`` visits,
    ends the open deal block and returns the lines said since the last call; ``feed`` and
    ``flush`` do the two halves (a deal block may then span several ``feed`` calls).
    """

    def __init__(self, names: Sequence[str], wild_ranks: Iterable[Rank] = (Rank.FIVE,)) -> None:
        self.names = list(names)
        self.wild: set[Rank] = set(wild_ranks)     # the game's wild ranks for everyone, at the start
        self.held: list[list[Card]] = [[] for _ in names]
        self.up: list[list[Card]] = [[] for _ in names]
        self.folded: set[int] = set()
        self.open_hands = False
        self.street: int | None = None
        self.side_pots = False
        self._out: list[L] = []
        self._antes: list[Action] = []
        self._cards: list[Deal] = []
        self._notes: list[L] = []
        self._block = False

    # -- output ----------------------------------------------------------------------------------
    def say(self, line: L) -> None:
        """Add a line now (from the ``visit_`` method of an event outside a deal block: ``before``
        has already said the block)."""
        self._out.append(line)

    def note(self, line: L) -> None:
        """Add a line to the open deal block, after its cards."""
        self._notes.append(line)

    def lines(self, events: Iterable[Event]) -> list[L]:
        """Visit ``events``, end the deal block, and return the lines said since the last call."""
        self.feed(events)
        self.flush()
        out, self._out = self._out, []
        return out

    def feed(self, events: Iterable[Event]) -> None:
        """Visit ``events`` without ending the open deal block."""
        self.visit(events)

    def take(self) -> list[L]:
        """The lines said so far and not yet taken."""
        out, self._out = self._out, []
        return out

    def flush(self) -> None:
        """Say the open deal block: the antes, then the street's cards, then its notes."""
        if self._antes:
            antes, self._antes = self._antes, []
            self._out.extend(self.antes_lines(antes))
        if self._block:
            self._out.extend(self.deal_lines(self.street, self._cards))
        self._out.extend(self._notes)
        self._block = False
        self._cards = []
        self._notes = []

    # -- the voice -------------------------------------------------------------------------------
    def antes_lines(self, antes: Sequence[Action]) -> list[L]:
        """How one round of antes is said."""
        return []

    def deal_lines(self, street: int | None, cards: Sequence[Deal]) -> list[L]:
        """How one street's cards are said (``cards``: the deals kept by ``visit_card_dealt``)."""
        return []

    def name(self, seat: int | None) -> str:
        """A seat's name (``seat N`` for one outside the hand)."""
        if seat is None:
            return "the community card"
        return self.names[seat] if 0 <= seat < len(self.names) else f"seat {seat + 1}"

    # -- what the table has seen ------------------------------------------------------------------
    def before(self, event: Event) -> None:
        if isinstance(event, _DEAL_BLOCK):
            return
        if isinstance(event, ActionTaken) and event.action.action in _BEFORE_CARDS:
            return          # antes join the deal block; blinds and the flop games' decisions are
                            # said before the cards of the street they precede
        self.flush()

    def visit_street_started(self, event: StreetStarted) -> None:
        self.street = event.street
        self._block = True

    def visit_card_dealt(self, event: CardDealt) -> None:
        deal = event.deal
        if deal.seat is not None and deal.kind == "hole":
            self.held[deal.seat].append(deal.card)
            if deal.face_up:
                self.up[deal.seat].append(deal.card)
        self.keep_card(deal)

    def keep_card(self, deal: Deal) -> None:
        """Keep a dealt card for ``deal_lines`` (a voice may say some cards as notes instead)."""
        self._cards.append(deal)

    def visit_wild_rank_added(self, event: WildRankAdded) -> None:
        self.wild = set(event.wild_ranks)          # every rank wild now (a follower may be replaced)

    def visit_action_taken(self, event: ActionTaken) -> None:
        action = event.action
        if action.action == "ante":
            self._antes.append(action)
        elif action.action == "fold":
            self.folded.add(action.seat)

    def visit_betting_closed(self, event: BettingClosed) -> None:
        self.open_hands = True

    def visit_pot_awarded(self, event: PotAwarded) -> None:
        if event.pot_index > 0:
            self.side_pots = True

    @property
    def live_seats(self) -> list[int]:
        """Seats that have not folded."""
        return [s for s in range(len(self.names)) if s not in self.folded]
