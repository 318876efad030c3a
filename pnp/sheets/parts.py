"""The PDF writer for everything that is not a card: boards, board tiles, standees, dice, aids.

Pages share the card sheets' machinery (`pdfcommon`): atomic write, reproducible (invariant) canvas,
everything clipped 5 mm inside the paper edge, and on every page the instruction line, a 50 mm test
bar and a page label (`info`). Content goes in the *content area*: the printable area
(`PRINTABLE_MARGIN_MM` = 6 mm inside every edge, what A4 and Letter home printers can reach) less a
strip at the top for the instructions and one at the bottom for the test bar and label.

Coordinates in this module's API are millimetres from the page's TOP-LEFT corner (as in SVG).
A placed face is anything with `.width`/`.height` in points and `.draw(canvas, x, y)` (bottom-left);
`pnp.components.svgkit.to_face` makes one from SVG.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from pnp import print_constants as pc
from pnp.components import style as st
from pnp.i18n import sheet as sheet_text
from pnp.sheets.impose import InfoBox
from pnp.sheets.info import Item, Missed, Placed, draw_placed, place_items
from pnp.sheets.pdfcommon import atomic_path, clip_rect, new_canvas, safe_clip, sheet_font
from pnp.units import mm

# The English sheet text of component pages (pnp/i18n/sheet/en.yaml); a `lang` the shared string
# pack has gives its own by default, and `instructions=` replaces any key.
DEFAULT_INSTRUCTIONS = sheet_text.parts_instructions("en")

MmRect = tuple[float, float, float, float]   # x, y, w, h in mm from the page's top-left


@dataclass(frozen=True)
class Placement:
    face: Any
    x: float                     # mm, page left -> face left (after scaling)
    y: float                     # mm, page top -> face top
    scale: float = 1.0
    clip: MmRect | None = None   # page area the face may show in


@dataclass(frozen=True)
class PartsPage:
    placements: tuple[Placement, ...]
    label: str
    landscape: bool = False


@dataclass(frozen=True)
class PageInfo:
    number: int
    label: str
    width: float                 # mm
    height: float
    content: MmRect
    test_bars: tuple[tuple[float, float, float, float], ...]   # points, page coordinates (PDF, y up)


@dataclass
class PartsReport:
    pages: list[PageInfo] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def paper_size(paper: str, landscape: bool = False) -> tuple[float, float]:
    w, h = pc.PAPER_SIZES_MM[paper]
    return (h, w) if landscape else (w, h)


def printable_area(paper: str, landscape: bool = False) -> MmRect:
    w, h = paper_size(paper, landscape)
    m = st.PRINTABLE_MARGIN_MM
    return (m, m, w - 2 * m, h - 2 * m)


def content_area(paper: str, landscape: bool = False) -> MmRect:
    x, y, w, h = printable_area(paper, landscape)
    return (x, y + st.INFO_STRIP_MM, w, h - 2 * st.INFO_STRIP_MM)


# ---- tiling: a drawing larger than the content area, cut into overlapping tiles

@dataclass(frozen=True)
class Tile:
    row: int
    col: int
    x: float       # window in the big drawing, mm
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class TilePlan:
    landscape: bool
    rows: int
    cols: int
    overlap: float
    tiles: tuple[Tile, ...]


def _count(length: float, room: float, overlap: float) -> int:
    if length <= room + 1e-9:
        return 1
    return math.ceil((length - overlap) / (room - overlap) - 1e-9)


def plan_tiles(width: float, height: float, paper: str, overlap: float = st.TILE_OVERLAP_MM) -> TilePlan:
    """Fewest pages (portrait preferred on a tie); tiles of equal size overlapping by `overlap` mm."""
    best = None
    for landscape in (False, True):
        _, _, aw, ah = content_area(paper, landscape)
        cols, rows = _count(width, aw, overlap), _count(height, ah, overlap)
        if best is None or rows * cols < best[0]:
            best = (rows * cols, landscape, rows, cols)
    assert best is not None   # the loop ran for both orientations
    _, landscape, rows, cols = best
    tw = (width + (cols - 1) * overlap) / cols
    th = (height + (rows - 1) * overlap) / rows
    tiles = tuple(Tile(r, c, c * (tw - overlap), r * (th - overlap), tw, th)
                  for r in range(rows) for c in range(cols))
    return TilePlan(landscape, rows, cols, overlap, tiles)


# ---- writing

def write_parts_pdf(path, pages: list[PartsPage], *, paper: str = "a4", title: str = "", subject: str = "",
                    author: str = "", lang: str = "en", instructions: dict | None = None,
                    font: str | None = None) -> PartsReport:
    if not pages:
        raise ValueError("no pages to print")
    font = sheet_font(font)
    texts = dict(DEFAULT_INSTRUCTIONS)
    if sheet_text.has_language(lang):
        texts.update(sheet_text.parts_instructions(lang))
    texts.update(instructions or {})
    direction = sheet_text.direction(lang)
    report = PartsReport()
    with atomic_path(path) as tmp:
        canvas = new_canvas(tmp, title=title, subject=subject, author=author, lang=lang, duplex="Simplex", font=font)
        for number, page in enumerate(pages, start=1):
            w, h = paper_size(paper, page.landscape)
            page_w, page_h = mm(w), mm(h)
            canvas.setPageSize((page_w, page_h))
            canvas.saveState()
            safe_clip(canvas, page_w, page_h)
            for p in page.placements:
                canvas.saveState()
                if p.clip:
                    cx, cy, cw, ch = p.clip
                    clip_rect(canvas, (mm(cx), page_h - mm(cy + ch), mm(cx + cw), page_h - mm(cy)))
                face_h = float(p.face.height) * p.scale
                canvas.translate(mm(p.x), page_h - mm(p.y) - face_h)
                if p.scale != 1.0:
                    canvas.scale(p.scale, p.scale)
                p.face.draw(canvas, 0, 0)
                canvas.restoreState()
            label = texts["label"].format(title=title or "pnp", page=number, pages=len(pages), label=page.label)
            bars = _sheet_text(canvas, paper, page.landscape, texts["print"], texts["test_bar"], label, font,
                               report.warnings, number, direction)
            canvas.restoreState()
            canvas.showPage()
            report.pages.append(PageInfo(number, page.label, w, h, content_area(paper, page.landscape), bars))
        canvas.save()
    return report


def _sheet_text(canvas, paper, landscape, print_text, bar_text, label, font, warnings, number, direction="ltr"):
    placed, missing = place_page_text(paper, landscape, print_text, bar_text, label, font, direction)
    bars = draw_placed(canvas, placed, font, direction)
    warnings.extend(f"page {number}: no room for {m.item.text!r}" for m in missing)
    return tuple(tuple(b) for b in bars)


def place_page_text(paper: str, landscape: bool, print_text: str, bar_text: str, label: str, font: str,
                    direction: str = "ltr") -> tuple[list[Placed], list[Missed]]:
    """A page's margin text in the strips above and below the content area: the instruction line
    at the top, the test bar and the page label at the bottom (also read by the fit report)."""
    w, h = paper_size(paper, landscape)
    m, strip = st.PRINTABLE_MARGIN_MM, st.INFO_STRIP_MM
    top = InfoBox((mm(m), mm(h - m - strip), mm(w - m), mm(h - m)), "top", False)
    bottom = InfoBox((mm(m), mm(m), mm(w - m), mm(m + strip)), "bottom", False)
    items = [Item("text", print_text, "top", "", "components.print", "print line"),
             Item("bar", bar_text, "bottom", "", "components.test_bar", "test bar label"),
             Item("text", label, "bottom", "", "components.page_label", "page label")]
    return place_items(items, (top, bottom), font, direction)
