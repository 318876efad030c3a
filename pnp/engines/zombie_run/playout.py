"""Zombie! Run for Your Lives!: complete random games, fast (for simulations and benchmarks).

``playout`` plays exactly the moves of ``random_move`` + ``push`` (tested): the same sampler and
the same rules and turn flow (``_apply``). The kernel only does without what a playout does not
need: undo records, and the per-move logs of fired rules and stats (for ``pop``).
``random_playout`` (the core's throughput definition: the whole ``legal_moves()`` list every
ply, one move picked by ``Rng.randbelow``) does without the same, and reaches the state the
core's ``push`` loop reaches (tested).
"""
from __future__ import annotations

import random

from pnp.engines.core import Outcome, Rng
from pnp.engines.zombie_run.legality import Legality
from pnp.engines.zombie_run.moves import SPECIAL
from pnp.engines.zombie_run.rules import PH_LIVING


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
        self._legal_memo = None             # random_move may list moves on the way
        assert self._outcome is not None
        return self._outcome

    def random_playout(self, rng: Rng) -> int:
        """The core's ``random_playout`` (``legal_moves()`` every ply, the move
        ``rng.randbelow(len)`` of it, applied to the end) without undo records: ``_apply``, the
        rules and turn flow of ``push``, applies the move; the one-move check is not needed (the
        move was just generated in this position). The undo history is cleared and the per-move
        logs of fired rules and stats, which only ``pop`` reads, are dropped."""
        self._undo.clear()
        self.move_stack.clear()
        legal = self.legal_moves
        apply = self._apply
        pick = rng.randbelow
        n = 0
        while self._outcome is None:
            moves = legal()
            apply(moves[pick(len(moves))])
            n += 1
        self.ply += n
        self._legal_memo = None
        self._fire_log = []
        self._count_log = []
        return n

    def _playout_kernel(self, rnd) -> None:
        """The loop of ``playout``: ``random_move`` (its living-player sampler on a list of the
        living seats kept between plies) and ``_apply``, without undo records; the logs of
        fired rules and stats, which only ``pop`` reads, are dropped at the end."""
        live = [q for q in range(self.players) if self.alive[q]]
        sample = self._sample_living
        pick = self.random_move
        apply = self._apply
        plies = 0
        while self._outcome is None:
            plies += 1
            m = sample(rnd, live) if self.phase == PH_LIVING else pick(rnd)
            apply(m)
            q = m & 0xFF
            if m >> 16 <= SPECIAL and not self._live >> q & 1 and q in live:   # Z8: q zombie
                live.remove(q)
        self.ply += plies
        self._fire_log = []                 # no undo after a playout: drop the logs
        self._count_log = []
