"""A fast, exact SVG -> ReportLab canvas converter for the SVG subset our card templates emit.

    face = compile_svg(svg_text)      # parse once: a flat list of drawing operations
    face = compile_svg(svg_text, art=ArtLibrary(pack.root))   # <image> of the pack's art files
    face.width, face.height           # points, from the root width/height
    face.draw(canvas)                 # replay; (0, 0) = bottom-left of the SVG viewport
    face.images                       # the raster art drawn, with its printed size (ImageUse)

Most of a face compiles to literal PDF path, colour and line-style operators, computed once; at
draw time only what depends on the document goes through the canvas API: graphics-state
save/restore, transparency (ExtGState resources), text (font resources and TrueType subsets,
so text stays real, extractable PDF text with its font embedded), gradients (shadings) and
images (one image XObject per file and document, however many faces draw it).

docs/svg.md lists every element, attribute and value drawn; anything else raises
`UnsupportedSvg` naming the element and attribute (an art file's problem: `pnp.render.art.ArtError`).
Lengths inside the drawing are user units (a `px` suffix is accepted as the same thing).
"""
from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Any, Callable
from unicodedata import bidirectional as _bidi_class

from reportlab.lib import colors as _rl_colors
from reportlab.lib.fonts import tt2ps
from reportlab.pdfbase import pdfdoc, pdfmetrics

from pnp.limits import MAX_ART_DEPTH, MAX_GRADIENT_LINKS, MAX_GROUP_DEPTH, MAX_USE_ELEMENTS
from pnp.units import PT_PER_IN, PT_PER_MM

__all__ = ["UnsupportedSvg", "CompiledFace", "ImageUse", "compile_svg", "fix_form_resources"]

# Bounds of what one face may ask for through references (to move to pnp/limits.py): ten nested
# <use> of ten <use> each would draw 10^10 shapes from a few hundred bytes.


class UnsupportedSvg(ValueError):
    """The SVG uses an element, attribute or value this converter does not draw; `element` is the
    innermost element being drawn when it was found (None for the root or the document), so that
    a report can find the template line that writes it."""

    element: ET.Element | None = None


@dataclass(frozen=True)
class ImageUse:
    """A raster art file drawn on a face: its pixels and the size it prints at (points, along
    the image's own axes, whatever the rotation)."""

    href: str
    path: str
    pixels: tuple[int, int]
    printed_pt: tuple[float, float]

    @property
    def ppi(self) -> tuple[float, float]:
        """Pixels per printed inch along the image's width and height."""
        return (self.pixels[0] / (self.printed_pt[0] / PT_PER_IN), self.pixels[1] / (self.printed_pt[1] / PT_PER_IN))



# --------------------------------------------------------------------------------------------
# Drawing operations (replayed by CompiledFace.draw)

def _op_literal(canvas, code: str) -> None:
    canvas.addLiteral(code)


def _op_save(canvas) -> None:
    canvas.saveState()


def _op_restore(canvas) -> None:
    canvas.restoreState()


def _op_fill_alpha(canvas, alpha: float) -> None:
    canvas.setFillAlpha(alpha)


def _op_stroke_alpha(canvas, alpha: float) -> None:
    canvas.setStrokeAlpha(alpha)


def _op_text(canvas, font: str, size: float, anchor: str, text: str) -> None:
    # Drawn at (0, 0) of a coordinate system the preceding literal set up with its y axis up.
    canvas.setFont(font, size)
    if anchor == "middle":
        canvas.drawCentredString(0, 0, text)
    elif anchor == "end":
        canvas.drawRightString(0, 0, text)
    else:
        canvas.drawString(0, 0, text)


def _op_glyphs(canvas, font: str, size: float, x: float, glyphs: str, actual_text: str) -> None:
    # A shaped run (a ReportLab ShapedStr: glyphs with HarfBuzz positions) drawn from x along the
    # baseline at (0, 0). `actual_text` (a PDF string, or "" inside a line's span, which already
    # stands for the run) marks it with /ActualText so copy and search see the characters rather
    # than contextual forms and private-use codes (pnp.text.actualtext: in the order readers need).
    canvas.setFont(font, size)
    if actual_text:
        canvas.addLiteral("/Span <</ActualText %s>> BDC" % actual_text)
    canvas.drawString(x, 0, glyphs)
    if actual_text:
        canvas.addLiteral("EMC")


def _op_line_glyphs(canvas, font: str, size: float, x: float, glyphs: str, y: float) -> None:
    # A shaped run of a line inside the line's /ActualText span (see _Compiler.group): _op_glyphs'
    # arguments, then y. Drawn at (x, y) of the face's y-down user space and made upright by the
    # text matrix, not by a `cm` in a q..Q of its own, so that every glyph of the span is placed
    # under the CTM in force at the span's EMC (poppler places the span's text with that CTM).
    canvas.setFont(font, size)
    text = canvas.beginText()
    text.setTextTransform(1, 0, 0, -1, x, y)
    text.textLine(glyphs)
    canvas.drawText(text)


def _op_text_at(canvas, font: str, size: float, x: float, y: float, text: str) -> None:
    # One piece of a <text> with <tspan>s, at (x, y) of a y-up system the preceding literal set up.
    canvas.setFont(font, size)
    canvas.drawString(x, y, text)


def _op_image(canvas, art: Any) -> None:
    """Paint a raster art file (pnp.render.art.RasterArt) into the unit square of the current space.

    The image XObject is made once per document, named by the file's content hash: ReportLab's
    drawImage would name it by hashing the decoded pixels at every draw (and keep them decoded).
    tests/test_art.py checks that a PDF of many faces holds each image once."""
    doc = canvas._doc
    ref = doc.getXObjectName(art.name)
    if ref not in doc.idToObject:
        image = pdfdoc.PDFImageXObject(art.name, art.reader(), mask="auto")
        doc.Reference(image, ref)
        doc.addForm(art.name, image)
        smask = getattr(image, "_smask", None)            # the alpha channel, as drawImage sets it up
        if smask is not None:
            mask_ref = doc.getXObjectName(smask.name)
            if mask_ref in doc.idToObject:
                image.smask = pdfdoc.PDFObjectReference(mask_ref)
            else:
                image.smask = doc.Reference(smask, mask_ref)
            del image._smask
    canvas._formsinuse.append(art.name)                   # the page's or form's /XObject resources
    canvas.addLiteral("/%s Do" % ref)


def _op_shade(canvas, radial: bool, coords: tuple[float, ...], stops: tuple) -> None:
    """Paint a gradient (PDF axial or radial shading, extended past both ends as SVG's "pad")
    over the current clip; `stops` are (offset, (r, g, b)) with offsets rising from 0 to 1."""
    function = _colour_function(stops)
    extend = "[true true]"
    if radial:
        fx, fy, fr, cx, cy, r = coords
        shading = pdfdoc.PDFRadialShading(fx, fy, fr, cx, cy, r, Function=function, ColorSpace="DeviceRGB",
                                          Extend=extend)
    else:
        x1, y1, x2, y2 = coords
        shading = pdfdoc.PDFAxialShading(x1, y1, x2, y2, Function=function, ColorSpace="DeviceRGB", Extend=extend)
    canvas.shade(shading)


def _colour_function(stops: tuple) -> Any:
    """The PDF function from 0..1 to the stops' colours: linear between neighbouring stops."""
    if len(stops) == 2 and stops[0][0] == 0 and stops[1][0] == 1:
        return pdfdoc.PDFExponentialFunction(C0=list(stops[0][1]), C1=list(stops[1][1]), N=1)
    pieces = [pdfdoc.PDFExponentialFunction(C0=list(a[1]), C1=list(b[1]), N=1) for a, b in zip(stops, stops[1:])]
    bounds = [offset for offset, _ in stops[1:-1]]
    return pdfdoc.PDFStitchingFunction(pieces, bounds, [0, 1] * len(pieces), Domain="[0 1]")


# Every drawing operation by a stable name: the face cache stores a face's operations by these
# names (pnp.render.facedata; a new operation must be added here and there).
OPERATIONS: dict[str, Callable] = {
    "literal": _op_literal, "save": _op_save, "restore": _op_restore, "fill_alpha": _op_fill_alpha,
    "stroke_alpha": _op_stroke_alpha, "text": _op_text, "glyphs": _op_glyphs, "text_at": _op_text_at,
    "line_glyphs": _op_line_glyphs, "image": _op_image, "shade": _op_shade,
}


@dataclass(frozen=True)
class CompiledFace:
    """A parsed SVG face, ready to be drawn any number of times."""

    width: float                       # points
    height: float                      # points
    ops: tuple[tuple[Callable, tuple], ...]
    images: tuple[ImageUse, ...] = ()  # the raster art it draws, in drawing order

    def draw(self, canvas, x: float = 0.0, y: float = 0.0) -> None:
        """Draw with the bottom-left corner of the SVG viewport at (x, y); the canvas state is
        left as it was."""
        canvas.saveState()
        if x or y:
            canvas.addLiteral(_g("1 0 0 1 %.7g %.7g cm" % (x, y)))
        for op, args in self.ops:
            op(canvas, *args)
        canvas.restoreState()

    def define_form(self, canvas, name: str) -> None:
        """Define the face as a PDF form XObject `name` (show it with canvas.doForm(name)).

        Use this rather than beginForm/draw/endForm: ReportLab (5.x) leaves the ExtGState
        resources out of a form's resource dictionary, so every transparency inside a form is
        silently lost (viewers then draw fill-opacity/stroke-opacity as opaque). This is as true
        of svglib + renderPDF drawings as of ours; here the resources are put back."""
        canvas.beginForm(name, 0, 0, self.width, self.height)
        self.draw(canvas)
        shading = dict(canvas._shadingUsed)        # endForm forgets the form's gradients
        canvas.endForm()
        fix_form_resources(canvas, name, shading)


def fix_form_resources(canvas, name: str, shading: dict | None = None) -> None:
    """Give the form `name`, just ended with canvas.endForm(), its ExtGState resources and the
    shadings (gradients) it paints, taken from canvas._shadingUsed before endForm (see
    CompiledFace.define_form). Harmless for a form that uses neither."""
    form = canvas._doc.idToObject[pdfdoc.xObjectName(name)]
    states = getattr(form, "ExtGState", None)
    if form.Resources or not (states or shading):
        return
    resources = pdfdoc.PDFResourceDictionary()     # what PDFFormXObject.format would build...
    resources.basicFonts()
    resources.allProcs()
    if form.XObjects:
        resources.XObject = form.XObjects
    if states:
        resources.ExtGState = states               # ...plus the transparency states
    if shading:
        resources.setShading(shading)              # ...and the gradients
    form.Resources = resources


# --------------------------------------------------------------------------------------------
# Small parsers

# Numbers are written with "%.7g": short, and as precise as ReportLab's own output. PDF has no
# exponent notation, so the rare number that %g writes with one is rewritten in fixed point.
_EXPONENT = re.compile(r"[-+]?[0-9.]+e[-+][0-9]+")


def _fixed(match: re.Match) -> str:
    s = ("%.6f" % float(match.group())).rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _g(code: str) -> str:
    if "e-" in code or "e+" in code:
        return _EXPONENT.sub(_fixed, code)
    return code


def _unit(v: float) -> str:
    """A colour component in 0..1, short: 0, 1 or .xxxxxx"""
    s = ("%.6f" % v).rstrip("0").rstrip(".")
    return s[1:] if s.startswith("0.") else (s or "0")


_rgb_cache: dict[tuple, str] = {}


def _rgb(colour: tuple[float, ...], op: str) -> str:
    key = (colour, op)
    code = _rgb_cache.get(key)
    if code is None:
        code = _rgb_cache[key] = "%s %s %s %s" % (_unit(colour[0]), _unit(colour[1]), _unit(colour[2]), op)
    return code


