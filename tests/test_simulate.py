"""The random-hand simulator: legal play only, reproducible, and statistics that add up.

The statistics are checked against counts made here from the finished hands themselves (an
independent tally over ``on_hand``), and against facts that follow from the rules: every hand has
between 1 and 5 wild ranks (fives plus at most one rank per face-up five, and there are four
fives), chips are conserved, and an eight-player hand in which nobody folds needs the community
card (48 cards are dealt by sixth street, leaving 4 for 8 players).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.engine.betting.stakes import TableStakes
from bot.engine.games.rulings import RULINGS, Rulings
from bot.engine.hand.hand import StudHand
from bot.engine.simulate import RandomPlayer, play_hand, random_rulings, random_stakes, simulate


def test_same_seed_same_hands() -> None:
    logs_a: list[object] = []
    logs_b: list[object] = []
    a = simulate(players=5, hands=30, seed=42, on_hand=lambda h: logs_a.append(h.log))
    b = simulate(players=5, hands=30, seed=42, on_hand=lambda h: logs_b.append(h.log))
    assert logs_a == logs_b
    untimed = {"seconds": 0, "hands_per_second": 0}
    assert a.to_dict() | untimed == b.to_dict() | untimed
    c = simulate(players=5, hands=30, seed=43)
    assert c.wild_rank_counts != a.wild_rank_counts or c.winning_categories != a.winning_categories


def test_statistics_match_an_independent_tally() -> None:
    hands: list[StudHand] = []
    stats = simulate(players=6, hands=150, seed=7, on_hand=hands.append)
    assert stats.hands == len(hands) == 150
    wild = Counter(len(h.wild_ranks) for h in hands)
    assert stats.wild_rank_counts == wild
    assert set(wild) <= {1, 2, 3, 4, 5}
    showdowns = [h for h in hands if h.result is not None and h.result.showdown]
    assert stats.showdowns == len(showdowns)
    categories: Counter[str] = Counter()
    for h in showdowns:
        result = h.result
        assert result is not None
        main = result.pots[0]
        # The category of the main pot's winner is the best category among the eligible hands.
        best = max(result.shown[s] for s in main.eligible if s in result.shown)
        categories[best.category.value] += 1
    assert stats.winning_categories == categories
    split = sum(1 for h in hands if h.result and any(len(p.winners) > 1 for p in h.result.pots))
    assert stats.split_hands == split
    assert stats.pots == sum(len(h.result.pots) for h in hands if h.result)
    for h in hands:
        assert h.result is not None
        assert sum(h.result.final_stacks) == sum(h.starting_stacks)
    data = stats.to_dict()
    assert sum(data["wild_ranks"].values()) == 150
    assert data["showdowns"] + data["won_without_showdown"] == 150
    assert 0.0 <= data["split_hand_rate"] <= 1.0
    assert data["hands_per_second"] > 0
    text = "\n".join(stats.describe())
    assert "wild ranks at the end of the hand" in text and "complete hands per second" in text


def test_no_folds_with_eight_players_always_needs_the_community_card() -> None:
    player = RandomPlayer(random.Random(3), fold=0.0, raise_=0.2, all_in=0.0)
    for seed in range(5):
        hand = play_hand(random.Random(seed), [100_000] * 8, TableStakes(), player=player)
        assert hand.community_card is not None
        assert all(len(hand.cards(s)) == 6 for s in range(8))


@pytest.mark.parametrize("seed", range(40))
def test_random_stakes_rulings_and_stacks_always_finish_legally(seed: int) -> None:
    # RandomPlayer only ever calls commands the engine lists as legal; an illegal one would raise.
    rng = random.Random(seed)
    stakes = random_stakes(rng)
    rulings = random_rulings(rng)
    stacks = [rng.randint(1, 200) for _ in range(rng.randint(2, 8))]
    hand = play_hand(rng, stacks, stakes, rulings, manual_showdown=bool(seed % 2))
    result = hand.result
    assert result is not None
    assert sum(result.final_stacks) == sum(stacks)
    assert sum(result.winnings) == sum(p.amount for p in result.pots)
    assert list(hand.wild_ranks[: 1]) == [hand.wild_ranks[0]] and hand.wild_ranks[0].char == "5"


def test_random_rulings_cover_every_option() -> None:
    rng = random.Random(0)
    seen: dict[str, set[str]] = {name: set() for name in RULINGS}
    for _ in range(200):
        for name, value in random_rulings(rng).to_dict().items():
            seen[name].add(value)
    assert seen == {name: set(options) for name, options in RULINGS.items()}


def test_absorb_never_makes_more_ranks_wild_than_chain() -> None:
    # Same deck, nobody folds (so every seat gets the same cards whatever the betting): the up
    # cards come in the same order under both rulings.  A five that follows a five re-arms the
    # follow under chain and arms nothing under absorb, so absorb's wild set is a subset of
    # chain's, and strictly smaller whenever the re-armed follow found a new rank.
    absorb = Rulings().with_ruling("five_follows_five", "absorb")
    strictly_smaller = 0
    for seed in range(150):
        hands = [
            play_hand(random.Random(seed), [100_000] * 8, TableStakes(), rulings,
                      player=RandomPlayer(random.Random(seed + 1), fold=0.0, all_in=0.0))
            for rulings in (Rulings(), absorb)
        ]
        chain_wild, absorb_wild = (set(h.wild_ranks) for h in hands)
        assert absorb_wild <= chain_wild
        strictly_smaller += absorb_wild < chain_wild
    assert strictly_smaller > 0


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="2 to 8 players"):
        simulate(players=9, hands=1)
    with pytest.raises(ValueError, match="negative"):
        simulate(players=2, hands=-1)
    assert simulate(players=2, hands=0).hands_per_second == 0.0


def test_razz_counts_the_lows_that_won_not_high_categories() -> None:
    """Razz's winners were counted as flushes and straights (the high evaluator's names of the
    winning cards), which play no part in razz; they are counted by the low that won."""
    hands: list[StudHand] = []
    stats = simulate(players=6, hands=60, seed=3, game="razz", on_hand=hands.append)
    assert not stats.winning_categories
    showdowns = [h for h in hands if h.result is not None and h.result.showdown]
    assert sum(stats.winning_lows.values()) == len(showdowns) > 0
    assert all(name.endswith(" low") or name == "wheel" for name in stats.winning_lows)
