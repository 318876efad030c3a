"""The duplex calibration sheet.

Front: crosshair targets at known positions. Back: at the mirrored positions, fine scales
(+-CALIBRATION_SCALE_MM, a tick every CALIBRATION_TICK_STEP_MM) with their zero exactly where each
crosshair should show through. Held against a light, the back shows the crosshair at scale
reading (X, Y): the printer moved the back by (-X, -Y), and `--back-offset X,Y` moves it back.
(Scale numbers grow to the right and upwards as seen looking at the back, the same convention as
write_cards_pdf's back_offset.)

The instructions are in `lang` (the shared string pack, pnp/i18n/sheet): with a text-layer `font`
(PnpSans-Regular; `pnp calibrate` uses it) Cyrillic and Arabic are drawn by the text layer, Arabic
shaped and right-aligned. Targets, scales, digits and the 50 mm test square never mirror.

The square (TEST_BAR_MM a side, at the bottom centre of both pages, clear of every target and
scale) measures the printer's scale along x and y: printers scale the two axes differently.
Backs are read as printed (the back page upright, however the sheet was flipped): the offsets it
gives are in the back page's own coordinates, which is what write_cards_pdf's back_offset means
for every flip, short-edge included (turning each back face 180 degrees for a short-edge flip
happens about the card's own centre and leaves the offset alone).
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from pnp import print_constants as pc
from pnp.i18n import sheet as sheet_text
from pnp.sheets.impose import mirror_axis, mirror_rect
from pnp.sheets.info import draw_text
from pnp.sheets.pdfcommon import DUPLEX_PREF, atomic_path, new_canvas, safe_clip, sheet_font
from pnp.sheets.sprues import paper_size_pt
from pnp.text import fonts, hyphenate
from pnp.text.fitreport import MeasuredBox
from pnp.text.layout import PT_TO_MM, layout
from pnp.units import mm, pt_to_mm

# The English texts (pnp/i18n/sheet/en.yaml, calibrate.*); `lang` picks the shared string pack's
# language by default, `texts=` replaces any key. Lines may use {flip} (or the older {edge}): the
# "long"/"short" text of the flip in use.
DEFAULT_TEXTS = sheet_text.calibration_texts("en")
_CROSS_MM = 12.0      # long arms: they still cross the shifted scales with a few mm of drift
_SCALE_SHIFT_MM = 6.0
_RING_MM = 2.5
_TEXT_PT = 7.0
SQUARE_KEY = "calibrate.test_bar"
_LINE_STEP = 1.4           # baseline to baseline, in font sizes
_TEXT_MARGIN_MM = 12.0     # the instructions' first baseline below the top edge, and their side margins
_TEXT_BOTTOM_MM = 46.0     # ... and their floor, from the top: the top targets' arms reach 48 mm down
_SQUARE_BOTTOM_MM = 12.0
_SQUARE_LABEL_MM = 5.0    # the room a side's label has across the side, inside the square


@dataclass(frozen=True)
class CalibrationTarget:
    name: str
    front: tuple[float, float]  # crosshair centre on the front page, points
    back: tuple[float, float]   # scale zero on the back page, points


def targets(paper: str = "a4", flip: str = "long") -> list[CalibrationTarget]:
    """Centre plus four off-centre targets (asymmetric, so a wrong flip setting shows)."""
    w, h = paper_size_pt(paper)
    spots = {"A": (w / 2, h / 2), "B": (mm(40), h - mm(60)), "C": (w - mm(50), h - mm(60)),
             "D": (mm(40), mm(60)), "E": (w - mm(50), mm(75))}
    result = []
    for name, (x, y) in spots.items():
        bx0, by0, _, _ = mirror_rect((x, y, x, y), w, h, mirror_axis(flip, w, h))
        result.append(CalibrationTarget(name, (x, y), (bx0, by0)))
    return result


def _crosshair(canvas: Canvas, x: float, y: float, name: str) -> None:
    arm = mm(_CROSS_MM)
    canvas.lines([(x - arm, y, x + arm, y), (x, y - arm, x, y + arm)])
    canvas.circle(x, y, mm(_RING_MM), stroke=1, fill=0)
    canvas.drawString(x + mm(1), y + mm(1), name)


def _scale(canvas: Canvas, x: float, y: float, name: str, font: str) -> None:
    """Two scales with zero at (x, y) in value but drawn beside the target, so their labels never
    collide: the X scale runs horizontally SCALE_SHIFT_MM below the target (the crosshair's long
    vertical arm crosses it), the Y scale runs vertically SCALE_SHIFT_MM right of it."""
    span, shift = pc.CALIBRATION_SCALE_MM, mm(_SCALE_SHIFT_MM)
    steps = int(round(span / pc.CALIBRATION_TICK_STEP_MM))
    sx, sy = y - shift, x + shift  # the X scale's line (a y) and the Y scale's line (an x)
    canvas.lines([(x - mm(span), sx, x + mm(span), sx), (sy, y - mm(span), sy, y + mm(span))])
    canvas.setFont(font, 4)
    for i in range(-steps, steps + 1):
        v = i * pc.CALIBRATION_TICK_STEP_MM
        tick = mm(2.5 if i == 0 else 1.5 if v == int(v) else 0.8)
        canvas.line(x + mm(v), sx, x + mm(v), sx + tick)  # X scale: ticks up
        canvas.line(sy, y + mm(v), sy + tick, y + mm(v))  # Y scale: ticks right
        if v == int(v) and int(v) % 2 == 0:
            canvas.drawCentredString(x + mm(v), sx - mm(1.8), f"{int(v):+d}" if v else "0")
            canvas.drawString(sy + mm(3), y + mm(v) - 1.4, f"{int(v):+d}" if v else "0")
    canvas.setFont(font, 6)
    canvas.drawString(x - mm(span + 2.5), sx - mm(1), "X")
    canvas.drawString(sy - mm(1), y + mm(span + 1.5), "Y")
    canvas.drawString(x - mm(span + 3), y + mm(span - 2), name)


def measuring_square(paper: str = "a4") -> tuple[float, float, float, float]:
    """The test square's outline (x0, y0, x1, y1) in points: bottom centre, SQUARE_BOTTOM_MM up."""
    w, _ = paper_size_pt(paper)
    side = mm(pc.TEST_BAR_MM)
    return (w / 2 - side / 2, mm(_SQUARE_BOTTOM_MM), w / 2 + side / 2, mm(_SQUARE_BOTTOM_MM) + side)


