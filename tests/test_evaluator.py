"""Hand-checked cases for the wild-card evaluator (SPEC §4, wild-eval.md §3.2).

Each case says why its expected value is right. Random cross-checks against the slow reference
are in ``test_evaluator_properties.py``.
"""

from __future__ import annotations

import dataclasses

import pytest

from bot.engine.cards.card import Card, Rank, parse_cards
from bot.engine.values.evaluator import Category, HandValue, evaluate, strength

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
        low.strength = 5
    with pytest.raises(AttributeError):
        low.colour = 'red'  # type: ignore[attr-defined]
    assert strength(low.cards, FIVES) == low.strength


def test_best_and_wilds_as_for_the_readme_hand() -> None:
    # Fives and twos wild: 9h 9d + 5c + 2s make four nines; no wild is left, so the kicker is
    # the best other natural, the ace.
    hand = ev("Ah Kd 5c 2s 9h 9d Tc", {Rank.FIVE, Rank.TWO})
    assert hand.describe() == "Four of a kind, nines"
    assert [c.code for c in hand.best] == ["9h", "9d", "5c", "2s", "Ah"]
    assert {w.code: c.rank for w, c in hand.wilds_as.items()} == {"5c": Rank.NINE, "2s": Rank.NINE}
    assert Card.parse("Ah") in hand.best


# --- wild-eval.md §3.2 pitfalls, each hand-checked ------------------------------------------


def test_wheel_with_a_wild_five() -> None:
    # A-2-3-4 + the wild 5: the wheel, five-high. A six-high straight would need both a 5 and a
    # 6 (two wilds), and a straight beats the pair the wild could otherwise make.
    hand = ev("Ah 2c 3d 4s 5h Kc 9d")
    assert hand.describe() == "Straight, five high"
    assert [c.code for c in hand.best] == ["5h", "4s", "3d", "2c", "Ah"]


def test_steel_wheel_with_a_wild() -> None:
    # A♥ 2♥ 3♥ 4♥ + wild: the 5♥ completes the steel wheel (straight flush, five-high). The six-high
    # straight flush would need a 5 and a 6; five of a kind needs four wilds.
    hand = ev("Ah 2h 3h 4h 5c Kd 9s")
    assert hand.category is Category.STRAIGHT_FLUSH
    assert hand.describe() == "Straight flush, five high"
    assert {c.code for c in hand.wilds_as.values()} == {"5h"}


def test_two_three_four_and_two_wilds_is_six_high() -> None:
    # 2-3-4 + two wilds: the wilds fill 5 and 6 (6-high); the wheel would waste one. Trips (K + two
    # wilds) lose to any straight.
    hand = ev("2c 3d 4h 5s 5d 9c Kd")
    assert hand.describe() == "Straight, six high"
    suited = ev("2h 3h 4h 5s 5d 9c Kd")
    assert suited.describe() == "Straight flush, six high"


def test_two_three_four_and_one_wild_is_not_a_straight() -> None:
    # 2-3-4 + one wild is four cards of a straight: no straight. The wild pairs the highest card,
    # the king, and the kickers are the next naturals J, 9.
    hand = ev("2c 3d 4h 5s 9c Kd Jh")
    assert hand.describe(kickers=True) == "One pair, kings, jack-nine-four kickers"


def test_six_connected_plus_wild_does_not_overextend() -> None:
    # pokersolver #32 shape, twos wild: 4 5 6 7 9 T + a wild 2. The wild fills the 8: T-high
    # (6-T). J-high would need both 8 and J.
    hand = evaluate(parse_cards("5c 6h 7d 9c 4d 2s Tc"), {Rank.TWO})
    assert hand.describe() == "Straight, ten high"
    # 8-Q natural plus a wild: king-high (9-K); ace-high would need K and A.
    assert ev("8c 9d Th Js Qc 5h 2d").describe() == "Straight, king high"


def test_ace_king_king_and_two_wilds_is_four_kings_ace_kicker() -> None:
    # W W + K K = four kings, the ace plays as the kicker; quads beat aces full.
    hand = ev("Ac Kd Kh 5s 5c 9d 2h")
    assert hand.category is Category.FOUR_OF_A_KIND
    assert hand.ranks == (Rank.KING, Rank.ACE)
    assert hand.describe(kickers=True) == "Four of a kind, kings, ace kicker"


