"""Betting (SPEC §5): bring-in, completion, fixed-limit sizes and caps, open pairs, short all-ins,
pot limit and no limit, antes. Amounts are street totals ("to")."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.betting.stakes import TableStakes
from bot.engine.cards.card import FULL_DECK, Card
from bot.engine.errors import IllegalAction
from bot.engine.games.rulings import Rulings
from bot.engine.hand.events import BringInSeat
from bot.engine.hand.hand import StudHand
from tests.engine.helpers import FL, NL, PL, new_hand, play, state
from tests.engine.test_properties import random_command, stakes_strategy

# Three players, no fives and no wilds. Door cards 2♣ (P1), 3♦ (P2), 4♥ (P3): P1 brings in.
# Fourth street boards: P1 [2♣ K♥] king-high, P2 [3♦ Q♥], P3 [4♥ J♥] -> P1 acts first on fourth.
H3 = ["Ac Ad 2c Kh 7s 8c 9d", "Kc Kd 3d Qh 8s 9c Td", "Qc Qs 4h Jh 9s Tc Jd"]
H4 = [*H3, "Jc Js 6h 7h 4s 3s 2d"]
# A fifth player with door 9♥ and fourth-street 8♥: P1 (2♣ door, K♥ on fourth) still brings in and is
# still high on fourth street with king-high.
H5 = [*H4, "Th Ts 9h 8h 6s 6c 3h"]


def test_bring_in_posts_or_completes_and_may_not_fold_or_check() -> None:
    hand = new_hand(H3)
    assert hand.actor == 0 and hand.bring_in_seat == 0
    legal = hand.legal_actions()
    assert legal.names == ("bring_in", "complete")
    assert (legal.bring_in, legal.complete_to, legal.to_options) == (10, 20, (20,))
    before = state(hand)
    for bad in ("fold", "check", "call"):
        with pytest.raises(IllegalAction):
            hand.act(0, bad)
        assert state(hand) == before           # a refused command changes nothing
    with pytest.raises(IllegalAction, match="cannot fold"):
        hand.fold(0)


def test_everyone_calls_the_bring_in_so_it_has_no_option() -> None:
    # SPEC §5: if everyone just calls, the bring-in has no option -> fourth street at once.
    hand = new_hand(H3)
    play(hand, "p1 bring_in, p2 call, p3 call")
    assert hand.street == 4 and hand.actor == 0
    assert [hand.contribution(s) for s in range(3)] == [15, 15, 15]   # ante 5 + 10 each


def test_completion_is_the_bet_and_raises_are_full_bets() -> None:
    hand = new_hand(H3)
    play(hand, "p1 bring_in, p2 complete")
    legal = hand.legal_actions()
    # P3 faces 20: call 20, or raise by a full small bet to 40 (completion is not a raise).
    assert (legal.call, legal.wager, legal.to_options) == (20, "raise", (40,))
    play(hand, "p3 raise 40")
    legal = hand.legal_actions()
    # The bring-in (10 in) owes 30 more; a raise goes to 60.
    assert (legal.call, legal.to_options) == (30, (60,))
    with pytest.raises(IllegalAction, match="fixed limit"):
        hand.bet_or_raise_to(0, 50)


@pytest.mark.parametrize(("cap", "p3_may_raise"), [("3", False), ("4", True), ("none", True)])
def test_raise_cap(cap: str, p3_may_raise: bool) -> None:
    # Completion (the bet) + 3 raises: 20, 40, 60, 80. With cap 3 nobody may raise again.
    hand = new_hand(H3, rulings=Rulings(raise_cap=cap))
    play(hand, "p1 bring_in, p2 complete, p3 raise 40, p1 raise 60, p2 raise 80")
    legal = hand.legal_actions()
    assert legal.call == 40
    assert (legal.wager == "raise") is p3_may_raise
    if not p3_may_raise:
        with pytest.raises(IllegalAction, match="capped"):
            hand.bet_or_raise_to(2, 100)
    else:
        play(hand, "p3 raise 100")


@pytest.mark.parametrize(("rule", "uncapped"), [("on", True), ("off", False)])
def test_heads_up_round_is_uncapped(rule: str, uncapped: bool) -> None:
    # Two players: the round starts heads-up. Completion + 3 raises = 80, then a 5th wager to 100.
    hand = new_hand(H3[:2], rulings=Rulings(heads_up_uncapped=rule))
    play(hand, "p1 bring_in, p2 complete, p1 raise 40, p2 raise 60, p1 raise 80")
    assert (hand.legal_actions().wager == "raise") is uncapped


def test_round_that_becomes_heads_up_keeps_the_cap() -> None:
    # WSOP-LA 127: the cap is lifted only when the round *begins* heads-up.
    hand = new_hand(H3)
    play(hand, "p1 bring_in, p2 complete, p3 fold, p1 raise 40, p2 raise 60, p1 raise 80")
    assert hand.legal_actions().wager is None


# Fourth street boards with an open natural pair: P1 [2♣ 2♥] -- P1 is high and acts first.
PAIR = ["Ac Ad 2c 2h 7s 8c 9d", "Kc Kd 3d Qh 8s 9c Td", "Qc Qs 4h Jh 9s Tc Jd"]
# No natural pair, but P2's 5♠ is wild and P3's J♥ (the next card) makes jacks wild:
# P2 [3♦ 5♠] and P3 [4♥ J♥] are wild pairs; P1 [2♣ K♥] king-high.
WILD_PAIR = ["Ac Ad 2c Kh 7s 8c 9d", "Kc Kd 3d 5s 8s 9c Td", "Qc Qs 4h Jh 9s Tc Jd"]


@pytest.mark.parametrize(
    ("hands", "rule", "options"),
    [
        (PAIR, "natural-pair", (20, 40)),
        (PAIR, "wild-aware", (20, 40)),
        (PAIR, "off", (20,)),
        (WILD_PAIR, "natural-pair", (20,)),
        (WILD_PAIR, "wild-aware", (20, 40)),
        (WILD_PAIR, "off", (20,)),
    ],
)
def test_open_pair_on_fourth_street(hands: list[str], rule: str, options: tuple[int, ...]) -> None:
    hand = new_hand(hands, rulings=Rulings(open_pair_double=rule))
    play(hand, "p1 bring_in, p2 call, p3 call")
    assert hand.street == 4
    assert hand.legal_actions().to_options == options


def test_after_a_big_bet_on_fourth_street_raises_are_big() -> None:
    # WSOP-LA 220: once a bet of the higher limit is made, later raises are of the higher limit.
    hand = new_hand(PAIR)
    play(hand, "p1 bring_in, p2 call, p3 call, p1 bet 40")
    assert hand.legal_actions().to_options == (80,)


def test_after_a_small_bet_an_open_pair_still_allows_a_big_raise() -> None:
    hand = new_hand(PAIR)
    play(hand, "p1 bring_in, p2 call, p3 call, p1 bet 20")
    assert hand.legal_actions().to_options == (40, 60)


def test_open_pair_short_stack_may_bet_all_in_between_the_small_and_the_big_bet() -> None:
    # P1 (open pair of twos, first to act) has 45 - ante 5 - bring-in 10 = 30 behind on fourth street.
    # The open pair allows a bet of 20 or 40 (SPEC §5 open_pair_double); 40 is out of reach, and a
    # player short of a full bet may always bet all-in for less (SPEC §5 short all-ins), so all-in to
    # 30 must be offered. It is more than a small bet, so it can only be a (short) big bet, and at
    # least half of 40, so it counts as a full big bet (SPEC §5 "half a bet or more counts as a full
    # bet"; WSOP-LA 220: after a big bet every raise on fourth street is big): P2 may raise to 70 only.
    hand = new_hand(PAIR, [45, 1000, 1000])
    play(hand, "p1 bring_in, p2 call, p3 call")
    legal = hand.legal_actions()
    assert (legal.seat, legal.to_options, legal.all_in_to, legal.all_in_kind) == (0, (20,), 30, "bet")
    play(hand, "p1 all_in")
    assert hand.is_all_in(0)
    legal = hand.legal_actions()
    assert (legal.seat, legal.call, legal.to_options) == (1, 30, (70,))


def test_open_pair_short_stack_may_raise_all_in_between_the_small_and_the_big_raise() -> None:
    # P1 bets 20; P2 has 60 - 15 = 45 behind: a small raise is to 40, a big raise to 60; all-in to 45 is
    # a short big raise (more than 40; 60 is out of reach), at least half a big bet over 20, so a full
    # one (as above): P3 may then raise by the big bet only, to 85.
    hand = new_hand(PAIR, [1000, 60, 1000])
    play(hand, "p1 bring_in, p2 call, p3 call, p1 bet 20")
    legal = hand.legal_actions()
    assert (legal.seat, legal.to_options, legal.all_in_to, legal.all_in_kind) == (1, (40,), 45, "raise")
    play(hand, "p2 all_in")
    assert hand.legal_actions().to_options == (85,)


def test_open_pair_does_not_double_fifth_street() -> None:
    hand = new_hand(PAIR)
    play(hand, "p1 bring_in, p2 call, p3 call, p1 check, p2 check, p3 check")
    assert hand.street == 5 and hand.legal_actions().to_options == (40,)


# ----------------------------------------------------------------------- short all-ins, fixed limit
def fourth_street(stacks: list[int], hands: list[str] = H3) -> StudHand:
    hand = new_hand(hands, stacks)
    play(hand, "p1 bring_in, p2 call, p3 call")
    assert hand.street == 4 and hand.actor == 0
    return hand


def test_fixed_all_in_under_half_a_bet_does_not_reopen() -> None:
    # P3 has 25 left on fourth street (40 - ante 5 - bring-in call 10). P1 bets 20, P2 calls,
    # P3 is all-in to 25: 5 over the bet, less than half of 20 -> P1 and P2 may only call 5 or fold.
    hand = fourth_street([1000, 1000, 40])
    play(hand, "p1 bet 20, p2 call, p3 all_in")
    assert hand.is_all_in(2) and hand.street_contribution(2) == 25
    legal = hand.legal_actions()
    assert (legal.seat, legal.call, legal.wager) == (0, 5, None)
    with pytest.raises(IllegalAction, match="not reopened"):
        hand.bet_or_raise_to(0, 45)
    play(hand, "p1 call, p2 call")
    assert hand.street == 5


def test_fixed_all_in_of_exactly_half_a_bet_counts_as_a_full_raise() -> None:
    # The boundary of the half-bet rule: "half a bet or more counts as a full bet" (SPEC §5). P3 has 30
    # left on fourth street (45 - ante 5 - bring-in call 10) and goes all-in to 30 over a bet of 20:
    # 10 more, exactly half of 20 -> a full raise, so P1 (who bet) may raise again, to 30 + 20 = 50.
    hand = fourth_street([1000, 1000, 45])
    play(hand, "p1 bet 20, p2 call, p3 all_in")
    legal = hand.legal_actions()
    assert (legal.seat, legal.call, legal.to_options) == (0, 10, (50,))


def test_fixed_all_in_of_half_a_bet_counts_as_a_full_raise() -> None:
    # P3 all-in to 35 over a 20 bet: 15 >= half of 20 -> a full raise; P1 may raise to 35 + 20 = 55.
    hand = fourth_street([1000, 1000, 50])
    play(hand, "p1 bet 20, p2 call, p3 all_in")
    legal = hand.legal_actions()
    assert (legal.call, legal.to_options) == (15, (55,))


def test_fixed_short_all_in_lets_a_player_yet_to_act_complete_the_raise() -> None:
    # Pagat's example: a bet of 20, P2 all-in to 25; P3 has not acted and may call 25 or complete the
    # raise to 40 (the bet plus a full bet). Then the betting is reopened for P1.
    hand = fourth_street([1000, 40, 1000])
    play(hand, "p1 bet 20, p2 all_in")
    legal = hand.legal_actions()
    assert (legal.seat, legal.call, legal.to_options) == (2, 25, (40,))
    play(hand, "p3 raise 40")
    assert hand.legal_actions().to_options == (60,)


def test_player_short_of_a_full_raise_may_go_all_in_for_less() -> None:
    # P2 has 30 behind on fourth street, faces 20 and cannot make 40: all-in to 30 is the only raise.
    hand = fourth_street([1000, 45, 1000])
    play(hand, "p1 bet 20")
    legal = hand.legal_actions()
    assert (legal.call, legal.min_to, legal.all_in_to, legal.all_in_kind) == (20, None, 30, "raise")
    with pytest.raises(IllegalAction):
        hand.bet_or_raise_to(1, 40)
    play(hand, "p2 all_in")
    assert hand.is_all_in(1)


def test_player_who_cannot_cover_the_call_calls_all_in() -> None:
    hand = fourth_street([1000, 30, 1000])        # 15 left after ante and bring-in call
    play(hand, "p1 bet 20")
    legal = hand.legal_actions()
    assert (legal.call, legal.wager, legal.all_in_kind) == (15, None, "call")


# ------------------------------------------------------------------------- pot limit and no limit
def test_pot_limit_completion_range() -> None:
    # Antes 3 x 5 = 15, bring-in 10. P2 calls 10 (pot 35 after the call), so the most is 10 + 35 = 45;
    # the least is the minimum bet 20.
    hand = new_hand(H3, stakes=PL)
    play(hand, "p1 bring_in")
    legal = hand.legal_actions()
    # Issue 14: in pot and no limit the first wager after the bring-in is a bet, not a completion;
    # a player who types "complete" still makes it.
    assert (legal.wager, legal.min_to, legal.max_to, legal.to_options) == ("bet", 20, 45, ())
    play(hand, "p2 complete 45")
    legal = hand.legal_actions()
    # P3: pot 15 + 10 + 45 = 70, after calling 45 it is 115 -> raise to at most 45 + 115 = 160;
    # the least raise is the largest full bet so far (45): to 90.
    assert (legal.call, legal.min_to, legal.max_to) == (45, 90, 160)


def test_pot_limit_wsop_example() -> None:
    # WSOP-LA: pot 100, bet 50 -> the next player may make it 250 in all. Build it on fourth street:
    # antes 3 x 5 + bring-in called 3 x 10 = 45; not 100 -- so check the formula: pot 45, P1 bets 45
    # (a pot-sized bet), P2 may raise to 45 + (45 + 45 + 45) = 180.
    hand = new_hand(H3, stakes=PL)
    play(hand, "p1 bring_in, p2 call, p3 call")
    assert hand.legal_actions().max_to == 45
    play(hand, "p1 bet 45")
    assert hand.legal_actions().max_to == 180


def test_no_limit_complete_must_reach_the_minimum_bet() -> None:
    hand = new_hand(H3, stakes=NL)
    play(hand, "p1 bring_in")
    legal = hand.legal_actions()
    assert (legal.min_to, legal.max_to) == (20, 995)        # 1000 - ante 5
    with pytest.raises(IllegalAction, match="smallest bet is to 20"):
        hand.bet_or_raise_to(1, 15)


def test_no_limit_min_raise_is_the_largest_full_raise() -> None:
    hand = new_hand(H3, stakes=NL)
    play(hand, "p1 bring_in, p2 complete 50")
    assert hand.legal_actions().min_to == 100        # 50 + the 50 bet
    play(hand, "p3 raise 200")
    assert hand.legal_actions().min_to == 350        # 200 + the 150 raise


def test_no_limit_short_all_in_does_not_reopen_for_players_who_acted() -> None:
    # Fourth street: P1 bets 100, P2 is all-in to 150 (50 more: short of the 100 raise). P3 has not
    # acted: may raise, at least to 150 + 100 = 250. P1 already acted: call 50 or fold only.
    hand = new_hand(H3, [1000, 165, 1000], stakes=NL)
    play(hand, "p1 bring_in, p2 call, p3 call, p1 bet 100, p2 all_in")
    legal = hand.legal_actions()
    assert (legal.seat, legal.min_to) == (2, 250)
    play(hand, "p3 call")
    legal = hand.legal_actions()
    assert (legal.seat, legal.call, legal.wager) == (0, 50, None)


def test_no_limit_short_all_ins_that_add_up_to_a_full_raise_reopen() -> None:
    # stud-rules §7.1 (WSOP-T 96a): several short all-ins together reopen the betting once their sum
    # amounts to a full raise. Fourth street, four players: P1 bets 100; P2 all-in to 150 and P3 all-in
    # to 200 are each 50 over the bet before (short of the 100 raise), but together P1 now faces exactly
    # 100 more than its own bet: a full raise, so P1 may re-raise, at least to 200 + 100 = 300.
    hand = new_hand(H5, [1000, 165, 215, 1000, 1000], stakes=NL)
    play(hand, "p1 bring_in, p2 call, p3 call, p4 call, p5 call")
    play(hand, "p1 bet 100, p2 all_in, p3 all_in, p4 call, p5 call")
    legal = hand.legal_actions()
    assert (legal.seat, legal.call, legal.wager, legal.min_to) == (0, 100, "raise", 300)


def test_no_limit_full_raise_after_a_short_all_in_reopens() -> None:
    hand = new_hand(H3, [1000, 165, 1000], stakes=NL)
    play(hand, "p1 bring_in, p2 call, p3 call, p1 bet 100, p2 all_in, p3 raise 250")
    legal = hand.legal_actions()
    # P1 owes 150; a re-raise must add the largest full raise of the street (100): to 350.
    assert (legal.seat, legal.call, legal.min_to) == (0, 150, 350)


# ------------------------------------------------------------------------------------ antes
def test_player_who_cannot_cover_the_ante_is_all_in_and_keeps_getting_cards() -> None:
    # peers.md §3 #9: P2 has 3 chips: posts them, is all-in, is skipped, still gets every card, and
    # can win only the main pot (3 from each player = 9). The side pot holds P1's and P3's other
    # 2 (ante) + 10 (bring-in and call) = 12 each = 24.
    hand = new_hand(H3, [1000, 3, 1000])
    assert hand.is_all_in(1) and hand.contribution(1) == 3
    play(hand, "p1 bring_in, p3 call")              # P2 is skipped
    play(hand, "p1 check, p3 check, p1 check, p3 check, p1 check, p3 check, p1 check, p3 check")
    assert hand.result is not None
    assert len(hand.cards(1)) == 7
    assert [p.amount for p in hand.result.pots] == [9, 24]
    assert hand.result.pots[0].eligible == (0, 1, 2) and hand.result.pots[1].eligible == (0, 2)


def test_low_card_all_in_for_the_ante_passes_the_bring_in_on() -> None:
    # TDA RP-10E: P1 holds the low card (2♣) but is all-in for the ante; the next player (P2) acts
    # first and may bring in, complete, or fold; if P2 folds the obligation passes to P3.
    hand = new_hand(H4, [4, 1000, 1000, 1000])
    assert hand.bring_in_seat == 0 and hand.actor == 1
    assert hand.legal_actions().names == ("fold", "bring_in", "complete")
    # The narration names the low door card (P1's 2♣) and who it passed from, not P2's door card.
    (event,) = [e for e in hand.events if isinstance(e, BringInSeat)]
    assert event == BringInSeat(1, Card.parse("2c"), 0)
    hand.timeout(1)                                  # may fold, so the timer folds (nothing is forced)
    assert hand.folded(1) and hand.actor == 2 and hand.legal_actions().bring_in == 10
    play(hand, "p3 bring_in, p4 call")
    assert hand.street == 4


def test_passed_on_bring_in_skips_a_seat_all_in_for_the_ante() -> None:
    # TDA RP-10E: the low card (P1, 2♣) is all-in for the ante, so P2 may open or fold; when P2 folds the
    # obligation passes around the table to the next player WITH CHIPS: P3 is all-in for its ante (5 of
    # 5), so it is P4's turn to bring in, complete or fold (P5 can still bet against P4).
    hand = new_hand(H5, [4, 1000, 5, 1000, 1000])
    assert hand.actor == 1
    play(hand, "p2 fold")
    legal = hand.legal_actions()
    assert (legal.seat, legal.names) == (3, ("fold", "bring_in", "complete"))


def test_low_card_all_in_and_nobody_left_to_bet_against() -> None:
    # P1 (low card) is all-in for the ante; P2 folds; P3 alone has chips: no betting is possible, the
    # board is dealt out. P3's extra ante chip over P1's 4 is matched by P2's folded 5, so nothing
    # comes back; the pot is 4 + 5 + 5.
    hand = new_hand(H3, [4, 1000, 1000])
    play(hand, "p2 fold")
    assert hand.is_over and hand.result is not None and hand.betting_closed
    assert hand.result.returned == (0, 0, 0) and sum(p.amount for p in hand.result.pots) == 14
    assert len(hand.cards(0)) == len(hand.cards(2)) == 7 and len(hand.cards(1)) == 3


def test_partial_bring_in_still_costs_callers_the_full_bring_in() -> None:
    # WSOP-LA 217: P1 has 9 after the ante, posts 9 all-in; P2 and P3 must call the full 10.
    hand = new_hand(H3, [14, 1000, 1000])
    play(hand, "p1 bring_in")
    assert hand.is_all_in(0) and hand.contribution(0) == 14
    assert hand.legal_actions().call == 10
    play(hand, "p2 call, p3 call")
    # Fourth street: P1's K-high board is the high hand but P1 is all-in, so action starts with the
    # next seat clockwise, P2 (WSOP-LA 240: "as if that person had checked").
    assert hand.street == 4 and hand.high_hand(4) == 0 and hand.actor == 1


def test_timeout_posts_a_pending_bring_in_and_never_completes() -> None:
    hand = new_hand(H3)
    hand.timeout(0)
    assert hand.log[-1].action == "bring_in" and hand.log[-1].timed_out
    hand.timeout(1)                                        # facing the bring-in: fold
    assert hand.folded(1)
    play(hand, "p3 call")
    hand.timeout(hand.actor or 0)                          # fourth street, nothing to call: check
    assert hand.log[-1].action == "check"


def test_everyone_else_all_in_so_no_raise_is_possible() -> None:
    # peers.md §3 #4: heads-up, B all-in for less than A's stack; A may call or fold, never raise.
    hand = new_hand(H3[:2], [1000, 100], stakes=NL)
    play(hand, "p1 bring_in, p2 all_in")
    legal = hand.legal_actions()
    assert legal.wager is None and legal.call == 85      # P2 is all-in to 95; P1 has 10 in
    with pytest.raises(IllegalAction, match="nobody to raise against"):
        hand.bet_or_raise_to(0, 200)
    play(hand, "p1 call")
    assert hand.is_over and hand.result is not None and hand.result.showdown
    assert all(len(hand.cards(s)) == 7 for s in (0, 1))


@pytest.mark.parametrize("bad", [("p2", "call"), ("p1", "raise 0"), ("p1", "bet 15"), ("p9", "fold")])
def test_illegal_commands_change_nothing(bad: tuple[str, str]) -> None:
    hand = new_hand(H3)
    before = state(hand)
    with pytest.raises(IllegalAction):
        play_unchecked(hand, f"{bad[0]} {bad[1]}")
    assert state(hand) == before


def play_unchecked(hand: object, step: str) -> None:
    words = step.split()
    seat = int(words[0].lstrip("p")) - 1
    amount = int(words[2]) if len(words) > 2 else None
    hand.act(seat, words[1], amount)  # type: ignore[attr-defined]


def test_stakes_in_a_hand_use_whole_chips() -> None:
    hand = new_hand(H3, stakes=TableStakes.no_limit(ante=1, bring_in=2, min_bet=4))
    play(hand, "p1 bring_in")
    with pytest.raises(IllegalAction, match="whole number"):
        hand.bet_or_raise_to(1, 4.5)  # type: ignore[arg-type]
    _ = FL


def test_fixed_limit_amount_above_the_stack_names_the_fixed_amounts() -> None:
    # In fixed limit the only legal totals are the fixed ones (SPEC §5), so asking for more than the
    # stack should be answered with those, not "the most you can make it is 1000", which invites a
    # wager the structure forbids anyway. P2 faces the bring-in of 10: the completion is to 20.
    hand = new_hand(H3)
    play(hand, "p1 bring_in")
    before = state(hand)
    with pytest.raises(IllegalAction) as refused:
        hand.bet_or_raise_to(1, 5000)
    assert "fixed limit" in refused.value.reason and "20" in refused.value.reason
    assert "most you can make it" not in refused.value.reason
    assert state(hand) == before


# issue 14: five players, no fives; door cards K♥ 2♣ 4♥ 6♥ 9♥, so P2 brings in.
H_ISSUE14 = ["Ac Ad Kh 7s 8c 9d Tc", "Kc Kd 2c Qh 8s 9c Td", "Qc Qs 4h Jh 9s Th Jd",
             "Jc Js 6h 7h 4s 3s 2d", "Ts 3h 9h 8h 6s 6c 3d"]


def test_no_raise_when_every_opponent_can_at_most_call() -> None:
    # The issue's repro: after P2's all-in to 52 and P4's all-in call, P1 (the only other player with
    # chips) has 40 in and 4 behind, so cannot even reach 52: P5 may call or fold, never raise to 69.
    hand = new_hand(H_ISSUE14, [49, 57, 60, 57, 74])
    play(hand, "p2 bring_in, p3 call, p4 call, p5 complete 20, p1 raise 40, p2 raise 52, p3 fold, p4 call")
    assert (hand.stack(1), hand.stack(3)) == (0, 0)      # both all-in to 52
    legal = hand.legal_actions()
    assert hand.actor == 4 and legal.names == ("fold", "call") and legal.call == 52 - 20
    with pytest.raises(IllegalAction, match="call or fold"):
        hand.bet_or_raise_to(4, 69)
    with pytest.raises(IllegalAction):
        hand.act(4, "all_in")
    play(hand, "p5 call, p1 call")
    assert hand.stack(0) == 0 and hand.stack(4) == 69 - 52


def test_no_completion_when_every_opponent_can_at_most_call_the_bring_in() -> None:
    # Everyone but the bring-in has at most the bring-in behind after the ante: completing would only
    # come back uncalled, so the bring-in is the one thing to do.
    hand = new_hand(H3, [100, 15, 12])
    assert hand.actor == 0 and hand.legal_actions().names == ("bring_in",)


def _can_exceed_reference(hand: StudHand, seat: int, level: int) -> bool:
    return any(s != seat and not hand.folded(s) and hand.stack(s) > 0
               and hand.street_contribution(s) + hand.stack(s) > level for s in range(hand.seat_count))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 8), stakes=stakes_strategy(), data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_a_raise_is_offered_only_when_some_opponent_can_put_in_more(
    n: int, stakes: TableStakes, data: st.DataObject, seed: int
) -> None:
    # Short stacks so that all-ins (and opponents who can only call) are common.
    stacks = data.draw(st.lists(st.integers(1, 120), min_size=n, max_size=n))
    rng = random.Random(seed)
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    hand = StudHand(stacks, stakes, Rulings(), deck)
    while not hand.is_over:
        seat = hand.actor
        assert seat is not None
        legal = hand.legal_actions()
        if legal.wager is not None and (legal.min_to is not None or legal.all_in_kind == legal.wager):
            # The level to beat: the highest street total (the bring-in, before it is posted).
            current = max(hand.street_contribution(s) for s in range(n))
            if legal.bring_in is not None:
                current = max(current, stakes.bring_in)
            assert _can_exceed_reference(hand, seat, current), (legal, current)
        who, name, amount = random_command(hand, rng)
        try:
            hand.act(who, name, amount)
        except IllegalAction:
            pass


@pytest.mark.parametrize("stakes", [NL, PL], ids=["no-limit", "pot-limit"])
def test_pot_and_no_limit_first_wager_after_the_bring_in_is_a_bet(stakes: TableStakes) -> None:
    # issue 14: "complete" belongs to fixed limit; in pot and no limit the first wager is a bet,
    # in the prompt ("bet 20-..."), in the log and in the story ("Bea bets 100").
    from bot.render.narrate import action_text
    from bot.render.views import action_options

    hand = new_hand(H3, stakes=stakes)
    play(hand, "p1 bring_in")
    options = [o for o in action_options(hand.legal_actions()) if o.action in ("complete", "bet", "raise")]
    assert [o.action for o in options] == ["bet"] and options[0].label.startswith("bet 20-")
    with pytest.raises(IllegalAction, match="the smallest bet is to 20"):
        hand.act(1, "bet", 15)
    hand.act(1, options[0].action, 40)                        # the option's own name is accepted
    assert hand.log[-1].action == "bet" and action_text(hand.log[-1], "Bea") == "Bea bets 40"
    hand.act(2, "raise", hand.legal_actions().min_to)
    assert hand.log[-1].action == "raise"


def test_fixed_limit_still_completes() -> None:
    from bot.render.narrate import action_text
    from bot.render.views import action_options

    hand = new_hand(H3)
    play(hand, "p1 bring_in")
    labels = [o.label for o in action_options(hand.legal_actions()) if o.action == "complete"]
    assert labels == ["complete to 20"]
    play(hand, "p2 complete")
    assert action_text(hand.log[-1], "Bea") == "Bea completes to 20"
