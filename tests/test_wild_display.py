"""What a wild card is shown as (issue 14): a card not already in the hand or on the board where
the hand allows one; a card repeats only where it must (five of a kind, an A-A flush, or every card
of that rank already in play). Checked independently: the displayed cards are counted, not
compared with the evaluator's own choices. Also: "Best now" has one format from third street on."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.cards.card import FULL_DECK, Card, Rank, parse_cards
from bot.engine.values.evaluator import Category, HandValue, evaluate
from bot.render.narrate import hand_value_text
from bot.render.private import best_now


def check_shown(own: Collection[Card], subs: dict[Card, Card], board: Collection[Card],
                flush_suit: object | None) -> None:
    """Every card on display -- the board, the player's cards not used as wilds, and each wild's
    stand-in (a wild shown "as itself" counts once) -- appears once, unless its rank has all four
    suits on display (then a repeat is forced) or a flush fixes it."""
    shown = [*board, *(c for c in own if c not in subs), *subs.values()]
    suits_of = {r: {c.suit for c in shown if c.rank == r} for r in Rank}
    for card, count in Counter(shown).items():
        if count > 1:
            forced = len(suits_of[card.rank]) == 4 or card.suit == flush_suit
            assert forced, (own, subs, board, card)


def check_value(value: HandValue, board: Collection[Card]) -> None:
    subs = dict(value.wilds_shown(board))
    assert set(subs) == set(value.wilds_as)                     # the same wilds, standing for ...
    assert [subs.get(c, c).rank for c in value.best] == [value.wilds_as.get(c, c).rank for c in value.best]
    flush = value.category in (Category.FLUSH, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH)
    suit = next(iter({subs.get(c, c).suit for c in value.best})) if flush else None
    check_shown(value.cards, subs, board, suit)


deals = st.lists(st.sampled_from(FULL_DECK), min_size=5, max_size=17, unique=True)
wild_sets = st.sets(st.sampled_from(list(Rank)), max_size=4).map(lambda r: frozenset(r | {Rank.FIVE}))


@settings(max_examples=400, deadline=None)
@given(deal=deals, own=st.integers(5, 7), wild=wild_sets,
       ruling=st.sampled_from(["any-card", "highest-missing"]))
def test_a_wild_names_a_card_not_in_play_where_the_hand_allows(
    deal: list[Card], own: int, wild: frozenset[Rank], ruling: str
) -> None:
    cards, board = deal[:own], deal[own:]
    value = evaluate(cards, wild, wild_in_flush=ruling)
    check_value(value, board)
    check_value(value, ())


def test_the_issues_examples() -> None:
    # "5♥ as J♠" while J♠ is someone's up card: the wild takes another jack.
    value = evaluate(parse_cards("Jd 5h 9c 7s 2d"), {Rank.FIVE})
    assert value.wilds_shown(parse_cards("Js Kh"))[Card.parse("5h")].code == "Jh"
    assert "5♥ as J♥" in hand_value_text(value, parse_cards("Js Kh"))
    # `evaluate 5h 5d 5c 5s Ah`: five aces, so one ace must repeat -- but only one, all four suits shown.
    quints = evaluate(parse_cards("5h 5d 5c 5s Ah"), {Rank.FIVE})
    shown = [quints.wilds_as.get(c, c) for c in quints.best]
    assert {c.suit for c in shown} == {c.suit for c in parse_cards("As Ah Ad Ac")}
    assert max(Counter(shown).values()) == 2
    # A double-ace flush names the ace it copies: the one repeat a flush forces.
    flush = evaluate(parse_cards("Ah Kh 9h 7h 5c"), {Rank.FIVE})
    assert flush.category is Category.FLUSH and flush.wilds_as[Card.parse("5c")].code == "Ah"


def parse_best_now(text: str) -> tuple[list[str], dict[str, str]]:
    """``"One pair, eights, two kicker: 8♥ 8♠ 2♣ (wild: 6♥ as 8♠)"`` -> played cards, stand-ins."""
    match = re.fullmatch(r"(?P<name>[^:]+): (?P<cards>[^()]+?)(?: \(wild: (?P<wild>[^)]*)\))?", text)
    assert match, text
    subs = {}
    for part in (match["wild"] or "").split(", ") if match["wild"] else []:
        w, stands = part.split(" as ")
        subs[w] = w if stands == "itself" else stands
    return match["cards"].split(), subs


@settings(max_examples=300, deadline=None)
@given(deal=deals, own=st.integers(3, 7), wild=wild_sets)
def test_best_now_has_one_format_and_shows_no_card_twice_unless_forced(
    deal: list[Card], own: int, wild: frozenset[Rank]
) -> None:
    cards, board = deal[:own], deal[own:]
    text = best_now(cards, tuple(wild), "any-card", board)
    played, subs = parse_best_now(text)
    assert len(played) == min(own, 5)
    name = text.split(":")[0]
    assert name[0].isupper() and name.split(",")[0] in {
        "High card", "One pair", "Two pair", "Three of a kind", "Straight", "Flush", "Full house",
        "Four of a kind", "Straight flush", "Royal flush", "Five of a kind"}
    by_text = {str(c): c for c in FULL_DECK}
    wilds = {by_text[w]: by_text[s] for w, s in subs.items()}
    assert all(w in cards and w.rank in wild for w in wilds)
    flush = name.startswith(("Flush", "Straight flush", "Royal flush"))
    suit = by_text[played[0]].suit if flush else None
    check_shown(cards, wilds, board, suit)


def test_best_now_reads_the_same_before_and_after_five_cards() -> None:
    four = best_now(parse_cards("7c Kd Ks 5h"), (Rank.FIVE,), "any-card")
    five = best_now(parse_cards("7c Kd Ks 5h 2d"), (Rank.FIVE,), "any-card")
    assert four == "Three of a kind, kings, seven kicker: K♠ K♦ K♥ 7♣ (wild: 5♥ as K♥)"
    assert five == "Three of a kind, kings, seven-two kickers: K♠ K♦ K♥ 7♣ 2♦ (wild: 5♥ as K♥)"
