"""What every component drawer shares: the drawing context (pack, language, text, colours, data),
parts and parts packing, tiling a big drawing across pages.

A drawer reports bad data by raising `ComponentError(message, key)`: `key` is the setting of its
components.yaml entry the problem is about (the planner turns it into a Problem with the entry's
file, line and `components[<index>].<key>`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pnp.components import style as st
from pnp.components.errors import COMPONENT_SIZE, ComponentError
from pnp.components.svgkit import Sketch, readable_picture, sketch_face
from pnp.components.tiling import MARK_R, covered_strips, tile_label, tile_marks
from pnp.i18n.direction import is_rtl
from pnp.i18n.lookup import TextLookupError
from pnp.i18n.texts import MissingText, Texts
from pnp.pack import Pack
from pnp.schema import COLOR
from pnp.sheets.parts import PartsPage, Placement, Tile, TilePlan, content_area, plan_tiles
from pnp.text.fitreport import MIN_PRINTED_PT, FitReport

# The sheet words of components (instruction line, legend, tiles, assembly map, document names)
# come from the string pack every game shares, pnp/i18n/sheet/<lang>.yaml (`components.*` keys);
# a pack overrides any of them with the same key in its text/<lang>.yaml.

TEXT_MISSING = "text.missing"              # a text key with no text in the build language
TEXT_LOOKUP = "text.lookup"                # a plural text without its number, a placeholder without a value


@dataclass
class Context:
    pack: Pack
    lang: str
    paper: str
    report: FitReport = field(default_factory=FitReport)
    lookup_errors: list[str] = field(default_factory=list)
    settings: dict = field(default_factory=dict)      # the entry being drawn (art templates' `component`)
    text_keys: dict[str, str | None] = field(default_factory=dict)   # text -> the one key it came from
    _art: Any = None
    _texts: Texts | None = None

    @property
    def missing_keys(self) -> list[str]:
        return self.report.missing_keys

    def t(self, key: str, n=None, **values) -> str:
        """The text of `key` in the build language: the pack's own text, else the shared sheet
        string pack's (pnp.i18n.sheet); the plural form for `n` (pass n wherever a number stands
        next to a noun: "{n} tiles"), placeholders filled. An unknown key is reported (the build
        fails) and prints as the key."""
        if self._texts is None:
            self._texts = Texts.of(self.pack, self.lang)     # the one fallback rule (pnp.i18n.texts)
        texts = self._texts
        try:
            text = texts.t(key, n, **values)
        except MissingText:
            self.report.missing_keys.append(key)
            return key
        except TextLookupError as error:
            self.lookup_errors.append(str(error))
            text = str(texts.raw(key))
        # which key a text came from, for problems about it (None when two keys give the same text)
        self.text_keys[text] = key if self.text_keys.get(text, key) == key else None
        return text

    @property
    def rtl(self) -> bool:
        """Right-to-left build language (Arabic): mirror text sides, legend order and label sides;
        never board coordinates, dice faces, digits, art or cut/fold marks."""
        return is_rtl(self.lang)

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

    def sketch(self, w: float, h: float) -> Sketch:
        return Sketch(w, h, self.report, direction=self.direction)

    # ---- data

    def colour(self, value: Any, key: str | None = None) -> str:
        """A colour setting's value as '#rrggbb': the name of a pack.yaml palette colour, or a hex
        colour itself. `key` is the setting, for the problem when it is neither."""
        if isinstance(value, str) and COLOR.match(value):
            return value
        if isinstance(value, str) and value in self.pack.palette:
            return str(self.pack.palette[value])
        known = ", ".join(sorted(self.pack.palette)) or "none"
        raise ComponentError(f"{value!r} is not a colour: give a palette colour's name (pack.yaml "
                             f"palette: {known}) or '#rrggbb'", key)

    def colours(self, spec: dict, *keys: str) -> list[str]:
        """The colours of several colour settings of `spec`."""
        return [self.colour(spec[key], key) for key in keys]

    def collection(self, spec: dict, key: str) -> Any:
        """The collection a setting names."""
        name = spec.get(key)
        if name not in self.pack.collections:
            known = ", ".join(sorted(self.pack.collections)) or "none"
            raise ComponentError(f"needs the collection {name!r}, which the pack does not declare "
                                 f"(collections: {known})", key)
        return self.pack.collections[name]

    def art(self, template: str | None, what: str, key: str = "art", **values: Any) -> str:
        """The SVG elements a pack's art template draws with `values` ('' without a template)."""
        if not template:
            return ""
        return self._art_renderer().render(template, what, key, {"component": self.settings, **values})

    def art_svg_problem(self, template: str, error: Exception, key: str = "art") -> ComponentError:
        """The error of SVG that art `template` (the entry's setting `key`) drew and the SVG
        compiler refused (`error`, an UnsupportedSvg), at the template line that writes it."""
        return self._art_renderer().svg_problem(template, error, key)

    def _art_renderer(self) -> Any:
        if self._art is None:
            from pnp.components.art import ArtRenderer
            self._art = ArtRenderer(self)
        return self._art


