"""Fold-up walls (type `walls`): for each wall of a collection, `count` strips that fold into a
closed box `thickness` x `height` whose standing length is exactly `size` cells of the board
(`size` x the board's `pitch`), so a wall covers the grooves of exactly that many cells.

Across a strip, top to bottom: a glue flap, a side, the top (with the wall's name and number), the
other side and the base. Walls never mirror in right-to-left languages (their label is centred).
"""
from __future__ import annotations

from pnp.components.core import Context, Part, length, need, part
from pnp.components.style import tint
from pnp.components.svgkit import Sketch
from pnp.text.fitreport import MIN_PRINTED_PT


def wall_panels(height: float, thickness: float) -> list[tuple[str, float]]:
    """Across a wall strip, top to bottom: it folds into a closed box, thickness x height."""
    return [("glue", thickness), ("side", height), ("top", thickness), ("side", height), ("base", thickness)]


def draw(ctx: Context, spec: dict) -> list[list[Part]]:
    board = ctx.collection(spec, "board")
    walls = ctx.collection(spec, "walls")
    pitch = length(need(board, "pitch", "the board collection", "board"), "the board's pitch", "board")
    colour, mortar, ink = ctx.colours(spec, "colour", "mortar", "ink")
    cap = tint(colour, spec["cap_tint"])
    panels = wall_panels(spec["height"], spec["thickness"])
    total = sum(w for _, w in panels)
    groups = []
    for wall in walls:
        what = f"wall {wall.get('id')!r}"
        size, count = int(need(wall, "size", what, "walls")), int(need(wall, "count", what, "walls"))
        name = ctx.t(need(wall, "name", what, "walls"))
        length_mm = size * pitch          # the standing length: exactly `size` cells of the board
        parts = []
        for i in range(count):
            s = ctx.sketch(length_mm, total)
            y = 0.0
            for kind, w in panels:
                if kind == "glue":
                    s.glue_rect(0, y, length_mm, w)
                elif kind == "side":
                    s.rect(0, y, length_mm, w, fill=colour)
                    bricks(s, y, length_mm, w, pitch / 3, mortar)
                else:
                    s.rect(0, y, length_mm, w, fill=cap)
                    if kind == "top":
                        s.text(f"{name} · {i + 1}/{count}", 1, y, length_mm - 2, w, font="condensed", size=6,
                               min_size=MIN_PRINTED_PT, fill=ink,
                               what="wall label")
                y += w
            y = 0.0
            for _, w in panels[:-1]:
                y += w
                s.fold_line(0, y, length_mm, y)
            s.cut_rect(0, 0, length_mm, total)
            parts.append(part(s, f"wall {wall.get('id')}"))
        groups.append(parts)
    return groups


def bricks(s: Sketch, y: float, length_mm: float, h: float, step: float, mortar: str) -> None:
    """Three courses of bricks `step` long, every other course offset by half a brick."""
    for row in range(1, 3):
        s.line(0, y + h * row / 3, length_mm, y + h * row / 3, stroke=mortar, width=0.2)
    for row in range(3):
        bx = (step / 2 if row % 2 else 0.0) + step
        while bx < length_mm - 0.5:
            s.line(bx, y + h * row / 3, bx, y + h * (row + 1) / 3, stroke=mortar, width=0.2)
            bx += step
