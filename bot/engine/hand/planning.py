"""Reading a command against a hand: what it would do, or why it is refused (SPEC §5, §7).

``legal_actions`` says what a seat may do now; ``plan`` resolves a ``Command`` into the exact action
it would perform (``all_in`` as the call, bring-in or wager it is; ``timeout`` as what the timer
takes; ``check_or_call`` and ``complete`` exactly), or raises ``IllegalAction`` with a reason a
player can read. Nothing here changes the hand: both are functions of its state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, NamedTuple

from bot.engine.betting.round import NO_ACTIONS, LegalActions
from bot.engine.command import Command, Kind
from bot.engine.errors import IllegalAction
from bot.engine.hand.openers import may_open, opening_round
from bot.engine.hand.showdown import may_muck

if TYPE_CHECKING:  # pragma: no cover - annotations only
    from bot.engine.hand.state import HandState

PlanKind = Literal["bring_in", "wager", "call", "check", "fold", "show", "muck"]


class Plan(NamedTuple):
    """What a command does: ``kind``, the seat's street total ``to`` after it, and whether the timer
    took it."""

    kind: PlanKind
    to: int
    timed_out: bool


def legal_actions(state: HandState, seat: int | None) -> LegalActions:
    """What ``seat`` may do now (betting or a manual showdown; a pay-or-fold decision may fold);
    empty for a seat whose turn it is not."""
    if seat is None or seat != state.actor:
        return NO_ACTIONS
    legal = state.legal
    if legal is None:
        if state.phase == "betting":
            assert state.round is not None
            legal = state.round.legal(seat)
            if (legal.wager is not None and state.opener is None and opening_round(state)
                    and not may_open(state, seat)):
                legal = _no_opening(legal)
        elif state.phase == "showdown":
            legal = LegalActions(seat, show=True, muck=may_muck(state, seat))
        elif (state.phase == "decision" and state.decision is not None
              and state.decision.kind in ("pay", "draw")):
            legal = LegalActions(seat, fold=True)
        else:
            legal = NO_ACTIONS
        state.legal = legal
    return legal


def _no_opening(legal: LegalActions) -> LegalActions:
    """Jacks or better: a seat without openers may check or fold, not open."""
    all_in = legal.all_in_kind == "call"
    return legal._replace(wager=None, min_to=None, max_to=None, to_options=(),
                          all_in_to=legal.all_in_to if all_in else None,
                          all_in_kind=legal.all_in_kind if all_in else None)


_DECIDING = frozenset({Kind.PAY, Kind.BUY, Kind.DECLINE, Kind.DRAW, Kind.STAND})
_WAGERING = frozenset({Kind.BET, Kind.RAISE, Kind.WAGER})


def plan(state: HandState, seat: int, command: Command) -> Plan:
    """The action ``command`` would perform for ``seat`` (see the module docstring); the command's own
    ``timed_out`` is kept. Raises ``IllegalAction``; changes nothing."""
    kind = command.kind
    if kind in _DECIDING:
        raise IllegalAction("nothing is waiting for a decision")
    if kind in _WAGERING or (kind is Kind.COMPLETE and command.amount is not None):
        if command.amount is None:
            raise IllegalAction(f"say how much to {command.label} to")
        result = _plan(state, seat, "to", command.amount, kind.value)
    else:
        result = _plan(state, seat, kind.value, None, None)
    if command.timed_out and not result.timed_out:
        return Plan(result.kind, result.to, True)
    return result


def _plan(state: HandState, seat: int, command: str, amount: int | None, declared: str | None) -> Plan:
    """Check a command (by its name); raises ``IllegalAction``; changes nothing."""
    if type(seat) is int and seat == state.actor and state.phase == "betting":
        # Fast path for the commands of a betting round.
        legal = state.legal or legal_actions(state, seat)
        if command == "check_or_call":
            command = "check" if legal.check else "call"
        if command == "call" and legal.call is not None:
            return Plan("call", state.seats[seat].street_bet + legal.call, False)
        if command == "check" and legal.check:
            return Plan("check", state.seats[seat].street_bet, False)
        if command == "fold" and legal.fold:
            return Plan("fold", state.seats[seat].street_bet, False)
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.n:
        raise IllegalAction(f"there is no seat {seat!r} in this hand")
    if state.result is not None:
        raise IllegalAction("the hand is over")
    if seat != state.actor:
        if state.seats[seat].folded:
            raise IllegalAction("you have folded")
        who = "nobody" if state.actor is None else f"seat {state.actor + 1}"
        raise IllegalAction(f"it is not your turn: {who} is to act")
    legal = legal_actions(state, seat)
    timed_out = command == "timeout"
    if state.phase == "showdown":
        if command == "timeout":
            command = "muck" if legal.muck else "show"
        if command == "show":
            return Plan("show", 0, timed_out)
        if command == "muck":
            if not legal.muck:
                raise IllegalAction(_muck_refusal(state, seat))
            return Plan("muck", 0, timed_out)
        raise IllegalAction("it is the showdown: show or muck")
    if command in ("show", "muck"):
        raise IllegalAction("there is nothing to show yet: the betting is not over")
    if command == "timeout":
        if legal.bring_in is not None and not legal.fold:
            command = "bring_in"
        elif legal.check:
            command = "check"
        else:
            command = "fold"
    bet = state.seats[seat].street_bet
    if command == "check_or_call":
        command = "check" if legal.check else "call"
    if command == "fold":
        if not legal.fold:
            raise IllegalAction("the bring-in cannot fold: post the bring-in or complete")
        return Plan("fold", bet, timed_out)
    if command == "check":
        if not legal.check:
            if legal.bring_in is not None:
                raise IllegalAction("you must bring in (or complete); you cannot check")
            raise IllegalAction(f"you cannot check: it is {legal.call} to call")
        return Plan("check", bet, timed_out)
    if command == "call":
        if legal.call is None:
            if legal.bring_in is not None:
                raise IllegalAction("nothing to call yet: post the bring-in or complete")
            raise IllegalAction("there is no bet to call: check or bet")
        return Plan("call", bet + legal.call, timed_out)
    if command == "bring_in":
        if legal.bring_in is None:
            raise IllegalAction("the bring-in is not yours to post" if state.street == 3
                                else "there is no bring-in after third street")
        return Plan("bring_in", legal.bring_in, timed_out)
    if command == "complete":
        # "complete" also names pot and no limit's first bet of third street (still a bet there).
        if legal.wager != "complete" and not (legal.wager == "bet" and state.street == 3):
            if state.street != 3:
                raise IllegalAction("completing is for the bring-in on third street: bet or raise")
            if legal.wager is None:
                raise IllegalAction("you cannot complete now")
            raise IllegalAction("the bet is already complete: raise instead")
        target = legal.complete_to if legal.wager == "complete" else legal.min_to   # pot/no limit: a bet
        if target is None:
            raise IllegalAction(f"you have {state.seats[seat].stack} chips, not enough to complete: "
                                "go all-in")
        return Plan("wager", target, timed_out)
    if command == "all_in":
        if legal.all_in_to is None:
            raise IllegalAction(_all_in_refusal(state, legal))
        kind = legal.all_in_kind
        if kind == "call":
            return Plan("call", legal.all_in_to, timed_out)
        if kind == "bring_in":
            return Plan("bring_in", legal.all_in_to, timed_out)
        return Plan("wager", legal.all_in_to, timed_out)
    if command == "to":
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise IllegalAction(f"the amount must be a whole number of chips, not {amount!r}")
        if legal.wager is None:
            raise IllegalAction(_wager_refusal(state, legal))
        if declared == "complete" and legal.wager == "raise":
            raise IllegalAction("the bet is already complete: raise instead")
        if not legal.allows_to(amount):
            raise IllegalAction(_amount_refusal(state, legal, amount, seat))
        return Plan("wager", amount, timed_out)
    raise IllegalAction(f"unknown action {command!r}")

def _wager_refusal(state: HandState, legal: LegalActions) -> str:
    rnd = state.round
    if opening_round(state) and legal.seat is not None and not may_open(state, legal.seat):
        return "jacks or better to open: you need a pair of jacks or better to bet; check or fold"
    if rnd is not None and rnd.cap is not None and rnd.aggressions >= rnd.cap:
        return f"the betting is capped at a bet and {rnd.cap - 1} raises: call or fold"
    if legal.call is not None and legal.all_in_kind == "call":
        return "you do not have enough chips to raise: call all-in or fold"
    if rnd is not None and not any(s.stack > 0 and not s.folded
                                   for i, s in enumerate(state.seats) if i != legal.seat):
        return "everyone else is all-in: there is nobody to raise against; call or fold"
    if rnd is not None and legal.seat is not None and not rnd.others_can_exceed(legal.seat, rnd.current):
        return "nobody else can put in more than the current bet: call or fold"
    return "the betting was not reopened for you (a short all-in is not a full raise): call or fold"

def _all_in_refusal(state: HandState, legal: LegalActions) -> str:
    if legal.wager is None:
        return _wager_refusal(state, legal)
    if legal.to_options:
        return (f"this is fixed limit: {legal.wager} to {' or '.join(map(str, legal.to_options))}, "
                "not all-in")
    return f"all-in is above the pot limit: you may {legal.wager} to at most {legal.max_to}"

def _amount_refusal(state: HandState, legal: LegalActions, amount: int, seat: int) -> str:
    top = state.seats[seat].street_bet + state.seats[seat].stack
    if amount > top:
        if legal.to_options:  # fixed limit: name the amounts there are, not the whole stack
            opts = " or ".join(str(x) for x in legal.to_options)
            return f"this is fixed limit: {legal.wager} to {opts} (you asked for {amount})"
        return f"you have only {state.seats[seat].stack} chips: the most you can make it is {top}"
    if legal.min_to is None:
        return f"you can only go all-in (to {legal.all_in_to}), call or fold"
    if legal.to_options:
        opts = " or ".join(str(x) for x in legal.to_options)
        return f"this is fixed limit: {legal.wager} to {opts}"
    word = legal.wager
    if amount < legal.min_to:
        return f"the smallest {word} is to {legal.min_to}"
    return f"the largest {word} is to {legal.max_to} (pot limit)"

def _muck_refusal(state: HandState, seat: int) -> str:
    if state.seats[seat].stack == 0:
        return "an all-in hand is always shown"
    if state.betting_closed:
        return "the hands are already face up"
    return "you may muck only when a hand already shown beats yours"
