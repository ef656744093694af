"""Hand replays (issue 24): random finished hands of every game, played through the table service,
then replayed from the store for each player and for a spectator.

* Each step's snapshot equals the snapshot the table service produced at that point of the live
  hand (the ``TABLE`` notices the recording presenter kept, one after the deal and one after each
  action), field for field, so the picture and the text table drawn from it are the ones the
  channel saw.
* Each player's own cards at each step are what their private messages said when a street was
  dealt (the same cards, best hand and text, without the openings).
* No step holds a card the member could not see at that point: every card in the snapshot data,
  the own cards, the step's lines, the text table and the pictures' alt text is worked out here
  from the engine at that step: an up card, the community or an indicator card, a card of a wild's
  origin, a down card of a hand shown (or turned face up when betting closed), or the member's own
  down card. So nothing folded or mucked, and nothing dealt later.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.log import Action
from bot.render.pictures import hand_alt, table_alt
from bot.render.scenes import hand_picture, table_picture
from bot.render.table import format_table
from bot.render.views import Phase, TableSnapshot, table_view
from bot.store import Store
from bot.tables.errors import TableError
from bot.tables.games import dealable_games
from bot.tables.notices import NoticeKind, PrivateNotice
from bot.tables.replays import HandReplay, ReplayStep, stored_replay
from bot.tables.reveal import stored_steps
from tests.tables.helpers import Card, Harness
from tests.tables.test_secrecy import SHORT, card_tokens

SPECTATOR = 999


def snapshot_cards(snap: TableSnapshot) -> set[Card]:
    """Every card a snapshot carries as data."""
    cards = {c for seat in snap.seats for c in seat.up}
    cards |= {c for board in snap.boards for c in board}
    if snap.community is not None:
        cards.add(snap.community)
    for ev in snap.wild_events:
        cards |= {ev.five, ev.follow_card}
    return cards


def step_cards(step: ReplayStep) -> set[Card]:
    """Every card a step shows, as data and in every text made from it."""
    cards = snapshot_cards(step.snapshot)
    texts = [*step.lines, format_table(table_view(step.snapshot))]
    picture = table_picture(step.snapshot)
    if picture is not None:
        texts.append(table_alt(picture))
    if step.own is not None:
        own = step.own
        cards |= set(own.down_cards) | set(own.up_cards)
        texts.append(own.text)
        texts.append(hand_alt(hand_picture(own, step.snapshot.hand_no, step.snapshot.wild_events)))
    for text in texts:
        cards |= card_tokens(text)
    return cards


def shown_at_showdown(engine: Any) -> set[int]:
    """The seats that showed their hand at the showdown so far (the engine's log)."""
    return {e.seat for e in engine.log if isinstance(e, Action) and e.action == "show"}


def may_see(engine: Any, seat: int | None) -> set[Card]:
    """What the member at engine ``seat`` (None: a spectator) may see of the hand so far, worked
    out from the engine's deal: every up card (folded seats' too: they were dealt face up), the
    community and indicator cards, a flop game's board as dealt so far, the cards of the wilds'
    origins, the down cards of every hand shown so far or turned face up when betting closed, and
    their own down cards."""
    cards = {c for s in range(engine.seat_count) for c in engine.up_cards(s)}
    cards |= set(engine.board)
    if engine.community_card is not None:
        cards.add(engine.community_card)
    cards |= set(engine.indicator_cards)
    for ev in engine.wild_events:
        cards |= {ev.five, ev.follow_card}
    shown = shown_at_showdown(engine)
    if engine.betting_closed and len(engine.live_seats) >= 2:
        shown |= set(engine.live_seats)
    for s in shown:
        cards |= set(engine.down_cards(s))
    if seat is not None:
        cards |= set(engine.down_cards(seat))
    return cards


async def play_and_replay(seed: int, game: str, players: int, choices: list[int],
                          automuck: bool = False) -> set[str]:
    """Play one random hand of ``game`` (``choices`` pick each prompt's option; a range wager takes
    its smallest amount; ``automuck``: every player mucks a beaten hand unasked), then check every
    member's replay and a spectator's (see the module docstring). Returns what the hand met
    (``fold``, ``showdown``, ``muck``)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "ws.sqlite3"
        async with await Store.open(path) as store:
            h = Harness(store, path, rng=random.Random(seed))
            names = ["Ann", "Bea", "Cid", "Dee", "Eve"][:players]
            await h.table(*((n, 400) for n in names), stakes=SHORT)
            await h.service.set_game(h.key, h.members["Ann"], game)
            for name in names if automuck else ():
                await h.service.set_automuck(h.key, h.members[name], True)
            hand_id = await h.service.deal(h.key, h.members["Ann"])
            assert hand_id is not None
            live = h.service.table(h.key).hand
            assert live is not None
            engine = live.engine
            turn = 0
            while h.service.table(h.key).hand is not None:
                prompt = h.prompt()
                pick = prompt.options[choices[turn % len(choices)] % len(prompt.options)]
                turn += 1
                assert turn < 200
                amount = pick.min_to if pick.needs_amount else pick.amount
                if pick.cards:                      # Crazy Pineapple's discard names its card
                    await h.service.act(h.key, prompt.member, prompt.hand_id, prompt.turn, pick.command)
                    continue
                await h.act(prompt.name, pick.action, amount)
            result = engine.result
            assert result is not None
            seen = [n.snapshot for n in h.rec.public(h.key, NoticeKind.TABLE)
                    if n.snapshot is not None and n.snapshot.hand_id == hand_id]
            record = await store.get_hand(hand_id)
            assert len(seen) == len(record.actions), "one table snapshot after the deal and each action"
            for member in (*live.members, SPECTATOR):
                replay = await stored_replay(store, record, member)
                check_replay(replay, record, seen, h.rec.privates(h.key, member), member,
                             list(live.members))
            met = {"showdown"} if result.showdown else set()
            if result.mucked:
                met.add("muck")
            if any(engine.folded(s) for s in range(players)):
                met.add("fold")
            return met


def check_replay(replay: HandReplay, record: object, seen: list[TableSnapshot], privates: list[PrivateNotice],
                 member: int, members: list[int]) -> None:
    seat = members.index(member) if member in members else None
    assert replay.seat == seat
    # The same frozen snapshots the table service produced during the hand, field for field.
    assert [step.snapshot for step in replay.steps] == seen
    assert replay.steps[-1].snapshot.phase is Phase.OVER
    assert all(step.snapshot.phase is Phase.IN_HAND for step in replay.steps[:-1])
    # Their own cards: each private message they got during the hand is one of the steps' own view.
    owns = [step.own for step in replay.steps]
    if seat is None:
        assert owns == [None] * len(owns) and not privates
    for notice in privates:
        assert any(
            own is not None and (own.street, own.down_cards, own.up_cards, own.best, own.wild_ranks)
            == (notice.street, notice.down_cards, notice.up_cards, notice.best, notice.wild_ranks)
            and notice.text.startswith(own.text)
            for own in owns
        ), notice.text
    # Nothing they could not see at that point, in any step: worked out from the engine replayed
    # to the same point (the same stored rebuild the replay walks), not from the snapshot builder
    # under test. Every stored step is checked (the replay may add show steps after them); the
    # rebuild advances one engine, so it is walked in step with the replay.
    checked = 0
    for step, (engine, order, *_rest) in zip(replay.steps, stored_steps(record), strict=False):  # type: ignore[arg-type]
        checked += 1
        leaked = step_cards(step) - may_see(engine, seat)
        assert not leaked, (member, step.lines, leaked)
        # And everyone's shown cards are there: a hand shown at the showdown is face up on the
        # table from the step it was shown on.
        seats = {s.seat_no: s for s in step.snapshot.seats}
        for shown in shown_at_showdown(engine):
            assert seats[order[shown]].up == engine.cards(shown), (step.lines, seats[order[shown]])
    assert checked == sum(1 for _ in stored_steps(record)) <= len(replay.steps)


GAME_NAMES = sorted(dealable_games())


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(GAME_NAMES), st.integers(2, 5),
       st.lists(st.integers(0, 7), min_size=1, max_size=12), st.booleans())
def test_replay_steps_are_the_live_snapshots_and_hide_what_the_member_did_not_see(
    seed: int, game: str, players: int, choices: list[int], automuck: bool
) -> None:
    asyncio.run(play_and_replay(seed, game, players, choices, automuck))


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_game_replays_with_folds_and_showdowns(game: str) -> None:
    # Seeded hands of each game until a fold and a showdown have each been replayed (every other one
    # with auto-muck on, so beaten hands are mucked where the game has them).
    met: set[str] = set()
    for seed in range(40):
        rng = random.Random(seed)
        choices = [rng.randint(0, 7) for _ in range(10)]
        met |= asyncio.run(play_and_replay(seed, game, rng.randint(2, 5), choices, seed % 2 == 1))
        if met >= {"fold", "showdown"}:
            break
    assert met >= {"fold", "showdown"}, (game, met)


def test_mucked_hands_replay_without_their_cards() -> None:
    # Seeded seven-card stud hands with auto-muck until one had a hand mucked at the showdown.
    for seed in range(60):
        rng = random.Random(seed)
        choices = [rng.choice([1, 2]) for _ in range(10)]     # check/call mostly: showdowns come
        if "muck" in asyncio.run(play_and_replay(seed, "seven-card-stud", 4, choices, True)):
            return
    raise AssertionError("no hand was mucked")


async def test_street_jumps_and_refusals(store: Store, db_path: Path) -> None:
    h = Harness(store, db_path, rng=random.Random(3))
    await h.table(("Ann", 400), ("Bea", 400), stakes=SHORT)
    hand_id = await h.service.deal(h.key, h.members["Ann"])
    assert hand_id is not None
    record = await store.get_hand(hand_id)
    with pytest.raises(TableError, match="not finished"):
        await stored_replay(store, record, h.members["Ann"])
    await h.passive()
    replay = await stored_replay(store, await store.get_hand(hand_id), h.members["Ann"])
    streets = [step.street for step in replay.steps]
    assert streets == sorted(streets) and streets[0] == 3 and streets[-1] == 7
    firsts = [streets.index(s) for s in sorted(set(streets))]
    # "Street" lands on the first step of each street in turn, then on the last step, then nowhere.
    at, visited = 0, [0]
    while (at := replay.street_after(at)) is not None:   # type: ignore[assignment]
        visited.append(at)
    assert visited == ([*firsts, replay.last] if firsts[-1] != replay.last else firsts)
