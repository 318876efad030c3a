"""Cimiterio: the layout guide (one page), the full-size play mat (tiled, --mat) and the guardian
standees, all drawn from map.yaml.

Mat geometry (components.yaml, cemetery-mat): every lattice cell of the map -- tomb slot, bell tower
and gap alike -- is a card-sized 63 x 88 mm cell on a pitch of 65 x 90 mm (a 2 mm gutter, so cards
laid on neighbouring cells never overlap and can be picked up). Gaps are card-sized because a zombie
card (or a pile) stands on a gap. The ring of guardian stops is a 40 mm band; the bottom band is a
full row, since the gate card lies there.
"""
from __future__ import annotations

from dataclasses import dataclass

from pnp.components import icons
from pnp.components import style as st
from pnp.components.core import ComponentError, Context, Part, mm_value, part, tiled_pages
from pnp.components.svgkit import Sketch, sketch_face
from pnp.components.zvv import tint
from pnp.sheets.parts import PartsPage, Placement, content_area

GAPS = set(".Pabcdefgh")
PILE = 2            # zombies in each starting pile (C2); the pile's text is a plural text, t(..., n=PILE)


@dataclass(frozen=True)
class Layout:
    rows: list[str]
    xs: list[float]       # left edge of each column, mm
    ys: list[float]
    ws: list[float]
    hs: list[float]
    card: tuple[float, float]

    @property
    def width(self) -> float:
        return self.xs[-1] + self.ws[-1]

    @property
    def height(self) -> float:
        return self.ys[-1] + self.hs[-1]

    def cell(self, r: int, c: int) -> tuple[float, float, float, float]:
        return self.xs[c], self.ys[r], self.ws[c], self.hs[r]


def parse_grid(cemetery: dict) -> list[str]:
    rows = [line.strip().strip('"') for line in str(cemetery["grid"]).strip().splitlines()]
    width = max(map(len, rows))
    return [row.ljust(width) for row in rows]


def layout(cemetery: dict, card=(63.0, 88.0), gutter=2.0, border=40.0, scale=1.0) -> Layout:
    rows = parse_grid(cemetery)
    n_rows, n_cols = len(rows), len(rows[0])
    px, py = card[0] + gutter, card[1] + gutter

    def size(i, n, pitch, line):
        if 0 < i < n - 1:
            return pitch
        return pitch if "G" in line else border
    ws = [size(c, n_cols, px, "".join(r[c] for r in rows)) * scale for c in range(n_cols)]
    hs = [size(r, n_rows, py, rows[r]) * scale for r in range(n_rows)]
    xs = [sum(ws[:c]) for c in range(n_cols)]
    ys = [sum(hs[:r]) for r in range(n_rows)]
    return Layout(rows, xs, ys, ws, hs, (card[0] * scale, card[1] * scale))


def _spec_layout(ctx: Context, spec: dict, scale=1.0) -> tuple[dict, Layout]:
    cemetery = ctx.collection(spec.get("map", "map"))
    cell = spec.get("cell", ["63mm", "88mm"])
    card = (mm_value(cell[0]), mm_value(cell[1]))
    return cemetery, layout(cemetery, card, mm_value(spec.get("gutter", "2mm")), mm_value(spec.get("border", "40mm")),
                            scale)


def avenue_of(cemetery: dict) -> tuple[dict, dict]:
    rows = {a["index"]: a for a in cemetery["avenues"] if a["axis"] == "row"}
    cols = {a["index"]: a for a in cemetery["avenues"] if a["axis"] == "col"}
    return rows, cols


