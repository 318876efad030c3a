"""Boards and mats printed over several tiles: whatever a tile prints besides the drawing (its
label, alignment marks, glue hatching) lies on the strips its neighbours are glued over, so the
finished board shows the board only (pnp.components.tiling). Checked on the layout data and on the
PDFs: every tile of every shipped board and mat, in every language, on A4 and Letter."""
from __future__ import annotations

import ctypes
import functools
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest

from pnp.components import plan_components, write_components
from pnp.components.core import Context
from pnp.components.grid_board import board_geometry
from pnp.components.lattice import lattice
from pnp.components.tiling import covered_strips, inside, tile_marks
from pnp.pack import load_pack as load_pack_uncached
from pnp.sheets.parts import TilePlan, plan_tiles

MM = 72 / 25.4
PAPERS = ("a4", "letter")
# (game, document, component type) of every tiled drawing the shipped games print
TILED = (("zombies-vs-vampires", "board", "grid-board"), ("cimiterio", "mat", "lattice-mat"))
STROKE_PAD = 0.3      # PDFium pads a stroked path's bounds by its line width
REGISTRATION_LINE = 0.15   # the alignment mark's line width (mm: the user unit of a sketch)


def drawing_size(game: str, kind: str, paper: str) -> tuple[float, float]:
    pack = load_pack(game)
    spec = next(e for e in pack.components if e["type"] == kind)
    if kind == "grid-board":
        _, _, _, w, h = board_geometry(pack.collections["board"], spec["coordinates"])
        return w, h
    lay = lattice(Context(pack, pack.languages[0], paper), spec).layout()
    return lay.width, lay.height


@functools.cache
def load_pack(game: str):
    return load_pack_uncached(game)


def tile_plan(game: str, kind: str, paper: str) -> TilePlan:
    return plan_tiles(*drawing_size(game, kind, paper), paper)


# ---- the layout data

@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game,document,kind", TILED)
def test_labels_and_marks_lie_on_the_covered_strips(game, document, kind, paper):
    plan = tile_plan(game, kind, paper)
    assert len(plan.tiles) > 1
    last = plan.tiles[-1]
    for tile in plan.tiles:
        strips = covered_strips(tile, plan)
        marks = tile_marks(tile, plan)
        for mark in marks:
            assert any(inside(mark.box, strip) for strip in strips), (tile, mark)
        if tile == last:                  # glued on top of its neighbours: nothing covers it
            assert strips == [] and marks == []
        else:
            assert [m.text for m in marks if m.kind == "label"] == [f"{tile.row + 1}.{tile.col + 1}"]
            assert sum(m.kind == "registration" for m in marks) == 2 * len(strips)


def test_the_covered_strips_are_where_the_neighbours_lie():
    """Right strip under the next tile of the row, bottom strip under the next of the column, each
    exactly the overlap; a single row leaves only its last tile uncovered, a 1x1 board no strip."""
    plan = plan_tiles(500.0, 600.0, "a4")
    assert plan.rows > 1 and plan.cols > 1
    for tile in plan.tiles:
        for x, y, w, h in covered_strips(tile, plan):
            over = next(t for t in plan.tiles if (t.row, t.col) == ((tile.row, tile.col + 1) if h == tile.h
                                                                    else (tile.row + 1, tile.col)))
            # the strip, in the drawing, lies inside the neighbour's window
            assert inside((tile.x + x, tile.y + y, w, h), (over.x, over.y, over.w, over.h), 1e-6)
            assert min(w, h) == pytest.approx(plan.overlap)
    row = plan_tiles(600.0, 150.0, "a4")
    assert row.rows == 1 and row.cols > 1
    assert [bool(covered_strips(t, row)) for t in row.tiles] == [True] * (row.cols - 1) + [False]
    single = plan_tiles(100.0, 100.0, "a4")
    assert len(single.tiles) == 1 and covered_strips(single.tiles[0], single) == []


# ---- the PDFs

def page_objects(pdf: Path, strings_too: bool = True) -> list[tuple[Counter, dict]]:
    """Per page, every text object and path as a hashable record with its box in mm from the
    top-left, ("text", box) and ("path", box, filled, stroked, stroke width), and the strings of the
    text objects by box. (A text object's string is not part of its record: what PDFium reads
    back from shaped Arabic depends on the text around it.)"""
    document = pdfium.PdfDocument(str(pdf))
    try:
        out = []
        for page in document:
            h = page.get_height()
            found: Counter = Counter()
            strings: dict = {}
            textpage = page.get_textpage() if strings_too else None
            for obj in page.get_objects(filter=[raw.FPDF_PAGEOBJ_TEXT], max_depth=5):
                box = _box(*obj.get_bounds(), h)
                found[("text", box)] += 1
                if textpage is not None:
                    strings.setdefault(box, []).append(_text_of(obj, textpage))
            for obj in page.get_objects(filter=[raw.FPDF_PAGEOBJ_PATH], max_depth=5):
                fill_mode, stroke = ctypes.c_int(), ctypes.c_int()
                raw.FPDFPath_GetDrawMode(obj.raw, ctypes.byref(fill_mode), ctypes.byref(stroke))
                width = ctypes.c_float()
                raw.FPDFPageObj_GetStrokeWidth(obj.raw, ctypes.byref(width))
                found[("path", _box(*obj.get_bounds(), h), bool(fill_mode.value), bool(stroke.value),
                       round(width.value, 3))] += 1
            out.append((found, strings))
        return out
    finally:
        document.close()


