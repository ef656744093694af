"""A slow, obviously correct reference for the wild-card evaluator (tests only).

It shares no code with ``bot.engine.values.evaluator``: it tries every five-card subset of the hand
and, for the wild cards in it, every multiset of ranks they could name, in the suit of the
other cards (a flush) or not. Each resulting five natural ranks are scored by a plain
five-card poker scorer. Rules (SPEC §4): five of a kind on top; a straight needs five distinct
consecutive ranks, ace high or low (A-2-3-4-5 is five-high), no wrap-around; under
``any-card`` a wild may copy a card already held (so flushes may repeat ranks: the double-ace
flush); under ``highest-missing`` the ranks of a flush must all differ (a wild in a flush names
a rank missing from that suit; the best choice is then the highest missing one).

A result is ``(category, ranks)``: ``category`` is one of the names in ``CATEGORY_ORDER``, ranks
are ints 2..14 in tie-break order. ``score_key`` turns it into something ``max`` can compare.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from functools import cache
from itertools import combinations, combinations_with_replacement

from bot.engine.cards.card import Card, Rank

CATEGORY_ORDER = (
    "high_card",
    "one_pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
    "five_of_a_kind",
)
"""Low to high. A royal flush is the straight flush with top card 14 (see ``category_name``)."""

ALL_RANKS = tuple(range(2, 15))

Score = tuple[str, tuple[int, ...]]


def score_key(score: Score) -> tuple[int, tuple[int, ...]]:
    """Comparable form of a score: category position, then the ranks."""
    return CATEGORY_ORDER.index(score[0]), score[1]


def category_name(score: Score) -> str:
    """The category's name with the royal flush named separately."""
    if score[0] == "straight_flush" and score[1] == (14,):
        return "royal_flush"
    return score[0]


def straight_top(ranks: Sequence[int]) -> int | None:
    """Top card of the straight these five ranks make, or None (A-2-3-4-5 tops at 5)."""
    distinct = sorted(set(ranks))
    if len(distinct) != 5:
        return None
    if distinct[4] - distinct[0] == 4:
        return distinct[4]
    if distinct == [2, 3, 4, 5, 14]:
        return 5
    return None


def score_five(ranks: Sequence[int], suited: bool) -> Score:
    """Score five named cards given by their ranks; ``suited`` when all five share a suit."""
    counts = Counter(ranks)
    # Groups by size, then rank, largest first: e.g. K K K T T -> [(3, 13), (2, 10)].
    groups = sorted(((n, r) for r, n in counts.items()), reverse=True)
    by_group = tuple(r for _, r in groups)
    sizes = [n for n, _ in groups]
    top = straight_top(ranks)
    if sizes[0] == 5:
        return ("five_of_a_kind", (groups[0][1],))
    if suited and top is not None:
        return ("straight_flush", (top,))
    if sizes[0] == 4:
        return ("four_of_a_kind", by_group)
    if sizes == [3, 2]:
        return ("full_house", by_group)
    if suited:
        return ("flush", tuple(sorted(ranks, reverse=True)))
    if top is not None:
        return ("straight", (top,))
    if sizes[0] == 3:
        return ("three_of_a_kind", by_group)
    if sizes[:2] == [2, 2]:
        return ("two_pair", by_group)
    if sizes[0] == 2:
        return ("one_pair", by_group)
    return ("high_card", tuple(sorted(ranks, reverse=True)))


@cache
def best_with_wilds(
    natural_ranks: tuple[int, ...], can_be_suited: bool, wilds: int, wild_in_flush: str
) -> Score:
    """Best score of five cards: the naturals (sorted ranks) plus ``wilds`` wild cards.

    ``can_be_suited``: the naturals all share one suit (or there are none), so the wilds may
    join that suit and make a flush.
    """
    best: Score | None = None
    for named in combinations_with_replacement(ALL_RANKS, wilds):
        ranks = natural_ranks + named
        options = [score_five(ranks, suited=False)]
        if can_be_suited and (wild_in_flush == "any-card" or len(set(ranks)) == 5):
            options.append(score_five(ranks, suited=True))
        for option in options:
            if best is None or score_key(option) > score_key(best):
                best = option
    assert best is not None
    return best


def reference_evaluate(
    cards: Sequence[Card], wild_ranks: Collection[Rank], wild_in_flush: str = "any-card"
) -> tuple[Score, int]:
    """Best score of 5 to 7 cards and the fewest wild cards any best five uses."""
    wild = {int(r) for r in wild_ranks}
    best: Score | None = None
    fewest = 99
    for five in combinations(cards, 5):
        naturals = [c for c in five if int(c.rank) not in wild]
        wilds = 5 - len(naturals)
        suited = len({c.suit for c in naturals}) <= 1
        score = best_with_wilds(tuple(sorted(int(c.rank) for c in naturals)), suited, wilds, wild_in_flush)
        if best is None or score_key(score) > score_key(best):
            best, fewest = score, wilds
        elif score == best:
            fewest = min(fewest, wilds)
    assert best is not None
    return best, fewest


def score_named(named: Sequence[Card]) -> Score:
    """Score five cards taken at face value (a wild already replaced by the card it names);
    repeated cards are allowed, as ``any-card`` lets a wild copy one."""
    return score_five([int(c.rank) for c in named], suited=len({c.suit for c in named}) == 1)
