"""The Discord presenter's private messages: a player's own cards by DM when a down card comes
(or every street with ``/table dm every-street``), a reply to one player (by DM, else in the
channel mentioning them), and what is said when Discord refuses a DM (50007, ``DM_CLOSED``).
``PrivateMessages`` is a mixin of ``DiscordPresenter``; the attributes it names are the
presenter's.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord

from bot.discord.presenter_state import _HandNotes, _logged, _TableState
from bot.discord.ui.text import plain, split_text
from bot.tables.notices import PrivateNotice, Reply, TableKey, Update

if TYPE_CHECKING:  # pragma: no cover - annotations only
    from bot.render.views import TableSnapshot

log = logging.getLogger("bot.discord.presenter")   # the presenter's own log, as before the split

DM_CLOSED = 50007
"""Discord's "Cannot send messages to this user" (closed DMs, blocked bot, no shared server)."""

DOWN_CARD_STREETS = (3, 7)
"""The streets every player gets a new down card on; Baseball's extra down card (fourth to sixth
street) is one too: a DM goes whenever a player holds more down cards than at their last DM."""

_QUIET = discord.AllowedMentions.none()


class PrivateMessages:
    """DMs and replies for ``DiscordPresenter`` (mixin)."""

    bot: discord.Client
    _dm_channels: dict[int, discord.DMChannel]
    _dm_refused: dict[int, int]
    _dm_opening: asyncio.Lock

    if TYPE_CHECKING:  # DiscordPresenter's own, named here for the type checker
        async def dm_mode(self, guild: int, member: int) -> str: ...
        async def hand_files(
            self, key: TableKey, notice: PrivateNotice, snapshot: TableSnapshot
        ) -> list[discord.File]: ...
        def _channel(self, key: TableKey) -> discord.PartialMessageable: ...

    async def _deliver(
        self, key: TableKey, state: _TableState, update: Update, notices: list[PrivateNotice]
    ) -> None:
        """DM the players who get a new down card (or want every street), concurrently, each
        within ``update.private_timeout``; a failure is told once in the table's recent lines."""
        wanted: list[PrivateNotice] = []
        for n in notices:
            seen = state.down_cards.get((n.hand_id, n.member), 0)
            state.down_cards[(n.hand_id, n.member)] = max(seen, len(n.down_cards))
            if len(n.down_cards) > seen or await self.dm_mode(key.guild, n.member) == "every-street":
                wanted.append(n)
        failures = await asyncio.gather(
            *(self._private(key, state, n, update.private_timeout) for n in wanted)
        )
        for notice, failure in zip(wanted, failures, strict=True):
            if failure is not None:
                told = update.undelivered(notice, failure)
                if told is not None:
                    state.recent.append(told.text)
                    state.hands.setdefault(notice.hand_id, _HandNotes()).log.append(told.text)
                    state.drawn = None     # shown at the next redraw

    async def _private(
        self, key: TableKey, state: _TableState, notice: PrivateNotice, seconds: float
    ) -> str | None:
        if self._dm_refused.get(notice.member) == notice.hand_id:
            return "their direct messages are closed"
        try:
            async with asyncio.timeout(seconds):
                files: list[discord.File] = []
                if state.snapshot is not None and state.snapshot.hand_id == notice.hand_id:
                    files = await self.hand_files(key, notice, state.snapshot)
                await self._dm(notice.member, f"Table in <#{key.channel}>\n{notice.text}", files)
            self._dm_refused.pop(notice.member, None)
        except discord.HTTPException as exc:
            self._dm_refused[notice.member] = notice.hand_id
            if exc.code == DM_CLOSED:
                return "their direct messages are closed"
            log.warning("DM to %s failed: %s %s", notice.member, exc.status, exc.code)
            return f"Discord refused the message, error {exc.code or exc.status}"
        except TimeoutError:
            return "the message timed out"
        except Exception as exc:  # a broken DM must not stall the hand
            log.exception("private message failed")
            return f"error: {exc}"
        return None

    async def _reply(self, key: TableKey, state: _TableState, notice: Reply) -> None:
        """Tell one player something by DM; if that fails (or their DMs were refused before), in the
        channel, mentioning them."""
        if notice.member not in self._dm_refused:
            try:
                await self._dm(notice.member, f"Table in <#{key.channel}>\n{notice.text}", [])
                return
            except discord.HTTPException as exc:
                self._dm_refused[notice.member] = 0
                log.info(
                    "reply to %s not delivered by DM (%s); posted in the channel", notice.member, exc.code
                )
        mentions = discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(notice.member)])
        with _logged(key, "tell a player"):
            text = f"<@{notice.member}> {plain(notice.text)}"[:2000]
            await self._channel(key).send(text, allowed_mentions=mentions)

    async def _dm(self, member: int, text: str, files: list[discord.File]) -> None:
        channel = self._dm_channels.get(member)
        if channel is None:
            # One at a time: discord.py holds back a request while another of the same bucket is
            # out, so opening several DM channels at once would queue (and wait) anyway.
            async with self._dm_opening:
                channel = self._dm_channels.get(member)
                if channel is None:
                    channel = await self.bot.create_dm(discord.Object(member))
                    self._dm_channels[member] = channel
        chunks = split_text(text)
        for i, chunk in enumerate(chunks):
            if i == len(chunks) - 1 and files:
                await channel.send(chunk, files=files, allowed_mentions=_QUIET)
            else:
                await channel.send(chunk, allowed_mentions=_QUIET)
