"""The tuck box's net: its panels, flaps and glue tabs, in millimetres, from a deck's size and thickness.

Seen from the printed side (the outside of the box), (0, 0) at the net's top-left, y down:

                 tongue
                 lid        dust              dust
                 back       side-left  front  side-right  glue-tab
                            dust       bottom dust
                                       bottom-glue

    W = card width + PLAY_MM, H = card height + PLAY_MM, D = cards x card thickness + DEPTH_PLAY_MM
    (at least MIN_DEPTH_MM). back, front: W x H; sides: D x H; lid and bottom: W x D.

Every fold joins two parts along the whole of an edge they share (`Fold`); every other edge of
a part is cut. A net too big for the paper splits between side-left and front into two pieces
(`split`): piece A keeps side-left and gets a join tab where the front was; piece B is the rest.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

Point = tuple[float, float]
MmRect = tuple[float, float, float, float]   # x, y, w, h in mm, y down

# Home-printed card: 300 gsm card stock is about 0.30 mm thick (a print shop's 310-330 gsm
# "casino" card is similar; its preset passes its own figure).
HOME_CARD_THICKNESS_MM = 0.30
# Width and height: 0.5 mm each side, so the deck slides in without catching on the folds.
PLAY_MM = 1.0
# Depth: cards never stack flat (curl, ink, air) and each fold takes up about the box card's own
# thickness (0.3 mm) on each side; 1.5 mm lets a freshly shuffled deck in without a squeeze.
DEPTH_PLAY_MM = 1.5
# A fold needs room for a finger: a box shallower than this cannot be folded by hand (a deck of
# one to a dozen cards gets this depth).
MIN_DEPTH_MM = 6.0

GLUE_TAB_MM = 10.0        # the side glue tab: about a glue stick's width, glued inside the back
BOTTOM_GLUE_MM = 12.0     # the bottom's glue strip, glued inside the back (at most a third of H)
TUCK_TONGUE_MM = 15.0     # the lid's tongue, tucked inside the front (at most a third of H)
TONGUE_INSET_MM = 1.0     # the tongue narrows by this on each side, to slide between the sides
DUST_FLAP_MM = 15.0       # dust flaps (at most 45% of W: the two flaps of one end barely meet)
THUMB_NOTCH_MM = 9.0      # radius of the half-round notch in the front's top edge, to pull the deck
ARC_STEPS = 12            # straight segments drawn per half circle (the notch) or quarter (tongue)

PANELS = ("back", "side-left", "front", "side-right")


@dataclass(frozen=True)
class BoxSize:
    """The inside of the box (mm) and what it was made from."""

    cards: int
    card_w: float
    card_h: float
    thickness: float

    @property
    def width(self) -> float:
        return self.card_w + PLAY_MM

    @property
    def height(self) -> float:
        return self.card_h + PLAY_MM

    @property
    def stack(self) -> float:
        """How thick the deck is."""
        return self.cards * self.thickness

    @property
    def depth(self) -> float:
        return max(MIN_DEPTH_MM, self.stack + DEPTH_PLAY_MM)


@dataclass(frozen=True)
class Part:
    name: str
    kind: str                       # "panel", "flap" or "glue"
    outline: tuple[Point, ...]      # a polygon, net coordinates

    @property
    def rect(self) -> MmRect:
        """The part's bounding rectangle (a panel's is the panel)."""
        return bounds(self.outline)


@dataclass(frozen=True)
class Fold:
    a: str                          # the two parts it joins
    b: str
    start: Point
    end: Point

    @property
    def length(self) -> float:
        return math.dist(self.start, self.end)


@dataclass(frozen=True)
class Piece:
    """What is cut out as one: its parts and the folds between them."""

    name: str                       # "net", or "A" / "B" for a net in two pieces
    parts: tuple[Part, ...]
    folds: tuple[Fold, ...]

    @property
    def bounds(self) -> MmRect:
        return bounds([p for part in self.parts for p in part.outline])

    def part(self, name: str) -> Part:
        for part in self.parts:
            if part.name == name:
                return part
        raise KeyError(name)

    def cut_runs(self) -> list[list[Point]]:
        """Every cut line of the piece as polylines: each part's edges that are not a fold."""
        runs: list[list[Point]] = []
        for part in self.parts:
            runs.extend(_cut_runs(part.outline, self.folds))
        return runs


