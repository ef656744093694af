"""The fake Discord's world: users, guilds, roles, channels, members, messages and attachments.

Every object here is plain test-side state. The fake server turns it into the JSON payloads the
real discord.py 2.7 client parses (``*_payload`` methods), and tests read it back to check what a
member saw. IDs are snowflakes (``int``) from :class:`SnowflakeGen`, so ``created_at`` works.
"""

from __future__ import annotations

import datetime
import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import discord

JSON = dict[str, Any]

#: Message flag bits (Discord API "message flags").
EPHEMERAL = 1 << 6
LOADING = 1 << 7

#: Component types that a member can interact with (button and the five select menus).
BUTTON = 2
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})

#: What ``@everyone`` may do in a fresh fake guild: read, write, use slash commands.
DEFAULT_EVERYONE = discord.Permissions(
    view_channel=True,
    send_messages=True,
    read_message_history=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    use_application_commands=True,
)


def _iso(when: datetime.datetime) -> str:
    return when.isoformat()


class SnowflakeGen:
    """Monotonic snowflake IDs starting at the current time.

    >>> gen = SnowflakeGen()
    >>> a, b = gen.next(), gen.next()
    >>> b == a + 1 and discord.utils.snowflake_time(a).year >= 2024
    True
    """

    def __init__(self) -> None:
        start = discord.utils.time_snowflake(discord.utils.utcnow())
        self._counter = itertools.count(start)

    def next(self) -> int:
        """Return a fresh snowflake, larger than every earlier one."""
        return next(self._counter)

    def skip_to_shard(self, shard_id: int, shard_count: int) -> None:
        """Move on so the next id falls on gateway shard ``shard_id`` of ``shard_count``
        (``(id >> 22) % shard_count``): add a guild right after to place it on that shard.

        >>> gen = SnowflakeGen()
        >>> gen.skip_to_shard(3, 4)
        >>> (gen.next() >> 22) % 4
        3
        """
        current = next(self._counter)
        stamp = current >> 22
        while stamp % shard_count != shard_id:
            stamp += 1
        self._counter = itertools.count(max(current, stamp << 22))


@dataclass(eq=False)
class FakeUser:
    """A Discord user account (a person or the bot).

    ``dm_closed`` makes sending a DM fail with 403 / 50007; ``dm_closed_on_create`` also makes
    opening the DM channel (``POST /users/@me/channels``) fail with 400 / 50007.
    """

    id: int
    username: str
    bot: bool = False
    global_name: str | None = None
    dm_closed: bool = False
    dm_closed_on_create: bool = False

    @property
    def mention(self) -> str:
        """The ``<@id>`` mention string."""
        return f"<@{self.id}>"

    def payload(self) -> JSON:
        """The API user object."""
        return {
            "id": str(self.id),
            "username": self.username,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


@dataclass(eq=False)
class FakeRole:
    """A guild role; the role whose ID equals the guild's ID is ``@everyone``."""

    id: int
    guild_id: int
    name: str
    permissions: int = 0
    position: int = 0

    @property
    def mention(self) -> str:
        """The ``<@&id>`` mention string."""
        return f"<@&{self.id}>"

    def payload(self) -> JSON:
        """The API role object."""
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }


@dataclass(eq=False)
class FakeChannel:
    """A channel: a guild text channel (``type`` 0), a DM channel (``type`` 1, ``recipient`` set) or
    a public thread of a message (``type`` 11, ``parent_id`` and ``owner_id`` set)."""

    id: int
    name: str
    guild_id: int | None = None
    type: int = 0
    position: int = 0
    recipient: FakeUser | None = None
    parent_id: int | None = None
    owner_id: int | None = None

    @property
    def is_dm(self) -> bool:
        """True for a DM channel."""
        return self.type == 1

    @property
    def mention(self) -> str:
        """The ``<#id>`` mention string."""
        return f"<#{self.id}>"

    def payload(self) -> JSON:
        """The API channel object (guild text channel or DM channel)."""
        if self.is_dm:
            recipients = [self.recipient.payload()] if self.recipient is not None else []
            return {"id": str(self.id), "type": 1, "recipients": recipients, "last_message_id": None}
        data: JSON = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "parent_id": None if self.parent_id is None else str(self.parent_id),
            "topic": None,
            "nsfw": False,
            "rate_limit_per_user": 0,
            "last_message_id": None,
        }
        if self.type == 11:
            data.update(
                owner_id=str(self.owner_id),
                message_count=0,
                member_count=1,
                thread_metadata={
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": discord.utils.utcnow().isoformat(),
                    "locked": False,
                },
            )
        return data


