"""Cimiterio's fast paths (issue 13) against the loop they stand for: ``random_playout`` (no
undo records) against the core's ``legal_moves()`` + ``push`` loop, on every variant, every map
of the pack and every player count; the tables made once per option set."""
from __future__ import annotations

import pytest
from test_cimiterio_engine import _edit, _pack_copy

from pnp.engines.cimiterio import Cimiterio
from pnp.engines.cimiterio.pack_data import map_ids
from pnp.engines.core import GameState, RecordError, Rng, derive_seed
from pnp.engines.picks import BLOCK, GAMMA, MASK64

CONFIGS = ([(None, {})] + [(v, {}) for v in Cimiterio.variants]
           + [(None, {"map": m}) for m in map_ids()]
           + [("personal", {"personal_owner": 1}), ("restless", {"cap": 20})])


CAP = 1500   # plies: on some maps (classic, tomb-rows) random play can wander for very long


def push_loop(st: Cimiterio, rng: Rng, cap: int = CAP) -> int | None:
    """The core's ``GameState.random_playout`` loop (``legal_moves()``, ``Rng.randbelow``,
    ``push``), given up after ``cap`` plies (None)."""
    n = 0
    while st.outcome() is None:
        if n == cap:
            return None
        moves = st.legal_moves()
        st.push(moves[rng.randbelow(len(moves))])
        n += 1
    return n


def _pair(i: int, variants, options) -> tuple[Cimiterio, Cimiterio, int]:
    """Two equal games; every third one from a position a few random moves in."""
    seed = derive_seed(4242, i)
    players = 1 + i % 4
    fast = Cimiterio.new(players=players, seed=seed, variants=variants, options=options)
    slow = Cimiterio.new(players=players, seed=seed, variants=variants, options=options)
    if i % 3 == 0:
        for st in (fast, slow):
            push_loop(st, Rng(i), 1 + i % 7)
    return fast, slow, seed


@pytest.mark.parametrize("variants,options", CONFIGS,
                         ids=[f"{v}-{'-'.join(map(str, o.values()))}" for v, o in CONFIGS])
def test_random_playout_is_the_push_loop(variants, options):
    """Cimiterio.random_playout plays the moves of the core's loop (legal_moves() every ply,
    Rng.randbelow, push) and reaches the very same state: position, RNG, ply, fired rules (in
    the same order) and stats; its undo history is empty afterwards."""
    compared = 0
    for i in range(24):
        fast, slow, seed = _pair(i, variants, options)
        n_slow = push_loop(slow, Rng(seed))
        if n_slow is None:
            continue
        n_fast = fast.random_playout(Rng(seed))
        assert n_fast == n_slow > 0
        assert fast.to_dict() == slow.to_dict(), (variants, options, seed)
        assert list(fast.rules_fired.items()) == list(slow.rules_fired.items())
        assert fast.stats() == slow.stats()
        assert fast.outcome() == slow.outcome() is not None
        assert "fire" not in vars(fast)             # the engine's fire() is back
        with pytest.raises(IndexError):
            fast.pop()
        assert fast.legal_moves() == []
        compared += 1
    assert compared >= 8, compared


def _rng_at(state: int) -> Rng:
    r = Rng(0)
    r.state = state
    return r


def same_games(cls, key: int, games: int, pick_rng):
    """``games`` games of ``cls`` (1-4 players, seeds derived from ``key``) played by the push
    loop and by ``random_playout``, each picking with the Rng ``pick_rng(game)`` gives: asserts
    the same plies, position and final state of that Rng; yields each finished push-loop game
    and its Rng."""
    for i in range(games):
        seed = derive_seed(key, i)
        fast = cls.new(players=1 + i % 4, seed=seed)
        slow = cls.new(players=1 + i % 4, seed=seed)
        ra, rb = pick_rng(fast), pick_rng(slow)
        n_slow = push_loop(slow, rb)
        if n_slow is None:
            continue
        assert fast.random_playout(ra) == n_slow
        assert fast.to_dict() == slow.to_dict(), (key, seed)
        assert ra.state == rb.state, (key, seed)
        yield slow, rb


