"""The wild-card hand evaluator: the best five-card high hand from 5 to 7 cards (SPEC §4).

A wild card stands for any rank and any suit the player names, chosen to make the best hand
(cards speak). Categories, high to low: five of a kind > straight flush (the ace-high one is
named royal flush) > four of a kind > full house > flush > straight > three of a kind > two pair >
one pair > high card. The ace plays high or low in straights (A-2-3-4-5 is five-high, the
lowest); a wild completes the highest straight it can; five or more wilds make five aces; there
is no six of a kind. Ties compare the ranks SPEC §4 lists; suits never decide a pot.

The ``wild_in_flush`` ruling (SPEC §4) picks what a wild is in a flush: ``"any-card"`` (default,
every wild plays as an ace, the "double-ace flush") or ``"highest-missing"`` (each wild takes the
highest rank missing from that suit). It only changes flushes; five of a kind is always allowed.

The caller gives the wild ranks (the game's fives included); the evaluator adds none.

>>> from bot.engine.cards.card import Rank, parse_cards
>>> hand = evaluate(parse_cards("Ah Kd 5c 2s 9h 9d Tc"), {Rank.FIVE, Rank.TWO})
>>> hand.describe()
'Four of a kind, nines'
>>> [c.code for c in hand.best], {w.code: c.code for w, c in hand.wilds_as.items()}
(['9h', '9d', '5c', '2s', 'Ah'], {'5c': '9s', '2s': '9c'})
>>> hand.category, hand.wilds_used
(<Category.FOUR_OF_A_KIND: 'four_of_a_kind'>, 2)

How it is fast (research note wild-eval.md §3.1, method 4): a five-card hand is either all one
suit -- then it uses only that suit's natural cards plus wilds -- or it is not, and then only
ranks matter. So::

    best = max(NONFLUSH[rank multiset of the naturals, k],
               max over suits s of FLUSH[rank mask of the naturals in s, k])

where ``k`` is the number of wild cards. Neither table depends on *which* ranks are wild, so they
stay valid while the wild set grows during a hand. Both are generated from the rules in
``bot.engine.values.evaluator_tables`` (``_nonflush_value`` and ``_flush_value``, which are the
specification): the flush tables in one go the first time a ruling is used (a few tens of
milliseconds), the non-flush table one entry at a time as rank patterns are first met
(``build_tables()`` fills it all up front).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import FrozenInstanceError
from types import MappingProxyType
from typing import Any, Final

from bot.engine.cards.card import Card, Rank, Suit
from bot.engine.values.evaluator_tables import (
    _ACE,
    _ALL_CARDS,
    _BIT,
    _CARD_BIT,
    _CATEGORY_BY_INDEX,
    _EVERY_SUIT,
    _FLUSH,
    _FLUSH_TABLES,
    _FULL_HOUSE,
    _K_OFFSET,
    _MASK_KEY,
    _NONFLUSH,
    _ONE_PAIR,
    _QUADS,
    _QUINTS,
    _RANK_BIT,
    _STRAIGHT,
    _STRAIGHT_FLUSH,
    _SUIT_MASK,
    _TRIPS,
    _TWO_PAIR,
    WILD_IN_FLUSH_OPTIONS,
    Category,
    _decode,
    _fill_nonflush,
    _flush_table,
    _straight_window,
    build_tables,
)

__all__ = [
    "WILD_IN_FLUSH_OPTIONS",
    "Category",
    "HandValue",
    "build_tables",
    "category_of",
    "evaluate",
    "strength",
]

def category_of(value: int) -> Category:
    """The category of a strength returned by ``strength`` (or ``HandValue.strength``).

    >>> from bot.engine.cards.card import parse_cards
    >>> category_of(strength(parse_cards("Ts Js Qs Ks 5d"), [Rank.FIVE]))
    <Category.ROYAL_FLUSH: 'royal_flush'>
    """
    index = value >> 20
    if not 0 <= index < len(_CATEGORY_BY_INDEX) or value < 0:
        raise ValueError(f"{value} is not a hand strength")
    if index == _STRAIGHT_FLUSH and (value >> 16) & 15 == _ACE:
        return Category.ROYAL_FLUSH
    return _CATEGORY_BY_INDEX[index]


def _wild_mask(wild_ranks: Collection[Rank]) -> int:
    """Rank mask (bit ``r - 2``) of the wild ranks; accepts ``Rank``, ints 2..14 and rank codes.

    Raises ``ValueError`` naming an unknown rank.
    """
    mask = 0
    for r in wild_ranks:
        if isinstance(r, str):
            mask |= _BIT[Rank.parse(r)]
        elif isinstance(r, int) and not isinstance(r, bool) and 2 <= r <= 14:
            mask |= _BIT[r]
        else:
            raise ValueError(f"unknown wild rank {r!r}: use 2-9, T (or 10), J, Q, K or A")
    return mask


_NATURALS_CACHE: dict[Any, int] = {}


def _natural_cards(wild_ranks: Collection[Rank]) -> int:
    """The 52-bit mask of every card whose rank is not wild. Cached for frozensets, so passing
    a frozenset is the fast way to call ``strength`` (a set or list costs a short loop)."""
    frozen = type(wild_ranks) is frozenset
    if frozen:
        cached = _NATURALS_CACHE.get(wild_ranks)
        if cached is not None:
            return cached
    mask = 0
    try:
        for r in wild_ranks:
            mask |= _RANK_BIT[r]
    except (KeyError, TypeError):  # not a Rank: a code such as "5", or a bad value
        mask = _wild_mask(wild_ranks)
    keep = _ALL_CARDS & ~(mask * _EVERY_SUIT)
    if frozen:
        if len(_NATURALS_CACHE) > 4096:
            _NATURALS_CACHE.clear()
        _NATURALS_CACHE[wild_ranks] = keep
    return keep


def _check_count(n: int) -> None:
    if n < 5 or n > 7:
        raise ValueError(f"a hand is 5 to 7 cards, got {n}: give between five and seven cards")


def _duplicate(cards: Sequence[Card]) -> ValueError:
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            return ValueError(f"{card.code} appears twice: each card exists once in the deck")
        seen.add(card)
    return ValueError("a card appears twice: each card exists once in the deck")


def _as_cards(cards: Sequence[Any]) -> list[Card]:
    """Slow path for inputs that are not ``Card`` values: card codes are parsed, a ``Card``
    with an impossible rank or suit is a ``ValueError``, anything else a ``TypeError``."""
    out: list[Card] = []
    for card in cards:
        if isinstance(card, str):
            card = Card.parse(card)
        elif not isinstance(card, Card):
            raise TypeError(f"expected Card values (or codes like 'Ah'), got {card!r}")
        elif not (isinstance(card.rank, int) and 2 <= card.rank <= 14 and isinstance(card.suit, int)
                  and 0 <= card.suit <= 3):
            # Not repr(card): printing a Card with an impossible rank or suit fails too.
            raise ValueError(f"Card(rank={card.rank!r}, suit={card.suit!r}) is not a playing card")
        out.append(card)
    return out


def strength(cards: Sequence[Card], wild_ranks: Collection[Rank], *, wild_in_flush: str = "any-card") -> int:
    """The strength of the best five-card hand of 5 to 7 ``cards``: an int, higher wins, equal
    splits (SPEC §4). Same rules and errors as ``evaluate``, without building a ``HandValue``.

    The int is the category's index (0 high card .. 9 five of a kind) times 2**20 plus the
    tie-break ranks of SPEC §4 (2..14), four bits each, most important first; ``category_of``
    reads the category back. Compare strengths only with strengths.

    The fast path: pass the wild ranks as a ``frozenset`` (its mask is cached) and the cards as
    a tuple or list of ``Card``. Card codes such as ``"Ah"`` are accepted too, slowly.

    Raises ``ValueError`` for fewer than 5 or more than 7 cards, a card given twice, an unknown
    wild rank or an unknown ``wild_in_flush`` value.

    >>> from bot.engine.cards.card import parse_cards
    >>> five = frozenset({Rank.FIVE})
    >>> strength(parse_cards("9h Th Jh Qh 5c 2d 3s"), five) > strength(parse_cards("As Ad Ah Ac Kd"), five)
    True
    """
    try:
        table = _FLUSH_TABLES[wild_in_flush]
    except KeyError:
        table = _flush_table(wild_in_flush)
    if type(wild_ranks) is frozenset:
        try:
            keep = _NATURALS_CACHE[wild_ranks]
        except KeyError:
            keep = _natural_cards(wild_ranks)
    else:
        keep = _natural_cards(wild_ranks)
    n = len(cards)
    bit = _CARD_BIT
    try:
        if n == 7:
            c0, c1, c2, c3, c4, c5, c6 = cards
            hand = (
                bit[c0.rank][c0.suit] | bit[c1.rank][c1.suit] | bit[c2.rank][c2.suit] | bit[c3.rank][c3.suit]
                | bit[c4.rank][c4.suit] | bit[c5.rank][c5.suit] | bit[c6.rank][c6.suit]
            )
        else:
            if n < 5 or n > 7:
                _check_count(n)
            hand = 0
            for c in cards:
                hand |= bit[c.rank][c.suit]
    except (AttributeError, IndexError, TypeError):
        return strength(_as_cards(cards), wild_ranks, wild_in_flush=wild_in_flush)
    if hand.bit_count() != n:
        raise _duplicate(cards)
    naturals = hand & keep
    k = n - naturals.bit_count()
    m0 = naturals & _SUIT_MASK
    m1 = naturals >> 13 & _SUIT_MASK
    m2 = naturals >> 26 & _SUIT_MASK
    m3 = naturals >> 39
    mask_key = _MASK_KEY
    key = mask_key[m0] + mask_key[m1] + mask_key[m2] + mask_key[m3] + _K_OFFSET[k]
    try:
        value = _NONFLUSH[key]
    except KeyError:
        value = _fill_nonflush(key)
    flush = table[k]  # 0 for a suit that cannot make five cards
    best = flush[m0]
    if best > value:
        value = best
    best = flush[m1]
    if best > value:
        value = best
    best = flush[m2]
    if best > value:
        value = best
    best = flush[m3]
    if best > value:
        value = best
    return value


# ---------------------------------------------------------------------------------------------
# HandValue: the strength plus, on demand, the five cards and what each wild stood for.
# ---------------------------------------------------------------------------------------------

_SUITS_DESC: Final = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


def _slots(category: int, ranks: list[int]) -> list[int]:
    """The five ranks a hand of this category and tie-break ranks plays, in display order."""
    if category == _QUINTS:
        return ranks * 5
    if category in (_STRAIGHT, _STRAIGHT_FLUSH):
        return list(_straight_window(ranks[0]))
    if category == _QUADS:
        return [ranks[0]] * 4 + ranks[1:]
    if category == _FULL_HOUSE:
        return [ranks[0]] * 3 + [ranks[1]] * 2
    if category == _TRIPS:
        return [ranks[0]] * 3 + ranks[1:]
    if category == _TWO_PAIR:
        return [ranks[0]] * 2 + [ranks[1]] * 2 + ranks[2:]
    if category == _ONE_PAIR:
        return [ranks[0]] * 2 + ranks[1:]
    return list(ranks)  # flush, high card


def stand_in(rank: Rank | int, taken: Collection[Card], wild: Card | None = None) -> Card:
    """The card a wild names to play as ``rank``: the wild itself if it is of that rank, else the
    first suit (spades, hearts, diamonds, clubs) whose card is not in ``taken`` (cards already
    held, shown or named); only when all four are taken does it repeat one (five of a kind, or
    every card of the rank already in play).

    >>> from bot.engine.cards.card import parse_cards
    >>> stand_in(Rank.JACK, parse_cards("Js Jh")).code
    'Jd'
    """
    if wild is not None and wild.rank == rank:
        return wild
    options = [Card(Rank(rank), s) for s in _SUITS_DESC]
    return next((o for o in options if o not in taken), options[0])


def _explain(
    cards: Sequence[Card], wild_mask: int, value: int, in_play: Collection[Card] = ()
) -> tuple[tuple[Card, ...], dict[Card, Card], int]:
    """Rebuild a best five for ``value``: (five cards in display order, wild -> card it stands for,
    number of wild cards used). Uses as many natural cards as possible, so the wild count is the
    fewest any hand of this value needs (what the ``natural_wins_ties`` ruling compares). A wild
    outside a flush names a card neither in ``cards`` nor in ``in_play`` where one is left."""
    category, ranks = _decode(value)
    slots = _slots(category, ranks)
    naturals = sorted((c for c in cards if not wild_mask & _BIT[c.rank]), reverse=True)
    wilds = sorted((c for c in cards if wild_mask & _BIT[c.rank]), reverse=True)

    def fill(pool: list[Card]) -> list[Card | None]:
        # Cover each slot with an unused natural of that rank from ``pool``, if there is one.
        left = list(pool)
        chosen: list[Card | None] = []
        for rank in slots:
            match = next((c for c in left if c.rank == rank), None)
            if match is not None:
                left.remove(match)
            chosen.append(match)
        return chosen

    suit: Suit | None = None
    if category in (_FLUSH, _STRAIGHT_FLUSH):
        best_fill: list[Card | None] | None = None
        for s in _SUITS_DESC:
            filled = fill([c for c in naturals if c.suit == s])
            covered = sum(x is not None for x in filled)
            if best_fill is None or covered > sum(x is not None for x in best_fill):
                best_fill, suit = filled, s
        assert best_fill is not None
        chosen = best_fill
    else:
        chosen = fill(naturals)
    need = sum(1 for x in chosen if x is None)
    if need > len(wilds):
        raise AssertionError(f"cannot rebuild strength {value} from {[c.code for c in cards]}")
    best: list[Card] = []
    wilds_as: dict[Card, Card] = {}
    # Every card held (wilds too: each shows as itself in the player's cards) or in play elsewhere.
    named: set[Card] = set(cards) | set(in_play)
    # Which wild covers which open slot: a wild of the slot's own rank plays there as itself (it
    # names no other card), the others in order.
    open_slots = [i for i, card in enumerate(chosen) if card is None]
    unused = list(wilds)
    assigned: dict[int, Card] = {}
    for i in open_slots:
        own = next((w for w in unused if w.rank == slots[i] and suit in (None, w.suit)), None)
        if own is not None:
            assigned[i] = own
            unused.remove(own)
    for i in open_slots:
        if i not in assigned:
            assigned[i] = unused.pop(0)
    for i, (rank, card) in enumerate(zip(slots, chosen, strict=True)):
        if card is not None:
            best.append(card)
            continue
        wild = assigned[i]
        if suit is not None:
            stands = Card(Rank(rank), suit)     # a flush fixes the card (an A-A flush repeats one)
        else:
            stands = stand_in(rank, named - {wild}, wild)
        named.add(stands)
        best.append(wild)
        wilds_as[wild] = stands
    return tuple(best), wilds_as, need


_PLURAL: Final = {r.value: r.plural for r in Rank}
_NOUN: Final = {r.value: r.noun for r in Rank}


def _describe(value: int, kickers: bool = False) -> str:
    category, ranks = _decode(value)
    top = ranks[0]
    if category == _QUINTS:
        return f"Five of a kind, {_PLURAL[top]}"
    if category == _STRAIGHT_FLUSH:
        return "Royal flush" if top == _ACE else f"Straight flush, {_NOUN[top]} high"
    if category == _FLUSH:
        return "Flush, " + "-".join(_NOUN[r] for r in ranks)
    if category == _STRAIGHT:
        return f"Straight, {_NOUN[top]} high"
    if category == _FULL_HOUSE:
        return f"Full house, {_PLURAL[top]} over {_PLURAL[ranks[1]]}"
    if category == _QUADS:
        text, rest = f"Four of a kind, {_PLURAL[top]}", ranks[1:]
    elif category == _TRIPS:
        text, rest = f"Three of a kind, {_PLURAL[top]}", ranks[1:]
    elif category == _TWO_PAIR:
        text, rest = f"Two pair, {_PLURAL[top]} and {_PLURAL[ranks[1]]}", ranks[2:]
    elif category == _ONE_PAIR:
        text, rest = f"One pair, {_PLURAL[top]}", ranks[1:]
    else:
        text, rest = f"High card, {_NOUN[top]}", ranks[1:]
    if kickers and rest:
        text += ", " + "-".join(_NOUN[r] for r in rest) + (" kicker" if len(rest) == 1 else " kickers")
    return text


def _frozen(name: str) -> FrozenInstanceError:
    return FrozenInstanceError(f"cannot assign to field {name!r}: HandValue is immutable")


class HandValue:
    """The value of a hand at showdown (SPEC §4). Immutable.

    Ordered, equal and hashed by ``strength`` alone: equal values split the pot (suits and
    naturalness never matter unless the ``natural_wins_ties`` ruling is on -- see
    ``showdown_key``).

    Attributes (read-only):
        strength: int, higher wins.
        category: the ``Category`` (royal flush is the ace-high straight flush).
        best: the five actual cards played, in display order (groups first, then kickers;
            straights from the top card down, the wheel as 5-4-3-2-A).
        wilds_as: each wild card in ``best`` -> the card it stands for.
        wilds_used: how many wild cards ``best`` uses; the fewest any hand of this value needs.
        ranks: the tie-break ranks in SPEC §4 order.
        cards: the cards evaluated, as given.
        wild_ranks: the wild ranks it was evaluated with.
        wild_in_flush: the ruling it was evaluated under.

    ``best``, ``wilds_as`` and ``wilds_used`` are worked out on first use, so building a
    ``HandValue`` costs little more than ``strength``. Build one with ``evaluate`` (a bare
    ``HandValue()`` is an empty shell for it to fill).
    """

    __slots__ = ("_cards", "_detail", "_naturals", "_strength", "_wild_in_flush")

    _strength: int
    _cards: tuple[Card, ...]
    _naturals: int
    _wild_in_flush: str
    _detail: tuple[tuple[Card, ...], Mapping[Card, Card], int]


    # -- ordering by strength ------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if isinstance(other, HandValue):
            return self._strength == other._strength
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._strength)

    def __lt__(self, other: HandValue) -> bool:
        if isinstance(other, HandValue):
            return self._strength < other._strength
        return NotImplemented

    def __le__(self, other: HandValue) -> bool:
        if isinstance(other, HandValue):
            return self._strength <= other._strength
        return NotImplemented

    def __gt__(self, other: HandValue) -> bool:
        if isinstance(other, HandValue):
            return self._strength > other._strength
        return NotImplemented

    def __ge__(self, other: HandValue) -> bool:
        if isinstance(other, HandValue):
            return self._strength >= other._strength
        return NotImplemented

    # -- fields (read-only: assigning one raises dataclasses.FrozenInstanceError) ---------------
    @property
    def strength(self) -> int:
        """The strength: higher wins, equal splits."""
        return self._strength

    @strength.setter
    def strength(self, value: int) -> None:
        raise _frozen("strength")

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards evaluated, as given."""
        return self._cards

    @cards.setter
    def cards(self, value: tuple[Card, ...]) -> None:
        raise _frozen("cards")

    @property
    def wild_in_flush(self) -> str:
        """The ``wild_in_flush`` ruling the hand was evaluated under."""
        return self._wild_in_flush

    @wild_in_flush.setter
    def wild_in_flush(self, value: str) -> None:
        raise _frozen("wild_in_flush")

    @property
    def category(self) -> Category:
        """The hand's category."""
        return category_of(self._strength)

    @property
    def wild_ranks(self) -> frozenset[Rank]:
        """The wild ranks this hand was evaluated with."""
        wild = (_ALL_CARDS ^ self._naturals) & _SUIT_MASK
        return frozenset(Rank(r) for r in range(2, 15) if wild & _BIT[r])

    def _details(self) -> tuple[tuple[Card, ...], Mapping[Card, Card], int]:
        try:
            return self._detail
        except AttributeError:  # first use: work it out once
            wild = (_ALL_CARDS ^ self._naturals) & _SUIT_MASK
            best, wilds_as, used = _explain(self._cards, wild, self._strength)
            self._detail = (best, MappingProxyType(wilds_as), used)
            return self._detail

    @property
    def best(self) -> tuple[Card, ...]:
        """The five cards played, in display order."""
        return self._details()[0]

    @property
    def wilds_as(self) -> Mapping[Card, Card]:
        """Each wild card in ``best`` -> the card it stands for (read-only)."""
        return self._details()[1]

    def wilds_shown(self, in_play: Collection[Card] = ()) -> Mapping[Card, Card]:
        """``wilds_as``, with each wild outside a flush naming a card that is neither in the hand
        nor in ``in_play`` (the other up cards on the board, cards already shown) while the rank
        has one left; a card repeats only where it must (five of a kind, an A-A flush, or every
        card of the rank in play). ``best`` is the same either way."""
        if not in_play:
            return self.wilds_as
        wild = (_ALL_CARDS ^ self._naturals) & _SUIT_MASK
        return MappingProxyType(_explain(self._cards, wild, self._strength, in_play)[1])

    @property
    def wilds_used(self) -> int:
        """How many wild cards the best five uses (the fewest any hand of this value needs)."""
        return self._details()[2]

    @property
    def ranks(self) -> tuple[Rank, ...]:
        """The tie-break ranks in SPEC §4 order, e.g. (KING, TEN) for kings over tens."""
        return tuple(Rank(r) for r in _decode(self._strength)[1])

    def showdown_key(self, *, natural_wins_ties: bool = False) -> tuple[int, int]:
        """A key for ``max``/``sort`` at showdown: higher wins, equal keys split the pot.

        With the ``natural_wins_ties`` ruling on (SPEC §4), equal strengths go to the hand that
        uses fewer wild cards.
        """
        return (self._strength, -self.wilds_used if natural_wins_ties else 0)

    def describe(self, *, kickers: bool = False) -> str:
        """A player-facing phrase for the hand, e.g. ``"Full house, kings over tens"``,
        ``"Flush, ace-ace-nine-seven-two"``, ``"Royal flush"``. With ``kickers=True`` the
        kickers of quads, trips, pairs and high card are added (``"One pair, aces,
        king-ten-four kickers"``)."""
        return _describe(self._strength, kickers)

    def __str__(self) -> str:
        return self.describe()

    def __repr__(self) -> str:
        return (
            f"<HandValue {self.describe(kickers=True)!r} strength={self._strength} "
            f"cards={' '.join(c.code for c in self._cards)!r}>"
        )


