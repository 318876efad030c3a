"""Reading a PDF's text back for the tests (pypdfium2), one string per page."""
from __future__ import annotations

import pypdfium2 as pdfium


def pdf_pages(path) -> list[str]:
    pdf = pdfium.PdfDocument(str(path))
    try:
        return [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
    finally:
        pdf.close()
