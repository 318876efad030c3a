"""Shaping with HarfBuzz (uharfbuzz): one directional run of one font -> positioned glyphs.

A run is text in logical order, in one font and one direction (the bidi algorithm and the font
fallback in `pnp.text.layout` cut paragraphs into such runs). HarfBuzz joins Arabic letters, makes
the lam-alef ligatures, places marks, mirrors brackets in right-to-left runs and kerns Latin. The
glyphs come back in visual order (left to right), with advances and offsets in 1/1000 em, which
is the unit of ReportLab's font metrics and of PDF text space.

`shaped_str(run)` turns a shaped run into a ReportLab `ShapedStr`: ReportLab then embeds those
glyphs in its TrueType subsets and writes them with their positions (TJ adjustments, text rise), so
the text stays real PDF text with its font embedded.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import uharfbuzz as hb
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import ShapeData, ShapedStr

from pnp.text import fonts


@dataclass(frozen=True)
class Glyph:
    gid: int
    cluster: int          # index in the run's text of the first character this glyph shows
    x_advance: float      # 1/1000 em
    y_advance: float
    x_offset: float
    y_offset: float


@dataclass(frozen=True)
class ShapedRun:
    text: str
    font: str             # ReportLab font name
    rtl: bool
    glyphs: tuple[Glyph, ...]   # visual order, left to right

    @property
    def advance(self) -> float:
        """Width in 1/1000 em (multiply by size/1000 for the width at a size)."""
        return sum(g.x_advance for g in self.glyphs)

    def gids(self) -> tuple[int, ...]:
        return tuple(g.gid for g in self.glyphs)


@lru_cache(maxsize=None)
def _hb_font(font_name: str) -> tuple[hb.Font, float]:
    face = pdfmetrics.getFont(fonts.register_font(font_name)).face
    hb_face = hb.Face(hb.Blob(bytes(face._ttf_data)))
    font = hb.Font(hb_face)
    return font, 1000.0 / hb_face.upem


@lru_cache(maxsize=65536)
def shape(text: str, font_name: str, rtl: bool) -> ShapedRun:
    """Shape one run (logical order) in one font and direction."""
    font, scale = _hb_font(font_name)
    buf = hb.Buffer()
    buf.add_str(text)
    buf.guess_segment_properties()          # script and language from the text
    buf.direction = "rtl" if rtl else "ltr"
    hb.shape(font, buf)
    glyphs = tuple(
        Glyph(info.codepoint, info.cluster, pos.x_advance * scale, pos.y_advance * scale,
              pos.x_offset * scale, pos.y_offset * scale)
        for info, pos in zip(buf.glyph_infos, buf.glyph_positions))
    return ShapedRun(text, font_name, rtl, glyphs)


def shaped_str(run: ShapedRun) -> ShapedStr:
    """The run as a ReportLab ShapedStr: one character per glyph (the glyph's own character, or the
    private-use code fonts.register_font gave it), with HarfBuzz's positions."""
    face = pdfmetrics.getFont(run.font).face
    chars = []
    data = []
    for g in run.glyphs:
        char = fonts.glyph_char(run.font, g.gid)
        chars.append(char)
        data.append(ShapeData(g.cluster, g.x_advance, g.y_advance, g.x_offset, g.y_offset,
                              face.getCharWidth(ord(char))))
    return ShapedStr("".join(chars), shapeData=data)
