"""The engine core: RNG, registry, options, errors, undo, serialisation, replay and simulation."""
from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import pytest

from pnp.engines import core
from pnp.engines.core import (
    GameState,
    IllegalMoveError,
    Outcome,
    RecordError,
    Rng,
    derive_seed,
    get_game,
    register,
    resolve_options,
)
from pnp.engines.simulate import simulate, wilson


# ------------------------------------------------------------------ a tiny game to test the core
@register("test-nim")
class Nim(GameState):
    """Take 1-3 from a pile; whoever takes the last wins. A die roll adds 0-2 after each move."""

    min_players = 2
    max_players = 3
    default_options = {"pile": 10, "roll": True}
    variants = {"short": {"pile": 5}, "no-roll": {"roll": False}}
    rule_points = ("N1", "N2", "N3")

    def _setup(self):
        self.pile = self.options["pile"]
        self.result = None

    def legal_moves(self):
        if self.result:
            return []
        return [n for n in (1, 2, 3) if n <= self.pile]

    def _illegal_reason(self, move):
        if self.result:
            return ("N3", "game over")
        if move not in (1, 2, 3):
            return ("N1", "take 1, 2 or 3")
        if move > self.pile:
            return ("N1", "not that many left")
        return None

    def _snapshot(self):
        return (self.pile, self.result)

    def _restore(self, s):
        self.pile, self.result = s

    def _apply(self, move):
        self.fire("N1")
        self.pile -= move
        if self.pile == 0:
            self.fire("N3")
            self.result = Outcome((self.turn,), tuple(int(i == self.turn) for i in range(self.players)),
                                  "took the last", "N3")
            return
        if self.options["roll"]:
            self.fire("N2")
            self.pile += self.rng.randbelow(3)
        self.turn = (self.turn + 1) % self.players

    def outcome(self):
        return self.result

    def parse_move(self, text):
        try:
            return int(text)
        except ValueError:
            raise self.illegal(text, "notation", "a number") from None

    def move_text(self, move):
        return str(move)

    def describe(self):
        return f"pile {self.pile}, seat {self.turn} to move"

    def _state_dict(self):
        return {"pile": self.pile, "result": self.result and self.result.to_dict()}

    def _load_state(self, d):
        self.pile = d["pile"]
        self.result = d["result"] and Outcome.from_dict(d["result"])


# ------------------------------------------------------------------ RNG
def test_rng_is_deterministic_and_serialisable():
    a, b = Rng(42), Rng(42)
    assert [a.next64() for _ in range(5)] == [b.next64() for _ in range(5)]
    # golden values: splitmix64 must never change (recorded games depend on it)
    assert Rng(0).next64() == 0xE220A8397B1DCDAF
    r = Rng("seed text")
    s = r.state
    x = [r.randbelow(10) for _ in range(20)]
    r.state = s
    assert [r.randbelow(10) for _ in range(20)] == x
    assert all(0 <= v < 10 for v in x)


def test_rng_shuffle_and_uniformity():
    r = Rng(1)
    items = list(range(10))
    r.shuffle(items)
    assert sorted(items) == list(range(10))
    counts = [0] * 6
    for _ in range(6000):
        counts[r.randbelow(6)] += 1
    assert all(850 < c < 1150 for c in counts)
    assert 0 <= r.random() < 1


def _lemire_below(r: Rng, n: int) -> int:
    """randbelow as specified: one next64() times n, rejected while the low word < 2**64 % n."""
    m = r.next64() * n
    while m & core.MASK64 < ((1 << 64) - n) % n:
        m = r.next64() * n
    return m >> 64


