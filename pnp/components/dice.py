"""Dice (type `dice`): a cross-shaped cube net per die of a collection, `face` mm faces, glue tabs.

Each face is a `face` x `face` square of the `background` colour; the `art` template draws its
picture and label (the default, templates/_components/die-face.svg.j2, centres the label). Faces
never mirror in right-to-left languages: numbers and signs read left to right (the art gives
direction="ltr"); only words follow the language.
"""
from __future__ import annotations

from pnp.components.core import Context, Part, need, part
from pnp.components.errors import ComponentError
from pnp.components.svgkit import Sketch
from pnp.text.fitreport import MIN_PRINTED_PT

# Cross net: (column, row) of the six faces, in the order of the data's faces list. Faces 0/3,
# 1/4 and 2/5 end up opposite each other.
NET = [(1, 0), (0, 1), (1, 1), (1, 2), (2, 1), (3, 1)]
# Glue tabs: (face index in NET, edge); the seven edges that each meet an untabbed edge.
TABS = [(1, "top"), (4, "top"), (5, "top"), (1, "bottom"), (4, "bottom"), (5, "bottom"), (5, "right")]
EDGES = {"top": ((0, 0), (1, 0), (0, -1)), "bottom": ((0, 1), (1, 1), (0, 1)),
         "left": ((0, 0), (0, 1), (-1, 0)), "right": ((1, 0), (1, 1), (1, 0))}
TITLE_MM = 6.0


def draw(ctx: Context, spec: dict) -> list[list[Part]]:
    dice = ctx.collection(spec, "dice")
    size, tab = spec["face"], spec["tab"]
    paints = dict(zip(("background", "label_colour", "accent", "ink"),
                      ctx.colours(spec, "background", "label", "accent", "ink")))
    parts = []
    for die in dice:
        faces = need(die, "faces", f"die {die.get('id')!r}", "dice")
        if len(faces) != 6:
            raise ComponentError(f"die {die.get('id')!r}: a cube has 6 faces, the data gives {len(faces)}", "dice")
        s = ctx.sketch(4 * size + tab, 3 * size + TITLE_MM)
        s.text(ctx.t(need(die, "name", f"die {die.get('id')!r}", "dice")), size * 2, 0, 2 * size + tab, TITLE_MM,
               font="bold", size=9, min_size=MIN_PRINTED_PT, align="start", fill=paints["ink"], what="die name")
        for (c, r), face in zip(NET, faces):
            x, y = c * size, TITLE_MM + r * size
            s.rect(x, y, size, size, fill=paints["background"])          # the face: exactly size x size
            label = ctx.t(need(face, "label", f"a face of die {die.get('id')!r}", "dice"))
            s.markup(ctx.art(spec["art"], "die face", die=die, face=face, label=label, x=x, y=y, size=size,
                             **paints))
        net(s, size, tab, 0, TITLE_MM)
        parts.append(part(s, f"die {die.get('id')}"))
    return [parts]


def net(s: Sketch, size: float, tab: float, ox: float, oy: float) -> None:
    """The net's fold lines, glue tabs and cut outline around faces at (ox, oy)."""
    cells = {pos: i for i, pos in enumerate(NET)}
    tabs = set(TABS)
    for i, (c, r) in enumerate(NET):
        for name, ((ax, ay), (bx, by), (nx, ny)) in EDGES.items():
            p = (ox + (c + ax) * size, oy + (r + ay) * size)
            q = (ox + (c + bx) * size, oy + (r + by) * size)
            neighbour = (c + nx, r + ny)
            if neighbour in cells:
                if cells[neighbour] > i:
                    s.fold_line(*p, *q)
            elif (i, name) in tabs:
                inset = tab * 0.9
                ux, uy = (q[0] - p[0]) / size, (q[1] - p[1]) / size
                outline = [p, (p[0] + nx * tab + ux * inset, p[1] + ny * tab + uy * inset),
                           (q[0] + nx * tab - ux * inset, q[1] + ny * tab - uy * inset), q]
                s.glue(outline)
                s.fold_line(*p, *q)
                for a, b in zip(outline, outline[1:]):
                    s.cut_line(*a, *b)
            else:
                s.cut_line(*p, *q)
