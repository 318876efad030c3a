"""A lattice of card-sized cells drawn from a map (types `lattice-guide` and `lattice-mat`).

The map collection's `grid` is the lattice, one row per line, one symbol per cell (a space: no
cell). Every inner cell is a `card`-sized cell on a pitch of card + `gutter`, so cards laid on
neighbouring cells never overlap; the outer ring (first and last rows and columns) is `border`
deep, or a full cell where it holds one of the `full` symbols (a card lies there). What a symbol
looks like is the pack's: the `art` template draws each cell, once with mode 'ground' (a first pass
under every cell: lanes that join up) and once with mode 'cell', and each legend swatch (mode
'swatch'). Named lanes (`lanes`: a field of the map listing {axis: row|col, index, name}) reach the
art as each cell's `row_lane` / `col_lane`; the guide also draws them as thin lines and prints their
names along the map's left and top edges.

    lattice-guide   the whole lattice scaled to one page, with lane names and a legend (board document)
    lattice-mat     the lattice at full size, tiled across pages (mat document, `pnp build --mat`)

Lane names label the map's rows and columns, which never mirror: they hug the map (physical
right / bottom) in every language; the legend's entries run from the reading side.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

from pnp.components.core import Context, need, tiled_pages
from pnp.components.errors import ComponentError
from pnp.components.svgkit import Sketch, sketch_face
from pnp.sheets.parts import PartsPage, Placement, content_area
from pnp.text.fitreport import MIN_PRINTED_PT
from pnp.units import card_size_pt, pt_to_mm

NOTHING = " "


@dataclass(frozen=True)
class Layout:
    rows: list[str]
    xs: list[float]       # left edge of each column, mm
    ys: list[float]
    ws: list[float]
    hs: list[float]
    card: tuple[float, float]
    scale: float

    @property
    def width(self) -> float:
        return self.xs[-1] + self.ws[-1]

    @property
    def height(self) -> float:
        return self.ys[-1] + self.hs[-1]

    def cell(self, r: int, c: int) -> tuple[float, float, float, float]:
        return self.xs[c], self.ys[r], self.ws[c], self.hs[r]


def parse_grid(grid: Any) -> list[str]:
    """The grid's rows (quotes around a row are dropped), padded to the longest with spaces."""
    rows = [line.strip().strip('"') for line in str(grid).strip().splitlines()]
    width = max(map(len, rows))
    return [row.ljust(width) for row in rows]


def layout(rows: list[str], card=(63.0, 88.0), gutter=2.0, border=40.0, full: str = "", scale=1.0) -> Layout:
    n_rows, n_cols = len(rows), len(rows[0])
    px, py = card[0] + gutter, card[1] + gutter

    def size(i: int, n: int, pitch: float, line: str) -> float:
        if 0 < i < n - 1 or any(symbol in line for symbol in full):
            return pitch
        return border
    ws = [size(c, n_cols, px, "".join(r[c] for r in rows)) * scale for c in range(n_cols)]
    hs = [size(r, n_rows, py, rows[r]) * scale for r in range(n_rows)]
    xs = [sum(ws[:c]) for c in range(n_cols)]
    ys = [sum(hs[:r]) for r in range(n_rows)]
    return Layout(rows, xs, ys, ws, hs, (card[0] * scale, card[1] * scale), scale)