def bounds(points) -> MmRect:
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    return (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def rect_outline(x: float, y: float, w: float, h: float) -> tuple[Point, ...]:
    return corners(x, y, x + w, y + h)


def corners(x0: float, y0: float, x1: float, y1: float) -> tuple[Point, ...]:
    """A rectangle from two corners (no sums: its edges are exactly the folds beside it)."""
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def _arc(cx: float, cy: float, r: float, start_deg: float, end_deg: float, steps: int) -> list[Point]:
    """Points on a circle from start_deg to end_deg (y down: 90 degrees points down)."""
    return [(cx + r * math.cos(math.radians(start_deg + (end_deg - start_deg) * i / steps)),
             cy + r * math.sin(math.radians(start_deg + (end_deg - start_deg) * i / steps)))
            for i in range(steps + 1)]


def _tapered(x: float, y: float, length: float, height: float, taper: float, side: str) -> tuple[Point, ...]:
    """A tab on the edge from (x, y) along `length`, sticking out by `height` towards `side`
    ("up", "down", "right"), its two outer corners cut at `taper`."""
    if side == "right":
        return ((x, y), (x + height, y + taper), (x + height, y + length - taper), (x, y + length))
    sign = -1 if side == "up" else 1
    tip = y + sign * height
    return ((x, y), (x + taper, tip), (x + length - taper, tip), (x + length, y))


def _dust_flap(x: float, y: float, d: float, f: float, side: str) -> tuple[Point, ...]:
    """A dust flap on a side panel's end (from (x, y), D long), `f` high: its outer corners
    chamfered so it slips in under the lid."""
    c = min(0.35 * d, 0.5 * f, 5.0)
    sign = -1 if side == "up" else 1
    tip = y + sign * f
    return ((x, y), (x, tip - sign * c), (x + c, tip), (x + d - c, tip), (x + d, tip - sign * c), (x + d, y))


def _tongue(x: float, y: float, w: float, k: float) -> tuple[Point, ...]:
    """The tuck tongue on the lid's free edge (from (x, y), W long), `k` high, narrowed by
    TONGUE_INSET_MM each side, its corners rounded so it tucks in without catching."""
    inset = TONGUE_INSET_MM
    r = min(0.6 * k, w / 4, 8.0)
    left = _arc(x + inset + r, y - k + r, r, 180, 270, ARC_STEPS)
    right = _arc(x + w - inset - r, y - k + r, r, 270, 360, ARC_STEPS)
    return ((x, y), (x + inset, y - k + r), *left[1:], *right[:-1], (x + w - inset, y - k + r), (x + w, y))


def _front(x: float, y: float, w: float, h: float, notch: float) -> tuple[Point, ...]:
    """The front panel with the half-round thumb notch in its top edge."""
    cx = x + w / 2
    arc = _arc(cx, y, notch, 180, 0, 2 * ARC_STEPS)     # y down: from the left, down round, up right
    arc = [(px, y + abs(py - y)) for px, py in arc]
    return ((x, y), *arc, (x + w, y), (x + w, y + h), (x, y + h))


@dataclass(frozen=True)
class Measures:
    """Every length of the net, from the box size (see the module's picture)."""

    w: float
    h: float
    d: float
    tab: float
    bottom_glue: float
    tongue: float
    dust: float
    notch: float

    @classmethod
    def of(cls, size: BoxSize) -> "Measures":
        w, h, d = size.width, size.height, size.depth
        return cls(w, h, d, tab=min(GLUE_TAB_MM, w / 2), bottom_glue=min(BOTTOM_GLUE_MM, h / 3),
                   tongue=min(TUCK_TONGUE_MM, h / 3), dust=min(DUST_FLAP_MM, 0.45 * w),
                   notch=min(THUMB_NOTCH_MM, w / 4, h / 6))

    @property
    def top(self) -> float:
        """Where the panels start: below the lid and tongue, or the dust flaps if taller."""
        return max(self.d + self.tongue, self.dust)


def net(size: BoxSize) -> Piece:
    """The whole net in one piece."""
    m = Measures.of(size)
    w, h, d, y0 = m.w, m.h, m.d, m.top
    widths = {"back": w, "side-left": d, "front": w, "side-right": d}
    xs, x = {}, 0.0
    for name in PANELS:               # side by side; every edge is computed once, so folds meet exactly
        xs[name], x = x, x + widths[name]
    x_tab, y_end = x, y0 + h
    parts = [Part(name, "panel", rect_outline(xs[name], y0, widths[name], h)) for name in PANELS]
    parts[2] = Part("front", "panel", _front(xs["front"], y0, w, h, m.notch))
    parts += [
        Part("glue-tab", "glue", _tapered(x_tab, y0, h, m.tab, min(m.tab, h / 4), "right")),
        Part("lid", "panel", corners(0.0, y0 - d, w, y0)),
        Part("tongue", "flap", _tongue(0.0, y0 - d, w, m.tongue)),
        Part("bottom", "panel", corners(xs["front"], y_end, xs["side-right"], y_end + d)),
        Part("bottom-glue", "glue", _tapered(xs["front"], y_end + d, w, m.bottom_glue,
                                             min(m.bottom_glue, w / 4), "down")),
    ]
    for side in ("side-left", "side-right"):
        parts.append(Part(f"{side}-dust-top", "flap", _dust_flap(xs[side], y0, d, m.dust, "up")))
        parts.append(Part(f"{side}-dust-bottom", "flap", _dust_flap(xs[side], y_end, d, m.dust, "down")))
    folds = [
        Fold("back", "side-left", (xs["side-left"], y0), (xs["side-left"], y_end)),
        Fold("side-left", "front", (xs["front"], y0), (xs["front"], y_end)),
        Fold("front", "side-right", (xs["side-right"], y0), (xs["side-right"], y_end)),
        Fold("side-right", "glue-tab", (x_tab, y0), (x_tab, y_end)),
        Fold("back", "lid", (0.0, y0), (w, y0)),
        Fold("lid", "tongue", (0.0, y0 - d), (w, y0 - d)),
        Fold("front", "bottom", (xs["front"], y_end), (xs["side-right"], y_end)),
        Fold("bottom", "bottom-glue", (xs["front"], y_end + d), (xs["side-right"], y_end + d)),
    ]
    for side in ("side-left", "side-right"):
        x = xs[side]
        folds.append(Fold(side, f"{side}-dust-top", (x, y0), (x + d, y0)))
        folds.append(Fold(side, f"{side}-dust-bottom", (x, y_end), (x + d, y_end)))
    return Piece("net", tuple(parts), tuple(folds))


JOIN_TAB = "join-tab"
_PIECE_A = ("back", "side-left", "lid", "tongue", "side-left-dust-top", "side-left-dust-bottom")


def split(whole: Piece, size: BoxSize) -> tuple[Piece, Piece]:
    """The net in two pieces, cut along the side-left | front fold: piece A (back, side-left,
    lid) gets a join tab on side-left's free edge, glued inside the front of piece B."""
    m = Measures.of(size)
    fold = next(f for f in whole.folds if (f.a, f.b) == ("side-left", "front"))
    (x, y0), (_, y_end) = fold.start, fold.end
    join = Part(JOIN_TAB, "glue", _tapered(x, y0, y_end - y0, m.tab, min(m.tab, (y_end - y0) / 4), "right"))
    a_parts = tuple(p for p in whole.parts if p.name in _PIECE_A) + (join,)
    b_parts = tuple(p for p in whole.parts if p.name not in _PIECE_A)
    a_folds = tuple(f for f in whole.folds if f.a in _PIECE_A and f.b in _PIECE_A) + (
        Fold("side-left", JOIN_TAB, fold.start, fold.end),)
    b_folds = tuple(f for f in whole.folds if f.a not in _PIECE_A and f.b not in _PIECE_A)
    return Piece("A", a_parts, a_folds), Piece("B", b_parts, b_folds)


_EPS = 1e-6


def _on_segment(p: Point, a: Point, b: Point) -> bool:
    cross = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
    if abs(cross) > _EPS * max(1.0, math.dist(a, b)):
        return False
    return (min(a[0], b[0]) - _EPS <= p[0] <= max(a[0], b[0]) + _EPS
            and min(a[1], b[1]) - _EPS <= p[1] <= max(a[1], b[1]) + _EPS)


def _is_fold(p: Point, q: Point, folds: tuple[Fold, ...]) -> bool:
    return any(_on_segment(p, f.start, f.end) and _on_segment(q, f.start, f.end) for f in folds)


def _cut_runs(outline: tuple[Point, ...], folds: tuple[Fold, ...]) -> list[list[Point]]:
    """The polygon's edges that lie on no fold, joined into polylines (a closed outline repeats
    its first point)."""
    n = len(outline)
    edges = [(outline[i], outline[(i + 1) % n]) for i in range(n)]
    cut = [not _is_fold(p, q, folds) for p, q in edges]
    if all(cut):
        return [[*outline, outline[0]]]
    start = cut.index(False)              # walk from a fold, so no run is broken at index 0
    runs: list[list[Point]] = []
    run: list[Point] = []
    for i in range(start, start + n):
        p, q = edges[i % n]
        if cut[i % n]:
            run = run or [p]
            run.append(q)
        elif run:
            runs.append(run)
            run = []
    if run:
        runs.append(run)
    return runs
