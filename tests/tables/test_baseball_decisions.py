"""Baseball's decisions at a table (issue 19): ``four_card = bought`` and ``three_up =
pay-the-pot-or-fold`` are played at tables. The table prompts for the decision like a bet, with the
price on the option; the answer is a ``Command``; the turn timer declines or folds, never paying.

Every deck is laid out by hand below, in the engine's deal order (SPEC §2: one pass of first down
cards, one of second down cards, one of door cards; a bought card comes off the stub right after the
door card that earned it), so each expected card and chip count can be checked by reading it.
Stakes: the "small" preset, fixed limit 20/40 with an ante of 5 and a bring-in of 10; a bought card
costs the small bet (20).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.engine.betting.stakes import PRESETS
from bot.engine.cards.card import FULL_DECK, Card, parse_cards
from bot.engine.command import Command, Kind
from bot.engine.errors import IllegalAction
from bot.store import Store
from bot.tables.notices import NoticeKind
from bot.tables.options import TableOptions
from tests.tables.helpers import Harness, StackedRandom

THREE = (("Ann", 500), ("Bea", 500), ("Cid", 500))


def _deck(text: str) -> list[Card]:
    order = parse_cards(text)
    return order + [c for c in FULL_DECK if c not in order]


# Engine seats 0, 1, 2. Third street: first down cards Kh Qd Jc, second down cards Kd Qs Jh, door
# cards 4c (seat 0: a four, so seat 0 is asked), then 9h... The card after the 4c is the bought
# card (2s) if seat 0 buys; the next door cards follow.
BUY_DECK = "Kh Qd Jc Kd Qs Jh 4c 2s 8h 7d"
# Seat 0's door card is the 3c: under pay-the-pot-or-fold it asks for the pot (three antes, 15).
PAY_DECK = "Kh Qd Jc Kd Qs Jh 3c 8h 7d"


async def _baseball(h: Harness, ruling: str, value: str) -> None:
    await h.table(*THREE, stakes=PRESETS["small"])
    await h.service.set_game(h.key, h.members["Ann"], "baseball")
    await h.service.set_ruling(h.key, h.members["Ann"], ruling, value)
    await h.service.deal(h.key, h.members["Ann"])


def _names(h: Harness) -> tuple[str, ...]:
    live = h.service.table(h.key).hand
    assert live is not None
    return live.names


async def test_a_bought_four_is_asked_with_its_price_and_bought(store: Store, db_path: Path) -> None:
    h = Harness(store, db_path, rng=StackedRandom(_deck(BUY_DECK)))
    await _baseball(h, "four_card", "bought")
    first = _names(h)[0]
    prompt = h.prompt()
    # Seat 0's door card is the 4c: before anyone else gets a door card, it is offered a card for 20.
    assert prompt.name == first
    assert [(o.action, o.amount, o.label) for o in prompt.options] == [
        ("buy", 20, "buy the card for 20"), ("decline", None, "decline the card")]
    assert "4♣ earns an extra card" in prompt.text
    live = h.service.table(h.key).hand
    assert live is not None and live.engine.phase == "decision"
    await h.act(first, "buy")
    # Seat 0 paid 20 outside the betting (dead money in the pot): 500 - 5 ante - 20 = 475; it holds
    # the extra card 2s face down after its three cards, and was told so privately.
    assert live.engine.stack(0) == 475 and live.engine.dead_money == (20, 0, 0)
    assert [c.code for c in live.engine.cards(0)] == ["Kh", "Kd", "4c", "2s"]
    assert live.engine.pot_total == 3 * 5 + 20
    mine = h.rec.privates(h.key, live.members[0])[-1]
    assert [c.code for c in mine.down_cards] == ["Kh", "Kd", "2s"]
    # The others' door cards came next (8h, 7d): the 4c is the low door card and brings in.
    assert [c.code for c in live.engine.up_cards(1) + live.engine.up_cards(2)] == ["8h", "7d"]
    assert h.prompt().name == first and h.prompt().option("bring_in") is not None
    assert any("buys the extra card for 20" in t for t in h.texts(NoticeKind.ACTION))
    await h.passive()
    await h.audit_ok()


async def test_the_timer_declines_a_card_and_never_pays(store: Store, db_path: Path) -> None:
    options = TableOptions(turn_timeout=30, reminder_after=None)
    h = Harness(store, db_path, rng=StackedRandom(_deck(BUY_DECK)), options=options)
    await _baseball(h, "four_card", "bought")
    live = h.service.table(h.key).hand
    assert live is not None and live.engine.phase == "decision"
    await h.clock.advance(30)
    # Declined: no chips paid, no extra card; the next door card (2s) went to seat 1.
    assert live.engine.stack(0) == 495 and live.engine.dead_money == (0, 0, 0)
    assert [c.code for c in live.engine.cards(0)] == ["Kh", "Kd", "4c"]
    assert [c.code for c in live.engine.up_cards(1)] == ["2s"]
    reply = h.rec.replies(live.members[0])[-1].text
    assert "declined the extra card for you" in reply


async def test_pay_the_pot_or_fold_is_asked_and_paid(store: Store, db_path: Path) -> None:
    h = Harness(store, db_path, rng=StackedRandom(_deck(PAY_DECK)))
    await _baseball(h, "three_up", "pay-the-pot-or-fold")
    first = _names(h)[0]
    prompt = h.prompt()
    # The pot is the three antes (15): seat 0 matches it or folds.
    assert prompt.name == first
    assert [(o.action, o.amount) for o in prompt.options] == [("pay", 15), ("fold", None)]
    assert "3♣ asks you to match the pot or fold" in prompt.text
    # Anything else is refused with the reason, and changes nothing.
    with pytest.raises(IllegalAction, match="pay or fold"):
        await h.act(first, "call")
    await h.act(first, "pay")
    live = h.service.table(h.key).hand
    assert live is not None
    assert live.engine.stack(0) == 500 - 5 - 15 and live.engine.pot_total == 30
    assert not live.engine.folded(0)


async def test_the_timer_folds_a_pay_the_pot_decision(store: Store, db_path: Path) -> None:
    options = TableOptions(turn_timeout=30, reminder_after=None)
    h = Harness(store, db_path, rng=StackedRandom(_deck(PAY_DECK)), options=options)
    await _baseball(h, "three_up", "pay-the-pot-or-fold")
    live = h.service.table(h.key).hand
    assert live is not None
    await h.clock.advance(30)
    assert live.engine.folded(0) and live.engine.stack(0) == 495 and live.engine.pot_total == 15
    assert "folded for you" in h.rec.replies(live.members[0])[-1].text


async def test_a_decision_is_a_command_through_act_on_prompt(store: Store, db_path: Path) -> None:
    # The terminal and the slash commands act on the prompt: "decline" is the decision's no.
    h = Harness(store, db_path, rng=StackedRandom(_deck(BUY_DECK)))
    await _baseball(h, "four_card", "bought")
    prompt = h.prompt()
    done = await h.service.act_on_prompt(h.key, prompt.member, Command(Kind.DECLINE))
    assert done == (Command(Kind.DECLINE), None)
    live = h.service.table(h.key).hand
    assert live is not None and live.engine.phase == "betting"
