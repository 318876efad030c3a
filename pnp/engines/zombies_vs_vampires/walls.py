"""Walls: where one may be built (V9), building and removing them (V7, V8, V10).

A wall is a candidate of ``Geometry.cands``: (orientation, row, column, size, groove mask,
interior mask). ``spots`` (geometry.py) is the one definition of V9 (no overlap, no crossing;
the board edge and the grooves inside a home zone are not candidates at all), as bitsets of
start squares. The position keeps the legal spots of every size and orientation up to date
(``spots6``): building a wall ANDs in that candidate's precomputed masks (``Geometry.keep``),
removing one recomputes them from the wall masks with ``spot_sets`` (``spots`` for all six kinds,
a few shifts), and pop restores them with the rest of the snapshot; no move scans the grooves.
The BUILD moves of a size are joined from per-byte parts of those bitsets, and only the bytes a
wall changed are redone (``_build_moves``). tests/test_zvv_incremental.py checks the kept spots
against ``spots`` from scratch on random positions, after push and after pop.
"""
from __future__ import annotations

from itertools import chain

from pnp.engines.zombies_vs_vampires.base import ZvvBase
from pnp.engines.zombies_vs_vampires.geometry import SPOT_KINDS, Geometry, WallMasks, spot_sets, spots


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


def all_spots(g: Geometry, walls: WallMasks) -> tuple[int, ...]:
    """The legal spots of every (size, orientation) of SPOT_KINDS among ``walls``, from
    scratch."""
    return tuple(spots(g, L, o, walls) for L, o in SPOT_KINDS)


class Walls(ZvvBase):
    """The walls on the board and the supply."""

    def _wall_set(self) -> WallMasks:
        return self.NB, self.EB, self.HP, self.VP

    def _toggle_wall(self, ci: int) -> None:
        self.NB, self.EB, self.HP, self.VP = toggled(self.geo, ci, self._wall_set())

    def _can_build(self, ci: int) -> bool:
        """V9 for candidate ci among the walls on the board (the kept spots)."""
        o, r, c, L = self.geo.cands[ci][:4]
        return bool(self.spots6[2 * L - 2 + o] >> (r * self.geo.W + c) & 1)

    def _build(self, ci: int) -> None:
        g = self.geo
        self._toggle_wall(ci)
        k = g.keep[ci]
        s = self.spots6
        self.spots6 = (s[0] & k[0], s[1] & k[1], s[2] & k[2], s[3] & k[3], s[4] & k[4], s[5] & k[5])
        self.walls.append(ci)
        self.wall_serial.append(self.next_serial)
        self.next_serial += 1
        self.supply[g.cands[ci][3]] -= 1

    def _remove(self, ci: int) -> None:
        self._toggle_wall(ci)
        # another wall may still refuse a spot this one refused: recompute (not a scan)
        self.spots6 = spot_sets(self.geo, self._wall_set())
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
        s = self.spots6
        return s[2 * L - 2], s[2 * L - 1]

    def _build_moves(self, size: int) -> list[int]:
        """Every legal wall spot of ``size`` as BUILD moves, in candidate order (horizontal,
        then vertical, start squares ascending). Kept per size as per-byte parts of the spot
        bitsets: only the bytes whose spots changed since the last call are looked up again."""
        if self.supply[size] <= 0:
            return []                                                         # V10
        SH, SV = self._build_spots(size)
        kept = self._blists.get(size)
        if kept is None:
            g = self.geo
            ph = g.build_parts(size, 0, SH)
            pv = g.build_parts(size, 1, SV)
            self._blists[size] = (SH, SV, ph, pv)
        else:
            ph, pv = kept[2], kept[3]
            if kept[0] != SH or kept[1] != SV:      # walls came or went since: redo those bytes
                g = self.geo
                if kept[0] != SH:
                    g.update_parts(size, 0, ph, kept[0] ^ SH, SH)
                if kept[1] != SV:
                    g.update_parts(size, 1, pv, kept[1] ^ SV, SV)
                self._blists[size] = (SH, SV, ph, pv)
        # one pass over the parts (the spots have mostly changed since the last build turn)
        return list(chain(chain.from_iterable(ph), chain.from_iterable(pv)))

    def _build_moves_ref(self, size: int) -> list[int]:
        """The tests' reference for ``_build_moves``: every candidate tested one by one."""
        if self.supply[size] <= 0:
            return []                                                         # V10
        H, V = self.geo.build_lists[size]
        NB, EB, HP, VP = self.NB, self.EB, self.HP, self.VP
        return ([m for m, gm, im in H if not gm & NB and not im & VP] +       # V9: no overlap,
                [m for m, gm, im in V if not gm & EB and not im & HP])        # no crossing
