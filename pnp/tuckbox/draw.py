"""Drawing tuck-box pages: the deck's back art in the front and back panels (on the PDF canvas),
then one SVG sketch per page over it (pnp.components.svgkit: names through the text layer,
glue hatching, fold and cut lines, the instruction strip and the test bar), then the PDF.

The style is the parts pages' (pnp.components.style): cut solid black, fold dashed grey over a
white halo, glue tinted and hatched. Geometry never mirrors in right-to-left languages; the
strips' text sides do.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pnp.components import style as st
from pnp.components.svgkit import Sketch, sketch_face, text_markup
from pnp.sheets.pdfcommon import atomic_path, clip_rect, new_canvas
from pnp.text import digits
from pnp.text.fitreport import FitReport
from pnp.tuckbox.geometry import MmRect, Part, Piece
from pnp.tuckbox.pages import STRIP_MM, PageSpec, Placed
from pnp.units import mm

NAME_PT, NAME_MIN_PT = 13.0, 6.0        # the name on the front (shrinks, wraps to two lines)
LABEL_PT, LABEL_MIN_PT = 9.0, 6.0       # names on the back, sides and lid; the sizes on the bottom
STRIP_PT, STRIP_MIN_PT = 7.0, 6.0       # the instruction strip and page label
LEGEND_SAMPLE_MM = 8.0
LEGEND_WORD_MM = 16.0


@dataclass(frozen=True)
class PanelText:
    """What one net prints on its panels (already in the build language)."""

    front: str                 # the box's name: must fit
    game: str                  # the game's name above it ("" for the game's own box): must fit
    sides: str                 # on the sides and lid, where it fits
    sizes: str                 # on the bottom, where it fits


@dataclass(frozen=True)
class StripText:
    print: str
    legend: dict[str, str]     # cut, fold, glue
    test_bar: str
    label: str                 # the page label (filled)
    short_label: str           # the same without the boxes' names, when they make it too long


def page_face(page: PageSpec, placed: list[Placed], texts: list[PanelText], strip: StripText,
              margin: float, direction: str, report: FitReport) -> Any:
    """The sketch of one page (everything but the art), compiled for the canvas."""
    s = Sketch(page.width, page.height, report, direction=direction)
    for p in placed:
        _piece(s, p, texts[p.net], report)
    _strips(s, page, strip, margin)
    return sketch_face(s)


def _moved(points, offset: tuple[float, float]) -> list[tuple[float, float]]:
    return [(x + offset[0], y + offset[1]) for x, y in points]


def _piece(s: Sketch, p: Placed, text: PanelText, report: FitReport) -> None:
    for part in p.piece.parts:
        if part.kind == "glue":
            s.glue(_moved(part.outline, p.offset))
    _names(s, p, text)
    for fold in p.piece.folds:
        (x1, y1), (x2, y2) = _moved((fold.start, fold.end), p.offset)
        s.fold_line(x1, y1, x2, y2)
    for run in p.piece.cut_runs():
        points = _moved(run, p.offset)
        d = "M" + " L".join(f"{x:.3f},{y:.3f}" for x, y in points)
        s.path(d, stroke=st.CUT_COLOUR, width=st.CUT_MM, stroke_linejoin="round", stroke_linecap="round")


def _has(piece: Piece, name: str) -> Part | None:
    return next((part for part in piece.parts if part.name == name), None)


def _names(s: Sketch, p: Placed, text: PanelText) -> None:
    front = _has(p.piece, "front")
    if front is not None:
        _band(s, p.to_page(front.rect), text.game, text.front)
    for name in ("side-left", "side-right"):
        part = _has(p.piece, name)
        if part is not None:
            x, y, w, h = p.to_page(part.rect)
            _optional(s, text.sides, x + 0.8, y + 4, w - 1.6, h - 8, "bold", rotate=-90)
    lid = _has(p.piece, "lid")
    if lid is not None:
        x, y, w, h = p.to_page(lid.rect)
        _optional(s, text.sides, x + 3, y + 0.5, w - 6, h - 1, "bold")
    bottom = _has(p.piece, "bottom")
    if bottom is not None:
        x, y, w, h = p.to_page(bottom.rect)
        _optional(s, text.sizes, x + 3, y + 0.5, w - 6, h - 1, "regular", direction="ltr")


def band_rect(panel: MmRect) -> MmRect:
    """The name band on a front panel (mm, page coordinates): across its foot, low on the panel
    because card backs put their emblem higher."""
    x, y, w, h = panel
    band_h = min(15.0, 0.17 * h)
    return x, y + h - band_h - 2.0, w, band_h


def _band(s: Sketch, panel: MmRect, game: str, name: str) -> None:
    """A paper band across the foot of the front, the game's name (small) over the box's: both
    must fit. The band is opaque: a back often prints the game's title low on the card (the
    starter's does), and any of it showing through would read as doubled text under the names."""
    x, band_y, w, band_h = band_rect(panel)
    s.rect(x, band_y, w, band_h, fill=st.SHEET_PAPER)
    title_h = 0.3 * band_h if game else 0.0
    if game:
        s.text(game, x + 3, band_y + 0.8, w - 6, title_h, size=STRIP_PT, min_size=NAME_MIN_PT, max_lines=1,
               what="tuck box front")
    s.text(name, x + 3, band_y + 0.8 + title_h, w - 6, band_h - 1.6 - title_h, font="bold", size=NAME_PT,
           min_size=NAME_MIN_PT, max_lines=2, what="tuck box front")


