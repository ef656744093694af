"""The one street loop: walk the game's streets (``Game.streets``), dealing each and opening its
betting, pausing at decisions, until a betting round starts or the hand reaches its showdown.

For each street: every seat's street total goes back to 0; the blinds are posted (a street opened
by ``blinds``); a card is burned (``Street.burn`` and ruling ``burn_cards``; always before a
flop game's board cards, as card rooms do); each pass deals one card to every live seat in seat
order (face up or down; the flop games from the seat left of the button), or, on a ``shortage``
street the stub cannot cover, one community card; then the street's ``board`` cards, face up;
after each face-up card the game's card rules may ask its holder a question
(``decisions.after_up_card``), and the loop waits for the answer. Before a street's cards, a flop
game may ask: run it twice (everyone all in before the board is out), and Crazy Pineapple's
discards (``Street.discard``); a hand run twice gets its second board after the first run; on a
draw street each live seat draws in turn (``drawing.draw_round``). Then the street's betting opens
(``opening.start_round``); when at most one player can bet, the streets are dealt on without
betting. After the last street: the showdown. Under jacks or better a first round nobody opened is
dealt again, after new antes (``openers.pass_out``).

The loop is a generator: it yields each ``Decision`` and resumes when ``answer`` has applied it.
``proceed`` starts it from a street, ``advance`` runs it to its next pause, and ``end_round``
closes a betting round and moves on.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from bot.engine.games.streets import POSITIONAL
from bot.engine.hand.blinds import post_blinds
from bot.engine.hand.dealing import deal_last_down, deal_pass, draw, finish_cards
from bot.engine.hand.decisions import after_up_card, discards, run_it_twice
from bot.engine.hand.drawing import draw_round
from bot.engine.hand.events import StreetStarted
from bot.engine.hand.openers import opening_round, pass_out
from bot.engine.hand.opening import close_betting, return_uncalled, start_round
from bot.engine.hand.records import Decision
from bot.engine.hand.showdown import begin_showdown

if TYPE_CHECKING:  # pragma: no cover - annotations only
    from bot.engine.hand.state import HandState


def deal_streets(state: HandState, index: int) -> Iterator[Decision]:
    """Deal ``Game.streets[index]`` and the streets after it, as the module docstring says."""
    streets = state.game.streets
    game = state.game
    card_rules = game.extra_card is not None or game.pay_rank is not None
    burns = state.rulings.burn_cards == "on"
    # The flop games deal from the seat left of the button; stud's seats are in deal order already.
    first = state.left_of(state.button) if streets[0].opener in POSITIONAL else 0
    while True:
        street = streets[index]
        number = street.number
        state.street = number
        state.phase = "dealing"
        for seat in state.seats:
            seat.street_bet = 0
        state.events.append(StreetStarted(number))
        if street.board and _ask_run_twice(state):
            state.run_asked = True
            yield from run_it_twice(state)
            if state.accepted and state.live > 1:
                state.run_from = index
        if street.discard:
            yield from discards(state, number)
        blinds = street.opener == "blinds"
        if blinds:
            state.forced = post_blinds(state)
        if street.shortage:
            deal_last_down(state, number)
        else:
            if street.burn and (burns or street.board):     # card rooms burn before each board card
                draw(state, number, None, False, "burn")
            for face_up in street.passes:
                if not (face_up and card_rules):
                    deal_pass(state, number, face_up, first)
                    continue
                for position, record in enumerate(state.seats):
                    if not record.folded:
                        card = draw(state, number, position, True, "hole")
                        yield from after_up_card(state, number, position, card)
            for _ in range(street.board):
                draw(state, number, None, True, "board")
        if street.draw:
            yield from draw_round(state, street)
        state.actor = None
        bomb_pot = blinds and state.forced is None        # no betting before a bomb pot's flop
        if not state.betting_closed and not bomb_pot and start_round(state, street):
            return
        if index == len(streets) - 1:
            finish(state)
            return
        index += 1


def _ask_run_twice(state: HandState) -> bool:
    """Run it twice is asked once, when betting closed before the board is out, with the ruling on
    and two or more players in the hand."""
    return (state.betting_closed and not state.run_asked and state.live > 1
            and state.rulings.run_it_twice == "on" and "run_it_twice" in state.game.rulings)


def finish(state: HandState) -> None:
    """Every card of the first run is out: deal the second run's board when the hand is run twice
    (a burn before each of its streets, as for the first), then go to the showdown."""
    if state.run_from is not None:
        for street in state.game.streets[state.run_from:]:
            if street.board:
                draw(state, street.number, None, False, "burn")
                for _ in range(street.board):
                    draw(state, street.number, None, True, "second_board")
    finish_cards(state)
    begin_showdown(state)


def proceed(state: HandState, index: int) -> None:
    """Start the street loop at ``Game.streets[index]`` and run it to its first pause."""
    state.dealer = deal_streets(state, index)
    advance(state)


def advance(state: HandState) -> None:
    """Run the paused street loop on: to the next decision, a betting round, or the end."""
    dealer = state.dealer
    if dealer is None:
        return
    try:
        decision = next(dealer)
    except StopIteration:
        state.dealer = None
        return
    state.decision = decision
    state.phase = "decision"
    state.actor = decision.seat


def end_round(state: HandState) -> None:
    """A betting round closed: return what nobody called, then deal on (or go to the showdown)."""
    state.actor = None
    state.round = None
    if opening_round(state):              # jacks or better and nobody opened: deal again
        if pass_out(state):
            proceed(state, 0)
        return
    return_uncalled(state)
    streets = state.game.streets
    index = next(i for i, street in enumerate(streets) if street.number == state.street)
    if index == len(streets) - 1:
        finish(state)
        return
    if len(state.able()) <= 1:
        # Betting is over for the hand: the hands are turned face up before the remaining
        # streets are dealt (SPEC §6, TDA 16), so say so before the next card.
        close_betting(state, streets[index + 1].number)
    proceed(state, index + 1)
