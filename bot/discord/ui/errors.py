"""The error reply: refusals become a short ephemeral answer carrying their reason (never "This
interaction failed").

Refusals a player may read come in three families: ``IllegalAction`` (the engine;
``bot.tables.errors.TableError`` extends it), the store's ``StoreError``, and bad settings
(``RulingError``/``StakesError``, both ``ValueError``); a failure of the database itself is answered
with that reason (``UNREACHABLE``). Anything else is a bug: it is logged with
its traceback and the member gets a short apology.
"""

from __future__ import annotations

import logging
from typing import Any

import aiohttp
import discord
from discord import app_commands

from bot.discord.ui.common import Interaction, reply
from bot.discord.ui.text import sentence
from bot.engine.errors import IllegalAction, RulingError, StakesError
from bot.store import StoreError
from bot.store.errors import database_failures

log = logging.getLogger(__name__)

UNREACHABLE = "The database is unreachable, so your action was not taken; try again in a moment."
"""The answer when the database itself failed (out of reach, a dropped connection, a conflict that
kept failing): the true reason, not an apology for a bug."""

UNKNOWN_INTERACTION = 10062
"""Discord's "Unknown interaction": the 3-second deadline passed, the token is dead."""

ALREADY_ACKNOWLEDGED = 40060
"""Discord's "Interaction has already been acknowledged"."""


def refusal(error: BaseException) -> str | None:
    """The reason to show a member for a refused request, or None if ``error`` is a bug.

    >>> from bot.tables.errors import TableError
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
    if isinstance(error, database_failures()) and not isinstance(error, aiohttp.ClientError):
        log.warning("database failure: %s: %s", type(error).__name__, " ".join(str(error).split())[:300])
        return UNREACHABLE
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
