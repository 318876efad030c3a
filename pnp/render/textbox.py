"""`textbox()`: the template helper that lays text out and returns positioned SVG <text> lines.

Left-to-right text that Noto Sans draws alone comes out as one `<text>` per line, exactly as it
always did. A line that needed shaping (Arabic, right-to-left, mixed scripts; see
`pnp.text.layout`) comes out as one `<text>` per visual run:

    <text x=".." y=".." font-family="PnpArabic-Regular" font-size=".." text-anchor="start"
          direction="rtl" unicode-bidi="bidi-override" xml:space="preserve" fill="..">زومبي</text>

Its content is the run in logical order, in one font and one direction; `direction` plus
`unicode-bidi="bidi-override"` say, in standard SVG, that it is drawn in that direction without
further reordering, starting at x (for rtl, x is the run's right edge). pnp.render.svgcanvas
shapes such a run with HarfBuzz and draws the glyphs as real PDF text.

Rich text (pnp.text.markup: `**bold**`, `*italic*`, `:icon:`; docs/text.md) is laid out by
`pnp.text.layout.rich_layout`: every line is runs as above, each in the font of its style, and
an icon is a `<g transform="matrix(...)">` of the icon's shapes in the text's colour, one em
tall, centred on the middle of the capitals (it sits on the baseline like a capital letter and
reaches a little above and below it). Text without markup is laid out and written exactly as
before. The pack's fonts and icons are `pnp.text.packfonts.active()` unless given.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from markupsafe import Markup, escape

from pnp.print_constants import OFF_CARD_TOLERANCE_MM
from pnp.text import actualtext, digits, fonts, markup, packfonts
from pnp.text.fitreport import TEXT_ICON, TEXT_OFF_CARD, FitIssue, FitReport
from pnp.text.icons import Icon, IconError
from pnp.text.layout import DIRECTIONS, TextLayout, layout, missing_characters, rich_layout
from pnp.text.packfonts import TextAssets
from pnp.units import pt_to_mm

TEXT_CONTROL = "text.control-char"     # a character XML cannot hold (BEL...): it cannot be printed
# What XML 1.0 cannot hold, even escaped: the C0 controls but tab, newline and carriage return,
# lone surrogates and the two non-characters U+FFFE and U+FFFF. The SVG would not parse.
XML_ILLEGAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")

ANCHORS = {"start": "start", "left": "start", "middle": "middle", "center": "middle", "end": "end", "right": "end"}
# Where a shaped line goes in its box. start/end are logical (start is the right in a right-to-left
# paragraph); left/right are physical; middle is centred.
_SIDE = {
    False: {"start": "left", "end": "right", "left": "left", "right": "right", "middle": "middle", "center": "middle"},
    True: {"start": "right", "end": "left", "left": "left", "right": "right", "middle": "middle", "center": "middle"},
}


def text_elements(result: TextLayout, x: float, y: float, w: float, h: float, font: str = "regular",
                  align: str = "middle", valign: str = "middle", fill: str = "#000000", opacity=1,
                  icons: dict[str, Icon] | None = None) -> str:
    """The SVG <text> elements of a layout placed in the box (x, y, w, h), in millimetres; `font`
    is a style key (pnp.text.fonts), `icons` the icons a rich layout's icon runs name."""
    anchor = ANCHORS.get(align)
    if anchor is None:
        raise ValueError(f"unknown align {align!r}")
    top = _top(result, y, h, valign)
    x_anchor = {"start": x, "middle": x + w / 2, "end": x + w}[anchor]
    family = fonts.register(font)
    size_mm = pt_to_mm(result.size_pt)
    cap_mm = size_mm * fonts.cap_height(font)
    paint = f'fill="{escape(fill)}"' + (f' fill-opacity="{float(opacity):g}"' if float(opacity) != 1 else "")
    parts = []
    for index, line in enumerate(result.lines):
        if not line:
            continue
        baseline = top + result.ascent_mm + index * result.line_height_mm
        shaped = result.shaped(index)
        if shaped is None:
            parts.append(
                f'<text x="{x_anchor:.3f}" y="{baseline:.3f}" font-family="{family}" font-size="{size_mm:.3f}" '
                f'text-anchor="{anchor}" {paint}>{escape(line)}</text>')
            continue
        left = _left(result.widths_mm[index], x, w, _SIDE[shaped.rtl][align])
        start = len(parts)
        for run in shaped.runs:
            if run.icon and icons:
                icon_top = baseline - cap_mm / 2 - size_mm / 2       # one em tall, centred on the capitals
                parts.append(icons[run.icon].markup(left + run.x_mm, icon_top, size_mm, fill, float(opacity)))
                continue
            if run.blank:
                continue
            run_x = left + run.x_mm + (run.width_mm if run.rtl else 0.0)
            parts.append(
                f'<text x="{run_x:.3f}" y="{baseline:.3f}" font-family="{run.font}" font-size="{size_mm:.3f}" '
                f'text-anchor="start" direction="{"rtl" if run.rtl else "ltr"}" unicode-bidi="bidi-override" '
                f'xml:space="preserve" {paint}>{escape(run.text)}</text>')
        actualtext.group_line(parts, start, line)      # one /ActualText span: the line reads back logically
    return "".join(parts)


