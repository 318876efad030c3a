"""Zombie Run's compiled random playout (pnp/engines/zombie_run/_native.c, issue 13) against the
Python one, which is the definition of the rules: the same games, field by field.

Every game here is played twice from the same position and the same RNG state: by
``random_playout(rng, native=<the compiled module>)`` and by ``random_playout(rng,
native=None)`` (pure Python, ``_random_plies``); the return value, every field of the position
(with its type: ``repr``), both RNGs, the ply, ``rules_fired`` and ``counters`` (with their key
order), the outcome, ``stats()`` and ``check_invariants()`` must be the same. A spy in front of
the module records what ``random_plies`` returned, so a test also knows the C code played (an
int) or declined (None: the Python loop played), and asserts which.

The compiled module must be there: without it these tests fail, unless the machine has no C
compiler (then the engine plays in pure Python by design and they are skipped, saying so).
"""
from __future__ import annotations

import gc
import json
import resource
import shutil
import sysconfig
import tracemalloc
from collections import Counter
from functools import partial

import pytest
from test_movegen import random_zombie_run_position

from pnp.engines.core import MASK64, Rng, derive_seed
from pnp.engines.native import PURE_PYTHON
from pnp.engines.zombie_run import ZombieRun, ZRData, fast_shuffle, zr_data
from pnp.engines.zombie_run import playout as playout_module
from pnp.engines.zombie_run.playout import compiled_for


def _compiler() -> str | None:
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(cc) or shutil.which("gcc") or shutil.which("cc")


try:
    from pnp.engines.zombie_run import _native as NATIVE
except ImportError:                                     # pragma: no cover - a broken build
    NATIVE = None
    if _compiler() is None:
        pytest.skip("no C compiler on this machine: Zombie Run plays in pure Python",
                    allow_module_level=True)


def test_the_compiled_module_is_built():
    """With a C compiler the editable install builds it: a missing module is a failure."""
    assert NATIVE is not None, "pnp/engines/zombie_run/_native.c did not build (pip install -e .)"
    assert NATIVE.SET_ORDER_OK == 1


class Spy:
    """The compiled module, recording what each ``random_plies`` returned."""

    def __init__(self):
        self.results: list[int | None] = []

    def random_plies(self, game, rng):
        result = NATIVE.random_plies(game, rng)
        self.results.append(result)
        return result


FIELDS = ("deck", "discard", "hands", "tables", "alive", "living", "special_used", "z6_used",
          "phase", "turns", "_outcome", "turn", "players", "_acc", "_iok", "_zok", "_live",
          "_seen", "ply", "move_stack", "_undo", "_fire_log", "_count_log", "_legal_memo",
          "win_items", "lose_zombies", "max_turns", "rep_limit")


def snapshot(st: ZombieRun, rng: Rng) -> dict:
    """Everything a playout may change, as text (types and orders count)."""
    out = {name: repr(getattr(st, name)) for name in FIELDS}
    out["rules_fired"] = repr(list(st.rules_fired.items()))
    out["counters"] = repr(list(st.counters.items()))
    out["rng"] = st.rng.state
    out["pick rng"] = rng.state
    out["record"] = json.dumps(st.to_dict())
    out["stats"] = repr(st.stats())
    out["invariants"] = repr(st.check_invariants())
    out["outcome"] = repr(st.outcome())
    return out


def play_both(make, seed: int, own_rng: bool) -> ZombieRun:
    """Play ``make()`` to the end natively and in Python, from the same RNG state (the game's
    own RNG when ``own_rng``, else a separate one); assert the same result and state, and that
    the C code played it (a game over before it starts: it declines, Python plays nothing).
    Returns the natively played game."""
    played = []
    spy = Spy()
    over = None
    for native in (spy, None):
        st = make()
        over = st.outcome() is not None
        rng = st.rng if own_rng else Rng(seed ^ 0xC0FFEE)
        n = st.random_playout(rng, native=native)
        played.append((n, snapshot(st, rng), st))
    (n_c, snap_c, st_c), (n_py, snap_py, _) = played
    assert n_c == n_py, (seed, spy.results)
    for key in snap_py:
        assert snap_c[key] == snap_py[key], (key, seed)
    assert len(spy.results) == 1
    assert (spy.results[0] is None) == over, "the compiled playout declined a supported game"
    return st_c