_SVG_NS = "{http://www.w3.org/2000/svg}"
_XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
_XML_SPACE_ATTR = "{http://www.w3.org/XML/1998/namespace}space"
_URL = re.compile(r"url\(\s*#([^)\s]+)\s*\)\s*(.*)$")
_PERCENT = re.compile(r"\s*(" + r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?" + r")\s*%\s*$")
_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_NUMBER_RE = re.compile(_NUMBER)
_PATH_TOKEN = re.compile(r"[MmLlHhVvCcSsQqTtAaZz]|" + _NUMBER)
_PATH_JUNK = re.compile(r"[^MmLlHhVvCcSsQqTtAaZz0-9eE.,+\-\s]")
_LIST_SEP = re.compile(r"^[\s,]*$")
_TRANSFORM = re.compile(r"\s*([a-zA-Z]+)\s*\(([^)]*)\)\s*,?")
_LENGTH = re.compile(r"\s*(" + _NUMBER + r")\s*(px)?\s*$")
_ROOT_LENGTH = re.compile(r"\s*(" + _NUMBER + r")\s*(mm|cm|in|pt|pc|px)?\s*$")
_ROOT_UNITS = {None: 0.75, "px": 0.75, "pt": 1.0, "pc": 12.0, "in": PT_PER_IN, "mm": PT_PER_MM, "cm": 10 * PT_PER_MM}
_STYLE_DECL = re.compile(r"\s*([-a-zA-Z]+)\s*:\s*([^;]*?)\s*(?:;|$)")
_XML_SPACE = re.compile(r"[\n\r]")
_TEXT_SPACE = re.compile(r"[ \t]+")
_RGB_FUNC = re.compile(r"rgba?\(\s*([^)]*)\)$")
_KAPPA = 0.5522847498307936          # 4/3 (sqrt 2 - 1): quarter-circle Bézier handle length

_NAMED_COLOURS: dict[str, tuple[float, float, float]] = {
    name: (c.red, c.green, c.blue)
    for name, c in _rl_colors.getAllNamedColors().items() if name.islower() and name.isalpha()
}
_NAMED_COLOURS.pop("transparent", None)


def _describe(el: ET.Element) -> str:
    tag = _local(el.tag)
    attrs = " ".join(f'{k}="{v}"' for k, v in el.attrib.items())
    text = f"<{tag}{' ' if attrs else ''}{attrs}>"
    return text if len(text) <= 160 else text[:157] + "..."


_LOCAL: dict[str, str] = {}


def _local(tag: str) -> str:
    local = _LOCAL.get(tag)
    if local is None:
        local = _LOCAL[tag] = _local_name(tag)
    return local


def _local_name(tag: str) -> str:
    """The SVG element name; "" for an element of another namespace (an editor's own, such as
    Inkscape's sodipodi:namedview), which SVG viewers do not draw either."""
    if tag.startswith(_SVG_NS):
        return tag[len(_SVG_NS):]
    if tag.startswith("{"):
        return ""
    return tag


def _href(el: ET.Element) -> str | None:
    """An element's href (SVG 2) or xlink:href (SVG 1.1)."""
    value = el.attrib.get("href")
    return value if value is not None else el.attrib.get(_XLINK_HREF)


def _parse_xml(svg_text: str) -> ET.Element:
    """The root element; an xlink: prefix the text uses without declaring it (a template that
    writes xlink:href on a root that only declares SVG's namespace) is declared for it."""
    if "xlink:" in svg_text and "xmlns:xlink" not in svg_text:
        svg_text = re.sub(r"<svg\b", '<svg xmlns:xlink="http://www.w3.org/1999/xlink"', svg_text, count=1)
    try:
        return ET.fromstring(svg_text)
    except ET.ParseError as error:
        raise UnsupportedSvg(f"the SVG is not well-formed XML: {error}") from None


class _Bad(Exception):
    """Raised by value parsers; turned into UnsupportedSvg naming element and attribute."""


def _number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise _Bad(f"{text!r} is not a number") from None
    if not math.isfinite(value):
        raise _Bad(f"{text!r} is not a finite number")
    return value


def _length(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        pass
    m = _LENGTH.match(text)
    if not m:
        raise _Bad(f"{text!r} is not a length in user units (units other than px are not supported)")
    return float(m.group(1))


def _numbers(text: str) -> list[float]:
    values = _NUMBER_RE.findall(text)
    if not _LIST_SEP.match(_NUMBER_RE.sub("", text)):
        raise _Bad(f"{text!r} is not a list of numbers")
    return [float(v) for v in values]


_colour_cache: dict[str, tuple[float, float, float, float] | None] = {}


def _colour(text: str) -> tuple[float, float, float, float] | None:
    """(r, g, b, alpha) in 0..1, or None for `none`."""
    try:
        return _colour_cache[text]
    except KeyError:
        pass
    value = _parse_colour(text.strip())
    _colour_cache[text] = value
    return value


def _parse_colour(s: str) -> tuple[float, float, float, float] | None:
    if s == "none":
        return None
    if s.startswith("#"):
        h = s[1:]
        if len(h) in (3, 4):
            h = "".join(c + c for c in h)
        if len(h) in (6, 8):
            try:
                v = [int(h[i:i + 2], 16) / 255 for i in range(0, len(h), 2)]
            except ValueError:
                raise _Bad(f"{s!r} is not a colour") from None
            return (v[0], v[1], v[2], v[3] if len(v) == 4 else 1.0)
        raise _Bad(f"{s!r} is not a colour")
    m = _RGB_FUNC.match(s)
    if m:
        parts = [p.strip() for p in m.group(1).split(",")]
        if len(parts) not in (3, 4):
            raise _Bad(f"{s!r} is not a colour")
        try:
            rgb = [float(p[:-1]) / 100 if p.endswith("%") else float(p) / 255 for p in parts[:3]]
            alpha = 1.0 if len(parts) == 3 else (float(parts[3][:-1]) / 100 if parts[3].endswith("%")
                                                 else float(parts[3]))
        except ValueError:
            raise _Bad(f"{s!r} is not a colour") from None
        r, g, b, a = (min(1.0, max(0.0, c)) for c in (*rgb, alpha))
        return r, g, b, a
    named = _NAMED_COLOURS.get(s.lower())
    if named is not None:
        return (*named, 1.0)
    raise _Bad(f"{s!r} is not a supported colour (use #rrggbb, #rgb, rgb(), a colour name or none)")


@dataclass(frozen=True)
class _PaintUrl:
    """fill="url(#id) [fallback]": a gradient, drawn in the fallback colour when `id` is missing."""

    id: str
    fallback: tuple[float, float, float, float] | None | str      # "" when none is given


def _paint(text: str) -> Any:
    """A fill or stroke: a colour, None (`none`) or a _PaintUrl."""
    m = _URL.match(text.strip())
    if m is None:
        return _colour(text)
    fallback = m.group(2).strip()
    return _PaintUrl(m.group(1), _colour(fallback) if fallback else "")


def _coordinate(text: str) -> tuple[float, bool]:
    """A gradient coordinate: (value, True) for a percentage, else (user units, False)."""
    m = _PERCENT.match(text)
    if m:
        return float(m.group(1)) / 100, True
    return _length(text), False


def _offset(text: str) -> float:
    m = _PERCENT.match(text)
    value = float(m.group(1)) / 100 if m else _number(text.strip())
    return min(1.0, max(0.0, value))


def _opacity(text: str) -> float:
    text = text.strip()
    value = float(text[:-1]) / 100 if text.endswith("%") else _number(text)
    return min(1.0, max(0.0, value))


def _dasharray(text: str) -> tuple[float, ...] | None:
    text = text.strip()
    if text == "none":
        return None
    values = [_length(v) for v in re.split(r"[\s,]+", text) if v]
    if not values or any(v < 0 for v in values):
        raise _Bad(f"{text!r} is not a dash array")
    if not any(values):
        return None
    if len(values) % 2:
        values = values * 2
    return tuple(values)


def _choice(options: dict[str, Any]) -> Callable[[str], Any]:
    def parse(text: str) -> Any:
        try:
            return options[text.strip()]
        except KeyError:
            raise _Bad(f"{text!r} is not one of {', '.join(options)}") from None
    return parse


def _font_family(text: str) -> str:
    names = [n.strip().strip("'\"") for n in text.split(",")]
    for name in names:
        try:
            pdfmetrics.getFont(name)
        except Exception:          # not registered yet: the text layer registers its fonts on first use
            try:
                from pnp.text.fonts import register_font
                return register_font(name)
            except Exception:      # not a font the text layer knows either
                continue
        return name
    raise _Bad(f"no font registered with ReportLab as {text!r}")


def _positive_length(text: str) -> float:
    value = _length(text)
    if value < 0:
        raise _Bad(f"{text!r} is negative")
    return value


def _weight(text: str) -> bool:
    """font-weight: True for bold (bold, or 600 and above; bolder and lighter are refused)."""
    value = text.strip()
    if value in ("normal", "bold"):
        return value == "bold"
    if value.isdigit() and 1 <= int(value) <= 1000:
        return int(value) >= 600
    raise _Bad(f"{text!r} is not normal, bold or a weight from 1 to 1000")


_italic = _choice({"normal": False, "italic": True, "oblique": True})


def _styled_font(family: str, bold: bool, italic: bool) -> str | None:
    """The registered font of `family` in bold and/or italic: ReportLab's font family mapping
    (reportlab.lib.fonts.addMapping), else the name with its style suffix (PnpSans-Regular ->
    PnpSans-Bold, PnpSans-Italic, PnpSans-BoldItalic); None when neither is registered."""
    if not (bold or italic):
        return family
    try:
        mapped = tt2ps(family, int(bold), int(italic))
        if mapped != family:            # registerFont maps every style of a lone font to itself
            return mapped
    except ValueError:
        pass
    base = re.sub(r"-(Regular|Roman|Book|Normal)$", "", family)
    name = f"{base}-{'Bold' if bold else ''}{'Italic' if italic else ''}"
    for candidate in (name, name.replace("-BoldItalic", "-BoldOblique").replace("-Italic", "-Oblique")):
        try:
            pdfmetrics.getFont(candidate)
            return candidate
        except Exception:          # not registered with ReportLab (KeyError or its own errors)
            pass
        try:
            from pnp.text.fonts import register_font
            return register_font(candidate)
        except Exception:          # not a font the text layer knows either
            pass
    return None


_ALIGN = {"xMin": 0.0, "xMid": 0.5, "xMax": 1.0, "YMin": 0.0, "YMid": 0.5, "YMax": 1.0}


def _aspect(text: str) -> tuple[float, float, bool] | None:
    """preserveAspectRatio as (x alignment, y alignment: 0, .5 or 1; slice), None for `none`."""
    words = text.split()
    if words and words[0] == "defer":
        words = words[1:]
    if not words or len(words) > 2 or (len(words) == 2 and words[1] not in ("meet", "slice")):
        raise _Bad(f"{text!r} is not an alignment (xMidYMid, xMinYMax...) with meet or slice, or none")
    if words[0] == "none":
        return None
    align = words[0]
    if len(align) != 8 or align[:4] not in _ALIGN or align[4:] not in _ALIGN or align[4] != "Y":
        raise _Bad(f"{align!r} is not an alignment (xMinYMin, xMidYMid, xMaxYMax...)")
    return _ALIGN[align[:4]], _ALIGN[align[4:]], len(words) == 2 and words[1] == "slice"


def _fit(box: tuple[float, float, float, float], viewport: tuple[float, float, float, float],
         aspect: tuple[float, float, bool] | None) -> Matrix:
    """The matrix mapping `box` (x, y, w, h: a viewBox, an image's pixels) into `viewport` as
    preserveAspectRatio says (y down in both)."""
    bx, by, bw, bh = box
    vx, vy, vw, vh = viewport
    sx, sy = vw / bw, vh / bh
    tx = ty = 0.0
    if aspect is not None:
        ax, ay, slice_ = aspect
        sx = sy = max(sx, sy) if slice_ else min(sx, sy)
        tx, ty = (vw - bw * sx) * ax, (vh - bh * sy) * ay
    return (sx, 0.0, 0.0, sy, vx + tx - sx * bx, vy + ty - sy * by)


def _transform(text: str) -> tuple[float, ...] | None:
    """An SVG transform list as one matrix (a, b, c, d, e, f), or None for the identity."""
    pos, end = 0, len(text)
    m = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    identity = True
    while pos < end:
        match = _TRANSFORM.match(text, pos)
        if not match:
            if text[pos:].strip():
                raise _Bad(f"cannot read transform {text!r}")
            break
        pos = match.end()
        name, args = match.group(1), _numbers(match.group(2))
        n = len(args)
        t: Matrix
        if name == "matrix" and n == 6:
            t = (args[0], args[1], args[2], args[3], args[4], args[5])
        elif name == "translate" and n in (1, 2):
            t = (1.0, 0.0, 0.0, 1.0, args[0], args[1] if n == 2 else 0.0)
        elif name == "scale" and n in (1, 2):
            t = (args[0], 0.0, 0.0, args[1] if n == 2 else args[0], 0.0, 0.0)
        elif name == "rotate" and n in (1, 3):
            a = math.radians(args[0])
            c, s = math.cos(a), math.sin(a)
            if n == 3:
                cx, cy = args[1], args[2]
                t = (c, s, -s, c, cx - c * cx + s * cy, cy - s * cx - c * cy)
            else:
                t = (c, s, -s, c, 0.0, 0.0)
        elif name == "skewX" and n == 1:
            t = (1.0, 0.0, math.tan(math.radians(args[0])), 1.0, 0.0, 0.0)
        elif name == "skewY" and n == 1:
            t = (1.0, math.tan(math.radians(args[0])), 0.0, 1.0, 0.0, 0.0)
        else:
            raise _Bad(f"{name}({match.group(2)}) is not a supported transform")
        m = _multiply(m, t)
        identity = False
    return None if identity else m


Matrix = tuple[float, float, float, float, float, float]


def _multiply(m: Matrix, t: Matrix) -> Matrix:
    a, b, c, d, e, f = m
    A, B, C, D, E, F = t
    return (a * A + c * B, b * A + d * B, a * C + c * D, b * C + d * D, a * E + c * F + e, b * E + d * F + f)


# --------------------------------------------------------------------------------------------
# Path data

def _arc(x1: float, y1: float, rx: float, ry: float, phi_deg: float, large: bool, sweep: bool,
         x2: float, y2: float) -> list[tuple[float, float, float, float, float, float]]:
    """An SVG elliptical arc as cubic Béziers (SVG implementation notes, F.6)."""
    if x1 == x2 and y1 == y2:
        return []
    rx, ry = abs(rx), abs(ry)
    if rx == 0 or ry == 0:
        return [(x1, y1, x2, y2, x2, y2)]
    phi = math.radians(phi_deg % 360)
    cos_p, sin_p = math.cos(phi), math.sin(phi)
    dx, dy = (x1 - x2) / 2, (y1 - y2) / 2
    x1p = cos_p * dx + sin_p * dy
    y1p = -sin_p * dx + cos_p * dy
    lam = (x1p * x1p) / (rx * rx) + (y1p * y1p) / (ry * ry)
    if lam > 1:
        s = math.sqrt(lam)
        rx, ry = rx * s, ry * s
    num = rx * rx * ry * ry - rx * rx * y1p * y1p - ry * ry * x1p * x1p
    den = rx * rx * y1p * y1p + ry * ry * x1p * x1p
    coef = math.sqrt(max(0.0, num / den)) if den else 0.0
    if large == sweep:
        coef = -coef
    cxp = coef * rx * y1p / ry
    cyp = -coef * ry * x1p / rx
    cx = cos_p * cxp - sin_p * cyp + (x1 + x2) / 2
    cy = sin_p * cxp + cos_p * cyp + (y1 + y2) / 2
    ux, uy = (x1p - cxp) / rx, (y1p - cyp) / ry
    vx, vy = (-x1p - cxp) / rx, (-y1p - cyp) / ry
    theta1 = math.atan2(uy, ux)
    dtheta = math.atan2(ux * vy - uy * vx, ux * vx + uy * vy)
    if not sweep and dtheta > 0:
        dtheta -= 2 * math.pi
    elif sweep and dtheta < 0:
        dtheta += 2 * math.pi
    segments = max(1, math.ceil(abs(dtheta) / (math.pi / 2) - 1e-9))
    delta = dtheta / segments
    k = 4 / 3 * math.tan(delta / 4)
    out = []
    t = theta1
    cos_t, sin_t = math.cos(t), math.sin(t)
    for i in range(segments):
        t2 = t + delta
        cos_t2, sin_t2 = math.cos(t2), math.sin(t2)
        # derivative-scaled handles on the unit circle, then onto the rotated ellipse
        e1x, e1y = cos_t - k * sin_t, sin_t + k * cos_t
        e2x, e2y = cos_t2 + k * sin_t2, sin_t2 - k * cos_t2
        c1x = cx + rx * cos_p * e1x - ry * sin_p * e1y
        c1y = cy + rx * sin_p * e1x + ry * cos_p * e1y
        c2x = cx + rx * cos_p * e2x - ry * sin_p * e2y
        c2y = cy + rx * sin_p * e2x + ry * cos_p * e2y
        if i == segments - 1:
            ex, ey = x2, y2
        else:
            ex = cx + rx * cos_p * cos_t2 - ry * sin_p * sin_t2
            ey = cy + rx * sin_p * cos_t2 + ry * cos_p * sin_t2
        out.append((c1x, c1y, c2x, c2y, ex, ey))
        t, cos_t, sin_t = t2, cos_t2, sin_t2
    return out


# Curve commands -> the commands after which S / T reflect the previous control point
_CURVES = {"C": ("C", "S"), "S": ("C", "S"), "Q": ("Q", "T"), "T": ("Q", "T")}

_ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}


