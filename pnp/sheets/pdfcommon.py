"""What every PDF this package writes shares: a reproducible canvas whose only fonts are the text
layer's embedded ones, and the edge clip (writing files safely, the staging folder and leftovers
are pnp.outputfiles, re-exported here)."""

from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Any, BinaryIO, Iterator

from reportlab.pdfbase import pdfdoc
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


def sheet_font(font: str | None = None) -> str:
    """The font of sheet text: `font` (a registered ReportLab name), else the text layer's regular
    style, an embedded TrueType subset. Never a base-14 font: a PDF/X preflight refuses those."""
    if font:
        return font
    from pnp.text import fonts

    return fonts.register("regular")


def new_canvas(tmp: str, *, title: str, subject: str, author: str, lang: str, duplex: str,
               font: str | None = None) -> Canvas:
    # ReportLab starts every page (and form) with `BT /F1 12 Tf ET` in its initial font, Helvetica
    # unless told otherwise, which puts a non-embedded font in every page's resources. An embedded
    # TrueType font as the initial font writes no such operator.
    canvas = Canvas(tmp, invariant=1, lang=lang, pageCompression=1, initialFontName=sheet_font(font))
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


def safe_clip(canvas: Canvas, page_w: float, page_h: float, edge_mm: float = pc.MIN_EDGE_MM) -> None:
    """Clip the whole page to `edge_mm` inside the paper edge: nothing can be drawn closer."""
    edge = mm(edge_mm)
    clip_rect(canvas, (edge, edge, page_w - edge, page_h - edge))


# ---------------------------------------------------------------- saving a canvas as it is formatted

_TARGET = threading.local()     # the file this thread's save writes to (see save_streamed)


class _StreamedFile(pdfdoc.PDFFile):
    """ReportLab's PDFFile (a document's output collector), writing each object to the file being
    saved as soon as it is formatted rather than joining them all at the end, when this thread is
    in save_streamed. Any other save (another thread's, a canvas saved the usual way) collects as
    ReportLab does: installed once in ReportLab's place, it changes nothing else."""

    def __init__(self, pdfVersion=pdfdoc.PDF_VERSION_DEFAULT):   # noqa: N803  (ReportLab's name)
        super().__init__(pdfVersion)                     # the header, into self.strings
        out = getattr(_TARGET, "file", None)
        self.streamed = out is not None
        if out is not None:
            out.write(b"".join(self.strings))
            self.strings, self.write = [], out.write     # add() keeps counting the offsets

    def format(self, document: Any) -> bytes:
        return b"" if self.streamed else super().format(document)


@contextmanager
def _streaming(out: BinaryIO) -> Iterator[None]:
    if pdfdoc.PDFFile is not _StreamedFile:
        pdfdoc.PDFFile = _StreamedFile                   # PDFDocument.format makes its collector by this name
    _TARGET.file = out
    try:
        yield
    finally:
        _TARGET.file = None


def save_streamed(canvas: Canvas) -> None:
    """canvas.save(), writing each PDF object to the file as it is formatted: the same bytes,
    without the whole file (and each stream's copy in it) held in memory at the end (a build of
    thousands of cards: tens of megabytes). The canvas must have been made with a file name."""
    path = canvas._filename                                                   # noqa: SLF001
    with open(path, "wb") as out, _streaming(out):
        canvas._filename = out                                                # noqa: SLF001  (SaveToFile takes a file)
        try:
            canvas.save()
        finally:
            canvas._filename = path                                           # noqa: SLF001
