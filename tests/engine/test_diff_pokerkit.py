"""Differential test (issues 12, 19): ``seven-card-stud``, ``razz`` and ``seven-card-stud-hi-lo``
against pokerkit's ``FixedLimitSevenCardStud``, ``FixedLimitRazz`` and
``FixedLimitSevenCardStudHighLowSplitEightOrBetter``.

Random legal hands are played on both engines with the same cards and the same choices (always
one legal in both). At every step they must agree on whose turn it is, the legal actions and
their amounts, the stacks, the street's bets and the pot; at the end on the final stacks and the
pots. Differences are allowed only where SPEC documents a convention pokerkit does not have; each
is named here (the research notes' D-numbers) and avoided or tolerated as said:

* D1 ``heads_up_uncapped``: Wildstud lifts the raise cap heads-up; pokerkit never does -> ruling off.
* D2 ``open_pair_double``: pokerkit has no big bet on fourth street for an open pair -> ruling off.
* D3 short all-in reopening: in Wildstud an all-in of half a bet or more reopens the betting;
  pokerkit never reopens short of a full raise -> after a short all-in only fold / check / call
  are compared on that street (and moves are taken from the intersection).
* ANTE pokerkit's ``ante_trimming_status`` is on: the antes are ordinary contributions for the
  side pots, as in SPEC §6 (off, pokerkit makes the antes one pot for everyone).
* D4 odd chips: pokerkit gives the whole remainder to the first winner -> ``odd_chip =
  left-of-dealer`` (the same for a 1-chip remainder); with 2 or more odd chips only the pot
  totals are compared.
* D5 the low card all-in for the ante: the next seat brings in and may fold in Wildstud (TDA
  RP-10E), not in pokerkit -> that extra fold is allowed and never chosen.
* D6 a bring-in all-in for less: callers owe the full bring-in in Wildstud -> stacks never 6..14.
* D7/D8 the deck shortage and its seventh-street opener -> 2 to 7 players only.
* D9 showdown order and mucking -> winners and chips are compared, not the show order.
* D10 burns: pokerkit burns before fourth to seventh street -> unknown ``??`` burns are fed.
* D11 folding when a check is free: allowed in Wildstud -> pokerkit's cash-game mode.
* LONE a lone player with chips (the rest all-in): Wildstud closes the betting and deals on;
  pokerkit still asks that player to act -> the harness checks for them, once nothing is owed.
* PB-ALL-IN a bring-in that is the player's whole stack: pokerkit also offers it as a completion
  "to" the same amount; the same chips, so it is read as the bring-in.
* NO-RAISE no completion or raise that nobody can call: when no opponent can put in more than the
  current bet (they are all-in or can at most call), Wildstud offers call or fold only (TDA and
  WSOP; issue 14); pokerkit still offers the wager -> that extra ``cbr`` is allowed and never chosen.
* BI the bring-in itself may fold in Wildstud (a player may always leave, SPEC §7); pokerkit
  does not offer it -> that extra fold is allowed and never chosen.

Razz and stud hi-lo add no difference in who brings in, who acts first, the legal actions or the
ace-to-five and eight-or-better winners: pokerkit brings razz in on the highest card (ace low,
then suit) and opens later streets on the lowest showing hand, first seat on a tie, as Wildstud
does with ``high_hand_tiebreak = position``. Two conventions differ in hi-lo, both in the split:

* HL-SIDE a side pot none of whose players has a low: pokerkit halves every pot once anyone at
  the showdown has a low, and hands the low half of such a pot to its players without one, as a
  tie; Wildstud gives it to the pot's high hand (each pot is split on its own: Robert's Rules of
  Poker, "Ties") -> only the chip totals are compared for that hand.
* HL-ODD pokerkit pushes pots with the same winners as one, so when two pots each leave an odd
  chip between their halves pokerkit has one odd chip where Wildstud has two (D4 for the halves)
  -> only the chip totals are compared for that hand.
"""

from __future__ import annotations

import io
import random
import warnings
from pathlib import Path
from typing import Any

import pytest

pokerkit = pytest.importorskip("pokerkit")

from bot.engine.betting.stakes import TableStakes  # noqa: E402
from bot.engine.cards.card import FULL_DECK, Card  # noqa: E402
from bot.engine.games.rulings import Rulings  # noqa: E402
from bot.engine.hand.hand import StudHand  # noqa: E402
from bot.engine.log import Deal  # noqa: E402
from bot.engine.replay.replayer import replay_text  # noqa: E402

