"""svgwrite helpers: millimetre drawings, measured text, cut/fold/glue styles, conversion to PDF.

Every drawing is an `svgwrite.Drawing` whose user unit is the millimetre ((0, 0) top-left).
Text is never placed blind: `Sketch.text()` lays it out with the project's text layer
(`pnp.text.layout.layout`, real font metrics, wrap and shrink-to-fit) and records text that does not
fit or has characters the font lacks, so the build can report it before writing anything. The
laid-out text becomes SVG through the same function as card templates' `textbox()`
(`pnp.render.textbox.text_elements`): Latin and Cyrillic lines are plain `<text>` elements, Arabic
and other right-to-left lines one `<text direction=.. unicode-bidi="bidi-override">` per shaped run,
which the SVG compiler draws as HarfBuzz glyphs. A sketch has a base `direction` (the build
language's, from `Context.sketch`); `align="start"`/`"end"` are logical (start is the right side in
a right-to-left language), `"left"`/`"right"` physical.
What does not fit, or has characters no font covers, is recorded as a `FitIssue` in the sketch's
`FitReport` (pnp.text.fitreport), named by `what` ("die face", "legend"...).
`markup()` adds SVG that was made elsewhere (a pack's art template) and `fragment()` returns a
sketch's elements without the root, to hand to a template. Markup is parsed when it is added, so
SVG that is not well-formed, nested without end, or holding a character XML cannot hold (a BEL
in a text) is a ComponentError naming what is wrong, never a parser's traceback; measured text
with such a character prints without it and is reported (text.control-char) like text that does
not fit.
`to_face()` turns the SVG into something the PDF writer can draw: the one place where the SVG
converter is chosen.
"""
from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from typing import Iterable

import svgwrite

from pnp.components import style as st
from pnp.components.errors import COMPONENT_TEMPLATE, ComponentError
from pnp.limits import MAX_MARKUP_DEPTH
from pnp.render.textbox import TEXT_CONTROL, XML_ILLEGAL, control_characters, printable, text_elements
from pnp.text import digits
from pnp.text.fitreport import MIN_PRINTED_PT, FitReport
from pnp.text.layout import DIRECTIONS, layout, missing_characters
from pnp.units import PT_PER_MM

_ROOT_ATTRS = re.compile(r'\s(?:baseProfile|version|xmlns:ev|xmlns:xlink)="[^"]*"')


class _Markup:
    """Ready-made SVG markup (text_elements' output, a template's art) as an element of an svgwrite
    drawing; parsed once, here, so bad markup fails where it is added (see `_parse`)."""

    def __init__(self, markup: str):
        self.markup = markup
        self.element = _parse(markup)

    def get_xml(self) -> ET.Element:
        return self.element


def _parse(markup: str) -> ET.Element:
    """`markup` in a <g>, or a ComponentError saying why it cannot be drawn."""
    bad = control_characters(markup)
    if bad:
        at = XML_ILLEGAL.search(markup)
        start = at.start() if at else 0
        shown = ", ".join(f"U+{ord(c):04X}" for c in bad)
        raise ComponentError(f"a text it prints holds the control character {shown}, which cannot be printed "
                             f"(XML allows none but tab and newline): {markup[max(0, start - 30):start + 30]!r}; "
                             "remove it from the text", code=TEXT_CONTROL)
    try:
        element = ET.fromstring(f"<g>{markup}</g>")
    except ET.ParseError as error:
        raise ComponentError(f"its SVG is not well-formed XML ({error}): {markup[:80]!r}",
                             code=COMPONENT_TEMPLATE) from None
    if _depth(element) > MAX_MARKUP_DEPTH:
        raise ComponentError(f"its SVG nests elements more than {MAX_MARKUP_DEPTH} deep", code=COMPONENT_TEMPLATE)
    return element


def _depth(root: ET.Element) -> int:
    """How deep elements nest below `root` (iteratively: the nesting may be hostile)."""
    deepest, stack = 0, [(root, 0)]
    while stack:
        element, depth = stack.pop()
        deepest = max(deepest, depth)
        if deepest > MAX_MARKUP_DEPTH:
            break
        stack.extend((child, depth + 1) for child in element)
    return deepest


