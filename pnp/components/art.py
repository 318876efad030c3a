"""Art templates: the part of a component a pack draws itself, in Jinja SVG.

A component setting such as `art: my-game/token.svg.j2` names a template below templates/ (the
pack's own `templates/` folder first, then the shared one), rendered by the cards' sandboxed
environment (pnp.render.templates.Renderer: XML autoescape, strict undefined, the `mm` filter and
the `hsl`, `seeded`, `range`, `min`, `max`, `abs`, `round`, `len`, `enumerate`, `zip` globals).
Unlike a card template it draws a *fragment*: SVG elements in the component's millimetres, with
no <svg> root; the drawer places them (its docs say which values it passes, e.g. a token's `cx`,
`cy`, `r` and `piece`). Every template also gets:

    t(key, n=None, **values)    the text in the build language (the pack's, else the shared sheet strings)
    textbox(text, x, y, w, h, font=..., size=9, min_size=6, align="middle", valign="middle",
            fill="#000000", line_height=1.2, max_lines=None, opacity=1, direction=<the language's>)
                                measured text, as on cards (but the direction defaults to the
                                build language's: give "ltr" for what never mirrors)
    mark(kind, cx, cy, r, colour)   a colour-blind mark: dot, ring, bar or cross (r: half its size)
    tint(colour, amount)        the colour mixed with white (0: itself, 1: white)
    colour(name)                a palette colour by name ('#rrggbb' passes through)
    palette, lang, rtl, direction, component (the entry's settings), pack, collections

Text that does not fit, or that the fonts cannot draw, is a build error like any other text.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from pnp.components import marks
from pnp.components.errors import COMPONENT_TEMPLATE, ComponentError
from pnp.components.style import tint
from pnp.components.svgkit import Sketch, text_markup
from pnp.render.faces import pack_context
from pnp.render.templates import Renderer, Sandbox, TemplateProblem

if TYPE_CHECKING:
    from pnp.components.core import Context


class ArtRenderer:
    """Renders art templates for one drawing context (its language, text report, settings)."""

    def __init__(self, ctx: Context):
        self.ctx = ctx
        dirs = tuple(ctx.pack.template_dirs)
        self.renderer = Renderer(list(dirs), environment(dirs))   # a drawing's own, in the process's environment
        self.what = ""
        self.globals: dict[str, Any] = {
            **pack_context(ctx.pack, ctx.lang),     # what card templates see too (pnp.render.faces)
            "t": ctx.t, "textbox": self.textbox, "mark": mark_markup, "tint": tint, "colour": self.colour,
        }

    def textbox(self, text, x, y, w, h, font="regular", size=9, min_size=6, align="middle", valign="middle",
                fill="#000000", line_height=1.2, max_lines=None, opacity=1, direction=None) -> Markup:
        markup, _ = text_markup(self.ctx.report, text, x, y, w, h, font=font, size=size, min_size=min_size,
                                align=align, valign=valign, fill=fill, line_height=line_height,
                                max_lines=max_lines, opacity=opacity, what=self.what,
                                direction=self.ctx.direction if direction is None else direction)
        return Markup(markup)

    def colour(self, name: str) -> str:
        return self.ctx.colour(name)

    def render(self, name: str, what: str, key: str, values: dict[str, Any]) -> str:
        self.what = what
        try:
            return self.renderer.run(name, {**self.globals, **values})
        except TemplateProblem as problem:    # at the template's line, as a card template's would be
            raise ComponentError.of_template(problem, key) from None
        except ComponentError as error:       # colour() with an unknown name: at the line that called it
            raise ComponentError.of_template(self.renderer.problem(COMPONENT_TEMPLATE, error, name, error.message),
                                             key) from None

    def svg_problem(self, name: str, error: Exception, key: str) -> ComponentError:
        """What template `name` (the entry's setting `key`) drew that the SVG compiler refused, at
        the template line that writes it."""
        return ComponentError.of_template(self.renderer.svg_problem(name, error), key)


@lru_cache(maxsize=16)
def environment(template_dirs: tuple[Path, ...]) -> Sandbox:
    """The cards' sandboxed environment for these template folders, made once per process: its
    templates are compiled once (and recompiled if a file changes)."""
    return Renderer(list(template_dirs)).env


def mark_markup(kind: str, cx: float, cy: float, r: float, colour: str) -> Markup:
    """A colour-blind mark as SVG elements (for templates)."""
    s = Sketch(1, 1)
    marks.mark(s, kind, float(cx), float(cy), float(r), colour)
    return Markup(s.fragment())
