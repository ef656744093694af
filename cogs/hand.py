"""``/hand``: the record of finished hands at this channel's table, and the dealer's void.

``/hand history [number]`` attaches a finished hand's PHH file (SPEC §9; the last finished hand by
default), and says which game it was, as the member asking saw it: every shown hand, their own
down cards, ``??`` for the rest (nobody gets another player's unshown cards, dealers and admins
included). ``/hand verify [number]`` shows a hand's deck commitment, announced before its first
card, and, once the hand is over, checks the openings of the cards everyone saw and of the asking
member's own down cards against it, and attaches the ``wildstud verify`` command that checks them
again (DESIGN "Fairness and secrecy"). A hand still being played shows only its commitment.

``/hand replay [number]`` steps through a finished hand (the last one by default) as the member
asking saw it, in a private message with Back / Next / Street (``bot.discord.ui.replay``); the
hand's summary has a Replay button that opens the same for whoever clicks it.

``/hand void [reason]`` is the dealer's misdeal or dispute ruling on the hand in progress (the
table's creator, the server's dealer role, or Manage Server: the same check as dealing and rulings,
SPEC §8): the hand is void, every chip goes back to where it was before it, the channel is told who
voided it and why, the deck is revealed as after every hand, and the next deal keeps the button
(``TableService.void_hand``). Anyone else gets a private refusal and nothing changes.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.ui import replay as replays
from bot.discord.ui.common import Interaction, actor, reply, table_key
from bot.discord.ui.voiding import VoidButton
from bot.engine.games.catalogue import GAMES
from bot.store.records import HandRecord
from bot.tables.errors import TableError
from bot.tables.fairness import check_openings, verify
from bot.tables.reveal import reveal_of, viewer_history
from bot.tables.service import DEFAULT_VOID_REASON, MAX_VOID_REASON

if TYPE_CHECKING:
    from bot.discord.client import WildstudBot


def _game_title(name: str) -> str:
    """The game's title for people (its name if this version does not know it).

    >>> _game_title("seven-card-stud"), _game_title("nine-card-mystery")
    ('Seven-Card Stud', 'nine-card-mystery')
    """
    game = GAMES.get(name)
    return game.title if game is not None else name

@app_commands.guild_only()
class Hand(
    commands.GroupCog,
    group_name="hand",
    group_description="Hands: history files, replays, the fair deal, and the dealer's void",
):
    """``/hand history``, ``/hand replay``, ``/hand verify``, ``/hand void``."""

    def __init__(self, bot: WildstudBot) -> None:
        self.bot = bot
        super().__init__()

    async def _hand(self, interaction: Interaction, number: int | None, *, finished: bool) -> HandRecord:
        key = table_key(interaction)
        table = self.bot.service.snapshot(key)
        hand = await self.bot.store.hand_by_number(table.table_id, number, finished=finished)
        if hand is None:
            if number is not None:
                raise TableError(f"There is no hand #{number} at this table.")
            raise TableError("No hand has finished at this table yet.")
        if finished and hand.status != "finished":
            raise TableError(f"Hand #{hand.hand_no} is not finished ({hand.status.replace('_', ' ')}).")
        return hand

    @app_commands.command(
        name="history", description="A finished hand's history file (PHH), the last one by default"
    )
    @app_commands.describe(number="The hand number (default: the last finished hand)")
    async def history(
        self, interaction: Interaction, number: app_commands.Range[int, 1] | None = None
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        hand = await self._hand(interaction, number, finished=True)
        names = dict(self.bot.service.snapshot(table_key(interaction)).names)
        try:
            text = viewer_history(hand, interaction.user.id, names)
        except ValueError as exc:
            raise TableError(f"Hand #{hand.hand_no} has no history file ({exc}).") from None
        file = discord.File(io.BytesIO(text.encode("utf-8")), filename=f"wildstud-hand-{hand.hand_no}.phh")
        await reply(
            interaction,
            f"Hand #{hand.hand_no} ({_game_title(hand.game)}) as you saw it, a PHH hand history: every hand"
            " shown at the showdown, "
            "your own down cards, and ?? for every card nobody was shown.",
            file=file,
        )

    @app_commands.command(
        name="replay", description="Step through a finished hand as you saw it (only you see it)"
    )
    @app_commands.describe(number="The hand number (default: the last finished hand)")
    async def replay(
        self, interaction: Interaction, number: app_commands.Range[int, 1] | None = None
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        hand = await self._hand(interaction, number, finished=True)
        await replays.open_replay(interaction, await replays.member_replay(interaction, hand))

    @app_commands.command(
        name="verify", description="A hand's deck commitment and, once it is over, its deck"
    )
    @app_commands.describe(number="The hand number (default: the last hand dealt)")
    async def verify_(
        self, interaction: Interaction, number: app_commands.Range[int, 1] | None = None
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        hand = await self._hand(interaction, number, finished=False)
        lines = [f"Hand #{hand.hand_no}", f"Commitment (announced before the deal): {hand.commitment}"]
        file: discord.File | None = None
        if hand.status == "in_progress":
            lines.append("The cards everyone saw, and your own, are opened when the hand is over.")
        else:
            try:
                reveal = reveal_of(hand, interaction.user.id)
            except ValueError as exc:
                raise TableError(f"Hand #{hand.hand_no} cannot be checked: {exc}.") from None
            if reveal.scheme == "deck":
                deck = reveal.deck
                ok = verify(hand.commitment, reveal.salt, deck)
                lines += [
                    f"Dealt before per-card commitments: its whole deck was revealed. Deck: {deck}",
                    f"Salt: {reveal.salt}",
                    "SHA-256(deck:salt) matches the commitment." if ok
                    else "The deck does NOT match the commitment!",
                ]
            else:
                verdict = check_openings(reveal.commitment, reveal.leaves, reveal.openings)
                public = len(reveal.openings) - len(reveal.own)
                own = f" and your {len(reveal.own)} down cards" if reveal.own else ""
                lines.append(
                    f"{public} cards everyone saw{own} opened: "
                    + ("each matches its leaf and the leaves match the commitment."
                       if verdict.ok else "MISMATCH at "
                       + ", ".join(f"position {p}" for p, _ in verdict.failures) + "!")
                )
                lines.append(f"The other {52 - len(reveal.openings)} positions stay closed.")
            lines.append("Check it yourself with the attached `wildstud verify` command.")
            file = discord.File(io.BytesIO((reveal.verify_command() + "\n").encode("utf-8")),
                                filename=f"wildstud-verify-hand-{hand.hand_no}.txt")
            if hand.status == "voided":
                lines.append(f"This hand was voided: {hand.void_reason or 'no reason recorded'}.")
        await reply(interaction, "\n".join(lines), file=file)

    @app_commands.command(
        name="void", description="Void the hand in progress: every chip goes back (the dealer only)"
    )
    @app_commands.describe(
        reason=f"Why, said in the channel and kept in the ledger (default: {DEFAULT_VOID_REASON})"
    )
    async def void(
        self,
        interaction: Interaction,
        reason: app_commands.Range[str, 1, MAX_VOID_REASON] | None = None,
    ) -> None:
        key = table_key(interaction)
        self.bot.service.snapshot(key)            # no table here: say so before anything else
        who = await actor(interaction, dealer=True)
        await interaction.response.defer(ephemeral=True, thinking=True)
        text = await self.bot.service.void_hand(
            key, who, reason or ""
        )
        await reply(interaction, text)


async def setup(bot: WildstudBot) -> None:
    """Extension entry point: the cog, and the replays' and the void's controls added to the click router."""
    await bot.add_cog(Hand(bot))
    bot.clicks.add(replays.ReplayButton, replays.StepButton, VoidButton)
