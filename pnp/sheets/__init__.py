"""Sheets: sprues (layouts as data), imposition, crop marks, duplex/gutterfold, calibration."""

from pnp.sheets.calibrate import write_calibration_pdf
from pnp.sheets.pdfwriter import Face, PageReport, PlacedCard, SheetCard, SheetReport, write_cards_pdf

__all__ = ["Face", "PageReport", "PlacedCard", "SheetCard", "SheetReport", "write_cards_pdf",
           "write_calibration_pdf"]
