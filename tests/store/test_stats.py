"""Stats in the store (issue 24): three synthetic hands whose figures are worked out by hand below,
then every aggregate (per game, per period, leaderboards with opt-outs, the table's night, seasons)
checked against those hand-worked numbers, on both backends."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

import pytest

from bot.store import Store, StoreError
from bot.store.stats import GameTotals, HandStatLine, NetRow
from tests.store.test_hands import ALICE, BOB, CAROL, DECK, G, seated_table

SITME, FTQ = "sex-in-the-middle-east", "follow-the-queen"


def line(member: int, net: int, collected: int, pot: int, showdown: bool, vpip: bool, bets: int,
         calls: int) -> HandStatLine:
    return HandStatLine(member, net, collected, pot, showdown, vpip, bets, calls)


# Stacks 300 each. Hand 1 (yesterday, SITME): Alice and Bob put in 50 each, Carol 30; pot 130, Bob
# collects it at the showdown against Alice (Carol folded): Alice -50, Bob +80, Carol -30.
H1 = ({1: 250, 2: 380, 3: 270}, SITME, [
    line(ALICE, -50, 0, 130, True, True, 1, 2),
    line(BOB, 80, 130, 130, True, True, 2, 0),
    line(CAROL, -30, 0, 130, False, False, 0, 1),
])
# Hand 2 (tonight, SITME): 50 each, pot 150, Alice bets and both others call then fold later:
# Alice +100, Bob -50, Carol -50; no showdown.
H2 = ({1: 350, 2: 330, 3: 220}, SITME, [
    line(ALICE, 100, 150, 150, False, True, 1, 0),
    line(BOB, -50, 0, 150, False, True, 0, 1),
    line(CAROL, -50, 0, 150, False, True, 0, 1),
])
# Hand 3 (tonight, Follow the Queen): Alice 50 and Carol 50, pot 100, Carol wins the showdown;
# Bob checks and folds (puts in nothing): Alice -50, Bob 0, Carol +50.
H3 = ({1: 300, 2: 330, 3: 270}, FTQ, [
    line(ALICE, -50, 0, 100, True, True, 0, 1),
    line(BOB, 0, 0, 100, False, False, 0, 0),
    line(CAROL, 50, 100, 100, True, True, 1, 0),
])


async def play(store: Store, table: int, hand: tuple[dict[int, int], str, list[HandStatLine]]) -> int:
    finals, game, lines = hand
    hand_id = await store.create_hand(
        table, players={1: ALICE, 2: BOB, 3: CAROL}, deck=DECK, commitment="ab" * 32, salt="cd" * 16,
        game=game,
    )
    await store.settle_hand(hand_id, finals, "phh")
    assert await store.record_hand_stats(hand_id, lines)
    return hand_id


@pytest.fixture
async def night(store: Store, clock) -> tuple[int, object]:
    table = await seated_table(store, {ALICE: 300, BOB: 300, CAROL: 300})
    clock.advance(days=-1)
    await play(store, table, H1)
    clock.advance(days=1)
    tonight = clock.now
    clock.advance(minutes=10)
    await play(store, table, H2)
    clock.advance(minutes=10)
    await play(store, table, H3)
    clock.advance(minutes=1)
    return table, tonight


async def test_member_totals_per_game_and_period(store: Store, night) -> None:
    _, tonight = night
    assert await store.member_stats(G, ALICE) == [
        GameTotals(FTQ, hands=1, won=0, showdowns=1, showdowns_won=0, net=-50, biggest_pot_won=0,
                   vpip_hands=1, bets=0, calls=1),
        GameTotals(SITME, hands=2, won=1, showdowns=1, showdowns_won=0, net=50, biggest_pot_won=150,
                   vpip_hands=2, bets=2, calls=2),
    ]
    assert await store.member_stats(G, BOB, game=SITME) == [
        GameTotals(SITME, hands=2, won=1, showdowns=1, showdowns_won=1, net=30, biggest_pot_won=130,
                   vpip_hands=2, bets=2, calls=1),
    ]
    assert await store.member_stats(G, ALICE, game=SITME, since=tonight) == [
        GameTotals(SITME, hands=1, won=1, showdowns=0, showdowns_won=0, net=100, biggest_pot_won=150,
                   vpip_hands=1, bets=1, calls=0),
    ]
    assert await store.member_stats(G, ALICE, until=tonight) == [
        GameTotals(SITME, hands=1, won=0, showdowns=1, showdowns_won=0, net=-50, biggest_pot_won=0,
                   vpip_hands=1, bets=1, calls=2),
    ]
    assert await store.member_stats(G + 1, ALICE) == []


async def test_net_series_by_day_and_hour(store: Store, night, clock) -> None:
    _, tonight = night
    days = await store.net_series(G, CAROL)
    assert [(d.date().isoformat(), net) for d, net in days] == [("2026-02-28", -30), ("2026-03-01", 0)]
    hours = await store.net_series(G, ALICE, since=tonight, hourly=True)
    assert [(h.hour, net) for h, net in hours] == [(20, 50)]


async def test_leaderboard_by_period_with_opt_outs(store: Store, night) -> None:
    _, tonight = night
    assert await store.net_leaderboard(G) == [NetRow(BOB, 30, 3), NetRow(ALICE, 0, 3), NetRow(CAROL, -30, 3)]
    assert await store.net_leaderboard(G, since=tonight) == [
        NetRow(ALICE, 50, 2), NetRow(CAROL, 0, 2), NetRow(BOB, -50, 2)
    ]
    await store.set_leaderboard_optout(G, BOB, True)
    assert await store.leaderboard_optout(G, BOB)
    assert [r.member_id for r in await store.net_leaderboard(G)] == [ALICE, CAROL]
    assert [r.member_id for r in await store.net_leaderboard(G, exclude=[CAROL])] == [ALICE]
    await store.set_leaderboard_optout(G, BOB, False)
    assert not await store.leaderboard_optout(G, BOB)
    assert [r.member_id for r in await store.net_leaderboard(G, limit=1)] == [BOB]
    await store.set_leaderboard_hidden_role(G, 777)
    assert await store.leaderboard_hidden_role(G) == 777
    await store.set_leaderboard_hidden_role(G, None)
    assert await store.leaderboard_hidden_role(G) is None


async def test_table_night(store: Store, night) -> None:
    table, _ = night
    report = await store.table_night(table)
    assert (report.hands, report.biggest_pot) == (3, 150)
    assert report.members == (NetRow(BOB, 30, 3), NetRow(ALICE, 0, 3), NetRow(CAROL, -30, 3))
    with pytest.raises(StoreError):
        await store.table_night(999)


async def test_lines_must_match_the_settlement_and_are_written_once(store: Store) -> None:
    table = await seated_table(store, {ALICE: 300, BOB: 300, CAROL: 300})
    hand_id = await store.create_hand(
        table, players={1: ALICE, 2: BOB, 3: CAROL}, deck=DECK, commitment="ab" * 32, salt="cd" * 16
    )
    with pytest.raises(StoreError, match="settled"):
        await store.record_hand_stats(hand_id, H1[2])
    await store.settle_hand(hand_id, H1[0], "phh")
    assert await store.hands_without_stats() == [hand_id]
    wrong = [line(ALICE, -40, 0, 130, True, True, 1, 2), *H1[2][1:]]
    with pytest.raises(StoreError, match="net"):
        await store.record_hand_stats(hand_id, wrong)
    with pytest.raises(StoreError, match="exactly"):
        await store.record_hand_stats(hand_id, H1[2][:2])
    assert await store.member_stats(G, ALICE) == []
    assert await store.record_hand_stats(hand_id, H1[2])
    assert not await store.record_hand_stats(hand_id, H1[2])
    assert await store.hands_without_stats() == []


async def test_seasons_window_the_standings_and_stay_readable(store: Store, clock) -> None:
    table = await seated_table(store, {ALICE: 300, BOB: 300, CAROL: 300})
    await play(store, table, H1)  # before the season
    clock.advance(minutes=5)
    season = await store.start_season(G, "Spring", by=ALICE)
    with pytest.raises(StoreError, match="running"):
        await store.start_season(G, "Again", by=ALICE)
    clock.advance(minutes=5)
    await play(store, table, H2)
    clock.advance(minutes=5)
    ended = await store.end_season(G, by=ALICE)
    clock.advance(minutes=5)
    await play(store, table, H3)  # after it
    with pytest.raises(StoreError, match="No season"):
        await store.end_season(G, by=ALICE)
    assert (ended.id, ended.name, ended.started) == (season.id, "Spring", season.started)
    assert ended.ended is not None and ended.ended > ended.started
    assert await store.seasons(G) == [ended]
    standings = await store.net_leaderboard(G, since=ended.started, until=ended.ended)
    assert standings == [NetRow(ALICE, 100, 1), NetRow(BOB, -50, 1), NetRow(CAROL, -50, 1)]
    later = await store.start_season(G, "Summer", by=BOB)
    assert [s.name for s in await store.seasons(G)] == ["Summer", "Spring"]
    assert later.ended is None


async def test_finished_hand_ids_since(store: Store, clock) -> None:
    table = await seated_table(store, {ALICE: 300, BOB: 300, CAROL: 300})
    first = await play(store, table, H1)
    clock.advance(hours=2)
    cut = clock.now - timedelta(minutes=1)
    second = await play(store, table, H2)
    assert await store.finished_hand_ids(G) == [first, second]
    assert await store.finished_hand_ids(G, since=cut) == [second]


async def test_any_window_adds_up_like_the_lines_themselves(store: Store, clock) -> None:
    """Hands at random times over a week (so windows cut days anywhere); every aggregate over random
    windows equals the same sums worked out here, line by line, from what was recorded."""
    rng = random.Random(24)
    table = await seated_table(store, {ALICE: 1_000, BOB: 1_000, CAROL: 1_000})
    stacks = {1: 1_000, 2: 1_000, 3: 1_000}
    members = {1: ALICE, 2: BOB, 3: CAROL}
    kept: list[tuple[datetime, str, HandStatLine]] = []
    for _ in range(40):
        clock.advance(minutes=rng.randint(5, 600))
        a, b = rng.randint(-100, 100), rng.randint(-100, 100)
        nets = {1: a, 2: b, 3: -a - b}
        pot = sum(max(0, -n) for n in nets.values()) * 2
        game = rng.choice([SITME, FTQ])
        lines = []
        for seat, net in nets.items():
            collected = max(0, net) * 2 if net > 0 else 0
            lines.append(line(members[seat], net, collected, pot, rng.random() < 0.4, rng.random() < 0.5,
                              rng.randint(0, 3), rng.randint(0, 3)))
        finals = {seat: stacks[seat] + net for seat, net in nets.items()}
        hand_id = await store.create_hand(
            table, players={1: ALICE, 2: BOB, 3: CAROL}, deck=DECK, commitment="ab" * 32, salt="cd" * 16,
            game=game,
        )
        await store.settle_hand(hand_id, finals, "phh")
        assert await store.record_hand_stats(hand_id, lines)
        stacks = finals
        kept += [(clock.now, game, x) for x in lines]
    first, last = kept[0][0], kept[-1][0]
    windows = [(None, None), (first, None), (None, last)]
    for _ in range(12):
        a = first + (last - first) * rng.random() - timedelta(hours=3)
        windows.append((a, a + timedelta(hours=rng.choice([2, 20, 30, 75]))))
    for since, until in windows:
        inside = [
            (t, g, x) for t, g, x in kept if (since is None or t >= since) and (until is None or t < until)
        ]
        for member in (ALICE, CAROL):
            expected = []
            for game in sorted({g for _, g, x in inside if x.member_id == member}):
                mine = [x for _, g, x in inside if g == game and x.member_id == member]
                expected.append(GameTotals(
                    game, hands=len(mine), won=sum(x.collected > 0 for x in mine),
                    showdowns=sum(x.showdown for x in mine),
                    showdowns_won=sum(x.showdown and x.collected > 0 for x in mine),
                    net=sum(x.net for x in mine), biggest_pot_won=max(x.collected for x in mine),
                    vpip_hands=sum(x.vpip for x in mine), bets=sum(x.bets for x in mine),
                    calls=sum(x.calls for x in mine),
                ))
            assert await store.member_stats(G, member, since=since, until=until) == expected
            days: dict[str, int] = {}
            for t, _, x in inside:
                if x.member_id == member:
                    days[t.strftime("%Y-%m-%d")] = days.get(t.strftime("%Y-%m-%d"), 0) + x.net
            series = await store.net_series(G, member, since=since, until=until)
            assert [(d.strftime("%Y-%m-%d"), n) for d, n in series] == sorted(days.items())
        board: dict[int, list[int]] = {}
        for _, _, x in inside:
            board.setdefault(x.member_id, [0, 0])
            board[x.member_id][0] += x.net
            board[x.member_id][1] += 1
        expected_board = sorted(
            (NetRow(m, n, h) for m, (n, h) in board.items()), key=lambda r: (-r.net, r.member_id)
        )
        assert await store.net_leaderboard(G, since=since, until=until) == expected_board