A = pokerkit.Automation
AUTOS = (A.ANTE_POSTING, A.BET_COLLECTION, A.BLIND_OR_STRADDLE_POSTING,
         A.HOLE_CARDS_SHOWING_OR_MUCKING, A.HAND_KILLING, A.CHIPS_PUSHING, A.CHIPS_PULLING)
HARNESS_RULINGS = Rulings(heads_up_uncapped="off", open_pair_double="off", odd_chip="left-of-dealer")
Move = tuple[Any, ...]


def ws_legal(ws: StudHand) -> set[Move]:
    legal = ws.legal_actions()
    out: set[Move] = set()
    if legal.fold:
        out.add(("f",))
    if legal.check:
        out.add(("cc", 0))
    if legal.call is not None:
        out.add(("cc", legal.call))
    if legal.bring_in is not None:
        out.add(("pb", legal.bring_in))
    if legal.wager is not None:
        out.update(("cbr", to) for to in legal.to_options)
    if legal.all_in_to is not None and legal.all_in_kind not in ("call", "bring_in"):
        out.add(("cbr", legal.all_in_to))
    return out


def pk_legal(pk: Any) -> set[Move]:
    out: set[Move] = set()
    if pk.can_fold():
        out.add(("f",))
    if pk.can_check_or_call():
        out.add(("cc", pk.checking_or_calling_amount))
    if pk.can_post_bring_in():
        out.add(("pb", pk.effective_bring_in_amount))
    if pk.can_complete_bet_or_raise_to():
        out.add(("cbr", pk.min_completion_betting_or_raising_to_amount))
        out.add(("cbr", pk.max_completion_betting_or_raising_to_amount))
    for move in list(out):
        if move[0] == "pb" and ("cbr", move[1]) in out:
            out.discard(("cbr", move[1]))    # PB-ALL-IN: the same chips as the bring-in
    return out


def apply_ws(ws: StudHand, move: Move) -> None:
    seat = ws.actor
    assert seat is not None
    legal = ws.legal_actions()
    if move[0] == "f":
        ws.fold(seat)
    elif move[0] == "cc":
        ws.check_or_call(seat)
    elif move[0] == "pb":
        ws.bring_in(seat)
    elif move[1] in legal.to_options:
        ws.bet_or_raise_to(seat, move[1])
    else:
        ws.all_in(seat)


def apply_pk(pk: Any, move: Move) -> None:
    if move[0] == "f":
        pk.fold()
    elif move[0] == "cc":
        pk.check_or_call()
    elif move[0] == "pb":
        pk.post_bring_in()
    else:
        pk.complete_bet_or_raise_to(move[1])


def feed_deals(ws: StudHand, pk: Any, fed: int) -> int:
    log = ws.log
    for entry in log[fed:]:
        if isinstance(entry, Deal):
            while ws.betting_closed and pk.actor_index is not None:     # LONE
                assert pk.checking_or_calling_amount == 0, "a lone player owes nothing"
                pk.check_or_call()
            assert entry.seat is not None, "no community card with 2 to 7 players (D7)"
            if pk.can_burn_card():
                pk.burn_card("??")                       # D10
            assert pk.hole_dealee_index == entry.seat    # the same pass order (SPEC §2)
            pk.deal_hole(entry.card.code)
    return len(log)


PK_GAMES = {
    "seven-card-stud": "FixedLimitSevenCardStud",
    "razz": "FixedLimitRazz",
    "seven-card-stud-hi-lo": "FixedLimitSevenCardStudHighLowSplitEightOrBetter",
}
"""Each game played here and pokerkit's class for it."""


