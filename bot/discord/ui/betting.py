"""The buttons on the prompt for the player to act, and "My cards".

Buttons are ``discord.ui.DynamicItem``: the table, hand and turn ride in the ``custom_id``
(``ws:act:TABLE:HAND:TURN:ACTION[:AMOUNT]``, under 100 characters), so a button keeps working
after the bot restarts, and a button from an earlier hand or turn (a stale button, or the second
of a double click) is refused with a reason and changes nothing: ``TableService.act`` takes the
table lock and checks the hand and turn again before anything moves.

Only the player to act may act; anyone else gets an ephemeral reason. Every answer comes within
Discord's 3-second deadline: the cheap checks run first and refuse at once; an accepted click is
answered by the table message itself, redrawn in the interaction's response (type 7, see
``bot.discord.presenter``), or deferred if that takes too long.

Fixed limit puts each legal total on its own button ("Raise to 40"); pot and no limit ask for the
amount in a modal that states the allowed range (``bot.discord.ui.amount``).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import discord

from bot.discord.ui.amount import AmountButton
from bot.discord.ui.base import TableButton
from bot.discord.ui.common import Interaction, act, reply, table_key, wildstud
from bot.discord.ui.drawing import PickButton, draw_limit, open_picker
from bot.discord.ui.errors import answer_error
from bot.discord.ui.routed import RoutedView
from bot.discord.ui.text import WAGERS, button_label
from bot.engine.cards.card import Card
from bot.engine.command import Command
from bot.engine.errors import IllegalAction
from bot.tables.notices import Prompt

_STYLES = {
    "fold": discord.ButtonStyle.danger,
    "all_in": discord.ButtonStyle.danger,
    "check": discord.ButtonStyle.primary,
    "call": discord.ButtonStyle.primary,
    "bring_in": discord.ButtonStyle.primary,
    "complete": discord.ButtonStyle.success,
    "bet": discord.ButtonStyle.success,
    "raise": discord.ButtonStyle.success,
    "pay": discord.ButtonStyle.primary,
    "buy": discord.ButtonStyle.success,
    "decline": discord.ButtonStyle.secondary,
    "stand": discord.ButtonStyle.secondary,
    "run_twice": discord.ButtonStyle.success,
    "run_once": discord.ButtonStyle.secondary,
}


class ActionButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ws:act:(?P<table>\d+):(?P<hand>\d+):(?P<turn>\d+):(?P<action>[a-z_]+)(?::(?P<amount>\d+))?"
             r"(?::(?P<card>[2-9TJQKA][cdhs]))?",
):
    """One legal action of the prompt, with its exact amount (a discard: its card)."""

    def __init__(
        self, table_id: int, hand_id: int, turn: int, action: str, amount: int | None = None, label: str = "",
        card: Card | None = None,
    ) -> None:
        custom_id = f"ws:act:{table_id}:{hand_id}:{turn}:{action}"
        if amount is not None:
            custom_id += f":{amount}"
        if card is not None:
            custom_id += f":{card.code}"
        super().__init__(
            discord.ui.Button(
                label=label or action,
                custom_id=custom_id,
                style=_STYLES.get(action, discord.ButtonStyle.secondary),
            )
        )
        self.table_id, self.hand_id, self.turn = table_id, hand_id, turn
        self.action, self.amount, self.card = action, amount, card

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActionButton:
        amount, card = match["amount"], match["card"]
        return cls(
            int(match["table"]),
            int(match["hand"]),
            int(match["turn"]),
            match["action"],
            int(amount) if amount is not None else None,
            card=Card.parse(card) if card is not None else None,
        )

    async def callback(self, interaction: Interaction) -> None:
        # The turn is checked once, by the service under the table's lock (``TableService.act``);
        # its refusal (another turn, another hand, a closed table) is the answer.
        try:
            key = table_key(interaction)
            command = Command.named(self.action, self.amount)
            if self.card is not None:
                command = replace(command, cards=(self.card,))
        except IllegalAction as exc:
            await reply(interaction, exc.reason)
            return
        except ValueError as exc:             # a custom_id no button of ours carries
            await reply(interaction, str(exc))
            return
        try:
            await act(interaction, key, self.hand_id, self.turn, command, table_id=self.table_id)
        except Exception as exc:
            await answer_error(interaction, exc)


FOLD_ANYWAY = "Checking is free: fold anyway?"
"""The private question when a player clicks Fold while they could check (issue 17)."""


class FoldAskButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ws:fold:(?P<table>\d+):(?P<hand>\d+):(?P<turn>\d+)",
):
    """Fold, on a prompt where checking is free: asks the player privately first ("Fold
    anyway?", as card rooms' clients do), with the real Fold button under the question."""

    def __init__(self, table_id: int, hand_id: int, turn: int) -> None:
        super().__init__(
            discord.ui.Button(label="Fold", custom_id=f"ws:fold:{table_id}:{hand_id}:{turn}",
                              style=_STYLES["fold"])
        )
        self.table_id, self.hand_id, self.turn = table_id, hand_id, turn

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> FoldAskButton:
        return cls(int(match["table"]), int(match["hand"]), int(match["turn"]))

    async def callback(self, interaction: Interaction) -> None:
        try:
            key = table_key(interaction)
            wildstud(interaction).service.check_turn(
                key, interaction.user.id, self.hand_id, self.turn, table_id=self.table_id
            )
        except IllegalAction as exc:
            await reply(interaction, exc.reason)
            return
        view = RoutedView()
        view.add_item(ActionButton(self.table_id, self.hand_id, self.turn, "fold", label="Fold anyway"))
        try:
            await interaction.response.send_message(FOLD_ANYWAY, view=view, ephemeral=True)
        except Exception as exc:
            await answer_error(interaction, exc)


DISCARD_ASK = "Choose a discard"
"""The table message's button when the player to act must discard one of their down cards
(Crazy Pineapple): the cards are offered in a reply only that player sees."""


class DiscardAskButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ws:discardask:(?P<table>\d+):(?P<hand>\d+):(?P<turn>\d+)",
):
    """"Choose a discard", on the table message: the player to discard gets their down cards as
    Discard buttons in a private reply; the table message names no card (every member sees it,
    its buttons and their custom_ids too). The click is acknowledged without changing the table
    and kept, so the discard redraws the table through its webhook, as the draw picker does."""

    def __init__(self, table_id: int, hand_id: int, turn: int) -> None:
        super().__init__(
            discord.ui.Button(label=DISCARD_ASK, custom_id=f"ws:discardask:{table_id}:{hand_id}:{turn}",
                              style=discord.ButtonStyle.primary)
        )
        self.table_id, self.hand_id, self.turn = table_id, hand_id, turn

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> DiscardAskButton:
        return cls(int(match["table"]), int(match["hand"]), int(match["turn"]))

    async def callback(self, interaction: Interaction) -> None:
        try:
            key = table_key(interaction)
            bot = wildstud(interaction)
            bot.service.check_turn(key, interaction.user.id, self.hand_id, self.turn, table_id=self.table_id)
            prompt = bot.service.current_prompt(key)
            options = [o for o in prompt.options if o.cards] if prompt is not None else []
            if not options:
                raise IllegalAction("There is no discard to make now.")
            view = RoutedView()
            for option in options:
                view.add_item(ActionButton(self.table_id, self.hand_id, self.turn, option.action,
                                           label=button_label(option), card=option.cards[0]))
            await interaction.response.defer()
            bot.presenter.keep_table_click(key, interaction)
            await interaction.followup.send("Which card do you throw away?", view=view, ephemeral=True)
        except Exception as exc:
            await answer_error(interaction, exc)


