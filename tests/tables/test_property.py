"""Random table sessions: whatever players do (random legal actions, leaving, sitting out, coming
back, restarts), chips are conserved and the store's audit stays green."""

from __future__ import annotations

import asyncio
import random
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.betting.stakes import PRESETS
from bot.engine.errors import IllegalAction
from bot.store import Store
from tests.tables.helpers import Harness


async def session(seed: int, players: int, hands: int, folder: Path) -> None:
    rng = random.Random(seed)
    db = folder / f"s{seed}.sqlite3"
    store = await Store.open(db)
    try:
        h = Harness(store, db, rng=random.Random(seed))
        await h.table(*[(f"P{i}", rng.choice([40, 100, 400])) for i in range(players)],
                      stakes=PRESETS["micro"])
        members = list(h.members.values())
        for _ in range(hands):
            for member in members:                      # between hands: random seat changes
                roll = rng.random()
                try:
                    if roll < 0.1:
                        await h.service.sit_out(h.key, member)
                    elif roll < 0.4:
                        await h.service.back(h.key, member)
                except IllegalAction:
                    pass
            try:
                await h.service.deal(h.key, members[0])
            except IllegalAction:
                continue
            while h.service.table(h.key).hand is not None:
                prompt = h.prompt()
                if rng.random() < 0.03:                   # someone leaves in the middle of the hand
                    try:
                        await h.service.leave(h.key, rng.choice(members))
                    except IllegalAction:                 # already gone
                        pass
                    continue
                option = rng.choice(prompt.options)
                await h.service.act(h.key, prompt.member, prompt.hand_id, prompt.turn, option.action,
                                    option.amount)
        report = await store.audit()
        assert report.ok, report.all_problems()
        table_id = h.service.table(h.key).table_id
        seated = sum(s.stack for s in await store.seats(table_id))
        banked = sum([await store.balance(h.key.guild, m) for m in members])
        assert seated + banked == 1000 * players          # every member started with 1,000
    finally:
        await store.close()


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.integers(2, 6), st.integers(1, 4))
def test_random_sessions_conserve_chips(seed: int, players: int, hands: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(session(seed, players, hands, Path(folder)))
