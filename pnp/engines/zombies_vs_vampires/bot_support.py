"""What the bots and the simulator read: distances to the far zone, race costs, the heuristic,
and the uniform random sampler (``random_move``, ``playout``)."""
from __future__ import annotations

import random

from pnp.engines.zombies_vs_vampires.geometry import POPCOUNT8, bits
from pnp.engines.zombies_vs_vampires.moves import BUILD, MOVE, PASS
from pnp.engines.zombies_vs_vampires.notation import Notation
from pnp.engines.zombies_vs_vampires.steps import reach


class BotSupport(Notation):
    """Distances, evaluation and random play."""

    @property
    def turn_count(self) -> int:
        return self.total_turns

    def heuristic(self, seat: int) -> float:
        out = self._outcome
        if out is not None:
            return 1000.0 if seat in out.winners else -1000.0
        own = self.race_cost(seat)
        best_other = min(self.race_cost(q) for q in range(self.players) if q != seat)
        return best_other - own + 2.0 * self.home[seat]

    def distance_map(self, p: int) -> dict[int, int]:
        """Steps (walking, walls respected, pieces ignored) from each square to p's far zone."""
        layers = self._dist_layers(self.target_mask[p])
        return {s: d for d, layer in enumerate(layers) for s in bits(layer)}

    def piece_distance_map(self, p: int) -> dict[int, int]:
        """Steps from each empty square to an empty square of p's far zone, walking and jumping
        around walls and pieces as they stand now (a BFS over the move graph, whose walk and
        jump edges join empty squares both ways)."""
        g = self.geo
        empty = g.board & ~self.occ
        nE, nW, nN, nS = self._wall_masks()
        front = self.target_mask[p] & empty
        layers = [front]
        reach(front, empty, self.occ, nE, nW, nN, nS, g.W, 0, len(g.squares), layers)
        return {s: d for d, layer in enumerate(layers) for s in bits(layer)}

    def _dist_layers(self, src: int) -> list[int]:
        """The squares 0, 1, 2... walking steps from ``src`` (walls respected, pieces ignored:
        moving INTO a square, the wall test is on the source side; grooves are symmetric)."""
        g = self.geo
        nE, nW, nN, nS = self._wall_masks()
        layers = [src]
        reach(src, g.board, 0, nE, nW, nN, nS, g.W, 0, len(g.squares), layers)
        return layers

    def race_cost(self, p: int) -> int:
        """Sum over p's pieces of the walking distance to the far zone (walls respected,
        pieces ignored); unreachable pieces cost 4*N*N."""
        layers = self._dist_layers(self.target_mask[p])
        left = self.occ_by[p]
        total = 0
        for d, layer in enumerate(layers):
            hit = left & layer
            if hit:
                total += d * hit.bit_count()
                left &= ~hit
        total += left.bit_count() * 4 * self.geo.N * self.geo.N
        return total

    # ---------------------------------------------------------------- random play
    def random_move(self, rnd) -> int:
        """A uniformly random legal move: the same move as ``legal_moves()[int(rnd() * n)]``;
        when the list would hold moves only, or builds only, it picks the index straight from
        the reach / spot bitsets (no list)."""
        k, build, pm, reroll = self._menu()
        if self._cache is None and not pm and not reroll:
            if k and not self.exact:
                return self._random_step(rnd, k)
            if build:
                return self._random_build(rnd)
        ms = self.legal_moves()
        return ms[int(rnd() * len(ms))]

    def _random_step(self, rnd, k: int) -> int:
        srcs, lanes = self._lane_reach(self.turn, k)
        # remember the reach of this exact position (keyed by its values, so a stale memo
        # can never match): push's legality check then reads the piece's lane
        self._reach_memo = (self.occ, self.EB, self.NB, self.turn, k, srcs, lanes)
        total = lanes.bit_count()
        idx = int(rnd() * (total or 1))
        if not total:
            return PASS << 24
        g = self.geo
        LS = g.LS
        full = g.lane_full
        for i, s in enumerate(srcs):
            lane = lanes >> (i * LS) & full
            c = lane.bit_count()
            if idx >= c:
                idx -= c
                continue
            return MOVE << 24 | s << 12 | _nth_bit(lane, idx, g.lane_bytes, g.POS)
        raise AssertionError("index past the reach")      # pragma: no cover

    def _random_build(self, rnd) -> int:
        L = self.wsize
        if self.supply[L] > 0:
            SH, SV = self._build_spots(L)
            nh = SH.bit_count()
            total = nh + SV.bit_count()
        else:
            total = 0
        idx = int(rnd() * (total or 1))
        if not total:
            return PASS << 24                                                 # V14
        g = self.geo
        if idx < nh:
            spots, ci = SH, g.start_ci[(L, 0)]
        else:
            spots, ci, idx = SV, g.start_ci[(L, 1)], idx - nh
        return BUILD << 24 | ci[_nth_bit(spots, idx, g.nbytes_full, g.POSF)] << 12

    def playout(self, chooser: random.Random | None = None, seed: int = 0, bot=None):
        """Play to the end without undo records: uniformly random legal moves, or ``bot``
        (a function (state, rng) -> move int)."""
        ch = chooser or random.Random(seed)
        while self._outcome is None:
            m = bot(self, ch) if bot else self.random_move(ch.random)
            self._apply(m)
            self.ply += 1
        return self._outcome


def _nth_bit(x: int, idx: int, nbytes: int, pos: list) -> int:
    """The index of the idx-th set bit of x (0 = the lowest), byte by byte."""
    for j, byte in enumerate(x.to_bytes(nbytes, "little")):
        if byte:
            c = POPCOUNT8[byte]
            if idx < c:
                return pos[j][byte][idx]
            idx -= c
    raise AssertionError("fewer set bits than idx")       # pragma: no cover
