"""One betting round of stud (SPEC §5): who must act, what they may do, and for how much.

A ``BettingRound`` works on the hand's seat records (stack, street total, contribution, folded)
and keeps only the round's own state: the amount to call, the level of the last full bet or raise,
the largest full increment, the count of bets and raises, and for each seat the bet level when it
last acted. From these small facts come every rule of the round:

* a round is over when no seat needs to act: every live seat with chips has acted since the last
  full bet or raise and has matched the bet (all-in seats are skipped);
* fixed limit: bets and raises are one unit (small bet on third and fourth street, big bet later;
  an open pair on fourth street lets anyone use the big bet, ruling ``open_pair_double``); one bet
  plus ``raise_cap`` raises, no cap when the round starts heads-up (``heads_up_uncapped``); an
  all-in of half a unit or more counts as a full bet or raise, a smaller one does not reopen the
  betting for seats that already acted (WSOP-LA 129, TDA 47);
* pot and no limit: the first full wager is at least the minimum bet; a raise is at least the
  largest full bet or raise so far this street; pot limit caps the total at the pot after a call;
  an all-in short of a full raise does not reopen the betting for seats that already acted;
* third street: the bring-in is forced (no fold, no check); a completion is the bet of the round;
  if everyone just calls, the bring-in has no option.

Amounts named ``to`` are the seat's total for the street (SPEC §5 speaks "to").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol

from bot.engine.betting.stakes import TableStakes
from bot.engine.errors import IllegalAction

NOT_ACTED = -1


class LegalActions(NamedTuple):
    """What ``seat`` may do now; ``None``/``False`` means not allowed.

    ``call``: chips a call puts in (less than the bet to call when it puts the seat all-in).
    ``bring_in``: chips posting the bring-in puts in. ``complete_to``: the total a completion of the
    bring-in reaches (third street, before anyone completes). ``wager``: the name of a bet now
    (``"complete"``, ``"bet"`` or ``"raise"``) and ``min_to``..``max_to`` its legal totals; in fixed
    limit only the totals in ``to_options`` are legal. ``all_in_to``: the seat's street total if it
    goes all-in, when that is legal (it may be below ``min_to``: an all-in for less); ``all_in_kind``
    says what it is (``"call"``, ``"bring_in"`` or the wager name). ``show``/``muck``: showdown.
    """

    seat: int | None
    fold: bool = False
    check: bool = False
    call: int | None = None
    bring_in: int | None = None
    complete_to: int | None = None
    wager: str | None = None
    min_to: int | None = None
    max_to: int | None = None
    to_options: tuple[int, ...] = ()
    all_in_to: int | None = None
    all_in_kind: str | None = None
    show: bool = False
    muck: bool = False

    @property
    def names(self) -> tuple[str, ...]:
        """The legal command names, e.g. ``("fold", "call", "raise", "all_in")``."""
        out: list[str] = []
        if self.fold:
            out.append("fold")
        if self.check:
            out.append("check")
        if self.call is not None:
            out.append("call")
        if self.bring_in is not None:
            out.append("bring_in")
        if self.wager is not None and self.min_to is not None:
            out.append(self.wager)
        if self.all_in_to is not None:
            out.append("all_in")
        if self.show:
            out.append("show")
        if self.muck:
            out.append("muck")
        return tuple(out)

    def allows_to(self, amount: int) -> bool:
        """Whether ``bet_or_raise_to(amount)`` is legal (a full wager, or the all-in for less)."""
        if self.wager is None:
            return False
        if self.min_to is not None and self.max_to is not None:
            if self.to_options:
                if amount in self.to_options:
                    return True
            elif self.min_to <= amount <= self.max_to:
                return True
        return amount == self.all_in_to and self.all_in_kind == self.wager

    def any(self) -> bool:
        """Whether any command is legal."""
        return bool(self.names)


NO_ACTIONS = LegalActions(None)


class BettingSeat(Protocol):
    """What a betting round reads and changes of a seat: its chips behind, its street total, its
    contribution to the pots this hand, and whether it folded (the hand's ``SeatState``)."""

    stack: int
    street_bet: int
    contributed: int
    folded: bool


class BettingRound:
    """The state of one street's betting; the seat records are the hand's.

    ``seats``: the hand's own seat records (chips and folds read and written in place).
    ``big_bet``: fixed limit bets the big bet on this street. ``bring_in_seat`` (third street only)
    must post the bring-in or complete; if ``bring_in_may_fold`` (the real low card is all-in for the
    ante, TDA RP-10E) it may also fold, and the obligation passes on.
    """

    __slots__ = (
        "able", "acted", "aggressions", "big", "big_in_force", "bring_in_may_fold", "bring_in_seat", "cap",
        "current", "fixed", "full_level", "last_aggressor", "last_increment", "min_bet", "n", "open_pair",
        "pot_limit", "reopen_level", "seats", "small", "stakes", "street",
    )

    def __init__(
        self,
        street: int,
        big_bet: bool,
        stakes: TableStakes,
        seats: Sequence[BettingSeat],
        *,
        open_pair: bool = False,
        bring_in_seat: int | None = None,
        bring_in_may_fold: bool = False,
        raise_cap: int | None = None,
        heads_up_uncapped: bool = False,
        blinds: bool = False,
    ) -> None:
        self.street = street
        self.stakes = stakes
        self.seats = seats
        self.n = len(seats)
        self.fixed = stakes.structure == "fixed-limit"
        self.pot_limit = stakes.structure == "pot-limit"
        if blinds:      # a game with blinds bets in big blinds (TableStakes.blind_bet_unit)
            self.min_bet = stakes.big_blind
            self.small = stakes.blind_bet_unit(big_bet)
            self.big = self.small
        else:
            self.min_bet = stakes.min_bet
            self.small = (stakes.big_bet if big_bet else stakes.small_bet) if self.fixed else stakes.min_bet
            self.big = stakes.big_bet if self.fixed else stakes.min_bet
        self.open_pair = open_pair and self.fixed and street == 4
        self.big_in_force = False
        self.current = 0            # the street total to call
        self.full_level = 0         # the street total after the last full bet or raise
        self.reopen_level = 0       # same, for "has a full raise come since you acted?"
        self.last_increment = 0     # the largest full bet or raise this street (pot/no limit)
        self.aggressions = 0        # full bets and raises (the completion counts as the bet)
        self.last_aggressor: int | None = None
        self.acted = [NOT_ACTED] * self.n
        self.bring_in_seat = bring_in_seat
        self.bring_in_may_fold = bring_in_may_fold
        self.cap: int | None = None
        able = sum(1 for seat in seats if not seat.folded and seat.stack > 0)
        self.able = able            # live seats with chips, kept up to date by _put and fold
        if self.fixed:
            if raise_cap is not None and not (heads_up_uncapped and able == 2):
                self.cap = raise_cap + 1

    # -- queries ---------------------------------------------------------------------------------
    @property
    def bring_in_pending(self) -> bool:
        """Third street before the bring-in is posted (or completed)."""
        return self.bring_in_seat is not None

    def unit(self) -> int:
        """Fixed limit: the bet size now in force on this street."""
        return self.big if self.big_in_force else self.small

    def _others_can_bet(self, seat: int) -> bool:
        record = self.seats[seat]
        return self.able - (1 if record.stack > 0 and not record.folded else 0) > 0

    def others_can_exceed(self, seat: int, level: int) -> bool:
        """Whether some live opponent of ``seat`` can put its street total above ``level``: a raise
        that every opponent can at most call is refused (TDA and WSOP: no raise when every opponent
        is all-in or can at most call; the raise would only come back uncalled)."""
        return any(i != seat and not s.folded and s.stack > 0 and s.street_bet + s.stack > level
                   for i, s in enumerate(self.seats))

    def needs_action(self, seat: int) -> bool:
        """Whether ``seat`` must still act this round."""
        record = self.seats[seat]
        if record.folded or record.stack <= 0:
            return False
        if self.bring_in_seat is not None:
            return seat == self.bring_in_seat
        bet = record.street_bet
        if self.acted[seat] != NOT_ACTED and bet >= self.current:
            return False
        if self.able <= 1:
            # Alone with chips: act only to answer chips actually put in by an all-in seat.
            top = max((s.street_bet for i, s in enumerate(self.seats) if i != seat and not s.folded),
                      default=0)
            return bet < top
        return True

    def next_actor(self, after: int) -> int | None:
        """The first seat clockwise after ``after`` that must act, or ``None`` (round over)."""
        n = self.n
        if self.bring_in_seat is None and self.able > 1:
            # The common case, inlined: live, with chips, and not yet acted or owing chips.
            seats, acted, current = self.seats, self.acted, self.current
            seat = after
            for _ in range(n):
                seat = seat + 1 if seat + 1 < n else 0
                record = seats[seat]
                if record.stack > 0 and not record.folded and (
                    acted[seat] == NOT_ACTED or record.street_bet < current
                ):
                    return seat
            return None
        for step in range(1, n + 1):
            seat = (after + step) % n
            if self.needs_action(seat):
                return seat
        return None

    def first_actor(self, start: int) -> int | None:
        """The first seat from ``start`` (inclusive) clockwise that must act."""
        return self.next_actor((start - 1) % self.n)

    def wager_name(self) -> str:
        """What a wager is called now: ``complete`` (fixed limit, third street before a full bet), ``bet``
        or ``raise``. In pot and no limit the first wager after the bring-in is a bet (issue 14)."""
        if self.full_level == 0:
            return "complete" if self.street == 3 and self.fixed else "bet"
        return "raise"

    def legal(self, seat: int) -> LegalActions:
        """Everything ``seat`` may do now (assumes it is ``seat``'s turn)."""
        record = self.seats[seat]
        stack = record.stack
        bet = record.street_bet
        if self.bring_in_seat is not None:
            return self._legal_bring_in(seat, stack)
        to_call = self.current - bet
        # Fold is legal even when a check is free: a player leaving mid-hand is folded (SPEC §7).
        if to_call > 0:
            if stack <= to_call:                              # all-in to call (or for less)
                return LegalActions(seat, True, False, stack, None, None, None, None, None, (),
                                    bet + stack, "call")
            call: int | None = to_call
            check = False
        else:
            call = None
            check = True
        if not self._may_raise(seat, self.others_can_exceed(seat, self.current)):
            return LegalActions(seat, True, check, call)
        all_in_to: int | None = None
        all_in_kind: str | None = None
        wager = self.wager_name()
        min_to, max_to, options = self._wager_range(seat, bet, stack)
        top = bet + stack
        if min_to is None:
            all_in_to, all_in_kind = top, wager              # all-in for less than a full wager
        elif self._all_in_fits(top, max_to):
            all_in_to, all_in_kind = top, wager
        return LegalActions(seat, True, check, call, None, min_to if wager == "complete" else None, wager,
                            min_to, max_to, options, all_in_to, all_in_kind)

    def _legal_bring_in(self, seat: int, stack: int) -> LegalActions:
        amount = min(self.stakes.bring_in, stack)
        wager: str | None = None
        min_to: int | None = None
        max_to: int | None = None
        options: tuple[int, ...] = ()
        all_in_to: int | None = None
        all_in_kind: str | None = None
        if stack <= self.stakes.bring_in:
            all_in_to, all_in_kind = stack, "bring_in"
        elif self.others_can_exceed(seat, amount):
            wager = self.wager_name()
            min_to, max_to, options = self._wager_range(seat, 0, stack)
            if min_to is None:
                all_in_to, all_in_kind = stack, wager
            elif self._all_in_fits(stack, max_to):
                all_in_to, all_in_kind = stack, wager
        complete_to = min_to if wager == "complete" else None
        return LegalActions(seat, self.bring_in_may_fold, False, None, amount, complete_to, wager, min_to,
                            max_to,
                            options, all_in_to, all_in_kind)

    def _may_raise(self, seat: int, others_can_bet: bool) -> bool:
        if self.cap is not None and self.aggressions >= self.cap:
            return False
        if not others_can_bet:
            return False                                       # nobody left to call a raise
        acted = self.acted[seat]
        if acted == NOT_ACTED or acted < self.reopen_level:
            return True
        # Several short all-ins together reopen the betting once they add up to a full raise.
        threshold = self.unit() if self.fixed else max(self.last_increment, self.min_bet)
        return self.current - acted >= threshold

    def _all_in_fits(self, top: int, max_to: int | None) -> bool:
        """Whether going all-in to ``top`` is a legal wager when a full one is possible: up to the largest
        wager (fixed limit: up to the largest full wager, even one the seat cannot afford -- an all-in
        short of it; pot limit: up to ``max_to``)."""
        limit = self._fixed_top() if self.fixed else max_to
        return limit is not None and top <= limit

    def _fixed_top(self) -> int:
        """Fixed limit: the largest full wager total now, whether or not the seat can afford it (the
        big bet over the last full level while an open pair allows it, else one unit)."""
        if self.open_pair and not self.big_in_force:
            return self.full_level + max(self.big, self.small)
        return self.full_level + self.unit()

    def _wager_range(self, seat: int, bet: int, stack: int) -> tuple[int | None, int | None, tuple[int, ...]]:
        """``(min_to, max_to, exact options)`` of a full wager; ``(None, None, ())`` if the stack is short."""
        top = bet + stack
        if self.fixed:
            low = self.full_level + (self.big if self.big_in_force else self.small)
            if low > top:
                return None, None, ()
            if self.open_pair and not self.big_in_force and self.big != self.small:
                high = self.full_level + self.big
                if high <= top:
                    return low, high, (low, high)
            return low, low, (low,)
        if self.full_level == 0:
            low = self.min_bet if self.current < self.min_bet else self.current + self.min_bet
        else:
            low = self.current + max(self.last_increment, self.min_bet)
        if top < low:
            return None, None, ()
        high = top
        if self.pot_limit:
            pot_after_call = sum(s.contributed for s in self.seats) + (self.current - bet)
            high = min(top, max(low, self.current + pot_after_call))
        return low, high, ()

    # -- changes (the caller has checked legality) ----------------------------------------------
    def open_on_forced_bets(self, level: int, increments: int, raise_by: int) -> None:
        """The blinds (and a straddle) are already in the seats' street totals: the bet to call is
        ``level`` (the largest forced bet as posted in full, even when its poster was short), it
        counts as ``increments`` full bets and raises (fixed limit's cap: the big blind is the bet,
        a straddle a raise), and a raise must add at least ``raise_by`` (pot and no limit: the big
        blind, or the straddle). No seat has acted: the blinds keep their option."""
        self.current = level
        self.full_level = level
        self.reopen_level = level
        self.last_increment = raise_by
        self.aggressions = increments

    def _put(self, seat: int, chips: int) -> None:
        record = self.seats[seat]
        record.stack -= chips
        record.street_bet += chips
        record.contributed += chips
        if record.stack == 0 and chips > 0:
            self.able -= 1

    def post_bring_in(self, seat: int) -> int:
        """Post the bring-in (all the seat has, if less); callers owe the full bring-in (WSOP-LA 217)."""
        chips = min(self.stakes.bring_in, self.seats[seat].stack)
        self._put(seat, chips)
        self.current = self.stakes.bring_in
        self.acted[seat] = self.current
        self.bring_in_seat = None
        return chips

    def call(self, seat: int) -> int:
        """Call (or check when nothing is owed); returns the chips put in."""
        record = self.seats[seat]
        chips = min(self.current - record.street_bet, record.stack)
        if chips > 0:
            self._put(seat, chips)
        self.acted[seat] = self.current
        return max(chips, 0)

    def wager(self, seat: int, to: int) -> tuple[int, bool]:
        """Bet, complete or raise to ``to``; returns ``(chips put in, counted as a full bet/raise)``."""
        chips = to - self.seats[seat].street_bet
        self._put(seat, chips)
        self.bring_in_seat = None
        if self.fixed:
            rise = to - self.full_level
            full = 2 * rise >= self.unit()
            if self.open_pair and not self.big_in_force and rise > self.small and 2 * rise >= self.big:
                # Open pair: a wager above a small bet can only be a big one, and an all-in short of
                # it counts as a full big bet from half of it (WSOP-LA 129, 220): raises are big now.
                self.big_in_force = full = True
        elif self.full_level == 0:
            full = to >= self.min_bet
            increment = to
        else:
            increment = to - self.current
            full = increment >= max(self.last_increment, self.min_bet)
        if full:
            if not self.fixed:
                self.last_increment = max(self.last_increment, increment)
            self.full_level = to
            self.reopen_level = to
            self.aggressions += 1
        if to > self.current:
            self.current = to
        self.acted[seat] = self.current
        self.last_aggressor = seat
        return chips, full

    def fold(self, seat: int) -> None:
        """Fold ``seat``; if it held a passed-on bring-in obligation, the obligation moves on."""
        record = self.seats[seat]
        record.folded = True
        if record.stack > 0:
            self.able -= 1
        if self.bring_in_seat == seat:
            nxt = None
            for step in range(1, self.n):
                s = (seat + step) % self.n
                if not self.seats[s].folded and self.seats[s].stack > 0:
                    nxt = s
                    break
            self.bring_in_seat = nxt if nxt is not None and self._others_can_bet(nxt) else None


def refuse(reason: str) -> IllegalAction:
    """Build the ``IllegalAction`` a command raises (helper for uniform wording)."""
    return IllegalAction(reason)
