"""Home printing, measured in the PDFs: bleed on every card edge (from each face's clip box in the
page's content stream), crop marks (length and distance from the paper edge, rasterised), the
printer margin, the 50 mm test square, no base-14 font anywhere, and the backs' orientation after
a short-edge flip (an asymmetric face, rasterised, turned over on paper).

Page coordinates here are mm from the page's top-left corner (raster) unless a name says points.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pikepdf
import pytest
from click.testing import CliRunner
from reportlab.graphics.shapes import Drawing, Rect
from reportlab.lib.colors import Color
from test_sheets import PAPER_MM, PT_PER_MM, colour_centroid, dark_centroid, deck, render_page, render_window

from pnp.cli import main
from pnp.sheets import Face, SheetCard, write_calibration_pdf, write_cards_pdf
from pnp.sheets.calibrate import measuring_square
from pnp.units import card_size_pt, mm

SIZES = ("poker", "bridge", "tarot", "mini", "square")
PRINTER_MARGIN = 6.35
BLEED = 3.0            # the faces' own bleed (trim + 3 mm a side)


# ---------------------------------------------------------------- the content stream: clips and faces

def _multiply(m, n):
    """m then n (PDF row-vector convention: the matrix of `m cm` after an earlier `n`)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def _apply(m, x, y):
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


def _box(m, x0, y0, x1, y1):
    xs, ys = zip(*(_apply(m, x, y) for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))))
    return min(xs), min(ys), max(xs), max(ys)


def _intersect(r, s):
    return max(r[0], s[0]), max(r[1], s[1]), min(r[2], s[2]), min(r[3], s[3])


def placed_faces(page) -> list[tuple[tuple, tuple, tuple]]:
    """(visible art box, trim box, face matrix) in points of every card face a page draws: the
    clip in force where its form is painted, intersected with the page clip, and the form's bleed
    box, as transformed, less the faces' 3 mm bleed."""
    ctm, clip = (1, 0, 0, 1, 0, 0), (-1e9, -1e9, 1e9, 1e9)
    stack, rect, found = [], None, []
    for operands, operator in pikepdf.parse_content_stream(page):
        op = str(operator)
        if op == "q":
            stack.append((ctm, clip))
        elif op == "Q":
            ctm, clip = stack.pop()
        elif op == "cm":
            ctm = _multiply(tuple(float(v) for v in operands), ctm)
        elif op == "re":
            x, y, w, h = (float(v) for v in operands)
            rect = _box(ctm, x, y, x + w, y + h)
        elif op in ("W", "W*") and rect is not None:
            clip = _intersect(clip, rect)
        elif op == "Do" and ".pnpface" in str(operands[0]):
            form = page.Resources.XObject[str(operands[0])]
            x0, y0, x1, y1 = (float(v) for v in form.BBox)
            bx0, by0, bx1, by1 = _box(ctm, x0, y0, x1, y1)
            b = mm(BLEED)
            found.append((clip, (bx0 + b, by0 + b, bx1 - b, by1 - b), ctm))
    return found


def edge_bleeds_mm(art, trim) -> list[float]:
    return [(trim[0] - art[0]) / PT_PER_MM, (trim[1] - art[1]) / PT_PER_MM,
            (art[2] - trim[2]) / PT_PER_MM, (art[3] - trim[3]) / PT_PER_MM]


def cards_of(size, n):
    return deck(n, size=card_size_pt(size), prefix=size)


# ---------------------------------------------------------------- bleed

@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("layout", ["duplex", "gutterfold"])
@pytest.mark.parametrize("size", SIZES)
def test_every_card_edge_keeps_at_least_2mm_of_bleed(paper, layout, size, tmp_path):
    path = tmp_path / "x.pdf"
    report = write_cards_pdf(path, cards_of(size, 13), paper=paper, layout=layout)
    faces = 0
    with pikepdf.open(path) as pdf:
        for page, info in zip(pdf.pages, report.pages, strict=True):
            placed = placed_faces(page)
            assert len(placed) == len(info.cards)
            for art, trim, _ in placed:
                bleeds = edge_bleeds_mm(art, trim)
                assert min(bleeds) >= 2.0 - 1e-3, (page, bleeds)  # the PDF rounds to 1e-4 pt
                faces += 1
    assert faces == 2 * 13


