"""/ActualText for printed lines: what copy/paste, search and pdftotext read back.

A shaped line is drawn as HarfBuzz glyphs, run by run, in visual order, and many of its glyphs
(Arabic contextual forms, ligatures) have no character of their own. So every shaped line is one
marked-content span whose /ActualText holds the line's characters:

    /Span <</ActualText <FEFF...>>> BDC  ...the line's runs (BT..ET each)...  EMC

`pnp.render.textbox` wraps the runs of each shaped line in `<g aria-label="the line">` (the SVG way
to give a group its text); `pnp.render.svgcanvas` draws such a group inside one span, and sheet
text (`pnp.sheets.info.draw_text`) does the same. The per-run spans a lone shaped `<text>` gets are
the one-run case of the same thing.

The order of the characters is chosen for the readers people use. poppler (pdftotext, Evince,
Okular and their copy/paste) and pdfium spread an /ActualText string over the span's width left to
right and then, like the glyphs it replaces, treat it as *visual* order: poppler turns a line back
into logical order with a simple rule (TextOutputDev's reorderText): on a page where right-to-left
letters outnumber left-to-right ones, the line is read from the right, a run of characters that are
neither left-to-right letters nor "numeric" (digits, and + - . , / : % and the like) is reversed,
and a run from a left-to-right letter or digit up to the next right-to-left letter is kept as it
is. Given the line's logical text, `extraction_order` returns the string that this rule turns back
into exactly that text. Where the rule could not give the logical text back (a space or a colon
between a number and the next Arabic word: the rule keeps neutrals on the number's side), an
invisible RIGHT-TO-LEFT MARK (or LEFT-TO-RIGHT MARK in a left-to-right line) is put after the number,
so the text read back is the source text plus invisible marks; pdftotext adds its own embedding
controls (U+202A-U+202C) besides. A page where left-to-right letters are the majority is read by
poppler with the mirror rule, which `extraction_order(text, rtl=False)` answers; a right-to-left
line on such a page reads back with its directional runs in visual order (poppler decides the
direction per page, after the page is drawn).
"""
from __future__ import annotations

import unicodedata
from functools import lru_cache

RLM, LRM = "\u200f", "\u200e"
ICON = "\ufffc"              # an inline icon (pnp.text.markup.ICON_CHAR): no text of its own
# poppler's character classes (UnicodeTypeTable): L and R are strong letters; "numeric" is what its
# reorderText keeps with digits: European and Arabic digits and their separators and terminators.
_NUMERIC = frozenset({"EN", "AN", "ES", "ET", "CS"})


@lru_cache(maxsize=4096)
def _kind(char: str) -> str:
    bidi = unicodedata.bidirectional(char)
    if bidi in ("R", "AL"):
        return "R"
    if bidi == "L":
        return "L"
    return "N" if bidi in _NUMERIC else "X"


def line_text(text: str) -> str:
    """The characters a line's /ActualText stands for: its text without inline icons."""
    return text.replace(ICON, "")


@lru_cache(maxsize=8192)
def extraction_order(text: str, rtl: bool | None = None) -> str:
    """The /ActualText string of a line whose logical text is `text` (see the module's docstring);
    `rtl`: the direction poppler reads the page in. None: poppler's own rule applied to the line
    (right-to-left when its right-to-left letters outnumber its left-to-right ones), the best guess
    of the page's majority from where the line is drawn. Text without right-to-left letters comes
    back unchanged."""
    kinds = [_kind(c) for c in text]
    if "R" not in kinds:
        return text
    if rtl is None:
        rtl = kinds.count("R") > kinds.count("L")
    return _order(text, rtl)


def _order(text: str, rtl: bool) -> str:
    """The inverse of poppler's rule, by sections. Read from the right (rtl): [no L/N] reversed,
    [L/N ... the last L/N before an R] as is, and so on; read from the left: [no R] as is,
    [R ... the last R before an L/N] reversed, and so on. A mark of the other class goes after a
    section that its next character would otherwise extend."""
    strong, other, mark = ("LN", "R", RLM) if rtl else ("R", "LN", LRM)
    sections: list[str] = []
    chars = list(text)
    i = 0
    while i < len(chars):
        j = i
        while j < len(chars) and _kind(chars[j]) not in strong:
            j += 1
        if j > i:
            sections.append("".join(reversed(chars[i:j]) if rtl else chars[i:j]))
        if j == len(chars):
            break
        k = last = j
        while k < len(chars) and _kind(chars[k]) not in other:
            if _kind(chars[k]) in strong:
                last = k
            k += 1
        sections.append("".join(chars[j:last + 1] if rtl else reversed(chars[j:last + 1])))
        i = last + 1
        if i < len(chars) and _kind(chars[i]) not in other:
            chars.insert(i, mark)
    return "".join(reversed(sections) if rtl else sections)


def poppler_reading(visual: str, rtl: bool) -> str:
    """What poppler's reorderText makes of characters laid out left to right (without the embedding
    controls it adds): the inverse of `extraction_order`, for the tests and for checking."""
    out: list[str] = []
    if not rtl:
        i = 0
        while i < len(visual):
            j = i
            while j < len(visual) and _kind(visual[j]) != "R":
                j += 1
            out.extend(visual[i:j])
            i = j
            while j < len(visual) and _kind(visual[j]) not in "LN":
                j += 1
            out.extend(reversed(visual[i:j]))
            i = j
        return "".join(out)
    i = len(visual) - 1
    while i >= 0:
        j = i
        while j >= 0 and _kind(visual[j]) not in "LN":
            j -= 1
        out.extend(visual[k] for k in range(i, j, -1))
        i = j
        while j >= 0 and _kind(visual[j]) != "R":
            j -= 1
        out.extend(visual[j + 1:i + 1])
        i = j
    return "".join(out)


def pdf_string(text: str) -> str:
    """`text` as a PDF text string: UTF-16BE with its byte order mark, in hex."""
    return "<FEFF%s>" % text.encode("utf-16-be").hex().upper()


def begin(text: str, rtl: bool | None = None) -> str:
    """The operator opening the span of a line whose logical text is `text` (close it with END)."""
    return "/Span <</ActualText %s>> BDC" % pdf_string(extraction_order(line_text(text), rtl))


END = "EMC"


def right_to_left(text: str) -> bool:
    """The text holds right-to-left letters or Arabic digits."""
    return any(unicodedata.bidirectional(c) in ("R", "AL", "AN") for c in text)


def group_line(parts: list[str], start: int, text: str) -> None:
    """Wrap the SVG elements `parts[start:]` (one shaped line's runs) in `<g aria-label="text">`,
    which pnp.render.svgcanvas draws as one /ActualText span, when the line holds right-to-left
    text (a left-to-right line keeps its runs' own spans: Latin and Cyrillic faces do not change)."""
    from markupsafe import escape

    if not right_to_left(text):
        return
    parts.insert(start, f'<g aria-label="{escape(line_text(text))}">')
    parts.append("</g>")
