"""A board of square cells (type `grid-board`): coordinate strips, tinted zones, tiled on pages.

Everything is measured from the board collection: `size` {cols, rows}, `pitch` (one cell), and
optional `zones` (rectangles [first, last] of columns and rows) and `seats` (which zones are in
play for how many players). At a full table (the seating with most players) each zone takes the
colour (`hex`) of the piece set seated there, in the order of the pieces collection; the others
keep the `zone` colours. A pack's `zone_art` template draws inside each zone (its owner's emblem).

In a right-to-left language nothing of the board mirrors: cells, zones, the coordinates (letters
A.. along the top and bottom, numbers 1.. down the sides) and the zones' art stay where they are.
"""
from __future__ import annotations

from pnp.components.core import Context, length, need, tiled_pages
from pnp.components.style import tint
from pnp.components.svgkit import Sketch
from pnp.sheets.parts import PartsPage


def letters(n: int) -> list[str]:
    """Column names: A..Z, then AA, AB..."""
    out = []
    for i in range(n):
        name, i = "", i + 1
        while i:
            i, rest = divmod(i - 1, 26)
            name = chr(ord("A") + rest) + name
        out.append(name)
    return out


def board_geometry(board: dict, coord_mm: float, key: str = "board") -> tuple[int, int, float, float, float]:
    """(cols, rows, pitch, width, height) in mm of the board with its coordinate strips."""
    size = need(board, "size", "the board collection", key)
    cols, rows = int(need(size, "cols", "the board's size", key)), int(need(size, "rows", "the board's size", key))
    pitch = length(need(board, "pitch", "the board collection", key), "the board's pitch", key)
    return cols, rows, pitch, cols * pitch + 2 * coord_mm, rows * pitch + 2 * coord_mm


def zone_owners(board: dict, pieces: list) -> dict[str, dict]:
    """Zone id -> the piece set seated there when the table is full."""
    seats = sorted(board.get("seats") or [], key=lambda s: s["players"])
    zones = seats[-1]["zones"] if seats else [z["id"] for z in board.get("zones") or []]
    return {zone: pieces[i] for i, zone in enumerate(zones) if i < len(pieces)}


def draw(ctx: Context, spec: dict) -> list[PartsPage]:
    sketch = draw_board(ctx, spec)
    return tiled_pages(ctx, sketch, ctx.t("components.board"))


def draw_board(ctx: Context, spec: dict) -> Sketch:
    board = ctx.collection(spec, "board")
    pieces = ctx.collection(spec, "pieces") if spec.get("pieces") else []
    m = spec["coordinates"]
    cols, rows, p, W, H = board_geometry(board, m)
    paper, square, grid, zone_fill, zone_edge, ink = ctx.colours(spec, "paper", "square", "grid", "zone",
                                                                 "zone_edge", "ink")
    zones = board.get("zones") or []
    owners = zone_owners(board, pieces)
    s = ctx.sketch(W, H)
    s.rect(0, 0, W, H, fill=paper)
    boxes = []          # (zone, its owner or None, the owner's colour or None, x, y, w, h)
    in_zone = set()
    for zone in zones:
        (c0, c1), (r0, r1) = need(zone, "cols", "a zone", "board"), need(zone, "rows", "a zone", "board")
        in_zone |= {(c, r) for c in range(c0, c1 + 1) for r in range(r0, r1 + 1)}
        owner = owners.get(zone.get("id"))
        colour = ctx.colour(need(owner, "hex", f"piece set {owner.get('id')!r}", "pieces"), "pieces") if owner else None
        boxes.append((zone, owner, colour, m + c0 * p, m + r0 * p, (c1 - c0 + 1) * p, (r1 - r0 + 1) * p))
    for r in range(rows):          # cells: one filled rect each, exactly pitch x pitch
        for c in range(cols):
            if (c, r) not in in_zone:
                s.rect(m + c * p, m + r * p, p, p, fill=square)
    for _, _, colour, x, y, w, h in boxes:    # zones: one filled rect each
        s.rect(x, y, w, h, fill=tint(colour or zone_fill, spec["zone_tint"]))
    for c in range(1, cols):
        s.line(m + c * p, m, m + c * p, m + rows * p, stroke=grid, width=spec["grid_width"])
    for r in range(1, rows):
        s.line(m, m + r * p, m + cols * p, m + r * p, stroke=grid, width=spec["grid_width"])
    for zone, owner, colour, x, y, w, h in boxes:
        colour = colour or zone_edge
        s.rect(x + 0.6, y + 0.6, w - 1.2, h - 1.2, stroke=colour, width=1.2)
        s.markup(ctx.art(spec["zone_art"], "zone", "zone_art", zone=zone, owner=owner, colour=colour, ink=ink,
                         x=x, y=y, w=w, h=h, cx=x + w / 2, cy=y + h / 2, pitch=p))
    s.rect(m, m, cols * p, rows * p, stroke=ink, width=0.8)
    for c, letter in enumerate(letters(cols)):
        for y in (0, m + rows * p):
            s.text(letter, m + c * p, y, p, m, font="bold", size=11, min_size=6, fill=ink, what="coordinate",
                   direction="ltr")
    for r in range(rows):
        for x in (0, m + cols * p):
            s.text(str(r + 1), x, m + r * p, m, p, font="bold", size=11, min_size=6, fill=ink, what="coordinate",
                   direction="ltr")
    if spec["title"] and cols > 6:
        s.text(ctx.title, m + 3 * p, m + rows * p / 2 - 6, (cols - 6) * p, 12, font="bold", size=20, min_size=8,
               fill=tint(ink, 0.8), what="board title")
    return s
