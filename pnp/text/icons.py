"""Inline icons: a pack's `icons/<name>.svg`, drawn inside text as `:name:` (pnp.text.markup).

An icon file is read with a strict subset of SVG, so that what prints is what the designer drew
and nothing else: a root <svg> with a viewBox; g, path, rect, circle, ellipse, polygon inside it
(title, desc and metadata are skipped); geometry attributes and `transform`; `fill="none"` and
`stroke`/`stroke-width` (as attributes or in style="..."); attributes of other namespaces
(Inkscape's, Sodipodi's) are ignored. Colours are not the icon's: every shape is painted in the
text's colour (a stroke too), so an icon reads like the word beside it. No <use>, <image>, text,
DOCTYPE or entities. The file must be inside the pack (a symlink out of it is refused) and at most
MAX_ICON_BYTES with MAX_ICON_ELEMENTS elements.

The drawing is emitted as `<g transform="matrix(...)">` of those shapes, which pnp.render.svgcanvas
compiles like any template's shapes.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from markupsafe import escape

from pnp.limits import MAX_ICON_BYTES, MAX_ICON_DEPTH, MAX_ICON_ELEMENTS

SVG_NS = "http://www.w3.org/2000/svg"
NAME = re.compile(r"[a-z][a-z0-9_-]{0,63}\Z")

_SKIPPED = {"title", "desc", "metadata"}
_GEOMETRY = {
    "g": set(),
    "path": {"d"},
    "rect": {"x", "y", "width", "height", "rx", "ry"},
    "circle": {"cx", "cy", "r"},
    "ellipse": {"cx", "cy", "rx", "ry"},
    "polygon": {"points"},
}
_PAINT = {"fill", "stroke", "stroke-width", "fill-rule", "stroke-linecap", "stroke-linejoin"}
_IGNORED = {"id", "class", "version", "x", "y", "width", "height", "xmlns", "preserveAspectRatio",
            "enable-background"}
_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_SAFE_VALUE = re.compile(r"[-+.,\w\s#()%]*\Z")


class IconError(ValueError):
    """An icon file that cannot be used; the message says why, in a designer's words."""


@dataclass(frozen=True)
class Icon:
    name: str
    view_box: tuple[float, float, float, float]
    shapes: tuple[tuple[str, tuple[tuple[str, str], ...], int], ...]   # (tag, attributes, depth change)

    @property
    def aspect(self) -> float:
        """Width over height."""
        return self.view_box[2] / self.view_box[3]

    def markup(self, x: float, top: float, height: float, fill: str, opacity: float = 1.0) -> str:
        """The icon drawn `height` mm tall with its top-left corner at (x, top), in `fill`."""
        minx, miny, _w, h = self.view_box
        scale = height / h
        paint = f' fill-opacity="{opacity:g}"' if opacity != 1 else ""
        parts = [f'<g transform="matrix({scale:.6g} 0 0 {scale:.6g} {x - minx * scale:.3f} {top - miny * scale:.3f})" '
                 f'fill="{escape(fill)}" stroke="none"{paint}>']
        for tag, attributes, _ in self.shapes:
            if tag == "/g":
                parts.append("</g>")
                continue
            shown = "".join(f' {k}="{escape(fill if k == "stroke" and v != "none" else v)}"' for k, v in attributes)
            parts.append(f"<{tag}{shown}>" if tag == "g" else f"<{tag}{shown}/>")
        parts.append("</g>")
        return "".join(parts)


def icon_path(folder: Path, root: Path, name: str) -> Path:
    """The file of icon `name`, refused when the name or the file leaves the pack."""
    if not NAME.match(name):
        raise IconError(f"{name!r} is not an icon name (lowercase letters, digits, - and _)")
    path = folder / f"{name}.svg"
    try:
        path.resolve().relative_to(root.resolve())
    except ValueError:
        raise IconError(f"{path.name} leads outside the pack folder") from None
    return path


