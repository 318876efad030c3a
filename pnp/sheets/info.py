"""Sheet text and the test bars: fitted into the free margin boxes that imposition found.

Text shrinks to fit its box (never below SHEET_TEXT_MIN_PT); items that fit nowhere are reported,
not drawn over marks or into the printer's dead zone.

All sheet text goes through the project's text layer (`pnp.text.layout`) in its embedded fonts
(PnpSans-*): Cyrillic is drawn by Noto Sans, Arabic is shaped and ordered and drawn run by run in
Noto Sans Arabic, like card text. No base-14 font is ever used (a PDF/X preflight refuses a font
that is not embedded). `direction="rtl"` (Arabic builds) also mirrors the order of the items along
each margin box and puts a test bar's label before (left of) the bar; the bars themselves, crop
marks and card positions never mirror.

A test bar is TEST_BAR_MM long between its end ticks. Card sheets carry two, one along x and one
along y (printers scale the two axes differently); an Item's `axis` says which one it must be.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from pnp import print_constants as pc
from pnp.sheets.impose import InfoBox
from pnp.units import mm

_UNBOUNDED_MM = 1e5


@dataclass(frozen=True)
class Item:
    kind: str          # "text" or "bar"
    text: str          # the text, or the bar's label ("50 mm")
    prefer: str        # the side tried first: "top", "bottom", "left" or "right"
    axis: str = ""     # a bar that must run along "x" (a top/bottom box) or "y" (a side box); "" either

    def fits_box(self, box: InfoBox) -> bool:
        return not self.axis or box.vertical == (self.axis == "y")


@dataclass(frozen=True)
class Placed:
    item: Item
    box: InfoBox
    offset: float      # along the box, from its start
    length: float
    size: float        # font size


# ---- text through the project's text layer

def text_style(text: str, font: str) -> str:
    """The text layer's style to lay `text` out with (a pnp.text.fonts.STYLES key): the one whose
    font `font` is, else the regular style (whatever `font` names, sheet text stays embedded)."""
    from pnp.text import fonts

    for key, style in fonts.STYLES.items():
        if style.name == font:
            return key
    return "regular"


def _layout(text: str, style: str, size: float, direction: str):
    from pnp.text import fonts
    from pnp.text.layout import layout

    fonts.register_all()
    return layout(text, style, _UNBOUNDED_MM, _UNBOUNDED_MM, float(size), float(size), 1.2, None, direction)


def text_width(text: str, font: str, size: float, direction: str = "auto") -> float:
    """Width in points of one line of sheet text, as `draw_text` draws it."""
    style = text_style(text, font)
    from pnp.text.layout import PT_TO_MM
    result = _layout(text, style, size, direction)
    return max(result.widths_mm, default=0.0) / PT_TO_MM


def text_metrics(text: str, font: str, size: float, direction: str = "auto") -> tuple[float, float]:
    """Ascent and descent (both positive, points) of one line of sheet text (Arabic reaches further
    down than Latin)."""
    style = text_style(text, font)
    from pnp.text.layout import PT_TO_MM
    result = _layout(text, style, size, direction)
    return result.ascent_mm / PT_TO_MM, result.descent_mm / PT_TO_MM


def draw_text(canvas: Canvas, x: float, baseline: float, text: str, font: str, size: float,
              direction: str = "auto", anchor: str = "start") -> float:
    """Draw one line of sheet text with its left edge at x ("start"), its right edge at x ("end")
    or centred on x ("middle"); returns its width in points. Shaped lines (Arabic, right-to-left)
    are drawn run by run as HarfBuzz glyphs inside one span marked with /ActualText, so that copying
    and searching see the line's characters in logical order (see pnp.text.actualtext)."""
    width = text_width(text, font, size, direction)
    left = {"start": x, "end": x - width, "middle": x - width / 2}[anchor]
    style = text_style(text, font)
    from pnp.text import actualtext, fonts, shaping
    from pnp.text.layout import PT_TO_MM

    result = _layout(text, style, size, direction)
    for index, line in enumerate(result.lines[:1]):
        shaped = result.shaped(index)
        if shaped is None:
            canvas.setFont(fonts.STYLES[style].name, size)
            canvas.drawString(left, baseline, line)
            continue
        line_span = actualtext.right_to_left(line)    # one span: the line reads back in logical order
        if line_span:
            canvas.addLiteral(actualtext.begin(line))
        for run in shaped.runs:
            if run.blank:
                continue
            glyphs = shaping.shape(run.text, run.font, run.rtl)
            canvas.setFont(run.font, size)
            if not line_span:                          # a left-to-right line: a span per run, as always
                canvas.addLiteral(actualtext.begin(run.text))
            canvas.drawString(left + run.x_mm / PT_TO_MM, baseline, shaping.shaped_str(glyphs))
            if not line_span:
                canvas.addLiteral(actualtext.END)
        if line_span:
            canvas.addLiteral(actualtext.END)
    return width


