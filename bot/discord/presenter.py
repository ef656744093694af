"""The Discord presenter: each update of the table service, as channel messages, edits and DMs.

It implements ``bot.tables.notices.Presenter`` for a running ``WildstudBot``: the service hands
it one ``Update`` per operation (the notices in order, then the table snapshot), and it never
reads the service back.

* **One table message per hand**, edited as the hand goes: seats, up cards, stacks, the pot, the
  wild list with origins, whose turn and what they face, with the current player's action buttons,
  "My cards" and "Join". Between hands a *lobby* message (the same table text, with "Join" and
  "Deal") plays that part, and becomes the next hand's table message (the one ``/table create``
  posts becomes hand #1's); a lobby older than 15 minutes, likely buried under chat, is deleted
  and the hand gets a new message instead. When a hand ends its message gets its final state,
  "Hand over." and no buttons. The message's id is kept in the store, so after a restart the same
  message is edited again. An update that changes the table without a table notice (a seat
  change) redraws the message if its text changed.
* **The hand log**: street lines, actions, new wild ranks, results and the deck reveal are
  collected and posted together as one message at the next natural break (the prompt, the
  showdown, a table change, the end of the update), so one action costs one channel message and
  one edit.
* **The prompt**: the log lines so far plus ``@player your turn · Pot N``, mentioning (pinging)
  only the player to act, with the action buttons and "My cards".
* **Private messages** (each player's own cards after every street, addressed to them in the
  update) go by DM. If Discord refuses (error 50007, when opening the DM channel or when sending)
  the channel gets the notice ``Update.undelivered`` gives instead (once per player) and the
  player reads their cards through "My cards". A refused member is not tried again until the
  next hand (403s count toward Discord's invalid-request limit).

Everything is sent through REST with partial channels, so it works before the gateway is ready
(hands resumed in ``setup_hook``) and without the members intent. Calls for one table are
serialised by a lock; nothing waits on a DM beyond the update's ``private_timeout``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta

import discord

from bot.discord.ui.betting import MyCardsButton, action_items, prompt_view
from bot.discord.ui.games import choice_line, choice_view
from bot.discord.ui.lobby import JoinButton, lobby_items
from bot.discord.ui.text import code_block, split_text
from bot.render.table import format_table
from bot.render.views import Phase, TableSnapshot, table_view
from bot.store import Store, StoreError
from bot.tables.notices import (
    GameChoiceNotice,
    NoticeKind,
    NoticePresenter,
    PrivateNotice,
    Prompt,
    PublicNotice,
    Reply,
    ShowdownNotice,
    TableKey,
    Undeliverable,
    Update,
)

log = logging.getLogger(__name__)

DM_CLOSED = 50007
"""Discord's "Cannot send messages to this user" (closed DMs, blocked bot, no shared server)."""

_QUIET = discord.AllowedMentions.none()

LOBBY_REUSE = timedelta(minutes=15)
"""A lobby message younger than this becomes the next hand's table message; an older one (likely
buried under chat) is deleted and the hand gets a new message at the bottom of the channel."""


def _recent(message_id: int) -> bool:
    """Whether the message was posted less than ``LOBBY_REUSE`` ago (its snowflake holds the time)."""
    return discord.utils.utcnow() - discord.utils.snowflake_time(message_id) < LOBBY_REUSE


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
    """The store was asked for the table message kept before a restart."""
    stored_hand: tuple[int, int] | None = None
    """``(message id, hand id)`` of a hand's table message kept before a restart."""
    saved: tuple[int, int | None] | None = None
    """What the store holds for this table's message."""
    drawn: str | None = None
    """The content last drawn on the table message (lobby or hand), to redraw only a change."""
    update: Update | None = None
    """The update being shown."""
    refusal: discord.HTTPException | None = None
    """Discord's refusal of the last table message post, if it failed."""


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