class Sketch:
    """An svgwrite drawing in millimetres, with measured text and the cut/fold/glue style."""

    def __init__(self, width: float, height: float, report: FitReport | None = None, direction: str = "auto"):
        if direction not in DIRECTIONS:
            raise ValueError(f"unknown direction {direction!r} (use {', '.join(DIRECTIONS)})")
        self.direction = direction
        self.width, self.height = float(width), float(height)
        self.dwg = svgwrite.Drawing(size=(f"{self.width:.4f}mm", f"{self.height:.4f}mm"),
                                    viewBox=f"0 0 {self.width:.4f} {self.height:.4f}", profile="full", debug=False)
        self.report = report if report is not None else FitReport()

    # ---- plumbing
    def add(self, element, parent=None):
        (parent if parent is not None else self.dwg).add(element)
        return element

    def group(self, parent=None, **attrs):
        return self.add(self.dwg.g(**attrs), parent)

    def svg(self) -> str:
        return self.dwg.tostring()

    def markup(self, svg: str, parent=None):
        """Add ready-made SVG elements (a fragment: any number of elements, in this sketch's mm)."""
        if svg.strip():
            return self.add(_Markup(svg), parent)
        return None

    def fragment(self) -> str:
        """The sketch's elements without the root <svg> (what `markup` takes)."""
        return "".join(ET.tostring(element.get_xml(), encoding="unicode") for element in self.dwg.elements
                       if element is not self.dwg.defs)

    # ---- shapes
    def rect(self, x, y, w, h, fill="none", stroke="none", width=0.0, parent=None, rx=0.0, **extra):
        attrs = dict(fill=fill, stroke=stroke, **extra)
        if stroke != "none":
            attrs["stroke_width"] = f"{width:.4f}"
        if rx:
            attrs["rx"] = f"{rx:.3f}"
            attrs["ry"] = f"{rx:.3f}"
        return self.add(self.dwg.rect((_f(x), _f(y)), (_f(w), _f(h)), **attrs), parent)

    def circle(self, cx, cy, r, fill="none", stroke="none", width=0.0, parent=None, **extra):
        attrs = dict(fill=fill, stroke=stroke, **extra)
        if stroke != "none":
            attrs["stroke_width"] = f"{width:.4f}"
        return self.add(self.dwg.circle((_f(cx), _f(cy)), _f(r), **attrs), parent)

    def line(self, x1, y1, x2, y2, stroke=st.SHEET_INK, width=0.3, dash=None, parent=None, cap="butt", **extra):
        attrs = dict(stroke=stroke, stroke_width=f"{width:.4f}", stroke_linecap=cap, **extra)
        if dash:
            attrs["stroke_dasharray"] = ",".join(f"{d:g}" for d in dash)
        return self.add(self.dwg.line((_f(x1), _f(y1)), (_f(x2), _f(y2)), **attrs), parent)

    def polygon(self, points, fill="none", stroke="none", width=0.0, parent=None, **extra):
        attrs = dict(fill=fill, stroke=stroke, **extra)
        if stroke != "none":
            attrs["stroke_width"] = f"{width:.4f}"
            attrs.setdefault("stroke_linejoin", "miter")
        return self.add(self.dwg.polygon([(_f(x), _f(y)) for x, y in points], **attrs), parent)

    def path(self, d: str, fill="none", stroke="none", width=0.0, parent=None, **extra):
        attrs = dict(fill=fill, stroke=stroke, **extra)
        if stroke != "none":
            attrs["stroke_width"] = f"{width:.4f}"
        return self.add(self.dwg.path(d=d, **attrs), parent)

    # ---- the cut / fold / glue style
    def cut_rect(self, x, y, w, h, parent=None):
        return self.rect(x, y, w, h, stroke=st.CUT_COLOUR, width=st.CUT_MM, parent=parent)

    def cut_polygon(self, points, parent=None):
        return self.polygon(points, stroke=st.CUT_COLOUR, width=st.CUT_MM, parent=parent)

    def cut_circle(self, cx, cy, r, parent=None):
        return self.circle(cx, cy, r, stroke=st.CUT_COLOUR, width=st.CUT_MM, parent=parent)

    def cut_line(self, x1, y1, x2, y2, parent=None):
        return self.line(x1, y1, x2, y2, stroke=st.CUT_COLOUR, width=st.CUT_MM, parent=parent)

    def fold_line(self, x1, y1, x2, y2, parent=None):
        """Dashed; over a light halo so it shows on dark art too."""
        self.line(x1, y1, x2, y2, stroke=st.FOLD_HALO, width=st.FOLD_MM * 2.2, parent=parent, stroke_opacity="0.8")
        return self.line(x1, y1, x2, y2, stroke=st.FOLD_COLOUR, width=st.FOLD_MM, dash=st.FOLD_DASH_MM,
                         parent=parent)

    def glue(self, points, parent=None, tint=True, step=st.GLUE_HATCH_STEP_MM, opacity=1.0):
        """A convex polygon tinted and hatched at 45 degrees: the glue area."""
        g = self.group(parent)
        if tint:
            self.polygon(points, fill=st.GLUE_TINT, parent=g, fill_opacity=f"{opacity:g}")
        for (x1, y1), (x2, y2) in hatch_segments(points, step):
            self.line(x1, y1, x2, y2, stroke=st.GLUE_HATCH, width=st.GLUE_HATCH_MM, parent=g,
                      stroke_opacity=f"{opacity:g}")
        return g

    def glue_rect(self, x, y, w, h, parent=None, **kw):
        return self.glue([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], parent, **kw)

    def registration(self, cx, cy, r=2.0, parent=None):
        """An alignment mark: a circle with a cross through its centre."""
        g = self.group(parent)
        self.circle(cx, cy, r, stroke=st.REGISTRATION, width=0.15, parent=g)
        self.line(cx - 1.6 * r, cy, cx + 1.6 * r, cy, stroke=st.REGISTRATION, width=0.15, parent=g)
        self.line(cx, cy - 1.6 * r, cx, cy + 1.6 * r, stroke=st.REGISTRATION, width=0.15, parent=g)
        return g

    # ---- text
    def text(self, text: str, x: float, y: float, w: float, h: float, *, font: str = "regular",
             size: float = 9, min_size: float = 5, align: str = "middle", valign: str = "middle",
             fill: str = st.SHEET_INK, line_height: float = 1.2, max_lines: int | None = None, rotate: int = 0,
             parent=None, what: str = "", direction: str | None = None) -> float:
        """Lay `text` out in the box (mm) and draw it; returns the font size used (pt).

        rotate=-90: the text reads bottom-to-top inside the box; 90: top-to-bottom.
        direction: "ltr", "rtl" or "auto"; None takes the sketch's (the build language's). Give
        "ltr" for what never mirrors (coordinates, numbers)."""
        direction = self.direction if direction is None else direction
        if rotate:
            if rotate == -90:
                g = self.group(parent, transform=f"translate({_f(x)},{_f(y + h)}) rotate(-90)")
            elif rotate == 90:
                g = self.group(parent, transform=f"translate({_f(x + w)},{_f(y)}) rotate(90)")
            else:
                raise ValueError("rotate must be 0, 90 or -90")
            return self.text(text, 0, 0, h, w, font=font, size=size, min_size=min_size, align=align,
                             valign=valign, fill=fill, line_height=line_height, max_lines=max_lines,
                             parent=g, what=what, direction=direction)
        markup, size_pt = text_markup(self.report, text, x, y, w, h, font=font, size=size, min_size=min_size,
                                      align=align, valign=valign, fill=fill, line_height=line_height,
                                      max_lines=max_lines, what=what, direction=direction)
        if markup:
            self.add(_Markup(markup), parent)
        return size_pt


