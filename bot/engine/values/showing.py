"""Showing hands: ranking 1 to 4 up cards, for the bring-in and for who acts first (SPEC §5).

Only four of a kind, three of a kind, two pair, one pair and high cards count on the board;
straights and flushes do not. Ties compare the group ranks, then the kickers, high to low.
Suits never enter a ``ShowingValue``; the tie-break rulings are the engine's business.

The ``showing_hand`` ruling (SPEC §5):

* ``"wild-aware"`` (default): every up card of a wild rank takes its best value. All wild up
  cards join the best group of naturals (the largest, highest one), so 5♠ K♦ is a pair of kings
  and 5♣ 5♦ 9♥ is three nines; up cards that are all wild count as aces.
* ``"natural"``: printed ranks only.

The bring-in (SPEC §5): the lowest door card brings in; ``door_card_key`` orders door cards so
that the smallest key brings in, and ``bring_in_index`` applies it to a street of door cards.

>>> from bot.engine.cards.card import Rank, parse_cards
>>> five = {Rank.FIVE}
>>> showing_value(parse_cards("5s Kd"), five).describe()
'pair of kings'
>>> showing_value(parse_cards("5c 5d 9h"), five).describe()
'three nines'
>>> showing_value(parse_cards("5c 5d 9h"), five, showing_hand="natural").describe()
'pair of fives'
>>> showing_value(parse_cards("Ah Kd"), five) > showing_value(parse_cards("Qs Qd"), five)
False
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Final

from bot.engine.cards.card import Card, Rank

__all__ = [
    "SHOWING_HAND_OPTIONS",
    "ShowingCategory",
    "ShowingValue",
    "bring_in_index",
    "door_card_key",
    "showing_value",
]

SHOWING_HAND_OPTIONS: Final = ("wild-aware", "natural")
"""The values of the ``showing_hand`` ruling (SPEC §5), default first."""


class ShowingCategory(enum.IntEnum):
    """What an up-card board can show, low to high (SPEC §5: no straights or flushes)."""

    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    FOUR_OF_A_KIND = 4


@dataclass(frozen=True, order=True, slots=True)
class ShowingValue:
    """The value of a player's up cards (SPEC §5). Ordered: higher is the stronger board.

    ``strength`` is the category index (bits 16-19) followed by up to four ranks, four bits
    each: the group ranks (higher group first), then the kickers high to low. Two boards with
    the same ``strength`` are equal; which of them acts first is the ``high_hand_tiebreak``
    ruling's business.

    Attributes:
        strength: int, higher is stronger; compared first.
        category: the ``ShowingCategory``.
        ranks: the played ranks in tie-break order, e.g. ``(KING, NINE)`` for kings and nines
            (no kicker listed twice; kickers after the groups).
    """

    strength: int
    category: ShowingCategory
    ranks: tuple[Rank, ...]

    def describe(self) -> str:
        """A phrase for players: ``"four queens"``, ``"three nines"``, ``"two pair, kings and
        nines"``, ``"pair of kings"``, ``"ace-high"``."""
        top = self.ranks[0]
        if self.category is ShowingCategory.FOUR_OF_A_KIND:
            return f"four {top.plural}"
        if self.category is ShowingCategory.THREE_OF_A_KIND:
            return f"three {top.plural}"
        if self.category is ShowingCategory.TWO_PAIR:
            return f"two pair, {top.plural} and {self.ranks[1].plural}"
        if self.category is ShowingCategory.ONE_PAIR:
            return f"pair of {top.plural}"
        return f"{top.noun}-high"

    def __str__(self) -> str:
        return self.describe()


def _check_ruling(showing_hand: str) -> None:
    if showing_hand not in SHOWING_HAND_OPTIONS:
        raise ValueError(
            f"unknown showing_hand ruling {showing_hand!r}: use {' or '.join(SHOWING_HAND_OPTIONS)}"
        )


def _wild_set(wild_ranks: Collection[Rank]) -> frozenset[Rank]:
    out: set[Rank] = set()
    for r in wild_ranks:
        if isinstance(r, str):
            out.add(Rank.parse(r))
        elif isinstance(r, int) and not isinstance(r, bool) and 2 <= r <= 14:
            out.add(Rank(r))
        else:
            raise ValueError(f"unknown wild rank {r!r}: use 2-9, T (or 10), J, Q, K or A")
    return frozenset(out)


