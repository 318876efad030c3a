"""One drawing style for everything that is cut, folded and glued (every parts page has a legend).

    cut   solid black line, CUT_MM wide: cut along it (scissors or craft knife)
    fold  dashed dark-grey line, FOLD_MM wide, dashes FOLD_DASH_MM: score and fold
    glue  light tint with diagonal hatching: put glue here (or: the neighbour goes over it)

Lengths in millimetres. The centre of a cut line is the edge of the part.
"""
from __future__ import annotations

CUT_COLOUR = "#000000"
CUT_MM = 0.25
FOLD_COLOUR = "#3a3a3a"
FOLD_MM = 0.25
FOLD_DASH_MM = (2.0, 1.2)
GLUE_TINT = "#efe6cf"
GLUE_HATCH = "#9a8f78"
GLUE_HATCH_MM = 0.18
GLUE_HATCH_STEP_MM = 1.6

INK = "#1d1a16"
SOFT_INK = "#5b5448"
REGISTRATION = "#000000"  # alignment marks on board tiles

TILE_OVERLAP_MM = 10.0     # board tiles overlap by this much: wider than a 6 mm printer margin
PRINTABLE_MARGIN_MM = 6.0  # the printable area assumed for home printers (A4 and Letter)
INFO_STRIP_MM = 7.0        # strips inside the printable area for instructions (top) and test bar (bottom)
PART_GAP_MM = 4.0          # space between parts on a parts page
