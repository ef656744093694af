"""Card sprites for the pictures: colours, the font, suit and star shapes, text with drawn suits.

``card_sprite`` (a face, gold when wild) and ``card_back`` draw one card, supersampled and cached
(``functools.lru_cache``); ``_text`` writes a line in which ``♣ ♦ ♥ ♠`` and ``→`` are drawn as
shapes, since the font Pillow ships (Aileron) has no such glyphs. The layouts that place them are
in ``bot.render.pictures``. Raises ``RuntimeError`` on first use if Pillow has no FreeType.
"""

from __future__ import annotations

import functools

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
_SUIT_OF_SYMBOL = {s.symbol: s for s in Suit}

_SS = 3  # supersampling factor for sprites (drawn large once, then scaled down smoothly)


# -- fonts and shapes ---------------------------------------------------------------------------


@functools.lru_cache(maxsize=64)
def _font(size: int) -> ImageFont.FreeTypeFont:
    font = ImageFont.load_default(size=size)
    if not isinstance(font, ImageFont.FreeTypeFont):
        raise RuntimeError("card pictures need Pillow >= 10.1 built with FreeType (no scalable font)")
    return font


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


@functools.lru_cache(maxsize=4096)
def _run_width(run: str, size: int) -> float:
    return _font(size).getlength(run) if run else 0.0


@functools.lru_cache(maxsize=4096)
def _text_mask(run: str, size: int, bold: bool) -> Image.Image:
    """A run of plain text as an ``L`` mask, origin at its top-left; cached, since names, stacks
    and labels repeat from one picture of a table to the next (FreeType is most of the cost)."""
    font = _font(size)
    stroke = max(1, size // 22) if bold else 0
    _, _, right, bottom = font.getbbox(run, stroke_width=stroke)
    mask = Image.new("L", (max(1, int(right) + stroke + 1), max(1, int(bottom) + stroke + 1)), 0)
    ImageDraw.Draw(mask).text((0, 0), run, font=font, fill=255, stroke_width=stroke, stroke_fill=255)
    return mask


@functools.lru_cache(maxsize=4096)
def _text_width(text: str, size: int) -> int:
    """Width in px of ``text`` as ``_text`` draws it (suits and arrows as shapes)."""
    width = 0.0
    run = ""
    for ch in text:
        if ch in _SUIT_OF_SYMBOL or ch == "→":
            width += _run_width(run, size) + _glyph_w(ch, size)
            run = ""
        else:
            run += ch
    return int(width + _run_width(run, size))


def _glyph_w(ch: str, size: int) -> int:
    return int(size * 0.78) if ch in _SUIT_OF_SYMBOL else int(size * 1.0)


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
) -> int:
    """Draw one line of text with its top at ``xy[1]``; ``anchor`` ``l``/``m``/``r`` for the x.

    Suit symbols and ``→`` are drawn as shapes (suits in their colour for a card face or a dark
    background). Returns the width drawn.
    """
    width = _text_width(text, size)
    x, y = xy
    if anchor == "m":
        x -= width / 2
    elif anchor == "r":
        x -= width
    suits = _SUIT_ON_FACE if on_face else _SUIT_ON_DARK
    run = ""

    def flush(px: float) -> float:
        if run:
            img.paste(fill, (int(px), int(y)), _text_mask(run, size, bold))
            return px + _run_width(run, size)
        return px

    for ch in text:
        if ch in _SUIT_OF_SYMBOL or ch == "→":
            x = flush(x)
            run = ""
            g = _glyph_w(ch, size)
            if ch == "→":
                img.paste(fill, (int(x), int(y + size * 0.08)), _arrow_mask(g))
            else:
                suit = _SUIT_OF_SYMBOL[ch]
                gs = int(size * 0.66)
                img.paste(suits[suit], (int(x + (g - gs) / 2), int(y + size * 0.22)), _suit_mask(suit, gs))
            x += g
        else:
            run += ch
    flush(x)
    return width


def _fit(text: str, size: int, width: int) -> str:
    """``text`` cut with an ellipsis so it fits ``width`` px."""
    if _text_width(text, size) <= width:
        return text
    while text and _text_width(text + "…", size) > width:
        text = text[:-1]
    return text + "…"


# -- card sprites -------------------------------------------------------------------------------


def _rank_label(rank: Rank) -> str:
    return "10" if rank is Rank.TEN else rank.char


@functools.lru_cache(maxsize=1024)
def card_sprite(card: Card, width: int, wild: bool = False) -> Image.Image:
    """One card face (RGBA), ``width`` px wide and 1.4 x as tall; cached.

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
    colour = _SUIT_ON_FACE[card.suit]
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