def draw_cemetery(ctx: Context, cemetery: dict, lay: Layout, s: Sketch, ox: float, oy: float, guide: bool,
                  under=None) -> None:
    """The cemetery at the layout's scale, its top-left at (ox, oy) of the sketch. `under()`, if
    given, draws between the lanes and the cells (guide lines that must not cross a label)."""
    pal = ctx.pack.palette
    ink, soft = pal.get("ink", "#000"), pal.get("ink_soft", "#555")
    k = lay.card[0] / 63.0            # 1 at full size
    row_av, col_av = avenue_of(cemetery)
    gap_fill = tint(pal.get("gap", "#e3c766"), 0.55)
    s.rect(ox, oy, lay.width, lay.height, fill="#ffffff")
    n = 0
    for r, line in enumerate(lay.rows):       # the lanes first, so neighbouring gaps join up
        for c, ch in enumerate(line):
            if ch in GAPS:
                x, y, w, h = lay.cell(r, c)
                s.rect(ox + x, oy + y, w, h, fill=gap_fill)
    if under is not None:
        under()
    cw, chh = lay.card
    for r, line in enumerate(lay.rows):
        for c, ch in enumerate(line):
            x, y, w, h = lay.cell(r, c)
            x, y = ox + x, oy + y
            cx, cy = x + w / 2, y + h / 2
            card_x, card_y = cx - cw / 2, cy - chh / 2
            if ch == "T":
                n += 1
                s.rect(card_x, card_y, cw, chh, fill=tint(pal.get("stone", "#aaa"), 0.75), stroke=pal.get("stone_2", "#666"),
                       width=0.6 * k if not guide else 0.25, rx=3 * k)
                s.text(str(n), card_x, card_y + chh * 0.1, cw, chh * 0.3, font="bold", size=28 * k if not guide else 8,
                       min_size=4, fill=pal.get("stone_2", "#666"), what="tomb number", direction="ltr")
                if not guide:
                    s.text(ctx.t("ui.tomb"), card_x, card_y + chh * 0.55, cw, 10, size=12, min_size=6,
                           fill=pal.get("stone_2", "#666"), what="tomb")
            elif ch == "B":
                s.rect(card_x, card_y, cw, chh, fill=pal.get("stone_2", "#666"), stroke=ink, width=0.6 * k if not guide else 0.25,
                       rx=3 * k)
                _bell(s, cx, cy - chh * 0.12, cw * 0.45, pal.get("gold", "#c9a24a"), ink)
                # the guide's card is ~11 mm wide on Letter: the condensed face keeps "Glockenturm" readable
                s.text(ctx.t("components.cimiterio.bell"), card_x + 0.5, card_y + chh * 0.62, cw - 1, chh * 0.3,
                       font="bold" if not guide else "condensed", size=12 if not guide else 5.5, min_size=3.5,
                       fill="#ffffff", what="bell tower")
            elif ch == "P":
                for d in (1.5, -1.5):
                    s.rect(cx - cw * 0.22 + d * k, cy - chh * 0.2 + d * k, cw * 0.44, chh * 0.4, fill=pal.get("rot", "#8fa27c"),
                           stroke=ink, width=0.4 * k if not guide else 0.2, rx=1.5 * k)
                s.text(str(PILE), cx - cw * 0.22, cy - chh * 0.2, cw * 0.44, chh * 0.4, font="bold",
                       size=30 * k if not guide else 8, min_size=4, fill=ink, what="pile", direction="ltr")
                if not guide:
                    s.text(ctx.t("components.cimiterio.pile", n=PILE), card_x, cy + chh * 0.25, cw, 14, size=11,
                           min_size=6, fill=ink, what="pile")
            elif ch in "abcdefgh":
                s.circle(cx, cy, min(cw, chh) * 0.36, fill=pal.get("spot", "#7cc8ea"), stroke=ink, width=0.5 * k if not guide else 0.2)
                s.text(ch, cx - cw * 0.3, cy - cw * 0.3, cw * 0.6, cw * 0.6, font="bold", size=60 * k if not guide else 10,
                       min_size=5, fill=ink, what="spot", direction="ltr")
            elif ch == "o":
                rr = min(w, h) * 0.38
                s.circle(cx, cy, rr, fill=pal.get("stop", "#c63b2f"), stroke=ink, width=0.5 * k if not guide else 0.2)
                s.circle(cx, cy, rr * 0.55, fill="none", stroke="#ffffff", width=1.0 * k if not guide else 0.3)
            elif ch == "G":
                s.rect(card_x, card_y, cw, chh, fill=tint(pal.get("iron", "#2b2a2e"), 0.15), stroke=ink,
                       width=0.8 * k if not guide else 0.3, rx=3 * k)
                # the railings in the upper part, the word on the plain lower part: never over the bars
                bar = "#d9d4c4"
                top, bottom = card_y + chh * 0.1, card_y + chh * 0.58
                for i in range(1, 6):
                    bx = card_x + cw * i / 6
                    s.line(bx, top, bx, bottom, stroke=bar, width=1.2 * k if not guide else 0.3)
                for ry in (top + chh * 0.06, bottom - chh * 0.06):
                    s.line(card_x + cw / 6, ry, card_x + cw * 5 / 6, ry, stroke=bar, width=0.9 * k if not guide else 0.25)
                s.text(ctx.t("ui.gate"), card_x + cw * 0.06, card_y + chh * 0.64, cw * 0.88, chh * 0.28, font="bold",
                       size=20 * k if not guide else 6.5, min_size=4, fill="#ffffff", what="gate")
            if not guide and ch == ".":
                if r % 2 == 1 and c % 2 == 0 and r in row_av:
                    s.text(ctx.t(row_av[r]["name"]), x + 3, y + 3, w - 6, h - 6, font="bold", size=12, min_size=6,
                           fill=soft, what="avenue")
                elif c % 2 == 1 and r % 2 == 0 and c in col_av:
                    s.text(ctx.t(col_av[c]["name"]), x + 3, y + 3, w - 6, h - 6, font="bold", size=12, min_size=6,
                           fill=soft, rotate=-90, what="avenue")
                elif not guide:
                    s.rect(card_x + 4, card_y + 4, cw - 8, chh - 8, fill="none", stroke=tint(pal.get("gap", "#e3c766"), 0.1),
                           width=0.4, stroke_dasharray="3,2", rx=3)


