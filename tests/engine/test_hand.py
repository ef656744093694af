"""Whole hands (SPEC §2, §5, §6, §7): the deal, shortages and burns, who acts, closed betting,
folds, showdown rulings, show order, manual showdown, and peers.md §3 scenarios."""

from __future__ import annotations

import pytest

from bot.engine.betting.stakes import TableStakes
from bot.engine.cards.card import Card
from bot.engine.cards.deck import Deck
from bot.engine.errors import IllegalAction
from bot.engine.games.rulings import Rulings
from bot.engine.hand.events import BettingClosed, BurnsScrambled, FirstToAct, PotAwarded
from bot.engine.hand.hand import StudHand
from bot.engine.log import Deal
from tests.engine.helpers import FL, NL, new_hand, passive, play, ranks, state, stud_deck

SHEET = ["Ah 3c Qc 9s 5s Ts 4d", "Kh 7c 5h Kd Jh 4c 9d", "8d Js 2d 8c 7h 8h 3d"]
SHEET_SCRIPT = (
    "p1 bring_in, p2 call, p3 call,"                                   # third street
    "p2 bet 20, p3 call, p1 call,"                                     # fourth
    "p2 bet 40, p3 call, p1 call,"                                     # fifth
    "p2 check, p3 bet 40, p1 call, p2 raise 80, p3 call, p1 call,"     # sixth
    "p2 check, p3 bet 40, p1 call, p2 call"                            # seventh
)


def test_rules_sheet_hand_played_to_showdown() -> None:
    # Worked by hand (as in the example history 01): each player puts in 5 + 10 + 20 + 40 + 80 + 40 =
    # 195; pot 585. Showdown with 5, 2, J wild: p1 one pair (aces), p2 four kings, p3 five eights.
    hand = new_hand(SHEET)
    play(hand, SHEET_SCRIPT)
    r = hand.result
    assert r is not None and r.showdown
    assert hand.wild_ranks == ranks("5 2 J")
    assert r.winnings == (0, 0, 585)
    assert r.final_stacks == (805, 805, 1390)
    assert [(p.amount, p.eligible, p.winners) for p in r.pots] == [(585, (0, 1, 2), (2,))]
    assert {s: v.category.value for s, v in r.shown.items()} == {
        0: "one_pair", 1: "four_of_a_kind", 2: "five_of_a_kind"}
    # p3 made the last bet on seventh street, so p3 shows first, then clockwise.
    assert r.show_order == (2, 0, 1)
    # First to act on fourth to seventh street was p2 (pair of kings, then three kings).
    assert [hand.first_actor(s) for s in (4, 5, 6, 7)] == [1, 1, 1, 1]


def test_third_street_is_dealt_in_three_passes() -> None:
    hand = new_hand(SHEET)
    deals = [(e.seat, e.face_up) for e in hand.log if isinstance(e, Deal)]
    # A down card to each, another down card to each, then the door cards (SPEC §2).
    assert deals == [(0, False), (1, False), (2, False)] * 2 + [(0, True), (1, True), (2, True)]
    assert [c.code for c in hand.down_cards(0)] == ["Ah", "3c"] and hand.up_cards(0) == (Card.parse("Qc"),)


@pytest.mark.parametrize(("showing", "bring_in"), [("wild-aware", 0), ("natural", 2)])
def test_bring_in_with_wild_door_cards(showing: str, bring_in: int) -> None:
    # Door cards Q♣, 5♥, 2♦; twos are wild once the 2♦ is dealt (right after the 5♥).
    # wild-aware: 5♥ and 2♦ rank above every natural card -> the queen brings in.
    # natural: printed ranks -> the 2♦ brings in.
    hand = new_hand(SHEET, rulings=Rulings(showing_hand=showing))
    assert hand.bring_in_seat == bring_in and hand.actor == bring_in


def test_all_wild_door_cards_bring_in_by_printed_rank_then_suit() -> None:
    # Door cards 5♣, 5♦: both wild; the lowest printed card (5♣ by suit) brings in.
    hand = new_hand(["Ah Kd 5d", "As Ks 5c"], last_street={0: 3, 1: 3})
    assert hand.bring_in_seat == 1