def showing_value(
    up_cards: Sequence[Card], wild_ranks: Collection[Rank], *, showing_hand: str = "wild-aware"
) -> ShowingValue:
    """Rank 1 to 4 up cards (SPEC §5) under the ``showing_hand`` ruling.

    Under ``"wild-aware"`` every wild up card copies the rank of the best natural group (the
    largest group, the highest rank among equals), or is an ace when every up card is wild;
    that is the strongest board the cards can make, since a bigger group always outranks two
    smaller ones here. Under ``"natural"`` the printed ranks are used as they are.

    Raises ``ValueError`` for no up cards or more than 4, a card given twice, an unknown wild
    rank or an unknown ruling.

    >>> from bot.engine.cards.card import parse_cards
    >>> showing_value(parse_cards("9c 9d 5h Kd"), {Rank.FIVE}).describe()
    'three nines'
    >>> showing_value(parse_cards("5h 5d"), {Rank.FIVE}).describe()
    'pair of aces'
    """
    _check_ruling(showing_hand)
    cards = list(up_cards)
    if not 1 <= len(cards) <= 4:
        raise ValueError(f"a showing hand is 1 to 4 up cards, got {len(cards)}")
    if len(set(cards)) != len(cards):
        dup = next(c for c in cards if cards.count(c) > 1)
        raise ValueError(f"{dup.code} appears twice: each card exists once in the deck")
    wild = _wild_set(wild_ranks) if showing_hand == "wild-aware" else frozenset()
    counts: dict[Rank, int] = {}
    wilds = 0
    for card in cards:
        if card.rank in wild:
            wilds += 1
        else:
            counts[card.rank] = counts.get(card.rank, 0) + 1
    if wilds:
        target = max(counts, key=lambda r: (counts[r], r)) if counts else Rank.ACE
        counts[target] = counts.get(target, 0) + wilds
    return _value_of_counts(counts)


def _value_of_counts(counts: dict[Rank, int]) -> ShowingValue:
    """The ShowingValue of a rank -> count board (1 to 4 cards in all)."""
    groups = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    sizes = [size for _, size in groups]
    ranks = tuple(rank for rank, _ in groups)
    if sizes[0] >= 4:
        category = ShowingCategory.FOUR_OF_A_KIND
    elif sizes[0] == 3:
        category = ShowingCategory.THREE_OF_A_KIND
    elif sizes[0] == 2 and len(sizes) > 1 and sizes[1] == 2:
        category = ShowingCategory.TWO_PAIR
    elif sizes[0] == 2:
        category = ShowingCategory.ONE_PAIR
    else:
        category = ShowingCategory.HIGH_CARD
    value = int(category) << 16
    shift = 12
    for rank in ranks:
        value |= int(rank) << shift
        shift -= 4
    return ShowingValue(value, category, ranks)


def door_card_key(
    card: Card, wild_ranks: Collection[Rank], *, showing_hand: str = "wild-aware"
) -> tuple[int, int, int]:
    """Sort key for the bring-in (SPEC §5): the door card with the LOWEST key brings in.

    The key is ``(wild, rank, suit)`` with ints: ``wild`` is 1 for a door card of a wild rank
    under ``"wild-aware"`` (it ranks above every natural card, so it brings in only when every
    door card is wild) and 0 otherwise, including every card under ``"natural"``; then the
    printed rank (ace high: 14) and the suit (clubs 0 < diamonds < hearts < spades 3), which
    breaks ties between equal ranks.

    >>> from bot.engine.cards.card import Card
    >>> door_card_key(Card.parse("5h"), {Rank.FIVE}), door_card_key(Card.parse("2c"), {Rank.FIVE})
    ((1, 5, 2), (0, 2, 0))
    >>> door_card_key(Card.parse("5h"), {Rank.FIVE}, showing_hand="natural")
    (0, 5, 2)
    """
    _check_ruling(showing_hand)
    wild = showing_hand == "wild-aware" and card.rank in _wild_set(wild_ranks)
    return (1 if wild else 0, int(card.rank), int(card.suit))


def bring_in_index(
    door_cards: Sequence[Card], wild_ranks: Collection[Rank], *, showing_hand: str = "wild-aware"
) -> int:
    """The position in ``door_cards`` of the card that brings in (lowest ``door_card_key``).

    Raises ``ValueError`` for an empty sequence or a card given twice.

    >>> from bot.engine.cards.card import parse_cards
    >>> bring_in_index(parse_cards("5c 2d 2c Ah"), {Rank.FIVE})
    2
    >>> bring_in_index(parse_cards("5c 2d 2c Ah"), {Rank.FIVE, Rank.TWO})
    3
    """
    cards = list(door_cards)
    if not cards:
        raise ValueError("no door cards: the bring-in needs at least one player")
    if len(set(cards)) != len(cards):
        dup = next(c for c in cards if cards.count(c) > 1)
        raise ValueError(f"{dup.code} appears twice: each card exists once in the deck")
    keys = [door_card_key(c, wild_ranks, showing_hand=showing_hand) for c in cards]
    return min(range(len(cards)), key=keys.__getitem__)
