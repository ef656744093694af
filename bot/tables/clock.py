"""Time for the table service: a clock that can schedule coroutines (SPEC §7 timers).

The table service never reads the wall clock or calls ``asyncio.sleep`` itself; it asks a
``Clock`` to run a coroutine function after a delay. ``LoopClock`` does it with the running
event loop; ``FakeClock`` does it when a test calls ``await clock.advance(seconds)``, so timer
tests never sleep and run in a fixed order.

A callback runs in a fresh ``contextvars`` context, never in the one of the code that armed it:
``loop.call_later`` would copy the arming context, and a timer armed while a click is answered
would carry the presenter's "answering this click" marker into the reminder or timeout (which
then pinged nobody, issue 17). Both clocks behave the same, so tests see what production does.

>>> import asyncio
>>> clock = FakeClock()
>>> fired: list[float] = []
>>> async def note() -> None:
...     fired.append(clock.now())
>>> handle = clock.call_later(30.0, note)
>>> asyncio.run(clock.advance(29.0)); fired
[]
>>> asyncio.run(clock.advance(1.0)); fired
[30.0]
"""

from __future__ import annotations

import asyncio
import contextvars
import heapq
import itertools
import logging
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

log = logging.getLogger(__name__)

Callback = Callable[[], Coroutine[Any, Any, None]]
"""A coroutine function with no arguments, run when a timer fires."""


class TimerHandle(Protocol):
    """A scheduled callback that can still be cancelled."""

    def cancel(self) -> None:
        """Stop the callback from running; harmless if it already ran or was cancelled."""


class Clock(Protocol):
    """Seconds since an arbitrary origin, plus scheduling of coroutine callbacks."""

    def now(self) -> float:
        """Current time in seconds (monotonic)."""

    def call_later(self, delay: float, callback: Callback) -> TimerHandle:
        """Run ``await callback()`` once, ``delay`` seconds from now, in a fresh context (no context
        variable of the caller); returns a cancellable handle."""


class _LoopHandle:
    __slots__ = ("_handle", "_task")

    def __init__(self) -> None:
        self._handle: asyncio.TimerHandle | None = None
        self._task: asyncio.Task[None] | None = None

    def cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
        # A callback already running is not interrupted: the table service re-checks the hand
        # and turn under the table lock, so a late timer changes nothing.


class LoopClock:
    """The real clock: ``loop.time()`` and ``loop.call_later`` of the running event loop.

    Exceptions raised by callbacks are logged, never lost silently.
    """

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    def call_later(self, delay: float, callback: Callback) -> TimerHandle:
        loop = asyncio.get_running_loop()
        handle = _LoopHandle()

        def start() -> None:
            task = loop.create_task(_run_logged(callback))
            handle._task = task
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        # A fresh context for the callback and the task it starts (create_task copies the current
        # one, which inside ``start`` is this empty context).
        handle._handle = loop.call_later(max(0.0, delay), start, context=contextvars.Context())
        return handle


async def _run_logged(callback: Callback) -> None:
    try:
        await callback()
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("timer callback failed")


class _FakeHandle:
    __slots__ = ("cancelled",)

    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class FakeClock:
    """A clock for tests: time moves only when ``advance`` is awaited.

    Callbacks due within the advanced span run in time order (ties in scheduling order), each
    awaited to completion before the next; callbacks they schedule inside the span run too.
    Exceptions from callbacks propagate to the test.
    """

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._queue: list[tuple[float, int, _FakeHandle, Callback]] = []
        self._counter = itertools.count()

    def now(self) -> float:
        return self._now

    def call_later(self, delay: float, callback: Callback) -> TimerHandle:
        handle = _FakeHandle()
        heapq.heappush(self._queue, (self._now + max(0.0, delay), next(self._counter), handle, callback))
        return handle

    @property
    def pending(self) -> int:
        """How many scheduled callbacks have neither run nor been cancelled."""
        return sum(1 for _, _, h, _ in self._queue if not h.cancelled)

    def next_due(self) -> float | None:
        """Time of the earliest live callback, or None."""
        live = [when for when, _, h, _ in self._queue if not h.cancelled]
        return min(live) if live else None

    async def advance(self, seconds: float) -> None:
        """Move time forward by ``seconds``, running every callback that falls due."""
        target = self._now + seconds
        while self._queue and self._queue[0][0] <= target:
            when, _, handle, callback = heapq.heappop(self._queue)
            if handle.cancelled:
                continue
            self._now = max(self._now, when)
            handle.cancelled = True
            # As LoopClock: the callback sees none of the context variables of whoever armed it
            # (nor of the test advancing the clock).
            await asyncio.get_running_loop().create_task(callback(), context=contextvars.Context())
        self._now = target
