"""Showing hands and the bring-in (SPEC §5), by hand and against a brute-force reference."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.cards.card import FULL_DECK, Card, Rank, parse_cards
from bot.engine.values.showing import ShowingCategory, bring_in_index, door_card_key, showing_value

FIVES = frozenset({Rank.FIVE})


def show(text: str, wild: frozenset[Rank] = FIVES, ruling: str = "wild-aware") -> str:
    return showing_value(parse_cards(text), wild, showing_hand=ruling).describe()


def reference_showing(ranks: list[int]) -> tuple[int, tuple[int, ...]]:
    """Independent scorer for 1-4 printed ranks: (category 0..4, ranks in tie-break order)."""
    counts = Counter(ranks)
    groups = sorted(((n, r) for r, n in counts.items()), reverse=True)
    sizes = [n for n, _ in groups]
    if sizes[0] == 4:
        category = 4
    elif sizes[0] == 3:
        category = 3
    elif sizes[:2] == [2, 2]:
        category = 2
    elif sizes[0] == 2:
        category = 1
    else:
        category = 0
    return category, tuple(r for _, r in groups)


def reference_wild_aware(cards: list[Card], wild: frozenset[Rank]) -> tuple[int, tuple[int, ...]]:
    """Try every rank for every wild up card and keep the best board."""
    naturals = [int(c.rank) for c in cards if c.rank not in wild]
    k = len(cards) - len(naturals)
    options = itertools.combinations_with_replacement(range(2, 15), k)
    return max(reference_showing(naturals + list(named)) for named in options)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from(FULL_DECK), min_size=1, max_size=4, unique=True),
    st.sets(st.sampled_from(list(Rank)), max_size=4),
)
def test_wild_aware_matches_brute_force(cards: list[Card], wild: set[Rank]) -> None:
    value = showing_value(cards, frozenset(wild))
    expected = reference_wild_aware(cards, frozenset(wild))
    assert (int(value.category), tuple(int(r) for r in value.ranks)) == expected


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(FULL_DECK), min_size=1, max_size=4, unique=True),
    st.lists(st.sampled_from(FULL_DECK), min_size=1, max_size=4, unique=True),
    st.sets(st.sampled_from(list(Rank)), max_size=4),
)
def test_order_matches_brute_force(a: list[Card], b: list[Card], wild: set[Rank]) -> None:
    for ruling in ("wild-aware", "natural"):
        va = showing_value(a, wild, showing_hand=ruling)
        vb = showing_value(b, wild, showing_hand=ruling)
        if ruling == "natural":
            ra, rb = reference_showing([int(c.rank) for c in a]), reference_showing([int(c.rank) for c in b])
        else:
            ra, rb = reference_wild_aware(a, frozenset(wild)), reference_wild_aware(b, frozenset(wild))
        assert (va > vb, va == vb) == (ra > rb, ra == rb)


def test_spec_examples() -> None:
    # SPEC §5: 5♠ K♦ is a pair of kings; 5♣ 5♦ 9♥ three nines; all-wild up cards count as aces.
    assert show("5s Kd") == "pair of kings"
    assert show("5c 5d 9h") == "three nines"
    assert show("5c 5d") == "pair of aces"
    assert show("5c") == "ace-high"
    # Under "natural" the printed ranks count: two fives and a nine are a pair of fives.
    assert show("5c 5d 9h", ruling="natural") == "pair of fives"
    assert show("5s Kd", ruling="natural") == "king-high"


def test_wild_joins_the_biggest_group_not_the_highest_card() -> None:
    # 9 9 K + wild: three nines (trips) beats kings and nines (two pair).
    value = showing_value(parse_cards("9c 9d Kh 5s"), FIVES)
    assert value.category is ShowingCategory.THREE_OF_A_KIND and value.describe() == "three nines"
    assert value.ranks == (Rank.NINE, Rank.KING)


def test_no_straights_or_flushes_count() -> None:
    # Four to a straight flush on board is still just jack-high (SPEC §5).
    assert show("8h 9h Th Jh") == "jack-high"
    assert show("Kc Kd 9h 9s") == "two pair, kings and nines"
    assert show("Qc Qd Qh 5s") == "four queens"


def test_kickers_order_boards() -> None:
    # Same pair, the higher kicker is the stronger board; same printed ranks are equal.
    assert showing_value(parse_cards("Kc Kd Ah"), FIVES) > showing_value(parse_cards("Kh Ks Qh"), FIVES)
    assert showing_value(parse_cards("Kc 9d"), FIVES) == showing_value(parse_cards("Kh 9s"), FIVES)


def test_bad_showing_input() -> None:
    with pytest.raises(ValueError, match="1 to 4"):
        showing_value([], FIVES)
    with pytest.raises(ValueError, match="1 to 4"):
        showing_value(parse_cards("2c 3c 4c 6c 7c"), FIVES)
    with pytest.raises(ValueError, match="appears twice"):
        showing_value(parse_cards("2c 2c"), FIVES)
    with pytest.raises(ValueError, match="showing_hand"):
        showing_value(parse_cards("2c"), FIVES, showing_hand="bogus")


def test_door_card_keys_and_bring_in() -> None:
    # Lowest door card brings in; ties by suit, clubs lowest (SPEC §5).
    assert bring_in_index(parse_cards("Qd 2d 2c Ah"), FIVES) == 2
    # Ace is high: an ace never brings in against a deuce.
    assert bring_in_index(parse_cards("Ac 2s"), FIVES) == 1
    # wild-aware: a wild door card ranks above every natural one, even a 2 of a wild rank.
    twos = frozenset({Rank.FIVE, Rank.TWO})
    assert bring_in_index(parse_cards("2c 3s 5d"), twos) == 1
    # ... and when every door card is wild, printed rank then suit decides: 2♣ brings in.
    assert bring_in_index(parse_cards("5d 2c 5c"), twos) == 1
    assert bring_in_index(parse_cards("5d 5c"), twos) == 1  # same rank: clubs lowest
    # natural: printed ranks only, so the wild 2♣ brings in.
    assert bring_in_index(parse_cards("2c 3s 5d"), twos, showing_hand="natural") == 0
    assert door_card_key(Card.parse("5h"), FIVES) > door_card_key(Card.parse("As"), FIVES)
    natural_five = door_card_key(Card.parse("5h"), FIVES, showing_hand="natural")
    assert natural_five < door_card_key(Card.parse("As"), FIVES, showing_hand="natural")