def test_poker_keeps_the_full_3mm_on_a4_and_letter(tmp_path):
    for paper in ("a4", "letter"):
        path = tmp_path / f"{paper}.pdf"
        write_cards_pdf(path, cards_of("poker", 8), paper=paper)
        with pikepdf.open(path) as pdf:
            for page in pdf.pages:
                for art, trim, _ in placed_faces(page):
                    assert edge_bleeds_mm(art, trim) == pytest.approx([3.0] * 4, abs=1e-3)


def test_cards_per_sheet(tmp_path):
    """The densest grid that keeps 2 mm of bleed and 3 mm marks outside a 6.35 mm margin."""
    expected = {("poker", "a4"): 8, ("poker", "letter"): 6, ("bridge", "a4"): 8, ("bridge", "letter"): 8,
                ("tarot", "a4"): 4, ("tarot", "letter"): 4, ("mini", "a4"): 12, ("mini", "letter"): 12,
                ("square", "a4"): 6, ("square", "letter"): 6}
    for (size, paper), per_sheet in expected.items():
        report = write_cards_pdf(tmp_path / "x.pdf", cards_of(size, per_sheet + 1), paper=paper)
        assert [len(p.cards) for p in report.pages] == [per_sheet, per_sheet, 1, 1], (size, paper)


# ---------------------------------------------------------------- crop marks and the printer margin

def mark_extent(path, info, mark):
    """(start, end) of a crop mark's ink along its length, in mm from the top-left, measured from
    0.3 mm inside the clear gap before the bleed out to the paper edge it faces."""
    w, h = info.width / PT_PER_MM, info.height / PT_PER_MM
    x0, y0, x1, y1 = mark[0] / PT_PER_MM, h - mark[1] / PT_PER_MM, mark[2] / PT_PER_MM, h - mark[3] / PT_PER_MM
    vertical = abs(x1 - x0) < 1e-6
    near, far = (y0, y1) if vertical else (x0, x1)
    outwards = 1 if far > near else -1
    lo, hi = sorted((near - 0.3 * outwards, (h if vertical else w) if outwards > 0 else 0.0))
    window = (x0 - 0.3, lo, x0 + 0.3, hi) if vertical else (lo, y0 - 0.3, hi, y0 + 0.3)
    image, px, origin = render_window(path, info.number - 1, *window, dpi=1200)
    box = image.convert("L").point(lambda v: 255 if v < 128 else 0).getbbox()
    assert box, f"no mark in {window}"
    axis = 1 if vertical else 0
    return origin[axis] + box[axis] * px, origin[axis] + box[axis + 2] * px, (h if vertical else w)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("layout, margin", [("duplex", PRINTER_MARGIN), ("gutterfold", PRINTER_MARGIN),
                                            ("duplex", 10.0)])
def test_crop_marks_are_3mm_long_outside_the_printer_margin(paper, layout, margin, tmp_path):
    path = tmp_path / "x.pdf"
    report = write_cards_pdf(path, deck(5), paper=paper, layout=layout, printer_margin=margin)
    for info in report.pages[:2]:
        assert len(info.marks) >= 16
        for mark in info.marks:
            lo, hi, extent = mark_extent(path, info, mark)
            assert hi - lo >= 3.0 - 0.03, mark            # a pixel at 1200 dpi is 0.02 mm
            assert min(lo, extent - hi) >= margin - 0.03, mark


@pytest.mark.parametrize("margin", [PRINTER_MARGIN, 10.0])
@pytest.mark.parametrize("layout", ["duplex", "gutterfold"])
def test_no_ink_in_the_printer_margin(margin, layout, tmp_path):
    from PIL import ImageChops

    for paper in ("a4", "letter"):
        path = tmp_path / f"{paper}.pdf"
        write_cards_pdf(path, deck(10), paper=paper, layout=layout, back_offset=(1.5, -1.5),
                        printer_margin=margin)
        import pypdfium2 as pdfium
        dpi = 150
        band = int(margin * dpi / 25.4)  # whole pixels inside the margin
        for page in pdfium.PdfDocument(str(path)):
            ink = ImageChops.invert(page.render(scale=dpi / 72).to_pil().convert("L"))
            w, h = ink.size
            for box in ((0, 0, w, band), (0, h - band, w, h), (0, 0, band, h), (w - band, 0, w, h)):
                assert ink.crop(box).getbbox() is None, (paper, box)
            assert ink.crop((band, band, w - band, h - band)).getbbox() is not None  # not a blank page


