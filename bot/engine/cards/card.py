"""Cards, ranks and suits (SPEC §1); the deck is in ``bot.engine.cards.deck``.

Ranks run ``2`` to ``A`` (``T`` for ten; ``10`` is accepted on input); suits are ``c d h s``
(``♣ ♦ ♥ ♠`` accepted on input). Suit order -- clubs < diamonds < hearts < spades -- is used only
for the bring-in, optional first-to-act tie-breaks and odd chips, never to decide a pot.

>>> Card.parse("10h")
Card(rank=Rank.TEN, suit=Suit.HEARTS)
>>> str(Card.parse("a♠")), Card.parse("Qc").code
('A♠', 'Qc')
>>> [str(c) for c in parse_cards("Ah 5c 2s")]
['A♥', '5♣', '2♠']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum


class Rank(IntEnum):
    """A card rank; the integer value is the pip value with ace high (2..14)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def char(self) -> str:
        """One-character code: ``2``..``9``, ``T``, ``J``, ``Q``, ``K``, ``A``."""
        return _RANK_CHARS[self.value - 2]

    @property
    def noun(self) -> str:
        """Singular English name, e.g. ``"ace"``, ``"six"``."""
        return _RANK_NOUNS[self.value - 2]

    @property
    def plural(self) -> str:
        """Plural English name, e.g. ``"aces"``, ``"sixes"``."""
        return _RANK_PLURALS[self.value - 2]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Parse ``2``..``9``, ``T``/``10``, ``J``, ``Q``, ``K``, ``A`` (any case).

        Raises ``ValueError`` naming the bad token.

        >>> Rank.parse("10"), Rank.parse("q")
        (<Rank.TEN: 10>, <Rank.QUEEN: 12>)
        """
        key = text.strip().upper()
        if key == "10":
            key = "T"
        if len(key) == 1 and key in _RANK_CHARS:
            return cls(_RANK_CHARS.index(key) + 2)
        raise ValueError(f"unknown rank {text!r}: use 2-9, T (or 10), J, Q, K or A")

    def __str__(self) -> str:
        return self.char


class Suit(IntEnum):
    """A suit; the integer value is the suit order clubs < diamonds < hearts < spades."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def char(self) -> str:
        """File code: ``c``, ``d``, ``h`` or ``s``."""
        return "cdhs"[self.value]

    @property
    def symbol(self) -> str:
        """Player-facing symbol: ``♣``, ``♦``, ``♥`` or ``♠``."""
        return "♣♦♥♠"[self.value]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse ``c d h s`` (any case) or ``♣ ♦ ♥ ♠`` (also the white variants ``♧ ♢ ♡ ♤``).

        Raises ``ValueError`` naming the bad token.
        """
        key = text.strip().lower()
        if key in _SUIT_ALIASES:
            return cls(_SUIT_ALIASES[key])
        raise ValueError(f"unknown suit {text!r}: use c, d, h, s or ♣ ♦ ♥ ♠")

    def __str__(self) -> str:
        return self.symbol


_RANK_CHARS = "23456789TJQKA"
_RANK_NOUNS = (
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "jack", "queen", "king", "ace",
)
_RANK_PLURALS = (
    "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
    "jacks", "queens", "kings", "aces",
)
_SUIT_ALIASES = {
    "c": 0, "♣": 0, "♧": 0,
    "d": 1, "♦": 1, "♢": 1,
    "h": 2, "♥": 2, "♡": 2,
    "s": 3, "♠": 3, "♤": 3,
}


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One playing card. Ordered by rank, then suit (the printed-card order used for odd chips)."""

    rank: Rank
    suit: Suit

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one card such as ``Ah``, ``ah``, ``10h``, ``Th`` or ``A♥``.

        Raises ``ValueError`` naming the bad token.
        """
        token = text.strip()
        if len(token) < 2:
            raise ValueError(f"bad card {text!r}: write a rank and a suit, like Ah, 10h or A♥")
        try:
            return cls(Rank.parse(token[:-1]), Suit.parse(token[-1]))
        except ValueError as exc:
            raise ValueError(f"bad card {text!r}: {exc}") from None

    @property
    def code(self) -> str:
        """The file form, e.g. ``"Ah"``, ``"Tc"`` (PHH notation)."""
        return self.rank.char + self.suit.char

    @property
    def index(self) -> int:
        """A dense index 0..51: ``(rank - 2) * 4 + suit``."""
        return (self.rank.value - 2) * 4 + self.suit.value

    def __str__(self) -> str:
        return self.rank.char + self.suit.symbol

    def __repr__(self) -> str:
        return f"Card(rank=Rank.{self.rank.name}, suit=Suit.{self.suit.name})"


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse cards from ``"Ah 5c 2s"``, ``"Ah5c2s"`` (PHH run-together form) or a list of tokens.

    Returns the cards in the order given; raises ``ValueError`` naming the bad token. Duplicates are
    not checked here (the evaluator and the deck do that).

    >>> [c.code for c in parse_cards("7c2dQc")]
    ['7c', '2d', 'Qc']
    >>> [c.code for c in parse_cards(["10h", "J♠"])]
    ['Th', 'Js']
    """
    if not isinstance(text, str):
        return [Card.parse(token) for token in text]
    tokens = text.replace(",", " ").split()
    cards: list[Card] = []
    for token in tokens:
        cards.extend(_split_run(token))
    return cards


def _split_run(token: str) -> list[Card]:
    """Split a run-together token such as ``7c2dQc`` or ``10h9s`` into cards."""
    cards: list[Card] = []
    i = 0
    while i < len(token):
        take = 3 if token.startswith("10", i) else 2
        piece = token[i : i + take]
        if len(piece) < 2:
            raise ValueError(f"bad card {token[i:]!r} in {token!r}: write a rank and a suit, like Ah")
        cards.append(Card.parse(piece))
        i += take
    return cards


FULL_DECK: tuple[Card, ...] = tuple(Card(rank, suit) for rank in Rank for suit in Suit)
"""All 52 cards in a fixed order (2♣ 2♦ 2♥ 2♠ 3♣ ... A♠)."""


def check_distinct(cards: Iterable[Card]) -> None:
    """Raise ``ValueError`` naming the first card that appears twice."""
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise ValueError(f"{card.code} appears twice: each card exists once in the deck")
        seen.add(card)
