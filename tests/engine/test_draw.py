"""Draw games (issue 22): hands built and worked out by hand.

Five-card draw's draw (the count public, the discards secret), the four-card draw with an ace, a
deck that runs out during a draw, jacks or better with split openers and a hand nobody opens, and
Kings and Little Ones' wild cards of each player's own. The decks are stacked here (``draw_deck``),
independently of the engine's dealing: five passes from the first seat left of the button, then the
draws in turn.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.betting.stakes import TableStakes
from bot.engine.cards.card import FULL_DECK, Card, Rank, parse_cards
from bot.engine.command import Command, Kind
from bot.engine.errors import IllegalAction
from bot.engine.games.rulings import Rulings
from bot.engine.hand.events import (
    CardDealt,
    DiscardsReshuffled,
    DrawAceShown,
    HandShown,
    NobodyOpened,
    OpenersShown,
)
from bot.engine.hand.hand import StudHand
from bot.engine.log import Action, Deal
from bot.engine.phh.export import export_phh
from bot.engine.replay.replayer import replay_text
from bot.engine.simulate import play_hand, random_rulings, random_stakes

FL = TableStakes.fixed_limit(ante=5, bring_in=10, small_bet=20, big_bet=40)


def draw_deck(hands: Sequence[str], draws: str = "") -> list[Card]:
    """A deck that deals ``hands[i]`` (five cards each, in the order seat ``i`` gets them) one card
    a pass from seat 0, then the cards ``draws`` lists (the draws, in turn), then the rest."""
    per_seat = [parse_cards(h) for h in hands]
    order = [per_seat[s][p] for p in range(len(per_seat[0])) for s in range(len(per_seat))]
    order += parse_cards(draws)
    return order + [c for c in FULL_DECK if c not in order]


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def draw(hand: StudHand, seat: int, text: str = "") -> Action:
    assert hand.decision is not None and hand.decision.kind == "draw" and hand.actor == seat
    return hand.apply(seat, Command(Kind.DRAW, cards=cards(text)))


def new_hand(hands: Sequence[str], draws: str = "", *, game: str = "five-card-draw",
             rulings: Rulings | None = None, stacks: int = 500) -> StudHand:
    return StudHand([stacks] * len(hands), FL, rulings or Rulings(), draw_deck(hands, draws),
                    game=game, button=len(hands) - 1)


def public_text(hand: StudHand) -> str:
    """Everything the table is told: every event but the cards dealt face down (each player's own)."""
    return " ".join(repr(e) for e in hand.events if not (isinstance(e, CardDealt) and not e.deal.face_up))


def test_a_draw_deals_each_player_in_turn_and_keeps_the_discards_secret() -> None:
    hand = new_hand(["As Ks 7d 4c 2h", "Qh Qd 9c 5s 3d", "Jc Jd 8h 6s 2c"], "Ad Kd 3s Qs 4d 9h")
    assert hand.street == 20 and hand.phase == "betting" and hand.actor == 0
    hand.bet_or_raise_to(0, 20)
    hand.call(1)
    hand.call(2)
    assert hand.street == 24 and hand.phase == "decision"
    assert hand.decision is not None and hand.decision.choices == (Command(Kind.DRAW), Command(Kind.STAND))
    assert hand.decision.amount == 4                       # p1 holds an ace: four, showing it
    action = draw(hand, 0, "7d 4c 2h")
    assert (action.action, action.to, action.amount) == ("draw", 3, 0)
    assert hand.cards(0) == cards("As Ks Ad Kd 3s")       # dealt at once, before p2 draws
    assert hand.decision is not None and hand.decision.seat == 1 and hand.decision.amount == 3
    draw(hand, 1, "9c 5s 3d")
    assert hand.cards(1) == cards("Qh Qd Qs 4d 9h")
    hand.timeout(2)                                        # the timer stands pat
    assert hand.log[-1] == Action(24, 2, "draw", 0, 0, False, True)
    assert [hand.drawn(s) for s in range(3)] == [(3,), (3,), (0,)]
    assert hand.discards(0) == (cards("7d 4c 2h"),) and hand.discards(2) == ((),)
    assert hand.phase == "betting" and hand.actor == 0
    hand.check(0)
    hand.bet_or_raise_to(1, 40)                            # the big bet after the draw
    hand.fold(2)
    hand.call(0)
    assert hand.result is not None
    assert hand.result.final_stacks == (435, 590, 475)
    assert [e.seat for e in hand.events if isinstance(e, HandShown)] == [1, 0]   # the bettor first
    for card in cards("7d 4c 2h 9c 5s 3d"):
        assert card.code not in public_text(hand) and str(card) not in public_text(hand)


def test_stand_pat_and_refusals_change_nothing() -> None:
    hand = new_hand(["As Ks 7d 4c 2h", "Qh Qd 9c 5s 3d"], "Ad Kd 3s")
    hand.check(0)
    hand.check(1)
    before = (hand.cards(0), len(hand.log))
    for bad, reason in ((Command(Kind.DRAW, cards=cards("Qh")), "you do not hold Qh"),
                        (Command(Kind.CHECK), "choose the cards to throw away, or stand pat"),
                        (Command(Kind.DRAW, cards=cards("As 7d 4c 2h")), "keep an ace")):
        with pytest.raises(IllegalAction, match=reason):
            hand.apply(0, bad)
        assert (hand.cards(0), len(hand.log)) == before
    with pytest.raises(IllegalAction, match="seat 1's decision"):
        hand.apply(1, Command(Kind.STAND))
    assert hand.verify(0, Command(Kind.STAND)) == Command(Kind.DRAW)
    hand.apply(0, Command(Kind.STAND))
    assert hand.drawn(0) == (0,) and hand.cards(0) == before[0]


@pytest.mark.parametrize(("limit", "with_ace", "without_ace"),
                         [("three-or-four-with-ace", 4, 3), ("three", 3, 3), ("five", 5, 5)])
def test_the_draw_limit_ruling(limit: str, with_ace: int, without_ace: int) -> None:
    hand = new_hand(["As 9c 7d 4h 2s", "Qh Jd 9h 5s 3d"], rulings=Rulings(draw_limit=limit))
    hand.check(0)
    hand.check(1)
    assert hand.decision is not None and hand.decision.amount == with_ace
    draw(hand, 0)
    assert hand.decision is not None and hand.decision.amount == without_ace


def test_four_cards_with_an_ace_shows_the_ace() -> None:
    hand = new_hand(["As 9c 7d 4h 2s", "Qh Jd 9h 5s 3d"], "Ac Ad Ah Kc 8c 8d 8h")
    hand.check(0)
    hand.check(1)
    draw(hand, 0, "9c 7d 4h 2s")
    assert hand.cards(0) == cards("As Ac Ad Ah Kc")
    shown = [e for e in hand.events if isinstance(e, DrawAceShown)]
    assert shown == [DrawAceShown(0, Card.parse("As"))]
    with pytest.raises(IllegalAction, match="at most 3 cards, not 4"):
        draw(hand, 1, "Qh Jd 9h 5s")
    draw(hand, 1, "Qh Jd 9h")
    assert hand.cards(1) == cards("5s 3d 8c 8d 8h")
    assert not any(isinstance(e, DrawAceShown) and e.seat == 1 for e in hand.events)


def test_an_ace_discarded_does_not_allow_four() -> None:
    hand = new_hand(["As 9c 7d 4h 2s", "Qh Jd 9h 5s 3d"])
    hand.check(0)
    hand.check(1)
    with pytest.raises(IllegalAction, match="keep an ace"):
        draw(hand, 0, "As 9c 7d 4h")
    draw(hand, 0, "As 9c 7d")                  # three, ace among them: no ace to show
    assert not any(isinstance(e, DrawAceShown) for e in hand.events)


class ListSource:
    """A card source that deals a list in order and, asked to reshuffle, puts the cards under the
    stub in the order given: the test then knows which card comes next (the engine's own
    ``DeckSource`` shuffles them, keyed on the deck order)."""

    def __init__(self, order: Sequence[Card]) -> None:
        self.cards = list(order)
        self.next = 0
        self.reshuffled: list[tuple[Card, ...]] = []

    def draw(self, seat: int | None, face_up: bool) -> Card:
        card = self.cards[self.next]
        self.next += 1
        return card

    def remaining(self) -> int:
        return len(self.cards) - self.next

    def scramble(self, cards: Sequence[Card]) -> None:
        self.cards.extend(cards)

    def reshuffle(self, cards: Sequence[Card]) -> None:
        self.reshuffled.append(tuple(cards))
        self.cards.extend(cards)


EIGHT = ["2c 3c 4c 5c 6c", "7c 8c 9c Tc Jc", "Qc Kc Ac 2d 3d", "4d 5d 6d 7d 8d",
         "9d Td Jd Qd Kd", "Ad 2h 3h 4h 5h", "6h 7h 8h 9h Th", "Jh Qh Kh Ah 2s"]
STUB = "3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As"


def test_the_deck_runs_out_and_the_others_discards_are_reshuffled() -> None:
    # Eight players take 40 cards; the stub holds 12. Everyone draws five (ruling draw_limit five).
    source = ListSource(draw_deck(EIGHT)[:52])
    assert [c.code for c in source.cards[40:]] == STUB.split()
    hand = StudHand([500] * 8, FL, Rulings(draw_limit="five"), source, game="five-card-draw", button=7)
    for seat in range(8):
        hand.check(seat)
    draw(hand, 0, EIGHT[0])
    draw(hand, 1, EIGHT[1])
    assert hand.cards(0) == cards("3s 4s 5s 6s 7s") and hand.cards(1) == cards("8s 9s Ts Js Qs")
    # p3: the last two stub cards, then p1's and p2's discards (not p3's own) make a new stub.
    draw(hand, 2, EIGHT[2])
    assert source.reshuffled == [cards(EIGHT[0] + " " + EIGHT[1])]
    assert hand.cards(2) == cards("Ks As 2c 3c 4c")
    assert hand.reshuffled_at == (52,)                    # the 53rd card dealt
    draw(hand, 3, EIGHT[3])
    assert hand.cards(3) == cards("5c 6c 7c 8c 9c")
    # p5: the new stub's last two; then p3's and p4's discards (p5's own wait).
    draw(hand, 4, EIGHT[4])
    assert source.reshuffled[1] == cards(EIGHT[2] + " " + EIGHT[3])
    assert hand.cards(4) == cards("Tc Jc Qc Kc Ac")
    reshuffles = [e for e in hand.events if isinstance(e, DiscardsReshuffled)]
    assert reshuffles == [DiscardsReshuffled(2, 10), DiscardsReshuffled(4, 10)]
    # p6 draws from the second new stub; p5's own discards come back only at a later reshuffle.
    draw(hand, 5, "Ad 2h 3h")
    assert hand.cards(5) == cards("4h 5h 2d 3d 4d")
    for seat in (6, 7):
        draw(hand, seat)
    assert hand.phase == "betting"
    held = [c for s in range(8) for c in hand.cards(s)]
    assert len(held) == len(set(held)) == 40
    text = export_phh(hand)
    assert "# the discards were reshuffled into a new stub" in text
    report = replay_text(text)
    assert report.ok, report.error
    assert [report.hand.cards(s) for s in range(8)] == [hand.cards(s) for s in range(8)]


def test_jacks_or_better_with_split_openers() -> None:
    rulings = Rulings(openers="jacks-or-better")
    hand = new_hand(["9s 9h 5c 4d 2s", "Jh Js Th 8h 3h", "Kc 7c 6d 4s 3c"], "Qd 7h 6c 5h Ad 8s",
                    rulings=rulings)
    assert "bet" not in hand.legal_actions(0).names
    with pytest.raises(IllegalAction, match="jacks or better to open"):
        hand.bet_or_raise_to(0, 20)
    hand.check(0)
    hand.bet_or_raise_to(1, 20)                 # p2 opens with jacks
    assert hand.opener == 1
    hand.call(2)
    hand.bet_or_raise_to(0, 40)                 # once open, anyone may raise
    hand.call(1)
    hand.call(2)
    draw(hand, 0, "5c 4d 2s")                   # Qd 7h 6c
    draw(hand, 1, "Js")                         # splits the jacks to draw to the flush: 5h
    draw(hand, 2, "Kc 7c")                      # Ad 8s
    assert hand.cards(1) == cards("Jh Th 8h 3h 5h")
    for seat in range(3):
        hand.check(seat)
    assert hand.result is not None and hand.result.pots[0].winners == (1,)
    proof = [e for e in hand.events if isinstance(e, OpenersShown)]
    assert len(proof) == 1 and proof[0].seat == 1 and set(proof[0].cards) == set(cards("Jh Js"))
    report = replay_text(export_phh(hand))
    assert report.ok, report.error


def second_deal(hands: Sequence[str]) -> str:
    """The cards of a second deal, in pass order (seat 0 first), as ``draw_deck``'s ``draws``."""
    per_seat = [h.split() for h in hands]
    return " ".join(per_seat[s][p] for p in range(5) for s in range(len(per_seat)))


def test_nobody_opens_so_everyone_antes_again_and_the_cards_are_dealt_again() -> None:
    again = ["Ah Ad 7c 6c 2d", "Kh Qd Jc 9d 8c", "Ks 5d 4h 3s 2h"]
    hand = new_hand(["9s 9h 5c 4d 2s", "Th 8h 7s 3h 6h", "Kc Qc 6d 4s 3c"], second_deal(again),
                    rulings=Rulings(openers="jacks-or-better"))
    assert hand.pot_total == 15
    for seat in range(3):
        hand.check(seat)
    assert any(isinstance(e, NobodyOpened) for e in hand.events)
    assert hand.result is None and hand.street == 20 and hand.actor == 0
    assert hand.pot_total == 30                              # the antes stay, and everyone antes again
    assert [hand.cards(s) for s in range(3)] == [cards(h) for h in again]
    hand.bet_or_raise_to(0, 20)                              # aces open
    hand.fold(1)
    hand.fold(2)
    assert hand.result is not None and hand.result.final_stacks == (520, 490, 490)
    report = replay_text(export_phh(hand))
    assert report.ok, report.error
    assert report.hand is not None and report.hand.result is not None
    assert report.hand.result.final_stacks == (520, 490, 490)


def test_nobody_opens_without_an_ante_and_the_hand_just_ends() -> None:
    stakes = TableStakes.fixed_limit(ante=0, bring_in=10, small_bet=20, big_bet=40)
    hand = StudHand([500, 500], stakes, Rulings(openers="jacks-or-better"),
                    draw_deck(["9s 9h 5c 4d 2s", "Th 8h 7s 3h 6h"]), game="five-card-draw", button=1)
    hand.check(0)
    hand.check(1)
    assert hand.result is not None and hand.result.final_stacks == (500, 500)
    assert hand.result.winnings == (0, 0) and hand.result.pots == ()


def test_the_opener_shows_openers_when_everyone_folds() -> None:
    hand = new_hand(["9s 9h 5c 4d 2s", "Qh Qs Th 8h 3h"], rulings=Rulings(openers="jacks-or-better"))
    hand.check(0)
    hand.bet_or_raise_to(1, 20)
    hand.fold(0)
    proof = [e for e in hand.events if isinstance(e, OpenersShown)]
    assert len(proof) == 1 and set(proof[0].cards) == set(cards("Qh Qs"))


def test_anything_opens_by_default() -> None:
    hand = new_hand(["9s 8h 5c 4d 2s", "Qh 7s Th 6h 3h"])
    hand.bet_or_raise_to(0, 20)
    assert hand.opener == 0
    assert not any(isinstance(e, OpenersShown) for e in hand.events)


def test_kings_and_little_ones_wilds_are_each_players_own() -> None:
    hands = ["3s 3h Kd 9c Ad", "2c 3c 7h 8s Ks", "4h 4c Qd Jd Td"]
    hand = new_hand(hands, game="kings-and-little-ones")
    assert hand.seat_wilds(0) == {Rank.KING, Rank.THREE}
    assert hand.seat_wilds(1) == {Rank.KING, Rank.TWO}          # p2's three is not wild for p2
    assert hand.seat_wilds(2) == {Rank.KING, Rank.FOUR}
    assert hand.wild_ranks == (Rank.KING,)                      # wild for everyone
    for seat in range(3):
        hand.check(seat)
    for seat in range(3):
        draw(hand, seat)
    for seat in range(3):
        hand.check(seat)
    assert hand.result is not None
    shown = hand.result.shown
    # p1: 3s 3h Kd wild with Ad -> four aces, nine kicker; p2: 2c Ks wild, 8s -> three eights
    # (were p2's 3c wild too, four eights); p3: 4h 4c wild with Qd Jd Td -> a royal flush.
    assert shown[0].describe(kickers=True) == "Four of a kind, aces, nine kicker"
    assert shown[1].describe() == "Three of a kind, eights"
    assert shown[2].describe() == "Royal flush"
    assert hand.result.pots[0].winners == (2,)
    report = replay_text(export_phh(hand))
    assert report.ok, report.error


def test_kings_and_little_ones_ace_low_ruling() -> None:
    hand = new_hand(["3s 3h Kd 9c Ad", "2c 3c 7h 8s Ks"], game="kings-and-little-ones",
                    rulings=Rulings(low_hole_ace="low"))
    assert hand.seat_wilds(0) == {Rank.KING, Rank.ACE}
    assert hand.seat_wilds(1) == {Rank.KING, Rank.TWO}


def test_the_history_writes_discards_as_pokerkit_does() -> None:
    hand = new_hand(["As Ks 7d 4c 2h", "Qh Qd 9c 5s 3d"], "Ad Kd 3s Qs 4d 9h")
    hand.check(0)
    hand.check(1)
    draw(hand, 0, "7d 4c 2h")
    hand.timeout(1)
    text = export_phh(hand, header=False)
    assert 'variant = "_F5CD"' in text and "bring_in" not in text
    assert '"p1 sd 7d4c2h",\n    "p2 sd  # timed out",\n    "d dh p1 AdKd3s",' in text
    hidden = export_phh(hand, header=False, hide_unshown=True, viewer=1)
    assert "p1 sd ??????" in hidden and "7d" not in hidden and "Ad" not in hidden
    assert "d dh p2 QhQd9c5s3d" in hidden
    assert Deal in {type(e) for e in hand.log}


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 8),
       game=st.sampled_from(["five-card-draw", "kings-and-little-ones"]))
