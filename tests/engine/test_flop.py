"""The flop games' engine (issue 21): blinds, the button, the board, Texas Hold'em.

Each hand here is worked out by hand in its comments; the deck is stacked by ``flop_deck`` from the
cards as a person reads them (who holds what, what the board shows), in the card-room deal order
written out independently of the engine's dealing code: one card at a time from the seat left of
the button, then a burn before the flop, the turn and the river.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from bot.engine.betting.stakes import TableStakes
from bot.engine.cards.card import FULL_DECK, Card, parse_cards
from bot.engine.errors import IllegalAction, StakesError
from bot.engine.games.catalogue import GAMES
from bot.engine.hand.hand import StudHand
from bot.engine.log import Action, Deal

NL = TableStakes.no_limit(ante=5, bring_in=1, min_bet=10).with_blinds(5, 10)
FL = TableStakes.fixed_limit(ante=5, bring_in=10, small_bet=20, big_bet=40).with_blinds(10, 20)


def flop_deck(holes: Sequence[str], board: str, button: int, burns: str = "") -> list[Card]:
    """A full deck dealing ``holes[i]`` to seat ``i`` and ``board`` (flop, turn, river in order).

    Hole cards go one at a time round the table from the seat left of ``button``; a burn comes
    before the flop, the turn and the river (``burns``: those three, else the next unused cards)."""
    seats = [parse_cards(h) for h in holes]
    n = len(seats)
    order: list[Card] = []
    for k in range(len(seats[0])):
        for step in range(1, n + 1):
            order.append(seats[(button + step) % n][k])
    shown = parse_cards(board)
    used = set(order) | set(shown) | set(parse_cards(burns))
    spare = [c for c in FULL_DECK if c not in used]
    burned = parse_cards(burns) or spare[:3]
    spare = [c for c in spare if c not in burned]
    order += [burned[0], *shown[:3], burned[1], shown[3], burned[2], shown[4]]
    return order + spare


def actions(hand: StudHand, name: str | None = None) -> list[Action]:
    return [e for e in hand.log if isinstance(e, Action) and (name is None or e.action == name)]


def test_three_handed_no_limit_hand() -> None:
    # Blinds 5/10 no limit, 1000 each, the button on seat 0: seat 1 posts the small blind (5),
    # seat 2 the big blind (10); seat 0, left of the big blind, acts first pre-flop.
    # Seat 0 As Ks, seat 1 7h 7d, seat 2 Qc Jc; board 7c 8d 9s | Tc | 3h.
    deck = flop_deck(["AsKs", "7h7d", "QcJc"], "7c8d9sTc3h", button=0)
    hand = StudHand([1000, 1000, 1000], NL, source=deck, game="texas-holdem", button=0)
    assert hand.button == 0 and hand.board == ()
    blinds = [(a.seat, a.action, a.amount) for a in actions(hand)]
    assert blinds == [(1, "small_blind", 5), (2, "big_blind", 10)]
    # Dealt from seat 1: 7h, Qc, As, then 7d, Jc, Ks.
    deals = [(d.seat, d.card.code) for d in hand.log if isinstance(d, Deal)]
    assert deals == [(1, "7h"), (2, "Qc"), (0, "As"), (1, "7d"), (2, "Jc"), (0, "Ks")]
    assert hand.actor == 0
    legal = hand.legal_actions()
    # To call: 10; the smallest raise is to 20 (the big blind more); no limit: up to the stack.
    assert (legal.call, legal.wager, legal.min_to, legal.max_to) == (10, "raise", 20, 1000)
    hand.bet_or_raise_to(0, 30)
    hand.call(1)                        # 25 more
    hand.call(2)                        # 20 more: pot 90
    assert hand.pot_total == 90
    # Flop: burn, 7c 8d 9s; seat 1 (left of the button) acts first; a bet, the first wager, is at
    # least the big blind.
    assert [c.code for c in hand.board] == ["7c", "8d", "9s"] and hand.actor == 1
    assert (hand.legal_actions().wager, hand.legal_actions().min_to) == ("bet", 10)
    hand.check(1)
    hand.bet_or_raise_to(2, 45)
    hand.fold(0)
    hand.call(1)                        # pot 180
    assert [c.code for c in hand.board] == ["7c", "8d", "9s", "Tc"] and hand.actor == 1
    hand.check(1)
    hand.check(2)
    assert len(hand.board) == 5 and hand.actor == 1
    hand.bet_or_raise_to(1, 100)
    hand.call(2)                        # pot 380
    result = hand.result
    assert result is not None
    # Seat 1 bet the river, so it shows first: a set of sevens; seat 2 shows Q-J-T-9-8, a
    # straight, and takes the 380.
    assert result.show_order == (1, 2)
    assert result.shown[2].category.value == "straight"
    assert result.winnings == (0, 0, 380)
    assert result.final_stacks == (970, 825, 1205)
    assert sum(1 for d in hand.log if isinstance(d, Deal) and d.kind == "burn") == 3


def test_heads_up_fixed_limit_the_button_posts_the_small_blind_and_acts_first() -> None:
    # Fixed limit, blinds 10/20 (bets 20 pre-flop and on the flop, 40 on the turn and river), 500
    # each, the button on seat 1: heads-up the button posts the small blind and acts first
    # pre-flop; seat 0 posts the big blind, is dealt first and acts first after the flop.
    # Seat 0 Ah Kh, seat 1 5c 5d; board Kd 9s 4h | 2c | 5s.
    deck = flop_deck(["AhKh", "5c5d"], "Kd9s4h2c5s", button=1)
    hand = StudHand([500, 500], FL, source=deck, game="texas-holdem", button=1)
    assert [(a.seat, a.action, a.amount) for a in actions(hand)] == [(1, "small_blind", 10),
                                                                      (0, "big_blind", 20)]
    assert [d.card.code for d in hand.log if isinstance(d, Deal)] == ["Ah", "5c", "Kh", "5d"]
    assert hand.actor == 1
    assert hand.legal_actions().to_options == (40,)      # a raise is one small bet: to 40
    hand.bet_or_raise_to(1, 40)
    hand.bet_or_raise_to(0, 60)
    hand.call(1)                                        # pot 120
    assert hand.actor == 0 and len(hand.board) == 3
    hand.bet_or_raise_to(0, 20)
    hand.bet_or_raise_to(1, 40)
    hand.call(0)                                        # pot 200
    assert hand.actor == 0 and len(hand.board) == 4
    assert hand.legal_actions().to_options == (40,)     # the turn bets the big bet
    hand.check(0)
    hand.bet_or_raise_to(1, 40)
    hand.call(0)                                        # pot 280
    hand.check(0)
    hand.check(1)
    result = hand.result
    assert result is not None
    # Nobody bet the river: the first seat left of the button (seat 0) shows first. Seat 1's
    # set of fives beats seat 0's pair of kings.
    assert result.show_order == (0, 1)
    assert result.winnings == (0, 280)
    assert result.final_stacks == (360, 640)


def test_the_big_blind_has_the_option_when_everyone_calls() -> None:
    deck = flop_deck(["AhKh", "5c5d", "2s3s"], "Kd9s4h2c5s", button=0)
    hand = StudHand([500, 500, 500], NL, source=deck, game="texas-holdem")
    hand.call(0)
    hand.call(1)
    assert hand.actor == 2 and hand.legal_actions().check       # the big blind may check or raise
    assert hand.legal_actions().min_to == 20
    hand.check(2)
    assert len(hand.board) == 3 and hand.actor == 1


def test_heads_up_the_small_blind_completing_leaves_the_big_blind_its_option() -> None:
    deck = flop_deck(["AhKh", "5c5d"], "Kd9s4h2c5s", button=0)
    hand = StudHand([500, 500], NL, source=deck, game="texas-holdem", button=0)
    assert hand.actor == 0 and hand.legal_actions().call == 5
    hand.call(0)
    assert hand.actor == 1 and hand.legal_actions().check
    hand.check(1)
    assert hand.actor == 1                    # after the flop the big blind (not the button) acts first


def test_a_short_big_blind_still_makes_the_full_big_blind_the_bet() -> None:
    deck = flop_deck(["AhKh", "5c5d", "2s3s"], "Kd9s4h2c5s", button=0)
    hand = StudHand([500, 500, 6], NL, source=deck, game="texas-holdem")
    assert [(a.action, a.amount, a.all_in) for a in actions(hand)] == [("small_blind", 5, False),
                                                                       ("big_blind", 6, True)]
    assert hand.legal_actions().call == 10


def test_blinds_are_validated() -> None:
    with pytest.raises(StakesError, match="small blind"):
        TableStakes().with_blinds(20, 10)
    with pytest.raises(StakesError, match="negative"):
        TableStakes().with_blinds(-1, 10)
    with pytest.raises(StakesError, match="big blind"):
        StudHand([100, 100], TableStakes(), game="texas-holdem")
    with pytest.raises(ValueError, match="button"):
        StudHand([100, 100], NL, game="texas-holdem", button=2)
    # Stud ignores the blinds and the button.
    stud = StudHand([100, 100], TableStakes(), game="seven-card-stud", button=1)
    assert stud.button == 1 and stud.board == ()


def test_standard_blinds_follow_the_stud_bets() -> None:
    assert TableStakes().with_standard_blinds().small_blind == 10
    assert TableStakes().with_standard_blinds().big_blind == 20
    assert NL.with_standard_blinds() is NL
    assert "blinds 5/10" in NL.describe()


def test_texas_holdem_is_in_the_catalogue() -> None:
    game = GAMES["texas-holdem"]
    assert game.positional and game.board_size == 5 and game.family == "flop"
    assert not GAMES["razz"].positional and GAMES["razz"].family == "stud"


def test_no_action_out_of_turn_and_nothing_changes() -> None:
    deck = flop_deck(["AhKh", "5c5d", "2s3s"], "Kd9s4h2c5s", button=0)
    hand = StudHand([500, 500, 500], NL, source=deck, game="texas-holdem")
    before = hand.log
    with pytest.raises(IllegalAction):
        hand.check(1)
    with pytest.raises(IllegalAction):
        hand.bet_or_raise_to(0, 15)     # below the smallest raise (to 20)
    assert hand.log == before
