"""Hand-checked cases for the wild-card evaluator (SPEC §4, wild-eval.md §3.2).

Each case says why its expected value is right. Random cross-checks against the slow reference
are in ``test_evaluator_properties.py``.
"""

from __future__ import annotations

import dataclasses

import pytest

from bot.engine.cards import Card, Rank, parse_cards
from bot.engine.evaluator import Category, HandValue, evaluate, strength

FIVES = frozenset({Rank.FIVE})


def ev(text: str, wild: frozenset[Rank] | set[Rank] = FIVES, **kwargs: str) -> HandValue:
    return evaluate(parse_cards(text), wild, **kwargs)


def test_aces_plus_two_wilds_is_five_aces() -> None:
    # AAA + two wilds: each wild names an ace, five of a kind beats everything (pitfall: not a
    # boat or quads).
    hand = ev("Ah Ad Ac 5s 5d Kc Qc")
    assert hand.category is Category.FIVE_OF_A_KIND
    assert hand.describe() == "Five of a kind, aces"
    assert hand.wilds_used == 2


def test_nine_to_queen_plus_wild_is_king_high() -> None:
    # 9-T-J-Q + one wild: the wild completes the highest straight it can, the king, not the 8.
    hand = ev("9h Tc Jd Qs 5c 2d 3h")
    assert hand.category is Category.STRAIGHT
    assert hand.describe() == "Straight, king high"


def test_empty_wild_set_is_plain_poker() -> None:
    # No wild ranks: the 5 is an ordinary card, so A-2-3-4-5 is the wheel, five-high.
    hand = ev("Ah 2d 3c 4s 5h Kd Kc", frozenset())
    assert hand.describe() == "Straight, five high"
    assert hand.wilds_used == 0


def test_bad_input_raises_value_error() -> None:
    with pytest.raises(ValueError, match="Ah appears twice"):
        ev("Ah Ah Kd Qc Js")
    with pytest.raises(ValueError, match="5 to 7 cards"):
        ev("Ah Kd Qc Js")
    with pytest.raises(ValueError, match="5 to 7 cards"):
        ev("Ah Kd Qc Js Tc 9c 8c 7c")
    with pytest.raises(ValueError, match="wild_in_flush"):
        ev("Ah Kd Qc Js Tc", wild_in_flush="jokers")
    with pytest.raises(ValueError, match="unknown wild rank"):
        evaluate(parse_cards("Ah Kd Qc Js Tc"), [15])  # type: ignore[list-item]


def test_hand_value_is_frozen_and_ordered_by_strength() -> None:
    low = ev("2c 3d 4h 6s 8c")  # eight-high
    high = ev("Ac Ad 4h 6s 8c")  # pair of aces
    assert low < high and high > low and low != high
    same = evaluate(parse_cards("2d 3h 4s 6c 8d"), FIVES)  # same ranks in other suits: a tie
    assert same == low and hash(same) == hash(low)
    with pytest.raises(dataclasses.FrozenInstanceError):
        low.strength = 5  # type: ignore[misc]
    assert strength(low.cards, FIVES) == low.strength


def test_best_and_wilds_as_for_the_readme_hand() -> None:
    # Fives and twos wild: 9h 9d + 5c + 2s make four nines; no wild is left, so the kicker is
    # the best other natural, the ace.
    hand = ev("Ah Kd 5c 2s 9h 9d Tc", {Rank.FIVE, Rank.TWO})
    assert hand.describe() == "Four of a kind, nines"
    assert [c.code for c in hand.best] == ["9h", "9d", "5c", "2s", "Ah"]
    assert {w.code: c.rank for w, c in hand.wilds_as.items()} == {"5c": Rank.NINE, "2s": Rank.NINE}
    assert Card.parse("Ah") in hand.best
