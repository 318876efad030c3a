"""Rich text in printed text (pnp.text.markup + pnp.text.layout.rich_layout + textbox): bold and
italic runs, inline icons, escapes, markup findings, and the text.small record (issue 11 part 4,
issue 12 part 5). Positions are read back from the emitted SVG and from the PDF's fonts."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from reportlab.pdfgen import canvas as rl_canvas

from pnp.render.svgcanvas import compile_svg
from pnp.render.textbox import make_textbox, text_elements
from pnp.text import fonts, shaping
from pnp.text.fitreport import MIN_PRINTED_PT, TEXT_ICON, TEXT_MARKUP, TEXT_SMALL, FitReport
from pnp.text.layout import PT_TO_MM, layout
from pnp.text.packfonts import TextAssets
from pnp.units import pt_to_mm

PACK = Path(__file__).resolve().parent / "packs" / "richtext"
ASSETS = TextAssets((), PACK / "icons", PACK)
TEXT = re.compile(r'<text x="(?P<x>[\d.-]+)" y="(?P<y>[\d.-]+)" font-family="(?P<font>[^"]+)" '
                  r'font-size="(?P<size>[\d.]+)"[^>]*>(?P<text>[^<]*)</text>')
ICON = re.compile(r'<g transform="matrix\((?P<s>[\d.e-]+) 0 0 [\d.e-]+ (?P<x>[\d.-]+) (?P<y>[\d.-]+)\)" '
                  r'fill="(?P<fill>[^"]+)"')


def box(text, x=2.0, y=2.0, w=76.0, h=10.0, report=None, assets=ASSETS, **options):
    report = report if report is not None else FitReport()
    return str(make_textbox(report, assets)(text, x, y, w, h, **options)), report


def texts(markup: str) -> list[dict]:
    return [m.groupdict() for m in TEXT.finditer(markup)]


def em_mm(text: str, font: str, size: float, rtl: bool = False) -> float:
    return shaping.shape(text, font, rtl).advance * size / 1000 * PT_TO_MM


# --------------------------------------------------------------------------------------------
# Unmarked text is what it always was

@pytest.mark.parametrize("text", ["Hello world", "3 * 4 = 12", "3*4", "2*: move one piece", "at 10:30: go",
                                  "zombi*"])
def test_text_without_markup_is_byte_identical_to_the_plain_layout(text):
    markup, report = box(text, size=12, align="start", fill="#112233", font="bold")
    plain = layout(text, "bold", 76.0, 10.0, 12.0, 6.0)
    assert markup == text_elements(plain, 2.0, 2.0, 76.0, 10.0, "bold", "start", "middle", "#112233")
    assert [i for i in report.issues if i.code != TEXT_SMALL] == []


def test_escapes_print_the_stars_and_colons_as_plain_text():
    markup, report = box(r"\*not italic\* and \:skull\: and a \\ backslash", size=10)
    assert [t["text"] for t in texts(markup)] == [r"*not italic* and :skull: and a \ backslash"]
    assert "direction=" not in markup and "<g" not in markup and report.issues == []


# --------------------------------------------------------------------------------------------
# Bold and italic runs

def test_bold_and_italic_words_are_runs_of_their_own_fonts_placed_by_their_own_widths():
    markup, report = box("Gain **two** *coins* and ***flee***", size=10, align="start")
    runs = texts(markup)
    assert [(r["text"], r["font"]) for r in runs] == [
        ("Gain ", "PnpSans-Regular"), ("two", "PnpSans-Bold"), ("coins", "PnpSans-Italic"),
        (" and ", "PnpSans-Regular"), ("flee", "PnpSans-BoldItalic")]
    x = [float(r["x"]) for r in runs]
    space = em_mm(" ", "PnpSans-Regular", 10)
    assert x[0] == pytest.approx(2.0, abs=1e-3)
    assert x[1] == pytest.approx(2.0 + em_mm("Gain ", "PnpSans-Regular", 10), abs=2e-3)
    assert x[2] == pytest.approx(x[1] + em_mm("two", "PnpSans-Bold", 10) + space, abs=2e-3)
    assert x[4] == pytest.approx(x[3] + em_mm(" and ", "PnpSans-Regular", 10), abs=2e-3)
    assert len({r["y"] for r in runs}) == 1 and len({r["size"] for r in runs}) == 1
    assert report.issues == []


def test_the_pdf_embeds_the_bold_and_italic_fonts(tmp_path):
    markup, _ = box("Plain **bold** *italic*", size=10)
    face = compile_svg(f'<svg xmlns="http://www.w3.org/2000/svg" width="80mm" height="14mm" '
                       f'viewBox="0 0 80 14">{markup}</svg>')
    pdf = tmp_path / "rich.pdf"
    c = rl_canvas.Canvas(str(pdf), pagesize=(face.width, face.height), invariant=1)
    face.draw(c)
    c.showPage()
    c.save()
    data = pdf.read_bytes()
    for name in (b"PnpSans-Regular", b"PnpSans-Bold", b"PnpSans-Italic"):
        assert re.search(rb"/BaseFont /[A-Z]{6}\+" + name, data), name


def test_a_bold_word_wraps_by_its_bold_width():
    # the box is just wide enough for the words in the regular font: in bold the last one wraps
    w = em_mm("Gain Unstoppable", "PnpSans-Regular", 10) + 0.05
    plain, _ = box("Gain Unstoppable", w=w, h=20, size=10, min_size=10, align="start")
    rich, report = box("Gain **Unstoppable**", w=w, h=20, size=10, min_size=10, align="start")
    assert len(texts(plain)) == 1
    first, bold = texts(rich)
    assert (bold["text"], bold["font"], float(bold["x"])) == ("Unstoppable", "PnpSans-Bold", 2.0)
    assert float(bold["y"]) > float(first["y"])                               # on the next line
    assert report.issues == []


def test_every_run_shrinks_together_and_each_line_fits():
    markup, report = box("Gain **Unstoppable** then *italic words* here", w=30, h=14, size=12, min_size=5,
                         align="start")
    runs = texts(markup)
    sizes = {r["size"] for r in runs}
    assert len(sizes) == 1 and float(sizes.pop()) < pt_to_mm(12)           # shrunk, all together
    assert {r["font"] for r in runs} == {"PnpSans-Regular", "PnpSans-Bold", "PnpSans-Italic"}
    assert all(float(r["x"]) - 2.0 + em_mm(r["text"], r["font"], float(r["size"]) / PT_TO_MM) <= 30 + 1e-3
               for r in runs)
    assert report.issues == []


# --------------------------------------------------------------------------------------------
# Icons

def test_an_icon_is_one_em_tall_centred_on_the_capitals_in_the_text_colour():
    markup, report = box("Gain :skull: now", size=10, align="start", fill="#1030a0")
    (icon,) = [m.groupdict() for m in ICON.finditer(markup)]
    size_mm = pt_to_mm(10)
    assert float(icon["s"]) * 24 == pytest.approx(size_mm, abs=1e-4)       # viewBox 24 tall -> 1 em
    baseline = float(texts(markup)[0]["y"])
    cap = fonts.cap_height("regular") * size_mm
    assert float(icon["y"]) == pytest.approx(baseline - cap / 2 - size_mm / 2, abs=2e-3)
    assert float(icon["x"]) == pytest.approx(2.0 + em_mm("Gain ", "PnpSans-Regular", 10), abs=2e-3)
    assert icon["fill"] == "#1030a0" and "#ff0000" not in markup and "white" not in markup
    after = texts(markup)[1]
    assert float(after["x"]) == pytest.approx(float(icon["x"]) + size_mm, abs=2e-3)   # square icon: 1 em wide
    assert report.issues == []


def test_lines_after_an_icon_keep_their_spacing():
    """An icon on the first of three lines moves none of the lines after it (the icon's top was
    once kept in the variable the following lines' baselines were measured from: the third line
    of a starter card printed a blank line lower)."""
    markup, report = box("Gain :skull: now and then again later once more at the end", w=30.0, h=30.0,
                         size=9, min_size=9, line_height=1.25)
    baselines = sorted({float(t["y"]) for t in texts(markup)})
    assert len(baselines) >= 3 and report.issues == []
    steps = [b - a for a, b in zip(baselines, baselines[1:])]
    assert steps == pytest.approx([pt_to_mm(9) * 1.25] * len(steps), abs=2e-3)


def test_an_icon_between_arabic_words_keeps_its_logical_place():
    markup, report = box("يهاجم :skull: الزومبي", size=10)
    right_edge = {r["text"].strip(): float(r["x"]) for r in texts(markup) if r["text"].strip()}   # rtl: x is the right
    (icon,) = [float(m.group("x")) for m in ICON.finditer(markup)]
    # right to left: the first word is rightmost, the icon next, the second word leftmost
    assert right_edge["الزومبي"] <= icon + 1e-3
    assert icon + pt_to_mm(10) <= right_edge["يهاجم"] - em_mm("يهاجم", "PnpArabic-Regular", 10, True) + 1e-3
    assert report.issues == []


def test_a_wide_icon_takes_its_aspect_ratio():
    markup, _ = box(":coin: x", size=10, align="start")
    (icon,) = [m.groupdict() for m in ICON.finditer(markup)]
    x_after = float(texts(markup)[0]["x"])
    assert x_after - float(icon["x"]) == pytest.approx(2 * pt_to_mm(10), abs=2e-3)   # viewBox 20x10


# --------------------------------------------------------------------------------------------
# Markup that is wrong: findings, never a crash

@pytest.mark.parametrize("text, code, printed", [
    ("**bold never closes", TEXT_MARKUP, "**bold never closes"),
    ("closes nothing**", TEXT_MARKUP, "closes nothing**"),
    ("**a *b** c*", TEXT_MARKUP, "**a *b** c*"),
    ("an :owl: icon", TEXT_ICON, "an :owl: icon"),
])
def test_unbalanced_markup_and_unknown_icons_are_findings_and_print_as_typed(text, code, printed):
    markup, report = box(text, size=10)
    assert [i.code for i in report.issues] == [code]
    assert report.issues[0].text == text and report.issues[0].reason
    assert "".join(t["text"] for t in texts(markup)) == printed


def test_an_icon_file_outside_the_subset_is_a_finding(tmp_path):
    icons = tmp_path / "icons"
    icons.mkdir()
    (icons / "pic.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
                                   '<image href="x.png" width="10" height="10"/></svg>')
    (icons / "out.svg").symlink_to(PACK / "icons" / "skull.svg")
    assets = TextAssets((), icons, tmp_path)
    for name, reason in (("pic", "<image> is not allowed"), ("out", "outside the pack")):
        markup, report = box(f"a :{name}: b", assets=assets, size=10)
        assert [i.code for i in report.issues] == [TEXT_ICON]
        assert reason in report.issues[0].reason
        assert "<g" not in markup


# --------------------------------------------------------------------------------------------
# Small text: every box is recorded; under 6 pt is text.small

def test_every_box_is_recorded_and_text_under_six_points_is_text_small():
    report = FitReport()
    box("Readable", size=6, min_size=6, report=report)
    box("Tiny print", size=5.5, min_size=4, report=report)
    assert [(b.text, b.size_pt) for b in report.boxes] == [("Readable", 6.0), ("Tiny print", 5.5)]
    (small,) = report.issues
    assert (small.code, small.text, small.size_pt, small.box_mm) == (TEXT_SMALL, "Tiny print", 5.5, (76.0, 10.0))
    assert f"{MIN_PRINTED_PT:g} pt" in small.message


def test_measure_without_a_size_records_the_box_and_finds_nothing_small():
    report = FitReport()
    report.measure("legend", (10.0, 4.0), 4.0, "regular", False, ())
    assert report.issues == [] and report.boxes[0].size_pt is None


def test_text_that_overflows_is_not_also_text_small():
    report = FitReport()
    box("word " * 200, w=10, h=3, size=5, min_size=5, report=report)
    assert [i.code for i in report.issues] == ["text.fit"]


def test_text_past_the_card_is_judged_in_one_pass_and_its_marks_leave_no_trace():
    """Each textbox drawn past the card's edge is marked in the face's SVG; one pass keeps the
    issues of the marks outside every transform or nested <svg>, and takes every mark out (the
    SVG then equals one drawn without the check)."""
    from pnp.render.textbox import off_card_issues
    report = FitReport()
    textbox = make_textbox(report, ASSETS, card_mm=(63.0, 88.0))
    parts = [str(textbox("low", 2, 85, 30, 8)), '<g transform="translate(0,-40)">', str(textbox("moved", 2, 85, 30, 8)),
             "</g>", '<svg x="0" y="0"><rect width="1" height="1"/>', str(textbox("nested", 2, 85, 30, 8)),
             "</svg>", str(textbox("inside", 2, 10, 30, 8)), str(textbox("left", -20, 10, 30, 8))]
    svg = '<svg width="63mm">' + "".join(parts) + "</svg>"       # a face: one root
    assert [i.text for i in report.off_card] == ["low", "moved", "nested", "left"]
    clean, kept = off_card_issues(svg, report.off_card)
    assert [i.text for i in kept] == ["low", "left"]
    assert "pnp-off-card" not in clean and "<!--" not in clean
    plain = make_textbox(FitReport(), ASSETS)
    assert clean == '<svg width="63mm">' + "".join([str(plain("low", 2, 85, 30, 8)), '<g transform="translate(0,-40)">',
                             str(plain("moved", 2, 85, 30, 8)), "</g>", '<svg x="0" y="0"><rect width="1" height="1"/>',
                             str(plain("nested", 2, 85, 30, 8)), "</svg>", str(plain("inside", 2, 10, 30, 8)),
                             str(plain("left", -20, 10, 30, 8))]) + "</svg>"
    many = "".join(str(textbox(f"n{i}", 2, 85, 30, 8)) for i in range(2000))
    clean, kept = off_card_issues(many, report.off_card)
    assert len(kept) == 2000 and "pnp-off-card" not in clean
