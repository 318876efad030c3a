"""A pack's art files (PNG, JPEG, SVG) for `<image href="art/knight.png">` in its templates.

    library = ArtLibrary(pack.root)
    art = library("art/knight.png")      # RasterArt | SvgArt, or ArtError saying why not

An href is a path below the pack's folder, written with `/`: `art/knight.png` is
`<pack>/art/knight.png`. It never leaves the pack: an absolute path, a `..`, a URL (`http:`,
`data:`, `file:`) or a symlink resolving outside the pack is refused, and so is a missing file, a
file of another type, a corrupt image, a file over MAX_ART_BYTES (MAX_SVG_ART_BYTES for SVG) and
a raster over MAX_ART_PIXELS (a "decompression bomb": a few kilobytes that decode to gigabytes),
the last before its pixels are decoded. Every refusal is an ArtError with the code `template.art`
and the href.

Each file is read once per library (a library per pack and language); a raster is decoded only
when a PDF embeds it, once per PDF (see RasterArt.xobject), and never kept decoded.
"""
from __future__ import annotations

import hashlib
import io
import os
import warnings
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from PIL import Image, UnidentifiedImageError
from reportlab.lib.utils import ImageReader

from pnp.limits import MAX_ART_BYTES, MAX_ART_PIXELS, MAX_SVG_ART_BYTES
from pnp.render.svgcanvas import UnsupportedSvg

__all__ = ["ART_ERROR", "ArtError", "ArtLibrary", "RasterArt", "SvgArt", "MAX_ART_PIXELS", "MAX_ART_BYTES",
           "MAX_SVG_ART_BYTES"]

ART_ERROR = "template.art"          # the code of every art problem (a template problem: the template names the file)

# Bounds on art files (to move to pnp/limits.py and docs/limits.md). A 300 ppi A2 poster is 35
# million pixels, a card's art at 600 ppi under 5 million; decoded, one pixel takes 3-4 bytes.

RASTER_TYPES = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG"}
SVG_TYPES = {".svg"}


class ArtError(UnsupportedSvg):
    """An art file that cannot be drawn: `href` as the template wrote it, `reason` what is wrong."""

    code = ART_ERROR

    def __init__(self, href: str, reason: str):
        super().__init__(f"art {href!r}: {reason}")
        self.href = href
        self.reason = reason


@dataclass(frozen=True, eq=False)
class RasterArt:
    """A PNG or JPEG of the pack: its size, its content hash and how to embed it in a PDF."""

    href: str
    path: Path
    width: int                      # pixels
    height: int
    digest: str                     # sha256 of the file: the PDF image's name (same bytes, same name)
    _data: bytes = field(repr=False)

    @property
    def name(self) -> str:
        return "pnpart" + self.digest[:24]

    def reader(self) -> ImageReader:
        """A ReportLab ImageReader of the pixels as a PDF holds them: JPEG as it is (the PDF keeps
        the file's own compression) when no conversion is needed, else RGB(A) or grey(+alpha)
        with the file's EXIF orientation applied, as browsers show it."""
        with _bounded(), Image.open(io.BytesIO(self._data)) as image:
            if image.format == "JPEG" and image.mode in ("RGB", "L") and _upright(image):
                return ImageReader(io.BytesIO(self._data))
            from PIL import ImageOps  # only raster art that needs turning upright

            return ImageReader(_pdf_mode(ImageOps.exif_transpose(image)))


@dataclass(frozen=True, eq=False)
class SvgArt:
    """An SVG of the pack, compiled in place of the <image> that names it."""

    href: str
    path: Path
    text: str


