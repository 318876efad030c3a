"""Zombie Run's fast paths (issue 13) against the slow ones they replace: the generator's
Z12-free loop against the per-seat reference listing, ``random_playout`` against the core's
``legal_moves()`` + ``push`` loop, and ``fast_shuffle``'s permutation against its first
formulation."""
from __future__ import annotations

from collections import Counter
from functools import partial
from hashlib import blake2b
from struct import pack, unpack

import pytest
from conftest import advance_twins, assert_playout_is_the_push_loop
from movegen_reference import REFERENCE
from test_movegen import random_zombie_run_position

from pnp.engines.core import MASK64, GameState, Rng, derive_seed
from pnp.engines.picks import BLOCK, fast_pick, next_tops
from pnp.engines.zombie_run import ZombieRun, fast_shuffle, zr_data
from pnp.engines.zombie_run.deck import key_order
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
            advance_twins((fast, slow), i)
        assert_playout_is_the_push_loop(fast, slow, seed)


GAMMA = 0x9E3779B97F4A7C15          # splitmix64's step


def test_random_playout_takes_randbelows_rare_rejection():
    """random_playout's loop writes ``Rng.randbelow`` out, its rare rejection included: a pick
    generator whose next output is 0 (splitmix64 maps 0 to 0) at a first list of n moves, n not
    a power of two, is rejected by Lemire's method and draws again; the loop still plays the
    core's moves to the same state and leaves the pick generator where the core's loop does."""
    zero = -GAMMA & MASK64              # the state before the output 0
    seen = 0
    for i in range(40):
        seed = derive_seed(55, i)
        fast = ZombieRun.new(players=3 + i % 5, seed=seed)
        slow = ZombieRun.new(players=3 + i % 5, seed=seed)
        n = len(fast.legal_moves())
        if n & (n - 1) == 0:            # a power of two (or 1) rejects nothing
            continue
        check = Rng(0)
        check.state = zero
        check.randbelow(n)
        assert check.state != (zero + GAMMA) & MASK64, n       # more than one draw
        ra, rb = Rng(0), Rng(0)
        ra.state = rb.state = zero
        assert fast.random_playout(ra) == GameState.random_playout(slow, rb)
        assert fast.to_dict() == slow.to_dict(), seed
        assert ra.state == rb.state
        seen += 1
    assert seen > 20, seen


def test_next_tops_are_the_draws_top_bits():
    """``next_tops``: the top 16 bits of the next draws of an ``Rng`` at that state, in order
    (blocks of every size a playout uses and others), then the sentinel -1."""
    r = Rng(2024)
    for k in (1, 2, 7, BLOCK, 40):
        for _ in range(30):
            r.state = r.next64()                    # states spread over all 64 bits
            check = Rng(0)
            check.state = r.state
            assert next_tops(r.state, k) == (*(check.next64() >> 48 for _ in range(k)), -1)
    assert len(next_tops(0)) == BLOCK + 1


def test_fast_pick_is_randbelow_or_declines():
    """``fast_pick(top, n)`` (written out in the playout loop) is Lemire's index of the draw
    ``z`` whose top 16 bits are ``top`` and draws once, or -1; it declines exactly where the
    low bits could carry into the index or Lemire's method could reject, and on the sentinel.
    Random draws and draws made to sit on those edges, lists of 2 to 150 moves."""
    r = Rng(99)
    taken = declined = 0
    for n in range(2, 151):
        # tops whose product with n ends on the edges: 0, n, -n, -2n and (n odd) -1, 1 - n
        edge = [0, 1, 2, 0xFFFF, 0xFFFE]
        if n % 2:
            edge += [-d * pow(n, -1, 0x10000) & 0xFFFF for d in (1, n - 1)]
        for j in range(300):
            z = r.next64()
            if j % 2:                               # an edge top, the low 48 bits near all ones
                z = edge[j % len(edge)] << 48 | (z | 0xFFFFFF << 24) & (1 << 48) - 1
            k = z * n
            exact = k >> 64 if k & MASK64 >= n else None            # None: Rng draws again
            got = fast_pick(z >> 48, n)
            if got == -1:
                declined += 1
            else:
                assert got == exact, (n, z)
                taken += 1
            low = (z >> 48) * n & 0xFFFF
            assert (got == -1) == (low == 0 or low > 0x10000 - n - 1), (n, z)
        assert fast_pick(-1, n) == -1
    assert taken > 30000 and declined > 8000, (taken, declined)


def test_random_playout_with_the_games_own_rng():
    """The playout loop's picks and the game's own draws (deal, Z13 reshuffles) from one and
    the same ``Rng``: the block of picks is drawn again whenever a rule drew, so the games
    are the core loop's."""
    for i in range(60):
        seed = derive_seed(808, i)
        fast = ZombieRun.new(players=3 + i % 5, seed=seed)
        slow = ZombieRun.new(players=3 + i % 5, seed=seed)
        assert fast.random_playout(fast.rng) == GameState.random_playout(slow, slow.rng)
        assert fast.to_dict() == slow.to_dict(), seed
        assert fast.rng.state == slow.rng.state
        assert fast.rules_fired == slow.rules_fired


