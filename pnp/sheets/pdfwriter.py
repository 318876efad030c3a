"""The PDF sheet writer: card faces onto sprues, with crop marks, duplex or gutterfold backs.

Output is reproducible: identical inputs give byte-identical PDFs (ReportLab invariant mode, no
timestamps, form names numbered by first use). The file appears atomically or not at all.
"""

from __future__ import annotations

import copy as _copy
import hashlib
import io
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from reportlab import rl_config
from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

from pnp import print_constants as pc
from pnp.i18n import sheet as sheet_text
from pnp.sheets import pdfformat, pdfsplice
from pnp.sheets.impose import Rect, SheetGeometry, Slot, impose
from pnp.sheets.info import Item, Missed, Placed, draw_placed, place_items
from pnp.sheets.pdfcommon import (
    DUPLEX_PREF,
    atomic_path,
    clip_rect,
    new_canvas,
    safe_clip,
    save_streamed,
    sheet_font,
)
from pnp.sheets.pdfparts import Applied, PdfParts, set_encoded_stream
from pnp.sheets.sprues import LAYOUTS, Sprue, find_sprue
from pnp.text.fitreport import MIN_PRINTED_PT
from pnp.units import mm, pt_to_mm

if TYPE_CHECKING:   # reportlab.graphics pulls in platypus: a tenth of a second a build needs only for such faces
    from reportlab.graphics.shapes import Drawing

# The English sheet text (pnp/i18n/sheet/en.yaml); `instructions=` replaces any of these keys, and a
# `lang` the shared string pack has gives that language's text by default.
DEFAULT_INSTRUCTIONS: dict[str, str] = sheet_text.card_instructions("en")
_SIZE_TOLERANCE_PT = 0.5


class _Trimmed(Protocol):
    """What the sheet plan needs of a card: its trim size in points."""

    @property
    def trim_w(self) -> float: ...

    @property
    def trim_h(self) -> float: ...


T = TypeVar("T", bound=_Trimmed)


@dataclass(frozen=True)
class Face:
    """One printable face. Identical keys are drawn once (a PDF form XObject) and reused."""
    key: str
    # trim + 2 * BLEED_MM on each axis, in points; (0, 0) = bottom-left of the bleed box. A ReportLab
    # Drawing, or any object with width, height and define_form(canvas, name) (a compiled SVG face).
    drawing: Drawing | Any


@dataclass(frozen=True)
class SheetCard:
    front: Face
    back: Face        # the deck back, or the second face of a two-faced card
    trim_w: float     # points
    trim_h: float
    label: str        # card instance id


@dataclass(frozen=True)
class PlacedCard:
    label: str
    face: str        # "front" or "back"
    trim: Rect       # points, page coordinates, as drawn (back_offset included)
    art: Rect        # the printed part of the face (trim + its bleed on every side)
    rotation: int = 0  # degrees counter-clockwise the face is drawn turned about the trim's centre
    transform: tuple[float, float, float, float, float, float] = (1, 0, 0, 1, 0, 0)  # the face's PDF matrix


@dataclass(frozen=True)
class PageReport:
    number: int      # 1-based page number in the PDF
    sheet: int       # 1-based sheet number
    side: str        # "front", "back" or "gutterfold"
    sprue: str
    width: float     # points
    height: float
    cards: tuple[PlacedCard, ...]
    marks: tuple[tuple[float, float, float, float], ...]
    test_bars: tuple[tuple[float, float, float, float], ...]  # (x0, y0, x1, y1) between the end ticks:
                                                              # one along x and one along y


@dataclass
class SheetReport:
    front_sheets: int = 0
    back_sheets: int = 0
    pages: list[PageReport] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


