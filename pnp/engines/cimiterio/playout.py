"""Complete random games without undo records, for simulations and benchmarks.

``random_playout`` is the core's throughput definition (``legal_moves()`` generated every ply,
the move ``rng.randbelow(len(list))`` of it played as ``push`` plays it, to the end) with what
only ``pop`` needs left out: the undo record of every ply, the one-move legality check (the move
was just generated in this very position) and the per-move log of fired rules. It reaches the
state the core's ``legal_moves()`` + ``push`` loop reaches: same moves, same RNG use, same
``rules_fired`` (tested in tests/test_cimiterio_speed_paths.py).
"""
from __future__ import annotations

from collections.abc import Sequence

from pnp.engines.cimiterio.actions import Actions, action_table
from pnp.engines.core import Rng
from pnp.engines.picks import GAMMA, MASK64, next_tops


class Playout(Actions):

    def random_playout(self, rng: Rng) -> int:
        """Uniform random play to the end (see the module docstring); the undo history is
        cleared, as after any playout that keeps no undo records."""
        self._undo.clear()
        self.move_stack.clear()
        self._fire_log.clear()
        # The rules fired are gathered in a plain list while the game runs (one C-level append
        # per fired rule instead of the core's Counter update + log append) and counted at the
        # end, in the order they fired (the Counter's key order is the push loop's). Nothing in
        # the engine reads ``rules_fired`` during a game, only ``stats()`` after it.
        fired: list[str] = []
        self.fire = fired.append            # type: ignore[method-assign,assignment]
        fire = fired.append
        legal = self.legal_moves
        apply = self._apply
        run = self._run
        # the picks: Rng.randbelow(len(moves)) read from a block of the next draws' top bits
        # (pnp.engines.picks: fast_pick written out; at the block's end the next block is
        # drawn; the rare draws their top bits do not decide ask rng.randbelow itself, then a
        # new block is drawn). rng's state
        # is base + j * GAMMA. The rules draw from the game's own Rng (C20's reshuffles), so
        # when that is rng itself every pick is rng.randbelow's, in turn with the rules' draws.
        pick = rng.randbelow if rng is self.rng else None
        base, j = rng.state, 0
        tops = next_tops(base)
        B = self.B
        tables = B.move_cache
        # the action table of the guardians' stops: only a Move changes them, and every Move
        # goes through the branch below, which takes the new stops' table
        table = tables.get(self.guards) or action_table(B, self.guards)
        n = 0
        moves: Sequence
        try:
            while self.result is None:
                n += 1
                pending = self.pending is not None
                if pending:
                    moves = legal()
                else:
                    # legal_moves() at an action card, without its call and its copy: the
                    # guardians' table itself (the same moves in the same order; nothing here
                    # keeps or changes the list)
                    moves, _, after = table
                k = len(moves)
                if pick is not None:
                    i = pick(k)
                elif k > 1 and ((t := tops[j] * k) + k) & 0xFFFF > k:  # randbelow: fast_pick
                    i = t >> 16
                    j += 1
                else:
                    rng.state = (base + j * GAMMA) & MASK64
                    if tops[j] < 0 and k > 1 and (
                            (t := (tops := next_tops(rng.state))[0] * k) + k) & 0xFFFF > k:
                        # the block used up: the next block's first draw, as above
                        i = t >> 16
                        base, j = rng.state, 1
                    else:
                        # Rng's own randbelow: a draw its top bits do not decide, or a
                        # single move (randbelow(1) draws nothing; rare here)
                        i = rng.randbelow(k)
                        base, j = rng.state, 0
                        tops = next_tops(base)
                if pending:
                    apply(moves[i])
                    continue
                guards = after[i]
                if guards is None:              # a noise (C7) or the pass (C5)
                    apply(moves[i])
                    continue
                # a Move (C6) as _apply plays it, the stops after it read from the table. At an
                # action card no wave or queue is left (_run stops there only then), so the next
                # action card needs nothing from the turn loop.
                self.si = si = self.si + 1
                fire("C6")
                self.guards = guards
                table = tables.get(guards) or action_table(B, guards)
                slots = self.slots
                if si >= len(slots) or slots[si] != "A":
                    run()
        finally:
            if pick is None:
                rng.state = (base + j * GAMMA) & MASK64     # the picks drawn
            del self.fire
            self.rules_fired.update(fired)
            self.ply += n
            self._legal_memo = None
        return n