@dataclass
class Lattice:
    """A map's lattice with its settings, ready to draw at any scale."""
    ctx: Context
    spec: dict
    rows: list[str]
    row_lanes: dict[int, dict]
    col_lanes: dict[int, dict]

    def layout(self, scale: float = 1.0) -> Layout:
        w_pt, h_pt = card_size_pt(self.spec["card"])
        return layout(self.rows, (pt_to_mm(w_pt), pt_to_mm(h_pt)), self.spec["gutter"], self.spec["border"],
                      self.spec["full"], scale)

    def art(self, mode: str, guide: bool, **values: Any) -> str:
        return self.ctx.art(self.spec["art"], f"lattice {mode}", mode=mode, guide=guide,
                            ink=self.ctx.colour(self.spec["ink"], "ink"), **values)

    def draw(self, lay: Layout, s: Sketch, ox: float, oy: float, guide: bool,
             under: Callable[[], None] | None = None) -> None:
        """The lattice at the layout's scale, its top-left at (ox, oy) of the sketch. `under()`, if
        given, draws between the ground pass and the cells (lines that must not cross a label)."""
        s.rect(ox, oy, lay.width, lay.height, fill=self.ctx.colour(self.spec["paper"], "paper"))
        cw, ch = lay.card
        for mode in ("ground", "cell"):
            counts: dict[str, int] = {}
            for r, line in enumerate(lay.rows):
                for c, symbol in enumerate(line):
                    if symbol == NOTHING:
                        continue
                    counts[symbol] = counts.get(symbol, 0) + 1
                    x, y, w, h = lay.cell(r, c)
                    x, y = ox + x, oy + y
                    cx, cy = x + w / 2, y + h / 2
                    s.markup(self.art(mode, guide, symbol=symbol, number=counts[symbol], row=r, col=c,
                                      x=x, y=y, w=w, h=h, cx=cx, cy=cy, k=lay.scale,
                                      card={"x": cx - cw / 2, "y": cy - ch / 2, "w": cw, "h": ch},
                                      row_lane=self.row_lanes.get(r), col_lane=self.col_lanes.get(c)))
            if mode == "ground" and under is not None:
                under()


def lattice(ctx: Context, spec: dict) -> Lattice:
    cells = ctx.collection(spec, "map")
    if isinstance(cells, list):                 # a collection of several maps: pick one by `map_id`
        wanted = spec.get("map_id")
        found = [m for m in cells if isinstance(m, dict) and (wanted is None or m.get("id") == wanted)]
        if not found:
            known = ", ".join(str(m.get("id")) for m in cells if isinstance(m, dict)) or "none"
            raise ComponentError(f"the map collection has no map {wanted!r} (maps: {known})", "map_id")
        cells = found[0]
    grid = need(cells, "grid", "the map collection", "map")
    rows = parse_grid(grid)
    if not rows or not rows[0]:
        raise ComponentError("the map's grid has no cells", "map")
    row_lanes: dict[int, dict] = {}
    col_lanes: dict[int, dict] = {}
    if spec.get("lanes"):
        for lane in need(cells, spec["lanes"], "the map collection", "lanes"):
            axis = need(lane, "axis", "a lane", "lanes")
            if axis not in ("row", "col"):
                raise ComponentError(f"a lane's axis is row or col, not {axis!r}", "lanes")
            (row_lanes if axis == "row" else col_lanes)[int(need(lane, "index", "a lane", "lanes"))] = lane
    return Lattice(ctx, spec, rows, row_lanes, col_lanes)


# ---- the one-page guide

TITLE_MM, LEFT_MM, TOP_MM, LEGEND_MM = 9.0, 27.0, 25.0, 20.0   # title band, lane names, legend band
LEGEND_PER_ROW = 4


