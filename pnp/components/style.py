"""The print style every component page shares (the legend on every parts page explains it).

    cut   solid black line, CUT_MM wide: cut along it (scissors or craft knife)
    fold  dashed dark-grey line, FOLD_MM wide, dashes FOLD_DASH_MM: score and fold
    glue  light tint with diagonal hatching: put glue here (or: the neighbour goes over it)

These are the marks of the print-and-play sheet, the same for every game, like the crop marks of
the card sheets; a game's own colours come from its data (component settings naming palette
colours). Lengths in millimetres. The centre of a cut line is the edge of the part.
"""
from __future__ import annotations

CUT_COLOUR = "#000000"
CUT_MM = 0.25
FOLD_COLOUR = "#3a3a3a"
FOLD_HALO = "#ffffff"      # under the fold line's dashes, so it shows on dark art too
FOLD_MM = 0.25
FOLD_DASH_MM = (2.0, 1.2)
GLUE_TINT = "#efe6cf"
GLUE_HATCH = "#9a8f78"
GLUE_HATCH_MM = 0.18
GLUE_HATCH_STEP_MM = 1.6

SHEET_INK = "#1d1a16"      # sheet text and tile labels
SHEET_PAPER = "#ffffff"    # behind tile and assembly labels
ASSEMBLY = "#c0392b"       # tile outlines and labels on the assembly map
REGISTRATION = "#000000"   # alignment marks on board tiles

TILE_OVERLAP_MM = 10.0     # board tiles overlap by this much: wider than a 6 mm printer margin
PRINTABLE_MARGIN_MM = 6.0  # the printable area assumed for home printers (A4 and Letter)
INFO_STRIP_MM = 7.0        # strips inside the printable area for instructions (top) and test bar (bottom)
PART_GAP_MM = 4.0          # space between parts on a parts page


def tint(hex_colour: str, amount: float) -> str:
    """Mix a '#rrggbb' (or '#rgb') colour with white: amount 0 = the colour, 1 = white."""
    h = hex_colour.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    rgb = [int(h[i:i + 2], 16) for i in (0, 2, 4)]
    return "#" + "".join(f"{round(c + (255 - c) * amount):02x}" for c in rgb)