class _Forms:
    """Each unique face becomes one form XObject, named in order of first use (reproducible).
    With `parts` (pnp.sheets.pdfparts), a face drawn by an earlier build gets that build's stream."""

    def __init__(self, canvas: Canvas, parts: PdfParts | None = None, recorder: pdfsplice.Recorder | None = None):
        self.canvas = canvas
        self.parts = parts
        self.recorder = recorder
        self.recorded = recorder is not None  # every form through parts and recorded (pdfsplice)
        self.names: dict[str, str] = {}
        self._shared: dict[Any, Any] = {}     # what ReportLab would make for each form when saving

    def ensure(self, face: Face) -> str:
        name = self.names.get(face.key)
        if name is None:
            name = self.names[face.key] = f"pnpface{len(self.names)}"
            d: Any = face.drawing
            if self.parts is not None and getattr(d, "cache_id", None):
                parts = self.parts

                def define() -> None:
                    parts.form(self.canvas, name, d, lambda: self._define(d, name))

                if self.recorder is not None:
                    self.recorder.form(face, define)
                else:
                    define()
            else:
                self.recorded = False
                self._define(d, name)
            self._share_dictionaries(name)
        return name

    def draw(self, face: Face, name: str) -> None:
        """Define form `name` of `face`, drawn (pnp.sheets.pdfsplice.FormMaker)."""
        self._define(face.drawing, name)

    def _share_dictionaries(self, name: str) -> None:
        """Give the form the resource dictionary, box and matrix its format() would make, one
        object for every form alike: formatting them writes the same bytes, and ReportLab keeps
        what format() makes on each of thousands of forms until the document is freed."""
        doc = self.canvas._doc
        form = doc.idToObject[doc.getXObjectName(name)]
        if form.Resources is None and not form.XObjects:
            key = ("resources", bool(form.hasImages))
            if key not in self._shared:
                resources = self._shared[key] = pdfdoc.PDFResourceDictionary()
                resources.basicFonts()
                resources.allProcs() if form.hasImages else resources.basicProcs()
            form.Resources = self._shared[key]
        if form.BBox is None:
            box = (form.lowerx, form.lowery, form.upperx, form.uppery)
            form.BBox = self._shared.setdefault(box, pdfdoc.PDFArray(list(box)))
        if form.Matrix is None:
            form.Matrix = self._shared.setdefault("matrix", pdfdoc.PDFArray([1, 0, 0, 1, 0, 0]))

    def _define(self, d: Any, name: str) -> None:
        if hasattr(d, "define_form"):  # e.g. pnp.render.svgcanvas.CompiledFace defines its own form
            d.define_form(self.canvas, name)
        else:
            from reportlab.graphics import renderPDF

            # Defined before the page draws anything; beginForm/endForm keep the page state intact.
            self.canvas.beginForm(name, 0, 0, d.width, d.height)
            renderPDF.draw(_with_initial_font(d, self.canvas._fontname), self.canvas, 0, 0)
            shading = dict(self.canvas._shadingUsed)  # endForm forgets it
            self.canvas.endForm()
            _complete_form_resources(self.canvas, name, shading)
        compress_form_now(self.canvas, name)


_Applied = Applied      # its old name (pnp.sheets.pdfparts.Applied)


def compress_form_now(canvas: Canvas, name: str) -> None:
    """Compress the form `name` as soon as it is drawn, not when the document is saved: ReportLab
    keeps every form's and page's operators as text until then, some kilobytes a face, which for
    thousands of faces was most of a build's memory. The bytes written are the ones ReportLab would
    write (its own filters, in its order; tests/test_sheets.py compares), only made earlier."""
    _encode_now(canvas._doc.idToObject[canvas._doc.getXObjectName(name)], "xobject form stream")


def compress_page_now(canvas: Canvas) -> None:
    """`compress_form_now` for the page just ended with showPage()."""
    _encode_now(canvas._doc.Pages.pages[-1], "page stream")


def _encode_now(obj, comment: str) -> None:
    if obj.Contents is not None or not obj.stream or not obj.compression:
        return
    filters = [pdfdoc.PDFBase85Encode, pdfdoc.PDFZCompress] if rl_config.useA85 else [pdfdoc.PDFZCompress]
    content = obj.stream
    for f in reversed(filters):
        content = f.encode(content)
    set_encoded_stream(obj, content, [f.pdfname for f in filters], comment)


