"""``/tournament``: sit-and-go tournaments (issue 23) in a channel.

``/tournament create`` opens registration: the game (any game, ``dealers-choice``, or a comma list
of games that rotate each level or orbit), the buy-in from the chip balance (0: a freeroll), the
starting stack, a structure preset (``turbo regular slow``) or a custom ``schedule``
(``ANTE/BRING-IN/SMALL/BIG[/SB/BB], ...``), the level length (``10m`` or ``8h``), payouts
(``standard``: 65/35 up to 6 players, 50/30/20 for 7+; or ``winner-takes-all``), late
registration and rebuys for the first N levels, and 2 to 8 seats (one table). ``/tournament join``
pays the buy-in into the prize pool (it starts by itself when full), ``/tournament start`` (the
organiser) starts it with the players in, ``/tournament rebuy`` buys a busted player back in
during the rebuy levels, ``/tournament status`` shows the level, the countdown, the stakes now
and next, the stacks and the places paid, and ``/tournament cancel`` stops it (before the start
every buy-in is refunded; after it the organiser's ruling: ``icm``, the default, or ``refund``).
The table service (``bot.tables.tournaments``) decides everything; this cog parses and answers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands
from discord.ext import commands

from bot.discord.ui.common import Interaction, actor, reply, require_channel_access, table_key
from bot.discord.ui.text import code_block, plain_but_timestamps
from bot.tables.errors import TableError
from bot.tournament.model import CANCEL_RULINGS, ROTATE, GamePlan, Options, TournamentError
from bot.tournament.payouts import PAYOUTS
from bot.tournament.structure import (
    DEFAULT_STARTING_STACK,
    PRESET_NAMES,
    LevelLength,
    Structure,
    StructureError,
)

if TYPE_CHECKING:
    from bot.discord.client import WildstudBot

_PRESETS = [app_commands.Choice(name=name, value=name) for name in PRESET_NAMES]
_PAYOUTS = [app_commands.Choice(name=name, value=name) for name in PAYOUTS]
_RULINGS = [app_commands.Choice(name=name, value=name) for name in CANCEL_RULINGS]
_ROTATE = [app_commands.Choice(name=name, value=name) for name in ROTATE]


def build_options(
    *, game: str, buy_in: int, starting_stack: int, preset: str, schedule: str | None, level: str | None,
    payouts: str, late_registration: int, rebuys: int, seats: int, rotate: str,
) -> Options:
    """The organiser's choices as tournament options; raises ``TableError`` saying what is wrong.

    >>> build_options(game="seven-card-stud", buy_in=100, starting_stack=1500, preset="turbo",
    ...               schedule=None, level="8h", payouts="standard", late_registration=0, rebuys=1,
    ...               seats=6, rotate="level").structure.length
    LevelLength(unit='hands', amount=8)
    """
    try:
        length = LevelLength.parse(level) if level else None
        if schedule:
            structure = Structure.parse(schedule, length or Structure.preset(preset).length)
        else:
            structure = Structure.preset(preset, length)
        return Options(plan=GamePlan.parse(game, rotate), structure=structure, buy_in=buy_in,
                       starting_stack=starting_stack, payouts=payouts, seats=seats,
                       late_registration_levels=late_registration, rebuy_levels=rebuys)
    except (StructureError, TournamentError) as error:
        raise TableError(str(error).capitalize() + ".") from None


@app_commands.guild_only()
async def _say(interaction: Interaction, text: str) -> None:
    """Reply with the service's text as written: names escaped (a player called ``*Ann*`` is not
    italic), the level countdown's Discord timestamp kept live."""
    await reply(interaction, plain_but_timestamps(text))


