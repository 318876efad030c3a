"""Small vector icons shared by the component drawers (all sizes in mm)."""
from __future__ import annotations

import math

from pnp.components.svgkit import Sketch, _f


def mark(s: Sketch, kind: str, cx: float, cy: float, r: float, colour: str, parent=None) -> None:
    """The colour-blind marks of pieces.yaml: dot, ring, bar, cross (r: half the mark's size)."""
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
        raise ValueError(f"unknown mark {kind!r} (dot, ring, bar, cross)")


def zombie(s: Sketch, cx: float, cy: float, size: float, fill: str, ink: str, parent=None) -> None:
    """A zombie head: lopsided skull, stitched, one arm reaching out. size = overall height."""
    k = size / 10.0
    g = s.group(parent)
    s.path(f"M{_f(cx - 3.2 * k)},{_f(cy + 1 * k)} Q{_f(cx - 3.6 * k)},{_f(cy - 4.6 * k)} {_f(cx)},{_f(cy - 4.8 * k)} "
           f"Q{_f(cx + 3.8 * k)},{_f(cy - 4.4 * k)} {_f(cx + 3.1 * k)},{_f(cy + 0.6 * k)} "
           f"L{_f(cx + 2.2 * k)},{_f(cy + 3.2 * k)} L{_f(cx - 2.4 * k)},{_f(cy + 3.4 * k)} Z", fill=fill, parent=g)
    s.rect(cx - 1.4 * k, cy + 3.0 * k, 2.8 * k, 1.6 * k, fill=fill, parent=g)            # neck
    s.circle(cx - 1.3 * k, cy - 1.2 * k, 0.9 * k, fill=ink, parent=g)                     # eyes
    s.circle(cx + 1.4 * k, cy - 1.0 * k, 0.6 * k, fill=ink, parent=g)
    s.line(cx - 1.6 * k, cy + 1.6 * k, cx + 1.6 * k, cy + 1.4 * k, stroke=ink, width=0.35 * k, parent=g)
    for i in range(4):                                                                    # stitches
        x = cx - 1.2 * k + i * 0.8 * k
        s.line(x, cy + 1.1 * k, x, cy + 1.9 * k, stroke=ink, width=0.2 * k, parent=g)
    s.line(cx + 0.6 * k, cy - 4.6 * k, cx + 1.4 * k, cy - 3.0 * k, stroke=ink, width=0.25 * k, parent=g)


def vampire(s: Sketch, cx: float, cy: float, size: float, fill: str, ink: str, parent=None) -> None:
    """A vampire: high-collared cape, head with widow's peak, two fangs."""
    k = size / 10.0
    g = s.group(parent)
    s.path(f"M{_f(cx - 4.6 * k)},{_f(cy + 5 * k)} L{_f(cx - 3.2 * k)},{_f(cy - 1.6 * k)} L{_f(cx - 4.2 * k)},{_f(cy - 4.6 * k)} "
           f"L{_f(cx)},{_f(cy - 0.6 * k)} L{_f(cx + 4.2 * k)},{_f(cy - 4.6 * k)} L{_f(cx + 3.2 * k)},{_f(cy - 1.6 * k)} "
           f"L{_f(cx + 4.6 * k)},{_f(cy + 5 * k)} Z", fill=fill, parent=g)                  # cape with collar
    s.path(f"M{_f(cx - 2.2 * k)},{_f(cy - 2.6 * k)} Q{_f(cx - 2.2 * k)},{_f(cy - 5 * k)} {_f(cx)},{_f(cy - 5 * k)} "
           f"Q{_f(cx + 2.2 * k)},{_f(cy - 5 * k)} {_f(cx + 2.2 * k)},{_f(cy - 2.6 * k)} "
           f"Q{_f(cx + 2 * k)},{_f(cy + 0.4 * k)} {_f(cx)},{_f(cy + 0.8 * k)} "
           f"Q{_f(cx - 2 * k)},{_f(cy + 0.4 * k)} {_f(cx - 2.2 * k)},{_f(cy - 2.6 * k)} Z", fill=fill, stroke=ink,
           width=0.3 * k, parent=g)                                                          # head
    s.path(f"M{_f(cx - 2.2 * k)},{_f(cy - 3.6 * k)} L{_f(cx)},{_f(cy - 3 * k)} L{_f(cx + 2.2 * k)},{_f(cy - 3.6 * k)} "
           f"L{_f(cx + 2.2 * k)},{_f(cy - 5.2 * k)} L{_f(cx - 2.2 * k)},{_f(cy - 5.2 * k)} Z", fill=ink, parent=g)  # hair
    s.circle(cx - 0.9 * k, cy - 2.2 * k, 0.45 * k, fill=ink, parent=g)
    s.circle(cx + 0.9 * k, cy - 2.2 * k, 0.45 * k, fill=ink, parent=g)
    for dx in (-0.6, 0.6):                                                                 # fangs
        s.polygon([(cx + (dx - 0.3) * k, cy - 0.6 * k), (cx + (dx + 0.3) * k, cy - 0.6 * k), (cx + dx * k, cy + 0.5 * k)],
                  fill=ink, parent=g)
    s.line(cx - 1.2 * k, cy - 0.6 * k, cx + 1.2 * k, cy - 0.6 * k, stroke=ink, width=0.25 * k, parent=g)


