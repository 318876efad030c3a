"""Fonts: static instances of the Noto Sans variable fonts, made once and cached.

ReportLab draws only a variable font's default instance, so each style we print (regular, bold,
condensed bold) is cut from the variable font: HarfBuzz's subsetter keeps the scripts we print
(Latin, Greek, Cyrillic; all of Noto Sans Arabic) and pins the axes in one pass, in tens of
milliseconds. Only the styles a build draws are cut, each the first time a text needs it (an
English build never cuts the Arabic fonts or the italics), and the result is cached on disk, keyed
by the source font's hash, the axis values and the cutting code's version (`cut_version`).

The cache must never make two builds differ, nor break a build:
- a cut is deterministic: it keeps the source font's own `head` dates (no time of the cut is
  stamped), so every machine and a fresh cache give the same font bytes, hence the same PDFs (a
  cold and a warm build write the same bytes);
- cuts happen under a lock file in the cache folder and are written to a temporary file renamed
  into place, so concurrent first builds cut each font once and never read half a font; temporary
  files an interrupted cut left behind are removed by the next cut;
- each font has a `<font>.sha256` sidecar, checked once per process before the font is used; a
  damaged, truncated or foreign file is cut again (with a one-line warning), never a traceback;
- a cache folder that cannot be used (a file in the way, no permission) is a FontCacheError naming
  the folder and why, pointing at PNP_CACHE_DIR.

No Noto file covers every script, so each style is a *fallback chain* of fonts (`chain(style)`):
Noto Sans (registered as PnpSans-*) first, then Noto Sans Arabic (PnpArabic-*). Which font draws a
character is decided per run by `pnp.text.layout` (Arabic letters and Arabic-Indic digits: the
Arabic font; Latin letters and European digits, also inside Arabic text: Noto Sans).

Glyphs that HarfBuzz picks but no character maps to (contextual forms, ligatures) are given
private-use codes at registration, in glyph order, so ReportLab can embed and draw them
(`glyph_char`); the same glyph always gets the same code, which keeps PDFs reproducible.
"""
from __future__ import annotations

import contextlib
import hashlib
import io
import os
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import click
import fontpkg_noto_sans
import fontpkg_noto_sans_arabic
import platformdirs
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from pnp.errors import PnpError
from pnp.outputfiles import write_bytes_atomically

if sys.platform != "win32":
    import fcntl

NOTO_SANS = Path(fontpkg_noto_sans.ROOT) / "files" / "NotoSans[wdth,wght].ttf"
NOTO_SANS_ITALIC = Path(fontpkg_noto_sans.ROOT) / "files" / "NotoSans-Italic[wdth,wght].ttf"
NOTO_SANS_ARABIC = Path(fontpkg_noto_sans_arabic.ROOT) / "files" / "NotoSansArabic[wdth,wght].ttf"

# Unicode ranges kept in the cut fonts: Latin (with the accents of it/de/fr/es...), Cyrillic, general
# punctuation, currency, arrows and math signs such as ± that cards use.
KEPT_RANGES = [(0x20, 0x7E), (0xA0, 0x24F), (0x2B9, 0x2FF), (0x300, 0x36F), (0x400, 0x52F),
               (0x1E00, 0x1EFF), (0x2000, 0x206F), (0x20A0, 0x20BF), (0x2100, 0x214F),
               (0x2190, 0x21FF), (0x2200, 0x22FF), (0x25A0, 0x25FF)]


INSTANCE_FORMAT = 4  # bump when _cut changes, so stale cached fonts are not reused
LOCK_TIMEOUT_S = 600  # a cold cut takes well under a minute; past this the lock holder is stuck


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
    # for *italic* and ***bold italic*** words (pnp.text.markup); cut on first use only
    "italic": FontStyle("PnpSans-Italic", (("wght", 400), ("wdth", 100)), NOTO_SANS_ITALIC),
    "bold-italic": FontStyle("PnpSans-BoldItalic", (("wght", 700), ("wdth", 100)), NOTO_SANS_ITALIC),
}
# The styles every build may draw with; a build registers (parses) each on first use (issue 13:
# a pack that never prints condensed text does not read that font), register_all() all at once.
CORE_STYLES = ("regular", "bold", "condensed")