def _with_initial_font(drawing: Drawing, font: str) -> Drawing:
    """A shallow copy of `drawing` whose renderer starts in `font`: renderPDF otherwise opens every
    form with `BT /F1 12 Tf ET` in its default font, Helvetica, not embedded. (The renderer reads
    `initialFontName` off the drawing; set through __dict__, as Drawing checks its attributes.)"""
    copy = _copy.copy(drawing)
    copy.__dict__["initialFontName"] = font
    return copy


def _complete_form_resources(canvas: Canvas, name: str, shading: dict) -> None:
    """ReportLab 5.1's PDFFormXObject.format() leaves ExtGState (opacity), colour spaces and
    shadings out of a form's /Resources, so viewers drop transparency ("ExtGState 'gRLs0' is
    unknown"). Build the dictionary the way ReportLab does for pages. Uses ReportLab internals:
    tests/test_sheets.py::test_face_opacity_survives_the_form checks it still works."""
    form = canvas._doc.idToObject[canvas._doc.getXObjectName(name)]
    resources = pdfdoc.PDFResourceDictionary()
    resources.basicFonts()  # the document-wide font dictionary, embedded TTFs included
    resources.allProcs()
    if form.XObjects:
        resources.XObject = form.XObjects
    if getattr(form, "ExtGState", None):
        resources.ExtGState = form.ExtGState
    resources.setColorSpace(getattr(form, "_colorsUsed", {}))
    resources.setShading(shading)
    form.Resources = resources


def _check_face(face: Face, card: SheetCard) -> None:
    want_w, want_h = card.trim_w + 2 * mm(pc.BLEED_MM), card.trim_h + 2 * mm(pc.BLEED_MM)
    got_w, got_h = float(face.drawing.width), float(face.drawing.height)
    if abs(got_w - want_w) > _SIZE_TOLERANCE_PT or abs(got_h - want_h) > _SIZE_TOLERANCE_PT:
        raise ValueError(
            f"card {card.label!r}, face {face.key!r}: drawing is {pt_to_mm(got_w):.2f} x {pt_to_mm(got_h):.2f} mm,"
            f" expected trim + bleed = {pt_to_mm(want_w):.2f} x {pt_to_mm(want_h):.2f} mm")


def _draw_face(canvas: Canvas, forms: _Forms, face: Face, art: Rect, matrix) -> None:
    name = forms.ensure(face)
    canvas.saveState()
    clip_rect(canvas, art)  # the trim and its bleed: never over a neighbour's bleed or the marks
    canvas.transform(*matrix)
    canvas.doForm(name)
    canvas.restoreState()


def _draw_marks(canvas: Canvas, marks) -> None:
    canvas.saveState()
    canvas.setStrokeColorRGB(*pc.CROP_MARK_COLOR)
    canvas.setLineWidth(pc.CROP_MARK_WIDTH_PT)
    canvas.setLineCap(0)
    canvas.lines(marks)
    canvas.restoreState()


def _draw_fold(canvas: Canvas, fold) -> None:
    canvas.saveState()
    canvas.setStrokeGray(0.35)
    canvas.setLineWidth(pc.FOLD_LINE_WIDTH_PT)
    canvas.setDash(list(pc.FOLD_LINE_DASH_PT), 0)
    canvas.line(*fold)
    canvas.restoreState()


def _place(canvas: Canvas, forms: _Forms, label: str, side: str, face: Face, slot: Slot) -> PlacedCard:
    matrix = slot.transform(float(face.drawing.width), float(face.drawing.height))
    _draw_face(canvas, forms, face, slot.art, matrix)
    return PlacedCard(label, side, slot.trim, slot.art, slot.rotation, matrix)


def _shift(rect, dx: float, dy: float):
    return (rect[0] + dx, rect[1] + dy, rect[2] + dx, rect[3] + dy)


def _group_by_size(cards: list[T]) -> list[list[T]]:
    """Cards of one trim size share sheets (in order of first appearance); sizes never mix."""
    groups: dict[tuple[float, float], list[T]] = {}
    for card in cards:
        groups.setdefault((round(card.trim_w, 2), round(card.trim_h, 2)), []).append(card)
    return list(groups.values())


