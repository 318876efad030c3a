"""Fonts: static instances of the Noto Sans variable font, made once and cached.

ReportLab draws only a variable font's default instance, so each style we print (regular, bold,
condensed bold) is cut from the variable font with fontTools' instancer. That takes seconds, so
the result is cached on disk, keyed by the source font's hash and the axis values. The font is
first subset to the scripts we print (Latin, Cyrillic), which also makes instancing quick.
"""
from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import fontpkg_noto_sans
import platformdirs
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

NOTO_SANS = Path(fontpkg_noto_sans.ROOT) / "files" / "NotoSans[wdth,wght].ttf"

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


STYLES = {
    "regular": FontStyle("PnpSans-Regular", (("wght", 400), ("wdth", 100))),
    "bold": FontStyle("PnpSans-Bold", (("wght", 700), ("wdth", 100))),
    "condensed": FontStyle("PnpSans-CondensedBold", (("wght", 700), ("wdth", 75))),
}


def cache_dir() -> Path:
    return Path(os.environ.get("PNP_CACHE_DIR") or platformdirs.user_cache_dir("pnp")) / "fonts"


@lru_cache(maxsize=1)
def _source_digest() -> str:
    return hashlib.sha256(NOTO_SANS.read_bytes()).hexdigest()[:16]


def _instance_path(style: FontStyle) -> Path:
    axes = "-".join(f"{tag}{value:g}" for tag, value in style.axes)
    return cache_dir() / f"{style.name}-{_source_digest()}-{axes}-v{INSTANCE_FORMAT}.ttf"


def _make_instance(style: FontStyle, target: Path) -> None:
    from fontTools import subset
    from fontTools.ttLib import TTFont as FontToolsFont
    from fontTools.varLib import instancer

    font = FontToolsFont(NOTO_SANS)
    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[u for start, end in KEPT_RANGES for u in range(start, end + 1)])
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


def font_file(style_name: str) -> Path:
    style = STYLES[style_name]
    path = _instance_path(style)
    if not path.is_file():
        _make_instance(style, path)
    return path


@lru_cache(maxsize=None)
def register(style_name: str) -> str:
    """Register the style with ReportLab (once) and return its font name."""
    style = STYLES[style_name]
    if style.name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(style.name, str(font_file(style_name))))
    return style.name


def register_all() -> dict[str, str]:
    return {name: register(name) for name in STYLES}


@lru_cache(maxsize=None)
def coverage(style_name: str) -> frozenset[int]:
    """Code points the style can draw."""
    font = pdfmetrics.getFont(register(style_name))
    return frozenset(font.face.charToGlyph)


@lru_cache(maxsize=None)
def vertical_metrics(style_name: str) -> tuple[float, float]:
    """Ascent and descent (negative) as fractions of the font size."""
    face = pdfmetrics.getFont(register(style_name)).face
    return face.ascent / 1000.0, face.descent / 1000.0
