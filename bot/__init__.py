"""Wildstud: a dealer bot for home poker games on Discord.

Layers (dependencies point inwards):

* :mod:`bot.engine` -- pure, deterministic game engine (no I/O, no asyncio, no discord).
* :mod:`bot.store` -- the only code that speaks SQL (aiosqlite, or asyncpg for PostgreSQL).
* :mod:`bot.tables` -- the table service shared by the Discord cogs and the terminal.
* :mod:`bot.render` -- engine state as text, shared by every front end.
"""

__version__ = "0.1.0"