def write_cards_pdf(path, cards: list[SheetCard], *, paper: str = "a4", layout: str = "duplex",
                    flip: str = "long", back_offset: tuple[float, float] = (0.0, 0.0), title: str = "",
                    subject: str = "", author: str = "", lang: str = "en", instructions: dict | None = None,
                    font: str | None = None, printer_margin: float = pc.PRINTER_MARGIN_MM,
                    on_page: Callable[[int, int], None] | None = None, page_reports: bool = True,
                    parts: PdfParts | None = None, last: Path | None = None) -> SheetReport:
    """Impose `cards` onto sheets and write the PDF atomically.

    duplex: each front page is followed by its back page. Backs are mirrored for the flip
    (flip="long" on portrait paper: columns reversed; "short": rows reversed) so each back lands
    under its front, and turned so that it reads upright when the cut card is turned over about its
    own vertical axis, whichever the flip (a short-edge flip turns each back 180 degrees).
    back_offset=(x, y) in mm moves every back page's cards and marks by +x to the right and +y up,
    as seen looking at the printed back page (read it off the calibration sheet).
    gutterfold: fronts and mirrored backs side by side on one page, a dashed fold line between
    (`flip` and `back_offset` do not apply; the PDF asks for simplex printing).
    Sheet text is localised: by default it is the shared string pack's text in `lang`
    (pnp/i18n/sheet/<lang>.yaml, English for a language it lacks); `instructions` (keys of
    DEFAULT_INSTRUCTIONS) replaces any of it. `font` is a text-layer font (pnp.text.fonts, default
    PnpSans-Regular): Cyrillic and Arabic are shaped and drawn by the text layer (Arabic right to
    left, with the margin items mirrored), always in embedded fonts.
    `printer_margin` (mm) is the paper edge's dead zone: nothing is drawn in it, crop marks are
    CROP_MARK_LEN_MM long outside it, and every card edge keeps MIN_BLEED_MM of bleed; the grid is
    the shipped sprue, or the densest that fits (NoLayoutError, a ValueError, when none does).
    `on_page(done, total)` is called after each page is drawn (a progress bar). `page_reports=False`
    leaves SheetReport.pages empty (what was placed where, a few kilobytes a page: a build of
    thousands of cards does not need it). `parts` (pnp.sheets.pdfparts) reuses the streams of
    forms and pages an earlier build wrote (faces must be PackedFaces with a cache_id), and keeps
    this build's: the bytes are the same as without it (`page_reports=True` draws every page).
    `last` is where the last build's output of this PDF is: when only faces' drawings changed
    since, the PDF is that file with their forms replaced (pnp.sheets.pdfsplice), the same bytes.
    """
    if not 0 <= printer_margin <= pc.MAX_PRINTER_MARGIN_MM:
        raise ValueError(f"printer margin {printer_margin:g} mm: use 0 to {pc.MAX_PRINTER_MARGIN_MM:g} mm")
    font = sheet_font(font)
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r}: use one of {', '.join(LAYOUTS)}")
    if flip not in DUPLEX_PREF:
        raise ValueError(f"unknown flip {flip!r}: use 'long' or 'short'")
    texts = sheet_texts(lang, instructions)
    direction = sheet_text.direction(lang)
    if not cards:
        raise ValueError("no cards to print")
    for card in cards:
        _check_face(card.front, card)
        _check_face(card.back, card)

    plan = plan_sheets(cards, paper, layout, flip, printer_margin)
    back_shift = (mm(back_offset[0]), mm(back_offset[1]))
    report = SheetReport()
    total = len(plan) * len(sides(layout))
    canvas_args = dict(title=title, subject=subject, author=author, lang=lang,
                       duplex="Simplex" if layout == "gutterfold" else DUPLEX_PREF[flip], font=font)
    with atomic_path(path) as tmp:
        if parts is not None and not page_reports:
            def pages() -> Iterator[_PartsPage]:       # made as they are drawn: not all held at once
                return _parts_pages(plan, layout, flip, texts, title, back_shift, font, direction, printer_margin)

            document = _sha(repr([paper, layout, flip, back_shift, sorted(texts.items()), printer_margin,
                                  sorted(canvas_args.items()), direction]))
            warnings = pdfsplice.rewrite(tmp, last, parts, document, lambda: [page.spec for page in pages()],
                                         lambda: _scratch(canvas_args))
            if warnings is not None:                   # written from the last build's file
                report.warnings.extend(warnings)
                for n in range(1, total + 1):
                    if on_page is not None:
                        on_page(n, total)
            else:
                recorder = _write_parts_pages(tmp, canvas_args, parts, pages(), total, report, font, direction,
                                              printer_margin, on_page)
                if recorder is not None:               # (the document freed: its layout is written after it)
                    recorder.save(parts, document, Path(tmp), report.warnings)
        else:
            canvas = new_canvas(tmp, **canvas_args)
            forms = _Forms(canvas, parts)             # (page reports: every page drawn, forms reused)
            for n, (sprue, geo, sheet_cards) in enumerate(plan, start=1):
                for side in sides(layout):
                    shift = back_shift if side == "back" else (0.0, 0.0)
                    text = place_sheet_text(geo, texts, side, layout, flip, n, len(plan), title, font, direction)
                    page = _draw_page(canvas, forms, geo, sheet_cards, side, shift, text, font,
                                      report.warnings, direction, printer_margin)
                    if page_reports:
                        report.pages.append(PageReport(canvas.getPageNumber(), n, side, sprue.id, geo.page_w,
                                                       geo.page_h, *page))
                    canvas.showPage()
                    compress_page_now(canvas)
                    if on_page is not None:
                        on_page(canvas.getPageNumber() - 1, total)
            with pdfformat.quick_format():      # the same bytes, each name and number encoded once
                save_streamed(canvas)
    report.front_sheets = len(plan)
    report.back_sheets = len(plan) if layout == "duplex" else 0
    return report


