"""The period leaderboards' privacy on Discord: a member's own opt-out (kept in the store) and the
server's hidden role, whose members only Discord knows (shared by ``/chips leaderboard`` and the
season standings)."""

from __future__ import annotations

from datetime import datetime

import discord

from bot.discord.ui.common import Interaction, table_key, wildstud
from bot.store.stats import NetRow


async def hidden_by_role(interaction: Interaction, candidates: list[int]) -> set[int]:
    """Which of ``candidates`` hold the server's hidden role (each asked of Discord when not in the
    cache: the bot runs without the members intent)."""
    guild = interaction.guild
    role_id = await wildstud(interaction).store.leaderboard_hidden_role(table_key(interaction).guild)
    if role_id is None or guild is None:
        return set()
    hidden = set()
    for member_id in candidates:
        member = guild.get_member(member_id)
        if member is None:
            try:
                member = await guild.fetch_member(member_id)
            except discord.HTTPException:
                continue  # left the server: no roles to hide them by
        if any(role.id == role_id for role in member.roles):
            hidden.add(member_id)
    return hidden


async def listed(interaction: Interaction, candidates: list[int]) -> set[int]:
    """Which of ``candidates`` may be listed: neither opted out nor holding the hidden role."""
    out = await wildstud(interaction).store.leaderboard_optouts(table_key(interaction).guild)
    rest = [m for m in candidates if m not in out]
    return set(rest) - await hidden_by_role(interaction, rest)


async def net_board(
    interaction: Interaction, since: datetime | None, until: datetime | None, limit: int = 10
) -> list[NetRow]:
    """Members by net chips from the hands in ``[since, until)``, best first, without the members
    who opted out or hold the hidden role."""
    store = wildstud(interaction).store
    guild_id = table_key(interaction).guild
    rows = await store.net_leaderboard(guild_id, since=since, until=until, limit=limit * 3)
    hidden = await hidden_by_role(interaction, [r.member_id for r in rows])
    return [r for r in rows if r.member_id not in hidden][:limit]
