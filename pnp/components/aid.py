"""Player aids (type `aid`): one card per player (players.max, or `count`), in the build language.

The content is the entry's own data: a `title` and `sections`, each a `heading` and `lines`, all
text keys. A line is `{text: <key>}` or, where a number stands next to a noun, `{text: <key>, n: 4}`:
the line is then `t(key, n=4)`, the plural form the language's CLDR rules pick for 4. Text is laid
out with the project's text layer at one common size, chosen by `fit`: the largest from `max_size`
down to READABLE_PT (7.5 pt) that fits the card; if the text needs more room at 7.5 pt, the card
grows taller, up to the tallest part a parts page holds; only a text that does not fit even that
card at 7.5 pt shrinks, down to `min_size`, and below that it is a build error. Room left over
spreads between the sections (a line's height at most between two), so the card is filled.
Everything printed on the card (header, headings, lines, its number) is 7.5 pt or more unless
the text had to shrink.

Right-to-left languages (Arabic) mirror the text side: headings and lines right-aligned, bullets on
the right, the card number in the bottom-left corner.
"""
from __future__ import annotations

import math

from pnp.components.core import Context, Part, part, part_room
from pnp.components.svgkit import Sketch, text_height
from pnp.units import pt_to_mm

PAD = 4.0           # inner margin
BULLET = 2.6        # room for the bullet before a line
HEAD_H = 13.0       # the header band: the game's name and the aid's title
FOOT_H = 3.0        # kept free under the text for the card's number
STEP_PT = 0.25      # the text shrinks in steps of this size until it fits
READABLE_PT = 7.5   # the body text is not set smaller while the card can grow taller instead
NUMBER_PT = 7.5     # the card's number (1/4) in its corner
LINE_HEIGHT = 1.15  # of the lines (headings: 1.2)


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
            out.append(("line", line, text_height(line, "regular", width - BULLET, size, LINE_HEIGHT, direction)
                        + size * 0.09))
        out.append(("space", "", size * 0.22))
    return out


def text_room(card_h: float) -> float:
    """The height (mm) the sections may fill on a card `card_h` tall."""
    return card_h - HEAD_H - 2 * PAD - FOOT_H


def card_for(text_h: float) -> float:
    """The card height (mm, whole millimetres) whose text room holds `text_h`."""
    return float(math.ceil(text_h + HEAD_H + 2 * PAD + FOOT_H - 1e-6))


def fit(sections, width: float, height: float, max_size: float, min_size: float, tallest: float,
        direction: str = "auto") -> tuple[float, float, list[tuple[str, str, float]], bool]:
    """(size, card height, blocks, fits): the common size of the sections and the card's height.

    The largest size from `max_size` down to READABLE_PT that fits a card `height` tall; else the
    card grows, up to `tallest`, to hold the text at READABLE_PT; else the text shrinks on the
    tallest card, down to `min_size` (fits is False when even that is too big)."""
    readable = max(min(READABLE_PT, max_size), min_size)

    def largest(top: float, floor: float, card_h: float):
        size = top
        while size >= floor - 1e-9:
            laid = blocks(sections, size, width, direction)
            if _total(laid) <= text_room(card_h) + 1e-6:
                return size, laid
            size -= STEP_PT
        return None

    found = largest(max_size, readable, height)
    if found:
        return found[0], height, found[1], True
    laid = blocks(sections, readable, width, direction)
    grown = card_for(_total(laid))
    if grown <= tallest:
        return readable, max(height, grown), laid, True
    tallest = max(height, tallest)
    found = largest(readable - STEP_PT, min_size, tallest)
    if found:
        return found[0], tallest, found[1], True
    return min_size, tallest, blocks(sections, min_size, width, direction), False


def _total(laid) -> float:
    return sum(h for _, _, h in laid)


def spread(laid: list[tuple[str, str, float]], room: float, size: float) -> list[tuple[str, str, float]]:
    """The blocks with the room left over shared between the sections (the space blocks between
    them), each gap growing by one line's height at most."""
    gaps = [i for i, (kind, _, _) in enumerate(laid[:-1]) if kind == "space"]
    spare = room - _total(laid)
    if not gaps or spare <= 0:
        return laid
    extra = min(spare / len(gaps), pt_to_mm(size) * LINE_HEIGHT)
    return [(kind, text, h + extra if i in gaps else h) for i, (kind, text, h) in enumerate(laid)]


def card(ctx: Context, spec: dict, title: str, sections, number: int, count: int) -> Sketch:
    w = spec["width"]
    width = w - 2 * PAD
    size, h, laid, fits = fit(sections, width, spec["height"], spec["max_size"], spec["min_size"],
                              part_room(ctx.paper)[1], ctx.direction)
    header, paper, ink, corner = ctx.colours(spec, "header", "paper", "ink", "number")
    s = ctx.sketch(w, h)
    s.rect(0, 0, w, h, fill=paper)
    s.rect(0, 0, w, HEAD_H, fill=header)
    s.text(ctx.title, PAD, 1.2, w - 2 * PAD, 6.5, font="bold", size=11, min_size=6, fill=paper,
           what="aid title")
    s.text(title, PAD, 7.2, w - 2 * PAD, 4.8, size=READABLE_PT, min_size=6, fill=paper, what="aid subtitle")
    if not fits:
        text = "\n".join([heading for heading, _ in sections] + [line for _, lines in sections for line in lines])
        ctx.report.measure(text, (w, h), spec["min_size"], "regular", True, (), "player aid", size_pt=size)
    y = HEAD_H + PAD
    for kind, text, block_h in spread(laid, text_room(h), size):
        if kind == "heading":
            s.text(text, PAD, y, width, block_h, font="bold", size=size + 0.5, min_size=size + 0.5, align="start",
                   valign="top", fill=header, what="aid heading")
        elif kind == "line":       # the bullet on the side the line starts: the right in Arabic
            s.circle(ctx.mx(PAD, 1.6, w) + 0.8, y + size * 0.353 * 0.62, 0.55, fill=ink)
            s.text(text, ctx.mx(PAD + BULLET, width - BULLET, w), y, width - BULLET, block_h, size=size,
                   min_size=size, align="start", valign="top", fill=ink, line_height=LINE_HEIGHT, what="aid text")
        y += block_h
    s.text(f"{number}/{count}", ctx.mx(w - 14, 12, w), h - 5, 12, 4, size=NUMBER_PT, min_size=6,
           align="left" if ctx.rtl else "right", fill=corner, what="aid number", direction="ltr")
    s.cut_rect(0, 0, w, h)
    return s
