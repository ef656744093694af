"""``/chips``: each member's chips in this server (DESIGN "Persistence and recovery").

``balance [member]``, ``leaderboard [period]`` (by chips held, or with a period by net chips won
in its hands; members who opted out or hold the hidden role are left out: ``bot.discord.boards``),
``give MEMBER AMOUNT``, ``daily``, ``ledger [member]`` (another member's needs Manage Server),
``settle [hours]`` (who pays whom for the hands of the last hours, fewest payments), and for
Manage Server ``grant MEMBER AMOUNT [reason]``, ``take MEMBER AMOUNT [reason]`` and ``setup``
(starting chips, daily chips and cooldown).

Chips at a table are not in the balance: a buy-in moves them to the seat, leaving the table moves
them back. Every movement is a ledger row written with it (the store); a retried interaction
(same interaction id) moves nothing twice.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.boards import CANDIDATES, member_name, shown
from bot.discord.ui.common import Interaction, reply, table_key
from bot.discord.ui.text import plain
from bot.render.cards import chips
from bot.store import StoreError
from bot.tables.stats import Period

if TYPE_CHECKING:
    from bot.discord.client import WildstudBot

_QUIET = discord.AllowedMentions.none()


def _refuse_bot(member: discord.User | discord.Member) -> None:
    """Bots (this one included) have no chips: giving, granting or taking them is refused."""
    if member.bot:
        raise StoreError("Bots don't play for chips.")


@app_commands.guild_only()
class Chips(commands.GroupCog, group_name="chips", group_description="Your chips in this server"):
    """``/chips balance leaderboard give daily grant take ledger settle setup``."""

    def __init__(self, bot: WildstudBot) -> None:
        self.bot = bot
        super().__init__()


    def _in_play(self, guild_id: int, member_id: int) -> int:
        total = 0
        for key in self.bot.service.tables():
            if key.guild == guild_id:
                seat = self.bot.service.snapshot(key).seat_of(member_id)
                if seat is not None:
                    total += seat.stack
        return total

    @app_commands.command(name="balance", description="Chips in your balance (or a member's), and at tables")
    @app_commands.describe(member="Whose balance (default: yours)")
    async def balance(self, interaction: Interaction, member: discord.Member | None = None) -> None:
        guild = table_key(interaction).guild
        who = member or interaction.user
        if who.id == interaction.user.id:
            balance = await self.bot.store.balance(guild, who.id)  # first use: the starting chips
        else:
            # Looking at someone else's balance opens no account for them (and none for a bot).
            _refuse_bot(who)
            peeked = await self.bot.store.peek_balance(guild, who.id)
            if peeked is None:
                await reply(interaction, f"{who.display_name} has no chips here yet.")
                return
            balance = peeked
        in_play = self._in_play(guild, who.id)
        whose = "You have" if who.id == interaction.user.id else f"{who.display_name} has"
        text = f"{whose} {chips(balance)} chips"
        text += f", plus {chips(in_play)} at the tables." if in_play else "."
        await reply(interaction, text)

    @app_commands.command(
        name="leaderboard",
        description="The richest members here, or with a period the biggest winners of its hands",
    )
    @app_commands.describe(
        period="Rank by net chips won in hands: day, week, month, year, all or season"
        " (default: by chips held)"
    )
    async def leaderboard(
        self,
        interaction: Interaction,
        period: Literal["day", "week", "month", "year", "all", "season"] | None = None,
    ) -> None:
        guild = table_key(interaction).guild
        if period is not None:
            await self._period_board(interaction, Period(period))
            return
        candidates = await self.bot.store.leaderboard(guild, limit=CANDIDATES)
        listed = set(await shown(interaction, [r.member_id for r in candidates]))
        rows = [r for r in candidates if r.member_id in listed]
        if not rows:
            await reply(interaction, "Nobody has chips here yet.", ephemeral=False)
            return
        lines = ["Leaderboard (balance + at tables):"]
        for i, row in enumerate(rows, 1):
            extra = f" ({chips(row.in_play)} at a table)" if row.in_play else ""
            lines.append(f"{i}. {member_name(interaction, row.member_id)}: {chips(row.total)}{extra}")
        await reply(interaction, "\n".join(lines), ephemeral=False, allowed_mentions=_QUIET)

    async def _period_board(self, interaction: Interaction, period: Period) -> None:
        guild = table_key(interaction).guild
        seasons = await self.bot.store.seasons(guild)
        if period is Period.SEASON and not seasons:
            await reply(interaction, "No season yet: a server manager starts one with /season start.")
            return
        since, until = period.window(datetime.now(UTC), seasons)
        label = f"season {seasons[0].name}" if period is Period.SEASON and seasons else period.label
        candidates = await self.bot.store.net_leaderboard(guild, since=since, until=until, limit=CANDIDATES)
        listed = set(await shown(interaction, [r.member_id for r in candidates]))
        rows = [r for r in candidates if r.member_id in listed]
        if not rows:
            await reply(interaction, f"No hands were played in {label}.", ephemeral=False)
            return
        lines = [f"Leaderboard, net chips won in hands, {label}:"]
        for i, row in enumerate(rows, 1):
            hands = f"{row.hands:,} hand" + ("" if row.hands == 1 else "s")
            lines.append(f"{i}. {member_name(interaction, row.member_id)}: {row.net:+,} ({hands})")
        await reply(interaction, "\n".join(lines), ephemeral=False, allowed_mentions=_QUIET)

    @app_commands.command(name="give", description="Give some of your chips to another member")
    @app_commands.describe(member="Who gets the chips", amount="How many chips")
    async def give(
        self, interaction: Interaction, member: discord.Member, amount: app_commands.Range[int, 1]
    ) -> None:
        guild = table_key(interaction).guild
        _refuse_bot(member)
        receipt = await self.bot.store.transfer(
            guild, interaction.user.id, member.id, amount, key=f"give:{interaction.id}"
        )
        left = receipt.balances.get(interaction.user.id, 0)
        giver = plain(interaction.user.display_name)
        await reply(
            interaction,
            f"{giver} gives {plain(member.display_name)} {chips(amount)} chips"
            f" ({giver} now has {chips(left)}).",
            ephemeral=False,
            allowed_mentions=_QUIET,
        )

    @app_commands.command(name="daily", description="Claim this server's daily chips")
    async def daily(self, interaction: Interaction) -> None:
        guild = table_key(interaction).guild
        receipt = await self.bot.store.claim_daily(guild, interaction.user.id)
        settings = await self.bot.store.guild_settings(guild)
        now = receipt.balances.get(interaction.user.id, 0)
        await reply(interaction, f"+{chips(settings.daily_amount)} chips: you now have {chips(now)}.")

    @app_commands.command(name="grant", description="Add chips to a member's balance (Manage Server)")
    @app_commands.describe(
        member="Who gets the chips", amount="How many chips", reason="Why (kept in the ledger)"
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    async def grant(
        self,
        interaction: Interaction,
        member: discord.Member,
        amount: app_commands.Range[int, 1],
        reason: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        guild = table_key(interaction).guild
        _refuse_bot(member)
        why = reason or f"granted by {interaction.user.display_name}"
        receipt = await self.bot.store.grant(
            guild, member.id, amount, reason=why, by=interaction.user.id, key=f"grant:{interaction.id}"
        )
        await reply(
            interaction,
            f"{plain(interaction.user.display_name)} grants {plain(member.display_name)} {chips(amount)}"
            f" chips ({plain(why)});"
            f" balance {chips(receipt.balances[member.id])}.",
            ephemeral=False,
            allowed_mentions=_QUIET,
        )

    @app_commands.command(name="take", description="Remove chips from a member's balance (Manage Server)")
    @app_commands.describe(member="Whose chips", amount="How many chips", reason="Why (kept in the ledger)")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def take(
        self,
        interaction: Interaction,
        member: discord.Member,
        amount: app_commands.Range[int, 1],
        reason: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        guild = table_key(interaction).guild
        _refuse_bot(member)
        why = reason or f"taken by {interaction.user.display_name}"
        receipt = await self.bot.store.take(
            guild, member.id, amount, reason=why, by=interaction.user.id, key=f"take:{interaction.id}"
        )
        await reply(
            interaction,
            f"{plain(interaction.user.display_name)} takes {chips(amount)} chips from"
            f" {plain(member.display_name)} ({plain(why)});"
            f" balance {chips(receipt.balances[member.id])}.",
            ephemeral=False,
            allowed_mentions=_QUIET,
        )

    @app_commands.command(
        name="ledger", description="The latest chip movements of your balance (or a member's)"
    )
    @app_commands.describe(member="Whose ledger (another member's needs Manage Server)")
    async def ledger(self, interaction: Interaction, member: discord.Member | None = None) -> None:
        guild = table_key(interaction).guild
        who = member or interaction.user
        if who.id != interaction.user.id and not interaction.permissions.manage_guild:
            raise app_commands.MissingPermissions(["manage_guild"])
        entries = await self.bot.store.member_ledger(guild, who.id, limit=15)
        if not entries:
            await reply(interaction, "No chip movements yet.")
            return
        lines = [f"Latest chip movements of {who.display_name} (newest first):"]
        for e in entries:
            parts = []
            if e.delta:
                parts.append(f"balance {e.delta:+,}")
            if e.stack_delta:
                parts.append(f"table {e.stack_delta:+,}")
            moved = ", ".join(parts) or "no change"
            when = e.created.strftime("%Y-%m-%d %H:%M")
            lines.append(f"`{when}` {e.kind}: {moved} ({e.reason})")
        await reply(interaction, "\n".join(lines), allowed_mentions=_QUIET)

    @app_commands.command(name="settle", description="Who pays whom for the hands of the last hours")
    @app_commands.describe(hours="How far back (default 24 hours)")
    async def settle(self, interaction: Interaction, hours: app_commands.Range[int, 1, 8760] = 24) -> None:
        guild = table_key(interaction).guild
        until = datetime.now(UTC) + timedelta(seconds=1)
        result = await self.bot.store.settle_up(guild, until - timedelta(hours=hours), until)
        if not result.net:
            await reply(interaction, f"No hands were settled in the last {hours} hours.", ephemeral=False)
            return
        lines = [f"Results of the last {hours} hours:"]
        for member_id, net in sorted(result.net.items(), key=lambda kv: -kv[1]):
            lines.append(f"{member_name(interaction, member_id)}: {net:+,}")
        if result.payments:
            lines.append("To square up:")
            lines += [
                f"{member_name(interaction, p.payer)} pays {member_name(interaction, p.payee)}"
                f" {chips(p.amount)}"
                for p in result.payments
            ]
        else:
            lines.append("Everyone is square.")
        await reply(interaction, "\n".join(lines), ephemeral=False, allowed_mentions=_QUIET)

    @app_commands.command(
        name="setup", description="Starting chips and daily chips for this server (Manage Server)"
    )
    @app_commands.describe(
        starting_chips="Chips a member gets on first use",
        daily_amount="Chips per daily claim (0 turns daily chips off)",
        daily_hours="Hours between daily claims",
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    async def setup_(
        self,
        interaction: Interaction,
        starting_chips: app_commands.Range[int, 0] | None = None,
        daily_amount: app_commands.Range[int, 0] | None = None,
        daily_hours: app_commands.Range[int, 1, 720] | None = None,
    ) -> None:
        from bot.store import UNSET

        guild = table_key(interaction).guild
        settings = await self.bot.store.update_guild_settings(
            guild,
            starting_chips=UNSET if starting_chips is None else starting_chips,
            daily_amount=UNSET if daily_amount is None else daily_amount,
            daily_cooldown=UNSET if daily_hours is None else timedelta(hours=daily_hours),
        )
        daily = (
            f"{chips(settings.daily_amount)} every {settings.daily_cooldown.total_seconds() / 3600:g} hours"
            if settings.daily_enabled
            else "off"
        )
        await reply(interaction, f"Starting chips: {chips(settings.starting_chips)}. Daily chips: {daily}.")


async def setup(bot: WildstudBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Chips(bot))
