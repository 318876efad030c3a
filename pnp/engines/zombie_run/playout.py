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
from collections.abc import Callable

from pnp.engines.core import Outcome, Rng
from pnp.engines.zombie_run.legality import Legality
from pnp.engines.zombie_run.moves import PLAY, SPECIAL
from pnp.engines.zombie_run.rules import PH_LIVING, PH_ZOMBIE, SEATS, move_fields
from pnp.engines.zombie_run.turns import CIRCULATION, ZT


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
        ``rng.randbelow(len)`` of it, applied to the end) without undo records, by
        ``_random_plies``. The undo history is cleared and the per-move logs of fired rules
        and stats, which only ``pop`` reads, are dropped."""
        self._undo.clear()
        self.move_stack.clear()
        self._legal_memo = None
        n = self._random_plies(rng.randbelow)
        self.ply += n
        self._fire_log = []
        self._count_log = []
        return n

    def _random_plies(self, pick: Callable[[int], int]) -> int:
        """Play to the end: at every ply the whole list of legal moves (``_generate``, the
        list ``legal_moves`` returns) and its move ``pick(len(list))``; returns the plies.

        The move is applied as ``_apply`` applies it, with the common case of a normal play
        (Z3, Z9) and of a special (Z11) written out: the card leaves the hand, lands on a table
        without a Z4 pair (``_place``'s first case; the thresholds of Z7, Z8 and Z12, Z4 and the
        symbol-less zombie go to ``_place`` and its helpers), and the next turn starts with more
        than ``CIRCULATION`` cards in the deck and below the turn cap (``_begin_turn``'s
        common case: no guard to check, the draw from the deck); every other move and case
        calls ``_apply`` / ``_place`` / ``_begin_turn``. No undo record refers to the hands
        (``random_playout`` cleared them), so the hands are changed in place; the Z3, Z9 and
        Z11 firings and the zombies played onto each seat are counted here and added to
        ``rules_fired`` / ``counters`` at the end (the logs for ``pop`` are not kept).
        tests/test_zombie_run_speed_paths.py: the same state as the core's push loop."""
        S, R, TWIN, PC, IM, MOVER = self.S, self.ROACH, self.TWIN, self.PC, self.IM, self.MOVER
        win_items, lose_zombies, max_turns = self.win_items, self.lose_zombies, self.max_turns
        hands = self.hands = [h[:] for h in self.hands]     # its own lists, changed in place
        tables = self.tables
        deck = self.deck                                    # Z13 refills this very list
        generate, apply, place = self._generate, self._apply, self._place
        following = (*range(1, self.players), 0)            # Z2: clockwise
        fields = move_fields(self.data.NT)                  # move -> (kind, type, seat)
        # bit i (a table's card type t or a twin, a seat q): a look-up costs less than 1 << i
        bit = tuple(1 << i for i in range(max(SEATS, max(TWIN) + 1)))
        z3 = z4 = z9 = z11 = plies = 0
        onto = [0] * self.players                           # stats: zombies played onto q
        try:
            while self._outcome is None:
                p = self.turn
                if self.phase:                              # Z9: a zombie player
                    moves = generate()
                elif self.special_used:                     # _generate's loop, Z11 used
                    acc = self._acc
                    mover = MOVER[p]
                    moves = []
                    for t in set(hands[p]):
                        moves += mover[t][acc[t]][0]
                    if not moves:                           # Z6
                        moves.append(self._z6_move())
                elif self._zok & bit[p] and not self._live & ~(self._iok | bit[p]):
                    acc = self._acc                         # _generate's Z12-free loop
                    mover = MOVER[p]
                    moves = []
                    specials = []
                    for t in set(hands[p]):
                        normal, special = mover[t][acc[t]]
                        moves += normal
                        specials += special
                    if not moves:                           # Z6
                        specials.append(self._z6_move())
                    moves += specials
                else:                                       # Z12 binds: _generate
                    moves = generate()
                m = moves[pick(len(moves))]
                plies += 1
                kind, t, q = fields[m]
                if kind > SPECIAL:                          # Z6, Z9 discard, pass: _apply
                    apply(m)
                    continue
                hands[p].remove(t)
                if kind == PLAY:                            # Z3 (living) / Z9 (zombie player)
                    if self.phase:
                        z9 += 1
                    else:
                        z3 += 1
                    if t >= S and q != p:
                        onto[q] += 1
                else:                                       # Z11: used up for the turn
                    self.special_used = True
                    z11 += 1
                tab = tables[q]
                twin = TWIN[t]
                if tab & bit[twin]:                         # Z4: the pair cancels
                    tab = tables[q] = tab ^ bit[twin]
                    self._acc[twin] |= bit[q]               # room for the twin (Z5)
                    if twin < S:                            # Z12: one item fewer on q's table
                        if PC[tab & IM] + 1 < win_items:
                            self._iok |= bit[q]
                    elif PC[tab >> S] + 1 < lose_zombies:   # one zombie fewer
                        self._zok |= bit[q]
                    self.discard += (t, twin)
                    z4 += 1
                elif t >= R:                                # the symbol-less zombie: _place
                    place(t, q)
                else:                                       # the card stays: Z5, counts
                    tab = tables[q] = tab | bit[t]
                    self._acc[t] ^= bit[q]                  # Z5: q took t, so the bit was set
                    if t < S:
                        if PC[tab & IM] + 1 >= win_items:
                            self._item_threshold(q, tab)    # Z12, Z7
                    elif PC[tab >> S] + 1 >= lose_zombies:
                        self._zombie_threshold(q, tab)      # Z12, Z8
                if self._outcome is not None:               # Z7, Z10
                    break
                if kind == SPECIAL:                         # Z11: draw a card, go on
                    if deck:
                        hands[p].append(deck.pop())
                    else:
                        self._draw(p, 1)                    # Z13
                elif self.turns < max_turns and (len(deck) > CIRCULATION or deck and
                                                 len(deck) + len(self.discard) > CIRCULATION):
                    p = self.turn = following[p]            # _begin_turn(True), no guard due
                    self.turns += 1
                    self.special_used = self.z6_used = False
                    self.phase = PH_LIVING if self._live & bit[p] else PH_ZOMBIE
                    hands[p].append(deck.pop())             # Z3 / Z9: draw a card
                else:
                    self._begin_turn(True)
        finally:
            fired = self.rules_fired
            for rule, k in (("Z3", z3), ("Z4", z4), ("Z9", z9), ("Z11", z11)):
                if k:
                    fired[rule] += k
            counters = self.counters
            for q, k in enumerate(onto):
                if k:
                    counters[ZT[q]] += k
        return plies

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
