"""The terminal's line reader outlives no event loop noisily: its stdin thread reads ahead, and a
line that arrives after the game's loop closed (input left over when the game ended) is dropped
and the thread ends, instead of raising "Event loop is closed" in the thread (pytest reported it as
an unhandled thread exception during whichever test ran next)."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from bot.console.terminal import LineReader


class Gated:
    """A stream whose second line comes only once ``release`` is set (a keyboard typed late)."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.lines = ["first\n", "late\n"]

    def readline(self) -> str:
        if len(self.lines) == 1:
            self.release.wait(10)
        return self.lines.pop(0) if self.lines else ""


def test_a_line_typed_after_the_loop_closed_ends_the_reader_quietly() -> None:
    stream = Gated()
    reader = LineReader(stream)  # type: ignore[arg-type]
    assert asyncio.run(reader.read()) == "first"            # the game reads one line and ends
    failures: list[Any] = []
    hook = threading.excepthook
    threading.excepthook = failures.append
    try:
        stream.release.set()                                 # the next line comes after the loop
        thread = reader._thread
        assert thread is not None
        thread.join(10)
        assert not thread.is_alive()
    finally:
        threading.excepthook = hook
    assert not failures, [f.exc_value for f in failures]
