"""Streets as data and the card source the hand deals from (SPEC §2).

A ``CardSource`` hands out cards one at a time; the engine asks for them in the pass order of
SPEC §2 and tells the source who the card is for (``seat`` ``None`` = a burn, the community card or
an indicator card) and whether it is dealt face up. ``DeckSource`` adapts a ``Deck``; a replay can
supply its own source fed from a history's deal lines.

>>> [s.number for s in STREETS], STREETS[0].passes
([3, 4, 5, 6, 7], (False, False, True))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from bot.engine import vocab
from bot.engine.cards import Card, Deck


@dataclass(frozen=True, slots=True)
class Street:
    """One street of seven-card stud.

    ``passes``: one entry per pass around the table, ``True`` for a face-up card. ``burn``: a card
    is burned first when the ``burn_cards`` ruling is on. ``big_bet``: fixed limit uses the big bet.
    ``opener``: ``"bring-in"`` (lowest door card) or ``"high-hand"`` (highest showing hand).
    """

    number: int
    passes: tuple[bool, ...]
    burn: bool
    big_bet: bool
    opener: str


STREETS: tuple[Street, ...] = (
    Street(3, (False, False, True), False, False, "bring-in"),
    Street(4, (True,), True, False, "high-hand"),
    Street(5, (True,), True, True, "high-hand"),
    Street(6, (True,), True, True, "high-hand"),
    Street(7, (False,), True, True, "high-hand"),
)
"""Third to seventh street (SPEC §2, WSOP-LA stud section; burns per TDA RP-10)."""

STREET_NAMES = vocab.STREET_NAMES
"""Street number -> name (kept here for old imports; the names live in ``bot.engine.vocab``)."""


@runtime_checkable
class CardSource(Protocol):
    """Where a hand's cards come from.

    ``draw(seat, face_up)``: the next card; ``seat`` is the receiving seat, or ``None`` for a burn
    (``face_up`` False), the community card or an indicator card (``face_up`` True).
    ``remaining()``: how many cards are left in the stub (decides the seventh-street shortage).
    ``scramble(cards)``: put burned cards back into the stub (shortage procedure, TDA RP-10H).
    """

    def draw(self, seat: int | None, face_up: bool) -> Card: ...

    def remaining(self) -> int: ...

    def scramble(self, cards: Sequence[Card]) -> None: ...


class DeckSource:
    """A ``CardSource`` over a ``Deck``: cards come off the top in order, whoever they are for.

    ``scramble`` puts the burns back under the stub in the order they were burned: the deck order is
    already uniformly random, so a fixed rule keeps the deal exactly reproducible from the deck order
    (which is what a deck commitment publishes).

    >>> src = DeckSource(Deck.seeded(1))
    >>> src.remaining()
    52
    >>> _ = src.draw(0, False); src.remaining()
    51
    """

    __slots__ = ("_cards", "_next")

    def __init__(self, deck: Deck | Sequence[Card]) -> None:
        self._cards: list[Card] = list(deck.remaining() if isinstance(deck, Deck) else deck)
        self._next = 0

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
