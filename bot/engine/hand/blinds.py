"""The flop games' forced bets and positions: the blinds posted from the button, and who they are.

The button is a seat index of the hand (``HandState.button``). With three or more players the
small blind is the first seat left of the button and the big blind the next; heads-up the button
posts the small blind and the other player the big blind (TDA Rule 34; Robert's Rules of Poker,
"Button and blind use"), so the button acts first before the flop and last after it. A blind is
posted in full, or all-in for less when the stack is short; the bet to call is still the full big
blind (docs/rules.md, "Flop games"). Each post is an ``Action`` in the log (``small_blind``,
``big_blind``), small blind first: a hand history reads the blinds from them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.engine.log import Action

if TYPE_CHECKING:  # pragma: no cover - annotations only
    from bot.engine.hand.state import HandState


def blind_seats(state: HandState) -> tuple[int, int]:
    """``(small blind, big blind)`` seats: left of the button, or heads-up the button first."""
    button = state.button
    if state.n == 2:
        return button, state.left_of(button)
    return state.left_of(button), state.left_of(button, 2)


def post_forced(state: HandState, seat: int, name: str, amount: int) -> int:
    """``seat`` posts a forced bet of ``amount`` into its street total (all-in if short); returns
    the chips posted. Nothing is logged for a post of no chips."""
    record = state.seats[seat]
    chips = min(amount, record.stack)
    if chips <= 0:
        return 0
    record.stack -= chips
    record.street_bet += chips
    record.contributed += chips
    state.record(Action(state.street, seat, name, chips, record.street_bet, record.stack == 0))
    return chips


def post_blinds(state: HandState) -> None:
    """The small blind, then the big blind, post (before the street's cards are dealt)."""
    small, big = blind_seats(state)
    stakes = state.stakes
    post_forced(state, small, "small_blind", stakes.small_blind)
    post_forced(state, big, "big_blind", stakes.big_blind)
