"""What every PDF this package writes shares: a reproducible canvas and the 5 mm clip (writing
files safely, the staging folder and leftovers are pnp.outputfiles, re-exported here)."""

from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas

from pnp import print_constants as pc
from pnp.outputfiles import (  # noqa: F401  (re-exported for the sheet writers)
    STAGING_PREFIX,
    TEMP_SUFFIX,
    Staging,
    atomic_path,
    remove_leftovers,
    staged,
)
from pnp.sheets.impose import Rect
from pnp.units import mm

DUPLEX_PREF = {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge"}


def new_canvas(tmp: str, *, title: str, subject: str, author: str, lang: str, duplex: str) -> Canvas:
    canvas = Canvas(tmp, invariant=1, lang=lang, pageCompression=1)
    canvas.setTitle(title)
    canvas.setSubject(subject)
    canvas.setAuthor(author)
    canvas.setCreator("pnp")
    canvas.setViewerPreference("PrintScaling", "None")  # ask viewers not to "fit to page"
    canvas.setViewerPreference("Duplex", duplex)
    return canvas


def clip_rect(canvas: Canvas, rect: Rect) -> None:
    path = canvas.beginPath()
    path.rect(rect[0], rect[1], rect[2] - rect[0], rect[3] - rect[1])
    canvas.clipPath(path, stroke=0, fill=0)


def safe_clip(canvas: Canvas, page_w: float, page_h: float) -> None:
    """Clip the whole page to MIN_EDGE_MM inside the paper edge: nothing can be drawn closer."""
    edge = mm(pc.MIN_EDGE_MM)
    clip_rect(canvas, (edge, edge, page_w - edge, page_h - edge))
