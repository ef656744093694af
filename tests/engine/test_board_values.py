"""The flop games' hand values (``bot.engine.values.board``): hand-worked cases (the Omaha hands
whose best-looking five is not legal, a paired board, lows counterfeited or missing, wilds in the
hole and on the board), the brute-force references in ``tests/reference_board.py`` on random hands,
pokerkit's Omaha evaluators on natural hands, and properties."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pokerkit import OmahaEightOrBetterLowHand, OmahaHoldemHand, StandardHighHand

from bot.engine.cards.card import FULL_DECK, Card, Rank, Suit, parse_cards
from bot.engine.values.board import board_low, flop_high, omaha_high, omaha_low
from bot.engine.values.evaluator import Category, HandValue, strength
from bot.engine.values.low import LowValue
from tests.reference_board import holdem_fives, omaha_fives, ref_eight_low, ref_high
from tests.reference_evaluator import category_name, score_key, score_named

NINES = frozenset({Rank.NINE})


def holdem_high(hole: Sequence[Card], board: Sequence[Card],
                wild: frozenset[Rank] = frozenset()) -> HandValue:
    """``flop_high`` as Hold'em calls it (any five of the hole cards and the board)."""
    return flop_high(hole, board, wild, exact_hole=0)


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def high_score(value: HandValue) -> tuple[str, tuple[int, ...]]:
    return value.category.value, tuple(int(r) for r in value.ranks)


# ------------------------------------------------------------------ hand-worked cases
@pytest.mark.parametrize(("hole", "board", "omaha", "holdem", "why"), [
    ("Ah 3c 9d Ks", "Qh Jh 7h 2h 5c", "High card, ace", "Flush, ace-queen-jack-seven-two",
     "four hearts on the board and one in the hand: Omaha needs two hearts from the hand, no flush"),
    ("Kc Qd Js 4h", "Kh Ks 7c 7d 2s", "Three of a kind, kings",
     "Full house, kings over sevens",
     "a king in the hand with a board of two pair: Omaha plays three board cards, not four"),
    ("Kc Kd 3s 4h", "9h 9s 9c 9d Ah", "Full house, nines over kings", "Four of a kind, nines",
     "four of a kind on the board: Omaha plays at most three of it, with the hand's pair"),
    ("9c Ad Ah As", "5h 6s 7c 8d Kh", "One pair, aces", "Straight, nine high",
     "four to a straight on the board and the fifth card in the hand: no straight in Omaha"),
    ("Ac Ad Ah As", "2h 7s 9c Jd Kh", "One pair, aces", "Four of a kind, aces",
     "four aces in the hand: Omaha plays two of them"),
    ("Ah Kh 2c 3d", "Qh Jh Th 5s 5d", "Royal flush", "Royal flush",
     "two hearts in the hand and three on the board: the royal flush is legal"),
])
def test_named_high(hole: str, board: str, omaha: str, holdem: str, why: str) -> None:
    h, b = cards(hole), cards(board)
    value = omaha_high(h, b)
    assert value.describe() == omaha, why
    assert sum(c in h for c in value.best) == 2 and sum(c in b for c in value.best) == 3, why
    assert holdem_high(h[:2], b).describe() == holdem or holdem_high(h, b).describe() == holdem, why


def test_omaha_flush_is_legal_with_two_suited_hole_cards() -> None:
    value = omaha_high(cards("Ah 3h 9d Ks"), cards("Qh Jh 7h 2c 5c"))
    assert value.category is Category.FLUSH
    assert [c.code for c in value.best] == ["Ah", "Qh", "Jh", "7h", "3h"]


@pytest.mark.parametrize(("hole", "board", "low", "why"), [
    ("As 2d Kc Kd", "3h 7c 8s Qd Js", "8-7-3-2-A", "two low cards in the hand and three on the board"),
    ("Ac 5d Kc Kd", "2h 3c 4s Qd Js", "5-4-3-2-A", "a wheel: two from the hand, three from the board"),
    ("Ac 2d 4c 5d", "Ah 2h 3s 7d Ks", "5-4-3-2-A",
     "ace-deuce counterfeited by the board: the four-five plays instead"),
    ("Ac 2d 3c 4d", "7h 8c Ks Qd Js", None, "only two low cards on the board: no low"),
    ("Ac Kd Qc Jd", "2h 3c 4s 5d 6s", None,
     "five low cards on the board, one in the hand: Omaha needs two"),
    ("Ac Ad 2c 2d", "3h 4c 9s Qd Js", None, "a low needs five different ranks: pairs do not play"),
])
def test_named_low(hole: str, board: str, low: str | None, why: str) -> None:
    h, b = cards(hole), cards(board)
    value = omaha_low(h, b)
    if low is None:
        assert value is None, why
        return
    assert value is not None and "-".join("A" if r == 1 else str(r) for r in value.ranks) == low, why
    assert sum(c in h for c in value.cards) == 2 and sum(c in b for c in value.cards) == 3, why


