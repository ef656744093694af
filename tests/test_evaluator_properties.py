"""The fast evaluator against the slow reference, and its invariants, on random hands.

Hands are drawn with a chosen number of wild cards (0 to 7) so that the many-wild corners
(five of a kind, six or seven wilds) are hit often, not once in a blue moon.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.cards.card import FULL_DECK, Card, Rank, Suit
from bot.engine.values.evaluator import WILD_IN_FLUSH_OPTIONS, HandValue, evaluate, strength
from tests.reference_evaluator import category_name, reference_evaluate, score_key, score_named

RANKS = list(Rank)


@st.composite
def hands(draw: st.DrawFn, max_wild_ranks: int = 5) -> tuple[list[Card], frozenset[Rank]]:
    """5 to 7 distinct cards and a wild set, with 0..7 of the cards wild (as the set allows).

    Hypothesis draws the sizes and a seed; the ranks and cards come from ``random.Random(seed)``
    (drawing each card from hypothesis is several times slower, and these tests want many
    examples)."""
    n = draw(st.integers(5, 7))
    rng = random.Random(draw(st.integers(0, 2**32)))
    wild = frozenset(rng.sample(RANKS, draw(st.integers(0, max_wild_ranks))))
    wild_cards = [c for c in FULL_DECK if c.rank in wild]
    natural_cards = [c for c in FULL_DECK if c.rank not in wild]
    k = draw(st.integers(0, min(n, len(wild_cards))))
    chosen = rng.sample(wild_cards, k) + rng.sample(natural_cards, n - k)
    rng.shuffle(chosen)
    return chosen, wild


def fast_score(hand: HandValue) -> tuple[str, tuple[int, ...]]:
    return hand.category.value, tuple(int(r) for r in hand.ranks)


def check_against_reference(cards: list[Card], wild: frozenset[Rank], ruling: str) -> None:
    hand = evaluate(cards, wild, wild_in_flush=ruling)
    expected, fewest_wilds = reference_evaluate(cards, wild, ruling)
    assert fast_score(hand) == (category_name(expected), expected[1]), [c.code for c in cards]
    assert hand.wilds_used == fewest_wilds
    assert strength(cards, wild, wild_in_flush=ruling) == hand.strength
    # The five cards shown, with each wild replaced by what it stands for, score the same.
    best = hand.best
    assert len(best) == 5 and len(set(best)) == 5 and set(best) <= set(cards)
    assert set(hand.wilds_as) == {c for c in best if c.rank in wild}
    named = [hand.wilds_as.get(c, c) for c in best]
    assert score_key(score_named(named)) == score_key(expected)
    if ruling == "highest-missing" and hand.category.value in ("flush", "straight_flush", "royal_flush"):
        assert len(set(named)) == 5  # no wild copies a card in a flush under this ruling


@settings(max_examples=1000, deadline=None)
@given(hands())
def test_matches_reference_any_card(hand: tuple[list[Card], frozenset[Rank]]) -> None:
    check_against_reference(*hand, "any-card")


@settings(max_examples=500, deadline=None)
@given(hands())
def test_matches_reference_highest_missing(hand: tuple[list[Card], frozenset[Rank]]) -> None:
    check_against_reference(*hand, "highest-missing")


@settings(max_examples=300, deadline=None)
@given(hands(), st.randoms(use_true_random=False), st.sampled_from(WILD_IN_FLUSH_OPTIONS))
def test_card_order_never_matters(
    hand: tuple[list[Card], frozenset[Rank]], rng: random.Random, ruling: str
) -> None:
    cards, wild = hand
    shuffled = list(cards)
    rng.shuffle(shuffled)
    assert strength(shuffled, wild, wild_in_flush=ruling) == strength(cards, wild, wild_in_flush=ruling)


@settings(max_examples=300, deadline=None)
@given(hands(), st.permutations(list(Suit)), st.sampled_from(WILD_IN_FLUSH_OPTIONS))
def test_renaming_suits_never_changes_strength(
    hand: tuple[list[Card], frozenset[Rank]], renaming: list[Suit], ruling: str
) -> None:
    cards, wild = hand
    renamed = [Card(c.rank, renaming[c.suit]) for c in cards]
    assert strength(renamed, wild, wild_in_flush=ruling) == strength(cards, wild, wild_in_flush=ruling)


@settings(max_examples=300, deadline=None)
@given(hands(max_wild_ranks=4), st.sampled_from(RANKS), st.sampled_from(WILD_IN_FLUSH_OPTIONS))
def test_adding_a_wild_rank_never_lowers_a_hand(
    hand: tuple[list[Card], frozenset[Rank]], extra: Rank, ruling: str
) -> None:
    # A wild card can always stand for itself, so making one more rank wild cannot hurt.
    cards, wild = hand
    before = strength(cards, wild, wild_in_flush=ruling)
    assert strength(cards, wild | {extra}, wild_in_flush=ruling) >= before


@settings(max_examples=300, deadline=None)
@given(hands(), st.randoms(use_true_random=False), st.sampled_from(WILD_IN_FLUSH_OPTIONS))
def test_order_between_hands_matches_reference(
    hand: tuple[list[Card], frozenset[Rank]], rng: random.Random, ruling: str
) -> None:
    # Not just each value: the order between two hands (win, split, lose) must agree too.
    cards, wild = hand
    other = rng.sample(FULL_DECK, rng.randint(5, 7))
    a = evaluate(cards, wild, wild_in_flush=ruling)
    b = evaluate(other, wild, wild_in_flush=ruling)
    ra = score_key(reference_evaluate(cards, wild, ruling)[0])
    rb = score_key(reference_evaluate(other, wild, ruling)[0])
    assert (a > b, a == b, a < b) == (ra > rb, ra == rb, ra < rb)
