"""The Discord presenter: what the table service says, as channel messages, edits and DMs.

It implements ``bot.tables.notices.Presenter`` for a running ``WildstudBot``:

* **One table message per hand**, edited as the hand goes: seats, up cards, stacks, the pot, the
  wild list with origins, whose turn and what they face, with the current player's action buttons,
  "My cards" and "Join". Between hands a *lobby* message (the same table text, with "Join" and
  "Deal") plays that part, and becomes the next hand's table message (the one ``/table create``
  posts becomes hand #1's); a lobby older than 15 minutes, likely buried under chat, is deleted
  and the hand gets a new message instead. When a hand ends
  its message gets its final state, "Hand over." and no buttons.
* **The hand log**: street lines, actions, new wild ranks, results and the deck reveal are
  collected and posted together as one message at the next natural break (the prompt, the
  showdown, a table change), so one action costs one channel message and one edit.
* **The prompt**: the log lines so far plus ``@player your turn · Pot N``, mentioning (pinging)
  only the player to act, with the action buttons and "My cards".
* **Private messages** (each player's own cards after every street) go by DM. If Discord refuses
  (error 50007, when opening the DM channel or when sending) the presenter raises
  ``Undeliverable``; the table service tells the channel once and the player reads their cards
  through "My cards". A refused member is not tried again until the next hand (403s count toward
  Discord's invalid-request limit).

Everything is sent through REST with partial channels, so it works before the gateway is ready
(hands resumed in ``setup_hook``) and without the members intent. Calls for one table are
serialised by a lock; nothing waits on a DM beyond the service's own timeout.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

import discord

from bot.render.table import TableView, format_table
from bot.tables.notices import (
    NoticeKind,
    PrivateNotice,
    Prompt,
    PublicNotice,
    Reply,
    ShowdownNotice,
    TableKey,
    Undeliverable,
)
from cogs.betting import MyCardsButton, action_items, prompt_view
from cogs.common import code_block, split_text
from cogs.table import JoinButton, lobby_items

if TYPE_CHECKING:
    from bot.discord_bot import WildstudBot
    from bot.tables.service import TableService

log = logging.getLogger(__name__)

DM_CLOSED = 50007
"""Discord's "Cannot send messages to this user" (closed DMs, blocked bot, no shared server)."""

HISTORY_LIMIT = 50
"""How many recent channel messages to look through for a table message after a restart."""

_QUIET = discord.AllowedMentions.none()

LOBBY_REUSE = timedelta(minutes=15)
"""A lobby message younger than this becomes the next hand's table message; an older one (likely
buried under chat) is deleted and the hand gets a new message at the bottom of the channel."""


def _recent(message_id: int, now: datetime) -> bool:
    """Whether the message was posted less than ``LOBBY_REUSE`` before ``now`` (its snowflake holds
    the time it was posted)."""
    return now - discord.utils.snowflake_time(message_id) < LOBBY_REUSE


