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
blind (the blind first when the stack cannot cover both; TDA's big blind ante), dead money in the
main pot (all antes go to the main pot). A bomb pot
(``HandOptions.bomb_pot``): every seat antes that amount and nobody posts a blind. A straddle
(``HandOptions.posts``): a seat outside the blinds posts what the table says after the blinds: a
dead part (``dead_blind``, a missed small blind: in the pot, not a bet) and a live part
(``big_blind``: a new player's or a missed big blind, a bet with the option). A straddle
(``HandOptions.straddle``): the seat left of the big blind posts twice the big blind after it,
with four players or more (with three that seat is the button, which may not straddle), and not
when that seat posts a blind out of position this hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.engine.hand.options import HandOptions, Opening
from bot.engine.log import Action

if TYPE_CHECKING:  # pragma: no cover - annotations only
    from bot.engine.hand.state import HandState


def blind_seats(n: int, button: int) -> tuple[int, int]:
    """``(small blind, big blind)`` seats of ``n`` with the ``button``: left of the button, or
    heads-up the button first."""
    if n == 2:
        return button, (button + 1) % n
    return (button + 1) % n, (button + 2) % n


def check_posts(options: HandOptions, n: int, button: int) -> None:
    """``ValueError`` for a post by a seat outside the hand or in the blinds (they post their own)."""
    small, big = blind_seats(n, button)
    for post in options.posts:
        if not 0 <= post.seat < n:
            raise ValueError(f"there is no seat {post.seat + 1} to post a blind")
        if post.seat in (small, big) and not options.bomb_pot:
            raise ValueError(f"seat {post.seat + 1} is in the blinds this hand: it posts no other blind")


def post_forced(state: HandState, seat: int, name: str, amount: int, *, dead: bool = False) -> int:
    """``seat`` posts a forced bet of ``amount`` (all-in if short); returns the chips posted. An
    ante goes into the pot only; a blind or straddle also into the seat's street total. Nothing is
    logged for a post of no chips. ``dead``: the chips are dead money in the main pot (a missed
    small blind, the big blind ante), never part of a bet nor given back as uncalled."""
    record = state.seats[seat]
    chips = min(amount, record.stack)
    if chips <= 0:
        return 0
    record.stack -= chips
    if dead:
        record.dead += chips
        state.record(Action(state.street, seat, name, chips, 0, record.stack == 0))
    elif name == "ante":
        record.contributed += chips
        state.record(Action(state.street, seat, name, chips, 0, record.stack == 0))
    else:
        record.contributed += chips
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
    small, big = blind_seats(state.n, state.button)
    post_forced(state, small, "small_blind", stakes.small_blind)
    post_forced(state, big, "big_blind", stakes.big_blind)
    if ante == "big-blind":
        post_forced(state, big, "ante", stakes.big_blind, dead=True)
    for post in options.posts:
        post_forced(state, post.seat, "dead_blind", post.dead, dead=True)
        post_forced(state, post.seat, "big_blind", post.live)
    level, increments, last = stakes.big_blind, 1, big
    under_the_gun = state.left_of(big)
    posting = any(post.seat == under_the_gun for post in options.posts)
    if options.straddle and state.n > 3 and not posting:     # not from the button, nor on a post
        last = under_the_gun
        posted = post_forced(state, last, "straddle", 2 * stakes.big_blind)
        level, increments = max(level, posted), 2
    return Opening(level, increments, level, last)
