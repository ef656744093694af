"""Properties of the flop games on random hands (issue 21): every chip is accounted for at every
step, someone can always act until the hand is over, the board has the size its street says, no
card is dealt twice, and Crazy Pineapple leaves two cards after its discard."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.cards.deck import Deck
from bot.engine.command import Command, Kind
from bot.engine.games.catalogue import GAMES
from bot.engine.games.streets import FLOP, PRE_FLOP, RIVER, TURN
from bot.engine.hand.hand import StudHand
from bot.engine.hand.options import HandOptions, Post
from bot.engine.log import Deal
from bot.engine.simulate import RandomPlayer, random_rulings, random_stakes

FLOP_GAMES = sorted(name for name, game in GAMES.items() if game.board_size)
BOARD_AFTER = {PRE_FLOP: 0, FLOP: 3, TURN: 4, RIVER: 5}


def check_boards(hand: StudHand) -> None:
    """The boards are the cards the log dealt to them: the first is every ``board`` deal; a second
    run (only when run twice) shares the first's cards up to where it began, then its own
    ``second_board`` deals; each has five cards."""
    first = tuple(d.card for d in hand.log if isinstance(d, Deal) and d.kind == "board")
    second = tuple(d.card for d in hand.log if isinstance(d, Deal) and d.kind == "second_board")
    assert hand.boards[0] == first and len(first) == 5
    if hand.runs == 2:
        assert second and len(hand.boards) == 2
        assert hand.boards[1] == first[: 5 - len(second)] + second
    else:
        assert not second and len(hand.boards) == 1


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(FLOP_GAMES), seed=st.integers(0, 2**32 - 1), players=st.integers(2, 8),
       straddle=st.booleans(), bomb=st.sampled_from((0, 0, 0, 5, 50)), timeouts=st.booleans())
def test_random_flop_hands_keep_their_invariants(game: str, seed: int, players: int, straddle: bool,
                                                 bomb: int, timeouts: bool) -> None:
    rng = random.Random(seed)
    stacks = [rng.randint(1, 400) for _ in range(players)]
    rulings = random_rulings(rng, game)
    stakes = random_stakes(rng).with_standard_blinds()
    button = rng.randrange(players)
    # A player three seats left of the button (outside the blinds) posts missed blinds now and then.
    posts = (Post((button + 3) % players, stakes.big_blind, stakes.small_blind),) \
        if players >= 4 and rng.random() < 0.3 else ()
    hand = StudHand(stacks, stakes, rulings, Deck(rng), game=game, button=button,
                    options=HandOptions(straddle=straddle, bomb_pot=bomb, posts=posts))
    player = RandomPlayer(rng)
    total = sum(stacks)
    for _ in range(500):
        dealt = [e.card for e in hand.log if isinstance(e, Deal)]
        assert len(dealt) == len(set(dealt))
        if hand.is_over:
            break
        assert sum(hand.stack(s) for s in range(players)) + hand.pot_total == total
        if hand.phase == "betting":
            assert hand.legal_actions().names, "nobody can act"
            assert len(hand.board) == BOARD_AFTER[hand.street]
        else:
            assert hand.phase == "decision" and hand.decision is not None and hand.decision.choices
        if game == "crazy-pineapple" and hand.street in (TURN, RIVER) and hand.phase == "betting":
            assert all(len(hand.cards(s)) == 2 for s in hand.live_seats)
        actor = hand.actor
        assert actor is not None
        if timeouts and rng.random() < 0.2:
            hand.timeout(actor)
        else:
            player.act(hand)
    result = hand.result
    assert result is not None, "the hand did not end"
    assert sum(result.final_stacks) == total
    assert sum(result.winnings) == sum(p.amount for p in result.pots)
    if result.showdown:
        check_boards(hand)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 8))
def test_verify_says_what_apply_does(seed: int, players: int) -> None:
    # The resolved command of every step replays the same action through its PHH form.
    rng = random.Random(seed)
    game = rng.choice(FLOP_GAMES)
    stakes = random_stakes(rng).with_standard_blinds()
    hand = StudHand([rng.randint(20, 300) for _ in range(players)], stakes,
                    random_rulings(rng, game), Deck(rng), game=game, button=rng.randrange(players))
    while not hand.is_over:
        actor = hand.actor
        assert actor is not None
        command = hand.verify(actor, Command(Kind.TIMEOUT))
        text = command.phh(actor)
        seat, again = Command.from_phh(text)
        assert seat == actor
        hand.apply(actor, again)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(FLOP_GAMES), seed=st.integers(0, 2**32 - 1), players=st.integers(2, 8))
def test_all_in_hands_run_twice_keep_every_chip(game: str, seed: int, players: int) -> None:
    # Many all-ins with run it twice on: two boards of five whenever all agree, each pot's halves
    # (the first never smaller) paid on their own board.
    rng = random.Random(seed)
    stacks = [rng.randint(1, 200) for _ in range(players)]
    rulings = random_rulings(rng, game).with_ruling("run_it_twice", "on")
    hand = StudHand(stacks, random_stakes(rng).with_standard_blinds(), rulings, Deck(rng), game=game,
                    button=rng.randrange(players))
    player = RandomPlayer(rng, all_in=0.4, fold=0.1)
    while not hand.is_over:
        player.act(hand)
    result = hand.result
    assert result is not None and sum(result.final_stacks) == sum(stacks)
    if result.showdown:
        check_boards(hand)
    if hand.runs == 2:
        first = [p for p in result.pots if p.run == 0]
        second = {(p.eligible): p.amount for p in result.pots if p.run == 1}
        for pot in first:
            assert 0 <= pot.amount - second.get(pot.eligible, 0) <= 1
        shared = [c for c in hand.boards[0] if c in hand.boards[1]]
        assert hand.boards[0][: len(shared)] == hand.boards[1][: len(shared)] and len(shared) < 5