def text_markup(report: FitReport, text, x: float, y: float, w: float, h: float, *, font: str = "regular",
                size: float = 9, min_size: float = 5, align: str = "middle", valign: str = "middle",
                fill: str = st.SHEET_INK, line_height: float = 1.2, max_lines: int | None = None, opacity=1,
                what: str = "", direction: str = "auto") -> tuple[str, float]:
    """`text` laid out in the box (mm) as SVG <text> elements, and the size used (pt); what does
    not fit or cannot be drawn goes to `report`. (An unknown font, align or direction raises
    ValueError/KeyError from the text layer.)"""
    text = printable(report, "" if text is None else str(text), (float(w), float(h)), float(min_size), font, what)
    shown = digits.printed(text)                     # the build language's digits and signs
    result = layout(shown, font, float(w), float(h), float(size), float(min_size), float(line_height), max_lines,
                    direction)
    report.measure(text, (float(w), float(h)), float(min_size), font, result.overflow,
                   missing_characters(shown, font), what, size_pt=result.size_pt, nominal_pt=float(size),
                   lines=result.lines)
    markup = text_elements(result, float(x), float(y), float(w), float(h), font, align, valign, fill, opacity)
    return markup, result.size_pt


def text_height(text: str, font: str, w: float, size: float, line_height: float = 1.2,
                direction: str = "auto") -> float:
    """Height (mm) of `text` wrapped to width `w` at `size` pt, without shrinking."""
    return layout(digits.printed(str(text)), font, float(w), 1e6, float(size), float(size), float(line_height),
                  None, direction).height_mm


