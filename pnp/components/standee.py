"""Fold-over standees (type `standee`): a strip with a glue tab, the figure, the figure again upside
down (the back once folded) and a second tab; a square base with the two glue areas; the folding
help beside them. The `art` template draws the figure in its box (the default,
templates/_components/standee.svg.j2, an accent panel with the name).
"""
from __future__ import annotations

from pnp.components.core import Context, Part, part
from pnp.components.errors import ComponentError
from pnp.text.fitreport import MIN_PRINTED_PT

BASE_MARGIN_MM = 2.0    # the base is this much wider than the figure on each side


def draw(ctx: Context, spec: dict) -> list[list[Part]]:
    w, fig, tab = spec["width"], spec["height"], spec["base"]
    accents = [ctx.colour(value, "colours") for value in spec["colours"]]
    if not accents:
        raise ComponentError("give the standees at least one colour", "colours")
    base_fill, ink = ctx.colours(spec, "base_colour", "ink")
    name = ctx.t(spec["name"])
    strip_h = 2 * tab + 2 * fig
    parts = []
    for i in range(spec["count"]):
        s = ctx.sketch(w, strip_h)
        accent = accents[i % len(accents)]
        s.glue_rect(0, 0, w, tab)
        for y, upside_down in ((tab, False), (tab + fig, True)):
            g = s.group(transform=f"rotate(180 {w / 2:.3f} {y + fig / 2:.3f})") if upside_down else s.group()
            s.markup(ctx.art(spec["art"], "standee", accent=accent, name=f"{name} {i + 1}", ink=ink,
                             x=0.0, y=y, w=w, h=fig), parent=g)
        s.glue_rect(0, tab + 2 * fig, w, tab)
        for y in (tab, tab + fig, tab + 2 * fig):
            s.fold_line(0, y, w, y)
        s.cut_rect(0, 0, w, strip_h)
        parts.append(part(s, "standee"))
        side = w + 2 * BASE_MARGIN_MM
        b = ctx.sketch(side, side)
        b.rect(0, 0, side, side, fill=base_fill)
        b.glue_rect(BASE_MARGIN_MM, side / 2 - tab, w, tab)
        b.glue_rect(BASE_MARGIN_MM, side / 2, w, tab)
        b.line(BASE_MARGIN_MM, side / 2, BASE_MARGIN_MM + w, side / 2, stroke=ink, width=0.5)
        b.cut_rect(0, 0, side, side)
        parts.append(part(b, "standee base"))
    if spec.get("help"):
        help_w = spec["help_width"]
        h = ctx.sketch(help_w, strip_h)
        h.text(ctx.t(spec["help"]), 0, 0, help_w, strip_h, size=8, min_size=MIN_PRINTED_PT, align="start", valign="top",
               what="standee help")
        parts.append(part(h, "standee help"))
    return [parts]
