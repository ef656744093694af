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
from bot.engine.command import Command, Kind
from bot.engine.errors import IllegalAction, RulingError, StakesError
from bot.engine.games.catalogue import GAMES
from bot.engine.games.rulings import Rulings
from bot.engine.hand.events import ActionTaken
from bot.engine.hand.hand import StudHand
from bot.engine.hand.options import HandOptions, Post
from bot.engine.log import Action, Deal
from bot.engine.narration.narrator import Narrator

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
    assert hand.button == 0 and hand.board == () and hand.blind_seats == (1, 2)
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
    assert hand.blind_seats == (1, 0)
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
    assert stud.button == 1 and stud.board == () and stud.blind_seats is None


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


PL = TableStakes.pot_limit(ante=5, bring_in=1, min_bet=10).with_blinds(5, 10)


def test_omaha_the_best_looking_five_is_not_legal() -> None:
    # Pot limit Omaha, blinds 5/10, 1000 each, button on seat 0 (seat 1 small blind, seat 2 big).
    # Board 2h 5h 9h Th 3c: four hearts. Seat 0 holds Ah Kd Qc Jc: with any five of its nine
    # cards it would have the ace-high flush, but Omaha plays exactly two of its own cards with
    # three of the board, and it holds one heart: no flush, no pair -- ace high.
    # Seat 1 9s 9d 4c 3d: 9s 9d with 9h Th 5h, three nines. Seat 2 Ts 8s 2c 2d: 2c 2d with 2h,
    # three deuces (or Ts 8s with 9h ... no straight: it needs two of 6, 7, J).
    deck = flop_deck(["AhKdQcJc", "9s9d4c3d", "Ts8s2c2d"], "2h5h9hTh3c", button=0)
    hand = StudHand([1000] * 3, PL, source=deck, game="omaha")
    assert [len(hand.cards(s)) for s in range(3)] == [4, 4, 4]
    # Pot limit pre-flop: seat 0 may raise to what the pot would be after its call: 15 in the pot,
    # 10 to call -> 25 -> a raise of 25 on top of the 10: to 35.
    assert (hand.legal_actions().min_to, hand.legal_actions().max_to) == (20, 35)
    hand.call(0)
    hand.call(1)
    hand.check(2)                                            # pot 30
    assert hand.actor == 1 and hand.legal_actions().max_to == 30     # a pot-sized bet: 30
    hand.bet_or_raise_to(1, 30)
    hand.call(2)
    hand.call(0)                                             # pot 120
    for _ in range(6):                                       # the turn and river checked round
        hand.check(hand.actor)
    result = hand.result
    assert result is not None and result.show_order == (1, 2, 0)
    assert result.shown[0].describe() == "High card, ace"
    assert result.shown[1].describe() == "Three of a kind, nines"
    assert result.shown[2].describe() == "Three of a kind, twos"
    assert result.winnings == (0, 120, 0)
    assert result.final_stacks == (960, 1080, 960)


def test_omaha_hi_lo_quartered_pot() -> None:
    # Fixed limit Omaha hi-lo, blinds 10/20, 500 each, button seat 0. Board As 2d 7c Kh Qs.
    # Seat 0 Ks Kd 9c 8c: high Ks Kd Kh As Qs, three kings; no low (9-8 with A-2-7 has a nine).
    # Seat 1 3c 4d Jc Jd and seat 2 3h 4h Td Ts: 3-4 with A-2-7, both the seven-four low.
    # Pot 60 (20 each): the high half (30) to seat 0; the low half (30) split between the two
    # lows, 15 each -- each low gets a quarter of the pot.
    deck = flop_deck(["KsKd9c8c", "3c4dJcJd", "3h4hTdTs"], "As2d7cKhQs", button=0)
    hand = StudHand([500] * 3, FL, source=deck, game="omaha-hi-lo")
    hand.call(0)
    hand.call(1)
    hand.check(2)
    while not hand.is_over:
        hand.check(hand.actor)
    result = hand.result
    assert result is not None
    assert result.shown[0].describe() == "Three of a kind, kings"
    assert 0 not in result.lows
    assert result.lows[1].name == result.lows[2].name == "seven-four low"
    assert result.winnings == (30, 15, 15)
    assert result.final_stacks == (510, 495, 495)