class Tournament(commands.GroupCog, group_name="tournament", group_description="Sit-and-go tournaments"):
    """``/tournament create join leave start rebuy status cancel``."""

    def __init__(self, bot: WildstudBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="create", description="Open a sit-and-go in this channel (you organise it)")
    @app_commands.describe(
        game="A game, dealers-choice, or games separated by commas (a rotation)",
        buy_in="Chips from each balance into the prize pool (0: a freeroll)",
        starting_stack="Tournament chips each player starts with (default 1,500)",
        preset="Structure: turbo (5-minute levels), regular (10) or slow (15)",
        schedule="Custom levels instead: ANTE/BRING-IN/SMALL/BIG[/SB/BB], comma separated",
        level="Level length: minutes (10m) or hands (8h); default the preset's",
        payouts="standard (65/35 up to 6, 50/30/20 for 7+) or winner-takes-all",
        late_registration="Registration stays open through this many levels (0: closes at the start)",
        rebuys="Busted players may rebuy during this many levels (0: no rebuys)",
        seats="Players (2 to 8, one table); it starts by itself when full",
        rotate="A rotation of games changes each level (default) or each orbit",
    )
    @app_commands.choices(preset=_PRESETS, payouts=_PAYOUTS, rotate=_ROTATE)
    async def create(
        self,
        interaction: Interaction,
        game: str = "seven-card-stud",
        buy_in: app_commands.Range[int, 0, 10**9] = 100,
        starting_stack: app_commands.Range[int, 1, 10**9] = DEFAULT_STARTING_STACK,
        preset: str = "regular",
        schedule: str | None = None,
        level: str | None = None,
        payouts: str = "standard",
        late_registration: app_commands.Range[int, 0, 20] = 0,
        rebuys: app_commands.Range[int, 0, 20] = 0,
        seats: app_commands.Range[int, 2, 8] = 6,
        rotate: str = "level",
    ) -> None:
        key = table_key(interaction)
        options = build_options(
            game=game, buy_in=buy_in, starting_stack=starting_stack, preset=preset, schedule=schedule,
            level=level, payouts=payouts, late_registration=late_registration, rebuys=rebuys, seats=seats,
            rotate=rotate,
        )
        require_channel_access(interaction)
        await interaction.response.defer(ephemeral=False, thinking=True)
        text = await self.bot.service.tournaments.create(key, await actor(interaction), options)
        await _say(interaction, f"Sit-and-go open for registration: {text}\nJoin with /tournament join.")

    @app_commands.command(name="join", description="Enter the tournament: your buy-in goes into the pool")
    async def join(self, interaction: Interaction) -> None:
        key = table_key(interaction)
        await interaction.response.defer(ephemeral=False, thinking=True)
        async with self.bot.presenter.responding(key, interaction):
            who = await actor(interaction)
            await _say(interaction, await self.bot.service.tournaments.join(key, who, str(interaction.id)))

    @app_commands.command(name="leave", description="Leave before the start (your buy-in comes back)")
    async def leave(self, interaction: Interaction) -> None:
        key = table_key(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await _say(interaction, await self.bot.service.tournaments.leave(key, await actor(interaction)))

    @app_commands.command(name="start", description="Start now with the players in (the organiser)")
    async def start(self, interaction: Interaction) -> None:
        key = table_key(interaction)
        who = await actor(interaction, dealer=True)
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with self.bot.presenter.responding(key, interaction):
            await _say(interaction, await self.bot.service.tournaments.start(key, who))

    @app_commands.command(name="rebuy", description="Buy back in after busting, during the rebuy levels")
    async def rebuy(self, interaction: Interaction) -> None:
        key = table_key(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with self.bot.presenter.responding(key, interaction):
            who = await actor(interaction)
            await _say(interaction, await self.bot.service.tournaments.rebuy(key, who, str(interaction.id)))

    @app_commands.command(name="status", description="Level, time to the next, stakes, stacks, places paid")
    async def status(self, interaction: Interaction) -> None:
        key = table_key(interaction)
        text = plain_but_timestamps(await self.bot.service.tournaments.status(key))
        if self.bot.service.has_table(key):
            text += "\n" + code_block(self.bot.service.status_text(key))
        await reply(interaction, text)

    @app_commands.command(name="cancel", description="Cancel the tournament (the organiser)")
    @app_commands.describe(ruling="After the start: icm (default) pays the chips in play by ICM; refund")
    @app_commands.choices(ruling=_RULINGS)
    async def cancel(self, interaction: Interaction, ruling: str = "icm") -> None:
        key = table_key(interaction)
        who = await actor(interaction, dealer=True)
        await interaction.response.defer(ephemeral=False, thinking=True)
        async with self.bot.presenter.responding(key, interaction):
            await _say(interaction, await self.bot.service.tournaments.cancel(key, who, ruling))


async def setup(bot: WildstudBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Tournament(bot))
