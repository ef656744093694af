"""Blinds at the table (issue 21): the blinds a stakes record gives, the button's place, and seats
that wait for the big blind (``bot.tables.blinds``), checked against a slow walk round the table."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from bot.engine.betting.stakes import PRESETS
from bot.store import Store
from bot.tables.blinds import big_blind_seat, clockwise_from, dealt_in
from tests.tables.helpers import Harness


def _left_of(seats: list[int], seat: int, steps: int) -> int:
    """Walk ``steps`` occupied seats clockwise from ``seat`` round a table of eight (slow)."""
    n = seat
    for _ in range(steps):
        n = n % 8 + 1
        while n not in seats:
            n = n % 8 + 1
    return n


@given(st.sets(st.integers(1, 8), min_size=2, max_size=8), st.data())
def test_the_big_blind_is_two_seats_left_of_the_button_and_heads_up_the_other_seat(
    occupied: set[int], data: st.DataObject
) -> None:
    seats = sorted(occupied)
    button = data.draw(st.sampled_from(seats))
    steps = 1 if len(seats) == 2 else 2
    assert big_blind_seat(seats, button) == _left_of(seats, button, steps)
    order = clockwise_from(seats, button)
    assert order[-1] == button and sorted(order) == seats
    assert order[0] == _left_of(seats, button, 1)


@given(st.sets(st.integers(1, 8), min_size=2, max_size=8), st.data())
def test_a_waiting_seat_is_dealt_in_exactly_when_it_is_the_big_blind(
    occupied: set[int], data: st.DataObject
) -> None:
    ready = sorted(occupied)
    waiting = data.draw(st.sets(st.sampled_from(ready)))
    playing = [n for n in ready if n not in waiting]
    if len(playing) < 2:
        assert dealt_in(ready, waiting, ready[0]) == ready      # nobody to wait for: all play
        return
    button = data.draw(st.sampled_from(playing))
    dealt = dealt_in(ready, waiting, button)
    assert set(playing) <= set(dealt) <= set(ready)
    newcomers = set(dealt) - set(playing)
    assert len(newcomers) <= 1
    for w in newcomers:
        assert big_blind_seat(dealt, button) == w
    for w in waiting - newcomers:
        # Had it been dealt too, it would not have posted the big blind.
        assert big_blind_seat(sorted([*dealt, w]), button) != w


def test_of_two_seats_waiting_after_the_small_blind_the_first_clockwise_posts_the_big_blind() -> None:
    # Ann (6) and Bea (2) play, Bea on the button: Ann posts the small blind, then seats 7, 8 and 1
    # come before Bea again; 7 is the big blind even though 1 is the lower seat number.
    assert dealt_in([1, 2, 6, 7], {1, 7}, button=2) == [2, 6, 7]


@given(st.sets(st.integers(1, 8), min_size=3, max_size=8), st.data())
def test_every_waiting_seat_plays_within_one_round_of_the_button(
    occupied: set[int], data: st.DataObject
) -> None:
    ready = sorted(occupied)
    waiting = set(data.draw(st.sets(st.sampled_from(ready), max_size=len(ready) - 2)))
    button = data.draw(st.sampled_from([n for n in ready if n not in waiting]))
    first = set(waiting)
    for _ in range(len(ready) + 1):
        dealt = dealt_in(ready, waiting, button)
        waiting -= set(dealt)
        playing = [n for n in ready if n not in waiting]
        button = _left_of(playing, button, 1)            # the button moves among the playing seats
    assert not waiting, f"still waiting after a round: {sorted(waiting)} of {sorted(first)}"


async def test_a_player_who_joins_a_running_game_waits_and_it_survives_a_restart(
    store: Store, db_path: Path
) -> None:
    h = Harness(store, db_path)
    await h.table(("Ann", 500), ("Bea", 500), stakes=PRESETS["small"])
    # Before the first hand nobody waits: the game has not begun.
    assert not any(s.waiting for s in h.service.table(h.key).seats.values())
    await h.service.deal(h.key, h.members["Ann"])
    await h.service.join(h.key, 301, "Cid", buy_in=500)
    table = h.service.table(h.key)
    cid = table.seat_of(301)
    assert cid is not None and cid.waiting
    again = await h.service.repository.load(await store.get_table(table.table_id))
    restored = again.seat_of(301)
    assert restored is not None and restored.waiting
    # Stud has no blinds: the next hand deals Cid at once, and he waits no more.
    prompt = h.prompt()
    fold = next(o for o in prompt.options if o.action in ("fold", "bring_in"))
    await h.service.act(h.key, prompt.member, prompt.hand_id, prompt.turn, fold.command)
    while h.service.table(h.key).hand is not None:
        prompt = h.prompt()
        option = next(o for o in prompt.options if o.action in ("fold", "check", "call", "muck", "show"))
        await h.service.act(h.key, prompt.member, prompt.hand_id, prompt.turn, option.command)
    await h.service.deal(h.key, h.members["Ann"])
    live = h.service.table(h.key).hand
    assert live is not None and 301 in live.members
    assert not cid.waiting
    assert "waiting" not in (await store.get_table(table.table_id)).settings