def advance(st: ZombieRun, moves: int, seed: int) -> ZombieRun:
    """``st`` after up to ``moves`` random moves pushed (a mid-game position)."""
    r = Rng(seed)
    for _ in range(moves):
        if st.outcome() is not None:
            break
        ms = st.legal_moves()
        st.push(ms[r.randbelow(len(ms))])
    return st


# every option and variant of ZombieRun (game.py), all native, with rules their games fire
TYPICAL = ("Z3", "Z4", "Z7", "Z8", "Z9", "Z10", "Z11", "Z13", "Z14")
CASES = [
    ({}, None, TYPICAL),
    ({}, "roach-distinct", TYPICAL),
    ({}, "quick", TYPICAL),
    ({}, "even-seats", TYPICAL),
    ({"win_items": 3, "lose_zombies": 3}, None, ("Z3", "Z4", "Z7", "Z8", "Z10", "Z11")),
    ({"win_items": 1}, None, ("Z7",)),
    ({"lose_zombies": 1}, None, ("Z8", "Z9", "Z10")),
    ({"win_items": 9, "lose_zombies": 9}, "roach-distinct", ("Z4", "Z8", "Z10", "Z13", "Z14")),
    ({"hand": 9, "redraw": 1}, None, TYPICAL),
    ({"hand": 1, "redraw": 12}, None, TYPICAL),
    ({"max_turns": 9}, None, ("cap",)),
    ({"repetition": 2}, None, TYPICAL),
    ({"first": 2, "first_draw": False, "last_extra": 3}, None, TYPICAL),
]


@pytest.mark.parametrize("options,variants,rules", CASES)
def test_native_playout_is_the_python_playout(options, variants, rules):
    """60 games a case (780 in all), 3 to 7 players, the pick RNG separate or the game's own,
    from the start and from positions up to 13 moves in: the same games, played natively
    (and through the rules the case is about)."""
    fired: Counter = Counter()
    for i in range(60):
        seed = derive_seed(1313, i)
        make = partial(advance_made, players=3 + i % 5, seed=seed, variants=variants,
                       options=options or None, moves=(i * 5) % 14)
        st = play_both(make, seed, own_rng=i % 3 == 0)
        fired.update(st.rules_fired)
    for rule in rules:
        assert fired[rule] > 0, (rule, fired)


def advance_made(players, seed, variants, options, moves):
    return advance(ZombieRun.new(players=players, seed=seed, variants=variants, options=options),
                   moves, seed)


def test_native_playout_from_dealt_positions():
    """600 positions dealt at random (test_movegen's: zombie players, Z11 or Z6 already used,
    tables one card short of Z7 / Z8, few card types in a hand, any seat to move), where
    random games seldom go: no normal play (Z6: the hand discarded, then pass), every Z12
    threshold; some of them a few moves in."""
    fired: Counter = Counter()
    for i in range(600):
        variants = (None, "roach-distinct", "even-seats")[i % 3]
        make = partial(lambda i, variants: advance(random_zombie_run_position(i, variants),
                                                   i % 4, i), i, variants)
        st = play_both(make, i, own_rng=i % 4 == 1)
        fired.update(st.rules_fired)
    for rule in ("Z6", "pass", "Z9-discard", "Z10", "Z7", "Z13", "Z4", "Z14"):
        assert fired[rule] > 0, (rule, fired)


