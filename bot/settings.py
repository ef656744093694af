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
``SHARD_COUNT``     (none)                                   total gateway shards: run as
                                                             ``AutoShardedBot`` (none: unsharded)
``SHARD_IDS``       all of ``0..SHARD_COUNT-1``              this process's shards: ``0-3``, ``0,2``
``TABLE_LEASE_SECONDS`` ``30``                               how long a table's lease lasts unrenewed
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
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    """This process's shards (None: all of them, or unsharded without ``shard_count``)."""
    lease_seconds: float = 30.0

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
    shard_count, shard_ids, lease_seconds = _shards(env)
    return Settings(
        discord_token=(env.get("DISCORD_TOKEN") or "").strip() or None,
        dev_guild_id=int(guild) if guild else None,
        database_path=Path((env.get("DATABASE_PATH") or "").strip() or DEFAULT_DATABASE_PATH),
        log_level=level,
        database_url=(env.get("DATABASE_URL") or "").strip() or None,
        shard_count=shard_count,
        shard_ids=shard_ids,
        lease_seconds=lease_seconds,
    )


def parse_shard_ids(text: str, count: int) -> tuple[int, ...]:
    """Shard ids from ``0-3``, ``0,2`` or ``4-7,9`` (ascending, no repeats), each below ``count``.

    >>> parse_shard_ids("0-2,5", 8)
    (0, 1, 2, 5)
    >>> parse_shard_ids("7-9", 8)
    Traceback (most recent call last):
    ...
    ValueError: SHARD_IDS must name shards 0 to 7 (SHARD_COUNT is 8), not '7-9'
    """
    ids: set[int] = set()
    for part in text.replace(" ", "").split(","):
        low, dash, high = part.partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise ValueError(f"SHARD_IDS is a list of shard numbers and ranges like 0-3,5, not {text!r}")
        first, last = int(low), int(high) if dash else int(low)
        if first > last or last >= count:
            raise ValueError(
                f"SHARD_IDS must name shards 0 to {count - 1} (SHARD_COUNT is {count}), not {text!r}"
            )
        ids.update(range(first, last + 1))
    return tuple(sorted(ids))


def _shards(env: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None, float]:
    """(``SHARD_COUNT``, ``SHARD_IDS``, ``TABLE_LEASE_SECONDS``), checked."""
    count_text = (env.get("SHARD_COUNT") or "").strip()
    ids_text = (env.get("SHARD_IDS") or "").strip()
    lease_text = (env.get("TABLE_LEASE_SECONDS") or "").strip()
    lease = 30.0
    if lease_text:
        try:
            lease = float(lease_text)
        except ValueError:
            lease = 0.0
        if not 1 <= lease <= 3600:
            raise ValueError(
                f"TABLE_LEASE_SECONDS must be a number of seconds from 1 to 3600, not {lease_text!r}"
            )
    if not count_text:
        if ids_text:
            raise ValueError("SHARD_IDS needs SHARD_COUNT (the total number of shards) too")
        return None, None, lease
    if not count_text.isdigit() or int(count_text) < 1:
        raise ValueError(f"SHARD_COUNT must be a whole number of shards, 1 or more, not {count_text!r}")
    count = int(count_text)
    return count, parse_shard_ids(ids_text, count) if ids_text else tuple(range(count)), lease


def database_path(environ: Mapping[str, str] | None = None) -> Path:
    """The ``DATABASE_PATH`` setting, with its folder created if missing."""
    path = load_settings(environ, dotenv=environ is None).database_path
    path.parent.mkdir(parents=True, exist_ok=True)
    return path
