"""Command planning for ``StudHand``: reading a command, checking it, and the refusal messages.

``act``/``apply``/``can``/``verify`` resolve a command (``Command`` or a name ``vocab.normalise``
reads) into the exact action it would perform, or raise ``IllegalAction`` with a reason a player
can read, changing nothing (SPEC §5, §7). ``ActionPlanning`` is a mixin of ``StudHand``; the
attributes it names are the hand's, and the actions themselves are carried out by the hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.engine.command import AMOUNT_KINDS, Command, Kind
from bot.engine.errors import IllegalAction
from bot.engine.vocab import normalise

if TYPE_CHECKING:  # pragma: no cover - annotations only
    from bot.engine.betting.round import BettingRound, LegalActions
    from bot.engine.games.baseball import Decision
    from bot.engine.hand.showdown import HandResult
    from bot.engine.log import Action

COMMANDS = ("bring_in", "complete", "bet", "raise", "call", "check", "check_or_call", "fold", "all_in",
            "show", "muck", "timeout", "pay", "buy", "decline")
"""Command names accepted by ``StudHand.act``."""


class ActionPlanning:
    """Reading and checking commands for ``StudHand`` (mixin; ``StudHand`` carries them out)."""

    _n: int
    _stacks: list[int]
    _street_bets: list[int]
    _folded: list[bool]
    _street: int
    _round: BettingRound | None
    _actor: int | None
    _phase: str
    _betting_closed: bool
    _legal: LegalActions | None
    _result: HandResult | None
    _decision: Decision | None

    if TYPE_CHECKING:  # StudHand's own, named here for the type checker
        def legal_actions(self, seat: int | None = None) -> LegalActions: ...
        def _decide(self, seat: int, command: str) -> Action: ...
        def _perform(self, seat: int, kind: str, to: int, timed_out: bool) -> Action: ...

    def act(self, seat: int, action: str | Command, amount: int | None = None) -> Action:
        """Generic dispatch: ``action`` is a ``Command`` or one of ``COMMANDS`` (any spelling
        ``vocab.normalise`` reads). ``bet`` and ``raise`` need ``amount``, the street total, and
        both mean ``bet_or_raise_to`` (so does ``complete`` with an amount: a pot- or no-limit
        completion to that total); an amount given with any other name is ignored. Returns the
        action record; raises ``IllegalAction``."""
        if self._decision is not None and isinstance(action, str):
            return self._decide(seat, normalise(action))
        return self.apply(seat, self._command(action, amount))

    def apply(self, seat: int, command: Command) -> Action:
        """Perform ``command`` for ``seat`` and return the action record it adds to the log.
        Raises ``IllegalAction`` (nothing changed) if ``verify`` would."""
        if self._decision is not None:
            return self._decide(seat, "timeout" if command.timed_out else command.kind.value)
        kind, to, timed_out = self._plan_command(seat, command)
        return self._perform(seat, kind, to, timed_out)

    def can(self, seat: int, action: str | Command, amount: int | None = None) -> bool:
        """Whether ``act(seat, action, amount)`` would be accepted (it is not performed)."""
        try:
            self.verify(seat, action, amount)
        except IllegalAction:
            return False
        return True

    def verify(self, seat: int, action: str | Command, amount: int | None = None) -> Command:
        """The command ``act(seat, action, amount)`` would perform, resolved: ``all_in`` as the
        call, bring-in or wager it is, ``timeout`` as what the timer takes, a ``complete`` or
        ``check_or_call`` as the exact action with its amount. Its PHH string replays the same
        action. Raises ``IllegalAction`` if the command would be refused; changes nothing."""
        command = self._command(action, amount)
        kind, to, timed_out = self._plan_command(seat, command)
        if kind == "wager":
            assert self._round is not None
            return Command(Kind(self._round.wager_name()), to, timed_out)
        return Command(Kind(kind), None, timed_out)

    @staticmethod
    def _command(action: str | Command, amount: int | None) -> Command:
        if isinstance(action, Command):
            return action
        name = normalise(action)
        if name not in COMMANDS:
            raise IllegalAction(f"unknown action {action!r}: use {', '.join(COMMANDS)}")
        kind = Kind(name)
        try:
            return Command(kind, amount if kind in AMOUNT_KINDS else None)
        except ValueError as exc:
            raise IllegalAction(str(exc)) from None

    def _plan_command(self, seat: int, command: Command) -> tuple[str, int, bool]:
        """``_plan`` for a ``Command``; the command's own ``timed_out`` is kept."""
        kind = command.kind
        wager = kind in (Kind.BET, Kind.RAISE, Kind.WAGER)
        if wager or (kind is Kind.COMPLETE and command.amount is not None):
            if command.amount is None:
                raise IllegalAction(f"say how much to {command.label} to")
            plan = self._plan(seat, "to", command.amount, kind.value)
        else:
            plan = self._plan(seat, kind.value, None, None)
        if command.timed_out and not plan[2]:
            return plan[0], plan[1], True
        return plan

    # ------------------------------------------------------------------ validation
    def _plan(
        self, seat: int, command: str, amount: int | None, declared: str | None
    ) -> tuple[str, int, bool]:
        """Check a command; return ``(kind, to, timed_out)`` with kind one of bring_in, wager, call,
        check, fold, show, muck. Raises ``IllegalAction``; changes nothing."""
        if type(seat) is int and seat == self._actor and self._phase == "betting":
            # Fast path for the commands of a betting round.
            legal = self._legal or self.legal_actions(seat)
            if command == "check_or_call":
                command = "check" if legal.check else "call"
            if command == "call" and legal.call is not None:
                return "call", self._street_bets[seat] + legal.call, False
            if command == "check" and legal.check:
                return "check", self._street_bets[seat], False
            if command == "fold" and legal.fold:
                return "fold", self._street_bets[seat], False
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self._n:
            raise IllegalAction(f"there is no seat {seat!r} in this hand")
        if self._result is not None:
            raise IllegalAction("the hand is over")
        if seat != self._actor:
            if self._folded[seat]:
                raise IllegalAction("you have folded")
            who = "nobody" if self._actor is None else f"seat {self._actor + 1}"
            raise IllegalAction(f"it is not your turn: {who} is to act")
        legal = self.legal_actions(seat)
        timed_out = command == "timeout"
        if self._phase == "showdown":
            if command == "timeout":
                command = "muck" if legal.muck else "show"
            if command == "show":
                return "show", 0, timed_out
            if command == "muck":
                if not legal.muck:
                    raise IllegalAction(self._muck_refusal(seat))
                return "muck", 0, timed_out
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
        bet = self._street_bets[seat]
        if command == "check_or_call":
            command = "check" if legal.check else "call"
        if command == "fold":
            if not legal.fold:
                raise IllegalAction("the bring-in cannot fold: post the bring-in or complete")
            return "fold", bet, timed_out
        if command == "check":
            if not legal.check:
                if legal.bring_in is not None:
                    raise IllegalAction("you must bring in (or complete); you cannot check")
                raise IllegalAction(f"you cannot check: it is {legal.call} to call")
            return "check", bet, timed_out
        if command == "call":
            if legal.call is None:
                if legal.bring_in is not None:
                    raise IllegalAction("nothing to call yet: post the bring-in or complete")
                raise IllegalAction("there is no bet to call: check or bet")
            return "call", bet + legal.call, timed_out
        if command == "bring_in":
            if legal.bring_in is None:
                raise IllegalAction("the bring-in is not yours to post" if self._street == 3
                                    else "there is no bring-in after third street")
            return "bring_in", legal.bring_in, timed_out
        if command == "complete":
            # "complete" also names pot and no limit's first bet of third street (still a bet there).
            if legal.wager != "complete" and not (legal.wager == "bet" and self._street == 3):
                if self._street != 3:
                    raise IllegalAction("completing is for the bring-in on third street: bet or raise")
                if legal.wager is None:
                    raise IllegalAction("you cannot complete now")
                raise IllegalAction("the bet is already complete: raise instead")
            target = legal.complete_to if legal.wager == "complete" else legal.min_to   # pot/no limit: a bet
            if target is None:
                raise IllegalAction(f"you have {self._stacks[seat]} chips, not enough to complete: go all-in")
            return "wager", target, timed_out
        if command == "all_in":
            if legal.all_in_to is None:
                raise IllegalAction(self._all_in_refusal(legal))
            kind = legal.all_in_kind
            if kind == "call":
                return "call", legal.all_in_to, timed_out
            if kind == "bring_in":
                return "bring_in", legal.all_in_to, timed_out
            return "wager", legal.all_in_to, timed_out
        if command == "to":
            if not isinstance(amount, int) or isinstance(amount, bool):
                raise IllegalAction(f"the amount must be a whole number of chips, not {amount!r}")
            if legal.wager is None:
                raise IllegalAction(self._wager_refusal(legal))
            if declared == "complete" and legal.wager == "raise":
                raise IllegalAction("the bet is already complete: raise instead")
            if not legal.allows_to(amount):
                raise IllegalAction(self._amount_refusal(legal, amount, seat))
            return "wager", amount, timed_out
        raise IllegalAction(f"unknown action {command!r}")

    def _wager_refusal(self, legal: LegalActions) -> str:
        rnd = self._round
        if rnd is not None and rnd.cap is not None and rnd.aggressions >= rnd.cap:
            return f"the betting is capped at a bet and {rnd.cap - 1} raises: call or fold"
        if legal.call is not None and legal.all_in_kind == "call":
            return "you do not have enough chips to raise: call all-in or fold"
        if rnd is not None and not any(self._stacks[i] > 0 and not self._folded[i]
                                       for i in range(self._n) if i != legal.seat):
            return "everyone else is all-in: there is nobody to raise against; call or fold"
        if rnd is not None and legal.seat is not None and not rnd.others_can_exceed(legal.seat, rnd.current):
            return "nobody else can put in more than the current bet: call or fold"
        return "the betting was not reopened for you (a short all-in is not a full raise): call or fold"

    def _all_in_refusal(self, legal: LegalActions) -> str:
        if legal.wager is None:
            return self._wager_refusal(legal)
        if legal.to_options:
            return (f"this is fixed limit: {legal.wager} to {' or '.join(map(str, legal.to_options))}, "
                    "not all-in")
        return f"all-in is above the pot limit: you may {legal.wager} to at most {legal.max_to}"

    def _amount_refusal(self, legal: LegalActions, amount: int, seat: int) -> str:
        top = self._street_bets[seat] + self._stacks[seat]
        if amount > top:
            if legal.to_options:  # fixed limit: name the amounts there are, not the whole stack
                opts = " or ".join(str(x) for x in legal.to_options)
                return f"this is fixed limit: {legal.wager} to {opts} (you asked for {amount})"
            return f"you have only {self._stacks[seat]} chips: the most you can make it is {top}"
        if legal.min_to is None:
            return f"you can only go all-in (to {legal.all_in_to}), call or fold"
        if legal.to_options:
            opts = " or ".join(str(x) for x in legal.to_options)
            return f"this is fixed limit: {legal.wager} to {opts}"
        word = legal.wager
        if amount < legal.min_to:
            return f"the smallest {word} is to {legal.min_to}"
        return f"the largest {word} is to {legal.max_to} (pot limit)"

    def _muck_refusal(self, seat: int) -> str:
        if self._stacks[seat] == 0:
            return "an all-in hand is always shown"
        if self._betting_closed:
            return "the hands are already face up"
        return "you may muck only when a hand already shown beats yours"