def test_random_draw_hands_keep_their_secrets_and_replay(seed: int, players: int, game: str) -> None:
    rng = random.Random(seed)
    hand = play_hand(rng, [rng.randint(20, 400) for _ in range(players)], random_stakes(rng),
                     random_rulings(rng, game), game=game)
    assert hand.result is not None and sum(hand.result.final_stacks) == sum(hand.starting_stacks)
    public = public_text(hand)
    shown = {c for e in hand.events if isinstance(e, HandShown) for c in e.cards}
    shown |= {c for e in hand.events if isinstance(e, (OpenersShown, DrawAceShown))
              for c in (e.cards if isinstance(e, OpenersShown) else (e.card,))}
    for seat in range(players):
        assert len(hand.drawn(seat)) <= 1
        for card in (c for cards_ in hand.discards(seat) for c in cards_):
            if card not in shown:
                assert repr(card) not in public
    held = [c for s in hand.live_seats for c in hand.cards(s)]
    assert len(held) == len(set(held))
    report = replay_text(export_phh(hand))
    assert report.ok, report.error
    assert report.hand is not None and report.hand.result is not None
    order = [(hand.button + 1 + k) % players for k in range(players)]   # p1 is left of the button
    assert report.hand.result.final_stacks == tuple(hand.result.final_stacks[s] for s in order)