def _optional(s: Sketch, text: str, x: float, y: float, w: float, h: float, font: str, rotate: int = 0,
              direction: str | None = None, size: float = LABEL_PT, min_size: float = LABEL_MIN_PT,
              max_lines: int = 1, align: str = "middle") -> bool:
    """Text drawn only where it fits at `min_size` or more (a thin box's sides may be too narrow
    for its name); returns whether it was drawn."""
    if not text or w <= 0 or h <= 0:
        return False
    box_w, box_h = (h, w) if rotate else (w, h)
    trial = FitReport()
    text_markup(trial, text, 0, 0, box_w, box_h, font=font, size=size, min_size=min_size, max_lines=max_lines,
                direction=direction or s.direction)
    if trial.issues:
        return False
    s.text(text, x, y, w, h, font=font, size=size, min_size=min_size, max_lines=max_lines, rotate=rotate,
           direction=direction, align=align)
    return True


def _strips(s: Sketch, page: PageSpec, strip: StripText, margin: float) -> None:
    """Top: the print instruction (start side) and the cut/fold/glue legend (end side). Bottom:
    the 50 mm test bar (start side) and the page label (end side). Sheet text, so Latin digits
    whatever the build's digits option, like the card sheets' and parts pages' (docs/text.md)."""
    with digits.using(None):
        _draw_strips(s, page, strip, margin)


