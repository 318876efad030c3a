"""Tuck-box pages kept in the face cache: a rebuild reads back a page whose every input is the
same instead of sketching and compiling it again (each page is an SVG sketch of its pieces'
names, folds, cuts and strips, pnp.tuckbox.draw.page_face; a 950-card game has ten of them, a
seventh of a one-card rebuild's time before they were kept).

A page's key is everything `page_face` reads: the page, its pieces as placed, the names printed
on them, the strip's words, the margin and the direction; its index (one file in the face cache
per pack and language, pnp.facecache) holds what every page shares: the code that draws tuck
boxes (this package, the drawing kit and its style, and the text and SVG code of
facecache.code_digest), the fonts, the pack's own fonts and icons, the language and how numbers
print. The entry keeps the page's drawing; a page with a text finding is not kept (it is drawn on
every build, so its finding is made again). A page read back keeps no measured text boxes, as
the build's faces keep none (`pnp i18n fit` plans its boxes without the cache).

The tuck-box PDF itself is kept whole too (`<k[:2]>/<k>.tuckboxes`, its bytes under a line with
its format and sha256, checked when read): a one-card rebuild seldom changes a box (they show the
decks' names, sizes and backs), and writing the PDF again (replaying the pages, ReportLab's fonts and
formatting) was a twentieth of its time. Its key (`document_key`) is everything write_pdf draws
from: the pages' keys above (with the index), the pages and pieces as placed, each box's art by
its drawing's face-cache id (the content address of its SVG, art files, fonts and code), the
margin, title and language, and the code that writes a PDF (pnp.sheets, ReportLab's version,
zlib's). A PDF with an art drawn outside the face cache (no id) is written every build.
"""
from __future__ import annotations

import hashlib
import zlib
from pathlib import Path
from typing import Any

from reportlab import Version as REPORTLAB_VERSION
from reportlab import rl_config

from pnp import facecache
from pnp.facecache import FaceCache, mark_used
from pnp.outputfiles import write_bytes_atomically
from pnp.render.facedata import face_data, face_from_data
from pnp.text import digits
from pnp.text.fitreport import FitIssue

_PACKAGE = Path(__file__).resolve().parent
_KIT = _PACKAGE.parent / "components"
_CODE = (*sorted(_PACKAGE.glob("*.py")), _KIT / "svgkit.py", _KIT / "style.py")
_SHEETS = _PACKAGE.parent / "sheets"          # new_canvas, and the PDF formatting every document gets
DOCUMENT = ".tuckboxes"
_DOCUMENT_HEADER = b'{"format":1,"sha256":"'


def _no_art(href: str) -> Any:
    raise ValueError(f"a tuck-box page draws no art file ({href!r}): the panels' art is drawn under it")


class PageCache:
    """The tuck-box pages of one pack and language in `cache` (see the module doc)."""

    def __init__(self, cache: FaceCache, pack: Any, lang: str):
        self.cache = cache
        self.index = facecache.digest("tuckbox", facecache.code_digest(), [facecache.file_digest(p) for p in _CODE],
                                      facecache.fonts_digest(), facecache.pack_assets_digest(pack), lang,
                                      repr(digits.active()))

    @staticmethod
    def key(*inputs: Any) -> str:
        """The key of a page drawn from `inputs` (frozen dataclasses and numbers: their reprs say
        every value they hold)."""
        return facecache.digest(repr(inputs))

    def read(self, key: str) -> Any:
        """The page's drawing, or None when the cache has no such page or it does not read back
        (it is then drawn, and stored again)."""
        entry = self.cache.face(self.index, key)
        if entry is None:
            return None
        try:
            return face_from_data(self.cache.drawing(self.index, entry.drawing_id), _no_art)
        except ValueError:
            self.cache.discard(self.index, entry.drawing_id)
            return None

    def keep(self, key: str, face: Any, issues: list[FitIssue]) -> None:
        """Store a page just drawn without text findings (another page, or one the cache cannot
        hold, is drawn on every build: slower, never wrong)."""
        if issues:
            return
        data = face_data(face)
        if data is None:
            return
        text = facecache.drawing_text(data)
        entry = {"svg": key, "sha": facecache.text_sha(text), "issues": [],
                 "missing": [], "text_keys": {}, "texts": {}, "art": {}, "size": [face.width, face.height]}
        self.cache.store(self.index, key, entry, key, text)

    def document_key(self, page_keys: list[str], pages: Any, placed: Any, arts: list[Any], margin: float,
                     title: str, lang: str) -> str | None:
        """The key of the tuck-box PDF drawn from these inputs (see the module doc); None when it
        cannot be known: an art drawn outside the face cache, or a page without its key."""
        if len(page_keys) != len(pages):
            return None
        art_keys = []
        for art in arts:
            cache_id = getattr(art.drawing, "cache_id", "") if art is not None else None
            if cache_id == "":
                return None
            art_keys.append(None if art is None else
                            [art.key, cache_id, art.trim_w, art.trim_h, art.drawing.width, art.drawing.height])
        sheets = [(p.name, facecache.file_digest(p)) for p in sorted(_SHEETS.glob("*.py"))]
        return facecache.digest("tuckboxes.pdf", self.index, sheets, REPORTLAB_VERSION, rl_config.useA85,
                                zlib.ZLIB_RUNTIME_VERSION, page_keys, repr(pages), repr(placed), art_keys, margin,
                                title, lang)

    def _document_path(self, key: str) -> Path:
        return self.cache.folder / key[:2] / f"{key}{DOCUMENT}"

    def read_document(self, key: str) -> bytes | None:
        """The PDF kept under `key`, None when there is none or it does not read (its format line
        or its bytes' sha256 not what they should be)."""
        path = self._document_path(key)
        try:
            data = path.read_bytes()
        except OSError:
            return None
        head, _, pdf = data.partition(b"\n")
        if head != _DOCUMENT_HEADER + hashlib.sha256(pdf).hexdigest().encode() + b'"}':
            self.cache.broken += 1
            return None
        mark_used(path)                                 # the eviction order
        return pdf

    def keep_document(self, key: str, pdf: bytes) -> None:
        """Keep a tuck-box PDF just written (a cache that cannot be written: noted, the build goes on)."""
        path = self._document_path(key)
        try:
            write_bytes_atomically(path, _DOCUMENT_HEADER + hashlib.sha256(pdf).hexdigest().encode() + b'"}\n' + pdf)
        except OSError as error:
            self.cache.unwritable = self.cache.unwritable or f"{self.cache.folder}: {error.strerror or error}"
