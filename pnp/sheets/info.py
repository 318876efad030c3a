"""Sheet text and the test bar: fitted into the free margin boxes that imposition found.

Text shrinks to fit its box (never below SHEET_TEXT_MIN_PT); items that fit nowhere are reported,
not drawn over marks or into the printer's dead zone.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.pdfbase.pdfmetrics import getAscentDescent, stringWidth
from reportlab.pdfgen.canvas import Canvas

from pnp import print_constants as pc
from pnp.sheets.impose import InfoBox
from pnp.units import mm


@dataclass(frozen=True)
class Item:
    kind: str          # "text" or "bar"
    text: str          # the text, or the bar's label ("50 mm")
    prefer: str        # the side tried first: "top" or "bottom"


@dataclass(frozen=True)
class Placed:
    item: Item
    box: InfoBox
    offset: float      # along the box, from its start
    length: float
    size: float        # font size


def _depth_needed(size: float, font: str) -> float:
    ascent, descent = getAscentDescent(font, size)
    return ascent - descent


def _fit(item: Item, length: float, depth: float, font: str) -> tuple[float, float] | None:
    """(font size, length used) for the item in a free length x depth area, or None."""
    size = pc.SHEET_TEXT_PT
    extra = mm(pc.TEST_BAR_MM) + mm(1.5) if item.kind == "bar" else 0.0
    for _ in range(2):  # shrink for length, then re-check depth
        width = stringWidth(item.text, font, size)
        if extra + width > length:
            size *= (length - extra) / width if length > extra else 0.0
        if _depth_needed(size, font) > depth:
            size *= depth / _depth_needed(size, font)
    if size < pc.SHEET_TEXT_MIN_PT:
        return None
    if item.kind == "bar" and depth < mm(pc.TEST_BAR_TICK_MM):
        return None
    return size, extra + stringWidth(item.text, font, size)


def place_items(items: list[Item], boxes: tuple[InfoBox, ...], font: str) -> tuple[list[Placed], list[Item]]:
    """Greedy: each item goes into the first box (its preferred side first) with room left."""
    used = {b: 0.0 for b in boxes}
    spacing = mm(pc.SHEET_ITEM_SPACING_MM)
    placed: list[Placed] = []
    missing: list[Item] = []
    for item in items:
        order = sorted(boxes, key=lambda b: (b.side != item.prefer, boxes.index(b)))
        for box in order:
            start = used[box] + (spacing if used[box] else 0.0)
            fit = _fit(item, box.length - start, box.depth, font)
            if fit:
                size, length = fit
                placed.append(Placed(item, box, start, length, size))
                used[box] = start + length
                break
        else:
            missing.append(item)
    # Centre each box's items as a group along the box.
    centred = []
    for p in placed:
        centred.append(Placed(p.item, p.box, p.offset + (p.box.length - used[p.box]) / 2, p.length, p.size))
    return centred, missing


def draw_placed(canvas: Canvas, placed: list[Placed], font: str) -> list[tuple[float, float, float, float]]:
    """Draw the placed items; returns the test bars drawn, as page-coordinate segments."""
    bars = []
    for p in placed:
        x0, y0, x1, y1 = p.box.rect
        canvas.saveState()
        if p.box.vertical:  # text reads bottom-to-top; local y runs leftwards
            canvas.translate(x1, y0)
            canvas.rotate(90)
        else:
            canvas.translate(x0, y0)
        ascent, descent = getAscentDescent(font, p.size)
        baseline = (p.box.depth - (ascent - descent)) / 2 - descent
        canvas.setFillGray(pc.SHEET_TEXT_GRAY)
        canvas.setFont(font, p.size)
        x = p.offset
        if p.item.kind == "bar":
            draw_test_bar(canvas, x, p.box.depth / 2)
            bars.append(_to_page(p.box, x, p.box.depth / 2) + _to_page(p.box, x + mm(pc.TEST_BAR_MM), p.box.depth / 2))
            x += mm(pc.TEST_BAR_MM) + mm(1.5)
        canvas.drawString(x, baseline, p.item.text)
        canvas.restoreState()
    return bars


def _to_page(box: InfoBox, along: float, across: float) -> tuple[float, float]:
    """Box-local coordinates -> page coordinates (see the transforms in draw_placed)."""
    x0, y0, x1, _ = box.rect
    return (x1 - across, y0 + along) if box.vertical else (x0 + along, y0 + across)


def draw_test_bar(canvas: Canvas, x: float, y: float) -> None:
    """A TEST_BAR_MM long line with end ticks, centred on y: measure it after printing."""
    tick = mm(pc.TEST_BAR_TICK_MM) / 2
    end = x + mm(pc.TEST_BAR_MM)
    canvas.saveState()
    canvas.setStrokeColorRGB(0, 0, 0)
    canvas.setLineWidth(pc.TEST_BAR_WIDTH_PT)
    canvas.setLineCap(0)  # butt caps: the bar is exactly TEST_BAR_MM long
    canvas.lines([(x, y, end, y), (x, y - tick, x, y + tick), (end, y - tick, end, y + tick)])
    canvas.restoreState()