class ArtLibrary:
    """The art files of one pack, found and checked once each: call it with an href."""

    def __init__(self, root: Path):
        self.root = Path(root).absolute()
        self._real_root = self.root.resolve()
        self._found: dict[str, RasterArt | SvgArt | ArtError] = {}

    def __call__(self, href: str) -> RasterArt | SvgArt:
        found = self._found.get(href)
        if found is None:
            try:
                found = self._load(href)
            except ArtError as error:
                found = error
            self._found[href] = found
        if isinstance(found, ArtError):
            raise ArtError(found.href, found.reason)      # a new exception each time: tracebacks do not grow
        return found

    def _load(self, href: str) -> RasterArt | SvgArt:
        path = self._confined(href)
        suffix = path.suffix.lower()
        if suffix not in RASTER_TYPES and suffix not in SVG_TYPES:
            raise ArtError(href, f"{path.suffix or 'a file without an extension'} is not an art type pnp draws "
                           "(PNG, JPEG or SVG: .png, .jpg, .jpeg, .svg)")
        limit = MAX_SVG_ART_BYTES if suffix in SVG_TYPES else MAX_ART_BYTES
        try:
            size = path.stat().st_size
            if size > limit:
                raise ArtError(href, f"{size:,} bytes, more than an art file may have ({limit:,})")
            data = path.read_bytes()
        except OSError as error:
            raise ArtError(href, f"cannot be read ({error.strerror or error})") from None
        if suffix in SVG_TYPES:
            try:
                return SvgArt(href, path, data.decode("utf-8"))
            except UnicodeDecodeError:
                raise ArtError(href, "is not a UTF-8 text file, so not an SVG") from None
        return _raster(href, path, data, RASTER_TYPES[suffix])

    def _confined(self, href: str) -> Path:
        """The file an href names, refused unless it is a relative path that stays in the pack."""
        if not href.strip():
            raise ArtError(href, "an empty href names no file")
        if ":" in href.split("/", 1)[0] or href.startswith(("/", "\\")) or "\\" in href:
            raise ArtError(href, "refused: name a file of the pack by its path from the pack's folder, "
                           "with '/' (like art/knight.png); URLs, drive letters and absolute paths are not read")
        parts = PurePosixPath(href).parts
        if ".." in parts:
            raise ArtError(href, "refused: '..' would leave the pack's folder")
        path = self.root.joinpath(*parts)
        if not path.is_file():
            raise ArtError(href, f"no such file in the pack ({path})")
        if not Path(os.path.realpath(path)).is_relative_to(self._real_root):
            raise ArtError(href, "refused: it is a link to a file outside the pack (copy the file into the pack)")
        return path


def _raster(href: str, path: Path, data: bytes, expected: str) -> RasterArt:
    """A raster art file checked: its type, its size (from the header, before any pixel is
    decoded) and its pixels (decoded once here, so a corrupt file fails now, not in the PDF)."""
    try:
        with _bounded(), Image.open(io.BytesIO(data)) as image:
            if image.format != expected:
                raise ArtError(href, f"the file holds {image.format or 'an unknown format'}, not the "
                               f"{expected} its name says")
            width, height = image.size
            if width * height > MAX_ART_PIXELS:
                raise _too_many_pixels(href, width, height)
            image.load()
            if not _upright(image) and image.getexif().get(_ORIENTATION) in (5, 6, 7, 8):
                width, height = height, width          # turned a quarter: as it will be shown
    except ArtError:
        raise
    except Image.DecompressionBombError:
        raise ArtError(href, f"more pixels than an art file may have ({MAX_ART_PIXELS:,}): scale it down") from None
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError) as error:
        raise ArtError(href, f"is not a readable {expected} image ({error})") from None
    return RasterArt(href, path, width, height, hashlib.sha256(data).hexdigest(), data)


def _too_many_pixels(href: str, width: int, height: int) -> ArtError:
    return ArtError(href, f"{width:,} x {height:,} pixels, more than an art file may have "
                    f"({MAX_ART_PIXELS:,} pixels): scale it down")


_ORIENTATION = 0x0112       # the EXIF tag


def _upright(image: Image.Image) -> bool:
    return image.getexif().get(_ORIENTATION, 1) == 1


def _pdf_mode(image: Image.Image) -> Image.Image:
    """The image in a mode a PDF image holds as it is: RGB, grey, with their alpha; 16-bit grey
    scaled to 8 bits (a plain conversion would clip it to white)."""
    if image.mode in ("RGB", "RGBA", "L", "LA"):
        return image
    if image.mode.startswith("I") or image.mode == "F":
        return image.convert("I").point(lambda v: v / 257).convert("L")
    if image.mode == "P" and "transparency" in image.info or image.mode in ("PA", "RGBa", "La"):
        return image.convert("RGBA")
    if image.mode == "1":
        return image.convert("L")
    return image.convert("RGB")


class _bounded(warnings.catch_warnings):
    """Quiet about Pillow's decompression-bomb warning: our own pixel limit, lower, refuses such a
    file by name (Pillow's DecompressionBombError, far above it, is reported the same way)."""

    def __enter__(self) -> None:
        super().__enter__()
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
