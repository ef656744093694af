"""The fair-deal commitment and ``wildstud verify`` (DESIGN "Fairness and secrecy")."""

from __future__ import annotations

import hashlib
import hmac
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.betting.stakes import PRESETS
from bot.engine.cards.card import FULL_DECK
from bot.store import Store
from bot.tables.fairness import DealCommitment, Opening, check_openings, commitment, deck_text, verify
from tests.tables.helpers import Harness

ROOT = Path(__file__).resolve().parents[2]


def reference_digest(codes: list[str], salt: str) -> str:
    """SHA-256 of the codes run together, ':' and the salt -- the published recipe, written out."""
    return hashlib.sha256(("".join(codes) + ":" + salt).encode("ascii")).hexdigest()


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False), st.binary(min_size=16, max_size=16))
def test_commitment_matches_the_recipe_and_any_change_breaks_it(
    rng: random.Random, salt_bytes: bytes
) -> None:
    order = list(FULL_DECK)
    rng.shuffle(order)
    salt = salt_bytes.hex()
    digest = commitment(order, salt)
    assert digest == reference_digest([c.code for c in order], salt)
    assert verify(digest, salt, deck_text(order))
    assert verify(digest.upper(), salt, " ".join(str(c) for c in order))   # any readable deck form
    swapped = order[:]
    swapped[0], swapped[1] = swapped[1], swapped[0]
    assert not verify(digest, salt, deck_text(swapped))
    other = ("0" if salt[0] != "0" else "1") + salt[1:]
    assert not verify(digest, other, deck_text(order))


def test_shuffle_commits_to_the_order_it_deals_card_by_card() -> None:
    deal = DealCommitment.shuffle(random.Random(4))
    assert sorted(deal.order) == sorted(FULL_DECK) and deal.scheme == "per-card"
    assert len(deal.salt) == 64                               # the secret seed, never published
    # The recipe, written out: a salted SHA-256 per position, and SHA-256 over the 52 leaves.
    salts = [hmac.new(bytes.fromhex(deal.salt), f"salt|{i}".encode(), hashlib.sha256).digest()[:16].hex()
             for i in range(1, 53)]
    leaves = [hashlib.sha256(f"wildstud-card-v2|{i}|{c.code}|{salt}".encode()).hexdigest()
              for i, (c, salt) in enumerate(zip(deal.order, salts, strict=True), start=1)]
    assert list(deal.leaves) == leaves
    assert deal.digest == hashlib.sha256(("wildstud-deck-v2|" + "".join(leaves)).encode()).hexdigest()


def test_old_whole_deck_secrets_still_rebuild_and_verify() -> None:
    order = list(FULL_DECK)
    random.Random(9).shuffle(order)
    old = DealCommitment.from_parts(order, "cd" * 16)             # a hand stored by older code
    assert old.scheme == "deck" and old.digest == reference_digest([c.code for c in order], "cd" * 16)
    with pytest.raises(ValueError, match="whole-deck"):
        old.opening(order[0])


@settings(max_examples=30, deadline=None)
@given(st.randoms(use_true_random=False), st.binary(min_size=32, max_size=32), st.data())
def test_openings_verify_and_a_tampered_card_or_salt_fails_at_its_position(
    rng: random.Random, seed: bytes, data: st.DataObject
) -> None:
    order = list(FULL_DECK)
    rng.shuffle(order)
    deal = DealCommitment.from_parts(order, seed.hex())
    chosen = data.draw(st.sets(st.sampled_from(order), min_size=1, max_size=20))
    openings = list(deal.openings(chosen))
    assert check_openings(deal.digest, deal.leaves, openings).ok
    assert {o.card for o in openings} == chosen
    assert [o.position for o in openings] == sorted(order.index(c) + 1 for c in chosen)
    victim = data.draw(st.integers(0, len(openings) - 1))
    target = openings[victim]
    other = data.draw(st.sampled_from([c for c in FULL_DECK if c not in chosen]))
    flipped = ("0" if target.salt[0] != "0" else "1") + target.salt[1:]
    for bad in (Opening(target.position, other, target.salt), Opening(target.position, target.card, flipped)):
        tampered = [*openings[:victim], bad, *openings[victim + 1:]]
        verdict = check_openings(deal.digest, deal.leaves, tampered)
        assert not verdict.ok and [p for p, _ in verdict.failures] == [target.position]
    # Leaves that are not the committed ones fail as a whole (position 0).
    leaves = list(deal.leaves)
    leaves[0], leaves[1] = leaves[1], leaves[0]
    assert (0, "the leaves do not hash to the announced commitment") in \
        check_openings(deal.digest, leaves, openings).failures


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", "verify", *args], capture_output=True, text=True,
                          cwd=ROOT, check=False)