def test_high_and_low_use_different_hole_cards() -> None:
    hole, board = cards("Ah 2d Kc Ks"), cards("Kh 7c 8s Qd 3s")
    assert omaha_high(hole, board).describe() == "Three of a kind, kings"
    low = omaha_low(hole, board)
    assert low is not None and low.describe() == "Eight-seven low (8-7-3-2-A)"
    assert set(low.cards) == set(cards("Ah 2d 7c 8s 3s"))


def test_holdem_plays_the_board_and_counts_any_hole_cards() -> None:
    assert holdem_high(cards("2c 3d"), cards("Ts Js Qs Ks As")).describe() == "Royal flush"
    assert set(holdem_high(cards("2c 3d"), cards("Ts Js Qs Ks As")).best) == set(cards("Ts Js Qs Ks As"))
    assert board_low(cards("Ac 2d"), cards("3s 7h 8c Kd Qd")) is not None
    assert board_low(cards("Kc 2d"), cards("3s 7h 8c Kd Qd")) is None


def test_wild_cards_in_the_hole_and_on_the_board() -> None:
    # Two wild nines in the hand with three kings on the board: five kings.
    assert omaha_high(cards("9c 9d 2s 3h"), cards("Kh Ks Kc 4d 7s"), NINES).describe() \
        == "Five of a kind, kings"
    # A wild on the board completes a hand of two hole cards and two other board cards.
    value = omaha_high(cards("Ah Kh 2c 3d"), cards("Qh Jh 9s 5s 5d"), NINES)
    assert value.describe() == "Royal flush"
    assert value.wilds_as == {Card(Rank.NINE, Suit.SPADES): Card(Rank.TEN, Suit.HEARTS)}
    # Three wilds in the hand: only two of them play (any five of the nine would be four kings).
    hole, board = cards("9c 9d 9h 3h"), cards("Kh 2s 4c 6d 7s")
    assert omaha_high(hole, board, NINES).describe() == "Straight, eight high"
    assert holdem_high(hole, board, NINES).describe() == "Four of a kind, kings"
    # For low a wild names the lowest rank missing from the five: the wild nine is a five here.
    low = omaha_low(cards("Ac 2d Kc Kd"), cards("3h 4s 9s Qd Js"), NINES)
    assert low is not None and low.name == "wheel"
    assert Card(Rank.NINE, Suit.SPADES) in low.cards
    # Naturally that nine does not qualify.
    assert omaha_low(cards("Ac 2d Kc Kd"), cards("3h 4s 9s Qd Js")) is None


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="2 hole cards and 3 board cards"):
        omaha_high(cards("Ac 2d 3c 4d"), cards("5h 6h"))
    with pytest.raises(ValueError, match="appears twice"):
        omaha_high(cards("Ac 2d 3c 4d"), cards("Ac 6h 7h"))
    with pytest.raises(ValueError, match="appears twice"):
        omaha_low(cards("Ac 2d 3c 4d"), cards("Ac 6h 7h"))
    with pytest.raises(ValueError, match="five cards"):
        board_low(cards("Ac 2d"), cards("3c 4d"))


