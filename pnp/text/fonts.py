"""Fonts: static instances of the Noto Sans variable fonts, made once and cached.

ReportLab draws only a variable font's default instance, so each style we print (regular, bold,
condensed bold) is cut from the variable font with fontTools' instancer. That takes seconds, so
the result is cached on disk, keyed by the source font's hash and the axis values. Noto Sans is
first subset to the scripts we print (Latin, Greek, Cyrillic), which also makes instancing quick.

No Noto file covers every script, so each style is a *fallback chain* of fonts (`chain(style)`):
Noto Sans (registered as PnpSans-*) first, then Noto Sans Arabic (PnpArabic-*). Which font draws a
character is decided per run by `pnp.text.layout` (Arabic letters and Arabic-Indic digits: the
Arabic font; Latin letters and European digits, also inside Arabic text: Noto Sans).

Glyphs that HarfBuzz picks but no character maps to (contextual forms, ligatures) are given
private-use codes at registration, in glyph order, so ReportLab can embed and draw them
(`glyph_char`); the same glyph always gets the same code, which keeps PDFs reproducible.
"""
from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import fontpkg_noto_sans
import fontpkg_noto_sans_arabic
import platformdirs
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

NOTO_SANS = Path(fontpkg_noto_sans.ROOT) / "files" / "NotoSans[wdth,wght].ttf"
NOTO_SANS_ARABIC = Path(fontpkg_noto_sans_arabic.ROOT) / "files" / "NotoSansArabic[wdth,wght].ttf"

# Unicode ranges kept in the cut fonts: Latin (with the accents of it/de/fr/es...), Cyrillic, general
# punctuation, currency, arrows and math signs such as ± that cards use.
KEPT_RANGES = [(0x20, 0x7E), (0xA0, 0x24F), (0x2B9, 0x2FF), (0x300, 0x36F), (0x400, 0x52F),
               (0x1E00, 0x1EFF), (0x2000, 0x206F), (0x20A0, 0x20BF), (0x2100, 0x214F),
               (0x2190, 0x21FF), (0x2200, 0x22FF), (0x25A0, 0x25FF)]


INSTANCE_FORMAT = 2  # bump when _make_instance changes, so stale cached fonts are not reused


@dataclass(frozen=True)
class FontStyle:
    name: str           # the name registered with ReportLab and used in SVG font-family
    axes: tuple[tuple[str, float], ...]
    source: Path = NOTO_SANS
    ranges: tuple[tuple[int, int], ...] | None = tuple(KEPT_RANGES)   # None: keep every character


# The Latin/Greek/Cyrillic font of each style; `STYLES[style].name` is its ReportLab name.
STYLES = {
    "regular": FontStyle("PnpSans-Regular", (("wght", 400), ("wdth", 100))),
    "bold": FontStyle("PnpSans-Bold", (("wght", 700), ("wdth", 100))),
    "condensed": FontStyle("PnpSans-CondensedBold", (("wght", 700), ("wdth", 75))),
}

# The Arabic font of each style (Noto Sans Arabic has the same wght/wdth axes).
ARABIC_STYLES = {
    "regular": FontStyle("PnpArabic-Regular", (("wght", 400), ("wdth", 100)), NOTO_SANS_ARABIC, None),
    "bold": FontStyle("PnpArabic-Bold", (("wght", 700), ("wdth", 100)), NOTO_SANS_ARABIC, None),
    "condensed": FontStyle("PnpArabic-CondensedBold", (("wght", 700), ("wdth", 75)), NOTO_SANS_ARABIC, None),
}

_BY_NAME = {style.name: style for table in (STYLES, ARABIC_STYLES) for style in table.values()}
PRIVATE_USE = (0xE000, 0xF8FF)


def cache_dir() -> Path:
    return Path(os.environ.get("PNP_CACHE_DIR") or platformdirs.user_cache_dir("pnp")) / "fonts"


@lru_cache(maxsize=None)
def _source_digest(source: Path = NOTO_SANS) -> str:
    return hashlib.sha256(source.read_bytes()).hexdigest()[:16]


def _instance_path(style: FontStyle) -> Path:
    axes = "-".join(f"{tag}{value:g}" for tag, value in style.axes)
    return cache_dir() / f"{style.name}-{_source_digest(style.source)}-{axes}-v{INSTANCE_FORMAT}.ttf"


def _make_instance(style: FontStyle, target: Path) -> None:
    from fontTools import subset
    from fontTools.ttLib import TTFont as FontToolsFont
    from fontTools.varLib import instancer

    font = FontToolsFont(style.source)
    if style.ranges is not None:
        options = subset.Options()
        options.layout_features = ["*"]
        options.name_IDs = ["*"]
        options.notdef_outline = True
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=[u for start, end in style.ranges for u in range(start, end + 1)])
        subsetter.subset(font)
    static = instancer.instantiateVariableFont(font, dict(style.axes), static=True)
    # ReportLab keeps one font per PostScript name, so every instance needs its own.
    for record in list(static["name"].names):
        if record.nameID in (4, 6):
            static["name"].removeNames(nameID=record.nameID)
    static["name"].setName(style.name.replace("-", " "), 4, 3, 1, 0x409)
    static["name"].setName(style.name, 6, 3, 1, 0x409)
    target.parent.mkdir(parents=True, exist_ok=True)
    # Written beside the target and renamed, so parallel builds never read half a font.
    handle, temp = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
    os.close(handle)
    try:
        static.save(temp)
        os.replace(temp, target)
    finally:
        if os.path.exists(temp):
            os.remove(temp)