def test_verify_command_with_revealed_values() -> None:
    order = list(FULL_DECK)
    random.Random(2).shuffle(order)
    salt = "ab" * 16
    digest = reference_digest([c.code for c in order], salt)
    ok = cli(digest, salt, deck_text(order))
    assert ok.returncode == 0 and "OK" in ok.stdout
    bad = cli(digest, salt, deck_text(order[::-1]))
    assert bad.returncode == 1 and "MISMATCH" in bad.stdout
    unreadable = cli(digest, salt, "AhAh")
    assert unreadable.returncode == 2 and "twice" in unreadable.stderr


async def test_verify_command_with_a_stored_hand(store: Store, db_path: Path) -> None:
    h = Harness(store, db_path)
    await h.table(("Ann", 500), ("Bea", 500), stakes=PRESETS["small"])
    hand_id = await h.service.deal(h.key, h.members["Ann"])
    secret = cli("--hand", str(hand_id), "--db", str(db_path))
    assert secret.returncode == 2 and "still being played" in secret.stderr   # no peeking mid-hand
    live = h.service.table(h.key).hand
    assert live is not None
    await h.passive()
    ok = cli("--hand", str(hand_id), "--db", str(db_path))
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "52 positions" not in ok.stdout and "positions stay closed" in ok.stdout
    # Everyone checked to the showdown: both hands were shown, so 14 cards are opened.
    assert "Hand 1: 14 public cards opened" in ok.stdout
    # The host may open a member's own cards too; a member not dealt in is refused.
    own = cli("--hand", str(hand_id), "--member", str(h.members["Ann"]), "--db", str(db_path))
    assert own.returncode == 0, own.stdout + own.stderr
    stranger = cli("--hand", str(hand_id), "--member", "424242", "--db", str(db_path))
    assert stranger.returncode == 2 and "not dealt into" in stranger.stderr
    missing = cli("--hand", "999", "--db", str(db_path))
    assert missing.returncode == 2
    assert missing.stderr == "wildstud verify: hand 999: there is no such hand\n"   # no capital mid-line


def test_verify_command_with_openings_names_the_failing_position() -> None:
    order = list(FULL_DECK)
    random.Random(3).shuffle(order)
    deal = DealCommitment.from_parts(order, "ef" * 32)
    leaves = ",".join(deal.leaves)
    openings = [str(o) for o in deal.openings(order[:3])]
    ok = cli(deal.digest, "--leaves", leaves, "--open", *openings)
    assert ok.returncode == 0 and "3 opened" in ok.stdout and "49 positions stay closed" in ok.stdout
    position, card, salt = openings[1].split(":")
    wrong = next(c for c in FULL_DECK if c.code != card).code
    tampered = [openings[0], f"{position}:{wrong}:{salt}", openings[2]]
    bad = cli(deal.digest, "--leaves", leaves, "--open", *tampered)
    assert bad.returncode == 1 and f"MISMATCH at position {position}" in bad.stdout
    unreadable = cli(deal.digest, "--leaves", leaves, "--open", "12:Qc")
    assert unreadable.returncode == 2 and "POSITION:CARD:SALT" in unreadable.stderr
    short = cli(deal.digest, "--leaves", leaves[:640])
    assert short.returncode == 2 and "52" in short.stderr


def test_verify_reads_a_database_but_never_creates_one(tmp_path: Path) -> None:
    # verify only checks: pointing it at a mistyped path used to create an empty database there
    # (and then say "There is no such hand"), leaving a stray file and hiding the typo.
    missing = tmp_path / "typo.sqlite3"
    result = cli("--hand", "1", "--db", str(missing))
    assert result.returncode == 2 and "no database" in result.stderr
    assert not missing.exists()


def test_verify_says_what_a_commitment_looks_like() -> None:
    # A commitment is SHA-256 in hex (64 digits); a short or mistyped one is named as the problem
    # rather than reported as a card error in the deck that follows.
    result = cli("abc", "ab" * 16, deck_text(FULL_DECK))
    assert result.returncode == 2 and "64 hex digits" in result.stderr
