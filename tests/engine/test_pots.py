"""Pots from contributions (SPEC §6), checked by hand and against a slow "peeling" reference."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.betting.pots import Pot, share_pot, split_pots, uncalled

Layers = list[tuple[int, tuple[int, ...]]]


def reference_split(contrib: list[int], live: list[bool]) -> tuple[Layers, list[int]]:
    """Slow reference: return the unmatched top first, then repeatedly peel the smallest remaining live
    stake off everybody (chip by chip), merging consecutive layers with the same eligible seats."""
    left = list(contrib)
    returned = [0] * len(left)
    ordered = sorted(range(len(left)), key=lambda i: -left[i])
    if len(ordered) > 1 and live[ordered[0]] and left[ordered[0]] > left[ordered[1]]:
        returned[ordered[0]] = left[ordered[0]] - left[ordered[1]]
        left[ordered[0]] = left[ordered[1]]
    pots: Layers = []
    while any(left[i] > 0 for i in range(len(left)) if live[i]):
        eligible = tuple(i for i in range(len(left)) if live[i] and left[i] > 0)
        amount = 0
        while all(left[i] > 0 for i in eligible):      # one chip from everyone still in this layer
            for i in range(len(left)):
                if left[i] > 0:
                    left[i] -= 1
                    amount += 1
        if pots and pots[-1][1] == eligible:
            pots[-1] = (pots[-1][0] + amount, eligible)
        else:
            pots.append((amount, eligible))
    rest = sum(left)          # folded chips above every live stake: they join the last pot
    if rest:
        if pots:
            pots[-1] = (pots[-1][0] + rest, pots[-1][1])
        else:
            pots.append((rest, tuple(i for i in range(len(left)) if live[i])))
    return pots, returned


def test_all_in_short_stack_makes_a_side_pot() -> None:
    # A is all-in for 100; B and C put in 300 each; D folded after 50.
    # Main pot: 100 from A, B, C and D's 50 = 350, all three live players eligible.
    # Side pot: B's and C's 200 more each = 400, only B and C.
    split = split_pots([100, 300, 300, 50], [True, True, True, False])
    assert split.pots == (Pot(350, (0, 1, 2)), Pot(400, (1, 2)))
    assert split.returned == (0, 0, 0, 0)


def test_uncalled_bet_goes_back_and_is_not_in_any_pot() -> None:
    # Example 07 (no limit): antes 5 and the 10 bring-in called by all; p3 bets 60 on fifth street
    # and everyone folds. p3 put in 75, the next highest is 15: 60 goes back; the pot is 4 x 15.
    split = split_pots([15, 15, 75, 15], [False, False, True, False])
    assert split.returned == (0, 0, 60, 0)
    assert split.pots == (Pot(60, (2,)),)


def test_uncalled_bring_in() -> None:
    # Everyone folds to the bring-in: antes 5 each, bring-in 10 -> the 10 is returned, the antes
    # (including the bring-in's own) are the pot.
    assert uncalled([5, 15, 5], [False, True, False]) == (1, 10)
    assert split_pots([5, 15, 5], [False, True, False]).pots == (Pot(15, (1,)),)


def test_bet_called_by_a_shorter_all_in_returns_the_excess() -> None:
    # B bets 200, A calls all-in for 80: 120 of B's bet was never matched.
    split = split_pots([80, 200], [True, True])
    assert split.returned == (0, 120)
    assert split.pots == (Pot(160, (0, 1)),)


def test_folded_chips_stay_in_the_pots_they_reached() -> None:
    # C raised to 300 then folded to B's re-raise (B 500, all called by nobody else); A all-in 100.
    # B's 200 above C is uncalled; main 300 (A, B); side (B alone) 200+200 = 400 -> B's without a contest.
    split = split_pots([100, 500, 300], [True, True, False])
    assert split.returned == (0, 200, 0)
    assert split.pots == (Pot(300, (0, 1)), Pot(400, (1,)))


def test_several_all_ins_make_several_side_pots() -> None:
    split = split_pots([50, 120, 200, 200, 30], [True, True, True, True, False])
    # Levels 50, 120, 200: main 50*4 + 30 = 230; side 70*3 = 210; side 80*2 = 160.
    assert split.pots == (Pot(230, (0, 1, 2, 3)), Pot(210, (1, 2, 3)), Pot(160, (2, 3)))


def test_odd_chips_one_each_in_the_given_order() -> None:
    # 100 chips among 3: 33 each and one odd chip, to the first in order.
    assert share_pot(100, [2, 0, 1]) == {2: 34, 0: 33, 1: 33}
    assert share_pot(101, [1, 0, 2]) == {1: 34, 0: 34, 2: 33}


contributions = st.lists(st.integers(0, 60), min_size=2, max_size=8)


@settings(max_examples=300, deadline=None)
@given(contributions, st.data())
def test_split_matches_the_reference_and_conserves_chips(contrib: list[int], data: st.DataObject) -> None:
    live = data.draw(st.lists(st.booleans(), min_size=len(contrib), max_size=len(contrib)))
    if not any(live):
        live[0] = True
    split = split_pots(contrib, live)
    pots, returned = reference_split(contrib, live)
    assert [(p.amount, p.eligible) for p in split.pots] == pots
    assert list(split.returned) == returned
    assert sum(p.amount for p in split.pots) + sum(split.returned) == sum(contrib)
    for pot in split.pots:
        assert pot.amount > 0 and pot.eligible and all(live[i] for i in pot.eligible)
