"""Betting: ``/bet`` ``/raise`` ``/call`` ``/check`` ``/fold`` ``/allin``, at a draw ``/draw``
``/stand``, and at the showdown ``/show`` ``/muck``: the prompt's actions as slash commands, and
the listener that answers amount modals (the buttons and the modal live in ``bot.discord.ui``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.ui.amount import AMOUNT_MODAL, AmountButton, submit_amount
from bot.discord.ui.betting import ActionButton, DiscardAskButton, FoldAskButton, MyCardsButton
from bot.discord.ui.common import Interaction, actor, table_key
from bot.discord.ui.drawing import (
    DiscardSelect,
    DrawButton,
    PickButton,
    discards_from_text,
    draw_limit,
    send_new_hand,
)
from bot.discord.ui.text import describe
from bot.engine.command import Command, Kind

if TYPE_CHECKING:
    from bot.discord.client import WildstudBot


class Betting(commands.Cog):
    """``/bet`` ``/raise`` ``/call`` ``/check`` ``/fold`` ``/allin`` ``/show`` ``/muck``: the buttons'
    actions as commands."""

    def __init__(self, bot: WildstudBot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        """Amount modals are answered here, from their custom_id (see ``submit_amount``)."""
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        if AMOUNT_MODAL.fullmatch(str(data.get("custom_id", ""))):
            await submit_amount(interaction)

    async def _command(self, interaction: Interaction, command: Command) -> None:
        key = table_key(interaction)
        self.bot.service.snapshot(key)          # no table here: say so before deferring
        await interaction.response.defer(ephemeral=True, thinking=True)
        who = await actor(interaction)
        async with self.bot.presenter.responding(key, interaction):
            done, chips = await self.bot.service.act_on_prompt(key, who, command)
            await interaction.followup.send(f"You {describe(done.kind.value, chips)}.", ephemeral=True)

    @app_commands.command(name="bet", description="Bet (or raise, or complete) to a total for this street")
    @app_commands.describe(amount="Your total for this street (not needed in fixed limit)")
    @app_commands.guild_only()
    async def bet(self, interaction: Interaction, amount: app_commands.Range[int, 1] | None = None) -> None:
        await self._command(interaction, Command(Kind.BET, amount))

    @app_commands.command(name="raise", description="Raise to a total for this street")
    @app_commands.describe(amount="Your total for this street, raise TO this (not needed in fixed limit)")
    @app_commands.guild_only()
    async def raise_(
        self, interaction: Interaction, amount: app_commands.Range[int, 1] | None = None
    ) -> None:
        await self._command(interaction, Command(Kind.RAISE, amount))

    @app_commands.command(name="call", description="Call the bet (or check if nothing is owed)")
    @app_commands.guild_only()
    async def call(self, interaction: Interaction) -> None:
        await self._command(interaction, Command(Kind.CALL))

    @app_commands.command(name="check", description="Check")
    @app_commands.guild_only()
    async def check(self, interaction: Interaction) -> None:
        await self._command(interaction, Command(Kind.CHECK))

    @app_commands.command(name="fold", description="Fold your hand")
    @app_commands.guild_only()
    async def fold(self, interaction: Interaction) -> None:
        await self._command(interaction, Command(Kind.FOLD))

    @app_commands.command(name="allin", description="Put all your chips in")
    @app_commands.guild_only()
    async def allin(self, interaction: Interaction) -> None:
        await self._command(interaction, Command(Kind.ALL_IN))

    @app_commands.command(name="draw", description="Draw: throw away these cards (positions 1 3, or Kh 5c)")
    @app_commands.describe(cards="Positions in your hand, counted from the left (1 3), or the cards (Kh 5c)")
    @app_commands.guild_only()
    async def draw(self, interaction: Interaction, cards: app_commands.Range[str, 1, 60]) -> None:
        key = table_key(interaction)
        service = self.bot.service
        prompt = service.current_prompt(key)
        most = draw_limit(prompt) if prompt is not None and prompt.member == interaction.user.id else None
        if most is None:
            # Not their draw: the service says why (not their turn, not a draw, not in the hand).
            await self._command(interaction, Command(Kind.DRAW))
            return
        before = service.my_cards(key, interaction.user.id)
        command = Command(Kind.DRAW, cards=discards_from_text(cards, before.down_cards, most))
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with self.bot.presenter.responding(key, interaction):
            await service.act_on_prompt(key, await actor(interaction), command)
            await send_new_hand(interaction, key, before, command)     # before the ping's followup

    @app_commands.command(name="stand", description="Stand pat: keep every card at your draw")
    @app_commands.guild_only()
    async def stand(self, interaction: Interaction) -> None:
        await self._command(interaction, Command(Kind.STAND))

    @app_commands.command(name="show", description="Show your hand at the showdown")
    @app_commands.guild_only()
    async def show(self, interaction: Interaction) -> None:
        await self._command(interaction, Command(Kind.SHOW))

    @app_commands.command(name="muck", description="Muck a beaten hand at the showdown (nobody sees it)")
    @app_commands.guild_only()
    async def muck(self, interaction: Interaction) -> None:
        await self._command(interaction, Command(Kind.MUCK))


async def setup(bot: WildstudBot) -> None:
    """Extension entry point: the cog, and its controls added to the click router."""
    await bot.add_cog(Betting(bot))
    bot.clicks.add(ActionButton, AmountButton, FoldAskButton, MyCardsButton, PickButton, DiscardSelect,
                   DrawButton, DiscardAskButton)
