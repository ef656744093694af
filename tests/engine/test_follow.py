"""The follow rule (SPEC §3): every worked example, every ``follow_target`` and ``five_follows_five``
option, on synthetic deal logs (``derive_wilds``) and through whole hands."""

from __future__ import annotations

import itertools

import pytest

from bot.engine.cards.card import Card, Rank
from bot.engine.games.follow import derive_wilds
from bot.engine.games.rulings import Rulings
from bot.engine.log import Deal
from tests.engine.helpers import new_hand, passive, play, ranks


def log(*cards: str) -> list[Deal]:
    """A deal log from ``"seat:card:u"`` tokens (u = face up, d = down, b = burn, c = community)."""
    out = []
    for seq, token in enumerate(cards):
        seat, code, how = token.split(":")
        kind = {"u": "hole", "d": "hole", "b": "burn", "c": "community", "i": "indicator"}[how]
        out.append(Deal(seq, 3, None if seat == "-" else int(seat), Card.parse(code), how in "uci", kind))
    return out


# ---------------------------------------------------------------- pure derivation from a deal log
def test_fives_are_wild_from_the_start() -> None:
    assert derive_wilds([]).wild_ranks == (Rank.FIVE,)


def test_face_down_five_arms_nothing() -> None:
    # A five dealt face down is wild but is not "dealt face up", so the next card makes nothing wild.
    state = derive_wilds(log("0:5h:d", "1:Kd:u"))
    assert state.wild_ranks == ranks("5") and state.pending is None


def test_follow_card_of_a_wild_rank_adds_nothing() -> None:
    # Twos are already wild (first follow); a second five followed by a two adds no rank.
    state = derive_wilds(log("0:5h:u", "1:2d:u", "2:5c:u", "0:2s:u"))
    assert state.wild_ranks == ranks("5 2")
    assert [n.kind for n in state.notes] == ["armed", "added", "armed", "already-wild"]


def test_burns_never_resolve_a_follow() -> None:
    # stud-rules §14.4 example 2: the burn between streets is skipped; the next up card decides.
    state = derive_wilds(log("2:5c:u", "-:Kd:b", "0:8h:u"))
    assert state.wild_ranks == ranks("5 8")


@pytest.mark.parametrize(
    ("target", "expected", "how"),
    [
        ("next-up-card", "5 J", "follow"),      # the down card is skipped, J♣ (next up card) sets jacks
        ("indicator-card", "5 J", "follow"),    # same as next-up-card while an up card still follows
        ("next-card-void", "5", None),          # the literal next card is face down: the follow is void
        ("next-card-announced", "5 Q", "announced"),  # the down Q♠ sets queens, rank announced
    ],
)
def test_follow_target_decides_what_a_down_card_does(target: str, expected: str, how: str | None) -> None:
    state = derive_wilds(log("0:5h:u", "1:Qs:d", "2:Jc:u"), Rulings(follow_target=target))
    assert state.wild_ranks == ranks(expected)
    assert [e.how for e in state.events] == ([how] if how else [])


@pytest.mark.parametrize(("option", "expected"), [("chain", "5 J"), ("absorb", "5")])
def test_five_follows_five(option: str, expected: str) -> None:
    # SPEC §3 example 3: P1 5♦, P2 5♠, P3 J♣ -> chain: jacks wild; absorb: nothing new.
    state = derive_wilds(log("0:5d:u", "1:5s:u", "2:Jc:u"), Rulings(five_follows_five=option))
    assert state.wild_ranks == ranks(expected)


def test_community_five_lapses_when_nothing_follows() -> None:
    # SPEC §3 example 5, second sentence: a community five is wild for all; its follow lapses.
    state = derive_wilds(log("0:9c:u", "-:5c:c"), finished=True)
    assert state.wild_ranks == ranks("5")
    assert [n.kind for n in state.notes] == ["armed", "lapsed"]


def test_wild_event_records_the_five_and_the_follow_card() -> None:
    state = derive_wilds(log("0:Qc:u", "1:5h:u", "2:2d:u"))
    (event,) = state.events
    assert (event.five.code, event.five_seat, event.follow_card.code, event.follow_seat, event.rank) == (
        "5h", 1, "2d", 2, Rank.TWO)


