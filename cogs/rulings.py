"""``/ruling``: the dealer's rulings for this channel's table (SPEC §3-§6, §8).

Rulings belong to games (issue 12): ``/ruling list`` shows the rulings of the table's game (under
dealer's choice, of any of its games) in force (and changes waiting for the next deal);
``/ruling set NAME VALUE`` (autocomplete offers the game's ruling names, then that ruling's options;
a ruling of another game is refused with the list of those that apply) and
``/ruling reset`` queue a change. Only the dealer may change rulings: the table's creator, members
with the server's dealer role, or Manage Server; everyone else is refused. A change made now is
announced in the channel just before the next deal and applies from that deal on; the hand in
progress keeps the rulings it was dealt under.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from discord import app_commands
from discord.ext import commands

from bot.discord.ui.common import Interaction, actor, reply, table_key
from bot.engine.games.catalogue import DEALERS_CHOICE, GAMES
from bot.engine.games.rulings import RULING_HELP, RULINGS
from bot.engine.vocab import normalise
from bot.render.settings import rulings_changes, rulings_table
from bot.tables.errors import TableError
from bot.tables.games import GameSettings, setting_title

if TYPE_CHECKING:
    from bot.discord.client import WildstudBot


def name_choices(current: str, names: Sequence[str] = tuple(RULINGS)) -> list[app_commands.Choice[str]]:
    """Ruling names (of ``names``: the table's game's) containing what was typed (``-`` or ``_``
    alike), with their meaning.

    >>> [c.value for c in name_choices("wild")]
    ['wild_in_flush', 'wild_rank']
    >>> [c.value for c in name_choices("follow", GAMES["seven-card-stud"].rulings)]
    []
    """
    typed = normalise(current)
    return [
        app_commands.Choice(name=f"{name}: {RULING_HELP.get(name, '')}"[:100], value=name)
        for name in names
        if typed in name
    ][:25]


def value_choices(name: str, current: str, games: Sequence[str] = ()) -> list[app_commands.Choice[str]]:
    """The options of ruling ``name`` containing what was typed (those some game of ``games``
    offers, when given); the default is marked.

    >>> [c.value for c in value_choices("raise-cap", "")]
    ['3', '4', 'none']
    >>> [c.value for c in value_choices("open_pair_double", "", ["seven-card-stud"])]
    ['natural-pair', 'off']
    """
    key = normalise(name)
    options = RULINGS.get(key)
    if options is None:
        return []
    if games:
        offered = {o for g in games if key in GAMES[g].rulings for o in GAMES[g].options(key)}
        options = tuple(o for o in options if o in offered)
    typed = current.strip().lower()
    return [
        app_commands.Choice(name=f"{option} (default)" if i == 0 else option, value=option)
        for i, option in enumerate(options)
        if typed in option
    ][:25]


@app_commands.guild_only()
class Ruling(commands.GroupCog, group_name="ruling", group_description="The dealer's rulings at this table"):
    """``/ruling list``, ``/ruling set``, ``/ruling reset``."""

    def __init__(self, bot: WildstudBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(
        name="list", description="Every ruling at this table, and changes waiting for the next deal"
    )
    async def list_(self, interaction: Interaction) -> None:
        key = table_key(interaction)
        table = self.bot.service.snapshot(key)
        games = self.bot.service.games(key)
        applies = set(games.rulings)
        pairs = zip(table.rulings.to_dict(), rulings_table(table.rulings), strict=True)
        shown = [line for name, line in pairs if name in applies]
        lines = [f"Rulings of {setting_title(games.game, games.allowed)}:", *(f"• {line}" for line in shown)]
        if table.pending_rulings is not None:
            changes = rulings_changes(table.rulings, table.pending_rulings)
            if changes:
                lines += ["From the next deal:", changes]
        await reply(interaction, "\n".join(lines))

    @app_commands.command(name="set", description="Change a ruling from the next deal on (the dealer only)")
    @app_commands.describe(name="The ruling (start typing to see them)", value="Its new option")
    async def set_(self, interaction: Interaction, name: str, value: str) -> None:
        key = table_key(interaction)
        who = await actor(interaction, dealer=True)
        await interaction.response.defer(ephemeral=True, thinking=True)
        text = await self.bot.service.set_ruling(key, who, name, value)
        await reply(interaction, text)

    @set_.autocomplete("name")
    async def _name(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        games = self._games(interaction)
        return name_choices(current, games.rulings) if games is not None else name_choices(current)

    def _games(self, interaction: Interaction) -> GameSettings | None:
        """The game settings of the channel's table (None without one: every ruling is offered)."""
        try:
            return self.bot.service.games(table_key(interaction))
        except TableError:
            return None

    @set_.autocomplete("value")
    async def _value(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        name = getattr(interaction.namespace, "name", None) or ""
        games = self._games(interaction)
        if games is None:
            return value_choices(str(name), current)
        playing = games.allowed if games.game == DEALERS_CHOICE else (games.game,)
        return value_choices(str(name), current, playing)

    @app_commands.command(
        name="reset", description="Back to the default rulings from the next deal (the dealer only)"
    )
    async def reset(self, interaction: Interaction) -> None:
        key = table_key(interaction)
        who = await actor(interaction, dealer=True)
        await interaction.response.defer(ephemeral=True, thinking=True)
        text = await self.bot.service.reset_rulings(key, who)
        await reply(interaction, text)


async def setup(bot: WildstudBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Ruling(bot))
