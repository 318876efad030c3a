"""Colour-blind marks: a small shape printed with a colour so that it is never the only clue
(pieces of the same colour share a mark; the board's zones repeat it). All sizes in mm."""
from __future__ import annotations

from pnp.components.svgkit import Sketch

KINDS = ("dot", "ring", "bar", "cross")


def mark(s: Sketch, kind: str, cx: float, cy: float, r: float, colour: str, parent=None) -> None:
    """One of KINDS centred at (cx, cy); r is half the mark's size."""
    w = max(r * 0.35, 0.3)
    if kind == "dot":
        s.circle(cx, cy, r * 0.75, fill=colour, parent=parent)
    elif kind == "ring":
        s.circle(cx, cy, r - w / 2, stroke=colour, width=w, parent=parent)
    elif kind == "bar":
        s.rect(cx - r, cy - w * 0.75, 2 * r, w * 1.5, fill=colour, parent=parent)
    elif kind == "cross":
        d = r * 0.8
        s.line(cx - d, cy - d, cx + d, cy + d, stroke=colour, width=w * 1.2, parent=parent)
        s.line(cx - d, cy + d, cx + d, cy - d, stroke=colour, width=w * 1.2, parent=parent)
    else:
        raise ValueError(f"unknown mark {kind!r} ({', '.join(KINDS)})")
