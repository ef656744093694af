"""The base class of the table's persistent buttons (``ws:KIND:TABLE``)."""

from __future__ import annotations

import re
from typing import Any, ClassVar, Self

import discord

from bot.discord.ui.common import Interaction, table_key, wildstud
from bot.tables.errors import StaleAction
from bot.tables.notices import TableKey


class TableButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ws:(?P<kind>[a-z]+):(?P<table>\d+)",
):
    """A button that carries only its table's id (``ws:KIND:TABLE``), so it keeps working after a
    restart and is refused once that table is closed. Subclasses set ``KIND``, ``LABEL`` and
    ``STYLE``, pass ``template=r"ws:KIND:(?P<table>\\d+)"`` and implement ``callback``.
    """

    KIND: ClassVar[str]
    LABEL: ClassVar[str]
    STYLE: ClassVar[discord.ButtonStyle] = discord.ButtonStyle.secondary

    def __init__(self, table_id: int) -> None:
        super().__init__(
            discord.ui.Button(label=self.LABEL, custom_id=f"ws:{self.KIND}:{table_id}", style=self.STYLE)
        )
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["table"]))

    def current_table(self, interaction: Interaction) -> TableKey:
        """The channel's table key; raises ``StaleAction`` if this button's table was closed."""
        key = table_key(interaction)
        service = wildstud(interaction).service
        if service.snapshot(key).table_id != self.table_id:
            raise StaleAction(service.stale_reason(self.table_id))
        return key
