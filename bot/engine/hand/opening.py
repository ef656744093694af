"""Who opens each betting round, from the street's ``opener`` (SPEC §5).

``low-card``: the lowest door card brings in (with the wild set now, ruling ``showing_hand``; the
real low card all-in for the ante passes the obligation on, TDA RP-10E); ``high-card``: the highest
door card brings in (razz, aces low: ``low.high_door_index``). ``high-hand``: the best
showing hand acts first (ties by position or by the highest card by suit, ruling
``high_hand_tiebreak``; in a seventh-street shortage the sixth-street order stands); ``low-hand``:
the lowest showing hand (razz: ``low.low_hand_index``). A game's ``Street.opener`` picks one
of ``OPENERS``. The flop and draw games open by position: ``blinds`` (the blinds are already
posted, ``blinds.post_blinds``, and the first seat left of the big blind acts) and ``button`` (the
first live seat left of the button).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from bot.engine.betting.pots import uncalled
from bot.engine.betting.round import BettingRound
from bot.engine.games.low import high_door_index, low_hand_index
from bot.engine.hand.events import BettingClosed, BringInSeat, FirstToAct, UncalledReturned
from bot.engine.values.showing import door_card_key
from bot.engine.values.valuation import best_showing

if TYPE_CHECKING:  # pragma: no cover - annotations only
    from bot.engine.cards.card import Card, Rank
    from bot.engine.games.streets import Opener, Street
    from bot.engine.hand.state import HandState
    from bot.engine.values.showing import ShowingHand, ShowingValue

_DOOR_CACHE: dict[tuple[str, Card, bool], tuple[int, int, int]] = {}

_SHOWING_CACHE: dict[tuple[ShowingHand, tuple[Rank, ...], int], ShowingValue] = {}
"""showing values memoised on what they depend on: the ruling, the up ranks (sorted) and which of
them are wild (a bit mask), shared by all hands (bounded)."""


def showing(state: HandState, seat: int) -> ShowingValue:
    """``seat``'s showing hand: its up cards ranked with the current wilds (memoised)."""
    how = state.rulings.showing_hand
    record = state.seats[seat]
    key = (how, record.up_ranks, record.up_mask & state.wild_mask)
    value = _SHOWING_CACHE.get(key)
    if value is None:
        if len(_SHOWING_CACHE) > 200_000:
            _SHOWING_CACHE.clear()
        value = best_showing(record.up, state.follow.wild_set, showing_hand=how)
        _SHOWING_CACHE[key] = value
    return value


def start_round(state: HandState, street: Street) -> bool:
    """Set up betting on ``street``; False if at most one player can bet (betting closes). One
    player with chips who still owes chips (blinds that put the others all in for more than that
    player has in) must still be asked to call or fold: the round opens for them alone."""
    able = state.able()
    if len(able) <= 1 and not (able and _owes(state, able[0])):
        close_betting(state, street.number)
        return False
    first = OPENERS[street.opener](state, street)
    if first is None:  # pragma: no cover - two players can bet, so someone must act
        state.round = None
        close_betting(state, street.number)
        return False
    state.first_actors[street.number] = first
    state.actor = first
    state.phase = "betting"
    return True


def _owes(state: HandState, seat: int) -> bool:
    """Whether ``seat`` has put in less this street than some live seat (forced bets included)."""
    top = max(s.street_bet for s in state.seats if not s.folded)
    return state.seats[seat].street_bet < top


def _round(state: HandState, street: Street, *, open_pair: bool = False, bring_in_seat: int | None = None,
           bring_in_may_fold: bool = False) -> BettingRound:
    rulings = state.rulings
    rnd = BettingRound(street.number, street.big_bet, state.stakes, state.seats, open_pair=open_pair,
                       bring_in_seat=bring_in_seat, bring_in_may_fold=bring_in_may_fold,
                       raise_cap=rulings.raise_cap_count, heads_up_uncapped=rulings.heads_up_uncapped == "on",
                       blinds=state.game.has_blinds)
    state.round = rnd
    return rnd


def _bring_in(state: HandState, street: Street) -> int | None:
    """The lowest (razz: highest) door card brings in; all-in for the ante, the next seat with chips
    owes it."""
    high_card = street.opener == "high-card"
    low = high_door_seat(state) if high_card else low_door_seat(state)
    seat = low
    passed_from: int | None = None
    seats, n = state.seats, state.n
    if seats[low].stack == 0:
        passed_from = low
        seat = next(s for s in ((low + k) % n for k in range(1, n))
                    if seats[s].stack > 0 and not seats[s].folded)
    state.bring_in_seat = low
    _round(state, street, bring_in_seat=seat, bring_in_may_fold=passed_from is not None)
    state.events.append(BringInSeat(seat, seats[low].up[0], passed_from, high_card))
    return seat


