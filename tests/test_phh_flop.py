"""PHH for the flop games (issue 21): the variant codes, random hands of every flop game, structure
and hand option written and replayed to the same results, the secrets a history for players keeps,
and histories refused with the field named. (pokerkit reading these files, and Wildstud reading
pokerkit's, is tested in ``tests/engine/test_diff_pokerkit_flop.py``.)"""

from __future__ import annotations

import random
import tomllib

import pytest
import tomli_w
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.betting.stakes import TableStakes
from bot.engine.cards.card import FULL_DECK
from bot.engine.games.catalogue import GAMES
from bot.engine.games.rulings import Rulings
from bot.engine.hand.hand import StudHand
from bot.engine.hand.options import HandOptions, Post
from bot.engine.phh.export import export_phh
from bot.engine.phh.history import FLOP_VARIANTS, variant_code
from bot.engine.phh.parser import parse_phh
from bot.engine.replay.as_json import report_json
from bot.engine.replay.replayer import replay_text
from bot.engine.simulate import RandomPlayer

FLOP_GAMES = [name for name, game in GAMES.items() if game.positional and not game.is_draw]
"""The flop games (the draw games go by the button too: their PHH is tested with the draw)."""
STRUCTURES = ("fixed-limit", "pot-limit", "no-limit")


def test_every_flop_game_and_structure_has_one_variant() -> None:
    codes = {(game, structure): variant_code(structure, GAMES[game].split, game)
             for game in FLOP_GAMES for structure in STRUCTURES}
    assert len(set(codes.values())) == len(codes)
    assert {codes[k] for k in codes if not codes[k].startswith("_")} == {"FT", "NT", "PO", "FO/8"}
    assert codes["texas-holdem", "fixed-limit"] == "FT" and codes["omaha-hi-lo", "fixed-limit"] == "FO/8"
    for key, code in codes.items():
        assert FLOP_VARIANTS[code] == key


