"""The table message and the hand summary as Components V2 layouts (``discord.ui.LayoutView``).

The **table message** is one container: the hand's header (hand number, street, stakes, pot), the
wild list with origins, the picture of the table (``attachment://table.png``, uploaded with the
same request, its alt text as the gallery item's description) or, with the guild's ``look`` set
to ``text``, the text table in a code block, the last few log lines, whose turn it is, and the
buttons: every option of the prompt of the player to act (the only live action buttons anywhere),
then "My cards" and "Join"; between hands "Join" and "Deal".

The **summary** is what a finished hand's table message becomes: who won what, the showdown, the
wild ranks, the commitment check line, the final table picture, and (log option ``summary``) the
full narrated log as ``hand-N-log.txt``.

``Layout.signature`` says what the layout shows, so the presenter redraws only a change, and
``Layout.picture`` is the table picture it shows, drawn only when sent (``picture_files``, off the
event loop) and not at all when the message already has it.
"""

from __future__ import annotations

import asyncio
import functools
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.discord.ui.betting import MyCardsButton, action_items
from bot.discord.ui.drawing import PICK_LABEL
from bot.discord.ui.lobby import DealButton, JoinButton
from bot.discord.ui.routed import RoutedLayout
from bot.discord.ui.text import code_block, plain
from bot.render.cards import chips
from bot.render.pictures import (
    ALT_TEXT_LIMIT,
    HandPicture,
    TablePicture,
    hand_alt,
    hand_png,
    table_alt,
    table_png,
)
from bot.render.scenes import table_picture
from bot.render.table import format_table
from bot.render.views import Phase, Prompt, TableSnapshot, snapshot_stakes, table_view

LOOKS = ("pictures", "pictures-two-colour", "text")
"""The guild setting ``/table look``: the table as a picture with a four-colour deck (default:
clubs green, diamonds blue), as a picture with a two-colour deck, or as text."""


def shows_pictures(look: str) -> bool:
    """Whether ``look`` draws pictures (either deck)."""
    return look.startswith("pictures")


def four_colour(look: str) -> bool:
    """Whether ``look`` draws a four-colour deck."""
    return look != "pictures-two-colour"

DM_MODES = ("every-street", "down-cards")
"""A player's ``/table dm``: their cards by DM after every street, or only when a down card comes
(third and seventh street; the default)."""

RECENT_LINES = 5
"""How many of the last log lines the table message shows."""

GALLERY_ALT_LIMIT = 1024
"""Discord's limit on a media gallery item's description, its alt text ("max 1024 characters",
the components reference; it was cut at 256 before issue 17)."""

TEXT_BUDGET = 3800
"""Characters of text displays a layout may use (Discord allows 4,000 per message)."""

TABLE_FILE = "table.png"
"""The table picture's file name (``attachment://table.png``)."""

_COLOUR_IN_HAND = discord.Colour.from_rgb(27, 94, 52)
_COLOUR_BETWEEN = discord.Colour.from_rgb(92, 58, 30)
_COLOUR_OVER = discord.Colour.from_rgb(100, 100, 100)


@dataclass
class Layout:
    """A message body: the view, the files uploaded with it, the table picture it shows as
    ``attachment://table.png`` (drawn when sent: ``picture_files``), and what it shows
    (``signature``)."""

    view: discord.ui.LayoutView
    files: list[discord.File] = field(default_factory=list)
    picture: TablePicture | None = None
    drawings: tuple[Callable[[], discord.File], ...] = ()
    """Other pictures it uploads, drawn when sent (after the table picture, before ``files``)."""

    @functools.cached_property
    def signature(self) -> str:
        """What the layout shows (text, buttons and alt text): equal signatures look the same.
        Worked out once (a layout is not changed once built)."""
        return repr(self.view.to_components())  # type: ignore[no-untyped-call]


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def picture_file(png: bytes, name: str, alt: str) -> discord.File:
    """PNG bytes as an upload named ``name`` with ``alt`` as its description (alt text)."""
    return discord.File(io.BytesIO(png), filename=name, description=_cut(alt, ALT_TEXT_LIMIT))


def table_file(picture: TablePicture) -> discord.File:
    """The table picture as ``table.png`` with its alt text."""
    return picture_file(table_png(picture), TABLE_FILE, table_alt(picture))


def picture_files(layout: Layout) -> list[discord.File]:
    """Every file ``layout`` uploads: its table picture and its other drawings (drawn now: call it
    off the event loop, e.g. with ``asyncio.to_thread``) first, then its other files."""
    drawn = [table_file(layout.picture)] if layout.picture is not None else []
    return drawn + [draw() for draw in layout.drawings] + layout.files