@pytest.mark.parametrize(("tiebreak", "first"), [("position", 0), ("suit", 1)])
def test_high_hand_tiebreak(tiebreak: str, first: int) -> None:
    # Fourth-street boards K♣ 9♦ and K♠ 9♥ tie. position: the first seat left of the dealer (p1);
    # suit: the highest card by suit, K♠ (p2).
    hand = new_hand(["2c 3c Kc 9d", "2d 3d Ks 9h"], rulings=Rulings(high_hand_tiebreak=tiebreak),
                    last_street={0: 4, 1: 4})
    play(hand, "p1 bring_in, p2 call")          # K♣ is lower than K♠: p1 brings in
    assert hand.street == 4 and hand.actor == first


def test_folded_players_get_no_more_cards_and_all_in_players_do() -> None:
    hand = new_hand(["Ac Ad 2c Kh 7s 8c 9d", "Kc Kd 3d", "Qc Qs 4h Jh 9s Tc Jd"], [20, 1000, 1000],
                    last_street={1: 3})
    play(hand, "p1 bring_in, p2 fold, p3 call")   # p1 all-in (5 ante + 10 of its last 15)
    assert hand.is_all_in(0) is False and hand.stack(0) == 5
    play(hand, "p1 all_in")                       # fourth street: p1 bets its last 5
    play(hand, "p3 call")
    assert hand.is_over and len(hand.cards(1)) == 3 and len(hand.cards(0)) == len(hand.cards(2)) == 7


EIGHT = [
    "Ac 2c Kc Kd 7h 4s", "Ad 3d 9s 9h 3c 2d", "Ah 4c 6c 7c 8s Tc", "As 4d 6d 8d Td Jc",
    "2h 3h 6h 8h Th Qc", "2s 3s 6s Jd Qd Js", "4h 7d 7s Jh Qh Kh", "Qs Ks Ts 8c 9c 5s",
]
"""Eight players. Sixth street: p1 shows a pair of kings (high), p8's last card is 5♠."""


def test_eight_player_shortage_deals_a_community_card_and_keeps_the_sixth_street_order() -> None:
    # 48 cards are out after sixth street; 4 left < 8 players -> one community card (9♦). It follows
    # p8's 5♠, so nines become wild: p2's board 9♠ 9♥ 3♣ 2♦ is now three threes, better than p1's pair
    # of kings -- yet p1 acts first on seventh street, as on sixth (TDA RP-10H).
    hand = new_hand(EIGHT, community="9d")
    passive(hand, 7)
    assert hand.street == 7 and hand.community_card == Card.parse("9d")
    assert hand.wild_ranks == ranks("5 9")
    assert hand.high_hand(6) == 0 and hand.first_actor(7) == 0 and hand.actor == 0
    assert hand.showing(1) > hand.showing(0)          # fresh ranking would have picked p2
    first = [e for e in hand.events if isinstance(e, FirstToAct) and e.street == 7]
    assert first and first[0].same_as_sixth
    passive(hand)
    assert hand.result is not None
    # Every live player has six own cards plus the shared one; nobody got a seventh-street down card.
    assert all(len(hand.cards(s)) == 6 for s in range(8))
    assert all(len(v.cards) == 7 and Card.parse("9d") in v.cards for v in hand.result.shown.values())


def test_eight_players_with_burns_scramble_the_burns_back_for_the_community_card() -> None:
    # Burns before fourth, fifth and sixth street: 48 + 3 = 51 cards gone, 1 left (5♥). Seventh street
    # needs 8 cards + 1 burn: the 3 burns go back under the stub (5♥ 5♣ 5♦ 9♦), the 5♥ is burned and
    # the next card, the fourth-street burn 5♣, is the community card.
    hand = new_hand(EIGHT, rulings=Rulings(burn_cards="on"), burns={4: "5c", 5: "5d", 6: "9d"})
    passive(hand)
    assert hand.result is not None
    assert any(isinstance(e, BurnsScrambled) for e in hand.events)
    assert hand.community_card == Card.parse("5c")     # the first burn, back from under the stub
    assert hand.burned_cards == (Card.parse("5h"),)    # the last stub card was burned on seventh


def test_seven_players_with_burns_scramble_and_deal_normally() -> None:
    # 42 cards + 3 burns = 45; 7 left < 7 players + 1 burn -> scramble to 10, burn, deal 7 down cards.
    hand = StudHand([1000] * 7, FL, Rulings(burn_cards="on"), Deck.seeded(11))
    passive(hand)
    assert hand.result is not None and hand.community_card is None
    assert any(isinstance(e, BurnsScrambled) for e in hand.events)
    assert all(len(hand.cards(s)) == 7 for s in range(7))


