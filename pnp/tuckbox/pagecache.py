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
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from pnp import facecache
from pnp.facecache import FaceCache
from pnp.render.facedata import face_data, face_from_data
from pnp.text import digits
from pnp.text.fitreport import FitIssue

_PACKAGE = Path(__file__).resolve().parent
_KIT = _PACKAGE.parent / "components"
_CODE = (*sorted(_PACKAGE.glob("*.py")), _KIT / "svgkit.py", _KIT / "style.py")


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
