"""A small fake of the Discord API (REST + gateway) on 127.0.0.1, for the real discord.py client.

``FakeDiscord.start()`` binds an aiohttp server to an ephemeral port and points discord.py at it
by patching ``discord.http.Route.BASE`` (every REST call, interaction callbacks and webhooks
included) and ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` (the websocket URL a plain
``Client``/``Bot`` uses; ``GET /gateway/bot`` answers the same URL for ``AutoShardedBot``).

The fake keeps the world (users, guilds, channels, members, messages with their components and
attachment bytes, DM channels, interactions and every answer) in memory, so a test can drive the
bot as members do (``slash``, ``click``, ``select``, ``submit_modal``, ``autocomplete``) and read
what each member saw. State survives a bot restart: start a new client against the same fake.

Traps it encodes (see README.md): JSON responses carry ``Content-Type: application/json``
exactly (discord.py parses nothing else); a 429 needs a ``Via`` header to be retried; an
interaction payload needs ``attachment_size_limit``; member options need ``data.resolved``;
internal fake errors answer 400, never 5xx (discord.py would retry 5xx for seconds).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import datetime
import json
import logging
import math
import re
import secrets
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import aiohttp
import discord
import yarl
from aiohttp import web

from .components import IS_COMPONENTS_V2, check_v2
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    UPDATE_MESSAGE,
    FakeInteraction,
    Resolved,
    build_command_data,
    encode_value,
    modal_submit_components,
)
from .models import (
    BUTTON,
    DEFAULT_EVERYONE,
    EPHEMERAL,
    JSON,
    LOADING,
    SELECT_TYPES,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    SnowflakeGen,
    iter_components,
)
from .ratelimits import RateLimiter, install_wait_probe

log = logging.getLogger(__name__)

API_PREFIX = "/api/v10"

#: Gateway intent bits the fake looks at (Discord API).
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12

#: Names of the asyncio tasks in which discord.py runs bot code for an event or interaction.
BOT_TASK_PREFIXES: tuple[str, ...] = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch",
    "discord-ui-dynamic-item",
    "discord-ui-modal-dispatch",
    "discord.py: ",
)

#: Message flags a bot may set when it sends or edits a message: suppress embeds, suppress
#: notifications, Components V2.
_KEPT_FLAGS = (1 << 2) | (1 << 12) | IS_COMPONENTS_V2

#: What the bot's own role may do in every fake guild.
BOT_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    read_message_history=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    use_application_commands=True,
    manage_messages=True,
)


class DiscordError(Exception):
    """An API error the fake answers with: HTTP ``status`` and JSON ``{"code", "message"}``."""

    def __init__(self, status: int, code: int, message: str, errors: JSON | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> JSON:
        """The JSON error body."""
        data: JSON = {"code": self.code, "message": self.message}
        if self.errors:
            data["errors"] = self.errors
        return data


def _form_error(fieldname: str, code: str, message: str) -> DiscordError:
    return DiscordError(
        400, 50035, "Invalid Form Body", {fieldname: {"_errors": [{"code": code, "message": message}]}}
    )


@dataclass
class Upload:
    """One file part of a multipart request (``files[N]``)."""

    index: int
    filename: str
    data: bytes
    content_type: str | None


@dataclass
class RecordedRequest:
    """One REST request the bot made, as the fake received it (``path`` is relative to /api/v10).

    Rate limits: ``bucket`` is the fake's bucket key (``channel-messages:<channel id>``,
    ``interaction:<token>``, ...; "" for a route that was never limited: unknown, injected or
    unauthorized); ``remaining`` and ``reset_after`` are what the headers said; ``rate_limited`` is
    ``"user"`` or ``"global"`` when the answer was a 429 from the limits (else ``None``);
    ``counts_global`` says whether the request counted towards the global limit; ``waited`` is how
    long discord.py held the request back before sending it because it knew the bucket was
    exhausted (seconds, 0.0 if it did not wait); ``at`` is when it arrived (``time.monotonic``).
    """

    method: str
    path: str
    query: dict[str, str]
    json: Any
    uploads: list[Upload]
    status: int = 0
    bucket: str = ""
    remaining: int | None = None
    reset_after: float = 0.0
    rate_limited: str | None = None
    counts_global: bool = False
    waited: float = 0.0
    at: float = 0.0

    @property
    def exhausted(self) -> bool:
        """The answer said ``X-RateLimit-Remaining: 0``: discord.py slept until the bucket reset
        before it returned this answer to the bot."""
        return self.remaining == 0 and self.rate_limited is None

    def __repr__(self) -> str:
        return f"<{self.method} {self.path} -> {self.status}>"


@dataclass
class RateLimitWait:
    """discord.py waiting on a rate limit, about ``seconds`` long; ``how``:

    * ``"exhausted"``: the answer to this request used the bucket's last request
      (``X-RateLimit-Remaining: 0``), so discord.py slept until the bucket reset before returning
      it (its HTTP client and its webhook adapter both do): the bot's code waited;
    * ``"bucket"``: discord.py held this request back before sending it, because the bucket was
      exhausted or another request in it was still out (measured in the client);
    * ``"429"``: the request was refused with 429 and discord.py slept ``retry_after`` to retry it.
    """

    method: str
    path: str
    seconds: float
    how: str


@dataclass(frozen=True)
class Traffic:
    """What a stretch of recorded requests cost under Discord's limits (``FakeDiscord.traffic``).

    ``requests``: all of them; ``channel_messages``: message create/edit/delete in channels (the
    5-per-5-s buckets); ``global_counted``: those counted towards the 50/s global limit;
    ``interaction``: interaction callbacks and webhook requests (per token, exempt from the global
    limit); ``rate_limited``: 429 answers from the limits; ``waited``: requests discord.py held back
    or slept on (held before sending, answered with ``Remaining: 0``, or refused with 429);
    ``wait_seconds``: the time those waits add up to.
    """

    requests: int
    channel_messages: int
    global_counted: int
    interaction: int
    rate_limited: int
    waited: int
    wait_seconds: float


@dataclass
class InjectedError:
    """A canned error answer for the next ``times`` requests matching ``method`` and ``pattern``."""

    method: str
    pattern: re.Pattern[str]
    status: int
    body: JSON
    headers: dict[str, str]
    times: int


@dataclass
class GuildSpec:
    """A guild to create when the fake starts: ``FakeDiscord.start(guilds=[GuildSpec(...)])``.

    ``roles`` maps role names to guild permissions; ``member_roles`` maps a member's name to the
    names of their roles.
    """

    name: str = "Home game"
    members: Sequence[str] = ("alice", "bob", "carol")
    channels: Sequence[str] = ("poker",)
    owner: str = "owner"
    roles: Mapping[str, discord.Permissions | int] = field(default_factory=dict)
    member_roles: Mapping[str, Sequence[str]] = field(default_factory=dict)


class _Connection:
    """One gateway websocket connection."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.lock = asyncio.Lock()
        self.heartbeats = 0
        self.heartbeat_seq: int | None = None

    async def send(self, frame: str) -> None:
        async with self.lock:
            if not self.ws.closed:
                await self.ws.send_str(frame)

    async def send_op(self, op: int, d: Any) -> None:
        await self.send(json.dumps({"op": op, "d": d, "s": None, "t": None}))


class GatewaySession:
    """A gateway session (one IDENTIFY); it survives reconnects through RESUME."""

    def __init__(self, session_id: str, intents: int, shard: tuple[int, int] | None) -> None:
        self.id = session_id
        self.intents = intents
        self.shard = shard
        self.seq = 0
        self.events: list[tuple[int, str]] = []
        self.conn: _Connection | None = None
        self.resumes = 0
        self.processed = 0

    @property
    def live(self) -> bool:
        """True while a websocket is attached."""
        return self.conn is not None and not self.conn.ws.closed

    async def dispatch(self, name: str, data: JSON) -> int:
        """Send one DISPATCH event (buffered for replay on RESUME); returns its sequence number."""
        self.seq += 1
        frame = json.dumps({"op": 0, "t": name, "s": self.seq, "d": data})
        self.events.append((self.seq, frame))
        del self.events[:-500]
        if self.conn is not None:
            await self.conn.send(frame)
        return self.seq


class _ErrorLogHandler(logging.Handler):
    def __init__(self, sink: list[str]) -> None:
        super().__init__(level=logging.ERROR)
        self.sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            text += f": {type(exc).__name__}: {exc}"
        self.sink.append(text)


def serves(session: GatewaySession, guild_id: int | None) -> bool:
    """Whether Discord sends ``guild_id``'s events to ``session``: every session without a shard;
    otherwise the shard ``(guild_id >> 22) % shard_count`` (DMs go to shard 0)."""
    if session.shard is None:
        return True
    shard_id, shard_count = session.shard
    return (0 if guild_id is None else (guild_id >> 22) % shard_count) == shard_id


def _utcnow() -> datetime.datetime:
    return discord.utils.utcnow()


