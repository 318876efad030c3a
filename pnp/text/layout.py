"""Line layout with real font metrics: wrap on words, shrink to fit down to a floor size.

Widths come from the same TrueType fonts ReportLab embeds, so what fits here fits on paper.
Sizes are in points (as designers think of type); boxes are in millimetres (as card geometry is).

Two paths, chosen per paragraph (a paragraph is a piece of the text between newlines):

* simple: left-to-right text that Noto Sans draws alone (Latin, Greek, Cyrillic...). Widths are
  ReportLab's `stringWidth`, lines are plain strings drawn with drawString. Unchanged since the
  first version, so Latin cards stay byte-for-byte the same.
* shaped: anything with right-to-left or Arabic text, or forced right-to-left by `direction`.
  The paragraph gets its bidi embedding levels (`pnp.text.unibidi`) and a font per character
  from the style's fallback chain (`fonts.chain`): Arabic letters, Arabic marks and Arabic-Indic
  digits use Noto Sans Arabic; Latin letters and European digits use Noto Sans even inside Arabic
  text (numbers and names look the same on every card of a pack); spaces and punctuation go with
  the run they stand in. It is cut into runs of one level and one font ("10٪" -> "10" in Noto
  Sans + "٪" in Noto Sans Arabic; "زومبي-Zombie" -> two runs), each shaped by HarfBuzz
  (`pnp.text.shaping`). Lines are broken greedily at spaces in logical order on shaped widths,
  then each line's runs are put in visual order (bidi rule L2): `TextLayout.runs[i]`.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from reportlab.pdfbase.pdfmetrics import stringWidth

from pnp.text import fonts, shaping, unibidi
from pnp.units import PT_PER_MM

PT_TO_MM = 1 / PT_PER_MM
SHRINK_STEP_PT = 0.25
DIRECTIONS = ("auto", "ltr", "rtl")


@dataclass(frozen=True)
class PlacedRun:
    """One visual run of a shaped line: text in logical order, one font, one direction."""

    text: str
    font: str                  # ReportLab font name
    rtl: bool
    x_mm: float                # left edge, from the line's left edge
    width_mm: float

    @property
    def blank(self) -> bool:
        return not self.text.strip()


@dataclass(frozen=True)
class ShapedLine:
    rtl: bool                  # the paragraph's direction (decides what start/end alignment means)
    runs: tuple[PlacedRun, ...]   # left to right


@dataclass(frozen=True)
class TextLayout:
    lines: tuple[str, ...]     # each line's text in logical order
    size_pt: float
    line_height_mm: float
    ascent_mm: float
    descent_mm: float          # positive
    widths_mm: tuple[float, ...]
    overflow: bool             # True: does not fit even at the floor size
    shrunk: bool               # True: smaller than the requested size
    runs: tuple[ShapedLine | None, ...] = ()   # per line: None (simple line) or its shaped runs

    @property
    def height_mm(self) -> float:
        if not self.lines:
            return 0.0
        return self.ascent_mm + self.descent_mm + (len(self.lines) - 1) * self.line_height_mm

    def shaped(self, index: int) -> ShapedLine | None:
        return self.runs[index] if index < len(self.runs) else None


@lru_cache(maxsize=65536)
def width_mm(text: str, style: str, size_pt: float) -> float:
    return stringWidth(text, fonts.register(style), size_pt) * PT_TO_MM


# --------------------------------------------------------------------------------------------
# Scripts and fonts

_ARABIC_RANGES = ((0x0600, 0x06FF), (0x0750, 0x077F), (0x0870, 0x089F), (0x08A0, 0x08FF),
                  (0xFB50, 0xFDFF), (0xFE70, 0xFEFF), (0x10E60, 0x10E7F), (0x1EE00, 0x1EEFF))
_RTL_TYPES = frozenset({"R", "AL", "AN", "RLE", "RLO", "RLI"})


def _is_arabic(code: int) -> bool:
    return any(start <= code <= end for start, end in _ARABIC_RANGES)


def _script_class(char: str) -> str:
    """'arab' (Arabic script), 'latn' (a letter or digit of another script: the Latin font first)
    or 'common' (spaces, punctuation, symbols, combining marks: they follow their neighbours)."""
    if _is_arabic(ord(char)):
        # Arabic punctuation (، ؛ ؟) and digits are Arabic too; only the Arabic font has them.
        return "arab"
    category = unicodedata.category(char)
    if category[0] in "LN" and category != "No":
        return "latn"
    return "common"


def _needs_shaping(paragraph: str, style: str) -> bool:
    latin = fonts.font_coverage(fonts.register(style))
    for char in paragraph:
        code = ord(char)
        if code < 0x590:
            continue
        if unicodedata.bidirectional(char) in _RTL_TYPES or _is_arabic(code):
            return True
        if code not in latin and code in fonts.chain_coverage(style):
            return True
    return False


@lru_cache(maxsize=4096)
def _analyse(paragraph: str, style: str, base: int) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """Embedding levels and the font of every character of a shaped paragraph."""
    levels = unibidi.embedding_levels(paragraph, base)
    latin, arabic = fonts.chain(style)
    covered = {name: fonts.font_coverage(name) for name in (latin, arabic)}
    classes = [_script_class(c) for c in paragraph]
    chosen: list[str | None] = []
    for char, cls in zip(paragraph, classes):
        if cls == "common":
            chosen.append(None)
            continue
        first, second = (arabic, latin) if cls == "arab" else (latin, arabic)
        chosen.append(first if ord(char) in covered[first] or ord(char) not in covered[second] else second)
    default = arabic if base else latin
    n = len(paragraph)
    result: list[str] = []
    for i, char in enumerate(paragraph):
        font = chosen[i]
        if font is None:
            # a neutral goes with the nearest strong character of its own level: before, else after
            j = i - 1
            while j >= 0 and levels[j] == levels[i] and chosen[j] is None:
                j -= 1
            if j >= 0 and levels[j] == levels[i] and chosen[j] is not None:
                font = result[j] if j < len(result) else chosen[j]
            else:
                k = i + 1
                while k < n and levels[k] == levels[i] and chosen[k] is None:
                    k += 1
                font = chosen[k] if k < n and levels[k] == levels[i] else default
            font = font or default
            if ord(char) not in covered[font] and not char.isspace():
                other = arabic if font == latin else latin
                if ord(char) in covered[other]:
                    font = other
        result.append(font)
    return levels, tuple(result)


def _runs(paragraph: str, style: str, base: int, start: int, end: int) -> list[tuple[int, int, int, str]]:
    """Logical runs (start, end, level, font) of paragraph[start:end]."""
    levels, font_of = _analyse(paragraph, style, base)
    runs = []
    i = start
    while i < end:
        j = i + 1
        while j < end and levels[j] == levels[i] and font_of[j] == font_of[i]:
            j += 1
        runs.append((i, j, levels[i], font_of[i]))
        i = j
    return runs


@lru_cache(maxsize=65536)
def _span_units(paragraph: str, style: str, base: int, start: int, end: int) -> float:
    """Shaped width of paragraph[start:end] in 1/1000 of the font size."""
    return sum(shaping.shape(paragraph[a:b], font, level % 2 == 1).advance
               for a, b, level, font in _runs(paragraph, style, base, start, end))


def _shaped_line(paragraph: str, style: str, base: int, start: int, end: int, size_pt: float) -> ShapedLine:
    runs = _runs(paragraph, style, base, start, end)
    order = unibidi.reorder([level for _, _, level, _ in runs])
    placed = []
    x = 0.0
    scale = size_pt / 1000.0 * PT_TO_MM
    for index in order:
        a, b, level, font = runs[index]
        shaped = shaping.shape(paragraph[a:b], font, level % 2 == 1)
        width = shaped.advance * scale
        placed.append(PlacedRun(paragraph[a:b], font, level % 2 == 1, x, width))
        x += width
    return ShapedLine(base == 1, tuple(placed))


# --------------------------------------------------------------------------------------------
# Wrapping

@dataclass(frozen=True)
class _Line:
    text: str
    width_mm: float
    shaped: ShapedLine | None


def _wrap_simple(paragraph: str, style: str, size_pt: float, box_w: float) -> tuple[list[_Line], bool]:
    lines: list[_Line] = []
    fits = True
    words = paragraph.split()
    if not words:
        return [_Line("", 0.0, None)], True
    line = words[0]
    fits = fits and width_mm(line, style, size_pt) <= box_w
    for word in words[1:]:
        candidate = f"{line} {word}"
        if width_mm(candidate, style, size_pt) <= box_w:
            line = candidate
        else:
            lines.append(_Line(line, width_mm(line, style, size_pt), None))
            line = word
            fits = fits and width_mm(word, style, size_pt) <= box_w
    lines.append(_Line(line, width_mm(line, style, size_pt), None))
    return lines, fits


def _wrap_shaped(paragraph: str, style: str, base: int, size_pt: float, box_w: float) -> tuple[list[_Line], bool]:
    text = " ".join(paragraph.split())
    words = [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]
    if not words:
        return [_Line("", 0.0, None)], True
    scale = size_pt / 1000.0 * PT_TO_MM

    def width(a: int, b: int) -> float:
        return _span_units(text, style, base, a, b) * scale

    spans = []
    fits = True
    start, end = words[0]
    fits = width(start, end) <= box_w
    for a, b in words[1:]:
        if width(start, b) <= box_w:
            end = b
        else:
            spans.append((start, end))
            start, end = a, b
            fits = fits and width(a, b) <= box_w
    spans.append((start, end))
    lines = [_Line(text[a:b], width(a, b), _shaped_line(text, style, base, a, b, size_pt)) for a, b in spans]
    return lines, fits


def _wrap(text: str, style: str, size_pt: float, box_w: float, direction: str = "auto") -> tuple[list[_Line], bool]:
    """Greedy wrap; the flag is False when a single word is wider than the box."""
    lines: list[_Line] = []
    fits = True
    for paragraph in text.split("\n"):
        base = unibidi.base_level(paragraph, direction)
        if base == 0 and not _needs_shaping(paragraph, style):
            more, ok = _wrap_simple(paragraph, style, size_pt, box_w)
        else:
            more, ok = _wrap_shaped(paragraph, style, base, size_pt, box_w)
        lines.extend(more)
        fits = fits and ok
    return lines, fits


@lru_cache(maxsize=None)
def _arabic_descent(style: str) -> float:
    """How far below the baseline Arabic letters reach, as a fraction of the size (negative)."""
    return fonts.ink_descent(fonts.chain(style)[1])


@lru_cache(maxsize=8192)
def layout(text: str, style: str, box_w: float, box_h: float, size_pt: float, min_size_pt: float,
           line_height: float = 1.2, max_lines: int | None = None, direction: str = "auto") -> TextLayout:
    """Lay `text` out in a box: wrap, and shrink in 0.25 pt steps down to `min_size_pt` until it fits.

    `direction`: "auto" (each paragraph's first strong character decides), "ltr" or "rtl"."""
    if direction not in DIRECTIONS:
        raise ValueError(f"unknown direction {direction!r} (use {', '.join(DIRECTIONS)})")
    ascent, descent = fonts.vertical_metrics(style)
    size = size_pt
    while True:
        lines, fits = _wrap(text, style, size, box_w, direction)
        line_descent = descent
        if any(line.shaped and any(run.font != fonts.register(style) for run in line.shaped.runs) for line in lines):
            line_descent = min(descent, _arabic_descent(style))
        size_mm = size * PT_TO_MM
        height = size_mm * (ascent - line_descent) + (len(lines) - 1) * size_mm * line_height
        fits = fits and height <= box_h + 1e-6 and (max_lines is None or len(lines) <= max_lines)
        if fits or size - SHRINK_STEP_PT < min_size_pt - 1e-9:
            shaped = tuple(line.shaped for line in lines)
            return TextLayout(tuple(line.text for line in lines), size, size_mm * line_height, size_mm * ascent,
                              -size_mm * line_descent, tuple(line.width_mm for line in lines), not fits,
                              size < size_pt, shaped if any(shaped) else ())
        size -= SHRINK_STEP_PT


def missing_characters(text: str, style: str) -> list[str]:
    """Characters no font of the style's fallback chain can draw (they would print as empty
    boxes). Spaces and invisible format characters (ZWJ, ZWNJ, bidi marks) are never missing."""
    covered = fonts.chain_coverage(style)
    return sorted({ch for ch in text
                   if not ch.isspace() and ord(ch) not in covered and unicodedata.category(ch) != "Cf"})
