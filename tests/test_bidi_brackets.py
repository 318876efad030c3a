"""Paired brackets in right-to-left text (UAX #9 rule N0 with BD16's pairing, mirroring L4) and the
order of each line after wrapping (levels from the whole paragraph, rule L2 per line).

The reference is FriBidi (libfribidi, called through ctypes: the engine under Pillow's raqm, which
tests/test_text_rtl.py compares rasters with); python-bidi's Rust `get_display` gives the same
order. Visual order is written as characters left to right, with a right-to-left character drawn
mirrored (its Bidi_Mirroring_Glyph), as a reader sees the line.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import random
import re
import unicodedata

import pytest
from bidi.mirror import MIRRORED

from pnp.text import fonts, unibidi
from pnp.text.digits import Numbers, printed
from pnp.text.layout import layout, rich_layout

TITLE = "ممر Cimiterio (v1.2) سليم"
RULE = "حرّك الحارس 2 / 4 / 6 خطوات على ممر Cimiterio (v1.2) ثم يمشي أحد الحارسَين أو كلاهما إلى التالية."
# brackets around Latin, nested, crossed and unmatched brackets, brackets around numbers, mixed
# Latin/Arabic/digits, and Arabic in brackets inside Latin text
STRINGS = [
    TITLE,
    RULE,
    "ممر [Cimiterio (v1.2)] سليم",
    "ممر ((v1.2)) سليم",
    "ممر (Cimiterio [v1.2)] سليم",
    "ممر (Cimiterio) سليم)",
    "ممر ((Cimiterio سليم",
    "ممر (a(b)c) سليم",
    "ممر (a) (b) سليم",
    "ممر a (b) سليم",
    "ممر a (ب) سليم",
    "ممر (نص Latin) سليم",
    "ممر (Latin نص) سليم",
    "اسحب (3) بطاقات",
    "اسحب (-1) و(10%) ثم (3.5)",
    "اسحب بطاقة (Zombie Bus) الآن",
    "(Zombie) اسحب",
    "اسحب (Zombie)",
    "زومبي (D6) ثم (2d6+1) و«Bus 2»",
    "زومبي {x} [y] «z» ⟨w⟩",
    "Roll 2d6 (زومبي) now",
    "Roll (زومبي 3) now",
]


def _fribidi():
    name = ctypes.util.find_library("fribidi") or "libfribidi.so.0"
    try:
        return ctypes.CDLL(name)
    except OSError:
        pytest.skip("libfribidi is not installed: no reference bidi engine here")


def fribidi_lines(text: str, base: int, lines: list[tuple[int, int]]) -> list[str]:
    """FriBidi's visual order of each line [a, b) of the paragraph `text`."""
    lib = _fribidi()
    n = len(text)
    chars = (ctypes.c_uint32 * n)(*map(ord, text))
    types = (ctypes.c_uint32 * n)()
    lib.fribidi_get_bidi_types(chars, n, types)
    brackets = (ctypes.c_uint32 * n)()
    lib.fribidi_get_bracket_types(chars, n, types, brackets)
    direction = ctypes.c_uint32(0x111 if base else 0x110)      # FRIBIDI_PAR_RTL / FRIBIDI_PAR_LTR
    levels = (ctypes.c_int8 * n)()
    assert lib.fribidi_get_par_embedding_levels_ex(types, brackets, n, ctypes.byref(direction), levels)
    paragraph = list(levels)
    order = (ctypes.c_int * n)(*range(n))
    for a, b in lines:
        lib.fribidi_reorder_line(0, types, b - a, a, direction, levels, None, order)
    return [_visual(text, order[a:b], paragraph) for a, b in lines]


def our_lines(text: str, base: int, lines: list[tuple[int, int]]) -> list[str]:
    levels = unibidi.embedding_levels(text, base)
    return [_visual(text, [a + i for i in unibidi.reorder(levels[a:b])], levels) for a, b in lines]


def _visual(text: str, order, levels) -> str:
    return "".join(MIRRORED.get(text[i], text[i]) if levels[i] % 2 else text[i] for i in order)


def _two_lines(text: str) -> list[list[tuple[int, int]]]:
    """The paragraph on one line, and broken in two at each space."""
    spaces = [m.start() for m in re.finditer(" ", text)]
    return [[(0, len(text))]] + [[(0, s), (s + 1, len(text))] for s in spaces]


# --------------------------------------------------------------------------------------------
# The levels and the order of each line, against FriBidi


@pytest.mark.parametrize("text", STRINGS)
@pytest.mark.parametrize("base", [1, 0])
def test_visual_order_per_line_matches_fribidi(text, base):
    for lines in _two_lines(text):
        assert our_lines(text, base, lines) == fribidi_lines(text, base, lines), lines


def test_random_mixed_strings_match_fribidi():
    alphabet = ["ب", "م", "a", "Z", "1", "2", "٣", "(", ")", "[", "]", " ", ".", "-", "%", "+", ",", "«", "»"]
    rnd = random.Random(9)
    for _ in range(1500):
        text = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(1, 14)))
        for base in (0, 1):
            lines = [(0, len(text))]
            assert our_lines(text, base, lines) == fribidi_lines(text, base, lines), (base, text)


