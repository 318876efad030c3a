"""What every component drawer shares: the context (pack, language, text), parts packing, tiling."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pnp.components import style as st
from pnp.components.svgkit import Sketch, TextIssues, sketch_face
from pnp.i18n import sheet as sheet_text
from pnp.i18n.lookup import TextLookupError, translate
from pnp.pack import Pack
from pnp.sheets.parts import PartsPage, Placement, Tile, content_area, plan_tiles
from pnp.units import to_pt

# The sheet words of components (instruction line, legend, tiles, assembly map, document names)
# come from the string pack every game shares, pnp/i18n/sheet/<lang>.yaml (`components.*` keys);
# a pack overrides any of them with the same key in its text/<lang>.yaml.


class ComponentError(Exception):
    """Component data that cannot be drawn (bad collection, unknown type)."""


@dataclass
class Context:
    pack: Pack
    lang: str
    paper: str
    issues: TextIssues = field(default_factory=TextIssues)
    missing_keys: list[str] = field(default_factory=list)

    def t(self, key: str, n=None, **values) -> str:
        """The text of `key` in the build language: the pack's own text, else the shared sheet
        string pack's (pnp.i18n.sheet); the plural form for `n` (pass n wherever a number stands
        next to a noun: "{n} tiles"), placeholders filled. An unknown key is reported (the build
        fails) and prints as the key."""
        texts = self.pack.texts[self.lang]
        shared_lang = self.lang if sheet_text.has_language(self.lang) else sheet_text.SOURCE
        # the pack's own text wins; a text the loader only borrowed from the fallback language
        # (a missing translation, not --strict) loses to a real translation in the shared pack
        borrowed = key not in (self.pack.text_locations or {}).get(self.lang, {}) and shared_lang == self.lang
        if key in texts and not (borrowed and key in sheet_text.table(shared_lang)):
            table, lang = texts, self.lang
        else:
            lang = shared_lang
            table = sheet_text.table(lang)
            if key not in table:
                self.missing_keys.append(key)
                return key
        try:
            return translate(table, lang, key, n, **values)
        except TextLookupError as error:
            self.issues.missing.append(str(error))
            return str(table[key])

    @property
    def rtl(self) -> bool:
        """Right-to-left build language (Arabic): mirror text sides, legend order and label sides;
        never board coordinates, dice faces, digits, art or cut/fold marks."""
        return sheet_text.is_rtl(self.lang)

    @property
    def direction(self) -> str:
        return "rtl" if self.rtl else "ltr"

    def mx(self, x: float, w: float, width: float) -> float:
        """The left edge of a box (x, w) inside a `width`-wide drawing, mirrored in right-to-left
        languages: where a box drawn at x in left-to-right goes."""
        return width - x - w if self.rtl else x

    @property
    def title(self) -> str:
        return self.pack.texts[self.lang].get(self.pack.name, self.pack.id)

    def palette(self, name: str, default: str = "#808080") -> str:
        return self.pack.palette.get(name, default)

    def sketch(self, w: float, h: float) -> Sketch:
        return Sketch(w, h, self.issues, direction=self.direction)

    def collection(self, name: str) -> Any:
        if name not in self.pack.collections:
            raise ComponentError(f"{self.pack.id}: component data needs collection {name!r} in pack.yaml")
        return self.pack.collections[name]


def mm_value(value) -> float:
    """'21mm' / 21 (mm) / '0.5in' -> mm."""
    if isinstance(value, (int, float)):
        return float(value)
    return to_pt(value) * 25.4 / 72.0


@dataclass(frozen=True)
class Part:
    """One drawn part for a parts page: its sketch's face and size in mm."""
    face: Any
    w: float
    h: float
    label: str = ""


def part(sketch: Sketch, label: str = "") -> Part:
    return Part(sketch_face(sketch), sketch.width, sketch.height, label)


def legend(ctx: Context, width: float) -> Part:
    """The cut / fold / glue legend at the head of every parts page."""
    h = 7.0
    s = ctx.sketch(width, h)
    mx = ctx.mx       # right-to-left: title at the right, items leftwards, each sample right of its word

    s.text(ctx.t("components.legend.title") + ":", mx(0, 22, width), 0, 22, h, font="bold", size=8, min_size=5,
           align="start", what="legend")
    x = 24.0
    for kind in ("cut", "fold", "glue"):
        sx = mx(x, 12, width)
        if kind == "cut":
            s.line(sx, h / 2, sx + 12, h / 2, stroke=st.CUT_COLOUR, width=st.CUT_MM)
        elif kind == "fold":
            s.fold_line(sx, h / 2, sx + 12, h / 2)
        else:
            s.glue_rect(sx, 1.2, 12, h - 2.4)
        s.text(ctx.t(f"components.legend.{kind}"), mx(x + 14, 30, width), 0, 30, h, size=8, min_size=5,
               align="start", what="legend")
        x += 50
    return part(s)


def pack_parts(ctx: Context, groups: list[list[Part]], label: str, gap: float = st.PART_GAP_MM) -> list[PartsPage]:
    """Shelf packing: each group starts on a new row; a legend heads every page."""
    ax, ay, aw, ah = content_area(ctx.paper)
    head = legend(ctx, aw)
    pages: list[list[Placement]] = []
    y = x = row_h = 0.0
    current: list[Placement] = []

    def new_page():
        nonlocal current, y, x, row_h
        current = [Placement(head.face, ax, ay)]
        pages.append(current)
        y, x, row_h = head.h + gap, 0.0, 0.0

    new_page()
    for group in groups:
        if x > 0:               # new shelf per group
            y, x, row_h = y + row_h + gap, 0.0, 0.0
        for p in group:
            if p.w > aw + 1e-6 or p.h > ah - head.h - gap + 1e-6:
                raise ComponentError(f"{p.label or 'a part'} ({p.w:.0f}x{p.h:.0f} mm) does not fit the page")
            if x > 0 and x + p.w > aw + 1e-6:
                y, x, row_h = y + row_h + gap, 0.0, 0.0
            if y + p.h > ah + 1e-6:
                new_page()
            current.append(Placement(p.face, ax + x, ay + y))
            x += p.w + gap
            row_h = max(row_h, p.h)
    return [PartsPage(tuple(placements), label) for placements in pages]


