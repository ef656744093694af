"""Logging for ``wildstud run``, and keeping secrets out of it.

Secrets stay secret in logs at every level, ``LOG_LEVEL=DEBUG`` included: no log line may carry a
deck order, a salt, a down card or an opening. Wildstud's own code never logs them. The libraries
under it do at DEBUG: aiosqlite logs every statement with its parameters (a hand's deck and salt),
discord.py logs request and response bodies and every gateway event (private cards, openings,
ephemeral answers). So below INFO only Wildstud's own loggers (``bot``, ``cogs``) are heard:
every third-party logger is raised to INFO at least, and a filter on each of the root logger's
handlers drops any third-party record below INFO that reaches it all the same (a logger someone
lowered again, a library that logs through a child logger of its own).
"""

from __future__ import annotations

import logging

OWN_LOGGERS = ("bot", "cogs")
"""Wildstud's loggers: the only ones heard below INFO."""

LIBRARY_LOGGERS = ("aiosqlite", "asyncpg", "discord", "aiohttp", "websockets", "PIL", "asyncio")
"""Libraries whose DEBUG output may carry a secret (or is noise); raised to INFO at least."""


class LibraryDebugFilter(logging.Filter):
    """Drops records below INFO from any logger that is not Wildstud's own."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno >= logging.INFO or record.name.split(".", 1)[0] in OWN_LOGGERS


def keep_secrets(root: logging.Logger | None = None) -> None:
    """Quiet the libraries' DEBUG output (see the module docstring): add the filter to every
    handler of ``root`` (default: the root logger) and raise the library loggers to INFO at least.
    Call it after the handlers are set up. Idempotent."""
    root = root or logging.getLogger()
    for handler in root.handlers:
        if not any(isinstance(f, LibraryDebugFilter) for f in handler.filters):
            handler.addFilter(LibraryDebugFilter())
    for name in LIBRARY_LOGGERS:
        logger = logging.getLogger(name)
        if logger.getEffectiveLevel() < logging.INFO:
            logger.setLevel(logging.INFO)
