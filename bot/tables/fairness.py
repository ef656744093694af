"""Fair-deal commitments (DESIGN "Fairness and secrecy"; issues 5 and 10).

Two schemes. New hands use the **per-card** one; hands stored by older code keep the **whole-deck**
one and still verify.

Per-card (a salted hash per deck position)
    Before the first card the table announces ``commitment = SHA-256("wildstud-deck-v2|" + leaf 1 +
    ... + leaf 52)``, where ``leaf i = SHA-256("wildstud-card-v2|" + i + "|" + card + "|" + salt i)``
    (positions 1-52 from the top, card in PHH code such as ``Qc``, each salt 32 hex digits). After the
    hand it publishes the 52 leaves (salted, so they say nothing of a closed card) and the
    **openings** ``i:card:salt`` of the cards everyone saw: up cards, the community card, indicator
    cards and the down cards of hands shown at showdown. Each player is given the openings of their own
    down cards privately. Anyone checks an opening by hashing it to leaf ``i`` and the leaves to the
    commitment; a closed position stays closed. Why a hash list and not a Merkle tree: an opening is
    then 40 characters instead of ~430 (six sibling hashes), the reveal is one short list that any
    SHA-256 tool can check, and nothing is gained from logarithmic proofs for 52 leaves.
    The salts are derived from one secret per hand, ``salt i = HMAC-SHA256(seed, "salt|" + i)`` (first
    16 bytes), so the store keeps a 64-hex-digit seed instead of 52 salts; a published salt reveals
    nothing of the seed or of the other salts (HMAC is a pseudo-random function).

Whole-deck (hands dealt before per-card commitments)
    ``commitment = SHA-256(deck + ":" + salt)``: ``deck`` is the 52 card codes top card first run
    together (104 characters), ``salt`` 16 random bytes as 32 hex digits. Checking it needs the whole
    deck, which opens every folded card; new hands never store or publish such a reveal.

The stored secret tells the schemes apart: 32 hex digits is a whole-deck salt, 64 a per-card seed.

>>> from bot.engine.cards.card import FULL_DECK
>>> deck = deck_text(FULL_DECK)
>>> deck[:8], len(deck)
('2c2d2h2s', 104)
>>> c = commitment(FULL_DECK, "00" * 16)
>>> verify(c, "00" * 16, deck)
True
>>> verify(c, "01" * 16, deck)
False
>>> deal = DealCommitment.from_parts(FULL_DECK, "ab" * 32)
>>> opening = deal.opening(FULL_DECK[4])
>>> str(opening)[:5], opening.position
('5:3c:', 5)
>>> check_openings(deal.digest, deal.leaves, [opening]).ok
True
"""

from __future__ import annotations

import hashlib
import hmac
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from bot.engine.cards.card import FULL_DECK, Card, check_distinct, parse_cards

SALT_BYTES = 16
"""Length of a salt in bytes (written as twice as many hex digits): the whole-deck salt and each
per-card salt."""

SEED_BYTES = 32
"""Length of a per-card hand's secret seed in bytes (64 hex digits); it never leaves the store."""

DECK_SIZE = 52

_HEX64 = re.compile(r"[0-9a-f]{64}")


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


def card_salt(seed: str, position: int) -> str:
    """The salt of deck ``position`` (1-52) derived from a hand's secret ``seed`` (64 hex digits).

    ``HMAC-SHA256(seed bytes, "salt|" + position)``, first 16 bytes, as 32 hex digits.
    """
    key = bytes.fromhex(_check_seed(seed))
    return hmac.new(key, f"salt|{position}".encode("ascii"), hashlib.sha256).digest()[:SALT_BYTES].hex()


def card_leaf(position: int, card: Card, salt: str) -> str:
    """The published hash of one deck position: ``SHA-256("wildstud-card-v2|i|card|salt")``, 64 hex.

    Raises ``ValueError`` for a position outside 1-52 or a salt that is not 32 hex digits.
    """
    if not 1 <= position <= DECK_SIZE:
        raise ValueError(f"a deck position is 1 to {DECK_SIZE}, not {position}")
    payload = f"wildstud-card-v2|{position}|{card.code}|{_check_salt(salt)}"
    return hashlib.sha256(payload.encode("ascii")).hexdigest()


