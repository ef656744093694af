"""Jacks or better (ruling ``openers``, five-card draw and Kings and Little Ones; docs/rules.md,
"Draw games").

Under ``openers = jacks-or-better`` the first betting round may be opened (the first bet) only by a
hand of a pair of jacks or better, wild cards counted (``may_open``); once it is open everyone may
call or raise. The opener's openers are kept (``record_opener``) and shown when its hand is shown or
wins without a showdown, so a player who split openers to draw proves them (the card rooms' split
openers rule: the opener keeps the card it threw and shows it). When the first round ends and nobody
opened, the hand is over and every ante goes back to its owner (``pass_out``): the next hand is a
new deal with new antes.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING

from bot.engine.cards.card import Card, Rank
from bot.engine.hand.events import HandEnded, NobodyOpened
from bot.engine.hand.records import HandResult
from bot.engine.hand.showdown import seat_wilds
from bot.engine.values.evaluator import Category, HandValue, evaluate, strength

if TYPE_CHECKING:  # pragma: no cover - annotations only
    from bot.engine.hand.state import HandState

JACKS_OR_BETTER = (1 << 20) | (int(Rank.JACK) << 16)
"""The weakest strength that opens under ``openers = jacks-or-better``: a pair of jacks."""

_GROUP_CARDS = {Category.ONE_PAIR: 2, Category.TWO_PAIR: 4, Category.THREE_OF_A_KIND: 3,
                Category.FOUR_OF_A_KIND: 4}
"""How many of a made hand's best five cards are its openers (the rest are kickers)."""


def jacks_or_better(state: HandState) -> bool:
    """The game is dealt under ``openers = jacks-or-better``."""
    return "openers" in state.game.rulings and state.rulings.openers == "jacks-or-better"


def opening_round(state: HandState) -> bool:
    """The first betting round before anyone has opened, under jacks or better."""
    return (state.opener is None and state.street == state.game.streets[0].number
            and jacks_or_better(state))


def _value(state: HandState, seat: int) -> HandValue:
    cards = state.seats[seat].cards
    return evaluate(cards, seat_wilds(state, seat), wild_in_flush=state.rulings.wild_in_flush)


def may_open(state: HandState, seat: int) -> bool:
    """``seat``'s hand is a pair of jacks or better (with its wild cards)."""
    cards = state.seats[seat].cards
    return strength(cards, seat_wilds(state, seat), wild_in_flush=state.rulings.wild_in_flush) \
        >= JACKS_OR_BETTER


def openers_proof(value: HandValue) -> tuple[Card, ...]:
    """The cards that make ``value`` jacks or better: the pair, two pair, trips or quads (a wild
    card standing in included), or all five of a straight, flush, full house or better."""
    return tuple(value.best[:_GROUP_CARDS.get(value.category, 5)])


def record_opener(state: HandState, seat: int) -> None:
    """``seat`` opened the first round: keep its openers for the proof."""
    state.opener = seat
    state.openers = openers_proof(_value(state, seat)) if jacks_or_better(state) else ()


def pass_out(state: HandState) -> None:
    """Nobody opened: the hand is over, every ante goes back, nobody wins anything."""
    state.phase = "over"
    state.actor = None
    state.round = None
    state.dealer = None
    state.events.append(NobodyOpened())
    for record in state.seats:
        record.stack += record.contributed + record.dead
        record.returned += record.contributed + record.dead
        record.contributed = 0
        record.dead = 0
        record.street_bet = 0
    final = tuple(record.stack for record in state.seats)
    state.result = HandResult(
        pots=(), returned=tuple(record.returned for record in state.seats),
        shown=MappingProxyType({}), mucked=(), show_order=(), winnings=(0,) * state.n,
        final_stacks=final, showdown=False, wild_ranks=state.wild_tuple)
    state.events.append(HandEnded(final))
