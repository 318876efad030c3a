"""Zombies vs Vampires' compiled random playout (``_native.c``) against the Python engine, which is
the definition: for the same position and RNG both must play the same game, to the last field
(the plies returned, the pieces, walls and their serials, supply, home counts, turn, phase and
die, both RNG states, ``ply``, ``rules_fired`` and the counters in their order, the outcome,
``stats()``, the wall masks and kept spots). Games from the start, from positions some moves in
(every phase: a move to choose, a wall to build, the V15 choice) and from positions a piece or
two from the end (so V12, V13 and the first-home counters are played), at 2, 3 and 4 players,
under the default rules and every variant and option the C code plays; positions it does not
play fall back to Python. The compiled module must be built: without it these tests fail,
unless the machine has no C compiler (then they skip, saying so)."""
from __future__ import annotations

import importlib
import importlib.util
import json
import random
import resource
import shutil
import sysconfig
import tracemalloc
import zlib
from array import array
from collections import Counter
from pathlib import Path

import pytest

from pnp.engines.core import MASK64, GameState, Rng, derive_seed
from pnp.engines.native import PURE_PYTHON
from pnp.engines.zombies_vs_vampires import ZombiesVsVampires, greedy_bot
from pnp.engines.zombies_vs_vampires import playout_native as pn
from pnp.engines.zombies_vs_vampires.game import NATIVE
from pnp.engines.zombies_vs_vampires.moves import PH_ACT, PH_BUILD, PH_CHOOSE, PH_OVER

Z = ZombiesVsVampires
GAMMA = 0x9E3779B97F4A7C15          # splitmix64's step: the state -GAMMA draws the output 0


def _compiler() -> str | None:
    cc = (sysconfig.get_config_var("CC") or "").split()
    return next((c for c in ([cc[0]] if cc else []) + ["gcc", "cc", "clang"] if shutil.which(c)), None)


def _load_native():
    try:
        return importlib.import_module(NATIVE)
    except ImportError as e:
        if _compiler() is None:
            pytest.skip(f"no C compiler on this machine: {NATIVE} is not built ({e})")
        pytest.fail(f"{NATIVE} is not built although a C compiler exists ({e}): "
                    "pip install -e . compiles it")


@pytest.fixture(scope="module")
def nat():
    return _load_native()


# ------------------------------------------------------------------ what is compared
# (variants, options, player counts): the default, every named variant, and combinations
RULESETS = [
    (None, {}, (2, 3, 4)),
    *[((v,), {}, (2,) if v == "head-on" else (2, 3, 4)) for v in Z.variants],
    (("exact", "home-zone"), {}, (2, 3, 4)),
    (("exact", "finish-round", "twostar-choice"), {}, (2, 3, 4)),
    (("v15-reroll", "twostar-choice"), {}, (2, 3, 4)),
    (("v15-reroll", "home-zone", "exact"), {}, (2, 4)),
    (("v15-choose", "finish-round", "twostar-reroll"), {}, (2, 3, 4)),
    (("home-zone", "finish-round"), {"jump_home": False}, (2, 3, 4)),
    (None, {"jump_home": False}, (2, 3, 4)),
    (("exact",), {"jump_home": False}, (3,)),
    (None, {"size": 7}, (2, 3, 4)),
    (("home-zone",), {"size": 8, "walls": "1,0,2"}, (2, 4)),
    (None, {"size": 26, "walls": "20,20,20"}, (2, 4)),
    (("exact", "v15-choose"), {"size": 21}, (3,)),
    (None, {"walls": "0,0,0"}, (2, 3)),
    (None, {"walls": "40,30,20"}, (4,)),
    (None, {"handicap": 7}, (3,)),
    (("lone-handicap", "finish-round"), {"seats": "se,nw,ne"}, (3,)),
    (None, {"seats": "sw,ne"}, (2,)),
]


def _label(rs) -> str:
    v, o, _ = rs
    return "+".join(v or ("default",)) + "".join(f",{k}={x}" for k, x in o.items())


