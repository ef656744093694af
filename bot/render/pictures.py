"""Card pictures (PNG bytes) for Discord: the table, a player's own hand and the showdown.

Three frozen snapshots go in, PNG bytes and alt text with the same facts come out:

* ``TablePicture`` -> ``table_png`` / ``table_alt``: seats around an oval felt (name, stack, up
  cards, down cards as card backs, folded seats dimmed, the player to act highlighted, the dealer
  button), the pot, the community card, and the wild ranks each with the card that made it wild.
* ``HandPicture`` -> ``hand_png`` / ``hand_alt``: one player's own cards for the DM and "My
  cards" (down cards marked *down*, the best five picked out, what each wild stands for); in a
  draw game the cards a player chose to throw away, before they confirm, are lowered, framed in
  red and tagged *discard*.
* ``ShowdownPicture`` -> ``showdown_png`` / ``showdown_alt``: every shown hand with its best five
  and what it won.

Every wild card (fives and each rank made wild by a follow) is drawn on a gold face with a gold
frame and a star under its index, so it is seen at a glance even when cards overlap.

A ``HandPicture`` holds a player's down cards: send its picture only to that player. A
``TablePicture`` has no field for another player's down cards (only how many), so the table
picture cannot leak one.

Cards and suits are drawn procedurally (no card art; the sprites, font and colours are in
``bot.render.sprites``); text uses the font Pillow ships (``ImageFont.load_default(size=...)``,
Aileron, CC0, Pillow >= 10.1 with FreeType). Aileron has no suit or arrow glyphs, so ``♣ ♦ ♥ ♠``
and ``→`` inside any text are drawn as shapes. Suits use four colours (clubs green, diamonds
blue, hearts red, spades black) so they read apart on a phone.

Sizes: the table picture is ``TABLE_SIZE`` (960 x 600 px); Discord previews it about 550 px wide,
where the smallest text is still ``MIN_TEXT_PX * 550 / 960`` >= 12 px. Card sprites are cached
(``functools.lru_cache``), so an 8-seat table renders in a few milliseconds (see
``benchmarks/bench_pictures.py``).

Raises ``RuntimeError`` on first use if Pillow was built without FreeType (no scalable font).
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, replace

from PIL import Image, ImageDraw

from bot.engine.cards.card import FULL_DECK, Card, Rank, Suit
from bot.engine.games.baseball import MOST_CARDS
from bot.engine.games.catalogue import GAMES, Game
from bot.engine.games.follow import WildEvent
from bot.engine.values.ace_to_five import eight_or_better
from bot.engine.values.board import flop_high, flop_low
from bot.engine.values.evaluator import HandValue
from bot.engine.values.evaluator_tables import WildInFlush
from bot.engine.values.low import spell
from bot.engine.values.showing import showing_value
from bot.engine.values.valuation import best_value
from bot.render.cards import rank_list
from bot.render.layers import (
    Layer,
    compose,
    compose_png,
    one_at_a_time,
    paint,
    png,
    to_palette,
)
from bot.render.plain import compose_parts_png
from bot.render.private import LOW_VALUES
from bot.render.sprites import (
    _BEST,
    _BG,
    _FACE,
    _FELT,
    _FELT_EDGE,
    _PLATE,
    _PLATE_ACT,
    _RAIL,
    _SUIT_ON_DARK,
    _TEXT,
    _TEXT_DARK,
    _TEXT_DIM,
    _WIN,
    _arrow_mask,
    _card_text,
    _dim,
    _fit,
    _paste,
    _text,
    _text_font,
    _text_width,
    card_back,
    card_sprite,
)

TABLE_SIZE = (960, 600)
"""Width and height of the table picture in pixels."""

PICTURE_WIDTH = 960
"""Width of the hand and showdown pictures in pixels (their height grows with the content)."""

DISCORD_PREVIEW_WIDTH = 550
"""About how wide Discord shows an image attachment inline (desktop and phone)."""

PHONE_WIDTH = 380
"""About how wide a phone shows the table picture (issue 17: stacks and wild labels unreadable)."""

TABLE_MIN_TEXT_PX = 28
"""The smallest font size (px) of the table picture: 11 px on a phone (``PHONE_WIDTH``)."""

MIN_TEXT_PX = 22
"""The smallest font size (px) any picture uses; at 550/960 scale that is 12.6 px on screen."""

ALT_TEXT_LIMIT = 1024
"""Discord's limit on an attachment's ``description`` (its alt text)."""

# -- snapshots --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WildRank:
    """A wild rank. Made wild by a follow: ``five`` (the face-up trigger card: a five, or a queen in
    Follow the Queen) armed it and ``card`` set it. Without both it is one of the game's fixed wild
    ranks (fives in Sex in the Middle East, twos in Deuces Wild...); a game without wild cards has
    no entry at all.
    """

    rank: Rank
    five: Card | None = None
    card: Card | None = None


def wilds_from_events(events: Iterable[WildEvent]) -> tuple[WildRank, ...]:
    """The engine's wild events (``Hand.wild_events``) as picture entries, in the order made."""
    return tuple(WildRank(ev.rank, ev.five, ev.follow_card) for ev in events)


@dataclass(frozen=True, slots=True)
class SeatPicture:
    """One seat as everyone may see it: ``up`` cards face up and ``down`` card backs (a count, never
    the cards). ``bet``: chips put in on this street. ``note``: a short status such as ``all-in``,
    ``sitting out`` or ``away`` ("" for none)."""

    name: str
    stack: int
    up: tuple[Card, ...] = ()
    down: int = 0
    folded: bool = False
    to_act: bool = False
    dealer: bool = False
    bet: int = 0
    note: str = ""
    blind: str = ""
    """A flop game's forced bet posted from this seat: ``SB``, ``BB`` or ``straddle`` ("" none)."""


@dataclass(frozen=True, slots=True)
class TablePicture:
    """The table at one moment: ``title`` (e.g. ``Hand #3 · third street``), 2 to 8 seats in
    clockwise order, the pot (chips), the wild ranks beyond fives in the order made, and the
    community card if one was dealt."""

    title: str
    seats: tuple[SeatPicture, ...]
    pot: int
    wilds: tuple[WildRank, ...] = ()
    community: Card | None = None
    four_colour: bool = True
    """A four-colour deck (clubs green, diamonds blue: the default) or a two-colour one."""
    boards: tuple[tuple[Card, ...], ...] = ()
    """A flop game's board (one run), or both runs of a hand run twice."""
    board_size: int = 0
    """How many cards a full board holds (5 in the flop games): the cards still to come are drawn as
    empty places, so the board never moves as it fills; 0 outside the flop games."""
    table: int | None = None
    """The table drawn (its id), or None: ``table_png`` puts a table's next picture together from its
    last one (``bot.render.layers.compose_png``). Nothing drawn depends on it."""


@dataclass(frozen=True, slots=True)
class HandPicture:
    """One player's own cards, in the order dealt; ``up`` lists which of them are face up (the rest
    are down cards). ``wild_in_flush`` is the table's ruling (``any-card`` or
    ``highest-missing``), used to pick the best five."""

    title: str
    cards: tuple[Card, ...]
    up: tuple[Card, ...]
    wilds: tuple[WildRank, ...] = ()
    community: Card | None = None
    wild_in_flush: WildInFlush = "any-card"
    ranking: str = "high"
    four_colour: bool = True
    """A four-colour deck (clubs green, diamonds blue: the default) or a two-colour one."""
    discards: tuple[Card, ...] = ()
    """A draw game's discard picker: the cards chosen to throw away (not yet confirmed)."""
    lines: tuple[str, ...] = ()
    """Lines under the title instead of the best hand and the wild ranks (the discard picker's)."""
    new: tuple[Card, ...] = ()
    """A draw game: the cards just drawn (tagged ``new``)."""
    board: tuple[Card, ...] = ()
    """A flop game's board so far (``cards`` are then the hole cards)."""
    game: str = ""
    """The hand's game (a ``GAMES`` name): a flop game picks the best five its own way (Omaha: two
    of the hole cards with three of the board)."""

    @property
    def flop(self) -> Game | None:
        """The flop game of the hand, or None (stud)."""
        game = GAMES.get(self.game)
        return game if game is not None and game.positional and not game.is_draw else None


