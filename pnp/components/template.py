"""A pack's own component (type `template`): a Jinja SVG template drawing one part, `count` copies.

The template (below templates/, found like card templates: the pack's own `templates/` folder
first) draws SVG elements in a `w` x `h` millimetre box with (0, 0) at its top-left corner, no
<svg> root; it gets `copy` (1..count) and `count` besides everything pnp.components.art gives
every art template (t, textbox, mark, tint, colour, palette, lang, rtl, component...). The part
is cut out along its edge unless `cut: false`, and packed on the parts pages with the others.
"""
from __future__ import annotations

from pnp.components.core import Context, Part, part
from pnp.components.errors import COMPONENT_DATA, COMPONENT_TEMPLATE, ComponentError
from pnp.render.svgcanvas import UnsupportedSvg


def draw(ctx: Context, spec: dict) -> list[list[Part]]:
    w, h, count = spec["width"], spec["height"], spec["count"]
    parts = []
    for copy in range(1, count + 1):
        s = ctx.sketch(w, h)
        art = ctx.art(spec["template"], spec["label"], "template", w=w, h=h, copy=copy, count=count)
        try:
            s.markup(art)
        except ComponentError as error:       # what the template drew cannot be drawn: the template's fault
            code = COMPONENT_TEMPLATE if error.code == COMPONENT_DATA else error.code
            raise ComponentError(f"template {spec['template']}: {error.message}", "template", code) from None
        if spec["cut"]:
            s.cut_rect(0, 0, w, h)
        try:
            parts.append(part(s, spec["label"]))
        except UnsupportedSvg as error:       # what the template wrote, the compiler does not draw
            raise ctx.art_svg_problem(spec["template"], error, "template") from None
    return [parts]
