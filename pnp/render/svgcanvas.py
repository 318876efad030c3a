"""A fast, exact SVG -> ReportLab canvas converter for the SVG subset our card templates emit.

    face = compile_svg(svg_text)      # parse once: a flat list of drawing operations
    face.width, face.height           # points, from the root width/height
    face.draw(canvas)                 # replay; (0, 0) = bottom-left of the SVG viewport

Most of a face compiles to literal PDF path, colour and line-style operators, computed once; at
draw time only what depends on the document goes through the canvas API: graphics-state
save/restore, transparency (ExtGState resources) and text (font resources and TrueType subsets,
so text stays real, extractable PDF text with its font embedded).

Supported (anything else raises `UnsupportedSvg`, naming the element and attribute):

* elements: svg (root only), g, rect, circle, ellipse, line, polyline, polygon, path, text (one
  line of character data, no tspan); title/desc/metadata and an empty defs are ignored;
* root: width/height (mm, cm, in, pt, pc, px or unitless = px), viewBox, preserveAspectRatio
  (`none` or the default `xMidYMid meet`); the root viewport clips its content, as in SVG;
* transform: matrix, translate, scale, rotate (with centre), skewX, skewY;
* path data: every command (M L H V C S Q T A Z, absolute and relative); arcs become cubic
  Béziers (at most 90 degrees each), quadratics become exact cubics;
* painting: fill, stroke (#rgb, #rgba, #rrggbb, #rrggbbaa, rgb()/rgba(), CSS colour names, none),
  fill-opacity, stroke-opacity, opacity (on shapes and text; on <g> it would need a transparency
  group, so it is refused), fill-rule, stroke-width, stroke-linecap, stroke-linejoin,
  stroke-miterlimit (SVG default 4), stroke-dasharray, stroke-dashoffset, display="none",
  visibility; as attributes or in style="..."; inherited from enclosing <g>/<svg>;
* text: x, y, font-family (a font registered with ReportLab), font-size, text-anchor
  (start/middle/end), fill, fill-opacity, opacity; font-weight/font-style only `normal`;
  shaped runs: `direction="rtl"|"ltr"` with `unicode-bidi="bidi-override"` on the <text> itself
  makes its content one directional run (logical order, no reordering), shaped with HarfBuzz
  (`pnp.text.shaping`: Arabic joining and ligatures, mark positioning, bracket mirroring,
  kerning) and drawn as positioned glyphs that stay real PDF text (with /ActualText, so the run
  extracts as the characters written); as in SVG, text-anchor="start" of an rtl run is its right
  edge. This is what `textbox()` emits for Arabic and right-to-left lines. Right-to-left
  characters in a <text> without bidi-override are refused (they would print unjoined, reversed).

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
from reportlab.pdfbase import pdfdoc, pdfmetrics

from pnp.limits import MAX_GROUP_DEPTH
from pnp.units import PT_PER_IN, PT_PER_MM

__all__ = ["UnsupportedSvg", "CompiledFace", "compile_svg", "fix_form_resources"]


class UnsupportedSvg(ValueError):
    """The SVG uses an element, attribute or value this converter does not draw."""




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
    # baseline at (0, 0), marked with /ActualText so copy and search see the characters rather than
    # contextual forms and private-use codes. The ActualText of an rtl run is its characters in
    # drawing order (reversed): PDF readers (poppler, pdfium) take it, like the glyphs it stands
    # for, as visual order and apply their own bidi reordering, which gives back logical order.
    canvas.setFont(font, size)
    canvas.addLiteral("/Span <</ActualText %s>> BDC" % actual_text)
    canvas.drawString(x, 0, glyphs)
    canvas.addLiteral("EMC")


def _pdf_text_string(text: str) -> str:
    return "<FEFF%s>" % text.encode("utf-16-be").hex().upper()


@dataclass(frozen=True)
class CompiledFace:
    """A parsed SVG face, ready to be drawn any number of times."""

    width: float                       # points
    height: float                      # points
    ops: tuple[tuple[Callable, tuple], ...]

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
        canvas.endForm()
        fix_form_resources(canvas, name)


def fix_form_resources(canvas, name: str) -> None:
    """Give the form `name`, just ended with canvas.endForm(), its ExtGState resources (see
    CompiledFace.define_form). Harmless for a form that uses no transparency."""
    form = canvas._doc.idToObject[pdfdoc.xObjectName(name)]
    states = getattr(form, "ExtGState", None)
    if not states or form.Resources:
        return
    resources = pdfdoc.PDFResourceDictionary()     # what PDFFormXObject.format would build...
    resources.basicFonts()
    resources.allProcs()
    if form.XObjects:
        resources.XObject = form.XObjects
    resources.ExtGState = states                   # ...plus the transparency states
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
    if tag.startswith(_SVG_NS):
        return tag[len(_SVG_NS):]
    if tag.startswith("{"):
        raise UnsupportedSvg(f"element {tag} is not SVG")
    return tag


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
        except Exception:
            continue
        return name
    raise _Bad(f"no font registered with ReportLab as {text!r}")


def _positive_length(text: str) -> float:
    value = _length(text)
    if value < 0:
        raise _Bad(f"{text!r} is negative")
    return value


def _normal(text: str) -> str:
    if text.strip() not in ("normal", "400"):
        raise _Bad(f"{text!r}: only 'normal' is supported; use a font-family registered for that style")
    return "normal"


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
# The compiler

# Inherited presentation properties: attribute -> (style key, parser)
_INHERITED: dict[str, tuple[str, Callable[[str], Any]]] = {
    "fill": ("fill", _colour),
    "fill-opacity": ("fill_opacity", _opacity),
    "fill-rule": ("evenodd", _choice({"nonzero": False, "evenodd": True})),
    "stroke": ("stroke", _colour),
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
    "font-weight": ("font_weight", _normal),
    "font-style": ("font_style", _normal),
    "visibility": ("visible", _choice({"visible": True, "hidden": False, "collapse": False})),
}
# Not inherited
_OWN: dict[str, Callable[[str], Any]] = {
    "opacity": _opacity,
    "display": _choice({"none": "none", "inline": "inline", "block": "inline"}),
}

_INITIAL = {
    "fill": (0.0, 0.0, 0.0, 1.0), "fill_opacity": 1.0, "evenodd": False,
    "stroke": None, "stroke_opacity": 1.0, "stroke_width": 1.0, "linecap": 0, "linejoin": 0,
    "miterlimit": 4.0, "dasharray": None, "dashoffset": 0.0,
    "font_family": None, "font_size": 16.0, "text_anchor": "start", "font_weight": "normal",
    "font_style": "normal", "visible": True,
}

_GEOMETRY = {
    "svg": {"width", "height", "viewBox", "preserveAspectRatio", "version", "x", "y"},
    "g": set(),
    "rect": {"x", "y", "width", "height", "rx", "ry"},
    "circle": {"cx", "cy", "r"},
    "ellipse": {"cx", "cy", "rx", "ry"},
    "line": {"x1", "y1", "x2", "y2"},
    "polyline": {"points"},
    "polygon": {"points"},
    "path": {"d"},
    "text": {"x", "y", "direction", "unicode-bidi"},   # direction/unicode-bidi: read by _Compiler.text
}
_VALUES: dict[tuple[str, str], Any] = {}     # (attribute, text) -> parsed inherited property
_TRANSFORMS: dict[str, Any] = {}             # transform text -> matrix or None
_MISSING = object()
_INHERIT = object()
_IGNORED_ELEMENTS = {"title", "desc", "metadata"}
_IGNORED_ATTRIBUTES = {"id", "{http://www.w3.org/XML/1998/namespace}space"}


class _Compiler:
    def __init__(self) -> None:
        self.ops: list[tuple[Callable, tuple]] = []
        self.code: list[str] = []                 # literal PDF operators not yet flushed into ops
        self.pdf: dict[str, Any] = {}             # PDF graphics state known at this point
        self.stack: list[dict[str, Any]] = []
        self.area = True                          # the last geometry can enclose an area

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
        self.stack.append(self.pdf)
        self.pdf = dict(self.pdf)

    def restore(self) -> None:
        self.api(_op_restore)
        self.pdf = self.stack.pop()

    def state(self, key: str, code: str) -> None:
        if self.pdf.get(key) != code:
            self.pdf[key] = code
            self.code.append(code)

    def alpha(self, key: str, op: Callable, value: float) -> None:
        if self.pdf.get(key) != value:
            self.pdf[key] = value
            self.api(op, value)

    # ---- walking
    def element(self, el: ET.Element, style: dict[str, Any], depth: int = 1) -> None:
        tag = _local(el.tag)
        if depth > MAX_GROUP_DEPTH:
            raise UnsupportedSvg(f"{_describe(el)}: elements nested more than {MAX_GROUP_DEPTH} deep")
        if tag in _IGNORED_ELEMENTS:
            return
        if tag == "defs":
            if len(el) or (el.text and el.text.strip()):
                raise UnsupportedSvg(f"{_describe(el)}: <defs> content (gradients, patterns, clip paths, "
                                     "symbols) is not supported")
            return
        geometry = _GEOMETRY.get(tag)
        if geometry is None or tag == "svg":
            raise UnsupportedSvg(f"{_describe(el)}: element <{tag}> is not supported")
        own: dict[str, Any] = {}
        transform = None
        style = self.styled(el, tag, style, geometry, own)
        if own.get("display") == "none":
            return
        text = el.attrib.get("transform")
        if text is not None:
            transform = _TRANSFORMS.get(text, _MISSING)
            if transform is _MISSING:
                transform = _TRANSFORMS[text] = self.parsed(el, "transform", _transform, text)
        opacity = own.get("opacity", 1.0)
        if tag == "g":
            if opacity != 1.0:
                raise UnsupportedSvg(f"{_describe(el)}: attribute opacity on <g> is not supported (it needs "
                                     "a transparency group); use fill-opacity/stroke-opacity on the shapes")
            if transform:
                self.save()
                self.code.append(_g("%.7g %.7g %.7g %.7g %.7g %.7g cm" % transform))
            for child in el:
                self.element(child, style, depth + 1)
            if transform:
                self.restore()
            return
        if tag == "text":
            self.text(el, style, transform, opacity)
            return
        if len(el):
            raise UnsupportedSvg(f"{_describe(el)}: child elements of <{tag}> are not supported")
        if not style["visible"]:
            return
        geom = self.geometry(el, tag)
        if not geom:
            return
        if transform:
            self.save()
            self.code.append(_g("%.7g %.7g %.7g %.7g %.7g %.7g cm" % transform))
        self.paint(geom, style, opacity, self.area and tag != "line")
        if transform:
            self.restore()

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
            else:
                raise UnsupportedSvg(f"{_describe(el)}: attribute {name!r} is not supported on <{tag}>")
        return style

    def declarations(self, el: ET.Element, text: str) -> list[tuple[str, str]]:
        out = []
        pos = 0
        text = text.strip()
        while pos < len(text):
            m = _STYLE_DECL.match(text, pos)
            if not m or m.end() == pos:
                raise UnsupportedSvg(f"{_describe(el)}: cannot read style {text!r}")
            name = m.group(1)
            if name not in _INHERITED and name not in _OWN:
                raise UnsupportedSvg(f"{_describe(el)}: style property {name!r} is not supported")
            out.append((name, m.group(2)))
            pos = m.end()
        return out

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
    def paint(self, geom: str, style: dict[str, Any], opacity: float, fillable: bool) -> None:
        fill = style["fill"] if fillable else None
        stroke = style["stroke"]
        width = style["stroke_width"]
        if stroke is not None and width <= 0:
            stroke = None
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

    def text(self, el: ET.Element, style: dict[str, Any], transform, opacity: float) -> None:
        for attr in ("x", "y"):
            if attr in el.attrib and len(_NUMBER_RE.findall(el.attrib[attr])) != 1:
                raise UnsupportedSvg(f"{_describe(el)}: attribute {attr!r} must be a single number")
        if len(el):
            raise UnsupportedSvg(f"{_describe(el)}: child elements of <text> (such as <{_local(el[0].tag)}>) "
                                 "are not supported; emit one <text> per line")
        if style["stroke"] is not None:
            raise UnsupportedSvg(f"{_describe(el)}: attribute 'stroke' on <text> is not supported")
        raw = el.text or ""
        if el.get("{http://www.w3.org/XML/1998/namespace}space") == "preserve":
            content = raw.replace("\n", " ").replace("\r", " ").replace("\t", " ")
        else:
            content = _TEXT_SPACE.sub(" ", _XML_SPACE.sub("", raw).replace("\t", " ")).strip(" ")
        fill = style["fill"]
        if not content or fill is None or not style["visible"]:
            return
        font = style["font_family"]
        if font is None:
            raise UnsupportedSvg(f"{_describe(el)}: <text> needs a font-family registered with ReportLab")
        alpha = fill[3] * style["fill_opacity"] * opacity
        if alpha <= 0:
            return
        run = self.shaped_run(el, content, font, style)
        x, y = self.number(el, "x"), self.number(el, "y")
        self.save()
        if transform:
            self.code.append(_g("%.7g %.7g %.7g %.7g %.7g %.7g cm" % transform))
        self.code.append(_g("1 0 0 -1 %.7g %.7g cm" % (x, y)))
        self.state("rg", _rgb(fill, "rg"))
        self.alpha("ca", _op_fill_alpha, round(alpha, 6))
        if run is None:
            self.api(_op_text, font, style["font_size"], style["text_anchor"], content)
        else:
            self.api(_op_glyphs, *run)
        self.restore()

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
        return (font, size, x0, shaped_str(shaped), _pdf_text_string(content[::-1] if rtl else content))


def _root_length(el: ET.Element, name: str) -> float:
    value = el.attrib.get(name)
    if value is None:
        raise UnsupportedSvg(f"{_describe(el)}: the root <svg> needs attribute {name!r}")
    m = _ROOT_LENGTH.match(value)
    if not m:
        raise UnsupportedSvg(f"{_describe(el)}: attribute {name!r}: {value!r} is not a length "
                             "(mm, cm, in, pt, pc, px or a plain number)")
    return float(m.group(1)) * _ROOT_UNITS[m.group(2)]


def compile_svg(svg_text: str) -> CompiledFace:
    """Parse an SVG face once into drawing operations (raises UnsupportedSvg for what it cannot draw)."""
    try:
        root = ET.fromstring(svg_text)
    except ET.ParseError as error:
        raise UnsupportedSvg(f"the SVG is not well-formed XML: {error}") from None
    if _local(root.tag) != "svg":
        raise UnsupportedSvg(f"the root element is <{_local(root.tag)}>, not <svg>")
    width, height = _root_length(root, "width"), _root_length(root, "height")
    if width <= 0 or height <= 0:
        raise UnsupportedSvg(f"{_describe(root)}: the root <svg> has no area")
    for cache in (_VALUES, _TRANSFORMS, _colour_cache, _rgb_cache):
        if len(cache) > 50_000:                       # bounded in long-running processes
            cache.clear()
    compiler = _Compiler()
    own: dict[str, Any] = {}
    style = compiler.styled(root, "svg", dict(_INITIAL), _GEOMETRY["svg"], own)
    if own.get("opacity", 1.0) != 1.0:
        raise UnsupportedSvg(f"{_describe(root)}: attribute opacity on <svg> is not supported")
    if "transform" in root.attrib:
        raise UnsupportedSvg(f"{_describe(root)}: attribute 'transform' on the root <svg> is not supported")
    if own.get("display") == "none":
        return CompiledFace(width, height, ())
    view_box = root.attrib.get("viewBox")
    if view_box is None:
        vx, vy, vw, vh = 0.0, 0.0, width / 0.75, height / 0.75
    else:
        values = compiler.parsed(root, "viewBox", _numbers, view_box)
        if len(values) != 4 or values[2] <= 0 or values[3] <= 0:
            raise UnsupportedSvg(f"{_describe(root)}: attribute 'viewBox' must be four numbers with positive size")
        vx, vy, vw, vh = values
    sx, sy = width / vw, height / vh
    tx = ty = 0.0
    aspect = " ".join(root.attrib.get("preserveAspectRatio", "xMidYMid meet").split())
    if aspect in ("xMidYMid", "xMidYMid meet"):
        s = min(sx, sy)
        tx, ty = (width - vw * s) / 2, (height - vh * s) / 2
        sx = sy = s
    elif aspect != "none":
        raise UnsupportedSvg(f"{_describe(root)}: preserveAspectRatio={aspect!r} is not supported "
                             "(only the default 'xMidYMid meet' and 'none')")
    # Clip to the viewport, then map user units (y down) to points (y up).
    compiler.code.append(_g("0 0 %.7g %.7g re W n" % (width, height)))
    compiler.code.append(_g("%.7g 0 0 %.7g %.7g %.7g cm" % (sx, -sy, tx - sx * vx, height - ty + sy * vy)))
    for child in root:
        compiler.element(child, style)
    compiler.flush()
    return CompiledFace(width, height, tuple(compiler.ops))
