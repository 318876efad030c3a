"""Move encoding, turn phases and die faces of Zombies vs Vampires.

A move is an int ``kind << 24 | a << 12 | b``: for a MOVE, ``a`` is the square moved from and
``b`` the square moved to (squares are bits, see geometry.py); for BUILD and REMOVE, ``a`` is the
wall (its candidate index in ``Geometry.cands``); ROLL ``b = 1`` rolls the size die (V15). The
text forms are in notation.py.
"""
from __future__ import annotations

GAME = "zombies-vs-vampires"

# move kinds
MOVE, BUILD, REMOVE, PMBUILD, PASS, REROLL, ROLL = 1, 2, 3, 4, 5, 6, 7
# phases
PH_CHOOSE, PH_ACT, PH_BUILD, PH_OVER = 0, 1, 2, 3
# die faces (internal); F_CHOICE: the "2*" face in variant twostar-choice (move 2, remove, build)
F_MOVE, F_BUILD, F_PM, F_CHOICE = 0, 1, 2, 3

FH = ("fh0", "fh1", "fh2", "fh3")   # counter keys: own turns until a seat's first piece home


def mkmove(kind: int, a: int = 0, b: int = 0) -> int:
    return kind << 24 | a << 12 | b