# ---------------------------------------------------------------- SPEC §3 worked examples, whole hands
SHEET = ["Ah 3c Qc 9s 5s Ts 4d", "Kh 7c 5h Kd Jh 4c 9d", "8d Js 2d 8c 7h 8h 3d"]
"""The rules sheet's example: door cards A Q♣, B 5♥, C 2♦; fifth street A 5♠ then B J♥."""


def test_example_1_rules_sheet() -> None:
    hand = new_hand(SHEET)
    # B's 5♥ arms a follow, C's 2♦ (the very next card dealt) resolves it: twos wild.
    assert hand.wild_ranks == ranks("5 2")
    passive(hand, 5)
    # Fifth street: A's 5♠ then B's J♥: jacks join.
    assert hand.wild_ranks == ranks("5 2 J")
    passive(hand)
    assert hand.result is not None and hand.result.wild_ranks == ranks("5 2 J")
    assert [str(e) for e in hand.wild_events] == [
        "5♥ (p2, third street) → 2♦ (p3): twos are wild",
        "5♠ (p1, fifth street) → J♥ (p2): jacks are wild",
    ]


def test_example_2_last_door_card_five_carries_to_fourth_street() -> None:
    # Door cards 9♣, K♦, 5♥ (the five is the last up card of third street); the first fourth-street
    # up card goes to seat 1 (the first live seat): 8♥ -> eights wild.
    hand = new_hand(["2c 3c 9c 8h", "2d 3d Kd 7s", "2h 3h 5h 6s"], last_street={0: 4, 1: 4, 2: 4})
    assert hand.wild_ranks == ranks("5") and hand.follow_pending == Card.parse("5h")
    passive(hand, 4)
    assert hand.wild_ranks == ranks("5 8")
    assert hand.wild_events[0].follow_street == 4


def test_example_4_last_up_card_five_under_each_follow_target() -> None:
    # Sixth street: the last live player's card is 5♠; seventh street is dealt down, P1's first.
    hands = ["Ac Kc Qc Jc Tc 9c 7d", "Ad Kd Qd Jd Td 9d 6h", "Ah Kh Qh Jh Th 5s 4h"]
    results = {}
    for target in ("next-up-card", "next-card-void", "next-card-announced", "indicator-card"):
        hand = new_hand(hands, rulings=Rulings(follow_target=target))
        passive(hand)
        assert hand.result is not None
        results[target] = (hand.wild_ranks, tuple(e.how for e in hand.wild_events), hand.indicator_cards)
    # next-up-card: no up card follows -> no new wild (the follow lapses).
    assert results["next-up-card"] == (ranks("5"), (), ())
    # next-card-void: the next card (P1's 7♦) is face down -> void.
    assert results["next-card-void"] == (ranks("5"), (), ())
    # next-card-announced: P1's 7♦ sets sevens, and the rank is announced.
    assert results["next-card-announced"] == (ranks("5 7"), ("announced",), ())
    # indicator-card: no up card will follow, so the next stub card is turned in the centre before the
    # seventh-street down cards: that is 7♦ (the card P1 would otherwise have got) -> sevens wild.
    assert results["indicator-card"][0] == ranks("5 7") and results["indicator-card"][1] == ("indicator",)
    assert results["indicator-card"][2] == (Card.parse("7d"),)


def test_example_5_community_card_after_a_sixth_street_five() -> None:
    # Eight players, no folds: 48 cards dealt by sixth street leaves 4 < 8 -> one community card.
    # The last sixth-street up card is a five; the community 7♦ resolves the follow: sevens wild.
    hands = [
        "2c 2d 2h 3c 3d 3h", "4c 4d 4h 6c 6d 6h", "7c 7h 7s 8c 8d 8h", "9c 9d 9h Tc Td Th",
        "Jc Jd Jh Qc Qd Qh", "Kc Kd Kh Ac Ad Ah", "2s 3s 4s 6s 8s 9s", "Ts Js Qs Ks As 5s",
    ]
    hand = new_hand(hands, community="7d")
    passive(hand)
    assert hand.community_card == Card.parse("7d")
    assert hand.wild_ranks == ranks("5 7")
    assert hand.wild_events[0].follow_seat is None          # the community card belongs to no one
    # Every live player's seventh card is the community card (six own cards each).
    assert all(len(hand.cards(s)) == 6 for s in range(8))