def _draw_strips(s: Sketch, page: PageSpec, strip: StripText, margin: float) -> None:
    left, width = margin, page.width - 2 * margin
    rtl = s.direction == "rtl"

    def mx(x: float, w: float) -> float:        # a box at x from the start side
        return left + (width - x - w if rtl else x)

    top, bottom = margin, page.height - margin - STRIP_MM
    legend_w = 3 * (LEGEND_SAMPLE_MM + LEGEND_WORD_MM + 3.0)
    s.text(strip.print, mx(0, width - legend_w - 4), top, width - legend_w - 4, STRIP_MM, size=STRIP_PT,
           min_size=STRIP_MIN_PT, max_lines=2, align="start", what="tuck box page")
    x = width - legend_w
    for kind in ("cut", "fold", "glue"):
        sx, mid = mx(x, LEGEND_SAMPLE_MM), top + STRIP_MM / 2
        if kind == "cut":
            s.cut_line(sx, mid, sx + LEGEND_SAMPLE_MM, mid)
        elif kind == "fold":
            s.fold_line(sx, mid, sx + LEGEND_SAMPLE_MM, mid)
        else:
            s.glue_rect(sx, top + 1.5, LEGEND_SAMPLE_MM, STRIP_MM - 3)
        s.text(strip.legend[kind], mx(x + LEGEND_SAMPLE_MM + 1.5, LEGEND_WORD_MM), top, LEGEND_WORD_MM, STRIP_MM,
               size=STRIP_PT, min_size=STRIP_MIN_PT, align="start", what="legend")
        x += LEGEND_SAMPLE_MM + LEGEND_WORD_MM + 3.0
    bar_x = mx(0, 50.0)
    mid = bottom + STRIP_MM / 2
    s.line(bar_x, mid, bar_x + 50.0, mid, stroke="#000000", width=0.18)
    for end in (bar_x, bar_x + 50.0):
        s.line(end, mid - 1.2, end, mid + 1.2, stroke="#000000", width=0.18)
    s.text(strip.test_bar, mx(52, 16), bottom, 16, STRIP_MM, size=STRIP_PT, min_size=STRIP_MIN_PT, align="start",
           what="test bar")
    for label in (strip.label, strip.short_label):     # the names are on the boxes: they may go
        if _optional(s, label, mx(72, width - 72), bottom, width - 72, STRIP_MM, "regular", size=STRIP_PT,
                     min_size=STRIP_MIN_PT, max_lines=2, align="end"):
            break


# ---- the PDF

@dataclass(frozen=True)
class Art:
    """A compiled card face (bleed included) and its trim size in mm."""

    key: str
    drawing: Any               # pnp.render.svgcanvas.CompiledFace
    trim_w: float
    trim_h: float


def draw_art(canvas, page_h_pt: float, art: Art, panel: MmRect, form: str) -> None:
    """The face scaled so that its trim covers the panel (at most a fraction of a millimetre of
    its edge is lost: the panel is the card plus play), centred, clipped to the panel."""
    x, y, w, h = panel
    scale = max(w / art.trim_w, h / art.trim_h)
    canvas.saveState()
    clip_rect(canvas, (mm(x), page_h_pt - mm(y + h), mm(x + w), page_h_pt - mm(y)))
    canvas.translate(mm(x + w / 2), page_h_pt - mm(y + h / 2))
    canvas.scale(scale, scale)
    canvas.translate(-art.drawing.width / 2, -art.drawing.height / 2)
    canvas.doForm(form)
    canvas.restoreState()


def write_pdf(path, pages: list[PageSpec], faces: list[Any], placed: list[Placed], arts: list[Art | None],
              margin: float, *, title: str, lang: str) -> None:
    """Write the pages atomically; `arts[net]` is the net's art (None: none), `faces[page]` its sketch."""
    with atomic_path(path) as tmp:
        canvas = new_canvas(tmp, title=title, subject="pnp print-and-play tuck boxes", author="", lang=lang,
                            duplex="Simplex")
        forms: dict[str, str] = {}
        for page, face in zip(pages, faces, strict=True):
            page_w, page_h = mm(page.width), mm(page.height)
            canvas.setPageSize((page_w, page_h))
            on_page = [p for p in placed if p.page == page.number]
            for p in on_page:               # forms first: before the page draws anything
                art = arts[p.net]
                if art is not None and art.key not in forms:
                    forms[art.key] = f"pnptuck{len(forms)}"
                    art.drawing.define_form(canvas, forms[art.key])
            canvas.saveState()
            clip_rect(canvas, (mm(margin), mm(margin), page_w - mm(margin), page_h - mm(margin)))
            for p in on_page:
                art = arts[p.net]
                for name in ("front", "back"):
                    part = _has(p.piece, name)
                    if art is not None and part is not None:
                        draw_art(canvas, page_h, art, p.to_page(part.rect), forms[art.key])
            face.draw(canvas, 0, 0)
            canvas.restoreState()
            canvas.showPage()
        canvas.save()
