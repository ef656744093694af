"""The computer player: sensible choices in clear spots, exact equity against a slow reference,
and only legal actions in random hands."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.betting.round import LegalActions
from bot.engine.betting.stakes import PRESETS
from bot.engine.cards.card import FULL_DECK, Rank, parse_cards
from bot.engine.cards.deck import Deck
from bot.engine.command import Command, Kind
from bot.engine.hand.hand import StudHand
from bot.engine.hand.records import Decision
from bot.engine.values.evaluator import strength
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
    assert Robot(random.Random(1)).decide(s) == Command(Kind.RAISE, 80)


def test_folds_nothing_against_three_aces_showing() -> None:
    # No pair, no wild, against three aces on board: far below the 40 / 140 pot odds.
    s = spot("2c 3d 4s", "7h 9s Jc 8d", "As Ad Ac Kh")
    assert Robot(random.Random(1)).decide(s) == Command(Kind.FOLD)


def test_checks_rather_than_folds_when_checking_is_free() -> None:
    free = LegalActions(0, fold=True, check=True, wager="bet", min_to=40, max_to=40, to_options=(40,))
    s = spot("2c 3d 4s", "7h 9s Jc 8d", "As Ad Ac Kh", legal=free)
    assert Robot(random.Random(1)).decide(s) == Command(Kind.CHECK)


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
        chosen = robots[seat].decide(situation(hand, seat))
        hand.apply(seat, chosen)                    # raises IllegalAction if the robot errs
    assert hand.result is not None and sum(hand.result.final_stacks) == sum(hand.starting_stacks)


def game_spot(game: str, down: str, up: str, opponent_up: str, **kw: object) -> Situation:
    base = spot(down, up, opponent_up)
    fields: dict[str, object] = {"wild_ranks": (), **kw}
    return replace(base, game=game, **fields)  # type: ignore[arg-type]


def test_chicago_the_ace_of_spades_down_is_half_the_pot() -> None:
    # Issue 12: the highest spade in the hole always wins the spade half in high-chicago.
    s = game_spot("high-chicago", "As 3d 4h", "7h 9s Jc 8d", "Ks Kd Kc Kh")
    assert estimate_equity(s, random.Random(2)) >= 0.5
    plain = game_spot("seven-card-stud", "As 3d 4h", "7h 9s Jc 8d", "Ks Kd Kc Kh")
    assert estimate_equity(plain, random.Random(2)) < 0.1


def test_low_hole_wild_counts_its_own_low_rank_only() -> None:
    # Down 2c 9c 9d: twos are wild for this player only: 2c 2h + 9 9 = four nines. In plain stud
    # it is two pair, nines and twos, against a king-high board.
    s = game_spot("low-hole-wild", "2c 9c 9d", "2h Kd 7c 5s", "Kh Jd 8c 4c")
    stud = game_spot("seven-card-stud", "2c 9c 9d", "2h Kd 7c 5s", "Kh Jd 8c 4c")
    assert estimate_equity(s, random.Random(3)) >= 0.85 > estimate_equity(stud, random.Random(3))


def test_baseball_decisions_are_answered() -> None:
    strong = game_spot("baseball", "9c 9d 3c", "3h", "Kd", wild_ranks=(Rank.THREE, Rank.NINE),
                       decision=Decision(0, "pay", 15, "3h"), street=3)
    assert Robot(random.Random(4)).decide(strong).kind is Kind.PAY
    weak = game_spot("baseball", "2c 7d", "4h", "Ad", wild_ranks=(Rank.THREE, Rank.NINE),
                     decision=Decision(0, "buy", 20, "4h"), street=3)
    assert Robot(random.Random(4)).decide(weak).kind in (Kind.BUY, Kind.DECLINE)


def draw_spot(cards: str, game: str, most: int, wild: tuple[Rank, ...] = ()) -> Situation:
    return Situation(
        down=tuple(parse_cards(cards)), up=(), opponents_up=((),), dead=(), community=None,
        wild_ranks=wild, wild_in_flush="any-card", street=24, pot=100, legal=LegalActions(0, fold=True),
        game=game, decision=Decision(0, "draw", most, ""))


def test_draws_keep_what_a_player_would() -> None:
    robot = Robot(random.Random(1))

    def discards(cards: str, game: str, most: int, wild: tuple[Rank, ...] = ()) -> set[str]:
        command = robot.decide(draw_spot(cards, game, most, wild))
        assert command.kind is Kind.DRAW
        return {c.code for c in command.cards}

    assert discards("Ah Ad 7c 5s 2d", "five-card-draw", 3) == {"7c", "5s", "2d"}         # keep the pair
    assert discards("Ah Kd 9c 5s 2d", "five-card-draw", 4) == {"Kd", "9c", "5s", "2d"}   # an ace alone
    assert discards("Qh Jd 9c 5s 2d", "five-card-draw", 3) == {"9c", "5s", "2d"}         # two high cards
    assert discards("9h Td Jc Qs Kd", "five-card-draw", 3) == set()                      # a straight
    # Kings and Little Ones: kings and the lowest card (the deuce) are wild for this player.
    assert discards("2h Kd 9c Qs 7d", "kings-and-little-ones", 3, (Rank.KING,)) == {"9c", "7d", "Qs"}
    assert discards("2c 3d 7h Kc Ks", "deuce-to-seven-triple-draw", 5) == {"Kc", "Ks"}
    assert discards("7c 5d 4h 3s 2c", "deuce-to-seven-triple-draw", 5) == set()          # number one
    assert discards("Ac 2d 3h 3s", "badugi", 4) == {"3h"} or discards("Ac 2d 3h 3s", "badugi", 4) == {"3s"}
    assert discards("Ac 2d 3h 4s", "badugi", 4) == set()                                  # a badugi
