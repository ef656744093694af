"""The computer player: sensible choices in clear spots, exact equity against a slow reference,
and only legal actions in random hands."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.betting import LegalActions
from bot.engine.cards import FULL_DECK, Deck, Rank, parse_cards
from bot.engine.evaluator import strength
from bot.engine.hand import StudHand
from bot.engine.stakes import PRESETS
from bot.tables.robot import Robot, Situation, estimate_equity, situation

FACING_BET = LegalActions(0, fold=True, call=40, wager="raise", min_to=80, max_to=80, to_options=(80,))


def spot(
    down: str, up: str, opponent_up: str, legal: LegalActions = FACING_BET, street: int = 7
) -> Situation:
    return Situation(
        down=tuple(parse_cards(down)), up=tuple(parse_cards(up)),
        opponents_up=(tuple(parse_cards(opponent_up)),), dead=(), community=None,
        wild_ranks=(Rank.FIVE,), wild_in_flush="any-card", street=street, pot=100, legal=legal,
    )


def test_raises_with_five_of_a_kind() -> None:
    # Three wild fives and two kings: five kings, which only another five of a kind can match.
    s = spot("5h 5d Kc", "Kd 5c 2s 9h", "Qs Jd 8c 3c")
    assert Robot(random.Random(1)).decide(s) == ("raise", 80)


def test_folds_nothing_against_three_aces_showing() -> None:
    # No pair, no wild, against three aces on board: far below the 40 / 140 pot odds.
    s = spot("2c 3d 4s", "7h 9s Jc 8d", "As Ad Ac Kh")
    assert Robot(random.Random(1)).decide(s) == ("fold", None)


def test_checks_rather_than_folds_when_checking_is_free() -> None:
    free = LegalActions(0, fold=True, check=True, wager="bet", min_to=40, max_to=40, to_options=(40,))
    s = spot("2c 3d 4s", "7h 9s Jc 8d", "As Ad Ac Kh", legal=free)
    assert Robot(random.Random(1)).decide(s) == ("check", None)


def exact_equity(down: str, up: str, opponent_up: str) -> float:
    """Every possible three hidden cards for the opponent, each equally likely (slow, exact)."""
    mine = parse_cards(down) + parse_cards(up)
    theirs = parse_cards(opponent_up)
    unseen = [c for c in FULL_DECK if c not in set(mine) | set(theirs)]
    wild = {Rank.FIVE}
    me = strength(mine, wild)
    total = wins = 0.0
    for hidden in itertools.combinations(unseen, 3):
        other = strength(theirs + list(hidden), wild)
        total += 1
        wins += 1.0 if me > other else (0.5 if me == other else 0.0)
    return wins / total


def test_equity_estimate_agrees_with_exact_enumeration() -> None:
    args = ("Th 9h 2c", "Td 9c 4s Kh", "Qs Qd 7c 6c")   # two pair vs a pair of queens showing
    exact = exact_equity(*args)
    estimate = estimate_equity(spot(*args), random.Random(5), samples=3000)
    assert abs(estimate - exact) < 0.03, (estimate, exact)


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 8), st.integers(0, 10**6))
def test_robots_only_make_legal_moves(players: int, seed: int) -> None:
    rng = random.Random(seed)
    hand = StudHand([rng.choice([30, 200, 1000]) for _ in range(players)], PRESETS["small"],
                    source=Deck.seeded(seed))
    robots = [Robot(random.Random(seed + i), samples=20) for i in range(players)]
    while not hand.is_over:
        seat = hand.actor
        assert seat is not None
        action, amount = robots[seat].decide(situation(hand, seat))
        hand.act(seat, action, amount)              # raises IllegalAction if the robot errs
    assert hand.result is not None and sum(hand.result.final_stacks) == sum(hand.starting_stacks)