def test_a_card_that_fits_no_sheet_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="does not fit on a4.*2 mm bleed.*3 mm crop marks.*6.35 mm"):
        write_cards_pdf(tmp_path / "x.pdf", deck(1, size=(mm(200), mm(280))))
    with pytest.raises(ValueError, match="printer margin"):
        write_cards_pdf(tmp_path / "x.pdf", deck(1), printer_margin=-1)
    assert not list(tmp_path.iterdir())


def test_build_refuses_a_deck_that_fits_no_sheet(tiny_pack, tmp_path):
    pack_yaml = tiny_pack / "pack.yaml"
    text = pack_yaml.read_text(encoding="utf-8")
    pack_yaml.write_text(text.replace("    back: tiny/back.svg.j2\n", "    back: tiny/back.svg.j2\n"
                                      "    card_size: 200mm x 280mm\n", 1), encoding="utf-8")
    line = pack_yaml.read_text(encoding="utf-8").splitlines().index("    card_size: 200mm x 280mm") + 1
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", str(tiny_pack), "--out", str(out), "--lang", "en"])
    assert result.exit_code == 2, result.output
    assert f"pack.yaml:{line}: decks[0].card_size:" in result.output.replace("decks.0", "decks[0]")
    assert "deck 'main'" in result.output and "does not fit on a4" in result.output
    assert "Traceback" not in result.output
    assert not out.exists() or not list(out.rglob("*.pdf"))


def test_printer_margin_option(tiny_pack, tmp_path):
    bad = CliRunner().invoke(main, ["build", str(tiny_pack), "--out", str(tmp_path), "--printer-margin", "-1"])
    assert bad.exit_code == 2 and "--printer-margin" in bad.output
    result = CliRunner().invoke(main, ["build", str(tiny_pack), "--out", str(tmp_path), "--lang", "en",
                                       "--printer-margin", "12"])
    assert result.exit_code == 0, result.output
    pdf = tmp_path / "tiny" / "tiny-cards-en-a4.pdf"
    with pikepdf.open(pdf) as document:
        arts = [art for page in document.pages for art, _, _ in placed_faces(page)]
    assert arts and min(min(a[0], a[1]) for a in arts) >= mm(12 + 3.5)  # art, then the marks, then 12 mm


# ---------------------------------------------------------------- the 50 mm test square

@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_calibration_square_is_50mm_both_ways(paper, tmp_path):
    path = tmp_path / "cal.pdf"
    write_calibration_pdf(path, paper=paper)
    ph = PAPER_MM[paper][1]
    x0, y0, x1, y1 = (v / PT_PER_MM for v in measuring_square(paper))
    top, bottom = ph - y1, ph - y0
    for index in (0, 1):
        mid_x, mid_y = (x0 + x1) / 2 + 10, (top + bottom) / 2 + 10   # clear of the labels
        left = dark_centroid(path, index, (x0 - 0.5, mid_y - 1, x0 + 0.5, mid_y + 1), axis=0)
        right = dark_centroid(path, index, (x1 - 0.5, mid_y - 1, x1 + 0.5, mid_y + 1), axis=0)
        upper = dark_centroid(path, index, (mid_x - 1, top - 0.5, mid_x + 1, top + 0.5), axis=1)
        lower = dark_centroid(path, index, (mid_x - 1, bottom - 0.5, mid_x + 1, bottom + 0.5), axis=1)
        assert right - left == pytest.approx(50.0, abs=0.01)
        assert lower - upper == pytest.approx(50.0, abs=0.01)


# ---------------------------------------------------------------- no base-14 font, anywhere

def _fonts(resources, seen):
    """Every font dictionary reachable from a resource dictionary (forms included)."""
    if resources is None or resources.objgen in seen and resources.objgen != (0, 0):
        return
    seen.add(resources.objgen)
    for font in (resources.get("/Font") or {}).values():
        yield font
    for xobject in (resources.get("/XObject") or {}).values():
        if xobject.get("/Subtype") == "/Form":
            yield from _fonts(xobject.get("/Resources"), seen)


def embedded(font) -> bool:
    if font.get("/Subtype") == "/Type0":
        return all(embedded(d) for d in font.DescendantFonts)
    descriptor = font.get("/FontDescriptor")
    return descriptor is not None and ("/FontFile2" in descriptor or "/FontFile3" in descriptor)


