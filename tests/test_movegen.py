"""Move generation is exactly the legal moves: perft counts and move order recorded with the
generators before issue 13's fast ones (tests/perft/*.yaml, see tests/perft/record.py), and a
randomized cross-check of every ``legal_moves()`` list met in seeded random games against the
slow reference listings of tests/movegen_reference.py."""
from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import pytest
import yaml
from movegen_reference import REFERENCE

from pnp.engines.core import Rng, derive_seed, get_game

PERFT_DIR = Path(__file__).resolve().parent / "perft"
sys.path.insert(0, str(PERFT_DIR))
from record import measure, start  # noqa: E402

CASES = [(doc["game"], case) for path in sorted(PERFT_DIR.glob("*.yaml"))
         for doc in [yaml.safe_load(path.read_text(encoding="utf-8"))]
         for case in doc["positions"]]


@pytest.mark.parametrize("game,case", CASES, ids=[f"{g}: {c['name']}" for g, c in CASES])
def test_perft_counts_and_move_order(game, case):
    st = start(game, case)
    before = st.to_dict()
    counts, order = measure(st, len(case["counts"]))
    assert counts == case["counts"]
    assert order == case["order"]                    # the same lists in the same order
    assert [st.move_text(m) for m in st.legal_moves()] == case["texts"]
    assert st.to_dict() == before                    # push/pop over the tree left it as it was


PLAYERS = {"zombie-run": (3, 4, 5, 6, 7), "cimiterio": (1, 2, 3, 4),
           "zombies-vs-vampires": (2, 3, 4)}
VARIANTS = {"zombie-run": ("", "roach-distinct"), "cimiterio": ("",),
            "zombies-vs-vampires": ("", "exact", "twostar-choice", "v15-reroll", "v15-choose",
                                    "home-locked", "home-zone", "finish-round", "board11")}
GAMES = {"zombie-run": 40, "cimiterio": 30, "zombies-vs-vampires": 3}
PLY_CAP = {"zombie-run": 10_000, "cimiterio": 10_000, "zombies-vs-vampires": 300}


def cross_check(game: str, variants: str, games: int) -> int:
    """Plays ``games`` seeded uniform random games; at every ply the generated list must equal
    the reference list (same moves, same order) and every move must pass the direct check."""
    cls = get_game(game)
    reference = REFERENCE[game]
    plies = 0
    for i in range(games):
        seed = derive_seed(2026, i)
        players = PLAYERS[game][i % len(PLAYERS[game])]
        st = cls.new(players=players, seed=seed, variants=variants or None)
        rng = Rng(seed)
        while st.outcome() is None and plies < PLY_CAP[game] * (i + 1):
            ms = st.legal_moves()
            assert ms == reference(st), (game, variants, seed, st.ply, st.describe())
            assert len(set(ms)) == len(ms)
            m = ms[rng.randbelow(len(ms))]
            assert st.is_legal(m)
            st.push(m)
            plies += 1
    return plies


@pytest.mark.parametrize("game,variants", [(g, v) for g in VARIANTS for v in VARIANTS[g]])
def test_generator_equals_reference_in_random_games(game, variants):
    assert cross_check(game, variants, 1 if variants == "exact" else GAMES[game]) > 100


def test_perft_digest_sees_a_change_of_order():
    """The order digest is not blind: the same lists reversed give another digest."""
    game, case = CASES[0]
    st = start(game, case)
    ms = st.legal_moves()
    a = hashlib.sha256((repr(ms) + "\n").encode()).hexdigest()
    b = hashlib.sha256((repr(ms[::-1]) + "\n").encode()).hexdigest()
    assert len(ms) > 1 and a != b