def twins(seed: int, players: int, variants, options: dict, max_turns: int):
    opts = {**options, "max_turns": max_turns}
    return [Z.new(players=players, seed=seed, variants=variants, options=opts) for _ in range(2)]


def snapshot(st: Z) -> dict:
    """Every field a playout may change, as comparable values (orders included)."""
    return {
        "dict": json.dumps(st.to_dict(), sort_keys=False),
        "pos": [tuple(q) for q in st.pos], "occ_by": list(st.occ_by), "occ": st.occ,
        "walls": (st.NB, st.EB, st.HP, st.VP, st.spots6, list(st.walls), list(st.wall_serial)),
        "supply": list(st.supply), "home": list(st.home), "rng": st.rng.state, "ply": st.ply,
        "rules": list(st.rules_fired.items()), "counters": list(st.counters.items()),
        "outcome": st.outcome(), "stats": st.stats(), "invariants": st.check_invariants(),
        "undo": (len(st._undo), len(st.move_stack)), "face_text": getattr(st, "face_text", None),
        "turn": (st.turn, st.first, st.total_turns, list(st.turns_taken), list(st.finishers)),
        "die": (st.phase, st.face, st.steps, st.wsize, st.rerolled),
    }


def play_both(fast: Z, slow: Z, pick: Rng, nat, own_rng: bool = False) -> int:
    """Play `fast` in C and `slow` in Python from the same position with twin RNGs (or each with
    the game's own RNG); assert the C code played it and both ended the same. Returns plies."""
    assert pn.supported(fast, fast.rng if own_rng else pick, nat), "the C code must play this"
    ra = fast.rng if own_rng else Rng(pick.state)
    rb = slow.rng if own_rng else Rng(pick.state)
    n_fast = fast.random_playout(ra, native=nat)
    n_slow = slow.random_playout(rb, native=None)
    assert n_fast == n_slow
    assert ra.state == rb.state
    a, b = snapshot(fast), snapshot(slow)
    for key in b:
        assert a[key] == b[key], key
    assert a["invariants"] == [] and a["outcome"] is not None
    assert fast.legal_moves() == [] and fast._undo == [] and fast.move_stack == []
    return n_fast


def advance(pair: list[Z], moves: int, seed: int) -> None:
    """The same `moves` random moves pushed on both (fewer if the game ends)."""
    r = Rng(seed)
    for _ in range(moves):
        if pair[0].outcome() is not None:
            return
        ms = pair[0].legal_moves()
        m = ms[r.randbelow(len(ms))]
        for st in pair:
            st.push(m)


# ------------------------------------------------------------------ from the start / some moves in
@pytest.mark.parametrize("rs", RULESETS, ids=_label)
def test_native_plays_the_python_games(rs, nat):
    """From the start and from positions 1-60 moves in, per player count: the same game."""
    variants, options, counts = rs
    phases = Counter()
    for players in counts:
        for i in range(4):
            seed = derive_seed(zlib.crc32(_label(rs).encode()), 10 * players + i)
            turns = 40 + 37 * i if "exact" not in (variants or ()) else 25 + 10 * i
            fast, slow = twins(seed, players, variants, options, turns)
            if i % 2:
                advance([fast, slow], 1 + 19 * i % 61, seed)
                if fast.outcome() is not None:
                    continue
            phases[fast.phase] += 1
            play_both(fast, slow, Rng(seed ^ 0x5A5A), nat)
    assert phases[PH_ACT] > 0


