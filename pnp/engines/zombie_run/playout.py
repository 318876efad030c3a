"""Zombie! Run for Your Lives!: complete random games, fast (for simulations and benchmarks).

``playout`` plays exactly the moves of ``random_move`` + ``push`` (tested): the same sampler and
the same rules and turn flow (``_apply``). The kernel only does without what a playout does not
need: undo records, and the per-move logs of fired rules and stats (for ``pop``).
``random_playout`` (the core's throughput definition: the whole ``legal_moves()`` list every
ply, one move picked by ``Rng.randbelow``) does without the same, and reaches the state the
core's ``push`` loop reaches (tested). With the compiled module ``_native`` (``_native.c``,
built when a C compiler is at hand; :mod:`pnp.engines.native`) ``random_playout`` plays the
same games in C: this loop stays the definition, tests/test_zombie_run_native.py compares the
two game by game, and what the C code does not support (``compiled_for``) plays here.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from types import ModuleType
from typing import Any

from pnp.engines.core import Outcome, Rng
from pnp.engines.native import native
from pnp.engines.picks import GAMMA, MASK64, next_tops
from pnp.engines.zombie_run.legality import Legality
from pnp.engines.zombie_run.moves import DISCARD, PASS, PLAY, SPECIAL
from pnp.engines.zombie_run.rules import PH_LIVING, PH_ZOMBIE, SEATS, move_fields
from pnp.engines.zombie_run.turns import CIRCULATION, ZT

NATIVE = "pnp.engines.zombie_run._native"     # the compiled random playout (_native.c)
LOOK_UP = object()                            # random_playout's default: ask pnp.engines.native
# the methods whose rules _native.c plays: a subclass overriding one plays in Python
NATIVE_RULES = ("_random_plies", "_generate", "legal_moves", "_apply", "_place",
                "_item_threshold", "_zombie_threshold", "_zombify", "_finish", "_begin_turn",
                "_draw", "_position_key", "_table_types", "_z6_move", "_recount", "fire",
                "count")
_OURS: dict[type, bool] = {}


def _rules_are_ours(cls: type) -> bool:
    """Does ``cls`` play this module's rules (no method of NATIVE_RULES overridden)? Asked
    once per class."""
    ours = _OURS.get(cls)
    if ours is None:
        ours = _OURS[cls] = all(getattr(cls, name) is getattr(Playout, name)
                                for name in NATIVE_RULES)
    return ours


def compiled_for(game: "Playout", rng: Rng) -> ModuleType | None:
    """The compiled playout for ``game`` and ``rng``, or None: not built, ``PNP_PURE_PYTHON``
    set, a subclass changing the rules, or an RNG that is not exactly ``Rng`` (the module
    itself declines the positions and decks it does not support: ``random_plies`` -> None)."""
    if type(rng) is not Rng or type(game.rng) is not Rng or not _rules_are_ours(type(game)):
        return None
    return native(NATIVE)


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
        self._legal_memo = None                             # random_move may list moves on the way
        assert self._outcome is not None
        return self._outcome

    def random_playout(self, rng: Rng, native: Any = LOOK_UP) -> int:
        """The core's ``random_playout`` (``legal_moves()`` every ply, the move
        ``rng.randbelow(len)`` of it, applied to the end) without undo records, by
        ``_random_plies``, or by the compiled module ``native`` (by default
        ``compiled_for``'s; ``native=None`` plays in Python) when it supports the position:
        the same game either way. The undo history is cleared and the per-move logs of fired
        rules and stats, which only ``pop`` reads, are dropped."""
        self._undo.clear()
        self.move_stack.clear()
        self._legal_memo = None
        if native is LOOK_UP:
            native = compiled_for(self, rng)
        n = None if native is None else native.random_plies(self, rng)   # None: not supported
        if n is None:
            n = self._random_plies(rng)
        self.ply += n
        self._fire_log = []
        self._count_log = []
        return n

    def _random_plies(self, rng: Rng, pick: Callable[[int], int] | None = None) -> int:
        """Play to the end: at every ply the whole list of legal moves (the list
        ``legal_moves`` returns, as ``_generate`` builds it) and its move
        ``rng.randbelow(len(list))``, taken from a block of the next draws' top bits
        (:mod:`pnp.engines.picks`: ``fast_pick`` written out; at the block's end the next block
        is drawn; the rare draws their top bits do not decide ask ``rng.randbelow`` itself,
        then a new block is drawn; ``rng``'s
        state is ``base + i * GAMMA``, stored before every call that may draw and the block
        drawn again if the call drew from ``rng``, which may be the game's own), or
        ``pick(len(list))`` when given (tests record the picks); returns the plies.

        The lists: a zombie player's (Z9) read from ``PLAYS`` (a tuple, the same moves), a
        living mover's from ``MOVER`` as ``_generate``'s loops read them. The move is applied
        as ``_apply`` applies it, with the common case of a normal play (Z3, Z9) and of a
        special (Z11) written out: the card leaves the hand, lands on a table without a Z4 pair
        (``_place``'s first case; the thresholds of Z7, Z8 and Z12, Z4 and the symbol-less
        zombie go to ``_place`` and its helpers), and the next turn starts with more than
        ``CIRCULATION`` cards in the deck and below the turn cap (``_begin_turn``'s common
        case: no guard to check, the draw from the deck); every other move and case calls
        ``_apply`` / ``_place`` / ``_begin_turn``.

        The fields read every ply (the mover, the phase, Z11 used, the turn count, the masks
        of :mod:`.rules`) are locals, written through to the position where they change here
        and read again after every call that may change them, so the methods called always see
        the position as it is (``reload`` below). No undo record refers to the hands
        (``random_playout`` cleared them), so the hands are changed in place; the Z3, Z9 and
        Z11 firings and the zombies played onto each seat are counted here and added to
        ``rules_fired`` / ``counters`` at the end (the logs for ``pop`` are not kept).
        tests/test_zombie_run_speed_paths.py: the same state as the core's push loop."""
        if self._outcome is not None:
            return 0
        S, R, TWIN, PC, IM = self.S, self.ROACH, self.TWIN, self.PC, self.IM
        MOVER, NORMALS, PLAYS, bit = self.MOVER, self.NORMALS, self.PLAYS, self.BIT
        win_items, lose_zombies, max_turns = self.win_items, self.lose_zombies, self.max_turns
        hands = self.hands = [*map(list.copy, self.hands)]  # its own lists, changed in place
        tables = self.tables
        deck = self.deck                                    # Z13 refills this very list
        place = self._place
        following = (*range(1, self.players), 0)            # Z2: clockwise
        fields = move_fields(S, TWIN)                       # move -> (kind, t, q, slot, bits)
        z3 = z4 = z9 = z11 = plies = 0
        onto = [0] * (SEATS + 1)                            # stats: zombies played onto q

        def reload() -> tuple:
            return (self.turn, self.phase, self.special_used, self.turns, self._acc,
                    self._iok, self._zok, self._live)

        p, phase, used, turns, acc, iok, zok, live = reload()
        base, i = rng.state, 0                              # rng's state = base + i * GAMMA
        tops = next_tops(base)                              # the next picks' top bits
        step: Callable[..., Any]                            # a rarer step: a method that may
        args: tuple                                         # draw and change any field
        try:
            while True:
                hand = hands[p]
                if phase:                                   # Z9: a zombie player's card
                    if hand:
                        t = hand[0]
                        moves = PLAYS[t][acc[t]] or (DISCARD << 16 | t << 8,)
                    else:
                        moves = (PASS << 16,)
                elif used:                                  # _generate's loop, Z11 used
                    normals = NORMALS[p]
                    moves = []
                    for t in set(hand):
                        moves += normals[t][acc[t]]
                    if not moves:                           # Z6
                        moves.append(self._z6_move())
                elif zok & bit[p] and not live & ~(iok | bit[p]):
                    mover = MOVER[p]                        # _generate's Z12-free loop
                    moves = []
                    specials = []
                    for t in set(hand):
                        normal, special = mover[t][acc[t]]
                        moves += normal
                        specials += special
                    if not moves:                           # Z6
                        specials.append(self._z6_move())
                    moves += specials
                else:                                       # Z12 binds: _generate's loop
                    mover = MOVER[p]
                    moves = []
                    specials = []
                    items = iok | bit[p]                    # special items: other tables
                    zombies = zok | ~bit[p]                 # special zombies: your own
                    for t in set(hand):
                        if t < S:
                            seats = acc[t] & (items | ~acc[t + S])
                        elif t < R:
                            seats = acc[t] & (zombies | ~acc[t - S])
                        else:
                            seats = acc[t] & zombies
                        normal, special = mover[t][seats]
                        moves += normal
                        specials += special
                    if not moves:                           # Z6
                        specials.append(self._z6_move())
                    moves += specials
                n = len(moves)
                if pick is not None:
                    m = moves[pick(n)]
                elif n > 1:                                 # Rng.randbelow(n): picks.fast_pick
                    k = tops[i] * n
                    if (k + n) & 0xFFFF > n:
                        i += 1
                        m = moves[k >> 16]
                    else:
                        rng.state = base = (base + i * GAMMA) & MASK64
                        if tops[i] < 0 and (
                                (k := (tops := next_tops(base))[0] * n) + n) & 0xFFFF > n:
                            i = 1                           # the block used up: the next
                            m = moves[k >> 16]              # block's first draw, as above
                        else:                               # the rare case: Rng's own
                            m = moves[rng.randbelow(n)]
                            base, i = rng.state, 0
                            tops = next_tops(base)
                else:                                       # randbelow(1) draws nothing
                    m = moves[0]
                plies += 1
                kind, t, q, slot, tbit, qbit, twinbit = fields[m]
                if kind > SPECIAL:                          # Z6, Z9 discard, pass: _apply
                    step, args = self._apply, (m,)
                else:
                    hand.remove(t)
                    if kind == PLAY:                        # Z3 (living) / Z9 (zombie player)
                        if phase:
                            z9 += 1
                        else:
                            z3 += 1
                        onto[slot] += 1                     # a zombie onto q, or SEATS
                    else:                                   # Z11: used up for the turn
                        self.special_used = used = True
                        z11 += 1
                    tab = tables[q]
                    if tab & twinbit:                       # Z4: the pair cancels
                        tab = tables[q] = tab ^ twinbit
                        twin = TWIN[t]
                        acc[twin] |= qbit                   # room for the twin (Z5)
                        if twin < S:                        # Z12: one item fewer on q's table
                            if PC[tab & IM] + 1 < win_items:
                                self._iok = iok = iok | qbit
                        elif PC[tab >> S] + 1 < lose_zombies:   # one zombie fewer
                            self._zok = zok = zok | qbit
                        self.discard += (t, twin)
                        z4 += 1
                    elif t < R:                             # the card stays: Z5, counts
                        tab = tables[q] = tab | tbit
                        acc[t] ^= qbit                      # Z5: q took t, so the bit was set
                        if t < S:
                            if PC[tab & IM] + 1 >= win_items:
                                self._item_threshold(q, tab)    # Z12, Z7
                                if self._outcome is not None:
                                    break
                                iok = self._iok
                        elif PC[tab >> S] + 1 >= lose_zombies:
                            self._zombie_threshold(q, tab)      # Z12, Z8 (Z10)
                            if self._outcome is not None:
                                break
                            acc, iok, zok, live = self._acc, self._iok, self._zok, self._live
                    else:                                   # the symbol-less zombie: _place
                        place(t, q)
                        if self._outcome is not None:
                            break
                        acc, iok, zok, live = self._acc, self._iok, self._zok, self._live
                    if kind == SPECIAL:                     # Z11: draw a card, go on
                        if deck:
                            hands[p].append(deck.pop())
                            continue
                        step, args = self._draw, (p, 1)     # Z13
                    elif turns < max_turns and (len(deck) > CIRCULATION or deck and
                                                len(deck) + len(self.discard) > CIRCULATION):
                        p = self.turn = following[p]        # _begin_turn(True), no guard due
                        self.turns = turns = turns + 1
                        self.special_used = self.z6_used = used = False
                        self.phase = phase = PH_LIVING if live & bit[p] else PH_ZOMBIE
                        hands[p].append(deck.pop())         # Z3 / Z9: draw a card
                        continue
                    else:                                   # a guard may be due, or Z13
                        step, args = self._begin_turn, (True,)
                rng.state = base = (base + i * GAMMA) & MASK64   # the picks drawn so far
                tops, i = tops[i:], 0
                step(*args)
                if rng.state != base:                       # rng is the game's own: it drew
                    base = rng.state
                    tops = next_tops(base)
                if self._outcome is not None:
                    break
                p, phase, used, turns, acc, iok, zok, live = reload()
        finally:
            if pick is None:
                rng.state = (base + i * GAMMA) & MASK64
            fired = self.rules_fired
            for rule, k in (("Z3", z3), ("Z4", z4), ("Z9", z9), ("Z11", z11)):
                if k:
                    fired[rule] += k
            counters = self.counters
            for q, k in enumerate(onto[:self.players]):
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
        self._fire_log = []                                 # no undo after a playout: drop the logs
        self._count_log = []
