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

Text that the plain wrap would shrink by more than HYPHENATE_AFTER (10 %) is laid out again with
hyphenation in the build language (`pnp.text.hyphenate`: German, English, Italian, Ukrainian):
from the asked size down, each size is tried plain, then hyphenated, before the next step down.
Text that fits, or shrinks a little, without hyphens never gets any; shaped paragraphs (Arabic,
right-to-left) and rich text are never hyphenated.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from reportlab.pdfbase.pdfmetrics import stringWidth

from pnp.text import fonts, hyphenate, shaping, unibidi
from pnp.units import PT_PER_MM

PT_TO_MM = 1 / PT_PER_MM
SHRINK_STEP_PT = 0.25
# Hyphenation is tried only for text the plain wrap shrinks by more than this share of its size: a
# title 0.25 pt smaller reads better on one line than broken in two ("Muskelprotz-Zombie", zombie-run
# de, 11.75 pt on one line rather than 12 pt on two: rasterized and compared, issue 16).
HYPHENATE_AFTER = 0.10
DIRECTIONS = ("auto", "ltr", "rtl")


@dataclass(frozen=True)
class PlacedRun:
    """One visual run of a shaped line: text in logical order, one font, one direction."""

    text: str
    font: str                  # ReportLab font name
    rtl: bool
    x_mm: float                # left edge, from the line's left edge
    width_mm: float
    icon: str = ""             # an inline icon (rich text): its name; text is markup.ICON_CHAR

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
    result: list[str] = []
    for i, char in enumerate(paragraph):
        font = chosen[i]
        if font is None:
            font = _neutral_font(i, chosen, result, _same_level(levels, i), default)
            font = _covering(font, char, latin, arabic, covered)
        result.append(font)
    return levels, tuple(result)


def _neutral_font(i: int, chosen: list[str | None], result: list[str], same: Callable[[int], bool],
                  default: str) -> str:
    """The font of the neutral character i: that of the nearest strong character of its own group
    (`same`: its level, and in rich text its style), before it, else after it, else `default`."""
    j = i - 1
    while j >= 0 and same(j) and chosen[j] is None:
        j -= 1
    if j >= 0 and same(j) and chosen[j]:         # an icon ("", ICON_FONT) is not a strong neighbour
        return result[j]
    k = i + 1
    while k < len(chosen) and same(k) and chosen[k] is None:
        k += 1
    found = chosen[k] if k < len(chosen) and same(k) else None
    return found or default


def _same_level(levels: tuple[int, ...], i: int) -> Callable[[int], bool]:
    return lambda j: levels[j] == levels[i]


def _same_group(levels: tuple[int, ...], styles: tuple[str, ...], key: tuple[int, str]) -> Callable[[int], bool]:
    return lambda j: (levels[j], styles[j]) == key


def _covering(font: str, char: str, latin: str, arabic: str, covered: dict[str, frozenset[int]]) -> str:
    """`font`, or the other font of its chain when only that one draws `char`."""
    if ord(char) not in covered[font] and not char.isspace():
        other = arabic if font == latin else latin
        if ord(char) in covered[other]:
            return other
    return font


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


def _wrap_simple(paragraph: str, style: str, size_pt: float, box_w: float,
                 hyphens: str = "") -> tuple[list[_Line], bool]:
    """Greedy wrap at spaces; with `hyphens` (a language, pnp.text.hyphenate) a word that does not
    fit at a line's end is broken at its last pattern point that fits, and so is a word wider than
    the box. Without it, the wrap of the first version (Latin cards stay byte-for-byte the same)."""
    words = paragraph.split()
    if not words:
        return [_Line("", 0.0, None)], True

    def width(text: str) -> float:
        return width_mm(text, style, size_pt)

    def split(prefix: str, word: str) -> tuple[str, str] | None:
        return next(((head, tail) for head, tail in hyphenate.breaks(word, hyphens)
                     if width(prefix + head) <= box_w), None) if hyphens else None

    lines: list[_Line] = []
    fits = True
    line = ""
    pending = words[::-1]                     # a stack: the next word on top
    while pending:
        word = pending.pop()
        if not line:                          # a line's first word
            if width(word) > box_w and (broken := split("", word)) is not None:
                lines.append(_Line(broken[0], width(broken[0]), None))
                pending.append(broken[1])
                continue
            line = word
            fits = fits and width(word) <= box_w
            continue
        candidate = f"{line} {word}"
        if width(candidate) <= box_w:
            line = candidate
            continue
        broken = split(f"{line} ", word)
        if broken is not None:
            head = f"{line} {broken[0]}"
            lines.append(_Line(head, width(head), None))
            line = ""
            pending.append(broken[1])
            continue
        lines.append(_Line(line, width(line), None))
        line = ""
        pending.append(word)
    lines.append(_Line(line, width(line), None))
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


