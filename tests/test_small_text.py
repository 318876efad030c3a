"""No shipped component prints text under 6 pt (pnp.text.fitreport.MIN_PRINTED_PT): every game,
every language, A4 and Letter, the play mat included. Measured twice: the build's own `text.small`
findings, and the PDFs themselves (each text object's font size times its matrix's scale), so
text drawn scaled down (the assembly map's picture of a board) counts at the size it prints."""
from __future__ import annotations

import ctypes
import functools

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest

from pnp.components import plan_components, write_components
from pnp.components.svgkit import Sketch, readable_svg
from pnp.pack import load_pack as load_pack_uncached
from pnp.text.fitreport import MIN_PRINTED_PT, TEXT_SMALL

GAMES = ("cimiterio", "zombie-run", "zombies-vs-vampires")
PAPERS = ("a4", "letter")


@functools.cache
def load_pack(game: str):
    return load_pack_uncached(game)


CASES = [(game, lang, paper) for game in GAMES for lang in load_pack(game).languages for paper in PAPERS]


def printed_texts(pdf) -> list[tuple[int, float, str]]:
    """(page, size in pt, text) of every text object of a PDF, at the size it prints."""
    document = pdfium.PdfDocument(str(pdf))
    found = []
    try:
        for number, page in enumerate(document, start=1):
            textpage = page.get_textpage()
            for obj in page.get_objects(max_depth=8):
                # a text inside a form XObject would need the form's matrix too: the writers draw none
                assert obj.type != raw.FPDF_PAGEOBJ_FORM, f"{pdf.name} p{number}: a form XObject"
                if obj.type != raw.FPDF_PAGEOBJ_TEXT:
                    continue
                size = ctypes.c_float()
                assert raw.FPDFTextObj_GetFontSize(obj.raw, ctypes.byref(size))
                m = obj.get_matrix()
                pt = size.value * abs(m.a * m.d - m.b * m.c) ** 0.5
                found.append((number, pt, textpage.get_text_bounded(*obj.get_bounds()).strip()))
    finally:
        document.close()
    return found


@pytest.mark.parametrize("game,lang,paper", CASES)
def test_no_component_text_under_6_pt(tmp_path, game, lang, paper):
    plan = plan_components(load_pack(game), lang, paper, mat=True)
    assert not [p for p in plan.problems if p.code != TEXT_SMALL]
    small = [p.message for p in plan.problems if p.code == TEXT_SMALL]
    assert not small, "\n".join(small)
    pdfs = write_components(plan, tmp_path)
    assert pdfs
    texts = [(pdf.name, page, round(pt, 2), text) for pdf in pdfs for page, pt, text in printed_texts(pdf)]
    assert len(texts) > 20                               # the measure reads the documents' text
    too_small = [t for t in texts if t[2] < MIN_PRINTED_PT - 0.01]
    assert not too_small, too_small[:10]


def _text_pages(pdf) -> list[set[str]]:
    """The words each page prints (a text object's bounds may take in a neighbour's word)."""
    by_page: dict[int, set[str]] = {}
    for page, _, text in printed_texts(pdf):
        by_page.setdefault(page, set()).update(text.split())
    return [by_page.get(n, set()) for n in range(1, max(by_page) + 1)]


def test_the_assembly_map_keeps_readable_words_and_drops_the_rest(tmp_path):
    """ZvV's board is drawn at 0.91 on its assembly map: the coordinates (11 pt) and tile labels
    stay, the home zones' colour names (6 pt, 5.4 pt there) go; the tiles print them at 6 pt."""
    plan = plan_components(load_pack("zombies-vs-vampires"), "en", "a4")
    board = next(p for p in write_components(plan, tmp_path) if "-board-" in p.name)
    assembly, *tiles = _text_pages(board)
    assert {"A", "M", "1", "13", "1.1", "2.2"} <= assembly
    assert not {"Green", "Red", "Orange", "Purple"} & assembly
    assert {"Green", "Red", "Orange", "Purple"} <= set().union(*tiles)


def test_the_mat_assembly_map_shows_tile_numbers_not_the_mats_words(tmp_path):
    """Cimiterio's mat is drawn at about 0.19 on its assembly map: the avenue names ("North Walk") and tomb
    numbers would print at 2-5 pt there, so the picture carries none; every tile label is there."""
    plan = plan_components(load_pack("cimiterio"), "en", "a4", mat=True)
    mat = next(p for p in write_components(plan, tmp_path) if "-mat-" in p.name)
    assembly, *tiles = _text_pages(mat)
    assert {f"{r}.{c}" for r in range(1, 6) for c in range(1, 6)} <= assembly     # 25 tiles on A4
    assert not {"Walk", "Tomb", "35"} & assembly
    assert {"Walk", "Tomb", "35"} <= set().union(*tiles)


def test_readable_svg_weighs_each_text_by_every_transform_above_it():
    s = Sketch(40, 20)
    s.text("big", 0, 0, 40, 10, size=14, min_size=14)                       # 7 pt at 0.5
    s.text("small", 0, 10, 40, 10, size=10, min_size=10)                    # 5 pt at 0.5
    s.markup('<g transform="translate(3,4) scale(2)"><text font-size="2.117">doubled</text></g>')  # 12 -> 6 pt
    s.markup('<g transform="matrix(0.5 0 0 0.5 0 0)"><text font-size="4.233">halved</text></g>')   # 12 -> 3 pt
    s.markup('<g font-size="2.822"><text>inherited</text></g>')             # 8 -> 4 pt
    svg = readable_svg(s.svg(), 0.5)
    assert "big" in svg and "doubled" in svg
    assert "small" not in svg and "halved" not in svg and "inherited" not in svg
    assert "ns0:" not in svg and svg.startswith("<svg") and 'xmlns="http://www.w3.org/2000/svg"' in svg
    assert readable_svg(s.svg(), 1.0).count("<text") == 5 - 1               # only "halved" is under 6 pt at 1
