"""The street named with a decision is where the hand stands, in every front end: a draw game's draw
is "the draw" (or "first draw"...) while the players choose their cards and "after the draw" only
for the betting after it; run it twice asked before the flop is "pre-flop"; Crazy Pineapple's
discard (after the flop betting, before the turn) is "flop". The table's text (terminal and the
picture's title), Discord's header, the prompt, the player's own cards and their picture's title
all say the same."""

from __future__ import annotations

import random
import re
from pathlib import Path

from bot.discord.ui.table import header
from bot.render.scenes import hand_picture
from bot.render.views import table_view
from bot.store import Store
from bot.tables.notices import Prompt
from bot.tables.snapshot import own_cards, snapshot
from tests.tables.helpers import NO_TIMERS, Harness
from tests.tables.test_flop_table import NO_LIMIT, _flop_table


def _everywhere(h: Harness, prompt: Prompt) -> list[str]:
    """What each front end names the hand by, now: the table's title (the terminal's text and the
    table picture), Discord's header, the prompt, the player's own cards and their picture."""
    table = h.service.table(h.key)
    live = table.hand
    assert live is not None
    seat = live.members.index(prompt.member)
    own = own_cards(live, seat)
    return [table_view(snapshot(table)).title, header(snapshot(table)).splitlines()[0], prompt.text,
            own.text.splitlines()[0], hand_picture(own, live.hand_no).title]


async def _play_to(h: Harness, action: str) -> Prompt:
    """Check or call until someone is offered ``action``; that prompt."""
    while True:
        prompt = h.prompt()
        if prompt.option(action) is not None:
            return prompt
        step = next(o for o in prompt.options if o.action in ("check", "call"))
        await h.service.act(h.key, prompt.member, prompt.hand_id, prompt.turn, step.command)


def _says(where: list[str], stage: str) -> None:
    """Each text names ``stage`` as a whole name ("flop" is not "pre-flop")."""
    for text in where:
        assert re.search(rf"(^|[ (])({re.escape(stage)})([ ,.)]|$)", text), (stage, where)


async def test_a_draw_is_named_the_draw_and_the_betting_after_it_after_the_draw(
    store: Store, db_path: Path
) -> None:
    h = Harness(store, db_path, rng=random.Random(3), options=NO_TIMERS)
    await _flop_table(h, "five-card-draw", 500, 500, 500)
    await h.service.deal(h.key, h.members["Ann"])
    first = await _play_to(h, "stand")
    where = _everywhere(h, first)
    _says(where, "the draw")
    assert not any("after the draw" in text for text in where), where
    while (prompt := h.prompt()).option("stand") is not None:
        await h.service.act(h.key, prompt.member, prompt.hand_id, prompt.turn, prompt.option("stand").command)
    betting = h.prompt()
    assert betting.option("check") is not None or betting.option("call") is not None
    _says(_everywhere(h, betting), "after the draw")
    await h.passive()


async def test_triple_draw_names_each_draw(store: Store, db_path: Path) -> None:
    h = Harness(store, db_path, rng=random.Random(5), options=NO_TIMERS)
    await _flop_table(h, "deuce-to-seven-triple-draw", 500, 500)
    await h.service.deal(h.key, h.members["Ann"])
    for stage in ("first draw", "second draw", "third draw"):
        prompt = await _play_to(h, "stand")
        where = _everywhere(h, prompt)
        _says(where, stage)
        assert not any("after the" in text for text in where), where
        while (prompt := h.prompt()).option("stand") is not None:
            await h.service.act(h.key, prompt.member, prompt.hand_id, prompt.turn,
                                prompt.option("stand").command)
        _says(_everywhere(h, h.prompt()), f"after the {stage}")
    await h.passive()


async def test_run_it_twice_asked_before_the_flop_is_named_pre_flop(store: Store, db_path: Path) -> None:
    h = Harness(store, db_path, rng=random.Random(4), options=NO_TIMERS)
    await _flop_table(h, "texas-holdem", 100, 100, stakes=NO_LIMIT)
    await h.service.set_ruling(h.key, h.members["Ann"], "run_it_twice", "on")
    await h.service.deal(h.key, h.members["Ann"])
    first = h.prompt()
    await h.service.act(h.key, first.member, first.hand_id, first.turn, first.option("all_in").command)
    call = h.prompt()
    await h.service.act(h.key, call.member, call.hand_id, call.turn, call.option("call").command)
    ask = h.prompt()
    assert ask.option("run_twice") is not None
    where = _everywhere(h, ask)
    _says(where, "pre-flop")
    assert not any(" flop" in text.replace("pre-flop", "") for text in where), where
    await h.passive()


async def test_crazy_pineapple_discards_on_the_flop(store: Store, db_path: Path) -> None:
    h = Harness(store, db_path, rng=random.Random(6), options=NO_TIMERS)
    await _flop_table(h, "crazy-pineapple", 500, 500, 500)
    await h.service.deal(h.key, h.members["Ann"])
    ask = await _play_to(h, "discard")
    where = _everywhere(h, ask)
    _says(where, "flop")
    assert not any("turn" in text.replace("your turn", "") for text in where), where
    await h.passive()
