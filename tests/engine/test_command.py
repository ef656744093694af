"""``Command``: parsing, PHH round trips, and the engine's verify/can/apply triad.

The PHH side is checked against the project's PHH reader (``bot.engine.phh.parser.parse_phh``, written to
phh-std independently of ``Command``); the engine side by playing random hands twice in lockstep,
once with the commands as a player gives them and once with the resolved commands read back from
their PHH strings (what a resumed hand replays): the two logs must be identical.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.betting.stakes import TableStakes
from bot.engine.cards.card import FULL_DECK, Card
from bot.engine.cards.deck import Deck
from bot.engine.command import AMOUNT_KINDS, PRICE_KINDS, Command, Kind
from bot.engine.errors import IllegalAction
from bot.engine.games.rulings import Rulings
from bot.engine.hand.hand import StudHand
from bot.engine.log import Action
from bot.engine.phh.parser import parse_phh
from tests.engine.helpers import FL, NL, PL

SEATS = st.integers(min_value=0, max_value=7)
FLOP_KINDS = (Kind.DISCARD, Kind.RUN_TWICE, Kind.RUN_ONCE)
AMOUNTS = st.integers(min_value=1, max_value=10**9)


@st.composite
def resolved_commands(draw: st.DrawFn) -> Command:
    # The flop games' decisions are PHH-read by the flop games' reader (below, and issue 21's PHH).
    kind = draw(st.sampled_from([k for k in Kind
                                 if k not in (Kind.ALL_IN, Kind.TIMEOUT) and k not in FLOP_KINDS]))
    amount = draw(AMOUNTS) if kind in AMOUNT_KINDS or kind in PRICE_KINDS else None
    cards = tuple(draw(st.lists(st.sampled_from(FULL_DECK), max_size=5, unique=True))) \
        if kind is Kind.DRAW else ()
    return Command(kind, amount, draw(st.booleans()), cards)


def _phh_reference(text: str) -> tuple[str, int | None, int | None, bool, str | None]:
    """``(kind, player, amount, show_dealt, commentary)`` of one action, read by ``parse_phh``."""
    head = ('variant = "_F5CD"\n' if " sd" in text             # a draw is a draw game's action
            else 'variant = "F7S"\nbring_in = 1\n')
    doc = (
        head + "antes = [0, 0, 0, 0, 0, 0, 0, 0]\nsmall_bet = 2\nbig_bet = 4\n"
        "starting_stacks = [1, 1, 1, 1, 1, 1, 1, 1]\n"
        f"actions = [{text!r}]\n".replace("'", '"')
    )
    action = parse_phh(doc).actions[0]
    return action.kind, action.player, action.amount, action.show_dealt, action.commentary


@given(resolved_commands(), SEATS)
def test_phh_strings_are_phh_and_read_back(command: Command, seat: int) -> None:
    text = command.phh(seat)
    kind, player, amount, show_dealt, commentary = _phh_reference(text)
    assert player == seat
    expected = {
        Kind.FOLD: "f", Kind.CHECK: "cc", Kind.CALL: "cc", Kind.CHECK_OR_CALL: "cc", Kind.BRING_IN: "pb",
        Kind.SHOW: "sm", Kind.MUCK: "sm", Kind.PAY: "_pay", Kind.BUY: "_buy", Kind.DECLINE: "_decline",
        Kind.DRAW: "sd", Kind.STAND: "sd",
    }.get(command.kind, "cbr")
    assert kind == expected
    assert amount == (command.amount if expected in ("cbr", "_pay", "_buy") else None)
    assert show_dealt == (command.kind is Kind.SHOW)
    assert commentary == ("timed out" if command.timed_out else None)
    assert Command.from_phh(text) == (seat, command.as_phh())
    assert Command.from_phh(text)[1].phh(seat) == text


@given(st.sampled_from(list(Kind)), st.one_of(st.none(), AMOUNTS))
def test_typed_text_reads_back(kind: Kind, amount: int | None) -> None:
    if kind not in AMOUNT_KINDS:
        amount = None
    if kind is Kind.WAGER:
        return  # PHH's word, not one a player types
    command = Command(kind, amount)
    assert Command.parse(command.text) == command
    assert Command.parse(command.text.upper().replace("_", "-")) == command
    seat, again = Command.from_codec(f"p3 {command.text}")
    assert (seat, again) == (2, command)


@pytest.mark.parametrize(("typed", "expected"), [
    ("All-in", Command(Kind.ALL_IN)), ("all in", Command(Kind.ALL_IN)), ("allin", Command(Kind.ALL_IN)),
    ("bring in", Command(Kind.BRING_IN)), ("Bring-In", Command(Kind.BRING_IN)),
    ("raise to 1,000", Command(Kind.RAISE, 1000)), ("k", Command(Kind.CHECK)),
    ("complete", Command(Kind.COMPLETE)), ("complete 30", Command(Kind.COMPLETE, 30)),
])
def test_parse_reads_what_players_type(typed: str, expected: Command) -> None:
    assert Command.parse(typed) == expected


@pytest.mark.parametrize("bad", ["", "dance", "fold 20", "timeout 3", "p1", "raise -5"])
def test_parse_refuses_what_is_not_an_action(bad: str) -> None:
    with pytest.raises(ValueError):
        Command.parse(bad)


@pytest.mark.parametrize("bad", ["p0 f", "p1 cbr 0", "p1 cbr", "p1 raise 40", "d dh p1 As", "p1 sm As?"])
def test_from_phh_refuses_other_text(bad: str) -> None:
    with pytest.raises(ValueError):
        Command.from_phh(bad)


def test_unresolved_commands_have_no_phh_form() -> None:
    for command in (Command(Kind.ALL_IN), Command(Kind.TIMEOUT), Command(Kind.COMPLETE), Command(Kind.PAY),
                    Command(Kind.BUY)):
        with pytest.raises(ValueError):
            command.phh(0)


def test_labels_are_the_players_words() -> None:
    assert Command(Kind.RAISE, 1200).label == "raise to 1,200"
    assert Command(Kind.BRING_IN).label == "bring in"
    assert Command(Kind.CALL).label == "call"
    assert Command(Kind.ALL_IN).label == "go all-in"
    assert Command(Kind.RAISE).label == "raise" and Command(Kind.WAGER).label == "bet or raise"


# ------------------------------------------------------------------------------------ the engine
def _choices(hand: StudHand, seat: int) -> list[Command]:
    """Commands a player might send now, legal or not (the typed forms, all-in and timeout too)."""
    legal = hand.legal_actions(seat)
    out = [Command(Kind(n)) for n in ("fold", "check", "call", "check_or_call", "bring_in", "complete",
                                       "all_in", "timeout", "show", "muck")]
    for to in (legal.min_to, legal.max_to, *legal.to_options):
        if to is not None:
            out += [Command(Kind.RAISE, to), Command(Kind.BET, to), Command(Kind.COMPLETE, to)]
    if legal.min_to is not None:
        out.append(Command(Kind.RAISE, legal.min_to - 1))
    return out


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([FL, NL, PL]), st.integers(2, 7), st.booleans(),
       st.data())
def test_resolved_commands_replay_the_same_hand(seed: int, stakes: TableStakes, players: int, manual: bool,
                                                data: st.DataObject) -> None:
    stacks = [data.draw(st.integers(3, 400)) for _ in range(players)]
    deck = Deck.seeded(seed)
    rulings = Rulings()
    live = StudHand(stacks, stakes, rulings, Deck.from_order(deck.order), manual_showdown=manual)
    again = StudHand(stacks, stakes, rulings, Deck.from_order(deck.order), manual_showdown=manual)
    while not live.is_over:
        seat = live.actor
        assert seat is not None
        command = data.draw(st.sampled_from(_choices(live, seat)))
        if not live.can(seat, command):
            with pytest.raises(IllegalAction):
                live.verify(seat, command)
            with pytest.raises(IllegalAction):
                live.apply(seat, command)
            continue
        resolved = live.verify(seat, command)
        assert resolved.resolved and resolved.kind not in (Kind.CHECK_OR_CALL, Kind.WAGER)
        before = len(live.log)
        record = live.apply(seat, command)
        assert record == live.log[before]
        assert isinstance(record, Action) and record.seat == seat and record.action == resolved.kind
        if resolved.amount is not None:
            assert record.to == resolved.amount
        assert record.timed_out == (command.kind is Kind.TIMEOUT)
        phh_seat, from_log = Command.from_phh(resolved.phh(seat))
        assert phh_seat == seat
        again.apply(seat, from_log)
        assert again.log == live.log
    assert again.result == live.result


@given(st.sampled_from(FULL_DECK), SEATS, st.booleans())
def test_the_flop_games_decisions_read_back(card: Card, seat: int, timed_out: bool) -> None:
    for command in (Command(Kind.DISCARD, None, timed_out, (card,)), Command(Kind.RUN_TWICE, None, timed_out),
                    Command(Kind.RUN_ONCE, None, timed_out)):
        text = command.phh(seat)
        assert text.startswith(f"p{seat + 1} _{command.kind.value}")
        assert Command.from_phh(text) == (seat, command)
        if not timed_out:
            assert Command.parse(command.text) == command
    assert Command(Kind.DISCARD, cards=(card,)).phh(seat) == f"p{seat + 1} _discard {card.code}"
    assert not Command(Kind.DISCARD).resolved


def test_cards_belong_to_a_discard_only() -> None:
    with pytest.raises(ValueError, match="takes no cards"):
        Command(Kind.FOLD, cards=(Card.parse("Ah"),))
    with pytest.raises(ValueError, match="one card"):
        Command(Kind.DISCARD, cards=(Card.parse("Ah"), Card.parse("Kd")))
    with pytest.raises(ValueError, match="not a card"):
        Command.parse("discard Zz")
