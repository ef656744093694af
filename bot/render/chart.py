"""The ``/stats`` picture: a member's net chips over a period as a small line chart (Pillow).

Drawn at 760 x 400 so that Discord's phone view (about 380 px wide) halves it and the text stays at
least 13 px high: the title, the running total (the last point) in large type, the zero line, the
highest and lowest running totals on the left and the first and last day under the line. The line
is green where the running total is above zero and red below (with the total also written out, so
colour is never the only cue).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from datetime import datetime

from PIL import Image, ImageDraw, ImageFont

SIZE = (760, 400)
_BG = (24, 28, 33)
_GRID = (70, 78, 88)
_TEXT = (235, 238, 242)
_MUTED = (170, 178, 188)
_UP = (76, 200, 120)
_DOWN = (235, 95, 85)
_LEFT, _RIGHT, _TOP, _BOTTOM = 118, 24, 92, 56


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _label(moment: datetime, hourly: bool) -> str:
    return moment.strftime("%d %b %H:%M" if hourly else "%d %b %Y")


def net_chart(points: Sequence[tuple[datetime, int]], title: str, *, hourly: bool = False) -> bytes:
    """PNG bytes of the running net total: ``points`` are ``(time, running total)``, oldest first
    (at least one). ``hourly`` labels the axis with times rather than dates."""
    if not points:
        raise ValueError("a chart needs at least one point")
    image = Image.new("RGB", SIZE, _BG)
    draw = ImageDraw.Draw(image)
    width, height = SIZE
    draw.text((_LEFT - 100, 14), title, font=_font(28), fill=_TEXT)
    last = points[-1][1]
    total = f"{last:+,}" if last else "0"
    draw.text((width - _RIGHT, 14), total, font=_font(44), fill=_UP if last >= 0 else _DOWN, anchor="ra")
    values = [v for _, v in points]
    high, low = max(*values, 0), min(*values, 0)
    if high == low:
        high += 1
    plot_w, plot_h = width - _LEFT - _RIGHT, height - _TOP - _BOTTOM

    def y_of(value: int) -> float:
        return _TOP + (high - value) / (high - low) * plot_h

    start, end = points[0][0], points[-1][0]
    span = (end - start).total_seconds()

    def x_of(moment: datetime, index: int) -> float:
        if span <= 0:
            return _LEFT + plot_w * (index / max(len(points) - 1, 1))
        return _LEFT + (moment - start).total_seconds() / span * plot_w

    zero = y_of(0)
    draw.line((_LEFT, zero, width - _RIGHT, zero), fill=_GRID, width=2)
    labelled: list[float] = []
    for value in (0, high, low):
        if value == high and high == 1 and max(values) < 1:
            continue  # the padding added to a flat chart is not a total anybody had
        if any(abs(y_of(value) - y) < 30 for y in labelled):
            continue  # too close to a label already written: it would overlap it
        labelled.append(y_of(value))
        draw.text((_LEFT - 10, y_of(value)), f"{value:+,}" if value else "0", font=_font(24),
                  fill=_MUTED, anchor="rm")
    xy = [(x_of(moment, i), y_of(value)) for i, (moment, value) in enumerate(points)]
    if len(xy) == 1:
        x, y = xy[0]
        draw.ellipse((x - 6, y - 6, x + 6, y + 6), fill=_UP if last >= 0 else _DOWN)
    for (x1, y1), (x2, y2), v2 in zip(xy, xy[1:], values[1:], strict=False):
        draw.line((x1, y1, x2, y2), fill=_UP if v2 >= 0 else _DOWN, width=5)
    draw.text((_LEFT, height - _BOTTOM + 12), _label(start, hourly), font=_font(24), fill=_MUTED)
    if span > 0:
        draw.text((width - _RIGHT, height - _BOTTOM + 12), _label(end, hourly), font=_font(24),
                  fill=_MUTED, anchor="ra")
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