def _point(toks: list[str], i: int, rel: bool, x: float, y: float) -> tuple[float, float]:
    """The coordinate pair at toks[i], toks[i + 1]; a relative one (lower-case command) is
    offset by the current point (x, y)."""
    px, py = float(toks[i]), float(toks[i + 1])
    if rel:
        return px + x, py + y
    return px, py


def _path(d: str) -> tuple[str, bool]:
    """PDF path-construction operators for SVG path data ('' when nothing is drawn), and whether
    the path can enclose an area: a path whose every subpath is a single straight segment cannot,
    and is not filled (PDF viewers would paint such a zero-area fill as a hairline)."""
    junk = _PATH_JUNK.search(d)
    if junk:
        raise _Bad(f"unexpected character {junk.group()!r} in path data")
    toks = _PATH_TOKEN.findall(d)
    out: list[str] = []
    put = out.append
    x = y = sx = sy = 0.0
    kx = ky = 0.0                      # last control point: cubic second / quadratic
    prev = ""                            # previous command (upper case), for S and T
    cmd = ""
    open_move = False                    # a subpath was closed: the next segment needs an explicit m
    drawn = False
    area = False
    segments = 0                         # straight segments in the current subpath
    i, n = 0, len(toks)
    try:
        while i < n:
            t = toks[i]
            if t[0].isalpha():
                cmd = t
                i += 1
                if cmd in "Zz":
                    put("h")
                    x, y = sx, sy
                    prev, open_move = "Z", True
                    continue
            elif not cmd or cmd in "Zz":
                raise _Bad(f"number {t!r} without a command in path data")
            up = cmd.upper()
            rel = cmd != up
            if up == "M":
                nx, ny = _point(toks, i, rel, x, y)
                i += 2
                x = sx = nx
                y = sy = ny
                put("%.7g %.7g m" % (x, y))
                cmd = "l" if rel else "L"
                prev, open_move, segments = "M", False, 0
                continue
            if not out:
                raise _Bad("path data must start with M or m")
            if open_move:
                put("%.7g %.7g m" % (x, y))
                open_move, segments = False, 0
            drawn = True
            if up in "LHV":
                segments += 1
                if segments > 1:
                    area = True
            else:
                area = True
            if up == "L":
                nx, ny = _point(toks, i, rel, x, y)
                i += 2
                x, y = nx, ny
                put("%.7g %.7g l" % (x, y))
            elif up == "H":
                nx = float(toks[i])
                i += 1
                x = nx + x if rel else nx
                put("%.7g %.7g l" % (x, y))
            elif up == "V":
                ny = float(toks[i])
                i += 1
                y = ny + y if rel else ny
                put("%.7g %.7g l" % (x, y))
            elif up in _CURVES:
                if up == "C" or up == "Q":
                    ax, ay = _point(toks, i, rel, x, y)
                    i += 2
                elif prev in _CURVES[up]:       # S / T: the previous control point reflected
                    ax, ay = 2 * x - kx, 2 * y - ky
                else:
                    ax, ay = x, y
                if up == "C" or up == "S":
                    bx, by = _point(toks, i, rel, x, y)
                    nx, ny = _point(toks, i + 2, rel, x, y)
                    i += 4
                    put("%.7g %.7g %.7g %.7g %.7g %.7g c" % (ax, ay, bx, by, nx, ny))
                    kx, ky = bx, by
                else:
                    nx, ny = _point(toks, i, rel, x, y)
                    i += 2
                    put("%.7g %.7g %.7g %.7g %.7g %.7g c" % (x + 2 / 3 * (ax - x), y + 2 / 3 * (ay - y),
                                                             nx + 2 / 3 * (ax - nx), ny + 2 / 3 * (ay - ny), nx, ny))
                    kx, ky = ax, ay
                x, y = nx, ny
            elif up == "A":
                rx, ry, rot = float(toks[i]), float(toks[i + 1]), float(toks[i + 2])
                i += 3
                flags: list[bool] = []
                while len(flags) < 2:          # flags may be written without separators: "a5 5 0 013 4"
                    t = toks[i]
                    if t[0] not in "01":
                        raise _Bad(f"arc flag must be 0 or 1, not {t!r}")
                    flags.append(t[0] == "1")
                    if len(t) > 1:
                        toks[i] = t[1:]
                    else:
                        i += 1
                nx, ny = _point(toks, i, rel, x, y)
                i += 2
                for seg in _arc(x, y, rx, ry, rot, flags[0], flags[1], nx, ny):
                    put("%.7g %.7g %.7g %.7g %.7g %.7g c" % seg)
                x, y = nx, ny
            prev = up
    except (IndexError, ValueError):
        raise _Bad(f"path data ends early or has a misplaced value near command {cmd!r}") from None
    return ("\n".join(out), area) if drawn else ("", False)


# --------------------------------------------------------------------------------------------
# Compiled path code as data: for clip paths (mapped into one space, turned one way) and for the
# bounding box a gradient in objectBoundingBox units spans.

Point = tuple[float, float]
# a subpath: its start, its segments (a line: (end,); a cubic: (control 1, control 2, end)), closed
Subpath = tuple[Point, list[tuple[Point, ...]], bool]


