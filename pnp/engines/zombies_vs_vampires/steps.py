"""The movement rules as one bitset function, ``reach``, that every path of the engine uses.

A set of squares is an int (geometry.py). ``nE nW nN nS`` are the squares whose east / west /
north / south side is open (``Geometry.open_sides``); ``empty`` the squares a piece may land on;
``jo`` the pieces that may be jumped over; ``zone`` the far zone whose pieces may not leave it
(V11, reading "zone"; 0 when the rule is off). The same function serves one piece (one bit),
all of a seat's pieces at once (one lane each, see ``Geometry.LS``: the masks are then repeated
in every lane), single steps (``k = 1``: a written path, the exact variant) and the bots'
distance maps.
"""
from __future__ import annotations


def reach(origins: int, empty: int, jo: int, nE: int, nW: int, nN: int, nS: int, W: int,
          zone: int, k: int, layers: list[int] | None = None) -> int:
    """The squares a piece on ``origins`` can end on with 1 to ``k`` steps (V4 "up to": a BFS,
    so different paths to one square are one move). A step is V5, a walk to an empty
    orthogonal neighbour with no wall in the groove between, or V6, a jump over an adjacent
    piece of ``jo`` to the empty square beyond, with no wall in either groove. ``layers``: a
    list that gets the squares first reached at 1, 2, 3... steps (distance maps)."""
    front = origins
    free = start = empty & ~origins         # squares a step may still land on (not yet seen)
    if jo:                                  # a jump: over a piece of jo, both grooves open
        jE, jW, jN, jS = jo & nE, jo & nW, jo & nN, jo & nS
    for _ in range(k):
        home = front & zone if zone else 0         # no zone rule: no big-int AND
        if home:
            # V11 (variant home-zone): a piece in its far zone never leaves it
            nxt = (reach(home, empty, jo, nE, nW, nN, nS, W, 0, 1) & zone |
                   reach(front ^ home, empty, jo, nE, nW, nN, nS, W, 0, 1)) & free
        else:
            e = (front & nE) << 1
            w = (front & nW) >> 1
            n = (front & nN) << W
            s = (front & nS) >> W
            if jo:
                nxt = (e | w | n | s |                                            # V5
                       (e & jE) << 1 | (w & jW) >> 1 | (n & jN) << W | (s & jS) >> W) & free  # V6
            else:
                nxt = (e | w | n | s) & free                                      # V5
        if not nxt:
            break
        if layers is not None:
            layers.append(nxt)
        free ^= nxt
        front = nxt
    return start ^ free                     # the squares seen (one operation, not one a step)
