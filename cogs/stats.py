"""``/stats`` and ``/season``: the record of the night (issue 24; docs/playing.md "Stats").

Discord cannot run a command that has sub-commands by itself, so ``/stats [member] [game] [period]``
is ``/stats player [member] [game] [period]`` beside ``/stats table``:

* ``/stats player`` -- a member's hands played and won, showdowns won, net chips, biggest pot won,
  VPIP and aggression, per game and in total, over a period, with a chart of the running net chips
  (a PNG) and the member's line in the running (or last) season. Private to the asker.
* ``/stats table`` -- this channel's table since it opened: hands dealt, the biggest pot, who is up
  and who is down.
* ``/stats optout hide:`` -- leave (or rejoin) the period leaderboards and season standings.
* ``/stats setup hidden_role:`` (Manage Server) -- a role whose members those boards leave out.
* ``/season start NAME``, ``/season end`` (Manage Server), ``/season standings [by]`` (anyone): the
  running season's standings, or the last season's final ones.

Every figure comes from the public stat lines (``bot.tables.stats``): nothing a player did not see.
"""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.boards import CANDIDATES, member_name, shown
from bot.discord.ui.common import Interaction, reply, table_key
from bot.discord.ui.text import plain
from bot.engine.games.catalogue import GAMES
from bot.render.cards import chips
from bot.render.chart import net_chart
from bot.store import StoreError
from bot.store.stats import GameTotals, Season, combine
from bot.tables.seasons import STANDINGS, Standing, season_standings, tournament_finishes
from bot.tables.stats import Period

if TYPE_CHECKING:
    from bot.discord.client import WildstudBot

_QUIET = discord.AllowedMentions.none()
PeriodName = Literal["day", "week", "month", "year", "all", "season"]
StandingsBy = Literal["chips", "points", "both"]


def _title(game: str | None) -> str:
    if game is None:
        return "All games"
    known = GAMES.get(game)
    return known.title if known is not None else game


