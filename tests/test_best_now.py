"""The "Best now" hint uses exactly the showdown's wild set (issue 17): in plain stud it named
fives wild, in Low Hole Wild it ignored the player's own wild rank.

Property (hypothesis): for every game, random decks and players, each live player's hint at the
showdown (the DM text, "My cards", the terminal: ``PrivateNotice.best``; and the DM picture's
"Best now") names the same hand as the showdown gives those cards.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.betting.stakes import TableStakes
from bot.engine.cards.card import parse_cards
from bot.engine.cards.deck import Deck
from bot.engine.games.catalogue import GAMES
from bot.engine.hand.events import HandShown
from bot.engine.hand.hand import StudHand
from bot.engine.simulate import RandomPlayer, random_rulings
from bot.render.pictures import best_of, wild_ranks_of
from bot.render.private import best_now
from bot.render.scenes import hand_picture
from bot.render.views import private

STAKES = TableStakes.fixed_limit(ante=1, bring_in=2, small_bet=5, big_bet=10)


def test_plain_stud_has_no_wild_fives() -> None:
    # Before the fix: "Three of a kind, kings ... (wild: 5♥ as K♥)" in seven-card stud.
    hint = best_now(parse_cards("Kd Ks 5h 7c 2d"), (), "any-card")
    assert hint.startswith("One pair, kings"), hint
    assert "wild" not in hint


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# The stud family's high games (the flop games' hint, with the board, is the table's part of issue 21).
@given(game=st.sampled_from(sorted(g for g in GAMES if not GAMES[g].has_low and GAMES[g].family == "stud")),
       seed=st.integers(0, 2**32 - 1),
       players=st.integers(2, 7))
def test_the_hint_names_the_showdown_hand(game: str, seed: int, players: int) -> None:
    # The high games: the hint names the high hand the showdown values (razz and hi-lo name lows).
    rng = random.Random(seed)
    rulings = random_rulings(rng, game)
    hand = StudHand([10_000] * players, STAKES, rulings, Deck(rng), manual_showdown=True, game=game)
    # Passive players (check or call; Baseball's extra cards mostly bought, so hands of 8 come up).
    player = RandomPlayer(rng, fold=0.0, raise_=0.0, bet=0.0, complete=0.0, all_in=0.0, muck=0.0)
    while not hand.is_over and hand.phase != "showdown":
        player.act(hand)
    if hand.is_over:
        return                      # everyone else folded a Baseball pay decision
    hints = {}
    for seat in hand.live_seats:
        notice = private(hand, seat, member=seat + 1, name=f"p{seat}", hand_id=1, hand_no=1, rulings=rulings)
        picture = hand_picture(notice, 1, hand.wild_events, rulings.wild_in_flush)
        pool = list(picture.cards) + ([picture.community] if picture.community is not None else [])
        hints[seat] = (notice.best, best_of(pool, wild_ranks_of(picture.wilds), picture.wild_in_flush)[0])
    while not hand.is_over:
        assert hand.actor is not None
        hand.show(hand.actor)
    shown = [e for e in hand.events if isinstance(e, HandShown)]
    assert {e.seat for e in shown} == set(hints)
    for event in shown:
        text, drawn = hints[event.seat]
        expected = event.value.describe(kickers=True)     # the category and its ranks
        assert text.split(":")[0] == expected, (game, event.cards, text, expected)
        assert drawn == expected, (game, event.cards, drawn, expected)


def test_low_hole_wild_uses_the_players_own_rank() -> None:
    rng = random.Random(3)
    hand = StudHand([10_000] * 3, STAKES, random_rulings(rng, "low-hole-wild"), Deck(rng),
                    manual_showdown=True, game="low-hole-wild")
    player = RandomPlayer(rng, fold=0.0, raise_=0.0, bet=0.0, complete=0.0, all_in=0.0, muck=0.0)
    while hand.phase != "showdown":
        player.act(hand)
    for seat in hand.live_seats:
        notice = private(hand, seat, member=1, name="p", hand_id=1, hand_no=1, rulings=hand.rulings)
        assert set(notice.wild_ranks) == hand.seat_wilds(seat) and len(notice.wild_ranks) == 1
