"""Baseball's dealing for ``StudHand`` (issue 12): the deal that stops for a decision.

A face-up three under ``three_up = pay-the-pot-or-fold`` or a face-up four under ``four_card =
bought`` asks its holder before the next card is dealt, so for Baseball the hand deals through a
generator (``_deal_steps``) that yields a ``Decision`` and resumes when it is answered
(``_decide``). The rules themselves (the reserve rule, the price) are in ``bot.engine.games.baseball``.
``BaseballDealing`` is a mixin of ``StudHand``; the attributes it names are the hand's.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from bot.engine.cards.card import Card
from bot.engine.cards.deck import CardSource
from bot.engine.errors import IllegalAction
from bot.engine.games.baseball import Decision, buy_price, extra_card_fits
from bot.engine.games.streets import STREETS
from bot.engine.hand.events import Event, StreetStarted
from bot.engine.log import Action, Deal, LogEntry

if TYPE_CHECKING:  # pragma: no cover - annotations only
    from bot.engine.betting.round import LegalActions
    from bot.engine.betting.stakes import TableStakes
    from bot.engine.games.catalogue import Game
    from bot.engine.games.rulings import Rulings


class BaseballDealing:
    """Baseball's decisions and resumable deal (mixed into ``StudHand``)."""

    game: Game
    rulings: Rulings
    stakes: TableStakes
    _n: int
    _source: CardSource
    _stacks: list[int]
    _dead: list[int]
    _folded: list[bool]
    _live: int
    _street: int
    _street_bets: list[int]
    _phase: str
    _actor: int | None
    _betting_closed: bool
    _legal: LegalActions | None
    _log: list[LogEntry]
    _events: list[Event | Deal | Action]
    _decision: Decision | None
    _dealer: Iterator[Decision] | None
    _accepted: bool

    if TYPE_CHECKING:  # StudHand's own, named here for the type checker
        @property
        def pot_total(self) -> int: ...
        def _record(self, action: Action) -> None: ...
        def _action_at(self, index: int) -> Action: ...
        def _win_by_fold(self, winner: int) -> None: ...
        def _draw(self, street: int, seat: int | None, face_up: bool, kind: str) -> Card: ...
        def _start_round(self, street: int) -> bool: ...
        def _finish_cards(self) -> None: ...
        def _begin_showdown(self) -> None: ...
        def _deal_seventh(self) -> None: ...

    def pay(self, seat: int) -> None:
        """Baseball, ``three_up = pay-the-pot-or-fold``: match the pot (all-in if short)."""
        self._decide(seat, "pay")

    def buy(self, seat: int) -> None:
        """Baseball, ``four_card = bought``: buy the extra card at ``decision.amount``."""
        self._decide(seat, "buy")

    def decline(self, seat: int) -> None:
        """Baseball, ``four_card = bought``: no extra card, no chips."""
        self._decide(seat, "decline")

    def _decide(self, seat: int, command: str) -> Action:
        """Answer the pending ``Decision``; a timeout declines a card or folds (SPEC §7: a timer
        never commits chips). Raises ``IllegalAction`` (nothing changed) for anything else."""
        decision = self._decision
        if decision is None:
            raise IllegalAction("nothing is waiting for a decision")
        if seat != decision.seat:
            raise IllegalAction(f"it is seat {decision.seat + 1}'s decision")
        timed_out = command == "timeout"
        yes, no = ("buy", "decline") if decision.kind == "buy" else ("pay", "fold")
        if timed_out:
            command = no
        if command not in (yes, no):
            raise IllegalAction(f"{yes} or {no}: the {decision.card} asks for it")
        mark = len(self._log)
        self._decision = None
        self._legal = None
        street = self._street
        if command == yes:
            chips = decision.amount
            self._stacks[seat] -= chips
            self._dead[seat] += chips
            self._record(Action(street, seat, yes, chips, 0, self._stacks[seat] == 0, timed_out))
            self._accepted = True
        else:
            if no == "fold":
                self._folded[seat] = True
                self._live -= 1
            self._record(Action(street, seat, no, 0, 0, False, timed_out))
            self._accepted = False
        if self._live == 1:
            self._dealer = None
            self._win_by_fold(self._folded.index(False))
        else:
            self._run_dealer()
        return self._action_at(mark)


    def _run_dealer(self) -> None:
        """Deal on until the next decision (Baseball) or until betting starts or the hand ends."""
        dealer = self._dealer
        if dealer is None:
            return
        try:
            decision = next(dealer)
        except StopIteration:
            self._dealer = None
            return
        self._decision = decision
        self._phase = "decision"
        self._actor = decision.seat

    def _deal_steps(self, street: int) -> Iterator[Decision]:
        """``_proceed_from`` for games whose cards can ask a player to decide (Baseball)."""
        while True:
            self._street = street
            self._phase = "dealing"
            for seat in range(self._n):
                self._street_bets[seat] = 0
            self._events.append(StreetStarted(street))
            if street == 7:
                self._deal_seventh()
            else:
                spec = STREETS[street - 3]
                if spec.burn and self.rulings.burn_cards == "on":
                    self._draw(street, None, False, "burn")
                for face_up in spec.passes:
                    for seat in range(self._n):
                        if self._folded[seat]:
                            continue
                        card = self._draw(street, seat, face_up, "hole")
                        if face_up:
                            yield from self._after_up_card(street, seat, card)
            self._actor = None
            if not self._betting_closed and self._start_round(street):
                return
            if street == 7:
                self._finish_cards()
                self._begin_showdown()
                return
            street += 1

    def _after_up_card(self, street: int, seat: int, card: Card) -> Iterator[Decision]:
        """Baseball: a face-up three may ask for the pot; a face-up four earns an extra card."""
        game, rulings = self.game, self.rulings
        rank = card.rank
        if rank is game.pay_rank and rulings.three_up == "pay-the-pot-or-fold" and self._stacks[seat] > 0:
            yield Decision(seat, "pay", min(self.pot_total, self._stacks[seat]), card.code)
            if self._folded[seat]:
                return
        if rank is not game.extra_card:
            return
        due = sum(1 for s in range(seat + 1, self._n) if not self._folded[s])
        if not extra_card_fits(remaining=self._source.remaining(), due_this_pass=due,
                               streets_after=range(street + 1, 8), live=self._live,
                               burns=rulings.burn_cards == "on"):
            return
        if rulings.four_card == "bought":
            price = buy_price(self.stakes)
            if self._stacks[seat] < price:
                return                          # the full price is needed; all-in players get no offer
            yield Decision(seat, "buy", price, card.code)
            if not self._accepted:
                return
        up = rulings.four_card_face == "up"
        extra = self._draw(street, seat, up, "hole")
        if up:
            yield from self._after_up_card(street, seat, extra)

