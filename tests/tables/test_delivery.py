"""Updates leave the table before the front end sees them (issue 20): the table's lock is released
before the presenter is awaited, so a slow front end (a Discord call) never holds a table; one
table's updates still reach the presenter one at a time and in order, an update that a newer one
already follows says so (``Update.superseded``), and a click is worked out in one pass (one
snapshot per turn; the table text and a player's hand value only when someone reads them)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

import bot.render.views
import bot.tables.notices
from bot.engine.betting.stakes import PRESETS
from bot.render.table import format_table
from bot.render.views import table_view
from bot.store import Store
from bot.tables.clock import FakeClock
from bot.tables.notices import PrivateNotice, Prompt, PublicNotice, TableKey, TableNotice, Update
from bot.tables.service import TableService
from tests.engine.helpers import command
from tests.tables.helpers import NO_TIMERS, StackedRandom, stacked_deck

KEY = TableKey(1, 100)
ANN, BEA, CID = 101, 102, 103
HANDS = ["As Ad Ah Ac 9c 8d 2c", "Ks Qd 3h 7c 4d 6s Th", "Js Td 4h 9d 8h 3c 2d"]


class Gate:
    """A presenter that records every update and, while ``closed``, holds each one until opened
    (a Discord call that takes its time)."""

    def __init__(self) -> None:
        self.updates: list[Update] = []
        self.open = asyncio.Event()
        self.open.set()
        self.waiting = 0

    async def update(self, table: TableKey, update: Update) -> None:
        self.waiting += 1
        await self.open.wait()
        self.waiting -= 1
        self.updates.append(update)


async def three(store: Store) -> tuple[TableService, Gate]:
    gate = Gate()
    service = TableService(store, gate, clock=FakeClock(), rng=StackedRandom(stacked_deck(HANDS)),
                           default_options=NO_TIMERS)
    await service.create_table(KEY, ANN, stakes=PRESETS["small"])
    for member, name in ((ANN, "Ann"), (BEA, "Bea"), (CID, "Cid")):
        await service.join(KEY, member, name, buy_in=500)
    return service, gate


async def until(condition: Callable[[], bool], what: str) -> None:
    """Wait (the store works in its own thread) until ``condition()`` holds, 10 s at most."""
    for _ in range(1000):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never happened: {what}")


def passive(prompt: Prompt) -> str:
    names = [o.action for o in prompt.options]
    return next(a for a in ("bring_in", "check", "call", "show") if a in names)


async def test_a_slow_front_end_never_holds_the_table(store: Store) -> None:
    service, gate = await three(store)
    gate.open.clear()
    deal = asyncio.create_task(service.deal(KEY, ANN))
    await until(lambda: gate.waiting == 1, "the deal's update at the front end")
    prompt = service.current_prompt(KEY)
    assert prompt is not None and not deal.done()
    # The front end still holds the deal's update, yet the next action goes through at once.
    act = asyncio.create_task(service.act(KEY, prompt.member, prompt.hand_id, prompt.turn,
                                          command(passive(prompt))))
    await until(lambda: (p := service.current_prompt(KEY)) is not None and p.turn > prompt.turn,
                "the action applied while the deal's update is still out")
    assert not act.done() and gate.waiting == 1        # its own update waits behind the deal's
    gate.open.set()
    await asyncio.gather(deal, act)
    deal_update, act_update = gate.updates[-2:]
    assert deal_update.number < act_update.number
    # The deal's delivery began before the action was made: it could not know it would be followed.
    assert not deal_update.superseded and not act_update.superseded
    assert deal_update.table is not None and act_update.table is not None
    assert deal_update.table.prompt is not None and act_update.table.prompt is not None
    assert deal_update.table.prompt.turn < act_update.table.prompt.turn


async def test_updates_reach_the_front_end_in_order_and_only_the_newest_is_current(store: Store) -> None:
    service, gate = await three(store)
    await service.deal(KEY, ANN)
    gate.open.clear()
    tasks = []
    for _ in range(4):          # four actions while the front end answers none of them
        prompt = service.current_prompt(KEY)
        assert prompt is not None
        tasks.append(asyncio.create_task(
            service.act(KEY, prompt.member, prompt.hand_id, prompt.turn, command(passive(prompt)))))
        await until(lambda p=prompt: (q := service.current_prompt(KEY)) is None or q.turn > p.turn,
                    "the action applied")
    gate.open.set()
    await asyncio.gather(*tasks)
    last = gate.updates[-4:]
    assert [u.number for u in last] == sorted(u.number for u in last)
    # The first was at the front end before the others were made; the two in the middle were
    # followed by a newer one when their turn came, the last is the table now.
    assert [u.superseded for u in last] == [False, True, True, False]
    turns = [u.table.prompt.turn for u in last if u.table is not None and u.table.prompt is not None]
    assert turns == sorted(turns) and len(set(turns)) == 4


async def test_a_turn_is_snapshotted_once(store: Store) -> None:
    service, gate = await three(store)
    await service.deal(KEY, ANN)
    prompt = service.current_prompt(KEY)
    assert prompt is not None
    await service.act(KEY, prompt.member, prompt.hand_id, prompt.turn, command(passive(prompt)))
    update = gate.updates[-1]
    (table,) = [n for n in update.notices if isinstance(n, PublicNotice) and n.snapshot is not None]
    assert update.table is table.snapshot              # the update's table is the notice's snapshot
    assert update.notices[-1] is update.table.prompt   # and the prompt is that snapshot's
    assert update.table == service.snapshot(KEY)       # and it is the table now


async def test_the_table_text_is_drawn_only_when_read(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    service, gate = await three(store)
    drawn: list[object] = []

    def counting(view: object) -> str:
        drawn.append(view)
        return format_table(view)  # type: ignore[arg-type]

    monkeypatch.setattr(bot.tables.notices, "format_table", counting)
    await service.deal(KEY, ANN)
    tables = [n for n in gate.updates[-1].notices if isinstance(n, TableNotice)]
    assert tables and drawn == []
    assert tables[0].snapshot is not None
    assert tables[0].text == format_table(table_view(tables[0].snapshot)) and len(drawn) == 1
    assert tables[0].text == tables[0].text and len(drawn) == 1      # drawn once, then kept


async def test_a_hand_value_is_worked_out_only_when_read(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    service, gate = await three(store)
    valued: list[object] = []
    real = bot.render.views.game_best_now

    def counting(*args: object) -> str:
        valued.append(args)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(bot.render.views, "game_best_now", counting)
    await service.deal(KEY, ANN)
    while service.snapshot(KEY).in_hand:
        prompt = service.current_prompt(KEY)
        assert prompt is not None
        await service.act(KEY, prompt.member, prompt.hand_id, prompt.turn, command(passive(prompt)))
    privates = [n for u in gate.updates for n in u.notices if isinstance(n, PrivateNotice)]
    assert len(privates) >= 15 and valued == []          # five streets, three players: nobody read them
    bea = next(n for n in privates if n.member == BEA and n.street == 7)
    assert bea.best.lower().startswith("four of a kind, aces") and len(valued) == 1
    assert f"Best now: {bea.best}" in bea.text and len(valued) == 1
