"""`textbox()`: the template helper that lays text out and returns positioned SVG <text> lines."""
from __future__ import annotations

from dataclasses import dataclass, field

from markupsafe import Markup, escape

from pnp.text import fonts
from pnp.text.layout import layout, missing_characters

ANCHORS = {"start": "start", "left": "start", "middle": "middle", "center": "middle", "end": "end", "right": "end"}


@dataclass
class FitReport:
    """Text that did not fit or cannot be drawn, collected while a face renders."""

    overflows: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)


def make_textbox(report: FitReport):
    def textbox(text, x, y, w, h, font="regular", size=9, min_size=6, align="middle", valign="middle",
                fill="#000000", line_height=1.2, max_lines=None, opacity=1):
        text = "" if text is None else str(text)
        if font not in fonts.STYLES:
            raise ValueError(f"unknown font style {font!r} (known: {', '.join(fonts.STYLES)})")
        anchor = ANCHORS.get(align)
        if anchor is None:
            raise ValueError(f"unknown align {align!r}")
        result = layout(text, font, float(w), float(h), float(size), float(min_size), float(line_height), max_lines)
        if result.overflow:
            report.overflows.append(f"{text!r} does not fit a {w:g}x{h:g} mm box even at {min_size:g} pt")
        missing = missing_characters(text, font)
        if missing:
            report.missing.append(f"{text!r}: no glyph for {', '.join(repr(c) for c in missing)} in {font}")
        top = {"top": y, "middle": y + (h - result.height_mm) / 2, "bottom": y + h - result.height_mm}[valign]
        x_anchor = {"start": x, "middle": x + w / 2, "end": x + w}[anchor]
        family = fonts.STYLES[font].name
        size_mm = result.size_pt * 25.4 / 72
        parts = []
        for index, line in enumerate(result.lines):
            if not line:
                continue
            baseline = top + result.ascent_mm + index * result.line_height_mm
            parts.append(
                f'<text x="{x_anchor:.3f}" y="{baseline:.3f}" font-family="{family}" font-size="{size_mm:.3f}" '
                f'text-anchor="{anchor}" fill="{escape(fill)}"'
                + (f' fill-opacity="{float(opacity):g}"' if float(opacity) != 1 else "")
                + f">{escape(line)}</text>")
        return Markup("".join(parts))

    return textbox