@dataclass(eq=False)
class FakeMember:
    """A user's membership in one guild: their roles and nickname.

    Tests pass members to the drivers (``fake.slash(alice, ...)``); ``member.id`` is the user ID.
    """

    user: FakeUser
    guild: FakeGuild
    roles: list[FakeRole] = field(default_factory=list)
    nick: str | None = None
    joined_at: datetime.datetime = field(default_factory=discord.utils.utcnow)

    @property
    def id(self) -> int:
        """The member's user ID."""
        return self.user.id

    @property
    def name(self) -> str:
        """The member's username."""
        return self.user.username

    @property
    def mention(self) -> str:
        """The ``<@id>`` mention string."""
        return self.user.mention

    @property
    def permissions(self) -> discord.Permissions:
        """Guild-level permissions: the owner and administrators get all; else the union of roles.

        Channel permission overwrites are not modelled.
        """
        if self.user.id == self.guild.owner_id:
            return discord.Permissions.all()
        value = self.guild.everyone.permissions
        for role in self.roles:
            value |= role.permissions
        perms = discord.Permissions(value)
        if perms.administrator:
            return discord.Permissions.all()
        return perms

    def payload(self, *, with_user: bool = True, with_permissions: bool = False) -> JSON:
        """The API guild member object (``permissions`` as in an interaction's ``member``)."""
        data: JSON = {
            "roles": [str(r.id) for r in self.roles],
            "nick": self.nick,
            "avatar": None,
            "joined_at": _iso(self.joined_at),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if with_permissions:
            data["permissions"] = str(self.permissions.value)
        return data


@dataclass(eq=False)
class FakeGuild:
    """A guild (server) with its roles, text channels and members.

    Build it with :meth:`add_role`, :meth:`add_channel` and :meth:`add_member` (or the
    ``members=``/``channels=`` shortcuts of ``FakeDiscord.add_guild``), preferably before the bot
    starts: the bot learns the guild from GUILD_CREATE.
    """

    id: int
    name: str
    owner_id: int
    ids: SnowflakeGen
    user_named: Callable[[str], FakeUser]
    roles: dict[int, FakeRole] = field(default_factory=dict)
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)

    @property
    def everyone(self) -> FakeRole:
        """The ``@everyone`` role."""
        return self.roles[self.id]

    def add_role(self, name: str, permissions: discord.Permissions | int = 0) -> FakeRole:
        """Create a role with these guild permissions."""
        value = permissions.value if isinstance(permissions, discord.Permissions) else int(permissions)
        role = FakeRole(
            id=self.ids.next(), guild_id=self.id, name=name, permissions=value, position=len(self.roles)
        )
        self.roles[role.id] = role
        return role

    def add_channel(self, name: str) -> FakeChannel:
        """Create a text channel."""
        channel = FakeChannel(id=self.ids.next(), name=name, guild_id=self.id, position=len(self.channels))
        self.channels[channel.id] = channel
        return channel

    def add_member(
        self,
        user: str | FakeUser,
        *,
        roles: tuple[FakeRole, ...] | list[FakeRole] = (),
        nick: str | None = None,
    ) -> FakeMember:
        """Make a user a member here (by username: the same name is the same user in every guild)."""
        if isinstance(user, str):
            user = self.user_named(user)
        member = FakeMember(user=user, guild=self, roles=list(roles), nick=nick)
        self.members[user.id] = member
        return member

    def member(self, key: str | int) -> FakeMember:
        """Find a member by username, nickname or ID; raises ``KeyError``."""
        for m in self.members.values():
            if key in (m.id, m.user.username, m.nick):
                return m
        raise KeyError(f"no member {key!r} in guild {self.name!r}")

    def channel(self, key: str | int) -> FakeChannel:
        """Find a channel by name or ID; raises ``KeyError``."""
        for c in self.channels.values():
            if key in (c.id, c.name):
                return c
        raise KeyError(f"no channel {key!r} in guild {self.name!r}")

    def role(self, key: str | int) -> FakeRole:
        """Find a role by name or ID; raises ``KeyError``."""
        for r in self.roles.values():
            if key in (r.id, r.name):
                return r
        raise KeyError(f"no role {key!r} in guild {self.name!r}")

    def payload(self) -> JSON:
        """The full GUILD_CREATE payload."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "owner_id": str(self.owner_id),
            "unavailable": False,
            "large": False,
            "member_count": len(self.members),
            "joined_at": _iso(discord.utils.utcnow()),
            "roles": [r.payload() for r in self.roles.values()],
            "channels": [c.payload() for c in self.channels.values()],
            "members": [m.payload() for m in self.members.values()],
            "threads": [],
            "emojis": [],
            "stickers": [],
            "features": [],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "premium_tier": 0,
            "preferred_locale": "en-US",
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "afk_timeout": 300,
            "system_channel_id": None,
        }


@dataclass(eq=False)
class FakeAttachment:
    """A file attached to a message (or uploaded by a member for an attachment option).

    ``data`` holds the exact bytes; the fake also serves them at ``url`` so
    ``discord.Attachment.read()`` works inside the bot.
    """

    id: int
    filename: str
    data: bytes
    url: str
    content_type: str | None = None
    description: str | None = None

    @property
    def text(self) -> str:
        """The bytes decoded as UTF-8."""
        return self.data.decode("utf-8")

    def payload(self) -> JSON:
        """The API attachment object."""
        data: JSON = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url,
        }
        if self.content_type is not None:
            data["content_type"] = self.content_type
        if self.description is not None:
            data["description"] = self.description
        return data


def iter_components(components: list[JSON]) -> Iterator[JSON]:
    """Every component in a message's component tree, depth first (rows, containers, sections)."""
    for comp in components:
        yield comp
        yield from iter_components(comp.get("components", []) or [])
        accessory = comp.get("accessory")
        if accessory is not None:
            yield from iter_components([accessory])
        inner = comp.get("component")
        if inner is not None:
            yield from iter_components([inner])