def test_example_5_community_five_is_wild_for_all_and_its_follow_lapses() -> None:
    hands = [
        "2c 2d 2h 3c 3d 3h", "4c 4d 4h 6c 6d 6h", "7c 7h 7s 8c 8d 8h", "9c 9d 9h Tc Td Th",
        "Jc Jd Jh Qc Qd Qh", "Kc Kd Kh Ac Ad Ah", "2s 3s 4s 6s 8s 9s", "Ts Js Qs Ks As 7d",
    ]
    hand = new_hand(hands, community="5c")
    passive(hand)
    assert hand.wild_ranks == ranks("5")
    notes = [e.note.kind for e in hand.events if e.kind == "follow"]
    assert notes[-2:] == ["armed", "lapsed"]
    # The shared 5♣ is wild for everyone: seat 0's 2-2-2 + wild five = four twos.
    assert hand.result is not None
    assert hand.result.shown[0].category.value == "four_of_a_kind"


def test_example_6_follow_survives_the_fold_of_the_fives_holder() -> None:
    # The last third-street up card is P3's door 5♥ and P3 folds on third street; the first
    # fourth-street up card (P1's Q♦) still sets a wild rank. Door cards 9♣, T♦, 5♥ (wild): the nine
    # is the lowest natural door card, so P1 brings in.
    hand = new_hand(["2c 3c 9c Qd", "Kc Kd Td 4s", "Ac Ad 5h"], last_street={2: 3})
    assert hand.follow_pending == Card.parse("5h")
    play(hand, "p1 bring_in, p2 call, p3 fold")
    assert hand.folded(2) and len(hand.cards(2)) == 3     # folded players get no more cards
    assert hand.wild_ranks == ranks("5 Q")
    assert hand.wild_events[0].five_seat == 2 and hand.wild_events[0].follow_seat == 0


def test_follow_resolves_in_time_for_who_acts_first() -> None:
    # Door cards: P1 5♥ (armed), P2 K♦ resolves it -> kings wild at once. On fourth street P2 shows
    # K♦ (wild) + 9♠ = a pair of nines; P1 shows 5♥ + A♣ = a pair of aces -> P1 acts first. P3 shows
    # Q♣ J♦, queen high. Had kings not become wild until later, P2 would show only king-high.
    hand = new_hand(["2c 3c 5h Ac", "2d 3d Kd 9s", "2h 3h Qc Jd"], last_street={0: 4, 1: 4, 2: 4})
    assert hand.wild_ranks == ranks("5 K")
    passive(hand, 4)
    assert hand.high_hand(4) == 0
    assert hand.showing(1).describe() == "pair of nines"


def test_wild_rank_counts_for_cards_dealt_before_it_became_wild() -> None:
    # P1's 9♣ is dealt face down on third street. On fifth street P2 is dealt 5♣ and the next card,
    # P3's 9♦, makes nines wild -- P1's 9♣ is wild too. P1: A♣ A♦ + wild 9♣ = three aces (no straight
    # or flush is possible with A K 7 3 2 + one wild).
    hands = ["9c Ac Ad Kc 2s 7d 3h", "4c 4d Kd Qs 5c 9h 8s", "Jc Jd Th 6c 9d 3s 2d"]
    hand = new_hand(hands)
    passive(hand)
    assert hand.wild_ranks == ranks("5 9")
    assert hand.result is not None
    assert hand.result.shown[0].describe() == "Three of a kind, aces"


def test_wild_ranks_never_shrink_during_a_hand() -> None:
    hand = new_hand(SHEET)
    seen = [hand.wild_ranks]
    while not hand.is_over:
        legal = hand.legal_actions()
        assert hand.actor is not None
        if legal.bring_in is not None:
            hand.bring_in(hand.actor)
        else:
            hand.check_or_call(hand.actor)
        seen.append(hand.wild_ranks)
    for before, after in itertools.pairwise(seen):
        assert after[: len(before)] == before
