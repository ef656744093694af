"""Omaha's hand values: exactly two of the player's own cards with exactly three of the board.

``omaha_high`` is the best high hand (the wild-aware evaluator, so a rank the dealer made wild is
wild here too) and ``omaha_low`` the best eight-or-better low, each chosen on its own: the high
and the low of one player may use different pairs of hole cards and different board cards
(Robert's Rules of Poker, "Omaha"; pokerkit ``OmahaHoldemHand``, ``OmahaEightOrBetterLowHand``).
Both go through every choice of two and three (6 x 10 = 60 fives with four hole cards and a full
board): the plain combination, the same as the brute-force reference in the tests.

Four hearts on the board and one in the hand make no flush (one heart of the hand, not two):

>>> from bot.engine.cards.card import parse_cards
>>> omaha_high(parse_cards("As Ks Qd Jd"), parse_cards("2s 3s 4s 9c 9h"), frozenset()).describe()
'Flush, ace-king-four-three-two'
>>> omaha_high(parse_cards("Ah Kd Qc Jc"), parse_cards("2h 5h 9h Th 3c"), frozenset()).describe()
'High card, ace'
>>> omaha_low(parse_cards("Ah 2d Kc Kd"), parse_cards("3s 4c 8h Qd Jc")).name
'eight-four low'
>>> omaha_low(parse_cards("Ah Kd Qc Jc"), parse_cards("2s 3c 4h 5d 6c")) is None
True
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from itertools import combinations

from bot.engine.cards.card import Card, Rank
from bot.engine.values.ace_to_five import EIGHT_OR_BETTER, ace_to_five_key, eight_or_better
from bot.engine.values.evaluator import HandValue, evaluate, strength
from bot.engine.values.evaluator_tables import WildInFlush
from bot.engine.values.low import LowValue

HOLE = 2
BOARD = 3


def fives(hole: Sequence[Card], board: Sequence[Card]) -> list[tuple[Card, ...]]:
    """Every hand of exactly two ``hole`` cards and three ``board`` cards (``ValueError`` if either
    has too few)."""
    if len(hole) < HOLE or len(board) < BOARD:
        raise ValueError(f"an Omaha hand needs {HOLE} hole cards and {BOARD} board cards, "
                         f"got {len(hole)} and {len(board)}")
    return [two + three for two in combinations(hole, HOLE) for three in combinations(board, BOARD)]


def omaha_high(hole: Sequence[Card], board: Sequence[Card], wild_ranks: Collection[Rank], *,
               wild_in_flush: WildInFlush = "any-card", natural_wins_ties: bool = False) -> HandValue:
    """The best high hand of two ``hole`` cards and three ``board`` cards (with ``natural_wins_ties``,
    between equal strengths the one using fewer wild cards). The strengths are compared first, and
    only the strongest fives are valued in full."""
    wilds = frozenset(wild_ranks)
    hands = fives(hole, board)
    strengths = [strength(five, wilds, wild_in_flush=wild_in_flush) for five in hands]
    top = max(strengths)
    best = [evaluate(five, wilds, wild_in_flush=wild_in_flush)
            for five, value in zip(hands, strengths, strict=True) if value == top]
    return max(best, key=lambda value: value.showdown_key(natural_wins_ties=natural_wins_ties))


def omaha_low(hole: Sequence[Card], board: Sequence[Card]) -> LowValue | None:
    """The best eight-or-better low of two ``hole`` cards and three ``board`` cards, or ``None``."""
    best: tuple[int, tuple[Card, ...]] | None = None
    for five in fives(hole, board):
        key = ace_to_five_key(five)
        if key < EIGHT_OR_BETTER and (best is None or key < best[0]):
            best = (key, five)
    return None if best is None else eight_or_better(best[1])
