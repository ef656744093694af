"""Settings from the environment, and from a ``.env`` file found from the current directory up.

Variables set in the real environment win over ``.env`` (python-dotenv's ``override=False``);
``.env`` is looked up from the working directory (``find_dotenv(usecwd=True)``), not from this
file's folder, so an installed package still finds the project's ``.env``.

==================  =======================================  ======================================
variable            default                                  meaning
==================  =======================================  ======================================
``DISCORD_TOKEN``   (none)                                   the bot token (needed by ``run`` only)
``DEV_GUILD_ID``    (none)                                   a guild to copy slash commands to
``DATABASE_PATH``   ``./data/wildstud.sqlite3``              the SQLite file (relative to the cwd)
``DATABASE_URL``    (none)                                   ``postgresql://...`` (or ``sqlite:PATH``);
                                                             wins over ``DATABASE_PATH`` when set
``LOG_LEVEL``       ``INFO``                                 logging level name
==================  =======================================  ======================================

>>> s = load_settings({"DATABASE_PATH": "/tmp/x.sqlite3", "DEV_GUILD_ID": "42"}, dotenv=False)
>>> (str(s.database_path), s.dev_guild_id, s.log_level, s.discord_token)
('/tmp/x.sqlite3', 42, 'INFO', None)
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from dotenv import find_dotenv, load_dotenv

DEFAULT_DATABASE_PATH = Path("data") / "wildstud.sqlite3"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
"""The names ``LOG_LEVEL`` accepts (any case)."""


@dataclass(frozen=True)
class Settings:
    """The process's settings (see the module docstring for the variables)."""

    discord_token: str | None
    dev_guild_id: int | None
    database_path: Path
    log_level: str
    database_url: str | None = None

    @property
    def database(self) -> str | Path:
        """The database the store opens: ``DATABASE_URL`` if set, else ``DATABASE_PATH``."""
        return self.database_url if self.database_url is not None else self.database_path


def load_settings(environ: Mapping[str, str] | None = None, *, dotenv: bool = True) -> Settings:
    """Read the settings from ``environ`` (default ``os.environ``, after loading ``.env`` when
    ``dotenv`` is true). Raises ``ValueError`` if ``DEV_GUILD_ID`` is not a number or ``LOG_LEVEL`` is not a
    logging level name."""
    if dotenv:
        load_dotenv(find_dotenv(usecwd=True))
    env = os.environ if environ is None else environ
    guild = (env.get("DEV_GUILD_ID") or "").strip()
    if guild and not guild.isdigit():
        raise ValueError(f"DEV_GUILD_ID must be a number, not {guild!r}")
    level = (env.get("LOG_LEVEL") or "").strip().upper() or "INFO"
    if level not in LOG_LEVELS:
        raise ValueError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level!r}")
    return Settings(
        discord_token=(env.get("DISCORD_TOKEN") or "").strip() or None,
        dev_guild_id=int(guild) if guild else None,
        database_path=Path((env.get("DATABASE_PATH") or "").strip() or DEFAULT_DATABASE_PATH),
        log_level=level,
        database_url=(env.get("DATABASE_URL") or "").strip() or None,
    )


def database_path(environ: Mapping[str, str] | None = None) -> Path:
    """The ``DATABASE_PATH`` setting, with its folder created if missing."""
    path = load_settings(environ, dotenv=environ is None).database_path
    path.parent.mkdir(parents=True, exist_ok=True)
    return path