def test_burns_come_before_fourth_to_seventh_street() -> None:
    hand = StudHand([1000] * 3, FL, Rulings(burn_cards="on"), Deck.seeded(5))
    passive(hand)
    burns = [e.street for e in hand.log if isinstance(e, Deal) and e.kind == "burn"]
    assert burns == [4, 5, 6, 7]
    assert not any(isinstance(e, Deal) and e.kind == "burn" for e in StudHand(
        [1000] * 3, FL, Rulings(), Deck.seeded(5)).log)


def test_all_in_heads_up_runs_the_board_out_without_betting() -> None:
    # peers.md §3 #10 and #12: both players all-in on third street; fourth to seventh street are
    # dealt without betting (hands face up) and both hands are shown.
    hand = new_hand(SHEET[:2], [100, 100], stakes=NL)
    play(hand, "p1 bring_in, p2 all_in, p1 call")
    r = hand.result
    assert r is not None and r.showdown and hand.betting_closed
    assert any(isinstance(e, BettingClosed) for e in hand.events)
    assert set(r.shown) == {0, 1} and sum(r.final_stacks) == 200
    assert all(len(hand.cards(s)) == 7 for s in (0, 1))
    # SPEC §6 (TDA 16): once betting is closed the hands are turned face up, THEN the remaining
    # streets are dealt -- the narration must say so before the first card of fourth street.
    kinds = [e.kind for e in hand.events]
    closed = kinds.index("betting_closed")
    assert kinds[closed - 1] == "action" and kinds[closed + 1] == "street_started"
    assert [e for e in hand.events if isinstance(e, BettingClosed)] == [BettingClosed(4)]


def test_everyone_folds_to_the_bring_in() -> None:
    # The hand ends at once: no more cards; the uncalled 10 goes back; the bring-in collects the
    # antes (15), which counts as winnings; nothing is shown.
    hand = new_hand(["Ac Ad 2c", "Kc Kd 3d", "Qc Qs 4h"], last_street={0: 3, 1: 3, 2: 3})
    play(hand, "p1 bring_in, p2 fold, p3 fold")
    r = hand.result
    assert r is not None and not r.showdown and r.shown == {} and r.show_order == ()
    assert r.returned == (10, 0, 0) and r.winnings == (15, 0, 0)
    assert r.final_stacks == (1010, 995, 995)
    assert all(len(hand.cards(s)) == 3 for s in range(3))
    assert not any(isinstance(e, Deal) and e.street > 3 for e in hand.log)


def test_all_in_then_fold_pays_the_all_in_player() -> None:
    # peers.md §3 #1: A (200) shoves on fourth street and B folds: A's stack is 200 + the pot.
    hand = new_hand(["Ac Ad 2c Kh", "Kc Kd 3d Qh"], [200, 1000], stakes=NL, last_street={0: 4, 1: 4})
    play(hand, "p1 bring_in, p2 call, p1 all_in, p2 fold")
    r = hand.result
    assert r is not None
    # Antes 10 + bring-in and call 20 = pot 30; A's 185 shove is uncalled and comes back.
    assert r.returned == (185, 0) and r.winnings == (30, 0)
    assert r.final_stacks == (215, 985) and sum(r.final_stacks) == 1200


def test_all_in_player_wins_the_main_pot_and_the_side_pot_goes_to_the_best_of_the_rest() -> None:
    # peers.md §3 #3: p1 is all-in on third street for 15 (ante + bring-in) with four aces; p2 and p3
    # bet every street. Main pot 3 x 15 = 45 -> p1. Side pot: p2 and p3 each put 165 (5 + 20 + 20 + 40
    # + 40 + 40), 150 above p1's 15 -> 300 -> p3 (queens and jacks beat p2's kings... two pair).
    hands = ["Ac Ad 2c Ah 7s 8c As", "Kc Kd 3d Qh 8s 9c Td", "Qc Qs 4h Jh 9s Tc Jd"]
    hand = new_hand(hands, [15, 1000, 1000])
    play(hand, "p1 bring_in, p2 complete, p3 call")
    for street, bet in ((4, 20), (5, 40), (6, 40), (7, 40)):
        assert hand.street == street and hand.actor == 1      # p1's board is high but p1 is all-in
        play(hand, f"p2 bet {bet}, p3 call")
    r = hand.result
    assert r is not None
    assert [(p.amount, p.eligible, p.winners) for p in r.pots] == [(45, (0, 1, 2), (0,)), (300, (1, 2), (2,))]
    # SPEC §6: each pot is awarded separately, side pots first.
    assert [e.pot_index for e in hand.events if isinstance(e, PotAwarded)] == [1, 0]
    assert r.final_stacks == (45, 835, 1135) and sum(r.final_stacks) == 2015