@pytest.mark.parametrize("at", [0, 1, 5, BLOCK - 1, BLOCK, BLOCK + 3, 2 * BLOCK + 7])
def test_random_playout_takes_randbelows_undecided_picks(at):
    """The picks come from a block of the next draws' top bits (pnp.engines.picks); a draw those
    bits do not decide goes to ``Rng.randbelow`` itself. Here the ``at``-th draw of the pick
    generator is 0 (splitmix64 maps 0 to 0): its top bits decide nothing, and Lemire's method
    rejects it for a list whose length is not a power of two and draws again. The playout
    still plays the core's moves to the same state, on 1 to 4 players, and leaves the pick
    generator where the core's loop leaves it (so a draw too many or too few anywhere fails)."""
    start = (-GAMMA - at * GAMMA) & MASK64          # the state ``at`` draws before the output 0
    draws = [(rng.state - start) * pow(GAMMA, -1, 1 << 64) % (1 << 64)
             for _, rng in same_games(Cimiterio, 77, 12, lambda st: _rng_at(start))]
    assert sum(d > at + 1 for d in draws) >= 6, draws   # the zero draw was made, and more


class OneChoice(Cimiterio):
    """Cimiterio whose pending choices (C8's and the event cards') offer their first move
    only: lists of one move, which the pack's games never make but ``randbelow(1)`` (no draw)
    must still be followed on."""

    singles = 0                                     # the lists of one move made so far

    def legal_moves(self):
        moves = super().legal_moves()
        if self.pending is None or len(moves) == 1:
            return moves
        OneChoice.singles += 1
        return moves[:1]


def test_random_playout_draws_nothing_for_a_single_move():
    OneChoice.singles = 0
    assert len(list(same_games(OneChoice, 31, 12, lambda st: Rng(st.seed)))) >= 8
    assert OneChoice.singles >= 20, OneChoice.singles


def test_random_playout_with_the_games_own_rng():
    """Played with the game's own Rng (the one C15's rebuilt deck and C20's reshuffles draw
    from), the picks and the rules' draws come in the push loop's order."""
    games = list(same_games(Cimiterio, 99, 16, lambda st: st.rng))
    assert sum("C20" in st.rules_fired for st, _ in games) >= 3


def test_the_core_loop_is_the_playout_definition():
    """push_loop above is the core's random_playout (so the test compares with the definition)."""
    a, b = Cimiterio.new(players=3, seed=11), Cimiterio.new(players=3, seed=11)
    assert push_loop(a, Rng(5)) == GameState.random_playout(b, Rng(5))
    assert a.to_dict() == b.to_dict() and a.move_stack == b.move_stack


def test_rule_tables_are_made_once_per_option_set_and_errors_every_time(tmp_path):
    """The played event cards and the zombies' points are shared by every game with the same
    pack, map and readings (not rebuilt at each set-up); a bad event card is refused by every
    new game, not only the first (errors are not cached)."""
    a, b = Cimiterio.new(players=2, seed=1), Cimiterio.new(players=3, seed=2)
    assert a.ev is b.ev and a.values is b.values and a.B is b.B
    assert Cimiterio.new(players=2, seed=1, variants="manhattan").B is not a.B
    root = _pack_copy(tmp_path)
    _edit(root / "cards" / "events.yaml", "kind: noise, avenue: crows}", "kind: noise, avenue: ravens}")
    for _ in range(2):
        with pytest.raises(RecordError, match="unknown avenue 'ravens'"):
            Cimiterio.new(players=2, seed=0, options={"pack": str(root)})


