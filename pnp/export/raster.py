"""Card faces as PNGs at a given dpi, rasterized by PDFium from the same compiled faces the PDFs
hold (same fonts, same vector art), at exactly the shop's pixel size, with the dpi in pHYs."""
from __future__ import annotations

import io
from collections.abc import Iterator

import pypdfium2 as pdfium
from PIL import Image

from pnp.export.faces import Frame, faces_pdf
from pnp.render.faces import RenderedFace
from pnp.units import PT_PER_IN

FACES_PER_DOCUMENT = 64          # faces rasterized per in-memory PDF: bounded memory for big decks


def pixel_size(size_pt: tuple[float, float], dpi: float) -> tuple[int, int]:
    """A page's size in whole pixels at `dpi` (a 2.75 x 3.75 in page at 300 dpi: 825 x 1125)."""
    return round(size_pt[0] * dpi / PT_PER_IN), round(size_pt[1] * dpi / PT_PER_IN)


def rasterize(faces: list[RenderedFace], frame: Frame, dpi: float,
              size: tuple[int, int] | None = None) -> Iterator[Image.Image]:
    """Each face on the frame's page, as an RGB image of exactly `size` (default
    pixel_size(frame.page, dpi))."""
    width, height = size or pixel_size(frame.page, dpi)
    for start in range(0, len(faces), FACES_PER_DOCUMENT):
        document = pdfium.PdfDocument(faces_pdf(faces[start:start + FACES_PER_DOCUMENT], frame))
        try:
            for page in document:
                image = page.render(scale=dpi / PT_PER_IN).to_pil().convert("RGB")
                # PDFium rounds the bitmap up: 198 pt at 300 dpi may come out 826 px; the extra
                # column is a sliver of bleed, cropped rather than resampled.
                yield _exactly(image, width, height)
        finally:
            document.close()


def _exactly(image: Image.Image, width: int, height: int) -> Image.Image:
    if image.size == (width, height):
        return image
    if image.width >= width and image.height >= height:
        return image.crop((0, 0, width, height))
    return image.resize((width, height), Image.Resampling.LANCZOS)


def png_bytes(image: Image.Image, dpi: float) -> bytes:
    """PNG with the resolution in its pHYs chunk; no time or text chunks (same input, same bytes)."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", dpi=(dpi, dpi), optimize=False)
    return buffer.getvalue()