@dataclass(frozen=True)
class _PartsPage:
    """A page drawn through pnp.sheets.pdfparts: what its key is made of (`spec`) and what drawing
    it reads."""
    spec: pdfsplice.PageSpec
    geo: SheetGeometry
    cards: list[SheetCard]
    side: str
    shift: tuple[float, float]
    text: Callable[[], tuple[list[Placed], list[Missed]]]    # its margin text, placed when drawn


def _parts_pages(plan: list, layout: str, flip: str, texts: dict[str, str], title: str,
                 back_shift: tuple[float, float], font: str, direction: str, printer_margin: float) -> Iterator[_PartsPage]:
    """Every page of the plan with its key's inputs: each geometry and the sheet texts digested once
    (full sheets share a geometry, and its repr is long). The margin text is placed only when the
    page is drawn: the key holds what place_sheet_text reads (the fonts and code are in every key)."""
    geo_texts: dict[int, str] = {}
    texts_digest = _sha(repr(sorted(texts.items())))
    for n, (_sprue, geo, sheet_cards) in enumerate(plan, start=1):
        geo_text = geo_texts.get(id(geo)) or geo_texts.setdefault(id(geo), _sha(repr(geo)))
        for side in sides(layout):
            shift = back_shift if side == "back" else (0.0, 0.0)
            faces = [c.back if side == "back" else c.front for c in sheet_cards]
            faces += [c.back for c in sheet_cards] if side == "gutterfold" else []
            sheet = [texts_digest, layout, flip, n, len(plan), title]
            rest = [geo_text, side, list(shift), sheet, font, direction, printer_margin]

            def placed(geo: SheetGeometry = geo, side: str = side, n: int = n) -> tuple[list[Placed], list[Missed]]:
                return place_sheet_text(geo, texts, side, layout, flip, n, len(plan), title, font, direction)

            spec = pdfsplice.PageSpec(faces, (geo.page_w, geo.page_h), rest)
            yield _PartsPage(spec, geo, sheet_cards, side, shift, placed)


