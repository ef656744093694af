"""Sit-and-go tournaments through the table service: computer players play whole tournaments; the
level changes between hands only; busted players leave with distinct places; the prizes are paid
once into the balances; a player who times out is blinded away, never removed; a restart resumes
the level clock; a cancel pays by ICM."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.store import Store
from bot.tables.errors import TableError
from bot.tables.notices import Actor, NoticeKind, TableKey
from bot.tables.options import TableOptions
from bot.tables.robot import Robot
from bot.tables.service import TableService
from bot.tournament.model import GamePlan, Options
from bot.tournament.structure import LevelLength, Structure
from tests.tables.helpers import NO_TIMERS, Harness

KEY = TableKey(1, 300)
EPOCH = 1_800_000_000.0
ORGANISER = 90


def options(players: int = 6, **kwargs: object) -> Options:
    values: dict[str, object] = {
        "plan": GamePlan(("seven-card-stud",)),
        "structure": Structure.preset("turbo", LevelLength("hands", 3)),
        "buy_in": 100, "starting_stack": 300, "seats": players,
    }
    values.update(kwargs)
    return Options(**values)  # type: ignore[arg-type]


def harness(store: Store, path: Path, opts: TableOptions = NO_TIMERS) -> Harness:
    h = Harness(store, path, options=opts)
    h.service = TableService(store, h.rec, clock=h.clock, rng=random.Random(23), default_options=opts,
                             wall=lambda: EPOCH + h.clock.now())
    return h


async def play_out(h: Harness, robots: dict[int, Robot], *, limit: int = 3000) -> None:
    """Robots answer every prompt; between hands the clock runs (the table deals by itself)."""
    for _ in range(limit):
        if KEY not in h.service.registry:
            return
        prompt = h.service.current_prompt(KEY)
        if prompt is None:
            await h.clock.advance(5)
            continue
        robot = robots.get(prompt.member)
        if robot is None:
            await h.clock.advance(100)   # a player who is not there: the timer acts
            continue
        action, amount = robot.decide(h.service.situation(KEY, prompt.member))
        await h.service.act(KEY, prompt.member, prompt.hand_id, prompt.turn, action, amount)
    pytest.fail("the tournament did not end")


async def test_six_computer_players_play_a_sit_and_go_to_the_end(store: Store, db_path: Path) -> None:
    h = harness(store, db_path)
    t = h.service.tournaments
    await t.create(KEY, Actor(ORGANISER, "Org"), options())
    members = list(range(201, 207))
    for member in members[:5]:
        await t.join(KEY, Actor(member, f"Bot{member}"), f"join-{member}")
    assert KEY not in h.service.registry          # registering: no table yet
    with pytest.raises(TableError, match="already"):
        await t.join(KEY, Actor(201, "Bot201"), "again")
    text = await t.join(KEY, Actor(206, "Bot206"), "join-206")   # the sixth fills it: it starts
    assert "starts" in text and KEY in h.service.registry
    snap = h.service.snapshot(KEY)
    assert snap.tournament is not None and snap.tournament.level == 1
    assert "next in 3 hands" in snap.tournament.line()
    for member in members:
        assert await store.balance(1, member) == 900
    with pytest.raises(TableError, match="tournament table"):
        await h.service.leave(KEY, 201)
    with pytest.raises(TableError, match="tournament table"):
        await h.service.join(KEY, 299, "Late", buy_in=100)

    await play_out(h, {m: Robot(random.Random(m)) for m in members})

    record = await store.get_tournament(1)
    assert record.status == "finished" and record.pool == 0
    prizes = record.prizes
    assert sorted(prizes.values(), reverse=True) == [390, 210, 0, 0, 0, 0]   # 65/35 of 600
    for member in members:
        assert await store.balance(1, member) == 900 + prizes[member]
    texts = h.texts(key=KEY)
    winner = next(m for m, p in prizes.items() if p == 390)
    second = next(m for m, p in prizes.items() if p == 210)
    assert f"Bot{winner} wins the tournament!" in "\n".join(texts)
    places = [line for line in texts if " is out in " in line]
    assert len(places) == 5
    assert any(f"Bot{second} is out in 2nd place" in line for line in places)
    numbers = sorted(int(line.split(" is out in ")[1][0]) for line in places)
    assert numbers == [2, 3, 4, 5, 6]                       # distinct places
    assert any(line.startswith("Level 2:") for line in h.texts(NoticeKind.SETTINGS, key=KEY))
    assert (await store.get_table(record.table_id or 0)).status == "closed"
    await h.audit_ok()


async def test_the_level_changes_between_hands_and_the_hand_keeps_its_stakes(
    store: Store, db_path: Path
) -> None:
    h = harness(store, db_path)
    t = h.service.tournaments
    await t.create(KEY, Actor(ORGANISER, "Org"),
                   options(players=2, structure=Structure.preset("turbo"), starting_stack=3000))
    await t.join(KEY, Actor(201, "A"), "a")
    await t.join(KEY, Actor(202, "B"), "b")
    await h.clock.advance(4)                     # the first deal
    table = h.service.table(KEY)
    assert table.hand is not None and table.hand.stakes.small_bet == 20
    await h.clock.advance(6 * 60)                # the level's 5 minutes pass during the hand
    assert table.hand is not None and table.hand.stakes.small_bet == 20   # this hand keeps its stakes
    badge = h.service.snapshot(KEY).tournament
    assert badge is not None and badge.level == 1 and f"<t:{int(EPOCH + 300)}:R>" in badge.line(discord=True)
    await h.passive(KEY)
    await h.clock.advance(4)
    assert table.hand is not None and table.hand.stakes.small_bet == 30  # the next deal: level 2
    levels = await store.tournament_levels(1)
    assert [n for n, _ in levels] == [1, 2]
    await h.passive(KEY)


async def test_a_player_who_times_out_is_dealt_in_and_blinded_away(store: Store, db_path: Path) -> None:
    timers = TableOptions(turn_timeout=30.0, reminder_after=None)
    h = harness(store, db_path, timers)
    t = h.service.tournaments
    await t.create(KEY, Actor(ORGANISER, "Org"), options(players=3, starting_stack=150))
    for member in (201, 202, 203):
        await t.join(KEY, Actor(member, f"P{member}"), f"j{member}")
    robots = {201: Robot(random.Random(1)), 202: Robot(random.Random(2))}   # 203 is not there
    dealt_in = 0
    for _ in range(3000):
        if KEY not in h.service.registry:
            break
        table = h.service.table(KEY)
        seat = table.seat_of(203)
        if seat is not None:
            assert seat.status == "active"                      # never marked away
        if table.hand is not None and 203 in table.hand.members and table.hand.turn == 2:
            dealt_in += 1
        prompt = h.service.current_prompt(KEY)
        if prompt is None:
            await h.clock.advance(5)
        elif prompt.member in robots:
            action, amount = robots[prompt.member].decide(h.service.situation(KEY, prompt.member))
            await h.service.act(KEY, prompt.member, prompt.hand_id, prompt.turn, action, amount)
        else:
            await h.clock.advance(31)
    record = await store.get_tournament(1)
    assert record.status == "finished"
    assert dealt_in >= 2
    assert record.prizes[203] in (0, 195, 105)
    await h.audit_ok()


async def test_a_restart_resumes_the_tournament_and_its_clock(store: Store, db_path: Path) -> None:
    h = harness(store, db_path)
    t = h.service.tournaments
    await t.create(KEY, Actor(ORGANISER, "Org"),
                   options(players=2, structure=Structure.preset("regular"), starting_stack=3000))
    await t.join(KEY, Actor(201, "A"), "a")
    await t.join(KEY, Actor(202, "B"), "b")
    await h.clock.advance(4)
    await h.passive(KEY)
    before = h.service.snapshot(KEY).tournament
    await h.service.close()

    again = harness(store, db_path)
    again.clock = h.clock
    again.service = TableService(store, again.rec, clock=h.clock, rng=random.Random(5),
                                 default_options=NO_TIMERS, wall=lambda: EPOCH + h.clock.now())
    await again.service.start()
    after = again.service.snapshot(KEY).tournament
    assert before is not None and after is not None
    assert (after.level, after.next_at) == (before.level, before.next_at)
    assert "Level 1" in await again.service.tournaments.status(KEY)
    await again.service.close()


async def test_cancel_after_the_start_pays_by_icm(store: Store, db_path: Path) -> None:
    h = harness(store, db_path)
    t = h.service.tournaments
    await t.create(KEY, Actor(ORGANISER, "Org"), options(players=3))
    for member in (201, 202, 203):
        await t.join(KEY, Actor(member, f"P{member}"), f"j{member}")
    with pytest.raises(TableError, match="organiser"):
        await t.cancel(KEY, Actor(201, "P201"))
    await h.clock.advance(4)
    await h.passive(KEY)
    await t.cancel(KEY, Actor(ORGANISER, "Org"))
    record = await store.get_tournament(1)
    assert record.status == "cancelled" and sum(record.prizes.values()) == 300
    assert KEY not in h.service.registry
    await h.audit_ok()


async def test_cancel_before_the_start_refunds(store: Store, db_path: Path) -> None:
    h = harness(store, db_path)
    t = h.service.tournaments
    await t.create(KEY, Actor(ORGANISER, "Org"), options())
    await t.join(KEY, Actor(201, "P"), "j")
    assert "Registering: 1 of 6" in await t.status(KEY)
    await t.cancel(KEY, Actor(ORGANISER, "Org"))
    assert await store.balance(1, 201) == 1000
    with pytest.raises(TableError, match="no tournament"):
        await t.status(KEY)


async def test_the_table_shows_the_tournament(store: Store, db_path: Path) -> None:
    from bot.render.scenes import table_picture
    from bot.render.views import table_view

    h = harness(store, db_path)
    t = h.service.tournaments
    await t.create(KEY, Actor(ORGANISER, "Org"),
                   options(players=2, structure=Structure.preset("slow"), starting_stack=3000))
    await t.join(KEY, Actor(201, "A"), "a")
    await t.join(KEY, Actor(202, "B"), "b")
    await h.clock.advance(4)
    snap = h.service.snapshot(KEY)
    assert table_view(snap).title.startswith("Tournament, level 1 · Hand #1")
    picture = table_picture(snap)
    assert picture is not None and picture.title.startswith("Tournament, level 1")
    assert snap.tournament is not None
    assert snap.tournament.line(discord=True) == (
        f"Tournament · level 1: 20/40, ante 5, bring-in 5 · next <t:{int(EPOCH) + 900}:R>:"
        " 30/60, ante 5, bring-in 10 · heads-up"
    )
    await h.passive(KEY)


async def test_a_busted_player_rebuys_within_the_window(store: Store, db_path: Path) -> None:
    h = harness(store, db_path)
    t = h.service.tournaments
    antes = Structure.parse("95/5/20/40", LevelLength("hands", 10))      # everyone all in at once
    await t.create(KEY, Actor(ORGANISER, "Org"),
                   options(players=3, starting_stack=100, rebuy_levels=5, structure=antes))
    for member in (201, 202, 203):
        await t.join(KEY, Actor(member, f"P{member}"), f"j{member}")
    await h.clock.advance(4)
    await h.passive(KEY)
    table = h.service.table(KEY)
    busted = [s.member for s in table.seats.values() if s.stack == 0]
    assert busted, "somebody busts in a hand everyone calls down"
    assert any("may rebuy" in line for line in h.texts(key=KEY))
    await h.clock.advance(10)                  # the next deal waits for the rebuy window
    assert table.hand is None
    await h.service.deal(KEY)                  # a deal asked for now waits too, and says so
    assert table.hand is None
    assert any(line.startswith("Waiting ") for line in h.texts(NoticeKind.NO_DEAL, key=KEY))
    await t.rebuy(KEY, Actor(busted[0], "x"), "rebuy-1")
    with pytest.raises(TableError, match="rebuy only"):
        await t.rebuy(KEY, Actor(busted[0], "x"), "rebuy-2")
    record = await store.get_tournament(1)
    assert record.pool == 400 and record.paid[busted[0]] == 200
    assert table.seat_of(busted[0]) is not None and table.seat_of(busted[0]).stack == 100  # type: ignore[union-attr]
    await h.clock.advance(30)                  # the window ends: anyone else busted is out; a deal
    for other in busted[1:]:
        assert table.seat_of(other) is None
    assert table.hand is not None or KEY not in h.service.registry
    await h.audit_ok()