def _wrap(text: str, style: str, size_pt: float, box_w: float, direction: str = "auto",
          hyphens: str = "") -> tuple[list[_Line], bool]:
    """Greedy wrap; the flag is False when a single word is wider than the box. `hyphens`: the
    language to hyphenate simple paragraphs in ("" none); shaped ones (Arabic...) never are."""
    lines: list[_Line] = []
    fits = True
    for paragraph in text.split("\n"):
        base = unibidi.base_level(paragraph, direction)
        if base == 0 and not _needs_shaping(paragraph, style):
            more, ok = _wrap_simple(paragraph, style, size_pt, box_w, hyphens)
        else:
            more, ok = _wrap_shaped(paragraph, style, base, size_pt, box_w)
        lines.extend(more)
        fits = fits and ok
    return lines, fits


@lru_cache(maxsize=None)
def _arabic_descent(style: str) -> float:
    """How far below the baseline Arabic letters reach, as a fraction of the size (negative)."""
    return fonts.ink_descent(fonts.chain(style)[1])


def layout(text: str, style: str, box_w: float, box_h: float, size_pt: float, min_size_pt: float,
           line_height: float = 1.2, max_lines: int | None = None, direction: str = "auto") -> TextLayout:
    """Lay `text` out in a box: wrap, and shrink in 0.25 pt steps down to `min_size_pt` until it
    fits; at each size, a hyphenated wrap is tried before the next step down, in the language of
    `pnp.text.hyphenate.using` (none outside it).

    `direction`: "auto" (each paragraph's first strong character decides), "ltr" or "rtl"."""
    return _layout(text, style, box_w, box_h, size_pt, min_size_pt, line_height, max_lines, direction,
                   hyphenate.current())


@lru_cache(maxsize=8192)
def _layout(text: str, style: str, box_w: float, box_h: float, size_pt: float, min_size_pt: float,
            line_height: float, max_lines: int | None, direction: str, hyphens: str) -> TextLayout:
    if direction not in DIRECTIONS:
        raise ValueError(f"unknown direction {direction!r} (use {', '.join(DIRECTIONS)})")
    ascent, descent = fonts.vertical_metrics(style)

    def attempt(size: float, language: str) -> tuple[list[_Line], bool, float]:
        lines, fits = _wrap(text, style, size, box_w, direction, language)
        line_descent = descent
        if any(line.shaped and any(run.font != fonts.register(style) for run in line.shaped.runs) for line in lines):
            line_descent = min(descent, _arabic_descent(style))
        size_mm = size * PT_TO_MM
        height = size_mm * (ascent - line_descent) + (len(lines) - 1) * size_mm * line_height
        fits = fits and height <= box_h + 1e-6 and (max_lines is None or len(lines) <= max_lines)
        return lines, fits, line_descent

    def shrink(language: str) -> TextLayout:
        size = size_pt
        while True:
            lines, fits, line_descent = attempt(size, "")
            if not fits and language:
                hyphenated = attempt(size, language)
                if hyphenated[1]:
                    lines, fits, line_descent = hyphenated
            if fits or size - SHRINK_STEP_PT < min_size_pt - 1e-9:
                size_mm = size * PT_TO_MM
                shaped = tuple(line.shaped for line in lines)
                return TextLayout(tuple(line.text for line in lines), size, size_mm * line_height, size_mm * ascent,
                                  -size_mm * line_descent, tuple(line.width_mm for line in lines), not fits,
                                  size < size_pt, shaped if any(shaped) else ())
            size -= SHRINK_STEP_PT

    plain = shrink("")
    if not hyphens or (not plain.overflow and plain.size_pt >= size_pt * (1 - HYPHENATE_AFTER) - 1e-9):
        return plain
    return shrink(hyphens)


