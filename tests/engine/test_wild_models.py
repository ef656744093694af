"""Independent slow references for each wild model of issue 12, checked against random hands.

Each reference is written from the rules (docs/rules.md, "Dealer's choice"), not from the engine: the
wild set is computed declaratively from the face-up cards in deal order, or from a player's down
cards, and every shown hand is re-valued by ``tests/reference_evaluator.py`` (brute force over the
wild substitutions) with the wild set the reference says that player had.
"""

from __future__ import annotations

import random

import pytest

from bot.engine.cards.card import Card, Rank, Suit
from bot.engine.games.catalogue import GAMES
from bot.engine.games.rulings import Rulings
from bot.engine.hand.hand import StudHand
from bot.engine.log import Deal
from bot.engine.simulate import play_hand, random_stakes
from tests.reference_evaluator import category_name, reference_evaluate

Q = Rank.QUEEN


def up_cards_in_order(hand: StudHand) -> list[Card]:
    """Every card dealt face up (to a player or as the community card), in deal order."""
    return [e.card for e in hand.log if isinstance(e, Deal) and e.face_up and e.kind != "burn"]


def reference_queen_wilds(up: list[Card], rulings: Rulings) -> set[Rank]:
    """Follow the Queen with ``queen_follows_queen = chain``: queens are wild; the follower is the
    rank of the LAST up card that comes right after a face-up queen and is not a queen itself.
    ``follower_until_replaced = off``: any queen after that follower ends it. If the very last up
    card is a queen, nothing follows it and ``queen_last`` decides."""
    wild = {Q}
    follower_at = None
    for j in range(1, len(up)):
        if up[j - 1].rank is Q and up[j].rank is not Q:
            follower_at = j
    if follower_at is not None:
        later_queen = any(c.rank is Q for c in up[follower_at + 1:])
        if rulings.follower_until_replaced == "on" or not later_queen:
            wild.add(up[follower_at].rank)
    if up and up[-1].rank is Q:
        if rulings.queen_last == "only-queens":
            wild = {Q}
        elif rulings.queen_last == "no-wilds":
            wild = set()
    return wild


def reference_low_hole(down: list[Card], ace_low: bool) -> set[Rank]:
    """Low-hole-wild: the lowest-ranked down card's rank (the ace high unless ace_low)."""
    order = sorted(down, key=lambda c: (1 if ace_low and c.rank is Rank.ACE else int(c.rank)))
    return {order[0].rank}


def spade_order(card: Card, ace_low: bool, low: bool) -> int:
    value = 1 if ace_low and card.rank is Rank.ACE else int(card.rank)
    return -value if low else value


def check_shown(hand: StudHand, wild_of: dict[int, set[Rank]]) -> None:
    result = hand.result
    assert result is not None
    for seat, value in result.shown.items():
        cards = list(hand.cards(seat))
        if hand.community_card is not None:
            cards.append(hand.community_card)
        expected, _ = reference_evaluate(cards, wild_of[seat], hand.rulings.wild_in_flush)
        got = (value.category.value, tuple(int(r) for r in value.ranks))
        assert got == (category_name(expected), expected[1]), ([c.code for c in cards], wild_of[seat])


@pytest.mark.parametrize("queen_last", ["only-queens", "no-wilds", "keep-follower"])
@pytest.mark.parametrize("until", ["on", "off"])
def test_follow_the_queen_against_the_reference(queen_last: str, until: str) -> None:
    rulings = Rulings(queen_last=queen_last, follower_until_replaced=until)
    for seed in range(60):
        rng = random.Random(seed)
        n = rng.randint(2, 8)
        hand = play_hand(rng, [400] * n, random_stakes(rng), rulings, game="follow-the-queen")
        expected = reference_queen_wilds(up_cards_in_order(hand), rulings)
        assert hand.result is not None
        assert set(hand.result.wild_ranks) == expected, [c.code for c in up_cards_in_order(hand)]
        check_shown(hand, {s: expected for s in range(n)})


@pytest.mark.parametrize("game, wild", [("deuces-wild", {Rank.TWO}), ("baseball", {Rank.THREE, Rank.NINE}),
                                        ("seven-card-stud", set()), ("high-chicago", set())])
def test_fixed_wilds_against_the_reference(game: str, wild: set[Rank]) -> None:
    for seed in range(40):
        rng = random.Random(seed)
        n = rng.randint(2, 8)
        hand = play_hand(rng, [400] * n, random_stakes(rng), Rulings(), game=game)
        assert hand.result is not None and set(hand.result.wild_ranks) == wild
        check_shown(hand, {s: wild for s in range(n)})


@pytest.mark.parametrize("ace", ["high", "low"])
def test_low_hole_wild_against_the_reference(ace: str) -> None:
    rulings = Rulings(low_hole_ace=ace)
    for seed in range(60):
        rng = random.Random(seed)
        n = rng.randint(2, 8)
        hand = play_hand(rng, [400] * n, random_stakes(rng), rulings, game="low-hole-wild")
        wild_of = {s: reference_low_hole(list(hand.down_cards(s)), ace == "low") for s in range(n)}
        assert hand.result is not None and hand.result.wild_ranks == ()
        check_shown(hand, wild_of)


@pytest.mark.parametrize("game", ["high-chicago", "low-chicago"])
def test_chicago_split_against_the_reference(game: str) -> None:
    low = game == "low-chicago"
    for seed in range(150):
        rng = random.Random(seed)
        n = rng.randint(2, 8)
        rulings = Rulings(low_chicago_ace=rng.choice(["ace-high", "ace-low"]))
        stacks = [rng.choice([30, 100, 400]) for _ in range(n)]
        hand = play_hand(rng, stacks, random_stakes(rng), rulings, game=game)
        result = hand.result
        assert result is not None
        for pot in result.pots:
            shares = dict(pot.shares)
            assert sum(shares.values()) == pot.amount
            if not result.showdown:
                continue
            contenders = [s for s in pot.eligible if s in result.shown]
            spades = [(c, s) for s in contenders for c in hand.down_cards(s) if c.suit is Suit.SPADES]
            best = max(result.shown[s].showdown_key() for s in contenders)
            high = [s for s in contenders if result.shown[s].showdown_key() == best]
            if not spades:
                assert set(shares) == set(high)
                continue

            ace_low = rulings.low_chicago_ace == "ace-low"
            spade_seat = max(spades, key=lambda item: spade_order(item[0], ace_low, low))[1]
            spade_half = pot.amount // 2
            high_half = pot.amount - spade_half
            expect: dict[int, int] = {}
            for i, s in enumerate(sorted(high, key=lambda s: max(hand.cards(s)), reverse=True)):
                expect[s] = high_half // len(high) + (1 if i < high_half % len(high) else 0)
            expect[spade_seat] = expect.get(spade_seat, 0) + spade_half
            if rulings.odd_chip == "high-card-by-suit":
                assert shares == expect, (seed, shares, expect)


def test_game_registry_covers_every_model() -> None:
    kinds = {g.wilds.kind for g in GAMES.values()}
    assert kinds == {"fixed", "follow", "low-hole"}