def _f(v: float) -> str:
    s = f"{float(v):.4f}".rstrip("0").rstrip(".")
    return "0" if s in ("", "-0") else s


def hatch_segments(points, step: float) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """45-degree hatch lines (x - y = c) clipped to a convex polygon."""
    pts = [(float(x), float(y)) for x, y in points]
    values = [x - y for x, y in pts]
    lo, hi = min(values), max(values)
    segments = []
    c = math.floor(lo / step) * step + step
    while c < hi - 1e-9:
        hits = []
        for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1]):
            a, b = x1 - y1 - c, x2 - y2 - c
            if (a <= 0 <= b or b <= 0 <= a) and a != b:
                t = a / (a - b)
                hits.append((x1 + t * (x2 - x1), y1 + t * (y2 - y1)))
        if len(hits) >= 2:
            hits.sort()
            if math.dist(hits[0], hits[-1]) > 1e-6:
                segments.append((hits[0], hits[-1]))
        c += step
    return segments


# ---- conversion to something the PDF writer draws

def to_face(svg: str):
    """SVG text -> a CompiledFace (.width/.height in points, .draw(canvas, x, y) at bottom-left),
    through the same compiler as the card faces."""
    from pnp.render.svgcanvas import compile_svg

    return compile_svg(_ROOT_ATTRS.sub("", svg, count=4).replace("<defs />", ""))


def sketch_face(sketch: Sketch):
    return to_face(sketch.svg())


SVG_NS = "http://www.w3.org/2000/svg"
_SCALING = re.compile(r"(matrix|scale)\s*\(([^)]*)\)")


def readable_picture(sketch: Sketch, scale: float):
    """The sketch as a face to draw `scale` times its size (an assembly map's picture of a board),
    without the text that would print there under MIN_PRINTED_PT: a reduced copy is a picture, not
    something to read (the tiles print every word at full size), and type too small to read is
    what the house rules forbid on paper. A text's printed size is its font-size (mm, as the text
    layer writes it) times the scale of every transform above it and `scale`."""
    return to_face(readable_svg(sketch.svg(), scale))


def readable_svg(svg: str, scale: float) -> str:
    """`svg` (a sketch's, in mm) without the <text> that prints under MIN_PRINTED_PT when the
    drawing is drawn `scale` times its size."""
    root = ET.fromstring(svg)
    _drop_small_text(root, scale * PT_PER_MM)
    for element in root.iter():          # back to the plain tags svgwrite writes (no ns0: prefixes)
        element.tag = str(element.tag).removeprefix(f"{{{SVG_NS}}}")
    root.set("xmlns", SVG_NS)
    return ET.tostring(root, encoding="unicode")


def _drop_small_text(root: ET.Element, pt_per_unit: float) -> None:
    """Remove every <text> below `root` whose size, in points, is under MIN_PRINTED_PT; one unit
    of `root`'s user space is `pt_per_unit` points. Iterative: the nesting may be deep."""
    stack: list[tuple[ET.Element, float, float | None]] = [(root, pt_per_unit, None)]
    while stack:
        element, factor, inherited = stack.pop()
        for child in list(element):
            size = _number(child.get("font-size"), inherited)
            child_factor = factor * _transform_scale(child.get("transform", ""))
            too_small = size is not None and size * child_factor < MIN_PRINTED_PT - 1e-9
            if child.tag == f"{{{SVG_NS}}}text" and too_small:
                element.remove(child)
            else:
                stack.append((child, child_factor, size))


def _transform_scale(transform: str) -> float:
    """How much an SVG transform list scales lengths (the square root of its determinant; a
    translate, rotate or skew does not scale)."""
    factor = 1.0
    for name, args in _SCALING.findall(transform):
        values = [float(v) for v in re.split(r"[\s,]+", args.strip()) if v]
        if name == "matrix" and len(values) == 6:
            factor *= abs(values[0] * values[3] - values[1] * values[2]) ** 0.5
        elif name == "scale" and values:
            factor *= abs(values[0] * (values[1] if len(values) > 1 else values[0])) ** 0.5
    return factor


def _number(value: str | None, default: float | None) -> float | None:
    try:
        return float(value) if value is not None else default
    except ValueError:        # "12px", "1em": not what the text layer writes; keep the text
        return default


def chunks(items: Iterable, n: int) -> list[list]:
    items = list(items)
    return [items[i:i + n] for i in range(0, len(items), n)]
