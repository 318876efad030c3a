"""Round tokens (type `tokens`): one row per entry of a collection, `count` discs of its `hex` colour
cut out along a circle, the entry's label (and colour-blind mark) at the start of the row. A
pack's `art` template draws on each disc.

In a right-to-left language the label moves to the right end of its row and the discs run
leftwards from it; the discs' art never mirrors.
"""
from __future__ import annotations

from pnp.components import marks
from pnp.components.core import Context, Part, length, need, part
from pnp.components.errors import ComponentError
from pnp.text.fitreport import MIN_PRINTED_PT

GAP_MM = 2.0        # between two discs of a row


def diameter(ctx: Context, spec: dict) -> float:
    if spec.get("diameter") is not None:
        return float(spec["diameter"])
    if not spec.get("board"):
        raise ComponentError("give the tokens a `diameter`, or a `board` collection with `token_diameter`",
                             "diameter")
    board = ctx.collection(spec, "board")
    return length(need(board, "token_diameter", "the board collection", "board"), "token_diameter", "board")


def label(ctx: Context, spec: dict, entry: dict) -> str:
    """The row's label: each pattern of `label` filled with the entry's fields is a text key."""
    try:
        keys = [pattern.format(**entry) for pattern in spec["label"]]
    except (KeyError, IndexError, ValueError) as error:
        raise ComponentError(f"a label pattern asks for a field entry {entry.get('id')!r} lacks: {error}",
                             "label") from None
    return spec["separator"].join(ctx.t(key) for key in keys)


def draw(ctx: Context, spec: dict) -> list[list[Part]]:
    pieces = ctx.collection(spec, "pieces")
    d = diameter(ctx, spec)
    label_w = spec["label_width"]
    ink = ctx.colour(spec["ink"], "ink")
    groups = []
    for piece in pieces:
        what = f"token set {piece.get('id')!r}"
        n = int(need(piece, "count", what, "pieces"))
        fill = ctx.colour(need(piece, "hex", what, "pieces"), "pieces")
        width = label_w + n * (d + GAP_MM)
        s = ctx.sketch(width, d + 2)        # right-to-left: the label at the right, the discs to its left
        s.text(label(ctx, spec, piece), ctx.mx(0, label_w - 2, width), 0, label_w - 2, d + 2, font="condensed",
               size=8, min_size=MIN_PRINTED_PT, align="start", fill=ink, what="token label")
        if spec["mark"]:
            try:
                marks.mark(s, need(piece, spec["mark"], what, "mark"), ctx.mx(label_w - 5, 0, width), d * 0.85,
                           1.6, ink)
            except ValueError as error:
                raise ComponentError(f"{what}: {error}", "mark") from None
        for i in range(n):
            cx, cy = ctx.mx(label_w + i * (d + GAP_MM) + d / 2, 0, width), 1 + d / 2
            s.circle(cx, cy, d / 2, fill=fill)
            s.markup(ctx.art(spec["art"], "token", piece=piece, cx=cx, cy=cy, r=d / 2, colour=fill, ink=ink))
            s.cut_circle(cx, cy, d / 2)
        groups.append(part(s, f"tokens {piece.get('id')}"))
    return [groups]
