"""Pictures put together from cached layers, kept in one shared palette, written as PNG quickly.

A picture is a **base** (the felt and rail of the table, drawn once per size; or a plain colour)
and **layers**: each a fixed box of the picture, a key that holds everything the layer shows, and a
function that draws it. ``paint`` draws the layers straight onto an RGB canvas (the reference
look); ``compose`` gives the same picture in the palette, each layer drawn once per key onto its
box of the base, mapped to the palette and kept (``HOT_BUDGET``, ``COLD_BUDGET``), so a picture where one seat
changed costs one seat's drawing and a few pastes. The palette mapping is per pixel (no
dithering), so a layer mapped on its own is the same as the whole picture mapped at once:
``compose`` and ``paint`` then mapping give the same pixels (the tests check it).

On a plain colour (``compose_plain``: the hand and showdown pictures) a layer is kept by what it
shows and its size wherever it lies (a card of a row, the same in any column), and only its drawn
pixels (those not of the background colour) are pasted, so boxes may overlap where drawn pixels do
not (a winner's frame around its row of cards).

Rules for a layer (the tests check them on many pictures): its box holds every pixel it draws;
boxes of one picture never overlap (on a plain colour: their drawn pixels never do); its drawing
on a plain colour is the same wherever its box lies; and its key holds everything its drawing reads
(a frozen dataclass of the snapshot, or a tuple of them). A cache hit can then only return what the
same drawing would give for the same key: a layer is shared only where it shows the same thing,
and it is a function of its key alone (no name, no seat, no viewer), so nothing of one picture can
reach another that does not show it itself.

Pictures are drawn one at a time (``one_at_a_time``, a lock around each public drawing function):
callers may draw from any thread (the presenter draws off the event loop), while the caches and
FreeType's faces are never used by two threads at once.

``png`` writes a palette image as PNG with rows unfiltered (the palette's best filter) and
compressed by ISA-L's deflate (``isal``, several times faster than zlib at a smaller size).
"""

from __future__ import annotations

import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import wraps
from typing import ParamSpec, TypeVar

from isal import isal_zlib
from PIL import Image

Box = tuple[int, int, int, int]
"""``(left, top, right, bottom)`` px of a picture, right and bottom excluded."""

Draw = Callable[[Image.Image, int, int], None]
"""Draws a layer on an RGB canvas whose top-left pixel is ``(x, y)`` of the picture: the layer's
coordinates are the picture's, shifted by ``(-x, -y)``."""

HOT_BUDGET = 16 * 1024 * 1024
"""Bytes of layers kept as images (palette pixels, one byte each): about 300 seats of the table
picture. The least recently used are then kept deflated (``COLD_BUDGET``)."""

COLD_BUDGET = 64 * 1024 * 1024
"""Bytes of layers kept deflated (about 40 KB for all the layers of an 8-seat table: some 1,500
such tables); past it the least recently used go, and a layer not kept is drawn again when next
shown. Tables taken in turn beyond it would lose every layer before their next click (the least
recently used is always the next needed), so it holds a thousand busy tables with room to spare."""

PNG_LEVEL = 1
"""ISA-L's deflate level (0 to 3): 1 is as fast as 0 and a tenth smaller (see
``benchmarks/bench_pictures.py``)."""


_P = ParamSpec("_P")
_R = TypeVar("_R")
_DRAWING = threading.RLock()


