"""The Discord presenter: each update of the table service as ONE living table message per table,
a ping for the player to act, a summary per finished hand, and DMs when a down card comes.

It implements ``bot.tables.notices.Presenter`` for a running ``WildstudBot``: the service hands
it one ``Update`` per operation (the notices in order, then the table snapshot), and it never
reads the service back.

* **The table message** (a Components V2 layout, ``bot.discord.ui.table``): header, wild list,
  the table picture (or text with the guild's ``look`` set to ``text``), the last log lines, whose
  turn it is and the buttons of the player to act; between hands Join and Deal. It is redrawn only
  when what it shows changed. Its id is kept in the store (``bot.store.messages``), so after a
  restart the same message is edited again.
* **Answered by the click itself**: a button, select or modal on the table message hands its
  interaction to the presenter for the duration of the call (``responding``); the update of that
  table is then drawn in the interaction's response (callback type 7, ``edit_message``), which
  costs no channel request at all. A slash command (deferred, answered privately by its cog) edits
  the table with one channel request; timers and restarts, with no interaction, too.
* **The ping**: when a new turn starts (or a reminder comes), the player to act gets ONE short
  message mentioning only them, no buttons: a follow-up of the interaction that moved the table
  (exempt from the channel and global limits), else a channel message. The previous ping is
  deleted through its own interaction's webhook while that token is valid (``PING_TOKEN_LIFE``),
  else in the channel at once (a timer costs at most one edit, one ping and one delete). Timers
  run in a fresh context (``bot.tables.clock``), so they never pass for the click that armed them.
* **The summary**: when a hand ends, its table message becomes the hand's summary (who won what,
  the showdown, the wild ranks, the commitment check line, the final picture) and a new table
  message is posted below it for the table between hands. The table's ``log`` option puts the
  full narrated log in the summary as ``hand-N-log.txt`` (``summary``, the default), in a thread
  of the summary (``thread``), or nowhere (``off``).
* **DMs**: a player's own cards (text, with the openings of their down cards, and the hand
  picture) when they get a new down card (third and seventh street), or after every street with
  ``/table dm every-street``. "My cards" shows them at any moment. If Discord refuses (50007) the
  channel is told once (``Update.undelivered``) and the player uses "My cards".

Everything is sent through REST with partial channels, so it works before the gateway is ready
(hands resumed in ``setup_hook``) and without the members intent. The service hands over each
update after releasing the table's lock, one at a time per table and in order, so a slow Discord
call never holds a table; when a newer update of the table is already waiting
(``Update.superseded``), only the newest is drawn on the table message (the older one's log lines,
summaries and DMs still go out, and its click is acknowledged). Calls for one table are also
serialised by a lock here; nothing waits on a DM beyond the update's ``private_timeout``.

The DMs and replies are in ``presenter_dm`` (a mixin), what is remembered per table in
``presenter_state``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from contextvars import ContextVar
from datetime import datetime, timedelta
from typing import Any

import discord

from bot.discord.presenter_dm import _QUIET, DM_CLOSED, DOWN_CARD_STREETS, PrivateMessages
from bot.discord.presenter_state import _HandNotes, _logged, _Ping, _Responder, _TableState
from bot.discord.ui.games import choice_line, choice_view
from bot.discord.ui.replay import ReplayButton
from bot.discord.ui.table import (
    DM_MODES,
    LOOKS,
    RECENT_LINES,
    Layout,
    closed_layout,
    drawn_files,
    four_colour,
    hand_file,
    shows_pictures,
    summary_layout,
    table_layout,
)
from bot.discord.ui.text import plain, split_text
from bot.discord.ui.voiding import void_line, void_view
from bot.engine.cards.card import Card
from bot.render.scenes import hand_picture
from bot.render.views import Phase, TableSnapshot
from bot.render.wilds import wild_summary
from bot.store import Store, StoreError
from bot.tables.notices import (
    GameChoiceNotice,
    NoticeKind,
    PrivateNotice,
    Prompt,
    PublicNotice,
    Reply,
    ShowdownNotice,
    TableKey,
    Update,
    VoidConsentNotice,
)

__all__ = [
    "DEFER_AFTER",
    "DM_CLOSED",
    "DOWN_CARD_STREETS",
    "LOBBY_REUSE",
    "PING_TOKEN_LIFE",
    "DiscordPresenter",
    "prompt_line",
]

log = logging.getLogger(__name__)

LOBBY_REUSE = timedelta(minutes=15)
"""A between-hands table message older than this when a hand is dealt is likely buried under chat:
it is deleted and the hand gets a new message at the bottom of the channel (issue 14)."""


def _recent(message_id: int, now: datetime) -> bool:
    """Whether the message was posted less than ``LOBBY_REUSE`` before ``now`` (its snowflake holds
    the time it was posted)."""
    return now - discord.utils.snowflake_time(message_id) < LOBBY_REUSE


PING_TOKEN_LIFE = 14 * 60.0
"""Seconds an interaction's webhook may still delete its ping (Discord keeps the token 15 minutes)."""

