"""Putting the nets' pieces on pages: shelf packing inside the printable area.

The printable area is the paper less `margin` on every edge (the printer's dead zone, 6.35 mm
by default) less a strip at the top (instruction line, legend) and one at the bottom (test bar,
page label). A net goes on the page whole when it fits, portrait or else landscape (the page
turns, the net does not); otherwise in two pieces (pnp.tuckbox.geometry.split), each of which
must fit; otherwise it cannot be printed on this paper (`fits` says None). Pieces fill a page
left to right in rows, rows top to bottom, and each page's rows are centred across it.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from pnp import print_constants as pc
from pnp.print_constants import PRINTER_MARGIN_MM  # noqa: F401  (re-exported to pnp.tuckbox)
from pnp.tuckbox.geometry import BoxSize, MmRect, Piece, net, split

STRIP_MM = 7.0               # the instruction strip (top) and the test-bar strip (bottom)
PIECE_GAP_MM = 5.0           # between pieces sharing a page: room to cut each on its own


def paper_size(paper: str, landscape: bool = False) -> tuple[float, float]:
    w, h = pc.PAPER_SIZES_MM[paper]
    return (h, w) if landscape else (w, h)


def content_area(paper: str, landscape: bool, margin: float) -> MmRect:
    """Where pieces go (mm from the page's top-left)."""
    w, h = paper_size(paper, landscape)
    return (margin, margin + STRIP_MM, w - 2 * margin, h - 2 * margin - 2 * STRIP_MM)


def _fits(piece: Piece, paper: str, landscape: bool, margin: float) -> bool:
    _, _, aw, ah = content_area(paper, landscape, margin)
    _, _, w, h = piece.bounds
    return w <= aw + 1e-9 and h <= ah + 1e-9


def orientation(piece: Piece, paper: str, margin: float) -> bool | None:
    """False: the piece fits a portrait page; True: only a landscape one; None: neither."""
    for landscape in (False, True):
        if _fits(piece, paper, landscape, margin):
            return landscape
    return None


def fits(size: BoxSize, paper: str, margin: float) -> tuple[Piece, ...] | None:
    """The net whole if it fits the paper, else in two pieces if they do, else None."""
    whole = net(size)
    if orientation(whole, paper, margin) is not None:
        return (whole,)
    pieces = split(whole, size)
    if all(orientation(piece, paper, margin) is not None for piece in pieces):
        return pieces
    return None


@dataclass(frozen=True)
class Placed:
    """A piece on a page: the top-left of its bounds at (x, y) mm from the page's top-left."""

    net: int                   # index of its net in the plan
    piece: Piece
    page: int                  # 0-based
    x: float
    y: float

    def to_page(self, rect: MmRect) -> MmRect:
        """A rectangle in net coordinates -> page coordinates (mm, from the top-left)."""
        bx, by, _, _ = self.piece.bounds
        return (rect[0] - bx + self.x, rect[1] - by + self.y, rect[2], rect[3])

    @property
    def offset(self) -> tuple[float, float]:
        bx, by, _, _ = self.piece.bounds
        return (self.x - bx, self.y - by)


@dataclass
class _Page:
    landscape: bool
    placed: list[Placed] = field(default_factory=list)
    x: float = 0.0             # the row's next free x, from the content area's left
    y: float = 0.0             # the row's top
    row_h: float = 0.0


@dataclass(frozen=True)
class PageSpec:
    number: int                # 0-based
    landscape: bool
    width: float               # mm
    height: float


def pack_pieces(nets: list[tuple[Piece, ...]], paper: str, margin: float
                ) -> tuple[list[PageSpec], list[Placed]]:
    """Every piece of every net on pages, in order (each must fit: see `fits`)."""
    pages: list[_Page] = []
    for index, pieces in enumerate(nets):
        for piece in pieces:
            _place(pages, index, piece, paper, margin)
    specs, placed = [], []
    for number, page in enumerate(pages):
        ax, ay, aw, _ = content_area(paper, page.landscape, margin)
        used = max(p.x + p.piece.bounds[2] for p in page.placed)
        shift = ax + (aw - used) / 2
        placed += [Placed(p.net, p.piece, number, p.x + shift, p.y + ay) for p in page.placed]
        specs.append(PageSpec(number, page.landscape, *paper_size(paper, page.landscape)))
    return specs, placed


def _place(pages: list[_Page], index: int, piece: Piece, paper: str, margin: float) -> None:
    _, _, w, h = piece.bounds
    if pages:
        page = pages[-1]
        _, _, aw, ah = content_area(paper, page.landscape, margin)
        gap = PIECE_GAP_MM if page.placed else 0.0
        if page.x + gap + w <= aw + 1e-9 and page.y + h <= ah + 1e-9:          # the same row
            page.placed.append(Placed(index, piece, 0, page.x + gap, page.y))
            page.x += gap + w
            page.row_h = max(page.row_h, h)
            return
        below = page.y + page.row_h + PIECE_GAP_MM
        if w <= aw + 1e-9 and below + h <= ah + 1e-9:                            # a new row
            page.placed.append(Placed(index, piece, 0, 0.0, below))
            page.x, page.y, page.row_h = w, below, h
            return
    landscape = orientation(piece, paper, margin)
    assert landscape is not None, "pack_pieces takes pieces that fit (see fits)"
    pages.append(_Page(landscape, [Placed(index, piece, 0, 0.0, 0.0)], w, 0.0, h))