def test_opener_who_folds_is_out_of_everything_after() -> None:
    # peers.md §3 #14: p1 acts first on fourth street and folds: no more cards, no action, not shown,
    # not eligible for any pot.
    hands = ["Ac Ad 2c Kh", "Kc Kd 3d Qh 8s 9c Td", "Qc Qs 4h Jh 9s Tc Jd"]
    hand = new_hand(hands, last_street={0: 4})
    play(hand, "p1 bring_in, p2 call, p3 call, p1 fold")
    passive(hand)
    r = hand.result
    assert r is not None and 0 not in r.shown and 0 not in r.show_order
    assert all(0 not in p.eligible for p in r.pots) and len(hand.cards(0)) == 4


def _two(hands: list[str], rulings: Rulings, script: str) -> StudHand:
    hand = new_hand(hands, rulings=rulings)
    play(hand, script)
    passive(hand)
    assert hand.result is not None
    return hand


NATURAL_VS_WILD = ["Ac Ad Ah Kc 9d 7s 3c", "5h 5c As Kd 9c 7h 2d"]
"""p1: natural three aces, K 9. p2: A♠ + two (face-down) wild fives = three aces, K 9."""


@pytest.mark.parametrize(("rule", "winnings"), [("off", (15, 15)), ("on", (30, 0))])
def test_natural_wins_ties(rule: str, winnings: tuple[int, int]) -> None:
    # Equal values: off -> split the 30 pot; on -> the hand using fewer wild cards (p1, none) wins.
    hand = _two(NATURAL_VS_WILD, Rulings(natural_wins_ties=rule), "p1 bring_in, p2 call")
    assert hand.result is not None and hand.result.winnings == winnings


FLUSHES = ["5c 8d As 9s 7s 2s Jd", "Ah Kh 9h 7h 3h Qc 4d"]
"""p1: A♠ 9♠ 7♠ 2♠ + a wild (5♣ face down); p2: natural A♥ K♥ 9♥ 7♥ 3♥."""


@pytest.mark.parametrize(("rule", "winner"), [("any-card", 0), ("highest-missing", 1)])
def test_wild_in_flush(rule: str, winner: int) -> None:
    # any-card: p1's wild plays as an ace -> A-A-9-7-2 beats A-K-9-7-3.
    # highest-missing: p1's wild is the K♠ -> A-K-9-7-2 loses to A-K-9-7-3.
    hand = _two(FLUSHES, Rulings(wild_in_flush=rule), "p2 bring_in, p1 call")
    assert hand.result is not None and hand.result.pots[0].winners == (winner,)


TIED = ["Ah Kh Qc Jc 9d 3s 2d", "As Kd Qs Js 9c 3h 2h", "2c 4c Kc"]
"""p1 and p2 both hold A K Q J 9 (no straight, no flush); p3 folds on third street."""


@pytest.mark.parametrize(("rule", "odd_to"), [("high-card-by-suit", 1), ("left-of-dealer", 0)])
def test_odd_chip(rule: str, odd_to: int) -> None:
    # Pot: antes 15 + bring-in 10 + call 10 = 35, split 17 + 17 and one odd chip.
    # high-card-by-suit: p2 holds A♠, above p1's A♥ -> p2. left-of-dealer: the first winner clockwise, p1.
    hand = new_hand(TIED, rulings=Rulings(odd_chip=rule), last_street={2: 3})
    play(hand, "p1 bring_in, p2 call, p3 fold")        # door Q♣ < Q♠ < K♣: p1 brings in
    passive(hand)
    r = hand.result
    assert r is not None and r.pots[0].winners == (0, 1)
    expected = [17, 17, 0]
    expected[odd_to] += 1
    assert list(r.winnings) == expected