def evaluate(
    cards: Sequence[Card], wild_ranks: Collection[Rank], *, wild_in_flush: str = "any-card"
) -> HandValue:
    """Evaluate 5 to 7 cards with the given wild ranks (SPEC §4; the caller includes fives).

    ``wild_in_flush`` is the SPEC §4 ruling: ``"any-card"`` (default) or ``"highest-missing"``.
    Card codes such as ``"Ah"`` are accepted in place of ``Card`` values.

    Raises ``ValueError`` (with a message a player can act on) for fewer than 5 or more than 7
    cards, a card given twice, an unknown wild rank, or an unknown ``wild_in_flush`` value.

    >>> from bot.engine.cards.card import parse_cards
    >>> evaluate(parse_cards("Ah Ad Ac 5s 9d"), {Rank.FIVE, Rank.NINE}).describe()
    'Five of a kind, aces'
    >>> evaluate(parse_cards("As 5c 9s 7s 2s Kd"), {Rank.FIVE}).describe()
    'Flush, ace-ace-nine-seven-two'
    >>> evaluate(parse_cards("As 5c 9s 7s 2s Kd"), {Rank.FIVE}, wild_in_flush="highest-missing").describe()
    'Flush, ace-king-nine-seven-two'
    """
    if wild_in_flush == "any-card":  # the default ruling: skip the keyword call (it costs ~20%)
        value = strength(cards, wild_ranks)
    else:
        value = strength(cards, wild_ranks, wild_in_flush=wild_in_flush)
    hand = HandValue()
    hand._strength = value
    kept = tuple(cards)
    for card in kept:
        if type(card) is not Card:  # card codes (possibly mixed with Card values): parse them all
            kept = tuple(_as_cards(kept))
            break
    hand._cards = kept
    hand._naturals = _natural_cards(wild_ranks)
    hand._wild_in_flush = wild_in_flush
    return hand
