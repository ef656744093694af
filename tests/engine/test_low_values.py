"""The low rankings (``bot.engine.values``) against hand-worked cases, the brute-force references
in ``tests/reference_low.py`` on random hands, and pokerkit's evaluators."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pokerkit import BadugiHand, EightOrBetterLowHand, RegularLowHand, StandardLowHand

from bot.engine.cards.card import FULL_DECK, Card, parse_cards
from bot.engine.values.ace_to_five import ace_to_five, ace_to_five_key, eight_or_better, qualifies_eight
from bot.engine.values.badugi import badugi, badugi_key
from bot.engine.values.deuce_to_seven import deuce_to_seven, deuce_to_seven_key
from tests.reference_low import ref_ace_to_five, ref_badugi, ref_deuce_to_seven, ref_eight_or_better


def cards(text: str) -> list[Card]:
    return parse_cards(text)


# ------------------------------------------------------------------ hand-worked cases
@pytest.mark.parametrize(("hand", "name", "ranks", "why"), [
    ("5h 4c 3d 2s As", "wheel", (5, 4, 3, 2, 1), "the lowest five ranks, straight ignored"),
    ("5h 4h 3h 2h Ah", "wheel", (5, 4, 3, 2, 1), "a flush does not count either"),
    ("8h 6c 4d 3s As Kc Kd", "eight-six low", (8, 6, 4, 3, 1), "kings are the two cards left out"),
    ("As Ah 2c 3d 4h 6s 6d", "six-four low", (6, 4, 3, 2, 1), "one ace and one six play, no pair"),
    ("Ks Qs Jh Td 9c 9h 9d", "king-queen low", (13, 12, 11, 10, 9),
     "five different ranks always beat a pair, even king-high"),
    ("9h 9c 4d 4s Ks Kc 7h", "pair of fours", (4, 4, 13, 9, 7),
     "four ranks only: the lowest pair plays, with the other three ranks highest first"),
    ("9h 9c 4d 4s 4h Kd Ks", "two pair, nines and fours", (9, 9, 4, 4, 13),
     "three ranks: two pair beats trips; nines-fours (9 then 4) beats kings-fours and kings-nines"),
    ("7s 7h 7d 7c 2s 2h 2d", "twos full of sevens", (2, 2, 2, 7, 7),
     "two ranks: a full house beats four of a kind, and the lower three of a kind is the better one"),
])
def test_ace_to_five_hand_worked(hand: str, name: str, ranks: tuple[int, ...], why: str) -> None:
    value = ace_to_five(cards(hand))
    assert (value.name, value.ranks) == (name, ranks), why


def test_ace_to_five_order_hand_worked() -> None:
    # Lower top card wins; then the next card: 7-6-4-3-2 loses to 7-5-4-3-2 (second card 6 > 5);
    # the ace is the lowest card, so 6-4-3-2-A beats 6-4-3-2-... nothing lower exists; any no-pair
    # hand beats any pair.
    order = ["5c 4d 3h 2s Ac", "6c 4d 3h 2s Ac", "7c 5d 4h 3s 2c", "7c 6d 4h 3s 2c", "8c 6d 4h 3s 2c",
             "Kc Qd Jh Ts 9c", "Ac Ad 2h 3s 4c", "2c 2d 3h 4s 5c", "Ac Ad 2h 2s 3c"]
    keys = [ace_to_five_key(cards(h)) for h in order]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)


def test_up_cards_rank_as_lows() -> None:
    # Fourth street: 7-4 showing is lower than 8-2 (top card first); any unpaired board beats a pair.
    boards = ["7c 4d", "8c 2d", "Kc Qd", "2c 2d"]
    keys = [ace_to_five_key(cards(b)) for b in boards]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    assert ace_to_five_key(cards("Ac 2d 3h")) < ace_to_five_key(cards("Ac 2d 4h"))
    assert ace_to_five(cards("7c 4d")).name == "seven-four low"


@pytest.mark.parametrize(("hand", "low", "why"), [
    ("8h 7c 6d 5s 4s Kc Kd", (8, 7, 6, 5, 4), "the worst qualifying low still qualifies"),
    ("9h 7c 6d 5s 4s Kc Kd", None, "a nine is above eight: no low"),
    ("8h 7c 6d 5s 5h Kc Kd", None, "only four different ranks of eight or less: no low"),
    ("As 2s 3s 4s 5s Kc Kd", (5, 4, 3, 2, 1), "a straight flush for high is also the wheel for low"),
    ("As Ad 2c 2d 3h 8s 9c", None, "A, 2, 3, 8: four low ranks, the nine is too high"),
])
def test_eight_or_better_hand_worked(hand: str, low: tuple[int, ...] | None, why: str) -> None:
    value = eight_or_better(cards(hand))
    assert (value.ranks if value else None) == low, why
    assert qualifies_eight(cards(hand)) is (low is not None)


@pytest.mark.parametrize(("hand", "name", "why"), [
    ("7h 5c 4d 3s 2s", "number one, the wheel", "the best hand: lowest no-pair, not a straight or flush"),
    ("7h 6c 4d 3s 2s", "seven-six low", "second card six"),
    ("Ah 5c 4d 3s 2s", "ace-five low", "the ace is high: A-2-3-4-5 is not a straight, but ace-high"),
    ("6h 5c 4d 3s 2s", "six-high straight", "a straight counts against you"),
    ("7h 5h 4h 3h 2h", "seven-high flush", "a flush counts against you"),
    ("2h 2c 4d 3s 5s", "pair of twos", "any pair loses to any no-pair hand"),
])
def test_deuce_to_seven_hand_worked(hand: str, name: str, why: str) -> None:
    assert deuce_to_seven(cards(hand)).name == name, why


def test_deuce_to_seven_order_hand_worked() -> None:
    order = ["7h 5c 4d 3s 2s", "7h 6c 4d 3s 2s", "8h 5c 4d 3s 2s", "Kh Qc Jd 9s 8s", "Ah 5c 4d 3s 2s",
             "2h 2c 4d 3s 5s", "Ah Ac Kd Qs Js", "2h 2c 3d 3s 4s", "2h 2c 2d 3s 4s", "6h 5c 4d 3s 2s",
             "Ah Kc Qd Js Ts", "7h 5h 4h 3h 2h", "2h 2c 2d 3s 3h", "2h 2c 2d 2s 3h", "6h 5h 4h 3h 2h"]
    keys = [deuce_to_seven_key(cards(h)) for h in order]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)


@pytest.mark.parametrize(("hand", "name", "why"), [
    ("Ac 2d 3h 4s", "badugi, 4-3-2-A", "four suits, four ranks, aces low: the best badugi"),
    ("7h 4c 2d 2s", "three-card badugi, 7-4-2", "the deuces pair: one of them plays"),
    ("Kc Qc Jc 2c", "one-card badugi, 2", "all clubs: only the lowest club plays"),
    ("2s 3d 3c 4d", "three-card badugi, 4-3-2", "3c plays with 4d and 2s (the 3d would clash with the 4d)"),
    ("Ks 4h 3d Ac", "badugi, K-4-3-A", "any four-card badugi beats every three-card hand"),
])
def test_badugi_hand_worked(hand: str, name: str, why: str) -> None:
    assert badugi(cards(hand)).name == name, why


def test_badugi_order_hand_worked() -> None:
    # Size first, then the highest card: 7-4-3-2 beats 7-5-2-A (second card 4 < 5).
    order = ["Ac 2d 3h 4s", "7c 4d 3h 2s", "7c 5d 2h As", "Kc Qd Jh Ts", "Ac 2d 3h 3s", "Qc Jd 9h 9d",
             "Ac 2c 3c 4c"]
    keys = [badugi_key(cards(h)) for h in order]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)


# ------------------------------------------------------------------ random hands vs the references
@st.composite
def hands(draw: st.DrawFn, low: int, high: int) -> list[Card]:
    rng = random.Random(draw(st.integers(0, 2**32)))
    return rng.sample(FULL_DECK, draw(st.integers(low, high)))


def _sign(x: object, y: object) -> int:
    return (x > y) - (x < y)  # type: ignore[operator]


@settings(max_examples=200, deadline=None)
@given(hands(1, 8), st.randoms(use_true_random=False))
def test_ace_to_five_against_reference(hand: list[Card], rng: random.Random) -> None:
    value = ace_to_five(hand)
    score, ranks = ref_ace_to_five(hand)
    assert tuple(sorted(value.ranks, reverse=True)) == ranks
    assert len(set(value.cards)) == len(value.cards) and all(c in hand for c in value.cards)
    assert [1 if c.rank == 14 else int(c.rank) for c in value.cards] == list(value.ranks)
    other = rng.sample(FULL_DECK, len(hand))
    assert _sign(ace_to_five_key(hand), ace_to_five_key(other)) == _sign(score, ref_ace_to_five(other)[0])


@settings(max_examples=200, deadline=None)
@given(hands(5, 8))
def test_eight_or_better_against_reference(hand: list[Card]) -> None:
    value = eight_or_better(hand)
    assert (value.ranks if value else None) == ref_eight_or_better(hand)


@settings(max_examples=150, deadline=None)
@given(hands(5, 7), st.randoms(use_true_random=False))
def test_deuce_to_seven_against_reference(hand: list[Card], rng: random.Random) -> None:
    score, ranks = ref_deuce_to_seven(hand)
    assert tuple(sorted(deuce_to_seven(hand).ranks, reverse=True)) == ranks
    other = rng.sample(FULL_DECK, len(hand))
    theirs = ref_deuce_to_seven(other)[0]
    assert _sign(deuce_to_seven_key(hand), deuce_to_seven_key(other)) == _sign(score, theirs)


@settings(max_examples=200, deadline=None)
@given(hands(1, 6), st.randoms(use_true_random=False))
def test_badugi_against_reference(hand: list[Card], rng: random.Random) -> None:
    score = ref_badugi(hand)
    value = badugi(hand)
    assert (-len(value.ranks), value.ranks) == score
    assert len({c.suit for c in value.cards}) == len({c.rank for c in value.cards}) == len(value.cards)
    other = rng.sample(FULL_DECK, len(hand))
    assert _sign(badugi_key(hand), badugi_key(other)) == _sign(score, ref_badugi(other))


# ------------------------------------------------------------------ pokerkit's evaluators
def _pk(hand: Sequence[Card]) -> str:
    return "".join(c.code for c in hand)


def _agree(ours: Callable[[Sequence[Card]], int], theirs: Callable[[str], object], size: int,
           count: int = 800) -> None:
    """Our order (lower key better) and pokerkit's (greater hand better) agree on random pairs."""
    rng = random.Random(19)
    for _ in range(count):
        a, b = rng.sample(FULL_DECK, size), rng.sample(FULL_DECK, size)
        pa, pb = theirs(_pk(a)), theirs(_pk(b))
        assert _sign(ours(b), ours(a)) == _sign(pa, pb), (_pk(a), _pk(b))