# The Arabic font of each style (Noto Sans Arabic has the same wght/wdth axes).
ARABIC_STYLES = {
    "regular": FontStyle("PnpArabic-Regular", (("wght", 400), ("wdth", 100)), NOTO_SANS_ARABIC, None),
    "bold": FontStyle("PnpArabic-Bold", (("wght", 700), ("wdth", 100)), NOTO_SANS_ARABIC, None),
    "condensed": FontStyle("PnpArabic-CondensedBold", (("wght", 700), ("wdth", 75)), NOTO_SANS_ARABIC, None),
}
# Arabic has no italic: italic words of an Arabic text stay upright, in the matching weight.
UPRIGHT = {"italic": "regular", "bold-italic": "bold"}

_BY_NAME = {style.name: style for table in (STYLES, ARABIC_STYLES) for style in table.values()}
PRIVATE_USE = (0xE000, 0xF8FF)


class FontCacheError(PnpError):
    """The font cache folder cannot be used; the message says which folder and why."""

    def __init__(self, folder: Path, reason: str):
        super().__init__(f"font cache {folder}: cannot be used: {reason}. "
                         "Set PNP_CACHE_DIR to a folder pnp may write to.")


def cache_dir() -> Path:
    return Path(os.environ.get("PNP_CACHE_DIR") or platformdirs.user_cache_dir("pnp")) / "fonts"


@lru_cache(maxsize=None)
def _source_digest(source: Path = NOTO_SANS) -> str:
    return hashlib.sha256(source.read_bytes()).hexdigest()[:16]


@lru_cache(maxsize=None)
def harfbuzz_version() -> str:
    """The HarfBuzz that cuts fonts (another one may round a point differently): cached cuts
    carry it in their file name."""
    import uharfbuzz as hb

    return f"hb{hb.version_string()}"


def cut_version() -> str:
    """What a cut's bytes depend on besides the source font and the style."""
    return f"v{INSTANCE_FORMAT}-{harfbuzz_version()}"


def _instance_path(style: FontStyle) -> Path:
    axes = "-".join(f"{tag}{value:g}" for tag, value in style.axes)
    return cache_dir() / f"{style.name}-{_source_digest(style.source)}-{axes}-{cut_version()}.ttf"


def _digest_path(font: Path) -> Path:
    return font.with_name(font.name + ".sha256")


def _file_digest(path: Path) -> str:
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def _is_intact(font: Path) -> bool:
    """True when the cached font is there and has the bytes its sidecar digest says it was cut with."""
    try:
        expected = _digest_path(font).read_text(encoding="ascii").strip()
        return bool(expected) and _file_digest(font) == expected
    except (OSError, UnicodeDecodeError):   # missing, a folder, unreadable: cut it again
        return False


# ---------------------------------------------------------------------------------------------
# Cutting: deterministic bytes, written once under the cache lock

def _cut(style: FontStyle) -> bytes:
    """The static instance of a style, as font file bytes that depend only on the source font,
    the style and the HarfBuzz version (which the cache file's name carries).

    HarfBuzz's subsetter keeps the style's characters and pins the axes in one pass, in C: about
    20 ms a style where fontTools' instancer took 3-9 s (the first build on a new machine was 4-7x
    a warm one). Its outlines, advances and kerning match fontTools' instances to the rounding
    unit (1/1000 em at most)."""
    try:
        static = instance(style.source.read_bytes(), style.axes, style.ranges)
    except ValueError as error:
        raise PnpError(f"cannot cut font {style.name} from {style.source}: {error}") from None
    return _renamed(static, style.name)