class MyCardsButton(TableButton, template=r"ws:cards:(?P<table>\d+)"):
    """Shows the clicker their own cards, ephemerally (the fallback when DMs are closed)."""

    KIND = "cards"
    LABEL = "My cards"

    async def callback(self, interaction: Interaction) -> None:
        try:
            key = self.current_table(interaction)
            bot = wildstud(interaction)
            notice = bot.service.my_cards(key, interaction.user.id)
            prompt = bot.service.current_prompt(key)
            most = draw_limit(prompt) if prompt is not None and prompt.member == interaction.user.id else None
            if prompt is not None and most is not None:
                # Their draw now: their cards come with the discard picker.
                await open_picker(interaction, key, notice, prompt, most)
                return
            files = await bot.presenter.hand_files(key, notice, bot.service.snapshot(key))
            await reply(interaction, notice.text, file=files[0] if files else None)
        except Exception as exc:
            await answer_error(interaction, exc)


def action_items(table_id: int, prompt: Prompt) -> list[discord.ui.Item[Any]]:
    """One button per legal action of ``prompt`` (a range wager asks for its amount)."""
    items: list[discord.ui.Item[Any]] = []
    free_check = any(option.action == "check" for option in prompt.options)
    for option in prompt.options:
        if option.action == "fold" and free_check:
            items.append(FoldAskButton(table_id, prompt.hand_id, prompt.turn))
            continue
        if option.action == "draw":          # the cards are chosen privately (``drawing``)
            items.append(PickButton(table_id, prompt.hand_id, prompt.turn))
            continue
        if option.cards:                      # a discard: the cards are offered privately
            if not any(isinstance(item, DiscardAskButton) for item in items):
                items.append(DiscardAskButton(table_id, prompt.hand_id, prompt.turn))
            continue
        label = button_label(option)
        if option.action in WAGERS and option.needs_amount:
            items.append(AmountButton(table_id, prompt.hand_id, prompt.turn, option.action, label))
        else:
            amount = option.amount if option.action in WAGERS else None    # a price is the hand's to say
            items.append(ActionButton(table_id, prompt.hand_id, prompt.turn, option.action, amount, label))
    return items