# ------------------------------------------------------------------ random hands
@st.composite
def deals(draw: st.DrawFn, hole: int = 4, board_sizes: tuple[int, ...] = (3, 4, 5),
          wild: bool = True) -> tuple[list[Card], list[Card], frozenset[Rank]]:
    """A hand and a board, and 0 to 2 wild ranks (wild cards are then often in both)."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    board_n = draw(st.sampled_from(board_sizes))
    wild_ranks = frozenset(rng.sample(list(Rank), draw(st.integers(0, 2)))) if wild else frozenset()
    dealt = rng.sample(FULL_DECK, hole + board_n)
    return dealt[:hole], dealt[hole:], wild_ranks


def check_high(value: HandValue, hole: Sequence[Card], board: Sequence[Card], wild: frozenset[Rank],
               fives: list[tuple[Card, ...]], omaha: bool) -> None:
    expected = ref_high(fives, wild)
    assert high_score(value) == (category_name(expected), expected[1]), (hole, board, wild)
    best = value.best
    if omaha:
        assert sum(c in hole for c in best) == 2 and sum(c in board for c in best) == 3
    named = [value.wilds_as.get(c, c) for c in best]
    assert score_key(score_named(named)) == score_key(expected)


@settings(max_examples=300, deadline=None)
@given(deals())
def test_omaha_high_is_the_reference(deal: tuple[list[Card], list[Card], frozenset[Rank]]) -> None:
    hole, board, wild = deal
    check_high(omaha_high(hole, board, wild), hole, board, wild, omaha_fives(hole, board), omaha=True)


@settings(max_examples=300, deadline=None)
@given(deals(hole=2))
def test_holdem_high_is_the_reference(deal: tuple[list[Card], list[Card], frozenset[Rank]]) -> None:
    hole, board, wild = deal
    check_high(holdem_high(hole, board, wild), hole, board, wild, holdem_fives(hole, board), omaha=False)


def low_ranks(value: LowValue | None) -> tuple[int, ...] | None:
    return None if value is None else value.ranks


@settings(max_examples=300, deadline=None)
@given(deals())
def test_omaha_low_is_the_reference(deal: tuple[list[Card], list[Card], frozenset[Rank]]) -> None:
    hole, board, wild = deal
    value = omaha_low(hole, board, wild)
    assert low_ranks(value) == ref_eight_low(omaha_fives(hole, board), wild), (hole, board, wild)
    if value is not None:
        assert len(set(value.cards)) == 5
        assert sum(c in hole for c in value.cards) == 2 and sum(c in board for c in value.cards) == 3
        # Each natural plays as its own rank; each wild is where the rank it names plays.
        for card, rank in zip(value.cards, value.ranks, strict=True):
            assert card.rank in wild or (1 if card.rank is Rank.ACE else int(card.rank)) == rank


@settings(max_examples=300, deadline=None)
@given(deals(hole=2))
def test_board_low_is_the_reference(deal: tuple[list[Card], list[Card], frozenset[Rank]]) -> None:
    hole, board, wild = deal
    assert low_ranks(board_low(hole, board, wild)) == ref_eight_low(holdem_fives(hole, board), wild)


def test_against_pokerkit_on_natural_hands() -> None:
    """pokerkit's Omaha evaluators (an independent implementation) agree on natural hands: the
    same order of hands over random deals at a shared board."""
    rng = random.Random(21)
    for _ in range(300):
        dealt = rng.sample(FULL_DECK, 13)
        board, hands = dealt[:5], [dealt[5:9], dealt[9:13]]
        code = "".join

        ours = [omaha_high(h, board).strength for h in hands]
        theirs = [OmahaHoldemHand.from_game(code(c.code for c in h), code(c.code for c in board))
                  for h in hands]
        assert (ours[0] > ours[1]) == (theirs[0] > theirs[1])
        assert (ours[0] == ours[1]) == (theirs[0] == theirs[1])
        # The five pokerkit chose scores as ours.
        for h, hand in zip(hands, theirs, strict=True):
            five = parse_cards(repr(c) for c in hand.cards)
            assert strength(five, frozenset()) == omaha_high(h, board).strength
        lows = [omaha_low(h, board) for h in hands]
        for h, low in zip(hands, lows, strict=True):
            try:
                their = OmahaEightOrBetterLowHand.from_game(code(c.code for c in h),
                                                            code(c.code for c in board))
            except ValueError:
                assert low is None
                continue
            assert low is not None
            assert sorted(repr(c)[0] for c in their.cards) == sorted(c.code[0] for c in low.cards)
        if all(low is not None for low in lows):
            a, b = (OmahaEightOrBetterLowHand.from_game(code(c.code for c in h), code(c.code for c in board))
                    for h in hands)
            assert (lows[0].key < lows[1].key) == (a > b)  # type: ignore[union-attr]
        seven = [StandardHighHand.from_game(code(c.code for c in h[:2]), code(c.code for c in board))
                 for h in hands]
        mine = [holdem_high(h[:2], board).strength for h in hands]
        assert (mine[0] > mine[1]) == (seven[0] > seven[1])


@settings(max_examples=200, deadline=None)
@given(deals())
def test_properties(deal: tuple[list[Card], list[Card], frozenset[Rank]]) -> None:
    hole, board, wild = deal
    omaha = omaha_high(hole, board, wild)
    # Omaha's rule only takes fives away: never better than any five of the nine cards.
    assert omaha.strength <= holdem_high(hole, board, wild).strength
    # The order the cards are given in does not matter.
    rng = random.Random(len(hole) * 100 + len(board))
    assert omaha_high(rng.sample(hole, len(hole)), rng.sample(board, len(board)), wild).strength \
        == omaha.strength
    # Wilds only help, in either half; any five beats or ties exactly two plus three for low.
    assert omaha.strength >= omaha_high(hole, board).strength
    natural_low, wild_low = omaha_low(hole, board), omaha_low(hole, board, wild)
    if natural_low is not None:
        assert wild_low is not None and wild_low.key <= natural_low.key
    anywhere = board_low(hole, board, wild)
    if wild_low is not None:
        assert anywhere is not None and anywhere.key <= wild_low.key
    # Two hole cards and three board cards: Omaha and Hold'em are the same five.
    assert omaha_high(hole[:2], board[:3], wild).strength == holdem_high(hole[:2], board[:3], wild).strength