def _style(style: str | FontStyle) -> FontStyle:
    if isinstance(style, FontStyle):
        return style
    return STYLES[style] if style in STYLES else _BY_NAME[style]


def font_file(style_name: str | FontStyle) -> Path:
    """The static instance file of a style (a STYLES key, a registered name or a FontStyle)."""
    style = _style(style_name)
    path = _instance_path(style)
    if not path.is_file():
        _make_instance(style, path)
    return path


_COVERAGE: dict[str, frozenset[int]] = {}


@lru_cache(maxsize=None)
def register_font(name: str) -> str:
    """Register the font with ReportLab name `name` (PnpSans-*, PnpArabic-*) once; return the name."""
    style = _BY_NAME[name]
    if name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(name, str(font_file(style))))
    face = pdfmetrics.getFont(name).face
    if name not in _COVERAGE:
        _COVERAGE[name] = frozenset(face.charToGlyph)
        _add_private_codes(face)
    return name


def _add_private_codes(face) -> None:
    """Give every glyph without a character a private-use code, in glyph order (deterministic),
    so that shaped glyph runs can be drawn through ReportLab's TrueType subsetting."""
    code = PRIVATE_USE[0]
    for gid in range(face.numGlyphs):
        if gid in face.glyphToChar or gid == 0:
            continue
        while code in face.charToGlyph:
            code += 1
        if code > PRIVATE_USE[1]:
            raise ValueError(f"{face.name}: too many glyphs without a character for the private-use area")
        face.charToGlyph[code] = gid
        face.glyphToChar[gid] = [code]
        face.charWidths[code] = face._pdfScale(face.hmetrics[gid][0])
        code += 1


@lru_cache(maxsize=None)
def register(style_name: str) -> str:
    """Register the style's Latin font with ReportLab (once) and return its font name."""
    return register_font(STYLES[style_name].name)


@lru_cache(maxsize=None)
def chain(style_name: str) -> tuple[str, ...]:
    """The registered fonts of a style, in fallback order: Noto Sans, then Noto Sans Arabic."""
    return (register(style_name), register_font(ARABIC_STYLES[style_name].name))


def register_all() -> dict[str, str]:
    names = {name: register(name) for name in STYLES}
    for name in STYLES:
        chain(name)
    return names


def font_coverage(font_name: str) -> frozenset[int]:
    """Code points one registered font maps to a glyph (private-use codes added here excluded)."""
    register_font(font_name)
    return _COVERAGE[font_name]


def glyph_char(font_name: str, gid: int) -> str:
    """The character ReportLab draws glyph `gid` of the font with (see _add_private_codes)."""
    face = pdfmetrics.getFont(register_font(font_name)).face
    return chr(face.glyphToChar[gid][0]) if gid else "\0"


@lru_cache(maxsize=None)
def coverage(style_name: str) -> frozenset[int]:
    """Code points the style's Latin font can draw (see `chain_coverage` for the whole chain)."""
    return font_coverage(register(style_name))


@lru_cache(maxsize=None)
def chain_coverage(style_name: str) -> frozenset[int]:
    """Code points some font of the style's fallback chain can draw."""
    return frozenset().union(*(font_coverage(name) for name in chain(style_name)))


@lru_cache(maxsize=None)
def vertical_metrics(style_name: str) -> tuple[float, float]:
    """Ascent and descent (negative) as fractions of the font size."""
    face = pdfmetrics.getFont(register(style_name)).face
    return face.ascent / 1000.0, face.descent / 1000.0


@lru_cache(maxsize=None)
def ink_descent(font_name: str, first: int = 0x0621, last: int = 0x064A) -> float:
    """The lowest point of the letters first..last (default: the Arabic letters) as a fraction of
    the font size (negative): the line box of Arabic text must reach that far down, further than
    Noto Sans' descent."""
    from fontTools.pens.boundsPen import BoundsPen
    from fontTools.ttLib import TTFont as FontToolsFont

    font = FontToolsFont(font_file(font_name), lazy=True)
    glyphs = font.getGlyphSet()
    cmap = font.getBestCmap()
    lowest = 0.0
    for code in range(first, last + 1):
        if code in cmap:
            pen = BoundsPen(glyphs)
            glyphs[cmap[code]].draw(pen)
            if pen.bounds:
                lowest = min(lowest, pen.bounds[1])
    return lowest / font["head"].unitsPerEm
