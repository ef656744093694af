"""The evaluator's tables and the rules that generate them (SPEC §4; wild-eval.md §3.1).

The strength encoding (``Category``, ``_encode``/``_decode``), the two functions that define the
tables (``_nonflush_value`` and ``_flush_value``, which are the specification; tests compare them
with a brute-force reference), and the tables themselves: the flush tables made in one go per
``wild_in_flush`` ruling on first use, the non-flush table one entry at a time
(``build_tables()`` fills both up front). The lookup that reads them is ``bot.engine.values.evaluator``.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Any, Final

from bot.engine.cards.card import Rank

WILD_IN_FLUSH_OPTIONS: Final = ("any-card", "highest-missing")
"""The values of the ``wild_in_flush`` ruling (SPEC §4), default first."""


class Category(enum.Enum):
    """A hand category (SPEC §4). The values are the names used in files and JSON."""

    FIVE_OF_A_KIND = "five_of_a_kind"
    ROYAL_FLUSH = "royal_flush"
    STRAIGHT_FLUSH = "straight_flush"
    FOUR_OF_A_KIND = "four_of_a_kind"
    FULL_HOUSE = "full_house"
    FLUSH = "flush"
    STRAIGHT = "straight"
    THREE_OF_A_KIND = "three_of_a_kind"
    TWO_PAIR = "two_pair"
    ONE_PAIR = "one_pair"
    HIGH_CARD = "high_card"

    @property
    def title(self) -> str:
        """The player-facing name, e.g. ``"Full house"``."""
        return self.value.replace("_", " ").capitalize()


# ---------------------------------------------------------------------------------------------
# Strength encoding: category index in bits 20-23, then up to five tie-break ranks (2..14), four
# bits each, most significant first. Royal flush is the straight flush with top card ace: it is
# ordered as a straight flush and only named separately (SPEC §4).
# ---------------------------------------------------------------------------------------------

_HIGH_CARD, _ONE_PAIR, _TWO_PAIR, _TRIPS, _STRAIGHT, _FLUSH, _FULL_HOUSE, _QUADS, _STRAIGHT_FLUSH, _QUINTS = (
    range(10)
)
_CATEGORY_BY_INDEX: Final = (
    Category.HIGH_CARD,
    Category.ONE_PAIR,
    Category.TWO_PAIR,
    Category.THREE_OF_A_KIND,
    Category.STRAIGHT,
    Category.FLUSH,
    Category.FULL_HOUSE,
    Category.FOUR_OF_A_KIND,
    Category.STRAIGHT_FLUSH,
    Category.FIVE_OF_A_KIND,
)
_ACE: Final = 14
_DESC: Final = tuple(range(14, 1, -1))  # rank values, ace first


def _encode(category: int, *ranks: int) -> int:
    """Pack a category index and its tie-break ranks (most important first) into one int."""
    value = category << 20
    shift = 16
    for rank in ranks:
        value |= rank << shift
        shift -= 4
    return value


def _decode(value: int) -> tuple[int, list[int]]:
    """Unpack ``_encode``: the category index and the non-zero tie-break ranks."""
    ranks = [(value >> shift) & 15 for shift in (16, 12, 8, 4, 0)]
    return value >> 20, [r for r in ranks if r]


def _straight_window(top: int) -> tuple[int, ...]:
    """The five ranks of the straight with this top card, top first (the wheel's ace is 14)."""
    return tuple(r if r > 1 else _ACE for r in range(top, top - 5, -1))


_WINDOWS: Final = tuple(
    (top, sum(1 << (r - 2) for r in _straight_window(top))) for top in range(14, 4, -1)
)  # (top card, rank mask of the five ranks), highest first


# ---------------------------------------------------------------------------------------------
# The generator: the rules, category by category from the top (wild-eval.md §3.1 method 3).
# These two functions define the tables; tests compare them with a brute-force reference.
# ---------------------------------------------------------------------------------------------


def _nonflush_value(counts: Sequence[int], wilds: int) -> int:
    """Best hand ignoring flushes from natural rank ``counts`` (index = rank value) and ``wilds``.

    Needs at least five cards in all. A wild here is just a rank: for every category the best
    instance is found by counting the wilds it needs, highest category first, and taking the
    highest tie-break ranks the spare wilds allow (a spare wild is an ace as a kicker).
    """
    c = counts
    k = wilds
    held = [r for r in _DESC if c[r]]  # natural ranks held, highest first

    def group(size: int) -> int:
        # The highest rank that makes a group of ``size`` with the wilds (ace if the wilds
        # alone suffice), or 0.
        if k >= size:
            return _ACE
        for r in held:
            if c[r] + k >= size:
                return r
        return 0

    def kickers(used: tuple[int, ...], spare_wilds: int, how_many: int) -> list[int]:
        # The best kicker ranks: spare wilds as aces, then the naturals not in ``used``.
        pool = [_ACE] * spare_wilds
        for r in held:
            if r not in used:
                pool += [r] * c[r]
        return pool[:how_many]

    # Five of a kind: the highest rank with count + wilds >= 5 (five wilds or more: aces).
    quint = group(5)
    if quint:
        return _encode(_QUINTS, quint)
    # Four of a kind: the highest quad rank, then a kicker (a spare wild is an ace: the quads
    # are not aces, or that would have been five aces).
    quad = group(4)
    if quad:
        spare = k - max(0, 4 - c[quad])
        return _encode(_QUADS, quad, *kickers((quad,), spare, 1))
    # Full house: the highest trips that still leave wilds for some pair, then the highest pair.
    for t in _DESC:
        if c[t] + k < 3:
            continue
        rest = k - max(0, 3 - c[t])
        for p in _DESC:
            if p != t and c[p] + rest >= 2:
                return _encode(_FULL_HOUSE, t, p)
    # Straight: the highest window whose gaps the wilds can fill (9-T-J-Q + wild is king-high).
    present = sum(1 << (r - 2) for r in held)
    for top, window in _WINDOWS:
        if (window & ~present).bit_count() <= k:
            return _encode(_STRAIGHT, top)
    # Three of a kind, two pair, one pair, high card: wilds join the highest group, spare wilds
    # are ace kickers. (By now at most one wild is left over and it made a pair or trips.)
    trips = group(3)
    if trips:
        return _encode(_TRIPS, trips, *kickers((trips,), k - max(0, 3 - c[trips]), 2))
    pairs = [r for r in held if c[r] >= 2]
    if k == 0 and len(pairs) >= 2:
        high, low = pairs[0], pairs[1]
        return _encode(_TWO_PAIR, high, low, *kickers((high, low), 0, 1))
    pair = group(2)
    if pair:
        return _encode(_ONE_PAIR, pair, *kickers((pair,), k - max(0, 2 - c[pair]), 3))
    return _encode(_HIGH_CARD, *kickers((), k, 5))


def _flush_value(mask: int, wilds: int, wild_in_flush: str) -> int:
    """Best straight flush or flush from one suit's natural ranks (``mask``: bit ``r - 2`` for
    rank ``r``) plus ``wilds``, or 0 when there are fewer than five cards for that suit.

    A straight flush needs five distinct ranks, so the ruling does not matter for it. In a plain
    flush each wild is an ace under ``"any-card"``; under ``"highest-missing"`` it takes the
    highest rank the suit is missing.
    """
    present = [r for r in _DESC if mask >> (r - 2) & 1]
    if len(present) + wilds < 5:
        return 0
    for top, window in _WINDOWS:
        if (window & ~mask).bit_count() <= wilds:
            return _encode(_STRAIGHT_FLUSH, top)
    if wild_in_flush == "any-card":
        ranks = ([_ACE] * wilds + present)[:5]
    else:
        ranks = []
        left = wilds
        for r in _DESC:
            if r in present:
                ranks.append(r)
            elif left:
                ranks.append(r)
                left -= 1
            if len(ranks) == 5:
                break
    return _encode(_FLUSH, *ranks)


# ---------------------------------------------------------------------------------------------
# Tables and the hot path.
# ---------------------------------------------------------------------------------------------

_BIT: Final = tuple(1 << (r - 2) if r >= 2 else 0 for r in range(15))  # rank value -> rank bit
_P5: Final = tuple(5 ** (r - 2) if r >= 2 else 0 for r in range(15))  # rank value -> base-5 digit
_K_OFFSET: Final = tuple(k * 5**13 for k in range(8))  # wild count -> key offset
_RANK_BIT: Final[dict[Any, int]] = {r: _BIT[r] for r in Rank}  # Rank (or int 2..14) -> rank bit

# A hand as a 52-bit card mask: card (rank r, suit s) is bit 13 * s + r - 2, so each suit's
# 13-bit rank mask sits in its own band and a rank mask times _EVERY_SUIT covers all four suits.
_CARD_BIT: Final = tuple(tuple(1 << (13 * s + r - 2) for s in range(4)) if r >= 2 else () for r in range(15))
_SUIT_MASK: Final = 0x1FFF
_EVERY_SUIT: Final = 1 | 1 << 13 | 1 << 26 | 1 << 39
_ALL_CARDS: Final = (1 << 52) - 1
# Base-5 key of a rank mask (one suit's naturals): the sum of the four suits' keys is the key
# of the naturals' rank multiset.
_MASK_KEY: Final = tuple(sum(_P5[r] for r in range(2, 15) if mask >> (r - 2) & 1) for mask in range(1 << 13))

_NONFLUSH: dict[int, int] = {}
"""Key ``sum(5 ** (rank - 2) for each natural) + k * 5 ** 13`` -> best non-flush strength."""

_FLUSH_TABLES: dict[str, list[list[int]]] = {}
"""``wild_in_flush`` -> table[k][suit mask] -> best flush-type strength, or 0."""


def _fill_nonflush(key: int) -> int:
    """Compute, store and return the ``_NONFLUSH`` entry for ``key`` (first time it is met)."""
    k, rest = divmod(key, 5**13)
    counts = [0] * 15
    for r in range(2, 15):
        rest, counts[r] = divmod(rest, 5)
    value = _nonflush_value(counts, k)
    _NONFLUSH[key] = value
    return value


def _flush_table(wild_in_flush: str) -> list[list[int]]:
    """The flush table for one ruling, generated on first use."""
    table = _FLUSH_TABLES.get(wild_in_flush)
    if table is None:
        if wild_in_flush not in WILD_IN_FLUSH_OPTIONS:
            raise ValueError(
                f"unknown wild_in_flush ruling {wild_in_flush!r}: use {' or '.join(WILD_IN_FLUSH_OPTIONS)}"
            )
        table = [[0] * (1 << 13) for _ in range(8)]
        for mask in range(1 << 13):
            naturals = mask.bit_count()
            # Only 5 to 7 cards in all can be asked for; other entries stay 0 (no flush).
            for k in range(max(0, 5 - naturals), 8 - naturals):
                table[k][mask] = _flush_value(mask, k, wild_in_flush)
        _FLUSH_TABLES[wild_in_flush] = table
    return table


def build_tables() -> int:
    """Fill every table up front (both rulings, every rank pattern of 5 to 7 cards).

    Not needed for correctness -- entries are made on first use -- but it makes the first
    evaluations as fast as later ones. Returns the number of non-flush entries.
    """
    for option in WILD_IN_FLUSH_OPTIONS:
        _flush_table(option)

    counts = [0] * 15

    def fill(rank: int, left: int, key: int) -> None:
        # Every rank multiset of at most 7 naturals (each rank 0-4 times), by depth-first search
        # over ranks 2..14 with ``counts`` holding the current one.
        if rank > 14:
            naturals = 7 - left
            for k in range(max(0, 5 - naturals), 8 - naturals):
                entry = key + _K_OFFSET[k]
                if entry not in _NONFLUSH:
                    _NONFLUSH[entry] = _nonflush_value(counts, k)
            return
        for count in range(min(4, left) + 1):
            counts[rank] = count
            fill(rank + 1, left - count, key + count * _P5[rank])
        counts[rank] = 0

    fill(2, 7, 0)
    return len(_NONFLUSH)
