"""Player aids: one card per player (players.max), 88 x 118 mm, in the build language.

Right-to-left languages (Arabic) mirror the text side: headings and lines right-aligned, bullets on
the right, the card number in the bottom-left corner.

The content is data: the pack's aid collection (aid.yaml) names a title and sections, each a heading
and a list of lines, all text keys. A line is a key (`aid.turn.roll`) or, where a number stands next
to a noun, a key and that number (`{key: aid.die.move_n, n: 4}`): the line is then `t(key, n=4)`,
the plural form the language's CLDR rules pick for 4. Text is laid out with the project's text layer: one common size,
the largest that fits the card (from AID_MAX_PT down to AID_MIN_PT); below that it is a build error.
"""
from __future__ import annotations

from pnp.components import style as st
from pnp.components.core import ComponentError, Context, Part, part
from pnp.components.svgkit import text_height

AID_W, AID_H = 88.0, 118.0
AID_MAX_PT, AID_MIN_PT = 9.0, 5.5
PAD = 4.0
BULLET = 2.6
HEAD_H = 13.0


def draw_aids(ctx: Context, spec: dict) -> list[list[Part]]:
    aid = ctx.collection(spec.get("aid", "aid"))
    if not isinstance(aid, dict) or "sections" not in aid:
        raise ComponentError("the aid collection needs `title` and `sections` (heading + lines)")
    count = int(spec.get("count", ctx.pack.players.get("max", 1)))
    sections = [(ctx.t(sec["heading"]), [aid_line(ctx, line) for line in sec.get("lines", [])])
                for sec in aid["sections"]]
    title = ctx.t(aid.get("title", "components.aid"))
    cards = [part(_card(ctx, title, sections, n + 1, count), f"aid {n + 1}") for n in range(count)]
    return [cards]


def aid_line(ctx: Context, line) -> str:
    """One aid line: a text key, or {key: <text key>, n: <number>} for a plural text."""
    if isinstance(line, str):
        return ctx.t(line)
    if isinstance(line, dict) and set(line) == {"key", "n"} and isinstance(line["key"], str) \
            and isinstance(line["n"], (int, float)) and not isinstance(line["n"], bool):
        return ctx.t(line["key"], n=line["n"])
    raise ComponentError(f"an aid line is a text key or {{key: <text key>, n: <number>}}, not {line!r}")


def _layout(sections, size: float, width: float, direction: str = "auto"):
    """Heights (mm) of each block at `size`: [(kind, text, height)]."""
    blocks = []
    for heading, lines in sections:
        blocks.append(("heading", heading, text_height(heading, "bold", width, size + 0.5, 1.2, direction)
                       + size * 0.16))
        for line in lines:
            blocks.append(("line", line, text_height(line, "regular", width - BULLET, size, 1.15, direction)
                           + size * 0.09))
        blocks.append(("space", "", size * 0.22))
    return blocks


def _card(ctx: Context, title: str, sections, number: int, count: int):
    s = ctx.sketch(AID_W, AID_H)
    night = ctx.palette("night", "#222222")
    paper = ctx.palette("paper", ctx.palette("parchment", "#fbf8ef"))
    ink = ctx.palette("ink", "#000000")
    s.rect(0, 0, AID_W, AID_H, fill=paper)
    s.rect(0, 0, AID_W, HEAD_H, fill=night)
    s.text(ctx.title, PAD, 1.2, AID_W - 2 * PAD, 6.5, font="bold", size=11, min_size=6, fill=paper,
           what="aid title")
    s.text(title, PAD, 7.2, AID_W - 2 * PAD, 4.8, size=7.5, min_size=5, fill=paper, what="aid subtitle")
    width = AID_W - 2 * PAD
    room = AID_H - HEAD_H - 2 * PAD - 3
    size = AID_MAX_PT
    while True:
        blocks = _layout(sections, size, width, ctx.direction)
        if sum(h for _, _, h in blocks) <= room or size - 0.25 < AID_MIN_PT:
            break
        size -= 0.25
    if sum(h for _, _, h in blocks) > room:
        ctx.issues.overflows.append(f"player aid: the text does not fit {AID_W:g}x{AID_H:g} mm even at {AID_MIN_PT:g} pt")
    y = HEAD_H + PAD
    for kind, text, h in blocks:
        if kind == "heading":
            s.text(text, PAD, y, width, h, font="bold", size=size + 0.5, min_size=size + 0.5, align="start",
                   valign="top", fill=night, what="aid heading")
        elif kind == "line":       # the bullet on the side the line starts: the right in Arabic
            s.circle(ctx.mx(PAD, 1.6, AID_W) + 0.8, y + size * 0.353 * 0.62, 0.55, fill=ink)
            s.text(text, ctx.mx(PAD + BULLET, width - BULLET, AID_W), y, width - BULLET, h, size=size, min_size=size,
                   align="start", valign="top", fill=ink, line_height=1.15, what="aid text")
        y += h
    s.text(f"{number}/{count}", ctx.mx(AID_W - 14, 12, AID_W), AID_H - 5, 12, 4, size=5.5, min_size=4,
           align="left" if ctx.rtl else "right", fill=st.SOFT_INK, what="aid number", direction="ltr")
    s.cut_rect(0, 0, AID_W, AID_H)
    return s
