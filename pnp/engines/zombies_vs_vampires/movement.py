"""Movement: which pieces may move and where they can go (V4-V6, V11).

Every question goes to the bitset rule of steps.py with the masks set up here once
(``_wall_masks``, ``_jumpable``, ``keep_in``): the move generator (all of a seat's pieces at once,
one BFS lane each), the direct legality check (one piece), the paths written in move texts, the
exact variant's paths and the step-by-step check of a written path.
"""
from __future__ import annotations

from itertools import compress
from typing import Callable

from pnp.engines.zombies_vs_vampires.moves import MOVE
from pnp.engines.zombies_vs_vampires.steps import reach
from pnp.engines.zombies_vs_vampires.walls import Walls


class Movement(Walls):
    """Pieces moving on the board."""

    def _wall_masks(self) -> tuple[int, int, int, int]:
        """(nEB, nWB, nNB, nSB): squares whose east / west / north / south side is open,
        as non-negative ints (cached until the walls change)."""
        wm = self._wm
        EB = self.EB
        NB = self.NB
        if wm is not None and wm[0] == EB and wm[1] == NB:
            return wm[2]
        masks = self.geo.open_sides(EB, NB)
        self._wm = (EB, NB, masks)
        return masks

    def _lane_masks(self) -> tuple[int, int, int, int]:
        """The open sides cut to one lane and repeated in as many lanes as a seat has pieces
        (cached until the walls change). A seat with fewer movable pieces uses the same masks:
        its BFS ANDs them with sets of fewer lanes, and an AND is as long as its shorter
        operand (a cache per lane count was redone on most move turns, the seats to move in
        turn having different counts)."""
        lm = self._lm
        EB = self.EB
        NB = self.NB
        if lm is not None and lm[0] == EB and lm[1] == NB:
            return lm[2]
        lanes = self.geo.lanes
        nE, nW, nN, nS = self._wall_masks()
        masks = (lanes(nE), lanes(nW), lanes(nN), lanes(nS))
        self._lm = (EB, NB, masks)
        return masks

    def _home_set(self) -> int:
        m = 0
        for p in range(self.players):
            m |= self.occ_by[p] & self.target_mask[p]
        return m

    def _jumpable(self, occ: int) -> int:
        """V6: the pieces of ``occ`` that may be jumped over (option jump_home: also the pieces
        safe in their far zone)."""
        return occ if self.jump_home else occ & ~self._home_set()

    def movable(self, p: int) -> list[int]:
        """Pieces of p that may move (V11: home pieces only in the "zone" reading; in variant
        locked a piece home never moves again)."""
        if self.home_zone_mode:
            return list(self.pos[p])
        tgt = self.target_mask[p]
        return [s for s in self.pos[p] if not (tgt >> s) & 1]

    # ---------------------------------------------------------------- up to k steps (BFS)
    def _bfs(self, p: int, origins: int, REP: int, masks: tuple[int, int, int, int], k: int,
             jumps: bool) -> int:
        """Squares the pieces of seat p on ``origins`` can end on with up to k steps, in lanes
        of the board repeated by ``REP`` (1: the plain board, one piece), ``masks`` the open
        sides in those lanes. Each piece moves alone: its own square counts as empty during its
        move. ``jumps=False``: walking only."""
        g = self.geo
        occ = self.occ
        empty = ((g.board & ~occ) * REP) | origins          # each lane: its own origin vacated
        jo = (self._jumpable(occ) * REP) & ~origins if jumps else 0
        nE, nW, nN, nS = masks
        return reach(origins, empty, jo, nE, nW, nN, nS, g.W, self.keep_in[p] * REP, k)

    def _sources(self, p: int) -> tuple[list[int], int]:
        """(the pieces of p that may move, their lane origins: piece i's square in lane i),
        kept until p's pieces move (keyed by the identity of p's squares tuple, which a move
        replaces and pop restores)."""
        q = self.pos[p]
        got = self._src_memo[p]
        if got is not None and got[0] is q:
            return got[1], got[2]
        srcs = self.movable(p)
        LS = self.geo.LS
        origins = 0
        for i, s in enumerate(srcs):
            origins |= 1 << (s + i * LS)
        self._src_memo[p] = (q, srcs, origins)
        return srcs, origins

    def _lane_reach(self, p: int, k: int) -> tuple[list[int], int]:
        """(movable pieces, reach): one BFS lane per piece in one int (lane i at bit i*LS)."""
        srcs, origins = self._sources(p)
        m = len(srcs)
        if not m:
            return srcs, 0
        return srcs, self._bfs(p, origins, self.geo.REP[m], self._lane_masks(), k, True)

    def _reach(self, p: int, s: int, k: int, jumps: bool = True) -> int:
        """Squares the piece of seat p on s can end on with up to k steps (V4-V6, V11);
        ``jumps=False``: walking only (for the jump statistics)."""
        return self._bfs(p, 1 << s, 1, self._wall_masks(), k, jumps)

    def _needs_jump(self, p: int, a: int, b: int, k: int) -> bool:
        """The move a>b of up to k steps cannot be made by walking alone (statistics): farther
        than k squares, or not met by a walking BFS from a (stopped as soon as it meets b)."""
        g = self.geo
        W = g.W
        ra, ca = divmod(a, W)
        rb, cb = divmod(b, W)
        if abs(ra - rb) + abs(ca - cb) > k:
            return True
        if self.keep_in[p]:                     # V11 home-zone: the zone rule of steps.reach
            return not (self._reach(p, a, k, jumps=False) >> b) & 1
        nE, nW, nN, nS = self._wall_masks()
        free = g.board & ~self.occ              # a's own square is never a destination
        front = 1 << a
        tb = 1 << b
        for _ in range(k):                      # steps.reach without jumps, walked by hand
            front = ((front & nE) << 1 | (front & nW) >> 1 | (front & nN) << W |
                     (front & nS) >> W) & free
            if front & tb:
                return False
            if not front:
                return True
            free ^= front
        return True

    def _move_moves(self, p: int, k: int) -> list[int]:
        out: list[int] = []
        if self.exact:
            for s in self.movable(p):
                base = MOVE << 24 | s << 12
                out += [base | t for t in sorted(self._exact_paths(p, s, k))]
            return out
        # _lane_reach written out (the hottest call of random play): one BFS lane per piece
        srcs, origins = self._sources(p)
        m = len(srcs)
        if not m:
            self._gen_reach = (srcs, 0)
            return []
        g = self.geo
        lb = g.lane_bytes
        nE, nW, nN, nS = self._lane_masks()
        occ = self.occ
        # the pieces in every lane, the lane's own piece taken out (its square is vacated for
        # its move, V5/V6): the jumpable pieces and, against the board, the empty squares
        # (Geometry.lanes written out: occ's bytes repeated, cheaper than occ * REP)
        others = int.from_bytes(occ.to_bytes(lb, "little") * m, "little") ^ origins
        jo = others if self.jump_home else (self._jumpable(occ) * g.REP[m]) & ~origins
        zone = self.keep_in[p]
        lanes = reach(origins, g.board_rep[m] ^ others, jo, nE, nW, nN, nS, g.W,
                      zone * g.REP[m] if zone else 0, k)
        self._gen_reach = (srcs, lanes)         # for the direct check of the move picked
        if not lanes:
            return []
        # decode: each lane's non-zero bytes (compress skips the zero ones in C), each byte's
        # moves from a table per source square (filled as bytes are met). A memo of whole
        # reaches was dropped: a third of the reaches of random play were met before (measured,
        # any memo size), and keeping it cost what it saved
        raw = lanes.to_bytes(lb * m, "little")
        tables = g.piece_bytes
        lane = g.lane_range
        POS = g.POS
        o = 0
        for s in srcs:
            chunk = raw[o:o + lb]
            o += lb
            table = tables[s] or g.piece_table(s)
            for j in compress(lane, chunk):
                part = table[j][chunk[j]]
                if part is None:        # first met: made from the square's move ints, kept
                    part = table[j][chunk[j]] = tuple(map(g.piece_moves[s].__getitem__,
                                                          POS[j][chunk[j]]))
                out += part
        return out

    # ---------------------------------------------------------------- one step at a time
    def _stepper(self, p: int, occ: int, zone_rule: bool = True) -> Callable[[int], list[int]]:
        """``succ(s)``: the squares one step (walk or jump) from s with these pieces ``occ``, in
        the order E W N S; V11 "zone": from inside p's far zone only into it (``zone_rule``)."""
        g = self.geo
        W = g.W
        empty = g.board & ~occ
        jo = self._jumpable(occ)
        nE, nW, nN, nS = self._wall_masks()
        zone = self.keep_in[p] if zone_rule else 0
        ewns = (1, 2, -1, -2, W, 2 * W, -W, -2 * W)     # walk, jump: east, west, north, south

        def succ(s: int) -> list[int]:
            t = reach(1 << s, empty, jo, nE, nW, nN, nS, W, zone, 1) << 2 * W   # no bit < 0
            base = s + 2 * W
            out = []
            for d in ewns:
                if t >> (base + d) & 1:
                    out.append(s + d)
            return out

        return succ

    def _blocked(self, s: int, d: int) -> bool:
        """A wall on side d (0..3 = E W N S) of square s."""
        return not self._wall_masks()[d] >> s & 1

    def _exact_paths(self, p: int, s: int, k: int, want: int | None = None):
        """Destinations (or one path to ``want``) of simple paths of exactly k steps (variant
        exact); a path may also end on the step that enters the far zone."""
        succ = self._stepper(p, self.occ ^ (1 << s))
        tgt = self.target_mask[p]
        dests: set[int] = set()
        found: list[list[int]] = []

        def dfs(cur, path, left):
            if found:
                return
            for t in succ(cur):
                if t in path:
                    continue
                ends = left == 1 or ((tgt >> t) & 1 and not (tgt >> cur) & 1)
                if ends:
                    if want is None:
                        dests.add(t)
                    elif t == want:
                        found.append(path + [t])
                        return
                if left > 1:
                    dfs(t, path + [t], left - 1)

        dfs(s, [s], k)
        if want is not None:
            return found[0] if found else None
        return dests

    def _path(self, p: int, s: int, t: int, k: int) -> list[int] | None:
        """A shortest path (up-to mode) or an exact path from s to t, as squares incl. s."""
        if self.exact:
            return self._exact_paths(p, s, k, want=t)
        succ = self._stepper(p, self.occ ^ (1 << s))
        prev: dict[int, int | None] = {s: None}
        frontier = [s]
        for _ in range(k):
            nf = []
            for cur in frontier:
                for u in succ(cur):
                    if u not in prev:
                        prev[u] = cur
                        nf.append(u)
            frontier = nf
            if t in prev:
                break
        if t not in prev:
            return None
        out = [t]
        while (back := prev[out[-1]]) is not None:
            out.append(back)
        return out[::-1]