def test_straddle_under_the_gun() -> None:
    # No limit, blinds 5/10, four players, the button on seat 0: seat 1 posts 5, seat 2 posts 10,
    # seat 3 (under the gun) straddles for 20. Seat 0, left of the straddle, acts first: call 20,
    # or raise to at least 40 (the straddle plays as the big blind: a raise adds at least 20).
    deck = flop_deck(["AhKh", "5c5d", "2s3s", "9c9d"], "Kd9s4h2c5s", button=0)
    hand = StudHand([1000] * 4, NL, source=deck, game="texas-holdem", options=HandOptions(straddle=True))
    assert [(a.seat, a.action, a.amount) for a in actions(hand)] == [
        (1, "small_blind", 5), (2, "big_blind", 10), (3, "straddle", 20)]
    assert hand.actor == 0
    assert (hand.legal_actions().call, hand.legal_actions().min_to) == (20, 40)
    hand.call(0)
    hand.call(1)                        # 15 more
    hand.call(2)                        # 10 more
    assert hand.actor == 3 and hand.legal_actions().check     # the straddler has the option
    hand.check(3)                       # pot 80
    assert len(hand.board) == 3 and hand.actor == 1
    hand.bet_or_raise_to(1, 10)
    hand.fold(2)
    hand.fold(3)
    hand.fold(0)
    result = hand.result
    assert result is not None and not result.showdown
    assert result.final_stacks == (980, 1060, 980, 980)


def test_no_straddle_from_the_button() -> None:
    # Heads-up and three-handed the seat left of the big blind is the button: no straddle.
    for holes in (["AhKh", "5c5d"], ["AhKh", "5c5d", "2s3s"]):
        deck = flop_deck(holes, "Kd9s4h2c5s", button=0)
        hand = StudHand([1000] * len(holes), NL, source=deck, game="texas-holdem",
                        options=HandOptions(straddle=True))
        assert [a.action for a in actions(hand)] == ["small_blind", "big_blind"]


def test_bomb_pot() -> None:
    # A bomb pot of 20, three players, button seat 0: every player antes 20 (from seat 1 round),
    # no blinds, no betting before the flop: the flop is out at once, seat 1 acts first.
    # Seat 0 Ah Kh, seat 1 5c 5d, seat 2 2s 3s; board Kd 9s 4h 2c 5s: seat 1's three fives win 60.
    deck = flop_deck(["AhKh", "5c5d", "2s3s"], "Kd9s4h2c5s", button=0)
    hand = StudHand([500] * 3, NL, source=deck, game="texas-holdem", options=HandOptions(bomb_pot=20))
    assert [(a.seat, a.action, a.amount) for a in actions(hand)] == [(1, "ante", 20), (2, "ante", 20),
                                                                      (0, "ante", 20)]
    assert len(hand.board) == 3 and hand.actor == 1 and hand.legal_actions().check
    assert hand.first_actor(10) is None                      # no pre-flop betting
    while not hand.is_over:
        hand.check(hand.actor)
    result = hand.result
    assert result is not None and result.winnings == (0, 60, 0)
    assert result.final_stacks == (480, 540, 480)


