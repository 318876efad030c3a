"""Player aids (pnp.components.aid) at 7.5 pt or more in every language of every shipped game,
measured in the PDFs: the smallest text printed on each aid card, and the room it leaves empty."""
from __future__ import annotations

import ctypes
import functools
from dataclasses import replace

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest

from pnp.components import aid, plan_components, write_components
from pnp.components import style as st
from pnp.components.core import Context, part_room
from pnp.pack import load_pack as load_pack_uncached

MM = 72 / 25.4
GAMES = ("cimiterio", "zombie-run", "zombies-vs-vampires")
PAPERS = ("a4", "letter")
SMALLEST_PT = 7.5
MOST_EMPTY = 0.10       # of the card's height, under its last line of text


@functools.cache
def load_pack(game: str):
    return load_pack_uncached(game)


def aid_spec(game: str) -> dict:
    return next(e for e in load_pack(game).components if e["type"] == "aid")


CASES = [(game, lang, paper) for game in GAMES for lang in load_pack(game).languages for paper in PAPERS]


def aid_cards(pdf, width: float) -> list[dict]:
    """Every aid card of a parts PDF: its cut rectangle (mm from the page's top-left; a stroke-only
    path `width` wide in the cut style) and the size (pt) and box of every text object inside it."""
    document = pdfium.PdfDocument(str(pdf))
    cards = []
    try:
        for page in document:
            h = page.get_height()
            texts = []
            for obj in page.get_objects(filter=[raw.FPDF_PAGEOBJ_TEXT], max_depth=5):
                size = ctypes.c_float()
                raw.FPDFTextObj_GetFontSize(obj.raw, ctypes.byref(size))
                pt = size.value * _scale(obj)          # the size is in the text's user space
                left, bottom, right, top = obj.get_bounds()
                texts.append((pt, (left / MM, (h - top) / MM, right / MM, (h - bottom) / MM)))
            for obj in page.get_objects(filter=[raw.FPDF_PAGEOBJ_PATH], max_depth=5):
                fill, stroke = ctypes.c_int(), ctypes.c_int()
                raw.FPDFPath_GetDrawMode(obj.raw, ctypes.byref(fill), ctypes.byref(stroke))
                line = ctypes.c_float()
                raw.FPDFPageObj_GetStrokeWidth(obj.raw, ctypes.byref(line))
                if fill.value or not stroke.value or abs(line.value - st.CUT_MM) > 0.01:
                    continue
                left, bottom, right, top = obj.get_bounds()
                pad = line.value * _scale(obj) / MM   # PDFium pads a stroked path's bounds by the line width
                x0, x1, y0, y1 = left / MM + pad, right / MM - pad, (h - top) / MM + pad, (h - bottom) / MM - pad
                if abs(x1 - x0 - width) > 0.05:
                    continue
                inside = [(pt, box) for pt, box in texts
                          if box[0] >= x0 - 0.1 and box[2] <= x1 + 0.1 and box[1] >= y0 - 0.1 and box[3] <= y1 + 0.1]
                cards.append({"box": (x0, y0, x1, y1), "texts": inside})
    finally:
        document.close()
    return cards


def _scale(obj) -> float:
    """How much the object's user space is scaled on the page."""
    m = obj.get_matrix()
    return float(abs(m.a * m.d - m.b * m.c) ** 0.5)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The parts PDF of a game's aids alone, per language and paper (built once each)."""
    out = tmp_path_factory.mktemp("aids")

    @functools.cache
    def get(game: str, lang: str, paper: str):
        pack = load_pack(game)
        only_aids = replace(pack, components=[aid_spec(game)])
        plan = plan_components(only_aids, lang, paper)
        assert not plan.problems
        write_components(plan, out)
        return out / f"{game}-parts-{lang}-{paper}.pdf"
    return get


def expected_height(game: str, lang: str, paper: str) -> float:
    """The card height the aid's layout (aid.fit) gives in this language on this paper."""
    pack, spec = load_pack(game), aid_spec(game)
    ctx = Context(pack, lang, paper)
    sections = [(ctx.t(s["heading"]), [aid.aid_line(ctx, line) for line in s["lines"]]) for s in spec["sections"]]
    _, height, _, fits = aid.fit(sections, spec["width"] - 2 * aid.PAD, spec["height"], spec["max_size"],
                                 spec["min_size"], part_room(paper)[1], ctx.direction)
    assert fits
    return height


@pytest.mark.parametrize("game,lang,paper", CASES)
def test_every_aid_prints_all_its_text_at_7_5_pt_or_more(built, game, lang, paper):
    pack, spec = load_pack(game), aid_spec(game)
    cards = aid_cards(built(game, lang, paper), spec["width"])
    assert len(cards) == pack.players["max"]
    for card in cards:
        sizes = sorted(pt for pt, _ in card["texts"])
        assert len(sizes) >= 10                      # header, headings, lines, number
        assert sizes[0] >= SMALLEST_PT - 0.01, f"{game} {lang} {paper}: {sizes[:5]}"
        assert sizes[-1] == pytest.approx(11.0, abs=0.01)    # the game's name: the measure is right
    height = expected_height(game, lang, paper)
    assert height >= spec["height"]                  # the card grows, never shrinks
    assert all(card["box"][3] - card["box"][1] == pytest.approx(height, abs=0.05) for card in cards)


@pytest.mark.parametrize("game,lang,paper", CASES)
def test_the_text_fills_the_aid(built, game, lang, paper):
    """Under the last line of the sections, at most a tenth of the card is left (the number's
    corner, the margin and what is left of the last size step)."""
    spec = aid_spec(game)
    for card in aid_cards(built(game, lang, paper), spec["width"]):
        x0, y0, x1, y1 = card["box"]
        number_top = y1 - 5.5                        # the card number sits in the bottom 5 mm
        lowest = max(box[3] for _, box in card["texts"] if box[3] < number_top)
        assert (y1 - lowest) / (y1 - y0) <= MOST_EMPTY, f"{game} {lang} {paper}: {y1 - lowest:.1f} mm empty"


def test_the_card_grows_before_the_text_shrinks():
    """Short text: the largest size on the card as set; longer: 7.5 pt on a taller card; longer
    than the tallest card holds at 7.5 pt: smaller text on the tallest card; too long even at
    min_size: reported as not fitting."""
    line = "Move one of your pieces up to three squares, then roll the die again. "

    def fitted(n_lines: int):
        sections = [("Heading", [line] * n_lines)]
        return aid.fit(sections, 80.0, 118.0, 9.0, 6.0, 240.0, "ltr")

    size, height, _, fits = fitted(3)
    assert (size, height, fits) == (9.0, 118.0, True)
    size, height, laid, fits = fitted(20)
    assert size == aid.READABLE_PT and 118.0 < height < 240.0 and fits
    assert aid.text_room(height) - 1 <= sum(h for _, _, h in laid) <= aid.text_room(height)
    size, height, _, fits = fitted(40)
    assert 6.0 <= size < aid.READABLE_PT and height == 240.0 and fits
    assert fitted(200)[3] is False