def _hands(count: int) -> str:
    """A count of hands in words.

    >>> _hands(1), _hands(2)
    ('1 hand', '2 hands')
    """
    return f"{count:,} hand" + ("" if count == 1 else "s")


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _factor(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def totals_text(totals: GameTotals) -> str:
    """One game's (or every game's) figures as two lines.

    >>> print(totals_text(GameTotals("seven-card-stud", 4, 2, 1, 1, -120, 340, 3, 5, 2)))
    **Seven-Card Stud**: 4 hands, 2 won, showdowns won 1 of 1, net -120, biggest pot won 340
    VPIP 75%, aggression 2.50
    """
    return (
        f"**{_title(totals.game)}**: {_hands(totals.hands)}, {totals.won:,} won, showdowns won"
        f" {totals.showdowns_won:,} of {totals.showdowns:,}, net {totals.net:+,}, biggest pot won"
        f" {chips(totals.biggest_pot_won)}\n"
        f"VPIP {_percent(totals.vpip)}, aggression {_factor(totals.aggression)}"
    )


def standings_text(season: Season, rows: list[Standing], by: str, name: dict[int, str]) -> str:
    """The standings of a season, as the reply reads. Without any tournament points (no tournament
    finished in it) they are by net chips, and say so."""
    if not any(row.points for row in rows):
        by = "chips"
    state = "running" if season.ended is None else f"ended {season.ended:%Y-%m-%d}"
    lines = [f"Season **{plain(season.name)}** ({state}), by {STANDINGS[by]}:"]
    if not rows:
        lines.append("No hands yet.")
    for place, row in enumerate(rows, 1):
        parts = []
        if by in ("chips", "both"):
            parts.append(f"{row.net:+,} chips")
        if by in ("points", "both"):
            parts.append(f"{row.points:g} point{'' if row.points == 1 else 's'}")
        lines.append(f"{place}. {name.get(row.member_id, f'<@{row.member_id}>')}: {', '.join(parts)}")
    return "\n".join(lines)


@app_commands.guild_only()
class Stats(commands.GroupCog, group_name="stats", group_description="Stats from the hands played here"):
    """``/stats player``, ``/stats table``, ``/stats optout``, ``/stats setup``."""

    def __init__(self, bot: WildstudBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="player", description="A member's stats by game and period, with a chart")
    @app_commands.describe(
        member="Whose stats (default: yours)",
        game="One game (default: every game)",
        period="day, week, month, year, all (the default) or season",
    )
    async def player(
        self,
        interaction: Interaction,
        member: discord.Member | None = None,
        game: str | None = None,
        period: PeriodName = "all",
    ) -> None:
        guild = table_key(interaction).guild
        who = member or interaction.user
        if game is not None and game not in GAMES:
            raise StoreError(f"There is no game called {game!r}; pick one from the list.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        now = datetime.now(UTC)
        seasons = await self.bot.store.seasons(guild)
        chosen = Period(period)
        if chosen is Period.SEASON and not seasons:
            await reply(interaction, "No season yet: a server manager starts one with /season start.")
            return
        since, until = chosen.window(now, seasons)
        rows = await self.bot.store.member_stats(guild, who.id, game=game, since=since, until=until)
        label = chosen.label if chosen is not Period.SEASON or not seasons else f"season {seasons[0].name}"
        whose = "Your" if who.id == interaction.user.id else f"{who.display_name}'s"
        if not rows:
            await reply(interaction, f"{whose} stats, {label}: no hands played.")
            return
        lines = [f"{whose} stats, {label}:"]
        lines += [totals_text(r) for r in rows]
        total = combine(rows)
        if len(rows) > 1 and total is not None:
            lines.append(totals_text(total))
        lines.append(await self._season_line(interaction, who.id, seasons))
        hourly = chosen is Period.DAY
        series = await self.bot.store.net_series(guild, who.id, game=game, since=since, until=until,
                                                 hourly=hourly)
        # The running total starts at 0: at the period's start, else a day (an hour) before the first.
        step = timedelta(hours=1) if hourly else timedelta(days=1)
        origin = series[0][0] - step if since is None else min(since, series[0][0])
        points, running = [(origin, 0)], 0
        for moment, net in series:
            running += net
            points.append((moment, running))
        picture = net_chart(points, f"{who.display_name}: net chips, {label}", hourly=hourly)
        file = discord.File(io.BytesIO(picture), filename="wildstud-stats.png")
        await reply(interaction, "\n".join(lines), file=file, allowed_mentions=_QUIET)

    async def _season_line(self, interaction: Interaction, member_id: int, seasons: list[Season]) -> str:
        if not seasons:
            return "No season yet (a server manager starts one with /season start)."
        season = seasons[0]
        guild = table_key(interaction).guild
        rows = await self.bot.store.member_stats(guild, member_id, since=season.started, until=season.ended)
        total = combine(rows)
        state = "running" if season.ended is None else "last season"
        if total is None:
            return f"Season {season.name} ({state}): no hands."
        return (f"Season {season.name} ({state}): {_hands(total.hands)}, net {total.net:+,}"
                " (the standings: /season standings).")

    @player.autocomplete("game")
    async def _games(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        text = current.lower()
        return [
            app_commands.Choice(name=g.title, value=g.name)
            for g in GAMES.values()
            if text in g.name or text in g.title.lower()
        ][:25]

    @app_commands.command(name="table", description="This table's night: hands dealt, biggest pot, who is up")
    async def table(self, interaction: Interaction) -> None:
        key = table_key(interaction)
        snapshot = self.bot.service.snapshot(key)  # no table here: says so
        night = await self.bot.store.table_night(snapshot.table_id)
        names = dict(snapshot.names)
        opened = night.opened.strftime("%Y-%m-%d %H:%M UTC")
        if not night.hands:
            await reply(interaction, f"No hand has been settled at this table since it opened ({opened}).",
                        ephemeral=False)
            return
        lines = [
            f"This table since it opened ({opened}): {_hands(night.hands)} dealt,"
            f" biggest pot {chips(night.biggest_pot)}."
        ]
        for row in night.members:
            seated = names.get(row.member_id)
            who = plain(seated) if seated else member_name(interaction, row.member_id)
            state = "up" if row.net > 0 else "down" if row.net < 0 else "even"
            lines.append(f"{who}: {state} {abs(row.net):,} ({_hands(row.hands)})")
        await reply(interaction, "\n".join(lines), ephemeral=False, allowed_mentions=_QUIET)

    @app_commands.command(name="optout", description="Leave (or rejoin) the leaderboards and standings")
    @app_commands.describe(hide="True: leave them out; False: be listed again")
    async def optout(self, interaction: Interaction, hide: bool = True) -> None:
        guild = table_key(interaction).guild
        await self.bot.store.set_leaderboard_optout(guild, interaction.user.id, hide)
        await reply(
            interaction,
            "You are left off the period leaderboards and season standings here (your own /stats still work)."
            if hide else "You are listed on the period leaderboards and season standings again.",
        )

    @app_commands.command(name="setup", description="A role whose members the leaderboards leave out")
    @app_commands.describe(hidden_role="Members with this role are never listed (leave out to clear it)")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def setup_(self, interaction: Interaction, hidden_role: discord.Role | None = None) -> None:
        guild = table_key(interaction).guild
        role_id = None if hidden_role is None else hidden_role.id
        await self.bot.store.set_leaderboard_hidden_role(guild, role_id)
        text = (f"Members with the role {hidden_role.name} are left off the leaderboards and standings."
                if hidden_role is not None else "No role is left off the leaderboards now.")
        await reply(interaction, text, allowed_mentions=_QUIET)


@app_commands.guild_only()
class Seasons(commands.GroupCog, group_name="season", group_description="Seasons and their standings"):
    """``/season start``, ``/season end``, ``/season standings``."""

    def __init__(self, bot: WildstudBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="start", description="Start a season (Manage Server)")
    @app_commands.describe(name="The season's name")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def start(self, interaction: Interaction, name: app_commands.Range[str, 1, 100]) -> None:
        guild = table_key(interaction).guild
        season = await self.bot.store.start_season(guild, name, by=interaction.user.id)
        await reply(
            interaction,
            f"Season **{season.name}** starts now: standings by net chips and tournament points"
            " (/season standings).",
            ephemeral=False,
            allowed_mentions=_QUIET,
        )

    @app_commands.command(name="end", description="End the running season (Manage Server)")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def end(self, interaction: Interaction) -> None:
        guild = table_key(interaction).guild
        season = await self.bot.store.end_season(guild, by=interaction.user.id)
        text = await self._standings(interaction, season, "both")
        await reply(interaction, f"The season is over. Final standings:\n{text}", ephemeral=False,
                    allowed_mentions=_QUIET)

    @app_commands.command(name="standings", description="The running season's standings (or the last one's)")
    @app_commands.describe(by="chips (net chips), points (tournament points) or both (the default)")
    async def standings(self, interaction: Interaction, by: StandingsBy = "both") -> None:
        guild = table_key(interaction).guild
        seasons = await self.bot.store.seasons(guild)
        if not seasons:
            await reply(interaction, "No season yet: a server manager starts one with /season start.")
            return
        await reply(interaction, await self._standings(interaction, seasons[0], by), ephemeral=False,
                    allowed_mentions=_QUIET)

    async def _standings(self, interaction: Interaction, season: Season, by: str) -> str:
        guild = table_key(interaction).guild
        board = await self.bot.store.net_leaderboard(
            guild, since=season.started, until=season.ended, limit=CANDIDATES
        )
        finished = await self.bot.store.finished_tournaments(guild, since=season.started, until=season.ended)
        ordered = season_standings(board, tournament_finishes(finished), by=by)
        listed = set(await shown(interaction, [r.member_id for r in ordered]))
        rows = [r for r in ordered if r.member_id in listed]
        named = {r.member_id: member_name(interaction, r.member_id) for r in rows}
        text = standings_text(season, rows, by, named)
        if by != "chips" and not any(r.points for r in rows):
            text += "\nNo tournament points yet: none has finished this season."
        return text


async def setup(bot: WildstudBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Stats(bot))
    await bot.add_cog(Seasons(bot))
