"""Games as data (issue 12): the contract names, lookup errors and which rulings each game takes."""

from __future__ import annotations

import pytest

from bot.engine.errors import RulingError
from bot.engine.games import DEFAULT_GAME, GAMES, game_of
from bot.engine.rulings import RULINGS, Rulings

# The issue's game names, in its order (a contract: commands, PHH _game, JSON).
ISSUE_GAMES = ["sex-in-the-middle-east", "seven-card-stud", "follow-the-queen", "baseball",
               "deuces-wild", "low-hole-wild", "high-chicago", "low-chicago"]

BETTING = {"high_hand_tiebreak", "open_pair_double", "raise_cap", "heads_up_uncapped", "burn_cards",
           "odd_chip"}
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
}


def test_the_issue_names_in_order_default_first() -> None:
    assert list(GAMES) == ISSUE_GAMES
    assert DEFAULT_GAME is GAMES["sex-in-the-middle-east"]
    assert game_of(None) is DEFAULT_GAME


def test_unknown_game_lists_the_names() -> None:
    with pytest.raises(ValueError) as err:
        game_of("omaha")
    for name in ISSUE_GAMES:
        assert name in str(err.value)


@pytest.mark.parametrize("name", ISSUE_GAMES)
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