@lru_cache(maxsize=1024)
def load_icon(path: Path, name: str, stamp: tuple[int, int]) -> Icon:
    """Read and check one icon file (`stamp`: its size and mtime, so an edited icon is read again)."""
    if stamp[0] > MAX_ICON_BYTES:
        raise IconError(f"{path.name} is {stamp[0]:,} bytes, more than the {MAX_ICON_BYTES:,} an icon may be")
    data = path.read_bytes()[:MAX_ICON_BYTES + 1]
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        raise IconError(f"{path.name}: a DOCTYPE or entity is not allowed in an icon")
    try:
        root = ET.fromstring(data)
    except ET.ParseError as error:
        raise IconError(f"{path.name} is not SVG that can be read ({error})") from None
    if _local(root.tag) != "svg":
        raise IconError(f"{path.name}: the root element is <{_local(root.tag)}>, not <svg>")
    view_box = _view_box(root, path.name)
    shapes: list[tuple[str, tuple[tuple[str, str], ...], int]] = []
    for child in root:
        _walk(child, path.name, shapes, 1)
    if not shapes:
        raise IconError(f"{path.name} draws nothing (no path, rect, circle, ellipse or polygon)")
    return Icon(name, view_box, tuple(shapes))


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1] if tag.startswith("{") else tag


def _view_box(root: ET.Element, file: str) -> tuple[float, float, float, float]:
    text = root.get("viewBox")
    numbers = re.findall(_NUMBER, text or "")
    if text is None or len(numbers) != 4:
        raise IconError(f"{file}: the <svg> needs a viewBox of four numbers (it says where the icon is)")
    minx, miny, w, h = map(float, numbers)
    if not (w > 0 and h > 0):
        raise IconError(f"{file}: the viewBox must have a positive width and height")
    return minx, miny, w, h


def _walk(el: ET.Element, file: str, shapes: list, depth: int) -> None:
    if el.tag is ET.Comment or not isinstance(el.tag, str):
        return
    if el.tag.startswith("{") and not el.tag.startswith("{" + SVG_NS + "}"):
        return                                      # sodipodi:namedview and the like
    tag = _local(el.tag)
    if tag in _SKIPPED:
        return
    if tag not in _GEOMETRY:
        raise IconError(f"{file}: <{tag}> is not allowed in an icon (use {', '.join(sorted(_GEOMETRY))})")
    if depth > MAX_ICON_DEPTH:
        raise IconError(f"{file}: groups nest deeper than {MAX_ICON_DEPTH}")
    if len(shapes) >= MAX_ICON_ELEMENTS:
        raise IconError(f"{file} has more than {MAX_ICON_ELEMENTS} elements")
    shapes.append((tag, _attributes(el, tag, file), 1 if tag == "g" else 0))
    if tag == "g":
        for child in el:
            _walk(child, file, shapes, depth + 1)
        shapes.append(("/g", (), -1))
    elif len(el):
        raise IconError(f"{file}: <{tag}> may not hold other elements")


def _attributes(el: ET.Element, tag: str, file: str) -> tuple[tuple[str, str], ...]:
    declared = dict(el.attrib)
    for item in declared.pop("style", "").split(";"):
        if ":" in item:
            key, value = (part.strip() for part in item.split(":", 1))
            declared.setdefault(key, value)
    kept = []
    for key, value in sorted(declared.items()):
        if key.startswith("{"):
            continue                                # inkscape:label, sodipodi:...
        if key in _GEOMETRY[tag] or key == "transform":
            if not _SAFE_VALUE.match(value):
                raise IconError(f"{file}: <{tag} {key}=...> holds characters no geometry has")
            kept.append((key, value))
        elif key == "fill":
            if value.strip() == "none":
                kept.append(("fill", "none"))      # a hole stays a hole; any colour becomes the text's
        elif key == "stroke":
            kept.append(("stroke", "none" if value.strip() == "none" else "text"))
        elif key in _PAINT:
            if not _SAFE_VALUE.match(value):
                raise IconError(f"{file}: <{tag} {key}={value!r}> cannot be read")
            kept.append((key, value))
        elif key in _IGNORED or key.startswith(("fill-opacity", "stroke-opacity", "opacity", "color",
                                                "font", "display", "overflow", "clip-rule")):
            continue
        else:
            raise IconError(f"{file}: attribute {key!r} of <{tag}> is not allowed in an icon")
    return tuple(kept)


def check_drawable(icon: Icon) -> None:
    """Compile the icon once with the SVG compiler: geometry it cannot read is an IconError here,
    naming the icon, instead of a template.svg problem of the whole face."""
    from pnp.render.svgcanvas import UnsupportedSvg, compile_svg

    svg = (f'<svg xmlns="{SVG_NS}" width="10mm" height="10mm" viewBox="0 0 10 10">'
           f'{icon.markup(0, 0, 10, "#000000")}</svg>')
    try:
        compile_svg(svg)
    except UnsupportedSvg as error:
        raise IconError(f"{icon.name}.svg cannot be drawn: {error}") from None
