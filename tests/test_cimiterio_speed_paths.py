"""Cimiterio's fast paths (issue 13) against the loop they stand for: ``random_playout`` (no
undo records) against the core's ``legal_moves()`` + ``push`` loop, on every variant, every map
of the pack and every player count."""
from __future__ import annotations

import pytest

from pnp.engines.cimiterio import Cimiterio
from pnp.engines.cimiterio.pack_data import map_ids
from pnp.engines.core import GameState, Rng, derive_seed

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


def test_the_core_loop_is_the_playout_definition():
    """push_loop above is the core's random_playout (so the test compares with the definition)."""
    a, b = Cimiterio.new(players=3, seed=11), Cimiterio.new(players=3, seed=11)
    assert push_loop(a, Rng(5)) == GameState.random_playout(b, Rng(5))
    assert a.to_dict() == b.to_dict() and a.move_stack == b.move_stack