def _fisher_yates(r: Rng, length: int) -> list[int]:
    """shuffle as specified: randbelow(i + 1) (by Lemire's rule) for i from the end."""
    items = list(range(length))
    for i in range(length - 1, 0, -1):
        j = _lemire_below(r, i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def test_rng_written_out_draws_equal_the_specification():
    """randbelow and shuffle inline next64 for speed: they must draw exactly what next64 and
    Lemire's rule give (recorded games, perft files and seeded figures depend on every bit),
    rejections included (huge n rejects often)."""
    for seed in range(200):
        a, b = Rng(seed), Rng(seed)
        for n in (2, 3, 6, 10, 63, 2**63 + 5, 2**64 - 1, 3 * 2**62):
            assert a.randbelow(n) == _lemire_below(b, n)
        for length in (0, 1, 2, 5, 7, 8, 9, 63, 200, 1024, 1025):
            items = list(range(length))
            a.shuffle(items)
            assert items == _fisher_yates(b, length) and a.state == b.state


def _unmix(z: int) -> int:
    """The state whose next64() is `z` (splitmix64's finaliser undone, step by step)."""
    z ^= z >> 31 ^ z >> 62
    z = z * pow(0x94D049BB133111EB, -1, 1 << 64) & core.MASK64
    z ^= z >> 27 ^ z >> 54
    z = z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64) & core.MASK64
    z ^= z >> 30 ^ z >> 60
    return (z - 0x9E3779B97F4A7C15) & core.MASK64


@pytest.mark.parametrize("length, draw", [(9, 0), (35, 3), (35, 33), (89, 40)])
def test_a_shuffle_that_must_reject_a_draw_gives_lemires_answer(length, draw):
    """A draw of 0 must be rejected for any n that is not a power of two (0 < 2**64 % n): the
    block shuffle's rare fallback. The state is set so that the `draw`-th draw of the shuffle
    (randbelow(length - draw)) gets it."""
    start = (_unmix(0) - draw * 0x9E3779B97F4A7C15) & core.MASK64
    check = Rng(0)
    check.state = (start + draw * 0x9E3779B97F4A7C15) & core.MASK64
    assert check.next64() == 0
    a, b = Rng(0), Rng(0)
    a.state = b.state = start
    items = list(range(length))
    a.shuffle(items)
    assert items == _fisher_yates(b, length) and a.state == b.state


@pytest.mark.parametrize("length, draw, z", [
    (19, 0, 0xFFFF << 48 | 12345),            # top * n ends in 2**16 - n: not decided by the top
    (35, 5, 1 << 40),                         # top 0: the low bits of top * n are 0
    (35, 33, 0xFFFF << 48 | 1 << 47),         # the last draw (randbelow(2))
    (200, 100, core.MASK64),                  # the carry edge: z * n >> 64 == n - 1
    (200, 3, 0xFFFF << 48),
])
def test_a_shuffle_draw_its_top_bits_do_not_decide_gives_lemires_answer(length, draw, z):
    """The block shuffle reads only the top 16 bits of each draw; a draw whose top bits do not
    decide ``randbelow`` (the low 16 bits of ``top * n`` 0 or above 2**16 - n - 1) is made by
    ``randbelow`` itself, and the shuffle goes on from the block. The state is set so that the
    ``draw``-th draw of the shuffle is ``z``."""
    start = (_unmix(z) - draw * 0x9E3779B97F4A7C15) & core.MASK64
    check = Rng(0)
    check.state = (start + draw * 0x9E3779B97F4A7C15) & core.MASK64
    assert check.next64() == z
    a, b = Rng(0), Rng(0)
    a.state = b.state = start
    items = list(range(length))
    a.shuffle(items)
    assert items == _fisher_yates(b, length) and a.state == b.state


def test_derive_seed_independent_of_order():
    seeds = [derive_seed(7, i) for i in range(100)]
    assert len(set(seeds)) == 100
    assert derive_seed(7, 5) == seeds[5]
    assert derive_seed(8, 5) != seeds[5]


# ------------------------------------------------------------------ registry and options
def test_registry():
    assert get_game("test-nim") is Nim
    assert "cimiterio" in core.game_names()
    with pytest.raises(RecordError):
        get_game("no-such-game")


def test_resolve_options():
    assert resolve_options(Nim, ["short"])["pile"] == 5
    assert resolve_options(Nim, ["pile=7", "roll=off"]) == {"pile": 7, "roll": False}
    assert resolve_options(Nim, "short no-roll") == {"pile": 5, "roll": False}
    assert resolve_options(Nim, None, {"pile": 3})["pile"] == 3
    for bad in (["nope"], ["colour=red"], ["pile=x"]):
        with pytest.raises(RecordError):
            resolve_options(Nim, bad)