def _top(result: TextLayout, y: float, h: float, valign: str) -> float:
    """The top of the laid-out text's first line in the box (y, h)."""
    return {"top": y, "middle": y + (h - result.height_mm) / 2, "bottom": y + h - result.height_mm}[valign]


def _left(width: float, x: float, w: float, side: str) -> float:
    """The left edge of a line `width` wide placed at `side` (left, middle, right) of the box (x, w)."""
    return {"left": x, "middle": x + (w - width) / 2, "right": x + w - width}[side]


def ink_extent(result: TextLayout, x: float, y: float, w: float, h: float, align: str = "middle",
               valign: str = "middle") -> tuple[float, float, float, float] | None:
    """(left, top, right, bottom) in millimetres of the lines as `text_elements` places them in the
    box, their full line height (ascent to descent) included; None when nothing is printed."""
    spans = []
    for index, line in enumerate(result.lines):
        if not line:
            continue
        shaped = result.shaped(index)
        # a plain line is anchored like SVG's text-anchor; a shaped one by its paragraph's direction
        side = _SIDE[bool(shaped and shaped.rtl)][align]
        left = _left(result.widths_mm[index], x, w, side)
        spans.append((left, left + result.widths_mm[index]))
    if not spans:
        return None
    top = _top(result, y, h, valign)
    return min(a for a, _ in spans), top, max(b for _, b in spans), top + result.height_mm


def off_card(extent: tuple[float, float, float, float], card_mm: tuple[float, float]) -> str:
    """What of the printed text `extent` lies past the edges of a card `card_mm` (width, height)
    in millimetres, as a designer reads it; "" when all of it is on the card."""
    left, top, right, bottom = extent
    w, h = card_mm
    tol = OFF_CARD_TOLERANCE_MM
    past = [f"{name} {value:.1f} mm" for name, value, out in (
        ("left edge at x", left, left < -tol), ("right edge at x", right, right > w + tol),
        ("top at y", top, top < -tol), ("bottom at y", bottom, bottom > h + tol)) if out]
    if not past:
        return ""
    return (f"printed text reaches past the {w:g}x{h:g} mm card ({', '.join(past)}) and is cut off: "
            "move its textbox inside the card")


@dataclass(frozen=True)
class ControlCharacters(FitIssue):
    """A text holding characters XML cannot hold (`missing`): it prints without them, and the
    build refuses it (code text.control-char) like a text that does not fit."""

    @property
    def message(self) -> str:
        label = f"{self.what}: " if self.what else ""
        shown = ", ".join(f"U+{ord(c):04X}" for c in self.missing)
        return (f"{label}{self.text!r} holds the control character {shown}, which cannot be printed "
                "(XML allows none but tab and newline): remove it from the text")


def control_characters(text: str) -> list[str]:
    """The distinct characters of `text` XML cannot hold, in order of appearance."""
    return list(dict.fromkeys(XML_ILLEGAL.findall(text)))


def printable(report: FitReport, text: str, box_mm: tuple[float, float], min_size: float, font: str,
              what: str = "") -> str:
    """`text` without the characters XML cannot hold; when it had any, a ControlCharacters issue
    goes to `report` (the face or page is still drawn, so every other problem is found too)."""
    bad = control_characters(text)
    if not bad:
        return text
    report.issues.append(ControlCharacters(TEXT_CONTROL, text, box_mm, min_size, font, tuple(bad), what))
    return XML_ILLEGAL.sub("", text)