@dataclass(frozen=True, slots=True)
class ShownHand:
    """A hand turned face up at showdown: all of its cards, in the order dealt, and the chips it won
    (0 for none)."""

    name: str
    cards: tuple[Card, ...]
    won: int = 0


@dataclass(frozen=True, slots=True)
class ShowdownPicture:
    """The showdown: every shown hand (1 to 8), the wild ranks and the community card if any."""

    title: str
    hands: tuple[ShownHand, ...]
    wilds: tuple[WildRank, ...] = ()
    community: Card | None = None
    wild_in_flush: WildInFlush = "any-card"
    ranking: str = "high"
    four_colour: bool = True
    """A four-colour deck (clubs green, diamonds blue: the default) or a two-colour one."""


def wild_ranks_of(wilds: Iterable[WildRank]) -> frozenset[Rank]:
    """Every wild rank in ``wilds`` (a game's fixed wild ranks come as entries without origins)."""
    return frozenset(w.rank for w in wilds)


def _fixed_wilds(wilds: Iterable[WildRank]) -> list[Rank]:
    """The ranks wild without an origin (the game's own: fives, queens, threes and nines...)."""
    return list(dict.fromkeys(w.rank for w in wilds if not (w.five and w.card)))


def _fixed_title(wilds: Sequence[WildRank]) -> str:
    fixed = _fixed_wilds(wilds)
    if fixed:
        return "Wild: " + rank_list(fixed)
    return "Wild:" if any(w.five and w.card for w in wilds) else "No wild cards"


def _extra_wilds(wilds: Iterable[WildRank]) -> list[WildRank]:
    seen: set[Rank] = set(_fixed_wilds(wilds))
    out: list[WildRank] = []
    for w in wilds:
        if w.rank not in seen:
            seen.add(w.rank)
            out.append(w)
    return out


# -- the table ----------------------------------------------------------------------------------

_SEAT_W, _SEAT_H = 264, 170
_CARD_W = 62
_CARD_H = int(_CARD_W * 1.4)
_MINI_W = 44
# Type sizes of the table picture, chosen to read at ~13 px on a phone (the picture ~380 px wide).
_PLATE_TYPE = 32      # names and stacks
_NOTE_TYPE = TABLE_MIN_TEXT_PX       # bet, folded, all-in
_WILD_TYPE = 30       # the wild list
# Panel top-left corners, clockwise from the top left.
_SLOTS = {
    "TL": (36, 56), "TC": (348, 56), "TR": (660, 56), "R": (688, 236),
    "BR": (660, 420), "BC": (348, 420), "BL": (36, 420), "L": (8, 236),
}
_LAYOUTS = {
    1: ("BC",),
    2: ("TC", "BC"),
    3: ("TL", "TR", "BC"),
    4: ("TL", "TR", "BR", "BL"),
    5: ("TL", "TC", "TR", "BR", "BL"),
    6: ("TL", "TC", "TR", "BR", "BC", "BL"),
    7: ("TL", "TC", "TR", "R", "BR", "BL", "L"),
    8: ("TL", "TC", "TR", "R", "BR", "BC", "BL", "L"),
}


def seat_boxes(n_seats: int) -> list[tuple[int, int, int, int]]:
    """Where each seat's panel (name plate, cards and status line) lies in the table picture:
    ``(left, top, right, bottom)`` px for seats 0..n-1, clockwise from the top left.

    Raises ``ValueError`` for fewer than 1 or more than 8 seats.
    """
    if n_seats not in _LAYOUTS:
        raise ValueError(f"a table picture has 1 to 8 seats, got {n_seats}")
    return [(x, y, x + _SEAT_W, y + _SEAT_H) for x, y in (_SLOTS[s] for s in _LAYOUTS[n_seats])]


@functools.lru_cache(maxsize=4)
def _felt(size: tuple[int, int]) -> Image.Image:
    w, h = size
    big = Image.new("RGB", (w * 2, h * 2), _BG)
    d = ImageDraw.Draw(big)
    box = (60 * 2, 96 * 2, (w - 60) * 2, (h - 20) * 2)
    d.ellipse(box, fill=_RAIL)
    inset = 8 * 2          # a thin rail: the pixels go to the seats' type (legible on a phone)
    d.ellipse((box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset), fill=_FELT_EDGE)
    inset2 = inset + 6
    d.ellipse((box[0] + inset2, box[1] + inset2, box[2] - inset2, box[3] - inset2), fill=_FELT)
    return big.resize(size, Image.Resampling.LANCZOS)


def _draw_seat(
    canvas: Image.Image, seat: SeatPicture, x: int, y: int, wild: frozenset[Rank], four: bool = True
) -> None:
    """A seat's panel with its top-left corner at ``(x, y)``: the to-act frame, the name plate, the
    cards, the dimming of a folded seat and the status line, in that order (``_seat_part`` draws
    one part of the same)."""
    draw = ImageDraw.Draw(canvas)
    if seat.to_act:
        _seat_frame(draw, x, y)
    _seat_plate(canvas, draw, seat, x, y)
    _seat_cards(canvas, seat, x, y, wild, four)
    if seat.folded:
        _seat_dim(canvas, x, y)
    _seat_notes(canvas, seat, x, y)


_PLATE_H = 44
_CARDS_TOP = _PLATE_H + 6
"""The top of a seat's cards, from the top of its panel."""


