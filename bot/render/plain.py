"""The hand and showdown pictures put together on a plain colour: the parts that repeat kept, the
rest drawn now.

A player's own hand is new at every DM (new cards, a new "Best now" line, new frames round the
best five), so keeping every layer of it costs more than it saves: most would be drawn, mapped to
the palette, kept and never shown again. What does repeat, from one player's DM to the next and
from one player to another, is a card as drawn in a row (its face, its frame if it is in the best
five, dimmed if not, its tags) and a winner's frame: a few hundred such parts cover every hand.

``compose_parts_png`` takes a picture's layers (``bot.render.layers.Layer``; their boxes and keys
as there) and, in order, for each: a layer keyed ``None`` (the title and lines, new nearly every
time) is drawn now on the plain colour of its box and mapped to the palette; any other is taken
from ``PARTS``, kept by its name, its size and its key, or drawn so and kept. Where its box meets
no other layer's box it is pasted whole; else only its drawn pixels (those not of the plain colour,
through a mask kept with it). The picture is put together straight in PNG rows.

The result is the PNG of ``to_palette(paint(Image.new("RGB", size, colour), layers), palette)``
pixel for pixel when the layers keep ``bot.render.layers``' rules on a plain colour (each draws inside its
box, the same wherever its box lies; drawn pixels of two layers never meet; a key holds all a
drawing reads): the palette mapping is per pixel, so a region mapped on its own is the same as the
whole picture mapped at once. The tests check it over random hands against every cache emptied.

``PARTS`` is its own cache, apart from the table picture's (``bot.render.layers.TILES``): parts
are small and few, so they are kept as images (no deflated tier) and a busy table picture never
pushes them out, nor they it. Callers hold the drawing lock (``one_at_a_time``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Sequence

from PIL import Image

from bot.render.layers import Box, Layer, _background, _png_rows, to_palette

PARTS_BUDGET = 16 * 1024 * 1024
"""Bytes of parts kept (palette pixels, a byte each, and the mask of those drawn where one is
needed): a card of the hand picture with its frame and tag is about 24 KB, so some 700 parts, more
than every card of a hand picture takes (each of 52 cards plain, framed or dimmed, down or up)."""

Part = tuple[Image.Image, Image.Image | None]
"""A kept part: its pixels in the palette and, once needed, the mask of those drawn (not the plain
colour)."""


class _Parts:
    """Kept parts, least recently used first, within ``budget`` bytes; safe across threads."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.used = 0
        self._kept: OrderedDict[Hashable, Part] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._kept)

    def get(self, key: Hashable) -> Part | None:
        with self._lock:
            part = self._kept.get(key)
            if part is not None:
                self._kept.move_to_end(key)
            return part

    def put(self, key: Hashable, part: Part) -> None:
        """Keep ``part`` under ``key`` (in place of what was kept there: the same part, now with
        its mask)."""
        with self._lock:
            old = self._kept.pop(key, None)
            if old is not None:
                self.used -= _size(old)
            self._kept[key] = part
            self.used += _size(part)
            while self.used > self.budget and self._kept:
                _, gone = self._kept.popitem(last=False)
                self.used -= _size(gone)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self.used = 0


def _size(part: Part) -> int:
    return sum(img.width * img.height for img in part if img is not None)


PARTS = _Parts(PARTS_BUDGET)
"""The kept parts of every hand and showdown picture."""


def _alone(boxes: Sequence[Box]) -> list[bool]:
    """For each box, whether it meets no other (boxes sorted by their top and swept down)."""
    alone = [True] * len(boxes)
    open_: list[int] = []
    for i in sorted(range(len(boxes)), key=lambda i: boxes[i][1]):
        left, top, right, _ = boxes[i]
        open_ = [j for j in open_ if boxes[j][3] > top]
        for j in open_:
            if boxes[j][0] < right and left < boxes[j][2]:
                alone[i] = alone[j] = False
        open_.append(i)
    return alone


def compose_parts_png(
    colour: tuple[int, int, int], size: tuple[int, int], layers: Sequence[Layer], palette: Image.Image
) -> bytes:
    """The PNG of ``layers`` on a plain ``colour`` of ``size``, in ``palette``: layers keyed
    ``None`` drawn now, the others pasted from ``PARTS`` (see the module docstring); a layer whose
    box meets no other box is pasted whole, the others through the mask of their drawn pixels. Put
    together straight in PNG rows (``bot.render.layers._framed``: one column more on the left)."""
    background, drawn = _background(colour, palette)
    canvas = Image.new("P", (size[0] + 1, size[1]), background)
    canvas.paste(0, (0, 0, 1, size[1]))
    paste = canvas.im.paste          # Pillow's core paste: the boxes are whole and inside the canvas
    for layer, alone in zip(layers, _alone([layer.box for layer in layers]), strict=True):
        left, top, right, bottom = layer.box
        key = (layer.name, (right - left, bottom - top), colour, layer.key)
        part = PARTS.get(key) if layer.key is not None else None
        if part is None:
            region = Image.new("RGB", (right - left, bottom - top), colour)
            layer.draw(region, left, top)
            part = (to_palette(region, palette), None)
            if layer.key is not None:
                PARTS.put(key, part)
        box = (left + 1, top, right + 1, bottom)
        if alone:
            paste(part[0].im, box)
            continue
        mask = part[1]
        if mask is None:
            mask = Image.frombytes("L", part[0].size, part[0].tobytes().translate(drawn))
            if layer.key is not None:
                PARTS.put(key, (part[0], mask))
        paste(part[0].im, box, mask.im)
    return _png_rows(canvas, palette)
