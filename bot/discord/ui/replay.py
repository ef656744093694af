"""Hand replays on Discord (issue 24): ``/hand replay [number]`` and the Replay button on a hand's
summary open a private (ephemeral) message that steps through a finished hand as the member asking
saw it (``bot.tables.replays``): the header and step, what the channel was told at that step, the
wild list, the table picture of that moment in the guild's ``look`` (either deck, or the text table
with ``text``), the member's own cards then (their hand picture and text), and Back / Next /
Street. Names are shown as written (Markdown escaped), as on the table message.

Everything is answered through the interaction: opening is the interaction's own message (or its
follow-up after ``/hand replay`` deferred), and each click redraws that message in the click's
response (callback type 7), so a replay costs no channel request at all. The pictures of a step
are drawn in a thread (``asyncio.to_thread``), off the event loop.

The buttons are ``DynamicItem``s whose ``custom_id`` carries the hand, the member the replay was
built for, the step the button goes to and what it does (``ws:step:HAND:MEMBER:STEP:KIND``), so
they keep working after a restart with nothing kept in memory: each click rebuilds the replay from
the store for the member clicking, and is refused with the reason when that member is not the one
the replay was built for (a member only ever steps through their own view) or the step is not in
the hand. The summary's button (``ws:replay:HAND``) builds the replay for whoever clicks it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any, ClassVar

import discord

from bot.discord.ui.common import Interaction, wildstud
from bot.discord.ui.errors import answer_error
from bot.discord.ui.routed import RoutedLayout
from bot.discord.ui.table import (
    GALLERY_ALT_LIMIT,
    TABLE_FILE,
    Layout,
    drawn_files,
    four_colour,
    hand_file,
    shows_pictures,
)
from bot.discord.ui.text import code_block, plain
from bot.render.pictures import hand_alt, table_alt
from bot.render.scenes import hand_picture, table_picture
from bot.render.table import format_table
from bot.render.views import table_view
from bot.store import HandRecord
from bot.tables.errors import TableError
from bot.tables.replays import HandReplay, stored_replay

LINES_BUDGET = 1500
"""Characters of a step's log lines shown (a step says a line or two; a showdown says more)."""

_COLOUR = discord.Colour.from_rgb(60, 72, 110)


class StepButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ws:step:(?P<hand>\d+):(?P<member>\d+):(?P<step>\d+):(?P<kind>back|next|street)",
):
    """Back, Next or Street in a replay: go to step ``step`` of hand ``hand_id`` as ``member`` saw
    it (see the module docstring)."""

    LABELS: ClassVar[dict[str, str]] = {"back": "◀ Back", "next": "Next ▶", "street": "Street ⏭"}

    def __init__(self, hand_id: int, member: int, step: int, kind: str, *, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(
            label=self.LABELS[kind], custom_id=f"ws:step:{hand_id}:{member}:{step}:{kind}",
            style=discord.ButtonStyle.primary if kind == "next" else discord.ButtonStyle.secondary,
            disabled=disabled,
        ))
        self.hand_id, self.member, self.step, self.kind = hand_id, member, step, kind

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> StepButton:
        return cls(int(match["hand"]), int(match["member"]), int(match["step"]), match["kind"])

    async def callback(self, interaction: Interaction) -> None:
        try:
            if interaction.user.id != self.member:
                raise TableError("This replay was opened by someone else: use the hand's Replay button or"
                                 " /hand replay for your own.")
            replay = await member_replay(interaction, self.hand_id)
            if self.step > replay.last:
                raise TableError(f"Hand #{replay.hand_no} has {replay.last + 1} steps; there is no step"
                                 f" {self.step + 1}.")
            layout = replay_layout(replay, self.step, look=await _look(interaction))
            files = await drawn_files(layout)
            await interaction.response.edit_message(view=layout.view, attachments=files)
        except Exception as exc:
            await answer_error(interaction, exc)


class ReplayButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ws:replay:(?P<hand>\d+)",
):
    """The Replay button on a finished hand's summary: opens the replay for whoever clicks it."""

    def __init__(self, hand_id: int) -> None:
        super().__init__(discord.ui.Button(label="Replay", custom_id=f"ws:replay:{hand_id}",
                                           style=discord.ButtonStyle.secondary))
        self.hand_id = hand_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplayButton:
        return cls(int(match["hand"]))

    async def callback(self, interaction: Interaction) -> None:
        try:
            await open_replay(interaction, await member_replay(interaction, self.hand_id))
        except Exception as exc:
            await answer_error(interaction, exc)


