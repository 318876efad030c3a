"""A pack's own fonts and icons, as pack.yaml declares them, made ready for the text layer.

    fonts:
      regular: {file: fonts/Body-Regular.ttf}
      bold: {file: fonts/Body-Bold.ttf, arabic: fonts/Naskh-Bold.ttf}
      display: {file: fonts/Title.otf}      # a style of its own: textbox(..., font="display")
    icons: icons/          # one SVG per icon, used in text as :name:

The paths are confined to the pack (pnp.pack reads them with its `_pack_file`). Here each file is
checked and registered with ReportLab under a name made of the pack id and the file's content
hash (`Pack-<id>-<hash>`):
- a TrueType (glyf) font is used as it is;
- an OpenType font with CFF outlines, which ReportLab cannot embed, is converted to TrueType
  outlines with fontTools' cu2qu (the fontTools otf2ttf recipe) into the font cache; the same file
  always gives the same bytes;
- a variable font is instanced at its default axis values into the font cache (by HarfBuzz);
- anything else (not a font, truncated, CFF2, over MAX_FONT_BYTES, no Unicode cmap, a font whose
  licence, its OS/2 fsType, forbids embedding it in a PDF) is a `font.unusable` problem at
  pack.yaml's line of that file.

A style the pack does not declare uses the shipped Noto style of that name. A declared style's
fallback chain is its file, then its `arabic` file or the shipped Noto Sans Arabic of the nearest
weight (Arabic has no italic: it stays upright).

`using(assets)` makes a pack's fonts and icons the ones `textbox()` draws with (a context variable:
the renderer sets it around the faces of one pack); `coverage_problems(pack)` checks each declared
language's texts against the fonts (`font.coverage`).
"""
from __future__ import annotations

import contextlib
import hashlib
import io
import re
import unicodedata
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnp import schema
from pnp.errors import Problem, Problems
from pnp.limits import MAX_FONT_BYTES
from pnp.text import fonts
from pnp.text.icons import NAME, Icon, IconError, check_drawable, icon_path, load_icon

if TYPE_CHECKING:
    from pnp.pack import Pack

FONT = schema.Schema("font", "The font files of one text style.", {
    "file": schema.Field("path", "TTF or OTF file for Latin, Greek and Cyrillic text (and any other "
                         "script it covers), relative to the pack."),
    "arabic": schema.Field("path?", "TTF or OTF file for Arabic-script text in this style; none: the "
                           "shipped Noto Sans Arabic.", None),
})
FONTS = schema.Schema("", "fonts", values=FONT)

FONT_UNUSABLE = "font.unusable"
FONT_COVERAGE = "font.coverage"
CONVERT_FORMAT = 2                     # bump when _converted changes: stale cached conversions are not reused
_UPRIGHT_ARABIC = {"italic": "regular", "bold-italic": "bold"}


class FontFileError(ValueError):
    """A declared font file that cannot be used; the message says why."""


# ---------------------------------------------------------------------------------------------
# One font file -> a registrable TrueType file

@lru_cache(maxsize=256)
def prepared_font(path: Path, pack_id: str, stamp: tuple[int, int]) -> str:
    """Check the font at `path`, convert it if need be, define it with pnp.text.fonts; its
    ReportLab name. `stamp` (size, mtime) makes an edited file be read again."""
    if stamp[0] > MAX_FONT_BYTES:
        raise FontFileError(f"{path.name} is {stamp[0]:,} bytes, more than the {MAX_FONT_BYTES:,} a font may be")
    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()[:16]
    font = _open(data, path.name)
    _check_licence(font, path.name)
    safe_id = re.sub(r"[^A-Za-z0-9]+", "", pack_id)[:24] or "pack"
    name = f"Pack-{safe_id}-{digest}"
    if "CFF2" in font:
        raise FontFileError(f"{path.name} has CFF2 (variable OpenType) outlines, which cannot be embedded: "
                            "use a TTF or a static OTF")
    if "CFF " in font or "fvar" in font:
        target = fonts.cache_dir() / f"{name}-v{CONVERT_FORMAT}-{fonts.harfbuzz_version()}.ttf"
        source = fonts.cut_into_cache(target, lambda: _converted(data))
    else:
        source = path
    _check_reportlab(name, source, path.name)
    fonts.define_font(name, source)
    return name