def one_at_a_time(fn: Callable[_P, _R]) -> Callable[_P, _R]:
    """``fn`` run under the lock of all drawing (see the module docstring)."""

    @wraps(fn)
    def locked(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        with _DRAWING:
            return fn(*args, **kwargs)

    return locked


@dataclass(frozen=True, slots=True)
class Layer:
    """One part of a picture: ``name`` (what kind: ``seat``, ``title``...), ``box`` where it lies,
    ``key`` what it shows (hashable, everything ``draw`` reads), and ``draw`` (see ``Draw``)."""

    name: str
    box: Box
    key: Hashable
    draw: Draw


Tile = tuple[Image.Image, Image.Image | None]
"""A drawn layer in the palette and, on a plain colour, the mask of its drawn pixels."""

_Packed = tuple[tuple[str, tuple[int, int], bytes], ...]


def _bytes(tile: Tile) -> int:
    return sum(img.width * img.height * len(img.getbands()) for img in tile if img is not None)


def _pack(tile: Tile) -> _Packed:
    return tuple((img.mode, img.size, isal_zlib.compress(img.tobytes(), 0))
                 for img in tile if img is not None)


def _unpack(packed: _Packed, palette: bytes) -> Tile:
    images = [Image.frombytes(mode, size, isal_zlib.decompress(data)) for mode, size, data in packed]
    images[0].putpalette(palette)
    return (images[0], images[1] if len(images) > 1 else None)


class _Tiles:
    """The drawn layers, least recently used first, safe across threads: the ``hot`` budget's worth
    as images, then the ``cold`` budget's worth deflated (a tenth of the size; 0.05 ms to open), so
    a thousand tables' seats stay kept while only the busiest take their full size."""

    def __init__(self, hot: int, cold: int) -> None:
        self.hot_budget, self.cold_budget = hot, cold
        self.hot_used = self.cold_used = 0
        self._hot: OrderedDict[Hashable, Tile] = OrderedDict()
        self._cold: OrderedDict[Hashable, tuple[_Packed, bytes]] = OrderedDict()
        self._palettes: dict[bytes, bytes] = {}     # one copy of each palette for all cold tiles
        self._lock = threading.Lock()

    @property
    def used(self) -> int:
        """Bytes kept, hot and cold."""
        return self.hot_used + self.cold_used

    def get(self, key: Hashable) -> Tile | None:
        with self._lock:
            tile = self._hot.get(key)
            if tile is not None:
                self._hot.move_to_end(key)
                return tile
            cold = self._cold.pop(key, None)
            if cold is None:
                return None
            self.cold_used -= sum(len(part[2]) for part in cold[0])
            tile = _unpack(*cold)
            self._keep(key, tile)
            return tile

    def put(self, key: Hashable, tile: Tile) -> None:
        with self._lock:
            if key not in self._hot and key not in self._cold:
                self._keep(key, tile)

    def _keep(self, key: Hashable, tile: Tile) -> None:
        self._hot[key] = tile
        self.hot_used += _bytes(tile)
        while self.hot_used > self.hot_budget and self._hot:
            old_key, old = self._hot.popitem(last=False)
            self.hot_used -= _bytes(old)
            packed = _pack(old)
            palette = bytes(old[0].getpalette() or [])
            self._cold[old_key] = (packed, self._palettes.setdefault(palette, palette))
            self.cold_used += sum(len(part[2]) for part in packed)
        while self.cold_used > self.cold_budget and self._cold:
            _, (gone, _) = self._cold.popitem(last=False)
            self.cold_used -= sum(len(part[2]) for part in gone)

    def clear(self) -> None:
        with self._lock:
            self._hot.clear()
            self._cold.clear()
            self.hot_used = self.cold_used = 0


TILES = _Tiles(HOT_BUDGET, COLD_BUDGET)
"""Every picture's layers (``compose``)."""


def to_palette(img: Image.Image, palette: Image.Image) -> Image.Image:
    """``img`` (RGB) in ``palette``, each pixel its nearest colour (no dithering)."""
    return img.quantize(palette=palette, dither=Image.Dither.NONE)


def paint(canvas: Image.Image, layers: Sequence[Layer]) -> Image.Image:
    """Draw ``layers`` straight onto ``canvas`` (RGB, changed in place and returned)."""
    for layer in layers:
        layer.draw(canvas, 0, 0)
    return canvas


def compose(
    base_key: Hashable, base: Image.Image, layers: Sequence[Layer], palette: Image.Image
) -> Image.Image:
    """The picture of ``base`` (RGB, not changed; ``base_key`` names it) with ``layers``, in
    ``palette``: each layer's box is drawn on a copy of the base there, mapped to the palette and
    kept under its key; the same as ``to_palette(paint(base.copy(), layers), palette)``."""
    return _unframed(_compose(base_key, base, layers, palette), palette)


def compose_png(
    base_key: Hashable, base: Image.Image, layers: Sequence[Layer], palette: Image.Image
) -> bytes:
    """``png(compose(base_key, base, layers, palette))``, put together straight in PNG rows."""
    return _png_rows(_compose(base_key, base, layers, palette), palette)


def _compose(
    base_key: Hashable, base: Image.Image, layers: Sequence[Layer], palette: Image.Image
) -> Image.Image:
    """``compose`` as PNG rows (``_framed``)."""
    p_key = ("base", base_key)
    kept = TILES.get(p_key)
    if kept is None:
        kept = (_framed(to_palette(base, palette)), None)
        TILES.put(p_key, kept)
    canvas = kept[0].copy()
    paste = canvas.im.paste
    for layer in layers:
        key = (layer.name, layer.box, base_key, layer.key)
        tile = TILES.get(key)
        if tile is None:
            region = base.crop(layer.box)
            layer.draw(region, layer.box[0], layer.box[1])
            tile = (to_palette(region, palette), None)
            TILES.put(key, tile)
        left, top, right, bottom = layer.box
        paste(tile[0].im, (left + 1, top, right + 1, bottom))
    return canvas


_BACKGROUNDS: dict[tuple[tuple[int, int, int], bytes], tuple[int, bytes]] = {}


def _background(colour: tuple[int, int, int], palette: Image.Image) -> tuple[int, bytes]:
    """The palette index of ``colour`` and a table (``bytes.translate``) that sends it to 0 and
    every other index to 255: the mask of a layer's drawn pixels."""
    key = (colour, _palette_bytes(palette))
    kept = _BACKGROUNDS.get(key)
    if kept is None:
        index = to_palette(Image.new("RGB", (1, 1), colour), palette).getpixel((0, 0))
        assert isinstance(index, int)
        kept = _BACKGROUNDS[key] = (index, bytes(0 if i == index else 255 for i in range(256)))
    return kept


def compose_plain(
    colour: tuple[int, int, int], size: tuple[int, int], layers: Sequence[Layer], palette: Image.Image
) -> Image.Image:
    """The picture of ``layers`` on a plain ``colour`` of ``size``, in ``palette``: each layer is
    drawn once per key and size on that colour and kept with the mask of its drawn pixels, which
    alone are pasted; the same as ``to_palette(paint(Image.new("RGB", size, colour), layers),
    palette)`` when drawn pixels of different layers never meet."""
    return _unframed(_compose_plain(colour, size, layers, palette), palette)


def compose_plain_png(
    colour: tuple[int, int, int], size: tuple[int, int], layers: Sequence[Layer], palette: Image.Image
) -> bytes:
    """``png(compose_plain(colour, size, layers, palette))``, put together straight in PNG rows."""
    return _png_rows(_compose_plain(colour, size, layers, palette), palette)


def _compose_plain(
    colour: tuple[int, int, int], size: tuple[int, int], layers: Sequence[Layer], palette: Image.Image
) -> Image.Image:
    """``compose_plain`` as PNG rows (``_framed``)."""
    background, drawn = _background(colour, palette)
    canvas = Image.new("P", (size[0] + 1, size[1]), background)
    canvas.paste(0, (0, 0, 1, size[1]))
    paste = canvas.im.paste
    for layer in layers:
        left, top, right, bottom = layer.box
        key = (layer.name, (right - left, bottom - top), ("plain", colour), layer.key)
        tile = TILES.get(key)
        if tile is None:
            region = Image.new("RGB", (right - left, bottom - top), colour)
            layer.draw(region, left, top)
            indexes = to_palette(region, palette)
            tile = (indexes, Image.frombytes("L", indexes.size, indexes.tobytes().translate(drawn)))
            TILES.put(key, tile)
        assert tile[1] is not None
        paste(tile[0].im, (left + 1, top, right + 1, bottom), tile[1].im)
    return canvas


def _framed(img: Image.Image) -> Image.Image:
    """A palette image with one column more on the left, all zeros: its bytes are then PNG rows,
    each starting with its filter type, 0 (none)."""
    framed = Image.new("P", (img.width + 1, img.height), 0)
    framed.paste(img, (1, 0))
    return framed


def _unframed(framed: Image.Image, palette: Image.Image) -> Image.Image:
    """The picture in ``framed`` (``_framed``), in ``palette``."""
    img = framed.crop((1, 0, framed.width, framed.height))
    img.putpalette(_palette_bytes(palette))
    return img


_PALETTES: dict[int, tuple[Image.Image, bytes]] = {}


def _palette_bytes(palette: Image.Image) -> bytes:
    """The RGB bytes of ``palette``'s colours, read once per palette image (each kept alive with
    its bytes, so its id is never another's: a handful, the shared palette and the tests')."""
    kept = _PALETTES.get(id(palette))
    if kept is None or kept[0] is not palette:
        kept = _PALETTES[id(palette)] = (palette, bytes(palette.getpalette() or []))
    return kept[1]


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png(img: Image.Image) -> bytes:
    """A palette (``P``) image as PNG bytes: 8-bit indexes, every row unfiltered, ISA-L deflate."""
    if img.mode != "P":
        raise ValueError(f"png takes a palette image, got mode {img.mode}")
    return _png_rows(_framed(img), img)


def _png_rows(framed: Image.Image, palette: Image.Image) -> bytes:
    """The PNG of a framed picture (``_framed``) with the colours of ``palette``."""
    header = struct.pack(">IIBBBBB", framed.width - 1, framed.height, 8, 3, 0, 0, 0)
    return b"".join((
        _SIGNATURE,
        _chunk(b"IHDR", header),
        _chunk(b"PLTE", _palette_bytes(palette)[: 3 * 256]),
        _chunk(b"IDAT", isal_zlib.compress(framed.tobytes(), PNG_LEVEL)),
        _chunk(b"IEND", b""),
    ))