def test_manual_showdown_a_tied_hand_may_not_muck() -> None:
    # SPEC §6: winners are always shown; a tie wins half, so the second of two equal hands (TIED: both
    # A K Q J 9) is not beaten and must show.
    hand = new_hand(TIED, last_street={2: 3}, manual_showdown=True)
    play(hand, "p1 bring_in, p2 call, p3 fold")
    passive(hand)
    assert hand.phase == "showdown"
    hand.show(hand.actor or 0)
    assert hand.legal_actions().names == ("show",)
    with pytest.raises(IllegalAction, match="may muck only"):
        hand.muck(hand.actor or 0)


def test_suit_tiebreak_never_picks_a_folded_board() -> None:
    # P3 shows a pair of aces on fourth street and folds; on fifth street P2's 3♦ K♥ 9♣ (king-high) is
    # the best LIVE board (P1 shows 2♣ 7♦ 8♠), so P2 acts first -- a folded hand is out of everything
    # (peers.md §3 #14), also under high_hand_tiebreak = suit.
    hands = ["Tc Td 2c 7d 8s", "Js Jd 3d Kh 9c", "Qs Qd Ac Ah"]
    hand = new_hand(hands, rulings=Rulings(high_hand_tiebreak="suit"), last_street={0: 5, 1: 5, 2: 4})
    play(hand, "p1 bring_in, p2 call, p3 call, p3 fold, p1 check, p2 check")
    assert hand.street == 5 and hand.high_hand(5) == 1 and hand.actor == 1


def test_show_order_starts_with_the_first_to_act_when_nobody_bets_seventh() -> None:
    # Sixth street in the sheet hand: p2's board (three kings) is high; all check seventh -> p2 first.
    hand = new_hand(SHEET)
    passive(hand)
    assert hand.result is not None and hand.result.show_order == (1, 2, 0)


def test_manual_showdown_show_and_muck() -> None:
    hand = new_hand(SHEET, manual_showdown=True)
    passive(hand)
    assert hand.phase == "showdown" and hand.show_order == (1, 2, 0) and hand.actor == 1
    # p2 shows first: nothing is shown yet, so p2 may not muck.
    assert hand.legal_actions().names == ("show",)
    before = state(hand)
    with pytest.raises(IllegalAction, match="may muck only"):
        hand.muck(1)
    assert state(hand) == before
    hand.show(1)
    # p3 (five eights) beats p2's four kings: p3 may not muck either; the timer shows it.
    assert not hand.legal_actions().muck
    hand.timeout(2)
    # p1 (a pair) is beaten: may muck; the timer mucks it.
    assert hand.legal_actions().names == ("show", "muck")
    hand.timeout(0)
    r = hand.result
    assert r is not None and r.mucked == (0,) and set(r.shown) == {1, 2} and r.winnings == (0, 0, 45)


def test_manual_showdown_all_in_hand_is_always_shown() -> None:
    hand = new_hand(SHEET[:2], [1000, 100], stakes=NL, manual_showdown=True)
    play(hand, "p1 bring_in, p2 all_in, p1 call")
    assert hand.phase == "showdown"
    while not hand.is_over:
        assert not hand.legal_actions().muck           # hands are face up; p2 is all-in
        hand.show(hand.actor or 0)


def test_commands_after_the_hand_are_refused() -> None:
    hand = new_hand(["Ac Ad 2c", "Kc Kd 3d"], last_street={0: 3, 1: 3})
    play(hand, "p1 bring_in, p2 fold")
    before = state(hand)
    with pytest.raises(IllegalAction, match="over"):
        hand.check(0)
    assert state(hand) == before and hand.legal_actions().names == ()


def test_five_dealt_last_on_fourth_street_sets_the_rank_of_the_first_fifth_street_card() -> None:
    # peers.md §3 #34: p3's fourth-street 5♦ is the last card of the street; p1's first fifth-street
    # card (J♣) makes jacks wild.
    hands = ["Ac Ad 2c Kh Jc", "Kc Kd 3d Qh 8s", "Qc Qs 4h 5d 9s"]
    hand = new_hand(hands, last_street={0: 5, 1: 5, 2: 5})
    passive(hand, 5)
    assert hand.wild_ranks == ranks("5 J") and hand.wild_events[0].follow_seat == 0