DEFER_AFTER = 2.2
"""Seconds after which an interaction the table has not answered yet is deferred (Discord's
deadline is 3 s); the table is then edited through the channel instead."""

_RESPONDER: ContextVar[_Responder | None] = ContextVar("wildstud_responder", default=None)


def prompt_line(prompt: Prompt, deadline: int | None) -> str:
    """The ping: ``<@id> your turn · Pot 25 · 10 to call · time's up <t:UNIX:R>`` (or a reminder);
    ``deadline`` is the Unix time the turn times out, shown as Discord's relative timestamp, which
    every client counts down live.

    >>> from bot.tables.notices import Prompt
    >>> prompt_line(Prompt(7, "Bea", 1, 4, (), "", to_call=10, pot=25), 1767225600)
    "<@7> your turn · Pot 25 · 10 to call · time's up <t:1767225600:R>"
    """
    head = f"<@{prompt.member}> reminder: your turn" if prompt.reminder else f"<@{prompt.member}> your turn"
    parts = [head, f"Pot {prompt.pot:,}"]
    if prompt.to_call:
        parts.append(f"{prompt.to_call:,} to call")
    if deadline is not None:
        parts.append(f"time's up <t:{deadline}:R>")
    return " · ".join(parts)


_ANSWERABLE = (discord.InteractionType.component, discord.InteractionType.modal_submit)


