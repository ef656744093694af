"""The injectable clocks: the fake one tests use, and the real one on the event loop."""

from __future__ import annotations

import asyncio

from bot.tables.clock import FakeClock, LoopClock


async def test_fake_clock_runs_due_callbacks_in_time_order_and_skips_cancelled() -> None:
    clock = FakeClock()
    ran: list[str] = []

    def note(label: str):  # type: ignore[no-untyped-def]
        async def callback() -> None:
            ran.append(f"{label}@{clock.now():g}")
            if label == "a":
                clock.call_later(1, note("a2"))        # scheduled inside the span: runs too
        return callback

    clock.call_later(5, note("b"))
    clock.call_later(3, note("a"))
    cancelled = clock.call_later(4, note("x"))
    cancelled.cancel()
    clock.call_later(5, note("c"))                     # same time as b: scheduling order
    assert clock.pending == 4 - 1
    await clock.advance(10)
    assert ran == ["a@3", "a2@4", "b@5", "c@5"]
    assert clock.now() == 10 and clock.pending == 0


async def test_loop_clock_runs_a_callback_on_the_event_loop() -> None:
    clock = LoopClock()
    done = asyncio.Event()

    async def callback() -> None:
        done.set()

    clock.call_later(0, callback)
    await asyncio.wait_for(done.wait(), 10)
    cancelled = asyncio.Event()

    async def never() -> None:
        cancelled.set()

    clock.call_later(0, never).cancel()
    await asyncio.sleep(0.01)
    assert not cancelled.is_set()
