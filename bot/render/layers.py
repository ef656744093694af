"""Pictures put together from cached layers, kept in one shared palette, written as PNG quickly.

A picture is a **base** (the felt and rail of the table, drawn once per size) and **layers**: each
a fixed box of the picture, a key that holds everything the layer shows, and a function that draws
it. ``paint`` draws the layers straight onto an RGB canvas (the reference look); ``compose`` gives
the same picture in the palette, each layer drawn once per key onto its box of the base, mapped to
the palette and kept (``TILE_BUDGET``), so a picture where one seat changed costs one seat's
drawing and a few pastes. The palette mapping is per pixel (no dithering), so a layer mapped on
its own is the same as the whole picture mapped at once: ``compose`` and ``paint`` then mapping
give the same pixels (the tests check it).

Rules for a layer (the tests check them on many pictures): its box holds every pixel it draws,
boxes of one picture never overlap, and its key holds everything its drawing reads (a frozen
dataclass of the snapshot, or a tuple of them). A cache hit can then only return what the same
drawing would give: two pictures share a layer only when it shows the same thing, whoever looks.

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

from isal import isal_zlib
from PIL import Image

Box = tuple[int, int, int, int]
"""``(left, top, right, bottom)`` px of a picture, right and bottom excluded."""

Draw = Callable[[Image.Image, int, int], None]
"""Draws a layer on an RGB canvas whose top-left pixel is ``(x, y)`` of the picture: the layer's
coordinates are the picture's, shifted by ``(-x, -y)``."""

TILE_BUDGET = 48 * 1024 * 1024
"""Bytes of layers kept (palette pixels, one byte each): about 1,000 seats of the table picture.
The least recently used go first; a layer not kept is drawn again when next shown."""

PNG_LEVEL = 1
"""ISA-L's deflate level (0 to 3): 1 is as fast as 0 and a tenth smaller (see
``benchmarks/bench_pictures.py``)."""


@dataclass(frozen=True, slots=True)
class Layer:
    """One part of a picture: ``name`` (what kind: ``seat``, ``title``...), ``box`` where it lies,
    ``key`` what it shows (hashable, everything ``draw`` reads), and ``draw`` (see ``Draw``)."""

    name: str
    box: Box
    key: Hashable
    draw: Draw


class _Tiles:
    """The drawn layers, in the palette, least recently used first; safe across threads."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.used = 0
        self._tiles: OrderedDict[Hashable, Image.Image] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Image.Image | None:
        with self._lock:
            tile = self._tiles.get(key)
            if tile is not None:
                self._tiles.move_to_end(key)
            return tile

    def put(self, key: Hashable, tile: Image.Image) -> None:
        size = tile.width * tile.height * len(tile.getbands())
        with self._lock:
            if key in self._tiles:
                return
            self._tiles[key] = tile
            self.used += size
            while self.used > self.budget and self._tiles:
                _, old = self._tiles.popitem(last=False)
                self.used -= old.width * old.height * len(old.getbands())

    def clear(self) -> None:
        with self._lock:
            self._tiles.clear()
            self.used = 0


TILES = _Tiles(TILE_BUDGET)
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
    p_key = ("base", base_key)
    canvas = TILES.get(p_key)
    if canvas is None:
        canvas = to_palette(base, palette)
        TILES.put(p_key, canvas)
    canvas = canvas.copy()
    for layer in layers:
        key = (layer.name, layer.box, base_key, layer.key)
        tile = TILES.get(key)
        if tile is None:
            region = base.crop(layer.box)
            layer.draw(region, layer.box[0], layer.box[1])
            tile = to_palette(region, palette)
            TILES.put(key, tile)
        canvas.paste(tile, layer.box[:2])
    return canvas


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png(img: Image.Image) -> bytes:
    """A palette (``P``) image as PNG bytes: 8-bit indexes, every row unfiltered, ISA-L deflate."""
    if img.mode != "P":
        raise ValueError(f"png takes a palette image, got mode {img.mode}")
    width, height = img.size
    # One column more on the left, all zeros: each row then starts with its filter type, 0 (none).
    framed = Image.new("P", (width + 1, height), 0)
    framed.paste(img, (1, 0))
    rows = framed.tobytes()
    palette = img.getpalette() or []
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join((
        _SIGNATURE,
        _chunk(b"IHDR", header),
        _chunk(b"PLTE", bytes(palette[: 3 * 256])),
        _chunk(b"IDAT", isal_zlib.compress(rows, PNG_LEVEL)),
        _chunk(b"IEND", b""),
    ))
