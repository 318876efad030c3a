"""The board as bits: squares, home zones, grooves and the wall candidates (V9).

An N x N board (the pack's size). Squares are bits of Python ints laid out row by row with one
guard column: square (r, c) is bit ``r*W + c`` with ``W = N + 1`` (row 0 is row "1" at the
bottom, column 0 is "a" on the left), so a shift by 1 / W moves a whole set of squares east /
north and the guard column swallows wrap-around. Walls lie in the grooves between squares (V9):

* ``EB``: squares whose east side has a wall (a vertical groove), ``NB``: squares whose north
  side has a wall (a horizontal groove). Movement masks them before shifting (``open_sides``);
  these two ints are also the groove-occupancy sets used for "no overlap".
* ``HP`` / ``VP``: lattice points strictly inside a horizontal / vertical wall; a new wall
  crosses another when one of its interior points is an interior point of a perpendicular wall.

Wall notation: ``h:d4-3`` = a horizontal wall on the north side of d4 running east over 3
squares (d4, e4, f4); ``v:d4-2`` = a vertical wall on the east side of d4 running north over 2
squares (d4, d5).
"""
from __future__ import annotations

from collections.abc import Iterator
from itertools import compress

from pnp.engines.core import RecordError
from pnp.engines.zombies_vs_vampires.moves import BUILD, MOVE

# a home zone as the pack gives it: (id, col0, col1, row0, row1, opposite), rows from the TOP
ZoneSpec = tuple[str, int, int, int, int, str]

POPCOUNT8 = tuple(bin(i).count("1") for i in range(256))


def bits(x: int) -> Iterator[int]:
    """The indices of the set bits of ``x``, lowest first."""
    while x:
        low = x & -x
        yield low.bit_length() - 1
        x ^= low


def _byte_positions(nbytes: int) -> list[list[tuple[int, ...]]]:
    """``[i][byte]``: the bit indices of that byte's set bits when it is byte ``i`` of an int."""
    return [[tuple(8 * i + k for k in range(8) if b >> k & 1) for b in range(256)]
            for i in range(nbytes)]


