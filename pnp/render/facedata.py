"""A compiled face (pnp.render.svgcanvas.CompiledFace) as plain JSON data, and back.

    data = face_data(face)            # None when the face holds something this format cannot keep
    face = face_from_data(data, art)  # ValueError for anything that is not a face this wrote
    packed = PackedFace.of(text, w, h, art)   # the JSON text kept compressed until the PDF needs it

The operations are stored by their names in svgcanvas.OPERATIONS with their arguments as JSON
values: PDF operator text, numbers, font names, strings, a shaped run as its characters and glyph
positions, an image as its href (resolved through the pack's ArtLibrary when read back, so the PDF
embeds the file as it is now; the cache key holds its hash). Reading checks every value's type and
that every font is one ReportLab knows, so a tampered or truncated entry is refused rather than
written into a PDF or left to fail half way through one.
"""
from __future__ import annotations

import json
import math
import zlib
from typing import Any, Callable

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import ShapeData, ShapedStr

from pnp.errors import PnpError
from pnp.render.svgcanvas import OPERATIONS, CompiledFace, ImageUse

_NAMES = {op: name for name, op in OPERATIONS.items()}
_ANCHORS = ("start", "middle", "end")


def face_data(face: CompiledFace) -> dict | None:
    """The face as JSON data, or None when an operation has no stored form (it is then drawn
    afresh on every build: slower, never wrong)."""
    ops: list[list] = []
    for op, args in face.ops:
        name = _NAMES.get(op)
        if name is None:
            return None
        if name in ("glyphs", "line_glyphs"):       # the last argument: /ActualText, or the line's y
            font, size, x, glyphs, last = args
            args = (font, size, x, {"s": str(glyphs), "d": [list(d) for d in glyphs.__shapeData__]}, last)
        elif name == "image":
            args = (args[0].href,)
        elif name == "shade":
            radial, coords, stops = args
            args = (radial, list(coords), [[offset, list(rgb)] for offset, rgb in stops])
        ops.append([name, *args])
    images = [[use.href, list(use.pixels), list(use.printed_pt)] for use in face.images]
    return {"width": face.width, "height": face.height, "ops": ops, "images": images}


def face_from_data(data: Any, art: Callable[[str], Any]) -> CompiledFace:
    """The face `face_data` made; `art` is the pack's ArtLibrary. ValueError when `data` is not one."""
    if not isinstance(data, dict):
        raise ValueError("not a drawing")
    width, height = _number(data.get("width")), _number(data.get("height"))
    ops = data.get("ops")
    images = data.get("images")
    if not isinstance(ops, list) or not isinstance(images, list):
        raise ValueError("no operations")
    decoded = tuple(_operation(item, art) for item in ops)
    uses = []
    for item in images:
        if not (isinstance(item, list) and len(item) == 3 and isinstance(item[0], str)):
            raise ValueError("bad image use")
        found = art(item[0])
        pixels = tuple(int(_number(v)) for v in _list(item[1], 2))
        printed = tuple(_number(v) for v in _list(item[2], 2))
        uses.append(ImageUse(item[0], str(found.path), pixels, printed))  # type: ignore[arg-type]
    return CompiledFace(width, height, decoded, tuple(uses))


class PackedFace:
    """A compiled face kept as its compressed JSON text (`face_data`'s) between the moment it is
    drawn or read from the cache and the moment the sheet writer defines its PDF form: a build of
    thousands of cards holds each unique face in a few hundred bytes rather than its operations
    (issue 13: flat memory). It answers `width` and `height` at once; `define_form` (and anything
    else a CompiledFace has: ops, images, draw) decodes the text, each time, keeping nothing.

    `cache_id` names the drawing in the face cache (the content address of everything it depends
    on, pnp.facecache): the sheet writer keys the form's PDF stream with it (pnp.sheets.pdfparts).
    A text that does not decode raises FaceDataError: the face cache checks each text's hash when
    it reads it, so only a cache folder written by something else than pnp gets there."""

    __slots__ = ("width", "height", "cache_id", "_packed", "_art")

    def __init__(self, packed: bytes | str, width: float, height: float, art: Callable[[str], Any],
                 cache_id: str = ""):
        self.width, self.height, self.cache_id = width, height, cache_id
        self._packed, self._art = packed, art

    @classmethod
    def of(cls, text: str, width: float, height: float, art: Callable[[str], Any], cache_id: str = "") -> PackedFace:
        return cls(zlib.compress(text.encode(), 1), width, height, art, cache_id)

    @classmethod
    def kept(cls, text: str, width: float, height: float, art: Callable[[str], Any], cache_id: str = "") -> PackedFace:
        """A face read back from the face cache: its text as the cache's index holds it (that
        string, in memory already, not compressed again: a rebuild whose PDF reuses the face's
        form never decodes it, and compressing ~1,000 of them was a tenth of a one-card rebuild)."""
        return cls(text, width, height, art, cache_id)

    @property
    def packed(self) -> bytes:
        """The drawing's JSON text, zlib-compressed (what the face cache may keep of it)."""
        if isinstance(self._packed, str):
            return zlib.compress(self._packed.encode(), 1)
        return self._packed

    def unpack(self) -> CompiledFace:
        try:
            text = self._packed if isinstance(self._packed, str) else zlib.decompress(self._packed)
            return face_from_data(json.loads(text), self._art)
        except (ValueError, TypeError, KeyError, AttributeError, zlib.error) as error:
            raise FaceDataError(f"a face drawing in the face cache does not read back ({error}): build again with "
                                "--no-cache, or empty the cache folder") from None

    def define_form(self, canvas: Any, name: str) -> None:
        self.unpack().define_form(canvas, name)

    def __getattr__(self, name: str) -> Any:       # ops, images, draw...: those of the decoded face
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.unpack(), name)


