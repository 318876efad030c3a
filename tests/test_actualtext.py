"""Copying Arabic out of the PDF: every shaped line is one /ActualText span that poppler (pdftotext,
Evince and Okular's copy/paste) reads back in logical order (pnp.text.actualtext)."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pikepdf
import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.components import svgkit
from pnp.render import svgcanvas, textbox
from pnp.sheets import info
from pnp.text import actualtext
from pnp.text.actualtext import extraction_order, poppler_reading

GAMES = ("cimiterio", "zombie-run", "zombies-vs-vampires")
needs_poppler = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext (poppler-utils) not installed")
# What the comparison ignores: the invisible bidi controls poppler adds around runs (LRE, RLE, PDF)
# and the marks in the /ActualText (LRM, RLM, ALM; see pnp.text.actualtext); an inline icon's
# placeholder (it prints a picture, no text); how many spaces separate words.
INVISIBLE = re.compile("[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069\ufffc]")
ARABIC = re.compile("[\u0600-\u06ff]")


def normal(text: str) -> str:
    return " ".join(INVISIBLE.sub("", text).split())


def pdftotext(path: Path, *flags: str) -> str:
    return subprocess.run(["pdftotext", *flags, str(path), "-"], capture_output=True, text=True, check=True).stdout


# --------------------------------------------------------------------------------------------
# The order itself

CASES = [
    "اطبع بمقياس 100% / الحجم الفعلي — دون تغيير الحجم؛ على وجه واحد",
    "حرّك 2 / 4 / 6: خطوات",
    "5 أدوات مختلفة أمامك: لقد نجوت!",
    "قاعدة خاصة (مرة في كل دور، اختيارية)",
    "زومبي Zombie 3 نقاط",
    "اسحب 5.",
    "(5) زومبي",
    "Hello زومبي 3 (x)",
]


@pytest.mark.parametrize("text", CASES)
@pytest.mark.parametrize("rtl", [True, False])
def test_poppler_reads_the_order_back_as_the_logical_text(text, rtl):
    order = extraction_order(text, rtl)
    assert normal(poppler_reading(order, rtl)) == normal(text)
    assert sorted(normal(order).replace(" ", "")) == sorted(normal(text).replace(" ", ""))


def test_text_without_right_to_left_letters_is_left_alone():
    for text in ("Print at 100% / Actual size", "Друкуйте 2 / 4 / 6:", ""):
        assert extraction_order(text) == text


def test_a_line_span_replaces_its_runs_spans():
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="80mm" height="20mm" viewBox="0 0 80 20">'
           + str(textbox.make_textbox(textbox.FitReport())("حرّك 2 / 4 / 6: خطوات", 0, 0, 80, 20)) + "</svg>")
    assert svg.count("<g aria-label=") == 1
    code = "".join(str(arg) for op, args in svgcanvas.compile_svg(svg).ops for arg in args if isinstance(arg, str))
    assert code.count("BDC") == 1 and code.count("EMC") == 1
    assert actualtext.pdf_string(extraction_order("حرّك 2 / 4 / 6: خطوات")) in code


# --------------------------------------------------------------------------------------------
# Every Arabic string printed by every shipped game

def _printed_texts(monkeypatch) -> list[str]:
    """Record the text of every textbox, component text and sheet text as it is drawn."""
    sources: dict = {}
    printed: list[str] = []

    def recording(function):
        def call(text, *args, **kwargs):
            result = function(text, *args, **kwargs)
            sources[result] = text
            return result
        return call

    def elements(function):
        def call(result, *args, **kwargs):
            printed.append(sources[result])
            return function(result, *args, **kwargs)
        return call

    monkeypatch.setattr(textbox, "layout", recording(textbox.layout))
    monkeypatch.setattr(textbox, "rich_layout", recording(textbox.rich_layout))
    monkeypatch.setattr(svgkit, "layout", recording(svgkit.layout))
    monkeypatch.setattr(textbox, "text_elements", elements(textbox.text_elements))
    monkeypatch.setattr(svgkit, "text_elements", elements(svgkit.text_elements))
    draw_text = info.draw_text

    def sheet_text(canvas, x, baseline, text, *args, **kwargs):
        printed.append(text)
        return draw_text(canvas, x, baseline, text, *args, **kwargs)

    monkeypatch.setattr(info, "draw_text", sheet_text)
    return printed


def read_back(words: list[str], lines: set[str]) -> bool:
    """`words` split, in order, into pieces each of which is a whole line of the extraction."""
    reachable = [True] + [False] * len(words)
    for end in range(1, len(words) + 1):
        reachable[end] = any(reachable[start] and " ".join(words[start:end]) in lines for start in range(end))
    return reachable[-1]


def unread(pdfs: list[Path], printed: list[str]) -> tuple[int, list[str]]:
    lines = {normal(line) for pdf in pdfs for line in pdftotext(pdf).splitlines()} - {""}
    checked, missing = 0, []
    for text in dict.fromkeys(printed):
        for paragraph in text.split("\n"):
            words = normal(paragraph).split()
            if not words or not ARABIC.search(paragraph):
                continue
            checked += 1
            if not read_back(words, lines):
                missing.append(paragraph)
    return checked, missing


@needs_poppler
@pytest.mark.parametrize("game", GAMES)
def test_pdftotext_reads_every_printed_arabic_text_in_logical_order(game, tmp_path, monkeypatch):
    printed = _printed_texts(monkeypatch)
    result = CliRunner().invoke(main, ["build", game, "--lang", "ar", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    pdfs = sorted(tmp_path.rglob("*.pdf"))
    checked, missing = unread(pdfs, printed)
    assert checked > 20
    assert missing == []


@needs_poppler
def test_the_print_shop_export_keeps_the_spans(tmp_path, monkeypatch):
    """pnp export rewrites every content stream with pikepdf (CMYK colours): the marked content
    goes through unchanged and the Arabic still reads back in logical order."""
    from pnp.export.colour import DEFAULT_CMYK_PROFILE

    if not DEFAULT_CMYK_PROFILE.exists():
        pytest.skip("the default CMYK profile (Debian libgs-common) is not installed")
    printed = _printed_texts(monkeypatch)
    result = CliRunner().invoke(main, ["export", "zombie-run", "--to", "dtc", "--lang", "ar", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    pdfs = sorted(tmp_path.rglob("*.pdf"))
    spans = 0
    for path in pdfs:
        with pikepdf.open(path) as pdf:
            for page in pdf.pages:
                for form in page.Resources.get("/XObject", {}).values():
                    spans += sum(str(i.operator) == "BDC" for i in pikepdf.parse_content_stream(form))
    assert spans > 100
    checked, missing = unread(pdfs, printed)
    assert checked > 20 and missing == []


def test_same_input_same_bytes(tmp_path):
    for out in ("a", "b"):
        result = CliRunner().invoke(main, ["build", "zombies-vs-vampires", "--lang", "ar", "--digits", "arabic-indic",
                                           "--out", str(tmp_path / out)])
        assert result.exit_code == 0, result.output
    first = sorted((tmp_path / "a").rglob("*.pdf"))
    assert first and all(path.read_bytes() == (tmp_path / "b" / path.relative_to(tmp_path / "a")).read_bytes()
                         for path in first)