def _draw_test_square(canvas: Canvas, paper: str, label: CalibrationText, font: str, direction: str) -> None:
    """A TEST_BAR_MM square, its bottom and left sides labelled: measure both with a ruler."""
    x0, y0, x1, y1 = measuring_square(paper)
    size = label.box.size_pt or _TEXT_PT
    canvas.saveState()
    canvas.setStrokeColorRGB(0, 0, 0)
    canvas.setLineWidth(pc.TEST_BAR_WIDTH_PT)
    canvas.setLineJoin(0)   # mitred corners: the outline is exactly TEST_BAR_MM a side (on its centre line)
    canvas.rect(x0, y0, x1 - x0, y1 - y0, stroke=1, fill=0)
    canvas.setFillGray(pc.SHEET_TEXT_GRAY)
    draw_text(canvas, (x0 + x1) / 2, y0 + mm(2), label.box.text, font, size, direction, "middle")
    canvas.translate(x0 + mm(2) + size * 0.8, (y0 + y1) / 2)
    canvas.rotate(90)       # reads bottom to top along the left side
    draw_text(canvas, 0, 0, label.box.text, font, size, direction, "middle")
    canvas.restoreState()


@dataclass(frozen=True)
class CalibrationText:
    """One text of the calibration sheet as it is printed: laid out by the text layer in its box
    (wrapped, then shrunk down to SHEET_TEXT_MIN_PT), with where its lines go."""

    side: str                      # "front" or "back"
    key: str                       # its sheet text key ("calibrate.front_1")
    what: str                      # "instructions line 1", "test square label"
    box: MeasuredBox               # its box, size and lines (for the fit report)
    x: float                       # points: the lines' start (left; right in a right-to-left language)
    baselines: tuple[float, ...]   # points, one per printed line


def _texts(lang: str, texts: dict | None) -> dict:
    return {**DEFAULT_TEXTS, **(sheet_text.calibration_texts(lang) if sheet_text.has_language(lang) else {}),
            **(texts or {})}


