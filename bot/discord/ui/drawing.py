"""The private discard picker of a draw game: the player to draw chooses their discards where only
they see them.

The table message carries, for the player to draw only, "Choose discards" (``PickButton``) and
"Stand pat" (an ``ActionButton``). "Choose discards" (or "My cards" during their draw) is
acknowledged without changing the table (type 6) and followed by an ephemeral message: the
player's cards as a picture, a string select of their cards (min 0, max the most they may draw),
"Draw N" and "Stand pat". Each change of the select redraws that private message (callback type 7
on it) with the chosen cards marked *discard* in the picture, and "Draw N" carries them in its
``custom_id``; "Draw N" draws them, the table is redrawn through the webhook of the click that
opened the picker (no channel request), and the private message then shows the new hand. The
channel only ever learns how many cards a player drew (the table message and its picture), never
which.

Every item is a ``discord.ui.DynamicItem`` carrying the table, hand and turn
(``ws:pick:T:H:TURN``, ``ws:discard:T:H:TURN``, ``ws:draw:T:H:TURN:CARDS``, with ``pat`` for
standing pat), so it keeps working after a restart and a picker from an earlier turn is refused
with the reason, changing nothing. Cards not in the hand, or more than may be drawn, are refused
by name before anything is sent to the table, and the engine checks again under the table lock.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.discord.ui.common import Interaction, actor, table_key, wildstud
from bot.discord.ui.errors import answer_error
from bot.discord.ui.routed import RoutedLayout
from bot.engine.cards.card import Card
from bot.engine.command import Command, Kind
from bot.engine.errors import IllegalAction
from bot.render.cards import cards as card_text
from bot.render.views import PrivateNotice, Prompt
from bot.tables.errors import TableError
from bot.tables.notices import TableKey

PICK_LABEL = "Choose discards"
"""The table message's button that opens the private picker (the player to draw only)."""

STAND_LABEL = "Stand pat"
"""Keep every card: the table message's and the picker's button."""

PLACEHOLDER = "Cards to throw away"
"""The select's placeholder (the most one may draw follows it)."""

_CARDS = re.compile(r"(?:[2-9TJQKA][cdhs]){1,5}")
_PAT = "pat"

_COLOUR = discord.Colour.from_rgb(27, 94, 52)


def draw_limit(prompt: Prompt) -> int | None:
    """The most cards the prompt lets its player draw, or None when it is not a draw."""
    option = prompt.option(Kind.DRAW.value)
    return option.amount if option is not None and option.amount is not None else None


def chosen_cards(values: Sequence[str], hand: Sequence[Card], most: int) -> tuple[Card, ...]:
    """The cards a player chose to throw away (select values or the codes in a ``custom_id``), in
    the order they hold them. Raises ``TableError`` naming the fault, changing nothing: a value that
    is no card, a card twice, a card not in ``hand``, more than ``most``.

    >>> from bot.engine.cards.card import parse_cards
    >>> hand = parse_cards("Kh 7c 7d 2s 9h")
    >>> card_text(chosen_cards(["9h", "2s"], hand, 3))
    '2♠ 9♥'
    >>> chosen_cards(["Ac"], hand, 3)
    Traceback (most recent call last):
    ...
    bot.tables.errors.TableError: A♣ is not in your hand: your cards are K♥ 7♣ 7♦ 2♠ 9♥.
    """
    picked: list[Card] = []
    for value in values:
        try:
            card = Card.parse(str(value))
        except ValueError:
            raise TableError(f"{str(value)[:12]!r} is not a card: write a rank and a suit,"
                             " like Kh or K♥.") from None
        if card not in hand:
            raise TableError(f"{card} is not in your hand: your cards are {card_text(hand)}.")
        if card in picked:
            raise TableError(f"{card} is chosen twice.")
        picked.append(card)
    if len(picked) > most:
        raise TableError(f"You may draw at most {most} card{'s' if most != 1 else ''} now,"
                         f" not {len(picked)}.")
    return tuple(c for c in hand if c in picked)