class DiscordPresenter(NoticePresenter):
    """The table service's front end on Discord (see the module docstring).

    ``bot``: the logged-in client that sends (``bot.discord.client.WildstudBot``); ``store``: where
    the table message ids are kept (``bot.store.messages``).
    """

    def __init__(self, bot: discord.Client, store: Store) -> None:
        self.bot = bot
        self.store = store
        self._tables: dict[TableKey, _TableState] = {}
        self._dm_channels: dict[int, discord.DMChannel] = {}
        self._dm_refused: dict[int, int] = {}

    # ------------------------------------------------------------------ the Presenter protocol
    async def update(self, table: TableKey, update: Update) -> None:
        """Show one update: its notices in order (``NoticePresenter``), then what is left of the
        hand log, and the table message redrawn if the update changed it without saying so."""
        state = self._state(table)
        state.update = update
        state.refusal = None
        try:
            await super().update(table, update)
        finally:
            state.update = None

    async def updated(self, table: TableKey, update: Update) -> None:
        state = self._state(table)
        if update.table is None:
            await self._closed(table, update.table_id)
            return
        async with state.lock:
            with _logged(table, "post the hand log"):
                await self._post_log(table, state)
            if not any(isinstance(n, PublicNotice) and n.kind is NoticeKind.TABLE for n in update.notices):
                await self._redraw(table, state, update.table)

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
                await self._finish_hand_message(table, state, None)
            if notice.hand_id is not None and notice.kind is not NoticeKind.VOID:
                state.lines.append(notice.text)
                return
            await self._post_log(table, state)
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
            if notice.deadline is not None and state.update is not None:
                seconds = round(notice.deadline - state.update.now)
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
            await self._post_log(table, state)
            mentions = discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(notice.member)]
            )
            await self._send(table, f"<@{notice.member}> {notice.text}", allowed_mentions=mentions)

    async def showdown(self, table: TableKey, notice: ShowdownNotice) -> None:
        """Post the log so far, then the showdown (shown hands, what the wilds stood for, winners)."""
        state = self._state(table)
        async with state.lock:
            await self._post_log(table, state)
            await self._send(table, notice.text)

    async def choose_game(self, table: TableKey, notice: GameChoiceNotice) -> None:
        """Dealer's choice (issue 12): post the log so far, then the question mentioning the
        chooser, with the select menu only they may use (``bot.discord.ui.games``)."""
        state = self._state(table)
        async with state.lock:
            seconds = None
            if notice.deadline is not None and state.update is not None:
                seconds = round(notice.deadline - state.update.now)
            lines = [*state.lines, choice_line(notice, seconds)]
            state.lines.clear()
            mentions = discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(notice.member)]
            )
            await self._send(table, "\n".join(lines), view=choice_view(notice), allowed_mentions=mentions)

    # ------------------------------------------------------------------ for the cogs
    def table_message_refusal(self, key: TableKey) -> discord.HTTPException | None:
        """Discord's refusal of the table message in the last update of ``key``, if it was refused
        (``/table create`` tells the creator)."""
        state = self._tables.get(key)
        return state.refusal if state is not None else None

    async def _closed(self, key: TableKey, table_id: int) -> None:
        """The table was closed: post what is left, take the buttons off its messages, forget it."""
        state = self._tables.pop(key, None) or _TableState()
        async with state.lock:
            with _logged(key, "take the buttons off the closed table's messages"):
                await self._post_log(key, state)
                await self._recall(state, table_id)    # not touched since a restart
                if state.hand_message is not None and not state.hand_done:
                    await self._edit(key, state.hand_message, view=None)
                if state.lobby is not None:
                    await self._edit(key, state.lobby, content_suffix="Table closed.", view=None)
            state.hand_message = state.lobby = None
            await self._remember(state, table_id)

    # ------------------------------------------------------------------ table messages
    async def _table_notice(self, key: TableKey, state: _TableState, notice: PublicNotice) -> None:
        try:
            await self._draw(key, state, notice)
        except discord.HTTPException as exc:
            state.refusal = exc
            raise

    async def _redraw(self, key: TableKey, state: _TableState, snapshot: TableSnapshot) -> None:
        """Draw ``snapshot`` on the table message if it differs from what is there."""
        if snapshot.phase is not Phase.BETWEEN_HANDS and snapshot.hand_id != state.hand_id:
            return
        if snapshot.phase is not Phase.BETWEEN_HANDS and state.hand_done:
            return
        text = format_table(table_view(snapshot))
        if code_block(text) == state.drawn:
            return
        notice = PublicNotice(NoticeKind.TABLE, text, snapshot.hand_id, None, snapshot)
        with _logged(key, "update the table message"):
            await self._table_notice(key, state, notice)

    async def _draw(self, key: TableKey, state: _TableState, notice: PublicNotice) -> None:
        table_id = self._table_id(key)
        await self._recall(state, table_id)
        try:
            await self._draw_message(key, state, notice, table_id)
        finally:
            await self._remember(state, table_id)

    async def _draw_message(
        self, key: TableKey, state: _TableState, notice: PublicNotice, table_id: int
    ) -> None:
        content = code_block(notice.text)
        snapshot = notice.snapshot
        if snapshot is not None and snapshot.phase in (Phase.OVER, Phase.VOID):
            await self._finish_hand_message(key, state, content)
            return
        state.drawn = content
        if notice.hand_id is None:
            if state.hand_message is not None and not state.hand_done:
                await self._edit(key, state.hand_message, view=None)
            state.hand_message, state.hand_id, state.hand_done = None, None, False
            view = discord.ui.View(timeout=None)
            for item in lobby_items(table_id):
                view.add_item(item)
            if state.lobby is not None and await self._edit(key, state.lobby, content=content, view=view):
                return
            await self._post_log(key, state)
            state.lobby = await self._send(key, content, view=view)
            return
        view = self._hand_view(table_id, notice.hand_id, snapshot)
        if state.hand_id != notice.hand_id:
            found = None
            if state.stored_hand is not None and state.stored_hand[1] == notice.hand_id:
                found = state.stored_hand[0]
            state.stored_hand = None
            state.hand_id, state.hand_done = notice.hand_id, False
            if found is None and state.lobby is not None and _recent(state.lobby):
                found, state.lobby = state.lobby, None  # the lobby message becomes the hand's
            if found is not None and await self._edit(key, found, content=content, view=view):
                state.hand_message = found
            else:
                await self._post_log(key, state)
                state.hand_message = await self._send(key, content, view=view)
            if state.lobby is not None:
                await self._delete(key, state.lobby)
                state.lobby = None
            return
        if state.hand_message is None or not await self._edit(
            key, state.hand_message, content=content, view=view
        ):
            await self._post_log(key, state)
            state.hand_message = await self._send(key, content, view=view)

    @staticmethod
    def _hand_view(table_id: int, hand_id: int, snapshot: TableSnapshot | None) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        prompt = snapshot.prompt if snapshot is not None else None
        if prompt is not None and prompt.hand_id == hand_id:
            for item in action_items(table_id, prompt):
                view.add_item(item)
        view.add_item(MyCardsButton(table_id))
        view.add_item(JoinButton(table_id))
        return view

    async def _finish_hand_message(self, key: TableKey, state: _TableState, content: str | None) -> None:
        """Draw the hand's final state (``content``: "Hand over." or the void) without buttons."""
        if state.hand_message is None or state.hand_done:
            return
        await self._edit(key, state.hand_message, content=content, view=None)
        state.hand_done = True
        state.drawn = None

    async def _recall(self, state: _TableState, table_id: int) -> None:
        """Once per table after a start: the table message the store kept (``bot.store.messages``),
        so it is edited again instead of a new one being posted."""
        if state.searched:
            return
        state.searched = True
        try:
            stored = await self.store.table_message(table_id)
        except StoreError as exc:
            log.warning("could not read the table message of table %s: %s", table_id, exc.reason)
            return
        if stored is not None:
            message_id, hand_id = stored
            if hand_id is None:
                state.lobby = message_id
            else:
                state.stored_hand = (message_id, hand_id)
        state.saved = stored

    async def _remember(self, state: _TableState, table_id: int) -> None:
        """Keep the table message's id (and the hand it shows) in the store, when it changed."""
        current: tuple[int, int | None] | None = None
        if state.hand_message is not None:
            current = (state.hand_message, state.hand_id)
        elif state.lobby is not None:
            current = (state.lobby, None)
        if current == state.saved:
            return
        try:
            if current is None:
                await self.store.set_table_message(table_id, None)
            else:
                await self.store.set_table_message(table_id, *current)
            state.saved = current
        except StoreError as exc:
            log.warning("could not keep the table message of table %s: %s", table_id, exc.reason)

    # ------------------------------------------------------------------ sending
    async def _post_log(self, key: TableKey, state: _TableState) -> None:
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
        try:
            await self._channel(key).get_partial_message(message_id).delete()
        except discord.NotFound:
            pass

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

    def _table_id(self, key: TableKey) -> int:
        update = self._state(key).update
        if update is None:
            raise RuntimeError("the presenter draws a table only while it shows an update")
        return update.table_id