def test_a_player_may_fold_instead_of_drawing() -> None:
    hand = new_hand(["As Ks 7d 4c 2h", "Qh Qd 9c 5s 3d", "Jc Jd 8h 6s 2c"], "Ad Kd 3s")
    for seat in range(3):
        hand.check(seat)
    assert hand.legal_actions(0).fold
    hand.fold(0)                                # p1 gives up instead of drawing
    assert hand.folded(0) and hand.drawn(0) == () and hand.cards(0) == cards("As Ks 7d 4c 2h")
    assert hand.decision is not None and hand.decision.seat == 1
    draw(hand, 1, "9c 5s 3d")
    assert hand.cards(1) == cards("Qh Qd Ad Kd 3s")        # the stub goes on where it was
    hand.fold(2)                                # the last one folds: p2 wins at once
    assert hand.result is not None and hand.result.pots[0].winners == (1,)
    report = replay_text(export_phh(hand))
    assert report.ok, report.error


def test_kings_and_little_ones_ace_either_way_is_the_better_for_the_player() -> None:
    # p1 3s 3h Kd 9c Ad: ace high, the threes are wild with the king -> four aces; ace low, Ad Kd
    # are wild with 3s 3h 9c -> four threes. Four aces are better: the ace stays high.
    # p2 Ac 4h 5h 6h Kh: ace high, 4h Kh are wild with 5h 6h Ac -> three aces (the club blocks the
    # flush, and 5 6 A cannot make a straight with two wild cards); ace low, Ac Kh are wild with
    # 4h 5h 6h -> a straight flush, 4-5-6-7-8 of hearts. The ace counts low for p2.
    hand = new_hand(["3s 3h Kd 9c Ad", "Ac 4h 5h 6h Kh"], game="kings-and-little-ones",
                    rulings=Rulings(low_hole_ace="either"))
    assert hand.seat_wilds(0) == {Rank.KING, Rank.THREE}
    assert hand.seat_wilds(1) == {Rank.KING, Rank.ACE}
