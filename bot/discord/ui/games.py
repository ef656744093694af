"""Dealer's choice on Discord: the select menu the player on the button picks the game with.

The select is a ``discord.ui.DynamicItem`` whose ``custom_id`` carries the table and the number of
the question (``ws:game:TABLE:CHOICE``), so it keeps working after a restart and an old one is
refused: the table service asks a new question (a new number) after a restart, and refuses an
answer to a question already answered (``StaleAction``). Only the chooser may use it; anyone else
who touches it gets a private refusal, and so does a stale select. The checks run before the
interaction is deferred, so every refusal comes at once.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.discord.ui.common import Interaction, actor, reply, table_key, wildstud
from bot.discord.ui.errors import answer_error
from bot.discord.ui.routed import RoutedView
from bot.engine.errors import IllegalAction
from bot.engine.games.catalogue import GAMES
from bot.tables.errors import StaleAction
from bot.tables.notices import GameChoiceNotice

PLACEHOLDER = "Choose the game"
"""The select menu's placeholder (what members see on it)."""


class GameSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"ws:game:(?P<table>\d+):(?P<choice>\d+)",
):
    """The dealer's-choice select of question ``choice_id`` at table ``table_id``: one option per
    game on the table's list (title, with its short rules as the description)."""

    def __init__(self, table_id: int, choice_id: int, games: tuple[tuple[str, str], ...] = ()) -> None:
        options = [
            discord.SelectOption(label=GAMES[name].title if name in GAMES else name, value=name,
                                 description=rules[:100] or None)
            for name, rules in games[:25]
        ] or [discord.SelectOption(label="-", value="-")]
        super().__init__(
            discord.ui.Select(
                custom_id=f"ws:game:{table_id}:{choice_id}", placeholder=PLACEHOLDER, options=options,
                min_values=1, max_values=1,
            )
        )
        self.table_id, self.choice_id = table_id, choice_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> GameSelect:
        return cls(int(match["table"]), int(match["choice"]))

    async def callback(self, interaction: Interaction) -> None:
        try:
            key = table_key(interaction)
            service = wildstud(interaction).service
            if service.snapshot(key).table_id != self.table_id:
                raise StaleAction(service.stale_reason(self.table_id).replace("button", "menu"))
            service.check_choice(key, interaction.user.id, self.choice_id)
        except IllegalAction as exc:
            await reply(interaction, exc.reason)
            return
        data: Any = interaction.data or {}
        values = list(data.get("values") or ())
        try:
            if not values:
                await reply(interaction, "Pick one game.")
                return
            await interaction.response.defer()
            await service.choose_game(key, await actor(interaction), self.choice_id, str(values[0]))
        except Exception as exc:
            await answer_error(interaction, exc)


def choice_line(notice: GameChoiceNotice, deadline: int | None) -> str:
    """``<@id> dealer's choice: pick the game of the hand you deal · <t:UNIX:R>, else ...``, the
    deadline (Unix seconds) as Discord's live relative timestamp.

    >>> n = GameChoiceNotice(1, 2, 7, "Bea", (("seven-card-stud", "x"),), "sex-in-the-middle-east", None, "")
    >>> for part in choice_line(n, 1767225600).split(" · "):
    ...     print(part)
    <@7> dealer's choice: pick the game of the hand you deal
    time's up <t:1767225600:R>, else Sex in the Middle East
    """
    line = f"<@{notice.member}> dealer's choice: pick the game of the hand you deal"
    if deadline is not None:
        line += f" · time's up <t:{deadline}:R>, else {GAMES[notice.fallback].title}"
    return line


def choice_view(notice: GameChoiceNotice) -> discord.ui.View:
    """The view holding the select of ``notice``."""
    view = RoutedView()
    view.add_item(GameSelect(notice.table_id, notice.choice_id, notice.games))
    return view