def play_both(seed: int, game: str = "seven-card-stud") -> tuple[StudHand, Any]:
    """Play one random hand on both engines in lock step, checking every step; both hands."""
    rng = random.Random(seed)
    n = rng.randint(2, 7)                                           # D7, D8
    stacks = [rng.choice([3, 5, *range(15, 400)]) for _ in range(n)]  # D6
    deck: list[Card] = list(FULL_DECK)
    rng.shuffle(deck)
    ws = StudHand(stacks, TableStakes(), HARNESS_RULINGS, source=deck, game=game)
    pk = getattr(pokerkit, PK_GAMES[game]).create_state(AUTOS, True, 5, 10, 20, 40, stacks, n,
                                                        mode=pokerkit.Mode.CASH_GAME)
    fed = feed_deals(ws, pk, 0)
    short_all_in_street: int | None = None
    while not ws.is_over:
        assert pk.status, f"seed {seed}: pokerkit ended first"
        assert ws.actor == pk.actor_index, f"seed {seed}: whose turn"
        assert list(pk.stacks) == [ws.stack(s) for s in range(n)], f"seed {seed}: stacks"
        assert list(pk.bets) == [ws.street_contribution(s) for s in range(n)], f"seed {seed}: bets"
        assert pk.total_pot_amount == ws.pot_total, f"seed {seed}: pot"
        legal_w, legal_p = ws_legal(ws), pk_legal(pk)
        extra_fold = {("f",)} if ("pb", ws.legal_actions().bring_in) in legal_w else set()  # D5, BI
        level = max([ws.street_contribution(x) for x in range(n)] + [ws.legal_actions().bring_in or 0])
        callers = [x for x in range(n) if x != ws.actor and not ws.folded(x) and ws.stack(x) > 0]
        if not any(ws.street_contribution(x) + ws.stack(x) > level for x in callers):   # NO-RAISE
            legal_p = {m for m in legal_p if m[0] != "cbr" or m in legal_w}
        if ws.street == short_all_in_street:                        # D3
            keep = {m for m in legal_w | legal_p if m[0] != "cbr"}
            assert {m for m in legal_w if m in keep} - extra_fold == {m for m in legal_p if m in keep}, seed
        else:
            assert legal_w - extra_fold == legal_p, f"seed {seed}: legal {legal_w} vs {legal_p}"
        choices = sorted(legal_w & legal_p)
        move = rng.choice(choices)
        legal = ws.legal_actions()
        short = (move[0] == "cbr" and move[1] not in legal.to_options)
        street = ws.street
        apply_ws(ws, move)
        apply_pk(pk, move)
        if short:
            short_all_in_street = street
        fed = feed_deals(ws, pk, fed)
    while pk.status and pk.actor_index is not None:     # LONE: the hand is over for Wildstud
        assert pk.checking_or_calling_amount == 0
        pk.check_or_call()
    result = ws.result
    assert result is not None
    assert not pk.status, f"seed {seed}: pokerkit did not finish"
    odd = max((pot.amount % len(pot.winners) for pot in result.pots), default=0)
    # HL-SIDE: pokerkit halves every pot once anyone at the showdown has a low, even a side pot
    # none of whose players has one; Wildstud gives such a pot to its high hand.
    side_low = bool(result.lows) and any(not set(pot.eligible) & set(result.lows) for pot in result.pots)
    # HL-ODD: pokerkit pushes pots with the same winners as one, so two odd pots' chips between the
    # halves become one (D4 for halves).
    if side_low or (result.lows and sum(pot.amount % 2 for pot in result.pots) >= 2):
        odd = 2                                                     # compare the totals only
    if odd <= 1:
        assert list(pk.stacks) == list(result.final_stacks), f"seed {seed}: final stacks"
    else:                                                           # D4
        assert sum(pk.stacks) == sum(result.final_stacks)
    if not result.showdown:
        return ws, pk   # won by folds: pokerkit hands the street's bets back uncollected; stacks agree
    pushes = [op for op in pk.operations if type(op).__name__ == "ChipsPushing"]
    # Pots: the same chips in the middle; pokerkit pushes pots with the same winners as one.
    assert sum(sum(op.amounts) for op in pushes) == sum(pot.amount for pot in result.pots), seed
    won = [sum(op.amounts[s] for op in pushes) for s in range(n)]
    winners = {s for s in range(n) if won[s]}
    if not side_low:
        assert winners == {s for pot in result.pots for s in pot.winners if result.winnings[s]}, seed
    if odd <= 1:
        assert won == list(result.winnings), f"seed {seed}: winnings"
    return ws, pk