@dataclass
class _TableState:
    """What the presenter remembers about one table's channel (in memory only)."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    lines: list[str] = field(default_factory=list)
    lobby: int | None = None
    hand_message: int | None = None
    hand_id: int | None = None
    hand_done: bool = False
    searched: bool = False


@contextlib.contextmanager
def _logged(key: TableKey, what: str) -> Iterator[None]:
    """Log (as a warning) a Discord refusal inside the block instead of raising it."""
    try:
        yield
    except discord.HTTPException as exc:
        log.warning("could not %s in channel %s: %s", what, key.channel, exc)


def prompt_line(prompt: Prompt, seconds_left: int | None) -> str:
    """``<@id> your turn · Pot 25 · 10 to call · 60 s`` (or a reminder).

    >>> from bot.tables.notices import Prompt
    >>> prompt_line(Prompt(7, "Bea", 1, 4, (), "", to_call=10, pot=25), 60)
    '<@7> your turn · Pot 25 · 10 to call · 60 s to act'
    """
    head = f"<@{prompt.member}> reminder: your turn" if prompt.reminder else f"<@{prompt.member}> your turn"
    parts = [head, f"Pot {prompt.pot:,}"]
    if prompt.to_call:
        parts.append(f"{prompt.to_call:,} to call")
    if seconds_left is not None:
        parts.append(f"{max(0, seconds_left)} s to act")
    return " · ".join(parts)


class DiscordPresenter:
    """The table service's front end on Discord (see the module docstring).

    ``service`` is set by the bot right after the service is built (the presenter reads table
    views and prompts from it to draw buttons).
    """

    def __init__(self, bot: WildstudBot) -> None:
        self.bot = bot
        self.service: TableService | None = None
        self._tables: dict[TableKey, _TableState] = {}
        self._dm_channels: dict[int, discord.DMChannel] = {}
        self._dm_refused: dict[int, int] = {}
        # Judges a lobby message's age against its snowflake (wall-clock time, not the table clock);
        # tests replace it to reach the "too old to reuse" path.
        self.wall_clock: Callable[[], datetime] = discord.utils.utcnow

    # ------------------------------------------------------------------ the Presenter protocol
    async def post(self, table: TableKey, notice: PublicNotice) -> None:
        """Table notices edit the table message; hand log lines are collected; the rest is
        posted at once (after the collected lines)."""
        state = self._state(table)
        async with state.lock:
            if notice.kind is NoticeKind.TABLE:
                await self._table_notice(table, state, notice)
                return
            if (
                notice.kind is NoticeKind.REVEAL
                and notice.hand_id is not None
                and notice.hand_id == state.hand_id
            ):
                await self._finish_hand_message(table, state)
            if notice.hand_id is not None and notice.kind is not NoticeKind.VOID:
                state.lines.append(notice.text)
                return
            await self._flush(table, state)
            await self._send(table, notice.text)

    async def private(self, table: TableKey, notice: PrivateNotice) -> None:
        """DM the player their own cards; raise ``Undeliverable`` when Discord refuses (50007)."""
        if self._dm_refused.get(notice.member) == notice.hand_id:
            raise Undeliverable()
        try:
            await self._dm(notice.member, f"Table in <#{table.channel}>\n{notice.text}")
            self._dm_refused.pop(notice.member, None)
        except discord.HTTPException as exc:
            self._dm_refused[notice.member] = notice.hand_id
            if exc.code == DM_CLOSED:
                raise Undeliverable() from None
            log.warning("DM to %s failed: %s %s", notice.member, exc.status, exc.code)
            raise Undeliverable(f"Discord refused the message, error {exc.code or exc.status}") from None

    async def prompt(self, table: TableKey, notice: Prompt) -> None:
        """Post the collected log lines and the prompt, with the action buttons."""
        state = self._state(table)
        async with state.lock:
            seconds = None
            if notice.deadline is not None and self.service is not None:
                seconds = round(notice.deadline - self.service.clock.now())
            lines = [*state.lines, prompt_line(notice, seconds)]
            state.lines.clear()
            view = prompt_view(self._table_id(table), notice)
            mentions = discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(notice.member)]
            )
            await self._send(table, "\n".join(lines), view=view, allowed_mentions=mentions)

    async def reply(self, table: TableKey, notice: Reply) -> None:
        """Tell one player something by DM; if that fails (or their DMs were refused before), in the
        channel, mentioning them."""
        if notice.member not in self._dm_refused:
            try:
                await self._dm(notice.member, f"Table in <#{table.channel}>\n{notice.text}")
                return
            except discord.HTTPException as exc:
                self._dm_refused[notice.member] = 0
                log.info(
                    "reply to %s not delivered by DM (%s); posted in the channel", notice.member, exc.code
                )
        state = self._state(table)
        async with state.lock:
            await self._flush(table, state)
            mentions = discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(notice.member)]
            )
            await self._send(table, f"<@{notice.member}> {notice.text}", allowed_mentions=mentions)

    async def showdown(self, table: TableKey, notice: ShowdownNotice) -> None:
        """Post the log so far, then the showdown (shown hands, what the wilds stood for, winners)."""
        state = self._state(table)
        async with state.lock:
            await self._flush(table, state)
            await self._send(table, notice.text)

    # ------------------------------------------------------------------ for the cogs
    # The cogs call these after the table service has changed something. What happened has
    # happened: if Discord then refuses a post or an edit (missing permissions, a deleted
    # channel), that is logged and never reported to the member as their request failing.
    async def open_table_message(self, key: TableKey) -> None:
        """Post a new table's message (the lobby, with "Join" and "Deal") after ``/table create``.

        Raises ``discord.HTTPException`` if Discord refuses it (the cog tells the creator).
        """
        self._state(key).searched = True  # a new table has no earlier message to look for
        await self._refresh(key)

    async def flush(self, key: TableKey) -> None:
        """Post any collected log lines of the table now (a refused post is logged)."""
        state = self._tables.get(key)
        if state is None or not state.lines:
            return
        async with state.lock:
            with _logged(key, "post the hand log"):
                await self._flush(key, state)

    async def flush_all(self) -> None:
        """Post every table's collected log lines (after start-up resumed the hands)."""
        for key in list(self._tables):
            await self.flush(key)

    async def refresh(self, key: TableKey) -> None:
        """Redraw the table message from the service (after seat changes the service does not
        announce with a table notice), and post any collected lines (a refusal is logged)."""
        with _logged(key, "update the table message"):
            await self._refresh(key)

    async def _refresh(self, key: TableKey) -> None:
        service = self._service()
        if not service.has_table(key):
            await self.flush(key)
            return
        view = service.table_view(key)
        hand = service.table(key).hand
        notice = PublicNotice(NoticeKind.TABLE, format_table(view), hand.hand_id if hand else None, view)
        state = self._state(key)
        async with state.lock:
            await self._flush(key, state)
            await self._table_notice(key, state, notice)

    async def closed(self, key: TableKey, table_id: int) -> None:
        """The table was closed: post what is left, take the buttons off its messages, forget it."""
        state = self._tables.pop(key, None) or _TableState()
        async with state.lock:
            with _logged(key, "take the buttons off the closed table's messages"):
                await self._flush(key, state)
                if state.lobby is None and not state.searched:
                    # Not touched since a restart: find the table message to take its buttons off.
                    state.lobby = await self._find_message(key, "```\nBetween hands", table_id)
                if state.hand_message is not None and not state.hand_done:
                    await self._edit(key, state.hand_message, view=None)
                if state.lobby is not None:
                    await self._edit(key, state.lobby, content_suffix="Table closed.", view=None)

    # ------------------------------------------------------------------ table messages
    async def _table_notice(self, key: TableKey, state: _TableState, notice: PublicNotice) -> None:
        table_id = self._table_id(key)
        content = code_block(notice.text)
        if notice.hand_id is None:
            if state.hand_message is not None and not state.hand_done:
                await self._edit(key, state.hand_message, view=None)
            state.hand_message, state.hand_id, state.hand_done = None, None, False
            view = discord.ui.View(timeout=None)
            for item in lobby_items(table_id):
                view.add_item(item)
            if state.lobby is None and not state.searched:
                state.searched = True
                state.lobby = await self._find_message(key, "```\nBetween hands", table_id)
            if state.lobby is not None and await self._edit(key, state.lobby, content=content, view=view):
                return
            await self._flush(key, state)
            state.lobby = await self._send(key, content, view=view)
            return
        view = self._hand_view(key, table_id, notice.hand_id)
        if state.hand_id != notice.hand_id:
            found = None
            if not state.searched:
                state.searched = True
                hand = self._service().table(key).hand
                if hand is not None and hand.hand_id == notice.hand_id:
                    found = await self._find_message(key, f"```\nHand #{hand.hand_no} ·", table_id)
                if found is None and state.lobby is None:
                    state.lobby = await self._find_message(key, "```\nBetween hands", table_id)
            state.hand_id, state.hand_done = notice.hand_id, False
            if found is None and state.lobby is not None and _recent(state.lobby, self.wall_clock()):
                found, state.lobby = state.lobby, None  # the lobby message becomes the hand's
            if found is not None and await self._edit(key, found, content=content, view=view):
                state.hand_message = found
            else:
                await self._flush(key, state)
                state.hand_message = await self._send(key, content, view=view)
            if state.lobby is not None:
                await self._delete(key, state.lobby)
                state.lobby = None
            return
        if state.hand_message is None or not await self._edit(
            key, state.hand_message, content=content, view=view
        ):
            await self._flush(key, state)
            state.hand_message = await self._send(key, content, view=view)

    def _hand_view(self, key: TableKey, table_id: int, hand_id: int) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        prompt = self._service().current_prompt(key)
        if prompt is not None and prompt.hand_id == hand_id:
            for item in action_items(table_id, prompt):
                view.add_item(item)
        view.add_item(MyCardsButton(table_id))
        view.add_item(JoinButton(table_id))
        return view

    async def _finish_hand_message(self, key: TableKey, state: _TableState) -> None:
        """Draw the hand's final state ("Hand over.") without buttons; the service still holds
        the finished hand when it announces the deck reveal."""
        if state.hand_message is None or state.hand_done:
            return
        service = self._service()
        hand = service.table(key).hand if service.has_table(key) else None
        content: str | None = None
        if hand is not None and hand.hand_id == state.hand_id:
            final: TableView = replace(service.table_view(key), footer="Hand over.")
            content = code_block(format_table(final))
        await self._edit(key, state.hand_message, content=content, view=None)
        state.hand_done = True

    async def _find_message(self, key: TableKey, prefix: str, table_id: int) -> int | None:
        """A recent message of ours in the channel starting with ``prefix`` and carrying this
        table's buttons (finds the table message again after a restart)."""
        me = self.bot.user
        marker = f"ws:join:{table_id}"
        try:
            async for message in self._channel(key).history(limit=HISTORY_LIMIT):
                if me is not None and message.author.id != me.id:
                    continue
                if not message.content.startswith(prefix):
                    continue
                ids = {
                    getattr(c, "custom_id", None)
                    for row in message.components
                    for c in getattr(row, "children", [])
                }
                if marker in ids:
                    return message.id
        except discord.HTTPException as exc:
            log.info("could not read the history of channel %s: %s", key.channel, exc)
        return None

    # ------------------------------------------------------------------ sending
    async def _flush(self, key: TableKey, state: _TableState) -> None:
        if state.lines:
            text = "\n".join(state.lines)
            state.lines.clear()
            await self._send(key, text)

    async def _send(
        self,
        key: TableKey,
        text: str,
        *,
        view: discord.ui.View | None = None,
        allowed_mentions: discord.AllowedMentions = _QUIET,
    ) -> int:
        """Post ``text`` (split at 2,000 characters; the buttons go on the last part)."""
        channel = self._channel(key)
        chunks = split_text(text)
        message_id = 0
        for i, chunk in enumerate(chunks):
            last = i == len(chunks) - 1
            if last and view is not None:
                message = await channel.send(chunk, view=view, allowed_mentions=allowed_mentions)
            else:
                message = await channel.send(chunk, allowed_mentions=allowed_mentions)
            message_id = message.id
        return message_id

    async def _edit(
        self,
        key: TableKey,
        message_id: int,
        *,
        content: str | None = None,
        content_suffix: str | None = None,
        view: discord.ui.View | None,
    ) -> bool:
        """Edit one of our messages; False if it is gone (deleted by someone)."""
        message = self._channel(key).get_partial_message(message_id)
        try:
            if content_suffix is not None:
                full = await message.fetch()
                content = f"{full.content}\n{content_suffix}"[:2000]
            if content is None:
                await message.edit(view=view)
            else:
                await message.edit(content=content[:2000], view=view, allowed_mentions=_QUIET)
        except discord.NotFound:
            return False
        return True

    async def _delete(self, key: TableKey, message_id: int) -> None:
        """Delete a message of ours; already gone or not allowed (``Forbidden``) both end with the
        caller forgetting it, so a stale ID is never used again."""
        try:
            await self._channel(key).get_partial_message(message_id).delete()
        except discord.NotFound:
            pass
        except discord.Forbidden as exc:
            log.warning("could not delete message %s in channel %s: %s", message_id, key.channel, exc)

    async def _dm(self, member: int, text: str) -> None:
        channel = self._dm_channels.get(member)
        if channel is None:
            channel = await self.bot.create_dm(discord.Object(member))
            self._dm_channels[member] = channel
        for chunk in split_text(text):
            await channel.send(chunk, allowed_mentions=_QUIET)

    # ------------------------------------------------------------------ helpers
    def _channel(self, key: TableKey) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(
            key.channel, guild_id=key.guild, type=discord.ChannelType.text
        )

    def _state(self, key: TableKey) -> _TableState:
        state = self._tables.get(key)
        if state is None:
            state = self._tables[key] = _TableState()
        return state

    def _service(self) -> TableService:
        if self.service is None:
            raise RuntimeError("the presenter has no table service yet")
        return self.service

    def _table_id(self, key: TableKey) -> int:
        return self._service().table(key).table_id
