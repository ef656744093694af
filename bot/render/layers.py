"""Pictures put together from cached layers, kept in one shared palette, written as PNG quickly.

A picture is a **base** (the felt and rail of the table, drawn once per size; or a plain colour)
and **layers**: each a fixed box of the picture, a key that holds everything the layer shows, and a
function that draws it. ``paint`` draws the layers straight onto an RGB canvas (the reference
look); ``compose`` gives the same picture in the palette, each layer drawn once per key onto its
box of the base, mapped to the palette and kept (``TILE_BUDGET``), so a picture where one seat
changed costs that seat's drawing and a few pastes. The palette mapping is per pixel (no
dithering), so a layer mapped on its own is the same as the whole picture mapped at once:
``compose`` and ``paint`` then mapping give the same pixels (the tests check it).

On a plain colour (``bot.render.plain``: the hand and showdown pictures, with their own cache) a
layer is kept by what it shows and its size wherever it lies (a card of a row, the same in any
column), and only its drawn pixels (those not of the background colour) are pasted, so boxes may
overlap where drawn pixels do not (a winner's frame around its row of cards).

``compose`` draws a layer only on its own box: a layer may then be one part of a drawing cut in
boxes (a seat of the table picture is five: ``bot.render.pictures.table_parts``), each keyed by
what falls in its box, so a click that changes a seat's stack redraws its name plate, not its cards.
``compose_png`` writes the picture as PNG as it puts it together, and keeps the last picture of
each table (``FRAMES``: its PNG rows and its layers' keys): a table whose turn comes round again
among a thousand, its layers no longer kept, is put together on its last picture, only
the layers whose keys changed pasted anew.

Rules for a layer (the tests check them on many pictures): its box holds every pixel it draws
(a part: its drawing on its box is the whole drawing's there); boxes of one picture never overlap
(on a plain colour: their drawn pixels never do); its drawing on a plain colour is the same
wherever its box lies; and its key holds everything its drawing reads
(a frozen dataclass of the snapshot, or a tuple of them). A cache hit can then only return what the
same drawing would give for the same key: a layer is shared only where it shows the same thing,
and it is a function of its key alone (no name, no seat, no viewer), so nothing of one picture can
reach another that does not show it itself.

Pictures are drawn one at a time (``one_at_a_time``, a lock around each public drawing function):
callers may draw from any thread (the presenter draws off the event loop), while the caches and
FreeType's faces are never used by two threads at once.

``png`` writes a palette image as PNG with rows unfiltered (the palette's best filter) and
compressed by ISA-L's deflate (``isal``, several times faster than zlib at a smaller size);
``compose_png`` puts its picture together straight in those rows (one column more on the left, the
rows' filter type), the same bytes.
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

TILE_BUDGET = 16 * 1024 * 1024
"""Bytes of layers kept (palette pixels, one byte each; an 8-seat table's 43 layers are about
520 KB): the layers of some thirty tables, the least recently used going first. A table whose
layers went is put together on its last picture (``FRAMES``), only its changed layers drawn."""

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


def _bytes(tile: Tile) -> int:
    return sum(img.width * img.height * len(img.getbands()) for img in tile if img is not None)


class _Tiles:
    """The drawn layers, least recently used first, within ``budget`` bytes; safe across threads."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.used = 0
        self._tiles: OrderedDict[Hashable, tuple[Tile, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Tile | None:
        with self._lock:
            kept = self._tiles.get(key)
            if kept is None:
                return None
            self._tiles.move_to_end(key)
            return kept[0]

    def kept(self, key: Hashable) -> bool:
        """Whether ``key``'s layer is kept (``get`` gives it)."""
        return key in self._tiles

    def put(self, key: Hashable, tile: Tile) -> None:
        with self._lock:
            if key in self._tiles:
                return
            size = _bytes(tile)
            self._tiles[key] = (tile, size)
            self.used += size
            while self.used > self.budget and self._tiles:
                _, (_, gone) = self._tiles.popitem(last=False)
                self.used -= gone

    def clear(self) -> None:
        with self._lock:
            self._tiles.clear()
            self.used = 0


TILES = _Tiles(TILE_BUDGET)
"""The table picture's layers (``compose``, ``compose_png``)."""

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
    base_key: Hashable, base: Image.Image, layers: Sequence[Layer], palette: Image.Image,
    where: Hashable = None,
) -> bytes:
    """``png(compose(base_key, base, layers, palette))``, put together straight in PNG rows.

    ``where`` names where the picture is shown (a table; None: nowhere in particular): the last
    picture put together there is kept (``FRAMES``) with the keys of its layers, and when most of
    this picture's unchanged layers are no longer kept (a table whose turn comes round again among
    a thousand), it is opened and only the layers that changed are pasted on it. The
    bytes are the same either way: whatever picture is kept under ``where``, every layer whose key
    differs is pasted anew, and a layer's pixels are its key's."""
    keys = tuple((layer.name, layer.box, base_key, layer.key) for layer in layers)
    tiles = [TILES.get(key) for key in keys]
    boxes = tuple(layer.box for layer in layers)
    frame = FRAMES.get(where) if where is not None else None
    if frame is not None and frame.boxes == boxes and OPEN_AT <= sum(
            1 for tile, old, new in zip(tiles, frame.keys, keys, strict=True) if tile is None and old == new):
        canvas = Image.frombytes("P", (frame.width + 1, frame.height), isal_zlib.decompress(frame.rows))
        todo = [i for i, old in enumerate(frame.keys) if old != keys[i]]
    else:
        canvas = _base(base_key, base, palette)
        todo = list(range(len(layers)))
    paste = canvas.im.paste
    for i in todo:
        layer = layers[i]
        left, top, right, bottom = layer.box
        tile = tiles[i] or _draw(layer, keys[i], base, palette)
        paste(tile[0].im, (left + 1, top, right + 1, bottom))
    if where is None:
        return _png_rows(canvas, palette)
    rows = isal_zlib.compress(canvas.tobytes(), PNG_LEVEL)
    FRAMES.put(where, _Frame(keys, boxes, canvas.width - 1, canvas.height, rows))
    return _png(canvas.width - 1, canvas.height, rows, _palette_bytes(palette))


OPEN_AT = 2
"""How many of a picture's unchanged layers must be no longer kept before its kept frame is opened
instead (``compose_png``): opening it (0.3 ms) costs about what drawing two layers again does."""


def _draw(layer: Layer, key: Hashable, base: Image.Image, palette: Image.Image) -> Tile:
    """``layer`` drawn on its box of ``base`` in ``palette``, kept under ``key``."""
    region = base.crop(layer.box)
    layer.draw(region, layer.box[0], layer.box[1])
    tile = (to_palette(region, palette), None)
    TILES.put(key, tile)
    return tile


def _base(base_key: Hashable, base: Image.Image, palette: Image.Image) -> Image.Image:
    """A copy of ``base`` in ``palette`` as PNG rows (``_framed``), mapped once and kept."""
    p_key = ("base", base_key)
    kept = TILES.get(p_key)
    if kept is None:
        kept = (_framed(to_palette(base, palette)), None)
        TILES.put(p_key, kept)
    return kept[0].copy()


def _compose(
    base_key: Hashable, base: Image.Image, layers: Sequence[Layer], palette: Image.Image
) -> Image.Image:
    """``compose`` as PNG rows (``_framed``)."""
    canvas = _base(base_key, base, palette)
    for layer in layers:
        key = (layer.name, layer.box, base_key, layer.key)
        tile = TILES.get(key) or _draw(layer, key, base, palette)
        left, top, right, bottom = layer.box
        canvas.im.paste(tile[0].im, (left + 1, top, right + 1, bottom))
    return canvas


@dataclass(frozen=True, slots=True)
class _Frame:
    """The last picture put together for one ``where``: its layers' keys and boxes, and its PNG
    rows deflated (the PNG's own IDAT data)."""

    keys: tuple[Hashable, ...]
    boxes: tuple[Box, ...]
    width: int
    height: int
    rows: bytes


FRAME_BUDGET = 64 * 1024 * 1024
"""Bytes of kept frames (``FRAMES``): an 8-seat table's is about 57 KB (its PNG's deflated rows,
about 37 KB, and its layers' keys), so some 1,100 tables; past it the least recently drawn go."""

FRAME_OVERHEAD = 20 * 1024
"""Bytes counted for a frame beyond its rows: its keys (43 small tuples and the values in them,
about 20 KB measured for 8 seats) and the bookkeeping."""


class _Frames:
    """The last picture put together at each ``where`` (``compose_png``), least recently drawn first,
    within ``budget`` bytes; safe across threads."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.used = 0
        self._frames: OrderedDict[Hashable, _Frame] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._frames)

    def get(self, where: Hashable) -> _Frame | None:
        with self._lock:
            frame = self._frames.get(where)
            if frame is not None:
                self._frames.move_to_end(where)
            return frame

    def put(self, where: Hashable, frame: _Frame) -> None:
        with self._lock:
            old = self._frames.pop(where, None)
            if old is not None:
                self.used -= len(old.rows) + FRAME_OVERHEAD
            self._frames[where] = frame
            self.used += len(frame.rows) + FRAME_OVERHEAD
            while self.used > self.budget and self._frames:
                _, gone = self._frames.popitem(last=False)
                self.used -= len(gone.rows) + FRAME_OVERHEAD

    def clear(self) -> None:
        with self._lock:
            self._frames.clear()
            self.used = 0


FRAMES = _Frames(FRAME_BUDGET)
"""The last picture of each table (``compose_png``)."""


def clear() -> None:
    """Forget every kept layer and frame of the table picture: its next pictures are drawn afresh
    (tests)."""
    TILES.clear()
    FRAMES.clear()


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
    rows = isal_zlib.compress(_framed(img).tobytes(), PNG_LEVEL)
    return _png(img.width, img.height, rows, bytes(img.getpalette() or []))


def _png_rows(framed: Image.Image, palette: Image.Image) -> bytes:
    """The PNG of a framed picture (``_framed``) with the colours of ``palette``, one of the few
    shared palettes (its colours are read once: ``_palette_bytes``)."""
    rows = isal_zlib.compress(framed.tobytes(), PNG_LEVEL)
    return _png(framed.width - 1, framed.height, rows, _palette_bytes(palette))


def _png(width: int, height: int, rows: bytes, palette: bytes) -> bytes:
    """The PNG of a picture of ``width`` x ``height`` 8-bit indexes in ``palette``, its rows
    (each with its filter type first) deflated as ``rows``."""
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join((
        _SIGNATURE,
        _chunk(b"IHDR", header),
        _chunk(b"PLTE", palette[: 3 * 256]),
        _chunk(b"IDAT", rows),
        _chunk(b"IEND", b""),
    ))