class FakeDiscord:
    """The fake Discord: server, world state, drivers and inspection helpers.

    Use ``async with FakeDiscord.start(guilds=[GuildSpec()]) as fake:``; see README.md.

    Attributes:
        bot_user: the bot's user (its ID is also the application ID).
        app_owner: the application's owner (``Bot.is_owner``); by default the user "owner", who is
            also the owner of guilds made by ``add_guild``.
        requests: every REST request received, in order (``RecordedRequest``).
        unhandled: ``"METHOD /path"`` of requests for routes the fake does not implement (404).
        internal_errors: fake bugs hit while answering (answered 400).
        bot_errors: ERROR records logged while the fake ran by the loggers in ``error_loggers``
            (discord.py's unhandled exceptions in commands, views, modals and events; the
            project's ``bot`` and ``cogs`` packages).
        identifies: every IDENTIFY payload (token removed).
        sync_calls: every bulk command sync as ``(guild_id or None, payload)``.
        interaction_deadline: seconds the bot has for the initial response (Discord: 3).
        rate_limits: the ``RateLimiter`` (Discord's per-route and global limits, always on);
            ``time_scale`` shrinks its windows (default 0.01: "5 per 5 s" lasts 50 ms).
        rate_limit_waits: every time discord.py held a request back on a rate limit.
    """

    _active: ClassVar[FakeDiscord | None] = None

    def __init__(
        self,
        *,
        token: str = "fake-token",
        bot_name: str = "Wildstud",
        app_owner: str = "owner",
        error_loggers: Sequence[str] = ("discord", "bot", "cogs"),
        interaction_deadline: float = 3.0,
        heartbeat_interval_ms: int = 45_000,
        time_scale: float = 0.01,
    ) -> None:
        self.ids = SnowflakeGen()
        self.rate_limits = RateLimiter(time_scale)
        self.rate_limit_waits: list[RateLimitWait] = []
        self._pending_waits: dict[tuple[str, str], list[float]] = {}
        self._undo_probe: Callable[[], None] | None = None
        self.token = token
        self.interaction_deadline = interaction_deadline
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.users: dict[int, FakeUser] = {}
        self.bot_user = self._new_user(bot_name, bot=True)
        self.application_id = self.bot_user.id
        self.app_owner = self.user_named(app_owner)
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.dm_channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.attachments: dict[int, FakeAttachment] = {}
        self.interactions: dict[int, FakeInteraction] = {}
        self._by_token: dict[str, FakeInteraction] = {}
        self.requests: list[RecordedRequest] = []
        self.unhandled: list[str] = []
        self.internal_errors: list[str] = []
        self.bot_errors: list[str] = []
        self.identifies: list[JSON] = []
        self.sync_calls: list[tuple[int | None, list[JSON]]] = []
        self.synced: dict[int | None, dict[str, JSON]] = {}
        self.learned: dict[int | None, dict[str, JSON]] = {}
        self.bot_task_prefixes: tuple[str, ...] = BOT_TASK_PREFIXES
        self.sessions: list[GatewaySession] = []
        self._sessions_by_id: dict[str, GatewaySession] = {}
        self._command_ids: dict[tuple[int | None, str], int] = {}
        self._injected: list[InjectedError] = []
        self._inflight = 0
        self._changed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self._connections: set[_Connection] = set()
        self._saved: tuple[str, yarl.URL] | None = None
        self.error_loggers = tuple(error_loggers)
        self._log_handler = _ErrorLogHandler(self.bot_errors)
        self.bots: dict[discord.Client, asyncio.Task[None]] = {}
        self.strict = True
        self.port = 0
        self._route_table = self._routes()

    # -- lifecycle -------------------------------------------------------------------------

    @classmethod
    @contextlib.asynccontextmanager
    async def start(cls, *, guilds: Iterable[GuildSpec] = (), **kwargs: Any) -> AsyncIterator[FakeDiscord]:
        """Run a fake on 127.0.0.1 and point discord.py at it for the ``async with`` block.

        Bots started with ``start_bot`` and still running are closed on exit. Only one fake may run
        at a time in a process (discord.py's base URLs are class attributes).
        """
        fake = cls(**kwargs)
        for spec in guilds:
            fake.add_guild_from_spec(spec)
        await fake.open()
        try:
            yield fake
        finally:
            await fake.close()

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """The REST base discord.py is pointed at (``.../api/v10``)."""
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        """The websocket URL (``ws://127.0.0.1:PORT/gateway``)."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def open(self) -> None:
        """Bind the server, patch discord.py's URLs and start capturing discord.py error logs."""
        if FakeDiscord._active is not None:
            raise RuntimeError("another FakeDiscord is running in this process")
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/{tail:.*}", self._handle)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None and hasattr(server, "sockets")
        self.port = int(server.sockets[0].getsockname()[1])
        self._saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
        discord.http.Route.BASE = self.api_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        self._undo_probe = install_wait_probe(self._note_wait)
        for name in self.error_loggers:
            logging.getLogger(name).addHandler(self._log_handler)
        FakeDiscord._active = self

    async def close(self) -> None:
        """Close running bots, drop connections, stop the server and restore discord.py's URLs."""
        try:
            for bot in list(self.bots):
                with contextlib.suppress(Exception):
                    await self.stop_bot(bot)
            for conn in list(self._connections):
                with contextlib.suppress(Exception):
                    await conn.ws.close(code=1001)
            if self._runner is not None:
                await self._runner.cleanup()
        finally:
            for name in self.error_loggers:
                logging.getLogger(name).removeHandler(self._log_handler)
            if self._saved is not None:
                discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._saved
                self._saved = None
            if self._undo_probe is not None:
                self._undo_probe()
                self._undo_probe = None
            if FakeDiscord._active is self:
                FakeDiscord._active = None

    # -- bots --------------------------------------------------------------------------------

    async def start_bot(
        self,
        bot: discord.Client,
        *,
        token: str | None = None,
        within: float = 5.0,
        guild_ready_timeout: float = 0.01,
    ) -> None:
        """Log ``bot`` in (REST + ``setup_hook``), connect it to the gateway and wait until ready.

        ``guild_ready_timeout`` replaces discord.py's 2 s wait after the last GUILD_CREATE. The
        bot's app-command tree is remembered (``learned``) so ``slash`` can check options without
        a sync.
        """
        await bot.login(token or self.token)
        bot._connection.guild_ready_timeout = guild_ready_timeout
        task = asyncio.create_task(bot.connect(reconnect=False), name="fakediscord: bot connect")
        self.bots[bot] = task
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait({task, ready}, timeout=within, return_when=asyncio.FIRST_COMPLETED)
        if ready not in done:
            ready.cancel()
            if task.done():
                del self.bots[bot]
                exc = task.exception()
                raise AssertionError(f"bot stopped before READY: {exc!r}") from exc
            raise AssertionError(f"bot not ready after {within}s; bot errors: {self.bot_errors}")
        self.learn_commands(bot)

    async def stop_bot(self, bot: discord.Client, *, within: float = 5.0) -> None:
        """Close ``bot`` (as on shutdown) and wait for its gateway task to end."""
        task = self.bots.pop(bot, None)
        sid = getattr(getattr(bot, "ws", None), "session_id", None)
        owned = [s for s in self.sessions if s.id == sid]
        await bot.close()
        if task is not None:
            with contextlib.suppress(discord.ConnectionClosed, asyncio.CancelledError):
                await asyncio.wait_for(task, within)
        await self.wait_for(
            lambda: not any(s.live for s in owned), within, what="the bot's websocket to close"
        )

    async def restart_bot(self, old: discord.Client, new: discord.Client, *, within: float = 5.0) -> None:
        """Stop ``old`` and start ``new`` against the same fake (messages and buttons kept)."""
        await self.stop_bot(old, within=within)
        await self.start_bot(new, within=within)

    def learn_commands(self, bot: discord.Client) -> None:
        """Remember ``bot.tree``'s slash commands (global and per fake guild) as option schemas."""
        tree = getattr(bot, "tree", None)
        if tree is None:
            return
        scopes: list[int | None] = [None, *self.guilds]
        for gid in scopes:
            guild = None if gid is None else discord.Object(id=gid)
            cmds = [c.to_dict(tree) for c in tree.get_commands(guild=guild)]
            self.learned[gid] = {c["name"]: c for c in cmds if c.get("type", 1) == 1}

    # -- world building ----------------------------------------------------------------------

    def _new_user(self, name: str, *, bot: bool = False) -> FakeUser:
        user = FakeUser(id=self.ids.next(), username=name, bot=bot)
        self.users[user.id] = user
        return user

    def user(self, key: str | int) -> FakeUser:
        """Find a user by username or ID; raises ``KeyError``."""
        for u in self.users.values():
            if key in (u.id, u.username):
                return u
        raise KeyError(f"no user {key!r}")

    def user_named(self, name: str) -> FakeUser:
        """The user with this username, created if new (names are unique in the fake)."""
        try:
            return self.user(name)
        except KeyError:
            return self._new_user(name)

    def add_guild(
        self,
        name: str = "Home game",
        *,
        members: Iterable[str] = (),
        channels: Iterable[str] = ("general",),
        owner: str = "owner",
    ) -> FakeGuild:
        """Create a guild with ``@everyone``, the bot (with its role), its owner, members, channels.

        Prefer creating guilds before ``start_bot``; afterwards call ``refresh_guild``.
        """
        owner_user = self.user_named(owner)
        guild = FakeGuild(
            id=self.ids.next(), name=name, owner_id=owner_user.id, ids=self.ids, user_named=self.user_named
        )
        guild.roles[guild.id] = FakeRole(
            id=guild.id, guild_id=guild.id, name="@everyone", permissions=DEFAULT_EVERYONE.value
        )
        bot_role = guild.add_role(self.bot_user.username, BOT_PERMISSIONS)
        guild.add_member(self.bot_user, roles=[bot_role])
        guild.add_member(owner_user)
        for member_name in members:
            guild.add_member(member_name)
        for channel_name in channels:
            guild.add_channel(channel_name)
        self.guilds[guild.id] = guild
        return guild

    def add_guild_from_spec(self, spec: GuildSpec) -> FakeGuild:
        """Create the guild a :class:`GuildSpec` describes."""
        guild = self.add_guild(spec.name, members=spec.members, channels=spec.channels, owner=spec.owner)
        for role_name, perms in spec.roles.items():
            guild.add_role(role_name, perms)
        for member_name, role_names in spec.member_roles.items():
            member = guild.member(member_name)
            member.roles.extend(guild.role(r) for r in role_names)
        return guild

    def guild(self, key: str | int | None = None) -> FakeGuild:
        """A guild by name or ID; with no key, the only guild (raises ``KeyError``/``ValueError``)."""
        if key is None:
            if len(self.guilds) != 1:
                raise ValueError(f"{len(self.guilds)} guilds: name one")
            return next(iter(self.guilds.values()))
        for g in self.guilds.values():
            if key in (g.id, g.name):
                return g
        raise KeyError(f"no guild {key!r}")

    async def refresh_guild(self, guild: FakeGuild) -> None:
        """Re-send GUILD_CREATE so a running bot sees roles/channels/members added after start."""
        self._sync_channel_index()
        for session in self._live_sessions():
            await session.dispatch("GUILD_CREATE", guild.payload())

    def _sync_channel_index(self) -> None:
        for guild in self.guilds.values():
            self.channels.update(guild.channels)

    def dm_channel(self, user: FakeUser | FakeMember) -> FakeChannel:
        """The DM channel between the bot and ``user`` (created on first use, as Discord does)."""
        u = user.user if isinstance(user, FakeMember) else user
        channel = self.dm_channels.get(u.id)
        if channel is None:
            channel = FakeChannel(id=self.ids.next(), name=f"dm-{u.username}", type=1, recipient=u)
            self.dm_channels[u.id] = channel
            self.channels[channel.id] = channel
        return channel

    def set_dm_closed(
        self, user: FakeUser | FakeMember, closed: bool = True, *, on_create: bool = False
    ) -> None:
        """Make DMs to ``user`` fail with Discord error 50007 ("Cannot send messages to this user").

        Sending to the DM channel then answers 403/50007 (``discord.Forbidden``). With
        ``on_create=True`` opening the DM channel (``POST /users/@me/channels``) also fails, with
        400/50007 (``discord.HTTPException``), as Discord does for some closed-DM users.
        """
        u = user.user if isinstance(user, FakeMember) else user
        u.dm_closed = closed
        u.dm_closed_on_create = closed and on_create

    def make_attachment(
        self, filename: str, data: bytes | str, content_type: str | None = None
    ) -> FakeAttachment:
        """A file a member uploads, to pass as an attachment option value to ``slash``."""
        raw = data.encode() if isinstance(data, str) else data
        return self._store_attachment(0, filename, raw, content_type, None)

    def _store_attachment(
        self, channel_id: int, filename: str, data: bytes, content_type: str | None, description: str | None
    ) -> FakeAttachment:
        aid = self.ids.next()
        url = f"{self.base_url}/attachments/{channel_id}/{aid}/{filename}"
        att = FakeAttachment(
            id=aid, filename=filename, data=data, url=url, content_type=content_type, description=description
        )
        self.attachments[aid] = att
        return att

    # -- inspection --------------------------------------------------------------------------

    def message(self, message_id: int) -> FakeMessage:
        """A stored message by ID (deleted ones included); raises ``KeyError``."""
        return self.messages[message_id]

    def channel_messages(
        self, channel: FakeChannel | int, *, include_deleted: bool = False
    ) -> list[FakeMessage]:
        """Public messages in a channel, oldest first (ephemeral ones are never here)."""
        cid = channel if isinstance(channel, int) else channel.id
        return [
            m
            for m in self.messages.values()
            if m.channel_id == cid and not m.ephemeral and (include_deleted or not m.deleted)
        ]

    def last_message(self, channel: FakeChannel | int) -> FakeMessage:
        """The newest public message in a channel; raises ``LookupError`` if there is none."""
        msgs = self.channel_messages(channel)
        if not msgs:
            raise LookupError(f"no messages in channel {channel!r}")
        return msgs[-1]

    def find_message(
        self,
        channel: FakeChannel | int,
        *,
        containing: str | None = None,
        with_button: str | None = None,
    ) -> FakeMessage:
        """The newest public message in ``channel`` whose text contains ``containing`` and/or which
        has a button labelled ``with_button``; raises ``LookupError``."""
        for msg in reversed(self.channel_messages(channel)):
            if containing is not None and containing not in msg.text:
                continue
            if with_button is not None and with_button not in msg.button_labels:
                continue
            return msg
        raise LookupError(f"no message in {channel!r} with text {containing!r} / button {with_button!r}")

    def dms_for(self, user: FakeUser | FakeMember, *, include_deleted: bool = False) -> list[FakeMessage]:
        """Messages in the DM channel between the bot and ``user``, oldest first."""
        u = user.user if isinstance(user, FakeMember) else user
        channel = self.dm_channels.get(u.id)
        return [] if channel is None else self.channel_messages(channel, include_deleted=include_deleted)

    def ephemerals_for(
        self, user: FakeUser | FakeMember, channel: FakeChannel | None = None
    ) -> list[FakeMessage]:
        """Ephemeral messages only ``user`` could see (optionally in one channel), oldest first."""
        return [
            m
            for m in self.messages.values()
            if m.ephemeral_for == user.id
            and not m.deleted
            and (channel is None or m.channel_id == channel.id)
        ]

    def visible_to(
        self, user: FakeUser | FakeMember, channel: FakeChannel | None = None
    ) -> list[FakeMessage]:
        """Everything ``user`` sees in ``channel``: public messages plus their own ephemerals.

        With no channel: every guild channel they are a member of, and their DMs, oldest first.
        """
        uid = user.id
        if channel is not None:
            where = {channel.id}
        else:
            where = {c for g in self.guilds.values() if uid in g.members for c in g.channels}
            dm = self.dm_channels.get(uid)
            if dm is not None:
                where.add(dm.id)
        return [
            m
            for m in self.messages.values()
            if m.channel_id in where and not m.deleted and (not m.ephemeral or m.ephemeral_for == uid)
        ]

    def requests_matching(self, method: str, path: str) -> list[RecordedRequest]:
        """Recorded requests whose method and path match (``{name}`` or ``*`` match one segment)."""
        pattern = _compile_path(path)
        return [r for r in self.requests if r.method == method.upper() and pattern.fullmatch(r.path)]

    def assert_clean(self) -> None:
        """Raise ``AssertionError`` if the bot hit unimplemented routes, a fake bug, or logged errors."""
        problems = []
        if self.unhandled:
            problems.append(f"routes the fake does not implement: {self.unhandled}")
        if self.internal_errors:
            problems.append(f"fake internal errors: {self.internal_errors}")
        if self.bot_errors:
            problems.append(f"errors logged by discord.py: {self.bot_errors}")
        if problems:
            raise AssertionError("; ".join(problems))

    # -- error injection ---------------------------------------------------------------------

    def inject_error(
        self,
        method: str,
        path: str,
        *,
        status: int,
        code: int = 0,
        message: str = "injected error",
        body: JSON | None = None,
        headers: Mapping[str, str] | None = None,
        times: int = 1,
    ) -> None:
        """Answer the next ``times`` requests matching ``method`` and ``path`` with this error.

        ``path`` is relative to /api/v10; ``{name}`` or ``*`` match one path segment, e.g.
        ``inject_error("POST", "/channels/{id}/messages", status=403, code=50013)``.
        """
        self._injected.append(
            InjectedError(
                method=method.upper(),
                pattern=_compile_path(path),
                status=status,
                body=body if body is not None else {"code": code, "message": message},
                headers=dict(headers or {}),
                times=times,
            )
        )

    def rate_limit(
        self, method: str, path: str, *, retry_after: float = 0.05, times: int = 1, is_global: bool = False
    ) -> None:
        """Answer the next matching requests with 429 (with ``Via``, so discord.py waits and retries)."""
        self.inject_error(
            method,
            path,
            status=429,
            times=times,
            body={"message": "You are being rate limited.", "retry_after": retry_after, "global": is_global},
            headers={
                "Via": "1.1 google",
                "Retry-After": str(math.ceil(retry_after)),
                "X-RateLimit-Scope": "global" if is_global else "user",
            },
        )

    @property
    def time_scale(self) -> float:
        """How much shorter than Discord's the rate-limit windows are (1.0 = as on Discord).

        Raises ``ValueError`` when set to 0 or less: the limits cannot be turned off."""
        return self.rate_limits.time_scale

    @time_scale.setter
    def time_scale(self, value: float) -> None:
        self.rate_limits.time_scale = value

    def _note_wait(self, method: str, path: str, seconds: float) -> None:
        self.rate_limit_waits.append(RateLimitWait(method, path[len(API_PREFIX):], seconds, "bucket"))
        self._pending_waits.setdefault((method, path), []).append(seconds)

    def traffic(self, since: int = 0, until: int | None = None) -> Traffic:
        """Sum up ``requests[since:until]`` (take ``len(fake.requests)`` as a mark before an action,
        then ``fake.traffic(mark)`` after it)."""
        recs = self.requests[since:until]
        waits = [r for r in recs if r.waited > 0 or r.exhausted or r.rate_limited is not None]
        seconds = sum(r.waited + (r.reset_after if r.exhausted or r.rate_limited else 0.0) for r in waits)
        return Traffic(
            requests=len(recs),
            channel_messages=sum(1 for r in recs if r.bucket.startswith("channel-messages:")),
            global_counted=sum(1 for r in recs if r.counts_global),
            interaction=sum(1 for r in recs if r.bucket.startswith("interaction:")),
            rate_limited=sum(1 for r in recs if r.rate_limited is not None),
            waited=len(waits),
            wait_seconds=seconds,
        )

    @property
    def rate_limited(self) -> list[RecordedRequest]:
        """Requests answered 429 by the rate limits (not by ``rate_limit``/``inject_error``)."""
        return [r for r in self.requests if r.rate_limited is not None]

    # -- waiting -----------------------------------------------------------------------------

    def _notify(self) -> None:
        event, self._changed = self._changed, asyncio.Event()
        event.set()

    async def wait_for(
        self, predicate: Callable[[], bool], within: float = 5.0, *, what: str = "condition"
    ) -> None:
        """Wait until ``predicate()`` is true, re-checking whenever the fake's state changes.

        Raises ``AssertionError`` (with the bot's logged errors) after ``within`` seconds.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within
        while not predicate():
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(
                    f"timed out after {within}s waiting for {what}; bot errors: {self.bot_errors}"
                )
            event = self._changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), min(remaining, 0.25))

    def _live_sessions(self) -> list[GatewaySession]:
        return [s for s in self.sessions if s.live]

    def _client_ws(self, session: GatewaySession) -> Any:
        """The discord.py websocket object of a bot started here that owns ``session``, if any."""
        for bot in self.bots:
            ws = getattr(bot, "ws", None)
            if ws is not None and getattr(ws, "session_id", None) == session.id:
                return ws
        return None

    async def _barrier(self, session: GatewaySession, within: float) -> None:
        """Return once the client has processed every event sent on ``session`` so far.

        For a bot started with ``start_bot`` this reads its websocket's ``sequence``: discord.py
        sets it and parses the event (creating any command/view task) in one synchronous step,
        so no gateway traffic is needed. Otherwise the fake asks for a heartbeat (op 1) and waits
        for one reporting the last sequence number; that costs one of the client's 110 gateway
        sends per minute, so it is skipped when nothing new was sent.
        """
        conn = session.conn
        target = session.seq
        if conn is None or conn.ws.closed or session.processed >= target:
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within
        ws = self._client_ws(session)
        if ws is not None:
            while (getattr(ws, "sequence", None) or 0) < target:
                if conn.ws.closed or self._client_ws(session) is not ws:
                    return
                if loop.time() > deadline:
                    raise AssertionError(f"the bot did not process gateway event #{target} within {within}s")
                await asyncio.sleep(0)
            session.processed = max(session.processed, target)
            return
        before = conn.heartbeats
        await conn.send_op(1, None)
        await self.wait_for(
            lambda: conn.ws.closed or (conn.heartbeats > before and (conn.heartbeat_seq or 0) >= target),
            within,
            what="the bot to process gateway events",
        )
        session.processed = max(session.processed, conn.heartbeat_seq or 0)

    def _bot_tasks(self) -> list[asyncio.Task[Any]]:
        me = asyncio.current_task()
        return [
            t
            for t in asyncio.all_tasks()
            if t is not me and not t.done() and t.get_name().startswith(self.bot_task_prefixes)
        ]

    async def settle(self, within: float = 5.0) -> None:
        """Wait until the bot is idle: every gateway event processed, every command/view/modal/event
        task discord.py started finished, and no REST request in flight.

        Tasks the bot creates itself are not tracked unless their name starts with one of
        ``bot_task_prefixes``. Raises ``AssertionError`` after ``within`` seconds.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within
        while True:
            remaining = max(deadline - loop.time(), 0.01)
            for session in self._live_sessions():
                await self._barrier(session, remaining)
            tasks = self._bot_tasks()
            if tasks:
                _, pending = await asyncio.wait(tasks, timeout=max(deadline - loop.time(), 0.01))
                if pending:
                    names = sorted(t.get_name() for t in pending)
                    raise AssertionError(
                        f"bot still busy after {within}s: {names}; bot errors: {self.bot_errors}"
                    )
                continue
            if self._inflight:
                await self.wait_for(
                    lambda: self._inflight == 0,
                    max(deadline - loop.time(), 0.01),
                    what="REST requests in flight",
                )
                continue
            await asyncio.sleep(0)
            if not self._bot_tasks() and not self._inflight:
                return

    # -- drivers -----------------------------------------------------------------------------

    def _actor(
        self, who: FakeMember | FakeUser, channel: FakeChannel | None
    ) -> tuple[FakeUser, FakeMember | None, FakeChannel, FakeGuild | None]:
        """(user, member, channel, guild) for an interaction by ``who`` in ``channel``."""
        user = who.user if isinstance(who, FakeMember) else who
        if channel is None and isinstance(who, FakeMember):
            if not who.guild.channels:
                raise ValueError(f"guild {who.guild.name!r} has no channel")
            channel = next(iter(who.guild.channels.values()))
        if channel is None or channel.is_dm:
            channel = channel or self.dm_channel(user)
            if channel.recipient is not None and channel.recipient.id != user.id:
                raise ValueError(f"{user.username} is not in DM channel {channel.id}")
            return user, None, channel, None
        assert channel.guild_id is not None
        guild = self.guilds[channel.guild_id]
        if isinstance(who, FakeMember) and who.guild is not guild:
            raise ValueError(f"{user.username} is a member of {who.guild.name!r}, not of {guild.name!r}")
        member = who if isinstance(who, FakeMember) else guild.member(user.id)
        return user, member, channel, guild

    def _schema_for(self, guild_id: int | None, name: str) -> tuple[JSON | None, int | None, int]:
        """(schema, guild scope, command id) for a top-level command: synced first, then learned."""
        for table in (self.synced, self.learned):
            if guild_id is not None and name in table.get(guild_id, {}):
                schema = table[guild_id][name]
                return schema, guild_id, int(schema.get("id") or self._command_id(guild_id, name))
            if name in table.get(None, {}):
                schema = table[None][name]
                return schema, None, int(schema.get("id") or self._command_id(None, name))
        known = {n for table in (self.synced, self.learned) for scope in table.values() for n in scope}
        if known:
            raise ValueError(f"the bot has no slash command /{name}; it has {sorted(known)}")
        return None, None, self._command_id(None, name)

    def _command_id(self, scope: int | None, name: str) -> int:
        key = (scope, name)
        if key not in self._command_ids:
            self._command_ids[key] = self.ids.next()
        return self._command_ids[key]

    def _interaction_payload(
        self,
        itype: int,
        iid: int,
        token: str,
        user: FakeUser,
        member: FakeMember | None,
        channel: FakeChannel,
        guild: FakeGuild | None,
        data: JSON,
        message: FakeMessage | None,
    ) -> JSON:
        chan = channel.payload()
        payload: JSON = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": itype,
            "token": token,
            "version": 1,
            "data": data,
            "channel_id": str(channel.id),
            "locale": "en-US",
            "attachment_size_limit": 10 * 1024 * 1024,
            "entitlements": [],
        }
        if guild is not None and member is not None:
            chan["permissions"] = str(member.permissions.value)
            bot_member = guild.members.get(self.bot_user.id)
            payload.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": "en-US", "features": []},
                guild_locale="en-US",
                member=member.payload(with_permissions=True),
                app_permissions=str(bot_member.permissions.value if bot_member else BOT_PERMISSIONS.value),
                authorizing_integration_owners={"0": str(guild.id)},
                context=0,
            )
        else:
            payload.update(
                user=user.payload(),
                app_permissions=str(BOT_PERMISSIONS.value),
                authorizing_integration_owners={"1": str(user.id)},
                context=1,
            )
        payload["channel"] = chan
        if message is not None:
            payload["message"] = message.payload(self.application_id)
        return payload

    async def _inject_interaction(
        self,
        itype: int,
        who: FakeMember | FakeUser,
        channel: FakeChannel | None,
        data: JSON,
        *,
        label: str,
        message: FakeMessage | None = None,
        wait: bool,
        within: float,
        expect_response: bool,
    ) -> FakeInteraction:
        user, member, channel, guild = self._actor(who, channel)
        iid = self.ids.next()
        token = f"itok-{iid}-{secrets.token_hex(8)}"
        payload = self._interaction_payload(itype, iid, token, user, member, channel, guild, data, message)
        inter = FakeInteraction(
            fake=self,
            id=iid,
            token=token,
            type=itype,
            user=user,
            member=member,
            channel=channel,
            payload=payload,
            label=label,
            created=asyncio.get_running_loop().time(),
            source_message=message,
        )
        self.interactions[iid] = inter
        self._by_token[token] = inter
        session = self._interaction_session(guild.id if guild is not None else None)
        await session.dispatch("INTERACTION_CREATE", payload)
        if wait:
            await self.settle(within)
            if expect_response and not inter._answered():
                try:
                    await inter.wait_response(within)
                except AssertionError:
                    raise AssertionError(
                        f"{label}: the bot did not answer (callbacks {inter.callbacks},"
                        f" rejected {inter.rejected}); errors logged: {self.bot_errors}"
                    ) from None
        return inter

    def _interaction_session(self, guild_id: int | None = None) -> GatewaySession:
        """The newest live session that receives ``guild_id``'s events (see :func:`serves`)."""
        live = self._live_sessions()
        if not live:
            raise RuntimeError("no bot is connected to the fake (start one with start_bot)")
        mine = [s for s in live if serves(s, guild_id)]
        if not mine:
            raise RuntimeError(f"no connected shard serves guild {guild_id}")
        return mine[-1]

    async def slash(
        self,
        who: FakeMember | FakeUser,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        channel: FakeChannel | None = None,
        wait: bool = True,
        within: float = 5.0,
        expect_response: bool = True,
    ) -> FakeInteraction:
        """``who`` runs the slash command ``command`` (e.g. ``"table create"``) with ``options``.

        Option values: ``str``/``int``/``float``/``bool``, a ``FakeMember``/``FakeUser`` (sent with
        ``data.resolved``), ``FakeRole``, ``FakeChannel`` or an attachment from
        ``make_attachment``. They are checked against the command's schema (synced, else the
        bot's tree) like the Discord client does. ``channel`` defaults to the guild's first channel
        for a member and to the DM channel for a bare user.

        With ``wait`` (default) it returns once the bot is idle (see ``settle``) and, unless
        ``expect_response=False``, raises ``AssertionError`` if the bot did not answer.
        """
        guild = self._actor(who, channel)[3]
        guild_id = guild.id if guild is not None else None
        top = command.strip().lstrip("/").split()[0]
        schema, scope, cmd_id = self._schema_for(guild_id, top)
        data = build_command_data(command, options or {}, schema, command_id=cmd_id, guild_id=scope)
        return await self._inject_interaction(
            APPLICATION_COMMAND,
            who,
            channel,
            data,
            label=f"/{command.strip().lstrip('/')}",
            wait=wait,
            within=within,
            expect_response=expect_response,
        )

    async def autocomplete(
        self,
        who: FakeMember | FakeUser,
        command: str,
        options: Mapping[str, Any],
        *,
        focused: str,
        channel: FakeChannel | None = None,
        within: float = 5.0,
    ) -> FakeInteraction:
        """``who`` is typing option ``focused`` of ``command``; returns once the bot sent choices
        (read them from ``.choices`` / ``.choice_values``)."""
        guild = self._actor(who, channel)[3]
        guild_id = guild.id if guild is not None else None
        top = command.strip().lstrip("/").split()[0]
        schema, scope, cmd_id = self._schema_for(guild_id, top)
        data = build_command_data(
            command, options, schema, command_id=cmd_id, guild_id=scope, focused=focused
        )
        return await self._inject_interaction(
            AUTOCOMPLETE,
            who,
            channel,
            data,
            label=f"autocomplete /{command} {focused}",
            wait=True,
            within=within,
            expect_response=True,
        )

    def _message_ref(self, message: FakeMessage | int | discord.Message) -> FakeMessage:
        mid = message if isinstance(message, int) else message.id
        msg = self.messages.get(mid)
        if msg is None:
            raise LookupError(f"no message {mid}")
        if msg.deleted:
            raise LookupError(f"message {mid} was deleted; nobody can click it")
        return msg

    def _check_can_interact(self, who: FakeMember | FakeUser, msg: FakeMessage, comp: JSON) -> None:
        if comp.get("disabled"):
            raise ValueError(f"component {comp.get('label') or comp.get('custom_id')!r} is disabled")
        if comp.get("type") == BUTTON and (comp.get("style") == 5 or "url" in comp):
            raise ValueError("link buttons open a URL; they send no interaction")
        if msg.ephemeral and msg.ephemeral_for != who.id:
            raise PermissionError(f"message {msg.id} is ephemeral for someone else")

    async def click(
        self,
        who: FakeMember | FakeUser,
        message: FakeMessage | int | discord.Message,
        *,
        label: str | None = None,
        custom_id: str | None = None,
        wait: bool = True,
        within: float = 5.0,
        expect_response: bool = True,
        stale: bool = False,
    ) -> FakeInteraction:
        """``who`` clicks the button with this ``label`` (or ``custom_id``) on ``message``.

        The message's current stored state is sent (as Discord does), so this works for
        messages posted by an earlier bot process too. Disabled buttons, link buttons and
        other people's ephemeral messages raise (a member could not click them). With
        ``stale=True`` the button may be one of an earlier version of the message (newest first):
        a member whose client still shows the message as it was before an edit.
        """
        msg = self._message_ref(message)
        comp = None
        if stale:
            for _content, _embeds, components in reversed(msg.history):
                old = FakeMessage(msg.id, msg.channel_id, msg.guild_id, msg.author, components=components)
                with contextlib.suppress(LookupError):
                    comp = old.find_component(label=label, custom_id=custom_id)
                    break
        if comp is None:
            comp = msg.find_component(label=label, custom_id=custom_id)
        self._check_can_interact(who, msg, comp)
        data: JSON = {"custom_id": comp["custom_id"], "component_type": BUTTON}
        if "id" in comp:
            data["id"] = comp["id"]
        return await self._inject_interaction(
            MESSAGE_COMPONENT,
            who,
            self.channels[msg.channel_id],
            data,
            message=msg,
            label=f"click {label or custom_id!r}",
            wait=wait,
            within=within,
            expect_response=expect_response,
        )

    async def select(
        self,
        who: FakeMember | FakeUser,
        message: FakeMessage | int | discord.Message,
        values: Sequence[Any],
        *,
        placeholder: str | None = None,
        custom_id: str | None = None,
        wait: bool = True,
        within: float = 5.0,
        expect_response: bool = True,
    ) -> FakeInteraction:
        """``who`` picks ``values`` in a select menu (string values, or members/roles/channels for
        the entity selects) found by ``placeholder`` or ``custom_id``."""
        msg = self._message_ref(message)
        comp = msg.find_component(label=placeholder, custom_id=custom_id, types=SELECT_TYPES)
        self._check_can_interact(who, msg, comp)
        ctype = int(comp["type"])
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise ValueError(f"select takes {lo}..{hi} values, not {len(values)}")
        data: JSON = {"custom_id": comp["custom_id"], "component_type": ctype}
        if ctype == 3:
            allowed = [o["value"] for o in comp.get("options", [])]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise ValueError(f"select options are {allowed}; {bad} are not among them")
            data["values"] = [str(v) for v in values]
        else:
            resolved = Resolved()
            kind = {5: 6, 6: 8, 7: 9, 8: 7}[ctype]
            data["values"] = [encode_value(v, kind, "v", resolved, focused=False)["value"] for v in values]
            data["resolved"] = resolved.payload()
        return await self._inject_interaction(
            MESSAGE_COMPONENT,
            who,
            self.channels[msg.channel_id],
            data,
            message=msg,
            label=f"select {placeholder or custom_id!r}",
            wait=wait,
            within=within,
            expect_response=expect_response,
        )

    async def submit_modal(
        self,
        source: FakeInteraction,
        values: Mapping[str, Any],
        *,
        wait: bool = True,
        within: float = 5.0,
        expect_response: bool = True,
    ) -> FakeInteraction:
        """The member who got the modal opened by ``source`` fills it in with ``values`` (keyed by
        each input's custom_id or label) and submits it."""
        modal = source.modal
        if modal is None:
            raise ValueError(f"{source.label}: the bot did not open a modal (callbacks: {source.callbacks})")
        data: JSON = {"custom_id": modal["custom_id"], "components": modal_submit_components(modal, values)}
        who: FakeMember | FakeUser = source.member if source.member is not None else source.user
        return await self._inject_interaction(
            MODAL_SUBMIT,
            who,
            source.channel,
            data,
            message=source.source_message,
            label=f"submit modal {modal.get('title')!r}",
            wait=wait,
            within=within,
            expect_response=expect_response,
        )

    async def send_user_message(
        self, who: FakeMember | FakeUser, channel: FakeChannel | None, content: str
    ) -> FakeMessage:
        """``who`` posts ``content`` in ``channel`` (their DM with the bot if None): MESSAGE_CREATE."""
        user, member, channel, _ = self._actor(who, channel)
        msg = FakeMessage(
            id=self.ids.next(), channel_id=channel.id, guild_id=channel.guild_id, author=user, content=content
        )
        self.messages[msg.id] = msg
        await self._dispatch_message_event("MESSAGE_CREATE", msg, member)
        await self.settle()
        return msg

    async def reconnect_bot(self, *, within: float = 5.0) -> None:
        """Ask every connected bot to reconnect (op 7 RECONNECT) and wait until it RESUMEd."""
        sessions = self._live_sessions()
        before = {s.id: s.resumes for s in sessions}
        for s in sessions:
            assert s.conn is not None
            await s.conn.send_op(7, None)
        await self.wait_for(
            lambda: all(s.resumes > before[s.id] and s.live for s in sessions),
            within,
            what="the bot to RESUME",
        )

    # -- HTTP plumbing -----------------------------------------------------------------------

    @staticmethod
    def _json(data: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> web.Response:
        # discord.py parses a body only if Content-Type is exactly "application/json" (no charset).
        hdrs = {"Content-Type": "application/json", **(headers or {})}
        return web.Response(body=json.dumps(data).encode(), status=status, headers=hdrs)

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        path = request.path
        if path == "/gateway":
            return await self._gateway(request)
        if path.startswith("/attachments/"):
            return self._serve_attachment(path)
        if not path.startswith(API_PREFIX):
            self.unhandled.append(f"{request.method} {path}")
            return self._json({"code": 0, "message": "404: Not Found"}, 404)
        rel = path[len(API_PREFIX) :]
        self._inflight += 1
        try:
            return await self._handle_api(request, rel)
        finally:
            self._inflight -= 1
            self._notify()

    async def _handle_api(self, request: web.Request, rel: str) -> web.Response:
        method = request.method
        try:
            body, uploads = await _read_body(request)
        except Exception as exc:  # a malformed body is a fake bug or a client bug: say so loudly
            self.internal_errors.append(f"{method} {rel}: cannot read body: {exc!r}")
            return self._json({"code": 50109, "message": "The request body contains invalid JSON."}, 400)
        rec = RecordedRequest(method=method, path=rel, query=dict(request.query), json=body, uploads=uploads,
                              at=time.monotonic())
        pending = self._pending_waits.get((method, request.path))
        if pending:
            rec.waited = pending.pop(0)
        self.requests.append(rec)
        for inj in self._injected:
            if inj.times > 0 and inj.method == method and inj.pattern.fullmatch(rel):
                inj.times -= 1
                rec.status = inj.status
                return self._json(inj.body, inj.status, inj.headers)
        handler, params, template = self._route(method, rel)
        if handler is None:
            self.unhandled.append(f"{method} {rel}")
            rec.status = 404
            return self._json({"code": 0, "message": "404: Not Found"}, 404)
        needs_auth = not rel.startswith(("/interactions/", "/webhooks/"))
        if needs_auth and request.headers.get("Authorization") != f"Bot {self.token}":
            rec.status = 401
            return self._json({"code": 0, "message": "401: Unauthorized"}, 401)
        decision = self.rate_limits.check(method, template, params, request.headers.get("Authorization", ""))
        rec.bucket, rec.remaining, rec.reset_after = decision.bucket, decision.remaining, decision.reset_after
        rec.counts_global = decision.counts_global
        if decision.limited is not None:
            rec.status = 429
            rec.rate_limited = decision.limited
            rec.reset_after = decision.retry_after
            self.rate_limit_waits.append(RateLimitWait(method, rel, decision.retry_after, "429"))
            return self._json(RateLimiter.body(decision), 429, decision.headers)
        if decision.remaining == 0:
            # discord.py (its HTTP client and its webhook adapter alike) sleeps Reset-After before it
            # returns an answer that used a bucket's last request.
            self.rate_limit_waits.append(RateLimitWait(method, rel, decision.reset_after, "exhausted"))
        limits = decision.headers
        try:
            status, data = await handler(request, params, body, uploads)
        except DiscordError as err:
            rec.status = err.status
            return self._json(err.body(), err.status, limits)
        except Exception as exc:
            log.exception("fake discord failed on %s %s", method, rel)
            self.internal_errors.append(f"{method} {rel}: {exc!r}")
            rec.status = 400
            return self._json({"code": 0, "message": f"fake discord internal error: {exc!r}"}, 400, limits)
        rec.status = status
        if status == 204:
            return web.Response(status=204, headers=limits)
        return self._json(data, status, limits)

    def _route(self, method: str, rel: str) -> tuple[Any, dict[str, str], str]:
        for m, pattern, handler, template in self._route_table:
            if m == method:
                match = pattern.fullmatch(rel)
                if match:
                    return handler, match.groupdict(), template
        return None, {}, ""

    def _routes(self) -> list[tuple[str, re.Pattern[str], Callable[..., Awaitable[tuple[int, Any]]], str]]:
        table = [
            ("GET", "/users/@me", self._get_me),
            ("GET", "/oauth2/applications/@me", self._get_app),
            ("GET", "/gateway", self._get_gateway),
            ("GET", "/gateway/bot", self._get_gateway_bot),
            ("POST", "/users/@me/channels", self._create_dm),
            ("GET", "/users/{user_id}", self._get_user),
            ("GET", "/channels/{channel_id}", self._get_channel),
            ("POST", "/channels/{channel_id}/typing", self._typing),
            ("POST", "/channels/{channel_id}/messages", self._create_message),
            ("GET", "/channels/{channel_id}/messages", self._history),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self._get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self._edit_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self._delete_message),
            ("POST", "/channels/{channel_id}/messages/{message_id}/threads", self._start_thread),
            ("GET", "/guilds/{guild_id}", self._get_guild),
            ("GET", "/guilds/{guild_id}/channels", self._get_guild_channels),
            ("GET", "/guilds/{guild_id}/roles", self._get_guild_roles),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member),
            ("GET", "/applications/{app_id}/commands", self._get_commands),
            ("PUT", "/applications/{app_id}/commands", self._put_commands),
            ("GET", "/applications/{app_id}/guilds/{guild_id}/commands", self._get_commands),
            ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", self._put_commands),
            ("POST", "/interactions/{interaction_id}/{token}/callback", self._callback),
            ("POST", "/webhooks/{app_id}/{token}", self._followup),
            ("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", self._webhook_get),
            ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", self._webhook_edit),
            ("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", self._webhook_delete),
        ]
        return [(m, _compile_path(p, named=True), h, p) for m, p, h in table]

    def _serve_attachment(self, path: str) -> web.Response:
        parts = path.split("/")
        try:
            att = self.attachments[int(parts[3])]
        except (IndexError, ValueError, KeyError):
            return web.Response(status=404)
        return web.Response(
            body=att.data, headers={"Content-Type": att.content_type or "application/octet-stream"}
        )

    # -- REST: identity ----------------------------------------------------------------------

    async def _get_me(self, *_: Any) -> tuple[int, Any]:
        data = self.bot_user.payload()
        data.update(verified=True, mfa_enabled=False, flags=0, locale="en-US")
        return 200, data

    async def _get_app(self, *_: Any) -> tuple[int, Any]:
        return 200, {
            "id": str(self.application_id),
            "name": self.bot_user.username,
            "description": "",
            "icon": None,
            "bot_public": False,
            "bot_require_code_grant": False,
            "owner": self.app_owner.payload(),
            "verify_key": "0" * 64,
            "flags": 0,
            "team": None,
        }

    async def _get_gateway(self, *_: Any) -> tuple[int, Any]:
        return 200, {"url": self.gateway_url}

    async def _get_gateway_bot(self, *_: Any) -> tuple[int, Any]:
        return 200, {
            "url": self.gateway_url,
            "shards": 1,
            "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1},
        }

    async def _get_user(self, _r: web.Request, p: dict[str, str], *_: Any) -> tuple[int, Any]:
        user = self.users.get(int(p["user_id"]))
        if user is None:
            raise DiscordError(404, 10013, "Unknown User")
        return 200, user.payload()

    # -- REST: channels and messages ---------------------------------------------------------

    def _channel(self, channel_id: str) -> FakeChannel:
        self._sync_channel_index()
        channel = self.channels.get(int(channel_id))
        if channel is None:
            raise DiscordError(404, 10003, "Unknown Channel")
        return channel

    async def _get_channel(self, _r: web.Request, p: dict[str, str], *_: Any) -> tuple[int, Any]:
        return 200, self._channel(p["channel_id"]).payload()

    async def _typing(self, _r: web.Request, p: dict[str, str], *_: Any) -> tuple[int, Any]:
        self._channel(p["channel_id"])
        return 204, None

    async def _create_dm(
        self, _r: web.Request, _p: dict[str, str], body: Any, _u: list[Upload]
    ) -> tuple[int, Any]:
        try:
            user = self.users[int(body["recipient_id"])]
        except (KeyError, TypeError, ValueError):
            raise DiscordError(400, 50007, "Cannot send messages to this user") from None
        if user.dm_closed_on_create:
            raise DiscordError(400, 50007, "Cannot send messages to this user")
        return 200, self.dm_channel(user).payload()

    async def _create_message(
        self, _r: web.Request, p: dict[str, str], body: Any, uploads: list[Upload]
    ) -> tuple[int, Any]:
        channel = self._channel(p["channel_id"])
        if channel.is_dm and channel.recipient is not None and channel.recipient.dm_closed:
            raise DiscordError(403, 50007, "Cannot send messages to this user")
        payload: JSON = body or {}
        validate_message(payload, uploads, creating=True)
        msg = self._new_message(channel, payload, uploads, flags=int(payload.get("flags") or 0) & _KEPT_FLAGS)
        await self._dispatch_message_event("MESSAGE_CREATE", msg)
        return 200, msg.payload(self.application_id)

    def _new_message(
        self,
        channel: FakeChannel,
        payload: JSON,
        uploads: list[Upload],
        *,
        flags: int = 0,
        mtype: int = 0,
        interaction: FakeInteraction | None = None,
    ) -> FakeMessage:
        msg = FakeMessage(
            id=self.ids.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=self.bot_user,
            content=payload.get("content") or "",
            embeds=list(payload.get("embeds") or []),
            components=list(payload.get("components") or []),
            flags=flags,
            type=mtype,
        )
        msg.attachments = self._attachments_from(channel.id, payload, uploads, [])
        if interaction is not None:
            msg.webhook_id = self.application_id
            msg.interaction_id = interaction.id
            msg.interaction_user = interaction.user
            msg.interaction_type = interaction.type
        self.messages[msg.id] = msg
        return msg

    def _attachments_from(
        self, channel_id: int, payload: JSON, uploads: list[Upload], existing: list[FakeAttachment]
    ) -> list[FakeAttachment]:
        by_index = {u.index: u for u in uploads}
        if "attachments" not in payload:
            return existing + [
                self._store_attachment(channel_id, u.filename, u.data, u.content_type, None) for u in uploads
            ]
        old = {a.id: a for a in existing}
        out: list[FakeAttachment] = []
        for entry in payload.get("attachments") or []:
            key = int(entry["id"])
            if key in old:
                out.append(old[key])
            elif key in by_index:
                up = by_index[key]
                out.append(
                    self._store_attachment(
                        channel_id,
                        entry.get("filename") or up.filename,
                        up.data,
                        up.content_type,
                        entry.get("description"),
                    )
                )
            else:
                raise _form_error("attachments", "ATTACHMENT_NOT_FOUND", f"Unknown attachment id {key}")
        return out

    def _apply_edit(self, msg: FakeMessage, payload: JSON, uploads: list[Upload]) -> None:
        validate_message(payload, uploads, creating=False, current=msg)
        if payload.get("flags") is not None:
            # Discord keeps ephemeral/loading as they are and never drops the V2 flag once set.
            msg.flags = (msg.flags & (EPHEMERAL | LOADING | IS_COMPONENTS_V2)) | (
                int(payload["flags"]) & _KEPT_FLAGS)
        msg.history.append((msg.content, copy.deepcopy(msg.embeds), copy.deepcopy(msg.components)))
        if "content" in payload:
            msg.content = payload["content"] or ""
        if "embeds" in payload:
            msg.embeds = list(payload["embeds"] or [])
        if "components" in payload:
            msg.components = list(payload["components"] or [])
        if "attachments" in payload or uploads:
            msg.attachments = self._attachments_from(msg.channel_id, payload, uploads, msg.attachments)
        msg.flags &= ~LOADING
        msg.edited_at = _utcnow()

    def _stored_message(self, channel_id: str, message_id: str) -> FakeMessage:
        channel = self._channel(channel_id)
        msg = self.messages.get(int(message_id))
        if msg is None or msg.deleted or msg.channel_id != channel.id or msg.ephemeral:
            raise DiscordError(404, 10008, "Unknown Message")
        return msg

    async def _get_message(self, _r: web.Request, p: dict[str, str], *_: Any) -> tuple[int, Any]:
        return 200, self._stored_message(p["channel_id"], p["message_id"]).payload(self.application_id)

    async def _edit_message(
        self, _r: web.Request, p: dict[str, str], body: Any, uploads: list[Upload]
    ) -> tuple[int, Any]:
        msg = self._stored_message(p["channel_id"], p["message_id"])
        if msg.author.id != self.bot_user.id:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        self._apply_edit(msg, body or {}, uploads)
        await self._dispatch_message_event("MESSAGE_UPDATE", msg)
        return 200, msg.payload(self.application_id)

    async def _start_thread(
        self, _r: web.Request, p: dict[str, str], body: Any, _u: list[Upload]
    ) -> tuple[int, Any]:
        """A public thread started from a message (type 11, named by ``body["name"]``)."""
        parent = self._channel(p["channel_id"])
        message = self._stored_message(p["channel_id"], p["message_id"])
        guild = self.guilds.get(parent.guild_id or 0)
        if guild is None or parent.type != 0:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        name = str((body or {}).get("name") or "")
        if not 1 <= len(name) <= 100:
            raise _form_error("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        thread = FakeChannel(
            id=message.id, name=name, guild_id=guild.id, type=11, parent_id=parent.id,
            owner_id=self.bot_user.id,
        )
        self.channels[thread.id] = thread      # a thread is no channel of the guild's list
        self._notify()
        return 201, thread.payload()

    async def _delete_message(self, _r: web.Request, p: dict[str, str], *_: Any) -> tuple[int, Any]:
        msg = self._stored_message(p["channel_id"], p["message_id"])
        await self._delete(msg)
        return 204, None

    async def _delete(self, msg: FakeMessage) -> None:
        msg.deleted = True
        if msg.ephemeral:
            return
        data: JSON = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
        if msg.guild_id is not None:
            data["guild_id"] = str(msg.guild_id)
        for session in self._sessions_for(msg):
            await session.dispatch("MESSAGE_DELETE", data)

    async def _history(self, request: web.Request, p: dict[str, str], *_: Any) -> tuple[int, Any]:
        channel = self._channel(p["channel_id"])
        q = request.query
        limit = max(1, min(int(q.get("limit", 50)), 100))
        msgs = self.channel_messages(channel)
        if "around" in q:
            around = int(q["around"])
            older = [m for m in msgs if m.id <= around][-(limit // 2 + 1) :]
            newer = [m for m in msgs if m.id > around][: limit - len(older)]
            chosen = older + newer
        elif "after" in q:
            chosen = [m for m in msgs if m.id > int(q["after"])][:limit]
        else:
            if "before" in q:
                msgs = [m for m in msgs if m.id < int(q["before"])]
            chosen = msgs[-limit:]
        return 200, [m.payload(self.application_id) for m in reversed(chosen)]

    def _sessions_for(self, msg: FakeMessage) -> list[GatewaySession]:
        bit = INTENT_DIRECT_MESSAGES if msg.guild_id is None else INTENT_GUILD_MESSAGES
        return [s for s in self._live_sessions() if s.intents & bit and serves(s, msg.guild_id)]

    async def _dispatch_message_event(
        self, name: str, msg: FakeMessage, member: FakeMember | None = None
    ) -> None:
        if msg.ephemeral:
            return
        data = msg.payload(self.application_id)
        if member is not None:
            data["member"] = member.payload(with_user=False)
        for session in self._sessions_for(msg):
            await session.dispatch(name, data)

    # -- REST: guilds ------------------------------------------------------------------------

    def _guild_by(self, guild_id: str) -> FakeGuild:
        guild = self.guilds.get(int(guild_id))
        if guild is None:
            raise DiscordError(404, 10004, "Unknown Guild")
        return guild

    async def _get_guild(self, _r: web.Request, p: dict[str, str], *_: Any) -> tuple[int, Any]:
        data = self._guild_by(p["guild_id"]).payload()
        for key in ("channels", "members", "threads", "voice_states", "presences"):
            data.pop(key, None)
        return 200, data

    async def _get_guild_channels(self, _r: web.Request, p: dict[str, str], *_: Any) -> tuple[int, Any]:
        return 200, [c.payload() for c in self._guild_by(p["guild_id"]).channels.values()]

    async def _get_guild_roles(self, _r: web.Request, p: dict[str, str], *_: Any) -> tuple[int, Any]:
        return 200, [r.payload() for r in self._guild_by(p["guild_id"]).roles.values()]

    async def _get_member(self, _r: web.Request, p: dict[str, str], *_: Any) -> tuple[int, Any]:
        guild = self._guild_by(p["guild_id"])
        member = guild.members.get(int(p["user_id"]))
        if member is None:
            raise DiscordError(404, 10007, "Unknown Member")
        return 200, member.payload()

    # -- REST: application commands ----------------------------------------------------------

    def _check_app(self, app_id: str) -> None:
        if int(app_id) != self.application_id:
            raise DiscordError(403, 50001, "Missing Access")

    async def _get_commands(self, _r: web.Request, p: dict[str, str], *_: Any) -> tuple[int, Any]:
        self._check_app(p["app_id"])
        gid = int(p["guild_id"]) if "guild_id" in p else None
        return 200, list(self.synced.get(gid, {}).values())

    async def _put_commands(
        self, _r: web.Request, p: dict[str, str], body: Any, _u: list[Upload]
    ) -> tuple[int, Any]:
        self._check_app(p["app_id"])
        gid = int(p["guild_id"]) if "guild_id" in p else None
        if gid is not None:
            self._guild_by(str(gid))
        if not isinstance(body, list):
            raise _form_error("_root", "LIST_TYPE_CONVERT", "Must be an array")
        self.sync_calls.append((gid, copy.deepcopy(body)))
        stored: dict[str, JSON] = {}
        for cmd in body:
            name = cmd.get("name", "")
            if not re.fullmatch(r"[-_\w]{1,32}", name) or name != name.lower():
                raise _form_error(
                    "name", "APPLICATION_COMMAND_INVALID_NAME", f"Invalid command name {name!r}"
                )
            full = copy.deepcopy(cmd)
            full.update(
                id=str(self._command_id(gid, name)),
                application_id=str(self.application_id),
                version=str(self.ids.next()),
            )
            if gid is not None:
                full["guild_id"] = str(gid)
            stored[name] = full
        self.synced[gid] = stored
        return 200, list(stored.values())

    # -- REST: interaction callbacks and webhooks --------------------------------------------

    async def _callback(
        self, _r: web.Request, p: dict[str, str], body: Any, uploads: list[Upload]
    ) -> tuple[int, Any]:
        inter = self.interactions.get(int(p["interaction_id"]))
        if inter is None or inter.token != p["token"]:
            raise DiscordError(404, 10062, "Unknown interaction")
        if asyncio.get_running_loop().time() - inter.created > self.interaction_deadline:
            inter.rejected.append("10062 Unknown interaction")
            raise DiscordError(404, 10062, "Unknown interaction")
        if inter.callbacks:
            inter.rejected.append("40060 Interaction has already been acknowledged")
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        body = body or {}
        ctype = int(body.get("type", 0))
        data: JSON = body.get("data") or {}
        allowed = {
            APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
            MESSAGE_COMPONENT: {
                CHANNEL_MESSAGE,
                DEFERRED_CHANNEL_MESSAGE,
                DEFERRED_UPDATE_MESSAGE,
                UPDATE_MESSAGE,
                MODAL,
            },
            AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
            MODAL_SUBMIT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE}
            | ({DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE} if inter.source_message else set()),
        }[inter.type]
        if ctype not in allowed:
            raise _form_error(
                "type",
                "INTERACTION_CALLBACK_TYPE_INVALID",
                f"Callback type {ctype} is not valid for interaction type {inter.type}",
            )
        if ctype == CHANNEL_MESSAGE:
            validate_message(data, uploads, creating=True)
        elif ctype == UPDATE_MESSAGE:
            validate_message(data, uploads, creating=False, current=inter.source_message)
        elif ctype == AUTOCOMPLETE_RESULT and len(data.get("choices", [])) > 25:
            raise _form_error("choices", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        elif ctype == MODAL:
            _validate_modal(data)
        inter.callbacks.append(copy.deepcopy(body))
        msg: FakeMessage | None = None
        mtype = 20 if inter.type == APPLICATION_COMMAND else 19
        if ctype == CHANNEL_MESSAGE:
            msg = self._new_message(
                inter.channel,
                data,
                uploads,
                flags=int(data.get("flags") or 0) & ~LOADING,
                mtype=mtype,
                interaction=inter,
            )
            await self._dispatch_message_event("MESSAGE_CREATE", msg)
        elif ctype == DEFERRED_CHANNEL_MESSAGE:
            flags = LOADING | (int(data.get("flags") or 0) & EPHEMERAL)
            msg = self._new_message(inter.channel, {}, [], flags=flags, mtype=mtype, interaction=inter)
            await self._dispatch_message_event("MESSAGE_CREATE", msg)
        elif ctype in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE):
            msg = inter.source_message
            assert msg is not None
            if ctype == UPDATE_MESSAGE:
                self._apply_edit(msg, data, uploads)
                await self._dispatch_message_event("MESSAGE_UPDATE", msg)
        inter.original = msg
        response: JSON = {
            "interaction": {
                "id": str(inter.id),
                "type": inter.type,
                "response_message_loading": ctype == DEFERRED_CHANNEL_MESSAGE,
                "response_message_ephemeral": bool(msg and msg.ephemeral),
            }
        }
        if msg is not None:
            response["interaction"]["response_message_id"] = str(msg.id)
            if ctype != DEFERRED_UPDATE_MESSAGE:
                response["resource"] = {"type": ctype, "message": msg.payload(self.application_id)}
        else:
            response["resource"] = {"type": ctype}
        self._notify()
        return 200, response

    def _webhook_interaction(self, app_id: str, token: str) -> FakeInteraction:
        inter = self._by_token.get(token)
        if inter is None or int(app_id) != self.application_id or not inter.callbacks:
            raise DiscordError(404, 10015, "Unknown Webhook")
        return inter

    def _webhook_target(self, inter: FakeInteraction, message_id: str) -> FakeMessage:
        if message_id == "@original":
            msg = inter.original
        else:
            mid = int(message_id)
            msg = next((m for m in [inter.original, *inter.followups] if m is not None and m.id == mid), None)
        if msg is None or msg.deleted:
            raise DiscordError(404, 10008, "Unknown Message")
        return msg

    async def _followup(
        self, request: web.Request, p: dict[str, str], body: Any, uploads: list[Upload]
    ) -> tuple[int, Any]:
        inter = self._webhook_interaction(p["app_id"], p["token"])
        payload: JSON = body or {}
        validate_message(payload, uploads, creating=True)
        original = inter.original
        if inter.response_type == DEFERRED_CHANNEL_MESSAGE and original is not None and original.loading:
            # Discord: the first followup after a "thinking" defer becomes that deferred message,
            # keeping the ephemeral choice made when deferring.
            self._apply_edit(original, payload, uploads)
            msg = original
            await self._dispatch_message_event("MESSAGE_UPDATE", msg)
        else:
            flags = int(payload.get("flags") or 0) & ~LOADING
            msg = self._new_message(inter.channel, payload, uploads, flags=flags, mtype=19, interaction=inter)
            inter.followups.append(msg)
            await self._dispatch_message_event("MESSAGE_CREATE", msg)
        self._notify()
        if request.query.get("wait") in ("1", "true", "True"):
            return 200, msg.payload(self.application_id)
        return 204, None

    async def _webhook_get(self, _r: web.Request, p: dict[str, str], *_: Any) -> tuple[int, Any]:
        inter = self._webhook_interaction(p["app_id"], p["token"])
        return 200, self._webhook_target(inter, p["message_id"]).payload(self.application_id)

    async def _webhook_edit(
        self, _r: web.Request, p: dict[str, str], body: Any, uploads: list[Upload]
    ) -> tuple[int, Any]:
        inter = self._webhook_interaction(p["app_id"], p["token"])
        msg = self._webhook_target(inter, p["message_id"])
        self._apply_edit(msg, body or {}, uploads)
        await self._dispatch_message_event("MESSAGE_UPDATE", msg)
        self._notify()
        return 200, msg.payload(self.application_id)

    async def _webhook_delete(self, _r: web.Request, p: dict[str, str], *_: Any) -> tuple[int, Any]:
        inter = self._webhook_interaction(p["app_id"], p["token"])
        await self._delete(self._webhook_target(inter, p["message_id"]))
        self._notify()
        return 204, None

    # -- gateway -----------------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        conn = _Connection(ws)
        self._connections.add(conn)
        session: GatewaySession | None = None
        try:
            await conn.send_op(10, {"heartbeat_interval": self.heartbeat_interval_ms})
            async for msg in ws:
                if msg.type is not aiohttp.WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op, d = frame.get("op"), frame.get("d")
                if op == 1:
                    conn.heartbeats += 1
                    conn.heartbeat_seq = d
                    await conn.send_op(11, None)
                    self._notify()
                elif op == 2:
                    session = await self._identify(conn, d)
                elif op == 6:
                    session = await self._resume(conn, d)
                elif op == 8 and session is not None:
                    await self._request_members(session, d)
        finally:
            self._connections.discard(conn)
            if session is not None and session.conn is conn:
                session.conn = None
            self._notify()
        return ws

    async def _identify(self, conn: _Connection, d: JSON) -> GatewaySession | None:
        if d.get("token") != self.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return None
        self.identifies.append({k: v for k, v in d.items() if k != "token"})
        shard_raw = d.get("shard")
        shard = (int(shard_raw[0]), int(shard_raw[1])) if shard_raw else None
        session = GatewaySession(uuid.uuid4().hex, int(d.get("intents") or 0), shard)
        session.conn = conn
        self.sessions.append(session)
        self._sessions_by_id[session.id] = session
        guilds = [g for g in self.guilds.values() if shard is None or (g.id >> 22) % shard[1] == shard[0]]
        me = self.bot_user.payload()
        me.update(verified=True, mfa_enabled=False, flags=0)
        ready: JSON = {
            "v": 10,
            "user": me,
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "geo_ordered_rtc_regions": [],
        }
        if shard is not None:
            ready["shard"] = list(shard)
        await session.dispatch("READY", ready)
        self._sync_channel_index()
        for guild in guilds:
            await session.dispatch("GUILD_CREATE", guild.payload())
        self._notify()
        return session

    async def _resume(self, conn: _Connection, d: JSON) -> GatewaySession | None:
        session = self._sessions_by_id.get(str(d.get("session_id")))
        if session is None or d.get("token") != self.token:
            await conn.send_op(9, False)
            return None
        session.conn = conn
        seq = int(d.get("seq") or 0)
        for s, frame in list(session.events):
            if s > seq:
                await conn.send(frame)
        session.resumes += 1
        await session.dispatch("RESUMED", {})
        self._notify()
        return session

    async def _request_members(self, session: GatewaySession, d: JSON) -> None:
        guild = self.guilds.get(int(d.get("guild_id", 0)))
        if guild is None:
            return
        data: JSON = {
            "guild_id": str(guild.id),
            "members": [m.payload() for m in guild.members.values()],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if d.get("nonce") is not None:
            data["nonce"] = d["nonce"]
        await session.dispatch("GUILD_MEMBERS_CHUNK", data)


# -- helpers -----------------------------------------------------------------------------------


def _compile_path(path: str, *, named: bool = False) -> re.Pattern[str]:
    """``/channels/{channel_id}/messages`` → a regex; ``{name}`` and ``*`` match one segment."""
    out = []
    for part in re.split(r"(\{\w+\}|\*)", path):
        if part == "*":
            out.append(r"[^/]+")
        elif part.startswith("{") and part.endswith("}"):
            out.append(f"(?P<{part[1:-1]}>[^/]+)" if named else r"[^/]+")
        else:
            out.append(re.escape(part))
    return re.compile("".join(out))


async def _read_body(request: web.Request) -> tuple[Any, list[Upload]]:
    """The JSON body (``payload_json`` for multipart) and any uploaded files."""
    if request.content_type == "multipart/form-data":
        payload: Any = None
        uploads: list[Upload] = []
        reader = await request.multipart()
        while True:
            part = await reader.next()
            if part is None:
                break
            assert isinstance(part, aiohttp.BodyPartReader)
            if part.name == "payload_json":
                payload = json.loads(await part.text())
            elif part.filename is not None:
                match = re.fullmatch(r"files\[(\d+)\]", part.name or "")
                index = int(match.group(1)) if match else len(uploads)
                ctype = part.headers.get("Content-Type")
                uploads.append(Upload(index, part.filename, bytes(await part.read()), ctype))
        return payload, uploads
    if not request.can_read_body:
        return None, []
    text = await request.text()
    return (json.loads(text) if text else None), []


def _check_len(value: Any, limit: int, fieldname: str) -> None:
    if isinstance(value, str) and len(value) > limit:
        raise _form_error(fieldname, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def validate_message(
    payload: JSON, uploads: list[Upload], *, creating: bool, current: FakeMessage | None = None
) -> None:
    """Reject what Discord rejects with 400 (50006 empty message, 50035 invalid form body).

    Checked: content ≤ 2000, ≤ 10 embeds and embed limits (title 256, description 4096,
    25 fields of 256/1024, 6000 in total), ≤ 5 action rows of ≤ 5 buttons or 1 select,
    custom_id ≤ 100 and unique, button label ≤ 80, select options ≤ 25; with the Components V2
    flag (on the payload or on ``current``, the message being edited), the V2 rules of
    ``components.check_v2``.
    """
    names = [u.filename for u in uploads]
    by_index = {u.index: u for u in uploads}
    for entry in payload.get("attachments") or []:
        key = entry.get("id")
        if entry.get("filename") and key is not None and str(key).isdigit() and int(key) in by_index:
            names.append(str(entry["filename"]))
    kept: list[str] = []
    if current is not None:
        listed = {str(e.get("id")) for e in payload.get("attachments") or []}
        kept = [
            a.filename for a in current.attachments if "attachments" not in payload or str(a.id) in listed
        ]
    v2 = check_v2(
        payload,
        names,
        error=lambda where, code, message: _form_error(where, code, message),
        current_flags=None if current is None else current.flags,
        current_content=current.content if current is not None else "",
        current_embeds=len(current.embeds) if current is not None else 0,
        kept=kept,
    )
    content = payload.get("content")
    _check_len(content, 2000, "content")
    embeds = payload.get("embeds") or []
    if len(embeds) > 10:
        raise _form_error("embeds", "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
    total = 0
    for i, embed in enumerate(embeds):
        _check_len(embed.get("title"), 256, f"embeds.{i}.title")
        _check_len(embed.get("description"), 4096, f"embeds.{i}.description")
        fields = embed.get("fields") or []
        if len(fields) > 25:
            raise _form_error(f"embeds.{i}.fields", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        for j, fld in enumerate(fields):
            _check_len(fld.get("name"), 256, f"embeds.{i}.fields.{j}.name")
            _check_len(fld.get("value"), 1024, f"embeds.{i}.fields.{j}.value")
            total += len(fld.get("name") or "") + len(fld.get("value") or "")
        total += len(embed.get("title") or "") + len(embed.get("description") or "")
        total += len((embed.get("footer") or {}).get("text") or "") + len(
            (embed.get("author") or {}).get("name") or ""
        )
    if total > 6000:
        raise _form_error("embeds", "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")
    components = payload.get("components") or []
    if not v2:
        if len(components) > 5:
            raise _form_error("components", "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
        for i, row in enumerate(components):
            if row.get("type") != 1:
                raise _form_error(
                    f"components.{i}", "UNION_TYPE_CHOICES", "Top-level components must be rows"
                )
            inner = row.get("components") or []
            for j, comp in enumerate(inner):
                if comp.get("type") != BUTTON and comp.get("type") not in SELECT_TYPES:
                    raise _form_error(
                        f"components.{i}.components.{j}", "UNION_TYPE_CHOICES",
                        "Without the IS_COMPONENTS_V2 flag a row holds only buttons and selects",
                    )
            if not 1 <= len(inner) <= 5 or (
                any(c.get("type") in SELECT_TYPES for c in inner) and len(inner) > 1
            ):
                raise _form_error(
                    f"components.{i}.components",
                    "BASE_TYPE_BAD_LENGTH",
                    "A row holds 1 to 5 buttons or exactly one select",
                )
    seen: set[str] = set()
    for comp in iter_components(components):
        cid = comp.get("custom_id")
        if cid is not None:
            _check_len(cid, 100, "custom_id")
            if cid in seen:
                raise _form_error(
                    "components", "COMPONENT_CUSTOM_ID_DUPLICATED", f"Duplicate custom_id {cid!r}"
                )
            seen.add(cid)
        if comp.get("type") == BUTTON:
            _check_len(comp.get("label"), 80, "label")
        if comp.get("type") == 3 and len(comp.get("options") or []) > 25:
            raise _form_error("options", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    if creating:
        has_body = (
            bool(content)
            or bool(embeds)
            or bool(components)
            or bool(uploads)
            or bool(payload.get("attachments"))
            or bool(payload.get("sticker_ids"))
            or bool(payload.get("poll"))
        )
        if not has_body:
            raise DiscordError(400, 50006, "Cannot send an empty message")


def _validate_modal(data: JSON) -> None:
    _check_len(data.get("title"), 45, "title")
    _check_len(data.get("custom_id"), 100, "custom_id")
    comps = data.get("components") or []
    if not 1 <= len(comps) <= 5:
        raise _form_error("components", "BASE_TYPE_BAD_LENGTH", "A modal holds 1 to 5 components")
