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
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from markupsafe import Markup, escape

from pnp.text import fonts
from pnp.text.fitreport import FitIssue, FitReport
from pnp.text.layout import DIRECTIONS, TextLayout, layout, missing_characters
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
                  align: str = "middle", valign: str = "middle", fill: str = "#000000", opacity=1) -> str:
    """The SVG <text> elements of a layout placed in the box (x, y, w, h), in millimetres."""
    anchor = ANCHORS.get(align)
    if anchor is None:
        raise ValueError(f"unknown align {align!r}")
    top = {"top": y, "middle": y + (h - result.height_mm) / 2, "bottom": y + h - result.height_mm}[valign]
    x_anchor = {"start": x, "middle": x + w / 2, "end": x + w}[anchor]
    family = fonts.STYLES[font].name
    size_mm = pt_to_mm(result.size_pt)
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
        width = result.widths_mm[index]
        side = _SIDE[shaped.rtl][align]
        left = {"left": x, "middle": x + (w - width) / 2, "right": x + w - width}[side]
        for run in shaped.runs:
            if run.blank:
                continue
            run_x = left + run.x_mm + (run.width_mm if run.rtl else 0.0)
            parts.append(
                f'<text x="{run_x:.3f}" y="{baseline:.3f}" font-family="{run.font}" font-size="{size_mm:.3f}" '
                f'text-anchor="start" direction="{"rtl" if run.rtl else "ltr"}" unicode-bidi="bidi-override" '
                f'xml:space="preserve" {paint}>{escape(run.text)}</text>')
    return "".join(parts)


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


def make_textbox(report: FitReport):
    """The `textbox` helper of one face: what does not fit or cannot be drawn goes to `report`."""
    def textbox(text, x, y, w, h, font="regular", size=9, min_size=6, align="middle", valign="middle",
                fill="#000000", line_height=1.2, max_lines=None, opacity=1, direction="auto"):
        text = "" if text is None else str(text)
        if font not in fonts.STYLES:
            raise ValueError(f"unknown font style {font!r} (known: {', '.join(fonts.STYLES)})")
        if align not in ANCHORS:
            raise ValueError(f"unknown align {align!r}")
        if direction not in DIRECTIONS:
            raise ValueError(f"unknown direction {direction!r} (use {', '.join(DIRECTIONS)})")
        text = printable(report, text, (float(w), float(h)), float(min_size), font)
        result = layout(text, font, float(w), float(h), float(size), float(min_size), float(line_height), max_lines,
                        direction)
        report.measure(text, (float(w), float(h)), float(min_size), font, result.overflow,
                       missing_characters(text, font))
        return Markup(text_elements(result, x, y, w, h, font, align, valign, fill, opacity))

    return textbox