async def drawn_files(layout: Layout) -> list[discord.File]:
    """``picture_files(layout)`` drawn in a thread; at once when there is nothing to draw (the
    text look: a hop to a thread costs more than the rest of such an edit's files)."""
    if layout.picture is None and not layout.drawings:
        return list(layout.files)
    return await asyncio.to_thread(picture_files, layout)


def hand_file(picture: HandPicture) -> discord.File:
    """A player's own hand picture as ``hand.png`` (send it to that player only)."""
    return picture_file(hand_png(picture), "hand.png", hand_alt(picture))


COMMITMENT_SHOWN = 16
"""Hex digits of the deck commitment on the table message (the full hash: ``/hand verify``)."""


def commitment_line(snapshot: TableSnapshot) -> str:
    """``-# Deck commitment 3f9a…: /hand verify 3`` -- the hand's commitment in short, public from
    before its first card to the summary (``/hand verify`` gives the full hash); empty without one.

    >>> from bot.engine.betting.stakes import TableStakes
    >>> from bot.engine.games.rulings import Rulings
    >>> s = TableSnapshot(1, 1, Phase.IN_HAND, 3, TableStakes.fixed_limit(ante=1, bring_in=2,
    ...     small_bet=4, big_bet=8), Rulings(), (), hand_id=9, commitment="ab" * 32)
    >>> commitment_line(s)
    '-# Deck commitment abababababababab…: full hash with /hand verify 3'
    """
    if not snapshot.commitment:
        return ""
    return (f"-# Deck commitment {snapshot.commitment[:COMMITMENT_SHOWN]}…: full hash with "
            f"/hand verify {snapshot.hand_no}")


def header(snapshot: TableSnapshot) -> str:
    """``### Hand #3 · fifth street`` and the stakes and pot line."""
    s = snapshot
    # A tournament's level and Discord's own live countdown to the next: no edit, no request.
    badge = f"\n-# {s.tournament.line(discord=True)}" if s.tournament is not None else ""
    if s.phase is Phase.BETWEEN_HANDS:
        described = snapshot_stakes(s)
        return f"### Between hands · next: hand #{s.hand_no}\n{described[:1].upper()}{described[1:]}{badge}"
    title = f"### Hand #{s.hand_no} · {s.stage}"
    if s.phase is Phase.VOID:
        title = f"### Hand #{s.hand_no} · void"
    described = snapshot_stakes(s)          # as the hand's game plays them: a flop game's blinds
    text = f"{title}\n{described[:1].upper()}{described[1:]} · Pot {chips(s.pot)}{badge}"
    return f"{text}\n{commitment_line(s)}" if s.commitment else text


def turn_line(prompt: Prompt, deadline: int | None) -> str:
    """``<@7> to act · 10 to call · time's up <t:UNIX:R>``: the mention shows the member's name to
    everyone, whatever it holds, and the table message never pings (it is sent with no allowed
    mentions); ``deadline`` (Unix seconds) is a Discord relative timestamp, counted live by clients.

    >>> from bot.render.views import Prompt
    >>> turn_line(Prompt(7, "Bea", 1, 4, (), "", to_call=10, pot=25), 1767225600)
    "<@7> to act · 10 to call · time's up <t:1767225600:R>"
    """
    parts = [f"<@{prompt.member}> to act"]
    draw = prompt.option("draw")
    if draw is not None:
        parts.append(f"draw up to {draw.amount} (cards chosen privately: {PICK_LABEL}) or stand pat")
    if prompt.to_call:
        parts.append(f"{chips(prompt.to_call)} to call")
    if deadline is not None:
        parts.append(f"time's up <t:{deadline}:R>")
    return " · ".join(parts)


def _rows(items: Sequence[discord.ui.Item[Any]]) -> list[discord.ui.ActionRow[Any]]:
    rows: list[discord.ui.ActionRow[Any]] = []
    for i in range(0, len(items), 5):
        row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
        for item in items[i : i + 5]:
            row.add_item(item)
        rows.append(row)
    return rows


def _gallery(picture: TablePicture) -> discord.ui.MediaGallery[Any]:
    """The table picture's place in a layout: ``attachment://table.png`` with its alt text."""
    return discord.ui.MediaGallery(
        discord.MediaGalleryItem(f"attachment://{TABLE_FILE}",
                                 description=_cut(table_alt(picture), GALLERY_ALT_LIMIT))
    )