class RecordingPick:
    """``Rng.randbelow`` that also records each (list length, index picked)."""

    def __init__(self, seed: int):
        self.rng = Rng(seed)
        self.picks: list[tuple[int, int]] = []

    def __call__(self, n: int) -> int:
        k = self.rng.randbelow(n)
        self.picks.append((n, k))
        return k


def push_loop_picks(st: ZombieRun, seed: int) -> tuple[list[tuple[int, int]], list[int]]:
    """The core's loop (``legal_moves()``, ``randbelow``, ``push``): its (length, index) per
    ply and the moves it played."""
    rng = Rng(seed)
    picks, moves = [], []
    while st.outcome() is None:
        ms = st.legal_moves()
        k = rng.randbelow(len(ms))
        picks.append((len(ms), k))
        moves.append(ms[k])
        st.push(ms[k])
    return picks, moves


def kernel_agrees(make, seed: int, some_moves: int) -> ZombieRun:
    """After ``some_moves`` random first moves from the position ``make()``, ``_random_plies``
    (random_playout's loop) against the core's push loop from the same position: the same list
    length and pick at every ply, the same number of plies and the same final state. Returns
    the played state."""
    fast, slow = make(), make()
    r = Rng(seed ^ 0x5A5A)
    for _ in range(some_moves):
        if fast.outcome() is not None:
            break
        ms = fast.legal_moves()
        m = ms[r.randbelow(len(ms))]
        fast.push(m)
        slow.push(m)
    fast._undo.clear()
    fast.move_stack.clear()
    pick = RecordingPick(seed)
    plies = fast._random_plies(Rng(0), pick)     # pick instead of the written-out randbelow
    fast.ply += plies
    slow_picks, slow_moves = push_loop_picks(slow, seed)
    for st in (fast, slow):                 # what only pop reads
        st._undo.clear()
        st.move_stack.clear()
        st._fire_log, st._count_log = [], []
    assert pick.picks == slow_picks, (seed, some_moves)
    assert plies == len(slow_moves)
    assert fast.to_dict() == slow.to_dict(), (seed, some_moves)
    assert fast.check_invariants() == []
    return fast


@pytest.mark.parametrize("variants", [None, "roach-distinct", "even-seats",
                                      "win_items=3 lose_zombies=3", "max_turns=9"])
def test_playout_loop_picks_what_the_push_loop_picks(variants):
    """``_random_plies`` (random_playout's loop, its moves applied in line) against the core's
    push loop on 300 seeds a variant, 3-7 players, from the start and from positions up to 12
    moves in: at every ply a list of the same length and the same pick (the same move, the
    lists being the generator's, tests/test_movegen.py), and the same final state. The games
    go through every branch of the loop (checked: the rules they fired)."""
    fired: Counter = Counter()
    plies = 0
    for i in range(300):
        seed = derive_seed(9001, i)
        make = partial(ZombieRun.new, players=3 + i % 5, seed=seed, variants=variants)
        st = kernel_agrees(make, seed, (i * 7) % 13)
        fired.update(st.rules_fired)
        plies += st.ply
    assert plies > 2500
    rules = ("cap",) if variants == "max_turns=9" else ("Z3", "Z4", "Z7", "Z8", "Z9", "Z10",
                                                         "Z11", "Z13", "Z14")
    for rule in rules:
        assert fired[rule] > 0, (rule, fired)


def test_playout_loop_with_few_cards_in_circulation():
    """The same with most cards in the hands (dealt at random), so that turns start with at
    most 6 cards in deck + discard: the repetition guard's records (``_begin_turn``), Z13 with
    a short deck and nothing left to draw."""
    d = zr_data()
    everything = [d.names[t] for t in range(d.NT) for _ in range(d.copies[t])]
    fired: Counter = Counter()
    seen = 0
    for i in range(150):
        seed = derive_seed(31, i)
        cards = everything[:]
        Rng(seed).shuffle(cards)
        cut = 16 + i % 4

        def make(cards=cards, cut=cut, seed=seed):
            return ZombieRun.from_position(
                {"hands": [cards[:cut], cards[cut:2 * cut], cards[2 * cut:3 * cut]],
                 "deck": cards[3 * cut:]}, players=3, seed=seed, options={"repetition": 2})
        st = kernel_agrees(make, seed, i % 3)
        fired.update(st.rules_fired)
        seen += bool(st._seen)
    assert seen > 100 and fired["Z13"] > 0 and fired["Z13-empty"] > 0, (seen, fired)


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


def test_key_order_is_the_stable_sort_by_key():
    """fast_shuffle's argsort through exact doubles (below 256 cards) and its plain sort above:
    the stable order by 32-bit key, ties (forced here: they are rare in a real shuffle) by
    index, extreme keys included."""
    r = Rng(7)
    for n in [*range(0, 70), 254, 255, 256, 300]:
        for _ in range(8):
            keys = [(r.next64() & 0xFFFFFFFF, r.randbelow(3), 0, 0xFFFFFFFF, 0x80000000)[r.randbelow(5)]
                    for _ in range(n)]
            buf = pack(f"<{n}I", *keys) + b"tail"
            assert list(key_order(buf, n)) == sorted(range(n), key=keys.__getitem__), n