def test_four_wilds_and_a_king_is_five_kings() -> None:
    # Four wilds join the highest natural, the king; five aces would need a fifth wild.
    hand = ev("5c 5d 5h 5s Kd 2c 3h")
    assert hand.describe() == "Five of a kind, kings"
    assert hand.wilds_used == 4


def test_five_or_more_wilds_make_five_aces() -> None:
    fives_nines = {Rank.FIVE, Rank.NINE}
    # Five wilds: five aces, whatever the naturals (no six of a kind).
    assert evaluate(parse_cards("5c 5d 5h 9s 9d 2c 3h"), fives_nines).describe() == "Five of a kind, aces"
    # Six wilds + a king: five aces beat five kings (which would use only four wilds).
    six = evaluate(parse_cards("5c 5d 5h 5s 9d 9c Kh"), fives_nines)
    assert six.describe() == "Five of a kind, aces"
    # Seven wilds: still five aces, and all five-ace hands split.
    seven = evaluate(parse_cards("5c 5d 5h 5s 9d 9c 9h"), fives_nines)
    assert seven == six and seven.describe() == "Five of a kind, aces"
    # An ace among them is used as itself: only four wilds are needed.
    assert evaluate(parse_cards("5c 5d 5h 5s 9d 9c Ah"), fives_nines).wilds_used == 4


def test_five_of_a_kind_beats_a_royal_flush() -> None:
    # SPEC §4 ranking: five of a kind > royal flush > straight flush.
    quints = ev("Ac Ad Ah 5c 5d")
    royal = ev("As Ks Qs Js Ts")
    steel = ev("Ah 2h 3h 4h 5h")  # 5h is wild: the steel wheel
    assert quints > royal > steel
    assert royal.category is Category.ROYAL_FLUSH and royal.describe() == "Royal flush"


def test_flush_with_two_wilds_under_both_rulings() -> None:
    # A♠ 9♠ 7♠ + two wilds. any-card: each wild is an ace: A-A-A-9-7. highest-missing: the
    # wilds take the missing K and Q: A-K-Q-9-7. No straight flush (5-9 would need three wilds),
    # and a flush beats the trip aces the wilds could also make.
    cards = "As 9s 7s 5c 5d Kd 2c"
    assert ev(cards).describe() == "Flush, ace-ace-ace-nine-seven"
    assert ev(cards, wild_in_flush="highest-missing").describe() == "Flush, ace-king-queen-nine-seven"
    named = ev(cards, wild_in_flush="highest-missing").wilds_as.values()
    assert {c.code for c in named} == {"Ks", "Qs"}


def test_double_ace_flush_beats_a_natural_ace_king_flush_only_under_any_card() -> None:
    # A♠ + wild + 9♠ 7♠ 2♠ is A-A-9-7-2 under any-card: it beats A-K-9-7-2 at the second card.
    # Under highest-missing the wild is the K♠: A-K-9-7-2, the same ranks, so the pot splits.
    double = "As 5c 9s 7s 2s"
    natural = "Ah Kh 9h 7h 2h"
    assert ev(double).describe() == "Flush, ace-ace-nine-seven-two"
    assert ev(double) > ev(natural)
    assert ev(double, wild_in_flush="highest-missing") == ev(natural, wild_in_flush="highest-missing")


def test_flush_straight_or_boat_takes_the_best() -> None:
    # One wild could make kings full (K K W + 9 9), a heart flush (K 9 7 2 + W) or nothing better:
    # the full house is the highest category on offer.
    assert ev("Kh Kd 9h 9c 7h 2h 5c").describe() == "Full house, kings over nines"
    # Without the second nine the best is the flush, wild as the ace of hearts (flush > trips).
    assert ev("Kh Kd 9h 8c 7h 2h 5c").describe() == "Flush, ace-king-nine-seven-two"


