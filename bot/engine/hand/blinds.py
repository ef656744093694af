"""The flop games' forced bets and positions: antes, blinds, a straddle, a bomb pot's antes.

The button is a seat index of the hand (``HandState.button``). With three or more players the
small blind is the first seat left of the button and the big blind the next; heads-up the button
posts the small blind and the other player the big blind (TDA Rule 34; Robert's Rules of Poker,
"Button and blind use"), so the button acts first before the flop and last after it. A forced bet
is posted in full, or all-in for less when the stack is short; the bet to call is still the full
big blind (docs/rules.md, "Flop games"). Each post is an ``Action`` in the log (``ante``,
``small_blind``, ``big_blind``, ``straddle``) in the order posted: a hand history reads the
forced bets from them.

Antes (ruling ``flop_ante``): ``per-player``, every seat antes the stakes' ante before the blinds;
``big-blind``, the big blind posts one ante for the table, as much as the big blind, after its
blind (the blind first when the stack cannot cover both; TDA's big blind ante). A bomb pot
(``HandOptions.bomb_pot``): every seat antes that amount and nobody posts a blind. A straddle
(``HandOptions.straddle``): the seat left of the big blind posts twice the big blind after it,
with four players or more (with three that seat is the button, which may not straddle).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.engine.hand.options import Opening
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
    """``seat`` posts a forced bet of ``amount`` (all-in if short); returns the chips posted. An
    ante goes into the pot only; a blind or straddle also into the seat's street total. Nothing is
    logged for a post of no chips."""
    record = state.seats[seat]
    chips = min(amount, record.stack)
    if chips <= 0:
        return 0
    record.stack -= chips
    record.contributed += chips
    if name == "ante":
        state.record(Action(state.street, seat, name, chips, 0, record.stack == 0))
    else:
        record.street_bet += chips
        state.record(Action(state.street, seat, name, chips, record.street_bet, record.stack == 0))
    return chips


def post_blinds(state: HandState) -> Opening | None:
    """Post the hand's forced bets (see the module docstring) before the first street's cards;
    ``None`` for a bomb pot (no betting before the flop)."""
    stakes, options = state.stakes, state.options
    order = [state.left_of(state.button, k) for k in range(1, state.n + 1)]
    if options.bomb_pot:
        for seat in order:
            post_forced(state, seat, "ante", options.bomb_pot)
        return None
    ante = state.rulings.flop_ante
    if ante == "per-player" and stakes.ante > 0:
        for seat in order:
            post_forced(state, seat, "ante", stakes.ante)
    small, big = blind_seats(state)
    post_forced(state, small, "small_blind", stakes.small_blind)
    post_forced(state, big, "big_blind", stakes.big_blind)
    if ante == "big-blind":
        post_forced(state, big, "ante", stakes.big_blind)
    level, increments, last = stakes.big_blind, 1, big
    if options.straddle and state.n > 3:     # not from the button: four players or more
        last = state.left_of(big)
        posted = post_forced(state, last, "straddle", 2 * stakes.big_blind)
        level, increments = max(level, posted), 2
    return Opening(level, increments, level, last)