def test_antes_per_player_and_big_blind_ante() -> None:
    deck = flop_deck(["AhKh", "5c5d", "2s3s"], "Kd9s4h2c5s", button=0)
    per = StudHand([500] * 3, NL, Rulings(flop_ante="per-player"), source=deck, game="texas-holdem")
    assert [(a.seat, a.action, a.amount) for a in actions(per)] == [
        (1, "ante", 5), (2, "ante", 5), (0, "ante", 5), (1, "small_blind", 5), (2, "big_blind", 10)]
    assert per.pot_total == 30 and per.legal_actions().call == 10
    bba = StudHand([500] * 3, NL, Rulings(flop_ante="big-blind"), source=deck, game="texas-holdem")
    # The big blind ante: the big blind posts one ante for the table, as much as the big blind.
    assert [(a.seat, a.action, a.amount) for a in actions(bba)] == [
        (1, "small_blind", 5), (2, "big_blind", 10), (2, "ante", 10)]
    assert bba.pot_total == 25 and bba.legal_actions().call == 10
    bba.call(0)
    bba.call(1)
    bba.check(2)
    # The big blind's ante is dead money: nothing of it comes back as uncalled (before the fix 10
    # of it did, as if the big blind had bet 20).
    assert bba.pot_total == 40 and bba.stack(2) == 480 and len(bba.board) == 3
    # Stud's ante is not posted in a flop game by default.
    plain = StudHand([500] * 3, NL, source=deck, game="texas-holdem")
    assert plain.pot_total == 15


def test_a_wild_rank_in_holdem() -> None:
    # Heads-up, seat 0 2c 2d, seat 1 Ah Ad; board Ks Kd 7h 8c 9s. Plain: aces up beat kings up.
    # With twos wild: seat 0's two deuces make the kings four of a kind.
    cards = flop_deck(["2c2d", "AhAd"], "KsKd7h8c9s", button=0)
    for rulings, winner, described in ((Rulings(), 1, "Two pair, kings and twos"),
                                       (Rulings(wild_rank="twos"), 0, "Four of a kind, kings")):
        hand = StudHand([100, 100], NL, rulings, source=list(cards), game="texas-holdem")
        while not hand.is_over:
            hand.check_or_call(hand.actor)
        result = hand.result
        assert result is not None and result.winnings[winner] == 20
        assert result.shown[0].describe() == described
    with pytest.raises(RulingError):
        GAMES["seven-card-stud"].check_ruling("wild_rank")


def test_crazy_pineapple_discards_after_the_flop_betting() -> None:
    # No limit 5/10, 500 each, button seat 0. Three down cards each: seat 0 Ah Ad Kc, seat 1
    # 7s 7c 2d, seat 2 Qh Jh 3c; board 7h Th 2h | 9h | 4c. Everyone limps and checks the flop;
    # then each discards one, from seat 1 round: seat 1 throws 2d, seat 2 throws 3c, and seat 0's
    # timer runs out. The timer keeps the best hand: without Kc seat 0 has a pair of aces (without
    # either ace, ace or king high), so it throws Kc. The turn and river are checked: seat 0's
    # Ah with four hearts on the board is the ace-high flush and beats seat 2's queen-high flush
    # and seat 1's three sevens: 30 to seat 0.
    deck = flop_deck(["AhAdKc", "7s7c2d", "QhJh3c"], "7hTh2h9h4c", button=0)
    hand = StudHand([500] * 3, NL, source=deck, game="crazy-pineapple")
    assert [len(hand.cards(s)) for s in range(3)] == [3, 3, 3]
    hand.call(0)
    hand.call(1)
    hand.check(2)
    for seat in (1, 2, 0):
        hand.check(seat)
    decision = hand.decision
    assert hand.phase == "decision" and decision is not None and decision.seat == 1
    assert [c.text for c in decision.choices] == ["discard 7s", "discard 7c", "discard 2d"]
    assert hand.legal_actions().names == ()
    with pytest.raises(IllegalAction, match="do not hold"):
        hand.apply(1, Command.parse("discard Ah"))
    with pytest.raises(IllegalAction):
        hand.discard(2, Card.parse("3c"))            # not seat 2's turn yet
    hand.discard(1, Card.parse("2d"))
    hand.apply(2, Command.parse("discard 3c"))
    assert hand.decision is not None and hand.decision.fallback == Card.parse("Kc")
    hand.timeout(0)
    assert [(a.seat, a.cards, a.timed_out) for a in actions(hand, "discard")] == [
        (1, (Card.parse("2d"),), False), (2, (Card.parse("3c"),), False), (0, (Card.parse("Kc"),), True)]
    assert hand.cards(0) == tuple(parse_cards("AhAd")) and hand.discarded(0) == (Card.parse("Kc"),)
    assert len(hand.board) == 4 and hand.actor == 1         # the turn is dealt after the discards
    while not hand.is_over:
        hand.check(hand.actor)
    result = hand.result
    assert result is not None
    assert result.shown[0].describe().startswith("Flush, ace")
    assert result.winnings == (30, 0, 0) and result.final_stacks == (520, 490, 490)


