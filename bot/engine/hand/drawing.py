"""The draw: a draw game's decision phase (issue 22; docs/rules.md, "Draw games").

On a street with ``Street.draw`` the street loop asks each live seat in turn, from the first left of
the button, for a ``draw`` decision: ``Command(Kind.DRAW, cards=...)`` names the discards (none =
stand pat), ``Command(Kind.STAND)`` stands pat, and the timer stands pat; ``fold`` gives the hand
up instead (a player leaving the table is folded). The seat's new cards are
dealt to it at once, face down, as card rooms deal each player's draw in turn. When the stub runs
out, the discards not yet reshuffled -- every seat's but the drawing seat's own (and, under ruling
``reshuffle = discards-and-folds``, the folded hands) -- are shuffled into a new stub.

How many cards a seat may draw: ``Street.draw``; in five-card draw ruling ``draw_limit`` says three,
four when the seat keeps an ace and shows it (the default), or all five.

Discards are secret for ever: the log's ``draw`` row has only the count; the cards are the seat's
(``SeatState.discards``), for its owner and the history file.

Jacks or better is ``bot.engine.hand.openers``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from bot.engine.cards.card import Card, Rank
from bot.engine.command import DRAW_KINDS, Command, Kind
from bot.engine.errors import IllegalAction
from bot.engine.hand.dealing import draw
from bot.engine.hand.events import DiscardsReshuffled, DrawAceShown
from bot.engine.hand.records import Decision
from bot.engine.log import Action

if TYPE_CHECKING:  # pragma: no cover - annotations only
    from bot.engine.games.streets import Street
    from bot.engine.hand.state import HandState

def draw_order(state: HandState) -> list[int]:
    """The live seats in turn from the first left of the button."""
    first = state.left_of(state.button)
    return [s for s in (state.left_of(first, k) for k in range(state.n)) if not state.seats[s].folded]


def most_cards(state: HandState, street: Street, seat: int) -> int:
    """The most cards ``seat`` may draw now: the street's limit, or in five-card draw as ruling
    ``draw_limit`` says (four when the seat holds an ace it can keep and show; all five)."""
    cards = state.seats[seat].cards
    most = street.draw
    if "draw_limit" in state.game.rulings:
        limit = state.rulings.draw_limit
        if limit == "five":
            most = len(cards)
        elif limit == "three-or-four-with-ace" and any(c.rank is Rank.ACE for c in cards):
            most = street.draw + 1
    return min(most, len(cards))


def draw_round(state: HandState, street: Street) -> Iterator[Decision]:
    """Ask each live seat in turn for its draw and deal its new cards at once (the street loop
    yields each decision; ``answer`` applies it and notes how many cards to deal)."""
    for seat in draw_order(state):
        if state.seats[seat].folded:
            continue
        yield Decision(seat, "draw", most_cards(state, street, seat), "")
        for _ in range(state.to_draw):
            deal_draw_card(state, street.number, seat)
        state.to_draw = 0


def deal_draw_card(state: HandState, street: int, seat: int) -> Card:
    """One card of ``seat``'s draw; when the stub is empty the discards are reshuffled first."""
    if state.source.remaining() == 0:
        reshuffle(state, seat)
    return draw(state, street, seat, False, "hole")


def reshuffle(state: HandState, seat: int) -> None:
    """The stub is empty while ``seat`` draws: shuffle the discards of every other seat (and under
    ``reshuffle = discards-and-folds`` the folded hands) into a new stub; ``seat``'s own wait for a
    later reshuffle. ``ValueError`` if there is nothing to shuffle (not reachable with 52 cards and at
    most eight players: see docs/rules.md)."""
    pile = state.discard_pile
    cards = [card for owner, card in pile if owner != seat]
    state.discard_pile = [(owner, card) for owner, card in pile if owner == seat]
    if state.rulings.reshuffle == "discards-and-folds":
        for index, record in enumerate(state.seats):
            if record.folded and index != seat and record.cards:
                cards.extend(record.cards)
                record.cards.clear()
                record.down.clear()
    if not cards:
        raise ValueError("the stub is empty and there are no discards to reshuffle")
    state.source.reshuffle(tuple(cards))
    state.seen.difference_update(cards)
    state.reshuffles.append(state.deal_seq)
    state.events.append(DiscardsReshuffled(seat, len(cards)))


def check_draw(state: HandState, decision: Decision, command: Command) -> Command:
    """The draw ``command`` makes at ``decision``, resolved (``stand`` and ``timeout`` as a draw of
    no cards, the timer's marked). Raises ``IllegalAction`` with the reason; changes nothing."""
    if command.kind is Kind.TIMEOUT:
        return Command(Kind.DRAW, None, True)
    if command.kind is Kind.FOLD:
        return Command(Kind.FOLD, None, command.timed_out)
    if command.kind not in DRAW_KINDS:
        raise IllegalAction("it is your draw: choose the cards to throw away, or stand pat (or fold)")
    if command.kind is Kind.STAND:
        return Command(Kind.DRAW, None, command.timed_out)
    cards = command.cards
    hand = state.seats[decision.seat].cards
    strangers = [c.code for c in cards if c not in hand]
    if strangers:
        raise IllegalAction(f"you do not hold {' '.join(strangers)}: discard cards from your hand")
    if len(cards) > decision.amount:
        raise IllegalAction(_too_many(state, decision, len(cards)))
    if len(cards) > _plain_limit(state) and not any(
            c.rank is Rank.ACE for c in hand if c not in cards):
        raise IllegalAction(f"to draw {len(cards)} you must keep an ace and show it")
    return command


def _plain_limit(state: HandState) -> int:
    """The most cards a seat may draw without showing an ace (the street's limit, unless all five
    may be drawn)."""
    street = next(s for s in state.game.streets if s.number == state.street)
    if "draw_limit" in state.game.rulings and state.rulings.draw_limit == "five":
        return 5
    return street.draw


def _too_many(state: HandState, decision: Decision, asked: int) -> str:
    most = decision.amount
    if most > _plain_limit(state):
        return f"you may draw at most {most} cards (four only keeping an ace, which you show)"
    return f"you may draw at most {most} card{'s' if most != 1 else ''}, not {asked}"


def answer_draw(state: HandState, seat: int, command: Command) -> Action:
    """Apply ``seat``'s draw: throw the discards away (secretly) and log how many; a four-card draw
    with an ace shows the ace. The street loop deals the new cards when it resumes."""
    decision = state.decision
    assert decision is not None and decision.kind == "draw"
    resolved = check_draw(state, decision, command)
    cards = resolved.cards
    record = state.seats[seat]
    mark = len(state.log)
    state.decision = None
    state.legal = None
    if resolved.kind is Kind.FOLD:          # a player may give up the hand instead of drawing
        record.folded = True
        state.live -= 1
        state.record(Action(state.street, seat, "fold", 0, record.street_bet, False, resolved.timed_out))
        return state.action_at(mark)
    state.to_draw = len(cards)
    for card in cards:
        record.cards.remove(card)
        record.down.remove(card)
    record.discards.append(cards)
    state.discard_pile.extend((seat, card) for card in cards)
    state.record(Action(state.street, seat, "draw", 0, len(cards), False, resolved.timed_out))
    if len(cards) > _plain_limit(state):
        ace = next(c for c in record.cards if c.rank is Rank.ACE)
        state.events.append(DrawAceShown(seat, ace))
    state.accepted = True
    return state.action_at(mark)
