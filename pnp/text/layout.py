"""Line layout with real font metrics: wrap on words, shrink to fit down to a floor size.

Widths come from the same TrueType fonts ReportLab embeds, so what fits here fits on paper.
Sizes are in points (as designers think of type); boxes are in millimetres (as card geometry is).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from reportlab.pdfbase.pdfmetrics import stringWidth

from pnp.text import fonts

PT_TO_MM = 25.4 / 72.0
SHRINK_STEP_PT = 0.25


@dataclass(frozen=True)
class TextLayout:
    lines: tuple[str, ...]
    size_pt: float
    line_height_mm: float
    ascent_mm: float
    descent_mm: float          # positive
    widths_mm: tuple[float, ...]
    overflow: bool             # True: does not fit even at the floor size
    shrunk: bool               # True: smaller than the requested size

    @property
    def height_mm(self) -> float:
        if not self.lines:
            return 0.0
        return self.ascent_mm + self.descent_mm + (len(self.lines) - 1) * self.line_height_mm


@lru_cache(maxsize=65536)
def width_mm(text: str, style: str, size_pt: float) -> float:
    return stringWidth(text, fonts.register(style), size_pt) * PT_TO_MM


def _wrap(text: str, style: str, size_pt: float, box_w: float) -> tuple[list[str], bool]:
    """Greedy wrap; the flag is False when a single word is wider than the box."""
    lines: list[str] = []
    fits = True
    for paragraph in text.split("\n"):
        words = paragraph.split()
        if not words:
            lines.append("")
            continue
        line = words[0]
        fits = fits and width_mm(line, style, size_pt) <= box_w
        for word in words[1:]:
            candidate = f"{line} {word}"
            if width_mm(candidate, style, size_pt) <= box_w:
                line = candidate
            else:
                lines.append(line)
                line = word
                fits = fits and width_mm(word, style, size_pt) <= box_w
        lines.append(line)
    return lines, fits


@lru_cache(maxsize=8192)
def layout(text: str, style: str, box_w: float, box_h: float, size_pt: float, min_size_pt: float,
           line_height: float = 1.2, max_lines: int | None = None) -> TextLayout:
    ascent, descent = fonts.vertical_metrics(style)
    size = size_pt
    while True:
        lines, fits = _wrap(text, style, size, box_w)
        size_mm = size * PT_TO_MM
        height = size_mm * (ascent - descent) + (len(lines) - 1) * size_mm * line_height
        fits = fits and height <= box_h + 1e-6 and (max_lines is None or len(lines) <= max_lines)
        if fits or size - SHRINK_STEP_PT < min_size_pt - 1e-9:
            return TextLayout(tuple(lines), size, size_mm * line_height, size_mm * ascent, -size_mm * descent,
                              tuple(width_mm(line, style, size) for line in lines), not fits, size < size_pt)
        size -= SHRINK_STEP_PT


def missing_characters(text: str, style: str) -> list[str]:
    covered = fonts.coverage(style)
    return sorted({ch for ch in text if not ch.isspace() and ord(ch) not in covered})
