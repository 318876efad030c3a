"""Walls: where one may be built (V9), building and removing them (V7, V8, V10).

A wall is a candidate of ``Geometry.cands``: (orientation, row, column, size, groove mask,
interior mask). ``spots`` is the one definition of V9 (no overlap, no crossing; the board edge
and the grooves inside a home zone are not candidates at all); every path asks it: the move
generator, the direct legality check, set-up from a record and ``check_invariants``.
"""
from __future__ import annotations

from pnp.engines.zombies_vs_vampires.base import ZvvBase
from pnp.engines.zombies_vs_vampires.geometry import WALL_MEMO, Geometry

WallMasks = tuple[int, int, int, int]       # (NB, EB, HP, VP), see geometry.py


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


def fits(g: Geometry, ci: int, walls: WallMasks) -> bool:
    """V9 for one candidate."""
    o, r, c, L = g.cands[ci][:4]
    return bool(spots(g, L, o, walls) >> (r * g.W + c) & 1)


def toggled(g: Geometry, ci: int, walls: WallMasks) -> WallMasks:
    """``walls`` with candidate ci added (if absent) or taken away (if present)."""
    NB, EB, HP, VP = walls
    o, _, _, _, gm, im = g.cands[ci]
    if o == 0:
        return NB ^ gm, EB, HP ^ im, VP
    return NB, EB ^ gm, HP, VP ^ im


class Walls(ZvvBase):
    """The walls on the board and the supply."""

    def _wall_set(self) -> WallMasks:
        return self.NB, self.EB, self.HP, self.VP

    def _toggle_wall(self, ci: int) -> None:
        self.NB, self.EB, self.HP, self.VP = toggled(self.geo, ci, self._wall_set())

    def _can_build(self, ci: int) -> bool:
        return fits(self.geo, ci, self._wall_set())

    def _build(self, ci: int) -> None:
        self._toggle_wall(ci)
        self.walls.append(ci)
        self.wall_serial.append(self.next_serial)
        self.next_serial += 1
        self.supply[self.geo.cands[ci][3]] -= 1

    def _remove(self, ci: int) -> None:
        self._toggle_wall(ci)
        i = self.walls.index(ci)
        del self.walls[i]
        del self.wall_serial[i]
        self.supply[self.geo.cands[ci][3]] += 1                               # V10

    def build_spots(self, size: int) -> list[int]:
        """Candidate indices where a wall of ``size`` may be built now (V9, V10)."""
        return [m >> 12 & 0xFFF for m in self._build_moves(size)]

    def _build_spots(self, L: int) -> tuple[int, int]:
        """(horizontal, vertical) start-square bitsets of the legal spots for a wall of size L
        (V9: no overlap, no crossing, not inside a zone; the supply is not checked here)."""
        ws = self._wall_set()
        return spots(self.geo, L, 0, ws), spots(self.geo, L, 1, ws)

    def _build_moves(self, size: int) -> list[int]:
        """Every legal wall spot of ``size`` as BUILD moves, in candidate order."""
        if self.supply[size] <= 0:
            return []                                                         # V10
        SH, SV = self._build_spots(size)
        g = self.geo
        key = (size, SH, SV)
        got = g.wall_moves.get(key)
        if got is None:       # a set of spots seen before (walls change on a third of turns)
            got = g.build_moves_of(size, 0, SH) + g.build_moves_of(size, 1, SV)
            if len(g.wall_moves) >= WALL_MEMO:
                g.wall_moves.clear()
            g.wall_moves[key] = got
        return list(got)

    def _build_moves_ref(self, size: int) -> list[int]:
        """The tests' reference for ``_build_moves``: every candidate tested one by one."""
        if self.supply[size] <= 0:
            return []                                                         # V10
        H, V = self.geo.build_lists[size]
        NB, EB, HP, VP = self.NB, self.EB, self.HP, self.VP
        return ([m for m, gm, im in H if not gm & NB and not im & VP] +       # V9: no overlap,
                [m for m, gm, im in V if not gm & EB and not im & HP])        # no crossing
