"""Rulings and stakes: names, options and defaults exactly as SPEC.md lists them; bad input refused."""

from __future__ import annotations

import pytest

from bot.engine.betting.stakes import PRESETS, TableStakes
from bot.engine.errors import RulingError, StakesError
from bot.engine.games.rulings import RULINGS, Rulings

# Written out from SPEC.md's ruling tables (§3-§6), default first, independently of rulings.py.
SPEC_RULINGS = {
    "follow_target": ["next-up-card", "next-card-void", "next-card-announced", "indicator-card"],
    "five_follows_five": ["chain", "absorb"],
    "wild_in_flush": ["any-card", "highest-missing"],
    "natural_wins_ties": ["off", "on"],
    "showing_hand": ["wild-aware", "natural"],
    "high_hand_tiebreak": ["position", "suit"],
    "open_pair_double": ["natural-pair", "wild-aware", "off"],
    "raise_cap": ["3", "4", "none"],
    "heads_up_uncapped": ["on", "off"],
    "burn_cards": ["off", "on"],
    "odd_chip": ["high-card-by-suit", "left-of-dealer"],
    # Issue 12's games: queen_last and three_up as the issue fixes them, the rest as docs/rules.md's
    # "Dealer's choice" section lists them.
    "queen_last": ["only-queens", "no-wilds", "keep-follower"],
    "queen_follows_queen": ["chain", "absorb"],
    "follower_until_replaced": ["on", "off"],
    "three_up": ["wild", "pay-the-pot-or-fold"],
    "four_card": ["free", "bought"],
    "four_card_face": ["down", "up"],
    "low_hole_ace": ["high", "low", "either"],      # either: issue 22's Kings and Little Ones
    "low_chicago_ace": ["ace-high", "ace-low"],
    # Issue 22's draw games: "openers" as the issue names it; the rest as docs/rules.md's "Draw
    # games" section lists them.
    "openers": ["anything", "jacks-or-better"],
    "draw_limit": ["three-or-four-with-ace", "three", "five"],
    "reshuffle": ["discards", "discards-and-folds"],
    # Issue 21's flop games: the wild rank ("none" by the issue), the ante, run it twice.
    "wild_rank": ["none", "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines",
                  "tens", "jacks", "queens", "kings", "aces"],
    "flop_ante": ["none", "per-player", "big-blind"],
    "run_it_twice": ["off", "on"],
}


def test_every_spec_ruling_with_its_options_default_first() -> None:
    assert {k: list(v) for k, v in RULINGS.items()} == SPEC_RULINGS


def test_defaults_are_the_bold_options() -> None:
    assert Rulings().to_dict() == {k: v[0] for k, v in SPEC_RULINGS.items()}
    assert Rulings().changed_from_default() == {}


@pytest.mark.parametrize("name", list(SPEC_RULINGS))
def test_every_option_round_trips_through_strings(name: str) -> None:
    for option in SPEC_RULINGS[name]:
        r = Rulings().with_ruling(name, option)
        assert getattr(r, name) == option
        assert Rulings.from_dict(r.to_dict()) == r
        # Only this ruling differs from the defaults (or nothing, for the default option).
        expected = {} if option == SPEC_RULINGS[name][0] else {name: option}
        assert r.changed_from_default() == expected


def test_parse_is_forgiving_about_case_dashes_and_spaces() -> None:
    assert Rulings.parse_ruling("Follow-Target", " NEXT-CARD-VOID ") == ("follow_target", "next-card-void")
    assert Rulings.parse_ruling("raise cap", "None") == ("raise_cap", "none")


def test_unknown_name_lists_the_rulings() -> None:
    with pytest.raises(RulingError) as err:
        Rulings.parse_ruling("jokers", "on")
    assert "follow_target" in str(err.value) and "odd_chip" in str(err.value)


def test_unknown_option_lists_the_options() -> None:
    with pytest.raises(RulingError) as err:
        Rulings().with_ruling("raise_cap", "5")
    assert "3, 4, none" in str(err.value)
    with pytest.raises(RulingError):
        Rulings(five_follows_five="replace")
    with pytest.raises(ValueError):          # RulingError is a ValueError
        Rulings.from_dict({"burn_cards": "sometimes"})


def test_rulings_are_frozen() -> None:
    r = Rulings()
    with pytest.raises(AttributeError):
        r.raise_cap = "4"  # type: ignore[misc]


def test_stakes_defaults_and_presets_are_valid() -> None:
    s = TableStakes()
    assert (s.structure, s.ante, s.bring_in, s.small_bet, s.big_bet) == ("fixed-limit", 5, 10, 20, 40)
    for stakes in PRESETS.values():
        assert TableStakes.from_dict(stakes.to_dict()) == stakes


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"bring_in": 0}, "more than zero"),
        ({"bring_in": 20}, "less than the small bet"),        # bring-in must be below the small bet
        ({"big_bet": 10}, "cannot be less than the small bet"),
        ({"ante": -1}, "negative"),
        ({"structure": "spread-limit"}, "fixed-limit, pot-limit, no-limit"),
        ({"min_buy_in": 500, "max_buy_in": 100}, "below the minimum buy-in"),
        ({"small_bet": 2.5}, "whole number"),
        ({"min_bet": 20}, "not min_bet"),
    ],
)
def test_bad_stakes_are_refused_with_a_reason(kwargs: dict[str, object], fragment: str) -> None:
    with pytest.raises(StakesError, match=fragment):
        TableStakes(**kwargs)  # type: ignore[arg-type]


def test_pot_and_no_limit_need_a_minimum_bet_above_the_bring_in() -> None:
    with pytest.raises(StakesError, match="minimum bet"):
        TableStakes.no_limit(ante=5, bring_in=20, min_bet=20)
    with pytest.raises(StakesError, match="minimum bet above zero"):
        TableStakes(structure="pot-limit", small_bet=0, big_bet=0, min_bet=0)
    s = TableStakes.pot_limit(ante=1, bring_in=2, min_bet=5)
    assert s.bet_unit(3) == s.bet_unit(7) == 5 and s.completion == 5


def test_stakes_from_dict_refuses_unknown_fields() -> None:
    with pytest.raises(StakesError, match="unknown stakes field"):
        TableStakes.from_dict({"blinds": 5})