def instance(data: bytes, axes: tuple[tuple[str, float], ...] | None,
             ranges: tuple[tuple[int, int], ...] | None = None) -> bytes:
    """The variable font `data` as a static font, cut by HarfBuzz's subsetter: its axes pinned at
    `axes` (None: at their defaults), the characters in `ranges` kept (None: every one it maps),
    with every layout feature and name. The source's `head` dates are kept (no time of the cut is
    stamped): the same input gives the same bytes. ValueError if HarfBuzz cannot cut it."""
    import uharfbuzz as hb

    face = hb.Face(hb.Blob(data))
    request = hb.SubsetInput()
    characters = request.sets(hb.SubsetInputSets.UNICODE)
    if ranges is None:
        characters.invert()
    else:
        for first, last in ranges:
            characters.add_range(first, last)
    for kept in (hb.SubsetInputSets.LAYOUT_FEATURE_TAG, hb.SubsetInputSets.NAME_ID, hb.SubsetInputSets.NAME_LANG_ID):
        everything = request.sets(kept)                       # all of them, not HarfBuzz's defaults
        everything.clear()
        everything.invert()
    if axes is None:
        request.pin_all_axes_to_default(face)
    else:
        for tag, value in axes:
            request.pin_axis_location(face, tag, value)
    request.flags = hb.SubsetFlags.NOTDEF_OUTLINE | hb.SubsetFlags.GLYPH_NAMES
    static = hb.subset(face, request)
    if static is None:
        raise ValueError("HarfBuzz's subsetter could not cut it")
    return bytes(static.blob.data)


def _renamed(data: bytes, name: str) -> bytes:
    """The font with its full name and PostScript name set to `name`: ReportLab keeps one font per
    PostScript name, so every instance needs its own. Only the name table is rebuilt (fontTools
    copies the other tables as they are)."""
    from fontTools.ttLib import TTFont as FontToolsFont

    font = FontToolsFont(io.BytesIO(data), recalcTimestamp=False, lazy=True)
    names = font["name"]
    for record in list(names.names):
        if record.nameID in (4, 6):
            names.removeNames(nameID=record.nameID)
    names.setName(name.replace("-", " "), 4, 3, 1, 0x409)
    names.setName(name, 6, 3, 1, 0x409)
    buffer = io.BytesIO()
    font.save(buffer)
    return buffer.getvalue()


