"""Sprues (sheet layouts) as data: loaded from sprues.yaml, validated, and a computed fallback."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from pnp import print_constants as pc
from pnp.print_constants import LAYOUTS
from pnp.units import card_size_pt, mm, pt_to_mm, to_pt

SPRUES_FILE = Path(__file__).with_name("sprues.yaml")
ORIENTATIONS = ("portrait", "landscape")
_KEYS = {"id", "paper", "orientation", "layout", "card", "grid", "gap", "gutter"}
_SIZE_TOLERANCE_PT = 0.05


@dataclass(frozen=True)
class Sprue:
    id: str
    paper: str
    orientation: str
    layout: str
    card_w: float  # trim, points
    card_h: float
    cols: int      # gutterfold: columns of fronts (the backs mirror them)
    rows: int
    gap: float     # points between neighbouring cards
    gutter: float  # points between front and back blocks (gutterfold)

    @property
    def page_size(self) -> tuple[float, float]:
        w, h = paper_size_pt(self.paper)
        return (h, w) if self.orientation == "landscape" else (w, h)

    @property
    def capacity(self) -> int:
        return self.cols * self.rows

    def fits(self, card_w: float, card_h: float) -> bool:
        return abs(self.card_w - card_w) < _SIZE_TOLERANCE_PT and abs(self.card_h - card_h) < _SIZE_TOLERANCE_PT


def paper_size_pt(paper: str) -> tuple[float, float]:
    """Portrait (w, h) of a named paper in points."""
    try:
        w, h = pc.PAPER_SIZES_MM[paper]
    except KeyError:
        raise ValueError(f"unknown paper {paper!r}: use one of {', '.join(pc.PAPER_SIZES_MM)}") from None
    return mm(w), mm(h)


def min_margin_pt() -> float:
    """The least margin a grid needs on every side: dead zone + gap + shortest crop mark (bleed may shrink to 0)."""
    return mm(pc.MIN_EDGE_MM + pc.CROP_MARK_GAP_MM + pc.CROP_MARK_MIN_LEN_MM)


def block_size(sprue: Sprue) -> tuple[float, float]:
    """Width and height of the area covered by the cards' trims."""
    cols = sprue.cols * (2 if sprue.layout == "gutterfold" else 1)
    w = cols * sprue.card_w + (cols - 1) * sprue.gap
    if sprue.layout == "gutterfold":
        w += sprue.gutter - sprue.gap  # the gutter replaces the gap between the two blocks
    return w, sprue.rows * sprue.card_h + (sprue.rows - 1) * sprue.gap


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
                  int(grid.group(1)), int(grid.group(2)), gap, gutter)
    check_fits(sprue, where)
    return sprue


def check_fits(sprue: Sprue, where: str = "") -> None:
    """The grid must leave room for crop marks outside the printer's dead zone on every side."""
    page_w, page_h = sprue.page_size
    block_w, block_h = block_size(sprue)
    margin_x, margin_y = (page_w - block_w) / 2, (page_h - block_h) / 2
    if min(margin_x, margin_y) < min_margin_pt() - 1e-6:
        raise ValueError(
            f"{where or sprue.id}: the grid leaves margins of {pt_to_mm(margin_x):.1f} x {pt_to_mm(margin_y):.1f} mm;"
            f" crop marks need at least {pt_to_mm(min_margin_pt()):.1f} mm")


def load_sprues(path: Path = SPRUES_FILE) -> tuple[Sprue, ...]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
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


def fallback_sprue(card_w: float, card_h: float, paper: str, layout: str) -> Sprue:
    """A computed grid for a card size with no sprue in the YAML.

    Duplex: portrait paper (so long-edge flip means mirrored columns). Gutterfold: landscape paper.
    Cards get a gap of twice the bleed (full bleed on every card, two cuts per gap) when that does
    not cost a card per sheet; otherwise they abut like the poker sprues.
    """
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r}: use one of {', '.join(LAYOUTS)}")
    orientation = "landscape" if layout == "gutterfold" else "portrait"
    w, h = paper_size_pt(paper)
    page_w, page_h = (h, w) if orientation == "landscape" else (w, h)
    # Margins with room for the full outer bleed and the shortest crop marks; sheet text goes in
    # whatever margin is left over (see pnp.sheets.impose.info_boxes).
    margin = min_margin_pt() + mm(pc.BLEED_MM)
    avail_w, avail_h = page_w - 2 * margin, page_h - 2 * margin
    gutter = mm(pc.GUTTERFOLD_GUTTER_MM) if layout == "gutterfold" else 0.0

    def grid(gap: float) -> tuple[int, int]:
        usable_w = (avail_w - gutter) / 2 if layout == "gutterfold" else avail_w
        cols = int((usable_w + gap) // (card_w + gap))
        rows = int((avail_h + gap) // (card_h + gap))
        return max(cols, 0), max(rows, 0)

    wide_gap = mm(2 * pc.BLEED_MM)
    (cols, rows), gap = grid(wide_gap), wide_gap
    if cols * rows < grid(0.0)[0] * grid(0.0)[1]:
        (cols, rows), gap = grid(0.0), 0.0
    if cols * rows == 0:
        raise ValueError(f"a {pt_to_mm(card_w):.1f} x {pt_to_mm(card_h):.1f} mm card does not fit on {paper}"
                         f" ({layout}) with room for crop marks")
    sprue = Sprue(f"auto-{pt_to_mm(card_w):g}x{pt_to_mm(card_h):g}-{paper}-{layout}", paper, orientation, layout,
                  card_w, card_h, cols, rows, gap, gutter)
    check_fits(sprue)
    return sprue


def find_sprue(card_w: float, card_h: float, paper: str = "a4", layout: str = "duplex") -> Sprue:
    """The shipped sprue for this card size, paper and layout, else a computed one."""
    paper_size_pt(paper)
    for sprue in _shipped():
        if sprue.paper == paper and sprue.layout == layout and sprue.fits(card_w, card_h):
            return sprue
    return fallback_sprue(card_w, card_h, paper, layout)
