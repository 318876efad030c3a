"""Geometry is measured in the written PDFs (rasterised with pypdfium2), not taken from the report.

Page coordinates in these tests are mm from the page's top-left corner (raster convention).
"""

import math
import os
import subprocess

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops
from reportlab.graphics.shapes import Drawing, Rect, String
from reportlab.lib.colors import Color

import pnp.sheets.pdfwriter as pdfwriter
from pnp.sheets import Face, SheetCard, write_calibration_pdf, write_cards_pdf
from pnp.sheets.sprues import fallback_sprue, find_sprue, load_sprues
from pnp.units import card_size_pt, mm

PT_PER_MM = 72 / 25.4
POKER = card_size_pt("poker")
RED, BLUE = (1.0, 0.0, 0.0), (0.0, 0.0, 1.0)
PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}


# ---------------------------------------------------------------- synthetic faces and cards

def drawing(rgb, size=POKER, label=""):
    w, h = size[0] + 2 * mm(3), size[1] + 2 * mm(3)
    d = Drawing(w, h)
    d.add(Rect(0, 0, w, h, fillColor=Color(*rgb), strokeColor=None))
    if label:
        d.add(String(w / 2, h / 2, label, fontSize=9, textAnchor="middle"))
    return d


def unique_rgb(i):
    """Distinct, saturated-enough colours for cards 0..99 (exact match after rasterising)."""
    return (0.2 + 0.08 * (i % 10), 0.2 + 0.08 * (i // 10), 0.5)


def deck(n, *, front=RED, back=BLUE, unique=False, size=POKER, prefix="c"):
    shared_back = Face("back", drawing(back, size))
    cards = []
    for i in range(n):
        f = Face(f"{prefix}{i}", drawing(unique_rgb(i) if unique else front, size, label=f"{prefix}{i}"))
        b = Face(f"{prefix}{i}-back", drawing(unique_rgb(99 - i), size)) if unique else shared_back
        cards.append(SheetCard(f, b, size[0], size[1], f"{prefix}{i}"))
    return cards


# ---------------------------------------------------------------- raster measurement helpers

def page_size_mm(path, index=0):
    pdf = pdfium.PdfDocument(str(path))
    w, h = pdf[index].get_size()
    return w / PT_PER_MM, h / PT_PER_MM


def render_window(path, index, x0, y0, x1, y1, dpi=2400):
    """Rasterise the window [x0, x1] x [y0, y1] (mm from the top-left) of a page; returns
    (grey image, mm per pixel, window origin in mm) so pixel centres map back to page mm."""
    pdf = pdfium.PdfDocument(str(path))
    page = pdf[index]
    w, h = page.get_size()
    scale = dpi / 72
    crop = (x0 * PT_PER_MM, h - y1 * PT_PER_MM, w - x1 * PT_PER_MM, y0 * PT_PER_MM)
    image = page.render(scale=scale, crop=crop).to_pil().convert("RGB")
    px_mm = 25.4 / dpi
    # pdfium rounds the left/top crop up to whole pixels
    origin = (math.ceil(crop[0] * scale) * px_mm, math.ceil(crop[3] * scale) * px_mm)
    return image, px_mm, origin


def dark_centroid(path, index, window, axis):
    """Centre (mm) of the ink in a window, along x (axis=0, for vertical lines) or y (axis=1)."""
    image, px_mm, origin = render_window(path, index, *window)
    ink = ImageChops.invert(image.convert("L"))
    w, h = ink.size
    # project the ink onto one axis (box-filter means are exact enough for a centroid)
    if axis == 0:
        profile = ink.resize((w, 1), Image.BOX)
        weights = [profile.getpixel((i, 0)) for i in range(w)]
    else:
        profile = ink.resize((1, h), Image.BOX)
        weights = [profile.getpixel((0, j)) for j in range(h)]
    total = sum(weights)
    assert total > 0, f"no ink in window {window}"
    return origin[axis] + (sum(i * v for i, v in enumerate(weights)) / total + 0.5) * px_mm


def colour_mask(image, rgb, tolerance=4):
    target = Image.new("RGB", image.size, tuple(round(c * 255) for c in rgb))
    r, g, b = ImageChops.difference(image, target).split()
    diff = ImageChops.lighter(ImageChops.lighter(r, g), b)  # the largest channel difference
    return diff.point(lambda v: 255 if v <= tolerance else 0)


def colour_edge(path, index, window, rgb, axis, from_end=False):
    """First (or last) pixel edge (mm) in the window where `rgb` paint is, along x or y."""
    image, px_mm, origin = render_window(path, index, *window)
    box = colour_mask(image, rgb, tolerance=128).getbbox()
    assert box, f"no {rgb} in window {window}"
    edge_px = box[axis + 2] if from_end else box[axis]
    return origin[axis] + edge_px * px_mm


def render_page(path, index, dpi=200):
    pdf = pdfium.PdfDocument(str(path))
    return pdf[index].render(scale=dpi / 72).to_pil().convert("RGB"), 25.4 / dpi


def colour_centroid(page, rgb):
    """Centre (mm, top-left origin) and area (mm²) of the pixels painted `rgb` on a rendered page.
    A centroid is sub-pixel accurate (each edge is within half a pixel) and shrugs off the odd
    anti-aliased seam pixel."""
    image, px = page
    mask = colour_mask(image, rgb)
    w, h = mask.size
    col_means, row_means = mask.resize((w, 1), Image.BOX), mask.resize((1, h), Image.BOX)
    cols = [col_means.getpixel((i, 0)) for i in range(w)]
    rows = [row_means.getpixel((0, j)) for j in range(h)]
    total = sum(cols)
    assert total > 0, f"no {rgb} on the page"
    cx = (sum(i * v for i, v in enumerate(cols)) / total + 0.5) * px
    cy = (sum(j * v for j, v in enumerate(rows)) / sum(rows) + 0.5) * px
    return cx, cy, total / 255 * h * px * px


def page_count(path):
    return len(pdfium.PdfDocument(str(path)))


def page_text(path, index):
    pdf = pdfium.PdfDocument(str(path))
    return pdf[index].get_textpage().get_text_range()


# ---------------------------------------------------------------- fixtures

@pytest.fixture(scope="module")
def a4(tmp_path_factory):
    path = tmp_path_factory.mktemp("a4") / "a4.pdf"
    report = write_cards_pdf(path, deck(9), paper="a4", title="cimiterio")
    return path, report


@pytest.fixture(scope="module")
def letter(tmp_path_factory):
    path = tmp_path_factory.mktemp("letter") / "letter.pdf"
    report = write_cards_pdf(path, deck(9), paper="letter", title="cimiterio")
    return path, report


# The poker sprues, worked out by hand: cards lie sideways (88 x 63 mm on the page) with 6 mm gaps
# (3 mm of bleed each), 3 mm crop marks 0.5 mm past the bleed, outside the 6.35 mm printer margin.
# A4: 2 x 4 (3 x 3 upright leaves 10.5 mm at the sides, 6.35 + 3.5 + 2 = 11.85 are needed).
# Letter: 2 x 3 (4 rows of 63 + 3 gaps of 4 need 264 + 23.7 mm, the page has 279.4).
POKER_GRID = {"a4": (2, 4), "letter": (2, 3)}
SLOT_MM, GAP_MM = (88.0, 63.0), 6.0


def slots(paper):
    """Expected trims (x0, y0, x1, y1; mm from the top-left) of the centred poker grid, in fill order."""
    pw, ph = PAPER_MM[paper]
    cols, rows = POKER_GRID[paper]
    (w, h), g = SLOT_MM, GAP_MM
    left, top = (pw - cols * w - (cols - 1) * g) / 2, (ph - rows * h - (rows - 1) * g) / 2
    return [(left + c * (w + g), top + r * (h + g), left + c * (w + g) + w, top + r * (h + g) + h)
            for r in range(rows) for c in range(cols)]


def grid_lines(paper):
    """Expected trim lines (mm from top-left): every card's left and right, top and bottom."""
    trims = slots(paper)
    return sorted({t[i] for t in trims for i in (0, 2)}), sorted({t[i] for t in trims for i in (1, 3)})


# ---------------------------------------------------------------- the tests

def test_shipped_poker_sprues_are_the_densest_that_fit():
    ids = {s.id for s in load_sprues()}
    assert {"poker-a4", "poker-letter", "poker-a4-gutterfold", "poker-letter-gutterfold"} <= ids
    for paper in PAPER_MM:
        sprue = find_sprue(*POKER, paper, "duplex")
        assert not sprue.id.startswith("auto-")
        assert (sprue.cols, sprue.rows, sprue.rotate, sprue.orientation) == (*POKER_GRID[paper], 90, "portrait")
        assert sprue.gap == pytest.approx(mm(GAP_MM))
        # the data is what the computed layout would choose: no denser grid meets the constraints
        assert fallback_sprue(*POKER, paper, "duplex").capacity == sprue.capacity
    for paper, per_sheet in (("a4", 4), ("letter", 3)):
        sprue = find_sprue(*POKER, paper, "gutterfold")
        assert not sprue.id.startswith("auto-") and sprue.capacity == per_sheet
        assert fallback_sprue(*POKER, paper, "gutterfold").capacity == per_sheet


def test_sprue_validation(tmp_path):
    bad = tmp_path / "sprues.yaml"
    bad.write_text("sprues:\n  - {id: x, paper: a4, orientation: portrait, layout: duplex, card: poker,"
                   " grid: 3x3, colour: red}\n")
    with pytest.raises(ValueError, match="unknown keys.*colour"):
        load_sprues(bad)
    bad.write_text("sprues:\n  - {id: big, paper: a4, orientation: portrait, layout: duplex, card: poker, grid: 4x3}\n")
    with pytest.raises(ValueError, match="'big'.*margins"):
        load_sprues(bad)
    # the old 3x3 abutting poker sheets: 10.5 mm at the sides of A4, 7.7 mm top and bottom of Letter
    for paper in PAPER_MM:
        bad.write_text(f"sprues:\n  - {{id: old, paper: {paper}, orientation: portrait, layout: duplex, card: poker,"
                       " grid: 3x3, gap: 0}\n")
        with pytest.raises(ValueError, match="'old'.*margins"):
            load_sprues(bad)
    bad.write_text("sprues:\n  - {id: tight, paper: a4, orientation: portrait, layout: duplex, card: poker,"
                   " rotate: 90, grid: 2x4, gap: 3mm}\n")
    with pytest.raises(ValueError, match="'tight'.*gap of 3.00 mm.*at least 4 mm"):
        load_sprues(bad)


def test_fallback_sprue_for_other_sizes():
    tarot = find_sprue(*card_size_pt("tarot"), "a4", "duplex")
    assert tarot.id.startswith("auto-") and tarot.capacity == 4 and tarot.gap == pytest.approx(mm(6))
    mini = find_sprue(*card_size_pt("mini"), "a4", "duplex")
    assert (mini.cols, mini.rows) == (3, 4)  # 4 columns of 44.5 mm + 3 gaps of 4 mm leave 10 mm a side


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_page_size(paper, a4, letter):
    path = (a4 if paper == "a4" else letter)[0]
    for index in range(page_count(path)):
        assert page_size_mm(path, index) == pytest.approx(PAPER_MM[paper], abs=0.01)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_card_edge_keeps_3mm_of_its_own_bleed(paper, tmp_path):
    """Each card's art, told apart by its colour, reaches 3 mm past every edge of its trim: into
    the margin and into its half of the gap between neighbours, never over a neighbour."""
    path = tmp_path / "x.pdf"
    n = len(slots(paper))
    write_cards_pdf(path, deck(n, unique=True), paper=paper)
    page = render_page(path, 0, dpi=400)
    image, px = page
    for i, (x0, y0, x1, y1) in enumerate(slots(paper)):
        box = colour_mask(image, unique_rgb(i)).getbbox()
        art = tuple(v * px for v in box)
        assert art == pytest.approx((x0 - 3, y0 - 3, x1 + 3, y1 + 3), abs=0.1), i  # a pixel and a half


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_crop_marks_on_every_trim_line(paper, a4, letter):
    path = (a4 if paper == "a4" else letter)[0]
    xs, ys = grid_lines(paper)

    def zone(trim_edge, outwards):
        """The band where marks belong: beyond the 3 mm bleed and the 0.5 mm gap, 3 mm long."""
        near, far = trim_edge + outwards * 3.6, trim_edge + outwards * 6.4
        return tuple(sorted((near, far)))

    for index in (0, 1):  # front page and its back page
        for x in xs:  # vertical trim lines: marks in the top and bottom margins
            for y0, y1 in (zone(ys[0], -1), zone(ys[-1], +1)):
                measured = dark_centroid(path, index, (x - 0.8, y0, x + 0.8, y1), axis=0)
                assert measured == pytest.approx(x, abs=0.1)
        for y in ys:  # horizontal trim lines: marks in the left and right margins
            for x0, x1 in (zone(xs[0], -1), zone(xs[-1], +1)):
                measured = dark_centroid(path, index, (x0, y - 0.8, x1, y + 0.8), axis=1)
                assert measured == pytest.approx(y, abs=0.1)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("layout", ["duplex", "gutterfold"])
def test_no_ink_within_5mm_of_any_edge(paper, layout, tmp_path):
    path = tmp_path / "x.pdf"
    write_cards_pdf(path, deck(10), paper=paper, layout=layout, back_offset=(2.5, -2.5), title="t")
    dpi = 150
    band = int(5 * dpi / 25.4)  # whole pixels inside the 5 mm band
    pdf = pdfium.PdfDocument(str(path))
    for page in pdf:
        grey = page.render(scale=dpi / 72).to_pil().convert("L")
        w, h = grey.size
        ink = ImageChops.invert(grey)
        for box in ((0, 0, w, band), (0, h - band, w, h), (0, 0, band, h), (w - band, 0, w, h)):
            assert ink.crop(box).getbbox() is None, f"ink within 5 mm of the edge in {box}"
        # and the page does have ink next to the band (the test would be vacuous otherwise)
        assert ink.crop((band, band, w - band, h - band)).getbbox() is not None


@pytest.mark.parametrize("flip", ["long", "short"])
def test_backs_land_under_their_fronts(flip, tmp_path):
    path = tmp_path / "x.pdf"
    cards = deck(7, unique=True)  # a partly filled sheet: backs mirror the filled slots
    write_cards_pdf(path, cards, paper="a4", flip=flip)
    pw, ph = PAPER_MM["a4"]
    front, back = render_page(path, 0), render_page(path, 1)
    for i in range(7):
        fx, fy, front_area = colour_centroid(front, unique_rgb(i))
        bx, by, back_area = colour_centroid(back, unique_rgb(99 - i))
        # long: the sheet turns about its vertical axis, x mirrors; short: y mirrors
        expected = (pw - fx, fy) if flip == "long" else (fx, ph - fy)
        assert (bx, by) == pytest.approx(expected, abs=0.15)  # half a pixel per edge at 200 dpi
        assert back_area == pytest.approx(front_area, rel=0.01)  # same art, mirrored bleed sides


def test_back_offset_shifts_back_pages_only(tmp_path):
    plain, shifted = tmp_path / "plain.pdf", tmp_path / "shifted.pdf"
    write_cards_pdf(plain, deck(9), paper="a4")
    write_cards_pdf(shifted, deck(9), paper="a4", back_offset=(1.5, -2.0))
    xs, ys = grid_lines("a4")
    mid_y, mid_x = (ys[2] + ys[3]) / 2, (xs[0] + xs[1]) / 2  # the middle of the second row, of the first column

    def edges(path, index, rgb):
        left = colour_edge(path, index, (xs[0] - 6, mid_y - 1, xs[0] + 3, mid_y + 1), rgb, 0)
        # from just below the sheet text between the top marks (which ends 3.5 mm above the trim)
        top = colour_edge(path, index, (mid_x - 1, ys[0] - 3.3, mid_x + 1, ys[0] + 4), rgb, 1)
        return left, top

    assert edges(shifted, 0, RED) == pytest.approx(edges(plain, 0, RED), abs=0.02)
    (l0, t0), (l1, t1) = edges(plain, 1, BLUE), edges(shifted, 1, BLUE)
    # without an offset the back's left art edge mirrors the front's right art edge exactly
    front_right = colour_edge(plain, 0, (xs[-1] - 3, mid_y - 1, xs[-1] + 6, mid_y + 1), RED, 0, from_end=True)
    assert l0 == pytest.approx(210 - front_right, abs=0.05)
    assert t0 == pytest.approx(edges(plain, 0, RED)[1], abs=0.05)
    assert l1 - l0 == pytest.approx(1.5, abs=0.05)   # +x: to the right
    assert t1 - t0 == pytest.approx(2.0, abs=0.05)   # -y: down (y grows downwards in raster mm)
    # the crop marks move with the backs
    x = xs[1]
    window = (x - 0.8, ys[-1] + 5.6, x + 2.3, ys[-1] + 6.4)  # both marks cross it; no bleed reaches it
    mark0 = dark_centroid(plain, 1, window, axis=0)
    mark1 = dark_centroid(shifted, 1, window, axis=0)
    assert mark1 - mark0 == pytest.approx(1.5, abs=0.05)


@pytest.mark.parametrize("n, sheets", [(95, 12), (63, 8), (8, 1), (9, 2)])
def test_sheet_counts(n, sheets, tmp_path):
    path = tmp_path / "x.pdf"
    report = write_cards_pdf(path, deck(n), paper="a4", title="cimiterio")
    assert (report.front_sheets, report.back_sheets) == (sheets, sheets)
    assert page_count(path) == 2 * sheets
    assert [p.side for p in report.pages] == ["front", "back"] * sheets
    assert sum(len(p.cards) for p in report.pages) == 2 * n


def test_faces_are_form_xobjects_drawn_once(tmp_path):
    path = tmp_path / "x.pdf"
    write_cards_pdf(path, deck(20), paper="a4")  # 20 fronts + one shared back
    data = path.read_bytes()
    assert data.count(b"/Subtype /Form") == 21


def test_sizes_never_share_a_sheet(tmp_path):
    path = tmp_path / "x.pdf"
    mini = card_size_pt("mini")
    cards = deck(3) + deck(2, size=mini, prefix="m") + deck(2, prefix="p")
    report = write_cards_pdf(path, cards, paper="a4")
    labels = [[c.label for c in p.cards] for p in report.pages if p.side == "front"]
    assert labels == [["c0", "c1", "c2", "p0", "p1"], ["m0", "m1"]]


def test_sheet_text_on_every_page(tmp_path):
    path = tmp_path / "x.pdf"
    write_cards_pdf(path, deck(12), paper="letter", title="cimiterio")
    for index, side in enumerate(["front", "back", "front", "back"]):
        text = page_text(path, index)
        assert "Print at 100% / Actual size — no scaling; duplex: flip on long edge" in text
        assert "50 mm" in text
        assert f"cimiterio · sheet {index // 2 + 1}/2 · {side}" in text


def test_instructions_are_replaceable(tmp_path):
    path = tmp_path / "x.pdf"
    write_cards_pdf(path, deck(1), instructions={"print": "Stampa al 100%", "duplex_long": "fronte-retro: lato lungo"})
    assert "Stampa al 100%; fronte-retro: lato lungo" in page_text(path, 0)
    with pytest.raises(ValueError, match="unknown instruction"):
        write_cards_pdf(path, deck(1), instructions={"nonsense": "x"})


def test_viewer_preferences_and_metadata(tmp_path):
    cases = {("duplex", "long"): b"/DuplexFlipLongEdge", ("duplex", "short"): b"/DuplexFlipShortEdge",
             ("gutterfold", "long"): b"/Simplex"}
    for (layout, flip), duplex in cases.items():
        path = tmp_path / f"{layout}-{flip}.pdf"
        write_cards_pdf(path, deck(2), layout=layout, flip=flip, title="Cimiterio", subject="cards")
        data = path.read_bytes()
        assert b"/PrintScaling /None" in data
        assert b"/Duplex " + duplex in data
        assert b"Cimiterio" in data
    assert b"/Lang (en)" in data


def test_identical_inputs_give_identical_bytes(tmp_path):
    one, two = tmp_path / "one.pdf", tmp_path / "two.pdf"
    write_cards_pdf(one, deck(12, unique=True), title="cimiterio")
    write_cards_pdf(two, deck(12, unique=True), title="cimiterio")
    assert one.read_bytes() == two.read_bytes()


def test_no_file_left_when_writing_fails(tmp_path, monkeypatch):
    path = tmp_path / "deck.pdf"
    path.write_bytes(b"old")
    calls = []
    real = pdfwriter.renderPDF.draw

    def failing(*args, **kwargs):
        calls.append(1)
        if len(calls) == 5:
            raise RuntimeError("boom")
        return real(*args, **kwargs)

    monkeypatch.setattr(pdfwriter.renderPDF, "draw", failing)
    with pytest.raises(RuntimeError, match="boom"):
        write_cards_pdf(path, deck(12, unique=True))
    assert path.read_bytes() == b"old"  # the previous file is untouched
    assert os.listdir(tmp_path) == ["deck.pdf"]  # and no temp file is left behind


def test_wrong_face_size_is_refused(tmp_path):
    bad = SheetCard(Face("f", drawing(RED, card_size_pt("mini"))), Face("b", drawing(BLUE)), *POKER, "c0")
    with pytest.raises(ValueError, match="'c0'.*expected trim \\+ bleed"):
        write_cards_pdf(tmp_path / "x.pdf", [bad])
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_gutterfold_mirrors_backs_across_the_fold(paper, tmp_path):
    path = tmp_path / "x.pdf"
    report = write_cards_pdf(path, deck(5, unique=True), paper=paper, layout="gutterfold")
    assert (report.front_sheets, report.back_sheets) == (2, 0) and page_count(path) == 2
    # A4: landscape, 2 x 2 upright a side; Letter (2 columns a side leave 7.2 mm at the edges):
    # portrait, 3 sideways cards a side
    ph, pw = PAPER_MM[paper] if paper == "a4" else PAPER_MM[paper][::-1]
    assert page_size_mm(path, 0) == pytest.approx((pw, ph), abs=0.01)
    page = render_page(path, 0)
    for i in range(4 if paper == "a4" else 3):
        fx, fy, _ = colour_centroid(page, unique_rgb(i))
        bx, by, _ = colour_centroid(page, unique_rgb(99 - i))
        assert (bx, by) == pytest.approx((pw - fx, fy), abs=0.15)
        assert fx < pw / 2 - 20 and bx > pw / 2 + 20  # fronts left of the fold, backs right of it
    # the dashed fold line sits on the page centre
    # a 7 mm gutter: the art on either side stops 0.5 mm from the fold line
    fold = dark_centroid(path, 0, (pw / 2 - 0.4, ph / 2 - 20, pw / 2 + 0.4, ph / 2 + 20), axis=0)
    assert fold == pytest.approx(pw / 2, abs=0.1)
    assert "fold on the dashed line" in page_text(path, 0)


def test_calibration_sheet(tmp_path):
    path = tmp_path / "cal.pdf"
    targets = write_calibration_pdf(path, paper="a4", flip="long")
    assert page_count(path) == 2
    data = path.read_bytes()
    assert b"/PrintScaling /None" in data and b"/DuplexFlipLongEdge" in data
    for t in targets:  # each back scale's zero sits under its front crosshair after a long-edge flip
        assert t.back[0] == pytest.approx(595.2756 - t.front[0], abs=0.01) and t.back[1] == t.front[1]
        fx, fy = t.front[0] / PT_PER_MM, 297 - t.front[1] / PT_PER_MM
        measured_x = dark_centroid(path, 0, (fx - 0.5, fy - 11, fx + 0.5, fy - 4), axis=0)
        assert measured_x == pytest.approx(fx, abs=0.05)
    assert "--back-offset X,Y" in page_text(path, 1)
    assert "50 mm" in page_text(path, 0) and "50 mm" in page_text(path, 1)
    short = write_calibration_pdf(tmp_path / "short.pdf", paper="letter", flip="short")
    assert all(t.back[1] == pytest.approx(791.99 - t.front[1], abs=0.02) for t in short)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("layout", ["duplex", "gutterfold"])
def test_every_page_has_a_measured_50mm_test_bar(paper, layout, tmp_path):
    path = tmp_path / "x.pdf"
    report = write_cards_pdf(path, deck(5), paper=paper, layout=layout)
    assert report.warnings == []
    for page in report.pages:
        assert len(page.test_bars) == 2  # one along x, one along y: printers scale them differently
        directions = []
        for bar in page.test_bars:
            x0, y0, x1, y1 = (v / PT_PER_MM for v in bar)
            h = page.height / PT_PER_MM
            y0, y1 = h - y0, h - y1  # to top-left origin
            vertical = abs(x1 - x0) < 1e-6
            directions.append(vertical)
            ends = []
            for x, y in ((x0, y0), (x1, y1)):  # measure each end tick in the rendered page
                if vertical:  # ticks are horizontal lines at the bar's ends
                    ends.append(dark_centroid(path, page.number - 1, (x - 0.7, y - 0.3, x - 0.2, y + 0.3), axis=1))
                else:
                    ends.append(dark_centroid(path, page.number - 1, (x - 0.3, y - 0.7, x + 0.3, y - 0.2), axis=0))
            assert abs(ends[1] - ends[0]) == pytest.approx(50.0, abs=0.02)
        assert sorted(directions) == [False, True]


def test_mirror_axis_follows_the_long_edge():
    from pnp.sheets.impose import mirror_axis
    assert mirror_axis("long", 210, 297) == "x" and mirror_axis("short", 210, 297) == "y"
    assert mirror_axis("long", 297, 210) == "y" and mirror_axis("short", 297, 210) == "x"
    with pytest.raises(ValueError, match="'sideways'"):
        mirror_axis("sideways", 210, 297)


def test_empty_deck_and_bad_options_are_refused(tmp_path):
    for kwargs in ({}, {"layout": "zigzag"}, {"paper": "a3"}, {"flip": "diagonal"}):
        cards = [] if not kwargs else deck(1)
        with pytest.raises(ValueError):
            write_cards_pdf(tmp_path / "x.pdf", cards, **kwargs)
    assert not list(tmp_path.iterdir())


def test_face_opacity_survives_the_form(tmp_path):
    """Faces are form XObjects; their transparency (ExtGState) must be in the form's resources."""
    w, h = POKER[0] + 2 * mm(3), POKER[1] + 2 * mm(3)
    d = Drawing(w, h)
    d.add(Rect(0, 0, w, h, fillColor=Color(1, 1, 1), strokeColor=None))
    d.add(Rect(0, 0, w, h, fillColor=Color(0, 0, 0, alpha=0.5), strokeColor=None))
    path = tmp_path / "x.pdf"
    write_cards_pdf(path, [SheetCard(Face("f", d), Face("b", drawing(BLUE)), *POKER, "c0")])
    image, _, _ = render_window(path, 0, 40, 60, 41, 61, dpi=72)
    grey = image.convert("L").getpixel((0, 0))
    assert 100 < grey < 160  # half-transparent black over white, not opaque black
    result = subprocess.run(["pdftoppm", "-r", "10", "-png", str(path), str(tmp_path / "p")],
                            capture_output=True, text=True)
    assert "ExtGState" not in result.stderr  # poppler finds the form's graphics states