def need(entry: Any, name: str, what: str, key: str | None) -> Any:
    """`entry[name]` of collection data, or a ComponentError naming what lacks it."""
    value = entry.get(name) if isinstance(entry, dict) else None
    if value is None:
        raise ComponentError(f"{what} has no {name!r}", key)
    return value


def length(value: Any, what: str, key: str | None) -> float:
    """A length read from collection data: millimetres (the loader converts fields declared `length`)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ComponentError(f"{what} must be a length (declare it `length` in pack.yaml), not {value!r}", key)
    return float(value)


@dataclass(frozen=True)
class Part:
    """One drawn part for a parts page: its sketch's face and size in mm."""
    face: Any
    w: float
    h: float
    label: str = ""


def part(sketch: Sketch, label: str = "") -> Part:
    return Part(sketch_face(sketch), sketch.width, sketch.height, label)


LEGEND_MM = 7.0     # height of the legend heading every parts page


def part_room(paper: str) -> tuple[float, float]:
    """The largest part a parts page holds (mm): the content area under the legend."""
    _, _, aw, ah = content_area(paper)
    return aw, ah - LEGEND_MM - st.PART_GAP_MM


def legend(ctx: Context, width: float) -> Part:
    """The cut / fold / glue legend at the head of every parts page."""
    h = LEGEND_MM
    s = ctx.sketch(width, h)
    mx = ctx.mx       # right-to-left: title at the right, items leftwards, each sample right of its word

    s.text(ctx.t("components.legend.title") + ":", mx(0, 22, width), 0, 22, h, font="bold", size=8,
           min_size=MIN_PRINTED_PT, align="start", what="legend")
    x = 24.0
    for kind in ("cut", "fold", "glue"):
        sx = mx(x, 12, width)
        if kind == "cut":
            s.line(sx, h / 2, sx + 12, h / 2, stroke=st.CUT_COLOUR, width=st.CUT_MM)
        elif kind == "fold":
            s.fold_line(sx, h / 2, sx + 12, h / 2)
        else:
            s.glue_rect(sx, 1.2, 12, h - 2.4)
        s.text(ctx.t(f"components.legend.{kind}"), mx(x + 14, 30, width), 0, 30, h, size=8, min_size=MIN_PRINTED_PT,
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
                raise ComponentError(f"{p.label or 'a part'} ({p.w:.0f}x{p.h:.0f} mm) does not fit the page",
                                     code=COMPONENT_SIZE)
            if x > 0 and x + p.w > aw + 1e-6:
                y, x, row_h = y + row_h + gap, 0.0, 0.0
            if y + p.h > ah + 1e-6:
                new_page()
            current.append(Placement(p.face, ax + x, ay + y))
            x += p.w + gap
            row_h = max(row_h, p.h)
    return [PartsPage(tuple(placements), label) for placements in pages]


def tiled_pages(ctx: Context, sketch: Sketch, name: str) -> list[PartsPage]:
    """A big drawing as overlapping tiles plus an assembly map page (first).

    Each tile shows its window of the drawing with a solid cut line around it. Whatever else it
    prints lies on the strips its neighbours are glued over (pnp.components.tiling): a light
    hatched glue band on each, its label (row.column) at the start of the first and two alignment
    marks (⊕) along each; the visible rest of the tile shows the drawing only."""
    width, height, face = sketch.width, sketch.height, sketch_face(sketch)
    plan = plan_tiles(width, height, ctx.paper)
    ax, ay, aw, ah = content_area(ctx.paper, plan.landscape)
    pages = [assembly_page(ctx, sketch, plan, name)]
    for tile in plan.tiles:
        px, py = ax + (aw - tile.w) / 2, ay + (ah - tile.h) / 2          # window's top-left on the page
        label = ctx.t("components.tile", row=tile.row + 1, col=tile.col + 1) + " (" + ctx.t(
            "components.tile_of", row=tile.row + 1, rows=plan.rows, col=tile.col + 1, cols=plan.cols) + ")"
        pages.append(PartsPage((Placement(face, px - tile.x, py - tile.y, clip=(px, py, tile.w, tile.h)),
                                Placement(sketch_face(tile_overlay(ctx, tile, plan)), px, py)),
                               f"{name} · {label}", plan.landscape))
    return pages


def tile_overlay(ctx: Context, tile: Tile, plan: TilePlan) -> Sketch:
    """What a tile prints over its window of the drawing: glue bands, label and alignment marks on
    the covered strips (tiling.tile_marks places them), and the cut line."""
    overlay = ctx.sketch(tile.w, tile.h)
    for x, y, w, h in covered_strips(tile, plan):
        overlay.glue_rect(x, y, w, h, tint=False, opacity=0.6)
    for mark in tile_marks(tile, plan):
        x, y, w, h = mark.box
        if mark.kind == "registration":
            overlay.registration(x + w / 2, y + h / 2, MARK_R)
        else:
            overlay.rect(x, y, w, h, fill=st.SHEET_PAPER, stroke=st.SHEET_INK, width=0.2, fill_opacity="0.85")
            overlay.text(mark.text, x, y, w, h, font="bold", size=11, min_size=6, what="tile label",
                         direction="ltr")
    overlay.cut_rect(0, 0, tile.w, tile.h)
    return overlay


def assembly_page(ctx: Context, sketch: Sketch, plan: TilePlan, name: str) -> PartsPage:
    """The whole drawing reduced to one page with every tile's outline and label on it. The
    reduced drawing is a picture: its words that would print under 6 pt are left out
    (svgkit.readable_picture), the tile labels print at 6 pt or more."""
    ax, ay, aw, ah = content_area(ctx.paper)
    head = 24.0
    width, height = sketch.width, sketch.height
    scale = min(aw / width, (ah - head) / height)
    dw, dh = width * scale, height * scale
    ox, oy = ax + (aw - dw) / 2, ay + head
    top = ctx.sketch(aw, head)
    top.text(f"{ctx.title} — {name}: {ctx.t('components.assembly')} ({ctx.t('components.tiles', n=len(plan.tiles))})",
             0, 0, aw, 8, font="bold", size=12, min_size=7, what="assembly title")
    top.text(ctx.t("components.assembly_help"), 0, 8, aw, head - 9, size=8, min_size=MIN_PRINTED_PT, what="assembly help")
    over = ctx.sketch(dw, dh)
    for tile in plan.tiles:
        x, y, w, h = (v * scale for v in (tile.x, tile.y, tile.w, tile.h))
        over.rect(x, y, w, h, stroke=st.ASSEMBLY, width=0.5, fill="none")
    for tile in plan.tiles:   # labels on top of every outline, at the tile's centre
        x, y, w, h = (v * scale for v in (tile.x, tile.y, tile.w, tile.h))
        over.rect(x + w / 2 - 8, y + h / 2 - 5, 16, 10, fill=st.SHEET_PAPER, stroke=st.ASSEMBLY, width=0.4,
                  fill_opacity="0.9")
        over.text(tile_label(tile), x + w / 2 - 8, y + h / 2 - 5, 16, 10, font="bold", size=13,
                  min_size=6, fill=st.ASSEMBLY, what="assembly label", direction="ltr")
    picture = readable_picture(sketch, scale)
    return PartsPage((Placement(sketch_face(top), ax, ay), Placement(picture, ox, oy, scale=scale),
                      Placement(sketch_face(over), ox, oy)), f"{name} · {ctx.t('components.assembly')}")