class Geometry:
    """Everything that depends only on the board: bit layout, zones, wall candidates."""

    def __init__(self, n: int, zones: tuple[ZoneSpec, ...]):
        if not 7 <= n <= 26:
            raise RecordError(f"board size {n} not in 7..26")
        self.N = N = n
        self.W = W = n + 1
        self.board = sum(1 << (r * W + c) for r in range(N) for c in range(N))
        self.full = (1 << (W * (N + 2))) - 1          # every bit a shift of the board can reach
        self.squares = [r * W + c for r in range(N) for c in range(N)]
        self.zone_ids = [z[0] for z in zones]
        self.zone_masks: list[int] = []
        self.zone_of: dict[int, int] = {}
        self.zone_squares: list[list[int]] = []
        self.zone_corner: list[int] = []    # the zone square farthest from the board centre
        for zi, (zid, c0, c1, y0, y1, _) in enumerate(zones):
            if not (0 <= c0 <= c1 < N and 0 <= y0 <= y1 < N):
                raise RecordError(f"zone {zid} is off the board")
            sq = [(N - 1 - y) * W + c for y in range(y0, y1 + 1) for c in range(c0, c1 + 1)]
            self.zone_squares.append(sorted(sq))
            self.zone_masks.append(sum(1 << s for s in sq))
            for s in sq:
                self.zone_of[s] = zi
            ctr = (N - 1) / 2
            self.zone_corner.append(max(sq, key=lambda s: abs(s // W - ctr) + abs(s % W - ctr)))
        self.opposite = [self.zone_ids.index(z[5]) for z in zones]
        # Lanes: the move generator runs one BFS per piece side by side in one big int, lane i
        # at bit i*LS; LS leaves a guard row (shifts north/south fall into it) and is a whole
        # number of bytes. POS[i][byte] = the square indices of that byte's set bits.
        self.LS = ((N + 1) * W + 7) // 8 * 8
        self.lane_bytes = self.LS // 8
        self.lane_full = (1 << self.LS) - 1
        pieces = max(len(sq) for sq in self.zone_squares)     # V1: one piece a zone square
        self.REP = [sum(1 << (i * self.LS) for i in range(m)) for m in range(pieces + 1)]
        self.board_rep = [self.board * r for r in self.REP]     # the board in m lanes
        self.POS = _byte_positions(self.lane_bytes)
        # the move generator's tables (movement.py): per source square, per byte index of its
        # lane, a list indexed by the byte: the MOVE moves to that byte's squares (None until
        # met; lists, not dicts: indexing is the decoder's inner step, and two subscripts make
        # no key int, where byte index << 8 | byte made two a byte). Made for a square when it
        # is first a source (25 x 256 slots, 51 KB), filled as bytes are met, from the
        # square's move ints (``piece_moves``: one int object per move s>t, made once, so a
        # part is a tuple of ints that already exist and the parts of one square share them)
        self.piece_bytes: list[list[list[tuple[int, ...] | None]] | None] = [None] * self.LS
        self.piece_moves: list[tuple[int, ...]] = [()] * self.LS
        self.lane_range = range(self.lane_bytes)
        self._wall_candidates()
        self.nbytes_full = (W * (N + 2) + 7) // 8
        self.POSF = _byte_positions(self.nbytes_full)
        # (size, orientation) -> {byte index << 8 | byte: its BUILD moves} (build_parts);
        # bounded by the board: at most (squares / 8) * 256 entries a table, ~1 MB in all
        self.build_bytes: dict[tuple[int, int], dict[int, tuple[int, ...]]] = {
            (L, o): {} for L in (1, 2, 3) for o in (0, 1)}

    def _wall_candidates(self) -> None:
        """Every groove run a wall of size 1, 2 or 3 may lie on (V9): inner grooves only, none
        between two squares of one zone."""
        N, W = self.N, self.W
        self.cands: list[tuple] = []        # (o, r, c, L, groove_mask, interior_mask)
        self.cand_index: dict[tuple, int] = {}
        self.by_size: dict[int, list[int]] = {1: [], 2: [], 3: []}
        P = N + 1                           # lattice points (y, x), 0..N each: y*P + x
        for L in (1, 2, 3):
            for o in (0, 1):                # orient 0 = h, 1 = v
                for r in range(N):
                    for c in range(N):
                        if o == 0:          # north side of (r, c..c+L-1)
                            if r >= N - 1 or c + L > N:
                                continue
                            cells = [(r, c + i) for i in range(L)]
                            other = [(r + 1, c + i) for i in range(L)]
                            inner = [(r + 1) * P + c + i for i in range(1, L)]
                        else:               # east side of (r..r+L-1, c)
                            if c >= N - 1 or r + L > N:
                                continue
                            cells = [(r + i, c) for i in range(L)]
                            other = [(r + i, c + 1) for i in range(L)]
                            inner = [(r + i) * P + c + 1 for i in range(1, L)]
                        bad = False
                        for (a, b), (a2, b2) in zip(cells, other):   # V9: not inside a zone
                            za = self.zone_of.get(a * W + b)
                            if za is not None and za == self.zone_of.get(a2 * W + b2):
                                bad = True
                        if bad:
                            continue
                        gm = sum(1 << (a * W + b) for a, b in cells)
                        im = sum(1 << p for p in inner)
                        self.cand_index[(o, r, c, L)] = len(self.cands)
                        self.by_size[L].append(len(self.cands))
                        self.cands.append((o, r, c, L, gm, im))
        # bit-parallel wall spots: a wall is named by its start square bit x = r*W + c; the
        # lattice of groove end points uses the same layout (P = N + 1 = W), so a horizontal
        # wall's interior points are x + W + i and a vertical wall's x + i*W + 1 (0 < i < L)
        self.start_mask: dict[tuple[int, int], int] = {}
        self.start_ci: dict[tuple[int, int], dict[int, int]] = {}
        for (o, r, c, L), ci in self.cand_index.items():
            x = r * W + c
            self.start_mask[(L, o)] = self.start_mask.get((L, o), 0) | 1 << x
            self.start_ci.setdefault((L, o), {})[x] = ci
        # incremental V9 (walls.py): the legal spots of every (size, orientation) on an empty
        # board, and per candidate the spots it leaves open once built (the complement of the
        # spots it overlaps or crosses, itself included). V9 is pairwise (a spot is refused by
        # one wall's grooves or interior points), so building wall ci ANDs its masks in; a
        # removal recomputes from the wall masks (``spot_sets``: ``spots`` for all six at once),
        # never a scan of the grooves
        self.open_spots = tuple(spots(self, L, o, (0, 0, 0, 0)) for L, o in SPOT_KINDS)
        self.keep: list[tuple[int, ...]] = []
        for o, _, _, _, gm, im in self.cands:
            alone = (gm, 0, im, 0) if o == 0 else (0, gm, 0, im)
            self.keep.append(tuple(spots(self, L2, o2, alone) | ~self.start_mask[(L2, o2)] & self.full
                                   for L2, o2 in SPOT_KINDS))
        # (move, groove mask, interior mask) per size, horizontal then vertical: the candidate
        # scan of the tests' reference (Walls._build_moves_ref)
        self.build_lists = {L: tuple([(BUILD << 24 | ci << 12, self.cands[ci][4], self.cands[ci][5])
                                      for ci in self.by_size[L] if self.cands[ci][0] == o]
                                     for o in (0, 1))
                            for L in (1, 2, 3)}

    def lanes(self, x: int, m: int = 0) -> int:
        """The squares of ``x`` (a set of one lane: only its low ``LS`` bits are read) in m
        lanes, every lane a seat may need by default: ``x * REP[m]``, made by repeating x's
        bytes (a multiplication by REP costs several times more)."""
        lb = self.lane_bytes
        return int.from_bytes((x & self.lane_full).to_bytes(lb, "little") * (m or len(self.REP) - 1),
                              "little")

    def piece_table(self, s: int) -> list[list[tuple[int, ...] | None]]:
        """The (empty) decoding table of source square s (``piece_bytes``) and its move ints
        (``piece_moves``: the MOVE move s>t at index t)."""
        base = MOVE << 24 | s << 12
        self.piece_moves[s] = tuple([base | t for t in range(self.LS)])
        table = self.piece_bytes[s] = [[None] * 256 for _ in range(self.lane_bytes)]
        return table

    def _build_part(self, L: int, o: int, j: int, byte: int) -> tuple[int, ...]:
        """The BUILD moves of the walls of size L and orientation o starting on the squares of
        byte ``byte`` at byte index j of a spot bitset, ascending (a table filled as met)."""
        table = self.build_bytes[(L, o)]
        key = j << 8 | byte
        got = table.get(key)
        if got is None:
            ci = self.start_ci[(L, o)]
            B = BUILD << 24
            got = table[key] = tuple([B | ci[x] << 12 for x in self.POSF[j][byte]])
        return got

    def build_parts(self, L: int, o: int, spots: int) -> list[tuple[int, ...]]:
        """The BUILD moves of the spots ``spots`` (size L, orientation o), one part a byte."""
        part = self._build_part
        return [part(L, o, j, byte) if byte else ()
                for j, byte in enumerate(spots.to_bytes(self.nbytes_full, "little"))]

    def update_parts(self, L: int, o: int, parts: list, changed: int, spots: int) -> None:
        """Redo, in place, the parts of the bytes where ``changed`` has bits (the spots a wall
        took or gave back): a wall touches a few rows, so a few bytes."""
        nb = self.nbytes_full
        new = spots.to_bytes(nb, "little")
        table = self.build_bytes[(L, o)]
        for j in compress(range(nb), changed.to_bytes(nb, "little")):   # the changed bytes
            byte = new[j]
            if byte:
                got = table.get(j << 8 | byte)
                parts[j] = got if got is not None else self._build_part(L, o, j, byte)
            else:
                parts[j] = ()

    def open_sides(self, EB: int, NB: int) -> tuple[int, int, int, int]:
        """V5: the squares whose east / west / north / south side holds no wall, as masks
        (index 0..3 = E W N S), for walls ``EB`` (east sides) and ``NB`` (north sides)."""
        full = self.full
        return full & ~EB, full & ~(EB << 1), full & ~NB, full & ~(NB << self.W)

    def sq_name(self, s: int) -> str:
        r, c = divmod(s, self.W)
        return f"{chr(97 + c)}{r + 1}"

    def parse_sq(self, text: str) -> int:
        t = text.strip().lower()
        if len(t) < 2 or not t[0].isalpha() or not t[1:].isdigit():
            raise ValueError(f"bad square {text!r}")
        c = ord(t[0]) - 97
        r = int(t[1:]) - 1
        if not (0 <= c < self.N and 0 <= r < self.N):
            raise ValueError(f"square {text!r} is off the board")
        return r * self.W + c

    def wall_name(self, ci: int) -> str:
        o, r, c, L, _, _ = self.cands[ci]
        return f"{'hv'[o]}:{self.sq_name(r * self.W + c)}-{L}"

    def parse_wall(self, text: str) -> tuple:
        t = text.strip().lower()
        o, _, rest = t.partition(":")
        sq, _, ln = rest.partition("-")
        if o not in ("h", "v") or not ln.isdigit():
            raise ValueError(f"bad wall {text!r}: write h:<square>-<size> or v:<square>-<size>")
        s = self.parse_sq(sq)
        r, c = divmod(s, self.W)
        return ("hv".index(o), r, c, int(ln))


SPOT_KINDS = ((1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1))    # (size, orientation) in order
WallMasks = tuple[int, int, int, int]       # (NB, EB, HP, VP), see the module docstring


def spots(g: Geometry, L: int, o: int, walls: WallMasks) -> int:
    """V9: the start squares (bits) where a wall of size L and orientation o (0 = h, 1 = v)
    fits among ``walls``: none of its grooves holds a wall (no overlap) and none of its inner
    lattice points is inside a perpendicular wall (no crossing; meeting end to end, at a corner
    or in a T is fine). A horizontal wall on x covers grooves x + i and inner points x + W + i,
    a vertical one grooves x + i*W and inner points x + i*W + 1 (0 < i < L)."""
    NB, EB, HP, VP = walls
    full = g.full
    free = full & ~(NB, EB)[o]              # grooves of this orientation without a wall
    clear = full & ~(VP, HP)[o]             # lattice points not inside a perpendicular wall
    along, inner = (1, g.W) if o == 0 else (g.W, 1)
    S = g.start_mask[(L, o)] & free
    for i in range(1, L):
        S &= (free >> (i * along)) & (clear >> (i * along + inner))
    return S


def spot_sets(g: Geometry, walls: WallMasks) -> tuple[int, ...]:
    """``spots`` of every (size, orientation) of SPOT_KINDS at once, in that order: the sizes
    of one orientation share their shifted groove and lattice masks (a wall of size 3 fits
    where one of size 2 does and its third groove and second inner point are clear). What a
    removal recomputes (walls.py); tests compare it with ``spots`` kind by kind."""
    NB, EB, HP, VP = walls
    full = g.full
    W = g.W
    sm = g.start_mask
    out = [0] * 6
    for o, free, clear, along, inner in ((0, full & ~NB, full & ~VP, 1, W),
                                         (1, full & ~EB, full & ~HP, W, 1)):
        two = free & (free >> along) & (clear >> (along + inner))     # grooves 1-2, point 1
        out[o] = sm[(1, o)] & free
        out[2 + o] = sm[(2, o)] & two
        out[4 + o] = sm[(3, o)] & two & (free >> 2 * along) & (clear >> (2 * along + inner))
    return tuple(out)


_GEOM: dict = {}


def geometry(n: int, zones: tuple[ZoneSpec, ...]) -> Geometry:
    """The geometry of an n x n board with these zones (built once)."""
    key = (n, zones)
    g = _GEOM.get(key)
    if g is None:
        g = _GEOM[key] = Geometry(n, zones)
    return g