def _open(data: bytes, file: str):
    """The font parsed in full (every table), or FontFileError: not a font, truncated, no cmap."""
    from fontTools.ttLib import TTFont as FontToolsFont
    from fontTools.ttLib import TTLibError

    try:
        font = FontToolsFont(io.BytesIO(data), recalcTimestamp=False, lazy=False)
        for tag in font.keys():
            if tag != "GlyphOrder":
                font[tag]               # decompile: a truncated table fails here
        cmap = font.getBestCmap()
    except (TTLibError, Exception) as error:   # a damaged font fails in fontTools' many ways: all mean "unusable"
        raise FontFileError(f"{file} is not a font that can be read ({type(error).__name__}: {error})") from None
    if not cmap:
        raise FontFileError(f"{file} maps no Unicode characters to glyphs (no usable cmap)")
    if "glyf" not in font and "CFF " not in font and "CFF2" not in font:
        raise FontFileError(f"{file} has no outlines (no glyf or CFF table)")
    return font


# OS/2 fsType (OpenType spec, OS/2 table): the font's licence for embedding it in a document.
# Bits 0-3 are one usage permission: 0 installable, 2 restricted (no embedding), 4 preview & print,
# 8 editable; a PDF that only prints the text may embed any but 2. Fonts before OS/2 version 3 may
# set several of these bits, and then the least restrictive one holds, so 2 forbids only alone.
# Bit 8 forbids subsetting and bit 9 embedding outlines: ReportLab always embeds a subset of the
# outlines. (ReportLab reads these bits too, but only refuses a font of more than 255 glyphs:
# a smaller one it embeds whole, licence or not.)
_RESTRICTED, _PERMISSIONS = 0x0002, 0x000E
_LICENCE_BITS = ((0x0100, "no subsetting, and a PDF embeds only the glyphs it uses"),
                 (0x0200, "bitmap embedding only, and a PDF embeds the outlines"))


def _check_licence(font, file: str) -> None:
    """FontFileError when the font's licence (OS/2 fsType) forbids embedding it in a PDF."""
    fs_type = font["OS/2"].fsType if "OS/2" in font else 0
    reasons = [why for bit, why in _LICENCE_BITS if fs_type & bit]
    if fs_type & _PERMISSIONS == _RESTRICTED:
        reasons.insert(0, "restricted license embedding: no embedding at all")
    if reasons:
        raise FontFileError(f"{file} forbids embedding in a PDF: its OS/2 fsType is 0x{fs_type:04X} "
                            f"({'; '.join(reasons)}); use a font whose licence allows embedding")


def _check_reportlab(name: str, source: Path, file: str) -> None:
    from reportlab.pdfbase.ttfonts import TTFError, TTFontFile

    try:
        TTFontFile(str(source), validate=1)
    except (TTFError, OSError, ValueError, KeyError, IndexError) as error:
        raise FontFileError(f"{file} cannot be embedded in a PDF ({error})") from None


def _converted(data: bytes) -> bytes:
    """`data` as a static TrueType-outline font: a variable font at its default instance (cut by
    HarfBuzz, as the shipped fonts are: milliseconds), CFF outlines turned quadratic (fontTools'
    otf2ttf recipe). Dates are the source's own."""
    from fontTools.ttLib import TTFont as FontToolsFont

    font = FontToolsFont(io.BytesIO(data), recalcTimestamp=False)
    if "fvar" in font:
        try:
            return fonts.instance(data, None)
        except ValueError as error:
            raise FontFileError(f"its default instance cannot be made ({error})") from None
    created, modified = font["head"].created, font["head"].modified
    if "CFF " in font:
        _cff_to_glyf(font)
    font["head"].created, font["head"].modified = created, modified
    buffer = io.BytesIO()
    font.save(buffer)
    return buffer.getvalue()


