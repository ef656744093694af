"""Decision phases: steps where the hand waits for a player's choice that is not a bet.

The street loop (``streets``) yields a ``Decision`` and pauses; ``answer`` applies the choice and
the loop resumes. A decision's choices are ``Command``s (``choices``), so a table prompts for them
as it prompts for a bet. Baseball's (issue 12; docs/rules.md, Baseball): under ``three_up =
pay-the-pot-or-fold`` a face-up three asks its holder to match the pot or fold, and under
``four_card = bought`` a face-up four offers an extra card at a price. Payments are dead money: in
the main pot, never a bet. The flop games' (issue 21; docs/rules.md, "Flop games"): Crazy
Pineapple's discard after the flop betting (``discards``), and run it twice when everyone is all
in before the river (``run_it_twice``). A timeout declines, folds, runs it once, or discards the
card that keeps the best hand: a timer never commits chips.

"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from bot.engine.command import Command, Kind
from bot.engine.errors import IllegalAction
from bot.engine.games.baseball import buy_price, extra_card_fits
from bot.engine.hand.dealing import draw
from bot.engine.hand.records import Decision
from bot.engine.hand.showdown import seat_wilds
from bot.engine.log import Action
from bot.engine.values.evaluator import strength

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
    resumed by the caller). A ``timeout`` takes ``Decision.timeout_choice``. Raises
    ``IllegalAction`` (nothing changed) for anything but the decision's choices."""
    decision = state.decision
    if decision is None:
        raise IllegalAction("nothing is waiting for a decision")
    if seat != decision.seat:
        raise IllegalAction(f"it is seat {decision.seat + 1}'s decision")
    chosen = resolve(decision, command)
    kind, timed_out = chosen.kind, chosen.timed_out
    mark = len(state.log)
    state.decision = None
    state.legal = None
    record = state.seats[seat]
    street = state.street
    if decision.kind == "discard":
        card = chosen.cards[0]
        record.cards.remove(card)
        record.down.remove(card)
        state.record(Action(street, seat, "discard", 0, 0, False, timed_out, (card,)))
    elif decision.kind == "run_twice":
        state.accepted = kind is Kind.RUN_TWICE
        state.record(Action(street, seat, kind.value, 0, 0, False, timed_out))
    elif kind is decision.choices[0].kind:
        chips = decision.amount
        record.stack -= chips
        record.dead += chips
        state.record(Action(street, seat, kind.value, chips, 0, record.stack == 0, timed_out))
        state.accepted = True
    else:
        if kind is Kind.FOLD:
            record.folded = True
            state.live -= 1
        state.record(Action(street, seat, kind.value, 0, 0, False, timed_out))
        state.accepted = False
    return state.action_at(mark)


def resolve(decision: Decision, command: Command) -> Command:
    """The choice ``command`` makes at ``decision``, resolved as ``answer`` would apply it (a
    ``timeout`` as ``Decision.timeout_choice``; the yes with its price). Raises ``IllegalAction``."""
    if command.kind is Kind.TIMEOUT:
        return decision.timeout_choice
    choices = decision.choices
    if decision.kind == "discard":
        if command.kind is Kind.DISCARD:
            if not command.cards:
                raise IllegalAction(f"say which card to discard: {_cards(decision.cards)}")
            if command.cards[0] in decision.cards:
                return Command(Kind.DISCARD, None, command.timed_out, command.cards)
            raise IllegalAction(f"you do not hold {command.cards[0].code}: discard one of "
                                f"{_cards(decision.cards)}")
        raise IllegalAction(f"discard one of your cards first: {_cards(decision.cards)}")
    yes, no = choices
    if command.kind is yes.kind and (command.amount is None or command.amount == yes.amount):
        return Command(yes.kind, yes.amount, command.timed_out)
    if command.kind is no.kind and command.amount is None:
        return Command(no.kind, None, command.timed_out)
    if command.kind is yes.kind:
        raise IllegalAction(f"the price is {yes.amount}, not {command.amount}")
    if decision.kind == "run_twice":
        raise IllegalAction("everyone is all in: run it twice, or run it once")
    raise IllegalAction(f"{yes.kind.value} or {no.kind.value}: the {decision.card} asks for it")


def _cards(cards: tuple[Card, ...]) -> str:
    return ", ".join(card.code for card in cards)


def discards(state: HandState, street: int) -> Iterator[Decision]:
    """Crazy Pineapple: each live seat, from the left of the button, discards one down card before
    this street's cards. The timer discards the card whose loss keeps the best hand with the board
    so far (the last dealt of equal ones): what a player who ran out of time most likely meant."""
    for step in range(1, state.n + 1):
        seat = state.left_of(state.button, step)
        record = state.seats[seat]
        if record.folded:
            continue
        yield Decision(seat, "discard", 0, "", tuple(record.down), discard_fallback(state, seat))


def discard_fallback(state: HandState, seat: int) -> Card:
    """The card whose loss keeps ``seat``'s best hand with the board (the last dealt of equals)."""
    down = state.seats[seat].down
    wilds = frozenset(seat_wilds(state, seat))
    how = state.rulings.wild_in_flush
    best: tuple[int, Card] | None = None
    for card in down:
        rest = [c for c in down if c is not card] + state.board
        key = strength(rest, wilds, wild_in_flush=how) if 5 <= len(rest) <= 7 else 0
        if best is None or key >= best[0]:
            best = (key, card)
    assert best is not None
    return best[1]


def run_it_twice(state: HandState) -> Iterator[Decision]:
    """Everyone is all in (at most one player could still bet) before the board is out, and the
    table runs it twice on agreement: each live seat, from the left of the button, is asked; the
    first "once" ends the asking (the timer says once). ``state.accepted`` is True when all agreed."""
    for step in range(1, state.n + 1):
        seat = state.left_of(state.button, step)
        if state.seats[seat].folded:
            continue
        yield Decision(seat, "run_twice", 0, "")
        if not state.accepted:
            return