def _stakes(structure: str, big: int, ante: int) -> TableStakes:
    if structure == "fixed-limit":
        stakes = TableStakes.fixed_limit(ante=ante, bring_in=1, small_bet=2 * big, big_bet=4 * big)
    elif structure == "pot-limit":
        stakes = TableStakes.pot_limit(ante=ante, bring_in=1, min_bet=2 * big)
    else:
        stakes = TableStakes.no_limit(ante=ante, bring_in=1, min_bet=2 * big)
    return stakes.with_blinds(max(1, big // 2), big)


def random_flop_hand(seed: int) -> StudHand:
    """A random finished hand of any flop game, structure, button, ante ruling, straddle, bomb pot,
    blind posted out of position and run it twice, played by random legal moves."""
    rng = random.Random(seed)
    game = rng.choice(FLOP_GAMES)
    n = rng.randint(2, 8 if game != "crazy-pineapple" else 7)
    big = rng.choice((2, 10, 20))
    ante = rng.choice((0, 1, 5))
    rulings = Rulings(flop_ante=rng.choice(("none", "per-player", "big-blind")),
                      run_it_twice=rng.choice(("off", "on")))
    button = rng.randrange(n)
    posts: tuple[Post, ...] = ()
    if n >= 4 and rng.random() < 0.3:          # a blind posted out of position, live and maybe dead
        posts = (Post((button + rng.randint(3, n - 1)) % n, big, rng.choice((0, max(1, big // 2)))),)
    options = HandOptions(straddle=rng.random() < 0.3, bomb_pot=rng.choice((0, 0, 0, 15)), posts=posts)
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    stacks = [rng.choice((3, 8, 40, 100, 400, 2000)) for _ in range(n)]
    hand = StudHand(stacks, _stakes(rng.choice(STRUCTURES), big, ante), rulings, source=deck, game=game,
                    button=button, options=options)
    player = RandomPlayer(rng)
    while not hand.is_over:
        player.act(hand)
    return hand


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32))
def test_random_flop_hands_replay_to_the_same_results(seed: int) -> None:
    hand = random_flop_hand(seed)
    text = export_phh(hand)
    history = parse_phh(text)
    assert history.is_flop and history.game == hand.game.name
    report = replay_text(text)
    assert report.error is None, f"{report.error}\n{text}"
    replayed = report.hand
    assert replayed is not None and replayed.result is not None and hand.result is not None
    n = hand.seat_count
    first = (hand.button + 1) % n                          # p1 is the seat left of the button
    order = [(first + k) % n for k in range(n)]
    assert list(replayed.result.final_stacks) == [hand.result.final_stacks[s] for s in order]
    assert list(replayed.result.winnings) == [hand.result.winnings[s] for s in order]
    assert replayed.boards == hand.boards
    got = report_json(report)
    assert got["boards"] == [[c.code for c in board] for board in hand.boards]


def test_a_history_for_players_keeps_the_discards_secret() -> None:
    for seed in range(400):
        hand = random_flop_hand(seed)
        discards = {s: hand.discarded(s) for s in range(hand.seat_count) if hand.discarded(s)}
        if hand.game.name == "crazy-pineapple" and len(discards) >= 2:
            break
    else:
        pytest.fail("no Crazy Pineapple hand with two discards")
    viewer = min(discards)
    text = export_phh(hand, hide_unshown=True, viewer=viewer)
    for seat, cards in discards.items():
        assert (cards[0].code in text) == (seat == viewer)
    assert "_discard ??" in text


def _history(**changes: object) -> str:
    base = {
        "variant": "NT", "antes": [0, 0, 0], "blinds_or_straddles": [5, 10, 0], "min_bet": 10,
        "starting_stacks": [500, 500, 500],
        "actions": ["d dh p1 AhKh", "d dh p2 5c5d", "d dh p3 2s3s", "p3 f", "p1 cc", "p2 cc", "d db 7c8d9s"],
    }
    base.update(changes)
    return tomli_w.dumps(base)


@pytest.mark.parametrize(("changes", "message"), [
    ({"min_bet": 20}, "the smallest bet is the big blind: min_bet = 10, not 20"),
    ({"variant": "FT", "small_bet": 10, "big_bet": 40}, "fixed limit bets the big blind and twice it"),
    ({"blinds_or_straddles": [5, 10, 30]}, "straddle is twice the big blind"),
    ({"blinds_or_straddles": [10, 5, 0]}, "small blind and a bigger big blind"),
    ({"antes": [5, 0, 5]}, "antes must be the same for everyone, or the big blind's alone"),
    ({"antes": [0, 0, 0], "blinds_or_straddles": [0, 0, 0]}, "a hand without blinds is a bomb pot"),
    ({"antes": [5, 5, 5], "_rulings": {"flop_ante": "big-blind"}}, "is not what _rulings.flop_ante"),
    ({"bring_in": 5}, "bring_in has no place in NT"),
])
def test_bad_flop_histories_name_the_field(changes: dict[str, object], message: str) -> None:
    text = _history(**changes)
    if changes.get("variant") == "FT":
        data = tomllib.loads(text)
        data.pop("min_bet")
        text = tomli_w.dumps(data)
    report = replay_text(text)
    assert report.error is not None and message in report.error.reason, report.error


def test_board_lines_out_of_place_are_refused_with_the_street() -> None:
    early = _history(actions=["d dh p1 AhKh", "d dh p2 5c5d", "d dh p3 2s3s", "d db 7c8d9s"])
    report = replay_text(early)
    assert report.error is not None and report.error.kind == "cards"
    assert "too early: the flop is dealt only when the betting on pre-flop is over" in report.error.reason
    late = _history(actions=["d dh p1 AhKh", "d dh p2 5c5d", "d dh p3 2s3s", "p3 f", "p1 cc", "p2 cc",
                             "p1 cc", "d db 7c8d9s"])
    report = replay_text(late)
    assert report.error is not None and "the flop must be dealt (a 'd db' line) before p1 acts" \
        in report.error.reason
    missing = _history(actions=["d dh p1 AhKh", "d dh p2 5c5d", "d dh p3 2s3s", "p3 f", "p1 cc", "p2 cc"])
    report = replay_text(missing)
    assert report.error is not None and "no 'd db' line for the next board card" in report.error.reason


def test_a_pokerkit_style_history_without_rulings_reads_its_antes() -> None:
    # pokerkit writes no _rulings: everyone's ante is flop_ante = per-player, the big blind's alone
    # is big-blind.
    for antes, ruling in (([2, 2, 2], "per-player"), ([0, 10, 0], "big-blind")):
        report = replay_text(_history(antes=antes))
        assert report.error is None, report.error
        assert report.hand is not None and report.hand.rulings.flop_ante == ruling


def test_a_flop_history_names_the_stakes_it_plays() -> None:
    """The ``# Stakes`` comment names the blinds the hand posts, not stud's ante and bring-in (it
    said "ante 5 and bring-in 10; blinds 10/20" of a Hold'em hand with no ante)."""
    for seed in range(20):
        hand = random_flop_hand(seed)
        (line,) = [x for x in export_phh(hand).splitlines() if x.startswith("# Stakes:")]
        assert "bring-in" not in line and "blinds" in line, line
        assert line == f"# Stakes: {hand.game.describe_stakes(hand.stakes)}."