def test_action_tables_are_made_for_every_pair_at_once_and_list_the_rules_moves():
    """The first legal_moves() on a board makes the action table of every pair of stops; each
    lists G1 alone, G2 alone, both (C6), the five noises (C7) and the pass (C5), in that order,
    its set is the same moves (the legality check), and move by move the stops after it (what
    random_playout plays a Move by; None for the noises and the pass)."""
    st = Cimiterio.new(players=2, seed=3, variants="across-first")   # a board of its own
    B = st.B
    B.move_cache.clear()
    st.legal_moves()
    R = len(B.ring)
    assert len(B.move_cache) == R * R
    for g1, g2 in [(0, 0), (0, R - 1), (R // 2, 3), (R - 1, R - 1)]:
        moves, legal, after = B.move_cache[(g1, g2)]
        want = ([("move", g1, t, -1, -1) for t in B.reach[g1]]
                + [("move", -1, -1, g2, t) for t in B.reach[g2]]
                + [("move", g1, a, g2, b) for a in B.reach[g1] for b in B.reach[g2]]
                + [("noise", m) for m in ("1", "2", "1+2", "1,2", "2,1")] + [("pass",)])
        assert list(moves) == want and legal == frozenset(want)
        assert list(after) == [(g1 if m[2] < 0 else m[2], g2 if m[4] < 0 else m[4])
                               if m[0] == "move" else None for m in want]
        assert len(moves) == len(B.reach[g1]) + len(B.reach[g2]) * (1 + len(B.reach[g1])) + 6
    st.guards = (0, 5)
    assert st.legal_moves() == list(B.move_cache[(0, 5)][0])


class StepByStep(Cimiterio):
    """Cimiterio with every walk made step by step (``_walk_steps``, the definition) and every
    wave by the one generic loop: no walk tables (Board.gate_walk, Board.pull_walk), no
    gate-wave loop; C19's chosen group taken out of the wave and moved by ``_move_entry``."""

    def _walk(self, stack, cell, stop, steps):
        w = self.wave
        capture = stop >= 0 or (self._bell_captures and w is not None and w[0] == "C19")
        self._walk_steps(stack, cell, stop, steps, capture)

    def _play_gate_wave(self, rule, first=-1):
        assert first >= 0 and self.wave is not None     # only the C19 choice comes here
        entries = self.wave[1]
        self.wave = (rule, tuple([e for e in entries if e[0] != first]))
        self._move_entry((first, -1, 0))
        return True

    def _play_wave(self):
        gd = self.B.gate_dist_at
        while self.result is None:
            if self.wave is None:
                return True
            rule, entries = self.wave
            if not entries:
                self.wave = None
                return True
            e = entries[0]
            c, g, part = e
            if g < 0:
                if len(entries) > 1 and gd[entries[1][0]] == gd[c] and self._order_choice:
                    self.pending = ("order", tuple([x[0] for x in entries if gd[x[0]] == gd[c]]))
                    return False
            elif (self._personal >= 0 and part == 0 and self.turn == self._personal_owner
                  and self._personal in self.stacks.get(c, ())):
                self.pending = ("personal", e)
                return False
            self.wave = (rule, entries[1:])
            self._move_entry(e)
        return True


@pytest.mark.parametrize("variants,options", CONFIGS,
                         ids=[f"{v}-{'-'.join(map(str, o.values()))}" for v, o in CONFIGS])
def test_walk_tables_and_gate_waves_are_the_step_by_step_walk(variants, options):
    """The walks read from the board's tables and the waves toward the gate played in their own
    loop reach the states the step-by-step walk and the generic wave loop reach: the same games
    move for move (the push loop on both, so every move is compared), fired rules and stats."""
    compared = 0
    for i in range(16):
        seed = derive_seed(99, i)
        players = 1 + i % 4
        fast = Cimiterio.new(players=players, seed=seed, variants=variants, options=options)
        slow = StepByStep.new(players=players, seed=seed, variants=variants, options=options)
        assert fast.to_dict() == slow.to_dict()
        if push_loop(slow, Rng(seed)) is None:
            continue
        assert push_loop(fast, Rng(seed)) is not None
        assert fast.move_stack == slow.move_stack, (variants, options, seed)
        assert fast.to_dict() == slow.to_dict()
        assert list(fast.rules_fired.items()) == list(slow.rules_fired.items())
        assert fast.stats() == slow.stats()
        compared += 1
    assert compared >= 6, compared
