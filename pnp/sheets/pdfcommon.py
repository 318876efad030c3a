"""What every PDF this package writes shares: atomic writing, reproducible canvas, the 5 mm clip."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import Iterator

from reportlab.pdfgen.canvas import Canvas

from pnp import print_constants as pc
from pnp.sheets.impose import Rect
from pnp.units import mm

DUPLEX_PREF = {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge"}


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[str]:
    """A temp file next to `path`, moved over it on success, removed on any exception."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent or ".")
    os.close(fd)
    try:
        yield tmp
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600 files; outputs should be like any other file
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


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
