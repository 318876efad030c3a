"""Zombie! Run for Your Lives!: complete random games, fast (for simulations and benchmarks).

``playout`` plays exactly the moves of ``random_move`` + ``push`` (tested): the same sampler and
the same rules and turn flow (``_play_card``, ``_apply``). The kernel only does without what a
playout does not need: undo records, and the per-move logs of fired rules and stats, which it
adds up at the end.
"""
from __future__ import annotations

import random

from pnp.engines.core import Outcome
from pnp.engines.zombie_run.legality import Legality
from pnp.engines.zombie_run.moves import SPECIAL
from pnp.engines.zombie_run.rules import PH_LIVING
from pnp.engines.zombie_run.turns import ZT


class Playout(Legality):
    """``playout``: uniformly random legal moves to the end."""

    def playout(self, chooser: random.Random | None = None, seed: int = 0,
                fast: bool = True) -> Outcome:
        """Play uniformly random legal moves (``random_move``) to the end, without undo records
        (the undo history is cleared). ``fast`` runs ``_playout_kernel``; ``fast=False`` the
        reference loop ``random_move`` + ``_apply``. Both consume the chooser and the game RNG
        identically, so they reach the same final state (tested)."""
        ch = chooser or random.Random(seed)
        rnd = ch.random
        self._undo.clear()
        self.move_stack.clear()
        if fast:
            self._playout_kernel(rnd)
        else:
            pick = self.random_move
            apply = self._apply
            while self._outcome is None:
                apply(pick(rnd))
                self.ply += 1
        assert self._outcome is not None
        return self._outcome

    def _playout_kernel(self, rnd) -> None:
        """The loop of ``playout``: ``random_move`` (its living-player sampler on a list of the
        living seats kept between plies) and what ``_apply`` does, the common moves (a play or
        a special) going straight to ``_play_card`` with their fired rules and stats added up
        here; the rare ones (Z6, passes, a zombie player's discard) through ``_apply``."""
        n = self.players
        alive = self.alive
        live = [q for q in range(n) if alive[q]]
        S = self.S
        sample = self._sample_living
        pick = self.random_move
        play_card = self._play_card
        apply = self._apply
        z3 = z9 = z11 = 0                   # rules fired, added up at the end
        onto = [0] * n                      # zombie cards played onto each seat (stats)
        plies = 0
        while self._outcome is None:
            plies += 1
            living = self.phase == PH_LIVING
            m = sample(rnd, live) if living else pick(rnd)
            kind = m >> 16
            if kind > SPECIAL:                              # Z6, pass, Z9 discard
                apply(m)
                continue
            t = m >> 8 & 0xFF
            q = m & 0xFF
            if kind == SPECIAL:
                z11 += 1
            else:
                if living:
                    z3 += 1
                else:
                    z9 += 1
                if t >= S and q != self.turn:
                    onto[q] += 1
            play_card(kind, t, q)
            if not alive[q]:                                # Z8
                live.remove(q)
        self.ply += plies
        rf = self.rules_fired
        for rule, c in (("Z9", z9), ("Z3", z3), ("Z11", z11)):
            if c:
                rf[rule] += c
        cnt = self.counters
        for q in range(n):
            if onto[q]:
                cnt[ZT[q]] += onto[q]
        self._fire_log = []                 # no undo after a playout: drop the logs
        self._count_log = []
