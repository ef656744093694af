"""The hand's append-only log: every card dealt and every action, in order.

Everything else about a hand (the wild set, pots, whose turn) can be derived from this log and the
stakes and rulings. ``Deal`` and ``Action`` are immutable records (named tuples: cheap to make, as a
hand makes dozens); ``LogEntry`` is either. Tell them apart with ``isinstance``.
"""

from __future__ import annotations

from typing import Literal, NamedTuple, get_args

from bot.engine.cards.card import Card

DealKind = Literal["hole", "community", "burn", "indicator", "board", "second_board"]
DEAL_KINDS: tuple[DealKind, ...] = get_args(DealKind)
"""``hole``: a card to a seat (up or down); ``community``: the shared seventh-street card in a
shortage; ``burn``: a burned card (never seen); ``indicator``: a card turned face up in the centre to
set a follow's rank (``follow_target = indicator-card``); ``board``: a flop game's shared card, face
up on the board (the flop, the turn, the river); ``second_board``: the second run's board cards
when the hand is run twice."""

FORCED = ("ante", "small_blind", "big_blind", "straddle", "dead_blind")
"""Forced bets: posted by the hand itself, never a ``Command``."""

ACTIONS = ("ante", "small_blind", "big_blind", "straddle", "dead_blind", "bring_in", "complete", "bet",
           "raise", "call", "check", "fold", "show", "muck", "pay", "buy", "decline", "discard",
           "run_twice", "run_once", "draw")
"""Action names in the log (each but the ``FORCED`` bets is a ``Command`` kind the hand applies). A
``draw`` row (a draw game's discard, ``stand`` included) has ``to`` = the number of cards drawn
(0 = stood pat) and never names the cards: they are the seat's own (``StudHand.discards``)."""


class Deal(NamedTuple):
    """One card leaving the stub.

    ``seq``: position in the deal order (0 = first card off the stub, burns included). ``street``:
    its number (``bot.engine.games.streets``). ``seat``: the receiving seat, ``None`` for community,
    burn, indicator and board cards. ``face_up``: dealt face up (the community, indicator and board
    cards are face up, burns face down).
    """

    seq: int
    street: int
    seat: int | None
    card: Card
    face_up: bool
    kind: DealKind = "hole"


class Action(NamedTuple):
    """One action by a seat, in chips.

    ``action``: one of ``ACTIONS``. ``amount``: chips the seat put in with this action (0 for check,
    fold, show, muck). ``to``: the seat's total for the street after the action (``ante`` rows: the
    ante posted, ``to`` 0; a blind or straddle: the chips posted, ``to`` the seat's street total).
    ``all_in``: the action left the seat with no chips.
    ``timed_out``: the action was taken by the timer (SPEC §7). ``cards``: the card a ``discard``
    threw away (secret, as a down card is).
    """

    street: int
    seat: int
    action: str
    amount: int = 0
    to: int = 0
    all_in: bool = False
    timed_out: bool = False
    cards: tuple[Card, ...] = ()


LogEntry = Deal | Action