def plan_text(paper: str = "a4", flip: str = "long", lang: str = "en", texts: dict | None = None) -> list[CalibrationText]:
    """Every text of both pages, measured: the instructions in a block _TEXT_MARGIN_MM inside the
    top and sides, above the targets (a line too long for the width wraps; when the block runs
    out, it shrinks), and the test square's label inside the square's side."""
    t = _texts(lang, texts)
    direction = sheet_text.direction(lang)
    w, h = paper_size_pt(paper)
    width_mm = pt_to_mm(w) - 2 * _TEXT_MARGIN_MM
    ascent, _ = fonts.vertical_metrics("regular")
    bottom = h - mm(_TEXT_BOTTOM_MM)
    x = w - mm(_TEXT_MARGIN_MM) if direction == "rtl" else mm(_TEXT_MARGIN_MM)
    side_mm = pc.TEST_BAR_MM - 4.0                 # the label, 2 mm clear of either corner
    planned = []
    with hyphenate.using(lang):
        for side in ("front", "back"):
            y = h - mm(_TEXT_MARGIN_MM)
            for number, line in enumerate(t[side], start=1):
                text = line.format(edge=t[flip], flip=t[flip])
                box_h = max(pt_to_mm(y - bottom) + _TEXT_PT * PT_TO_MM * ascent, 0.0)
                got = layout(text, "regular", width_mm, box_h, _TEXT_PT, pc.SHEET_TEXT_MIN_PT,
                             _LINE_STEP, None, direction)
                baselines = tuple(y - i * got.size_pt * _LINE_STEP for i in range(len(got.lines)))
                planned.append(CalibrationText(side, f"calibrate.{side}_{number}", f"instructions line {number}",
                                               _measured(text, (width_mm, box_h), got, "instructions"), x,
                                               baselines))
                y = baselines[-1] - got.size_pt * _LINE_STEP if baselines else y
            label = t["test_bar"]
            got = layout(label, "regular", side_mm, _SQUARE_LABEL_MM, _TEXT_PT, pc.SHEET_TEXT_MIN_PT, 1.2, 1,
                         direction)
            planned.append(CalibrationText(side, SQUARE_KEY, "test square label",
                                           _measured(label, (side_mm, _SQUARE_LABEL_MM), got, "test square label"),
                                           0.0, ()))
    return planned


def _measured(text: str, box_mm: tuple[float, float], got, what: str) -> MeasuredBox:
    return MeasuredBox(text, box_mm, got.size_pt, "regular", what, _TEXT_PT, pc.SHEET_TEXT_MIN_PT, got.lines,
                       got.overflow)


def write_calibration_pdf(path, paper: str = "a4", flip: str = "long", *, font: str | None = None,
                          lang: str = "en", texts: dict | None = None) -> list[CalibrationTarget]:
    if flip not in DUPLEX_PREF:
        raise ValueError(f"unknown flip {flip!r}: use 'long' or 'short'")
    t = _texts(lang, texts)
    planned = plan_text(paper, flip, lang, texts)
    direction = sheet_text.direction(lang)
    rtl = direction == "rtl"
    w, h = paper_size_pt(paper)
    found = targets(paper, flip)
    font = sheet_font(font)
    with atomic_path(path) as tmp:
        canvas = new_canvas(tmp, title=t["title"], subject="", author="", lang=lang, duplex=DUPLEX_PREF[flip],
                            font=font)
        for side in ("front", "back"):
            canvas.setPageSize((w, h))
            canvas.saveState()
            safe_clip(canvas, w, h)
            canvas.setFont(font, _TEXT_PT)
            canvas.setLineWidth(0.3)
            for target in found:
                if side == "front":
                    _crosshair(canvas, *target.front, target.name)
                else:
                    _scale(canvas, *target.back, target.name, font)
            canvas.setFont(font, _TEXT_PT)
            for text in planned:
                if text.side != side:
                    continue
                if text.key == SQUARE_KEY:
                    _draw_test_square(canvas, paper, text, font, direction)
                for line, baseline in zip(text.box.lines, text.baselines):   # right-aligned if right to left
                    draw_text(canvas, text.x, baseline, line, font, text.box.size_pt or _TEXT_PT, direction,
                              "end" if rtl else "start")
            canvas.restoreState()
            canvas.showPage()
        canvas.save()
    return found