def _depth_needed(size: float, font: str, text: str = "", direction: str = "auto") -> float:
    return sum(text_metrics(text, font, size, direction))


def _fit(item: Item, length: float, depth: float, font: str, direction: str = "auto") -> tuple[float, float] | None:
    """(font size, length used) for the item in a free length x depth area, or None."""
    size = pc.SHEET_TEXT_PT
    extra = mm(pc.TEST_BAR_MM) + mm(1.5) if item.kind == "bar" else 0.0
    for _ in range(2):  # shrink for length, then re-check depth
        width = text_width(item.text, font, size, direction)
        if extra + width > length:
            size *= (length - extra) / width if length > extra else 0.0
        if size <= 0:
            return None
        needed = _depth_needed(size, font, item.text, direction)
        if needed > depth:
            size *= depth / needed
    if size < pc.SHEET_TEXT_MIN_PT:
        return None
    if item.kind == "bar" and depth < mm(pc.TEST_BAR_TICK_MM):
        return None
    return size, extra + text_width(item.text, font, size, direction)


def place_items(items: list[Item], boxes: tuple[InfoBox, ...], font: str,
                direction: str = "auto") -> tuple[list[Placed], list[Item]]:
    """Greedy: each item goes into the first box (its preferred side first) with room left.
    direction="rtl": the items of each box run from its far end (mirrored order)."""
    used = {b: 0.0 for b in boxes}
    spacing = mm(pc.SHEET_ITEM_SPACING_MM)
    placed: list[Placed] = []
    missing: list[Item] = []
    for item in items:
        order = sorted((b for b in boxes if item.fits_box(b)), key=lambda b: (b.side != item.prefer, boxes.index(b)))
        for box in order:
            start = used[box] + (spacing if used[box] else 0.0)
            fit = _fit(item, box.length - start, box.depth, font, direction)
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
        offset = p.offset + (p.box.length - used[p.box]) / 2
        if direction == "rtl" and not p.box.vertical:
            offset = p.box.length - offset - p.length
        centred.append(Placed(p.item, p.box, offset, p.length, p.size))
    return centred, missing


def draw_placed(canvas: Canvas, placed: list[Placed], font: str,
                direction: str = "auto") -> list[tuple[float, float, float, float]]:
    """Draw the placed items; returns the test bars drawn, as page-coordinate segments.
    direction="rtl": a bar's label goes before (left of) the bar."""
    bars = []
    for p in placed:
        x0, y0, x1, y1 = p.box.rect
        canvas.saveState()
        if p.box.vertical:  # text reads bottom-to-top; local y runs leftwards
            canvas.translate(x1, y0)
            canvas.rotate(90)
        else:
            canvas.translate(x0, y0)
        ascent, descent = text_metrics(p.item.text, font, p.size, direction)
        baseline = (p.box.depth - (ascent + descent)) / 2 + descent
        canvas.setFillGray(pc.SHEET_TEXT_GRAY)
        x = p.offset
        if p.item.kind == "bar":
            bar_x = x
            if direction == "rtl" and not p.box.vertical:    # label, then the bar to its right
                bar_x = x + p.length - mm(pc.TEST_BAR_MM)
            draw_test_bar(canvas, bar_x, p.box.depth / 2)
            bars.append(_to_page(p.box, bar_x, p.box.depth / 2)
                        + _to_page(p.box, bar_x + mm(pc.TEST_BAR_MM), p.box.depth / 2))
            if bar_x == x:
                x += mm(pc.TEST_BAR_MM) + mm(1.5)
        draw_text(canvas, x, baseline, p.item.text, font, p.size, direction)
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