def check_fonts(path: Path) -> int:
    """Asserts every font a page or a form uses is embedded and none is Helvetica; returns the count."""
    count = 0
    with pikepdf.open(path) as pdf:
        assert b"Helvetica" not in path.read_bytes()
        for number, page in enumerate(pdf.pages, start=1):
            for font in _fonts(page.get("/Resources"), set()):
                assert embedded(font), (path.name, number, font.get("/BaseFont"))
                assert "Helvetica" not in str(font.get("/BaseFont")), (path.name, number)
                count += 1
            operators = pikepdf.unparse_content_stream(pikepdf.parse_content_stream(page))
            assert b"Tf" not in operators or b"/F1 " not in operators   # no stray `BT /F1 12 Tf ET`
    return count


@pytest.mark.parametrize("game", ["cimiterio", "zombie-run", "zombies-vs-vampires"])
def test_every_pdf_a_build_writes_embeds_its_fonts(shipped_build, game):
    pdfs = sorted(shipped_build(game).rglob("*.pdf"))
    assert len(pdfs) >= 2                              # cards and at least one component document
    assert sum(check_fonts(pdf) for pdf in pdfs) > 0


def test_calibration_and_low_level_writers_embed_their_fonts(tmp_path):
    write_calibration_pdf(tmp_path / "cal.pdf", paper="letter", flip="short")
    write_cards_pdf(tmp_path / "cards.pdf", marked_cards(card_size_pt("poker"), 3), lang="uk")  # faces without text
    for path in (tmp_path / "cal.pdf", tmp_path / "cards.pdf"):
        assert check_fonts(path) > 0


# ---------------------------------------------------------------- backs after a short-edge flip

def marker_rgb(card, corner):
    """A colour per card and per marked corner (0: top-left, 1: top-right), unlike any card body."""
    return (0.1 + 0.1 * card, 0.15 + 0.6 * corner, 0.95)


def marked_face(size, card, corners, body):
    """A face with coloured squares in the given corners of its trim (card coordinates: up is up)."""
    w, h = size[0] + 2 * mm(BLEED), size[1] + 2 * mm(BLEED)
    d = Drawing(w, h)
    d.add(Rect(0, 0, w, h, fillColor=Color(*body), strokeColor=None))
    side, inset = mm(8), mm(BLEED + 4)
    for corner in corners:
        x = inset if corner == 0 else w - inset - side
        d.add(Rect(x, h - inset - side, side, side, fillColor=Color(*marker_rgb(card, corner)), strokeColor=None))
    return d


def marked_cards(size, n):
    """Fronts marked top-left and top-right; backs marked top-left only."""
    cards = []
    for i in range(n):
        front = Face(f"f{i}", marked_face(size, i, (0, 1), (0.9, 0.9, 0.85)))
        back = Face(f"b{i}", marked_face(size, i, (0,), (0.85, 0.9, 0.9)))
        cards.append(SheetCard(front, back, size[0], size[1], f"c{i}"))
    return cards


@pytest.mark.parametrize("flip", ["long", "short"])
@pytest.mark.parametrize("size", ["poker", "tarot"])   # cards lying sideways (poker) and upright (tarot)
def test_turned_over_each_back_is_behind_its_front_and_upright(flip, size, tmp_path):
    """Turn the printed sheet over as the printer did (long edge: x mirrors; short edge: y mirrors,
    on portrait paper), then turn the cut card over about its own vertical axis, as people turn
    cards: the back's top-left corner is behind the front's top-right corner, its top behind the
    front's top, whichever the flip. So the back's top-left marker, mirrored for the flip, lands
    on the front's top-right marker."""
    path = tmp_path / "x.pdf"
    n = 4
    write_cards_pdf(path, marked_cards(card_size_pt(size), n), paper="a4", flip=flip)
    pw, ph = PAPER_MM["a4"]
    front, back = render_page(path, 0, dpi=150), render_page(path, 1, dpi=150)
    for i in range(n):
        bx, by, back_area = colour_centroid(back, marker_rgb(i, 0))
        behind = (pw - bx, by) if flip == "long" else (bx, ph - by)
        fx, fy, front_area = colour_centroid(front, marker_rgb(i, 1))
        assert behind == pytest.approx((fx, fy), abs=0.2), (i, behind, (fx, fy))
        assert back_area == pytest.approx(64, rel=0.05) and front_area == pytest.approx(64, rel=0.05)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("size", ["poker", "tarot", "mini"])