def _text_of(obj, textpage) -> str:
    n = raw.FPDFTextObj_GetText(obj.raw, textpage.raw, None, 0)
    buffer = ctypes.create_string_buffer(n)
    raw.FPDFTextObj_GetText(obj.raw, textpage.raw, ctypes.cast(buffer, ctypes.POINTER(ctypes.c_ushort)), n)
    return buffer.raw[:n].decode("utf-16-le").rstrip("\x00")


def _box(left, bottom, right, top, page_h) -> tuple[float, float, float, float]:
    return (round(left / MM, 2), round((page_h - top) / MM, 2), round((right - left) / MM, 2),
            round((top - bottom) / MM, 2))


def build_documents(game: str, document: str, kind: str, lang: str, paper: str,
                    out: Path) -> tuple[Path, Path, list]:
    """The document as built, and the same pages with the drawing alone (no tile overlay)."""
    pack = load_pack(game)
    tiled = replace(pack, components=[e for e in pack.components if e["type"] == kind])   # the board alone
    plan = plan_components(tiled, lang, paper, mat=document == "mat")
    assert not plan.problems
    pages = plan.documents[document]
    write_components(plan, out / "tiles")
    plan.documents = {document: [replace(page, placements=page.placements[:1]) if i else page
                                 for i, page in enumerate(pages)]}
    write_components(plan, out / "bare")
    name = f"{game}-{document}-{lang}-{paper}.pdf"
    return out / "tiles" / name, out / "bare" / name, pages


def is_cut_line(record, window) -> bool:
    """The tile's cut line: a stroke-only path around the window."""
    if record[0] != "path" or record[2] or not record[3]:
        return False
    x, y, w, h = record[1]
    wx, wy, ww, wh = window
    return all(abs(a - b) <= STROKE_PAD for a, b in ((x, wx), (y, wy), (x + w, wx + ww), (y + h, wy + wh)))


# Every language on A4 and on Letter; the mat (25 or 30 tiles, each page drawing the whole mat
# under its window) on Letter in its first language only, to keep the run short: its tiles' overlay
# does not depend on the language (digits and marks), only the drawing under it does.
CASES = [(game, document, kind, lang, paper) for game, document, kind in TILED
         for lang in load_pack(game).languages for paper in PAPERS
         if paper == "a4" or document != "mat" or lang == load_pack(game).languages[0]]


@pytest.mark.parametrize("game,document,kind,lang,paper", CASES)
def test_the_visible_board_shows_only_the_board(game, document, kind, lang, paper, tmp_path):
    """On every tile page, what the tile prints over the drawing (the page minus the same page
    with the drawing alone) lies on its covered strips, but for the cut line round its window; the
    label's glyphs read the tile's number and lie in the label's box."""
    pdf, bare_pdf, pages = build_documents(game, document, kind, lang, paper, tmp_path)
    plan = tile_plan(game, kind, paper)
    full, bare = page_objects(pdf), page_objects(bare_pdf, strings_too=False)
    assert len(full) == len(bare) == len(pages) == 1 + len(plan.tiles)       # the assembly map, then tiles
    assert full[0][0] == bare[0][0]
    for tile, page, (drawn, strings), (drawing, _) in zip(plan.tiles, pages[1:], full[1:], bare[1:]):
        ox, oy = page.placements[-1].x, page.placements[-1].y          # the window's top-left on the page
        window = (ox, oy, tile.w, tile.h)
        strips = [(ox + x - STROKE_PAD, oy + y - STROKE_PAD, w + 2 * STROKE_PAD, h + 2 * STROKE_PAD)
                  for x, y, w, h in covered_strips(tile, plan)]
        extra = list((drawn - drawing).elements())
        assert [r for r in extra if is_cut_line(r, window)], f"tile {tile}: no cut line"
        stray = [r for r in extra if not is_cut_line(r, window)
                 and not any(inside(r[1], strip) for strip in strips)]
        assert not stray, f"{game} {document} {lang} {paper} tile {tile.row + 1}.{tile.col + 1}: {stray[:5]}"
        glyphs = [r for r in extra if r[0] == "text"]
        [label] = [m for m in tile_marks(tile, plan) if m.kind == "label"] or [None]
        if label is None:
            assert glyphs == []
            continue
        assert "".join("".join(strings[r[1]]) for r in sorted(glyphs, key=lambda r: r[1][0])).strip() == label.text
        x, y, w, h = label.box
        assert all(inside(r[1], (ox + x, oy + y, w, h), 0.05) for r in glyphs)
        crosses = [r for r in extra if r[0] == "path" and r[3] and not r[2] and r[4] == REGISTRATION_LINE]
        assert len(crosses) == 3 * sum(m.kind == "registration" for m in tile_marks(tile, plan))   # ring + 2 bars