def _subpaths(code: str) -> list[Subpath]:
    """The subpaths of path-construction code as geometry() and _path() write it (m l c re h)."""
    out: list[Subpath] = []
    numbers: list[float] = []
    start: Point = (0.0, 0.0)
    segments: list[tuple[Point, ...]] = []
    closed = False
    current: Point = start

    def finish() -> None:
        if segments:
            out.append((start, list(segments), closed))

    for token in code.split():
        if token not in ("m", "l", "c", "re", "h"):
            numbers.append(float(token))
            continue
        if token == "m" or token == "re":
            finish()
            segments, closed = [], False
        if token == "m":
            start = current = (numbers[0], numbers[1])
        elif token == "re":
            x, y, w, h = numbers
            start = (x, y)
            segments = [((x + w, y),), ((x + w, y + h),), ((x, y + h),)]
            closed = True
            current = start
        elif token == "l":
            current = (numbers[0], numbers[1])
            segments.append((current,))
        elif token == "c":
            current = (numbers[4], numbers[5])
            segments.append(((numbers[0], numbers[1]), (numbers[2], numbers[3]), current))
        else:
            closed = True
            current = start
        numbers = []
    finish()
    return out


def _apply(m: Matrix, p: Point) -> Point:
    return (m[0] * p[0] + m[2] * p[1] + m[4], m[1] * p[0] + m[3] * p[1] + m[5])


def _mapped(sub: Subpath, m: Matrix) -> Subpath:
    start, segments, closed = sub
    return _apply(m, start), [tuple(_apply(m, p) for p in seg) for seg in segments], closed


def _reversed(sub: Subpath) -> Subpath:
    """The same outline run the other way."""
    start, segments, closed = sub
    points = [start] + [seg[-1] for seg in segments]
    out: list[tuple[Point, ...]] = []
    for i in range(len(segments) - 1, -1, -1):
        seg = segments[i]
        out.append((points[i],) if len(seg) == 1 else (seg[1], seg[0], points[i]))
    return points[-1], out, closed


def _signed_area(sub: Subpath) -> float:
    """Twice the signed area the closed outline encloses (curves flattened finely enough to tell
    which way it runs)."""
    start, segments, _ = sub
    points = [start]
    for seg in segments:
        if len(seg) == 1:
            points.append(seg[0])
            continue
        p0 = points[-1]
        for k in range(1, 17):
            t = k / 16
            u = 1 - t
            x, y = (u * u * u * a + 3 * u * u * t * b + 3 * u * t * t * c + t * t * t * d
                    for a, b, c, d in zip(p0, seg[0], seg[1], seg[2]))
            points.append((x, y))
    return sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1]))


def _code(subs: list[Subpath]) -> str:
    parts = []
    for start, segments, closed in subs:
        parts.append("%.7g %.7g m" % start)
        for seg in segments:
            parts.append(("%.7g %.7g l" % seg[0]) if len(seg) == 1 else
                         "%.7g %.7g %.7g %.7g %.7g %.7g c" % (*seg[0], *seg[1], *seg[2]))
        if closed:
            parts.append("h")
    return _g("\n".join(parts))


def _bbox(code: str) -> tuple[float, float, float, float] | None:
    """The exact bounding box (x, y, w, h) of path code, curves included; None when it is empty."""
    xs: list[float] = []
    ys: list[float] = []
    for start, segments, _ in _subpaths(code):
        current = start
        xs.append(start[0])
        ys.append(start[1])
        for seg in segments:
            if len(seg) == 3:
                for axis, values in ((0, xs), (1, ys)):
                    values.extend(_cubic_extremes(current[axis], seg[0][axis], seg[1][axis], seg[2][axis]))
            current = seg[-1]
            xs.append(current[0])
            ys.append(current[1])
    if not xs:
        return None
    return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)


def _cubic_extremes(a: float, b: float, c: float, d: float) -> list[float]:
    """The values of a cubic Bézier coordinate where its derivative is zero inside (0, 1)."""
    qa, qb, qc = -a + 3 * b - 3 * c + d, 2 * (a - 2 * b + c), b - a     # derivative / 3
    if abs(qa) < 1e-12:
        roots = [-qc / qb] if abs(qb) > 1e-12 else []
    else:
        disc = qb * qb - 4 * qa * qc
        roots = [] if disc < 0 else [(-qb + sign * math.sqrt(disc)) / (2 * qa) for sign in (1, -1)]
    out = []
    for t in roots:
        if 0 < t < 1:
            u = 1 - t
            out.append(u * u * u * a + 3 * u * u * t * b + 3 * u * t * t * c + t * t * t * d)
    return out


# --------------------------------------------------------------------------------------------
# The compiler

# Inherited presentation properties: attribute -> (style key, parser)
_INHERITED: dict[str, tuple[str, Callable[[str], Any]]] = {
    "fill": ("fill", _paint),
    "fill-opacity": ("fill_opacity", _opacity),
    "fill-rule": ("evenodd", _choice({"nonzero": False, "evenodd": True})),
    "stroke": ("stroke", _paint),
    "stroke-opacity": ("stroke_opacity", _opacity),
    "stroke-width": ("stroke_width", _positive_length),
    "stroke-linecap": ("linecap", _choice({"butt": 0, "round": 1, "square": 2})),
    "stroke-linejoin": ("linejoin", _choice({"miter": 0, "round": 1, "bevel": 2})),
    "stroke-miterlimit": ("miterlimit", _number),
    "stroke-dasharray": ("dasharray", _dasharray),
    "stroke-dashoffset": ("dashoffset", _length),
    "font-family": ("font_family", _font_family),
    "font-size": ("font_size", _positive_length),
    "text-anchor": ("text_anchor", _choice({"start": "start", "middle": "middle", "end": "end"})),
    "font-weight": ("bold", _weight),
    "font-style": ("italic", _italic),
    "visibility": ("visible", _choice({"visible": True, "hidden": False, "collapse": False})),
    "clip-rule": ("clip_evenodd", _choice({"nonzero": False, "evenodd": True})),
}
# Not inherited
_OWN: dict[str, Callable[[str], Any]] = {
    "opacity": _opacity,
    "display": _choice({"none": "none", "inline": "inline", "block": "inline"}),
    "clip-path": lambda text: None if text.strip() == "none" else _clip_reference(text),
}


def _clip_reference(text: str) -> str:
    m = _URL.match(text.strip())
    if m is None or m.group(2):
        raise _Bad(f"{text!r} is not url(#id) or none")
    return m.group(1)


# Stop properties (on <stop> only)
_STOP: dict[str, Callable[[str], Any]] = {"stop-color": _colour, "stop-opacity": _opacity, "offset": _offset}

_INITIAL = {
    "fill": (0.0, 0.0, 0.0, 1.0), "fill_opacity": 1.0, "evenodd": False,
    "stroke": None, "stroke_opacity": 1.0, "stroke_width": 1.0, "linecap": 0, "linejoin": 0,
    "miterlimit": 4.0, "dasharray": None, "dashoffset": 0.0,
    "font_family": None, "font_size": 16.0, "text_anchor": "start", "bold": False,
    "italic": False, "visible": True, "clip_evenodd": False,
}

_GEOMETRY = {
    "svg": {"width", "height", "viewBox", "preserveAspectRatio", "version", "x", "y"},
    "g": {"aria-label"},          # aria-label: the group's text (a shaped line's; see _Compiler.group)
    "rect": {"x", "y", "width", "height", "rx", "ry"},
    "circle": {"cx", "cy", "r"},
    "ellipse": {"cx", "cy", "rx", "ry"},
    "line": {"x1", "y1", "x2", "y2"},
    "polyline": {"points"},
    "polygon": {"points"},
    "path": {"d"},
    "text": {"x", "y", "direction", "unicode-bidi"},   # direction/unicode-bidi: read by _Compiler.text
    "tspan": {"x", "y", "dx", "dy"},
    "use": {"x", "y", "href"},
    "image": {"x", "y", "width", "height", "href", "preserveAspectRatio"},
}
# Drawn only where a reference (fill="url(#id)", clip-path="url(#id)") names them
_REFERENCED = {"clipPath", "linearGradient", "radialGradient"}
_GRADIENT_ATTRIBUTES = {
    "linearGradient": {"x1", "y1", "x2", "y2"},
    "radialGradient": {"cx", "cy", "r", "fx", "fy", "fr"},
}
_GRADIENT_COMMON = {"gradientUnits", "gradientTransform", "spreadMethod", "href", "id"}
_SHAPES = {"rect", "circle", "ellipse", "line", "polyline", "polygon", "path"}
_VALUES: dict[tuple[str, str], Any] = {}     # (attribute, text) -> parsed inherited property
_TRANSFORMS: dict[str, Any] = {}             # transform text -> matrix or None
_MISSING = object()
_INHERIT = object()
_IGNORED_ELEMENTS = {"title", "desc", "metadata"}
# id: a name for references; class: without style sheets (<style> is refused) it styles nothing
_IGNORED_ATTRIBUTES = {"id", "class", _XML_SPACE_ATTR}


@dataclass(eq=False)
class _Piece:
    """A run of a <text>'s characters in one style (the text, a tspan's text, a tail)."""

    el: ET.Element
    x: float | None = None
    y: float | None = None
    dx: float = 0.0
    dy: float = 0.0
    raw: str = ""
    preserve: bool = False
    text: str = ""
    font: str = ""
    size: float = 0.0
    fill: tuple[float, float, float, float] | None = None
    alpha: float = 0.0
    anchor: str = "start"
    visible: bool = True
    at: tuple[float, float] = (0.0, 0.0)

    def width(self) -> float:
        return pdfmetrics.stringWidth(self.text, self.font, self.size) if self.text else 0.0


def _collapse(pieces: list[_Piece]) -> None:
    """SVG's white space handling (xml:space="default") across a text's pieces: newlines
    removed, tabs made spaces, runs of spaces made one, none at the start or the end."""
    after_space = True
    for p in pieces:
        if p.preserve:
            p.text = p.raw.replace("\n", " ").replace("\r", " ").replace("\t", " ")
        else:
            p.text = _TEXT_SPACE.sub(" ", _XML_SPACE.sub("", p.raw).replace("\t", " "))
            if after_space and p.text.startswith(" "):
                p.text = p.text[1:]
        if p.text:
            after_space = p.text.endswith(" ")
    for p in reversed(pieces):
        if p.text and not p.preserve:
            p.text = p.text.rstrip(" ")
        if p.text or p.preserve:
            break


@dataclass(frozen=True)
class _Gradient:
    """A gradient as the shading op draws it: coordinates in the gradient's own space (the
    bounding box's when `bounding_box`), stops rising from offset 0 to 1 with opaque colours,
    their common opacity; `solid` is the one colour (or None) of a gradient that paints one."""

    radial: bool
    bounding_box: bool
    transform: Matrix | None
    coords: tuple[float, ...]                      # linear: x1 y1 x2 y2; radial: fx fy fr cx cy r
    stops: tuple[tuple[float, tuple[float, float, float]], ...]
    opacity: float
    solid: Any = _MISSING

    @classmethod
    def of(cls, compiler: _Compiler, el: ET.Element, attrs: dict[str, str], stop_elements: list[ET.Element]
           ) -> _Gradient:
        radial = _local(el.tag) == "radialGradient"
        units = attrs.get("gradientUnits", "objectBoundingBox").strip()
        if units not in ("objectBoundingBox", "userSpaceOnUse"):
            raise UnsupportedSvg(f"{_describe(el)}: gradientUnits={units!r} is not objectBoundingBox or userSpaceOnUse")
        spread = attrs.get("spreadMethod", "pad").strip()
        if spread != "pad":
            raise UnsupportedSvg(f"{_describe(el)}: spreadMethod={spread!r} is not supported (only pad)")
        transform = None
        if "gradientTransform" in attrs:
            transform = compiler.parsed(el, "gradientTransform", _transform, attrs["gradientTransform"])
        stops = [compiler.stop(stop) for stop in stop_elements]
        if not stops:
            return cls(radial, False, None, (), (), 1.0, None)
        for i in range(1, len(stops)):                     # SVG: an offset below the one before is raised to it
            stops[i] = (max(stops[i][0], stops[i - 1][0]), stops[i][1])
        alphas = {round(colour[3], 4) for _, colour in stops}
        if len(alphas) > 1:
            raise UnsupportedSvg(f"{_describe(el)}: stops of different opacity are not supported (a PDF "
                                 "gradient is opaque): give every stop the same stop-opacity")
        last = stops[-1][1]
        if len(stops) == 1:
            return cls(radial, False, None, (), (), 1.0, stops[0][1])
        box = units == "objectBoundingBox"
        coords = compiler.gradient_coords(el, attrs, radial, box)
        if (not radial and coords[:2] == coords[2:]) or (radial and coords[5] <= 0):
            return cls(radial, box, transform, coords, (), 1.0, last)     # SVG: the last stop's colour
        return cls(radial, box, transform, coords, _pdf_stops(stops), stops[0][1][3])


