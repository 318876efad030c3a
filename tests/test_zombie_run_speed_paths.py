"""Zombie Run's fast paths (issue 13) against the slow ones they replace: the generator's
Z12-free loop against the per-seat reference listing, ``random_playout`` against the core's
``legal_moves()`` + ``push`` loop, and ``fast_shuffle``'s permutation against its first
formulation."""
from __future__ import annotations

from hashlib import blake2b
from struct import unpack

import pytest
from movegen_reference import REFERENCE
from test_movegen import random_zombie_run_position

from pnp.engines.core import GameState, Rng, derive_seed
from pnp.engines.zombie_run import ZombieRun, fast_shuffle
from pnp.engines.zombie_run.rules import PH_LIVING


def z12_binds(st: ZombieRun) -> bool:
    """Does Z12 restrict some special of the mover (the generator's general loop), or not (its
    Z12-free loop)? Only asked for a living mover with the special still unused."""
    own = 1 << st.turn
    others = st._live & ~own
    return not (st._zok & own) or bool(others & ~st._iok)


def generator_positions(variants):
    """Living movers with the special unused: dealt at random, and met in seeded random games."""
    for seed in range(1500):
        yield random_zombie_run_position(seed, variants)
    for i in range(60):
        seed = derive_seed(77, i)
        st = ZombieRun.new(players=3 + i % 5, seed=seed, variants=variants)
        rng = Rng(seed)
        while st.outcome() is None:
            yield st
            ms = st.legal_moves()
            st.push(ms[rng.randbelow(len(ms))])


@pytest.mark.parametrize("variants", [None, "roach-distinct"])
def test_both_living_loops_of_the_generator_equal_the_reference(variants):
    """Both loops of a living mover's generator (Z12 free, Z12 binding) list exactly the
    reference's moves in the reference's order, each on hundreds of positions."""
    reference = REFERENCE["zombie-run"]
    seen = {True: 0, False: 0}
    for st in generator_positions(variants):
        if st.phase != PH_LIVING or st.special_used:
            continue
        assert st.legal_moves() == reference(st), st.describe()
        seen[z12_binds(st)] += 1
    assert seen[False] > 500 and seen[True] > 300, seen


@pytest.mark.parametrize("variants", [None, "roach-distinct", "quick", "even-seats"])
def test_random_playout_is_the_push_loop(variants):
    """ZombieRun.random_playout (no undo records) plays the moves of the core's loop
    (legal_moves() every ply, Rng.randbelow, push) and reaches the very same state: position,
    RNG, ply, fired rules and counters; its undo history is empty afterwards."""
    for i in range(120):
        seed = derive_seed(4242, i)
        players = 3 + i % 5
        fast = ZombieRun.new(players=players, seed=seed, variants=variants)
        slow = ZombieRun.new(players=players, seed=seed, variants=variants)
        if i % 3 == 0:                                  # from a position some moves in
            r = Rng(i)
            for _ in range(1 + i % 7):
                if fast.outcome() is not None:
                    break
                for st in (fast, slow):
                    ms = st.legal_moves()
                    st.push(ms[Rng(r.state).randbelow(len(ms))])
                r.next64()
        n_fast = fast.random_playout(Rng(seed))
        n_slow = GameState.random_playout(slow, Rng(seed))
        assert n_fast == n_slow > 0
        assert fast.to_dict() == slow.to_dict(), (variants, seed)
        assert fast.stats() == slow.stats()
        assert fast.outcome() == slow.outcome() is not None
        with pytest.raises(IndexError):
            fast.pop()
        assert fast.legal_moves() == []


def _first_fast_shuffle(rng: Rng, items: list) -> None:
    """fast_shuffle as first written (a comprehension applies the permutation)."""
    n = len(items)
    if n < 2:
        return
    seed = rng.next64().to_bytes(8, "little")
    need = 4 * n
    buf = b"".join(blake2b(seed + i.to_bytes(2, "little"), digest_size=64).digest()
                   for i in range((need + 63) // 64))
    keys = unpack(f"<{n}I", buf[:need])
    items[:] = [items[i] for i in sorted(range(n), key=keys.__getitem__)]


def test_fast_shuffle_permutes_as_first_written():
    """Same order and same RNG state for every deck size a game meets (and more)."""
    for n in range(0, 140):
        for seed in range(12):
            items = [(7 * i + n) % 21 for i in range(n)]
            a, b = items[:], items[:]
            ra, rb = Rng(seed * 1000 + n), Rng(seed * 1000 + n)
            fast_shuffle(ra, a)
            _first_fast_shuffle(rb, b)
            assert a == b and ra.state == rb.state, (n, seed)
