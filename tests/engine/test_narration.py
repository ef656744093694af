"""The one narrator's walk: every engine event reaches its ``visit_`` method once, in order."""

from __future__ import annotations

import typing

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.cards.deck import Deck
from bot.engine.command import Command, Kind
from bot.engine.hand.events import Event
from bot.engine.hand.hand import StudHand
from bot.engine.narration import narrator as narration
from bot.engine.narration.narrator import EventVisitor, Narrator
from tests.engine.helpers import FL, NL


def test_every_event_type_has_a_visit_method() -> None:
    types = set(typing.get_args(Event))
    assert types == set(narration._METHODS)
    for cls, method in narration._METHODS.items():
        assert callable(getattr(EventVisitor, method)), cls


class Recorder(EventVisitor):
    def __init__(self) -> None:
        self.seen: list[object] = []

    def before(self, event: Event) -> None:
        self.seen.append(("before", event))

    def __getattribute__(self, name: str) -> typing.Any:
        if name.startswith("visit_") and name != "visit":
            return lambda event: object.__getattribute__(self, "seen").append((name, event))
        return object.__getattribute__(self, name)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 8), st.booleans())
def test_the_walk_visits_each_event_once_in_order(seed: int, players: int, no_limit: bool) -> None:
    hand = StudHand([200] * players, NL if no_limit else FL, source=Deck.seeded(seed))
    while not hand.is_over:
        seat = hand.actor
        assert seat is not None
        if seed % 2 or not hand.can(seat, Command(Kind.CHECK_OR_CALL)):
            hand.timeout(seat)
        else:
            hand.check_or_call(seat)
    recorder = Recorder()
    recorder.visit(hand.events)
    expected: list[object] = []
    for event in hand.events:
        expected += [("before", event), (narration._METHODS[type(event)], event)]
    assert recorder.seen == expected


def test_a_deal_block_is_said_once_when_the_next_event_comes() -> None:
    class Counting(Narrator[str]):
        def deal_lines(self, street: int | None, cards: typing.Sequence[object]) -> list[str]:
            return [f"street {street}: {len(cards)} cards"]

    hand = StudHand([200, 200, 200], FL, source=Deck.seeded(1))
    narrator = Counting(["A", "B", "C"])
    assert narrator.lines(hand.events) == ["street 3: 9 cards"]
    assert narrator.lines(()) == []