def wall(s: Sketch, x: float, y: float, w: float, h: float, fill: str, ink: str, parent=None) -> None:
    """A small brick wall icon filling the box."""
    g = s.group(parent)
    s.rect(x, y, w, h, fill=fill, stroke=ink, width=max(h * 0.06, 0.15), parent=g)
    rows = 3
    for r in range(1, rows):
        s.line(x, y + h * r / rows, x + w, y + h * r / rows, stroke=ink, width=max(h * 0.04, 0.1), parent=g)
    bricks = max(2, round(w / h * 1.5))
    for r in range(rows):
        offset = 0.5 if r % 2 else 0.0
        for b in range(bricks + 1):
            bx = x + (b + offset) * w / bricks
            if x < bx < x + w:
                s.line(bx, y + h * r / rows, bx, y + h * (r + 1) / rows, stroke=ink, width=max(h * 0.04, 0.1), parent=g)


def footsteps(s: Sketch, cx: float, cy: float, size: float, fill: str, parent=None) -> None:
    """An arrow: 'move'."""
    k = size / 10.0
    s.polygon([(cx - 5 * k, cy - 1.2 * k), (cx + 1.5 * k, cy - 1.2 * k), (cx + 1.5 * k, cy - 3 * k),
               (cx + 5 * k, cy), (cx + 1.5 * k, cy + 3 * k), (cx + 1.5 * k, cy + 1.2 * k), (cx - 5 * k, cy + 1.2 * k)],
              fill=fill, parent=parent)


def lantern(s: Sketch, cx: float, cy: float, size: float, fill: str, ink: str, parent=None) -> None:
    k = size / 10.0
    s.line(cx, cy - 5 * k, cx, cy - 3.6 * k, stroke=ink, width=0.4 * k, parent=parent)
    s.circle(cx, cy - 5.3 * k, 0.6 * k, stroke=ink, width=0.3 * k, parent=parent)
    s.polygon([(cx - 2.2 * k, cy - 3.6 * k), (cx + 2.2 * k, cy - 3.6 * k), (cx + 1.6 * k, cy + 3.4 * k),
               (cx - 1.6 * k, cy + 3.4 * k)], fill=fill, stroke=ink, width=0.4 * k, parent=parent)
    s.rect(cx - 2.4 * k, cy + 3.4 * k, 4.8 * k, 1.2 * k, fill=ink, parent=parent)


def star_points(cx: float, cy: float, r: float, n: int = 5) -> list[tuple[float, float]]:
    pts = []
    for i in range(2 * n):
        a = -math.pi / 2 + i * math.pi / n
        rr = r if i % 2 == 0 else r * 0.45
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return pts