@pytest.mark.parametrize("game", list(PK_GAMES))
def test_random_hands_agree_with_pokerkit(game: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")                             # D11's cash-game warning
        for seed in range(2000 if game == "seven-card-stud" else 1500):
            play_both(seed, game)


HANDS = Path(__file__).resolve().parent.parent / "hands"


@pytest.mark.parametrize("name, stacks", [
    ("40-razz-seven-six-beats-eight-seven.toml", [875, 995, 1130]),
    # D4: Wildstud gives the tied low half's odd chip to p2 (lowest card by suit, Ah before As):
    # [953, 1152, 895]; pokerkit to the first winner.
    ("41-stud-hi-lo-quartered.toml", [954, 1151, 895]),
    ("20-seven-card-stud-natural-fives.toml", [995, 1170, 835]),
    ("22-seven-card-stud-split-left-of-dealer.toml", [1008, 1007, 985]),
    # D4: Wildstud's default odd_chip gives the odd chip to p2 (Ts beats Th): [1007, 1008, 985];
    # pokerkit always gives it to the first winner.
    ("21-seven-card-stud-split-odd-chip.toml", [1008, 1007, 985]),
])
def test_pokerkit_replays_our_seven_card_stud_histories(name: str, stacks: list[int]) -> None:
    # The issues: plain seven-card-stud, razz and hi-lo files are F7S, FR and F7S/8 with only
    # underscore fields added.
    with (HANDS / name).open("rb") as fp:
        history = pokerkit.HandHistory.load(fp)
    assert "_game" in history.user_defined_fields or history.variant == "FR"
    *_, last = iter(history)
    assert list(last.stacks) == stacks


@pytest.mark.parametrize("game", ["razz", "seven-card-stud-hi-lo"])
def test_wildstud_replays_pokerkits_histories(game: str) -> None:
    # The issue: ``wildstud replay`` reads pokerkit's FR and F7S/8 files, all-in showdowns
    # included (pokerkit shows before the last cards, again after seventh street, in its own
    # order, and asks the lone player with chips to check: LONE).
    cls = getattr(pokerkit, PK_GAMES[game])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for seed in range(300):
            ws, pk = play_both(seed, game)
            history = pokerkit.HandHistory.from_game_state(
                cls(AUTOS, True, 5, 10, 20, 40, mode=pokerkit.Mode.CASH_GAME), pk)
            buffer = io.BytesIO()
            history.dump(buffer)
            report = replay_text(buffer.getvalue().decode(), check_results=False)
            assert report.error is None, f"seed {seed}: {report.error}"
            assert report.hand is not None and report.hand.result is not None
            assert report.hand.result.final_stacks == ws.result.final_stacks, seed   # type: ignore[union-attr]


def _heads_up(deck: str) -> tuple[StudHand, Any]:
    cards = [Card.parse(c) for c in deck.split()]
    rest = [c for c in FULL_DECK if c not in cards]
    ws = StudHand([1000, 1000], TableStakes(), Rulings(), source=cards + rest, game="seven-card-stud")
    pk = pokerkit.FixedLimitSevenCardStud.create_state(AUTOS, True, 5, 10, 20, 40, [1000, 1000], 2,
                                                       mode=pokerkit.Mode.CASH_GAME)
    feed_deals(ws, pk, 0)
    return ws, pk


def test_d1_heads_up_uncapped_is_ours_alone() -> None:
    ws, pk = _heads_up("Ah Kh 2c Ad Kd 3c")           # p1 door 2c brings in
    apply_ws(ws, ("pb", 10))
    apply_pk(pk, ("pb", 10))
    for to in (20, 40, 60, 80):                       # complete + 3 raises: pokerkit's cap
        move = ("cbr", to)
        apply_ws(ws, move)
        apply_pk(pk, move)
    assert not pk.can_complete_bet_or_raise_to()
    assert ws.legal_actions().wager == "raise"        # SPEC §5 heads_up_uncapped = on


def test_d5_the_bring_in_passed_on_may_fold_only_here() -> None:
    cards = [Card.parse(c) for c in "Ah Kh Qh Ad Kd Qd 2c 5c 9c".split()]
    rest = [c for c in FULL_DECK if c not in cards]
    stacks = [5, 500, 500]                            # p1's door 2c is low, but p1 is all-in for the ante
    ws = StudHand(stacks, TableStakes(), HARNESS_RULINGS, source=cards + rest, game="seven-card-stud")
    pk = pokerkit.FixedLimitSevenCardStud.create_state(AUTOS, True, 5, 10, 20, 40, stacks, 3,
                                                       mode=pokerkit.Mode.CASH_GAME)
    feed_deals(ws, pk, 0)
    assert ws.actor == pk.actor_index == 1
    assert ws.legal_actions().fold and not pk.can_fold()