class DiscordPresenter(PrivateMessages):
    """The table service's front end on Discord (see the module docstring).

    ``bot``: the logged-in client that sends (``bot.discord.client.WildstudBot``); ``store``: where
    the table message ids and display preferences are kept (``bot.store.messages``).
    """

    def __init__(self, bot: discord.Client, store: Store) -> None:
        self.bot = bot
        self.store = store
        self._tables: dict[TableKey, _TableState] = {}
        self._dm_channels: dict[int, discord.DMChannel] = {}
        self._dm_refused: dict[int, int] = {}
        self._looks: dict[int, str] = {}
        self._dm_modes: dict[tuple[int, int], str] = {}
        self._dm_opening = asyncio.Lock()
        # Judges a table message's age against its snowflake (wall-clock time, not the table clock);
        # tests replace it to reach the "too old to reuse" path.
        self.wall_clock: Callable[[], datetime] = discord.utils.utcnow

    # ------------------------------------------------------------------ for the cogs and buttons
    @contextlib.asynccontextmanager
    async def responding(self, key: TableKey, interaction: discord.Interaction[Any]) -> AsyncIterator[None]:
        """Within the block, an update of table ``key`` may answer ``interaction``: a click on the
        table message is answered by drawing the table in the response (type 7); the ping goes
        through the interaction's webhook after the block (so a slash command's private answer,
        sent in the block, comes first). An interaction not answered within ``DEFER_AFTER``
        seconds is deferred, so Discord's 3-second deadline always holds."""
        responder = _Responder(key, interaction)
        token = _RESPONDER.set(responder)
        watchdog = asyncio.create_task(self._watch(responder), name="wildstud-defer-watchdog")
        failed = False
        try:
            yield
        except BaseException:
            failed = True      # the caller answers with the refusal itself
            raise
        finally:
            _RESPONDER.reset(token)
            watchdog.cancel()
            async with responder.lock:
                if not failed and interaction.type in _ANSWERABLE and not interaction.response.is_done():
                    with contextlib.suppress(discord.HTTPException):
                        await interaction.response.defer()   # nothing was drawn: acknowledge
            state = self._tables.get(key)
            if state is not None:
                async with state.lock:
                    with _logged(key, "ping the player to act"):
                        await self._ping(key, state, interaction)

    async def _watch(self, responder: _Responder) -> None:
        await asyncio.sleep(DEFER_AFTER)
        interaction = responder.interaction
        async with responder.lock:
            if interaction.type in _ANSWERABLE and not interaction.response.is_done():
                with contextlib.suppress(discord.HTTPException):
                    await interaction.response.defer()

    def keep_table_click(self, key: TableKey, interaction: discord.Interaction[Any]) -> None:
        """``interaction``, a click on ``key``'s table message acknowledged without a change (type 6)
        that opened a private message for its member (the draw picker): the member's next action
        from that private message edits the table through this click's webhook, exempt from the
        channel's limit (``_TableState.table_clicks``)."""
        loop = asyncio.get_running_loop()
        self._state(key).table_clicks[interaction.user.id] = (interaction, loop.time())

    def table_message_refusal(self, key: TableKey) -> discord.HTTPException | None:
        """Discord's refusal of the table message in the last update of ``key``, if it was refused
        (``/table create`` tells the creator)."""
        state = self._tables.get(key)
        return state.refusal if state is not None else None

    async def look(self, guild: int) -> str:
        """The guild's ``/table look`` (``pictures`` or ``text``; default ``pictures``)."""
        if guild not in self._looks:
            value = None
            try:
                value = await self.store.display_pref(guild, 0, "look")
            except StoreError as exc:
                log.warning("could not read the look of guild %s: %s", guild, exc.reason)
            self._looks[guild] = value if value in LOOKS else "pictures"
        return self._looks[guild]

    async def set_look(self, guild: int, look: str) -> None:
        """Keep the guild's look (``LOOKS``); tables show it from their next redraw."""
        await self.store.set_display_pref(guild, 0, "look", look)
        self._looks[guild] = look
        for key, state in self._tables.items():
            if key.guild == guild:
                state.drawn = None

    async def dm_mode(self, guild: int, member: int) -> str:
        """The member's ``/table dm`` (``every-street`` or ``down-cards``; default ``down-cards``)."""
        if (guild, member) not in self._dm_modes:
            value = None
            try:
                value = await self.store.display_pref(guild, member, "dm")
            except StoreError as exc:
                log.warning("could not read the DM mode of %s: %s", member, exc.reason)
            self._dm_modes[(guild, member)] = value if value in DM_MODES else "down-cards"
        return self._dm_modes[(guild, member)]

    async def set_dm_mode(self, guild: int, member: int, mode: str) -> None:
        """Keep the member's DM mode (``DM_MODES``)."""
        await self.store.set_display_pref(guild, member, "dm", mode)
        self._dm_modes[(guild, member)] = mode

    async def hand_files(
        self, key: TableKey, notice: PrivateNotice, snapshot: TableSnapshot,
        *, discards: tuple[Card, ...] = (), lines: tuple[str, ...] = (), new: tuple[Card, ...] = (),
        title: str = "",
    ) -> list[discord.File]:
        """The hand picture of ``notice`` (a player's own cards: for that player only), or none
        with the guild's look set to ``text``. ``discards``, ``lines``, ``new``, ``title``: a draw's
        marks (``bot.render.scenes.hand_picture``)."""
        look = await self.look(key.guild)
        if not shows_pictures(look):
            return []
        picture = hand_picture(notice, snapshot.hand_no, snapshot.wild_events, snapshot.rulings.wild_in_flush,
                               four_colour=four_colour(look), discards=discards, lines=lines,
                               new=new, title=title)
        return [await asyncio.to_thread(hand_file, picture)]

    # ------------------------------------------------------------------ the Presenter protocol
    async def update(self, table: TableKey, update: Update) -> None:
        """Show one update: the table message (and a finished hand's summary), DMs, replies, and
        the ping (see the module docstring). Failures are logged; the hand never stops for them."""
        state = self._state(table)
        responder = _RESPONDER.get()
        if responder is not None and responder.key != table:
            responder = None
        async with state.lock:
            state.refusal = None
            if update.table is None:
                # A table that closes as its last hand ends (a tournament's final hand) still
                # gets that hand's summary: the showdown, the results, the standings and prizes.
                _, _, finished = self._digest(state, update)
                if finished:
                    look = await self.look(table.guild)
                    with _logged(table, "post the last hand's summary"):
                        for final in finished:
                            await self._summarise(table, state, final, look, responder)
                await self._closed(table, state, update.table_id, responder)
                self._tables.pop(table, None)
                return
            privates, replies, finished = self._digest(state, update)
            state.snapshot, state.now = update.table, update.now
            await self._recall(state, update.table_id)
            look = await self.look(table.guild)
            try:
                await self._draw(table, state, update, look, finished, responder)
            except discord.HTTPException as exc:
                state.refusal = exc
                log.warning("could not draw the table in channel %s: %s", table.channel, exc)
            finally:
                await self._remember(state, update.table_id)
            if privates:
                await self._deliver(table, state, update, privates)
            for reply in replies:
                await self._reply(table, state, reply)
            dealt = any(isinstance(n, PublicNotice) and n.kind is NoticeKind.HAND_START
                        for n in update.notices)
            if state.choice is not None and (dealt or update.table.phase is not Phase.BETWEEN_HANDS):
                # The game was chosen (or the time ran out): the menu goes, the hand's log and
                # summary keep the choice.
                with _logged(table, "delete the dealer's choice menu"):
                    await self._delete(table, state.choice)
                state.choice = None
            for choice in (n for n in update.notices if isinstance(n, GameChoiceNotice)):
                with _logged(table, "ask for the dealer's choice"):
                    await self._ask_game(table, state, choice, update.now)
            for request in (n for n in update.notices if isinstance(n, VoidConsentNotice)):
                with _logged(table, "ask for consent to a void"):
                    mentions = discord.AllowedMentions(
                        everyone=False, roles=False, users=[discord.Object(m) for m, _ in request.needed])
                    await self._channel(table).send(void_line(request), view=void_view(request),
                                                    allowed_mentions=mentions)
            if responder is None:
                with _logged(table, "ping the player to act"):
                    await self._ping(table, state, None)

    async def _ask_game(
        self, key: TableKey, state: _TableState, notice: GameChoiceNotice, now: float
    ) -> None:
        """Dealer's choice (issue 12): one message mentioning the chooser, with the select menu only
        they may use (``bot.discord.ui.games``); it is deleted once the hand is dealt, and an old
        one still shown is refused as stale."""
        deadline = None
        if notice.deadline is not None:
            deadline = round(self.wall_clock().timestamp() + notice.deadline - now)
        mentions = discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(notice.member)])
        if state.choice is not None:          # asked again (after a restart): one live menu
            await self._delete(key, state.choice)
            state.choice = None
        message = await self._channel(key).send(choice_line(notice, deadline), view=choice_view(notice),
                                                allowed_mentions=mentions)
        state.choice = message.id

    # ------------------------------------------------------------------ reading an update
    def _digest(
        self, state: _TableState, update: Update
    ) -> tuple[list[PrivateNotice], list[Reply], list[TableSnapshot]]:
        """Sort the update's notices: log lines into the recent lines and each hand's notes; the
        private notices, replies and finished hands' last snapshots are returned."""
        privates: list[PrivateNotice] = []
        replies: list[Reply] = []
        finished: dict[int, TableSnapshot] = {}
        fresh: list[str] = []      # this update's lines of no hand (settings, seating...)
        for notice in update.notices:
            if isinstance(notice, PrivateNotice):
                privates.append(notice)
            elif isinstance(notice, Reply):
                replies.append(notice)
            elif isinstance(notice, Prompt) and notice.reminder:
                state.reminder = notice
            elif isinstance(notice, ShowdownNotice):
                notes = state.hands.setdefault(notice.hand_id, _HandNotes())
                notes.showdown = notice.text
                notes.log.append(notice.text)
            elif isinstance(notice, PublicNotice):
                self._public(state, notice, finished, fresh)
        state.recent = state.recent[-RECENT_LINES:]
        return privates, replies, list(finished.values())

    @staticmethod
    def _public(
        state: _TableState, notice: PublicNotice, finished: dict[int, TableSnapshot], fresh: list[str]
    ) -> None:
        snap = notice.snapshot
        if notice.kind is NoticeKind.TABLE:
            if snap is not None and snap.hand_id is not None:
                state.hands.setdefault(snap.hand_id, _HandNotes()).hand_no = snap.hand_no
                if snap.phase in (Phase.OVER, Phase.VOID):
                    finished[snap.hand_id] = snap
            return
        if notice.hand_id is not None:
            notes = state.hands.setdefault(notice.hand_id, _HandNotes())
            if notice.kind is NoticeKind.HAND_START:
                # A new hand: its lines start the table's recent lines and its log, after what
                # was announced just before its deal (stakes and rulings changes, seating).
                state.recent = list(fresh)
                notes.log.extend(fresh)
            notes.log.append(notice.text)
            if notice.kind in (NoticeKind.RESULT, NoticeKind.VOID):
                notes.results.append(notice.text)
            if notice.kind is NoticeKind.REVEAL:
                notes.reveal = notice.text
                return              # in the summary, not among the table's recent lines
        else:
            fresh.append(notice.text)
        state.recent.append(notice.text)

    # ------------------------------------------------------------------ the table message
    async def _draw(
        self,
        key: TableKey,
        state: _TableState,
        update: Update,
        look: str,
        finished: list[TableSnapshot],
        responder: _Responder | None,
    ) -> None:
        snapshot = update.table
        assert snapshot is not None
        for final in finished:
            await self._summarise(key, state, final, look, responder)
        if update.superseded:
            return      # a newer update of this table is waiting: it draws the table as it is now
        deadline = None
        if snapshot.prompt is not None and snapshot.phase is Phase.IN_HAND:
            deadline = self._deadline(state, snapshot.prompt)
        layout = table_layout(snapshot, state.recent, look=look, deadline=deadline)
        shows = snapshot.hand_id if snapshot.phase is not Phase.BETWEEN_HANDS else None
        if (shows is not None and state.shows is None and state.message is not None
                and not _recent(state.message, self.wall_clock())):
            # A new hand on a between-hands message posted long ago: deal it at the bottom instead.
            await self._delete(key, state.message)
            state.message, state.drawn = None, None
        if state.message is not None and layout.signature == state.drawn:
            state.shows = shows
            return
        if state.message is None or not await self._put(key, state.message, layout, responder):
            state.message = await self._post(key, layout)
        state.drawn, state.shows = layout.signature, shows

    async def _summarise(
        self, key: TableKey, state: _TableState, final: TableSnapshot, look: str, responder: _Responder | None
    ) -> None:
        """Turn the finished hand's table message into its summary (or post the summary when that
        message is unknown); the table itself gets a new message after it."""
        assert final.hand_id is not None
        notes = state.hands.pop(final.hand_id, None) or _HandNotes(final.hand_no)
        state.down_cards = {k: v for k, v in state.down_cards.items() if k[0] != final.hand_id}
        lines = list(notes.results)
        if notes.showdown:
            lines.append(notes.showdown)
        # The showdown is posted as it happens and again whole at the end: each line once.
        lines = list(dict.fromkeys(line for text in lines for line in text.splitlines()))
        if final.phase is not Phase.VOID:
            lines.append(wild_summary(final.wild_ranks))
        if notes.reveal:
            lines.append(notes.reveal)
        narrated = "\n".join(notes.log) + "\n"
        log_text = narrated if final.log == "summary" else None
        # A finished hand can be replayed by anyone who clicks (as they saw it); a void one cannot.
        replay = [ReplayButton(final.hand_id)] if final.phase is not Phase.VOID else []
        layout = summary_layout(final, final.hand_no, lines, look=look, log_text=log_text, buttons=replay)
        message = None
        if state.message is not None and state.shows == final.hand_id:
            message = state.message
            if not await self._put(key, message, layout, responder):
                message = None
        if message is None:
            message = await self._post(key, layout)
        else:
            state.message = None
        state.drawn = None
        state.shows = None
        # Between hands the table message shows who won the hand just played (issue 17: it showed
        # the hand's last log lines), then what happens at the table until the next deal.
        # The narrator's pot lines ("Bea wins the pot of 90", "The pot of 90 is split: ...").
        won = [line for line in lines if " wins " in line or " is split: " in line]
        results = [f"Hand #{final.hand_no}: {line}" for line in won] or [f"Hand #{final.hand_no} is over."]
        state.recent = [*results, *(line for line in state.recent if line not in notes.log)]
        if final.log == "thread":
            with _logged(key, "post the hand log in a thread"):
                await self._thread(key, message, final.hand_no, narrated)

    async def _delete(self, key: TableKey, message_id: int) -> None:
        """Delete a message of ours; already gone or not allowed (``Forbidden``) both end with the
        caller forgetting it, so a stale id is never drawn on again."""
        try:
            await self._channel(key).get_partial_message(message_id).delete()
        except discord.NotFound:
            pass
        except discord.Forbidden as exc:
            log.warning("could not delete message %s in channel %s: %s", message_id, key.channel, exc)

    async def _thread(self, key: TableKey, message_id: int, hand_no: int, text: str) -> None:
        """The full log in a thread of the summary message (``log: thread``), its names' Markdown
        escaped like every public line."""
        # Through the HTTP client: a partial message has no guild before the gateway is ready.
        data = await self.bot.http.start_thread_with_message(
            key.channel, message_id, name=f"Hand #{hand_no} log", auto_archive_duration=1440
        )
        thread = self.bot.get_partial_messageable(
            int(data["id"]), guild_id=key.guild, type=discord.ChannelType.public_thread
        )
        for chunk in split_text(plain(text), 2000):
            await thread.send(chunk, allowed_mentions=_QUIET)

    async def _closed(
        self, key: TableKey, state: _TableState, table_id: int, responder: _Responder | None
    ) -> None:
        """The table was closed: its message says so without buttons; the ping goes."""
        await self._recall(state, table_id)
        with _logged(key, "take the buttons off the closed table's message"):
            if state.message is not None:
                await self._put(key, state.message, closed_layout("Table closed."), responder)
            if state.choice is not None:
                await self._delete(key, state.choice)
            await self._drop_ping(key, state, with_channel=True)
        state.message = None
        await self._remember(state, table_id)

    async def _put(
        self, key: TableKey, message_id: int, layout: Layout, responder: _Responder | None
    ) -> bool:
        """Draw ``layout`` on message ``message_id``: in the interaction's response when the
        interaction came from that message and is not answered yet (no channel request), else
        by a channel edit. False when the message is gone (or Discord refused the edit)."""
        files = await self._files(key, message_id, layout)
        try:
            return await self._edit(key, message_id, layout, files, responder)
        except discord.HTTPException as exc:
            if files is not None or exc.status != 400 or isinstance(exc, discord.NotFound):
                raise
            # Refused with the attachment kept: send the picture again rather than lose the message.
            log.warning("table message %s refused its kept picture (%s); uploading it again", message_id, exc)
            return await self._edit(key, message_id, layout, await drawn_files(layout),
                                    responder)

    async def _edit(
        self, key: TableKey, message_id: int, layout: Layout, files: list[discord.File] | None,
        responder: _Responder | None,
    ) -> bool:
        """``_put`` with ``files`` (None: the attachments the message has stay as they are). Raises
        Discord's 400 when the attachments were kept, for ``_put`` to send them again."""
        body: dict[str, Any] = {"view": layout.view, "allowed_mentions": _QUIET}
        if files is not None:
            body["attachments"] = files
        if responder is not None:
            interaction = responder.interaction
            source = interaction.message
            if interaction.type in _ANSWERABLE and source is not None and source.id == message_id:
                async with responder.lock:
                    if not interaction.response.is_done():
                        await interaction.response.edit_message(**body)
                        self._attached(key, message_id, layout)
                        return True
            if await self._put_through_click(key, message_id, layout, body, interaction.user.id):
                return True
        message = self._channel(key).get_partial_message(message_id)
        try:
            await message.edit(**body)
        except discord.NotFound:
            return False
        except discord.HTTPException as exc:
            if exc.status != 400 or files is None:
                raise
            log.warning("could not edit table message %s (%s); posting a new one", message_id, exc)
            return False
        self._attached(key, message_id, layout)
        return True

    async def _put_through_click(
        self, key: TableKey, message_id: int, layout: Layout, body: dict[str, Any], member: int
    ) -> bool:
        """Draw ``layout`` (as ``body``, the edit ``_put`` would make) on the table message through
        the webhook of ``member``'s kept click on it (``keep_table_click``), once, while its token
        lives; False if there is none (or Discord refused: the channel edit follows)."""
        state = self._tables.get(key)
        kept = state.table_clicks.pop(member, None) if state is not None else None
        if kept is None:
            return False
        click, at = kept
        fresh = asyncio.get_running_loop().time() - at < PING_TOKEN_LIFE
        if not fresh or click.message is None or click.message.id != message_id:
            return False
        try:
            await click.edit_original_response(**body)
        except discord.HTTPException as exc:
            log.info("could not edit table message %s through a kept click (%s)", message_id, exc.status)
            return False
        self._attached(key, message_id, layout)
        return True

    async def _post(self, key: TableKey, layout: Layout) -> int:
        files = await drawn_files(layout)
        message = await self._channel(key).send(view=layout.view, files=files, allowed_mentions=_QUIET)
        self._attached(key, message.id, layout)
        return message.id

    async def _files(self, key: TableKey, message_id: int, layout: Layout) -> list[discord.File] | None:
        """The files an edit of ``message_id`` to ``layout`` uploads, drawn off the event loop; None
        when the message keeps what it has (the same table picture, and no other file)."""
        state = self._tables.get(key)
        if (layout.picture is not None and not layout.files and state is not None
                and state.attached == (message_id, layout.picture)):
            return None
        return await drawn_files(layout)

    def _attached(self, key: TableKey, message_id: int, layout: Layout) -> None:
        """Remember the table picture message ``message_id`` now has."""
        state = self._tables.get(key)
        if state is not None:
            state.attached = (message_id, layout.picture) if layout.picture is not None else None

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
        if stored is not None and state.message is None:
            state.message, state.shows = stored
        state.saved = stored

    async def _remember(self, state: _TableState, table_id: int) -> None:
        """Keep the table message's id (and the hand it shows) in the store, when it changed."""
        current = (state.message, state.shows) if state.message is not None else None
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

    # ------------------------------------------------------------------ the ping
    async def _ping(
        self, key: TableKey, state: _TableState, interaction: discord.Interaction[Any] | None
    ) -> None:
        """Ping the player to act once per turn (again for a reminder), through ``interaction``'s
        webhook when it was answered, else in the channel; delete the previous ping."""
        snapshot = state.snapshot
        prompt = snapshot.prompt if snapshot is not None and snapshot.phase is Phase.IN_HAND else None
        answered = interaction is not None and interaction.response.is_done()
        if interaction is not None:
            await self._drop_stale(key, state)
        reminder, state.reminder = state.reminder, None
        if prompt is None:
            await self._drop_ping(key, state, with_channel=interaction is not None)
            state.pinged = None
            return
        turn = (prompt.hand_id, prompt.turn)
        if reminder is not None and (reminder.hand_id, reminder.turn) == turn:
            prompt = reminder
        elif turn == state.pinged:
            return
        # A timer moved the turn (or reminds): its ping replaces the last one at once, so the
        # channel never keeps a ping for a turn that is over.
        await self._drop_ping(key, state, with_channel=True)
        text = prompt_line(prompt, self._deadline(state, prompt))
        mentions = discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(prompt.member)])
        loop = asyncio.get_running_loop()
        if interaction is not None and answered:
            sent = await interaction.followup.send(text, allowed_mentions=mentions, wait=True)
            state.ping = _Ping(sent.id, turn, interaction.followup, loop.time())
        else:
            message = await self._channel(key).send(text, allowed_mentions=mentions)
            state.ping = _Ping(message.id, turn, None, loop.time())
        state.pinged = turn

    async def _drop_ping(self, key: TableKey, state: _TableState, *, with_channel: bool) -> None:
        """Delete the current ping: through its interaction's webhook while the token lives; a
        channel ping now if ``with_channel``, else with the next interaction."""
        ping, state.ping = state.ping, None
        if ping is None:
            return
        age = asyncio.get_running_loop().time() - ping.sent
        if ping.webhook is not None and age < PING_TOKEN_LIFE:
            with contextlib.suppress(discord.NotFound), _logged(key, "delete the last ping"):
                await ping.webhook.delete_message(ping.message_id)
            return
        state.stale.append(ping.message_id)
        if with_channel:
            await self._drop_stale(key, state)

    async def _drop_stale(self, key: TableKey, state: _TableState) -> None:
        """Delete one channel ping left by a timer (one per interaction keeps it within budget)."""
        if not state.stale:
            return
        message_id = state.stale.pop(0)
        with contextlib.suppress(discord.NotFound), _logged(key, "delete an old ping"):
            await self._channel(key).get_partial_message(message_id).delete()

    # ------------------------------------------------------------------ helpers
    def _deadline(self, state: _TableState, prompt: Prompt) -> int | None:
        """The Unix time ``prompt``'s turn times out (for ``<t:UNIX:R>``), fixed once per turn so a
        reminder or another update of the same turn draws the same text (and nothing is redrawn)."""
        if prompt.deadline is None:
            return None
        turn = (prompt.hand_id, prompt.turn, prompt.deadline)
        if state.deadline is None or state.deadline[0] != turn:
            wall = self.wall_clock().timestamp() + (prompt.deadline - state.now)
            state.deadline = (turn, round(wall))
        return state.deadline[1]

    def _channel(self, key: TableKey) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(
            key.channel, guild_id=key.guild, type=discord.ChannelType.text
        )

    def _state(self, key: TableKey) -> _TableState:
        state = self._tables.get(key)
        if state is None:
            state = self._tables[key] = _TableState()
        return state

