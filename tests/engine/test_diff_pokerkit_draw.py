"""Differential test (issue 22): ``deuce-to-seven-triple-draw`` and ``badugi`` against pokerkit's
``FixedLimitDeuceToSevenLowballTripleDraw`` (``F2L3D``) and ``FixedLimitBadugi`` (``FB``).

Random hands are played on both engines in lock step, as the stud differential test does
(``test_diff_pokerkit.py``): the same cards (Wildstud deals, pokerkit is fed the same cards), the
same random choices -- bets, calls, folds and random discards (how many, and which). At every step
they must agree on whose turn it is, the legal actions and their amounts, the stacks, the street's
bets and the pot; at each draw on who draws; at the end on the final stacks and the pots. The
differences are conventions, each named and avoided or tolerated as said:

* D1 ``heads_up_uncapped``: Wildstud lifts the raise cap heads-up; pokerkit never does -> off.
* D3 short all-in reopening: after a short all-in only fold / check / call are compared on that
  street (Wildstud reopens the betting at half a bet or more, pokerkit never short of a full raise).
* D4 odd chips: pokerkit gives the remainder to the first winner -> ``odd_chip = left-of-dealer``
  (the same for one odd chip); with two or more only the totals are compared.
* D9 showdown order and mucking -> winners and chips are compared, not the show order.
* D10 burns: pokerkit burns a card before each draw's new cards; Wildstud does not (card rooms
  differ; nothing changes but the stub) -> an unknown ``??`` burn is fed.
* D11 folding when a check is free: allowed in Wildstud -> pokerkit's cash-game mode.
* DEAL-ORDER pokerkit takes every discard of a draw before dealing any new card; Wildstud deals each
  player's draw at once (card rooms; docs/rules.md, "Draw games") -> pokerkit is fed each seat's new
  cards, in seat order, once the last player has drawn.
* RESHUFFLE when the stub runs out pokerkit reshuffles every discard, burn and mucked card, the
  drawing player's own discards included; Wildstud shuffles the other players' discards only (the
  card rooms' rule) -> pokerkit is fed the cards Wildstud dealt (a card of its reserve is dealable
  in pokerkit), and hands that reach a reshuffle are counted, so the test shows it meets some.
* LONE a lone player with chips (the rest all-in): Wildstud closes the betting; pokerkit still asks
  that player to act -> the harness checks for them, once nothing is owed.
* NO-RAISE no raise that nobody can call (TDA): Wildstud offers call or fold only; pokerkit still
  offers the raise -> that extra ``cbr`` is allowed and never chosen.
* CAP-BLIND the raise cap before the first draw: Wildstud counts the big blind as the bet of "a bet
  and three raises" (card rooms' limit rule, as in the flop games); pokerkit allows four raises
  after the blind -> once Wildstud's cap is reached before the first draw, pokerkit's extra ``cbr``
  is allowed and never chosen.
* SHORT-BLIND a blind that is the player's whole stack or more (stacks are kept above two big
  blinds, so blinds are always posted in full in both engines).

``WILDSTUD_DIFF_HANDS`` sets how many hands each game plays (default 300, a few seconds).
"""

from __future__ import annotations

import io
import os
import random
import warnings
from pathlib import Path
from typing import Any

import pytest

pokerkit = pytest.importorskip("pokerkit")

from bot.engine.betting.stakes import TableStakes  # noqa: E402
from bot.engine.cards.card import FULL_DECK, Card  # noqa: E402
from bot.engine.command import Command, Kind  # noqa: E402
from bot.engine.games.rulings import Rulings  # noqa: E402
from bot.engine.hand.hand import StudHand  # noqa: E402
from bot.engine.log import Deal  # noqa: E402
from bot.engine.replay.replayer import replay_text  # noqa: E402
from tests.engine.test_diff_pokerkit import Move, apply_pk, pk_legal, ws_legal  # noqa: E402

A = pokerkit.Automation
AUTOS = (A.ANTE_POSTING, A.BET_COLLECTION, A.BLIND_OR_STRADDLE_POSTING,
         A.HOLE_CARDS_SHOWING_OR_MUCKING, A.HAND_KILLING, A.CHIPS_PUSHING, A.CHIPS_PULLING)
