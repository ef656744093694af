"""The tournament model: structures, payouts, ICM against a slow reference, eliminations, rebuys,
late registration, the level clock, cancels, and the properties of random play."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.games import DEALERS_CHOICE
from bot.tournament.model import (
    GamePlan,
    Options,
    Phase,
    Tournament,
    TournamentError,
)
from bot.tournament.payouts import icm_equity, icm_prizes, percentages, prizes
from bot.tournament.structure import (
    PRESET_NAMES,
    SCHEDULE,
    Level,
    LevelLength,
    Structure,
    StructureError,
)

STUD = GamePlan(("seven-card-stud",))


def options(**kwargs: object) -> Options:
    values: dict[str, object] = {"plan": STUD, "structure": Structure.preset("regular"), "buy_in": 100}
    values.update(kwargs)
    return Options(**values)  # type: ignore[arg-type]


def started(count: int, **kwargs: object) -> Tournament:
    t = Tournament.new(options(**kwargs), organiser=1)
    for member in range(1, count + 1):
        t.register(member, f"P{member}")
    t.start(1000.0)
    return t


# ---------------------------------------------------------------------------- structure
def test_presets_are_the_contract_names_and_differ_in_level_length() -> None:
    assert PRESET_NAMES == ("turbo", "regular", "slow")
    minutes = [Structure.preset(name).length.amount for name in PRESET_NAMES]
    assert minutes == sorted(minutes) and len(set(minutes)) == 3


def test_every_level_is_playable_stud_and_rises() -> None:
    structure = Structure.preset("turbo")
    levels = [structure.level(n) for n in range(1, len(SCHEDULE) + 6)]
    for before, after in itertools.pairwise(levels):
        assert after.small_bet > before.small_bet
        assert after.bring_in >= before.bring_in and after.ante >= before.ante
    for level in levels:
        stakes = level.stakes()
        assert 0 < stakes.bring_in < stakes.small_bet < stakes.big_bet
        assert level.small_blind < level.big_blind


def test_a_custom_schedule_and_its_errors() -> None:
    s = Structure.parse("5/10/20/40/10/20, 10/15/30/60", LevelLength.parse("8 hands"))
    assert s.length == LevelLength("hands", 8)
    assert s.level(1) == Level(5, 10, 20, 40, 10, 20)
    assert s.level(2).big_blind == 0  # no blinds given: no blind game at that level
    assert s.level(3) == Level(20, 30, 60, 120)
    with pytest.raises(StructureError, match="bring-in"):
        Structure.parse("5/20/20/40", LevelLength("minutes", 10))
    with pytest.raises(StructureError, match="never go down"):
        Structure.parse("10/15/30/60, 5/10/20/40", LevelLength("minutes", 10))
    with pytest.raises(StructureError, match="level 2"):
        Structure.parse("5/10/20/40, x", LevelLength("minutes", 10))
    for bad in ("0m", "ten", "999"):
        with pytest.raises(StructureError):
            LevelLength.parse(bad)
    assert LevelLength.parse("12") == LevelLength("minutes", 12)


def test_the_structure_survives_storing() -> None:
    s = Structure.parse("5/10/20/40, 10/15/30/60/15/30", LevelLength("hands", 3))
    assert Structure.from_dict(s.to_dict()) == s


# ---------------------------------------------------------------------------- payouts
@pytest.mark.parametrize(
    ("entrants", "expected"),
    [(2, (65, 35)), (6, (65, 35)), (7, (50, 30, 20)), (8, (50, 30, 20)), (9, (50, 30, 20))],
)
def test_standard_percentages(entrants: int, expected: tuple[int, ...]) -> None:
    assert percentages("standard", entrants) == expected
    assert percentages("winner-takes-all", entrants) == (100,)


@given(st.integers(0, 10**9), st.lists(st.integers(1, 100), min_size=1, max_size=9))
def test_prizes_sum_to_the_pool_and_keep_the_order(pool: int, shares: list[int]) -> None:
    shares.sort(reverse=True)
    result = prizes(pool, shares)
    assert sum(result) == pool
    assert all(a >= b for a, b in itertools.pairwise(result))
    for share, amount in zip(shares, result, strict=True):
        assert abs(Fraction(amount) - Fraction(pool * share, sum(shares))) < 1 + len(shares)


def harville_by_permutations(stacks: list[int], payouts: list[int]) -> list[Fraction]:
    """The slow reference: every full finishing order, its Harville probability, its prizes."""
    total = sum(stacks)
    equity = [Fraction(0)] * len(stacks)
    alive = [i for i, s in enumerate(stacks) if s > 0]
    for order in itertools.permutations(alive):
        chance, left = Fraction(1), total
        for player in order:
            chance *= Fraction(stacks[player], left)
            left -= stacks[player]
        for place, player in enumerate(order):
            if place < len(payouts):
                equity[player] += chance * payouts[place]
    return equity


def test_icm_matches_the_published_example() -> None:
    # Wikipedia, "Independent Chip Model": 50/30/20 % of the chips, 70 and 30 paid.
    equity = icm_equity([50, 30, 20], [70, 30])
    assert [round(float(e), 2) for e in equity] == [45.18, 32.25, 22.57]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 5000), min_size=2, max_size=7).filter(lambda s: sum(s) > 0),
       st.sampled_from([(65, 35), (50, 30, 20), (100,)]))
def test_icm_agrees_with_the_permutation_reference(stacks: list[int], shares: tuple[int, ...]) -> None:
    pool = 1000
    payouts = list(prizes(pool, shares))
    assert icm_equity(stacks, payouts) == harville_by_permutations(stacks, payouts)
    whole = icm_prizes(stacks, payouts)
    assert sum(whole) == sum(payouts[: sum(1 for s in stacks if s > 0)])
    exact = harville_by_permutations(stacks, payouts)
    assert all(abs(Fraction(w) - e) < 1 for w, e in zip(whole, exact, strict=True))
    assert all(w == 0 for w, s in zip(whole, stacks, strict=True) if s == 0)


# ---------------------------------------------------------------------------- eliminations
def test_players_out_in_one_hand_place_by_their_starting_chips() -> None:
    t = started(4)
    t.record_hand({1: 1500, 2: 1500, 3: 1500, 4: 1500}, {1: 2500, 2: 1500, 3: 1700, 4: 300})
    after = t.record_hand({1: 2500, 3: 1700, 4: 300}, {1: 4500, 3: 0, 4: 0})
    assert [(e.member, e.place, e.tied) for e in after.eliminated] == [(4, 4, False), (3, 3, False)]
    assert not after.finished
    final = t.record_hand({1: 4500, 2: 1500}, {1: 6000, 2: 0})
    assert final.finished and t.phase is Phase.FINISHED
    assert [(e.member, e.place) for e in final.eliminated] == [(2, 2), (1, 1)]
    assert t.prizes() == {1: 260, 2: 140, 3: 0, 4: 0}


def test_equal_starting_stacks_tie_and_share_the_prizes_of_their_places() -> None:
    t = started(3)
    after = t.record_hand({1: 1500, 2: 1500, 3: 1500}, {1: 4500, 2: 0, 3: 0})
    assert after.finished
    rows = {e.member: e for e in t.standings()}
    assert {rows[2].place, rows[3].place} == {2, 3} and rows[2].tied and rows[3].tied
    # 300 pool: 195/105 for 1st/2nd; 2nd and 3rd (105 + 0) are shared: 53 and 52.
    assert t.prizes()[1] == 195 and sorted((t.prizes()[2], t.prizes()[3])) == [52, 53]
    assert sum(t.prizes().values()) == t.pool


def test_a_hand_that_does_not_conserve_chips_is_refused() -> None:
    t = started(2)
    with pytest.raises(TournamentError, match="conserve"):
        t.record_hand({1: 1500, 2: 1500}, {1: 1600, 2: 1500})
    with pytest.raises(TournamentError, match="did not start"):
        t.record_hand({1: 1400, 2: 1600}, {1: 1500, 2: 1500})
    assert t.entries[1].stack == 1500 and t.hands == 0


def test_heads_up_when_two_are_left() -> None:
    t = started(3)
    assert not t.heads_up
    t.record_hand({1: 1500, 2: 1500}, {1: 3000, 2: 0})
    assert t.heads_up


# ---------------------------------------------------------------------------- rebuys and late registration
def test_a_busted_player_may_rebuy_until_the_next_deal_during_the_rebuy_levels() -> None:
    t = started(3, rebuy_levels=1)
    after = t.record_hand({1: 1500, 2: 1500}, {1: 3000, 2: 0})
    assert after.may_rebuy == (2,) and not after.eliminated
    t.rebuy(2)
    assert t.entries[2].stack == 1500 and t.pool == 400
    t.before_hand(1001.0)
    t.record_hand({1: 3000, 3: 1500}, {1: 4500, 3: 0})
    lapsed = t.before_hand(1002.0)
    assert [e.member for e in lapsed.eliminated] == [3] and lapsed.eliminated[0].place == 3
    with pytest.raises(TournamentError, match="rebuy only"):
        t.rebuy(3)


def test_no_rebuy_after_the_rebuy_levels() -> None:
    t = started(3, rebuy_levels=1)
    t.before_hand(1000.0 + 10 * 60)  # level 2
    after = t.record_hand({1: 1500, 2: 1500}, {1: 3000, 2: 0})
    assert after.eliminated and not after.may_rebuy


def test_late_registration_is_open_for_its_levels_only() -> None:
    t = started(2, late_registration_levels=2)
    t.register(3, "Late")
    assert t.entries[3].stack == 1500 and t.pool == 300
    t.before_hand(1000.0 + 2 * 10 * 60)  # level 3
    with pytest.raises(TournamentError, match="closed"):
        t.register(4, "Too late")


def test_registration_refusals() -> None:
    t = Tournament.new(options(seats=2), organiser=1)
    t.register(1, "A")
    with pytest.raises(TournamentError, match="already"):
        t.register(1, "A")
    with pytest.raises(TournamentError, match="at least two"):
        t.start(0.0)
    t.register(2, "B")
    assert t.full
    with pytest.raises(TournamentError, match="full"):
        t.register(3, "C")
    with pytest.raises(ValueError, match="2 to 8"):
        options(seats=9)


# ---------------------------------------------------------------------------- the clock and games
def test_the_level_changes_between_hands_only_and_keeps_its_cadence() -> None:
    t = started(2)  # regular: 10-minute levels, started at 1000 s
    assert t.next_level_at() == 1600.0
    assert t.before_hand(1599.0).level_change is None
    change = t.before_hand(1600.5).level_change
    assert change is not None and change.number == 2 and change.level == SCHEDULE[1]
    assert t.next_level_at() == 2200.0
    change = t.before_hand(3399.0).level_change  # a long stop: two more levels
    assert change is not None and change.number == 4 and t.next_level_at() == 3400.0


def test_levels_by_hands() -> None:
    t = started(2, structure=Structure.preset("turbo", LevelLength("hands", 2)))
    assert t.hands_left_in_level() == 2 and t.next_level_at() is None
    for _ in range(2):
        assert t.before_hand(0.0).level_change is None
        t.record_hand({1: t.entries[1].stack, 2: t.entries[2].stack},
                      {1: t.entries[1].stack, 2: t.entries[2].stack})
    change = t.before_hand(0.0).level_change
    assert change is not None and change.number == 2


def test_a_stored_tournament_resumes_its_clock() -> None:
    t = started(3, rebuy_levels=2, late_registration_levels=1)
    t.before_hand(1700.0)
    t.record_hand({1: 1500, 2: 1500}, {1: 3000, 2: 0})
    again = Tournament.from_dict(t.to_dict())
    assert again.to_dict() == t.to_dict()
    assert again.next_level_at() == t.next_level_at() == 2200.0
    assert again.entries[2].pending_rebuy


def test_game_rotations() -> None:
    plan = GamePlan.parse("seven-card-stud, follow the queen")
    assert plan.games == ("seven-card-stud", "follow-the-queen")
    t = started(2, plan=plan)
    assert t.game() == "seven-card-stud"
    t.before_hand(1000.0 + 600)
    assert t.game() == "follow-the-queen"
    orbit = started(2, plan=GamePlan(plan.games, "orbit"))
    games = []
    for _ in range(5):
        orbit.before_hand(1000.0)
        orbit.hand_started(2)
        games.append(orbit.game())
    assert games == ["seven-card-stud", "seven-card-stud", "follow-the-queen", "follow-the-queen",
                     "seven-card-stud"]
    assert GamePlan.parse("dealers-choice").games == (DEALERS_CHOICE,)
    with pytest.raises(TournamentError):
        GamePlan.parse("dealers-choice, seven-card-stud")
    with pytest.raises(TournamentError, match="unknown game"):
        GamePlan.parse("hold'em-ish")


# ---------------------------------------------------------------------------- cancel
def test_cancel_before_the_start_refunds_every_buy_in() -> None:
    t = Tournament.new(options(), organiser=1)
    t.register(1, "A")
    t.register(2, "B")
    assert t.cancel("icm") == {1: 100, 2: 100}
    with pytest.raises(TournamentError, match="already"):
        t.cancel()


def test_cancel_after_the_start_by_icm_keeps_decided_places() -> None:
    t = started(7, seats=8)  # 700 pool: 350/210/140
    t.record_hand({6: 1500, 7: 1500}, {6: 3000, 7: 0})
    t.record_hand({5: 1500, 6: 3000}, {5: 0, 6: 4500})
    t.record_hand({4: 1500, 6: 4500}, {4: 0, 6: 6000})
    t.record_hand({3: 1500, 6: 6000}, {3: 0, 6: 7500})  # 3 left: 1, 2 (1500 each), 6 (7500)
    paid = t.cancel("icm")
    assert sum(paid.values()) == 700 and paid[3] == paid[4] == paid[5] == paid[7] == 0
    expected = icm_equity([1500, 1500, 7500], list(prizes(700, (50, 30, 20))))
    assert all(abs(paid[m] - e) < 1 for m, e in zip((1, 2, 6), expected, strict=True))
    assert abs(paid[1] - paid[2]) <= 1 and max(paid[1], paid[2]) < paid[6] < 350
    assert t.phase is Phase.CANCELLED


def test_cancel_after_the_start_by_refund() -> None:
    t = started(3, rebuy_levels=1)
    t.record_hand({1: 1500, 2: 1500}, {1: 3000, 2: 0})
    t.rebuy(2)
    assert t.cancel("refund") == {1: 100, 2: 200, 3: 100}


# ---------------------------------------------------------------------------- random play
@st.composite
def schedules(draw: st.DrawFn) -> Structure:
    count = draw(st.integers(1, 6))
    small = draw(st.integers(2, 40))
    levels = []
    for _ in range(count):
        levels.append(Level(small // 4, max(1, small // 3), small, 2 * small))
        small += draw(st.integers(0, small))
    unit = draw(st.sampled_from(["minutes", "hands"]))
    return Structure(tuple(levels), LevelLength(unit, draw(st.integers(1, 5))))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(schedules(), st.integers(2, 8), st.integers(0, 2), st.integers(0, 2),
       st.sampled_from(["standard", "winner-takes-all"]), st.integers(0, 2**32 - 1))
def test_random_play_conserves_chips_and_places_everyone_once(
    structure: Structure, players: int, rebuy_levels: int, late_levels: int, payouts: str, seed: int
) -> None:
    rng = random.Random(seed)
    opts = Options(STUD, structure, buy_in=rng.choice([0, 10, 75]), starting_stack=200, payouts=payouts,
                   seats=8, late_registration_levels=late_levels, rebuy_levels=rebuy_levels)
    t = Tournament.new(opts, organiser=1)
    for member in range(1, players + 1):
        t.register(member, f"P{member}")
    now = 0.0
    t.start(now)
    next_member = players + 1
    for _ in range(3000):
        now += rng.choice([0.0, 20.0, 90.0])
        before = t.before_hand(now)
        if before.finished:
            break
        if t.late_registration_open and not t.full and rng.random() < 0.05:
            t.register(next_member, f"P{next_member}")
            next_member += 1
        alive = [e for e in t.alive if not e.pending_rebuy]
        if len(alive) < 2:
            continue
        dealt = rng.sample(alive, rng.randint(2, len(alive)))
        start = {e.member: e.stack for e in dealt}
        end = dict(start)
        winner = rng.choice(dealt).member
        for member in start:
            if member != winner:
                lost = min(end[member], rng.choice([0, 5, 40, 10**6]))
                end[member] -= lost
                end[winner] += lost
        chips_in = t.options.starting_stack * (len(t.entries) + sum(e.rebuys for e in t.entries.values()))
        after = t.record_hand(start, end)
        assert sum(e.stack for e in t.alive) == chips_in  # conserved hand by hand
        for member in after.may_rebuy:
            if rng.random() < 0.5:
                t.rebuy(member)
        if after.finished:
            break
    else:
        pytest.fail("the tournament did not end")
    assert t.phase is Phase.FINISHED
    rows = t.standings()
    assert sorted(r.place for r in rows) == list(range(1, len(t.entries) + 1))
    assert len({r.member for r in rows}) == len(t.entries)
    assert t.pool == opts.buy_in * (len(t.entries) + sum(e.rebuys for e in t.entries.values()))
    paid = t.prizes()
    assert sum(paid.values()) == t.pool
    winner_row = next(r for r in rows if r.place == 1)
    assert t.entries[winner_row.member].stack == sum(e.stack for e in t.entries.values())