def discards_from_text(text: str, hand: Sequence[Card], most: int) -> tuple[Card, ...]:
    """What ``/draw`` was given: positions in the hand (``1 3``, counted from the left as the
    picture shows them) or cards (``Kh 5c``, ``K♥``); raises ``TableError`` with the fault.

    >>> from bot.engine.cards.card import parse_cards
    >>> hand = parse_cards("Kh 7c 7d 2s 9h")
    >>> card_text(discards_from_text("1 5", hand, 3)), card_text(discards_from_text("9h,K♥", hand, 3))
    ('K♥ 9♥', 'K♥ 9♥')
    >>> discards_from_text("6", hand, 3)
    Traceback (most recent call last):
    ...
    bot.tables.errors.TableError: There is no card 6: say positions 1 to 5 or the cards (Kh 5c).
    """
    words = text.replace(",", " ").split()
    if not words:
        raise TableError("Say which cards to throw away (1 3, or Kh 5c), or use /stand to stand pat.")
    if all(w.isascii() and w.isdigit() for w in words):
        positions = [int(w) for w in words if len(w) <= 2]
        if len(positions) != len(words) or any(not 1 <= p <= len(hand) for p in positions):
            bad = next(w for w in words if len(w) > 2 or not 1 <= int(w) <= len(hand))
            raise TableError(f"There is no card {bad[:6]}: say positions 1 to {len(hand)}"
                             " or the cards (Kh 5c).")
        if len(set(positions)) != len(positions):
            raise TableError("A position is given twice.")
        words = [hand[p - 1].code for p in positions]
    return chosen_cards(words, hand, most)


def _codes(cards: Sequence[Card]) -> str:
    return "".join(c.code for c in cards)


class PickButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ws:pick:(?P<table>\d+):(?P<hand>\d+):(?P<turn>\d+)",
):
    """"Choose discards" on the table message: opens the private picker for the player to draw."""

    def __init__(self, table_id: int, hand_id: int, turn: int) -> None:
        super().__init__(discord.ui.Button(label=PICK_LABEL, style=discord.ButtonStyle.primary,
                                           custom_id=f"ws:pick:{table_id}:{hand_id}:{turn}"))
        self.table_id, self.hand_id, self.turn = table_id, hand_id, turn

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PickButton:
        return cls(int(match["table"]), int(match["hand"]), int(match["turn"]))

    async def callback(self, interaction: Interaction) -> None:
        try:
            key, notice, prompt, most = _drawer(interaction, self.table_id, self.hand_id, self.turn)
            await open_picker(interaction, key, notice, prompt, most)
        except Exception as exc:
            await answer_error(interaction, exc)


class DiscardSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"ws:discard:(?P<table>\d+):(?P<hand>\d+):(?P<turn>\d+)",
):
    """The private select of the cards to throw away; each change redraws the picker."""

    def __init__(self, table_id: int, hand_id: int, turn: int, hand: Sequence[Card] = (), most: int = 1,
                 chosen: Sequence[Card] = ()) -> None:
        options = [discord.SelectOption(label=str(c), value=c.code, default=c in chosen) for c in hand]
        super().__init__(discord.ui.Select(
            custom_id=f"ws:discard:{table_id}:{hand_id}:{turn}",
            placeholder=f"{PLACEHOLDER} (up to {most})",
            min_values=0, max_values=max(1, min(most, len(options))),
            options=options or [discord.SelectOption(label="-", value="-")],
        ))
        self.table_id, self.hand_id, self.turn = table_id, hand_id, turn

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> DiscardSelect:
        return cls(int(match["table"]), int(match["hand"]), int(match["turn"]))

    async def callback(self, interaction: Interaction) -> None:
        try:
            key, notice, prompt, most = _drawer(interaction, self.table_id, self.hand_id, self.turn)
            data: Any = interaction.data or {}
            chosen = chosen_cards([str(v) for v in data.get("values") or ()], notice.down_cards, most)
            layout, files = await picker(interaction, key, notice, prompt, most, chosen)
            await interaction.response.edit_message(view=layout, attachments=files)
        except Exception as exc:
            await answer_error(interaction, exc)


class DrawButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ws:draw:(?P<table>\d+):(?P<hand>\d+):(?P<turn>\d+):(?P<cards>[0-9A-Za-z]{1,10})",
):
    """"Draw N" (the chosen cards ride in the ``custom_id``) or, with ``pat``, "Stand pat", on the
    private picker. The table is redrawn through the webhook of the click that opened the picker
    (``Front.keep_table_click``; else one channel edit); the picker then shows the new hand."""

    def __init__(self, table_id: int, hand_id: int, turn: int, cards: str, *, label: str = "",
                 disabled: bool = False) -> None:
        stand = cards == _PAT
        super().__init__(discord.ui.Button(
            label=label or (STAND_LABEL if stand else f"Draw {len(cards) // 2}"),
            style=discord.ButtonStyle.secondary if stand else discord.ButtonStyle.success,
            custom_id=f"ws:draw:{table_id}:{hand_id}:{turn}:{cards}", disabled=disabled,
        ))
        self.table_id, self.hand_id, self.turn, self.cards = table_id, hand_id, turn, cards

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> DrawButton:
        return cls(int(match["table"]), int(match["hand"]), int(match["turn"]), match["cards"])

    async def callback(self, interaction: Interaction) -> None:
        try:
            key, notice, _prompt, most = _drawer(interaction, self.table_id, self.hand_id, self.turn)
            if self.cards == _PAT:
                command = Command(Kind.STAND)
            elif _CARDS.fullmatch(self.cards):
                codes = [self.cards[i:i + 2] for i in range(0, len(self.cards), 2)]
                command = Command(Kind.DRAW, cards=chosen_cards(codes, notice.down_cards, most))
            else:
                raise TableError("That button names no cards.")
        except Exception as exc:
            await answer_error(interaction, exc)
            return
        bot = wildstud(interaction)
        try:
            # The table message is edited through the channel (this click came from the private
            # picker); the interaction is acknowledged as the block ends, and the ping goes through
            # its webhook. Then the picker, answered once, becomes the new hand.
            async with bot.presenter.responding(key, interaction):
                await bot.service.act(key, await actor(interaction), self.hand_id, self.turn, command)
            await send_new_hand(interaction, key, notice, command)
        except Exception as exc:
            await answer_error(interaction, exc)


def _drawer(interaction: Interaction, table_id: int, hand_id: int, turn: int
            ) -> tuple[TableKey, PrivateNotice, Prompt, int]:
    """The table, the clicker's own cards, the prompt and the most they may draw, if the draw of
    ``hand_id``/``turn`` is theirs now; else ``IllegalAction`` with the reason."""
    key = table_key(interaction)
    service = wildstud(interaction).service
    service.check_turn(key, interaction.user.id, hand_id, turn, table_id=table_id)
    prompt = service.current_prompt(key)
    most = draw_limit(prompt) if prompt is not None else None
    if prompt is None or most is None:
        raise IllegalAction("It is not a draw now.")
    return key, service.my_cards(key, interaction.user.id), prompt, most


async def open_picker(interaction: Interaction, key: TableKey, notice: PrivateNotice, prompt: Prompt,
                      most: int) -> None:
    """Answer a click on the table message with the private picker: the click is acknowledged
    without changing the table (type 6) and kept (``Front.keep_table_click``), so the draw made in
    the picker redraws the table through this click's webhook, as a click on the table itself
    would (no channel request); the picker follows, ephemeral."""
    layout, files = await picker(interaction, key, notice, prompt, most, ())
    await interaction.response.defer()
    wildstud(interaction).presenter.keep_table_click(key, interaction)
    await interaction.followup.send(view=layout, files=files, ephemeral=True)