def primed(make, seed: int, own_rng: bool):
    """``make`` with ``_seen`` primed: every position the game's repetition guard records
    when played (in Python) seen ``repetition - 1`` times already, so the guard ends the game
    at the first of them (a loop is practically unreachable in play: docs/rules)."""
    probe = make()
    probe.random_playout(probe.rng if own_rng else Rng(seed ^ 0xC0FFEE), native=None)
    keys = list(probe._seen)

    def make_primed():
        st = make()
        st._seen = {key: st.rep_limit - 1 for key in keys}
        return st
    return make_primed


def test_native_playout_with_few_cards_in_circulation():
    """Most cards in the hands, so turns start with at most 6 cards in deck + discard: the
    repetition guard (its records in ``_seen``, its end, with ``_seen`` primed), Z13 with a
    short deck and nothing left to draw (Z13-empty), the turn cap."""
    d = zr_data()
    everything = [d.names[t] for t in range(d.NT) for _ in range(d.copies[t])]
    fired: Counter = Counter()
    for i in range(200):
        seed = derive_seed(31, i)
        cards = everything[:]
        Rng(seed).shuffle(cards)
        cut = 15 + i % 5

        def make(cards=cards, cut=cut, seed=seed, i=i):
            return ZombieRun.from_position(
                {"hands": [cards[:cut], cards[cut:2 * cut], cards[2 * cut:3 * cut]],
                 "deck": cards[3 * cut:]}, players=3, seed=seed,
                options={"repetition": 2 + i % 3, "max_turns": 12 + i % 60})
        if i % 3 == 0:
            make = primed(make, seed, i % 2 == 0)
        st = play_both(make, seed, own_rng=i % 2 == 0)
        fired.update(st.rules_fired)
    for rule in ("repetition", "Z13", "Z13-empty", "cap"):
        assert fired[rule] > 0, (rule, fired)


def test_native_playout_takes_randbelows_rare_rejection():
    """A pick RNG whose next output is 0 (splitmix64 maps 0 to 0) at a first list of n moves,
    n not a power of two: Lemire's method rejects it and draws again, in C as in Python."""
    zero = -0x9E3779B97F4A7C15 & MASK64
    seen = 0
    for i in range(40):
        seed = derive_seed(55, i)
        n = len(ZombieRun.new(players=3 + i % 5, seed=seed).legal_moves())
        if n & (n - 1) == 0:
            continue
        spy = Spy()
        a = ZombieRun.new(players=3 + i % 5, seed=seed)
        b = ZombieRun.new(players=3 + i % 5, seed=seed)
        ra, rb = Rng(0), Rng(0)
        ra.state = rb.state = zero
        assert a.random_playout(ra, native=spy) == b.random_playout(rb, native=None)
        assert spy.results[0] is not None
        assert snapshot(a, ra) == snapshot(b, rb)
        seen += 1
    assert seen > 20


def test_set_order_is_cpythons():
    """``_generate`` walks ``set(hand)``: the C code's order of CPython's set of small ints,
    against real sets (hands of 0 to 60 cards, 21 or 63 types: collisions, the table grown)."""
    r = Rng(4)
    for k in range(20000):
        cards = [r.randbelow(63 if k % 2 else 21) for _ in range(r.randbelow(61))]
        assert NATIVE._set_order(cards) == list(set(cards)), cards


def test_shuffle_is_fast_shuffle():
    """Z13's reshuffle in C (BLAKE2b keys, the stable sort) against deck.fast_shuffle: the same
    order and RNG state for every deck size up to the arrays' 256 cards."""
    for n in range(0, 257):
        for seed in range(6):
            cards = [(7 * i + n + seed) % 21 for i in range(n)]
            rng = Rng(seed * 1000 + n)
            state, shuffled = NATIVE._shuffle(rng.state, cards)
            fast_shuffle(rng, cards)
            assert (state, shuffled) == (rng.state, cards), (n, seed)
    with pytest.raises(ValueError):
        NATIVE._shuffle(0, [0] * 257)


