"""Betting: the buttons on the prompt for the player to act, and ``/bet`` ``/raise`` ``/call``
``/check`` ``/fold`` ``/allin`` for the same actions.

Buttons are ``discord.ui.DynamicItem``: the table, hand and turn ride in the ``custom_id``
(``ws:act:TABLE:HAND:TURN:ACTION[:AMOUNT]``, under 100 characters), so a button keeps working
after the bot restarts, and a button from an earlier hand or turn (a stale button, or the second
of a double click) is refused with a reason and changes nothing: ``TableService.act`` takes the
table lock and checks the hand and turn again before anything moves.

Only the player to act may act; anyone else gets an ephemeral reason. Every answer comes within
Discord's 3-second deadline: the cheap checks run first and refuse at once; an accepted click is
acknowledged (a deferred update) before the table service deals, posts and sends messages.

Fixed limit puts each legal total on its own button ("Raise to 40"); pot and no limit ask for the
amount in a modal that states the allowed range. The modal's answer is handled from its
``custom_id`` (``ws:amount:TABLE:HAND:TURN:ACTION``) by ``submit_amount``, like a button, so a
modal filled in after a restart (or after discord.py forgot it) is still answered. Amounts are
always the street total "to" (SPEC §5).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import vocab
from bot.engine.errors import IllegalAction
from bot.render.cards import chips
from bot.tables.errors import TableError
from bot.tables.notices import ActionOption, Prompt, TableKey
from cogs.common import Interaction, TableButton, answer_error, reply, table_key, wildstud

if TYPE_CHECKING:
    from bot.discord_bot import WildstudBot
    from bot.tables.service import TableService

WAGERS = vocab.WAGERS
"""The engine's names for a voluntary wager; only one of them is legal at a time."""


def button_label(option: ActionOption) -> str:
    """The label of an action's button: ``Fold``, ``Check``, ``Call 10``, ``Bring-in 10``,
    ``Complete to 20``, ``Bet 40``, ``Raise to 80``, ``Raise to 40-980`` (a range: asks for the
    amount), ``All-in 990``, ``Show``, ``Muck``.

    >>> button_label(ActionOption("call", 1000))
    'Call 1,000'
    >>> button_label(ActionOption("raise", 40, 40, 980))
    'Raise to 40-980'
    """
    return vocab.button_label(option.action, option.amount, option.min_to, option.max_to)


def describe(action: str, amount: int | None) -> str:
    """``call 10``, ``raise to 80``, ``fold``: what a player did, in words."""
    return vocab.imperative(action, amount)


_STYLES = {
    "fold": discord.ButtonStyle.danger,
    "all_in": discord.ButtonStyle.danger,
    "check": discord.ButtonStyle.primary,
    "call": discord.ButtonStyle.primary,
    "bring_in": discord.ButtonStyle.primary,
    "complete": discord.ButtonStyle.success,
    "bet": discord.ButtonStyle.success,
    "raise": discord.ButtonStyle.success,
}


async def _act(
    interaction: Interaction, key: TableKey, hand_id: int, turn: int, action: str, amount: int | None
) -> None:
    bot = wildstud(interaction)
    try:
        await bot.service.act(key, interaction.user.id, hand_id, turn, action, amount)
    finally:
        await bot.presenter.flush(key)


class ActionButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ws:act:(?P<table>\d+):(?P<hand>\d+):(?P<turn>\d+):(?P<action>[a-z_]+)(?::(?P<amount>\d+))?",
):
    """One legal action of the prompt, with its exact amount."""

    def __init__(
        self, table_id: int, hand_id: int, turn: int, action: str, amount: int | None = None, label: str = ""
    ) -> None:
        custom_id = f"ws:act:{table_id}:{hand_id}:{turn}:{action}"
        if amount is not None:
            custom_id += f":{amount}"
        super().__init__(
            discord.ui.Button(
                label=label or action,
                custom_id=custom_id,
                style=_STYLES.get(action, discord.ButtonStyle.secondary),
            )
        )
        self.table_id, self.hand_id, self.turn = table_id, hand_id, turn
        self.action, self.amount = action, amount

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActionButton:
        amount = match["amount"]
        return cls(
            int(match["table"]),
            int(match["hand"]),
            int(match["turn"]),
            match["action"],
            int(amount) if amount is not None else None,
        )

    async def callback(self, interaction: Interaction) -> None:
        try:
            key = table_key(interaction)
            wildstud(interaction).service.check_turn(
                key, interaction.user.id, self.hand_id, self.turn, table_id=self.table_id
            )
        except IllegalAction as exc:
            await reply(interaction, exc.reason)
            return
        try:
            await interaction.response.defer()
            await _act(interaction, key, self.hand_id, self.turn, self.action, self.amount)
        except Exception as exc:
            await answer_error(interaction, exc)


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
        await interaction.response.defer(ephemeral=True, thinking=True)
        await _act(interaction, key, hand_id, turn, option.action, amount)
        await interaction.followup.send(f"You {describe(option.action, amount)}.", ephemeral=True)
    except Exception as exc:
        await answer_error(interaction, exc)


class MyCardsButton(TableButton, template=r"ws:cards:(?P<table>\d+)"):
    """Shows the clicker their own cards, ephemerally (the fallback when DMs are closed)."""

    KIND = "cards"
    LABEL = "My cards"
    CLOSED = "That button belongs to a table that has been closed."

    async def callback(self, interaction: Interaction) -> None:
        try:
            key = self.current_table(interaction)
            notice = wildstud(interaction).service.my_cards(key, interaction.user.id)
            await reply(interaction, notice.text)
        except Exception as exc:
            await answer_error(interaction, exc)