def make_textbox(report: FitReport, assets: TextAssets | None = None, card_mm: tuple[float, float] | None = None):
    """The `textbox` helper of one face: what does not fit or cannot be drawn goes to `report`.
    `assets`: the pack's fonts and icons (default: pnp.text.packfonts.active() when called);
    `card_mm`: the face's trim (width, height), to report text drawn past it (text.off-card). A
    textbox inside a `transform` is measured in its own coordinates, as the template wrote them."""
    def textbox(text, x, y, w, h, font="regular", size=9, min_size=6, align="middle", valign="middle",
                fill="#000000", line_height=1.2, max_lines=None, opacity=1, direction="auto"):
        text = "" if text is None else str(text)
        pack = assets if assets is not None else packfonts.active()
        style = pack.style(font)                       # ValueError names the known styles
        if align not in ANCHORS:
            raise ValueError(f"unknown align {align!r}")
        if direction not in DIRECTIONS:
            raise ValueError(f"unknown direction {direction!r} (use {', '.join(DIRECTIONS)})")
        box = (float(w), float(h))
        text = printable(report, text, box, float(min_size), font)
        rich, problems = markup.parse(text, pack.has_icon)
        rich = digits.printed_rich(rich)               # the build language's digits and signs
        for problem in problems:
            report.issues.append(FitIssue(problem.code, text, box, float(min_size), font, reason=problem.reason))
        if rich.plain:
            result = layout(rich.text, style, box[0], box[1], float(size), float(min_size), float(line_height),
                            max_lines, direction)
            missing = missing_characters(rich.text, style)
            icons: dict[str, Icon] = {}
        else:
            result, missing, icons = _rich(report, rich, pack, font, style, box, float(size), float(min_size),
                                           float(line_height), max_lines, direction, text)
        report.measure(text, box, float(min_size), font, result.overflow, missing, size_pt=result.size_pt,
                       nominal_pt=float(size), lines=result.lines)
        elements = text_elements(result, x, y, w, h, style, align, valign, fill, opacity, icons)
        if card_mm is not None:
            extent = ink_extent(result, float(x), float(y), box[0], box[1], align, valign)
            past = off_card(extent, card_mm) if extent is not None else ""
            if past:            # an issue only where no transform moves it: marked, judged by off_card_issues
                elements = _OFF_CARD_MARK.format(len(report.off_card)) + elements
                report.off_card.append(FitIssue(TEXT_OFF_CARD, text, box, float(min_size), font, reason=past))
        return Markup(elements)

    return textbox


# A textbox drawn past the card's edge is led by this comment in the face's SVG until the face
# is judged (its number in FitReport.off_card); a card's text never holds it (text is escaped).
_OFF_CARD_MARK = "<!--pnp-off-card:{}-->"
# The mark, or an SVG tag with its name and attributes (attribute values hold no '>': the
# templates escape them).
_MARK_OR_TAG = re.compile(r"<!--pnp-off-card:(\d+)-->|<(/?)([A-Za-z][\w:.-]*)([^>]*?)(/?)>")
_MARK = re.compile(r"<!--pnp-off-card:\d+-->")
_MOVES = re.compile(r"\stransform\s*=")


def off_card_issues(svg: str, issues: list[FitIssue]) -> tuple[str, list[FitIssue]]:
    """(the face's SVG without the marks, the issues of the marked textboxes that are outside
    every element moving its contents: a `transform` attribute, or a nested <svg>). One pass
    over the SVG, however many textboxes are marked."""
    if not issues:
        return svg, []
    kept = []
    stack: list[bool] = []          # each open element: does it move its contents
    moved = 0
    for found in _MARK_OR_TAG.finditer(svg):
        number, closing, name, attributes, empty = found.groups()
        if number is not None:
            if not moved:
                kept.append(issues[int(number)])
        elif closing:
            if stack and stack.pop():
                moved -= 1
        elif not empty:
            moves = bool(_MOVES.search(attributes)) or (name == "svg" and bool(stack))
            stack.append(moves)
            moved += moves
    return _MARK.sub("", svg), kept


def _rich(report: FitReport, rich: markup.Rich, pack: TextAssets, font: str, style: str, box: tuple[float, float],
          size: float, min_size: float, line_height: float, max_lines, direction: str, text: str):
    """Lay out rich text: each character in the style of its marks, each icon at its width."""
    marks = rich.marks or (0,) * len(rich.text)
    by_bits = {bits: pack.style(markup.variant(font, bits, pack.known)) for bits in set(marks)}
    styles = tuple(by_bits[bits] for bits in marks)
    icons: dict[str, Icon] = {}
    for name in dict.fromkeys(rich.icons):
        try:
            icons[name] = pack.icon(name)
        except (IconError, OSError) as error:
            report.issues.append(FitIssue(TEXT_ICON, text, box, min_size, font, reason=f"icon {name!r}: {error}"))
    if len(icons) < len(set(rich.icons)):          # an icon that cannot be drawn prints nothing
        keep = [i for i, c in enumerate(rich.text) if c != markup.ICON_CHAR
                or rich.icons[rich.text.count(markup.ICON_CHAR, 0, i)] in icons]
        names = tuple(n for n in rich.icons if n in icons)
        rich = markup.Rich("".join(rich.text[i] for i in keep), tuple(marks[i] for i in keep), names)
        styles = tuple(styles[i] for i in keep)
    widths = tuple((name, icons[name].aspect) for name in rich.icons)
    result = rich_layout(rich.text, styles, widths, style, box[0], box[1], size, min_size, line_height,
                         max_lines, direction)
    missing = sorted({ch for s in set(styles)
                      for ch in missing_characters("".join(c for c, t in zip(rich.text, styles)
                                                           if t == s and c != markup.ICON_CHAR), s)})
    return result, missing, icons
