"""The hand and showdown pictures put together on a plain colour: the parts that repeat kept, the
rest drawn now.

A player's own hand is new at every DM (new cards, a new "Best now" line, new frames round the
best five), so keeping every layer of it costs more than it saves: most would be drawn, mapped to
the palette, kept and never shown again. What does repeat, from one player's DM to the next and
from one player to another, is a card as drawn in a row (its face, its frame if it is in the best
five, dimmed if not, its tags) and a winner's frame: a few hundred such parts cover every hand.

``compose_parts`` takes a picture's layers (``bot.render.layers.Layer``; their boxes and keys as
there) and:

* draws every layer whose key is ``None`` now (the title and lines, new nearly every time; cards
  drawn as a whole where they overlap), all onto one region of the plain colour (the smallest box
  round them), mapped to the palette once and pasted whole first;
* then pastes each other layer from ``PARTS``, kept by its name, its size and its key, with the
  mask of its drawn pixels (those not of the plain colour); a part not kept yet is drawn alone on
  the plain colour, mapped to the palette and kept.

The result is ``to_palette(paint(Image.new("RGB", size, colour), layers), palette)`` pixel for
pixel when the layers keep ``bot.render.layers``' rules on a plain colour (each draws inside its
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

from bot.render.layers import Box, Layer, to_palette

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


def _union(boxes: Sequence[Box]) -> Box:
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
            max(b[3] for b in boxes))


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


def compose_parts(
    colour: tuple[int, int, int], size: tuple[int, int], layers: Sequence[Layer], palette: Image.Image
) -> Image.Image:
    """The picture of ``layers`` on a plain ``colour`` of ``size``, in ``palette`` (mode ``P``):
    layers keyed ``None`` drawn now, the others pasted from ``PARTS`` (see the module docstring);
    a part whose box meets no other box is pasted whole, the others through their mask."""
    plain = to_palette(Image.new("RGB", (1, 1), colour), palette)
    background = plain.getpixel((0, 0))
    assert isinstance(background, int)
    canvas = Image.new("P", size, background)
    canvas.putpalette(plain.getpalette() or [])
    fresh = [layer for layer in layers if layer.key is None]
    if fresh:
        left, top, right, bottom = _union([layer.box for layer in fresh])
        region = Image.new("RGB", (right - left, bottom - top), colour)
        for layer in fresh:
            layer.draw(region, left, top)
        canvas.paste(to_palette(region, palette), (left, top))
    drawn = bytes(0 if i == background else 255 for i in range(256))
    for layer, alone in zip(layers, _alone([layer.box for layer in layers]), strict=True):
        if layer.key is None:
            continue
        left, top, right, bottom = layer.box
        key = (layer.name, (right - left, bottom - top), colour, layer.key)
        part = PARTS.get(key)
        if part is None:
            region = Image.new("RGB", (right - left, bottom - top), colour)
            layer.draw(region, left, top)
            part = (to_palette(region, palette), None)
            PARTS.put(key, part)
        if alone:
            canvas.paste(part[0], (left, top))
            continue
        if part[1] is None:
            part = (part[0], Image.frombytes("L", part[0].size, part[0].tobytes().translate(drawn)))
            PARTS.put(key, part)
        canvas.paste(part[0], (left, top), part[1])
    return canvas
