"""The click router (``bot.discord.clicks``): every control of Wildstud is routed by its custom_id,
one callback per click, and discord.py keeps no copy of the views that show them (it would rebuild
the table message's whole view on every click and walk it on every edit)."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path
from typing import Any

import discord

import bot.discord.ui as ui
from bot.discord.ui.base import TableButton
from bot.tables.notices import TableKey
from tests.discord.helpers import new_bot, open_table, play_passively
from tests.fakediscord import FakeDiscord, start_bot
from tests.fakediscord.models import iter_components


def _controls() -> set[type[Any]]:
    """Every DynamicItem class the UI package defines (the template base excepted)."""
    for info in pkgutil.iter_modules(ui.__path__):
        importlib.import_module(f"{ui.__name__}.{info.name}")
    found: set[type[Any]] = set()
    todo: list[type[Any]] = [discord.ui.DynamicItem]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            if sub.__module__.startswith(ui.__name__) and sub is not TableButton:
                found.add(sub)
    return found


async def test_every_control_is_routed_and_discord_py_keeps_no_view(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    controls = _controls()
    assert len(controls) >= 12
    # A control left out of the router would only work while discord.py happened to hold a view
    # with it (the void's buttons did, until a restart).
    assert set(bot.clicks.controls) == controls

    guild = fake.guild()
    alice, bob, carol = (guild.member(n) for n in ("alice", "bob", "carol"))
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice, bob, carol])
    deal = await fake.click(alice, fake.last_message(poker), label="Deal")
    assert deal.response_type == 7
    await play_passively(fake, guild, poker, 1)
    # A private answer with controls (the replay: an interaction's message), stepped once.
    (summary,) = [m for m in fake.channel_messages(poker) if "Replay" in m.button_labels]
    opened = await fake.click(bob, summary, label="Replay")
    assert opened.response_type == 4 and opened.original is not None
    step = await fake.click(bob, opened.original, label="Next ▶")
    assert step.response_type == 7 and not step.rejected, step.text
    # discord.py stored none of the views sent or edited in: no dynamic item of ours is registered
    # with it (each click would then reach two callbacks), and no view is walked on each edit.
    store = bot._connection._view_store
    assert not store._dynamic_items
    assert not store._views
    assert not store._synced_message_views


async def test_a_junk_custom_id_is_answered_and_changes_nothing(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    assert bot.clicks.control_for("ws:act:1:2:3:check") is not None
    assert bot.clicks.control_for("ws:nothing:1") is None
    assert bot.clicks.control_for("not ours") is None


async def test_a_control_no_longer_known_on_the_message_is_answered(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """A button the message shows whose custom_id no control has any more (an older release's
    format): answered, privately, with that reason (it went unanswered: "This interaction failed")."""
    fake = fake_discord
    bot = new_bot(tmp_path / "ws.sqlite3")
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob = guild.member("alice"), guild.member("bob")
    poker = guild.channel("poker")
    table = await open_table(fake, alice, poker, [alice, bob])
    join = next(c for c in iter_components(table.components)
                if str(c.get("custom_id", "")).startswith("ws:join:"))
    join["custom_id"] = "ws:sit:1"
    key = TableKey(guild.id, poker.id)
    before = bot.service.snapshot(key)
    res = await fake.click(bob, table, custom_id="ws:sit:1")
    assert res.ephemeral and "older version of Wildstud" in res.text
    assert bot.service.snapshot(key) == before