def _seat_frame(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    """The frame around the panel of the player to act."""
    draw.rounded_rectangle((x - 5, y - 5, x + _SEAT_W + 5, y + _SEAT_H + 3), 14, outline=_PLATE_ACT, width=4)


def _seat_plate(canvas: Image.Image, draw: ImageDraw.ImageDraw, seat: SeatPicture, x: int, y: int) -> None:
    """The name plate: the dealer button, the name and the stack."""
    fill = _PLATE_ACT if seat.to_act else _PLATE
    ink = _TEXT_DARK if seat.to_act else _TEXT
    draw.rounded_rectangle((x, y, x + _SEAT_W, y + _PLATE_H), 10, fill=fill)
    nx = x + 8
    if seat.dealer:
        r = 16
        cy = y + _PLATE_H // 2
        draw.ellipse((nx, cy - r, nx + 2 * r, cy + r), fill=_FACE, outline=_TEXT_DARK, width=2)
        _text(canvas, (nx + r, cy - 17), "D", TABLE_MIN_TEXT_PX, _TEXT_DARK, bold=True, anchor="m")
        nx += 2 * r + 6
    stack = f"{seat.stack:,}"
    stack_w = _text_width(stack, _PLATE_TYPE, True)
    _text(canvas, (x + _SEAT_W - 8, y + 2), stack, _PLATE_TYPE, ink, bold=True, anchor="r")
    name_room = x + _SEAT_W - 16 - stack_w - nx
    name = _fit(seat.name, _PLATE_TYPE, name_room, bold=True)
    _text(canvas, (nx, y + 2), name, _PLATE_TYPE, ink, bold=True)


def _seat_cards(
    canvas: Image.Image, seat: SeatPicture, x: int, y: int, wild: frozenset[Rank], four: bool
) -> None:
    """The card backs, then the up cards (``x - 1`` to ``x + _SEAT_W + 2`` at most)."""
    cy = y + _CARDS_TOP
    cx = x + 2
    back = card_back(_CARD_W)
    n_up = len(seat.up)
    # Backs overlap more than up cards: only the up cards carry information. A draw game's hand is
    # all backs: spread out, so a phone still shows how many (five, or badugi's four).
    back_step = 22 if n_up else min(_CARD_W + 4, (_SEAT_W - _CARD_W - 4) // max(1, seat.down - 1))
    room = _SEAT_W - _CARD_W - 4 - back_step * seat.down
    up_step = min(_CARD_W + 4, room // max(1, n_up - 1)) if n_up > 1 else 0
    for _ in range(seat.down):
        _paste(canvas, back, cx, cy)
        cx += back_step
    if seat.down and n_up:
        cx += 4
    for c in seat.up:
        _paste(canvas, card_sprite(c, _CARD_W, c.rank in wild, four), cx, cy)
        cx += up_step


def _seat_dim(canvas: Image.Image, x: int, y: int) -> None:
    """A folded seat's plate and cards, dimmed."""
    _dim(canvas, (x, y, x + _SEAT_W, y + _CARDS_TOP + _CARD_H))


def _seat_status(seat: SeatPicture) -> str:
    """The status line under a seat's cards: the blind, folded, the note and the bet ("" for none)."""
    notes: list[str] = []
    if seat.blind:
        notes.append(seat.blind)
    if seat.folded:
        notes.append("folded")
    if seat.note:
        notes.append(seat.note)
    if seat.bet:
        notes.append(f"bet {seat.bet:,}")
    return " · ".join(notes)


def _seat_notes(canvas: Image.Image, seat: SeatPicture, x: int, y: int) -> None:
    """The status line (``_seat_status``), dimmed for a folded seat."""
    status = _seat_status(seat)
    if status:
        _text(canvas, (x + 4, y + _CARDS_TOP + _CARD_H), _fit(status, _NOTE_TYPE, _SEAT_W - 8),
              _NOTE_TYPE, _TEXT_DIM if seat.folded else _TEXT)


def _entry_width(w: WildRank) -> int:
    """The width of ``_wild_entry`` for ``w`` with its whole label."""
    return (_MINI_W * 2 + 34 if w.five and w.card else 0) + _text_width(w.rank.plural, _WILD_TYPE, True)


def _wild_entry(canvas: Image.Image, w: WildRank, x: float, y: float, width: float, four: bool) -> None:
    """One wild rank centred in ``width``: its five, an arrow, the card that set it, the rank."""
    cards_w = _MINI_W * 2 + 34 if w.five and w.card else 0
    label = _fit(w.rank.plural, _WILD_TYPE, int(width) - cards_w, bold=True)
    px = x + (width - cards_w - _text_width(label, _WILD_TYPE, True)) / 2
    if w.five and w.card:
        _paste(canvas, card_sprite(w.five, _MINI_W, True, four), px, y)
        canvas.paste(_TEXT, (int(px + _MINI_W + 2), int(y + 20)), _arrow_mask(20))
        _paste(canvas, card_sprite(w.card, _MINI_W, True, four), px + _MINI_W + 24, y)
        px += cards_w
    _text(canvas, (px, y + (_MINI_W * 1.4 - _WILD_TYPE * 1.3) / 2), label, _WILD_TYPE, _TEXT, bold=True)


def _wild_rows(
    canvas: Image.Image, wilds: Sequence[WildRank], x: int, y: int, width: int, rows: int, four: bool = True
) -> int:
    """The wild list in the middle of the felt: fives first, then each rank with its five and the
    card that set it, two to a row when there are several. When that does not fit (in ``rows``
    rows, or two entries side by side), the ranks are listed as words (the alt text and the log
    keep the origins).
    Returns the y below the list."""
    _text(canvas, (x + width / 2, y), _fixed_title(wilds), _WILD_TYPE, _TEXT, bold=True, anchor="m")
    y += _WILD_TYPE + 10
    extra = _extra_wilds(wilds)
    per_row = 1 if len(extra) <= 1 else 2
    row_h = int(_MINI_W * 1.4) + 6
    if len(extra) > rows * per_row or any(_entry_width(w) + 12 > width / per_row for w in extra):
        lines: list[str] = []
        for word in (w.rank.plural for w in extra):
            if lines and _text_width(f"{lines[-1]} · {word}", _WILD_TYPE, True) <= width:
                lines[-1] = f"{lines[-1]} · {word}"
            else:
                lines.append(word)
        room = max(1, (rows * row_h + 10) // (_WILD_TYPE + 6))
        if len(lines) > room:  # never drop a rank unsaid: squeeze the rest into the last line
            lines = [*lines[: room - 1], _fit(" · ".join(lines[room - 1 :]), _WILD_TYPE, width, bold=True)]
        for line in lines:
            _text(canvas, (x + width / 2, y), line, _WILD_TYPE, _TEXT, bold=True, anchor="m")
            y += _WILD_TYPE + 6
        return y
    for i in range(0, len(extra), per_row):
        pair = extra[i : i + per_row]
        col_w = width / per_row
        offset = (width - col_w * len(pair)) / 2
        for j, w in enumerate(pair):
            _wild_entry(canvas, w, x + offset + j * col_w, y, col_w, four)
        y += row_h
    return y


# The layers of the table picture (``bot.render.layers``): boxes that hold every pixel their
# drawing may reach (the tests check it) and never overlap.
_TITLE_BOX = (0, 0, TABLE_SIZE[0], 50)
_SEAT_MARGIN = (6, 6, 8, 4)     # around a seat's panel: the to-act frame, the status line's descenders
_POT_BOX = (280, 230, 682, 270)
_MIDDLE_BOX = (280, 270, 682, 414)


def seat_layer_box(slot: str) -> tuple[int, int, int, int]:
    """The box of a seat's layer at ``slot`` (``_SLOTS``): its panel and margins."""
    x, y = _SLOTS[slot]
    left, top, right, bottom = _SEAT_MARGIN
    return (x - left, y - top, x + _SEAT_W + right, y + _SEAT_H + bottom)


SEAT_PARTS = ("plate", "left", "cards", "right", "status")
"""The five parts of a seat's layer box that ``table_png`` puts together (``seat_part_boxes``)."""


def seat_part_boxes(slot: str) -> dict[str, tuple[int, int, int, int]]:
    """A seat's layer box (``seat_layer_box``) cut in five, each drawn and kept on its own, so a
    click redraws only the parts it changed: the ``plate`` band (the to-act frame's top, the name
    plate), the card rows' ``left`` edge, the ``cards`` between, the ``right`` edge (the edges hold
    only the to-act frame's sides), and the ``status`` band (the status line, the frame's bottom)."""
    x, y = _SLOTS[slot]
    left, top, right, bottom = seat_layer_box(slot)
    cards_top, cards_bottom = y + _CARDS_TOP, y + _CARDS_TOP + _CARD_H
    return {
        "plate": (left, top, right, cards_top),
        "left": (left, cards_top, x - 1, cards_bottom),
        "cards": (x - 1, cards_top, x + _SEAT_W + 2, cards_bottom),
        "right": (x + _SEAT_W + 2, cards_top, right, cards_bottom),
        "status": (left, cards_bottom, right, bottom),
    }


def _seat_part_key(part: str, seat: SeatPicture, seen: frozenset[Rank], four: bool) -> Hashable:
    """What a seat's ``part`` shows: everything ``_seat_part`` reads for it."""
    if part == "plate":
        return (seat.name, seat.stack, seat.dealer, seat.to_act, seat.folded)
    if part == "cards":
        return (seat.up, seat.down, seen, four, seat.folded)
    if part == "status":
        return (_seat_status(seat), seat.folded, seat.to_act)
    return seat.to_act


def _seat_part(
    part: str, seat: SeatPicture, slot: str, wild: frozenset[Rank], four: bool, canvas: Image.Image,
    ox: int, oy: int,
) -> None:
    """What ``_draw_seat`` draws in the ``part`` box (``seat_part_boxes``) of a canvas holding just
    that box: the same drawings in the same order, less those that never reach it."""
    sx, sy = _SLOTS[slot]
    x, y = sx - ox, sy - oy
    draw = ImageDraw.Draw(canvas)
    if seat.to_act and part != "cards":
        _seat_frame(draw, x, y)
    if part == "plate":
        _seat_plate(canvas, draw, seat, x, y)
    elif part == "cards":
        _seat_cards(canvas, seat, x, y, wild, four)
    if seat.folded and part in ("plate", "cards"):
        _seat_dim(canvas, x, y)
    if part == "status":
        _seat_notes(canvas, seat, x, y)


def _title_layer(title: str, canvas: Image.Image, ox: int, oy: int) -> None:
    _text(canvas, (14 - ox, 6 - oy), _fit(title, 30, TABLE_SIZE[0] - 28, bold=True), 30, _TEXT, bold=True)


def _seat_layer(
    seat: SeatPicture, slot: str, wild: frozenset[Rank], four: bool, canvas: Image.Image, ox: int, oy: int
) -> None:
    sx, sy = _SLOTS[slot]
    _draw_seat(canvas, seat, sx - ox, sy - oy, wild, four)


def _pot_layer(pot: int, canvas: Image.Image, ox: int, oy: int) -> None:
    _text(canvas, (282 + 396 / 2 - ox, 220 - oy), f"Pot {pot:,}", 40, _TEXT, bold=True, anchor="m")


def _middle_layer(pic: TablePicture, canvas: Image.Image, ox: int, oy: int) -> None:
    """The middle of the felt under the pot, between the left and right seats: the community card
    and the wild list, or a flop game's board (``_draw_boards``)."""
    wild = wild_ranks_of(pic.wilds)
    mx, mw, my = 282 - ox, 396, 270 - oy
    if pic.boards or pic.board_size:
        _draw_boards(canvas, pic, mx, my, mw, wild)
        return
    rows = 2
    if pic.community is not None:
        label_w = _text_width("Community", _WILD_TYPE)
        total = label_w + 8 + _MINI_W
        px = mx + (mw - total) / 2
        _text(canvas, (px, my + 12), "Community", _WILD_TYPE, _TEXT)
        community = card_sprite(pic.community, _MINI_W, pic.community.rank in wild, pic.four_colour)
        _paste(canvas, community, px + label_w + 8, my)
        my += int(_MINI_W * 1.4) + 2
        rows = 0   # a row of cards would reach the bottom seats: the wild ranks as words
    _wild_rows(canvas, pic.wilds, mx, my, mw, rows, pic.four_colour)


def table_layers(pic: TablePicture) -> list[Layer]:
    """The layers of the table picture (``bot.render.layers``): the title, each seat, the pot and
    the middle (community card and wild list). A seat's key is the seat itself with the wild ranks
    among its up cards; the middle's is the whole picture less its title, seats, pot and table id
    (so a field added to ``TablePicture`` is in it). Raises ``ValueError`` for no seats or more than 8."""
    return _table_layers(pic, parts=False)


def table_parts(pic: TablePicture) -> list[Layer]:
    """``table_layers`` with each seat cut in its five parts (``seat_part_boxes``), each keyed by
    what it shows (``_seat_part_key``): what ``table_png`` puts together. A part is drawn only on
    its own box (its drawings reach beyond it, e.g. the to-act frame), never with ``paint``.
    Raises ``ValueError`` for no seats or more than 8."""
    return _table_layers(pic, parts=True)


def _table_layers(pic: TablePicture, *, parts: bool) -> list[Layer]:
    if not 1 <= len(pic.seats) <= 8:
        raise ValueError(f"a table picture has 1 to 8 seats, got {len(pic.seats)}")
    wild = wild_ranks_of(pic.wilds)
    four = pic.four_colour
    layers = [Layer("title", _TITLE_BOX, pic.title, functools.partial(_title_layer, pic.title))]
    for seat, slot in zip(pic.seats, _LAYOUTS[len(pic.seats)], strict=True):
        seen = frozenset(c.rank for c in seat.up) & wild
        if not parts:
            layers.append(Layer("seat", seat_layer_box(slot), (seat, seen, four),
                                functools.partial(_seat_layer, seat, slot, seen, four)))
            continue
        for part, box in seat_part_boxes(slot).items():
            layers.append(Layer(part, box, _seat_part_key(part, seat, seen, four),
                                functools.partial(_seat_part, part, seat, slot, seen, four)))
    layers.append(Layer("pot", _POT_BOX, pic.pot, functools.partial(_pot_layer, pic.pot)))
    middle = replace(pic, title="", seats=(), pot=0, table=None)
    layers.append(Layer("middle", _MIDDLE_BOX, middle, functools.partial(_middle_layer, middle)))
    return layers


@one_at_a_time
def render_table(pic: TablePicture) -> Image.Image:
    """The table picture as a Pillow image (RGB, ``TABLE_SIZE``), every layer drawn afresh (the
    reference for ``table_png``, which keeps layers).

    Raises ``ValueError`` for no seats or more than 8.
    """
    return paint(_felt(TABLE_SIZE).copy(), table_layers(pic))


@one_at_a_time
def table_image(pic: TablePicture) -> Image.Image:
    """The table picture in the shared palette, put together from cached layers: the same pixels
    as ``render_table`` mapped to the palette."""
    return compose(("felt", TABLE_SIZE), _felt(TABLE_SIZE), table_parts(pic), _palette())


_BOARD_W = 70          # one board: bigger than the seats' cards (it is everyone's hand)
_BOARD_W_WILD = 64     # one board with a line of wild ranks under it, in the middle's box
_BOARDS_W = 48         # two boards (run twice), one above the other in the middle's box
_BOARD_GAP = 6


def _draw_boards(canvas: Image.Image, pic: TablePicture, mx: int, my: int, mw: int,
                 wild: frozenset[Rank]) -> None:
    """A flop game's middle of the felt, under the pot: the board (the places of the cards still to
    come drawn empty), or the two boards of a hand run twice labelled 1 and 2; then, under one
    board, the wild ranks if the dealer made one wild, as one line."""
    boards = pic.boards or ((),)
    two = len(boards) > 1
    width = _BOARDS_W if two else (_BOARD_W_WILD if wild else _BOARD_W)
    height = int(width * 1.4)
    size = max(pic.board_size, *(len(b) for b in boards))
    y = my + 2
    label_w = 34 if two else 0
    row_w = label_w + size * width + (size - 1) * _BOARD_GAP
    draw = ImageDraw.Draw(canvas)
    for number, board in enumerate(boards, 1):
        x = mx + (mw - row_w) / 2
        if two:
            _text(canvas, (x + 8, y + height / 2 - 18), str(number), 30, _TEXT, bold=True)
            x += label_w
        for i in range(size):
            cx = x + i * (width + _BOARD_GAP)
            if i < len(board):
                card = board[i]
                _paste(canvas, card_sprite(card, width, card.rank in wild, pic.four_colour), cx, y)
            else:
                draw.rounded_rectangle((int(cx), y, int(cx) + width, y + height), 8, outline=_FELT_EDGE,
                                       width=3)
        y += height + _BOARD_GAP
    if wild and not two:
        _text(canvas, (mx + mw / 2, y - 2), _fit(_wild_line(pic.wilds), _WILD_TYPE, mw, bold=True),
              _WILD_TYPE, _TEXT, bold=True, anchor="m")


@functools.lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """One 255-colour palette for every picture, built once from sample pictures that hold every
    colour the pictures use (all suits, wild and plain faces, backs, felt, highlights, dimming)."""
    deck = FULL_DECK
    seats = tuple(
        SeatPicture(f"Seat {i} Ag", 1_000 * i, tuple(deck[i * 6 : i * 6 + 4]), 2, folded=i in (2, 5),
                    to_act=i == 3, dealer=i == 0, bet=40, note="all-in" if i == 6 else "")
        for i in range(8)
    )
    twos = WildRank(Rank.TWO, Card(Rank.FIVE, Suit.HEARTS), Card(Rank.TWO, Suit.DIAMONDS))
    jacks = WildRank(Rank.JACK, Card(Rank.FIVE, Suit.CLUBS), Card(Rank.JACK, Suit.SPADES))
    wilds = (WildRank(Rank.FIVE), twos, jacks)
    table = render_table(TablePicture("Sample 0123456789", seats, 1_234, wilds, deck[50]))
    own = (deck[12], deck[1], deck[44], deck[45], deck[30], deck[41], deck[51])
    hand = render_hand(HandPicture("Sample", own, own[2:6], wilds))
    hands = (ShownHand("A", own, 10), ShownHand("B", tuple(deck[:7])))
    shown = render_showdown(ShowdownPicture("Sample", hands, wilds))
    sheet = Image.new("RGB", (TABLE_SIZE[0], table.height + hand.height + shown.height), _BG)
    sheet.paste(table, (0, 0))
    sheet.paste(hand, (0, table.height))
    sheet.paste(shown, (0, table.height + hand.height))
    return sheet.quantize(colors=255, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


@one_at_a_time
def _warm_palette() -> None:
    _palette()


def warm() -> None:
    """Load the fonts, draw the shared palette's sample pictures (about a second), then every card
    face in every size the pictures use, four-colour, plain and wild (about 1.5 s more): call it in
    a thread at start. Without it a bot's first few dozen hands each draw the faces they meet for
    the first time (2 ms each; a DM picture of new faces cost 10 ms rather than 2). The faces are
    drawn outside the pictures' lock, so a click meanwhile is not held up behind them."""
    _warm_palette()
    for width in _FACE_WIDTHS:
        for card in FULL_DECK:
            for wild in (False, True):
                card_sprite(card, width, wild, True)


def _png(img: Image.Image) -> bytes:
    """PNG bytes in the shared palette.

    The pictures are flat colours plus anti-aliased edges: in a 255-colour palette they look the
    same as RGB, the PNG is a third of the size, and mapping to a fixed palette (rather than
    quantizing each picture) keeps it fast.
    """
    return png(to_palette(img, _palette()))


@one_at_a_time
def table_png(pic: TablePicture) -> bytes:
    """The table picture as PNG bytes (``TABLE_SIZE``): ``table_image`` (see ``render_table``)."""
    return compose_png(("felt", TABLE_SIZE), _felt(TABLE_SIZE), table_parts(pic), _palette(), pic.table)


def _wild_alt(wilds: Sequence[WildRank]) -> str:
    parts = [r.plural for r in _fixed_wilds(wilds)]
    for w in _extra_wilds(wilds):
        if w.five and w.card:
            parts.append(f"{w.rank.plural} ({w.five} then {w.card})")
        else:
            parts.append(w.rank.plural)
    return ("Wild: " + ", ".join(parts) + ".") if parts else "No wild cards."


def _cards_alt(cards: Iterable[Card], wild: frozenset[Rank]) -> str:
    return " ".join(f"{c} (wild)" if c.rank in wild else str(c) for c in cards)


_RECENT_ALTS = 8
_recent_alts: tuple[tuple[TablePicture, str], ...] = ()


def table_alt(pic: TablePicture) -> str:
    """Alt text with the picture's facts: title, pot, community card, wild ranks with their cards,
    and each seat (name, dealer, to act, stack, down cards, up cards with wild ones marked, folded,
    note, bet). At most ``ALT_TEXT_LIMIT`` characters (cut with an ellipsis).

    A click asks it twice of the same picture (the table message's gallery, then its upload): the
    last few pictures' texts are kept, each found by the picture itself (``is``: no hashing of the
    picture), so the second is not worked out again."""
    global _recent_alts
    for kept, text in _recent_alts:
        if kept is pic:
            return text
    text = _table_alt(pic)
    _recent_alts = ((pic, text), *_recent_alts[: _RECENT_ALTS - 1])
    return text


def _table_alt(pic: TablePicture) -> str:
    wild = wild_ranks_of(pic.wilds)
    out = [f"{pic.title}. Pot {pic.pot:,}."]
    if pic.community is not None:
        out.append(f"Community card {_cards_alt([pic.community], wild)}.")
    for number, board in enumerate(pic.boards, 1):
        label = "Board" if len(pic.boards) == 1 else f"Board {number}"
        out.append(f"{label} {_cards_alt(board, wild) or 'not dealt yet'}.")
    if pic.wilds or not pic.board_size:
        out.append(_wild_alt(pic.wilds))
    for s in pic.seats:
        blind = _BLIND_ALT.get(s.blind, "")
        tags = [t for t, on in (("dealer", s.dealer), (blind, bool(blind)), ("to act", s.to_act),
                                ("folded", s.folded)) if on]
        text = s.name + (f" ({', '.join(tags)})" if tags else "") + f": {s.stack:,} chips"
        if s.down:
            text += f", {s.down} down"
        if s.up:
            text += f", up {_cards_alt(s.up, wild)}"
        if s.note:
            text += f", {s.note}"
        if s.bet:
            text += f", bet {s.bet:,}"
        out.append(text + ".")
    return _cap(" ".join(out))


_BLIND_ALT = {"SB": "small blind", "BB": "big blind", "straddle": "straddle"}


def _cap(text: str) -> str:
    return text if len(text) <= ALT_TEXT_LIMIT else text[: ALT_TEXT_LIMIT - 1] + "…"


# -- a player's own hand ------------------------------------------------------------------------


def best_of(
    cards: Sequence[Card], wild: frozenset[Rank], wild_in_flush: WildInFlush
) -> tuple[str, HandValue | None]:
    """The best hand these cards make now: ``(description, value)``. With 5 to 7 cards the value
    gives the best five and what each wild stands for; with 1 to 4 it is ``None`` and the
    description is the best group (``three kings``); with none, ``("", None)``."""
    if len(cards) >= 5:
        value = best_value(list(cards), wild, wild_in_flush=wild_in_flush)
        return value.describe(kickers=True), value
    if not cards:
        return "", None
    return showing_value(list(cards), wild, showing_hand="wild-aware").describe(), None


def game_best_of(
    cards: Sequence[Card], wild: frozenset[Rank], wild_in_flush: WildInFlush, ranking: str = "high"
) -> tuple[str, HandValue | None]:
    """``best_of`` in the hand's game: razz (``"low"``) names the ace-to-five low (no high hand
    is framed); stud hi-lo (``"high-low"``) adds the eight-or-better low (``"; no low"``)."""
    named_low = LOW_VALUES.get(ranking)
    if named_low is not None:
        return (named_low(cards).describe() if cards else ""), None
    described, value = best_of(cards, wild, wild_in_flush)
    if ranking == "high-low" and len(cards) >= 5 and value is not None:
        low = eight_or_better(cards)      # the high without kickers, so the low fits the line
        low_text = f"{low.name} ({spell(low.ranks)})" if low is not None else "no low"
        described = f"{value.describe()}; {low_text}"
    return described, value


def flop_best_of(game: Game, hole: Sequence[Card], board: Sequence[Card], wild: frozenset[Rank],
                 wild_in_flush: WildInFlush) -> tuple[str, HandValue | None, frozenset[Card]]:
    """``game_best_of`` in a flop game: from the flop on, the best five as its showdown picks them
    (``bot.engine.values.board.flop_high``) and in hi-lo the low (its cards, the third item); before the
    flop Hold'em's best group of the hole cards (no value), and nothing for Omaha."""
    if len(board) < 3:
        if game.exact_hole:
            return "", None, frozenset()
        return (*best_of(hole, wild, wild_in_flush), frozenset())
    value = flop_high(hole, board, wild, exact_hole=game.exact_hole, wild_in_flush=wild_in_flush)
    if not game.has_low:
        return value.describe(kickers=True), value, frozenset()
    low = flop_low(hole, board, wild, exact_hole=game.exact_hole)
    if low is None:
        return f"{value.describe()}; no low", value, frozenset()
    return f"{value.describe()}; {low.name} ({spell(low.ranks)})", value, frozenset(low.cards)


_HAND_CARD_W = 104
_HAND_STEP = 120
_DISCARD = _SUIT_ON_DARK[Suit.HEARTS]
"""The frame and tag of a card chosen to throw away (a red every picture's palette holds)."""
_BOARD_GAP_HAND = 28
"""The gap between a flop game's hole cards and the board in the player's own picture."""


def _row_step(n: int, card_w: int, step: int, room: int) -> int:
    """The step between ``n`` cards of a row: ``step``, or less (the cards overlap, each corner
    index still showing) when ``n`` cards would not fit in ``room`` px (Baseball's extra cards)."""
    if n <= 1 or (n - 1) * step + card_w <= room:
        return step
    return (room - card_w) // (n - 1)


_LIFT = 14          # how far a card outside the best five sits lower than the others
_TAG_TYPE = 22      # the tags under a card (down, community, what a wild stands for)
_TAG_LINE = 28


@dataclass(frozen=True, slots=True)
class _Cell:
    """One card of a row as drawn: ``role`` is ``plain`` (no best five yet), ``best`` (framed and
    lifted), ``out`` (dimmed, lower) or ``thrown`` (a draw's discard: dimmed, lower, framed in red
    and tagged ``discard``); ``tags`` the lines under it, each with whether it is what a wild stands
    for (bold and bright)."""

    card: Card
    wild: bool
    role: str
    tags: tuple[tuple[str, bool], ...]
    width: int
    four: bool


def _cells(
    cards: Sequence[Card], wild: frozenset[Rank], value: HandValue | None, labels: dict[Card, str],
    card_w: int, four: bool, marked: frozenset[Card] = frozenset(), low: frozenset[Card] = frozenset(),
) -> list[_Cell]:
    """The cards of a row as cells: with ``value``, those in its best five framed and lifted, the
    others dimmed, each wild tagged with what it stands for; ``labels`` adds a tag (``down``);
    ``marked`` cards are a draw's discards (``thrown``); ``low`` the cards of a hi-lo hand's low,
    framed too (they play) and tagged ``low``."""
    best = (set(value.best) if value is not None else set()) | low
    wilds_as = value.wilds_as if value is not None else {}
    out = []
    for c in cards:
        role = "thrown" if c in marked else "plain" if value is None else "best" if c in best else "out"
        tags: list[tuple[str, bool]] = []
        if c in labels:
            tags.append((labels[c], False))
        if c in low:
            tags.append(("low", False))
        if c in wilds_as:
            stands = wilds_as[c]
            tags.append(("as itself" if stands == c else "as " + _card_text(stands), True))
        out.append(_Cell(c, c.rank in wild, role, tuple(tags), card_w, four))
    return out


def _cell_box(cell: _Cell, cx: int, y: int) -> tuple[int, int, int, int]:
    """Where a cell whose card's left is ``cx`` in a row whose top is ``y`` may draw."""
    card_h = int(cell.width * 1.4)
    lines = len(cell.tags) + (cell.role == "thrown")
    bottom = y + _LIFT + card_h + 12 + _TAG_LINE * max(1, lines)
    return (cx - 6, y - 6, cx + cell.width + 6, bottom)


def _draw_cell(cell: _Cell, cx: int, y: int, canvas: Image.Image, ox: int, oy: int) -> None:
    cx, y = cx - ox, y - oy
    card_w, card_h = cell.width, int(cell.width * 1.4)
    cy = y + _LIFT if cell.role in ("out", "thrown") else y
    if cell.role in ("best", "thrown"):
        ImageDraw.Draw(canvas).rounded_rectangle((cx - 5, cy - 5, cx + card_w + 5, cy + card_h + 5), 14,
                                                 outline=_DISCARD if cell.role == "thrown" else _BEST,
                                                 width=4)
    _paste(canvas, card_sprite(cell.card, card_w, cell.wild, cell.four), cx, cy)
    if cell.role in ("out", "thrown"):
        _dim(canvas, (cx, cy, cx + card_w, cy + card_h), 0.6)
    below = cy + card_h + 10
    if cell.role == "thrown":
        _text(canvas, (cx + card_w / 2, below), "discard", 24, _DISCARD, bold=True, anchor="m")
        below += _TAG_LINE
    for j, (tag, stand_in) in enumerate(cell.tags):
        ink = _TEXT if stand_in else _TEXT_DIM
        _text(canvas, (cx + card_w / 2, below + j * _TAG_LINE), tag, _TAG_TYPE, ink, bold=stand_in,
              anchor="m", four_colour=cell.four)


def _row_layers(cells: Sequence[_Cell], x: int, y: int, step: int, bottom: int) -> list[Layer] | None:
    """A row of cells, the first card's left at ``x``, ``step`` px apart: one layer per cell, or
    None when the cells would meet (cards overlapping to fit, a tag wider than its card) or their
    tags reach below ``bottom`` (the next row, the picture's end), to be drawn as a whole."""
    out = []
    for i, cell in enumerate(cells):
        cx = x + i * step
        box = _cell_box(cell, cx, y)
        if ((len(cells) > 1 and step < cell.width + 12) or box[3] > bottom
                or any(_text_width(t, _TAG_TYPE, b) > cell.width + 12 for t, b in cell.tags)):
            return None
        out.append(Layer("card", box, cell, functools.partial(_draw_cell, cell, cx, y)))
    return out


_HEAD_TOP = 58      # the first line under a hand or showdown picture's title
_HEAD_LINE = 38     # each line of 30 px type (legible on a phone)


_TITLE_TOP = 10     # the top of a hand or showdown picture's title (32 px bold)


def _line_box(text: str, size: int, bold: bool, y: int) -> tuple[int, int, int, int]:
    """Where a line of ``text`` whose top is ``y``, 16 px from the left, may draw: ``_text`` puts each
    run of it in a box from ``size // 2`` px above ``y`` to the font's ascent and descent below it
    (and 2 px more), as wide as the run and 2 px; the suits and arrows it draws as shapes lie within."""
    ascent, descent = _text_font(size).getmetrics()
    return (0, max(0, y - size // 2), min(PICTURE_WIDTH, 16 + _text_width(text, size, bold) + 8),
            y + ascent + descent + 2)


def _line_layer(
    text: str, size: int, bold: bool, four: bool, y: int, canvas: Image.Image, ox: int, oy: int
) -> None:
    _text(canvas, (16 - ox, y - oy), text, size, _TEXT, bold=bold, four_colour=four)


def _header_layers(title: str, lines: Sequence[str], four: bool) -> list[Layer]:
    """The title of a hand or showdown picture and each line under it, a layer each: the title drawn
    afresh every time (key ``None``: it names the hand, the street and the player), each line kept by
    its text (the best hand now and the wild ranks repeat from one picture to the next and from
    one player to another). Their boxes meet (a line's room above and below its type) where their
    type does not."""
    fitted = _fit(title, 32, PICTURE_WIDTH - 32, bold=True)
    layers = [Layer("title", _line_box(fitted, 32, True, _TITLE_TOP), None,
                    functools.partial(_line_layer, fitted, 32, True, True, _TITLE_TOP))]
    y = _HEAD_TOP
    for line in lines:
        text = _fit(line, 30, PICTURE_WIDTH - 32)
        layers.append(Layer("line", _line_box(text, 30, False, y), (text, four),
                            functools.partial(_line_layer, text, 30, False, four, y)))
        y += _HEAD_LINE
    return layers


def _wild_line(wilds: Sequence[WildRank]) -> str:
    parts = [r.plural for r in _fixed_wilds(wilds)]
    for w in _extra_wilds(wilds):
        parts.append(f"{w.rank.plural} ({w.five}→{w.card})" if w.five and w.card else w.rank.plural)
    return ("Wild: " + ", ".join(parts)) if parts else "No wild cards"


def _hand_layers(pic: HandPicture) -> tuple[tuple[int, int], list[Layer], bool]:
    """The hand picture's size, its layers (the title and lines, then each card) and whether they
    may be kept (False when its cards overlap to fit: drawn as a whole, never kept).
    Raises ``ValueError`` for more than ``MOST_CARDS`` cards."""
    if len(pic.cards) > MOST_CARDS:
        raise ValueError(f"a stud hand has at most {MOST_CARDS} cards, got {len(pic.cards)}")
    wild = wild_ranks_of(pic.wilds)
    if pic.flop is not None:
        return _flop_hand_layers(pic, pic.flop, wild)
    pool = list(pic.cards) + ([pic.community] if pic.community is not None else [])
    described, value = game_best_of(pool, wild, pic.wild_in_flush, pic.ranking)
    lines = pic.lines or (f"Best now: {described}" if described else "No cards yet", _wild_line(pic.wilds))
    marked = frozenset(pic.discards) & frozenset(pic.cards)
    if marked:
        value = None           # the choice is the news: no best five framed beside it
    n = len(pool)
    step = _row_step(n, _HAND_CARD_W, _HAND_STEP, PICTURE_WIDTH - 32)
    height = _HEAD_TOP + _HEAD_LINE * len(lines) + 20 + int(_HAND_CARD_W * 1.4) + 14 + 70
    y = _HEAD_TOP + _HEAD_LINE * len(lines) + 16
    layers = _header_layers(pic.title, lines, pic.four_colour)
    up = set(pic.up)
    # "down" tells a stud hand's down cards from its up cards; a draw hand is all down cards.
    labels = {c: "down" for c in pic.cards if c not in up} if up else {}
    labels.update((c, "new") for c in pic.new if c in pic.cards)
    if pic.community is not None:
        labels[pic.community] = "community"
    x = (PICTURE_WIDTH - ((n - 1) * step + _HAND_CARD_W)) // 2 if n else 0
    cells = _cells(pool, wild, value, labels, _HAND_CARD_W, pic.four_colour, marked)
    row = _row_layers(cells, x, y, step, height)
    if row is not None:
        return (PICTURE_WIDTH, height), layers + row, True
    whole = [Layer("card", (0, 0, PICTURE_WIDTH, height), None,
                   functools.partial(_draw_cell, c, x + i * step, y)) for i, c in enumerate(cells)]
    return (PICTURE_WIDTH, height), [*layers, *whole], False


def _flop_hand_layers(pic: HandPicture, game: Game, wild: frozenset[Rank]
                      ) -> tuple[tuple[int, int], list[Layer], bool]:
    """``_hand_layers`` in a flop game: the hole cards, a gap, then the board tagged ``board``, the
    best five framed and lifted across both (what each wild stands for under it); hi-lo gives the
    high and the low a line each."""
    described, value, low = flop_best_of(game, pic.cards, pic.board, wild, pic.wild_in_flush)
    lines = [f"Best now: {described}" if described else "Best now: after the flop"]
    if game.has_low and "; " in described:        # hi-lo: the high and the low one line each
        high, low_text = described.split("; ", 1)
        lines = [f"High: {high}", f"Low: {low_text}"]
    if pic.wilds:
        lines.append(_wild_line(pic.wilds))
    n = len(pic.cards) + len(pic.board)
    gap = _BOARD_GAP_HAND if pic.board else 0
    step = _row_step(n, _HAND_CARD_W, _HAND_STEP, PICTURE_WIDTH - 32 - gap)
    height = _HEAD_TOP + _HEAD_LINE * len(lines) + 20 + int(_HAND_CARD_W * 1.4) + 14 + 70
    y = _HEAD_TOP + _HEAD_LINE * len(lines) + 16
    layers = _header_layers(pic.title, lines, pic.four_colour)
    x = (PICTURE_WIDTH - ((n - 1) * step + _HAND_CARD_W + gap)) // 2 if n else 0
    bx = x + len(pic.cards) * step + gap
    hole = _cells(pic.cards, wild, value, {}, _HAND_CARD_W, pic.four_colour, low=low)
    board = _cells(pic.board, wild, value, dict.fromkeys(pic.board, "board"), _HAND_CARD_W, pic.four_colour,
                   low=low)
    rows = (_row_layers(hole, x, y, step, height), _row_layers(board, bx, y, step, height))
    if rows[0] is not None and rows[1] is not None:
        return (PICTURE_WIDTH, height), layers + rows[0] + rows[1], True
    placed = [(c, x + i * step) for i, c in enumerate(hole)]
    placed += [(c, bx + i * step) for i, c in enumerate(board)]
    whole = [Layer("card", (0, 0, PICTURE_WIDTH, height), None, functools.partial(_draw_cell, c, cx, y))
             for c, cx in placed]
    return (PICTURE_WIDTH, height), [*layers, *whole], False


@one_at_a_time
def render_hand(pic: HandPicture) -> Image.Image:
    """A player's own hand (RGB, ``PICTURE_WIDTH`` wide): title, best hand now, wild ranks, then
    the cards in the order dealt with down cards tagged ``down``, the best five framed and lifted,
    and each wild's stand-in under it; Baseball's extra cards (up to ``MOST_CARDS``) overlap to fit.
    Every layer drawn afresh (the reference for ``hand_png``).
    Raises ``ValueError`` for more than ``MOST_CARDS`` cards."""
    size, layers, _ = _hand_layers(pic)
    return paint(Image.new("RGB", size, _BG), layers)


@one_at_a_time
def hand_png(pic: HandPicture) -> bytes:
    """A player's own hand as PNG bytes (send it to that player only); see ``render_hand``. The
    title and lines drawn now (new at every DM), each card pasted from the kept parts
    (``bot.render.plain``: kept by what it shows alone, a card, its place in the best five and its
    tags), or the whole drawn afresh where cards overlap to fit."""
    size, layers, keep = _hand_layers(pic)
    if not keep:
        return _png(paint(Image.new("RGB", size, _BG), layers))
    return compose_parts_png(_BG, size, layers, _palette())


def _value_alt(value: HandValue) -> str:
    text = "best five " + " ".join(str(c) for c in value.best)
    if value.wilds_as:
        text += " (" + ", ".join(
            f"{w} as itself" if s == w else f"{w} as {s}" for w, s in value.wilds_as.items()
        ) + ")"
    return text


def hand_alt(pic: HandPicture) -> str:
    """Alt text for ``hand_png``: the cards in order with down cards marked, the community card,
    the best hand, the best five with each wild's stand-in, and the wild ranks."""
    wild = wild_ranks_of(pic.wilds)
    if pic.flop is not None:
        described, value, _low = flop_best_of(pic.flop, pic.cards, pic.board, wild, pic.wild_in_flush)
        out = [f"{pic.title}. Your cards: {' '.join(str(c) for c in pic.cards) or 'none'}."]
        if pic.board:
            out.append(f"Board {_cards_alt(pic.board, wild)}.")
        if described:
            shown = f"; {_value_alt(value)}" if value is not None else ""
            out.append(f"Best now: {described}{shown}.")
        if pic.wilds:
            out.append(_wild_alt(pic.wilds))
        return _cap(" ".join(out))
    up = set(pic.up)
    pool = list(pic.cards) + ([pic.community] if pic.community is not None else [])
    described, value = game_best_of(pool, wild, pic.wild_in_flush, pic.ranking)
    cards = " ".join(f"{c} (down)" if c not in up and up else str(c) for c in pic.cards)
    out = [f"{pic.title}. Your cards: {cards or 'none'}."]
    if pic.discards:
        out.append(f"Chosen to discard: {' '.join(str(c) for c in pic.discards)}.")
    if pic.community is not None:
        out.append(f"Community card {pic.community}.")
    if described:
        out.append(f"Best now: {described}" + (f"; {_value_alt(value)}" if value is not None else "") + ".")
    out.append(_wild_alt(pic.wilds))
    return _cap(" ".join(out))


# -- the showdown -------------------------------------------------------------------------------

_SD_CARD_W = 84
_FACE_WIDTHS = (_CARD_W, _MINI_W, _BOARD_W, _BOARD_W_WILD, _BOARDS_W, _HAND_CARD_W, _SD_CARD_W)
"""Every width a card face is drawn at (``warm`` draws them all at start)."""
_SD_STEP = 96
_SD_ROW_H = 44 + int(_SD_CARD_W * 1.4) + 14 + 62


def _showdown_values(pic: ShowdownPicture) -> list[tuple[str, HandValue | None]]:
    wild = wild_ranks_of(pic.wilds)
    extra = [pic.community] if pic.community is not None else []
    return [game_best_of(list(h.cards) + extra, wild, pic.wild_in_flush, pic.ranking) for h in pic.hands]


def _showdown_layers(pic: ShowdownPicture) -> tuple[tuple[int, int], list[Layer], bool]:
    """The showdown picture's size, its layers (title and lines; per hand its frame if it won, its
    line, its cards) and whether they may be kept. Raises ``ValueError`` for no hands or more
    than 8."""
    if not 1 <= len(pic.hands) <= 8:
        raise ValueError(f"a showdown picture has 1 to 8 hands, got {len(pic.hands)}")
    wild = wild_ranks_of(pic.wilds)
    lines: tuple[str, ...] = (_wild_line(pic.wilds),)
    if pic.community is not None:
        lines += (f"Community card {pic.community} (everyone's seventh card)",)
    top = _HEAD_TOP + _HEAD_LINE * len(lines) + 8
    size = (PICTURE_WIDTH, top + _SD_ROW_H * len(pic.hands))
    layers = _header_layers(pic.title, lines, pic.four_colour)
    extra = [pic.community] if pic.community is not None else []
    keep = True
    for i, (hand, (described, value)) in enumerate(zip(pic.hands, _showdown_values(pic), strict=True)):
        y = top + i * _SD_ROW_H
        if hand.won:
            layers.append(Layer("won", (6, y, PICTURE_WIDTH - 5, y + _SD_ROW_H - 7), "gold frame",
                                functools.partial(_won_layer, y)))
        said = (f"{hand.name}: {described}" if described else hand.name,
                f"wins {hand.won:,}" if hand.won else "")
        layers.append(Layer("hand", (16, y + 8, PICTURE_WIDTH - 16, y + 45), None,     # new every time
                            functools.partial(_shown_line, *said, y)))
        pool = list(hand.cards) + extra
        labels = {c: "community" for c in extra}
        step = _row_step(len(pool), _SD_CARD_W, _SD_STEP, PICTURE_WIDTH - 48)
        cells = _cells(pool, wild, value, labels, _SD_CARD_W, pic.four_colour)
        row = _row_layers(cells, 24, y + 50, step, y + _SD_ROW_H)
        if row is None:
            keep = False
            row = [Layer("card", (0, y, PICTURE_WIDTH, size[1]), None,
                         functools.partial(_draw_cell, c, 24 + j * step, y + 50))
                   for j, c in enumerate(cells)]
        layers.extend(row)
    return size, layers, keep


def _won_layer(y: int, canvas: Image.Image, ox: int, oy: int) -> None:
    """The gold frame of a winning hand's row."""
    y -= oy
    ImageDraw.Draw(canvas).rounded_rectangle((6 - ox, y, PICTURE_WIDTH - 6 - ox, y + _SD_ROW_H - 8), 12,
                                             outline=_WIN, width=4)


def _shown_line(head: str, won: str, y: int, canvas: Image.Image, ox: int, oy: int) -> None:
    """A shown hand's line: who, what hand, and what it won."""
    won_w = _text_width(won, 26, True) if won else 0
    fitted = _fit(head, 26, PICTURE_WIDTH - 60 - won_w, bold=True)   # measured as drawn: bold
    _text(canvas, (20 - ox, y + 10 - oy), fitted, 26, _TEXT, bold=True)
    if won:
        _text(canvas, (PICTURE_WIDTH - 20 - ox, y + 10 - oy), won, 26, _WIN, bold=True, anchor="r")


@one_at_a_time
def render_showdown(pic: ShowdownPicture) -> Image.Image:
    """The showdown (RGB, ``PICTURE_WIDTH`` wide): title and wild ranks, then one row per shown
    hand: name, hand, chips won (winners framed in gold), the cards with the best five framed and
    each wild's stand-in under it. Every layer drawn afresh (the reference for ``showdown_png``).
    Raises ``ValueError`` for no hands or more than 8."""
    size, layers, _ = _showdown_layers(pic)
    return paint(Image.new("RGB", size, _BG), layers)


@one_at_a_time
def showdown_png(pic: ShowdownPicture) -> bytes:
    """The showdown as PNG bytes; see ``render_showdown``. The title and each hand's line drawn
    now, a winner's frame and each card pasted from the kept parts (as in ``hand_png``), or the
    whole drawn afresh where cards overlap to fit."""
    size, layers, keep = _showdown_layers(pic)
    if not keep:
        return _png(paint(Image.new("RGB", size, _BG), layers))
    return compose_parts_png(_BG, size, layers, _palette())


def showdown_alt(pic: ShowdownPicture) -> str:
    """Alt text for ``showdown_png``: the wild ranks, the community card, and for each hand its
    cards, its value with the best five and each wild's stand-in, and what it won."""
    out = [f"{pic.title}.", _wild_alt(pic.wilds)]
    if pic.community is not None:
        out.append(f"Community card {pic.community}.")
    for hand, (described, value) in zip(pic.hands, _showdown_values(pic), strict=True):
        text = f"{hand.name}: {' '.join(str(c) for c in hand.cards)}"
        if described:
            text += f", {described}"
        if value is not None:
            text += f"; {_value_alt(value)}"
        text += f"; wins {hand.won:,}." if hand.won else "."
        out.append(text)
    return _cap(" ".join(out))