def action_items(table_id: int, prompt: Prompt) -> list[discord.ui.Item[Any]]:
    """One button per legal action of ``prompt`` (a range wager asks for its amount)."""
    items: list[discord.ui.Item[Any]] = []
    for option in prompt.options:
        label = button_label(option)
        if option.action in WAGERS and option.needs_amount:
            items.append(AmountButton(table_id, prompt.hand_id, prompt.turn, option.action, label))
        else:
            amount = option.amount if option.action in WAGERS else None
            items.append(ActionButton(table_id, prompt.hand_id, prompt.turn, option.action, amount, label))
    return items


def prompt_view(table_id: int, prompt: Prompt) -> discord.ui.View:
    """The prompt's buttons: every legal action, then "My cards"."""
    view = discord.ui.View(timeout=None)
    for item in action_items(table_id, prompt):
        view.add_item(item)
    view.add_item(MyCardsButton(table_id))
    return view


def _wager_option(prompt: Prompt) -> ActionOption | None:
    for option in prompt.options:
        if option.action in WAGERS:
            return option
    return None


def resolve(prompt: Prompt, action: str, amount: int | None) -> tuple[str, int | None]:
    """Turn a slash command into the engine action the prompt allows.

    ``/call`` checks when nothing is owed and posts the bring-in when that is what is owed;
    ``/bet`` and ``/raise`` mean whichever wager is legal now (complete, bet or raise) and need an
    amount unless only one total is legal. Anything the prompt does not allow goes to the engine,
    which refuses it with its reason.
    """
    if action == "call" and prompt.option("call") is None:
        if prompt.option("check") is not None:
            return "check", None
        if prompt.option("bring_in") is not None:
            return "bring_in", None
    if action in WAGERS:
        options = [o for o in prompt.options if o.action in WAGERS]
        if not options:
            raise TableError("You can't bet or raise now.")
        name = options[0].action
        if amount is None:
            totals = sorted({o.amount for o in options if o.amount is not None and not o.needs_amount})
            if len(totals) == 1 and not any(o.needs_amount for o in options):
                return name, totals[0]
            low, high = options[0].min_to, options[0].max_to
            if options[0].needs_amount and low is not None and high is not None:
                raise TableError(
                    f"Say how much (amount: your total for this street): from {chips(low)} to {chips(high)}."
                )
            raise TableError(
                "Say how much (amount: your total for this street): "
                + " or ".join(chips(t) for t in totals)
                + "."
            )
        return name, amount
    return action, None


class Betting(commands.Cog):
    """``/bet`` ``/raise`` ``/call`` ``/check`` ``/fold`` ``/allin``: the buttons' actions as commands."""

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

    async def _command(self, interaction: Interaction, action: str, amount: int | None = None) -> None:
        key = table_key(interaction)
        prompt = self.bot.service.current_prompt(key)
        member = interaction.user.id
        if prompt is None:
            raise TableError("Nobody is to act right now.")
        if prompt.member != member:
            table = self.bot.service.table(key)
            if table.hand is None or table.hand.seat_of(member) is None:
                raise TableError("You are not in this hand.")
            raise TableError(f"It is not your turn: {prompt.name} is to act.")
        name, total = resolve(prompt, action, amount)
        option = prompt.option(name)
        if total is None and option is not None and name in ("call", "bring_in", "all_in"):
            total = option.amount
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            await self.bot.service.act(
                key, member, prompt.hand_id, prompt.turn, name, total if name in WAGERS else None
            )
        finally:
            await self.bot.presenter.flush(key)
        await interaction.followup.send(f"You {describe(name, total)}.", ephemeral=True)

    @app_commands.command(name="bet", description="Bet (or raise, or complete) to a total for this street")
    @app_commands.describe(amount="Your total for this street (not needed in fixed limit)")
    @app_commands.guild_only()
    async def bet(self, interaction: Interaction, amount: app_commands.Range[int, 1] | None = None) -> None:
        await self._command(interaction, "bet", amount)

    @app_commands.command(name="raise", description="Raise to a total for this street")
    @app_commands.describe(amount="Your total for this street, raise TO this (not needed in fixed limit)")
    @app_commands.guild_only()
    async def raise_(
        self, interaction: Interaction, amount: app_commands.Range[int, 1] | None = None
    ) -> None:
        await self._command(interaction, "raise", amount)

    @app_commands.command(name="call", description="Call the bet (or check if nothing is owed)")
    @app_commands.guild_only()
    async def call(self, interaction: Interaction) -> None:
        await self._command(interaction, "call")

    @app_commands.command(name="check", description="Check")
    @app_commands.guild_only()
    async def check(self, interaction: Interaction) -> None:
        await self._command(interaction, "check")

    @app_commands.command(name="fold", description="Fold your hand")
    @app_commands.guild_only()
    async def fold(self, interaction: Interaction) -> None:
        await self._command(interaction, "fold")

    @app_commands.command(name="allin", description="Put all your chips in")
    @app_commands.guild_only()
    async def allin(self, interaction: Interaction) -> None:
        await self._command(interaction, "all_in")


async def setup(bot: WildstudBot) -> None:
    """Extension entry point: the cog and the persistent (dynamic) buttons."""
    await bot.add_cog(Betting(bot))
    bot.add_dynamic_items(ActionButton, AmountButton, MyCardsButton)
