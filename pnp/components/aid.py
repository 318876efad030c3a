"""Player aids (type `aid`): one card per player (players.max, or `count`), in the build language.

The content is the entry's own data: a `title` and `sections`, each a `heading` and `lines`, all
text keys. A line is `{text: <key>}` or, where a number stands next to a noun, `{text: <key>, n: 4}`:
the line is then `t(key, n=4)`, the plural form the language's CLDR rules pick for 4. Text is laid
out with the project's text layer at one common size, the largest that fits the card (from
`max_size` down to `min_size`); below that it is a build error.

Right-to-left languages (Arabic) mirror the text side: headings and lines right-aligned, bullets on
the right, the card number in the bottom-left corner.
"""
from __future__ import annotations

from pnp.components.core import Context, Part, part
from pnp.components.svgkit import Sketch, text_height

PAD = 4.0           # inner margin
BULLET = 2.6        # room for the bullet before a line
HEAD_H = 13.0       # the header band: the game's name and the aid's title
STEP_PT = 0.25      # the text shrinks in steps of this size until it fits


def draw(ctx: Context, spec: dict) -> list[list[Part]]:
    count = spec["count"] if spec.get("count") is not None else int(ctx.pack.players.get("max", 1))
    sections = [(ctx.t(section["heading"]), [aid_line(ctx, line) for line in section["lines"]])
                for section in spec["sections"]]
    title = ctx.t(spec["title"])
    return [[part(card(ctx, spec, title, sections, n + 1, count), f"aid {n + 1}") for n in range(count)]]


def aid_line(ctx: Context, line: dict) -> str:
    """One aid line: {text: <text key>} or {text: <text key>, n: <number>} for a plural text."""
    if line.get("n") is None:
        return ctx.t(line["text"])
    return ctx.t(line["text"], n=line["n"])


def blocks(sections, size: float, width: float, direction: str = "auto") -> list[tuple[str, str, float]]:
    """Heights (mm) of each block at `size`: [(kind, text, height)]."""
    out = []
    for heading, lines in sections:
        out.append(("heading", heading, text_height(heading, "bold", width, size + 0.5, 1.2, direction)
                    + size * 0.16))
        for line in lines:
            out.append(("line", line, text_height(line, "regular", width - BULLET, size, 1.15, direction)
                        + size * 0.09))
        out.append(("space", "", size * 0.22))
    return out


def card(ctx: Context, spec: dict, title: str, sections, number: int, count: int) -> Sketch:
    w, h = spec["width"], spec["height"]
    header, paper, ink, corner = ctx.colours(spec, "header", "paper", "ink", "number")
    s = ctx.sketch(w, h)
    s.rect(0, 0, w, h, fill=paper)
    s.rect(0, 0, w, HEAD_H, fill=header)
    s.text(ctx.title, PAD, 1.2, w - 2 * PAD, 6.5, font="bold", size=11, min_size=6, fill=paper,
           what="aid title")
    s.text(title, PAD, 7.2, w - 2 * PAD, 4.8, size=7.5, min_size=5, fill=paper, what="aid subtitle")
    width = w - 2 * PAD
    room = h - HEAD_H - 2 * PAD - 3
    size, smallest = spec["max_size"], spec["min_size"]
    while True:
        laid = blocks(sections, size, width, ctx.direction)
        if sum(b for _, _, b in laid) <= room or size - STEP_PT < smallest:
            break
        size -= STEP_PT
    if sum(b for _, _, b in laid) > room:
        text = "\n".join([heading for heading, _ in sections] + [line for _, lines in sections for line in lines])
        ctx.report.measure(text, (w, h), smallest, "regular", True, (), "player aid")
    y = HEAD_H + PAD
    for kind, text, block_h in laid:
        if kind == "heading":
            s.text(text, PAD, y, width, block_h, font="bold", size=size + 0.5, min_size=size + 0.5, align="start",
                   valign="top", fill=header, what="aid heading")
        elif kind == "line":       # the bullet on the side the line starts: the right in Arabic
            s.circle(ctx.mx(PAD, 1.6, w) + 0.8, y + size * 0.353 * 0.62, 0.55, fill=ink)
            s.text(text, ctx.mx(PAD + BULLET, width - BULLET, w), y, width - BULLET, block_h, size=size,
                   min_size=size, align="start", valign="top", fill=ink, line_height=1.15, what="aid text")
        y += block_h
    s.text(f"{number}/{count}", ctx.mx(w - 14, 12, w), h - 5, 12, 4, size=5.5, min_size=4,
           align="left" if ctx.rtl else "right", fill=corner, what="aid number", direction="ltr")
    s.cut_rect(0, 0, w, h)
    return s
