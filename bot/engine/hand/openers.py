"""Jacks or better (ruling ``openers``, five-card draw and Kings and Little Ones; docs/rules.md,
"Draw games").

Under ``openers = jacks-or-better`` the first betting round may be opened (the first bet) only by a
hand of a pair of jacks or better, wild cards counted (``may_open``); once it is open everyone may
call or raise. The opener's openers are kept (``record_opener``) and shown when its hand is shown or
wins without a showdown, so a player who split openers to draw proves them (the rule of the rooms
and the books: the opener keeps the card it threw and shows it). When the first round ends and
nobody opened, everyone antes again into the same pot and the cards are dealt again, within the
same hand (``pass_out``); without an ante there is nothing to carry and the hand just ends.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING

from bot.engine.cards.card import Card, Rank
from bot.engine.hand.dealing import post_antes
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


def pass_out(state: HandState) -> bool:
    """Nobody opened: everyone antes again into the same pot and the cards are dealt again (the
    jackpots rule; docs/rules.md, "Draw games"). Returns True when the street loop must deal again;
    False when there is no ante (nothing to carry: the hand simply ends, nobody wins anything)."""
    state.events.append(NobodyOpened())
    state.round = None
    state.actor = None
    if state.stakes.ante <= 0:
        _end_without_winner(state)
        return False
    returned: list[Card] = []
    for record in state.seats:
        returned.extend(record.cards)
        record.cards.clear()
        record.up.clear()
        record.down.clear()
        record.street_bet = 0
        if record.folded:
            record.folded = False
    state.live = state.n
    state.legal = None
    state.source.reshuffle(tuple(returned))
    state.seen.difference_update(returned)
    post_antes(state)
    return True


def _end_without_winner(state: HandState) -> None:
    state.phase = "over"
    state.dealer = None
    final = tuple(record.stack for record in state.seats)
    state.result = HandResult(
        pots=(), returned=tuple(record.returned for record in state.seats),
        shown=MappingProxyType({}), mucked=(), show_order=(), winnings=(0,) * state.n,
        final_stacks=final, showdown=False, wild_ranks=state.wild_tuple)
    state.events.append(HandEnded(final))
