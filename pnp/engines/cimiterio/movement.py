"""Zombie movement: waves of groups moving nearest first, and the walk of one group (C8-C13,
C16, C19, C24).

A *wave* is the list of groups one noise or one event moves, in order; groups move one at a
time with ``_walk``, the one definition of a group's movement, toward a guardian's stop (noise)
or toward the gate (events).
"""
from __future__ import annotations

from collections.abc import Iterable

from pnp.engines.cimiterio.board import WALK_ATTACKS, WALK_BLOCKED
from pnp.engines.cimiterio.scoring import Scoring
from pnp.engines.cimiterio.state import Entry

NO_CELLS: frozenset[int] = frozenset()


class Movement(Scoring):

    def _start_wave(self, item: tuple) -> None:
        """Queue the groups a wave moves, sorted nearest first. Unmoved groups never change
        distance during a wave (guardians do not move, groups only leave), so one sort suffices;
        absorbed groups are dropped as they merge (C10)."""
        kind = item[0]
        if kind == "avenue":
            # C16: zombies in the named avenue move toward the gate, nearest to it first (the
            # groups are fewer than the avenue's cells; the sort fixes the order)
            self._gate_wave("C16", self.B.avenue_sets[item[1]].intersection(self.stacks))
            return
        if kind == "bell":
            # C19: every zombie moves toward the gate (this is one of the two passes)
            self._gate_wave("C19", self.stacks)
            return
        B = self.B
        stacks = self.stacks
        g = item[1]
        s1, s2 = self.guards
        if g < 2 or s1 == s2:
            # C8: one guardian's noise (two guardians on one stop make one noise together),
            # nearest first: the stop's line lists its cells by distance, one cell per distance
            if g == 2:
                g = 0
            self.wave = ("C8", tuple(map(B.guard_entry[g].__getitem__,
                                         filter(stacks.__contains__, B.line[self.guards[g]]))))
            return
        # C12: both guardians at once
        d1, d2 = B.line_dist[s1], B.line_dist[s2]
        keyed = []
        for c, st in stacks.items():
            a, b = d1.get(c), d2.get(c)
            if a is None and b is None:
                continue
            if b is None or (a is not None and a < b):
                keyed.append((a, 0, 0, c))
            elif a is None or b < a:
                keyed.append((b, 0, 1, c))
            else:
                # exactly half way between the two guardians (C12)
                self.fire("C12")
                if len(st) >= 2 and B.line_next[s1][c] is not None and B.line_next[s2][c] is not None:
                    keyed.append((a, 1, 0, c))
                    keyed.append((a, 2, 1, c))
                # a lone zombie half way does not move
        keyed.sort()
        self.wave = ("C12", tuple((c, g, part) for _, part, g, c in keyed))

    def _gate_wave(self, rule: str, cells: Iterable[int]) -> None:
        """Start the wave of the groups on ``cells`` toward the gate (C16, C19): nearest to the
        gate, then reading order (one int key per cell); the entries are the board's shared
        (cell, -1, 0) tuples."""
        B = self.B
        self.wave = (rule, tuple(map(B.gate_entry.__getitem__, sorted(cells, key=B.gate_rank.__getitem__))))

    def _play_wave(self) -> bool:
        """Move the groups of the current wave one by one, until it is done (True) or a player
        choice is pending (False); it stops too when the game ends or C23 restarts the turn."""
        wave = self.wave
        if wave is not None and wave[1] and wave[1][0][1] < 0:
            return self._play_gate_wave(wave[0])
        while self.result is None:
            wave = self.wave
            if wave is None:                # done, or cleared by C23's tie-break restart
                return True
            rule, entries = wave
            if not entries:
                self.wave = None
                return True
            e = entries[0]
            c, g, part = e
            if (self._personal >= 0 and part == 0 and self.turn == self._personal_owner
                    and self._personal in self.stacks.get(c, ())):
                self.pending = ("personal", e)
                return False
            self.wave = (rule, entries[1:])
            if part:
                self._move_entry(e)
                continue
            # a whole group: _move_entry's commonest case, without its call
            st = self.stacks.pop(c, None)
            if st is not None:          # (none left there: taken or moved since the wave began)
                self._walk(st, c, self.guards[g], self.pull)
        return True

    def _play_gate_wave(self, rule: str, first: int = -1) -> bool:
        """``_play_wave`` for a wave toward the gate (C16, C19; its entries are (cell, -1, 0)),
        the tables it reads taken once for the wave, and a group that can capture nothing on
        its way walked as ``_walk`` walks it (the board's table of the walk), without the call.
        ``first``: the cell of the group the current player chose to move first (C19)."""
        B = self.B
        gd = B.gate_dist_at
        ways = B.gate_walk
        near = B.tomb_near
        tomb_of = self.tomb_of
        stacks = self.stacks
        fire = self.fire
        # C9: the bell tower captures too in the `bell-captures` reading (as in _walk)
        capture = self._bell_captures and rule == "C19"
        choice = self._order_choice
        while self.result is None:
            wave = self.wave
            if wave is None:                # done, or cleared by C23's tie-break restart
                return True
            entries = wave[1]
            if not entries:
                self.wave = None
                return True
            if first >= 0:
                # the chosen group leaves the wave (the entries are the board's shared
                # (cell, -1, 0) tuples: equal to the chosen one's entry only at its cell)
                c = first
                first = -1
                self.wave = (rule, tuple(filter(B.gate_entry[c].__ne__, entries)))
            else:
                c = entries[0][0]
                if choice and len(entries) > 1:
                    d0 = gd[c]
                    if gd[entries[1][0]] == d0:
                        # C19: equal distance from the gate, the current player chooses who
                        # goes first
                        self.pending = ("order", tuple([x[0] for x in entries if gd[x[0]] == d0]))
                        return False
                self.wave = (rule, entries[1:])
            st = stacks.pop(c, None)
            if st is None:              # (none left there: taken or moved since the wave began)
                continue
            path, cells, end = ways[c]
            if capture and not near[tomb_of[st[-1]]].isdisjoint(cells):
                self._walk_steps(st, c, -1, self.movement, True)
                continue
            for x in path:
                if x in stacks:
                    fire("C10")         # C10: as in _walk
                    st = stacks.pop(x) + st
                    self._absorbed(x)
            if end:                     # C13: next to the gate with a move left (as in _walk)
                if end == WALK_ATTACKS or self._attack_any:
                    self._attack(len(st))
            if path:
                c = path[-1]
            if c in stacks:
                stacks[c] += st
            else:
                stacks[c] = st
        return True

    def _move_entry(self, e: Entry) -> None:
        c, g, part = e
        stacks = self.stacks
        if part == 1:
            st = stacks.get(c)
            if st is None:
                return
            k = (len(st) + 1) // 2            # C12: the upper half (with the leader) goes to G1
            stacks[c] = st[:len(st) - k]
            st = st[len(st) - k:]
        else:
            st = stacks.pop(c, None)
            if st is None:                    # no group left there (taken or moved since the wave began)
                return
            if part == 2:
                self.fire("C12")
        if g < 0:
            self._walk(st, c, -1, self.movement)
        else:
            self._walk(st, c, self.guards[g], self.pull)

    def _move_personal(self, e: Entry, n: int) -> None:
        """C24: the owner's choice ``n`` for the personalised zombie (0 = keep it in its group;
        1-3 = it leaves its group and moves that many cells, then the rest moves)."""
        c, g, _ = e
        p = self.options["personal"]
        st = self.stacks.pop(c)
        self.fire("C24")
        if n == 0:
            self._walk(st, c, self.guards[g], self.pull)
            return
        rest = tuple(z for z in st if z != p)
        if rest:
            self.stacks[c] = rest            # the personalised zombie leaves its group
        self._walk((p,), c, self.guards[g], n)
        if self.result is None and c in self.stacks and self.wave is not None:
            rest = self.stacks.pop(c)
            self._walk(rest, c, self.guards[g], self.pull)

    def _absorbed(self, cell: int) -> None:
        """The group on ``cell`` merged into a moving one (C10): it no longer moves on its own."""
        w = self.wave
        if w is not None:
            entries = w[1]
            for e in entries:
                if e[0] == cell:
                    self.wave = (w[0], tuple([e for e in entries if e[0] != cell]))
                    return

    def _walk(self, stack: tuple, cell: int, stop: int, steps: int) -> None:
        """Move a group (off the board while it walks) ``steps`` cells from ``cell``: toward
        guardian stop ``stop`` (ring index, a noise, C8) or toward the gate (``stop`` < 0, an
        event, C16/C19); ``_walk_steps`` is the one definition of the walk. When the group can
        capture nothing on its way (no capture in this walk, or its leader's tomb is next to
        none of the cells it walks; merging keeps the leader, C10), the walk is the board's
        table of it (``Board.gate_walk``, ``Board.pull_walk``): the same cells, merges and end
        as the step-by-step loop, without a loop pass per cell."""
        B = self.B
        if stop >= 0:
            capture = True                        # C9: guardian noise captures
            way = B.pull_walk[stop][cell] if steps == B.pull else None
        else:
            # C9: the bell tower captures too in the `bell-captures` reading (the seed states
            # capture generally and exempts only the noise event, C16 "la ignoreranno")
            w = self.wave
            capture = self._bell_captures and w is not None and w[0] == "C19"
            way = B.gate_walk[cell] if steps == B.movement else None
        if way is not None:
            path, cells, end = way
            if not capture or B.tomb_near[self.tomb_of[stack[-1]]].isdisjoint(cells):
                stacks = self.stacks
                for c in path:
                    if c in stacks:
                        # C10: the covered leader turns face down, the mover stacks on top and
                        # goes on
                        self.fire("C10")
                        stack = stacks.pop(c) + stack
                        self._absorbed(c)
                if end:
                    if end == WALK_BLOCKED:
                        self.fire("C8")            # C8: nothing between it and the noise any more
                    elif end == WALK_ATTACKS or self._attack_any:
                        self._attack(len(stack))   # C13: next to the gate with a move left
                if path:
                    cell = path[-1]
                if cell in stacks:
                    stacks[cell] += stack
                else:
                    stacks[cell] = stack
                return
        self._walk_steps(stack, cell, stop, steps, capture)

    def _walk_steps(self, stack: tuple, cell: int, stop: int, steps: int, capture: bool) -> None:
        """The walk of ``_walk`` step by step (``capture``: whether its leaders are captured).

        Toward guardian stop ``stop``: along the guardian's avenue (C8), capturing leaders next
        to their own tomb at the start, on every cell and at the end (C9, C11). Toward the gate
        (``stop`` < 0): no captures unless ``capture`` (the bell tower's, C19); a group next to
        the gate with a step left attacks it and stops (C13). Both merge with every group they
        step onto and go on with the steps left (C10)."""
        B = self.B
        stacks = self.stacks
        tomb_adj = B.tomb_adj
        tomb_of = self.tomb_of
        if stop >= 0:
            nexts = B.line_step[stop]
            gate_adj = NO_CELLS                   # a noise's group never attacks the gate
            fresh = self.pull
        else:
            nexts = B.gate_step
            gate_adj = B.gate_adj
            moved = self._attack_any
            fresh = self.movement
        while True:
            # (the leader's test first: a capture is rare, its loop runs only then)
            if capture and tomb_of[stack[-1]] in tomb_adj[cell]:
                adj = tomb_adj[cell]
                while stack and tomb_of[stack[-1]] in adj:
                    # C9: orthogonally next to its own tomb at the start, during or at the end
                    self._capture(stack[-1])
                    stack = stack[:-1]
                    if self.result is not None:
                        if stack:
                            self._place(cell, stack)
                        return
                    if stack:
                        # C11: the next card is the new leader; a new group with its own moves
                        self.fire("C11")
                        steps = fresh
                if not stack:
                    if not stacks:
                        self._cemetery_empty()
                    return
            if cell in gate_adj:
                if steps > 0 and moved:
                    self._attack(len(stack))   # C13: next to the gate with a move left
                break
            if steps <= 0:
                break
            nxt = nexts[cell]
            if nxt is None:
                if stop >= 0:
                    self.fire("C8")            # C8: nothing between it and the noise any more
                break
            cell = nxt
            steps -= 1
            moved = True                       # (C13 "arrive": it moved during this walk)
            if cell in stacks:
                # C10: the covered leader turns face down, the mover stacks on top and goes on
                self.fire("C10")
                stack = stacks.pop(cell) + stack
                self._absorbed(cell)
        if cell in stacks:
            stacks[cell] += stack
        else:
            stacks[cell] = stack
