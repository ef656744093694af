"""The Discord bot: ``WildstudBot``, a ``commands.Bot`` that deals Wildstud tables.

Start-up (``setup_hook``, which runs once, after login and before any gateway event):

1. load the cogs (``cogs.table``, ``cogs.betting``, ``cogs.rulings``, ``cogs.chips``,
   ``cogs.hand``); each adds its controls (``DynamicItem`` buttons and selects, built from their
   ``custom_id``) to the click router (``bot.discord.clicks``), so clicks on messages posted before
   a restart still reach them;
2. open the store (``DATABASE_PATH``), build the Discord presenter and the table service;
3. restore every open table and resume its unfinished hand (replayed from the stored deck and
   action log; the player to act is prompted again and the timers re-armed). With ``SHARD_COUNT``
   or a PostgreSQL database, several processes may share the database: only the tables of this
   process's shards whose lease it can take (``bot.tables.leases``), and a keeper task renews the
   leases and takes over tables whose lease lapsed; ``make_bot`` builds an ``AutoShardedBot``
   when ``SHARD_COUNT`` is set;
4. with ``DEV_GUILD_ID`` set, copy the global commands to that guild and sync it (guild commands
   update at once; global ones are only synced by ``wildstud sync`` or the owner's
   ``@Wildstud sync``, never on every start: Discord rate-limits command registration).

The bot reads no gateway event about its own messages (its edits of the table message, its pings
and DMs: ``_skip_own_message_events``), and its controls' clicks are dispatched by the click router
(``bot.discord.clicks``), not by discord.py's view store: neither rebuilds a whole message per click.

``close()`` stops the gateway, cancels the table timers and closes the store (aiosqlite's worker
thread would otherwise keep the process alive). Default intents only: interactions carry the
member, their roles and permissions, so no privileged intent is needed.

Every slash-command error reaches ``WildstudTree.on_error``, which answers with a short ephemeral
reason (``bot.discord.ui.errors.answer_error``); buttons and modals do the same in their callbacks.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.clicks import ClickRouter
from bot.discord.presenter import DiscordPresenter
from bot.discord.ui.errors import answer_error
from bot.render.pictures import warm as warm_pictures
from bot.settings import Settings, load_settings
from bot.store import Store
from bot.tables.clock import Clock
from bot.tables.leases import TableLeases
from bot.tables.options import TableOptions
from bot.tables.service import TableService
from bot.tables.stats import catch_up

log = logging.getLogger(__name__)

EXTENSIONS: tuple[str, ...] = (
    "cogs.table", "cogs.betting", "cogs.rulings", "cogs.chips", "cogs.hand", "cogs.stats", "cogs.tournament",
)
"""The cogs loaded at start-up, in order."""

ALLOWED_MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)
"""Never ping @everyone or roles, whatever a display name says."""


class WildstudTree(app_commands.CommandTree[Any]):
    """The command tree: one error handler for every slash command (see ``bot.discord.ui.errors``)."""

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError, /
    ) -> None:
        await answer_error(interaction, error)


class WildstudBot(commands.Bot):
    """The Wildstud Discord bot (see the module docstring).

    ``settings``: token, database path, dev guild (default: ``load_settings()``). ``database_path``
    overrides the settings' path. ``clock`` and ``rng`` go to the table service (a ``FakeClock``
    and a seeded ``random.Random`` in tests; the defaults are the event loop's clock and the OS
    CSPRNG). ``table_options``: timers for new tables. ``commands_only``: load the cogs and
    nothing else (for ``wildstud sync``, which only registers the commands).
    """

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        database_path: str | Path | None = None,
        clock: Clock | None = None,
        rng: random.Random | None = None,
        table_options: TableOptions | None = None,
        commands_only: bool = False,
        **options: Any,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            tree_cls=WildstudTree,
            allowed_mentions=ALLOWED_MENTIONS,
            help_command=None,
            # No message cache: the bot never reads a message back from it (it edits and deletes
            # by id), and every gateway message event would otherwise copy and update its entry.
            max_messages=None,
            **options,
        )
        self.settings = settings if settings is not None else load_settings()
        # A SQLite path or a postgresql:// URL (never wrapped in Path: that would mangle a URL).
        self.database_path: str | Path = (
            database_path if database_path is not None else self.settings.database
        )
        self.clock = clock
        self.rng = rng
        self.table_options = table_options
        self.commands_only = commands_only
        self._store: Store | None = None
        self._service: TableService | None = None
        self._presenter: DiscordPresenter | None = None
        self.leases: TableLeases | None = None
        """This process's table leases (with ``SHARD_COUNT`` or PostgreSQL; else None)."""
        self._lease_keeper: asyncio.Task[None] | None = None
        self._pictures_warm: asyncio.Task[None] | None = None
        self._stats_catch_up: asyncio.Task[None] | None = None
        self.names: dict[int, str] = {}
        """Display names of members seen in interactions, by member id (for leaderboards)."""
        self.clicks = ClickRouter()
        """Every control's clicks (``bot.discord.clicks``); the cogs add their controls to it."""
        self._skip_own_message_events()
        self.add_command(sync_command)

    def _skip_own_message_events(self) -> None:
        """Read no gateway event about a message of the bot's own, created or edited.

        Every click edits the table message and posts a ping, and Discord tells the bot of each
        (``MESSAGE_UPDATE`` with the whole table message, ``MESSAGE_CREATE``): discord.py would
        build a ``Message`` of each (the table message's every component) only to dispatch events
        nothing of Wildstud listens to (it keeps no message cache, and a bot's own message is never
        a command). The events' parsers (discord.py's ``ConnectionState.parsers``, by event name)
        are wrapped to drop those whose author is this bot; every other message event (the
        owner's ``@Wildstud sync``) is read as before."""
        parsers: dict[str, Any] | None = getattr(self._connection, "parsers", None)
        if parsers is None:
            log.warning("discord.py has no event parsers to wrap: the bot's own message events are read")
            return
        state = self._connection
        for event in ("MESSAGE_CREATE", "MESSAGE_UPDATE"):
            parse = parsers[event]

            def unless_own(data: Any, parse: Any = parse) -> None:
                author = data.get("author")
                if author is not None and state.self_id is not None and int(author["id"]) == state.self_id:
                    return
                parse(data)

            parsers[event] = unless_own

    # ------------------------------------------------------------------ the parts
    @property
    def store(self) -> Store:
        """The open store (after ``setup_hook``)."""
        if self._store is None:
            raise RuntimeError("the bot has not opened its store yet")
        return self._store

    @property
    def service(self) -> TableService:
        """The table service (after ``setup_hook``)."""
        if self._service is None:
            raise RuntimeError("the bot has not started its table service yet")
        return self._service

    @property
    def presenter(self) -> DiscordPresenter:
        """The Discord presenter of the table service (after ``setup_hook``)."""
        if self._presenter is None:
            raise RuntimeError("the bot has not started its presenter yet")
        return self._presenter

    # ------------------------------------------------------------------ life cycle
    async def setup_hook(self) -> None:
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if self.commands_only:
            return
        self._store = await Store.open(self.database_path)
        self._presenter = DiscordPresenter(self, self._store)
        # The pictures' fonts and palette load in a thread now rather than on the first click.
        self._pictures_warm = asyncio.create_task(asyncio.to_thread(warm_pictures), name="wildstud: pictures")
        if self.settings.shard_count is not None or self._store.backend == "postgresql":
            # Several processes may share this database: each table is driven by its lease holder.
            self.leases = TableLeases(
                self._store,
                shard_count=self.settings.shard_count,
                shard_ids=self.settings.shard_ids,
                seconds=self.settings.lease_seconds,
            )
        self._service = TableService(
            self._store, self._presenter, clock=self.clock, rng=self.rng, default_options=self.table_options,
            leases=self.leases,
        )
        tables = await self._service.start()
        log.info("store %s open; %d table(s) restored", self._store.target, len(tables))
        if self.leases is not None:
            log.info(
                "table leases as %s (shards %s of %s); %d table(s) held by other processes",
                self.leases.owner, self.settings.shard_ids, self.settings.shard_count,
                len(self.leases.elsewhere),
            )
            self._lease_keeper = asyncio.create_task(
                self.leases.run(self._service), name="wildstud: table leases"
            )
        # Stat lines of hands settled before stats were kept (or whose lines were not written),
        # in the background: a big old database must not hold up the start.
        self._stats_catch_up = asyncio.create_task(self._catch_up_stats(), name="wildstud: stats catch-up")
        if self.settings.dev_guild_id is not None:
            await self._sync_dev_guild(self.settings.dev_guild_id)

    async def _catch_up_stats(self) -> None:
        """Write the missing stat lines (``bot.tables.stats.catch_up``); a failure is logged (the
        next start tries again), never fatal."""
        try:
            done = await catch_up(self.store)
        except Exception:
            log.exception("the stats catch-up stopped; the next start tries again")
            return
        if done:
            log.info("stat lines written for %d older hand(s)", done)

    async def _sync_dev_guild(self, guild_id: int) -> None:
        """Copy the commands to the ``DEV_GUILD_ID`` server; a refusal is logged, not fatal."""
        guild = discord.Object(guild_id)
        self.tree.copy_global_to(guild=guild)
        try:
            synced = await self.tree.sync(guild=guild)
        except discord.HTTPException as exc:
            log.warning(
                "could not register the slash commands in DEV_GUILD_ID %s: %s. Is the bot in that"
                " server, invited with the applications.commands scope? Running on without them.",
                guild_id,
                exc,
            )
            return
        log.info("synced %d command(s) to the dev guild %s", len(synced), guild_id)

    async def close(self) -> None:
        """Stop the gateway, cancel the table timers, close the store."""
        try:
            await super().close()
        finally:
            if self._stats_catch_up is not None:
                self._stats_catch_up.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._stats_catch_up
                self._stats_catch_up = None
            if self._pictures_warm is not None:     # a thread: it cannot be cancelled, it ends soon
                with contextlib.suppress(Exception):
                    await self._pictures_warm
                self._pictures_warm = None
            if self._lease_keeper is not None:
                self._lease_keeper.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._lease_keeper
                self._lease_keeper = None
            if self._service is not None:
                await self._service.close()
            if self.leases is not None and self._store is not None and not self._store.closed:
                try:
                    await self.leases.release()  # a successor takes the tables at once
                except Exception as error:  # they lapse on their own after TABLE_LEASE_SECONDS
                    log.warning("could not release the table leases: %s", error)
            if self._store is not None:
                store, self._store = self._store, None
                await store.close()

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        self.names[interaction.user.id] = interaction.user.display_name
        await self.clicks.route(interaction)

    async def on_command_error(
        self, context: commands.Context[Any], exception: commands.CommandError, /
    ) -> None:
        """Mention commands (``@Wildstud sync``): unknown words are ignored, refusals answered."""
        if isinstance(exception, commands.CommandNotFound):
            return
        if isinstance(exception, commands.NotOwner):
            await context.reply("Only the bot's owner may do that.", mention_author=False)
            return
        if isinstance(exception, commands.UserInputError):
            await context.reply(f"{exception} (try `sync` or `sync global`)", mention_author=False)
            return
        await super().on_command_error(context, exception)

    async def on_ready(self) -> None:
        log.info("logged in as %s in %d server(s)", self.user, len(self.guilds))


