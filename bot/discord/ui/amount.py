"""The amount of a pot- or no-limit wager: the button that asks for it, the modal, and the answer.

The modal's answer is handled from its ``custom_id`` (``ws:amount:TABLE:HAND:TURN:ACTION``) by
``submit_amount``, like a button, so a modal filled in after a restart (or after discord.py forgot
it) is still answered. Amounts are always the street total "to" (SPEC §5).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.discord.ui.common import Interaction, act, reply, table_key, wildstud
from bot.discord.ui.errors import answer_error
from bot.discord.ui.text import WAGERS, describe
from bot.engine.command import Command
from bot.render.cards import chips
from bot.tables.errors import TableError
from bot.tables.notices import ActionOption, Prompt, TableKey

if TYPE_CHECKING:
    from bot.tables.service import TableService


class AmountButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ws:ask:(?P<table>\d+):(?P<hand>\d+):(?P<turn>\d+):(?P<action>[a-z_]+)",
):
    """A pot- or no-limit wager: opens a modal asking for the amount within the legal range."""

    def __init__(self, table_id: int, hand_id: int, turn: int, action: str, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or action.title(),
                custom_id=f"ws:ask:{table_id}:{hand_id}:{turn}:{action}",
                style=discord.ButtonStyle.success,
            )
        )
        self.table_id, self.hand_id, self.turn, self.action = table_id, hand_id, turn, action

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> AmountButton:
        return cls(int(match["table"]), int(match["hand"]), int(match["turn"]), match["action"])

    async def callback(self, interaction: Interaction) -> None:
        try:
            bot = wildstud(interaction)
            key = table_key(interaction)
            bot.service.check_turn(key, interaction.user.id, self.hand_id, self.turn, table_id=self.table_id)
            option = _range_option(bot.service, key)
            assert option.min_to is not None and option.max_to is not None
            modal = AmountModal(
                self.table_id, self.hand_id, self.turn, option.action, option.min_to, option.max_to
            )
            await interaction.response.send_modal(modal)
            # The answer is handled by ``submit_amount`` from its custom_id, not by this object:
            # discord.py keeps a modal only in memory (for ``timeout`` seconds), so a modal
            # answered after a restart or a long think would otherwise go unanswered.
            modal.stop()
        except Exception as exc:
            await answer_error(interaction, exc)


AMOUNT_MODAL = re.compile(r"ws:amount:(?P<table>\d+):(?P<hand>\d+):(?P<turn>\d+):(?P<action>[a-z_]+)")
"""The custom_id of the amount modal: ``ws:amount:TABLE:HAND:TURN:ACTION``."""

AMOUNT_INPUT = "amount"
"""The custom_id of the modal's text input."""


class AmountModal(discord.ui.Modal):
    """Asks for a pot- or no-limit wager's total ("to"), stating the legal range.

    Only its look lives here: the answer is handled by ``submit_amount``, which reads the table,
    hand, turn and action from the modal's custom_id (so it works after a restart).
    """

    def __init__(self, table_id: int, hand_id: int, turn: int, action: str, low: int, high: int) -> None:
        verb = {"complete": "Complete to", "bet": "Bet", "raise": "Raise to"}.get(action, action.title())
        super().__init__(
            title=f"{verb} ({chips(low)} to {chips(high)})"[:45],
            custom_id=f"ws:amount:{table_id}:{hand_id}:{turn}:{action}",
            timeout=None,
        )
        self.amount: discord.ui.TextInput[AmountModal] = discord.ui.TextInput(
            label="Amount",
            custom_id=AMOUNT_INPUT,
            placeholder=f"{chips(low)} to {chips(high)} (your total for this street)",
            min_length=1,
            max_length=15,
        )
        self.add_item(self.amount)


def parse_amount(text: str, low: int, high: int) -> int:
    """A wager typed into the modal: a whole number of chips from ``low`` to ``high``; thousands
    separators (``,`` ``_`` spaces) are allowed. Raises ``TableError`` with the range otherwise.

    >>> parse_amount(" 1,000 ", 20, 2000)
    1000
    >>> parse_amount("4\u00b2", 20, 40)
    Traceback (most recent call last):
    ...
    bot.tables.errors.TableError: The amount must be a whole number of chips, from 20 to 40.
    """
    digits = "".join(text.split()).replace(",", "").replace("_", "")
    if not (digits.isascii() and digits.isdigit()):
        raise TableError(f"The amount must be a whole number of chips, from {chips(low)} to {chips(high)}.")
    amount = int(digits)
    if not low <= amount <= high:
        raise TableError(f"Choose an amount from {chips(low)} to {chips(high)}.")
    return amount


def _modal_value(components: list[Any], custom_id: str) -> str | None:
    """The value of input ``custom_id`` in a modal submission (action rows or labels)."""
    for component in components:
        if not isinstance(component, dict):
            continue
        if component.get("custom_id") == custom_id and "value" in component:
            return str(component["value"])
        inner = list(component.get("components") or [])
        if isinstance(component.get("component"), dict):
            inner.append(component["component"])
        found = _modal_value(inner, custom_id)
        if found is not None:
            return found
    return None


def _range_option(service: TableService, key: TableKey) -> ActionOption:
    """The wager with a range of amounts the player to act may make now (``TableError`` if none)."""
    prompt = service.current_prompt(key)
    option = _wager_option(prompt) if prompt is not None else None
    if option is None or option.min_to is None or option.max_to is None:
        raise TableError("You can't bet or raise now.")
    return option


async def submit_amount(interaction: Interaction) -> None:
    """Answer an amount modal (``AMOUNT_MODAL``): check the turn and the amount, then act.

    The range is the one legal now (the engine checks it again under the table lock); a refusal
    is an ephemeral reason and changes nothing.
    """
    data: dict[str, Any] = dict(interaction.data or {})
    match = AMOUNT_MODAL.fullmatch(str(data.get("custom_id", "")))
    assert match is not None
    table_id, hand_id, turn = int(match["table"]), int(match["hand"]), int(match["turn"])
    try:
        bot = wildstud(interaction)
        key = table_key(interaction)
        bot.service.check_turn(key, interaction.user.id, hand_id, turn, table_id=table_id)
        option = _range_option(bot.service, key)
        assert option.min_to is not None and option.max_to is not None
        text = _modal_value(list(data.get("components") or []), AMOUNT_INPUT) or ""
        amount = parse_amount(text, option.min_to, option.max_to)
    except Exception as exc:
        await answer_error(interaction, exc)
        return
    try:
        await act(interaction, key, hand_id, turn, Command.named(option.action, amount))
        await reply(interaction, f"You {describe(option.action, amount)}.")
    except Exception as exc:
        await answer_error(interaction, exc)


def _wager_option(prompt: Prompt) -> ActionOption | None:
    for option in prompt.options:
        if option.action in WAGERS:
            return option
    return None