def test_card_source_protocol_receives_seat_and_face() -> None:
    calls: list[tuple[int | None, bool]] = []

    class Recording:
        def __init__(self) -> None:
            self.deck = Deck.seeded(2)

        def draw(self, seat: int | None, face_up: bool) -> Card:
            calls.append((seat, face_up))
            return self.deck.deal()

        def remaining(self) -> int:
            return len(self.deck)

        def scramble(self, cards: object) -> None:  # pragma: no cover - no shortage here
            raise AssertionError

    hand = StudHand([500, 500], FL, Rulings(burn_cards="on"), Recording())
    passive(hand)
    assert calls[:6] == [(0, False), (1, False), (0, False), (1, False), (0, True), (1, True)]
    assert (None, False) in calls          # burns have no seat and are face down


def test_bad_setup_is_refused() -> None:
    with pytest.raises(ValueError, match="2 to 8"):
        StudHand([100], FL, source=Deck.seeded(1))
    with pytest.raises(ValueError, match="2 to 8"):
        StudHand([100] * 9, FL, source=Deck.seeded(1))
    with pytest.raises(ValueError, match="at least 1 chip"):
        StudHand([100, 0], FL, source=Deck.seeded(1))


# Eight seats, burns on, p8 folds on third street: 7 live players need 7 cards + 1 burn but the stub
# holds 4 (plus 3 burns) -> one community card, the A♠. p1 (K♣ Q♣ J♥ T♠ ...) and p2 (K♥ Q♥ J♦ T♦ ...)
# both make the ace-high straight with it; the others hold trips at best (no five is live).
ODD_EIGHT = [
    "Kc Qc Jh Ts 4d 6d", "Kh Qh Jd Td 2d 3c", "9c 9d 9h 2c 3d 4c", "8c 8d 8h 2h 3h 4h",
    "7c 7d 7h 6c 4s 2s", "Ac Ad Kd Qd Tc 6h", "Ah Jc Th 7s 6s 3s", "5c 5d Ks",
]


@pytest.mark.parametrize(("rule", "odd_to"), [("high-card-by-suit", 1), ("left-of-dealer", 0)])
def test_odd_chip_ignores_the_community_card(rule: str, odd_to: int) -> None:
    # Pot: 7 live x (ante 2 + bring-in 5) + p8's ante 2 = 51 -> 25 each and one odd chip.
    # By suit, among their OWN cards: p2's K♥ beats p1's K♣ (the shared A♠ would tie them).
    stakes = TableStakes.fixed_limit(ante=2, bring_in=5, small_bet=10, big_bet=20)
    hand = new_hand(ODD_EIGHT, stakes=stakes, rulings=Rulings(burn_cards="on", odd_chip=rule),
                    last_street={7: 3}, burns={4: "Qs", 5: "Js", 6: "9s"}, extra="5h As 5s 8s")
    # Door cards J♥ J♦ 9♥ 8♥ 7♥ K♦ T♥ K♠: p5's 7♥ brings in.
    play(hand, "p5 bring_in, p6 call, p7 call, p8 fold, p1 call, p2 call, p3 call, p4 call")
    passive(hand)
    r = hand.result
    assert r is not None and hand.community_card == Card.parse("As")
    assert r.pots[0].amount == 51 and r.pots[0].winners == (0, 1)
    assert r.shown[0].category.value == r.shown[1].category.value == "straight"
    expected = [25, 25, 0, 0, 0, 0, 0, 0]
    expected[odd_to] += 1
    assert list(r.winnings) == expected


def test_closed_betting_still_deals_seventh_street_down_for_the_follow_rule() -> None:
    # Both players are all-in on third street, so the hands are face up; p2's sixth-street 5♠ is the
    # last up card and seventh street is still dealt "down": under next-up-card nothing follows it, the
    # same as if nobody were all-in (the wild ranks never depend on who is all-in).
    hands = ["Ac Kc Qc Jd Td 9h 7c", "Ad Kd Qd Js Ts 5s 8h"]
    hand = new_hand(hands, [100, 100], stakes=NL)
    play(hand, "p1 bring_in, p2 all_in, p1 call")
    assert hand.is_over and hand.betting_closed
    assert hand.wild_ranks == ranks("5")
    seventh = [e for e in hand.log if isinstance(e, Deal) and e.street == 7]
    assert [d.face_up for d in seventh] == [False, False]


def test_verify_and_can_do_not_act() -> None:
    hand = new_hand(SHEET)
    before = state(hand)
    assert hand.can(0, "bring_in") and hand.can(0, "complete") and not hand.can(0, "fold")
    assert not hand.can(1, "call") and not hand.can(0, "raise", 40)
    hand.verify(0, "bring_in")
    with pytest.raises(IllegalAction, match="not your turn"):
        hand.verify(2, "call")
    with pytest.raises(IllegalAction, match="unknown action"):
        hand.verify(0, "dance")
    assert state(hand) == before


