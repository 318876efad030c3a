"""Imposition: where each card, crop mark, fold line and text box goes on a sheet (pure geometry).

Coordinates are PDF points with (0, 0) at the bottom-left of the page. A Rect is (x0, y0, x1, y1).
Slots are numbered row by row from the top-left, as a reader fills a page.

The grid is centred on the page so that the mirrored back grid lands under the front grid after
the flip; any off-centre shift would double on the back.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnp import print_constants as pc
from pnp.sheets.sprues import Sprue
from pnp.units import mm

Rect = tuple[float, float, float, float]
Segment = tuple[float, float, float, float]  # x0, y0, x1, y1


@dataclass(frozen=True)
class Slot:
    trim: Rect  # the card's trim box
    art: Rect   # what of the face is printed: the trim, grown by the bleed on outer sides


@dataclass(frozen=True)
class InfoBox:
    """A free margin area for sheet text: `length` runs along the paper edge, `depth` away from it."""
    rect: Rect
    side: str        # bottom, top, left, right
    vertical: bool   # text runs bottom-to-top (side margins)

    @property
    def length(self) -> float:
        x0, y0, x1, y1 = self.rect
        return (y1 - y0) if self.vertical else (x1 - x0)

    @property
    def depth(self) -> float:
        x0, y0, x1, y1 = self.rect
        return (x1 - x0) if self.vertical else (y1 - y0)


@dataclass(frozen=True)
class SheetGeometry:
    page_w: float
    page_h: float
    fronts: tuple[Slot, ...]   # in fill order
    backs: tuple[Slot, ...]    # backs[i] is the back of fronts[i], in the back page's coordinates
                               # (duplex) or on the same page (gutterfold)
    marks: tuple[Segment, ...]
    back_marks: tuple[Segment, ...]
    fold: Segment | None       # gutterfold: the dashed fold line
    info: tuple[InfoBox, ...]  # free areas for sheet text, best first


def _clamp(value: float, low: float, high: float) -> float:
    return max(low, min(high, value))


def mirror_axis(flip: str, page_w: float, page_h: float) -> str:
    """Which coordinate a duplex flip mirrors: turning a portrait sheet about its long edge
    mirrors x ("columns reversed"), about its short edge y ("rows reversed"); landscape swaps."""
    if flip not in ("long", "short"):
        raise ValueError(f"unknown flip {flip!r}: use 'long' or 'short'")
    portrait = page_h >= page_w
    return "x" if (flip == "long") == portrait else "y"


def mirror_rect(rect: Rect, page_w: float, page_h: float, axis: str) -> Rect:
    """Where a rect on the front lands on the back page, mirrored about the page centre on `axis`."""
    x0, y0, x1, y1 = rect
    if axis == "x":
        return (page_w - x1, y0, page_w - x0, y1)
    return (x0, page_h - y1, x1, page_h - y0)


def _mirror_segment(seg: Segment, page_w: float, page_h: float, axis: str) -> Segment:
    x0, y0, x1, y1 = seg
    if axis == "x":
        return (page_w - x0, y0, page_w - x1, y1)
    return (x0, page_h - y0, x1, page_h - y1)


def outer_bleed(margin: float) -> float:
    """Bleed on a grid side facing a paper edge `margin` away: the full bleed when the crop marks
    still fit outside it; otherwise what is left (US Letter's 7.7 mm top and bottom margins keep
    a 0.2 mm bleed there so the marks stay at least 2 mm long and 5 mm from the edge)."""
    room = margin - mm(pc.MIN_EDGE_MM + pc.CROP_MARK_GAP_MM + pc.CROP_MARK_MIN_LEN_MM)
    return _clamp(room, 0.0, mm(pc.BLEED_MM))


def impose(sprue: Sprue, flip: str = "long", filled: int | None = None) -> SheetGeometry:
    """The geometry of one sheet with its first `filled` slots used (default: all).

    A card's art bleeds on sides that face the paper edge, the fold, or an empty slot (so a
    partly filled last sheet has no white slivers); sides facing an abutting card stop at the trim.
    """
    page_w, page_h = sprue.page_size
    axis = mirror_axis(flip, page_w, page_h)
    w, h, gap = sprue.card_w, sprue.card_h, sprue.gap
    gutterfold = sprue.layout == "gutterfold"
    block_w = sprue.cols * w + (sprue.cols - 1) * gap
    block_h = sprue.rows * h + (sprue.rows - 1) * gap
    total_w = 2 * block_w + sprue.gutter if gutterfold else block_w
    left, bottom = (page_w - total_w) / 2, (page_h - block_h) / 2
    right, top = left + total_w, bottom + block_h

    bleed = {"left": outer_bleed(left), "right": outer_bleed(page_w - right),
             "bottom": outer_bleed(bottom), "top": outer_bleed(page_h - top)}
    inner = min(mm(pc.BLEED_MM), gap / 2)  # between cards: full bleed if the gap allows, none if they abut
    fold_side = _clamp(sprue.gutter / 2 - mm(pc.CROP_MARK_GAP_MM), 0.0, mm(pc.BLEED_MM))

    filled = sprue.capacity if filled is None else filled
    full = mm(pc.BLEED_MM)

    def side(outer: float, neighbour: tuple[int, int] | None) -> float:
        if neighbour is None:
            return outer
        return inner if neighbour[0] * sprue.cols + neighbour[1] < filled else full

    fronts: list[Slot] = []
    backs: list[Slot] = []
    for r in range(sprue.rows):
        for c in range(sprue.cols):
            x0 = left + c * (w + gap)
            y1 = top - r * (h + gap)
            trim = (x0, y1 - h, x0 + w, y1)
            grow = (
                side(bleed["left"], (r, c - 1) if c > 0 else None),
                side(bleed["bottom"], (r + 1, c) if r < sprue.rows - 1 else None),
                side(fold_side if gutterfold else bleed["right"], (r, c + 1) if c < sprue.cols - 1 else None),
                side(bleed["top"], (r - 1, c) if r > 0 else None),
            )
            art = (trim[0] - grow[0], trim[1] - grow[1], trim[2] + grow[2], trim[3] + grow[3])
            fronts.append(Slot(trim, art))
            if gutterfold:  # mirrored across the fold line at the page centre
                backs.append(Slot(mirror_rect(trim, page_w, page_h, "x"), mirror_rect(art, page_w, page_h, "x")))
            else:
                backs.append(Slot(mirror_rect(trim, page_w, page_h, axis), mirror_rect(art, page_w, page_h, axis)))

    all_trims = [s.trim for s in fronts] + ([s.trim for s in backs] if gutterfold else [])
    xs = sorted({round(v, 6) for t in all_trims for v in (t[0], t[2])})
    ys = sorted({round(v, 6) for t in all_trims for v in (t[1], t[3])})
    marks, reach = _crop_marks(xs, ys, (left, bottom, right, top), bleed, page_w, page_h)
    back_marks = () if gutterfold else tuple(_mirror_segment(m, page_w, page_h, axis) for m in marks)
    fold = (page_w / 2, reach["bottom"], page_w / 2, reach["top"]) if gutterfold else None
    info = info_boxes(xs, ys, (left, bottom, right, top), bleed, reach, page_w, page_h)
    return SheetGeometry(page_w, page_h, tuple(fronts), tuple(backs), tuple(marks), back_marks, fold, info)


def _crop_marks(xs, ys, block: Rect, bleed: dict, page_w: float, page_h: float):
    """Marks extend every trim line into the margin: they start just outside the bleed and stop
    CROP_MARK_LEN_MM later or MIN_EDGE_MM from the paper edge, whichever comes first."""
    left, bottom, right, top = block
    edge, gap, length = mm(pc.MIN_EDGE_MM), mm(pc.CROP_MARK_GAP_MM), mm(pc.CROP_MARK_LEN_MM)
    start = {"bottom": bottom - bleed["bottom"] - gap, "top": top + bleed["top"] + gap,
             "left": left - bleed["left"] - gap, "right": right + bleed["right"] + gap}
    reach = {"bottom": max(start["bottom"] - length, edge), "top": min(start["top"] + length, page_h - edge),
             "left": max(start["left"] - length, edge), "right": min(start["right"] + length, page_w - edge)}
    marks: list[Segment] = []
    for x in xs:
        marks.append((x, start["bottom"], x, reach["bottom"]))
        marks.append((x, start["top"], x, reach["top"]))
    for y in ys:
        marks.append((start["left"], y, reach["left"], y))
        marks.append((start["right"], y, reach["right"], y))
    return marks, reach


def info_boxes(xs, ys, block: Rect, bleed: dict, reach: dict, page_w: float, page_h: float) -> tuple[InfoBox, ...]:
    """Free areas for the sheet text, outside the marks and the dead zone: full-width strips beyond
    the ends of the top/bottom marks, then the side margins between the horizontal marks."""
    left, bottom, right, top = block
    edge, clear = mm(pc.MIN_EDGE_MM), mm(pc.MARK_CLEARANCE_MM)
    boxes = [
        InfoBox((edge, edge, page_w - edge, reach["bottom"] - clear), "bottom", False),
        InfoBox((edge, reach["top"] + clear, page_w - edge, page_h - edge), "top", False),
    ]
    inner_left = left - bleed["left"] - mm(pc.CROP_MARK_GAP_MM)
    inner_right = right + bleed["right"] + mm(pc.CROP_MARK_GAP_MM)
    for y0, y1 in reversed(list(zip(ys, ys[1:]))):  # top to bottom
        boxes.append(InfoBox((edge, y0 + clear, inner_left, y1 - clear), "left", True))
        boxes.append(InfoBox((inner_right, y0 + clear, page_w - edge, y1 - clear), "right", True))
    return tuple(b for b in boxes if b.length > 0 and b.depth > 0)
