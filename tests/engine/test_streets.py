"""The one street loop reads the game's streets: a game defined here, six-card stud (third street two
down and one up, then two up cards, then one down card, with the stud shortage rule on the last
street), is dealt and bet exactly as its rows say. Expected values are worked out by hand below."""

from __future__ import annotations

from bot.engine.cards.card import FULL_DECK, parse_cards
from bot.engine.cards.deck import Deck
from bot.engine.games.catalogue import BETTING_RULINGS, Game, WildModel
from bot.engine.games.streets import Street
from bot.engine.hand.hand import StudHand
from bot.engine.log import Deal
from tests.engine.helpers import FL, play

SIX_CARD_STUD = Game(
    "six-card-stud-test", "Six-card stud (test)", "a test game", WildModel("fixed"), BETTING_RULINGS,
    streets=(
        Street(3, (False, False, True), False, False, "low-card"),
        Street(4, (True,), True, False, "high-hand"),
        Street(5, (True,), True, True, "high-hand"),
        Street(6, (False,), True, True, "high-hand", shortage=True),
    ),
)


def _deck() -> Deck:
    # Deal order: third street p1 down, p2 down, p1 down, p2 down, p1 up, p2 up; then one up card
    # each on fourth and fifth street, one down card each on sixth.
    order = parse_cards("As Kd Ah Kc 2c 3d 7h 8d 9s Td Qh 4c")
    return Deck.from_order(order + [c for c in FULL_DECK if c not in order])


def test_a_six_card_game_deals_and_bets_its_own_streets() -> None:
    hand = StudHand([1000, 1000], FL, source=_deck(), game=SIX_CARD_STUD)
    # The 2c is the lowest door card: p1 brings in (the 3d is p2's door card).
    assert hand.actor == 0 and hand.bring_in_seat == 0
    play(hand, "p1 bring_in, p2 call")
    # Fourth street: p1 shows 2c 7h, p2 3d 8d: eight-high beats seven-high, so p2 acts first; no
    # open pair, so the small bet.
    assert hand.street == 4 and hand.actor == 1 and hand.legal_actions().to_options == (20,)
    play(hand, "p2 check, p1 check")
    # Fifth street (big_bet): p1 2c 7h 9s, p2 3d 8d Td: ten-high first; bets are 40.
    assert hand.street == 5 and hand.actor == 1 and hand.legal_actions().to_options == (40,)
    play(hand, "p2 check, p1 check")
    # Sixth street is the last: one down card each, then the showdown.
    assert hand.street == 6
    play(hand, "p2 check, p1 check")
    assert hand.is_over and hand.result is not None
    # p1: As Ah 2c 7h 9s Qh -- a pair of aces; p2: Kd Kc 3d 8d Td 4c -- a pair of kings.
    assert [c.code for c in hand.cards(0)] == ["As", "Ah", "2c", "7h", "9s", "Qh"]
    assert [c.code for c in hand.down_cards(1)] == ["Kd", "Kc", "4c"]
    assert not any(isinstance(e, Deal) and e.street == 7 for e in hand.log)
    # The pot: two antes of 5 and two bets of 10 = 30, all to p1.
    assert hand.result.winnings == (30, 0) and hand.result.final_stacks == (1015, 985)
