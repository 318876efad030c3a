"""Where a tile's own marks go: only on the strips a neighbour is glued over.

Tiles of a board or mat (pnp.sheets.parts.plan_tiles) overlap their neighbours by `plan.overlap`
mm. They are glued in reading order: each tile is laid over the right strip of the tile before it
in its row and over the bottom strip of the tile above it. So the strips a tile loses under its
neighbours are its right strip (when a tile follows in the row) and its bottom strip (when a tile
follows in the column); everything else of the tile stays visible on the finished board and shows
the drawing only.

The tile's label (row.column), its alignment marks (⊕) and its glue hatching go on those covered
strips. The last tile (bottom-right; the only tile of a 1x1 board) is glued on top of its
neighbours and nothing covers it: it prints no label and no marks. Its page's footer names it, and
once cut it is the one tile without a number.

Every box here is in the tile's own millimetres: (0, 0) is the top-left corner of its window.
"""
from __future__ import annotations

from dataclasses import dataclass

from pnp.sheets.parts import Tile, TilePlan

Box = tuple[float, float, float, float]      # x, y, w, h in mm

LABEL_W, LABEL_H = 13.0, 7.0      # the label's box where the strip is wide enough
LABEL_INSET = 1.5                 # from the strip's start (its top, or its left end)
MARK_R = 2.0                      # the alignment mark's circle radius; its cross reaches MARK_REACH * MARK_R
MARK_REACH = 1.6                  # (as svgkit.Sketch.registration draws it)
MARK_AT = (0.3, 0.7)              # where along a strip its two marks sit


@dataclass(frozen=True)
class TileMark:
    """Something a tile prints besides its window of the drawing."""
    kind: str         # "label" or "registration"
    box: Box          # what it covers, in the tile's mm
    text: str = ""    # a label's words


def covered_strips(tile: Tile, plan: TilePlan) -> list[Box]:
    """The strips of `tile` its neighbours are glued over: the right one, then the bottom one."""
    ov = plan.overlap
    strips = []
    if tile.col < plan.cols - 1:
        strips.append((tile.w - ov, 0.0, ov, tile.h))
    if tile.row < plan.rows - 1:
        strips.append((0.0, tile.h - ov, tile.w, ov))
    return strips


def tile_label(tile: Tile) -> str:
    return f"{tile.row + 1}.{tile.col + 1}"


def tile_marks(tile: Tile, plan: TilePlan) -> list[TileMark]:
    """The tile's label at the start of its first covered strip, and two alignment marks along the
    middle of every covered strip; nothing on a tile nothing covers (see the module's doc)."""
    strips = covered_strips(tile, plan)
    if not strips:
        return []
    marks = [TileMark("label", _label_box(strips[0]), tile_label(tile))]
    reach = MARK_R * MARK_REACH
    for x, y, w, h in strips:
        runs_down = h > w
        for f in MARK_AT:
            cx, cy = (x + w / 2, y + h * f) if runs_down else (x + w * f, y + h / 2)
            marks.append(TileMark("registration", (cx - reach, cy - reach, 2 * reach, 2 * reach)))
    return marks


def _label_box(strip: Box) -> Box:
    """At the strip's start (the top of a right strip, the left end of a bottom strip), centred
    across it, as large as LABEL_W x LABEL_H or the strip allows with 1 mm to spare each side."""
    x, y, w, h = strip
    lw, lh = min(LABEL_W, w - 2), min(LABEL_H, h - 2)
    if h > w:
        return x + (w - lw) / 2, y + LABEL_INSET, lw, lh
    return x + LABEL_INSET, y + (h - lh) / 2, lw, lh


def inside(box: Box, area: Box, tolerance: float = 1e-6) -> bool:
    """Whether `box` lies within `area`."""
    x, y, w, h = box
    ax, ay, aw, ah = area
    return (x >= ax - tolerance and y >= ay - tolerance and x + w <= ax + aw + tolerance
            and y + h <= ay + ah + tolerance)
