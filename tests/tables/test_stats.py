"""Stat lines from what the table saw (issue 24).

A hand written out by hand (its figures worked out below, before any code ran), a property that no
figure changes when a folded down card is swapped for a card nobody was dealt (so nothing secret can
reach a stat), and a hand played through the table service: its lines are stored when it is settled
and equal the lines rebuilt from the stored log; ``catch_up`` writes the lines of older hands.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.cards.card import FULL_DECK
from bot.engine.games.catalogue import GAMES
from bot.engine.log import Deal
from bot.engine.phh.export import export_phh
from bot.engine.replay.replayer import replay_text
from bot.engine.simulate import play_hand, random_rulings, random_stakes
from bot.store import Store
from bot.tables.stats import SeatFigures, catch_up, seat_figures, stat_lines
from tests.tables.helpers import Harness

# Three players, fixed limit 5/10/20/40. Third street: p2 (2d door) brings in 10, p3 completes to
# 20, p1 calls, p2 folds. Fourth: p1 (A-Q showing) bets 20, p3 calls. Fifth: p1 checks, p3 bets
# 40, p1 raises to 80, p3 calls. Sixth and seventh: checked through; p1's three aces beat p3's kings.
# Pot: antes 15 + third 50 + fourth 40 + fifth 160 = 265, all to p1.
# p1 put in 5+20+20+80 = 125: net +140; p2 5+10 = 15: net -15; p3 5+20+20+80 = 125: net -125.
# VPIP: p1 (called on third), p3 (completed); not p2 (the bring-in is forced, then a fold).
# Bets/raises: p1 2 (fourth bet, fifth raise), p3 2 (completion, fifth bet). Calls: p1 1, p3 2.
WORKED = '''
variant = "F7S"
antes = [5, 5, 5]
bring_in = 10
small_bet = 20
big_bet = 40
starting_stacks = [500, 500, 500]
actions = ["d dh p1 AhAsQc", "d dh p2 3h4s2d", "d dh p3 KhJsKd", "p2 pb", "p3 cbr 20", "p1 cc", "p2 f",
 "d dh p1 Ad", "d dh p3 Tc", "p1 cbr 20", "p3 cc",
 "d dh p1 7s", "d dh p3 6d", "p1 cc", "p3 cbr 40", "p1 cbr 80", "p3 cc",
 "d dh p1 8h", "d dh p3 9d", "p1 cc", "p3 cc",
 "d dh p1 9c", "d dh p3 3d", "p1 cc", "p3 cc", "p1 sm AhAs9c", "p3 sm KhJs3d"]
'''


def test_a_hand_worked_out_by_hand() -> None:
    report = replay_text(WORKED, check_results=False)
    assert report.ok, report.error
    assert seat_figures(report.hand) == (
        SeatFigures(net=140, collected=265, pot=265, showdown=True, vpip=True, bets=2, calls=1),
        SeatFigures(net=-15, collected=0, pot=265, showdown=False, vpip=False, bets=0, calls=0),
        SeatFigures(net=-125, collected=0, pot=265, showdown=True, vpip=True, bets=2, calls=2),
    )


def test_a_hand_folded_to_the_bring_in() -> None:
    # p1 brings in 10, p2 folds: the antes (10) are p1's, the bring-in comes back uncalled.
    text = WORKED.replace("[5, 5, 5]", "[5, 5]").replace("[500, 500, 500]", "[500, 500]")
    text = re.sub(r"actions = \[.*\]", 'actions = ["d dh p1 Ah3c2c", "d dh p2 Kh7cQh", "p1 pb", "p2 f"]',
                  text, flags=re.S)
    report = replay_text(text, check_results=False)
    assert report.ok, report.error
    assert seat_figures(report.hand) == (
        SeatFigures(net=5, collected=10, pot=10, showdown=False, vpip=False, bets=0, calls=0),
        SeatFigures(net=-5, collected=0, pot=10, showdown=False, vpip=False, bets=0, calls=0),
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# The stud family (the flop games' histories are PHH FT/NT/PO/FO/8: issue 21's PHH part).
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6),
       game=st.sampled_from(sorted(g for g in GAMES if GAMES[g].family == "stud")))
def test_no_stat_changes_when_a_folded_card_is_swapped(seed: int, players: int, game: str) -> None:
    rng = random.Random(seed)
    hand = play_hand(rng, [rng.randint(50, 400) for _ in range(players)], random_stakes(rng),
                     random_rulings(rng, game), game=game)
    folded = [s for s in range(players) if s not in hand.live_seats]
    if not folded:
        return
    dealt = {e.card for e in hand.log if isinstance(e, Deal)}
    secret = [c for s in folded for c in hand.down_cards(s)]
    stub = [c for c in FULL_DECK if c not in dealt]
    if not secret or not stub:
        return
    old, new = rng.choice(secret), rng.choice(stub)
    text = export_phh(hand, header=False)
    assert old.code in text and new.code not in text
    swapped = replay_text(text.replace(old.code, new.code), check_results=False)
    assert swapped.ok, swapped.error
    owner = next(s for s in folded if old in hand.down_cards(s))
    assert new in swapped.hand.down_cards(owner) and old not in swapped.hand.down_cards(owner)
    assert seat_figures(swapped.hand) == seat_figures(hand)


async def test_lines_are_stored_at_settlement_and_caught_up(tmp_path: Path) -> None:
    path = tmp_path / "ws.sqlite3"
    async with await Store.open(path) as store:
        h = Harness(store, path, rng=random.Random(5))
        await h.table(("Ann", 500), ("Bea", 500), ("Cid", 500))
        hand_id = await h.service.deal(h.key, h.members["Ann"])
        await h.passive()
        record = await store.get_hand(hand_id)
        assert record.status == "finished"
        totals = {m: await store.member_stats(1, m) for m in h.members.values()}
        expected = {line.member_id: line for line in stat_lines(record)}
        for member, rows in totals.items():
            (row,) = rows
            assert (row.hands, row.net, row.bets) == (1, expected[member].net, expected[member].bets)
        assert sum(rows[0].net for rows in totals.values()) == 0
        assert await store.hands_without_stats() == []
        # A hand settled before stats were kept (no lines, nothing in the daily totals) is caught up.
        async with store._transaction() as tx:
            await tx.run("DELETE FROM hand_stats WHERE hand_id = ?", (hand_id,))
            await tx.run("DELETE FROM member_days")
        assert await store.hands_without_stats() == [hand_id]
        assert await catch_up(store) == 1
        assert await store.hands_without_stats() == []
        assert {m: await store.member_stats(1, m) for m in h.members.values()} == totals
