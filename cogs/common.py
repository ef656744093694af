"""What every Wildstud cog shares: the table key of an interaction, dealer rights, replies, and
turning refusals into a short ephemeral answer (never "This interaction failed").

Refusals a player may read come in three families, and each becomes an ephemeral reply carrying
its reason: ``IllegalAction`` (the engine; ``bot.tables.errors.TableError`` extends it), the
store's ``StoreError``, and bad settings (``RulingError``/``StakesError``, both ``ValueError``).
Anything else is a bug: it is logged with its traceback and the member gets a short apology.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any, ClassVar, Self

import discord
from discord import app_commands

from bot.engine.errors import IllegalAction, RulingError, StakesError
from bot.store import StoreError
from bot.tables.errors import StaleAction, TableError
from bot.tables.notices import TableKey

if TYPE_CHECKING:
    from bot.discord_bot import WildstudBot

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
"""An interaction of the Wildstud bot (``interaction.client`` is a ``WildstudBot``)."""

DEALER_ROLE_NAME = "dealer"
"""Members with a role of this name (any case) are dealers when the server set no dealer role."""

UNKNOWN_INTERACTION = 10062
"""Discord's "Unknown interaction": the 3-second deadline passed, the token is dead."""

ALREADY_ACKNOWLEDGED = 40060
"""Discord's "Interaction has already been acknowledged"."""


def wildstud(interaction: Interaction) -> WildstudBot:
    """The bot behind an interaction."""
    client: WildstudBot = interaction.client
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


def code_block(text: str) -> str:
    """Text in a code block (monospace keeps the table's columns); backticks in names are softened.

    >>> code_block("Pot 25")
    '```\\nPot 25\\n```'
    """
    return "```\n" + text.replace("`", "\u02cb") + "\n```"


def split_text(text: str, limit: int = 2000) -> list[str]:
    """``text`` in pieces of at most ``limit`` characters, cut at line ends where possible.

    >>> split_text("ab\\ncd", limit=3)
    ['ab', 'cd']
    >>> split_text("")
    ['(nothing)']
    """
    if not text.strip():
        return ["(nothing)"]
    chunks: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:
            if current:
                chunks.append(current)
                current = ""
            chunks.append(line[:limit])
            line = line[limit:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            chunks.append(current)
            current = line
        else:
            current = candidate
    if current:
        chunks.append(current)
    return chunks


def sentence(text: str) -> str:
    """``text`` as a sentence: a capital first letter and a closing full stop (the engine's
    reasons are lower-case clauses such as "the smallest complete is to 20").

    >>> sentence("the smallest complete is to 20")
    'The smallest complete is to 20.'
    >>> sentence("It is not your turn: bob is to act.")
    'It is not your turn: bob is to act.'
    """
    text = text.strip()
    if not text:
        return text
    if text[-1] not in ".!?)":
        text += "."
    return text[0].upper() + text[1:]


def refusal(error: BaseException) -> str | None:
    """The reason to show a member for a refused request, or None if ``error`` is a bug.

    >>> refusal(TableError("It is not your turn."))
    'It is not your turn.'
    >>> refusal(KeyError("x")) is None
    True
    """
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, IllegalAction):
        return sentence(error.reason)
    if isinstance(error, StoreError):
        return error.reason
    if isinstance(error, (RulingError, StakesError)):
        return str(error)
    if isinstance(error, app_commands.NoPrivateMessage):
        return "Use this command in a server channel."
    if isinstance(error, app_commands.MissingPermissions):
        needed = ", ".join(
            p.replace("_", " ").replace("guild", "server").title() for p in error.missing_permissions
        )
        return f"You need the {needed} permission for this."
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down: try again in {error.retry_after:.0f} seconds."
    if isinstance(error, app_commands.TransformerError):
        return f"I couldn't read {error.value!r} as a {error.type.name.lower()}."
    if isinstance(error, app_commands.CheckFailure):
        return "You may not use this command here."
    return None


async def answer_error(interaction: Interaction, error: BaseException) -> None:
    """Tell the member, ephemerally and briefly, why their request was refused.

    Refusals (see ``refusal``) show their reason; unexpected errors are logged with their
    traceback and answered with a short apology. A dead interaction (10062) is only logged.
    """
    original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    if isinstance(original, discord.NotFound) and original.code == UNKNOWN_INTERACTION:
        log.warning("interaction %s answered too late (10062)", interaction.id)
        return
    reason = refusal(original)
    if reason is None:
        log.error(
            "unexpected error in %s",
            _describe(interaction),
            exc_info=(type(original), original, original.__traceback__),
        )
        reason = "Something went wrong on my side and it was logged. Please try again."
    try:
        await reply(interaction, reason, ephemeral=True)
    except discord.HTTPException as exc:
        if exc.code not in (UNKNOWN_INTERACTION, ALREADY_ACKNOWLEDGED):
            log.warning("could not send an error reply: %s", exc)


def _describe(interaction: Interaction) -> str:
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    data: dict[str, Any] = dict(interaction.data or {})
    return f"component {data.get('custom_id', '?')!r}"


class TableButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ws:(?P<kind>[a-z]+):(?P<table>\d+)",
):
    """A button that carries only its table's id (``ws:KIND:TABLE``), so it keeps working after a
    restart and is refused once that table is closed. Subclasses set ``KIND``, ``LABEL`` and
    ``STYLE``, pass ``template=r"ws:KIND:(?P<table>\\d+)"`` and implement ``callback``.
    """

    KIND: ClassVar[str]
    LABEL: ClassVar[str]
    STYLE: ClassVar[discord.ButtonStyle] = discord.ButtonStyle.secondary
    CLOSED: ClassVar[str] = "That table has been closed."

    def __init__(self, table_id: int) -> None:
        super().__init__(
            discord.ui.Button(label=self.LABEL, custom_id=f"ws:{self.KIND}:{table_id}", style=self.STYLE)
        )
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["table"]))

    def current_table(self, interaction: Interaction) -> TableKey:
        """The channel's table key; raises ``StaleAction`` if this button's table was closed."""
        key = table_key(interaction)
        if wildstud(interaction).service.table(key).table_id != self.table_id:
            raise StaleAction(self.CLOSED)
        return key