def _showing_leader(state: HandState, street: Street) -> int | None:
    """The best (razz: lowest) showing hand acts first (the sixth-street order stands under a
    community card)."""
    number = street.number
    open_pair = number == 4 and state.stakes.is_fixed_limit and open_pair_shown(state)
    rnd = _round(state, street, open_pair=open_pair)
    same_as_before = state.community is not None and (number - 1) in state.high_hands
    high = state.high_hands[number - 1] if same_as_before else leader_seat(state, street.opener)
    state.high_hands[number] = high
    first = rnd.first_actor(high)
    state.events.append(FirstToAct(number, high, first, same_as_before, street.opener == "low-hand"))
    return first


def _after_blinds(state: HandState, street: Street) -> int | None:
    """Pre-flop: the blinds are in; the bet is the full big blind (or the straddle), and the first
    seat left of the big blind (or the straddler) acts first (heads-up: the button, who posted the
    small blind)."""
    rnd = _round(state, street)
    forced = state.forced
    assert forced is not None
    rnd.open_on_forced_bets(forced.level, forced.increments, forced.raise_by)
    return rnd.first_actor(state.left_of(forced.last))


def _left_of_button(state: HandState, street: Street) -> int | None:
    """After the flop (and on every round of a draw game without blinds, and after each draw): the
    first live seat with chips left of the button acts first."""
    rnd = _round(state, street)
    return rnd.first_actor(state.left_of(state.button))


OPENERS: dict[Opener, Callable[[HandState, Street], int | None]] = {
    "low-card": _bring_in,
    "high-card": _bring_in,
    "high-hand": _showing_leader,
    "low-hand": _showing_leader,
    "blinds": _after_blinds,
    "button": _left_of_button,
}
"""How each kind of street opens: sets up the round and returns the first seat to act."""


def close_betting(state: HandState, street: int) -> None:
    """At most one player can bet: the rest of the hand is dealt without betting."""
    if not state.betting_closed:
        state.betting_closed = True
        return_uncalled(state)
        state.events.append(BettingClosed(street))


def return_uncalled(state: HandState) -> None:
    """Give back the part of a bet nobody called."""
    seat, chips = uncalled(state.contributions(), state.live_flags())
    if seat is None or not chips:
        return
    record = state.seats[seat]
    record.stack += chips
    record.contributed -= chips
    record.street_bet = max(0, record.street_bet - chips)
    record.returned += chips
    state.events.append(UncalledReturned(seat, chips))


def low_door_seat(state: HandState) -> int:
    """The bring-in: lowest door card with the wild set now (SPEC §5, ``showing_hand``)."""
    wild = state.follow.wild_set
    how = state.rulings.showing_hand
    seats = state.seats

    def key(seat: int) -> tuple[int, int, int]:
        card = seats[seat].up[0]
        memo = (how, card, card.rank in wild)
        value = _DOOR_CACHE.get(memo)
        if value is None:
            value = _DOOR_CACHE[memo] = door_card_key(card, wild, showing_hand=how)
        return value

    return min((s for s in range(state.n) if not seats[s].folded), key=key)


def high_door_seat(state: HandState) -> int:
    """Razz's bring-in: the highest door card, aces low (``low.high_door_index``)."""
    live = [s for s in range(state.n) if not state.seats[s].folded]
    return live[high_door_index([state.seats[s].up[0] for s in live])]


def leader_seat(state: HandState, opener: Opener) -> int:
    """The live seat whose showing hand leads: the best (``high-hand``) or, in razz, the lowest
    (``low-hand``; ties by position or by suit as ``high_hand_tiebreak`` says)."""
    if opener == "low-hand":
        by_suit = state.rulings.high_hand_tiebreak == "suit"
        ups = {s: state.seats[s].up for s in range(state.n) if not state.seats[s].folded}
        return low_hand_index(ups, by_suit=by_suit)
    return high_hand_seat(state)


def high_hand_seat(state: HandState) -> int:
    """The live seat with the best showing hand; ties by position or by the highest card by suit."""
    by_suit = state.rulings.high_hand_tiebreak == "suit"
    best_seat = -1
    seats = state.seats
    if not by_suit:                       # position: the first seat clockwise wins a tie
        best = -1
        for index, record in enumerate(seats):
            if not record.folded:
                value = showing(state, index).strength
                if value > best:
                    best, best_seat = value, index
        return best_seat
    best_key: tuple[int, tuple[Card, ...]] | None = None
    for index, record in enumerate(seats):
        if record.folded:
            continue
        key = (showing(state, index).strength, tuple(sorted(record.up, reverse=True)))
        if best_key is None or key > best_key:
            best_key, best_seat = key, index
    return best_seat


def open_pair_shown(state: HandState) -> bool:
    """Fourth street: does any live player show a pair (SPEC §5, ``open_pair_double``)?"""
    rule = state.rulings.open_pair_double
    if rule == "off" or "open_pair_double" not in state.game.rulings:
        return False
    wild = state.follow.wild_set
    for record in state.seats:
        if record.folded:
            continue
        a, b = record.up[:2]
        if a.rank == b.rank:
            return True
        if rule == "wild-aware" and (a.rank in wild or b.rank in wild):
            return True
    return False
