"""Terminal plumbing for ``wildstud play``: styled output (colour only on a TTY) and a line reader
that never blocks the event loop, so Ctrl-C and end of input always leave cleanly.

>>> s = Style(color=False)
>>> s.bold("Hand #1"), s.dim("x")
('Hand #1', 'x')
>>> Style(color=True).bold("A")
'\\x1b[1mA\\x1b[0m'
"""

from __future__ import annotations

import asyncio
import os
import threading
from typing import TextIO

_CODES = {"bold": "1", "dim": "2", "red": "31", "green": "32", "yellow": "33", "blue": "34",
          "magenta": "35", "cyan": "36"}


def wants_color(stream: TextIO) -> bool:
    """Colour only for an interactive terminal, and never when ``NO_COLOR`` is set (no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class Style:
    """ANSI styles, or plain text when ``color`` is False (output piped to a file stays readable)."""

    def __init__(self, color: bool) -> None:
        self.color = color

    def _wrap(self, code: str, text: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.color and text else text

    def bold(self, text: str) -> str:
        return self._wrap(_CODES["bold"], text)

    def dim(self, text: str) -> str:
        return self._wrap(_CODES["dim"], text)

    def tint(self, name: str, text: str) -> str:
        """``text`` in the colour ``name`` (red, green, yellow, blue, magenta, cyan)."""
        return self._wrap(_CODES[name], text)


class LineReader:
    """Reads lines from ``stream`` on a daemon thread; ``await read()`` returns the next line
    (without its newline) or None at end of input. The event loop never blocks on the keyboard, so
    Ctrl-C cancels the game at once and the store is closed cleanly. The thread reads ahead; a line
    that comes after the loop closed ends it (the game is over, and the line is nobody's)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._queue: asyncio.Queue[str | None] | None = None
        self._thread: threading.Thread | None = None

    def _start(self) -> asyncio.Queue[str | None]:
        if self._queue is None:
            loop = asyncio.get_running_loop()
            queue: asyncio.Queue[str | None] = asyncio.Queue()
            self._queue = queue

            def pump() -> None:
                while True:
                    try:
                        line = self._stream.readline()
                    except (OSError, ValueError):
                        line = ""
                    item = line.rstrip("\r\n") if line else None
                    try:
                        loop.call_soon_threadsafe(queue.put_nowait, item)
                    except RuntimeError:     # the loop closed (the game is over): nobody reads on
                        return
                    if item is None:
                        return

            self._thread = threading.Thread(target=pump, name="wildstud-stdin", daemon=True)
            self._thread.start()
        return self._queue

    async def read(self) -> str | None:
        """The next line typed, or None at end of input (and for ever after)."""
        queue = self._start()
        line = await queue.get()
        if line is None:
            queue.put_nowait(None)  # stay at end of input
        return line
