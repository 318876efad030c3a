"""Sprues (sheet layouts) as data: loaded from sprues.yaml, validated, and a computed fallback."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

from pnp import print_constants as pc
from pnp.print_constants import LAYOUTS
from pnp.units import card_size_pt, mm, pt_to_mm, to_pt
from pnp.yamlsource import load_shipped

SPRUES_FILE = Path(__file__).with_name("sprues.yaml")
ORIENTATIONS = ("portrait", "landscape")
ROTATIONS = (0, 90)   # a card upright on the page, or turned a quarter turn counter-clockwise (lying sideways)
_KEYS = {"id", "paper", "orientation", "layout", "card", "grid", "gap", "gutter", "rotate"}
_SIZE_TOLERANCE_PT = 0.05
_BLEED_STEP_MM = 0.25   # computed layouts try bleeds from BLEED_MM down to MIN_BLEED_MM in these steps


class NoLayoutError(ValueError):
    """No grid of this card size fits the paper with the bleed and crop marks every card needs."""


@dataclass(frozen=True)
class Sprue:
    id: str
    paper: str
    orientation: str
    layout: str
    card_w: float  # the card's own trim, points (upright, whatever `rotate` says)
    card_h: float
    cols: int      # gutterfold: columns of fronts (the backs mirror them)
    rows: int
    gap: float     # points between neighbouring cards
    gutter: float  # points between front and back blocks (gutterfold)
    rotate: int = 0  # 90: every card lies sideways, turned a quarter turn counter-clockwise

    @property
    def page_size(self) -> tuple[float, float]:
        w, h = paper_size_pt(self.paper)
        return (h, w) if self.orientation == "landscape" else (w, h)

    @property
    def slot_size(self) -> tuple[float, float]:
        """Width and height a card's trim takes on the page."""
        return (self.card_h, self.card_w) if self.rotate == 90 else (self.card_w, self.card_h)

    @property
    def capacity(self) -> int:
        return self.cols * self.rows

    def fits(self, card_w: float, card_h: float) -> bool:
        return abs(self.card_w - card_w) < _SIZE_TOLERANCE_PT and abs(self.card_h - card_h) < _SIZE_TOLERANCE_PT


@dataclass(frozen=True)
class Bleeds:
    """The bleed (points) a sprue leaves each kind of card edge, and the outer margins it leaves."""
    outer_x: float   # left and right sides of the grid (the margin less the marks and the printer margin)
    outer_y: float   # top and bottom
    inner: float     # between neighbouring cards (half the gap)
    fold: float      # gutterfold: either side of the fold line
    margin_x: float
    margin_y: float

    @property
    def least(self) -> float:
        return min(self.outer_x, self.outer_y, self.inner, self.fold)


def paper_size_pt(paper: str) -> tuple[float, float]:
    """Portrait (w, h) of a named paper in points."""
    try:
        w, h = pc.PAPER_SIZES_MM[paper]
    except KeyError:
        raise ValueError(f"unknown paper {paper!r}: use one of {', '.join(pc.PAPER_SIZES_MM)}") from None
    return mm(w), mm(h)


def mark_room_pt(printer_margin_mm: float = pc.PRINTER_MARGIN_MM) -> float:
    """What a grid side facing the paper edge needs beyond its bleed: the printer margin, a crop
    mark and the clear space before it."""
    return mm(printer_margin_mm + pc.CROP_MARK_GAP_MM + pc.CROP_MARK_LEN_MM)


def block_size(sprue: Sprue) -> tuple[float, float]:
    """Width and height of the area covered by the cards' trims."""
    slot_w, slot_h = sprue.slot_size
    cols = sprue.cols * (2 if sprue.layout == "gutterfold" else 1)
    w = cols * slot_w + (cols - 1) * sprue.gap
    if sprue.layout == "gutterfold":
        w += sprue.gutter - sprue.gap  # the gutter replaces the gap between the two blocks
    return w, sprue.rows * slot_h + (sprue.rows - 1) * sprue.gap


def bleeds(sprue: Sprue, printer_margin_mm: float = pc.PRINTER_MARGIN_MM) -> Bleeds:
    """The bleed each edge of a full sheet gets: BLEED_MM where there is room, less where there is not."""
    page_w, page_h = sprue.page_size
    block_w, block_h = block_size(sprue)
    margin_x, margin_y = (page_w - block_w) / 2, (page_h - block_h) / 2
    full, room = mm(pc.BLEED_MM), mark_room_pt(printer_margin_mm)
    neighbours = sprue.cols > 1 or sprue.rows > 1
    inner = min(full, sprue.gap / 2) if neighbours else full
    fold = min(full, sprue.gutter / 2 - mm(pc.CROP_MARK_GAP_MM)) if sprue.layout == "gutterfold" else full
    return Bleeds(min(full, margin_x - room), min(full, margin_y - room), inner, fold, margin_x, margin_y)