def test_ace_to_five_agrees_with_pokerkit() -> None:
    _agree(ace_to_five_key, RegularLowHand.from_game, 7, count=500)
    _agree(ace_to_five_key, RegularLowHand.from_game, 5, count=500)


def test_deuce_to_seven_agrees_with_pokerkit() -> None:
    _agree(deuce_to_seven_key, StandardLowHand.from_game, 5)
    _agree(deuce_to_seven_key, StandardLowHand.from_game, 7, count=300)


def test_badugi_agrees_with_pokerkit() -> None:
    _agree(badugi_key, BadugiHand.from_game, 4)


def test_eight_or_better_agrees_with_pokerkit() -> None:
    rng = random.Random(8)
    for _ in range(800):
        hand = rng.sample(FULL_DECK, 7)
        try:
            theirs: object = EightOrBetterLowHand.from_game(_pk(hand))
        except ValueError:
            theirs = None
        ours = eight_or_better(hand)
        assert (ours is None) == (theirs is None), _pk(hand)
        if ours is not None and theirs is not None:
            assert sorted(ours.ranks) == sorted(_rank_low(c) for c in theirs.cards)  # type: ignore[attr-defined]


def _rank_low(card: object) -> int:
    return "A23456789TJQK".index(str(card.rank)) + 1  # type: ignore[attr-defined]