def _cff_to_glyf(font) -> None:
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import newTable

    order = font.getGlyphOrder()
    glyph_set = font.getGlyphSet()
    quadratic = {}
    for name in order:
        pen = TTGlyphPen(glyph_set)
        glyph_set[name].draw(Cu2QuPen(pen, max_err=1.0, reverse_direction=True))
        quadratic[name] = pen.glyph()
    font["loca"] = newTable("loca")
    font["glyf"] = glyf = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = quadratic
    del font["CFF "]
    if "VORG" in font:
        del font["VORG"]
    glyf.compile(font)
    hmtx = font["hmtx"]
    for name, glyph in glyf.glyphs.items():
        if hasattr(glyph, "xMin"):
            hmtx[name] = (hmtx[name][0], glyph.xMin)
    maxp = font["maxp"] = newTable("maxp")
    maxp.tableVersion = 0x00010000
    for field in ("maxZones", "maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs",
                  "maxStackElements", "maxSizeOfInstructions", "maxComponentElements"):
        setattr(maxp, field, 1 if field == "maxZones" else 0)
    maxp.compile(font)
    post = font["post"]
    post.formatType, post.extraNames, post.mapping, post.glyphOrder = 2.0, [], {}, order
    font.sfntVersion = "\000\001\000\000"


# ---------------------------------------------------------------------------------------------
# A pack's fonts and icons

@dataclass(frozen=True)
class TextAssets:
    """What `textbox()` draws a pack's text with: style name -> style key (pnp.text.fonts), icons."""

    styles: tuple[tuple[str, str], ...] = ()
    icons: Path | None = None
    root: Path | None = None

    def known(self, style: str) -> bool:
        return style in dict(self.styles) or fonts.known_style(style)

    def style(self, name: str) -> str:
        """The style key of a style a template asks for; ValueError naming the known ones."""
        key = dict(self.styles).get(name)
        if key is not None:
            return key
        if name in fonts.STYLES:
            return name
        known = sorted({*fonts.STYLES, *dict(self.styles)})
        raise ValueError(f"unknown font style {name!r} (known: {', '.join(known)})")

    def has_icon(self, name: str) -> bool:
        if self.icons is None or self.root is None:
            return False
        path = self.icons / f"{name}.svg"
        return NAME.match(name) is not None and (path.is_file() or path.is_symlink())

    def icon(self, name: str) -> Icon:
        """The icon `name`, read and checked (IconError says why it cannot be drawn)."""
        if self.icons is None or self.root is None:
            raise IconError("the pack declares no icons folder (icons: in pack.yaml)")
        path = icon_path(self.icons, self.root, name)
        stat = path.stat()
        icon = load_icon(path, name, (stat.st_size, stat.st_mtime_ns))
        _drawable(icon)
        return icon


@lru_cache(maxsize=1024)
def _drawable(icon: Icon) -> None:
    check_drawable(icon)


SHIPPED = TextAssets()
_ACTIVE: ContextVar[TextAssets] = ContextVar("pnp_text_assets", default=SHIPPED)


def active() -> TextAssets:
    """The fonts and icons `textbox()` draws with now (the shipped ones unless `using` says)."""
    return _ACTIVE.get()


@contextlib.contextmanager
def using(assets: TextAssets) -> Iterator[TextAssets]:
    token = _ACTIVE.set(assets)
    try:
        yield assets
    finally:
        _ACTIVE.reset(token)


def _stamp(path: Path) -> tuple[int, int]:
    stat = path.stat()
    return stat.st_size, stat.st_mtime_ns


def _arabic_default(style: str) -> str:
    name = _UPRIGHT_ARABIC.get(style, style)
    return fonts.ARABIC_STYLES[name if name in fonts.ARABIC_STYLES else "regular"].name