def _parse(entry: object, index: int) -> Sprue:
    where = f"{SPRUES_FILE.name}: sprue #{index + 1}"
    if not isinstance(entry, dict):
        raise ValueError(f"{where}: expected a mapping, got {entry!r}")
    where = f"{SPRUES_FILE.name}: sprue {entry.get('id', index + 1)!r}"
    unknown = set(entry) - _KEYS
    missing = {"id", "paper", "orientation", "layout", "card", "grid"} - set(entry)
    if unknown or missing:
        raise ValueError(f"{where}: unknown keys {sorted(unknown)}, missing keys {sorted(missing)}")
    if entry["layout"] not in LAYOUTS:
        raise ValueError(f"{where}: layout {entry['layout']!r} is not one of {LAYOUTS}")
    if entry["orientation"] not in ORIENTATIONS:
        raise ValueError(f"{where}: orientation {entry['orientation']!r} is not one of {ORIENTATIONS}")
    if entry.get("rotate", 0) not in ROTATIONS:
        raise ValueError(f"{where}: rotate {entry['rotate']!r} is not one of {ROTATIONS}")
    grid = re.fullmatch(r"\s*(\d+)\s*x\s*(\d+)\s*", str(entry["grid"]))
    if not grid or int(grid.group(1)) < 1 or int(grid.group(2)) < 1:
        raise ValueError(f"{where}: grid {entry['grid']!r} is not '<cols>x<rows>'")
    try:
        paper_size_pt(entry["paper"])
        card_w, card_h = card_size_pt(entry["card"])
        gap = to_pt(entry.get("gap", 0))
        gutter = to_pt(entry.get("gutter", pc.GUTTERFOLD_GUTTER_MM if entry["layout"] == "gutterfold" else 0))
    except ValueError as error:
        raise ValueError(f"{where}: {error}") from None
    if gap < 0 or gutter < 0:
        raise ValueError(f"{where}: gap and gutter must not be negative")
    sprue = Sprue(str(entry["id"]), entry["paper"], entry["orientation"], entry["layout"], card_w, card_h,
                  int(grid.group(1)), int(grid.group(2)), gap, gutter, int(entry.get("rotate", 0)))
    check_fits(sprue, where=where)
    return sprue


def fit_problem(sprue: Sprue, printer_margin_mm: float = pc.PRINTER_MARGIN_MM) -> str | None:
    """Why the sprue cannot be printed (every card edge keeps MIN_BLEED_MM of bleed, every crop mark
    CROP_MARK_LEN_MM long outside the printer margin), or None when it can."""
    b, least = bleeds(sprue, printer_margin_mm), mm(pc.MIN_BLEED_MM) - 1e-6
    if min(b.outer_x, b.outer_y) < least:
        return (f"the grid leaves margins of {pt_to_mm(b.margin_x):.2f} x {pt_to_mm(b.margin_y):.2f} mm; "
                f"{pc.MIN_BLEED_MM:g} mm bleed and {pc.CROP_MARK_LEN_MM:g} mm crop marks outside a "
                f"{printer_margin_mm:g} mm printer margin need {pt_to_mm(mark_room_pt(printer_margin_mm)):.2f}"
                f" + {pc.MIN_BLEED_MM:g} mm")
    if b.inner < least:
        return (f"a gap of {pt_to_mm(sprue.gap):.2f} mm leaves neighbouring cards less than "
                f"{pc.MIN_BLEED_MM:g} mm of bleed each: give it at least {2 * pc.MIN_BLEED_MM:g} mm")
    if b.fold < least:
        return (f"a gutter of {pt_to_mm(sprue.gutter):.2f} mm leaves less than {pc.MIN_BLEED_MM:g} mm of bleed "
                f"either side of the fold: give it at least {2 * (pc.MIN_BLEED_MM + pc.CROP_MARK_GAP_MM):g} mm")
    return None


def check_fits(sprue: Sprue, printer_margin_mm: float = pc.PRINTER_MARGIN_MM, where: str = "") -> None:
    problem = fit_problem(sprue, printer_margin_mm)
    if problem:
        raise ValueError(f"{where or sprue.id}: {problem}")


def load_sprues(path: Path = SPRUES_FILE) -> tuple[Sprue, ...]:
    data = load_shipped(path)
    if not isinstance(data, dict) or set(data) != {"sprues"} or not isinstance(data["sprues"], list):
        raise ValueError(f"{path.name}: expected a single key 'sprues' holding a list")
    sprues = tuple(_parse(entry, i) for i, entry in enumerate(data["sprues"]))
    ids = [s.id for s in sprues]
    if len(set(ids)) != len(ids):
        raise ValueError(f"{path.name}: duplicate sprue ids {sorted({i for i in ids if ids.count(i) > 1})}")
    return sprues


