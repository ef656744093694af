"""The replay message's layout (``bot.discord.ui.replay.replay_layout``) without Discord: what each
step holds with the guild's look set to pictures or to text, and the buttons' targets."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.discord.ui.replay import replay_layout
from bot.discord.ui.table import picture_files
from bot.render.table import format_table
from bot.render.views import table_view
from bot.store import Store
from bot.tables.replays import HandReplay, stored_replay
from tests.tables.helpers import Harness
from tests.tables.test_secrecy import SHORT


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "ws.sqlite3"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[Store]:
    async with await Store.open(db_path) as opened:
        yield opened


def _components(layout: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []

    def walk(items: list[dict[str, Any]]) -> None:
        for item in items:
            out.append(item)
            walk(item.get("components", []))
            walk(item.get("items", []))

    walk(layout.view.to_components())
    return out


async def _replay(store: Store, db_path: Path, member_index: int | None) -> HandReplay:
    h = Harness(store, db_path, rng=random.Random(4))
    await h.table(("Ann", 400), ("Bea", 400), ("Cid", 400), stakes=SHORT)
    hand_id = await h.service.deal(h.key, h.members["Ann"])
    assert hand_id is not None
    await h.passive()
    member = 999 if member_index is None else list(h.members.values())[member_index]
    return await stored_replay(store, await store.get_hand(hand_id), member)


async def test_text_look_draws_the_text_table_and_uploads_nothing(store: Store, db_path: Path) -> None:
    replay = await _replay(store, db_path, 0)
    for step in (0, replay.last):
        layout = replay_layout(replay, step, look="text")
        texts = [c["content"] for c in _components(layout) if c.get("type") == 10]
        assert not picture_files(layout)
        assert any(format_table(table_view(replay.steps[step].snapshot)) in t for t in texts)
        assert any(t.startswith(f"Hand #{replay.hand_no}, ") for t in texts)      # their own cards
        assert sum(len(t) for t in texts) <= 4000                                # Discord's limit


async def test_buttons_carry_hand_member_and_target_step(store: Store, db_path: Path) -> None:
    replay = await _replay(store, db_path, 1)
    middle = replay.last // 2
    layout = replay_layout(replay, middle)
    buttons = {c["label"]: c for c in _components(layout) if c.get("type") == 2}
    prefix = f"ws:step:{replay.hand_id}:{replay.member}:"
    assert buttons["◀ Back"]["custom_id"] == f"{prefix}{middle - 1}:back"
    assert buttons["Next ▶"]["custom_id"] == f"{prefix}{middle + 1}:next"
    assert buttons["Street ⏭"]["custom_id"] == f"{prefix}{replay.street_after(middle)}:street"
    assert not any(b.get("disabled") for b in buttons.values())
    assert [f.filename for f in picture_files(layout)] == ["table.png", "hand.png"]
    first = {c["label"]: c for c in _components(replay_layout(replay, 0)) if c.get("type") == 2}
    last = {c["label"]: c for c in _components(replay_layout(replay, replay.last)) if c.get("type") == 2}
    assert first["◀ Back"].get("disabled") and not first["Next ▶"].get("disabled")
    assert last["Next ▶"].get("disabled") and last["Street ⏭"].get("disabled")


async def test_a_spectator_gets_the_table_picture_only(store: Store, db_path: Path) -> None:
    replay = await _replay(store, db_path, None)
    assert replay.seat is None and all(step.own is None for step in replay.steps)
    layout = replay_layout(replay, replay.last)
    assert [f.filename for f in picture_files(layout)] == ["table.png"]
    assert any("you were not dealt in" in c.get("content", "") for c in _components(layout))


async def test_a_baseball_hand_with_an_eighth_card_lays_out_every_step(store: Store, db_path: Path) -> None:
    # Seed 1 deals a four face up to a player, who gets an extra card: eight cards in their hand.
    h = Harness(store, db_path, rng=random.Random(1))
    await h.table(("Ann", 400), ("Bea", 400), ("Cid", 400), stakes=SHORT)
    await h.service.set_game(h.key, h.members["Ann"], "baseball")
    hand_id = await h.service.deal(h.key, h.members["Ann"])
    live = h.service.table(h.key).hand
    assert hand_id is not None and live is not None
    await h.passive()
    assert max(len(live.engine.cards(s)) for s in range(3)) == 8
    record = await store.get_hand(hand_id)
    for member in live.members:
        replay = await stored_replay(store, record, member)
        for step in range(len(replay.steps)):
            for look in ("pictures", "pictures-two-colour"):
                layout = replay_layout(replay, step, look=look)
                assert [f.filename for f in picture_files(layout)] == ["table.png", "hand.png"]