# ----------------------------------------------------------------------- falling back
def fallback_game(st: ZombieRun, rng: Rng | None = None) -> None:
    """``st`` played with the compiled module offered: it declines (None) and the Python loop
    plays the game, as random_playout(native=None) on a copy does."""
    twin = st.copy()
    twin.rng.state = st.rng.state
    spy = Spy()
    ra = rng or Rng(17)
    rb = Rng(ra.state)
    rb.state = ra.state
    n = st.random_playout(ra, native=spy)
    assert spy.results == [None]
    assert n == twin.random_playout(rb, native=None) and n > 0
    assert json.dumps(st.to_dict()) == json.dumps(twin.to_dict())
    assert ra.state == rb.state


def big_deck_game() -> ZombieRun:
    """A designer's deck of 303 cards: more than the C arrays' 256 (each pile fits, 30 cards
    in each hand and 183 in the deck, but together they may not)."""
    class BigDeck(ZombieRun):
        def _init_common(self):
            super()._init_common()
            d = self.data = ZRData([f"s{i}" for i in range(15)], [10] * 15, [10] * 15, 3,
                                   "big deck (test)")
            self._init_rules(d, 1)

        def _setup(self):
            super()._setup()
            self.deck = self.data.deck_template[:]
            fast_shuffle(self.rng, self.deck)
            self.hands = [[self.deck.pop() for _ in range(30)] for _ in range(self.players)]
            self._empty_masks(self.players)
    return BigDeck(players=4, seed=3)


def test_unsupported_positions_fall_back_to_python():
    """What the C code does not support is played in Python, never guessed: a deck larger than
    its arrays, masks out of step with the tables, fields of other types, an RNG or a game
    class of other rules; and a finished game plays nothing."""
    fallback_game(big_deck_game())

    st = ZombieRun.new(players=4, seed=5)
    st._iok ^= 1                                        # masks out of step (check_invariants)
    spy = Spy()
    st.random_playout(Rng(1), native=spy)
    assert spy.results == [None]

    st = ZombieRun.new(players=4, seed=6)
    st.special_used = 0                                 # an int, not a bool
    spy = Spy()
    st.random_playout(Rng(1), native=spy)
    assert spy.results == [None] and st.outcome() is not None

    st = ZombieRun.new(players=3, seed=7)
    st.deck = tuple(st.deck)                            # not a list
    assert NATIVE.random_plies(st, Rng(1)) is None

    st = ZombieRun.new(players=3, seed=8)
    st.random_playout(Rng(2))
    assert NATIVE.random_plies(st, Rng(2)) is None      # over
    assert st.random_playout(Rng(2)) == 0


def test_turn_cap_at_int64_limit():
    """A turn cap of 2**63 - 1 with the turn count just below it: Python ends the game at the
    cap (turn 2**63); the C code, counting turns in a long long, must not overflow past it
    (review r1: it wrapped to -2**63 and played on). It declines such a cap."""
    def make():
        st = ZombieRun.new(players=3, seed=4, options={"max_turns": (1 << 63) - 1})
        st.turns = (1 << 63) - 2
        return st

    spy = Spy()
    a, b = make(), make()
    assert a.random_playout(Rng(1), native=spy) == b.random_playout(Rng(1), native=None)
    assert snapshot(a, Rng(0)) == snapshot(b, Rng(0))
    assert a.turns == 1 << 63 and a.outcome().rule == "cap"
    st = make()
    st.options["max_turns"] = st.max_turns = (1 << 63) - 2     # one below: C plays it
    assert NATIVE.random_plies(st, Rng(1)) is not None
    assert st.turns == (1 << 63) - 1 and st.outcome().rule == "cap"