def _bell(s: Sketch, cx: float, cy: float, size: float, fill: str, ink: str) -> None:
    k = size / 10
    s.path(f"M{cx - 4 * k:.3f},{cy + 3 * k:.3f} Q{cx - 3.4 * k:.3f},{cy - 4.5 * k:.3f} {cx:.3f},{cy - 4.5 * k:.3f} "
           f"Q{cx + 3.4 * k:.3f},{cy - 4.5 * k:.3f} {cx + 4 * k:.3f},{cy + 3 * k:.3f} Z", fill=fill, stroke=ink, width=0.3 * k)
    s.circle(cx, cy + 3.6 * k, 1 * k, fill=fill, stroke=ink, width=0.3 * k)


# ---- the one-page layout guide

def guide_pages(ctx: Context, spec: dict) -> list[PartsPage]:
    cemetery, full = _spec_layout(ctx, spec)
    ax, ay, aw, ah = content_area(ctx.paper)
    title_h, left, top, legend_h = 9.0, 27.0, 25.0, 20.0
    scale = min((aw - left - 2) / full.width, (ah - title_h - top - legend_h) / full.height)
    _, lay = _spec_layout(ctx, spec, scale)
    s = ctx.sketch(aw, ah)
    s.text(f"{ctx.title} — {ctx.t('components.cimiterio.guide')}", 0, 0, aw, title_h, font="bold", size=13,
           min_size=7, what="guide title")
    ox = left + (aw - left - lay.width) / 2
    oy = title_h + top
    row_av, col_av = avenue_of(cemetery)
    soft = ctx.palette("ink_soft", "#555")

    def guide_lines():   # under the cells: tombs, spots, piles, stops and the gate stay readable
        for r in row_av:
            x, y, w, h = lay.cell(r, 0)
            s.line(ox - 1, oy + y + h / 2, ox + lay.width, oy + y + h / 2, stroke=soft, width=0.12, dash=(0.6, 0.8))
        for c in col_av:
            x, y, w, h = lay.cell(0, c)
            # down the map, stopping short of the gate card: its word stays clear of every line
            end = min([y + (h - lay.card[1]) / 2 for r, row in enumerate(lay.rows) if row[c] == "G"
                       for _, y, _, h in [lay.cell(r, c)]], default=lay.height)
            s.line(ox + x + w / 2, oy - 1, ox + x + w / 2, oy + end, stroke=soft, width=0.12, dash=(0.6, 0.8))
    draw_cemetery(ctx, cemetery, lay, s, ox, oy, guide=True, under=guide_lines)
    for r, avenue in row_av.items():
        x, y, w, h = lay.cell(r, 0)
        # avenue names label the map's rows and columns, which never mirror: they hug the map
        # (physical right / bottom) in every language
        s.text(ctx.t(avenue["name"]), ox - left, oy + y, left - 2, h, font="condensed", size=7, min_size=4.5,
               align="right", fill=soft, what="avenue")
    for c, avenue in col_av.items():
        x, y, w, h = lay.cell(0, c)
        s.text(ctx.t(avenue["name"]), ox + x, oy - top, w, top - 2, font="condensed", size=7, min_size=4.5,
               align="left", rotate=-90, fill=soft, what="avenue")
    draw_cemetery_legend(ctx, s, 0, oy + lay.height + 3, aw, legend_h - 3)
    return [PartsPage((Placement(sketch_face(s), ax, ay),), ctx.t("components.cimiterio.guide"))]


