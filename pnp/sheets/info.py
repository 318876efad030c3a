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
from functools import lru_cache

from reportlab.pdfgen.canvas import Canvas

from pnp import print_constants as pc
from pnp.sheets.impose import InfoBox
from pnp.text.fitreport import MIN_PRINTED_PT, MeasuredBox
from pnp.units import mm, pt_to_mm

_UNBOUNDED_MM = 1e5


@dataclass(frozen=True)
class Item:
    kind: str          # "text" or "bar"
    text: str          # the text, or the bar's label ("50 mm")
    prefer: str        # the side tried first: "top", "bottom", "left" or "right"
    axis: str = ""     # a bar that must run along "x" (a top/bottom box) or "y" (a side box); "" either
    key: str = ""      # the sheet text key it comes from ("sheet.print"), for the fit report
    what: str = ""     # what it is, in the fit report ("print line", "page label", "test bar label (x)")

    def fits_box(self, box: InfoBox) -> bool:
        return not self.axis or box.vertical == (self.axis == "y")


@dataclass(frozen=True)
class Placed:
    item: Item
    box: InfoBox
    offset: float      # along the box, from its start
    length: float
    size: float        # font size
    room: float = 0.0  # the free length along the box it was fitted into (points)


@dataclass(frozen=True)
class Missed:
    """An item that fits no box even at SHEET_TEXT_MIN_PT: it is not drawn (a warning)."""

    item: Item
    box: InfoBox | None   # the roomiest box it was tried in (None: no box takes its axis)
    room: float           # the free length that box had left (points)


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
    from pnp.text.layout import layout

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


@lru_cache(maxsize=4096)
def _fit(item: Item, length: float, depth: float, font: str, direction: str = "auto") -> tuple[float, float] | None:
    """(font size, length used) for the item in a free length x depth area, or None. Kept: every
    page of a sheet tries the same items in the same margins (only its label differs)."""
    size = pc.SHEET_TEXT_PT
    extra = _bar_room(item)
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
                direction: str = "auto") -> tuple[list[Placed], list[Missed]]:
    """Greedy: each item goes into the first box (its preferred side first) with room left for it
    at MIN_PRINTED_PT or more, else into the box where it prints largest.
    direction="rtl": the items of each box run from its far end (mirrored order). An item that fits
    no box is `Missed`, with the roomiest box it was tried in (for the fit report)."""
    used = {b: 0.0 for b in boxes}
    spacing = mm(pc.SHEET_ITEM_SPACING_MM)
    placed: list[Placed] = []
    missing: list[Missed] = []
    for item in items:
        # the preferred side first, else the boxes' own order (by position: boxes.index would
        # compare the dataclasses field by field, a quarter of a reused page's time)
        order = [b for _, b in sorted(((b.side != item.prefer, i), b) for i, b in enumerate(boxes) if item.fits_box(b))]
        rooms = []
        best: Placed | None = None
        for box in order:
            start = used[box] + (spacing if used[box] else 0.0)
            rooms.append((box.length - start, box))
            fit = _fit(item, box.length - start, box.depth, font, direction)
            if fit and (best is None or fit[0] > best.size + 1e-9):
                best = Placed(item, box, start, fit[1], fit[0], box.length - start)
                if fit[0] >= MIN_PRINTED_PT - 1e-9:
                    break       # readable: the first such box; else the box it prints largest in
        if best is not None:
            placed.append(best)
            used[best.box] = best.offset + best.length
        else:
            # the roomiest area; of equal ones the first tried (max keeps the first it meets)
            room, box_ = max(rooms, key=lambda r: r[0] * r[1].depth, default=(0.0, None))
            missing.append(Missed(item, box_, max(room, 0.0)))
    # Centre each box's items as a group along the box.
    centred = []
    for p in placed:
        offset = p.offset + (p.box.length - used[p.box]) / 2
        if direction == "rtl" and not p.box.vertical:
            offset = p.box.length - offset - p.length
        centred.append(Placed(p.item, p.box, offset, p.length, p.size, p.room))
    return centred, missing


def _bar_room(item: Item) -> float:
    """What a test bar takes of its item's length before its label (points)."""
    return mm(pc.TEST_BAR_MM) + mm(1.5) if item.kind == "bar" else 0.0


def measured(placed: list[Placed], missing: list[Missed], font: str) -> list[tuple[Item, MeasuredBox]]:
    """Each item's text as the fit report sees it: its box is the free length it was fitted into
    (less its test bar) by the margin's depth, in mm along the text; the size it got against
    SHEET_TEXT_PT; an item that fits nowhere overflows (and is not drawn)."""
    found = []
    for p in placed:
        box_mm = (pt_to_mm(p.room - _bar_room(p.item)), pt_to_mm(p.box.depth))
        found.append((p.item, MeasuredBox(p.item.text, box_mm, round(p.size, 2), text_style(p.item.text, font),
                                          p.item.what, pc.SHEET_TEXT_PT, pc.SHEET_TEXT_MIN_PT, (p.item.text,))))
    for m in missing:
        room = (pt_to_mm(max(m.room - _bar_room(m.item), 0.0)), pt_to_mm(m.box.depth)) if m.box else (0.0, 0.0)
        found.append((m.item, MeasuredBox(m.item.text, room, None, text_style(m.item.text, font), m.item.what,
                                          pc.SHEET_TEXT_PT, pc.SHEET_TEXT_MIN_PT, (), overflow=True)))
    return found


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
