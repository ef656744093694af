"""Games as data (issue 12): the contract names, lookup errors and which rulings each game takes."""

from __future__ import annotations

import itertools
import random

import pytest

from bot.engine.betting.stakes import TableStakes
from bot.engine.errors import RulingError
from bot.engine.games.baseball import extra_card_fits
from bot.engine.games.catalogue import DEFAULT_GAME, GAMES, game_of
from bot.engine.games.rulings import RULINGS, Rulings
from bot.engine.log import Deal
from bot.engine.simulate import play_hand

# The issues' game names, in their order (a contract: commands, PHH _game, JSON): issue 12's
# eight, then issue 19's razz and stud hi-lo, then issue 21's flop games.
ISSUE_GAMES = ["sex-in-the-middle-east", "seven-card-stud", "follow-the-queen", "baseball",
               "deuces-wild", "low-hole-wild", "high-chicago", "low-chicago", "razz",
               "seven-card-stud-hi-lo", "texas-holdem", "omaha", "omaha-hi-lo", "crazy-pineapple"]
# Issue 22's draw games (after the stud and flop games in the menu).
DRAW_GAMES = ["five-card-draw", "kings-and-little-ones", "deuce-to-seven-triple-draw", "badugi"]
DRAW_BETTING = {"raise_cap", "heads_up_uncapped"}

BETTING = {"high_hand_tiebreak", "open_pair_double", "raise_cap", "heads_up_uncapped", "burn_cards",
           "odd_chip"}
FLOP = {"wild_rank", "wild_in_flush", "natural_wins_ties", "flop_ante", "run_it_twice", "raise_cap",
        "heads_up_uncapped"}
# Written out from the research notes' table "Which rulings apply to which game" (§10).
APPLIES = {
    "sex-in-the-middle-east": BETTING | {"follow_target", "five_follows_five", "wild_in_flush",
                                         "natural_wins_ties", "showing_hand"},
    "seven-card-stud": BETTING,
    "follow-the-queen": BETTING | {"queen_last", "queen_follows_queen", "follower_until_replaced",
                                   "wild_in_flush", "natural_wins_ties", "showing_hand"},
    "baseball": BETTING | {"three_up", "four_card", "four_card_face", "wild_in_flush",
                           "natural_wins_ties", "showing_hand"},
    "deuces-wild": BETTING | {"wild_in_flush", "natural_wins_ties", "showing_hand"},
    "low-hole-wild": BETTING | {"low_hole_ace", "wild_in_flush", "natural_wins_ties"},
    "high-chicago": BETTING,
    "low-chicago": BETTING | {"low_chicago_ace"},
    # An open pair on fourth street changes no limit in razz or hi-lo (docs/rules.md).
    "razz": BETTING - {"open_pair_double"},
    "seven-card-stud-hi-lo": BETTING - {"open_pair_double"},
    # The flop games: a wild rank, the ante, run it twice, fixed limit's cap; they always burn
    # and give odd chips by position.
    "texas-holdem": FLOP,
    "omaha": FLOP,
    "omaha-hi-lo": FLOP,
    "crazy-pineapple": FLOP,
    # Draw games: no bring-in, showing hand, open pair or burns; docs/rules.md, "Draw games".
    "five-card-draw": DRAW_BETTING | {"openers", "draw_limit", "reshuffle"},
    "kings-and-little-ones": DRAW_BETTING | {"openers", "draw_limit", "reshuffle", "low_hole_ace",
                                             "wild_in_flush", "natural_wins_ties"},
    "deuce-to-seven-triple-draw": DRAW_BETTING | {"reshuffle"},
    "badugi": DRAW_BETTING | {"reshuffle"},
}


def test_the_issue_names_in_order_default_first() -> None:
    assert list(GAMES)[:len(ISSUE_GAMES)] == ISSUE_GAMES
    assert [name for name in GAMES if name in DRAW_GAMES] == DRAW_GAMES
    assert DEFAULT_GAME is GAMES["sex-in-the-middle-east"]
    assert game_of(None) is DEFAULT_GAME


