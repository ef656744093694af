"""A slow Discord never holds a table (issue 20): the table moves on while an update is still being
drawn, the updates go out in order, and one already followed by a newer one is not drawn on the
table message (the newest is), while every click is still answered."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from bot.tables.clock import FakeClock
from bot.tables.notices import TableKey, Update
from tests.discord.helpers import current_prompt, label_starting, new_bot, open_table, prompted_member
from tests.fakediscord import FakeDiscord, start_bot


async def test_timers_move_the_table_while_discord_is_slow_and_the_newest_table_is_drawn(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    clock = FakeClock()
    bot = new_bot(tmp_path / "ws.sqlite3", clock=clock)
    await start_bot(bot, fake)
    guild = fake.guild()
    players = [guild.member(n) for n in ("alice", "bob", "carol", "owner")]
    poker = guild.channel("poker")
    await open_table(fake, players[0], poker, players, timer=30)
    await fake.slash(players[0], "table deal", channel=poker)
    key = TableKey(guild.id, poker.id)

    # Discord answers slowly: the first update after this point is held until the gate opens.
    gate = asyncio.Event()
    seen: list[Update] = []
    real = bot.presenter.update

    async def slow(table: TableKey, update: Update) -> None:
        seen.append(update)
        if len(seen) == 1:
            await gate.wait()
        await real(table, update)

    bot.presenter.update = slow  # type: ignore[method-assign]

    first = current_prompt(fake, poker)
    click = await fake.click(prompted_member(guild, first), first,
                             label=label_starting(first, "Bring-in") or "", wait=False)
    await fake.wait_for(lambda: len(seen) == 1, what="the click's update at the presenter")
    ticks: list[asyncio.Task[None]] = []

    async def tick() -> None:
        """Fifteen seconds pass (a reminder, or a timeout); the clock waits for that update, which
        waits behind the slow one, so the next tick runs beside it."""
        now = clock.now()
        ticks.append(asyncio.create_task(clock.advance(15)))
        await fake.wait_for(lambda: clock.now() >= now + 15, what="the clock to move")

    turn = bot.service.current_prompt(key)
    assert turn is not None
    # Two turns time out meanwhile (each after its reminder): the table is not held by the update
    # Discord is slow to take.
    for _ in range(4):
        await tick()
    await fake.wait_for(lambda: (p := bot.service.current_prompt(key)) is not None
                        and p.turn == turn.turn + 2, what="both timeouts applied while Discord is slow")
    last = bot.service.current_prompt(key)
    assert last is not None and len(seen) == 1 and not click.callbacks
    table_id = current_prompt(fake, poker).id
    versions = len(fake.messages[table_id].history)

    gate.set()
    await asyncio.gather(*ticks)
    await fake.settle()
    await click.wait_response()
    # In order: the click's update, then a reminder, a timeout, a reminder and a timeout; each
    # of the middle three found a newer one already made, so only the last one's table is drawn.
    assert [u.number for u in seen] == sorted(u.number for u in seen) and len(seen) == 5
    assert [u.superseded for u in seen] == [False, True, True, True, False]
    assert click.response_type == 7 and not click.rejected       # the click is answered, drawing the table
    table = fake.messages[table_id]
    # Drawn twice: in the click's answer, then the newest table (the first timeout's is skipped).
    assert len(table.history) == versions + 2
    assert re.search(rf"<@{last.member}> to act", table.text), table.text
