"""Faces and PDF pages as PNG bytes, through PDFium like `pnp build --png` (pnp.preview)."""
from __future__ import annotations

import io
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image

from pnp.preview import rasterize
from pnp.units import PT_PER_IN

FACE_DPI = 150
PAGE_DPI = 72


def png_bytes(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)    # fast: these images live in memory
    return buffer.getvalue()


def face_pngs(drawings: list) -> list[bytes]:
    """Each drawing (a compiled face) as a PNG, all in one PDF rasterized at once."""
    return [png_bytes(image) for image in rasterize(drawings, FACE_DPI)] if drawings else []


def pdf_page_pngs(pdf: Path, dpi: int = PAGE_DPI) -> list[bytes]:
    document = pdfium.PdfDocument(str(pdf))
    try:
        return [png_bytes(page.render(scale=dpi / PT_PER_IN).to_pil().convert("RGB")) for page in document]
    finally:
        document.close()