def _run_twice_deck(holes: Sequence[str], first: str, second: str, button: int) -> list[Card]:
    """``flop_deck`` for the first run, then a burn before each street of the second run."""
    one = flop_deck(holes, first, button)
    dealt = len(parse_cards("".join(holes))) + 3 + 5
    rest = [c for c in one[dealt:] if c not in parse_cards(second)]
    two = parse_cards(second)
    return [*one[:dealt], rest[0], *two[:3], rest[1], two[3], rest[2], two[4], *rest[3:]]


def test_run_it_twice_splits_each_pot_between_the_boards() -> None:
    # No limit 5/10, 100 each, three players, button seat 0: seat 1 posts 5, seat 2 posts 10.
    # Seat 0 moves all in for 100, seat 1 folds, seat 2 calls: pot 205, nobody can bet any more.
    # Both are asked from the button's left (seat 2, then seat 0) and agree. Run one: 2c 7d 9h 3s
    # 4c, seat 0's aces win; run two: Kh 8c 5s Jd 6h, seat 2's three kings win. The pot is halved,
    # the odd chip to the first run: 103 to seat 0, 102 to seat 2.
    deck = _run_twice_deck(["AhAd", "8h8s", "KsKd"], "2c7d9h3s4c", "Kh8c5sJd6h", button=0)
    hand = StudHand([100] * 3, NL, Rulings(run_it_twice="on"), source=deck, game="texas-holdem")
    hand.all_in(0)
    hand.fold(1)
    hand.call(2)
    decision = hand.decision
    assert decision is not None and decision.kind == "run_twice" and decision.seat == 2
    assert [c.kind for c in decision.choices] == [Kind.RUN_TWICE, Kind.RUN_ONCE]
    assert hand.board == ()
    hand.apply(2, Command(Kind.RUN_TWICE))
    assert hand.decision is not None and hand.decision.seat == 0
    hand.apply(0, Command.parse("run twice"))
    result = hand.result
    assert result is not None and hand.runs == 2
    assert [[c.code for c in b] for b in hand.boards] == [["2c", "7d", "9h", "3s", "4c"],
                                                          ["Kh", "8c", "5s", "Jd", "6h"]]
    assert result.boards == hand.boards
    assert [(p.run, p.amount, p.winners) for p in result.pots] == [(0, 103, (0,)), (1, 102, (2,))]
    assert result.second_shown[2].describe() == "Three of a kind, kings"
    assert result.final_stacks == (103, 95, 102)
    assert sum(1 for d in hand.log if isinstance(d, Deal) and d.kind == "burn") == 6