def _pdf_stops(stops: list[tuple[float, tuple[float, float, float, float]]]) -> tuple[tuple[float, tuple[float, float, float]], ...]:
    """Stops from offset 0 to 1 exactly (the first and last colours held before and after, as
    SVG pads), each above the one before (a hard edge: a millionth apart)."""
    out: list[tuple[float, tuple[float, float, float]]] = []
    for offset, colour in stops:
        rgb = (colour[0], colour[1], colour[2])
        if out and offset <= out[-1][0]:
            if offset >= 1.0:
                continue                              # only the first stop at 1 counts
            if out[-1][0] == 0.0 and offset == 0.0:
                out[-1] = (0.0, rgb)                  # of stops at 0, the last counts
                continue
            offset = out[-1][0] + 1e-6
        out.append((offset, rgb))
    if out[0][0] > 0:
        out.insert(0, (0.0, out[0][1]))
    if out[-1][0] < 1:
        out.append((1.0, out[-1][1]))
    return tuple(out)


def _declarations_of(el: ET.Element, text: str, known: Any) -> list[tuple[str, str]]:
    """The (property, value) pairs of a style="..." attribute; a property not in `known` is refused."""
    out = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = _STYLE_DECL.match(text, pos)
        if not m or m.end() == pos:
            raise UnsupportedSvg(f"{_describe(el)}: cannot read style {text!r}")
        name = m.group(1)
        if name not in known:
            raise UnsupportedSvg(f"{_describe(el)}: style property {name!r} is not supported")
        out.append((name, m.group(2)))
        pos = m.end()
    return out


_STYLE_PROPERTIES = {*_INHERITED, *_OWN}