def draw_cemetery_legend(ctx: Context, s: Sketch, x: float, y: float, w: float, h: float) -> None:
    pal = ctx.pack.palette
    ink = pal.get("ink", "#000")
    items = [("T", "components.cimiterio.legend_tomb"), (".", "components.cimiterio.legend_gap"),
             ("P", "components.cimiterio.legend_pile"), ("a", "components.cimiterio.legend_spot"),
             ("o", "components.cimiterio.legend_stop"), ("G", "components.cimiterio.legend_gate"),
             ("B", "components.cimiterio.legend_bell")]
    per_row = 4
    cell_w, cell_h = w / per_row, h / 2
    for i, (ch, key) in enumerate(items):
        # right-to-left: items run from the right, each sample on the right of its words
        cell_x = x + (w - (i % per_row + 1) * cell_w if ctx.rtl else (i % per_row) * cell_w)
        cy = y + (i // per_row) * cell_h

        def at(dx: float, dw: float = 0.0) -> float:     # a local x (from the cell's start side)
            return cell_x + (cell_w - dx - dw if ctx.rtl else dx)
        sw = 6.0
        bw = sw * 0.7
        if ch == "T":
            s.rect(at(0, bw), cy + 1, bw, cell_h - 2, fill=tint(pal.get("stone", "#aaa"), 0.75), stroke=pal.get("stone_2", "#666"), width=0.25)
        elif ch == ".":
            s.rect(at(0, bw), cy + 1, bw, cell_h - 2, fill=tint(pal.get("gap", "#e3c766"), 0.55))
        elif ch == "P":
            s.rect(at(0, bw), cy + 1, bw, cell_h - 2, fill=pal.get("rot", "#8fa27c"), stroke=ink, width=0.2)
        elif ch == "a":
            s.circle(at(2.2), cy + cell_h / 2, 2.2, fill=pal.get("spot", "#7cc8ea"), stroke=ink, width=0.2)
        elif ch == "o":
            s.circle(at(2.2), cy + cell_h / 2, 2.2, fill=pal.get("stop", "#c63b2f"), stroke=ink, width=0.2)
        elif ch == "G":
            s.rect(at(0, bw), cy + 1, bw, cell_h - 2, fill=tint(pal.get("iron", "#2b2a2e"), 0.15), stroke=ink, width=0.2)
        elif ch == "B":
            s.rect(at(0, bw), cy + 1, bw, cell_h - 2, fill=pal.get("stone_2", "#666"), stroke=ink, width=0.2)
        s.text(ctx.t(key), at(sw, cell_w - sw - 1), cy, cell_w - sw - 1, cell_h, size=6.5, min_size=4.2, align="start",
               fill=ink, what="legend")


# ---- the full-size mat

def mat_pages(ctx: Context, spec: dict) -> list[PartsPage]:
    cemetery, lay = _spec_layout(ctx, spec)
    s = ctx.sketch(lay.width, lay.height)
    draw_cemetery(ctx, cemetery, lay, s, 0, 0, guide=False)
    s.rect(0, 0, lay.width, lay.height, stroke=ctx.palette("ink", "#000"), width=0.6)
    return tiled_pages(ctx, sketch_face(s), lay.width, lay.height, ctx.t("components.mat"))


# ---- guardian standees

def draw_standees(ctx: Context, spec: dict) -> list[list[Part]]:
    count = int(spec.get("count", 2))
    w = mm_value(spec.get("width", "26mm"))
    fig = mm_value(spec.get("height", "45mm"))
    tab = mm_value(spec.get("base", "13mm"))
    accents = spec.get("colours", ["gold", "moon"])
    label = ctx.t(spec.get("name", "components.cimiterio.guardian"))
    parts = []
    for i in range(count):
        s = ctx.sketch(w, 2 * tab + 2 * fig)
        accent = ctx.palette(accents[i % len(accents)], "#c9a24a")
        s.glue_rect(0, 0, w, tab)
        _figure(ctx, s, 0, tab, w, fig, accent, f"{label} {i + 1}", upside_down=False)
        _figure(ctx, s, 0, tab + fig, w, fig, accent, f"{label} {i + 1}", upside_down=True)
        s.glue_rect(0, tab + 2 * fig, w, tab)
        for y in (tab, tab + fig, tab + 2 * fig):
            s.fold_line(0, y, w, y)
        s.cut_rect(0, 0, w, 2 * tab + 2 * fig)
        parts.append(part(s, "standee"))
        base = w + 4
        b = ctx.sketch(base, base)
        b.rect(0, 0, base, base, fill=ctx.palette("stone", "#aaa"))
        b.glue_rect(2, base / 2 - tab, w, tab)
        b.glue_rect(2, base / 2, w, tab)
        b.line(2, base / 2, 2 + w, base / 2, stroke=ctx.palette("ink", "#000"), width=0.5)
        b.cut_rect(0, 0, base, base)
        parts.append(part(b, "standee base"))
    help_w = 70.0
    h = ctx.sketch(help_w, 2 * tab + 2 * fig)
    h.text(ctx.t("components.cimiterio.standee_help"), 0, 0, help_w, 2 * tab + 2 * fig, size=8, min_size=5,
           align="start", valign="top", what="standee help")
    parts.append(part(h, "standee help"))
    return [parts]


def _figure(ctx: Context, s: Sketch, x: float, y: float, w: float, h: float, accent: str, name: str, upside_down: bool):
    g = s.group(transform=f"rotate(180 {x + w / 2:.3f} {y + h / 2:.3f})") if upside_down else s.group()
    night, night2 = ctx.palette("night", "#141a2b"), ctx.palette("night_2", "#26314b")
    moon, ink = ctx.palette("moon", "#f1ebcf"), ctx.palette("ink", "#000")
    s.rect(x, y, w, h, fill=night, parent=g)
    s.circle(x + w * 0.75, y + h * 0.18, w * 0.14, fill=moon, parent=g)
    s.rect(x, y + h * 0.82, w, h * 0.18, fill=night2, parent=g)
    cx = x + w * 0.45
    # the guardian: hat, head, long coat, arm holding a lantern
    s.polygon([(cx - w * 0.22, y + h * 0.86), (cx - w * 0.14, y + h * 0.38), (cx + w * 0.14, y + h * 0.38),
               (cx + w * 0.22, y + h * 0.86)], fill=accent, stroke=ink, width=0.3, parent=g)
    s.circle(cx, y + h * 0.31, w * 0.1, fill=moon, stroke=ink, width=0.3, parent=g)
    s.rect(cx - w * 0.17, y + h * 0.235, w * 0.34, h * 0.025, fill=ink, parent=g)
    s.rect(cx - w * 0.1, y + h * 0.16, w * 0.2, h * 0.08, fill=ink, parent=g)
    s.line(cx + w * 0.12, y + h * 0.45, cx + w * 0.32, y + h * 0.55, stroke=ink, width=1.0, parent=g)
    icons.lantern(s, cx + w * 0.33, y + h * 0.63, h * 0.16, ctx.palette("gold", "#c9a24a"), ink, parent=g)
    s.text(name, x + 1, y + h * 0.87, w - 2, h * 0.12, font="bold", size=6, min_size=4, fill=moon, parent=g,
           what="guardian name")
