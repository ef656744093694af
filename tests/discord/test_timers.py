"""Timers at a Discord table (issue 17): a turn moved by a timer pings the next player, a reminder
pings, and the timed-out player's ping goes, even when the timer was armed while a click was being
answered (the timer must not inherit the click's context)."""

from __future__ import annotations

import asyncio
import contextvars
import re
from pathlib import Path

from bot.tables.clock import FakeClock, LoopClock
from tests.discord.helpers import (
    current_prompt,
    label_starting,
    new_bot,
    open_table,
    pings,
    prompted_member,
)
from tests.fakediscord import FakeDiscord, start_bot

_MARK: contextvars.ContextVar[str | None] = contextvars.ContextVar("mark", default=None)


async def test_loop_clock_runs_a_timer_in_a_fresh_context() -> None:
    clock = LoopClock()
    seen: list[str | None] = []
    done = asyncio.Event()

    async def fire() -> None:
        seen.append(_MARK.get())
        done.set()

    token = _MARK.set("answering a click")
    try:
        clock.call_later(0.0, fire)
    finally:
        _MARK.reset(token)
    await asyncio.wait_for(done.wait(), 5)
    assert seen == [None]


async def test_fake_clock_runs_a_timer_in_a_fresh_context() -> None:
    clock = FakeClock()
    seen: list[str | None] = []

    async def fire() -> None:
        seen.append(_MARK.get())

    _MARK.set("armed here")
    clock.call_later(1.0, fire)
    await clock.advance(1.0)
    assert seen == [None]


async def test_a_timeout_armed_by_a_click_pings_the_next_player(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    clock = FakeClock()
    bot = new_bot(tmp_path / "ws.sqlite3", clock=clock)
    await start_bot(bot, fake)
    guild = fake.guild()
    alice, bob, carol = (guild.member(n) for n in ("alice", "bob", "carol"))
    poker = guild.channel("poker")
    await open_table(fake, alice, poker, [alice, bob, carol], timer=30)
    await fake.slash(alice, "table deal", channel=poker)

    # The bring-in is posted by a click: the next player's timers are armed while it is answered.
    first = current_prompt(fake, poker)
    await fake.click(prompted_member(guild, first), first, label=label_starting(first, "Bring-in") or "")
    slow = prompted_member(guild, current_prompt(fake, poker))
    assert [p.content.split()[0] for p in pings(fake, poker)] == [f"<@{slow.id}>"]

    table = current_prompt(fake, poker)
    # The countdown is Discord's relative timestamp (live on every client), not frozen text.
    assert re.search(rf"<@{slow.id}> to act · .*time's up <t:\d+:R>", table.text), table.text
    mark = len(fake.requests)
    await clock.advance(15)  # the reminder, at half the time
    # The table message did not change, so it is not edited (its picture not uploaded again).
    edits = [r for r in fake.requests[mark:] if r.method == "PATCH" and str(table.id) in r.path]
    assert edits == [], [(r.method, r.path) for r in edits]
    (reminder,) = pings(fake, poker)
    assert reminder.content.startswith(f"<@{slow.id}> reminder: your turn"), reminder.content

    await clock.advance(15)  # the timeout folds the slow player and moves the turn
    after = prompted_member(guild, current_prompt(fake, poker))
    assert after.id != slow.id
    (ping,) = pings(fake, poker)   # the timed-out player's ping is gone, the next one's is there
    assert ping.content.startswith(f"<@{after.id}> your turn"), ping.content