def tiled_pages(ctx: Context, face: Any, width: float, height: float, name: str) -> list[PartsPage]:
    """A big drawing as overlapping tiles plus an assembly map page (first).

    Each tile shows its window of the drawing with: a solid cut line around it; on its right and
    bottom sides, where the next tile goes over it, a light hatched glue band the width of the overlap;
    alignment marks (⊕) in every overlap band, at the same place of the drawing on both tiles; its
    label (row.column) in the corner of the window."""
    plan = plan_tiles(width, height, ctx.paper)
    ax, ay, aw, ah = content_area(ctx.paper, plan.landscape)
    pages = [assembly_page(ctx, face, width, height, plan, name)]
    ov = plan.overlap
    for tile in plan.tiles:
        px, py = ax + (aw - tile.w) / 2, ay + (ah - tile.h) / 2          # window's top-left on the page
        overlay = ctx.sketch(tile.w, tile.h)
        if tile.col < plan.cols - 1:
            overlay.glue_rect(tile.w - ov, 0, ov, tile.h, tint=False, opacity=0.6)
        if tile.row < plan.rows - 1:
            overlay.glue_rect(0, tile.h - ov, tile.w, ov, tint=False, opacity=0.6)
        for mx, my in _marks(tile, plan, width, height):
            overlay.registration(mx - tile.x, my - tile.y)
        overlay.cut_rect(0, 0, tile.w, tile.h)
        tag = f"{tile.row + 1}.{tile.col + 1}"
        overlay.rect(1.5, 1.5, 13, 7, fill="#ffffff", stroke=st.INK, width=0.2, fill_opacity="0.85")
        overlay.text(tag, 1.5, 1.5, 13, 7, font="bold", size=11, min_size=6, what="tile label", direction="ltr")
        label = ctx.t("components.tile", row=tile.row + 1, col=tile.col + 1) + " (" + ctx.t(
            "components.tile_of", row=tile.row + 1, rows=plan.rows, col=tile.col + 1, cols=plan.cols) + ")"
        pages.append(PartsPage((Placement(face, px - tile.x, py - tile.y, clip=(px, py, tile.w, tile.h)),
                                Placement(sketch_face(overlay), px, py)), f"{name} · {label}", plan.landscape))
    return pages


def _marks(tile: Tile, plan, width: float, height: float) -> list[tuple[float, float]]:
    """Alignment marks (drawing coordinates) in the overlap bands this tile shares."""
    ov = plan.overlap
    marks = []
    for band in ("left", "right", "top", "bottom"):
        if band == "left" and tile.col == 0 or band == "right" and tile.col == plan.cols - 1:
            continue
        if band == "top" and tile.row == 0 or band == "bottom" and tile.row == plan.rows - 1:
            continue
        if band in ("left", "right"):
            x = tile.x + ov / 2 if band == "left" else tile.x + tile.w - ov / 2
            marks += [(x, tile.y + tile.h * f) for f in (0.3, 0.7)]
        else:
            y = tile.y + ov / 2 if band == "top" else tile.y + tile.h - ov / 2
            marks += [(tile.x + tile.w * f, y) for f in (0.3, 0.7)]
    return marks


def assembly_page(ctx: Context, face: Any, width: float, height: float, plan, name: str) -> PartsPage:
    ax, ay, aw, ah = content_area(ctx.paper)
    head = 24.0
    scale = min(aw / width, (ah - head) / height)
    dw, dh = width * scale, height * scale
    ox, oy = ax + (aw - dw) / 2, ay + head
    top = ctx.sketch(aw, head)
    top.text(f"{ctx.title} — {name}: {ctx.t('components.assembly')} ({ctx.t('components.tiles', n=len(plan.tiles))})",
             0, 0, aw, 8, font="bold", size=12, min_size=7, what="assembly title")
    top.text(ctx.t("components.assembly_help"), 0, 8, aw, head - 9, size=8, min_size=5.5, what="assembly help")
    over = ctx.sketch(dw, dh)
    for tile in plan.tiles:
        x, y, w, h = (v * scale for v in (tile.x, tile.y, tile.w, tile.h))
        over.rect(x, y, w, h, stroke="#c0392b", width=0.5, fill="none")
    for tile in plan.tiles:   # labels on top of every outline, at the tile's centre
        x, y, w, h = (v * scale for v in (tile.x, tile.y, tile.w, tile.h))
        over.rect(x + w / 2 - 8, y + h / 2 - 5, 16, 10, fill="#ffffff", stroke="#c0392b", width=0.4, fill_opacity="0.9")
        over.text(f"{tile.row + 1}.{tile.col + 1}", x + w / 2 - 8, y + h / 2 - 5, 16, 10, font="bold", size=13,
                  min_size=6, fill="#c0392b", what="assembly label", direction="ltr")
    return PartsPage((Placement(sketch_face(top), ax, ay), Placement(face, ox, oy, scale=scale),
                      Placement(sketch_face(over), ox, oy)), f"{name} · {ctx.t('components.assembly')}")
