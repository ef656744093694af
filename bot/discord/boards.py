"""The leaderboards on Discord: a member's own opt-out (kept in the store) and the server's hidden
role, whose members only Discord knows, and how a board names a member (``member_name``), shared
by ``/chips`` and ``/stats``/``/season``.

The bot runs without the members intent, so a member it has not cached is asked of Discord; a board
walks its candidates best first and stops once it has the rows it shows, so it asks about at most
those rows plus the hidden members above them.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.discord.ui.common import Interaction, table_key, wildstud
from bot.discord.ui.text import plain

CANDIDATES = 500
"""How many members a board reads from the store before the hidden role is applied."""


async def _holds(guild: discord.Guild, member_id: int, role_id: int) -> bool:
    member = guild.get_member(member_id)
    if member is None:
        try:
            member = await guild.fetch_member(member_id)
        except discord.HTTPException:
            return False  # left the server: no roles to hide them by
    return any(role.id == role_id for role in member.roles)


async def shown(interaction: Interaction, ordered: Sequence[int], limit: int = 10) -> list[int]:
    """The first ``limit`` of ``ordered`` (member ids, best first) that a board may list: neither
    opted out nor holding the server's hidden role."""
    store = wildstud(interaction).store
    guild_id = table_key(interaction).guild
    out = await store.leaderboard_optouts(guild_id)
    role_id = await store.leaderboard_hidden_role(guild_id)
    guild = interaction.guild
    listed: list[int] = []
    for member_id in ordered:
        if len(listed) >= limit:
            break
        if member_id in out:
            continue
        if role_id is not None and guild is not None and await _holds(guild, member_id, role_id):
            continue
        listed.append(member_id)
    return listed


def member_name(interaction: Interaction, member_id: int) -> str:
    """A member's name as the bot last saw it (the bot's cache, a table's seats, the guild's member
    cache), its Markdown escaped (boards are public replies: a name ``**x**`` is not bold), else a
    mention (Discord shows it as the name)."""
    bot = wildstud(interaction)
    name = bot.names.get(member_id)
    guild = interaction.guild
    if name is None and guild is not None:
        for key in bot.service.tables():
            if key.guild == guild.id:
                known = dict(bot.service.snapshot(key).names).get(member_id)
                if known:
                    name = known
                    break
    if name is None and guild is not None:
        member = guild.get_member(member_id)
        name = member.display_name if member is not None else None
    return plain(name) if name is not None else f"<@{member_id}>"