def test_back_transform_is_the_front_turned_over(paper, size, tmp_path):
    """For each slot, long and short: the back's drawing matrix is M . F . C (C mirrors the card
    about its vertical centre line, F is the front's matrix, M the flip on the page), a pure turn
    (no mirror) by 180 degrees more under a short-edge flip than under a long-edge one."""
    w, h = card_size_pt(size)
    fw = w + 2 * mm(BLEED)
    turns = {}
    for flip in ("long", "short"):
        report = write_cards_pdf(tmp_path / f"{flip}.pdf", deck(4, size=(w, h)), paper=paper, flip=flip)
        pw, ph = report.pages[0].width, report.pages[0].height
        mirror = (-1, 0, 0, 1, pw, 0) if flip == "long" else (1, 0, 0, -1, 0, ph)
        card_mirror = (-1, 0, 0, 1, fw, 0)
        fronts = {c.label: c for c in report.pages[0].cards}
        for back in report.pages[1].cards:
            expected = _multiply(_multiply(card_mirror, fronts[back.label].transform), mirror)
            assert back.transform == pytest.approx(expected, abs=1e-6)
            a, b, c, d = back.transform[:4]
            assert a * d - b * c == pytest.approx(1)          # a turn, never a mirror image
        turns[flip] = {c.label: c.rotation for c in report.pages[1].cards}
    for label, long_turn in turns["long"].items():
        assert (turns["short"][label] - long_turn) % 360 == 180


def test_back_offset_moves_short_edge_backs_on_the_page_not_the_card(tmp_path):
    """back_offset stays a shift of the whole back page as seen looking at it, whichever the flip
    (the calibration sheet reads it that way): it does not turn with the faces."""
    plain, shifted = tmp_path / "plain.pdf", tmp_path / "shifted.pdf"
    size = card_size_pt("tarot")
    write_cards_pdf(plain, marked_cards(size, 2), flip="short")
    write_cards_pdf(shifted, marked_cards(size, 2), flip="short", back_offset=(1.5, -2.0))
    a, b = render_page(plain, 1, dpi=150), render_page(shifted, 1, dpi=150)
    for i in range(2):
        (x0, y0, _), (x1, y1, _) = colour_centroid(a, marker_rgb(i, 0)), colour_centroid(b, marker_rgb(i, 0))
        assert (x1 - x0, y1 - y0) == pytest.approx((1.5, 2.0), abs=0.2)   # right and down (raster y)


def test_shipped_two_faced_card_reads_the_same_way_up(tmp_path):
    """Cimiterio's gate: its second face is turned 180 degrees on a short-edge sheet relative to
    the long-edge sheet's, about the card's centre."""
    source = Path(__file__).resolve().parent.parent / "data" / "cimiterio"
    pack = tmp_path / "cimiterio"
    shutil.copytree(source, pack)
    rotations = {}
    for flip in ("long", "short"):
        from pnp.build import BuildOptions, build
        result = build([str(pack)], BuildOptions(lang="en", flip=flip, out=tmp_path / flip))
        pdf = next(p for p in result.files if p.name == "cimiterio-cards-en-a4.pdf")
        with pikepdf.open(pdf) as document:   # (cos, sin) of every back face's turn
            rotations[flip] = [(round(m[0]), round(m[1]))
                               for page in list(document.pages)[1::2] for _, _, m in placed_faces(page)]
    assert len(rotations["long"]) == len(rotations["short"]) == 95
    assert all((-c, -s) == short for (c, s), short in zip(rotations["long"], rotations["short"]))


@pytest.mark.parametrize("value", ["100,0", "0,-10.5", "nan,0", "inf,0"])
def test_a_back_offset_beyond_what_calibration_reads_is_refused(tiny_pack, tmp_path, value):
    """`pnp calibrate` reads up to 5 mm; an offset past MAX_BACK_OFFSET_MM (10 mm) would push the
    backs off their fronts and off the page: refused before anything is built (exit 2)."""
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", str(tiny_pack), "--out", str(out), "--lang", "en",
                                       f"--back-offset={value}"])
    assert result.exit_code == 2, result.output
    assert f"'{value}': each of X and Y within -10..10 mm" in result.output
    assert not out.exists()


def test_a_back_offset_at_the_limit_builds(tiny_pack, tmp_path):
    result = CliRunner().invoke(main, ["build", str(tiny_pack), "--out", str(tmp_path), "--lang", "en",
                                       "--back-offset=-10,10"])
    assert result.exit_code == 0, result.output