class FaceDataError(PnpError):
    """A packed face that does not decode (see PackedFace): exit 2 with the message, no traceback."""


def _operation(item: Any, art: Callable[[str], Any]) -> tuple[Callable, tuple]:
    if not isinstance(item, list) or not item or item[0] not in OPERATIONS:
        raise ValueError("unknown operation")
    name, args = item[0], item[1:]
    op = OPERATIONS[name]
    if name == "literal":
        return op, (_text(_only(args, 1)[0]),)
    if name in ("save", "restore"):
        return op, _only(args, 0)
    if name in ("fill_alpha", "stroke_alpha"):
        return op, (_number(_only(args, 1)[0]),)
    if name == "text":
        font, size, anchor, text = _only(args, 4)
        if anchor not in _ANCHORS:
            raise ValueError("bad anchor")
        return op, (_font(font), _number(size), anchor, _text(text))
    if name == "text_at":
        font, size, x, y, text = _only(args, 5)
        return op, (_font(font), _number(size), _number(x), _number(y), _text(text))
    if name in ("glyphs", "line_glyphs"):
        font, size, x, run, last = _only(args, 5)
        if not isinstance(run, dict) or not isinstance(run.get("d"), list):
            raise ValueError("bad glyph run")
        chars = _text(run.get("s"))
        shape = [ShapeData(*(_number(v) for v in _list(d, 6))) for d in run["d"]]
        if len(shape) != len(chars):
            raise ValueError("bad glyph run")
        shaped = ShapedStr(chars, shapeData=shape)
        return op, (_font(font), _number(size), _number(x), shaped, _text(last) if name == "glyphs" else _number(last))
    if name == "image":
        found = art(_text(_only(args, 1)[0]))          # ArtError (a ValueError) when it cannot be drawn
        if not hasattr(found, "reader"):
            raise ValueError("not a raster image")
        return op, (found,)
    radial, coords, stops = _only(args, 3)            # "shade"
    if not isinstance(radial, bool):
        raise ValueError("bad shading")
    coords = tuple(_number(v) for v in _list(coords, 6 if radial else 4))
    if not isinstance(stops, list) or len(stops) < 2:
        raise ValueError("bad shading")
    decoded = tuple((_number(offset), tuple(_number(c) for c in _list(rgb, 3))) for offset, rgb in
                    (_list(stop, 2) for stop in stops))
    return op, (radial, coords, decoded)


def _only(args: list, count: int) -> tuple:
    if len(args) != count:
        raise ValueError("wrong number of arguments")
    return tuple(args)


def _list(value: Any, count: int) -> list:
    if not isinstance(value, list) or len(value) != count:
        raise ValueError("bad list")
    return value


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError("not a number")
    return value


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError("not a string")
    return value


def _font(name: Any) -> str:
    """A font name ReportLab has registered (a built-in style's instance is registered now)."""
    from pnp.text import fonts

    name = _text(name)
    try:
        pdfmetrics.getFont(name)
    except KeyError:
        try:
            fonts.register_font(name)
            pdfmetrics.getFont(name)
        except Exception:   # noqa: BLE001  (whatever the font code raises for a name it does not know)
            raise ValueError(f"unknown font {name!r}") from None
    return name
