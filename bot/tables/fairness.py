"""Fair-deal commitments (DESIGN "Fairness and secrecy"; issue 5).

Before the first card of a hand the table announces ``commitment = SHA-256(deck + ":" + salt)``;
after the hand it reveals the deck order and the salt, and anyone can recompute the hash.

* ``deck`` is the canonical deck text: the 52 card codes top card first, run together with no
  separator, e.g. ``"7c2dQcAh..."`` (104 characters, PHH card codes).
* ``salt`` is 16 random bytes written as 32 lower-case hex digits.
* The digest is written as 64 lower-case hex digits.

The salt stops anyone from searching the deck order from the commitment alone (52! is large, but
a salt also hides partial knowledge, e.g. the door cards, from brute force of the rest).

>>> from bot.engine.cards import FULL_DECK
>>> deck = deck_text(FULL_DECK)
>>> deck[:8], len(deck)
('2c2d2h2s', 104)
>>> c = commitment(FULL_DECK, "00" * 16)
>>> verify(c, "00" * 16, deck)
True
>>> verify(c, "01" * 16, deck)
False
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine.cards import FULL_DECK, Card, check_distinct, parse_cards

SALT_BYTES = 16
"""Length of a salt in bytes (written as twice as many hex digits)."""


def deck_text(order: Sequence[Card]) -> str:
    """The canonical text of a deck order: card codes run together, top card first."""
    return "".join(card.code for card in order)


def parse_deck(text: str) -> tuple[Card, ...]:
    """Parse a deck order written in any form ``parse_cards`` accepts (spaces optional).

    Raises ``ValueError`` naming the problem when it is not exactly the 52 distinct cards.
    """
    cards = parse_cards(text)
    check_distinct(cards)
    if len(cards) != 52:
        present = set(cards)
        missing = " ".join(c.code for c in FULL_DECK if c not in present)
        raise ValueError(f"a deck order needs all 52 cards, got {len(cards)}; missing: {missing}")
    return tuple(cards)


def new_salt(rng: random.Random) -> str:
    """A fresh salt as hex; pass ``secrets.SystemRandom()`` for real play."""
    return rng.randbytes(SALT_BYTES).hex()


def _check_salt(salt: str) -> str:
    key = salt.strip().lower()
    if len(key) != SALT_BYTES * 2 or any(ch not in "0123456789abcdef" for ch in key):
        raise ValueError(f"a salt is {SALT_BYTES * 2} hex digits, got {salt!r}")
    return key


def commitment(order: Sequence[Card], salt: str) -> str:
    """SHA-256 of ``deck_text(order) + ":" + salt`` as 64 hex digits.

    Raises ``ValueError`` if ``salt`` is not 32 hex digits.
    """
    payload = f"{deck_text(order)}:{_check_salt(salt)}".encode("ascii")
    return hashlib.sha256(payload).hexdigest()


def verify(expected: str, salt: str, deck: str | Sequence[Card]) -> bool:
    """True when ``deck`` (text or cards) and ``salt`` hash to the ``expected`` commitment.

    Raises ``ValueError`` when the deck or the salt cannot be read (not when they merely differ).
    """
    order = parse_deck(deck) if isinstance(deck, str) else parse_deck(deck_text(deck))
    return commitment(order, salt) == expected.strip().lower()


@dataclass(frozen=True, slots=True)
class DealCommitment:
    """The secret and public parts of one hand's fair-deal commitment.

    ``order`` (the deck, top first) and ``salt`` stay secret until the hand ends; ``digest`` is
    announced before the first card.
    """

    order: tuple[Card, ...]
    salt: str
    digest: str

    @classmethod
    def shuffle(cls, rng: random.Random) -> DealCommitment:
        """Shuffle a fresh deck with ``rng`` (the OS CSPRNG in real play) and commit to it."""
        cards = list(FULL_DECK)
        rng.shuffle(cards)
        salt = new_salt(rng)
        order = tuple(cards)
        return cls(order, salt, commitment(order, salt))

    @classmethod
    def from_parts(cls, order: Sequence[Card], salt: str) -> DealCommitment:
        """Rebuild a commitment from a stored deck order and salt."""
        deck = tuple(order)
        return cls(deck, salt, commitment(deck, salt))

    @property
    def deck(self) -> str:
        """The canonical deck text (secret until the hand ends)."""
        return deck_text(self.order)