def _picture(snapshot: TableSnapshot, look: str, children: list[discord.ui.Item[Any]]) -> TablePicture | None:
    """The table as a picture (with ``look`` ``pictures``; returned, to be drawn when sent) or as
    a text table."""
    picture = table_picture(snapshot, four_colour=four_colour(look)) if shows_pictures(look) else None
    if picture is None:
        children.append(discord.ui.TextDisplay(code_block(format_table(table_view(snapshot)))))
        return None
    children.append(_gallery(picture))
    return picture


def _fit_lines(lines: Sequence[str], budget: int) -> str:
    """The newest lines that fit in ``budget`` characters, oldest first."""
    out: list[str] = []
    used = 0
    for line in reversed(lines):
        line = _cut(line, 400)
        if used + len(line) + 1 > budget:
            break
        out.append(line)
        used += len(line) + 1
    return "\n".join(reversed(out))


def table_layout(
    snapshot: TableSnapshot, recent: Sequence[str], *, look: str = "pictures", deadline: int | None = None
) -> Layout:
    """The table message for ``snapshot`` with the ``recent`` log lines (see the module docstring)."""
    s = snapshot
    children: list[discord.ui.Item[Any]] = [discord.ui.TextDisplay(header(s))]
    if s.phase is not Phase.BETWEEN_HANDS and s.wilds:
        children.append(discord.ui.TextDisplay(plain("\n".join(s.wilds))))
    picture = _picture(s, look, children)
    used = sum(len(c.content) for c in children if isinstance(c, discord.ui.TextDisplay))
    footer = plain(table_view(s).footer)
    if s.prompt is not None and s.phase is Phase.IN_HAND:
        footer = turn_line(s.prompt, deadline)
    lines = _fit_lines([plain(line) for line in list(recent)[-RECENT_LINES:]],
                       max(0, TEXT_BUDGET - used - len(footer) - 8))
    if lines:
        children.append(discord.ui.TextDisplay(lines))
    if footer:
        children.append(discord.ui.TextDisplay(footer))
    if s.phase is Phase.BETWEEN_HANDS:
        children.extend(_rows([JoinButton(s.table_id), DealButton(s.table_id)]))
    else:
        if s.prompt is not None and s.phase is Phase.IN_HAND:
            children.extend(_rows(action_items(s.table_id, s.prompt)))
        children.extend(_rows([MyCardsButton(s.table_id), JoinButton(s.table_id)]))
    colour = _COLOUR_BETWEEN if s.phase is Phase.BETWEEN_HANDS else _COLOUR_IN_HAND
    return Layout(_view(discord.ui.Container(*children, accent_colour=colour)), picture=picture)


def closed_layout(text: str) -> Layout:
    """The last look of a closed table's message: one line, no buttons."""
    return Layout(_view(discord.ui.Container(discord.ui.TextDisplay(text), accent_colour=_COLOUR_OVER)))


def summary_layout(
    snapshot: TableSnapshot | None,
    hand_no: int,
    lines: Sequence[str],
    *,
    look: str = "pictures",
    log_text: str | None = None,
    buttons: Sequence[discord.ui.Item[Any]] = (),
) -> Layout:
    """A finished hand's summary: ``lines`` (results, showdown, wilds, commitment check), the final
    table picture of ``snapshot`` (its hands face up after a showdown), ``log_text`` as
    ``hand-N-log.txt`` when given, and ``buttons`` (the hand's Replay button) last."""
    files: list[discord.File] = []
    title = f"### Hand #{hand_no} · summary"
    if snapshot is not None and snapshot.phase is Phase.VOID:
        title = f"### Hand #{hand_no} · void"
    children: list[discord.ui.Item[Any]] = [discord.ui.TextDisplay(title)]
    body = "\n".join(plain(line) for line in lines)
    if snapshot is not None and snapshot.commitment:
        body += "\n" + commitment_line(snapshot)
    children.append(discord.ui.TextDisplay(_cut(body, TEXT_BUDGET - len(title)) or "Hand over."))
    picture = None
    if snapshot is not None and shows_pictures(look) and snapshot.phase is not Phase.VOID:
        picture = table_picture(snapshot, four_colour=four_colour(look))
        if picture is not None:
            children.append(_gallery(picture))
    if log_text is not None:
        name = f"hand-{hand_no}-log.txt"
        log_file = discord.File(io.BytesIO(log_text.encode()), filename=name,
                                description=f"Hand #{hand_no}: the full log")
        files.append(log_file)
        children.append(discord.ui.File(f"attachment://{name}"))
    children.extend(_rows(buttons))
    return Layout(_view(discord.ui.Container(*children, accent_colour=_COLOUR_OVER)), files, picture)


def _view(*items: discord.ui.Item[Any]) -> discord.ui.LayoutView:
    view = RoutedLayout()
    for item in items:
        view.add_item(item)
    return view