def test_unknown_game_lists_the_names() -> None:
    with pytest.raises(ValueError) as err:
        game_of("blackjack")
    for name in ISSUE_GAMES:
        assert name in str(err.value)


@pytest.mark.parametrize("name", ISSUE_GAMES + DRAW_GAMES)
def test_rulings_belong_to_games(name: str) -> None:
    game = game_of(name.upper().replace("-", " "))
    assert game.name == name
    assert set(game.rulings) == APPLIES[name]
    for ruling in RULINGS:
        if ruling in APPLIES[name]:
            assert game.check_ruling(ruling.replace("_", "-")) == ruling
        else:
            with pytest.raises(RulingError) as err:
                game.check_ruling(ruling)
            assert all(r in str(err.value) for r in game.rulings)
    assert set(game.rulings_dict(Rulings())) == APPLIES[name]


def test_wild_aware_open_pairs_only_where_some_rank_is_wild_for_all() -> None:
    for name in ("seven-card-stud", "low-hole-wild", "high-chicago", "low-chicago"):
        with pytest.raises(RulingError):
            GAMES[name].parse_ruling("open_pair_double", "wild-aware")
        with pytest.raises(RulingError):
            GAMES[name].check_rulings(Rulings(open_pair_double="wild-aware"))
    assert GAMES["deuces-wild"].parse_ruling("open-pair-double", "wild-aware") == (
        "open_pair_double", "wild-aware")


def test_the_reserve_rule_with_the_research_numbers() -> None:
    # 8 players, nobody folds, 3 extra cards by the middle of sixth street; a fourth face-up four
    # goes to the 5th player of the sixth-street pass: stub 52 - (24 + 8 + 8 + 5) - 3 = 4. After an
    # extra card 3 would be left for 3 players still due this pass + 1 for seventh street: no card.
    assert not extra_card_fits(remaining=4, due_this_pass=3, streets_after=(7,), live=8, burns=False)
    assert extra_card_fits(remaining=5, due_this_pass=3, streets_after=(7,), live=8, burns=False)
    # Fourth street, 8 live: fifth and sixth need 8 each, seventh 1 (plus a burn each when on).
    assert extra_card_fits(remaining=18, due_this_pass=0, streets_after=(5, 6, 7), live=8, burns=False)
    assert not extra_card_fits(remaining=20, due_this_pass=0, streets_after=(5, 6, 7), live=8, burns=True)


@pytest.mark.parametrize("face", ["down", "up"])
@pytest.mark.parametrize("bought", ["free", "bought"])
def test_baseball_never_runs_out_and_shortages_stay_on_seventh(face: str, bought: str) -> None:
    rulings = Rulings(four_card=bought, four_card_face=face, burn_cards="on",
                      three_up="pay-the-pot-or-fold")
    extras = 0
    for seed in range(150):
        rng = random.Random(seed)
        hand = play_hand(rng, [2000] * 8, TableStakes(), rulings, game="baseball")
        result = hand.result
        assert result is not None and sum(result.final_stacks) == 16000
        deals = [e for e in hand.log if isinstance(e, Deal)]
        assert all(e.street == 7 for e in deals if e.kind == "community")
        # Every live player at the end holds seven cards at least (counting the community card).
        for seat in hand.live_seats:
            assert len(hand.cards(seat)) + (hand.community_card is not None) >= 7 or not result.showdown
        # Extra cards go only to the holder of a face-up four, right after it.
        for prev, deal in itertools.pairwise(deals):
            if deal.seat is not None and prev.seat == deal.seat and deal.street == prev.street \
                    and deal.street > 3:
                assert prev.face_up and prev.card.rank == 4
                extras += 1
    assert extras > 20                              # the rule was exercised
