"""The terminal's draw (issue 22): ``draw 1 3`` (places), ``draw Kh 5c`` (cards), ``stand``."""

from __future__ import annotations

import pytest

from bot.console.commands import InputError, parse_action
from bot.engine.cards.card import parse_cards
from bot.engine.command import Command, Kind
from bot.tables.notices import ActionOption, Prompt

DRAW = Prompt(1, "Ann", 7, 3, (ActionOption("draw", 3, label="draw up to 3"),
                               ActionOption("stand", label="stand pat")), "")
BET = Prompt(1, "Ann", 7, 3, (ActionOption("check", label="check"),
                              ActionOption("bet", 20, 20, 20, label="bet 20")), "")
HAND = tuple(parse_cards("Kh 5c 9d 9s 2h"))


def draw(text: str) -> Command:
    return Command(Kind.DRAW, cards=tuple(parse_cards(text)))


@pytest.mark.parametrize(("typed", "command"), [
    ("draw 1 3", draw("Kh 9d")),
    ("draw 2", draw("5c")),
    ("draw Kh 5c", draw("Kh 5c")),
    ("DRAW kh 10d", None),
    ("draw k♥ 2h 5c", draw("Kh 2h 5c")),
    ("stand", Command(Kind.STAND)),
    ("stand pat", Command(Kind.STAND)),
    ("pat", Command(Kind.STAND)),
    ("2", Command(Kind.STAND)),
])
def test_a_draw_is_typed_by_places_or_cards(typed: str, command: Command | None) -> None:
    if command is None:
        with pytest.raises(InputError, match="do not hold T♦"):
            parse_action(typed, DRAW, HAND)
        return
    assert parse_action(typed, DRAW, HAND) == command


@pytest.mark.parametrize(("typed", "reason"), [
    ("draw", "Say which cards to throw away"),
    ("1", "Say which cards to throw away"),
    ("draw 6", "numbered 1 to 5: 6"),
    ("draw 0", "numbered 1 to 5: 0"),
    ("draw 1 1", "each card once"),
    ("draw Qs", "do not hold Q♠"),
    ("draw banana", "bad card"),
    ("stand up", "type stand"),
])
def test_a_bad_draw_says_what_to_type(typed: str, reason: str) -> None:
    with pytest.raises(InputError, match=reason):
        parse_action(typed, DRAW, HAND)


def test_no_draw_outside_a_draw() -> None:
    with pytest.raises(InputError, match="no draw now"):
        parse_action("draw 1", BET, HAND)
    with pytest.raises(InputError, match="no draw now"):
        parse_action("stand", BET, HAND)
