"""The cemetery map as static tables (C1-C3, C6-C8, C13, C16, C17, C19): everything about the
board that never changes during a game, precomputed once per (map, metric, step).

Cells are written ``row,col`` of the map grid (0-based, border included); internally a cell is
``row * width + col``. Guardian stops are ring indices (clockwise from the top-left stop).
"""
from __future__ import annotations

import functools
from collections.abc import Iterator

from pnp.engines.core import RecordError

# how a group's walk ends when it captures nothing (Board._way): its steps are used up (or the
# way toward the gate is blocked), it attacks the gate (C13), it stands next to the gate from the
# start, the noise's line ends before its steps do (C8)
WALK_ENDS, WALK_ATTACKS, WALK_AT_GATE, WALK_BLOCKED = range(4)


class Board:
    """Map tables read from the pack's ``map`` collection (``grid``, ``avenues``,
    ``guardian_start``); ``max_stops`` is the action cards' limit (C6)."""

    def __init__(self, mp: dict, max_stops: int, metric: str = "bfs", step: str = "down-first",
                 pull: int = 2, movement: int = 2):
        rows = [ln.strip() for ln in mp["grid"].strip("\n").splitlines()]
        rows = [ln[1:-1] if ln.startswith('"') and ln.endswith('"') else ln for ln in rows]
        self.H = H = len(rows)
        self.W = W = max(len(r) for r in rows)
        rows = [r.ljust(W) for r in rows]
        self.rows = rows
        n = W * H

        def ch(c: int) -> str:
            return rows[c // W][c % W]

        self.ch = ch
        self.pull = pull
        self.movement = movement
        self.gap = [ch(c) in ".P" or "a" <= ch(c) <= "h" for c in range(n)]
        self.slots = tuple(c for c in range(n) if ch(c) == "T")           # C1, reading order
        self.spots = {ch(c): c for c in range(n) if "a" <= ch(c) <= "h"}  # C17
        self.piles = tuple(c for c in range(n) if ch(c) == "P")           # C2
        gates = [c for c in range(n) if ch(c) == "G"]
        if len(gates) != 1:
            raise RecordError("cimiterio map: exactly one gate G expected")
        self.gate = gates[0]
        self.centre = (H // 2) * W + W // 2
        if not self.gap[self.centre]:
            raise RecordError("cimiterio map: the centre must be a gap (C2, C23)")
        self.nbrs = [tuple(d for d in self._orth(c) if self.gap[d]) for c in range(n)]
        slotset = set(self.slots)
        self.tomb_adj = [frozenset(d for d in self._orth(c) if d in slotset) for c in range(n)]
        self.gate_adj = frozenset(d for d in self._orth(self.gate) if self.gap[d])
        self._ring(max_stops)
        self._lines()
        self._toward_gate(metric, step)
        # line_next and gate_next as lists indexed by cell (None: no step from there), for the
        # walk's inner loop (an index instead of a dict.get call per step)
        self.line_step = [[nxt.get(c) for c in range(n)] for nxt in self.line_next]
        self.gate_step = [self.gate_next.get(c) for c in range(n)]
        # per tomb slot: the gap cells orthogonally next to it (C9: a leader standing on one of
        # them is captured), the other side of tomb_adj; empty for a cell that is no slot
        near: list[set[int]] = [set() for _ in range(n)]
        for c in range(n):
            for t in self.tomb_adj[c]:
                near[t].add(c)
        self.tomb_near = [frozenset(s) for s in near]
        # a group's whole walk when nothing is captured on it, per start cell (see ``_way``):
        # toward the gate with the events' ``movement`` (C16, C19) and toward each stop with
        # the noise's ``pull`` (C8; None off the stop's line)
        self.gate_walk = [self._way(c, self.gate_step, movement, self.gate_adj, WALK_ENDS)
                          for c in range(n)]
        self.pull_walk = [[self._way(c, steps, pull, frozenset(), WALK_BLOCKED) if c in nxt else None
                           for c in range(n)]
                          for steps, nxt in zip(self.line_step, self.line_next)]
        # the wave entries (cell, guardian, 0) of a whole group, one shared tuple per cell and
        # mover (-1: toward the gate, 0/1: toward a guardian), so a wave's list is made by C-level
        # indexing instead of a new tuple per group (pnp.engines.cimiterio.movement)
        self.gate_entry = [(c, -1, 0) for c in range(n)]
        self.guard_entry = ([(c, 0, 0) for c in range(n)], [(c, 1, 0) for c in range(n)])
        self.first_move = [("first", c) for c in range(n)]      # C19's choices, shared the same way
        self.avenues = {a["id"]: self._avenue(a["axis"], a["index"]) for a in mp["avenues"]}
        self.avenue_sets = {k: frozenset(v) for k, v in self.avenues.items()}
        self.guardian_start = tuple(self.ring_index[r * W + c] for r, c in mp["guardian_start"])
        # legal action moves per guardian pair, filled by pnp.engines.cimiterio.actions
        self.move_cache: dict[tuple, tuple[tuple, frozenset, tuple]] = {}

    def _ring(self, max_stops: int) -> None:
        """C3/C6: the ring of guardian stops, clockwise from the top-left stop, and the stops
        reachable from each in 1..max_stops consecutive steps."""
        W, H, ch = self.W, self.H, self.ch
        stops = [c for c in range(W * H) if ch(c) == "o"]
        top = sorted((c for c in stops if c // W == 0), key=lambda c: c % W)
        right = sorted((c for c in stops if c % W == W - 1 and c // W != 0), key=lambda c: c // W)
        bottom = sorted((c for c in stops if c // W == H - 1), key=lambda c: -(c % W))
        left = sorted((c for c in stops if c % W == 0 and c // W != 0), key=lambda c: -(c // W))
        seen: set[int] = set()
        ring = []
        for c in top + right + bottom + left:
            if c not in seen:
                seen.add(c)
                ring.append(c)
        if len(ring) != len(stops):
            raise RecordError("cimiterio map: guardian stops must lie on the border")
        self.ring = tuple(ring)
        self.ring_index = {c: i for i, c in enumerate(ring)}
        R = len(ring)
        # C6: ring indices reachable in 1..max_stops consecutive stops
        self.reach: list[tuple[int, ...]] = []
        for i in range(R):
            dests: list[int] = []
            for k in range(1, max_stops + 1):
                for j in ((i + k) % R, (i - k) % R):
                    if j != i and j not in dests:
                        dests.append(j)
            self.reach.append(tuple(dests))

    def _lines(self) -> None:
        """C7: a guardian's straight line is the row or column its stop faces, from the stop to
        the far edge of the cemetery, tombs included: a stop in line with a row of tombs sees the
        gaps between them. C8: a group moves toward the stop along it until the next cell is a
        tomb ("the tomb that separates it from the noise") or the stop itself."""
        W, H, n = self.W, self.H, self.W * self.H
        self.line: list[tuple[int, ...]] = []       # per stop: gap cells from nearest to farthest
        self.line_dist: list[dict[int, int]] = []   # per stop: cell -> distance (1 = next to the stop)
        # per stop: cell -> next cell toward the stop (None: the stop or a tomb is next, C8)
        self.line_next: list[dict[int, int | None]] = []
        inside = [self.gap[c] or self.ch(c) in "TB" for c in range(n)]
        for s in self.ring:
            r, c = divmod(s, W)
            if r == 0:
                d = W
            elif r == H - 1:
                d = -W
            elif c == 0:
                d = 1
            else:
                d = -1
            cells, dist, nxt = [], {}, {}
            prev: int | None = None           # the cell toward the stop, while it is a gap
            x, k = s + d, 1
            while 0 <= x < n and inside[x] and (x // W == r or x % W == c):
                if self.gap[x]:
                    cells.append(x)
                    dist[x] = k
                    nxt[x] = prev
                    prev = x
                else:
                    prev = None               # a tomb: the gaps beyond it stop in front of it
                x += d
                k += 1
            self.line.append(tuple(cells))
            self.line_dist.append(dist)
            self.line_next.append(nxt)

    def _toward_gate(self, metric: str, step: str) -> None:
        """C16/C19: distance to the gate (``bfs`` = shortest path over gaps, ``manhattan`` =
        |dr|+|dc| to the gate) and the next cell toward it (``step``: which of the equally short
        steps is taken, ``down-first`` or ``across-first``)."""
        W, n = self.W, self.W * self.H
        # C16/C19: toward the gate. bfs = shortest path over gaps; manhattan = |dr|+|dc| to the gate
        gr, gc = divmod(self.gate, W)
        if metric == "bfs":
            dist: dict[int, int] = {}
            frontier = sorted(self.gate_adj)
            for c in frontier:
                dist[c] = 1
            while frontier:
                nxt = []
                for c in frontier:
                    for d in self.nbrs[c]:
                        if d not in dist:
                            dist[d] = dist[c] + 1
                            nxt.append(d)
                frontier = nxt
        elif metric == "manhattan":
            dist = {c: abs(c // W - gr) + abs(c % W - gc) for c in range(n) if self.gap[c]}
        else:
            raise RecordError(f"cimiterio: unknown metric {metric!r} (bfs, manhattan)")
        self.gate_dist = dist
        # the order groups move toward the gate in (C16/C19): nearest first, then reading order;
        # (distance, cell) as one int so a wave sorts its cells with a C-level key
        self.gate_rank = [dist.get(c, 1 << 20) * n + c for c in range(n)]
        self.gate_dist_at = [dist.get(c) for c in range(n)]     # gate_dist by index (None: no path)
        self.gate_next: dict[int, int | None] = {}
        for c in dist:
            if c in self.gate_adj:
                continue
            r, cc = divmod(c, W)
            toward = 1 if cc < gc else -1 if cc > gc else 0
            down = W if r < gr else -W
            horiz = [c + toward] if toward else [c + 1, c - 1]
            if step == "down-first":
                order = [c + down] + horiz + [c - toward if toward else c - down, c - down]
            elif step == "across-first":
                order = horiz + [c + down] + ([c - toward] if toward else []) + [c - down]
            else:
                raise RecordError(f"cimiterio: unknown step rule {step!r} (down-first, across-first)")
            best = None
            for d in order:
                if d in self.nbrs[c] and dist.get(d, 10 ** 9) < dist[c]:
                    best = d
                    break
            self.gate_next[c] = best

    @staticmethod
    def _way(cell: int, nexts: list, steps: int, gate_adj: frozenset,
             blocked: int) -> tuple[tuple[int, ...], frozenset[int], int]:
        """The walk of a group from ``cell`` (``steps`` cells along ``nexts``) as
        ``movement.Movement._walk_steps`` makes it when it captures nothing: (the cells it steps
        on in order, those and ``cell`` as a set, how it ends: WALK_ENDS, WALK_ATTACKS next to the
        gate with a step left (C13), WALK_AT_GATE already next to it at the start (C13 attacks
        only in the ``adjacent`` reading) or ``blocked`` when the line ends with steps left
        (C8)). Merging with the groups on the way changes none of it (C10: it goes on with the
        steps left)."""
        start = cell
        path: list[int] = []
        while True:
            if cell in gate_adj:
                end = (WALK_ATTACKS if path else WALK_AT_GATE) if steps > 0 else WALK_ENDS
                break
            if steps <= 0:
                end = WALK_ENDS
                break
            nxt = nexts[cell]
            if nxt is None:
                end = blocked
                break
            cell = nxt
            steps -= 1
            path.append(cell)
        return tuple(path), frozenset([start, *path]), end

    @functools.cached_property
    def pull_paths(self) -> list[dict[int, tuple[int, ...]]]:
        """Per stop: gap cell -> the cells a group there walks when that stop makes noise (C8,
        ``pull`` cells along the stop's line; only cells from which it moves at all)."""
        out = []
        for s in range(len(self.ring)):
            nxt = self.line_next[s]
            paths = {}
            for c in nxt:
                path = [c]
                x: int | None = c
                for _ in range(self.pull):
                    x = nxt.get(x) if x is not None else None
                    if x is None:
                        break
                    path.append(x)
                if len(path) > 1:
                    paths[c] = tuple(path)
            out.append(paths)
        return out

    @functools.cached_property
    def ring_moves(self) -> list[list[int]]:
        """Stop -> stop: the fewest Move actions (C6, ``reach`` stops each) between them."""
        R = len(self.ring)
        k = max(1, max((len(r) for r in self.reach), default=2) // 2)
        return [[-(-min((a - b) % R, (b - a) % R) // k) for b in range(R)] for a in range(R)]

    @functools.cached_property
    def pulls_to_tomb(self) -> dict[int, dict[int, int]]:
        """Per tomb slot: gap cell -> the fewest guardian noises (C8, ``pull`` cells each along
        a stop's line) that bring a leader standing there next to that tomb (C9; 0 = it is
        next to it already). The tactician bot's measure of how far a leader is from capture;
        cells from which no noise sequence reaches the tomb are missing."""
        pulls: dict[int, set[tuple[int, ...]]] = {}
        for per_stop in self.pull_paths:
            for c, path in per_stop.items():
                pulls.setdefault(c, set()).add(path)
        out = {}
        for t in self.slots:
            near = {d for d in self._orth(t) if self.gap[d]}
            dist = dict.fromkeys(near, 0)
            for c, ways in pulls.items():
                if c not in dist and any(x in near for p in ways for x in p):
                    dist[c] = 1
            changed = True
            while changed:
                changed = False
                for c, ways in pulls.items():
                    best = min((dist[p[-1]] + 1 for p in ways if p[-1] in dist), default=None)
                    if best is not None and best < dist.get(c, 1 << 20):
                        dist[c] = best
                        changed = True
            out[t] = dist
        return out

    def _avenue(self, axis: str, idx: int) -> tuple[int, ...]:
        """The gap cells of avenue row/column ``idx`` (C16)."""
        W, H = self.W, self.H
        if axis == "row":
            return tuple(idx * W + c for c in range(W) if self.gap[idx * W + c])
        return tuple(r * W + idx for r in range(H) if self.gap[r * W + idx])

    def _orth(self, c: int) -> Iterator[int]:
        W, H = self.W, self.H
        r, cc = divmod(c, W)
        if r > 0:
            yield c - W
        if r < H - 1:
            yield c + W
        if cc > 0:
            yield c - 1
        if cc < W - 1:
            yield c + 1

    def cell_text(self, c: int) -> str:
        return f"{c // self.W},{c % self.W}"

    def parse_cell(self, text: str) -> int:
        try:
            r, c = (int(x) for x in text.strip().split(","))
        except ValueError:
            raise ValueError(f"bad cell {text!r} (expected row,col)") from None
        if not (0 <= r < self.H and 0 <= c < self.W):
            raise ValueError(f"cell {text!r} is off the map")
        return r * self.W + c
