"""Reading a player's discards (the picker's select, ``Draw N``'s ``custom_id``, ``/draw``): every
fault is refused with a reason that names it, and a good choice comes back in hand order."""

from __future__ import annotations

import pytest

from bot.discord.ui.drawing import chosen_cards, discards_from_text
from bot.engine.cards.card import parse_cards
from bot.tables.errors import TableError

HAND = parse_cards("Kh 7c 7d 2s 9h")


@pytest.mark.parametrize(("values", "most", "reason"), [
    (["Ac"], 3, "A♣ is not in your hand: your cards are K♥ 7♣ 7♦ 2♠ 9♥."),
    (["Kh", "7c", "7d", "2s"], 3, "You may draw at most 3 cards now, not 4."),
    (["Kh", "7c"], 1, "You may draw at most 1 card now, not 2."),
    (["Kh", "kh"], 3, "K♥ is chosen twice."),
    (["Zz"], 3, "'Zz' is not a card: write a rank and a suit, like Kh or K♥."),
    (["-"], 3, "'-' is not a card"),
])
def test_a_bad_choice_is_refused_by_name(values: list[str], most: int, reason: str) -> None:
    with pytest.raises(TableError) as refused:
        chosen_cards(values, HAND, most)
    assert refused.value.reason.startswith(reason), refused.value.reason


def test_a_choice_comes_back_in_the_order_held() -> None:
    assert chosen_cards(["9h", "Kh"], HAND, 3) == (HAND[0], HAND[4])
    assert chosen_cards([], HAND, 3) == ()


@pytest.mark.parametrize(("text", "reason"), [
    ("", "Say which cards to throw away"),
    ("0", "There is no card 0"),
    ("6", "There is no card 6"),
    ("123456789", "There is no card 123456"),
    ("1 1", "A position is given twice."),
    ("1 2 3 4", "You may draw at most 3 cards now, not 4."),
    ("Kh 9x", "'9x' is not a card"),
])
def test_draw_command_text_is_read_or_refused(text: str, reason: str) -> None:
    with pytest.raises(TableError) as refused:
        discards_from_text(text, HAND, 3)
    assert refused.value.reason.startswith(reason), refused.value.reason


def test_positions_and_cards_name_the_same_discards() -> None:
    assert discards_from_text("5 1", HAND, 3) == discards_from_text("K♥ 9h", HAND, 3) == (HAND[0], HAND[4])