async def picker(interaction: Interaction, key: TableKey, notice: PrivateNotice, prompt: Prompt, most: int,
                 chosen: Sequence[Card]) -> tuple[discord.ui.LayoutView, list[discord.File]]:
    """The private picker: the player's cards (with ``chosen`` marked in the picture), the select,
    "Draw N" (disabled until a card is chosen) and "Stand pat"."""
    bot = wildstud(interaction)
    table_id = bot.service.snapshot(key).table_id
    hand = notice.down_cards
    limit = f"up to {most} card{'s' if most != 1 else ''}"
    lines = [f"**Your draw** ({limit}): choose the cards to throw away, then Draw.",
             f"Your cards: {card_text(hand)}"]
    if notice.best:
        lines.append(f"Best now: {notice.best}")
    if chosen:
        kept = [c for c in hand if c not in chosen]
        lines.append(f"Discard {card_text(chosen)} · keep {card_text(kept) or 'nothing'}")
    else:
        lines.append("Nothing chosen yet: Stand pat keeps every card.")
    picture_lines = (f"Discard {len(chosen)}: {card_text(chosen)}" if chosen
                     else f"Choose {limit} to discard",)
    snapshot = bot.service.snapshot(key)
    files = await bot.presenter.hand_files(key, notice, snapshot, discards=tuple(chosen), lines=picture_lines,
                                           title=f"Hand #{snapshot.hand_no} · your draw · {notice.name}")
    children: list[discord.ui.Item[Any]] = [discord.ui.TextDisplay("\n".join(lines))]
    if files:
        name = files[0].filename
        children.append(discord.ui.MediaGallery(
            discord.MediaGalleryItem(f"attachment://{name}", description=files[0].description)))
    select: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
    select.add_item(DiscardSelect(table_id, prompt.hand_id, prompt.turn, hand, most, chosen))
    buttons: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
    if chosen:
        buttons.add_item(DrawButton(table_id, prompt.hand_id, prompt.turn, _codes(chosen)))
    else:
        buttons.add_item(DrawButton(table_id, prompt.hand_id, prompt.turn, "0", label="Draw",
                                    disabled=True))
    buttons.add_item(DrawButton(table_id, prompt.hand_id, prompt.turn, _PAT))
    view = RoutedLayout()
    view.add_item(discord.ui.Container(*children, select, buttons, accent_colour=_COLOUR))
    return view, files


async def send_new_hand(
    interaction: Interaction, key: TableKey, before: PrivateNotice, command: Command
) -> None:
    """After the draw, the player's new hand, the way their draw came: the picker (a component,
    acknowledged already) becomes it, its buttons gone; a slash command gets it as its private
    answer. To that player only."""
    bot = wildstud(interaction)
    files: list[discord.File] = []
    if command.kind is Kind.STAND or not command.cards:
        text = f"You stand pat: {card_text(before.down_cards)}."
    else:
        try:
            notice: PrivateNotice | None = bot.service.my_cards(key, interaction.user.id)
        except TableError:
            notice = None               # the hand ended with the draw: the summary shows the cards
        thrown = command.cards
        if notice is None:
            text = f"You threw away {card_text(thrown)}. The hand is over: see its summary."
        else:
            new = [c for c in notice.down_cards if c not in before.down_cards]
            text = f"You threw away {card_text(thrown)} and drew {card_text(new)}.\n{notice.text}"
            files = await bot.presenter.hand_files(key, notice, bot.service.snapshot(key), new=tuple(new))
    if interaction.type is discord.InteractionType.application_command:
        await interaction.followup.send(text, files=files, ephemeral=True)
        return
    children: list[discord.ui.Item[Any]] = [discord.ui.TextDisplay(text)]
    if files:
        children.append(discord.ui.MediaGallery(
            discord.MediaGalleryItem(f"attachment://{files[0].filename}", description=files[0].description)))
    view = RoutedLayout()
    view.add_item(discord.ui.Container(*children, accent_colour=_COLOUR))
    await interaction.edit_original_response(view=view, attachments=files)
