"""The between-hands buttons on the table message: Join and Deal."""

from __future__ import annotations

import discord

from bot.discord.ui.base import TableButton
from bot.discord.ui.common import (
    Interaction,
    actor,
    reply,
    require_channel_access,
    table_key,
    wildstud,
)
from bot.discord.ui.errors import answer_error
from bot.render.cards import chips
from bot.tables.notices import Actor


class JoinButton(TableButton, template=r"ws:join:(?P<table>\d+)"):
    """Take a seat with the default buy-in (as much as the balance and the table allow)."""

    KIND = "join"
    LABEL = "Join"
    STYLE = discord.ButtonStyle.success

    async def callback(self, interaction: Interaction) -> None:
        try:
            bot = wildstud(interaction)
            key = self.current_table(interaction)
            who = await actor(interaction)
            async with bot.presenter.responding(key, interaction):
                seat = await bot.service.join(key, who)
            await reply(interaction, f"You sit in seat {seat.seat_no} with {chips(seat.stack)} chips.")
        except Exception as exc:
            await answer_error(interaction, exc)


class DealButton(TableButton, template=r"ws:deal:(?P<table>\d+)"):
    """Deal the next hand (the dealer only)."""

    KIND = "deal"
    LABEL = "Deal"
    STYLE = discord.ButtonStyle.primary

    async def callback(self, interaction: Interaction) -> None:
        try:
            self.current_table(interaction)
            who = await actor(interaction, dealer=True)
            await deal(interaction, who)
        except Exception as exc:
            await answer_error(interaction, exc)


async def deal(interaction: Interaction, who: Actor) -> None:
    """Deal the next hand at the interaction's table for ``who`` and say so (privately). The
    private answer comes before the ping of the first player to act (inside ``responding``)."""
    bot = wildstud(interaction)
    key = table_key(interaction)
    require_channel_access(interaction)
    async with bot.presenter.responding(key, interaction):
        hand_id = await bot.service.deal(key, who)
        choice = bot.service.pending_choice(key)
        if hand_id is None and choice is not None:
            await reply(
                interaction, f"Dealer's choice: {choice.name} picks the game first (the menu in the channel)."
            )
            return
        table = bot.service.snapshot(key)
        done = f"Hand #{table.hand_no} is dealt." if table.in_hand else "The hand is dealt and already over."
        await reply(interaction, done)




