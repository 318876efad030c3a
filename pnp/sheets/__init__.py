"""Sheets: sprues (layouts as data), imposition, crop marks, duplex/gutterfold, calibration.

The names below load their module when first used: `pnp build` needs the card sheets, not the
calibration page.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pnp.sheets.calibrate import write_calibration_pdf
    from pnp.sheets.pdfwriter import Face, PageReport, PlacedCard, SheetCard, SheetReport, write_cards_pdf

__all__ = ["Face", "PageReport", "PlacedCard", "SheetCard", "SheetReport", "write_cards_pdf",
           "write_calibration_pdf"]


def __getattr__(name: str) -> Any:
    if name == "write_calibration_pdf":
        from pnp.sheets import calibrate
        return calibrate.write_calibration_pdf
    if name in __all__:
        from pnp.sheets import pdfwriter
        return getattr(pdfwriter, name)
    raise AttributeError(f"module 'pnp.sheets' has no attribute {name!r}")