def _prepared_cache_dir() -> Path:
    """The cache folder, created if need be, or a FontCacheError saying why it cannot be."""
    folder = cache_dir()
    blocker = next((p for p in (folder, *folder.parents) if p.exists() and not p.is_dir()), None)
    if blocker is not None:
        raise FontCacheError(folder, f"{blocker} is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise FontCacheError(folder, error.strerror or str(error)) from None
    return folder


@contextlib.contextmanager
def _cache_lock(folder: Path) -> Iterator[None]:
    """Hold the cache folder's lock: one process cuts at a time, the others wait for it."""
    lock = folder / ".lock"
    try:
        handle = os.open(lock, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError as error:
        raise FontCacheError(folder, f"cannot write {lock.name} there ({error.strerror or error})") from None
    try:
        if sys.platform != "win32":   # Windows has no flock: the atomic rename still keeps fonts whole
            deadline = time.monotonic() + LOCK_TIMEOUT_S
            while True:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise FontCacheError(folder, f"another process has held {lock} for over "
                                                     f"{LOCK_TIMEOUT_S} s") from None
                    time.sleep(0.1)
        yield
    finally:
        os.close(handle)   # closing releases the lock, as does the death of the process


def _remove_stale_temps(folder: Path) -> None:
    """Temporary files of cuts that were interrupted. Only a lock holder writes *.tmp files, and
    we hold the lock, so every one of them is left over."""
    for temp in folder.glob("*.tmp"):
        with contextlib.suppress(OSError):
            temp.unlink()


def _cut_into_cache(style: FontStyle, font: Path) -> None:
    cut_into_cache(font, lambda: _cut(style))


def cut_into_cache(font: Path, make: Callable[[], bytes]) -> Path:
    """`font` in the cache folder, made by `make()` (deterministic bytes) under the cache lock when
    it is not there intact; a pack's converted fonts are made this way too."""
    if _is_intact(font):
        return font
    folder = _prepared_cache_dir()
    with _cache_lock(folder):
        if _is_intact(font):   # another process cut it while we waited for the lock
            return font
        if font.exists() or _digest_path(font).exists():
            click.echo(f"pnp: cached font {font} is damaged; cutting it again", err=True)
        _remove_stale_temps(folder)
        data = make()
        try:
            # The font first: a crash before the digest is written leaves a font that fails the check.
            write_bytes_atomically(font, data)
            write_bytes_atomically(_digest_path(font), hashlib.sha256(data).hexdigest().encode("ascii") + b"\n")
        except OSError as error:
            raise FontCacheError(folder, f"cannot write {font.name} ({error.strerror or error})") from None
    return font


_VERIFIED: set[Path] = set()   # cached fonts whose digest this process has checked


def _style(style: str | FontStyle) -> FontStyle:
    if isinstance(style, FontStyle):
        return style
    return STYLES[style] if style in STYLES else _BY_NAME[style]


def font_file(style_name: str | FontStyle) -> Path:
    """The static instance file of a style (a STYLES key, a registered name or a FontStyle)."""
    style = _style(style_name)
    path = _instance_path(style)
    if path not in _VERIFIED:
        if not _is_intact(path):
            _cut_into_cache(style, path)
        _VERIFIED.add(path)
    return path


_COVERAGE: dict[str, frozenset[int]] = {}
# Fonts and styles defined at run time: a pack's own fonts (pnp.text.packfonts), by ReportLab name
# and by style key (a key names its content, so the lru_caches below stay right for it).
_FILES: dict[str, Path] = {}
_CHAINS: dict[str, tuple[str, str]] = {}


def define_font(name: str, path: Path) -> None:
    """Make the TrueType file `path` registrable as ReportLab font `name` (on first use)."""
    _FILES[name] = path


def define_style(key: str, main: str, arabic: str) -> None:
    """A style key whose fallback chain is the fonts `main` then `arabic` (defined or Noto names)."""
    _CHAINS[key] = (main, arabic)


def known_style(style_name: str) -> bool:
    return style_name in STYLES or style_name in _CHAINS


def chain_names(style_name: str) -> tuple[str, str]:
    """The ReportLab names of a style's fallback chain, without registering (cutting) them."""
    if style_name in _CHAINS:
        return _CHAINS[style_name]
    return STYLES[style_name].name, ARABIC_STYLES[UPRIGHT.get(style_name, style_name)].name


def font_path(name: str) -> Path:
    """The file of a registrable font: a cached Noto cut, or a defined (pack) font."""
    return _FILES[name] if name in _FILES else font_file(_BY_NAME[name])


@lru_cache(maxsize=None)
def register_font(name: str) -> str:
    """Register the font with ReportLab name `name` (PnpSans-*, PnpArabic-*, a defined font) once;
    return the name. A Noto instance is cut into the cache the first time it is needed."""
    if name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(name, str(font_path(name))))
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
    """Register the style's main (Latin) font with ReportLab (once) and return its font name."""
    return register_font(chain_names(style_name)[0])


@lru_cache(maxsize=None)
def chain(style_name: str) -> tuple[str, ...]:
    """The registered fonts of a style, in fallback order: Noto Sans (or the pack's font), then
    Noto Sans Arabic (or the pack's Arabic font). Registering the Arabic font cuts it: only text
    that needs it (a character the main font lacks) asks for the chain."""
    return tuple(register_font(name) for name in chain_names(style_name))


def register_all() -> dict[str, str]:
    """Register the main fonts of the styles every build uses; the Arabic fonts and the italics
    are cut and registered when a text first needs them."""
    return {name: register(name) for name in CORE_STYLES}


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
def cap_height(style_name: str) -> float:
    """The height of the capitals of the style's main font, as a fraction of the font size."""
    face = pdfmetrics.getFont(register(style_name)).face
    return (face.capHeight or face.ascent) / 1000.0


@lru_cache(maxsize=None)
def ink_descent(font_name: str, first: int = 0x0621, last: int = 0x064A) -> float:
    """The lowest point of the letters first..last (default: the Arabic letters) as a fraction of
    the font size (negative): the line box of Arabic text must reach that far down, further than
    Noto Sans' descent."""
    from fontTools.pens.boundsPen import BoundsPen
    from fontTools.ttLib import TTFont as FontToolsFont

    font = FontToolsFont(font_path(font_name), lazy=True)
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
