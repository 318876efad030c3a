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


def random_zombie_run_position(seed: int, variants: str | None):
    """A position dealt at random, not reached by play: random hands (often few card types,
    often cards already on the tables), tables up to one card short of Z7/Z8 (Z4, Z5 kept),
    zombie players, the special and Z6 used or not, any seat to move. Reaches what random games
    rarely do: no normal play but specials (Z6 after them), every Z12 threshold, full roaches."""
    from pnp.engines.zombie_run import ZombieRun, zr_data
    d = zr_data()
    rng = Rng(seed)
    n = 3 + rng.randbelow(5)
    st = ZombieRun(players=n, seed=seed, variants=variants)
    cards = [t for t in range(d.NT) for _ in range(d.copies[t])]
    rng.shuffle(cards)
    alive = [rng.randbelow(4) > 0 for _ in range(n)]
    alive[rng.randbelow(n)] = True
    alive[(alive.index(True) + 1 + rng.randbelow(n - 1)) % n] = True    # two living at least
    tables: list[list[str]] = [[] for _ in range(n)]
    for q in range(n):
        if not alive[q]:
            continue
        tab = 0
        for _ in range(rng.randbelow(12)):
            t = cards.pop()
            if (tab >> st.FULL[t] & 1 or tab >> st.TWIN[t] & 1 or          # Z5, Z4
                    (t < d.S and st.PC[tab & st.IM] + 1 >= st.win_items) or
                    (t >= d.S and st.PC[tab >> d.S] + 1 >= st.lose_zombies)):
                cards.insert(0, t)
                continue
            tab = tab | (tab >> t) + 1 << t
            tables[q].append(d.names[t])
    turn = rng.randbelow(n)
    kinds = 1 + rng.randbelow(3)                          # a hand of few card types
    pool = [cards.pop() for _ in range(kinds)]
    hands = [[] for _ in range(n)]
    for q in range(n):
        if alive[q]:
            hands[q] = [d.names[rng.choice(pool)] for _ in range(rng.randbelow(6))]
    if not alive[turn]:
        hands[turn] = hands[turn][:1]
    for q in range(n):                                    # within the printed copies
        hands[q] = [x for x in hands[q] if sum(h.count(x) for h in hands) +
                    sum(tb.count(x) for tb in tables) <= d.copies[d.index[x]]]
    return ZombieRun.from_position(
        {"hands": hands, "tables": tables, "alive": alive, "turn": turn,
         "special_used": rng.randbelow(3) == 0, "z6_used": rng.randbelow(2) == 0},
        players=n, seed=seed, variants=variants)


@pytest.mark.parametrize("variants", [None, "roach-distinct"])
def test_zombie_run_generator_equals_reference_on_dealt_positions(variants):
    """Positions dealt at random (every branch of the generator: no normal play but specials,
    Z12 at the threshold, zombie players, the special used): the same list as the reference,
    and every move passes the one-move check and pushes and pops cleanly."""
    reference = REFERENCE["zombie-run"]
    seen_z6_with_specials = 0
    for seed in range(600):
        st = random_zombie_run_position(seed, variants)
        ms = st.legal_moves()
        assert ms == reference(st), (seed, st.describe())
        if len(ms) > 1 and ms[-1] >> 16 in (3, 4):        # DISCARD_HAND / PASS after specials
            seen_z6_with_specials += 1
        before = st.to_dict()
        for m in ms:
            assert st.is_legal(m)
            st.push(m)
            assert not st.check_invariants(), (seed, st.move_text(m))
            st.pop()
        assert st.to_dict() == before
    assert seen_z6_with_specials >= 3                     # the seeds are fixed: 4 of them


def test_zombie_run_no_normal_play_lists_the_specials_then_z6():
    from pnp.engines.zombie_run import ZombieRun
    st = ZombieRun.from_position({"hands": [["item:bat", "zombie:pan"], [], []],
                                  "tables": [["item:bat"], ["zombie:pan"], ["zombie:pan"]]},
                                 players=3)
    texts = [st.move_text(m) for m in st.legal_moves()]
    assert texts == ["special item:bat>P2", "special item:bat>P3", "special zombie:pan>self",
                     "discard-hand"] or texts == ["special zombie:pan>self", "special item:bat>P2",
                                                  "special item:bat>P3", "discard-hand"]
    assert st.legal_moves() == REFERENCE["zombie-run"](st)
