"""Zombies vs Vampires: the square board, the 36 pieces, the wall strips and the two dice.

In a right-to-left language (Arabic) the pieces' label moves to the right of its row; the board
(squares, zones, coordinates A-M / 1-13), the dice nets and faces and the wall strips never mirror.

Everything is measured from data: board.yaml (size, pitch, zones, seats), pieces.yaml (colours and
colour-blind marks), walls.yaml (sizes, counts), dice.yaml (faces and their text keys).
"""
from __future__ import annotations

from pnp.components import icons
from pnp.components import style as st
from pnp.components.core import ComponentError, Context, Part, mm_value, part
from pnp.components.svgkit import Sketch

LIGHT = "#f6f2e8"


def tint(hex_colour: str, amount: float) -> str:
    """Mix a colour with white: amount 0 = the colour, 1 = white."""
    h = hex_colour.lstrip("#")
    rgb = [int(h[i:i + 2], 16) for i in (0, 2, 4)]
    return "#" + "".join(f"{round(c + (255 - c) * amount):02x}" for c in rgb)


def zone_colours(ctx: Context, board: dict, pieces: list) -> dict[str, dict]:
    """Zone id -> piece entry of the player seated there when the table is full."""
    seats = sorted(board.get("seats", []), key=lambda s: s["players"])
    zones = seats[-1]["zones"] if seats else [z["id"] for z in board["zones"]]
    return {zone: pieces[i] for i, zone in enumerate(zones) if i < len(pieces)}


def letters(n: int) -> list[str]:
    return [chr(ord("A") + i) for i in range(n)]


# ---- the board

def board_geometry(board: dict, coord_mm: float) -> tuple[int, int, float, float, float]:
    cols, rows = int(board["size"]["cols"]), int(board["size"]["rows"])
    pitch = mm_value(board["pitch"])
    return cols, rows, pitch, cols * pitch + 2 * coord_mm, rows * pitch + 2 * coord_mm


def draw_board(ctx: Context, spec: dict) -> tuple[Sketch, float, float]:
    board = ctx.collection(spec.get("board", "board"))
    pieces = ctx.collection(spec.get("pieces", "pieces"))
    m = mm_value(spec.get("coordinates", "9mm"))
    cols, rows, p, W, H = board_geometry(board, m)
    s = ctx.sketch(W, H)
    pal = ctx.pack.palette
    s.rect(0, 0, W, H, fill=pal.get("paper", "#ffffff"))
    owners = zone_colours(ctx, board, pieces)
    in_zone = set()
    for zone in board["zones"]:
        (c0, c1), (r0, r1) = zone["cols"], zone["rows"]
        in_zone |= {(c, r) for c in range(c0, c1 + 1) for r in range(r0, r1 + 1)}
    for r in range(rows):          # squares: one filled rect each, exactly pitch x pitch
        for c in range(cols):
            if (c, r) not in in_zone:
                s.rect(m + c * p, m + r * p, p, p, fill=pal.get("board", "#eeeeee"))
    for zone in board["zones"]:    # home zones: one filled rect each, exactly 3 x 3 squares
        (c0, c1), (r0, r1) = zone["cols"], zone["rows"]
        owner = owners.get(zone["id"])
        colour = owner["hex"] if owner else pal.get("home", "#8fbce6")
        s.rect(m + c0 * p, m + r0 * p, (c1 - c0 + 1) * p, (r1 - r0 + 1) * p, fill=tint(colour, 0.62))
    grid = pal.get("grid", "#777777")
    for c in range(1, cols):
        s.line(m + c * p, m, m + c * p, m + rows * p, stroke=grid, width=0.5)
    for r in range(1, rows):
        s.line(m, m + r * p, m + cols * p, m + r * p, stroke=grid, width=0.5)
    for zone in board["zones"]:
        (c0, c1), (r0, r1) = zone["cols"], zone["rows"]
        owner = owners.get(zone["id"])
        colour = owner["hex"] if owner else pal.get("home_edge", "#3f6f9f")
        x, y, w, h = m + c0 * p, m + r0 * p, (c1 - c0 + 1) * p, (r1 - r0 + 1) * p
        s.rect(x + 0.6, y + 0.6, w - 1.2, h - 1.2, stroke=colour, width=1.2)
        cx, cy = x + w / 2, y + h / 2
        if owner:
            s.circle(cx, cy - 1.5, p * 0.36, fill=LIGHT, stroke=colour, width=0.6)
            (icons.zombie if owner["side"] == "zombie" else icons.vampire)(s, cx, cy - 1.5, p * 0.5, colour, pal.get("ink", "#000"))
            icons.mark(s, owner["mark"], x + p * 0.5, y + p * 0.5, p * 0.18, colour)
            icons.mark(s, owner["mark"], x + w - p * 0.5, y + h - p * 0.5, p * 0.18, colour)
            s.text(ctx.t(owner["name"]), x + p, y + 2 * p + 1, p, p - 2, font="condensed", size=8, min_size=5,
                   fill=pal.get("ink", "#000"), what="zone colour")
    s.rect(m, m, cols * p, rows * p, stroke=pal.get("ink", "#000"), width=0.8)
    ink = pal.get("ink", "#000")
    for c, letter in enumerate(letters(cols)):
        for y in (0, m + rows * p):
            s.text(letter, m + c * p, y, p, m, font="bold", size=11, min_size=6, fill=ink, what="coordinate",
                   direction="ltr")
    for r in range(rows):
        for x in (0, m + cols * p):
            s.text(str(r + 1), x, m + r * p, m, p, font="bold", size=11, min_size=6, fill=ink, what="coordinate",
                   direction="ltr")
    s.text(ctx.title, m + 3 * p, m + rows * p / 2 - 6, (cols - 6) * p, 12, font="bold", size=20, min_size=8,
           fill=tint(ink, 0.8), what="board title")
    return s, W, H