def _write_parts_pages(tmp: str, canvas_args: dict, parts: PdfParts, pages: Iterator[_PartsPage], total: int,
                       report: SheetReport, font: str, direction: str, printer_margin: float,
                       on_page: Callable[[int, int], None] | None) -> pdfsplice.Recorder | None:
    """The pages through `parts` (reused streams and drawn ones), saved to `tmp`; what a later
    rebuild splices from (pnp.sheets.pdfsplice), None when a face is not in the face cache."""
    canvas = new_canvas(tmp, **canvas_args)
    recorder = pdfsplice.Recorder(canvas)
    forms = _Forms(canvas, parts, recorder)
    for n, page in enumerate(pages, start=1):
        names = [forms.ensure(face) for face in page.spec.faces]   # forms first, as _draw_page defines them
        inputs = pdfsplice.page_inputs(names, page.spec)

        def draw(page: _PartsPage = page) -> list[str]:
            before = len(report.warnings)
            _draw_page(canvas, forms, page.geo, page.cards, page.side, page.shift, page.text(), font, report.warnings,
                       direction, printer_margin)
            canvas.showPage()
            compress_page_now(canvas)
            added = report.warnings[before:]
            del report.warnings[before:]
            return added

        report.warnings.extend(parts.page(canvas, inputs, page.spec.size, draw))
        if on_page is not None:
            on_page(n, total)
    recorder.finish()
    with pdfformat.quick_format():      # the same bytes, each name and number encoded once
        save_streamed(canvas)
    return recorder if forms.recorded else None


def _scratch(canvas_args: dict) -> tuple[Canvas, _Forms]:
    """A canvas like the document's, never saved, and its forms made as the writer makes them,
    without pnp.sheets.pdfparts (pnp.sheets.pdfsplice draws changed faces in it)."""
    canvas = new_canvas(io.BytesIO(), **canvas_args)     # type: ignore[arg-type]
    return canvas, _Forms(canvas)


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _draw_page(canvas: Canvas, forms: _Forms, geo: SheetGeometry, cards: list[SheetCard], side: str,
               shift: tuple[float, float], text: tuple[list[Placed], list[Missed]], font: str, warnings: list[str],
               direction: str = "ltr", printer_margin: float = pc.PRINTER_MARGIN_MM):
    """One page: faces, crop marks, fold line, sheet text (`text`: place_sheet_text's). Returns
    (placed cards, marks, test bars)."""
    canvas.setPageSize((geo.page_w, geo.page_h))
    faces = [c.back if side == "back" else c.front for c in cards]
    faces += [c.back for c in cards] if side == "gutterfold" else []
    for face in faces:  # forms are defined before the page draws anything
        forms.ensure(face)
    canvas.saveState()
    safe_clip(canvas, geo.page_w, geo.page_h, printer_margin)
    placed: list[PlacedCard] = []
    for card, front, back in zip(cards, geo.fronts, geo.backs):
        if side in ("front", "gutterfold"):
            placed.append(_place(canvas, forms, card.label, "front", card.front, front))
        if side in ("back", "gutterfold"):
            moved = Slot(_shift(back.trim, *shift), _shift(back.art, *shift), back.rotation)
            placed.append(_place(canvas, forms, card.label, "back", card.back, moved))
    marks = tuple(_shift(m, *shift) for m in (geo.back_marks if side == "back" else geo.marks))
    _draw_marks(canvas, marks)
    if geo.fold:
        _draw_fold(canvas, geo.fold)

    info, missing = text
    bars = draw_placed(canvas, info, font, direction)
    warnings.extend(f"page {canvas.getPageNumber()}: no room for {m.item.text!r}" for m in missing)
    canvas.restoreState()
    return tuple(placed), marks, tuple(bars)


# ---- the plan of the sheets and their margin text (also read by the fit report, pnp.i18n.fit)

