"""What every Discord handler shares: the table key of an interaction, dealer rights, the channel
check, replies, and acting for the member.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

import discord

from bot.discord.ui.text import split_text
from bot.engine.cards.card import Card
from bot.engine.command import Command
from bot.render.views import PrivateNotice, TableSnapshot
from bot.store import Store
from bot.tables.errors import TableError
from bot.tables.notices import Actor, TableKey
from bot.tables.service import TableService

Interaction = discord.Interaction[Any]
"""An interaction of the Wildstud bot (``interaction.client`` is a ``WildstudBot``)."""


class Front(Protocol):
    """What the buttons need of the Discord presenter (``bot.discord.presenter.DiscordPresenter``)."""

    def responding(self, key: TableKey, interaction: Interaction) -> AbstractAsyncContextManager[None]:
        """Within the block, the table's update answers ``interaction`` (type 7 on the table
        message) and the ping goes through its webhook."""
        ...

    async def hand_files(
        self, key: TableKey, notice: PrivateNotice, snapshot: TableSnapshot,
        *, discards: tuple[Card, ...] = (), lines: tuple[str, ...] = (), new: tuple[Card, ...] = (),
        title: str = "",
    ) -> list[discord.File]:
        """The hand picture of a player's own cards (none with the guild's look set to text);
        a draw's marks: ``discards`` chosen, ``lines`` under the ``title``, the ``new`` cards."""
        ...

    async def look(self, guild: int) -> str:
        """The guild's ``/table look``: ``pictures`` or ``text``."""
        ...

    def keep_table_click(self, key: TableKey, interaction: Interaction) -> None:
        """A click on the table message, acknowledged without a change, that opened a private
        message: the member's next action edits the table through its webhook."""
        ...


class Host(Protocol):
    """What the buttons and helpers need of the bot (``bot.discord.client.WildstudBot`` is one;
    typed by what it offers, so this package never imports the client that imports it)."""

    @property
    def service(self) -> TableService:
        """The table service."""

    @property
    def store(self) -> Store:
        """The open store."""

    @property
    def presenter(self) -> Front:
        """The Discord presenter."""

    @property
    def names(self) -> dict[int, str]:
        """Display names of members seen in interactions, by member id (for the boards)."""

DEALER_ROLE_NAME = "dealer"
"""Members with a role of this name (any case) are dealers when the server set no dealer role."""



def wildstud(interaction: Interaction) -> Host:
    """The bot behind an interaction."""
    client: Host = interaction.client
    return client


def table_key(interaction: Interaction) -> TableKey:
    """The table key of the interaction's channel (one table per guild channel).

    Raises ``TableError`` outside a server channel (a DM has no table).
    """
    if interaction.guild_id is None or interaction.channel_id is None:
        raise TableError("Tables live in server channels: use this in the channel of a table.")
    return TableKey(interaction.guild_id, interaction.channel_id)


def display_name(interaction: Interaction) -> str:
    """The member's name as the table shows it (their server display name)."""
    return interaction.user.display_name


async def has_dealer_rights(interaction: Interaction) -> bool:
    """True for members who may deal and change rulings at any table of the server (SPEC §8):
    Manage Server, or the server's dealer role (``/table dealer-role``; without one, any role
    named "Dealer"). The table's own creator is always its dealer; the table service checks that.
    """
    if interaction.permissions.manage_guild:
        return True
    member = interaction.user
    if not isinstance(member, discord.Member) or interaction.guild_id is None:
        return False
    if member.guild_permissions.manage_guild:
        return True
    settings = await wildstud(interaction).store.guild_settings(interaction.guild_id)
    if settings.dealer_role_id is not None:
        return any(role.id == settings.dealer_role_id for role in member.roles)
    return any(role.name.lower() == DEALER_ROLE_NAME for role in member.roles)


async def actor(interaction: Interaction, *, dealer: bool = False) -> Actor:
    """The member asking, as the table service takes them: their id, display name and, for the
    dealer's commands (``dealer``), whether they have dealer rights (``has_dealer_rights``: one
    store read, so only when it matters)."""
    rights = await has_dealer_rights(interaction) if dealer else False
    member = interaction.user
    manage = interaction.permissions.manage_guild or (
        isinstance(member, discord.Member) and member.guild_permissions.manage_guild)
    return Actor(interaction.user.id, display_name(interaction), rights, manage_server=manage)


_THREADS = (
    discord.ChannelType.public_thread,
    discord.ChannelType.private_thread,
    discord.ChannelType.news_thread,
)


def require_channel_access(interaction: Interaction) -> None:
    """Refuse (``TableError``) to run a table where the bot cannot post: every table message,
    prompt and hand line goes to the channel. Discord states the bot's permissions in the
    channel with each interaction (``app_permissions``)."""
    perms = interaction.app_permissions
    channel = interaction.channel
    in_thread = channel is not None and channel.type in _THREADS
    send = perms.send_messages_in_threads if in_thread else perms.send_messages
    if not (perms.view_channel and send):
        what = "Send Messages in Threads" if in_thread else "Send Messages"
        raise TableError(
            f"I can't post in this channel: give me the View Channel and {what} permissions here"
            " (server settings or the channel's permissions), then try again."
        )


async def reply(
    interaction: Interaction,
    content: str,
    *,
    ephemeral: bool = True,
    file: discord.File | None = None,
    allowed_mentions: discord.AllowedMentions | None = None,
) -> None:
    """Answer the interaction: the initial response if none was sent yet, else a followup."""
    kwargs: dict[str, Any] = {"ephemeral": ephemeral}
    if file is not None:
        kwargs["file"] = file
    if allowed_mentions is not None:
        kwargs["allowed_mentions"] = allowed_mentions
    for chunk in split_text(content):
        if interaction.response.is_done():
            await interaction.followup.send(chunk, **kwargs)
        else:
            await interaction.response.send_message(chunk, **kwargs)
        kwargs.pop("file", None)




async def act(
    interaction: Interaction, key: TableKey, hand_id: int, turn: int, command: Command, *,
    table_id: int | None = None,
) -> None:
    """Act for the member; the table's update answers the interaction (``Front.responding``).
    ``table_id``: the table the button was drawn for (a button of a closed table is refused)."""
    who = await actor(interaction)
    bot = wildstud(interaction)
    async with bot.presenter.responding(key, interaction):
        await bot.service.act(key, who, hand_id, turn, command, table_id=table_id)


