"""Lengths from data to PDF points, converted once at input.

Accepted: "63mm", "6.3cm", "2.5in", "10pt", "63 mm", and plain numbers, which are millimetres
(card data and sprues are written in mm). Everything downstream works in points (1/72 in).
"""

from __future__ import annotations

import re

PT_PER_IN = 72.0
MM_PER_IN = 25.4
PT_PER_MM = PT_PER_IN / MM_PER_IN

_UNIT_PT = {"mm": PT_PER_MM, "cm": 10 * PT_PER_MM, "in": PT_PER_IN, "pt": 1.0}
_LENGTH = re.compile(r"^\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+))\s*(mm|cm|in|pt)?\s*$", re.IGNORECASE)

# Trim sizes in mm (width x height, portrait).
CARD_SIZES_MM: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),
    "bridge": (57.0, 89.0),
    "tarot": (70.0, 120.0),
    "mini": (44.5, 63.5),
    "mini-euro": (44.0, 68.0),
    "euro": (59.0, 92.0),
    "square": (70.0, 70.0),
}


def mm(x: float) -> float:
    """Millimetres -> points."""
    return x * PT_PER_MM


def pt_to_mm(x: float) -> float:
    """Points -> millimetres (for messages, reports and tests)."""
    return x / PT_PER_MM


def to_pt(value: object) -> float:
    """A length ("63mm", "2.5in", "10pt", "1cm", or a plain number of mm) -> points."""
    if isinstance(value, bool):  # bool is an int: refuse True/False as lengths
        raise ValueError(f"not a length: {value!r} (use e.g. '63mm', '2.5in', '10pt')")
    if isinstance(value, (int, float)):
        return float(value) * PT_PER_MM
    if isinstance(value, str):
        match = _LENGTH.match(value)
        if match:
            unit = (match.group(2) or "mm").lower()
            return float(match.group(1)) * _UNIT_PT[unit]
    raise ValueError(f"not a length: {value!r} (use e.g. '63mm', '2.5in', '10pt')")


def parse_size(value: object) -> tuple[float, float]:
    """"63mm x 88mm" (also "63x88", "2.5in × 3.5in") -> (w_pt, h_pt); both must be positive."""
    if not isinstance(value, str):
        raise ValueError(f"not a size: {value!r} (use e.g. '63mm x 88mm')")
    parts = re.split(r"\s*[x×X]\s*(?=[\d.+-])", value.strip())
    if len(parts) != 2:
        raise ValueError(f"not a size: {value!r} (use e.g. '63mm x 88mm')")
    try:
        w, h = to_pt(parts[0]), to_pt(parts[1])
    except ValueError:
        raise ValueError(f"not a size: {value!r} (use e.g. '63mm x 88mm')") from None
    if w <= 0 or h <= 0:
        raise ValueError(f"size must be positive: {value!r}")
    return w, h


def named_card_sizes() -> str:
    """The named sizes with their trim in mm, for the reference: "poker 63 x 88 mm, bridge ..."."""
    return ", ".join(f"{name} {w:g} x {h:g} mm" for name, (w, h) in CARD_SIZES_MM.items())


def card_size_pt(value: object) -> tuple[float, float]:
    """A named card size (poker, bridge, ...) or an explicit "W x H" size -> (w_pt, h_pt)."""
    if isinstance(value, str) and value.strip().lower() in CARD_SIZES_MM:
        w, h = CARD_SIZES_MM[value.strip().lower()]
        return mm(w), mm(h)
    try:
        return parse_size(value)
    except ValueError:
        names = ", ".join(CARD_SIZES_MM)
        raise ValueError(f"unknown card size {value!r}: use one of {names} or e.g. '63mm x 88mm'") from None


def to_mm(value: object) -> float:
    """A length as the data writes it ("18mm", "0.5in", "12pt"; a bare number is mm) in mm."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    match = _LENGTH.match(value) if isinstance(value, str) else None
    if match and (match.group(2) or "mm").lower() == "mm":   # exact: 25mm is 25.0, not 24.999...
        return float(match.group(1))
    return pt_to_mm(to_pt(value))