def test_kicker_fights() -> None:
    # Same quads: the fifth card decides (Q beats J).
    assert ev("Kc Kd 5s 5h Qc") > ev("Kh Ks 5c 5d Jc")
    # Same trips (nines, one made with a wild): A-Q beats A-J.
    assert ev("9c 9d 5h Ac Qd 3s 2h") > ev("9h 9s 5c Ad Jd 3c 2d")
    # Same two pair: the kicker decides; ranks give kings, nines, queen.
    a, b = ev("Kc Kd 9c 9d Qh 2c 3d"), ev("Ks Kh 9h 9s Jc 2d 3h")
    assert a > b and a.ranks == (Rank.KING, Rank.NINE, Rank.QUEEN)
    # Pair of aces made with a wild (kickers K 9 7) beats natural aces with K 9 6.
    assert ev("Ac Kd 9h 7s 5c 3d 2h") > ev("As Ah Kc 9d 6s 3c 2d")
    # The same five ranks in other suits split: suits never decide a pot.
    assert ev("Ac Kd 9h 7s 3c") == ev("Ad Kh 9s 7c 3d")


def test_natural_wins_ties_ruling_uses_the_wild_count() -> None:
    # Four kings + ace: natural (no wild) versus with two wilds. Equal value: a split by default;
    # under natural_wins_ties the natural hand is ahead.
    natural = ev("Kc Kd Kh Ks Ac 2d 3h")
    wild = ev("Ad Ks Kd 5s 5d 2c 3d")
    assert natural == wild
    assert natural.wilds_used == 0 and wild.wilds_used == 2
    assert natural.showdown_key() == wild.showdown_key()
    assert natural.showdown_key(natural_wins_ties=True) > wild.showdown_key(natural_wins_ties=True)


def test_a_wild_that_is_not_needed_is_not_counted() -> None:
    # A natural royal flush with a spare wild: the wild could copy a card, but the best hand is
    # the natural royal (five of a kind would need four wilds), so no wild is used.
    hand = ev("As Ks Qs Js Ts 5c 2d")
    assert hand.category is Category.ROYAL_FLUSH
    assert hand.wilds_used == 0 and not hand.wilds_as


@pytest.mark.parametrize(
    ("cards", "wild", "phrase"),
    [
        ("Kc Kd Kh Tc Td 2s 3s", "", "Full house, kings over tens"),
        ("2s 3s 4s 6s 5d Kd Qc", "5", "Straight flush, six high"),
        ("Kc Kd 9h 9c Ah 2s 3d", "", "Two pair, kings and nines"),
        ("Ac Ad 9h 7c 3h 2s 4d", "", "One pair, aces"),
        ("Ac Jd 9h 7c 3h 2s 4d", "", "High card, ace"),
        ("9c 9d 9h 7c 3h 2s Kd", "", "Three of a kind, nines"),
        ("Kc Kd 9h 7c 3h 5s 5d", "5", "Four of a kind, kings"),
    ],
)
def test_describe_phrases(cards: str, wild: str, phrase: str) -> None:
    # Each hand is built so that its category is the only one on offer (checked by eye: no
    # straight or flush draws among the naturals).
    assert ev(cards, {Rank.parse(r) for r in wild}).describe() == phrase


def test_card_codes_mixed_with_cards_are_parsed_too() -> None:
    # evaluate() accepts card codes in place of Card values. A list that starts with a Card and
    # goes on with codes must be parsed the same way: Ah + wild 5c make a pair of aces (no other
    # pair, straight or flush among Kd 9h 2s), and the shown cards are Card values.
    hand = evaluate([Card.parse("Ah"), "Kd", "5c", "2s", "9h"], FIVES)  # type: ignore[list-item]
    assert hand.describe() == "One pair, aces"
    assert all(isinstance(c, Card) for c in hand.cards)
    assert [c.code for c in hand.best] == ["Ah", "5c", "Kd", "9h", "2s"]


def test_an_impossible_card_value_is_a_value_error() -> None:
    # A Card built around the parser with rank 1 is not a playing card: the documented
    # ValueError, not an AttributeError from printing it.
    bogus = Card(1, 0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not a playing card"):
        evaluate([bogus, *parse_cards("Kd 5c 2s 9h")], FIVES)