def draw_guide(ctx: Context, spec: dict) -> list[PartsPage]:
    lat = lattice(ctx, spec)
    full = lat.layout()
    ax, ay, aw, ah = content_area(ctx.paper)
    scale = min((aw - LEFT_MM - 2) / full.width, (ah - TITLE_MM - TOP_MM - LEGEND_MM) / full.height)
    lay = lat.layout(scale)
    title = ctx.t(spec["title"])
    s = ctx.sketch(aw, ah)
    s.text(f"{ctx.title} — {title}", 0, 0, aw, TITLE_MM, font="bold", size=13, min_size=7, what="guide title")
    ox = LEFT_MM + (aw - LEFT_MM - lay.width) / 2
    oy = TITLE_MM + TOP_MM
    soft = ctx.colour(spec["guide_ink"], "guide_ink")

    def lane_lines() -> None:   # under the cells, so every cell's words stay readable
        for r in lat.row_lanes:
            x, y, w, h = lay.cell(r, 0)
            s.line(ox - 1, oy + y + h / 2, ox + lay.width, oy + y + h / 2, stroke=soft, width=0.12, dash=(0.6, 0.8))
        for c in lat.col_lanes:
            x, y, w, h = lay.cell(0, c)
            # down the map, stopping short of the card of a `stop` symbol: its words stay clear of every line
            end = min([cy + (ch - lay.card[1]) / 2 for r, row in enumerate(lay.rows) if row[c] in spec["stop"]
                       for _, cy, _, ch in [lay.cell(r, c)]], default=lay.height)
            s.line(ox + x + w / 2, oy - 1, ox + x + w / 2, oy + end, stroke=soft, width=0.12, dash=(0.6, 0.8))
    lat.draw(lay, s, ox, oy, guide=True, under=lane_lines)
    for r, lane in lat.row_lanes.items():
        x, y, w, h = lay.cell(r, 0)
        s.text(ctx.t(need(lane, "name", "a lane", "lanes")), ox - LEFT_MM, oy + y, LEFT_MM - 2, h, font="condensed",
               size=7, min_size=MIN_PRINTED_PT, align="right", fill=soft, what="lane name")
    for c, lane in lat.col_lanes.items():
        x, y, w, h = lay.cell(0, c)
        s.text(ctx.t(need(lane, "name", "a lane", "lanes")), ox + x, oy - TOP_MM, w, TOP_MM - 2, font="condensed",
               size=7, min_size=MIN_PRINTED_PT, align="left", rotate=-90, fill=soft, what="lane name")
    legend(lat, s, 0, oy + lay.height + 3, aw, LEGEND_MM - 3)
    return [PartsPage((Placement(sketch_face(s), ax, ay),), title)]


def legend(lat: Lattice, s: Sketch, x: float, y: float, w: float, h: float) -> None:
    """The legend's entries, LEGEND_PER_ROW a row: each a swatch (the art's mode 'swatch') on the
    side its words start (the right in right-to-left languages), the words beside it."""
    ctx, entries = lat.ctx, lat.spec["legend"]
    if not entries:
        return
    ink = ctx.colour(lat.spec["ink"], "ink")
    cell_w, cell_h = w / LEGEND_PER_ROW, h / math.ceil(len(entries) / LEGEND_PER_ROW)
    swatch_w, box_w, dot_r = 6.0, 4.2, 2.2
    for i, entry in enumerate(entries):
        cell_x = x + (w - (i % LEGEND_PER_ROW + 1) * cell_w if ctx.rtl else (i % LEGEND_PER_ROW) * cell_w)
        cy = y + (i // LEGEND_PER_ROW) * cell_h

        def at(dx: float, dw: float = 0.0, cell_x: float = cell_x) -> float:   # x from the entry's start side
            return cell_x + (cell_w - dx - dw if ctx.rtl else dx)
        s.markup(lat.art("swatch", True, symbol=entry["symbol"], x=at(0, box_w), y=cy + 1, w=box_w, h=cell_h - 2,
                         cx=at(dot_r), cy=cy + cell_h / 2, r=dot_r))
        s.text(ctx.t(entry["text"]), at(swatch_w, cell_w - swatch_w - 1), cy, cell_w - swatch_w - 1, cell_h, size=6.5,
               min_size=MIN_PRINTED_PT, align="start", fill=ink, what="legend")


# ---- the full-size mat

def draw_mat(ctx: Context, spec: dict) -> list[PartsPage]:
    lat = lattice(ctx, spec)
    lay = lat.layout()
    s = ctx.sketch(lay.width, lay.height)
    lat.draw(lay, s, 0, 0, guide=False)
    s.rect(0, 0, lay.width, lay.height, stroke=ctx.colour(spec["ink"], "ink"), width=0.6)
    return tiled_pages(ctx, s, ctx.t("components.mat"))