class ShardedWildstudBot(WildstudBot, commands.AutoShardedBot):
    """:class:`WildstudBot` as an ``AutoShardedBot`` over ``SHARD_IDS`` of ``SHARD_COUNT`` shards
    (pass ``shard_count`` and ``shard_ids`` as keyword arguments; see :func:`make_bot`)."""


def make_bot(settings: Settings | None = None, **options: Any) -> WildstudBot:
    """The bot the settings ask for: a :class:`ShardedWildstudBot` over ``SHARD_IDS`` when
    ``SHARD_COUNT`` is set, else a plain (unsharded) :class:`WildstudBot`."""
    settings = settings if settings is not None else load_settings()
    if settings.shard_count is None:
        return WildstudBot(settings, **options)
    shard_ids = list(settings.shard_ids or range(settings.shard_count))
    return ShardedWildstudBot(settings, shard_count=settings.shard_count, shard_ids=shard_ids, **options)


@commands.command(name="sync")
@commands.is_owner()
async def sync_command(ctx: commands.Context[WildstudBot], where: str = "here") -> None:
    """``@Wildstud sync [here|global]``: the application owner registers the slash commands,
    in this server (instant) or globally (may take a while to show)."""
    bot = ctx.bot
    if where not in ("here", "global"):
        await ctx.send("Use `sync` (this server) or `sync global` (every server).")
        return
    try:
        if where == "global":
            synced = await bot.tree.sync()
            await ctx.send(f"Synced {len(synced)} command(s) globally.")
            return
        if ctx.guild is None:
            await ctx.send("Use `sync global` in a DM, or `sync` in a server.")
            return
        bot.tree.copy_global_to(guild=ctx.guild)
        synced = await bot.tree.sync(guild=ctx.guild)
    except discord.HTTPException as exc:
        await ctx.send(f"Discord refused the commands: {exc.text or exc.status} (error {exc.code}).")
        return
    await ctx.send(f"Synced {len(synced)} command(s) to this server.")