def assets_and_problems(pack: Pack) -> tuple[TextAssets, list[Problem]]:
    """The pack's text assets, and a `font.unusable` problem per font file that cannot be used
    (that style then draws with the shipped Noto fonts, so every other problem is found too)."""
    problems = Problems()
    main = pack.sources.get("pack")
    styles = []
    for style, files in sorted(pack.fonts.items()):
        names: dict[str, str] = {}
        for script in ("file", "arabic"):
            path = files.get(script)
            if path is None:
                continue
            try:
                names[script] = prepared_font(path, pack.id, _stamp(path))
            except (FontFileError, OSError) as error:
                key_path = ("fonts", style, script)
                reason = str(error) if isinstance(error, FontFileError) else f"cannot be read ({error})"
                problems.add(FONT_UNUSABLE, main.file if main else "pack.yaml", main.line(key_path) if main else 0,
                             ".".join(key_path), f"font {path.name}: {reason}",
                             main.snippet(key_path) if main else "", style=style, font_file=path.name)
        if "file" not in names:
            continue
        arabic = names.get("arabic") or _arabic_default(style)
        key = f"{names['file']}+{arabic}"
        fonts.define_style(key, names["file"], arabic)
        styles.append((style, key))
    return TextAssets(tuple(styles), pack.icons, pack.root), problems.items


def assets_of(pack: Pack) -> TextAssets:
    """The pack's text assets; its unusable fonts are left out (see `font_problems`)."""
    return assets_and_problems(pack)[0]


def font_problems(pack: Pack) -> list[Problem]:
    """`font.unusable`: every declared font file that cannot be used, at pack.yaml's line."""
    return assets_and_problems(pack)[1]


# ---------------------------------------------------------------------------------------------
# Glyph coverage, per language

def _strings(value: Any) -> Iterator[str]:
    forms = getattr(value, "forms", None)
    if forms:
        yield from forms.values()
    elif isinstance(value, str):
        yield value


def _covered(char: str, style: str) -> bool:
    """Whether the style draws `char` in the font meant for it: an Arabic letter in the Arabic
    font, anything else in the main font. (A shipped Noto style may fall back along its chain; a
    pack's font may not: its missing letters would print in another typeface.)"""
    from pnp.text.layout import _is_arabic

    main, arabic = fonts.chain_names(style)
    code = ord(char)
    if code in fonts.font_coverage(fonts.register(style)):
        return True
    if _is_arabic(code) or style in fonts.STYLES:
        return code in fonts.font_coverage(fonts.register_font(arabic))
    return False


def coverage_problems(pack: Pack) -> list[Problem]:
    """`font.coverage`: per declared language, the characters of the pack's texts in that language
    that no font of the style chain draws (the regular style; bold and italic spans their own
    styles), each with U+ code, the character and an example key, at that key's line."""
    from pnp.text.markup import ICON_CHAR, variant
    from pnp.text.markup import parse as parse_markup

    assets = assets_of(pack)
    problems = Problems()
    for lang in pack.languages:
        missing: dict[str, str] = {}      # character -> first key that has it
        for key, value in (pack.texts.get(lang) or {}).items():
            for text in _strings(value):
                rich, _ = parse_markup(text, assets.has_icon)
                marks = rich.marks or (0,) * len(rich.text)
                for char, bits in zip(rich.text, marks):
                    if char in missing or char.isspace() or char == ICON_CHAR or \
                            unicodedata.category(char) in ("Cf", "Cc"):
                        continue
                    if not _covered(char, assets.style(variant("regular", bits, assets.known))):
                        missing[char] = key
        if not missing:
            continue
        chars = sorted(missing)
        example = missing[chars[0]]
        file, line = pack.text_locations.get(lang, {}).get(example, (Path(f"text/{lang}.yaml"), 0))
        shown = ", ".join(f"U+{ord(c):04X} {c!r} (e.g. {missing[c]})" for c in chars[:20])
        more = f" and {len(chars) - 20} more" if len(chars) > 20 else ""
        names = " then ".join(fonts.chain_names(assets.style("regular")))
        problems.add(FONT_COVERAGE, file, line, example,
                     f"{lang}: no font has {shown}{more} (fonts: {names}): they would print as blanks",
                     lang=lang, language=lang, characters=tuple(chars), keys=tuple(missing[c] for c in chars))
    return problems.items
