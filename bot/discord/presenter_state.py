"""What the Discord presenter remembers per table, in memory only: the table message and what it
shows, the ping in the channel, each hand's notes for its summary (``_TableState``, ``_Ping``,
``_HandNotes``), the interaction answering an update (``_Responder``), and ``_logged``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.render.pictures import TablePicture
from bot.render.views import TableSnapshot
from bot.tables.notices import Prompt, TableKey

log = logging.getLogger("bot.discord.presenter")   # the presenter's own log, as before the split

@dataclass
class _Responder:
    """An interaction that may answer this table's update (see ``DiscordPresenter.responding``)."""

    key: TableKey
    interaction: discord.Interaction[Any]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


@dataclass
class _Ping:
    """The ping now in the channel: its message, the turn it announced, and how to delete it."""

    message_id: int
    turn: tuple[int, int]
    webhook: discord.Webhook | None
    """The interaction webhook that sent it, or None for a channel message."""
    sent: float


@dataclass
class _HandNotes:
    """What a hand said, for its summary: results, showdown, the commitment check, the full log."""

    hand_no: int = 0
    results: list[str] = field(default_factory=list)
    showdown: str = ""
    reveal: str = ""
    log: list[str] = field(default_factory=list)


@dataclass
class _TableState:
    """What the presenter remembers about one table's channel (in memory only)."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    searched: bool = False
    """The store was asked for the table message kept before a restart."""
    saved: tuple[int, int | None] | None = None
    """What the store holds for this table's message."""
    message: int | None = None
    """The table message."""
    shows: int | None = None
    """The hand the table message shows (None: between hands)."""
    drawn: str | None = None
    """The signature of what the table message shows, to redraw only a change."""
    recent: list[str] = field(default_factory=list)
    hands: dict[int, _HandNotes] = field(default_factory=dict)
    ping: _Ping | None = None
    stale: list[int] = field(default_factory=list)
    """Channel pings to delete with the next update that came with an interaction."""
    pinged: tuple[int, int] | None = None
    down_cards: dict[tuple[int, int], int] = field(default_factory=dict)
    """(hand, member): how many down cards the member held at their last private notice; one more
    is a new down card, which goes by DM."""
    choice: int | None = None
    """The dealer's-choice question still offering its menu."""
    deadline: tuple[tuple[int, int, float], int] | None = None
    """The turn (hand, turn, service-clock deadline) and the Unix time it times out."""
    reminder: Prompt | None = None
    """A reminder prompt to ping (the same turn, pinged again)."""
    snapshot: TableSnapshot | None = None
    now: float = 0.0
    """The service clock at the last update (a prompt's deadline is on that clock)."""
    refusal: discord.HTTPException | None = None
    """Discord's refusal of the last table message post, if it failed."""
    table_clicks: dict[int, tuple[discord.Interaction[Any], float]] = field(default_factory=dict)
    """member: a click of theirs on the table message, acknowledged without a change (type 6), that
    opened a private message (the draw picker), and when (loop time). The action taken from that
    private message edits the table through this click's webhook, as a click on the table itself
    would (no channel request); used once, while its token lives."""
    attached: tuple[int, TablePicture] | None = None
    """A message of this table and the table picture it has as ``table.png``: an edit of that
    message showing the same picture keeps the attachment instead of uploading it again."""


@contextlib.contextmanager
def _logged(key: TableKey, what: str) -> Iterator[None]:
    """Log (as a warning) a Discord refusal inside the block instead of raising it."""
    try:
        yield
    except discord.HTTPException as exc:
        log.warning("could not %s in channel %s: %s", what, key.channel, exc)
