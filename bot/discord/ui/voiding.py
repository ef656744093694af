"""Consent to a void on Discord (issue 18): the question in the channel, mentioning the players
whose agreement the dealer's void needs, with "Agree to void" and "Keep playing" buttons.

The buttons are ``discord.ui.DynamicItem`` s whose ``custom_id`` carries the table, the request's
number and the answer (``ws:void:TABLE:REQUEST:yes|no``), so they keep working after a restart
(where the request itself lapses: the table service then refuses them as stale). Only the players
asked may answer; anyone else gets a private refusal, and so does a request that is over.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.discord.ui.common import Interaction, actor, reply, table_key, wildstud
from bot.discord.ui.errors import answer_error
from bot.discord.ui.routed import RoutedView
from bot.discord.ui.text import plain
from bot.engine.errors import IllegalAction
from bot.tables.errors import StaleAction
from bot.tables.notices import VoidConsentNotice

AGREE = "Agree to void"
REFUSE = "Keep playing"


class VoidButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ws:void:(?P<table>\d+):(?P<request>\d+):(?P<answer>yes|no)",
):
    """One answer (``agree``) to void request ``request_id`` at table ``table_id``."""

    def __init__(self, table_id: int, request_id: int, agree: bool) -> None:
        super().__init__(
            discord.ui.Button(
                label=AGREE if agree else REFUSE,
                style=discord.ButtonStyle.danger if agree else discord.ButtonStyle.secondary,
                custom_id=f"ws:void:{table_id}:{request_id}:{'yes' if agree else 'no'}",
            )
        )
        self.table_id, self.request_id, self.agree = table_id, request_id, agree

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> VoidButton:
        return cls(int(match["table"]), int(match["request"]), match["answer"] == "yes")

    async def callback(self, interaction: Interaction) -> None:
        try:
            key = table_key(interaction)
            service = wildstud(interaction).service
            if service.snapshot(key).table_id != self.table_id:
                raise StaleAction("That request belongs to a table that has been closed.")
        except IllegalAction as exc:
            await reply(interaction, exc.reason)
            return
        try:
            text = await service.answer_void(key, await actor(interaction), self.request_id, self.agree)
            await reply(interaction, text)
        except Exception as exc:
            await answer_error(interaction, exc)


def void_line(notice: VoidConsentNotice) -> str:
    """The question under its buttons, mentioning each player asked (the channel's log line says
    why their agreement is needed).

    >>> n = VoidConsentNotice(1, 2, 3, 4, "Ann", "misdeal", ((7, "Bea"), (8, "Cid")), "Ann asks ...")
    >>> void_line(n)
    '<@7> <@8> do you agree to void hand #4 (asked by Ann: misdeal)? Every chip would go back.'
    """
    mentions = " ".join(f"<@{member}>" for member, _ in notice.needed)
    return (f"{mentions} do you agree to void hand #{notice.hand_no} (asked by {plain(notice.asker)}:"
            f" {plain(notice.reason)})? Every chip would go back.")


def void_view(notice: VoidConsentNotice) -> discord.ui.View:
    """The two answers' buttons."""
    view = RoutedView()
    view.add_item(VoidButton(notice.table_id, notice.request_id, True))
    view.add_item(VoidButton(notice.table_id, notice.request_id, False))
    return view
