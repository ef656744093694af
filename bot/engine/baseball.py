"""Baseball's extra cards and payments (issue 12; docs/rules.md, Baseball), as small pure rules.

A face-up four earns its holder one more card at once, in the deal sequence (free or bought,
down or up: rulings ``four_card`` and ``four_card_face``). Under ``three_up =
pay-the-pot-or-fold`` a face-up three asks its holder to match the pot or fold, at once. Payments
are *dead money*: they go to the main pot but are not bets (never uncalled, never change the
amount to call). ``Decision`` is what the hand waits for; ``extra_card_fits`` is the reserve rule
that keeps every later street dealable.

>>> extra_card_fits(remaining=4, due_this_pass=3, streets_after=(7,), live=8, burns=False)
False
>>> extra_card_fits(remaining=20, due_this_pass=3, streets_after=(5, 6, 7), live=5, burns=False)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine.stakes import TableStakes

DECISIONS = ("buy", "pay")

MOST_CARDS = 7 + 4
"""The most cards one player can hold: seven, plus one extra card for each face-up four (there are
four fours, and an extra card dealt face up may itself be a four). Pictures and messages of a
player's own hand make room for this many."""


@dataclass(frozen=True, slots=True)
class Decision:
    """The hand waits for ``seat``: ``kind`` ``"buy"`` (buy the extra card for ``amount`` chips, or
    decline) or ``"pay"`` (match the pot, ``amount`` chips, at most the stack, or fold).
    ``card``: the face-up four or three that asks for it."""

    seat: int
    kind: str
    amount: int
    card: str


def buy_price(stakes: TableStakes) -> int:
    """The price of a bought extra card: the small bet (fixed limit) or the minimum bet."""
    return stakes.small_bet if stakes.is_fixed_limit else stakes.min_bet


def extra_card_fits(*, remaining: int, due_this_pass: int, streets_after: Sequence[int], live: int,
                    burns: bool) -> bool:
    """The reserve rule: an extra card is dealt only if, after it, the stub still holds a card for
    each player still due one in this pass, a full pass of ``live`` players for every later street
    up to sixth, and one card for seventh street (the community card if need be), plus a burn per
    later street when ``burns``. So the deck never runs out and a shortage still comes only on
    seventh street (SPEC §2): a four that does not fit earns nothing.
    """
    need = due_this_pass
    for street in streets_after:
        need += (1 if street == 7 else live) + (1 if burns else 0)
    return remaining - 1 >= need