# ---- pieces (tokens)

def draw_tokens(ctx: Context, spec: dict) -> list[list[Part]]:
    board = ctx.collection(spec.get("board", "board"))
    pieces = ctx.collection(spec.get("pieces", "pieces"))
    d = mm_value(spec.get("diameter", board.get("token_diameter", "16mm")))
    gap = 2.0
    label_w = 30.0
    ink = ctx.palette("ink", "#000")
    groups = []
    for piece in pieces:
        n = int(piece.get("count", 9))
        width = label_w + n * (d + gap)
        s = ctx.sketch(width, d + 2)        # right-to-left: the label at the right, the pieces to its left
        s.text(f"{ctx.t(piece['name'])} — {ctx.t('side.' + piece['side'])}", ctx.mx(0, label_w - 2, width), 0,
               label_w - 2, d + 2, font="condensed", size=8, min_size=5, align="start", fill=ink, what="piece label")
        icons.mark(s, piece["mark"], ctx.mx(label_w - 5, 0, width), d * 0.85, 1.6, ink)
        for i in range(n):
            cx, cy = ctx.mx(label_w + i * (d + gap) + d / 2, 0, width), 1 + d / 2
            token(s, piece, cx, cy, d / 2, ink)
        groups.append(part(s, f"pieces {piece['id']}"))
    return [groups]


def token(s: Sketch, piece: dict, cx: float, cy: float, r: float, ink: str) -> None:
    s.circle(cx, cy, r, fill=piece["hex"])
    s.circle(cx, cy, r * 0.86, fill="none", stroke=LIGHT, width=0.35)
    (icons.zombie if piece["side"] == "zombie" else icons.vampire)(s, cx, cy - r * 0.12, r * 1.05, LIGHT, ink)
    s.circle(cx, cy + r * 0.6, r * 0.26, fill=LIGHT)
    icons.mark(s, piece["mark"], cx, cy + r * 0.6, r * 0.17, ink)
    s.cut_circle(cx, cy, r)


# ---- walls

def wall_panels(height: float, thickness: float) -> list[tuple[str, float]]:
    """Across a wall strip, top to bottom: it folds into a closed box, thickness x height."""
    return [("glue", thickness), ("side", height), ("top", thickness), ("side", height), ("base", thickness)]


def draw_walls(ctx: Context, spec: dict) -> list[list[Part]]:
    board = ctx.collection(spec.get("board", "board"))
    walls = ctx.collection(spec.get("walls", "walls"))
    pitch = mm_value(board["pitch"])
    height = mm_value(spec.get("height", "10mm"))
    thick = mm_value(spec.get("thickness", "4mm"))
    colour = ctx.palette("wall", "#6b5a4b")
    ink = ctx.palette("ink", "#000")
    groups = []
    for wall in walls:
        n = int(wall["size"])
        length = n * pitch          # the standing length: exactly n squares of the board
        parts = []
        for i in range(int(wall["count"])):
            panels = wall_panels(height, thick)
            total = sum(w for _, w in panels)
            s = ctx.sketch(length, total)
            y = 0.0
            for kind, w in panels:
                if kind == "glue":
                    s.glue_rect(0, y, length, w)
                elif kind == "side":
                    s.rect(0, y, length, w, fill=colour)
                    for row in range(1, 3):
                        s.line(0, y + w * row / 3, length, y + w * row / 3, stroke="#4a3e33", width=0.2)
                    for row in range(3):
                        step = pitch / 3
                        off = step / 2 if row % 2 else 0.0
                        bx = off + step
                        while bx < length - 0.5:
                            s.line(bx, y + w * row / 3, bx, y + w * (row + 1) / 3, stroke="#4a3e33", width=0.2)
                            bx += step
                else:
                    s.rect(0, y, length, w, fill=tint(colour, 0.35))
                    if kind == "top":
                        s.text(f"{ctx.t(wall['name'])} · {i + 1}/{wall['count']}", 1, y, length - 2, w,
                               size=6, min_size=3.5, fill=ink, what="wall label")
                y += w
            y = 0.0
            for kind, w in panels[:-1]:
                y += w
                s.fold_line(0, y, length, y)
            s.cut_rect(0, 0, length, total)
            parts.append(part(s, f"wall {wall['id']}"))
        groups.append(parts)
    return groups