HARNESS_RULINGS = Rulings(heads_up_uncapped="off", odd_chip="left-of-dealer")
PK_GAMES = {
    "deuce-to-seven-triple-draw": "FixedLimitDeuceToSevenLowballTripleDraw",
    "badugi": "FixedLimitBadugi",
}
HANDS = int(os.environ.get("WILDSTUD_DIFF_HANDS", "300"))
SB, BB = 10, 20
STAKES = TableStakes.fixed_limit(ante=0, bring_in=5, small_bet=BB, big_bet=2 * BB).with_blinds(SB, BB)


def apply_ws(ws: StudHand, move: Move) -> None:
    seat = ws.actor
    assert seat is not None
    legal = ws.legal_actions()
    if move[0] == "f":
        ws.fold(seat)
    elif move[0] == "cc":
        ws.check_or_call(seat)
    elif move[1] in legal.to_options:
        ws.bet_or_raise_to(seat, move[1])
    else:
        ws.all_in(seat)


def feed_deals(ws: StudHand, pk: Any, fed: int) -> int:
    """Feed pokerkit the cards Wildstud dealt since log position ``fed`` (the first deal pass by
    pass; a draw's new cards seat by seat once every player has drawn: DEAL-ORDER)."""
    log = ws.log
    pending: dict[int, list[Card]] = {}
    for entry in log[fed:]:
        if isinstance(entry, Deal):
            assert entry.seat is not None
            if entry.street == ws.game.streets[0].number:
                assert pk.hole_dealee_index == entry.seat, "the same deal order"
                pk.deal_hole(entry.card.code)
            else:
                pending.setdefault(entry.seat, []).append(entry.card)
    if not any(pk.standing_pat_or_discarding_statuses):     # every player has drawn
        while pk.can_burn_card():
            pk.burn_card("??")                                          # D10
        while pk.hole_dealee_index is not None:
            pk.deal_hole("".join(c.code for c in pending.pop(pk.hole_dealee_index)))
    assert not pending
    return len(log)


def lone_checks(ws: StudHand, pk: Any) -> None:
    while pk.status and pk.actor_index is not None and ws.betting_closed:       # LONE
        assert pk.checking_or_calling_amount == 0, "a lone player owes nothing"
        pk.check_or_call()