@functools.cache
def _shipped() -> tuple[Sprue, ...]:
    return load_sprues()


def _candidates(layout: str) -> tuple[tuple[str, int], ...]:
    """(paper orientation, card rotation) pairs a computed layout may use, preferred first. Duplex
    sheets stay portrait, so the flip and the calibration sheet's back offset mean the same on
    every sheet; a sideways card on portrait paper is the same grid as an upright one on landscape."""
    if layout == "gutterfold":   # simplex: the fold line runs down the page centre
        return (("landscape", 0), ("landscape", 90), ("portrait", 0), ("portrait", 90))
    return (("portrait", 0), ("portrait", 90))


def _with_bleed(base: Sprue, bleed: float, cols: int, rows: int) -> Sprue:
    """The sprue whose gaps and gutter give every card `bleed` points of its own art."""
    gutter = 2 * (bleed + mm(pc.CROP_MARK_GAP_MM)) if base.layout == "gutterfold" else 0.0
    return Sprue(base.id, base.paper, base.orientation, base.layout, base.card_w, base.card_h, cols, rows,
                 2 * bleed, gutter, base.rotate)


def _densest(base: Sprue, printer_margin_mm: float) -> Sprue | None:
    """The most cards this orientation holds at the least bleed, then the most bleed that grid allows."""
    least = mm(pc.MIN_BLEED_MM)
    cols = rows = 0
    while fit_problem(_with_bleed(base, least, 1, rows + 1), printer_margin_mm) is None:
        rows += 1
    while rows and fit_problem(_with_bleed(base, least, cols + 1, rows), printer_margin_mm) is None:
        cols += 1
    if not cols * rows:
        return None
    steps = int(round((pc.BLEED_MM - pc.MIN_BLEED_MM) / _BLEED_STEP_MM))
    for step in range(steps, -1, -1):
        sprue = _with_bleed(base, mm(pc.MIN_BLEED_MM + step * _BLEED_STEP_MM), cols, rows)
        if fit_problem(sprue, printer_margin_mm) is None:
            return sprue
    return None  # not reached: the least bleed fitted above


def fallback_sprue(card_w: float, card_h: float, paper: str, layout: str,
                   printer_margin_mm: float = pc.PRINTER_MARGIN_MM) -> Sprue:
    """The densest grid of this card size meeting every constraint: each card edge keeps at least
    MIN_BLEED_MM of its own art (cards sit apart, gaps of twice the bleed), crop marks
    CROP_MARK_LEN_MM long outside the printer margin. Among equally dense grids: the larger bleed
    (up to BLEED_MM), then the order of `_candidates`. NoLayoutError when nothing fits."""
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r}: use one of {', '.join(LAYOUTS)}")
    best: tuple[tuple[int, float, int], Sprue] | None = None
    for order, (orientation, rotate) in enumerate(_candidates(layout)):
        ident = f"auto-{pt_to_mm(card_w):g}x{pt_to_mm(card_h):g}-{paper}-{layout}"
        base = Sprue(ident, paper, orientation, layout, card_w, card_h, 1, 1, 0.0, 0.0, rotate)
        sprue = _densest(base, printer_margin_mm)
        if sprue is None:
            continue
        rank = (sprue.capacity, round(sprue.gap, 3), -order)
        if best is None or rank > best[0]:
            best = (rank, sprue)
    if best is None:
        raise NoLayoutError(
            f"a {pt_to_mm(card_w):g} x {pt_to_mm(card_h):g} mm card does not fit on {paper} ({layout}) with "
            f"{pc.MIN_BLEED_MM:g} mm bleed on every edge and {pc.CROP_MARK_LEN_MM:g} mm crop marks outside a "
            f"{printer_margin_mm:g} mm printer margin")
    return best[1]


def find_sprue(card_w: float, card_h: float, paper: str = "a4", layout: str = "duplex",
               printer_margin_mm: float = pc.PRINTER_MARGIN_MM) -> Sprue:
    """The shipped sprue for this card size, paper and layout when it fits the printer margin,
    else a computed one."""
    paper_size_pt(paper)
    for sprue in _shipped():
        if sprue.paper == paper and sprue.layout == layout and sprue.fits(card_w, card_h) \
                and fit_problem(sprue, printer_margin_mm) is None:
            return sprue
    return fallback_sprue(card_w, card_h, paper, layout, printer_margin_mm)
