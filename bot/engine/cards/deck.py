"""The deck and the card source a hand deals from (SPEC §1, §2).

A ``Deck`` is the 52 cards in a shuffled (or given) order. A ``CardSource`` hands out cards one at a
time; the engine asks for them in the pass order of SPEC §2 and tells the source who the card is for
(``seat`` ``None`` = a burn, the community card or an indicator card) and whether it is dealt face
up. ``DeckSource`` adapts a ``Deck``; a replay can supply its own source fed from a history's deal
lines.

>>> src = DeckSource(Deck.seeded(1))
>>> src.remaining()
52
>>> _ = src.draw(0, False); src.remaining()
51
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Iterator, Sequence
from typing import Protocol, runtime_checkable

from bot.engine.cards.card import FULL_DECK, Card, check_distinct, parse_cards


class Shuffler(Protocol):
    """Anything with ``shuffle`` like ``random.Random`` or ``secrets.SystemRandom``."""

    def shuffle(self, x: list[Card], /) -> None: ...


class Deck:
    """A 52-card deck in a fixed order; cards are taken from the top (index 0).

    Build it shuffled by the OS CSPRNG (``Deck()``), from a seeded ``random.Random``
    (``Deck.shuffled(random.Random(7))``) or from an explicit order (``Deck.from_order(...)``,
    for tests and replays).

    >>> d = Deck.from_order(parse_cards("Ah Kd") + [c for c in FULL_DECK if c.code not in ("Ah", "Kd")])
    >>> d.deal().code, len(d)
    ('Ah', 51)
    """

    __slots__ = ("_cards", "_next")

    def __init__(self, rng: Shuffler | None = None) -> None:
        cards = list(FULL_DECK)
        (rng if rng is not None else secrets.SystemRandom()).shuffle(cards)
        self._cards: tuple[Card, ...] = tuple(cards)
        self._next = 0

    @classmethod
    def shuffled(cls, rng: Shuffler | None = None) -> Deck:
        """A freshly shuffled deck; ``rng`` defaults to ``secrets.SystemRandom()``."""
        return cls(rng)

    @classmethod
    def seeded(cls, seed: int) -> Deck:
        """A deck shuffled by ``random.Random(seed)`` (reproducible; never for real play)."""
        return cls(random.Random(seed))

    @classmethod
    def from_order(cls, cards: Sequence[Card] | str) -> Deck:
        """A deck in exactly this order. It must be the 52 distinct cards.

        Raises ``ValueError`` naming missing or repeated cards.
        """
        order = parse_cards(cards) if isinstance(cards, str) else list(cards)
        check_distinct(order)
        if len(order) != 52:
            missing = [c.code for c in FULL_DECK if c not in set(order)]
            raise ValueError(f"a deck needs all 52 cards; missing: {' '.join(missing)}")
        deck = cls.__new__(cls)
        deck._cards = tuple(order)
        deck._next = 0
        return deck

    @property
    def order(self) -> tuple[Card, ...]:
        """The full order, dealt cards included."""
        return self._cards

    def deal(self) -> Card:
        """Take the top card. Raises ``IndexError`` when the deck is empty."""
        if self._next >= len(self._cards):
            raise IndexError("the deck is empty")
        card = self._cards[self._next]
        self._next += 1
        return card

    def remaining(self) -> tuple[Card, ...]:
        """The undealt cards (the stub), top first."""
        return self._cards[self._next :]

    def __len__(self) -> int:
        return len(self._cards) - self._next

    def __iter__(self) -> Iterator[Card]:
        return iter(self.remaining())



@runtime_checkable
class CardSource(Protocol):
    """Where a hand's cards come from.

    ``draw(seat, face_up)``: the next card; ``seat`` is the receiving seat, or ``None`` for a burn
    (``face_up`` False), the community card or an indicator card (``face_up`` True).
    ``remaining()``: how many cards are left in the stub (decides the seventh-street shortage).
    ``scramble(cards)``: put burned cards back into the stub (shortage procedure, TDA RP-10H).
    ``reshuffle(cards)``: a draw game's stub ran out: shuffle these discards into a new stub.
    """

    def draw(self, seat: int | None, face_up: bool) -> Card: ...

    def remaining(self) -> int: ...

    def scramble(self, cards: Sequence[Card]) -> None: ...

    def reshuffle(self, cards: Sequence[Card]) -> None: ...


def keyed_shuffle(cards: Sequence[Card], key: bytes) -> list[Card]:
    """``cards`` in an order drawn from ``key`` (Fisher-Yates on SHA-256 of the key and a counter):
    unpredictable to whoever does not know the key, and the same order for the same key and the same
    cards in the same order. The 256-bit draws make the modulo bias nothing worth naming."""
    out = list(cards)
    for i in range(len(out) - 1, 0, -1):
        digest = hashlib.sha256(key + i.to_bytes(2, "big")).digest()
        j = int.from_bytes(digest, "big") % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out


class DeckSource:
    """A ``CardSource`` over a ``Deck``: cards come off the top in order, whoever they are for.

    ``scramble`` puts the burns back under the stub in the order they were burned: the deck order is
    already uniformly random, so a fixed rule keeps the deal exactly reproducible from the deck order
    (which is what a deck commitment publishes). ``reshuffle`` (a draw game's discards) cannot keep
    the discard order, which the players chose: it shuffles them by ``keyed_shuffle`` keyed on the
    whole deck order (secret until the commitment is opened) and the number of reshuffles so far, so
    the deal stays reproducible from the deck order and nobody at the table can foresee it.

    >>> src = DeckSource(Deck.seeded(1))
    >>> src.remaining()
    52
    >>> _ = src.draw(0, False); src.remaining()
    51
    """

    __slots__ = ("_cards", "_next", "_reshuffles")

    def __init__(self, deck: Deck | Sequence[Card]) -> None:
        self._cards: list[Card] = list(deck.remaining() if isinstance(deck, Deck) else deck)
        self._next = 0
        self._reshuffles = 0

    def draw(self, seat: int | None, face_up: bool) -> Card:
        """The top card of the stub; ``IndexError`` if the stub is empty."""
        if self._next >= len(self._cards):
            raise IndexError("the deck is empty")
        card = self._cards[self._next]
        self._next += 1
        return card

    def remaining(self) -> int:
        """Cards left in the stub."""
        return len(self._cards) - self._next

    def scramble(self, cards: Sequence[Card]) -> None:
        """Put ``cards`` (the burns) back at the bottom of the stub."""
        self._cards.extend(cards)

    def reshuffle(self, cards: Sequence[Card]) -> None:
        """Shuffle ``cards`` (discards) under the stub, keyed on the deck order (see the class)."""
        self._reshuffles += 1
        key = "".join(c.code for c in self._cards[:52]).encode() + self._reshuffles.to_bytes(2, "big")
        self._cards.extend(keyed_shuffle(cards, key))