def leaves_digest(leaves: Sequence[str]) -> str:
    """The per-card commitment: ``SHA-256("wildstud-deck-v2|" + the 52 leaves run together)``."""
    return hashlib.sha256(("wildstud-deck-v2|" + "".join(leaves)).encode("ascii")).hexdigest()


def parse_leaves(text: str) -> tuple[str, ...]:
    """Read the 52 published leaves: 64-hex-digit hashes separated by commas or spaces, or run together.

    Raises ``ValueError`` saying how many were found when it is not exactly 52.
    """
    compact = re.sub(r"[\s,]+", "", text.strip().lower())
    if not compact or len(compact) % 64 or not re.fullmatch(r"[0-9a-f]*", compact):
        raise ValueError(f"the leaves are {DECK_SIZE} hashes of 64 hex digits each (SHA-256), top card first")
    leaves = tuple(compact[i : i + 64] for i in range(0, len(compact), 64))
    if len(leaves) != DECK_SIZE:
        raise ValueError(f"the leaves are {DECK_SIZE} hashes, one per deck position; got {len(leaves)}")
    return leaves


@dataclass(frozen=True, slots=True)
class Opening:
    """One opened deck position: ``position`` 1-52 from the top, the ``card`` there, its ``salt``.

    Written ``"12:Qc:<32 hex digits>"`` (:meth:`parse` reads that back).
    """

    position: int
    card: Card
    salt: str

    def __str__(self) -> str:
        return f"{self.position}:{self.card.code}:{self.salt}"

    @classmethod
    def parse(cls, text: str) -> Opening:
        """Read ``POSITION:CARD:SALT``; raises ``ValueError`` naming the part that is wrong."""
        parts = text.strip().split(":")
        if len(parts) != 3:
            raise ValueError(f"an opening is POSITION:CARD:SALT (like 12:Qc:{'0' * 32}), not {text!r}")
        where, card, salt = parts
        if not where.isdigit() or not 1 <= int(where) <= DECK_SIZE:
            raise ValueError(f"opening {text!r}: a deck position is 1 to {DECK_SIZE}")
        try:
            return cls(int(where), Card.parse(card), _check_salt(salt))
        except ValueError as exc:
            raise ValueError(f"opening {text!r}: {exc}") from None


@dataclass(frozen=True, slots=True)
class OpeningCheck:
    """The verdict on a set of openings: ``ok`` when the leaves hash to the commitment and every
    opening hashes to its leaf; ``failures`` lists ``(position, reason)`` for each that does not
    (position 0 for the leaves themselves)."""

    commitment: str
    checked: tuple[Opening, ...]
    failures: tuple[tuple[int, str], ...] = field(default=())

    @property
    def ok(self) -> bool:
        return not self.failures


def check_openings(expected: str, leaves: Sequence[str], openings: Sequence[Opening]) -> OpeningCheck:
    """Check ``openings`` against the published ``leaves`` and the announced commitment ``expected``.

    Never raises for a mismatch: a wrong card or salt fails at its position; leaves that do not hash to
    the commitment fail at position 0 (and then no opening can be trusted, so each is also reported
    against the leaves as given). Two openings of one position, or one card at two positions, fail too.
    """
    failures: list[tuple[int, str]] = []
    want = expected.strip().lower()
    if len(leaves) != DECK_SIZE or leaves_digest(leaves) != want:
        failures.append((0, "the leaves do not hash to the announced commitment"))
    seen_positions: dict[int, Card] = {}
    seen_cards: dict[Card, int] = {}
    for opening in openings:
        if opening.position in seen_positions and seen_positions[opening.position] != opening.card:
            failures.append((opening.position, f"opened twice, as {seen_positions[opening.position].code} "
                                               f"and {opening.card.code}"))
            continue
        if opening.card in seen_cards and seen_cards[opening.card] != opening.position:
            failures.append((opening.position, f"{opening.card.code} is also opened at position "
                                               f"{seen_cards[opening.card]}"))
            continue
        seen_positions[opening.position] = opening.card
        seen_cards[opening.card] = opening.position
        if len(leaves) >= opening.position and card_leaf(opening.position, opening.card, opening.salt) \
                != leaves[opening.position - 1]:
            failures.append((opening.position, f"{opening.card.code} with that salt does not hash to "
                                               f"leaf {opening.position}"))
    return OpeningCheck(want, tuple(openings), tuple(failures))