class _Compiler:
    def __init__(self, art: Callable[[str], Any] | None = None) -> None:
        self.ops: list[tuple[Callable, tuple]] = []
        self.code: list[str] = []                 # literal PDF operators not yet flushed into ops
        self.pdf: dict[str, Any] = {}             # PDF graphics state known at this point
        self.stack: list[tuple[dict[str, Any], Matrix]] = []
        self.area = True                          # the last geometry can enclose an area
        self.matrix: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)   # user space -> face points, as drawn
        self.art = art                            # href -> pnp.render.art.RasterArt | SvgArt
        self.art_stack: list[str] = []            # SVG art being inlined, outermost first
        self.images: list[ImageUse] = []
        self.ids: dict[str, ET.Element] = {}      # the elements of the document being compiled, by id
        self.viewport = (0.0, 0.0, 1.0, 1.0)      # its viewBox, for percentages
        self.use_stack: list[str] = []            # the ids <use> is drawing, outermost first
        self.used = 0                             # elements drawn through <use>
        self.clips: dict[tuple[int, str], tuple[str, bool]] = {}
        self.in_label = False                     # inside a <g aria-label>: its /ActualText span

    # ---- output
    def flush(self) -> None:
        if self.code:
            self.ops.append((_op_literal, ("\n".join(self.code),)))
            self.code = []

    def api(self, op: Callable, *args: Any) -> None:
        self.flush()
        self.ops.append((op, args))

    def save(self) -> None:
        self.api(_op_save)
        self.stack.append((self.pdf, self.matrix))
        self.pdf = dict(self.pdf)

    def restore(self) -> None:
        self.api(_op_restore)
        self.pdf, self.matrix = self.stack.pop()

    def concat(self, m: Matrix) -> None:
        self.code.append(_g("%.7g %.7g %.7g %.7g %.7g %.7g cm" % m))
        self.matrix = _multiply(self.matrix, m)

    def state(self, key: str, code: str) -> None:
        if self.pdf.get(key) != code:
            self.pdf[key] = code
            self.code.append(code)

    def alpha(self, key: str, op: Callable, value: float) -> None:
        if self.pdf.get(key) != value:
            self.pdf[key] = value
            self.api(op, value)

    # ---- documents: the face, and each SVG art file it inlines
    def index(self, root: ET.Element) -> dict[str, ET.Element]:
        """The document's elements by id (the first of a repeated id, as browsers take it); a
        style sheet anywhere is refused, since it would restyle what is drawn."""
        ids: dict[str, ET.Element] = {}
        for el in root.iter():
            if not isinstance(el.tag, str):
                continue                            # a comment or processing instruction
            if _local(el.tag) == "style":
                raise UnsupportedSvg(f"{_describe(el)}: <style> sheets are not supported; give the "
                                     "properties as attributes or in style=\"...\"")
            ident = el.attrib.get("id")
            if ident is not None:
                ids.setdefault(ident, el)
        return ids

    # ---- walking
    def element(self, el: ET.Element, style: dict[str, Any], depth: int = 1) -> None:
        try:
            self._element(el, style, depth)
        except UnsupportedSvg as error:
            if error.element is None:
                error.element = el          # the innermost element: the one at fault
            raise

    def _element(self, el: ET.Element, style: dict[str, Any], depth: int) -> None:
        if not isinstance(el.tag, str):
            return
        tag = _local(el.tag)
        if depth > MAX_GROUP_DEPTH:
            raise UnsupportedSvg(f"{_describe(el)}: elements nested more than {MAX_GROUP_DEPTH} deep")
        if tag in _IGNORED_ELEMENTS or not tag:
            return
        if tag == "defs" or tag in _REFERENCED:
            return              # drawn where <use>, fill or clip-path names them
        geometry = _GEOMETRY.get(tag)
        if geometry is None or tag in ("svg", "tspan"):
            raise UnsupportedSvg(f"{_describe(el)}: element <{tag}> is not supported")
        if self.use_stack:
            self.used += 1
            if self.used > MAX_USE_ELEMENTS:
                raise UnsupportedSvg(f"{_describe(el)}: <use> draws more than {MAX_USE_ELEMENTS:,} elements "
                                     "in one face (uses of uses multiply)")
        own: dict[str, Any] = {}
        style = self.styled(el, tag, style, geometry, own)
        if own.get("display") == "none":
            return
        transform = self.transform_of(el)
        opacity = own.get("opacity", 1.0)
        if tag == "g" and opacity != 1.0:
            raise UnsupportedSvg(f"{_describe(el)}: attribute opacity on <g> is not supported (it needs "
                                 "a transparency group); use fill-opacity/stroke-opacity on the shapes")
        geom = ""
        if tag in _SHAPES:
            if len(el) and any(isinstance(child.tag, str) and _local(child.tag) for child in el):
                raise UnsupportedSvg(f"{_describe(el)}: child elements of <{tag}> are not supported")
            if not style["visible"]:
                return
            geom = self.geometry(el, tag)
            if not geom:
                return
        elif tag in ("use", "image") and len(el) and any(isinstance(c.tag, str) and _local(c.tag) for c in el):
            raise UnsupportedSvg(f"{_describe(el)}: child elements of <{tag}> are not supported")
        clip = own.get("clip-path")
        wrapped = bool(transform) or clip is not None
        if wrapped:
            self.save()
            if transform:
                self.concat(transform)
            if clip is not None and not self.clip(el, clip):
                self.restore()                      # an empty clip path: nothing of it shows
                return
        if tag == "g":
            self.group(el, style, depth)
        elif tag == "text":
            self.text(el, style, opacity)
        elif tag == "use":
            self.use(el, style, depth)
        elif tag == "image":
            self.image(el, style, opacity, depth)
        else:
            self.paint(el, geom, style, opacity, self.area and tag != "line")
        if wrapped:
            self.restore()

    def group(self, el: ET.Element, style: dict[str, Any], depth: int) -> None:
        """A <g>'s children; a <g aria-label="..."> (pnp.render.textbox wraps each shaped line in
        one) is drawn inside one marked-content span whose /ActualText is the label, in the order
        pnp.text.actualtext gives it, so copying the line gives its characters in logical order.
        Spans do not nest: inside one, inner labels and runs add none. Its shaped runs are drawn
        under the group's own CTM (_op_line_glyphs): poppler places the span's text with the CTM in
        force at EMC, so a run's `cm` inside the span would move its text elsewhere, off the page on
        a card turned on the sheet."""
        label = el.attrib.get("aria-label")
        if label is None or self.in_label:
            for child in el:
                self.element(child, style, depth + 1)
            return
        from pnp.text import actualtext

        self.save()                 # the runs' colours stay inside; the CTM stays the span's
        self.code.append(actualtext.begin(label))
        self.in_label = True
        try:
            for child in el:
                self.element(child, style, depth + 1)
        finally:
            self.in_label = False
        self.code.append(actualtext.END)
        self.restore()

    def transform_of(self, el: ET.Element) -> Matrix | None:
        text = el.attrib.get("transform")
        if text is None:
            return None
        transform = _TRANSFORMS.get(text, _MISSING)
        if transform is _MISSING:
            transform = _TRANSFORMS[text] = self.parsed(el, "transform", _transform, text)
        return transform

    def referenced(self, el: ET.Element, attribute: str, ident: str, tags: set[str]) -> ET.Element:
        target = self.ids.get(ident)
        if target is None:
            raise UnsupportedSvg(f"{_describe(el)}: attribute {attribute!r}: no element has id {ident!r}")
        tag = _local(target.tag)
        if tag not in tags:
            raise UnsupportedSvg(f"{_describe(el)}: attribute {attribute!r}: #{ident} is a <{tag}>, "
                                 f"not a {' or '.join(f'<{t}>' for t in sorted(tags))}")
        return target

    # ---- <use>
    def use(self, el: ET.Element, style: dict[str, Any], depth: int) -> None:
        href = _href(el)
        if href is None or not href.startswith("#"):
            raise UnsupportedSvg(f"{_describe(el)}: <use> names an element of this drawing (href=\"#id\"); "
                                 "to draw an SVG file of the pack use <image href=\"art/....svg\">")
        ident = href[1:]
        target = self.ids.get(ident)
        if target is None:
            raise UnsupportedSvg(f"{_describe(el)}: no element has id {ident!r}")
        tag = _local(target.tag)
        if tag in _REFERENCED or tag in ("defs", "svg", "symbol", "stop", "tspan") or not tag:
            raise UnsupportedSvg(f"{_describe(el)}: <use> of a <{tag or target.tag}> is not supported "
                                 "(only shapes, groups, text, images and other uses)")
        if ident in self.use_stack:
            raise UnsupportedSvg(f"{_describe(el)}: #{ident} uses itself (through "
                                 f"{' -> '.join('#' + i for i in [*self.use_stack[self.use_stack.index(ident):], ident])})")
        x, y = self.number(el, "x"), self.number(el, "y")
        self.use_stack.append(ident)
        if x or y:
            self.save()
            self.concat((1.0, 0.0, 0.0, 1.0, x, y))
        self.element(target, style, depth + 1)
        if x or y:
            self.restore()
        self.use_stack.pop()

    # ---- clip-path="url(#id)"
    def clip(self, el: ET.Element, ident: str) -> bool:
        """Clip to the clipPath `ident` in the current user space; False when it is empty."""
        key = (id(self.ids), ident)
        if key not in self.clips:
            self.clips[key] = self.clip_code(self.referenced(el, "clip-path", ident, {"clipPath"}))
        code, evenodd = self.clips[key]
        if not code:
            return False
        self.code.append(code)
        self.code.append("W* n" if evenodd else "W n")
        return True

    def clip_code(self, clip: ET.Element) -> tuple[str, bool]:
        """A clipPath's outline as path code in the user space of what it clips, and its rule.
        Several children clip to their union: each is one closed outline, all turned the same way
        so that the nonzero rule adds them up (one child keeps its own clip-rule, holes and all)."""
        own: dict[str, Any] = {}
        style = self.styled(clip, "clipPath", dict(_INITIAL), {"clipPathUnits", "transform"}, own)
        units = clip.attrib.get("clipPathUnits", "userSpaceOnUse").strip()
        if units != "userSpaceOnUse":
            raise UnsupportedSvg(f"{_describe(clip)}: clipPathUnits={units!r} is not supported (only userSpaceOnUse)")
        if own.get("clip-path") is not None:
            raise UnsupportedSvg(f"{_describe(clip)}: a clip path clipped by another is not supported")
        base = self.transform_of(clip) or (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
        outlines: list[tuple[list[Subpath], bool, ET.Element]] = []
        for child in clip:
            found = self.clip_child(child, style, base, 0)
            if found is not None:
                outlines.append(found)
        if len(outlines) == 1:
            subs, evenodd, _ = outlines[0]
            return _code(subs), evenodd
        union: list[Subpath] = []
        for subs, _, child in outlines:
            if len(subs) != 1:
                raise UnsupportedSvg(f"{_describe(child)}: in a <clipPath> of several shapes each must be one "
                                     "closed outline (or give the clip path this one shape alone)")
            sub = subs[0]
            union.append(_reversed(sub) if _signed_area(sub) < 0 else sub)
        return _code(union), False

    def clip_child(self, child: ET.Element, style: dict[str, Any], base: Matrix, uses: int
                   ) -> tuple[list[Subpath], bool, ET.Element] | None:
        if not isinstance(child.tag, str):
            return None
        tag = _local(child.tag)
        if tag in _IGNORED_ELEMENTS or not tag:
            return None
        if tag not in _SHAPES and tag != "use":
            raise UnsupportedSvg(f"{_describe(child)}: <{tag}> in a <clipPath> is not supported "
                                 "(shapes, paths and <use> of them only)")
        own: dict[str, Any] = {}
        child_style = self.styled(child, tag, style, _GEOMETRY[tag], own)
        if own.get("clip-path") is not None:
            raise UnsupportedSvg(f"{_describe(child)}: clip-path inside a <clipPath> is not supported")
        if own.get("display") == "none" or not child_style["visible"]:
            return None
        m = _multiply(base, self.transform_of(child) or (1.0, 0.0, 0.0, 1.0, 0.0, 0.0))
        if tag == "use":
            href = _href(child) or ""
            if uses > 8 or not href.startswith("#"):
                raise UnsupportedSvg(f"{_describe(child)}: <use> in a <clipPath> names a shape (href=\"#id\")")
            target = self.referenced(child, "href", href[1:], _SHAPES | {"use"})
            m = _multiply(m, (1.0, 0.0, 0.0, 1.0, self.number(child, "x"), self.number(child, "y")))
            return self.clip_child(target, child_style, m, uses + 1)
        geom = self.geometry(child, tag)
        if not geom or not self.area:
            return None
        return [_mapped(sub, m) for sub in _subpaths(geom)], child_style["clip_evenodd"], child

    def stop(self, el: ET.Element) -> tuple[float, tuple[float, float, float, float]]:
        """A <stop>'s offset and colour, its stop-opacity folded into the colour's alpha."""
        if _local(el.tag) != "stop":
            raise UnsupportedSvg(f"{_describe(el)}: <{_local(el.tag)}> in a gradient is not supported (only <stop>)")
        values: dict[str, Any] = {"offset": 0.0, "stop-color": (0.0, 0.0, 0.0, 1.0), "stop-opacity": 1.0}
        items: list[tuple[str, str]] = list(el.attrib.items())
        if "style" in el.attrib:
            items += [(name, value) for name, value in _declarations_of(el, el.attrib["style"], _STOP)]
        for name, value in items:
            if name in _STOP:
                values[name] = self.parsed(el, name, _STOP[name], value)
            elif name not in ("style", "id", "class") and not name.startswith("{"):
                raise UnsupportedSvg(f"{_describe(el)}: attribute {name!r} is not supported on <stop>")
        colour = values["stop-color"]
        if colour is None:
            raise UnsupportedSvg(f"{_describe(el)}: stop-color 'none' is not a colour")
        return values["offset"], (colour[0], colour[1], colour[2], colour[3] * values["stop-opacity"])

    def gradient_coords(self, el: ET.Element, attrs: dict[str, str], radial: bool, box: bool) -> tuple[float, ...]:
        """The gradient's geometry in its space: fractions of the box, or user units (a percentage
        of the viewport, as SVG says)."""
        vw, vh = self.viewport[2], self.viewport[3]
        scale = {"x": vw, "y": vh, "r": math.sqrt((vw * vw + vh * vh) / 2)}

        def value(name: str, default: str, axis: str) -> float:
            number, percent = self.parsed(el, name, _coordinate, attrs.get(name, default))
            return number * scale[axis] if percent and not box else number

        if not radial:
            return (value("x1", "0%", "x"), value("y1", "0%", "y"), value("x2", "100%", "x"), value("y2", "0%", "y"))
        cx, cy, r = value("cx", "50%", "x"), value("cy", "50%", "y"), value("r", "50%", "r")
        fx = value("fx", attrs["cx"], "x") if "fx" not in attrs and "cx" in attrs else value("fx", "50%", "x")
        fy = value("fy", attrs["cy"], "y") if "fy" not in attrs and "cy" in attrs else value("fy", "50%", "y")
        fr = value("fr", "0%", "r")
        distance = math.hypot(fx - cx, fy - cy)
        if r > 0 and distance > r * 0.999:             # SVG 1.1: a focus outside the circle moves onto it
            fx, fy = cx + (fx - cx) * r * 0.999 / distance, cy + (fy - cy) * r * 0.999 / distance
        return fx, fy, fr, cx, cy, r

    # ---- <image>: the pack's art
    def image(self, el: ET.Element, style: dict[str, Any], opacity: float, depth: int) -> None:
        href = _href(el)
        if self.art is None:
            raise UnsupportedSvg(f"{_describe(el)}: element <image> is not supported here (art files are "
                                 "drawn on card faces)")
        if href is None:
            raise UnsupportedSvg(f"{_describe(el)}: <image> needs href (a file of the pack, like art/knight.png)")
        x, y = self.number(el, "x"), self.number(el, "y")
        if "width" not in el.attrib or "height" not in el.attrib:
            raise UnsupportedSvg(f"{_describe(el)}: <image> needs width and height (the box it is fitted into)")
        w, h = self.number(el, "width"), self.number(el, "height")
        if w < 0 or h < 0:
            raise UnsupportedSvg(f"{_describe(el)}: negative width or height")
        aspect = self.parsed(el, "preserveAspectRatio", _aspect, el.attrib.get("preserveAspectRatio", "xMidYMid meet"))
        art = self.art(href)                       # ArtError (a template.art problem) when it cannot be drawn
        if w == 0 or h == 0 or not style["visible"]:
            return
        if hasattr(art, "text"):
            self.svg_art(el, art, (x, y, w, h), aspect, depth)
            return
        alpha = round(opacity, 6)
        if alpha <= 0:
            return
        fit = _fit((0.0, 0.0, float(art.width), float(art.height)), (x, y, w, h), aspect)
        self.save()
        if aspect is not None and aspect[2]:       # slice: the image overflows its box
            self.code.append(_g("%.7g %.7g %.7g %.7g re W n" % (x, y, w, h)))
        # the image's unit square, its first row at the top (user space runs y down)
        self.concat(_multiply(fit, (float(art.width), 0.0, 0.0, -float(art.height), 0.0, float(art.height))))
        m = self.matrix
        self.images.append(ImageUse(art.href, str(art.path), (art.width, art.height),
                                    (math.hypot(m[0], m[1]), math.hypot(m[2], m[3]))))
        self.alpha("ca", _op_fill_alpha, alpha)
        self.api(_op_image, art)
        self.restore()

    def svg_art(self, el: ET.Element, art: Any, viewport: tuple[float, float, float, float],
                aspect: tuple[float, float, bool] | None, depth: int) -> None:
        """An SVG art file drawn into the <image>'s box: its own document (ids, styles), its
        viewBox fitted as the <image>'s preserveAspectRatio says, clipped to the box."""
        from pnp.render.art import ArtError

        if art.href in self.art_stack or len(self.art_stack) >= MAX_ART_DEPTH:
            chain = " -> ".join([*self.art_stack, art.href])
            raise ArtError(art.href, f"SVG art that draws itself, or art nested more than {MAX_ART_DEPTH} "
                           f"deep ({chain})")
        saved = self.ids, self.viewport
        self.art_stack.append(art.href)
        try:
            root = _parse_xml(art.text)
            if _local(root.tag) != "svg":
                raise UnsupportedSvg(f"the root element is <{_local(root.tag)}>, not <svg>")
            self.ids = self.index(root)
            own: dict[str, Any] = {}
            style = self.styled(root, "svg", dict(_INITIAL), _GEOMETRY["svg"], own)
            if "transform" in root.attrib or own.get("opacity", 1.0) != 1.0:
                raise UnsupportedSvg(f"{_describe(root)}: transform and opacity on the root <svg> are not supported")
            if own.get("display") == "none":
                return
            box = self.view_box(root)
            self.viewport = box
            self.save()
            self.code.append(_g("%.7g %.7g %.7g %.7g re W n" % viewport))
            self.concat(_fit(box, viewport, aspect))
            for child in root:
                self.element(child, style, depth + 1)
            self.restore()
        except ArtError as error:
            if error.href == art.href:
                raise
            raise ArtError(art.href, str(error)) from None
        except UnsupportedSvg as error:
            raise ArtError(art.href, str(error)) from None
        finally:
            self.art_stack.pop()
            self.ids, self.viewport = saved

    def view_box(self, root: ET.Element) -> tuple[float, float, float, float]:
        """An SVG art file's viewBox; without one, its width and height in px from (0, 0)."""
        text = root.attrib.get("viewBox")
        if text is not None:
            values = self.parsed(root, "viewBox", _numbers, text)
            if len(values) != 4 or values[2] <= 0 or values[3] <= 0:
                raise UnsupportedSvg(f"{_describe(root)}: attribute 'viewBox' must be four numbers with positive size")
            return values[0], values[1], values[2], values[3]
        return 0.0, 0.0, _root_length(root, "width") / 0.75, _root_length(root, "height") / 0.75

    def styled(self, el: ET.Element, tag: str, style: dict[str, Any], geometry: set[str],
               own: dict[str, Any]) -> dict[str, Any]:
        copied = False
        attrib = el.attrib
        items: Any = attrib.items()
        if "style" in attrib:
            items = [*items, *self.declarations(el, attrib["style"])]
        for name, value in items:
            spec = _INHERITED.get(name)
            if spec is not None:
                key = (name, value)
                parsed = _VALUES.get(key, _MISSING)
                if parsed is _MISSING:
                    parsed = _VALUES[key] = (_INHERIT if value.strip() == "inherit"
                                             else self.parsed(el, name, spec[1], value))
                if parsed is _INHERIT:
                    continue
                if not copied:
                    style = dict(style)
                    copied = True
                style[spec[0]] = parsed
            elif name in geometry or name == "transform" or name == "style" or name in _IGNORED_ATTRIBUTES:
                continue
            elif name in _OWN:
                own[name] = self.parsed(el, name, _OWN[name], value)
            elif name.startswith("{"):
                continue            # another namespace's (an editor's) attribute: nothing SVG draws
            else:
                raise UnsupportedSvg(f"{_describe(el)}: attribute {name!r} is not supported on <{tag}>")
        return style

    def declarations(self, el: ET.Element, text: str) -> list[tuple[str, str]]:
        return _declarations_of(el, text, _STYLE_PROPERTIES)

    @staticmethod
    def parsed(el: ET.Element, name: str, parser: Callable[[str], Any], value: str) -> Any:
        try:
            return parser(value)
        except _Bad as error:
            raise UnsupportedSvg(f"{_describe(el)}: attribute {name!r}: {error}") from None

    def _radii(self, el: ET.Element, parser: Callable[[str], float]) -> tuple[float | None, float | None]:
        """The rx and ry an element gives (None where it leaves one out or says "auto")."""
        def one(name: str) -> float | None:
            value = el.attrib.get(name)
            return None if value in (None, "auto") else self.parsed(el, name, parser, value)
        return one("rx"), one("ry")

    def number(self, el: ET.Element, name: str) -> float:
        value = el.attrib.get(name)
        if value is None:
            return 0.0
        try:
            return float(value)
        except ValueError:
            return self.parsed(el, name, _length, value)

    # ---- geometry: PDF path-construction operators in user units ('' = nothing to draw)
    def geometry(self, el: ET.Element, tag: str) -> str:
        a = el.attrib
        self.area = True
        if tag == "path":
            code, self.area = self.parsed(el, "d", _path, a.get("d", ""))
            return code
        if tag == "rect":
            x, y = self.number(el, "x"), self.number(el, "y")
            w, h = self.number(el, "width"), self.number(el, "height")
            if w < 0 or h < 0:
                raise UnsupportedSvg(f"{_describe(el)}: negative width or height")
            if w == 0 or h == 0:
                return ""
            rx_given, ry_given = self._radii(el, _positive_length)
            rx = rx_given if rx_given is not None else (ry_given or 0.0)
            ry = ry_given if ry_given is not None else rx
            rx, ry = min(rx, w / 2), min(ry, h / 2)
            if rx == 0 or ry == 0:
                return "%.7g %.7g %.7g %.7g re" % (x, y, w, h)
            kx, ky = rx * _KAPPA, ry * _KAPPA
            r, b = x + w, y + h
            return ("%.7g %.7g m\n%.7g %.7g l\n%.7g %.7g %.7g %.7g %.7g %.7g c\n%.7g %.7g l\n"
                    "%.7g %.7g %.7g %.7g %.7g %.7g c\n%.7g %.7g l\n%.7g %.7g %.7g %.7g %.7g %.7g c\n"
                    "%.7g %.7g l\n%.7g %.7g %.7g %.7g %.7g %.7g c\nh") % (
                x + rx, y, r - rx, y, r - rx + kx, y, r, y + ry - ky, r, y + ry,
                r, b - ry, r, b - ry + ky, r - rx + kx, b, r - rx, b,
                x + rx, b, x + rx - kx, b, x, b - ry + ky, x, b - ry,
                x, y + ry, x, y + ry - ky, x + rx - kx, y, x + rx, y)
        if tag == "circle" or tag == "ellipse":
            try:
                cx, cy = float(a.get("cx", 0.0)), float(a.get("cy", 0.0))
            except ValueError:
                cx, cy = self.number(el, "cx"), self.number(el, "cy")
            if tag == "circle":
                rx = ry = self.number(el, "r")
            else:
                rx_given, ry_given = self._radii(el, _length)
                rx = rx_given if rx_given is not None else (ry_given or 0.0)
                ry = ry_given if ry_given is not None else rx
            if rx < 0 or ry < 0:
                raise UnsupportedSvg(f"{_describe(el)}: negative radius")
            if rx == 0 or ry == 0:
                return ""
            kx, ky = rx * _KAPPA, ry * _KAPPA
            return ("%.7g %.7g m\n%.7g %.7g %.7g %.7g %.7g %.7g c\n%.7g %.7g %.7g %.7g %.7g %.7g c\n"
                    "%.7g %.7g %.7g %.7g %.7g %.7g c\n%.7g %.7g %.7g %.7g %.7g %.7g c\nh") % (
                cx + rx, cy,
                cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry,
                cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy,
                cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry,
                cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy)
        if tag == "line":
            return "%.7g %.7g m\n%.7g %.7g l" % (self.number(el, "x1"), self.number(el, "y1"),
                                                 self.number(el, "x2"), self.number(el, "y2"))
        if tag == "polyline" or tag == "polygon":
            points = self.parsed(el, "points", _numbers, a.get("points", ""))
            if len(points) % 2:
                raise UnsupportedSvg(f"{_describe(el)}: attribute 'points' has an odd number of values")
            if len(points) < 4:
                return ""
            self.area = len(points) >= 6
            parts = ["%.7g %.7g m" % (points[0], points[1])]
            parts.extend("%.7g %.7g l" % (points[k], points[k + 1]) for k in range(2, len(points), 2))
            if tag == "polygon":
                parts.append("h")
            return "\n".join(parts)
        raise AssertionError(tag)

    # ---- painting
    def paint(self, el: ET.Element, geom: str, style: dict[str, Any], opacity: float, fillable: bool) -> None:
        fill = style["fill"] if fillable else None
        stroke = style["stroke"]
        width = style["stroke_width"]
        if isinstance(stroke, _PaintUrl):
            stroke = self.solid(el, "stroke", stroke, allow_gradient=False)
        if stroke is not None and width <= 0:
            stroke = None
        if isinstance(fill, _PaintUrl):
            fill = self.solid(el, "fill", fill, allow_gradient=True)
            if isinstance(fill, _Gradient):
                self.gradient_fill(el, geom, fill, style, opacity)
                fill = None
        if fill is not None:
            fa = fill[3] * style["fill_opacity"] * opacity
            if fa <= 0:
                fill = None
        if stroke is not None:
            sa = stroke[3] * style["stroke_opacity"] * opacity
            if sa <= 0:
                stroke = None
        if fill is None and stroke is None:
            return
        if fill is not None:
            self.state("rg", _rgb(fill, "rg"))
            self.alpha("ca", _op_fill_alpha, round(fa, 6))
        if stroke is not None:
            self.state("RG", _rgb(stroke, "RG"))
            self.alpha("CA", _op_stroke_alpha, round(sa, 6))
            self.state("w", _g("%.7g w" % width))
            self.state("J", "%d J" % style["linecap"])
            self.state("j", "%d j" % style["linejoin"])
            if style["linejoin"] == 0:
                self.state("M", _g("%.7g M" % max(1.0, style["miterlimit"])))
            dashes = style["dasharray"]
            if dashes:
                self.state("d", _g("[%s] %.7g d" % (" ".join("%.7g" % v for v in dashes), style["dashoffset"])))
            else:
                self.state("d", "[] 0 d")
        self.code.append(_g(geom))
        if fill is not None:
            evenodd = style["evenodd"]
            self.code.append(("B*" if evenodd else "B") if stroke is not None else ("f*" if evenodd else "f"))
        else:
            self.code.append("S")

    def solid(self, el: ET.Element, attribute: str, paint: _PaintUrl, allow_gradient: bool) -> Any:
        """What a url(#id) paint draws: a _Gradient, or a colour (a gradient of one colour, the
        fallback of a missing id) or None."""
        if paint.id not in self.ids and paint.fallback != "":
            return paint.fallback
        target = self.referenced(el, attribute, paint.id, {"linearGradient", "radialGradient"})
        gradient = self.gradient(target)
        if gradient.solid is not _MISSING:
            return gradient.solid
        if not allow_gradient:
            raise UnsupportedSvg(f"{_describe(el)}: attribute {attribute!r}: a gradient stroke is not "
                                 "supported (only fills); stroke with a colour")
        return gradient

    def gradient(self, el: ET.Element) -> _Gradient:
        """A <linearGradient> or <radialGradient>, with what it inherits through href="#other"."""
        chain = [el]
        while True:
            href = _href(chain[-1])
            if href is None:
                break
            if not href.startswith("#") or len(chain) > MAX_GRADIENT_LINKS:
                raise UnsupportedSvg(f"{_describe(chain[-1])}: href of a gradient names another gradient of this "
                                     f"drawing (#id), at most {MAX_GRADIENT_LINKS} deep")
            target = self.referenced(chain[-1], "href", href[1:], {"linearGradient", "radialGradient"})
            if target in chain:
                raise UnsupportedSvg(f"{_describe(el)}: gradients inherit from each other in a circle")
            chain.append(target)
        attrs: dict[str, str] = {}
        stops: list[ET.Element] = []
        for link in chain:                     # the gradient's own attributes win over what it inherits
            allowed = _GRADIENT_ATTRIBUTES[_local(el.tag)] | _GRADIENT_COMMON
            for name, value in link.attrib.items():
                if name in allowed or name == _XLINK_HREF:
                    attrs.setdefault(name, value)
                elif not name.startswith("{") and name not in _GRADIENT_ATTRIBUTES["linearGradient"] | \
                        _GRADIENT_ATTRIBUTES["radialGradient"]:
                    raise UnsupportedSvg(f"{_describe(link)}: attribute {name!r} is not supported on a gradient")
            own_stops = [c for c in link if isinstance(c.tag, str) and _local(c.tag)]
            if not stops and own_stops:
                stops = own_stops
        return _Gradient.of(self, el, attrs, stops)

    def gradient_fill(self, el: ET.Element, geom: str, gradient: _Gradient, style: dict[str, Any],
                      opacity: float) -> None:
        """Fill `geom` with `gradient`: clip to the shape, map the gradient's space, shade."""
        alpha = gradient.opacity * style["fill_opacity"] * opacity
        if alpha <= 0:
            return
        box = None
        if gradient.bounding_box:
            box = _bbox(geom)
            if box is None or box[2] <= 0 or box[3] <= 0:
                return                              # SVG: no box, nothing painted
        self.save()
        self.code.append(_g(geom))
        self.code.append("W* n" if style["evenodd"] else "W n")
        if box is not None:
            self.concat((box[2], 0.0, 0.0, box[3], box[0], box[1]))
        if gradient.transform:
            self.concat(gradient.transform)
        self.alpha("ca", _op_fill_alpha, round(alpha, 6))
        self.api(_op_shade, gradient.radial, gradient.coords, gradient.stops)
        self.restore()

    # ---- text
    def text(self, el: ET.Element, style: dict[str, Any], opacity: float) -> None:
        for attr in ("x", "y"):
            if attr in el.attrib and len(_NUMBER_RE.findall(el.attrib[attr])) != 1:
                raise UnsupportedSvg(f"{_describe(el)}: attribute {attr!r} must be a single number")
        if style["stroke"] is not None:
            raise UnsupportedSvg(f"{_describe(el)}: attribute 'stroke' on <text> is not supported")
        if any(isinstance(child.tag, str) and _local(child.tag) not in _IGNORED_ELEMENTS for child in el):
            self.rich_text(el, style, opacity)
            return
        raw = el.text or ""
        if el.get(_XML_SPACE_ATTR) == "preserve":
            content = raw.replace("\n", " ").replace("\r", " ").replace("\t", " ")
        else:
            content = _TEXT_SPACE.sub(" ", _XML_SPACE.sub("", raw).replace("\t", " ")).strip(" ")
        fill = self.text_fill(el, style)
        if not content or fill is None or not style["visible"]:
            return
        font = self.font(el, style)
        alpha = fill[3] * style["fill_opacity"] * opacity
        if alpha <= 0:
            return
        run = self.shaped_run(el, content, font, style)
        x, y = self.number(el, "x"), self.number(el, "y")
        if run is not None and self.in_label:
            self.state("rg", _rgb(fill, "rg"))
            self.alpha("ca", _op_fill_alpha, round(alpha, 6))
            run_font, size, x0, glyphs, _ = run
            self.api(_op_line_glyphs, run_font, size, x + x0, glyphs, y)
            return
        self.save()
        self.concat((1.0, 0.0, 0.0, -1.0, x, y))
        self.state("rg", _rgb(fill, "rg"))
        self.alpha("ca", _op_fill_alpha, round(alpha, 6))
        if run is None:
            self.api(_op_text, font, style["font_size"], style["text_anchor"], content)
        else:
            self.api(_op_glyphs, *run)
        self.restore()

    def text_fill(self, el: ET.Element, style: dict[str, Any]) -> tuple[float, float, float, float] | None:
        fill = style["fill"]
        if isinstance(fill, _PaintUrl):
            fill = self.solid(el, "fill", fill, allow_gradient=False)
        return fill

    def font(self, el: ET.Element, style: dict[str, Any]) -> str:
        family = style["font_family"]
        if family is None:
            raise UnsupportedSvg(f"{_describe(el)}: <text> needs a font-family registered with ReportLab")
        font = _styled_font(family, style["bold"], style["italic"])
        if font is None:
            shown = " ".join(w for w, on in (("bold", style["bold"]), ("italic", style["italic"])) if on)
            raise UnsupportedSvg(f"{_describe(el)}: no {shown} font of family {family!r} is registered; "
                                 "name the font itself in font-family")
        return font

    def rich_text(self, el: ET.Element, style: dict[str, Any], opacity: float) -> None:
        """A <text> with <tspan>s: each piece of text in its own font, size and fill, one after
        the other along the baseline; x/y on a tspan start a new chunk there (text-anchor places
        each chunk), dx/dy shift. White space is collapsed across the pieces, as SVG does."""
        if el.attrib.get("unicode-bidi", "normal").strip() != "normal" or \
                el.attrib.get("direction", "ltr").strip() != "ltr":
            raise UnsupportedSvg(f"{_describe(el)}: a shaped run (direction, unicode-bidi) takes no <tspan>: "
                                 "emit one <text> per run")
        pieces: list[_Piece] = []
        self.pieces(el, style, opacity, pieces, el.get(_XML_SPACE_ATTR) == "preserve", 0)
        _collapse(pieces)
        chunks: list[list[_Piece]] = []
        x, y = self.number(el, "x"), self.number(el, "y")
        for piece in pieces:
            if piece.x is not None or piece.y is not None or not chunks:
                chunks.append([])
            x = x if piece.x is None else piece.x
            y = y if piece.y is None else piece.y
            x, y = x + piece.dx, y + piece.dy
            piece.at = (x, y)
            x += piece.width()
            chunks[-1].append(piece)
        self.save()
        self.concat((1.0, 0.0, 0.0, -1.0, 0.0, 0.0))
        for chunk in chunks:
            drawn = [p for p in chunk if p.text]
            if not drawn:
                continue
            width = drawn[-1].at[0] + drawn[-1].width() - drawn[0].at[0]
            shift = {"start": 0.0, "middle": -width / 2, "end": -width}[chunk[0].anchor]
            for piece in drawn:
                if piece.fill is None or not piece.visible or piece.alpha <= 0:
                    continue
                if any(ord(c) >= 0x590 and _bidi_class(c) in ("R", "AL", "AN") for c in piece.text):
                    raise UnsupportedSvg(f"{_describe(piece.el)}: right-to-left text needs shaping and bidi "
                                         "ordering: lay it out with textbox()")
                self.state("rg", _rgb(piece.fill, "rg"))
                self.alpha("ca", _op_fill_alpha, round(piece.alpha, 6))
                self.api(_op_text_at, piece.font, piece.size, piece.at[0] + shift, -piece.at[1], piece.text)
        self.restore()

    def pieces(self, el: ET.Element, style: dict[str, Any], opacity: float, out: list[_Piece], preserve: bool,
               depth: int, first: _Piece | None = None) -> None:
        """The text pieces of a <text> or <tspan> (its text, its tspans', their tails) into `out`;
        `first` is where the element's own position attributes go."""
        if depth > 8:
            raise UnsupportedSvg(f"{_describe(el)}: <tspan> nested more than 8 deep")
        fill = self.text_fill(el, style)
        alpha = 0.0 if fill is None else fill[3] * style["fill_opacity"] * opacity
        visible = style["visible"]

        def piece(text: str, at: _Piece | None = None) -> _Piece:
            made = at or _Piece(el)
            made.raw, made.preserve = text, preserve
            made.font, made.size, made.fill, made.alpha = self.font(el, style), style["font_size"], fill, alpha
            made.anchor, made.visible = style["text_anchor"], visible
            out.append(made)
            return made

        piece(el.text or "", first)
        for child in el:
            if not isinstance(child.tag, str) or _local(child.tag) in _IGNORED_ELEMENTS or not _local(child.tag):
                pass
            elif _local(child.tag) != "tspan":
                raise UnsupportedSvg(f"{_describe(child)}: <{_local(child.tag)}> inside <text> is not supported "
                                     "(only <tspan>)")
            else:
                own: dict[str, Any] = {}
                child_style = self.styled(child, "tspan", style, _GEOMETRY["tspan"], own)
                if "transform" in child.attrib:
                    raise UnsupportedSvg(f"{_describe(child)}: attribute 'transform' on <tspan> is not supported")
                if own.get("opacity", 1.0) != 1.0 or own.get("clip-path") is not None:
                    raise UnsupportedSvg(f"{_describe(child)}: opacity and clip-path on <tspan> are not supported")
                if own.get("display") != "none":
                    start = _Piece(child)
                    for attr in ("x", "y", "dx", "dy"):
                        value = child.attrib.get(attr)
                        if value is not None:
                            if len(_NUMBER_RE.findall(value)) != 1:
                                raise UnsupportedSvg(f"{_describe(child)}: attribute {attr!r} must be a single "
                                                     "number (one position per character is not supported)")
                            setattr(start, attr, self.number(child, attr))
                    self.pieces(child, child_style, opacity, out, preserve or
                                child.get(_XML_SPACE_ATTR) == "preserve", depth + 1, start)
            piece(child.tail or "")

    def shaped_run(self, el: ET.Element, content: str, font: str, style: dict[str, Any]) -> tuple | None:
        """The _op_glyphs arguments of a <text direction=.. unicode-bidi="bidi-override">, or None
        for plain left-to-right text (drawn with drawString, unshaped, as always)."""
        direction = el.attrib.get("direction", "ltr").strip()
        bidi = el.attrib.get("unicode-bidi", "normal").strip()
        if direction not in ("ltr", "rtl"):
            raise UnsupportedSvg(f"{_describe(el)}: attribute 'direction': {direction!r} is not ltr or rtl")
        if bidi not in ("normal", "bidi-override"):
            raise UnsupportedSvg(f"{_describe(el)}: attribute 'unicode-bidi': {bidi!r} is not supported "
                                 "(only normal and bidi-override)")
        if bidi == "normal":
            if direction == "rtl" or any(ord(c) >= 0x590 and _bidi_class(c) in ("R", "AL", "AN") for c in content):
                raise UnsupportedSvg(f"{_describe(el)}: right-to-left text needs shaping and bidi ordering: "
                                     "lay it out with textbox(), or give one directional run with "
                                     "unicode-bidi=\"bidi-override\"")
            return None
        from pnp.text.shaping import shape, shaped_str

        size = style["font_size"]
        rtl = direction == "rtl"
        shaped = shape(content, font, rtl)
        width = shaped.advance * size / 1000.0
        anchor = style["text_anchor"]
        if anchor == "middle":
            x0 = -width / 2
        elif (anchor == "start") == rtl:       # rtl start / ltr end: x is the right edge
            x0 = -width
        else:
            x0 = 0.0
        if self.in_label:                      # the line's span stands for this run
            return (font, size, x0, shaped_str(shaped), "")
        from pnp.text import actualtext

        return (font, size, x0, shaped_str(shaped), actualtext.pdf_string(actualtext.extraction_order(content, rtl)))


def _root_length(el: ET.Element, name: str) -> float:
    value = el.attrib.get(name)
    if value is None:
        raise UnsupportedSvg(f"{_describe(el)}: the root <svg> needs attribute {name!r}")
    m = _ROOT_LENGTH.match(value)
    if not m:
        raise UnsupportedSvg(f"{_describe(el)}: attribute {name!r}: {value!r} is not a length "
                             "(mm, cm, in, pt, pc, px or a plain number)")
    return float(m.group(1)) * _ROOT_UNITS[m.group(2)]


def compile_svg(svg_text: str, *, art: Callable[[str], Any] | None = None) -> CompiledFace:
    """Parse an SVG face once into drawing operations (raises UnsupportedSvg for what it cannot
    draw). `art` turns an <image>'s href into the art file to draw (pnp.render.art.ArtLibrary,
    which raises ArtError for one it refuses); without it <image> is refused."""
    root = _parse_xml(svg_text)
    if _local(root.tag) != "svg":
        raise UnsupportedSvg(f"the root element is <{_local(root.tag)}>, not <svg>")
    width, height = _root_length(root, "width"), _root_length(root, "height")
    if width <= 0 or height <= 0:
        raise UnsupportedSvg(f"{_describe(root)}: the root <svg> has no area")
    for cache in (_VALUES, _TRANSFORMS, _colour_cache, _rgb_cache):
        if len(cache) > 50_000:                       # bounded in long-running processes
            cache.clear()
    compiler = _Compiler(art)
    own: dict[str, Any] = {}
    style = compiler.styled(root, "svg", dict(_INITIAL), _GEOMETRY["svg"], own)
    if own.get("opacity", 1.0) != 1.0:
        raise UnsupportedSvg(f"{_describe(root)}: attribute opacity on <svg> is not supported")
    if "transform" in root.attrib:
        raise UnsupportedSvg(f"{_describe(root)}: attribute 'transform' on the root <svg> is not supported")
    if own.get("display") == "none":
        return CompiledFace(width, height, ())
    compiler.ids = compiler.index(root)
    view_box = root.attrib.get("viewBox")
    if view_box is None:
        box = (0.0, 0.0, width / 0.75, height / 0.75)
    else:
        values = compiler.parsed(root, "viewBox", _numbers, view_box)
        if len(values) != 4 or values[2] <= 0 or values[3] <= 0:
            raise UnsupportedSvg(f"{_describe(root)}: attribute 'viewBox' must be four numbers with positive size")
        box = (values[0], values[1], values[2], values[3])
    compiler.viewport = box
    aspect = compiler.parsed(root, "preserveAspectRatio", _aspect, root.attrib.get("preserveAspectRatio", "xMidYMid meet"))
    # Clip to the viewport, then map user units (y down) to points (y up).
    compiler.code.append(_g("0 0 %.7g %.7g re W n" % (width, height)))
    compiler.concat(_multiply((1.0, 0.0, 0.0, -1.0, 0.0, height), _fit(box, (0.0, 0.0, width, height), aspect)))
    for child in root:
        compiler.element(child, style)
    compiler.flush()
    return CompiledFace(width, height, tuple(compiler.ops), tuple(compiler.images))