def test_events_narrate_the_hand_in_order() -> None:
    hand = new_hand(SHEET)
    play(hand, SHEET_SCRIPT)
    kinds = [e.kind for e in hand.events]
    # Antes, then third street dealt (9 cards), the follow armed by 5♥ and resolved by 2♦, the
    # bring-in, ... and at the end the showdown, the pot and the end of the hand.
    assert kinds[:9] == ["action"] * 3 + ["street_started"] + ["card_dealt"] * 5
    assert kinds.count("card_dealt") == 21 and kinds.count("wild_rank_added") == 2
    assert kinds.index("follow") < kinds.index("wild_rank_added") < kinds.index("bring_in_seat")
    assert kinds[-5:] == ["hand_shown", "hand_shown", "hand_shown", "pot_awarded", "hand_ended"]
    assert hand.events_since(len(kinds) - 1)[0].kind == "hand_ended"


def _call_down(hand: StudHand, folder: int | None = None) -> None:
    """Bring in, check or call to the end; ``folder`` folds at its first turn."""
    while not hand.is_over:
        seat = hand.actor
        assert seat is not None
        legal = hand.legal_actions()
        if seat == folder:
            hand.fold(seat)
        elif legal.bring_in is not None:
            hand.bring_in(seat)
        else:
            hand.check_or_call(seat)


# Seven players, six cards each (no fives but p7's sixth-street 5♠, the last up card of the hand).
SEVEN = [
    "2c 3c 4c 6c 7c 8c", "2d 3d 4d 6d 7d 8d", "2h 3h 4h 6h 7h 8h", "2s 3s 4s 6s 7s 8s",
    "9c Tc Jc Qc Kc Ac", "9d Td Jd Qd Kd Ad", "9h Th Jh Qh Kh 5s",
]


def test_indicator_card_chained_fives_stop_where_the_seventh_street_cards_begin() -> None:
    # 7 x 6 = 42 cards dealt, 10 left. follow_target = indicator-card: after p7's 5♠ no up card will
    # follow, so stub cards are turned in the centre (SPEC §3); under chain each turned five arms another
    # follow. The next three stub cards are 5♣ 5♦ 5♥: all three are turned, leaving exactly the 7 cards
    # the seven players need for seventh street, so no fourth indicator is turned and the last follow
    # lapses: nothing but fives is wild, and the seven players get those 7 cards, in deal order.
    seventh = "9s Ts Js Qs Ks As Ah"          # the only cards of the deck left after the three fives
    deck = stud_deck(SEVEN, extra="5c 5d 5h " + seventh)
    hand = StudHand([1000] * 7, FL, Rulings(follow_target="indicator-card"), deck)
    _call_down(hand)
    assert hand.result is not None and hand.community_card is None
    assert hand.indicator_cards == tuple(Card.parse(c) for c in ("5c", "5d", "5h"))
    assert hand.wild_ranks == ranks("5") and hand.follow_pending is None
    assert [hand.cards(s)[6] for s in range(7)] == [Card.parse(c) for c in seventh.split()]


def test_indicator_card_needs_a_stub_card_so_seven_live_players_get_a_community_card() -> None:
    # Eight seats, p8 folds on third street: 24 + 7 x 3 = 45 cards dealt, 7 left for 7 live players --
    # enough for seventh-street down cards, but not for them AND the indicator card that p7's sixth-street
    # 5♠ calls for (follow_target = indicator-card; the follow must not simply lapse). So the shortage
    # rule applies (SPEC §2): one community card, which is face up and so resolves the follow itself
    # (SPEC §3: the community card always counts as an up card): 9♠ -> nines wild, no indicator turned.
    deck = stud_deck([*SEVEN, "Ah Js Qs"], last_street={7: 3}, community="9s")
    hand = StudHand([1000] * 8, FL, Rulings(follow_target="indicator-card"), deck)
    _call_down(hand, folder=7)
    assert hand.result is not None and hand.folded(7)
    assert hand.community_card == Card.parse("9s") and hand.indicator_cards == ()
    assert hand.wild_ranks == ranks("5 9") and hand.wild_events[0].follow_seat is None