def test_compiled_for_declines_other_rules_and_rngs(monkeypatch):
    """``random_playout``'s default asks ``compiled_for``: None for a subclass that changes a
    rule the C code plays, an RNG that is not exactly ``Rng``, or PNP_PURE_PYTHON set."""
    class OtherRules(ZombieRun):
        def _place(self, t, q):
            super()._place(t, q)

    class OtherRng(Rng):
        pass

    st = ZombieRun.new(players=3, seed=1)
    assert compiled_for(st, Rng(1)) is NATIVE
    assert compiled_for(OtherRules(players=3, seed=1), Rng(1)) is None
    assert compiled_for(st, OtherRng(1)) is None
    monkeypatch.setenv(PURE_PYTHON, "1")
    assert compiled_for(st, Rng(1)) is None


def test_default_random_playout_is_native(monkeypatch):
    """By default random_playout plays natively, and with PNP_PURE_PYTHON in Python: the same."""
    calls = []
    real = NATIVE.random_plies

    class Watch:
        def random_plies(self, game, rng):
            calls.append(1)
            return real(game, rng)
    monkeypatch.setattr(playout_module, "native", lambda name: Watch())
    a, b = ZombieRun.new(players=5, seed=9), ZombieRun.new(players=5, seed=9)
    na = a.random_playout(Rng(3))
    assert calls == [1]
    monkeypatch.setattr(playout_module, "native", lambda name: None)
    assert b.random_playout(Rng(3)) == na and a.to_dict() == b.to_dict()


# ----------------------------------------------------------------------- callers
def test_simulate_reports_the_same_bytes_with_and_without_native(monkeypatch):
    """What plays Zombie Run games (``pnp simulate`` with the random bot and the search bots,
    whose rollouts are ``search_playout``) reports the same bytes with and without the
    compiled playout."""
    from click.testing import CliRunner

    from pnp.cli import main

    runs = (["simulate", "zombie-run", "--games", "50", "--seed", "3", "--json"],
            ["simulate", "zombie-run", "--games", "4", "--seed", "3", "--players", "4",
             "--bot", "ismcts", "--budget", "20", "--json"])
    for args in runs:
        outputs = []
        for pure in (False, True):
            if pure:
                monkeypatch.setenv(PURE_PYTHON, "1")
            else:
                monkeypatch.delenv(PURE_PYTHON, raising=False)
            result = CliRunner().invoke(main, args)
            assert result.exit_code == 0, result.output
            outputs.append(result.stdout)
        assert outputs[0] == outputs[1]


def test_benchmark_games_are_the_same_with_and_without_native(monkeypatch):
    """The benchmark's loop (benchmarks/bench_engines.py ``random_play``: ``new`` then
    ``random_playout``) plays the same games either way (its actions counted both ways)."""
    def games(pure: bool):
        if pure:
            monkeypatch.setenv(PURE_PYTHON, "1")
        else:
            monkeypatch.delenv(PURE_PYTHON, raising=False)
        out = []
        for i in range(100):
            seed = derive_seed(12345, i)
            st = ZombieRun.new(players=(3, 4, 5, 6, 7)[i % 5], seed=seed)
            out.append((st.random_playout(Rng(seed)), json.dumps(st.to_dict())))
        return out
    assert games(False) == games(True)


# ----------------------------------------------------------------------- no leaks
def _playouts(count: int, first: int = 0) -> None:
    for i in range(first, first + count):
        seed = derive_seed(777, i)
        st = ZombieRun.new(players=3 + i % 5, seed=seed,
                           options={"repetition": 2} if i % 7 == 0 else None)
        NATIVE.random_plies(st, Rng(seed) if i % 2 else st.rng)


def test_native_playouts_do_not_leak():
    """20,000 native playouts: the peak RSS stays flat, and (tracemalloc, exact) the memory
    Python's allocators hold does not grow over 2,000 more."""
    _playouts(2000)
    gc.collect()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss       # KiB on Linux
    _playouts(20000, 2000)
    gc.collect()
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak < 4096
    tracemalloc.start()
    try:
        _playouts(200, 30000)
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        _playouts(2000, 40000)
        gc.collect()
        assert tracemalloc.get_traced_memory()[0] - before < 20_000
    finally:
        tracemalloc.stop()
