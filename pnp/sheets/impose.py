"""Imposition: where each card, crop mark, fold line and text box goes on a sheet (pure geometry).

Coordinates are PDF points with (0, 0) at the bottom-left of the page. A Rect is (x0, y0, x1, y1).
Slots are numbered row by row from the top-left, as a reader fills a page. A slot's trim is the
card's footprint on the page (a sideways card, `rotate: 90`, is h wide and w tall) and its face is
drawn turned by the slot's rotation about the trim's centre.

The grid is centred on the page so that the mirrored back grid lands under the front grid after
the flip; any off-centre shift would double on the back.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnp import print_constants as pc
from pnp.sheets.sprues import Sprue, check_fits, mark_room_pt
from pnp.units import mm

Rect = tuple[float, float, float, float]
Segment = tuple[float, float, float, float]  # x0, y0, x1, y1


@dataclass(frozen=True)
class Slot:
    trim: Rect      # the card's trim box on the page
    art: Rect       # what of the face is printed: the trim, grown by the bleed on every side
    rotation: int = 0  # degrees counter-clockwise the face is turned about the trim's centre (0, 90, 180, 270)

    def transform(self, face_w: float, face_h: float) -> tuple[float, float, float, float, float, float]:
        """The PDF matrix (a b c d e f) that draws a face_w x face_h face (its bleed box, origin at
        its bottom-left) centred on the trim and turned by `rotation`."""
        cos, sin = _COS_SIN[self.rotation % 360]
        cx, cy = (self.trim[0] + self.trim[2]) / 2, (self.trim[1] + self.trim[3]) / 2
        # translate(cx, cy) . rotate . translate(-face_w / 2, -face_h / 2)
        return (cos, sin, -sin, cos, cx - (cos * face_w - sin * face_h) / 2, cy - (sin * face_w + cos * face_h) / 2)


_COS_SIN = {0: (1, 0), 90: (0, 1), 180: (-1, 0), 270: (0, -1)}


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


def outer_bleed(margin: float, printer_margin_mm: float = pc.PRINTER_MARGIN_MM) -> float:
    """Bleed on a grid side facing a paper edge `margin` away: BLEED_MM, or less where the crop
    mark and the printer margin need the room (a sprue that leaves under MIN_BLEED_MM is refused)."""
    return _clamp(margin - mark_room_pt(printer_margin_mm), 0.0, mm(pc.BLEED_MM))


def back_rotation(front: int, axis: str) -> int:
    """How a back face is turned so that, after the sheet is turned over (mirrored on `axis`), it
    sits behind its front and reads upright when the card is turned over about its own vertical
    axis, as people turn cards over (and as a long-edge flip of a portrait sheet of upright cards
    gives without turning anything). The back is placed by B = M . F . C: F places the front, C
    mirrors the card about its vertical centre line, M mirrors the page on `axis`. For F a turn by
    `front`: M_x R(a) C = R(-a), M_y R(a) C = R(180 - a). So a short-edge flip of upright cards
    turns each back 180 degrees."""
    return (-front if axis == "x" else 180 - front) % 360


def impose(sprue: Sprue, flip: str = "long", filled: int | None = None,
           printer_margin_mm: float = pc.PRINTER_MARGIN_MM) -> SheetGeometry:
    """The geometry of one sheet with its first `filled` slots used (default: all).

    Every card's art bleeds past every trim edge: into its half of the gap between neighbours, the
    margin, its side of the fold; a side facing an empty slot gets the full bleed.
    """
    check_fits(sprue, printer_margin_mm)
    page_w, page_h = sprue.page_size
    axis = mirror_axis(flip, page_w, page_h)
    w, h = sprue.slot_size
    gap = sprue.gap
    gutterfold = sprue.layout == "gutterfold"
    block_w = sprue.cols * w + (sprue.cols - 1) * gap
    block_h = sprue.rows * h + (sprue.rows - 1) * gap
    total_w = 2 * block_w + sprue.gutter if gutterfold else block_w
    left, bottom = (page_w - total_w) / 2, (page_h - block_h) / 2
    right, top = left + total_w, bottom + block_h

    bleed = {"left": outer_bleed(left, printer_margin_mm), "right": outer_bleed(page_w - right, printer_margin_mm),
             "bottom": outer_bleed(bottom, printer_margin_mm), "top": outer_bleed(page_h - top, printer_margin_mm)}
    inner = min(mm(pc.BLEED_MM), gap / 2)  # half the gap between cards, at most the full bleed
    fold_side = _clamp(sprue.gutter / 2 - mm(pc.CROP_MARK_GAP_MM), 0.0, mm(pc.BLEED_MM))
    back_turn = back_rotation(sprue.rotate, "x" if gutterfold else axis)

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
            fronts.append(Slot(trim, art, sprue.rotate))
            back_axis = "x" if gutterfold else axis  # gutterfold: mirrored across the fold line at the page centre
            backs.append(Slot(mirror_rect(trim, page_w, page_h, back_axis), mirror_rect(art, page_w, page_h, back_axis),
                              back_turn))

    all_trims = [s.trim for s in fronts] + ([s.trim for s in backs] if gutterfold else [])
    xs = sorted({round(v, 6) for t in all_trims for v in (t[0], t[2])})
    ys = sorted({round(v, 6) for t in all_trims for v in (t[1], t[3])})
    marks, reach = _crop_marks(xs, ys, (left, bottom, right, top), bleed)
    back_marks = () if gutterfold else tuple(_mirror_segment(m, page_w, page_h, axis) for m in marks)
    fold = (page_w / 2, reach["bottom"], page_w / 2, reach["top"]) if gutterfold else None
    info = info_boxes(xs, ys, (left, bottom, right, top), bleed, reach, page_w, page_h, printer_margin_mm)
    return SheetGeometry(page_w, page_h, tuple(fronts), tuple(backs), tuple(marks), back_marks, fold, info)


def _crop_marks(xs, ys, block: Rect, bleed: dict):
    """Marks extend every trim line into the margin: they start CROP_MARK_GAP_MM outside the bleed
    and are CROP_MARK_LEN_MM long (the sprue was checked to leave them outside the printer margin)."""
    left, bottom, right, top = block
    gap, length = mm(pc.CROP_MARK_GAP_MM), mm(pc.CROP_MARK_LEN_MM)
    start = {"bottom": bottom - bleed["bottom"] - gap, "top": top + bleed["top"] + gap,
             "left": left - bleed["left"] - gap, "right": right + bleed["right"] + gap}
    reach = {"bottom": start["bottom"] - length, "top": start["top"] + length,
             "left": start["left"] - length, "right": start["right"] + length}
    marks: list[Segment] = []
    for x in xs:
        marks.append((x, start["bottom"], x, reach["bottom"]))
        marks.append((x, start["top"], x, reach["top"]))
    for y in ys:
        marks.append((start["left"], y, reach["left"], y))
        marks.append((start["right"], y, reach["right"], y))
    return marks, reach


def info_boxes(xs, ys, block: Rect, bleed: dict, reach: dict, page_w: float, page_h: float,
               printer_margin_mm: float = pc.PRINTER_MARGIN_MM) -> tuple[InfoBox, ...]:
    """Free areas for the sheet text, outside the printer margin and clear of the marks and the art:
    full-width strips beyond the ends of the top/bottom marks, then the stretches of each margin
    between two marks (top and bottom, then left and right), the longest first."""
    left, bottom, right, top = block
    edge, clear, gap = mm(printer_margin_mm), mm(pc.MARK_CLEARANCE_MM), mm(pc.CROP_MARK_GAP_MM)
    strips = [
        InfoBox((edge, edge, page_w - edge, reach["bottom"] - clear), "bottom", False),
        InfoBox((edge, reach["top"] + clear, page_w - edge, page_h - edge), "top", False),
    ]
    inner = {"left": left - bleed["left"] - gap, "right": right + bleed["right"] + gap,
             "bottom": bottom - bleed["bottom"] - gap, "top": top + bleed["top"] + gap}
    between: list[InfoBox] = []
    for x0, x1 in zip(xs, xs[1:]):
        between.append(InfoBox((x0 + clear, edge, x1 - clear, inner["bottom"]), "bottom", False))
        between.append(InfoBox((x0 + clear, inner["top"], x1 - clear, page_h - edge), "top", False))
    for y0, y1 in reversed(list(zip(ys, ys[1:]))):  # top to bottom
        between.append(InfoBox((edge, y0 + clear, inner["left"], y1 - clear), "left", True))
        between.append(InfoBox((inner["right"], y0 + clear, page_w - edge, y1 - clear), "right", True))
    between.sort(key=lambda b: -round(b.length, 3))  # stable: equal lengths keep their order
    return tuple(b for b in strips + between if b.length > 0 and b.depth > 0)