def sheet_texts(lang: str, instructions: dict | None = None) -> dict[str, str]:
    """The sheet text of a cards PDF in `lang` (the shared string pack's, English for a language it
    lacks), with `instructions` replacing any key of DEFAULT_INSTRUCTIONS."""
    texts = dict(DEFAULT_INSTRUCTIONS)
    unknown = set(instructions or {}) - set(texts)
    if unknown:
        raise ValueError(f"unknown instruction keys {sorted(unknown)}: known are {sorted(texts)}")
    if sheet_text.has_language(lang):
        texts.update(sheet_text.card_instructions(lang))
    texts.update(instructions or {})
    return texts


def plan_sheets(cards: list[T], paper: str, layout: str, flip: str,
                printer_margin: float = pc.PRINTER_MARGIN_MM) -> list[tuple[Sprue, SheetGeometry, list[T]]]:
    """Every sheet of `cards` (anything with trim_w and trim_h in points): its sprue, geometry and
    cards, planned before anything is drawn so that labels can say "sheet 3/11"."""
    plan: list[tuple[Sprue, SheetGeometry, list[T]]] = []
    geometries: dict[tuple[str, int, int], SheetGeometry] = {}
    for group in _group_by_size(cards):
        sprue = find_sprue(group[0].trim_w, group[0].trim_h, paper, layout, printer_margin)
        for i in range(0, len(group), sprue.capacity):
            chunk = group[i:i + sprue.capacity]
            key = (sprue.id, sprue.capacity, len(chunk))      # full sheets share one geometry
            if key not in geometries:
                geometries[key] = impose(sprue, flip, filled=len(chunk), printer_margin_mm=printer_margin)
            plan.append((sprue, geometries[key], chunk))
    return plan


def sides(layout: str) -> list[str]:
    return ["gutterfold"] if layout == "gutterfold" else ["front", "back"]


def place_sheet_text(geo: SheetGeometry, texts: dict[str, str], side: str, layout: str, flip: str, sheet: int,
                     sheets: int, title: str, font: str, direction: str) -> tuple[list[Placed], list[Missed]]:
    """The margin text of one page, fitted into the geometry's free margin boxes: the instruction
    line (in two pieces when the margins are too small for one), the page label and the two test
    bars' labels. Each item says which sheet text key it prints (for the fit report)."""
    how_key = "gutterfold" if layout == "gutterfold" else f"duplex_{flip}"
    how = texts[how_key]
    side_name = texts["gutterfold_side"] if side == "gutterfold" else texts[side]
    label = texts["label"].format(title=title or "pnp", sheet=sheet, sheets=sheets, side=side_name)
    # the label tries the top first: beside the bar it would crowd the bar's ticks against the marks
    bar_and_label = [Item("bar", texts["test_bar"], "bottom", "x", "sheet.test_bar", "test bar label (x)"),
                     Item("bar", texts["test_bar"], "left", "y", "sheet.test_bar", "test bar label (y)"),
                     Item("text", label, "top", "", "sheet.label", "page label")]
    joined = Item("text", texts["instructions"].format(print=texts["print"], how=how), "top", "",
                  "sheet.instructions", "print line")
    whole = place_items([joined] + bar_and_label, geo.info, font, direction)
    if not whole[1] and _smallest(whole[0]) >= MIN_PRINTED_PT - 1e-9:
        return whole
    # small margins: the instruction in two pieces, when that leaves out less or prints larger
    pieces = [Item("text", texts["print"], "top", "", "sheet.print", "print line"),
              Item("text", how, "top", "", f"sheet.{how_key}", "print line (how)")]
    split = place_items(pieces + bar_and_label, geo.info, font, direction)
    return min(whole, split, key=lambda found: (len(found[1]), -_smallest(found[0])))


def _smallest(placed: list[Placed]) -> float:
    return min((p.size for p in placed), default=0.0)


def __getattr__(name: str) -> Any:
    """write_calibration_pdf (re-exported for the CLI) and renderPDF, loaded when first asked for."""
    if name == "write_calibration_pdf":
        from pnp.sheets.calibrate import write_calibration_pdf
        return write_calibration_pdf
    if name == "renderPDF":
        from reportlab.graphics import renderPDF
        return renderPDF
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
