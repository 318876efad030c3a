"""Printed digits (pack.yaml `digits`, `pnp build --digits`) and signs that read right to left
(pnp.text.digits)."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.pack import DATA_DIR
from pnp.text import digits, fonts
from pnp.text.digits import ALM, LRM, PDI, RLI, Numbers, printed, printed_rich
from pnp.text.layout import layout
from pnp.text.markup import ICON_CHAR, Rich

ARABIC_INDIC = re.compile("[\u0660-\u0669]")
LATIN_DIGIT = re.compile("[0-9]")
AR_LATIN, AR_INDIC = Numbers("latin", True), Numbers("arabic-indic", True)
needs_poppler = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext (poppler-utils) not installed")


# --------------------------------------------------------------------------------------------
# The text layer

def test_arabic_indic_digits_and_separators():
    assert printed("اسحب 5 بطاقات", AR_INDIC) == "اسحب ٥ بطاقات"
    assert printed("100% / 3.5 / 1,000 / 2024", AR_INDIC) == "١٠٠٪ / ٣٫٥ / ١٬٠٠٠ / ٢٠٢٤"
    assert printed("Print at 100%", Numbers("arabic-indic", False)) == "Print at ١٠٠٪"


def test_no_setting_and_latin_left_to_right_print_as_written():
    for text in ("+6", "6+", "1–5", "3.5%", "a -2 b"):
        assert printed(text) == text
        assert printed(text, Numbers()) == text


def test_signed_numbers_follow_cldr_in_right_to_left_languages():
    # CLDR ar: plusSign/minusSign carry ALM with arab digits, LRM with latn digits
    assert printed("اسحب +2 بطاقة", AR_INDIC) == f"اسحب {ALM}+٢ بطاقة"
    assert printed("اسحب +2 بطاقة", AR_LATIN) == f"اسحب {LRM}+2 بطاقة"
    assert printed("(-1) 3-4", AR_LATIN) == f"({LRM}-1) 3-4"          # a hyphen inside is no sign


def test_number_badges_are_isolated_right_to_left():
    assert printed("6+", AR_LATIN) == f"{RLI}6+{PDI}"
    assert printed("+6", AR_INDIC) == f"{RLI}{ALM}+٦{PDI}"
    assert printed("1–5", AR_INDIC) == f"{RLI}١–٥{PDI}"
    assert printed("6", AR_INDIC) == "٦"                                 # a bare number: nothing to order
    assert printed("6 زومبي", AR_INDIC) == "٦ زومبي"


def _runs(text: str, numbers: Numbers, direction: str = "ltr") -> list[tuple[str, float]]:
    """The visible runs of a one-line text as laid out: (text, left edge in mm)."""
    fonts.register_all()
    result = layout(printed(text, numbers), "bold", 30, 10, 14, 14, direction=direction)
    shaped = result.shaped(0)
    if shaped is None:
        return [(result.lines[0], 0.0)]
    return [(INVISIBLE.sub("", run.text), run.x_mm) for run in shaped.runs if INVISIBLE.sub("", run.text)]


INVISIBLE = re.compile("[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]")


def _left_to_right(runs: list[tuple[str, float]]) -> str:
    """The runs' characters as drawn from left to right (a right-to-left run's reversed)."""
    return "".join(t for t, _ in sorted(runs, key=lambda r: r[1]))


def test_badges_read_right_to_left_even_in_a_box_forced_left_to_right():
    # the Cimiterio gate's "6+" tab is textbox(..., direction="ltr"): in Arabic it is drawn "+6",
    # six then "or more" read from the right; left to right it stays "6+"
    assert _left_to_right(_runs("6+", AR_LATIN)) == "+6"
    assert _left_to_right(_runs("6+", Numbers())) == "6+"
    assert _left_to_right(_runs("1–5", AR_INDIC)) == "٥–١"
    # signed numbers, CLDR: the sign reads first; right of Arabic-Indic digits, left of Latin ones
    assert _left_to_right(_runs("+6", AR_INDIC)) == "٦+"
    assert _left_to_right(_runs("+6", AR_LATIN)) == "+6"
    assert _left_to_right(_runs("+6", Numbers())) == "+6"


def test_rich_text_keeps_its_styles_and_icons():
    rich = Rich(f"+2 {ICON_CHAR} 3", (1, 1, 0, 0, 0, 0), ("skull",))
    out = printed_rich(rich, AR_INDIC)
    assert out.text == f"{ALM}+٢ {ICON_CHAR} ٣" and out.icons == ("skull",)
    assert out.marks == (1, 1, 1, 0, 0, 0, 0)


def test_for_language_reads_the_pack_and_the_build_option():
    declared = {"ar": "arabic-indic"}
    assert digits.for_language(declared, "ar") == AR_INDIC
    assert digits.for_language(declared, "ar", "latin") == AR_LATIN
    assert digits.for_language({}, "ar") == AR_LATIN
    assert digits.for_language(declared, "it", "arabic-indic") == Numbers("latin", False)   # rtl languages only


# --------------------------------------------------------------------------------------------
# pack.yaml and the build

def _pack(tmp_path: Path, extra: str) -> Path:
    root = tmp_path / "zombie-run"
    shutil.copytree(DATA_DIR / "zombie-run", root)
    pack_yaml = root / "pack.yaml"
    pack_yaml.write_text(pack_yaml.read_text(encoding="utf-8") + extra, encoding="utf-8")
    return root


def test_pack_digits_are_checked(tmp_path):
    root = _pack(tmp_path, "digits: {ar: roman, xx: latin}\n")
    result = CliRunner().invoke(main, ["build", str(root), "--lang", "ar", "--out", str(tmp_path / "out")])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "digits.ar" in result.output and "roman" in result.output
    assert "digits.xx" in result.output and "'xx' is not a declared language" in result.output


def _text(folder: Path, name: str) -> str:
    path = next(folder.rglob(name))
    return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout


@needs_poppler
def test_arabic_indic_digits_print_from_the_pack_and_the_option(tmp_path):
    root = _pack(tmp_path, "digits: {ar: arabic-indic}\n")
    for out, extra in (("pack", []), ("latin", ["--digits", "latin"]), ("shipped", None)):
        game = "zombie-run" if extra is None else str(root)
        args = ["build", game, "--lang", "ar", "--out", str(tmp_path / out), *(extra or [])]
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, result.output
    aid = _text(tmp_path / "pack", "*parts-ar*.pdf")
    assert "٥ أدوات مختلفة أمامك" in INVISIBLE.sub("", aid)           # the player aid's count
    assert not re.search("[0-9] أدوات", aid)
    for out in ("latin", "shipped"):                                   # the option, and no declaration
        aid = _text(tmp_path / out, "*parts-ar*.pdf")
        assert "5 أدوات مختلفة أمامك" in INVISIBLE.sub("", aid) and not ARABIC_INDIC.search(aid)


@needs_poppler
def test_option_on_the_command_line_gives_card_values_in_arabic_indic(tmp_path):
    result = CliRunner().invoke(main, ["build", "cimiterio", "--lang", "ar", "--digits", "arabic-indic",
                                       "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    cards = INVISIBLE.sub("", _text(tmp_path, "*cards-ar*.pdf"))
    assert len(ARABIC_INDIC.findall(cards)) > 50                        # zombie points, tomb numbers, tabs
    lines = {line.strip() for line in cards.splitlines()}
    assert any(re.fullmatch("[٠-٩]+\\+", line) for line in lines)           # the gate's "6 or more" tab
    assert any(re.fullmatch("١–[٠-٩]+", line) for line in lines)             # and its "1–5"
    # Latin digits left on the cards are sheet text only (instructions, page labels, test bar)
    sheet_lines = [line for line in cards.splitlines() if LATIN_DIGIT.search(line)]
    assert all("مم" in line or "/" in line or "%" in line for line in sheet_lines), sheet_lines