def test_brackets_are_the_pairs_fribidi_knows():
    """BD14/BD15: the paired brackets (Ps/Pe, mirrored, with a mirror glyph) are FriBidi's, each
    with its own opening bracket (FriBidi also matches compatibility forms: "⁽" with "(")."""
    lib = _fribidi()
    lib.fribidi_get_bracket.restype = ctypes.c_uint32
    lib.fribidi_get_bracket.argtypes = [ctypes.c_uint32]
    mirror = ctypes.c_uint32()
    checked = 0
    for code in range(0x2FFFF):
        char = chr(code)
        if unicodedata.category(char) == "Cn":
            continue
        ref = lib.fribidi_get_bracket(code)
        ours = unibidi._bracket(char)
        if (ours is not None) != bool(ref) and not lib.fribidi_get_mirror_char(code, ctypes.byref(mirror)):
            continue                  # a bracket newer than the Unicode version of this FriBidi
        assert (ours is not None) == bool(ref), hex(code)
        if ours:
            kind, opening = ours
            assert kind == ("open" if ref & 0x80000000 else "close"), hex(code)
            assert unicodedata.normalize("NFKD", opening) == unicodedata.normalize("NFKD", chr(ref & 0x7FFFFFFF))
            checked += 1
    assert checked >= 120


# --------------------------------------------------------------------------------------------
# What the reader sees, written out (no reference engine needed)


def test_brackets_around_latin_go_with_the_latin_run():
    # the translator's report: "سليم (Cimiterio (v1.2 ممر" was printed, fribidi and python-bidi give
    assert our_lines(TITLE, 1, [(0, len(TITLE))]) == ["ميلس Cimiterio (v1.2) رمم"]
    assert our_lines("ممر [Cimiterio (v1.2)] سليم", 1, [(0, 27)]) == ["ميلس [Cimiterio (v1.2)] رمم"]
    # brackets around Arabic or numbers stay right to left, drawn mirrored
    assert our_lines("اسحب (3) بطاقات", 1, [(0, 15)]) == ["تاقاطب (3) بحسا"]
    assert our_lines("ممر (نص Latin) سليم", 1, [(0, 19)]) == ["ميلس (Latin صن) رمم"]
    # Arabic in brackets inside Latin text keeps the brackets left to right
    assert our_lines("Roll (زومبي) now", 0, [(0, 16)]) == ["Roll (يبموز) now"]


def test_wrapped_line_keeps_both_brackets_with_the_latin_text():
    start = RULE.index("(v1.2)")
    lines = [(0, start - 1), (start, len(RULE))]
    first, second = our_lines(RULE, 1, lines)
    assert first.startswith("Cimiterio ")
    # "(v1.2) ثم ..." from the right; it was drawn "... مث ((v1.2", the ")" mirrored beside the "("
    assert second.endswith(" مث (v1.2)")


def _drawn(result, index: int) -> str:
    """Line `index` of a layout as drawn, left to right: each run's characters, a right-to-left
    run's reversed and mirrored as HarfBuzz draws them."""
    shaped = result.shaped(index)
    assert shaped is not None
    return "".join("".join(MIRRORED.get(c, c) for c in reversed(run.text)) if run.rtl else run.text
                   for run in shaped.runs)


def test_layout_draws_the_title_and_wrapped_rule_in_fribidi_order():
    fonts.register_all()
    title = layout(TITLE, "bold", 80, 20, 12, 12, direction="auto")
    assert _drawn(title, 0) == "ميلس Cimiterio (v1.2) رمم"
    latin = [run for run in title.shaped(0).runs if "Cimiterio" in run.text]
    assert len(latin) == 1 and latin[0].text.strip() == "Cimiterio (v1.2)" and not latin[0].rtl
    # a box that breaks the rule before "(v1.2)": each line as FriBidi orders it
    for width in range(30, 80):
        result = layout(RULE, "regular", width, 60, 10, 10)
        if any(line.startswith("(v1.2)") for line in result.lines):
            break
    else:
        pytest.fail("no width breaks the rule before (v1.2)")
    spans, at = [], 0
    for line in result.lines:
        at = RULE.index(line, at)
        spans.append((at, at + len(line)))
        at += len(line)
    drawn = [_drawn(result, i) for i in range(len(result.lines))]
    assert drawn == our_lines(RULE, 1, spans)
    assert any(line.endswith(" مث (v1.2)") for line in drawn)
    if ctypes.util.find_library("fribidi"):
        assert drawn == fribidi_lines(RULE, 1, spans)


def test_rich_text_brackets_follow_the_same_rule():
    fonts.register_all()
    text = TITLE
    styles = tuple("bold" if text.index("Cimiterio") <= i < text.index(")") + 1 else "regular"
                   for i in range(len(text)))
    result = rich_layout(text, styles, (), "regular", 80, 20, 12, 12)
    assert _drawn(result, 0) == "ميلس Cimiterio (v1.2) رمم"


# --------------------------------------------------------------------------------------------
# Digits of a Latin token (pnp.text.digits)


def test_latin_tokens_keep_their_digits_with_arabic_indic():
    indic = Numbers("arabic-indic", True)
    assert printed(TITLE, indic) == TITLE
    assert printed("ارم D6 أو 2d6+1 أو x2", indic) == "ارم D6 أو 2d6+1 أو x2"
    # free-standing numbers, and numbers on Arabic words, change
    assert printed("حرّك 2 / 4 / 6 خطوات على Cimiterio 2", indic) == "حرّك ٢ / ٤ / ٦ خطوات على Cimiterio ٢"
    assert printed("اسحب 3.5 و100% و-2 و(3)", indic) == "اسحب ٣٫٥ و١٠٠٪ و-٢ و(٣)"
    assert printed("v1.2, 3.5", indic) == "v1.2, ٣٫٥"