def test_run_it_twice_needs_everyone_and_the_timer_says_once() -> None:
    deck = _run_twice_deck(["AhAd", "8h8s", "KsKd"], "2c7d9h3s4c", "Kh8c5sJd6h", button=0)
    hand = StudHand([100] * 3, NL, Rulings(run_it_twice="on"), source=deck, game="texas-holdem")
    hand.all_in(0)
    hand.fold(1)
    hand.call(2)
    hand.apply(2, Command(Kind.RUN_TWICE))
    with pytest.raises(IllegalAction, match="run it twice, or run it once"):
        hand.apply(0, Command(Kind.CALL))
    hand.timeout(0)
    result = hand.result
    assert result is not None and hand.runs == 1 and len(hand.boards) == 1
    assert [a.action for a in actions(hand) if a.action.startswith("run")] == ["run_twice", "run_once"]
    assert result.final_stacks == (205, 95, 0)
    # Off (the default): nobody is asked.
    plain = StudHand([100] * 3, NL, source=list(deck), game="texas-holdem")
    plain.all_in(0)
    plain.fold(1)
    plain.call(2)
    assert plain.is_over and plain.runs == 1


class _Told(Narrator[str]):
    """A voice that says every action and every block of cards (to check the narrator's order)."""

    def deal_lines(self, street: int | None, cards: Sequence[Deal]) -> list[str]:
        return [" ".join(d.card.code for d in cards if d.kind != "burn")]

    def visit_action_taken(self, event: ActionTaken) -> None:
        super().visit_action_taken(event)
        if event.action.action != "ante":
            self.say(event.action.action)


def test_the_narrator_says_the_blinds_then_the_cards_then_the_board() -> None:
    # Before the fix the blinds closed the pre-flop deal block and the hole cards were never said.
    deck = flop_deck(["AhAdKc", "7s7c2d", "QhJh3c"], "7hTh2h9h4c", button=0)
    hand = StudHand([500] * 3, NL, source=deck, game="crazy-pineapple")
    hand.call(0)
    hand.call(1)
    hand.check(2)
    for seat in (1, 2, 0):
        hand.check(seat)
    for seat in (1, 2, 0):
        hand.timeout(seat)
    lines = _Told(["a", "b", "c"], ()).lines(hand.events)
    assert lines[:3] == ["small_blind", "big_blind", "7s Qh Ah 7c Jh Ad 2d 3c Kc"]
    assert lines[3:7] == ["call", "call", "check", "7h Th 2h"]
    assert lines[10:14] == ["discard", "discard", "discard", "9h"]


def test_posting_out_of_position() -> None:
    # Four players, blinds 5/10, button seat 0: seat 1 small blind, seat 2 big blind. Seat 3 missed
    # both blinds: it posts the small blind dead (5, in the pot, not a bet) and the big blind live
    # (10, its bet). Seat 0 acts first (left of... seat 3 posted but the big blind is still seat 2:
    # first to act is seat 3, left of the big blind, who may check its live post or raise).
    deck = flop_deck(["AhKh", "5c5d", "2s3s", "9c9d"], "Kd9s4h2c5s", button=0)
    hand = StudHand([1000] * 4, NL, source=deck, game="texas-holdem",
                    options=HandOptions(posts=(Post(3, live=10, dead=5),)))
    assert [(a.seat, a.action, a.amount, a.to) for a in actions(hand)] == [
        (1, "small_blind", 5, 5), (2, "big_blind", 10, 10), (3, "dead_blind", 5, 0), (3, "big_blind", 10, 10)]
    assert hand.pot_total == 30 and hand.actor == 3
    assert hand.legal_actions().check                   # its live blind is its bet, with the option
    hand.check(3)
    hand.call(0)
    hand.fold(1)
    hand.check(2)
    # Pot 40: 10 from each of seats 0, 2, 3, seat 1's 5 and the dead 5. Before the fix the dead
    # part was counted as seat 3's bet and 5 of it came back to it as "uncalled": pot 35.
    assert len(hand.board) == 3 and hand.pot_total == 40 and hand.stack(3) == 985
    with pytest.raises(ValueError, match="in the blinds"):
        StudHand([1000] * 4, NL, game="texas-holdem", options=HandOptions(posts=(Post(2, live=10),)))
    with pytest.raises(ValueError, match="posts once"):
        HandOptions(posts=(Post(3, live=10), Post(3, dead=5)))