def missing_characters(text: str, style: str) -> list[str]:
    """Characters no font of the style's fallback chain can draw (they would print as empty
    boxes). Spaces and invisible format characters (ZWJ, ZWNJ, bidi marks) are never missing.
    The main font is asked first: the Arabic font is cut only for text the main font lacks."""
    main = fonts.coverage(style)
    rest = {ch for ch in text if not ch.isspace() and ord(ch) not in main and unicodedata.category(ch) != "Cf"}
    if not rest:
        return []
    covered = fonts.chain_coverage(style)
    return sorted(ch for ch in rest if ord(ch) not in covered)


# --------------------------------------------------------------------------------------------
# Rich text (pnp.text.markup): runs of several styles on a line, and inline icons

ICON_FONT = ""            # the "font" of an icon's run
OBJECT = "\ufffc"         # markup.ICON_CHAR: one per icon, a bidi neutral


@dataclass(frozen=True)
class _RichParagraph:
    text: str
    styles: tuple[str, ...]                  # the style key of every character
    icons: tuple[tuple[str, float], ...]     # (name, width in em) of each OBJECT, in order


def _paragraphs(text: str, styles: tuple[str, ...], icons: tuple[tuple[str, float], ...]) -> list[_RichParagraph]:
    """Split on newlines; inside a paragraph, runs of spaces become one space (a space keeps the
    style of the first), and the ends are trimmed, as the plain layout does."""
    out: list[_RichParagraph] = []
    next_icon = 0
    chars: list[str] = []
    kept: list[str] = []
    own: list[tuple[str, float]] = []

    def flush() -> None:
        while chars and chars[-1] == " ":
            chars.pop()
            kept.pop()
        out.append(_RichParagraph("".join(chars), tuple(kept), tuple(own)))

    for char, style in zip(text, styles):
        if char == "\n":
            flush()
            chars, kept, own = [], [], []
            continue
        if char.isspace():
            if not chars or chars[-1] == " ":
                continue
            char = " "
        if char == OBJECT:
            own.append(icons[next_icon])
            next_icon += 1
        chars.append(char)
        kept.append(style)
    flush()
    return out


@lru_cache(maxsize=4096)
def _rich_analyse(paragraph: _RichParagraph, base: int) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """Embedding levels and the font of every character: as `_analyse`, each character with the
    chain of its own style; a neutral goes with its nearest strong neighbour of the same level
    and style; an icon is ICON_FONT."""
    text, styles = paragraph.text, paragraph.styles
    levels = unibidi.embedding_levels(text, base)
    chains = {style: fonts.chain(style) if _needs_chain(text, styles, style) else (fonts.register(style),) * 2
              for style in set(styles)}
    covered = {name: fonts.font_coverage(name) for chain in chains.values() for name in chain}
    chosen: list[str | None] = []
    for char, style in zip(text, styles):
        cls = _script_class(char)
        if char == OBJECT or cls == "common":
            chosen.append(ICON_FONT if char == OBJECT else None)
            continue
        latin, arabic = chains[style]
        first, second = (arabic, latin) if cls == "arab" else (latin, arabic)
        chosen.append(first if ord(char) in covered[first] or ord(char) not in covered[second] else second)
    result: list[str] = []
    for i, char in enumerate(text):
        font = chosen[i]
        if font is None:
            latin, arabic = chains[styles[i]]
            default = arabic if base else latin
            key = (levels[i], styles[i])
            font = _neutral_font(i, chosen, result, _same_group(levels, styles, key), default)
            font = _covering(font, char, latin, arabic, covered)
        result.append(font)
    return levels, tuple(result)


def _needs_chain(text: str, styles: tuple[str, ...], style: str) -> bool:
    """Whether some character of `style` is one its main font lacks (then the Arabic font is cut)."""
    main = fonts.coverage(style)
    return any(ord(c) not in main and c != OBJECT and not c.isspace() for c, s in zip(text, styles) if s == style) \
        or any(unicodedata.bidirectional(c) in _RTL_TYPES for c in text)


def _rich_runs(paragraph: _RichParagraph, base: int, start: int, end: int) -> list[tuple[int, int, int, str]]:
    """Logical runs (start, end, level, font) of the paragraph's [start:end]; one run per icon."""
    levels, font_of = _rich_analyse(paragraph, base)
    runs = []
    i = start
    while i < end:
        j = i + 1
        if font_of[i] != ICON_FONT:
            while j < end and levels[j] == levels[i] and font_of[j] == font_of[i]:
                j += 1
        runs.append((i, j, levels[i], font_of[i]))
        i = j
    return runs


def _icon_at(paragraph: _RichParagraph, index: int) -> tuple[str, float]:
    return paragraph.icons[paragraph.text.count(OBJECT, 0, index)]