# ------------------------------------------------------------------ protocol
def test_push_pop_restores_everything():
    st = Nim(players=2, seed=3)
    before = st.to_dict()
    st.push(2)
    st.push(1)
    assert st.ply == 2 and st.rules_fired["N1"] == 2
    st.pop()
    st.pop()
    assert st.to_dict() == before and not st.rules_fired
    with pytest.raises(IndexError):
        st.pop()


def test_illegal_move_error():
    st = Nim(players=2, seed=3, variants=["no-roll"], options={"pile": 2})
    with pytest.raises(IllegalMoveError) as ei:
        st.push(3)
    e = ei.value
    assert isinstance(e, ValueError)
    assert e.move == "3" and e.rule == "N1" and e.position == "pile 2, seat 0 to move"
    assert e.legal == ["1", "2"]
    assert "'3'" in str(e) and "N1" in str(e) and "pile 2" in str(e)
    with pytest.raises(IllegalMoveError) as ei:
        st.push_text("x")
    assert ei.value.rule == "notation"


def test_serialisation_roundtrip():
    st = Nim(players=3, seed=9)
    st.push(1)
    d = json.loads(json.dumps(st.to_dict()))
    twin = GameState.from_dict(d)
    assert isinstance(twin, Nim) and twin.to_dict() == st.to_dict()
    while st.outcome() is None:
        m = st.legal_moves()[0]
        st.push(m)
        twin.push(m)
    assert twin.outcome() == st.outcome()
    with pytest.raises(RecordError):
        Nim.from_dict({"game": "test-nim", "players": 2})


def test_player_count_checked():
    with pytest.raises(RecordError):
        Nim(players=1)


# ------------------------------------------------------------------ replay (generic)
def test_replay_generic():
    from pnp.engines.replay import replay
    res = replay({"game": "test-nim", "players": 2, "seed": 1, "variants": ["no-roll"],
                  "options": {"pile": 4}, "moves": ["3", "3", "1"]}, keep_going=True)
    assert [p.rule for p in res.problems] == ["N1"]
    assert res.outcome.winners == (1,)
    assert "seat 1 wins" in res.to_text()
    assert json.loads(res.to_json())["outcome"]["rule"] == "N3"


# ------------------------------------------------------------------ simulation
def test_wilson():
    lo, hi = wilson(50, 100)
    assert lo < 0.5 < hi and abs((lo + hi) / 2 - 0.5) < 1e-9
    assert wilson(0, 0) == (0.0, 1.0)


def test_simulation_same_seed_same_report_any_workers():
    a = simulate("test-nim", games=40, players=2, seed=5, bot="random")
    with ThreadPoolExecutor(3) as ex:
        b = simulate("test-nim", games=40, players=2, seed=5, bot="random", workers=3, executor=ex)
    assert a.to_json() == b.to_json()
    s = a.summary()
    assert s["completed"] == 40 and s["never_exercised"] == []
    assert sum(w["wins"] for w in s["win_share"].values()) == 40
    c = simulate("test-nim", games=40, players=2, seed=6, bot="greedy")
    assert c.summary()["completed"] == 40
    assert "win share" in c.to_text()


def test_simulation_cimiterio_process_pool():
    seen = []
    a = simulate("cimiterio", games=6, players=2, seed=1, bot="random", workers=2,
                 progress=lambda d, n: seen.append(d))
    b = simulate("cimiterio", games=6, players=2, seed=1, bot="random", workers=1)
    assert a.to_json() == b.to_json() and seen[-1] == 6
    s = a.summary()
    assert not s["anomalies"] and s["completed"] == 6


def test_simulation_flags_non_termination():
    s = simulate("cimiterio", games=2, players=2, seed=1, bot="random", max_turns=1).summary()
    assert {a["kind"] for a in s["anomalies"]} == {"non-terminating"}
    assert all(isinstance(a["seed"], int) for a in s["anomalies"])
