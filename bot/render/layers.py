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
each table (``FRAMES``: its layers' keys and its PNG rows deflated in bands of ``BAND_ROWS`` rows,
each band a deflate stream of its own): the next picture of the table deflates again only the
bands that a changed layer reaches, the other bands' bytes are the last picture's as they are;
a table whose turn comes round again among a thousand, its layers no longer kept, has those bands
inflated from its last picture and only the layers whose keys changed pasted anew.

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
rows' filter type) and deflates them in bands (the same pixels, other bytes than ``png``'s).
"""

from __future__ import annotations

import struct
import threading
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
    """The PNG of ``compose(base_key, base, layers, palette)`` (the same pixels), put together
    straight in PNG rows and deflated in bands (``BAND_ROWS``).

    ``where`` names where the picture is shown (a table; None: nowhere in particular): the last
    picture put together there is kept (``FRAMES``: the keys of its layers and its bands, each
    deflated on its own), and only the bands that a layer whose key changed reaches are put together
    and deflated again; the others are the last picture's, as they were. A band put together again
    is the base with every layer reaching it pasted on, or, when some of those that did not change
    are no longer kept (``OPEN_AT``: a table whose turn comes round again among a thousand), the
    last picture's band inflated with only the changed layers pasted on. The bytes are the same
    either way: whatever picture is kept under ``where``, every band a changed layer reaches is
    made anew, a band's pixels are those of the layers reaching it, and a layer's pixels are its
    key's."""
    keys = tuple((layer.name, layer.box, base_key, layer.key) for layer in layers)
    boxes = tuple(layer.box for layer in layers)
    width, height = base.size
    colours = _palette_bytes(palette)
    count = -(-height // BAND_ROWS)
    frame = FRAMES.get(where) if where is not None else None
    if frame is not None and (frame.boxes, frame.base, frame.size, frame.palette) == (
            boxes, base_key, base.size, colours):
        bands = list(frame.bands)
        changed = [i for i, old in enumerate(frame.keys) if old != keys[i]]
        dirty = sorted({b for i in changed for b in range(boxes[i][1] // BAND_ROWS,
                                                          (boxes[i][3] - 1) // BAND_ROWS + 1)})
    else:
        frame = None
        bands = [_NO_BAND] * count
        changed = list(range(len(layers)))
        dirty = list(range(count))
    changed_set = frozenset(changed)
    row_bytes = width + 1
    for first, last in _runs(dirty):
        top, bottom = first * BAND_ROWS, min(height, (last + 1) * BAND_ROWS)
        reach = [i for i, (_, t, _, b) in enumerate(boxes) if t < bottom and b > top]
        tiles = {i: TILES.get(keys[i]) for i in reach}
        if frame is not None and OPEN_AT <= sum(
                1 for i in reach if i not in changed_set and tiles[i] is None):
            deflated = b"".join(band[0] for band in frame.bands[first : last + 1]) + _LAST_BLOCK
            canvas = Image.frombytes("P", (row_bytes, bottom - top), isal_zlib.decompress(deflated, -15))
            todo = [i for i in reach if i in changed_set]
        else:
            canvas = _base_rows(base_key, base, palette, top, bottom)
            todo = reach
        paste = canvas.im.paste
        for i in todo:
            left, t, right, b = boxes[i]
            tile = tiles[i] or _draw(layers[i], keys[i], base, palette)
            paste(tile[0].im, (left + 1, t - top, right + 1, b - top))
        raw = memoryview(canvas.tobytes())
        step = BAND_ROWS * row_bytes
        for n, band in enumerate(range(first, last + 1)):
            bands[band] = _deflated(raw[n * step : (n + 1) * step])
    if where is not None:
        FRAMES.put(where, _Frame(keys, boxes, base_key, base.size, colours, tuple(bands)))
    return _png(width, height, _idat(bands), colours)


OPEN_AT = 1
"""How many of the unchanged layers reaching a band must be no longer kept before the band of the
kept frame is inflated instead (``compose_png``): inflating a band (a few hundredths of a ms) costs
far less than drawing one layer again."""


def _draw(layer: Layer, key: Hashable, base: Image.Image, palette: Image.Image) -> Tile:
    """``layer`` drawn on its box of ``base`` in ``palette``, kept under ``key``."""
    region = base.crop(layer.box)
    layer.draw(region, layer.box[0], layer.box[1])
    tile = (to_palette(region, palette), None)
    TILES.put(key, tile)
    return tile


def _framed_base(base_key: Hashable, base: Image.Image, palette: Image.Image) -> Image.Image:
    """``base`` in ``palette`` as PNG rows (``_framed``), mapped once and kept (not to be changed)."""
    p_key = ("base", base_key)
    kept = TILES.get(p_key)
    if kept is None:
        kept = (_framed(to_palette(base, palette)), None)
        TILES.put(p_key, kept)
    return kept[0]


def _base(base_key: Hashable, base: Image.Image, palette: Image.Image) -> Image.Image:
    """A copy of ``base`` in ``palette`` as PNG rows (``_framed_base``)."""
    return _framed_base(base_key, base, palette).copy()


def _base_rows(
    base_key: Hashable, base: Image.Image, palette: Image.Image, top: int, bottom: int
) -> Image.Image:
    """A copy of rows ``top`` to ``bottom`` of ``base`` in ``palette`` as PNG rows (``_framed_base``)."""
    framed = _framed_base(base_key, base, palette)
    return framed.crop((0, top, framed.width, bottom))


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
    """The last picture put together for one ``where``: its layers' keys and boxes, its base, size
    and colours, and its bands (``_deflated``: the PNG's own IDAT data, band by band)."""

    keys: tuple[Hashable, ...]
    boxes: tuple[Box, ...]
    base: Hashable
    size: tuple[int, int]
    palette: bytes
    bands: tuple[Band, ...]

    @property
    def deflated(self) -> int:
        """Bytes of its deflated bands."""
        return sum(len(band[0]) for band in self.bands)


FRAME_BUDGET = 64 * 1024 * 1024
"""Bytes of kept frames (``FRAMES``): an 8-seat table's is about 60 KB (its PNG's deflated bands,
about 40 KB, and its layers' keys), so some 1,000 tables; past it the least recently drawn go."""

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
                self.used -= old.deflated + FRAME_OVERHEAD
            self._frames[where] = frame
            self.used += frame.deflated + FRAME_OVERHEAD
            while self.used > self.budget and self._frames:
                _, gone = self._frames.popitem(last=False)
                self.used -= gone.deflated + FRAME_OVERHEAD

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


def png(img: Image.Image) -> bytes:
    """A palette (``P``) image as PNG bytes: 8-bit indexes, every row unfiltered, ISA-L deflate (one
    stream: a picture written once is not deflated in bands, which costs more)."""
    if img.mode != "P":
        raise ValueError(f"png takes a palette image, got mode {img.mode}")
    rows = isal_zlib.compress(_framed(img).tobytes(), PNG_LEVEL)
    return _png(img.width, img.height, rows, bytes(img.getpalette() or []))


def _png_rows(framed: Image.Image, palette: Image.Image) -> bytes:
    """The PNG of a framed picture (``_framed``) with the colours of ``palette``, its rows deflated
    as one stream (the hand and showdown pictures, new every time; ``compose_png`` deflates a
    table's picture in bands instead, to keep them)."""
    return _png(framed.width - 1, framed.height, isal_zlib.compress(framed.tobytes(), PNG_LEVEL),
                _palette_bytes(palette))


BAND_ROWS = 50
"""Rows of a picture deflated together (``_deflated``): a table picture is 12 bands (the first is
its title), and a click that changes a seat or two deflates again only the bands they reach (about
half the rows at 8 seats). Each band is a deflate stream of its own, which costs some 40 % more per
row than one stream for the whole picture, so the bands are not made smaller than this."""

Band = tuple[bytes, int, int]
"""A band of PNG rows deflated on its own (``_deflated``): the raw deflate data (ending on a
sync flush, byte-aligned, no last block), the Adler-32 of its rows and how many bytes they are."""

_NO_BAND: Band = (b"", 1, 0)
_ZLIB_HEADER = b"\x78\x01"        # deflate, 32 KB window, fastest; (0x78 * 256 + 0x01) % 31 == 0
_LAST_BLOCK = b"\x03\x00"         # an empty last block (fixed Huffman codes)


def _deflated(rows: bytes | memoryview) -> Band:
    """``rows`` deflated on their own, so a band can be kept and put in any picture's stream: a
    fresh deflate stream (no back-reference into another band) ended by a sync flush."""
    deflate = isal_zlib.compressobj(PNG_LEVEL, isal_zlib.DEFLATED, -15)
    return deflate.compress(rows) + deflate.flush(isal_zlib.Z_SYNC_FLUSH), isal_zlib.adler32(rows), len(rows)


def _runs(bands: Sequence[int]) -> list[tuple[int, int]]:
    """Sorted band numbers as runs of consecutive ones: ``(first, last)`` each."""
    runs: list[tuple[int, int]] = []
    for band in bands:
        if runs and runs[-1][1] == band - 1:
            runs[-1] = (runs[-1][0], band)
        else:
            runs.append((band, band))
    return runs


_ADLER_BASE = 65521


def adler32_combine(first: int, second: int, length: int) -> int:
    """The Adler-32 of two byte strings one after the other, from the Adler-32 of each and the
    length of the second (zlib's ``adler32_combine``)."""
    rem = length % _ADLER_BASE
    low = first & 0xFFFF
    high = (rem * low) % _ADLER_BASE
    low = (low + (second & 0xFFFF) + _ADLER_BASE - 1) % _ADLER_BASE
    high = (high + (first >> 16) + (second >> 16) + _ADLER_BASE - rem) % _ADLER_BASE
    return (high << 16) | low


def _idat(bands: Sequence[Band]) -> bytes:
    """The zlib stream of the bands one after the other: the PNG's IDAT data."""
    adler = 1
    for _, band_adler, length in bands:
        adler = adler32_combine(adler, band_adler, length)
    return b"".join((_ZLIB_HEADER, *(band[0] for band in bands), _LAST_BLOCK, adler.to_bytes(4, "big")))


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = isal_zlib.crc32(data, isal_zlib.crc32(kind))        # ISA-L's CRC: several times zlib's speed
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _png(width: int, height: int, idat: bytes, palette: bytes) -> bytes:
    """The PNG of a picture of ``width`` x ``height`` 8-bit indexes in ``palette``, its rows
    (each with its filter type first) deflated as ``idat`` (a zlib stream)."""
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join((
        _SIGNATURE,
        _chunk(b"IHDR", header),
        _chunk(b"PLTE", palette[: 3 * 256]),
        _chunk(b"IDAT", idat),
        _chunk(b"IEND", b""),
    ))