def _check_seed(seed: str) -> str:
    key = seed.strip().lower()
    if not _HEX64.fullmatch(key):
        raise ValueError(f"a per-card seed is {SEED_BYTES * 2} hex digits")
    return key


@dataclass(frozen=True, slots=True)
class DealCommitment:
    """The secret and public parts of one hand's fair-deal commitment.

    ``order`` (the deck, top first) and ``salt`` (the whole-deck salt, or the per-card seed) stay
    secret; ``digest`` is announced before the first card; ``scheme`` is ``"per-card"`` for new hands
    and ``"deck"`` for hands stored before per-card commitments.
    """

    order: tuple[Card, ...]
    salt: str
    digest: str
    scheme: str = "per-card"

    @classmethod
    def shuffle(cls, rng: random.Random) -> DealCommitment:
        """Shuffle a fresh deck with ``rng`` (the OS CSPRNG in real play) and commit to it card by card."""
        cards = list(FULL_DECK)
        rng.shuffle(cards)
        return cls.from_parts(cards, rng.randbytes(SEED_BYTES).hex())

    @classmethod
    def from_parts(cls, order: Sequence[Card], salt: str) -> DealCommitment:
        """Rebuild a commitment from a stored deck order and secret (a 32-hex-digit whole-deck salt or a
        64-hex-digit per-card seed). Raises ``ValueError`` for any other secret."""
        deck = tuple(order)
        key = salt.strip().lower()
        if _HEX64.fullmatch(key):
            leaves = tuple(card_leaf(i + 1, card, card_salt(key, i + 1)) for i, card in enumerate(deck))
            return cls(deck, key, leaves_digest(leaves), "per-card")
        return cls(deck, key, commitment(deck, key), "deck")

    @property
    def deck(self) -> str:
        """The canonical deck text (secret: never published for a per-card hand)."""
        return deck_text(self.order)

    @property
    def leaves(self) -> tuple[str, ...]:
        """The 52 per-card leaves, top first (public after the hand). Raises ``ValueError`` for a
        whole-deck commitment, which has none."""
        if self.scheme != "per-card":
            raise ValueError("a whole-deck commitment has no per-card leaves")
        return tuple(card_leaf(i + 1, card, card_salt(self.salt, i + 1)) for i, card in enumerate(self.order))

    def opening(self, card: Card) -> Opening:
        """The opening of the position ``card`` was dealt from. Raises ``ValueError`` for a whole-deck
        commitment or a card not in the deck."""
        if self.scheme != "per-card":
            raise ValueError("a whole-deck commitment cannot be opened card by card")
        position = self.order.index(card) + 1
        return Opening(position, card, card_salt(self.salt, position))

    def openings(self, cards: Iterable[Card]) -> tuple[Opening, ...]:
        """Openings of ``cards``, in deck order, each once."""
        return tuple(sorted({self.opening(card) for card in cards}, key=lambda o: o.position))

    def verify_command(self, cards: Iterable[Card]) -> str:
        """The ``wildstud verify`` command line that checks ``cards`` (their openings) against this
        commitment: the published leaves and the openings, nothing else."""
        openings = " ".join(str(o) for o in self.openings(cards))
        command = f"wildstud verify {self.digest} --leaves {','.join(self.leaves)}"
        return command + (f" --open {openings}" if openings else "")