def test_native_from_every_phase(nat):
    """Positions in each phase of a turn (a die to act on, a wall to build after +/-, the V15
    choice, which needs a piece home: from near the end), with the pick RNG and with the game's
    own RNG (one generator for both)."""
    seen = Counter()
    for i in range(150):
        seed = derive_seed(99, i)
        want = (PH_BUILD, PH_CHOOSE, PH_ACT)[i % 3]
        if want == PH_CHOOSE:
            fast, slow = near_end(2 + i % 3, seed, ("v15-choose",), {"max_turns": 300}, [2] * 4)
        else:
            variants = ("v15-reroll", "twostar-choice") if i % 2 else None
            fast, slow = twins(seed, 2 + i % 3, variants, {}, 200)
        r = Rng(seed)
        for _ in range(1 + i % 5):
            ms = fast.legal_moves()
            m = ms[r.randbelow(len(ms))]
            fast.push(m)
            slow.push(m)
        for _ in range(300):                 # push until the phase wanted comes up
            if fast.phase == want or fast.outcome() is not None:
                break
            ms = fast.legal_moves()
            m = ms[r.randbelow(len(ms))]
            fast.push(m)
            slow.push(m)
        if fast.outcome() is not None:
            continue
        seen[fast.phase] += 1
        play_both(fast, slow, Rng(seed + 1), nat, own_rng=i % 4 == 0)
    assert seen[PH_BUILD] >= 30 and seen[PH_CHOOSE] >= 30 and seen[PH_ACT] >= 30, seen