def embed_text(embed: JSON) -> list[str]:
    """The human-readable strings of one embed, in display order."""
    parts: list[str] = []
    author = embed.get("author") or {}
    for value in (author.get("name"), embed.get("title"), embed.get("description")):
        if value:
            parts.append(str(value))
    for fld in embed.get("fields", []) or []:
        parts.append(f"{fld.get('name', '')}: {fld.get('value', '')}")
    footer = embed.get("footer") or {}
    if footer.get("text"):
        parts.append(str(footer["text"]))
    return parts


@dataclass(eq=False)
class FakeMessage:
    """A message as the fake Discord stores it, with its current content and components.

    ``ephemeral_for`` is the user ID that alone can see an ephemeral message. ``history`` keeps
    every earlier version (as ``(content, embeds, components)``) so tests can check edits.
    """

    id: int
    channel_id: int
    guild_id: int | None
    author: FakeUser
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    webhook_id: int | None = None
    interaction_id: int | None = None
    interaction_user: FakeUser | None = None
    interaction_type: int | None = None
    created_at: datetime.datetime = field(default_factory=discord.utils.utcnow)
    edited_at: datetime.datetime | None = None
    deleted: bool = False
    history: list[tuple[str, list[JSON], list[JSON]]] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        """True if only the interaction's user can see this message (flag 64)."""
        return bool(self.flags & EPHEMERAL)

    @property
    def ephemeral_for(self) -> int | None:
        """The user ID that alone sees this message, or None if it is public."""
        if self.ephemeral and self.interaction_user is not None:
            return self.interaction_user.id
        return None

    @property
    def loading(self) -> bool:
        """True while this is a deferred "thinking..." placeholder (flag 128)."""
        return bool(self.flags & LOADING)

    @property
    def text(self) -> str:
        """Content, embed text and text-display components, one per line: handy for ``in`` checks."""
        parts = [self.content] if self.content else []
        for embed in self.embeds:
            parts.extend(embed_text(embed))
        for comp in iter_components(self.components):
            if comp.get("type") == 10 and comp.get("content"):
                parts.append(str(comp["content"]))
        return "\n".join(parts)

    def all_components(self) -> list[JSON]:
        """Every component of the message, flattened."""
        return list(iter_components(self.components))

    @property
    def buttons(self) -> list[JSON]:
        """Every button (type 2) on the message, in order."""
        return [c for c in iter_components(self.components) if c.get("type") == BUTTON]

    @property
    def button_labels(self) -> list[str]:
        """The labels of every button, in order."""
        return [str(b.get("label", "")) for b in self.buttons]

    def find_component(
        self,
        *,
        label: str | None = None,
        custom_id: str | None = None,
        types: frozenset[int] = frozenset({BUTTON}),
    ) -> JSON:
        """The one component with this label and/or custom_id; raises ``LookupError``.

        ``label`` matches a button's label or a select's placeholder exactly.
        """
        if label is None and custom_id is None:
            raise ValueError("give label= or custom_id=")
        found = [
            c
            for c in iter_components(self.components)
            if c.get("type") in types
            and (custom_id is None or c.get("custom_id") == custom_id)
            and (label is None or label in (c.get("label"), c.get("placeholder")))
        ]
        if len(found) != 1:
            have = [
                (c.get("label") or c.get("placeholder"), c.get("custom_id"))
                for c in self.all_components()
                if c.get("type") in types
            ]
            what = f"label={label!r}" if label is not None else f"custom_id={custom_id!r}"
            raise LookupError(f"{len(found)} components match {what} on message {self.id}; it has {have}")
        return found[0]

    def payload(self, application_id: int) -> JSON:
        """The API message object."""
        data: JSON = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "type": self.type,
            "content": self.content,
            "author": self.author.payload(),
            "timestamp": _iso(self.created_at),
            "edited_timestamp": _iso(self.edited_at) if self.edited_at else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "flags": self.flags,
            "pinned": False,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(application_id)
        if self.interaction_id is not None and self.interaction_user is not None:
            data["interaction_metadata"] = {
                "id": str(self.interaction_id),
                "type": self.interaction_type or 2,
                "user": self.interaction_user.payload(),
                "authorizing_integration_owners": {},
            }
        return data

    def __repr__(self) -> str:
        flags = " ephemeral" if self.ephemeral else ""
        return f"<FakeMessage id={self.id} channel={self.channel_id}{flags} text={self.text[:60]!r}>"
