"""The fair-deal commitment and ``wildstud verify`` (DESIGN "Fairness and secrecy")."""

from __future__ import annotations

import hashlib
import random
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.cards import FULL_DECK
from bot.engine.stakes import PRESETS
from bot.store import Store
from bot.tables.fairness import DealCommitment, commitment, deck_text, verify
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


def test_shuffle_commits_to_the_order_it_deals() -> None:
    deal = DealCommitment.shuffle(random.Random(4))
    assert sorted(deal.order) == sorted(FULL_DECK)
    assert deal.digest == reference_digest([c.code for c in deal.order], deal.salt)
    assert len(deal.salt) == 32


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
    await h.passive()
    ok = cli("--hand", str(hand_id), "--db", str(db_path))
    assert ok.returncode == 0, ok.stdout + ok.stderr
    missing = cli("--hand", "999", "--db", str(db_path))
    assert missing.returncode == 2
    assert missing.stderr == "wildstud verify: hand 999: there is no such hand\n"   # no capital mid-line


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