# ---- dice

# Cross net: (column, row) of the six faces, in the order of the data's faces list. Faces 0/3,
# 1/4 and 2/5 end up opposite each other.
NET = [(1, 0), (0, 1), (1, 1), (1, 2), (2, 1), (3, 1)]
# Glue tabs: (face index in NET, edge); the seven edges that each meet an untabbed edge.
TABS = [(1, "top"), (4, "top"), (5, "top"), (1, "bottom"), (4, "bottom"), (5, "bottom"), (5, "right")]


def draw_dice(ctx: Context, spec: dict) -> list[list[Part]]:
    dice = ctx.collection(spec.get("dice", "dice"))
    size = mm_value(spec.get("face", "18mm"))
    tab = mm_value(spec.get("tab", "5mm"))
    parts = []
    for die in dice:
        faces = die["faces"]
        if len(faces) != 6:
            raise ComponentError(f"die {die.get('id')}: a cube has 6 faces, the data gives {len(faces)}")
        title_h = 6.0
        s = ctx.sketch(4 * size + tab, 3 * size + title_h)
        s.text(ctx.t(die["name"]), size * 2, 0, 2 * size + tab, title_h, font="bold", size=9, min_size=5,
               align="start", what="die name")
        net(ctx, s, die, faces, size, tab, 0, title_h)
        parts.append(part(s, f"die {die['id']}"))
    return [parts]


def net(ctx: Context, s: Sketch, die: dict, faces: list, size: float, tab: float, ox: float, oy: float) -> None:
    cells = {pos: i for i, pos in enumerate(NET)}
    for i, (c, r) in enumerate(NET):
        x, y = ox + c * size, oy + r * size
        die_face(ctx, s, die, faces[i], x, y, size)
    edges = {"top": ((0, 0), (1, 0), (0, -1)), "bottom": ((0, 1), (1, 1), (0, 1)),
             "left": ((0, 0), (0, 1), (-1, 0)), "right": ((1, 0), (1, 1), (1, 0))}
    tabs = set(TABS)
    for i, (c, r) in enumerate(NET):
        for name, ((ax, ay), (bx, by), (nx, ny)) in edges.items():
            p = (ox + (c + ax) * size, oy + (r + ay) * size)
            q = (ox + (c + bx) * size, oy + (r + by) * size)
            neighbour = (c + nx, r + ny)
            if neighbour in cells:
                if cells[neighbour] > i:
                    s.fold_line(*p, *q)
            elif (i, name) in tabs:
                inset = tab * 0.9
                ux, uy = (q[0] - p[0]) / size, (q[1] - p[1]) / size
                outline = [p, (p[0] + nx * tab + ux * inset, p[1] + ny * tab + uy * inset),
                           (q[0] + nx * tab - ux * inset, q[1] + ny * tab - uy * inset), q]
                s.glue(outline)
                s.fold_line(*p, *q)
                for a, b in zip(outline, outline[1:]):
                    s.cut_line(*a, *b)
            else:
                s.cut_line(*p, *q)


def die_face(ctx: Context, s: Sketch, die: dict, face: dict, x: float, y: float, size: float) -> None:
    night = ctx.palette("night", "#222222")
    light = ctx.palette("paper", LIGHT)
    accent = ctx.palette("pumpkin", "#e8821e")
    s.rect(x, y, size, size, fill=night)          # the face: exactly size x size
    label = ctx.t(face["label"])
    cx = x + size / 2
    # Dice faces never mirror: numbers, "2*" and "±" read left to right in every language; only
    # the word on the Build face follows the language.
    if "size" in face and "action" not in face:   # wall-size die: the number and a wall that long
        s.text(label, x, y + size * 0.08, size, size * 0.55, font="bold", size=size * 1.2, min_size=6, fill=light,
               what="die face", direction="ltr")
        n = int(face["size"])
        seg = size * 0.22
        total = n * seg
        icons.wall(s, cx - total / 2, y + size * 0.68, total, size * 0.16, accent, night)
        return
    action = face.get("action")
    if action == "move" or action == "two-star":
        s.text(label, x, y + size * 0.06, size, size * 0.56, font="bold", size=size * 1.2, min_size=6, fill=light,
               what="die face", direction="ltr")
        icons.footsteps(s, cx, y + size * 0.77, size * 0.5, accent)
    elif action == "build":
        icons.wall(s, x + size * 0.2, y + size * 0.16, size * 0.6, size * 0.3, accent, night)
        s.text(label, x + 1, y + size * 0.55, size - 2, size * 0.36, font="condensed", size=size * 0.55, min_size=4,
               fill=light, what="die face")
    elif action == "build-or-remove":
        s.text(label, x, y + size * 0.04, size, size * 0.6, font="bold", size=size * 1.3, min_size=6, fill=light,
               what="die face", direction="ltr")
        icons.wall(s, x + size * 0.25, y + size * 0.7, size * 0.5, size * 0.16, accent, night)
    else:
        s.text(label, x, y, size, size, font="bold", size=size, min_size=5, fill=light, what="die face")
