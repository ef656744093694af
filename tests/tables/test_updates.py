"""One update per operation (issue 9): every command, timer and restart reaches the presenter in ONE
call, with its notices in order and the table's frozen snapshot at the end."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from bot.engine.betting.stakes import PRESETS
from bot.engine.cards.card import parse_cards
from bot.render.views import Phase
from bot.store import Store
from bot.tables.clock import FakeClock
from bot.tables.errors import TableError
from bot.tables.notices import (
    NoticeKind,
    PrivateNotice,
    Prompt,
    PublicNotice,
    ShowdownNotice,
    TableKey,
    Update,
)
from bot.tables.options import TableOptions
from bot.tables.service import TableService
from tests.tables.helpers import NO_TIMERS, StackedRandom, stacked_deck

KEY = TableKey(1, 100)
ANN, BEA, CID = 101, 102, 103

# Engine seats in deal order for the first hand: the button is seat 1 (Ann), so Bea, Cid, Ann.
BEA_ACES = "As Ad Ah Ac 9c 8d 2c"
CID_HAND = "Ks Qd 3h 7c 4d 6s Th"     # 3♥: the low door card brings in
ANN_HAND = "Js Td 4h 9d 8h 3c 2d"


class UpdateLog:
    """A presenter that only records the updates it is handed."""

    def __init__(self) -> None:
        self.updates: list[Update] = []

    async def update(self, table: TableKey, update: Update) -> None:
        self.updates.append(update)


async def open_three(
    store: Store, options: TableOptions = NO_TIMERS
) -> tuple[TableService, UpdateLog, FakeClock]:
    log, clock = UpdateLog(), FakeClock()
    rng = StackedRandom(stacked_deck([BEA_ACES, CID_HAND, ANN_HAND]))
    service = TableService(store, log, clock=clock, rng=rng, default_options=options)
    await service.create_table(KEY, ANN, stakes=PRESETS["small"])
    for member, name in ((ANN, "Ann"), (BEA, "Bea"), (CID, "Cid")):
        await service.join(KEY, member, name, buy_in=500)
    return service, log, clock


async def test_each_command_is_one_update_ending_with_the_table(store: Store) -> None:
    service, log, _ = await open_three(store)
    assert len(log.updates) == 4                       # create and three joins
    before = len(log.updates)
    await service.deal(KEY, ANN)
    assert len(log.updates) == before + 1
    (update,) = log.updates[before:]
    kinds = [n.kind.value if isinstance(n, PublicNotice) else type(n).__name__ for n in update.notices]
    order = [kinds.index(k) for k in ("hand_start", "table", "PrivateNotice", "Prompt")]
    assert order == sorted(order)
    assert kinds[-1] == "Prompt"
    snapshot = update.table
    assert snapshot is not None and snapshot.phase is Phase.IN_HAND and snapshot.hand_no == 1
    prompt = update.notices[-1]
    assert isinstance(prompt, Prompt) and prompt.member == CID and snapshot.prompt == prompt
    # Each private notice goes to its member and holds that member's own down cards only.
    downs = {BEA: parse_cards("As Ad"), CID: parse_cards("Ks Qd"), ANN: parse_cards("Js Td")}
    privates = [n for n in update.notices if isinstance(n, PrivateNotice)]
    assert sorted(n.member for n in privates) == sorted(downs)
    for notice in privates:
        assert list(notice.down_cards) == downs[notice.member]
    # The snapshot shows only up cards: nobody's down card is in it.
    for seat in snapshot.seats:
        assert seat.hidden == 2 and not set(seat.up) & {c for cards in downs.values() for c in cards}
    with pytest.raises(dataclasses.FrozenInstanceError):
        snapshot.pot = 0  # type: ignore[misc]


async def test_a_refusal_that_said_nothing_sends_no_update(store: Store) -> None:
    service, log, _ = await open_three(store)
    await service.deal(KEY, ANN)
    before = len(log.updates)
    prompt = service.current_prompt(KEY)
    assert prompt is not None
    with pytest.raises(TableError, match="not your turn"):
        await service.act(KEY, ANN, prompt.hand_id, prompt.turn, "call")
    assert len(log.updates) == before


async def test_timers_are_one_update_each(store: Store) -> None:
    service, log, clock = await open_three(store, TableOptions(turn_timeout=60, reminder_after=30))
    await service.deal(KEY, ANN)
    before = len(log.updates)
    await clock.advance(30)                            # the reminder
    assert len(log.updates) == before + 1
    reminder = log.updates[-1].notices
    assert len(reminder) == 1 and isinstance(reminder[0], Prompt) and reminder[0].reminder
    await clock.advance(30)                            # out of time: away, bring-in posted, next prompt
    assert len(log.updates) == before + 2
    texts = [n.text for n in log.updates[-1].notices if isinstance(n, PublicNotice)]
    assert "Cid is away (out of time)." in texts and "Cid brings in for 10 (out of time)" in texts


async def test_the_showdown_notice_comes_from_the_result(store: Store) -> None:
    service, log, _ = await open_three(store)
    await service.deal(KEY, ANN)
    while service.snapshot(KEY).in_hand:
        prompt = service.current_prompt(KEY)
        assert prompt is not None
        names = [o.action for o in prompt.options]
        action = "bring_in" if "bring_in" in names else ("check" if "check" in names else "call")
        action = "show" if "show" in names else action         # every loser shows, too
        await service.act(KEY, prompt.member, prompt.hand_id, prompt.turn, action)
    last = log.updates[-1]
    (showdown,) = [n for n in last.notices if isinstance(n, ShowdownNotice)]
    stacks = {s.member: s.stack for s in (last.table.seats if last.table else ())}
    # Everyone called everything, so each loser lost the same amount and Bea's four aces took it all.
    lost = 500 - stacks[CID]
    assert lost > 0 and stacks[ANN] == stacks[CID] and stacks[BEA] == 500 + 2 * lost
    assert showdown.winnings == {BEA: 3 * lost}
    assert sorted(name for name, _ in showdown.shown) == ["Ann", "Bea", "Cid"]
    assert all(line.startswith(f"{name} shows") for name, line in showdown.shown)
    assert "four of a kind, aces" in dict(showdown.shown)["Bea"].lower()
    # The hand's last state comes before the deck reveal, and the update ends between hands.
    kinds = [
        (n.kind, n.snapshot.phase if n.snapshot else None)
        for n in last.notices if isinstance(n, PublicNotice)
    ]
    assert kinds.index((NoticeKind.TABLE, Phase.OVER)) < kinds.index((NoticeKind.REVEAL, None))
    assert last.table is not None and last.table.phase is Phase.BETWEEN_HANDS


async def test_closing_the_table_ends_with_no_table(store: Store) -> None:
    service, log, _ = await open_three(store)
    await service.close_table(KEY, ANN)
    last = log.updates[-1]
    assert last.table is None and [n.kind for n in last.notices if isinstance(n, PublicNotice)] == [
        NoticeKind.SEATING
    ]
    assert not service.has_table(KEY)


async def test_a_restart_is_one_update_per_table(db_path: Path) -> None:
    async with await Store.open(db_path) as store:
        service, _, _ = await open_three(store)
        await service.deal(KEY, ANN)
        await service.close()
    async with await Store.open(db_path) as store:
        log = UpdateLog()
        again = TableService(store, log, clock=FakeClock(), rng=random.Random(1), default_options=NO_TIMERS)
        await again.start()
        (update,) = log.updates
        assert isinstance(update.notices[-1], Prompt) and update.notices[-1].member == CID
        said = [n.text for n in update.notices if isinstance(n, PublicNotice)]
        assert any("resumes after a restart" in text for text in said)
        await again.close()
