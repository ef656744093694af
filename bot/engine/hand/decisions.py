"""Decision phases: steps where the hand waits for a player's choice that is not a bet.

The street loop (``streets``) yields a ``Decision`` and pauses; ``answer`` applies the choice and
the loop resumes. A decision's choices are ``Command``s (``choices``), so a table prompts for them
as it prompts for a bet. The decisions today are Baseball's (issue 12; docs/rules.md, Baseball):
under ``three_up = pay-the-pot-or-fold`` a face-up three asks its holder to match the pot or fold,
and under ``four_card = bought`` a face-up four offers an extra card at a price. Payments are dead
money: in the main pot, never a bet. A timeout declines or folds: a timer never commits chips.

"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from bot.engine.command import Command, Kind
from bot.engine.errors import IllegalAction
from bot.engine.games.baseball import buy_price, extra_card_fits
from bot.engine.hand.dealing import draw
from bot.engine.hand.records import Decision
from bot.engine.log import Action

if TYPE_CHECKING:  # pragma: no cover - annotations only
    from bot.engine.cards.card import Card
    from bot.engine.hand.state import HandState

def after_up_card(state: HandState, street: int, seat: int, card: Card) -> Iterator[Decision]:
    """What a face-up card asks of its holder before the next card is dealt (the game's card rules):
    Baseball's three may ask for the pot; its four earns an extra card, free or bought, dealt at once
    (and an extra card dealt face up is itself a face-up card)."""
    game, rulings = state.game, state.rulings
    record = state.seats[seat]
    rank = card.rank
    if rank is game.pay_rank and rulings.three_up == "pay-the-pot-or-fold" and record.stack > 0:
        yield Decision(seat, "pay", min(state.pot_total, record.stack), card.code)
        if record.folded:
            return
    if rank is not game.extra_card:
        return
    due = sum(1 for s in state.seats[seat + 1:] if not s.folded)
    last = game.streets[-1].number
    if not extra_card_fits(remaining=state.source.remaining(), due_this_pass=due,
                           streets_after=range(street + 1, last + 1), live=state.live,
                           burns=rulings.burn_cards == "on"):
        return
    if rulings.four_card == "bought":
        price = buy_price(state.stakes)
        if record.stack < price:
            return                          # the full price is needed; all-in players get no offer
        yield Decision(seat, "buy", price, card.code)
        if not state.accepted:
            return
    up = rulings.four_card_face == "up"
    extra = draw(state, street, seat, up, "hole")
    if up:
        yield from after_up_card(state, street, seat, extra)


def answer(state: HandState, seat: int, command: Command) -> Action:
    """Apply ``seat``'s answer to the pending decision and return its record (the street loop is
    resumed by the caller). A ``timeout`` declines or folds. Raises ``IllegalAction`` (nothing
    changed) for anything but the decision's choices."""
    decision = state.decision
    if decision is None:
        raise IllegalAction("nothing is waiting for a decision")
    if seat != decision.seat:
        raise IllegalAction(f"it is seat {decision.seat + 1}'s decision")
    yes, no = decision.choices
    timed_out = command.kind is Kind.TIMEOUT or command.timed_out
    kind = no.kind if command.kind is Kind.TIMEOUT else command.kind
    if kind not in (yes.kind, no.kind):
        raise IllegalAction(f"{yes.kind.value} or {no.kind.value}: the {decision.card} asks for it")
    if command.amount is not None and kind is yes.kind and command.amount != yes.amount:
        raise IllegalAction(f"the price is {yes.amount}, not {command.amount}")
    mark = len(state.log)
    state.decision = None
    state.legal = None
    record = state.seats[seat]
    if kind is yes.kind:
        chips = decision.amount
        record.stack -= chips
        record.dead += chips
        state.record(Action(state.street, seat, yes.kind.value, chips, 0, record.stack == 0, timed_out))
        state.accepted = True
    else:
        if kind is Kind.FOLD:
            record.folded = True
            state.live -= 1
        state.record(Action(state.street, seat, no.kind.value, 0, 0, False, timed_out))
        state.accepted = False
    return state.action_at(mark)


def resolve(decision: Decision, command: Command) -> Command:
    """The choice ``command`` makes at ``decision``, resolved as ``answer`` would apply it (a
    ``timeout`` as the no, timed out; the yes with its amount). Raises ``IllegalAction``."""
    yes, no = decision.choices
    if command.kind is Kind.TIMEOUT:
        return Command(no.kind, None, True)
    if command.kind is yes.kind and (command.amount is None or command.amount == yes.amount):
        return Command(yes.kind, yes.amount, command.timed_out)
    if command.kind is no.kind and command.amount is None:
        return Command(no.kind, None, command.timed_out)
    if command.kind is yes.kind:
        raise IllegalAction(f"the price is {yes.amount}, not {command.amount}")
    raise IllegalAction(f"{yes.kind.value} or {no.kind.value}: the {decision.card} asks for it")