def play_both(seed: int, game: str) -> tuple[StudHand, Any, bool]:
    """One random hand on both engines in lock step; the hands, and whether the stub ran out."""
    rng = random.Random(seed)
    n = rng.randint(2, 6)
    stacks = [rng.randint(2 * BB + 1, 400) for _ in range(n)]                # SHORT-BLIND
    deck: list[Card] = list(FULL_DECK)
    rng.shuffle(deck)
    ws = StudHand(stacks, STAKES, HARNESS_RULINGS, source=deck, game=game, button=n - 1)
    pk = getattr(pokerkit, PK_GAMES[game]).create_state(AUTOS, True, 0, (SB, BB), BB, 2 * BB, stacks, n,
                                                        mode=pokerkit.Mode.CASH_GAME)
    fed = feed_deals(ws, pk, 0)
    short_all_in_street: int | None = None
    while not ws.is_over:
        assert pk.status, f"seed {seed}: pokerkit ended first"
        lone_checks(ws, pk)
        decision = ws.decision
        if decision is not None:
            assert decision.kind == "draw"
            assert pk.stand_patter_or_discarder_index == decision.seat, f"seed {seed}: who draws"
            cards = ws.cards(decision.seat)
            discards = tuple(rng.sample(cards, rng.randint(0, decision.amount)))
            street = ws.street
            ws.apply(decision.seat, Command(Kind.DRAW, cards=discards))
            pk.stand_pat_or_discard("".join(c.code for c in discards))
            if ws.decision is None or ws.street != street:      # the last draw of the round
                fed = feed_deals(ws, pk, fed)
            continue
        assert ws.actor == pk.actor_index, f"seed {seed}: whose turn"
        assert list(pk.stacks) == [ws.stack(s) for s in range(n)], f"seed {seed}: stacks"
        assert list(pk.bets) == [ws.street_contribution(s) for s in range(n)], f"seed {seed}: bets"
        assert pk.total_pot_amount == ws.pot_total, f"seed {seed}: pot"
        legal_w, legal_p = ws_legal(ws), pk_legal(pk)
        level = max(ws.street_contribution(x) for x in range(n))
        callers = [x for x in range(n) if x != ws.actor and not ws.folded(x) and ws.stack(x) > 0]
        if not any(ws.street_contribution(x) + ws.stack(x) > level for x in callers):   # NO-RAISE
            legal_p = {m for m in legal_p if m[0] != "cbr" or m in legal_w}
        rnd = ws.state.round
        if ws.street == ws.game.streets[0].number and rnd is not None and rnd.cap is not None \
                and rnd.aggressions >= rnd.cap:                                       # CAP-BLIND
            legal_p = {m for m in legal_p if m[0] != "cbr"}
        if ws.street == short_all_in_street:                                      # D3
            keep = {m for m in legal_w | legal_p if m[0] != "cbr"}
            assert {m for m in legal_w if m in keep} == {m for m in legal_p if m in keep}, seed
        else:
            assert legal_w == legal_p, f"seed {seed}: legal {legal_w} vs {legal_p}"
        move = rng.choice(sorted(legal_w & legal_p))
        short = move[0] == "cbr" and move[1] not in ws.legal_actions().to_options
        street = ws.street
        apply_ws(ws, move)
        apply_pk(pk, move)
        if short:
            short_all_in_street = street
        fed = feed_deals(ws, pk, fed)
    lone_checks(ws, pk)
    while pk.status and pk.actor_index is not None:
        assert pk.checking_or_calling_amount == 0
        pk.check_or_call()
    result = ws.result
    assert result is not None
    assert not pk.status, f"seed {seed}: pokerkit did not finish"
    odd = max((pot.amount % len(pot.winners) for pot in result.pots), default=0)
    if odd <= 1:
        assert list(pk.stacks) == list(result.final_stacks), f"seed {seed}: final stacks"
    else:                                                                           # D4
        assert sum(pk.stacks) == sum(result.final_stacks)
    if result.showdown:
        pushes = [op for op in pk.operations if type(op).__name__ == "ChipsPushing"]
        assert sum(sum(op.amounts) for op in pushes) == sum(pot.amount for pot in result.pots), seed
        won = [sum(op.amounts[s] for op in pushes) for s in range(n)]
        if odd <= 1:
            assert won == list(result.winnings), f"seed {seed}: winnings"
    return ws, pk, bool(ws.reshuffled_at)


@pytest.mark.parametrize("game", list(PK_GAMES))
def test_random_hands_agree_with_pokerkit(game: str) -> None:
    reshuffled = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")             # D11's cash-game warning; RESHUFFLE's cards
        for seed in range(HANDS):
            reshuffled += play_both(seed, game)[2]
    if HANDS >= 300:
        assert reshuffled > 0, "no hand ran the stub out: RESHUFFLE is untested"


HANDS_DIR = Path(__file__).resolve().parent.parent / "hands"


@pytest.mark.parametrize(("name", "stacks"), [
    ("56-deuce-to-seven-triple-draw.toml", [620, 420, 460]),
    ("57-badugi-heads-up.toml", [580, 420]),
])
def test_pokerkit_replays_our_draw_histories(name: str, stacks: list[int]) -> None:
    # The issue: the standard games' histories are F2L3D and FB as pokerkit reads them.
    with (HANDS_DIR / name).open("rb") as fp:
        history = pokerkit.HandHistory.load(fp)
    *_, last = iter(history)
    assert list(last.stacks) == stacks


@pytest.mark.parametrize("game", list(PK_GAMES))
def test_wildstud_replays_pokerkits_draw_histories(game: str) -> None:
    # The issue: ``wildstud replay`` reads pokerkit's F2L3D and FB files (every discard of a draw
    # before its deal lines, the burns not written, reshuffled cards dealt again).
    cls = getattr(pokerkit, PK_GAMES[game])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for seed in range(max(20, HANDS // 5)):
            ws, pk, _ = play_both(seed, game)
            history = pokerkit.HandHistory.from_game_state(
                cls(AUTOS, True, 0, (SB, BB), BB, 2 * BB, mode=pokerkit.Mode.CASH_GAME), pk)
            buffer = io.BytesIO()
            history.dump(buffer)
            report = replay_text(buffer.getvalue().decode(), check_results=False)
            assert report.error is None, f"seed {seed}: {report.error}"
            assert report.hand is not None and report.hand.result is not None
            assert ws.result is not None
            assert report.hand.result.final_stacks == ws.result.final_stacks, seed
