"""Hand values of the flop games: a player's down cards with the shared board (issue 21).

* ``flop_high``: the high hand as the game's showdown values it: Texas Hold'em (and Crazy
  Pineapple) the best five of the hole cards and the board together (the wild-aware evaluator
  does it for up to seven cards), Omaha (``exact_hole``) ``omaha_high``.
* ``omaha_high``: Omaha: exactly two of the hole cards with exactly three of the board. Four
  hearts on the board and one heart in the hand is no flush; a pair on the board with a third of
  the rank in the hand is no three of a kind unless the hand holds two of it.
* ``omaha_low``: the eight-or-better low of Omaha hi-lo, chosen with its own two plus three (the
  high and the low may use different hole cards), or ``None`` when no choice makes one.
* ``board_low``: the same eight-or-better low with any number of hole cards (a hold'em hi-lo);
  ``flop_low`` picks between the two as ``flop_high`` does.

Wild cards (ruling ``wild_rank``) may be in the hole or on the board. For high they are what the
evaluator makes of them (any card; the ``wild_in_flush`` ruling for flushes). For low a wild plays
as the lowest rank not already among the five (the joker of ace-to-five lowball: Wikipedia
"Joker (playing card)", Parlett; casinosherpa "when playing for low the joker becomes the lowest
rank card"; the bug of California lowball): with nines wild, A-2-3-9-8 is the low 8-4-3-2-A.
Pass no wild ranks for a natural low.

Each returns the chosen five so the player's picture can show "the best five with the board":
``HandValue.best`` (display order, ``wilds_as`` for what each wild stands for) and
``LowValue.cards`` (the cards that play, the wild where the rank it names plays).

>>> from bot.engine.cards.card import parse_cards
>>> hole, board = parse_cards("Ah Kc 9d 9s"), parse_cards("Qh Jh 7h 2h 9c")
>>> omaha_high(hole, board).describe(), flop_high(hole[:2], board, exact_hole=0).describe()
('Three of a kind, nines', 'Flush, ace-queen-jack-seven-two')
>>> omaha_low(parse_cards("As 2d Kc Kd"), parse_cards("3h 7c 8s Qd Js")).describe()
'Eight-seven low (8-7-3-2-A)'
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from itertools import combinations

from bot.engine.cards.card import Card, Rank, Suit, check_distinct
from bot.engine.values.ace_to_five import EIGHT_OR_BETTER, ace_to_five, ace_to_five_key
from bot.engine.values.evaluator import HandValue, evaluate, strength
from bot.engine.values.evaluator_tables import WildInFlush
from bot.engine.values.low import LowValue
from bot.engine.values.valuation import best_value

OMAHA_HOLE = 2
"""Omaha plays exactly this many hole cards..."""
OMAHA_BOARD = 3
"""...with exactly this many board cards."""

_NO_WILDS: frozenset[Rank] = frozenset()


def _wild_set(wild_ranks: Collection[Rank]) -> frozenset[Rank]:
    return wild_ranks if type(wild_ranks) is frozenset else frozenset(Rank(r) for r in wild_ranks)


def flop_high(hole: Sequence[Card], board: Sequence[Card], wild_ranks: Collection[Rank] = _NO_WILDS,
              *, exact_hole: int, wild_in_flush: WildInFlush = "any-card") -> HandValue:
    """The high hand ``hole`` makes with ``board`` (``HandValue.best`` is the five): in Omaha
    (``exact_hole``: the game's count of hole cards that must play, non-zero) exactly two of the
    hole cards with three of the board, in Hold'em the best five of them all. The one rule the
    showdown, the pictures, the private text and the computer players use. Raises ``ValueError``
    for too few cards or a card given twice."""
    if exact_hole:
        return omaha_high(hole, board, wild_ranks, wild_in_flush=wild_in_flush)
    return best_value((*hole, *board), _wild_set(wild_ranks), wild_in_flush=wild_in_flush)


def _omaha_fives(hole: Sequence[Card], board: Sequence[Card]) -> list[tuple[Card, ...]]:
    """Every five of exactly two hole cards and three board cards (60 for four and five)."""
    if len(hole) < OMAHA_HOLE or len(board) < OMAHA_BOARD:
        raise ValueError(f"an Omaha hand needs {OMAHA_HOLE} hole cards and {OMAHA_BOARD} board cards, "
                         f"got {len(hole)} and {len(board)}")
    check_distinct((*hole, *board))
    threes = list(combinations(board, OMAHA_BOARD))
    return [two + three for two in combinations(hole, OMAHA_HOLE) for three in threes]


def omaha_high(hole: Sequence[Card], board: Sequence[Card], wild_ranks: Collection[Rank] = _NO_WILDS,
               *, wild_in_flush: WildInFlush = "any-card") -> HandValue:
    """The best high hand of exactly two of ``hole`` with exactly three of ``board``.

    Of fives that tie, the one with the fewest wild cards (what the ``natural_wins_ties`` ruling
    compares), then the first dealt. Raises ``ValueError`` for fewer than two hole or three board
    cards, or a card given twice."""
    wild = _wild_set(wild_ranks)
    fives = _omaha_fives(hole, board)
    if wild:
        chosen = max(fives, key=lambda five: (strength(five, wild, wild_in_flush=wild_in_flush),
                                              -sum(c.rank in wild for c in five)))
    else:
        chosen = max(fives, key=lambda five: strength(five, wild))
    return evaluate(chosen, wild, wild_in_flush=wild_in_flush)


_STAND_IN_SUIT = Suit.CLUBS   # suits never matter in a low: a named rank gets any suit


def _named_low(five: Sequence[Card], wild: frozenset[Rank]) -> tuple[int, int, list[Card], list[Card]]:
    """``(ace-to-five key, wild cards used, the five as played, the real card of each)``: each wild
    names the lowest rank (the ace lowest) not already among the five; ``as played`` lists the
    naturals then one stand-in per wild, and ``real`` the card each of those is."""
    naturals = [c for c in five if c.rank not in wild]
    k = len(five) - len(naturals)
    if not k:
        return ace_to_five_key(five), 0, list(five), list(five)
    wilds = [c for c in five if c.rank in wild]
    present = {1 if c.rank is Rank.ACE else int(c.rank) for c in naturals}
    named = list(naturals)
    low_rank = 1
    for _ in range(k):
        while low_rank in present:
            low_rank += 1
        named.append(Card(Rank.ACE if low_rank == 1 else Rank(low_rank), _STAND_IN_SUIT))
        present.add(low_rank)
    return ace_to_five_key(named), k, named, naturals + wilds


def _low_value(named: list[Card], real: list[Card]) -> LowValue:
    """The ``LowValue`` of the five as played, its cards the real ones (a wild where the rank it
    names plays)."""
    value = ace_to_five(named)
    by_identity = {id(card): card_real for card, card_real in zip(named, real, strict=True)}
    return LowValue(value.key, value.ranks, tuple(by_identity[id(c)] for c in value.cards), value.name)


def _best_low(fives: Sequence[Sequence[Card]], wild: frozenset[Rank]) -> LowValue | None:
    best: tuple[int, int] | None = None
    chosen: tuple[list[Card], list[Card]] | None = None
    for five in fives:
        key, used, named, real = _named_low(five, wild)
        if key >= EIGHT_OR_BETTER:
            continue
        if best is None or (key, used) < best:
            best, chosen = (key, used), (named, real)
    return None if chosen is None else _low_value(*chosen)


def omaha_low(hole: Sequence[Card], board: Sequence[Card],
              wild_ranks: Collection[Rank] = _NO_WILDS) -> LowValue | None:
    """The best eight-or-better low of exactly two of ``hole`` with exactly three of ``board``
    (five different ranks from ace to eight, aces low), or ``None`` when there is none. Of equal
    lows, the one with the fewest wild cards. Errors as ``omaha_high``."""
    wild = _wild_set(wild_ranks)
    _omaha_fives(hole, board)                      # the same checks as for the high
    # Only aces to eights and wilds can be in an eight-or-better low.
    low_hole = [c for c in hole if c.rank <= Rank.EIGHT or c.rank is Rank.ACE or c.rank in wild]
    low_board = [c for c in board if c.rank <= Rank.EIGHT or c.rank is Rank.ACE or c.rank in wild]
    if len(low_hole) < OMAHA_HOLE or len(low_board) < OMAHA_BOARD:
        return None
    return _best_low(_omaha_fives(low_hole, low_board), wild)


def flop_low(hole: Sequence[Card], board: Sequence[Card], wild_ranks: Collection[Rank] = _NO_WILDS,
             *, exact_hole: int) -> LowValue | None:
    """The eight-or-better low ``hole`` makes with ``board``: Omaha hi-lo (``exact_hole``) its own
    two plus three, chosen apart from the high; else any five of them all. ``None``: no low."""
    if exact_hole:
        return omaha_low(hole, board, wild_ranks)
    return board_low(hole, board, wild_ranks)


def board_low(hole: Sequence[Card], board: Sequence[Card],
              wild_ranks: Collection[Rank] = _NO_WILDS) -> LowValue | None:
    """The best eight-or-better low of any five of ``hole`` and ``board`` together, or ``None``.

    Raises ``ValueError`` for fewer than five cards or a card given twice."""
    cards = (*hole, *board)
    if len(cards) < 5:
        raise ValueError(f"a low needs five cards, got {len(cards)}")
    check_distinct(cards)
    wild = _wild_set(wild_ranks)
    low = [c for c in cards if c.rank <= Rank.EIGHT or c.rank is Rank.ACE or c.rank in wild]
    return _best_low(list(combinations(low, 5)), wild)
