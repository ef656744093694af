"""Table-service scenarios from peers.md §3 (failures other poker bots had) and the smaller rules
of issue 5: all-in run-outs, busted players, short stacks, auto-deal, timers cancelled, seats taken
mid-hand, queued rulings surviving a restart."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.engine.betting.stakes import PRESETS, TableStakes
from bot.store import Store
from bot.tables.errors import TableError
from bot.tables.notices import NoticeKind, NoticePresenter, Reply
from bot.tables.options import TableOptions
from tests.tables.helpers import Harness, StackedRandom, stacked_deck

NL = TableStakes.no_limit(ante=5, bring_in=10, min_bet=20, min_buy_in=5, max_buy_in=2000)
CID = "Qs Qd Jh Jc 4d 4s 7c"   # two pair
BEA = "Ks Kd Kh 9c 8d 2c 3h"   # three kings


async def test_all_in_runs_out_the_board_and_busted_player_is_not_dealt(store: Store, db_path: Path) -> None:
    # Seats: Bea 1, Cid 2. The button starts on seat 1, so Cid is dealt first (p1), Bea second.
    h = Harness(store, db_path, rng=StackedRandom(stacked_deck([CID, BEA])))
    await h.table(("Bea", 500), ("Cid", 100), stakes=NL)
    await h.service.deal(h.key, h.members["Bea"])
    await h.act("Cid", "all_in")          # Cid (J♥ door, the low card) shoves instead of bringing in
    await h.act("Bea", "call")
    # peers.md §3 #10/#12: with everyone all-in the rest is dealt without betting, hands face up.
    text = "\n".join(h.texts())
    assert "No more betting is possible: the hands are turned face up" in text
    for street in ("Fourth street", "Fifth street", "Sixth street", "Seventh street"):
        assert street in text
    showdown = h.rec.showdowns(h.key)[0].text
    assert "Cid shows" in showdown and "Bea shows" in showdown     # both hands named (#12)
    # Three kings beat two pair: Bea takes Cid's 100.
    stacks = {s.member_id: s.stack for s in await store.seats(h.service.table(h.key).table_id)}
    assert stacks == {h.members["Bea"]: 600, h.members["Cid"]: 0}
    # peers.md §3 #11: Cid has no chips, so he is not dealt in, and two players are needed.
    with pytest.raises(TableError, match="Cid has no chips"):
        await h.service.deal(h.key, h.members["Bea"])
    await h.service.top_up(h.key, h.members["Cid"], 50)
    await h.service.deal(h.key, h.members["Bea"])
    assert h.service.table(h.key).hand is not None


async def test_a_player_with_only_the_ante_is_all_in_and_still_gets_cards(
    store: Store, db_path: Path
) -> None:
    h = Harness(store, db_path)
    await h.table(("Ann", 500), ("Bea", 500), ("Cid", 5), stakes=NL)
    await h.service.deal(h.key, h.members["Ann"])
    assert "all-in for the ante: Cid" in h.texts(NoticeKind.ACTION)[0]      # peers.md §3 #9
    await h.passive()
    cid = [n for n in h.rec.privates(h.key, h.members["Cid"]) if n.street == 7]
    assert cid and len(cid[-1].down_cards) + len(cid[-1].up_cards) == 7
    # Cid can win at most the main pot: three antes of 5.
    stacks = {s.member_id: s.stack for s in await store.seats(h.service.table(h.key).table_id)}
    assert stacks[h.members["Cid"]] <= 15
    assert sum(stacks.values()) == 1005


async def test_auto_deal_after_a_pause(store: Store, db_path: Path) -> None:
    options = TableOptions(turn_timeout=None, reminder_after=None, auto_deal_after=5)
    h = Harness(store, db_path, options=options)
    await h.table(("Ann", 500), ("Bea", 500), stakes=PRESETS["small"])
    await h.clock.advance(5)                     # two players ready: the table deals by itself
    assert h.service.table(h.key).hand is not None
    await h.passive()
    assert h.service.table(h.key).hand is None
    await h.clock.advance(4.9)
    assert h.service.table(h.key).hand is None
    await h.clock.advance(0.1)
    hand = h.service.table(h.key).hand
    assert hand is not None and hand.hand_no == 2


async def test_acting_cancels_the_timers_of_that_turn(store: Store, db_path: Path) -> None:
    h = Harness(store, db_path, options=TableOptions(turn_timeout=60, reminder_after=30))
    await h.table(("Ann", 500), ("Bea", 500), ("Cid", 500), stakes=PRESETS["small"])
    await h.service.deal(h.key, h.members["Ann"])
    first = h.prompt()
    await h.clock.advance(10)
    await h.service.act(h.key, first.member, first.hand_id, first.turn, "bring_in")
    await h.clock.advance(25)                    # t = 35: the first turn's reminder (t = 30) is gone
    assert not any(p.reminder for p in h.rec.prompts(h.key))
    assert not any(isinstance(n, Reply) for n in h.rec.of(h.key))
    await h.clock.advance(5)                     # t = 40: the second turn's reminder
    assert h.prompt().reminder and h.prompt().turn == first.turn + 1


async def test_joining_and_leaving_when_not_dealt_in(store: Store, db_path: Path) -> None:
    h = Harness(store, db_path)
    await h.table(("Ann", 500), ("Bea", 500), stakes=PRESETS["small"])
    await h.service.deal(h.key, h.members["Ann"])
    dot = 777
    seat = await h.service.join(h.key, dot, "Dot", buy_in=400)
    assert "from the next hand" in h.texts(NoticeKind.SEATING)[-1]
    hand = h.service.table(h.key).hand
    assert hand is not None and dot not in hand.members           # joining never changes this hand
    assert "went back" in await h.service.leave(h.key, dot)       # not dealt in: cashes out now
    assert await store.balance(h.key.guild, dot) == 1000
    assert seat.seat_no == 3
    await h.passive()


async def test_queued_rulings_survive_a_restart_and_are_announced(db_path: Path) -> None:
    store = await Store.open(db_path)
    h = Harness(store, db_path)
    await h.table(("Ann", 500), ("Bea", 500), stakes=PRESETS["small"])
    await h.service.set_ruling(h.key, h.members["Ann"], "five_follows_five", "absorb")
    await h.service.set_stakes(h.key, h.members["Ann"], PRESETS["micro"])
    await h.service.close()
    await store.close()
    store2 = await Store.open(db_path)
    try:
        h2 = Harness(store2, db_path)
        await h2.service.start()
        await h2.service.deal(h.key, h.members["Ann"])
        settings = h2.texts(NoticeKind.SETTINGS)
        assert len(settings) == 1
        assert "five_follows_five: chain → absorb" in settings[0]
        assert "fixed limit 20/40" in settings[0] and "fixed limit 2/4" in settings[0]
        live = h2.service.table(h.key).hand
        assert live is not None and live.rulings.five_follows_five == "absorb"
        assert live.stakes == PRESETS["micro"]
        record = await store2.get_hand(live.hand_id)
        assert record.rulings["five_follows_five"] == "absorb" and record.stakes["small_bet"] == 2
        await h2.passive()
        assert (await store2.audit()).ok
    finally:
        await store2.close()


async def test_closing_the_table_returns_every_stack(store: Store, db_path: Path) -> None:
    h = Harness(store, db_path)
    await h.table(("Ann", 500), ("Bea", 400), stakes=PRESETS["small"])
    ann, bea = h.members["Ann"], h.members["Bea"]
    await h.service.deal(h.key, ann)
    with pytest.raises(TableError, match="in progress"):
        await h.service.close_table(h.key, ann)
    await h.passive()
    with pytest.raises(TableError):
        await h.service.close_table(h.key, bea)                  # not the dealer
    returned = await h.service.close_table(h.key, ann)
    assert sum(returned.values()) == 900
    assert not h.service.has_table(h.key)
    assert await store.balance(h.key.guild, ann) + await store.balance(h.key.guild, bea) == 2000


class SlowAndBrokenPresenter(NoticePresenter):
    """A front end whose DMs never arrive and whose channel posts fail (peers.md §3 #21, #22, #31)."""

    def __init__(self) -> None:
        from bot.tables.recording import RecordingPresenter

        self.inner = RecordingPresenter()
        self.never = asyncio.Event()
        self.broken = False

    async def post(self, table, notice):  # type: ignore[no-untyped-def]
        await self.inner.post(table, notice)
        if self.broken:
            raise RuntimeError("the channel is gone")

    async def private(self, table, notice):  # type: ignore[no-untyped-def]
        await self.never.wait()                     # hangs: the service gives up after its timeout

    async def prompt(self, table, notice):  # type: ignore[no-untyped-def]
        await self.inner.prompt(table, notice)

    async def reply(self, table, notice):  # type: ignore[no-untyped-def]
        await self.inner.reply(table, notice)

    async def showdown(self, table, notice):  # type: ignore[no-untyped-def]
        await self.inner.showdown(table, notice)


async def test_hanging_dms_and_failing_posts_never_stop_the_hand(store: Store, db_path: Path) -> None:
    h = Harness(store, db_path, options=TableOptions(turn_timeout=None, reminder_after=None,
                                                     private_timeout=0.01))
    slow = SlowAndBrokenPresenter()
    h.service.presenter = slow
    h.rec = slow.inner
    await h.table(("Ann", 500), ("Bea", 500), stakes=PRESETS["small"])
    await h.service.deal(h.key, h.members["Ann"])
    failed = h.texts(NoticeKind.DM_FAILED)
    assert len(failed) == 2 and all("timed out" in t for t in failed)
    slow.broken = True
    await h.passive()                               # every post raises; the hand still ends
    assert h.service.table(h.key).hand is None
