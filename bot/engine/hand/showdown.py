"""The showdown and the award, as functions of the hand's state and its game (SPEC §6; issue 12's
per-player wilds and Chicago).

Show order, each hand's value (with the shared wilds, or a low-hole-wild player's own), mucking,
and the pots: main pot and side pots from the contributions (``pots``), Baseball's dead money in
the main pot, and each pot split as the game's ``split`` says: to its best shown hand (``high``);
halved with the best spade dealt face down (``high-spade``, ``low-spade``); to the best ace-to-five
low (``low``, razz); halved between the best high and the best eight-or-better low, the odd chip to
the high half and the high taking all when nobody has a low (``high-low``, stud hi-lo; the rules
and their sources are in docs/rules.md, "Razz and stud hi-lo").
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from bot.engine.betting.pots import Pot, chicago_shares, share_pot, split_pots
from bot.engine.cards.card import Card, Rank, Suit
from bot.engine.games.low import hi_lo_shares, low_card_order, low_value, low_winners
from bot.engine.games.wilds import low_hole_rank
from bot.engine.hand.events import (
    HandEnded,
    HandMucked,
    HandShown,
    OpenersShown,
    PotAwarded,
    ShowdownStarted,
    UncalledReturned,
)
from bot.engine.hand.opening import leader_seat
from bot.engine.hand.records import HandResult, PotResult
from bot.engine.log import Action
from bot.engine.values.board import omaha_high, omaha_low
from bot.engine.values.evaluator import HandValue
from bot.engine.values.low import LowValue
from bot.engine.values.valuation import best_value, hole_spade

if TYPE_CHECKING:  # pragma: no cover - annotations only
    from bot.engine.hand.state import HandState


def begin_showdown(state: HandState) -> None:
    """Every card is out and the betting is over: show the hands in show order (SPEC §6: the last
    aggressor on the last street first, else the best showing hand -- in a flop game the first
    seat left of the button --, then clockwise)."""
    live = state.live_seats()
    last = state.game.streets[-1].number
    start = state.last_aggressor.get(last)
    if start is None or state.betting_closed:
        start = state.high_hands.get(last)
    if state.game.positional and (start is None or state.betting_closed):
        start = state.left_of(state.button)  # flop and draw games: from the first seat left of the button
    if start is None:
        before = last - 1
        start = state.high_hands[before] if state.community is not None and before in state.high_hands \
            else leader_seat(state, state.game.streets[-1].opener)
    first: int = start
    n = state.n
    order = tuple(sorted(live, key=lambda s: (s - first) % n))
    state.show_order = order
    state.events.append(ShowdownStarted(order))
    state.street = last
    if not state.manual_showdown:
        for seat in order:
            show(state, seat, False)
        award(state, showdown=True)
        return
    state.phase = "showdown"
    state.show_index = 0
    state.actor = order[0]


def seat_wilds(state: HandState, seat: int) -> frozenset[Rank]:
    """The ranks wild for ``seat`` now: the shared wild set, or in low-hole-wild the rank of its
    lowest down card (secret: only its owner may be told before the showdown); in Kings and Little
    Ones both, the kings and the rank of the seat's lowest card. Under ``low_hole_ace = either`` the
    ace counts low when that makes the hand better (the player's choice, made for them). The one
    wild set of both the showdown and the player's own "Best now" hint (issue 17)."""
    shared = frozenset(state.follow.wild_set)
    if not state.game.wilds.per_player:
        return shared
    down = state.seats[seat].down
    how = state.rulings.low_hole_ace
    rank = low_hole_rank(down, ace_low=how == "low")
    wild = shared if rank is None else shared | {rank}
    if how == "either":
        low = low_hole_rank(down, ace_low=True)
        other = shared if low is None else shared | {low}
        cards = state.hand_cards(seat)
        if other != wild and len(cards) >= 5:     # the ace low, when that makes the hand better
            ruling = state.rulings.wild_in_flush
            if best_value(cards, other, wild_in_flush=ruling) > best_value(cards, wild, wild_in_flush=ruling):
                return other
    return wild


def value_of(state: HandState, seat: int, run: int = 0) -> HandValue:
    """``seat``'s hand value now (its cards with the community card or the board -- of ``run``
    when the hand is run twice --, with its wild ranks; Omaha: exactly two of its cards with three
    of the board)."""
    wild_in_flush = state.rulings.wild_in_flush
    if state.game.exact_hole:
        return omaha_high(state.seats[seat].cards, state.board_of(run), seat_wilds(state, seat),
                          wild_in_flush=wild_in_flush)
    return best_value(state.hand_cards(seat, run), seat_wilds(state, seat), wild_in_flush=wild_in_flush)


def _key(state: HandState, value: HandValue) -> tuple[int, int]:
    return value.showdown_key(natural_wins_ties=state.rulings.natural_wins_ties == "on")


def low_of(state: HandState, seat: int, run: int = 0) -> LowValue | None:
    """``seat``'s low in razz (ace-to-five), hi-lo (eight-or-better, or ``None``; Omaha hi-lo:
    two of its cards with three of the board, chosen apart from the high), deuce-to-seven or
    badugi."""
    if state.game.exact_hole:
        return omaha_low(state.seats[seat].cards, state.board_of(run), seat_wilds(state, seat))
    return low_value(state.game.split, state.hand_cards(seat, run))


def show(state: HandState, seat: int, timed_out: bool) -> None:
    """``seat`` shows its hand (a hand of fewer than five cards, badugi's, has no high value)."""
    record = state.seats[seat]
    value = value_of(state, seat) if len(state.hand_cards(seat)) >= 5 else None
    if value is not None:
        state.shown[seat] = value
    game = state.game
    low: LowValue | None = None
    if game.has_low:
        low = low_of(state, seat)
        if low is not None:
            state.lows[seat] = low
    state.log.append(Action(state.street, seat, "show", 0, 0, record.stack == 0, timed_out))
    ranking = ("low" if game.low_only else game.split) if game.has_low else "high"
    second: HandValue | None = None
    second_low: LowValue | None = None
    if state.runs > 1 and value is not None:      # run twice: the hand's worth on the second board
        second = value_of(state, seat, 1)
        second_low = low_of(state, seat, 1) if game.has_low else None
    state.events.append(HandShown(seat, tuple(record.cards), value, low, ranking, second, second_low))
    if seat == state.opener and state.openers:
        state.events.append(OpenersShown(seat, state.openers))


def may_muck(state: HandState, seat: int) -> bool:
    """A loser not all-in may muck (SPEC §6): every pot ``seat`` could win is already won by a
    hand shown (strictly better), and the hands were not turned face up."""
    record = state.seats[seat]
    if record.stack == 0 or state.betting_closed or not (state.shown or state.lows):
        return False
    game = state.game
    if game.split in ("high-spade", "low-spade") and any(c.suit is Suit.SPADES for c in record.down):
        return False                      # a spade down may win half of a Chicago pot
    mine = None if game.low_only else _key(state, value_of(state, seat))
    my_low = low_of(state, seat) if game.has_low else None
    shown, lows = state.shown, state.lows
    for pot in split_pots(state.contributions(), state.live_flags()).pots:
        if seat not in pot.eligible:
            continue
        low_beaten = my_low is None or any(
            (low := lows.get(s)) is not None and low.beats(my_low) for s in pot.eligible)
        if game.low_only or mine is None:
            if not low_beaten:
                return False
            continue
        if not any(s in shown and _key(state, shown[s]) > mine for s in pot.eligible):
            return False
        if not low_beaten:
            return False
    return True


def showdown_step(state: HandState, seat: int, shows: bool, timed_out: bool) -> None:
    """A manual showdown: ``seat`` shows or mucks; the next seat is asked, or the pots awarded."""
    if shows:
        show(state, seat, timed_out)
    else:
        state.mucked.append(seat)
        state.log.append(Action(state.street, seat, "muck", 0, 0, False, timed_out))
        state.events.append(HandMucked(seat))
    state.show_index += 1
    if state.show_index < len(state.show_order):
        state.actor = state.show_order[state.show_index]
        return
    state.actor = None
    award(state, showdown=True)


def _odd_chip_order(state: HandState, winners: list[int], low: bool = False) -> list[int]:
    if state.game.positional:   # flop games: clockwise from the first seat left of the button
        first = state.left_of(state.button)
        return sorted(winners, key=lambda s: (s - first) % state.n)
    if state.rulings.odd_chip == "left-of-dealer":
        return sorted(winners)
    if low:   # tied lows: the lowest card by suit (docs/rules.md, "Razz and stud hi-lo")
        return low_card_order(winners, {s: state.seats[s].cards for s in winners})
    # Highest printed card among the player's own cards (community card ignored), rank then suit.
    return sorted(winners, key=lambda s: max(state.seats[s].cards), reverse=True)


def win_by_fold(state: HandState) -> None:
    """Everyone else folded: the last live seat takes every pot without a showdown (an opener under
    jacks or better shows its openers first)."""
    state.actor = None
    state.round = None
    state.dealer = None
    seat = state.opener
    if seat is not None and state.openers and not state.seats[seat].folded:
        state.events.append(OpenersShown(seat, state.openers))
    award(state, showdown=False)


def _spade_seat(state: HandState, contenders: list[int]) -> int | None:
    """Chicago: the seat with the best spade down among a pot's shown hands (docs/rules.md)."""
    split = state.game.split
    if split == "high":
        return None
    return hole_spade({s: state.seats[s].down for s in contenders}, low=split == "low-spade",
                      ace_low=state.rulings.low_chicago_ace == "ace-low")


def award(state: HandState, *, showdown: bool) -> None:
    """Return uncalled chips, split every pot (side pots first) as the game says, and end the hand."""
    state.phase = "over"
    state.actor = None
    seats = state.seats
    split = split_pots(state.contributions(), state.live_flags())
    for seat, chips in enumerate(split.returned):
        if chips:
            record = seats[seat]
            record.stack += chips
            record.contributed -= chips
            record.returned += chips
            state.events.append(UncalledReturned(seat, chips))
    winnings = [0] * state.n
    pots = state.with_dead(split.pots)
    runs = state.runs if showdown else 1
    results: list[PotResult] = []
    second: dict[int, HandValue] = {}
    second_lows: dict[int, LowValue] = {}
    for run in range(runs):
        shown, lows = state.shown, state.lows
        if run:                           # the second run: the same hands on the second board
            shown = second = {s: value_of(state, s, run) for s in state.shown}
            if state.game.has_low:
                second_lows = {s: low for s in state.shown if (low := low_of(state, s, run)) is not None}
            lows = second_lows
        # Run twice: each pot is halved between the runs, the odd chip to the first run.
        amounts = [pot.amount if runs == 1 else (pot.amount + 1 - run) // 2 for pot in pots]
        results.extend(_award_run(state, pots, amounts, run, shown, lows, showdown, winnings))
    for seat, record in enumerate(seats):
        record.stack += winnings[seat]
    final = tuple(record.stack for record in seats)
    state.result = HandResult(
        pots=tuple(results),
        returned=tuple(record.returned for record in seats),
        shown=MappingProxyType(dict(state.shown)),
        mucked=tuple(state.mucked),
        show_order=state.show_order if showdown else (),
        winnings=tuple(winnings),
        final_stacks=final,
        showdown=showdown,
        wild_ranks=state.wild_tuple,
        lows=MappingProxyType(dict(state.lows)),
        boards=tuple(tuple(state.board_of(r)) for r in range(state.runs)) if state.game.board_size else (),
        second_shown=MappingProxyType(second),
        second_lows=MappingProxyType(second_lows),
    )
    state.events.append(HandEnded(final))


def _award_run(state: HandState, pots: tuple[Pot, ...], amounts: list[int], run: int,
               shown: Mapping[int, HandValue], lows_by_seat: Mapping[int, LowValue], showdown: bool,
               winnings: list[int]) -> list[PotResult]:
    """Split ``amounts[i]`` of each pot (side pots first) among the hands ``shown`` (one run's
    values) as the game says; adds to ``winnings``; returns the results, main pot first."""
    seats = state.seats
    results: list[PotResult | None] = [None] * len(pots)
    keys = {s: _key(state, v) for s, v in shown.items()}
    by_suit = state.rulings.odd_chip != "left-of-dealer" and not state.game.positional
    low_only = state.game.low_only
    lowest = showdown and low_only   # razz, 2-7, badugi: the low takes the pot, odd chips by the lowest card
    for index in range(len(pots) - 1, -1, -1):                 # side pots first (SPEC §6)
        pot = pots[index]
        amount = amounts[index]
        if not amount:
            continue
        spade: int | None = None
        lows: list[int] = []
        if showdown and low_only:
            contenders = [s for s in pot.eligible if s in lows_by_seat]
            winners = low_winners(lows_by_seat, contenders)
        elif showdown:
            contenders = [s for s in pot.eligible if s in keys]
            best = max(keys[s] for s in contenders)
            winners = [s for s in contenders if keys[s] == best]
            if state.game.has_low:
                lows = low_winners(lows_by_seat, contenders)
            else:
                spade = _spade_seat(state, contenders)
        else:
            winners = list(pot.eligible)
        order = _odd_chip_order(state, winners, low=lowest)
        low_order = _odd_chip_order(state, lows, low=True)
        low_part: dict[int, int] = {}
        if lows:
            shares = hi_lo_shares(amount, order, low_order)
            low_part = share_pot(amount // 2, low_order)
        else:
            shares = chicago_shares(amount, order, spade)
        if spade is not None and spade not in winners:
            winners.append(spade)
        winners.extend(s for s in lows if s not in winners)
        for seat, chips in shares.items():
            winnings[seat] += chips
        paid = tuple(shares.items())
        results[index] = PotResult(amount, pot.eligible, tuple(sorted(winners)), paid, run)
        # Who got the chips an even split leaves over, and why (issue 14); Chicago's odd chip goes
        # to the high half by its own rule, and so does hi-lo's.
        odd: tuple[tuple[int, Card | None], ...] = ()
        if spade is None and not lows:
            odd = tuple((s, (_lowest_card(seats[s].cards) if lowest else max(seats[s].cards))
                         if by_suit else None)
                        for s in order[: amount % len(order)])
        state.events.append(PotAwarded(index, amount, paid, not showdown, odd,
                                       tuple(low_part.items()), lowest, run))
    return [r for r in results if r is not None]


def _lowest_card(cards: list[Card]) -> Card:
    """The lowest card by suit with the ace low (who gets the odd chip between tied lows)."""
    return min(cards, key=lambda c: (1 if c.rank is Rank.ACE else int(c.rank), int(c.suit)))