# ------------------------------------------------------------------ near the end: V12, V13
def near_end(players: int, seed: int, variants, options: dict, outs) -> list[Z]:
    """Twin positions where seat p has all but ``outs[p]`` pieces in its far zone and those next
    to it (so random play brings them home: V11, V12, V13; a seat with none out finishes at the
    end of its turn); ``outs[p] == 9``: none home yet (the first-home counters)."""
    base = Z.new(players=players, seed=seed, variants=variants, options=options)
    g = base.geo
    rng = random.Random(seed)
    taken: set[int] = set()
    pieces = []
    for p in range(players):
        far = g.zone_squares[g.opposite[base.corners[p]]]
        inside = rng.sample(far, max(0, len(far) - outs[p]))
        taken.update(inside)
        pieces.append(inside)
    zoned = set(g.zone_of)
    for p in range(players):
        far = g.zone_squares[g.opposite[base.corners[p]]]

        def dist(s: int, far: list[int] = far) -> int:
            return min(abs(s // g.W - t // g.W) + abs(s % g.W - t % g.W) for t in far)

        near = sorted((s for s in g.squares if s not in zoned and s not in taken), key=dist)
        extra = near[:outs[p] + 3]
        rng.shuffle(extra)
        pieces[p] += extra[:outs[p]]
        taken.update(extra[:outs[p]])
    spec = {"pieces": [[g.sq_name(s) for s in q] for q in pieces],
            "die": rng.choice(["2", "4", "6", "pm", "build"]), "wall_size": rng.choice([1, 2, 3]),
            "turn": rng.randrange(players)}
    return [Z.from_position(spec, players=players, seed=seed, variants=variants, options=options)
            for _ in range(2)]


@pytest.mark.parametrize("variants,options", [
    (None, {}), (("finish-round",), {}), (("home-zone",), {}),
    (("finish-round", "home-zone", "exact"), {}), (("v15-choose",), {}),
    (("v15-reroll", "finish-round"), {}), (("twostar-choice",), {}),
    (None, {"jump_home": False}), (("home-zone", "exact"), {"jump_home": False})])
def test_native_near_the_end(variants, options, nat):
    """Games that end (V12 at once, or the round played out and V13) play the same; with
    pieces home all around, option jump_home decides many jumps (V6)."""
    ends = Counter()
    for i in range(30):
        seed = derive_seed(777, i)
        players = 2 + i % 3
        outs = [(i + p) % 4 // 2 * (1 + i % 2) for p in range(players)]   # some 0: V13
        fast, slow = near_end(players, seed, variants, {"max_turns": 500, **options}, outs)
        play_both(fast, slow, Rng(seed), nat)
        ends[fast.outcome().rule] += 1
    assert ends["V12"] + ends["V13"] >= 15, ends
    if "finish-round" in (variants or ()):
        assert ends["V13"] >= 5, ends


def test_native_first_pieces_home(nat):
    """From no piece home, pieces next to their far zones: the counters of the first piece home
    (all seats, and each seat's own) are the same."""
    touched = Counter()
    for i in range(24):
        seed = derive_seed(3131, i)
        players = 2 + i % 3
        fast, slow = near_end(players, seed, ("home-zone",) if i % 2 else None,
                              {"max_turns": 150}, [9] * players)
        assert not any(fast.home)
        play_both(fast, slow, Rng(seed), nat)
        touched.update(fast.counters.keys())
    assert {"first_home", "fh0", "fh1", "fh2", "fh3", "jumps"} <= set(touched), touched


def test_native_fires_every_rule(nat):
    """The games compared above reach every rule point and counter the C code writes (the
    handicap, the re-rolled 2*, V13...): a sweep of short games that must fire them all."""
    fired = Counter()
    cases = [(("lone-handicap",), 3), (("twostar-reroll",), 2), (("v15-reroll",), 4),
             (("finish-round",), 4), (None, 2)]
    for k, (variants, players) in enumerate(cases):
        for i in range(4):
            seed = derive_seed(k, i)
            outs = [0, 0, 1, 1] if variants == ("finish-round",) else [1, 2, 1, 2]
            fast, slow = (near_end(players, seed, variants, {"max_turns": 300}, outs)
                          if i >= 2 else twins(seed, players, variants, {}, 120))
            play_both(fast, slow, Rng(seed), nat)
            fired.update(fast.rules_fired)
            fired[fast.outcome().rule] += 1
    assert set(nat.RULES) | {"V13"} <= set(fired), set(nat.RULES) - set(fired)


def test_native_after_racer_play(nat):
    """Positions a racer bot played to (pieces home, walls up), then random play to the end."""
    for i in range(12):
        seed = derive_seed(31, i)
        fast, slow = twins(seed, 2 + i % 3, ("finish-round",) if i % 2 else None, {}, 600)
        r = random.Random(seed)
        while fast.outcome() is None and max(fast.home) < 5 + i % 4:
            m = greedy_bot(fast, r)
            fast.push(m)
            slow.push(m)
        if fast.outcome() is None:
            play_both(fast, slow, Rng(seed), nat)


def test_whole_benchmark_games(nat):
    """Whole games as benchmarks/bench_engines.py plays them (to the 3000-turn cap)."""
    for players in (2, 3, 4):
        seed = derive_seed(12345, players)
        fast, slow = twins(seed, players, None, {}, 3000)
        assert play_both(fast, slow, Rng(seed), nat) > 1000


def test_rare_rejection_of_randbelow(nat):
    """Rng.randbelow's rare rejection (an output 0 is redrawn unless n is a power of two), for the
    pick and for the dice: both RNGs end where Python leaves them."""
    zero = -GAMMA & MASK64
    drawn = 0
    for i in range(30):
        seed = derive_seed(5, i)
        fast, slow = twins(seed, 2 + i % 3, None, {}, 60)
        n = len(fast.legal_moves())
        if i % 2:
            fast.rng.state = slow.rng.state = zero      # the next die roll
        elif n & (n - 1):
            drawn += 1
        play_both(fast, slow, Rng(zero), nat)
    assert drawn >= 5


# ------------------------------------------------------------------ what Python plays instead
def test_unsupported_positions_fall_back(nat):
    """The C code never guesses: a game class with its own methods, an RNG that is not a plain
    Rng, a game over, overlapping walls, the exact variant with more steps than its search
    takes, a die that only re-rolls: Python plays (or would); the result is Python's."""
    class Custom(Z):
        def _roll_size(self) -> None:
            super()._roll_size()

    class Data(Z):
        pass

    class MyRng(Rng):
        pass

    assert pn.plays_class(Data) and not pn.plays_class(Custom)
    a, b = (Custom.new(players=3, seed=8, options={"max_turns": 80}) for _ in range(2))
    assert not pn.supported(a, Rng(1), nat)
    assert a.random_playout(Rng(1), native=nat) == GameState.random_playout(b, Rng(1))
    assert a.to_dict() == b.to_dict()

    a, b = twins(8, 2, None, {}, 80)
    assert not pn.supported(a, MyRng(1), nat)
    assert a.random_playout(MyRng(1), native=nat) == b.random_playout(MyRng(1), native=None)
    assert a.to_dict() == b.to_dict()
    assert not pn.supported(a, Rng(1), nat)                 # over
    assert a.random_playout(Rng(1), native=nat) == 0

    deep = str(nat.MAX_EXACT_STEPS + 1)
    a = Z.from_position({"die": deep}, options={"exact": True})
    assert not pn.supported(a, Rng(3), nat) and pn.native_playout(a, Rng(3), nat) is None
    a, b = (Z.from_position({"die": deep}, options={"max_turns": 6}) for _ in range(2))
    assert pn.supported(a, Rng(3), nat)                     # up to that many steps: in C
    play_both(a, b, Rng(3), nat)

    d = Z.new(players=2, seed=4).to_dict()
    d["state"]["walls"] = [["w1", "h:e5-2"], ["w2", "h:f5-2"]]      # overlapping
    st = Z.from_dict(d)
    assert not pn.supported(st, Rng(1), nat) and pn.native_playout(st, Rng(1), nat) is None

    st = Z.new(players=2, seed=4, variants=["twostar-reroll"])
    st._faces = (("2*", 0, 2),)                # would re-roll for ever
    assert not pn.supported(st, Rng(1), nat)
    st = Z.new(players=2, seed=4)
    st.phase = PH_OVER                         # over without an outcome: Python raises
    assert not pn.supported(st, Rng(1), nat)


def test_pure_python_switch(nat, monkeypatch):
    """PNP_PURE_PYTHON turns the C code off; by default random_playout uses it."""
    calls = []
    real = pn.native_playout

    def spy(st, rng, module):
        calls.append(module)
        return real(st, rng, module)

    monkeypatch.delenv(PURE_PYTHON, raising=False)
    monkeypatch.setattr("pnp.engines.zombies_vs_vampires.game.native_playout", spy)
    Z.new(players=2, seed=1, options={"max_turns": 30}).random_playout(Rng(1))
    assert calls == [nat]
    monkeypatch.setenv(PURE_PYTHON, "1")
    Z.new(players=2, seed=1, options={"max_turns": 30}).random_playout(Rng(1))
    assert calls == [nat]


def _bench():
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_engines.py"
    spec = importlib.util.spec_from_file_location("bench_engines_for_zvv_native", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_callers_get_the_same_bytes(nat, monkeypatch):
    """What calls random_playout (benchmarks/bench_engines.py's random play) counts the same
    actions with and without the C code; `pnp simulate` (its own loop) prints the same JSON."""
    from click.testing import CliRunner

    from pnp.cli import main
    monkeypatch.delenv(PURE_PYTHON, raising=False)
    bench = _bench()
    with_c = bench.random_play("zombies-vs-vampires", 3, run=3)
    args = ["simulate", "zombies-vs-vampires", "--games", "50", "--seed", "3", "--json"]
    out_c = CliRunner().invoke(main, args)
    monkeypatch.setenv(PURE_PYTHON, "1")
    assert bench.random_play("zombies-vs-vampires", 3, run=3) == with_c
    out_py = CliRunner().invoke(main, args)
    assert out_c.exit_code == out_py.exit_code == 0
    assert out_c.output == out_py.output


# ------------------------------------------------------------------ the C interface itself
def _packed(st: Z, nat):
    """The arguments native_playout passes, packed once (for calls made directly)."""
    got = {}

    def grab(*args):
        got["args"] = args
        raise _Stop

    class _Stop(Exception):
        pass

    class Fake:
        pass

    fake = Fake()
    fake.__dict__.update({k: getattr(nat, k) for k in dir(nat) if not k.startswith("__")})
    fake.playout = grab
    with pytest.raises(_Stop):
        pn.native_playout(st, Rng(1), fake)
    return got["args"]


def test_finishers_listed_twice_fall_back(nat):
    """A position whose finishers list a seat twice (Python plays it: end_turn appends any seat
    not in the list) is not played in C, whose array of finishers holds one entry a seat: a
    direct call is refused with ValueError, never written past the array (review r1: four
    entries, then seat 1 finishing, wrote a fifth)."""
    def position():
        st = Z.new(players=4, seed=3, options={"max_turns": 60})
        st.finishers = [0, 0, 0, 0]
        st.pieces_needed = [*st.pieces_needed]
        st.pieces_needed[1] = st.home[1]           # seat 1 finishes at its turn's end
        return st

    a, b = position(), position()
    assert not pn.supported(a, Rng(5), nat)
    assert a.random_playout(Rng(5), native=nat) == b.random_playout(Rng(5), native=None)
    assert snapshot(a) == snapshot(b)
    st = position()
    st.finishers = []
    args = list(_packed(st, nat))
    state = dict(zip(nat.STATE_FIELDS, range(len(nat.STATE_FIELDS))))
    args[5][state["nfin"]] = 4
    for i in range(4):
        args[5][state[f"finishers{i}"]] = 0
    with pytest.raises(ValueError, match="twice"):
        nat.playout(*args)


def test_counts_near_int64_overflow_are_refused(nat):
    """Direct calls with numbers a playout counts up from outside playout_native.BIG (e.g. the
    turn count at 2**63 - 1) are refused with ValueError, not overflowed (review r1)."""
    base = _packed(Z.new(players=3, seed=2, options={"max_turns": 50}), nat)
    state_at = {k: i for i, k in enumerate(nat.STATE_FIELDS)}
    cfg_at = {k: i for i, k in enumerate(nat.CFG_FIELDS)}
    for where, field in ((5, state_at["total_turns"]), (5, state_at["next_serial"]),
                         (5, state_at["turns_taken0"]), (5, state_at["home1"]),
                         (0, cfg_at["max_turns"]), (0, cfg_at["sit_out2"])):
        args = [bytes(x) if isinstance(x, bytes) else array(x.typecode, x) for x in base]
        args[where][field] = (1 << 63) - 1
        with pytest.raises(ValueError, match="out of range"):
            nat.playout(*args)


def test_bad_arguments_raise_not_crash(nat):
    """Malformed arrays are refused with ValueError / TypeError, never read past their end."""
    args = list(_packed(Z.new(players=3, seed=2, options={"max_turns": 50}), nat))

    def copy(x):
        return bytes(x) if isinstance(x, bytes) else array(x.typecode, x)

    nat.playout(*[copy(x) for x in args])                   # the packed call itself plays
    for i in range(len(args)):
        for broken in (array("q"), array("q", [0] * 5), array("q", [1 << 40] * 40)):
            a = [copy(x) for x in args]
            if i in (3, 4):
                a[i] = bytes(broken)
            else:
                a[i] = array(args[i].typecode if hasattr(args[i], "typecode") else "q",
                             [x & ((1 << 62) - 1) for x in broken])
            with pytest.raises((ValueError, TypeError)):
                nat.playout(*a)
    with pytest.raises(TypeError):
        nat.playout(*args[:-1])
    ro = [copy(x) for x in args]
    ro[5] = bytes(ro[5])                                    # the state must be writable
    with pytest.raises(TypeError):
        nat.playout(*ro)


def test_no_leak_over_20000_playouts(nat):
    """20,000 short playouts in C: Python's allocations and the peak RSS stay flat."""
    args = _packed(Z.new(players=4, seed=9, options={"max_turns": 40}), nat)

    def run(times):
        for _ in range(times):
            nat.playout(*[bytes(x) if isinstance(x, bytes) else array(x.typecode, x)
                          for x in args])

    run(2000)
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    run(20000)
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert after - before < 64 * 1024
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss < 4096      # KiB