def _run_units(paragraph: _RichParagraph, a: int, b: int, level: int, font: str) -> float:
    if font == ICON_FONT:
        return _icon_at(paragraph, a)[1] * 1000.0
    return shaping.shape(paragraph.text[a:b], font, level % 2 == 1).advance


@lru_cache(maxsize=65536)
def _rich_units(paragraph: _RichParagraph, base: int, start: int, end: int) -> float:
    return sum(_run_units(paragraph, a, b, level, font) for a, b, level, font in _rich_runs(paragraph, base, start, end))


def _rich_line(paragraph: _RichParagraph, base: int, start: int, end: int, size_pt: float) -> ShapedLine:
    runs = _rich_runs(paragraph, base, start, end)
    order = unibidi.reorder([level for _, _, level, _ in runs])
    scale = size_pt / 1000.0 * PT_TO_MM
    placed = []
    x = 0.0
    for index in order:
        a, b, level, font = runs[index]
        width = _run_units(paragraph, a, b, level, font) * scale
        icon = _icon_at(paragraph, a)[0] if font == ICON_FONT else ""
        placed.append(PlacedRun(paragraph.text[a:b], font, level % 2 == 1, x, width, icon))
        x += width
    return ShapedLine(base == 1, tuple(placed))


def _wrap_rich(paragraphs: list[_RichParagraph], size_pt: float, box_w: float,
               direction: str) -> tuple[list[_Line], bool]:
    lines: list[_Line] = []
    fits = True
    scale = size_pt / 1000.0 * PT_TO_MM
    for paragraph in paragraphs:
        base = unibidi.base_level(paragraph.text, direction)
        words = [(m.start(), m.end()) for m in re.finditer(r"\S+", paragraph.text)]
        if not words:
            lines.append(_Line("", 0.0, None))
            continue
        spans = []
        start, end = words[0]
        fits = fits and _rich_units(paragraph, base, start, end) * scale <= box_w
        for a, b in words[1:]:
            if _rich_units(paragraph, base, start, b) * scale <= box_w:
                end = b
            else:
                spans.append((start, end))
                start, end = a, b
                fits = fits and _rich_units(paragraph, base, a, b) * scale <= box_w
        spans.append((start, end))
        lines.extend(_Line(paragraph.text[a:b], _rich_units(paragraph, base, a, b) * scale,
                           _rich_line(paragraph, base, a, b, size_pt)) for a, b in spans)
    return lines, fits


@lru_cache(maxsize=8192)
def rich_layout(text: str, styles: tuple[str, ...], icons: tuple[tuple[str, float], ...], base_style: str,
                box_w: float, box_h: float, size_pt: float, min_size_pt: float, line_height: float = 1.2,
                max_lines: int | None = None, direction: str = "auto") -> TextLayout:
    """`layout` for rich text: `styles` gives every character of `text` its style key, each
    OBJECT character is an icon of `icons` (name, width in em), in order. Every line is a
    ShapedLine of runs (each run one font, or one icon); all runs shrink together."""
    if direction not in DIRECTIONS:
        raise ValueError(f"unknown direction {direction!r} (use {', '.join(DIRECTIONS)})")
    paragraphs = _paragraphs(text, styles, icons)
    ascent, descent = fonts.vertical_metrics(base_style)
    mains = {fonts.register(style) for style in set(styles)}
    size = size_pt
    while True:
        lines, fits = _wrap_rich(paragraphs, size, box_w, direction)
        line_descent = descent
        arabic = [run.font for line in lines if line.shaped for run in line.shaped.runs
                  if run.font not in mains and run.font != ICON_FONT]
        if arabic:
            line_descent = min(descent, *(fonts.ink_descent(name) for name in set(arabic)))
        size_mm = size * PT_TO_MM
        height = size_mm * (ascent - line_descent) + (len(lines) - 1) * size_mm * line_height
        fits = fits and height <= box_h + 1e-6 and (max_lines is None or len(lines) <= max_lines)
        if fits or size - SHRINK_STEP_PT < min_size_pt - 1e-9:
            return TextLayout(tuple(line.text for line in lines), size, size_mm * line_height, size_mm * ascent,
                              -size_mm * line_descent, tuple(line.width_mm for line in lines), not fits,
                              size < size_pt, tuple(line.shaped for line in lines))
        size -= SHRINK_STEP_PT