async def member_replay(interaction: Interaction, hand: int | HandRecord) -> HandReplay:
    """The replay of ``hand`` (an id or a record) for the member of ``interaction``. Raises
    ``TableError`` (or the store's ``StoreError``) with the reason for a hand of another server,
    one not finished, or one that cannot be replayed."""
    store = wildstud(interaction).store
    record = hand if isinstance(hand, HandRecord) else await store.get_hand(hand)
    if record.guild_id != interaction.guild_id:
        raise TableError("That hand was played in another server.")
    return await stored_replay(store, record, interaction.user.id)


async def open_replay(interaction: Interaction, replay: HandReplay) -> None:
    """Answer ``interaction`` with the first step of ``replay``, privately (its response, or its
    follow-up once it was deferred)."""
    layout = replay_layout(replay, 0, look=await _look(interaction))
    files = await drawn_files(layout)
    if interaction.response.is_done():
        await interaction.followup.send(view=layout.view, files=files, ephemeral=True)
    else:
        await interaction.response.send_message(view=layout.view, files=files, ephemeral=True)


async def _look(interaction: Interaction) -> str:
    guild = interaction.guild_id
    return "pictures" if guild is None else await wildstud(interaction).presenter.look(guild)


def replay_layout(replay: HandReplay, step: int, *, look: str = "pictures") -> Layout:
    """Step ``step`` of ``replay`` as a Components V2 message (see the module docstring)."""
    at = replay.steps[step]
    snap = at.snapshot
    whose = ("as you saw it: your own cards and every card shown" if replay.seat is not None
             else "you were not dealt in: the cards everyone saw")
    children: list[discord.ui.Item[Any]] = [discord.ui.TextDisplay(
        f"### Hand #{replay.hand_no} replay · {at.snapshot.stage}\n"
        f"{replay.game} · step {step + 1} of {replay.last + 1} · {whose}"
    )]
    said = "\n".join(plain(line) for line in at.lines)
    if len(said) > LINES_BUDGET:
        said = said[: LINES_BUDGET - 1] + "…"
    children.append(discord.ui.TextDisplay(said or "(nothing was said at this step)"))
    if snap.wilds:
        children.append(discord.ui.TextDisplay(plain("\n".join(snap.wilds))))
    drawings: tuple[Callable[[], discord.File], ...] = ()
    colours = four_colour(look)
    picture = table_picture(snap, four_colour=colours) if shows_pictures(look) else None
    if picture is None:
        children.append(discord.ui.TextDisplay(code_block(format_table(table_view(snap)))))
    else:
        alt = table_alt(picture)
        items = [discord.MediaGalleryItem(f"attachment://{TABLE_FILE}", description=alt[:GALLERY_ALT_LIMIT])]
        if at.own is not None:
            own = hand_picture(at.own, snap.hand_no, snap.wild_events, snap.rulings.wild_in_flush,
                               four_colour=colours)
            drawings = (functools.partial(hand_file, own),)      # hand.png, drawn when sent
            items.append(discord.MediaGalleryItem("attachment://hand.png",
                                                  description=hand_alt(own)[:GALLERY_ALT_LIMIT]))
        children.append(discord.ui.MediaGallery(*items))
    if at.own is not None:
        children.append(discord.ui.TextDisplay(plain(at.own.text)))
    footer = table_view(snap).footer
    if footer:
        children.append(discord.ui.TextDisplay(plain(footer)))
    back, forward, street = max(step - 1, 0), min(step + 1, replay.last), replay.street_after(step)
    row: discord.ui.ActionRow[Any] = discord.ui.ActionRow(
        StepButton(replay.hand_id, replay.member, back, "back", disabled=step == 0),
        StepButton(replay.hand_id, replay.member, forward, "next", disabled=step == replay.last),
        StepButton(replay.hand_id, replay.member, step if street is None else street, "street",
                   disabled=street is None),
    )
    children.append(row)
    view = RoutedLayout()
    view.add_item(discord.ui.Container(*children, accent_colour=_COLOUR))
    return Layout(view, picture=picture, drawings=drawings)
