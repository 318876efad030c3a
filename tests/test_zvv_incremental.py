"""Zombies vs Vampires keeps its move generation up to date as walls and pieces land and are
undone (issue 13): the legal wall spots of every size and orientation (``spots6``, walls.py),
the BUILD lists joined from per-byte parts, the movable pieces and the MOVE lists. Each is
checked here against a from-scratch computation (``spots`` over the wall masks, the candidate
scan ``_build_moves_ref``, the step-by-step listing of tests/movegen_reference.py) on many
random positions, after push and after pop, under the default rules and the variants; and the
check is shown to fail when the incremental update is broken."""
from __future__ import annotations

import pytest
from movegen_reference import zombies_vs_vampires as reference_moves

from pnp.engines.core import Rng, derive_seed
from pnp.engines.zombies_vs_vampires import ZombiesVsVampires
from pnp.engines.zombies_vs_vampires.moves import BUILD, REMOVE
from pnp.engines.zombies_vs_vampires.walls import Walls, all_spots

VARIANTS = (None, "home-zone", "finish-round", "lone-handicap", "board11")


def mismatches(st: ZombiesVsVampires) -> list[str]:
    """What the kept generator state says that a from-scratch computation does not."""
    out = []
    if st.spots6 != all_spots(st.geo, st._wall_set()):
        out.append("kept wall spots != spots() over the wall masks")
    for size in (1, 2, 3):
        if st._build_moves(size) != st._build_moves_ref(size):
            out.append(f"BUILD list of size {size} != the candidate scan")
    if st.legal_moves() != reference_moves(st):
        out.append("legal_moves() != the step-by-step reference")
    for p in range(st.players):
        if sorted(st.movable(p)) != sorted(s for s in st.pos[p] if st.home_zone_mode
                                           or not st.target_mask[p] >> s & 1):
            out.append(f"movable pieces of P{p + 1} out of step")
    return out


def walk(st: ZombiesVsVampires, rng: Rng, plies: int, checks: list[str]) -> int:
    """Random play with pops: every ply pushes a random legal move, and now and then pops
    1-4 plies back and replays; the kept state is checked at every position met."""
    met = 0
    for _ in range(plies):
        if st.outcome() is not None:
            break
        checks += mismatches(st)
        met += 1
        ms = st.legal_moves()
        # prefer wall moves now and then: random play builds few walls and removes fewer
        walls = [m for m in ms if m >> 24 in (BUILD, REMOVE)]
        pick = walls if walls and rng.randbelow(2) else ms
        st.push(pick[rng.randbelow(len(pick))])
        if rng.randbelow(5) == 0 and len(st.move_stack) > 4:
            for _ in range(1 + rng.randbelow(4)):
                st.pop()
                checks += mismatches(st)
                met += 1
    return met


@pytest.mark.parametrize("variant", VARIANTS)
def test_kept_generator_equals_a_scan_from_scratch(variant):
    met = 0
    for i in range(3):
        seed = derive_seed(4242, i)
        st = ZombiesVsVampires(players=2 + i % 3, seed=seed, variants=variant)
        checks: list[str] = []
        met += walk(st, Rng(seed), 150, checks)
        assert not checks, (variant, seed, checks[:3])
        assert not st.check_invariants()
    assert met > 300


def test_kept_spots_after_building_and_removing_every_wall():
    """A board crowded with walls: build until no spot of any size is left (the supply made
    large), remove them in another order, and pop everything back; the kept spots equal the
    scan at every step."""
    st = ZombiesVsVampires.from_position({"die": "build", "wall_size": 1, "supply": [60, 60, 60]},
                                         players=2, seed=3)
    rng = Rng(3)
    built = 0
    while True:
        free = [ci for L in (1, 2, 3) for ci in st.build_spots(L)]
        assert sorted(free) == sorted(m >> 12 & 0xFFF for L in (1, 2, 3) for m in st._build_moves_ref(L))
        if not free or built == 150:
            break
        st._build(free[rng.randbelow(len(free))])
        st._cache = None                    # the state was changed behind push's back
        built += 1
        assert not mismatches(st)
    assert built > 40 and not st.check_invariants()
    order = list(st.walls)
    rng.shuffle(order)
    for ci in order[: len(order) // 2]:
        st._remove(ci)
        st._cache = None
        assert not mismatches(st)
    assert not st.check_invariants()


_REAL = {"_build": Walls._build, "_restore": ZombiesVsVampires._restore}


def _careless_build(self, ci):
    """A build that forgets to AND in the wall's masks."""
    kept = self.spots6
    _REAL["_build"](self, ci)
    self.spots6 = kept


def _forgetful_restore(self, snap):
    """A pop that does not restore the kept spots."""
    kept = self.spots6
    _REAL["_restore"](self, snap)
    self.spots6 = kept


@pytest.mark.parametrize("owner,name,broken,players", [
    (Walls, "_build", _careless_build, 2),
    (ZombiesVsVampires, "_restore", _forgetful_restore, 3),
])
def test_the_cross_check_sees_a_broken_update(monkeypatch, owner, name, broken, players):
    """Break the incremental update (a build that forgets the wall's masks, a pop that does not
    restore the spots): the cross-check above reports it."""
    monkeypatch.setattr(owner, name, broken)
    st = ZombiesVsVampires(players=players, seed=derive_seed(4242, players))
    checks: list[str] = []
    walk(st, Rng(7), 200, checks)
    assert "kept wall spots != spots() over the wall masks" in checks


def crowded_position(seed: int, variant: str | None, jump_home: bool) -> ZombiesVsVampires:
    """Two seats with some pieces already home in their far zones, the rest anywhere, a few
    walls, a move of 2, 4 or 6 to play (random play seldom gets pieces home, and the option
    jump_home only matters next to them)."""
    rng = Rng(seed)
    st = ZombiesVsVampires.from_position({"die": "246"[rng.randbelow(3)]}, players=2, seed=seed,
                                         variants=variant, options={"jump_home": jump_home})
    g = st.geo
    free = list(g.squares)
    pieces = []
    for p in range(2):
        zone = [s for s in g.squares if st.target_mask[p] >> s & 1 and s in free]
        home = [zone.pop(rng.randbelow(len(zone))) for _ in range(1 + rng.randbelow(6))]
        for s in home:
            free.remove(s)
        rest = [free.pop(rng.randbelow(len(free))) for _ in range(9 - len(home))]
        pieces.append(tuple(home + rest))
    st._set_pieces(pieces)
    for _ in range(rng.randbelow(12)):
        ci = rng.randbelow(len(g.cands))
        if st._can_build(ci):
            st._build(ci)
    st.turn = rng.randbelow(2)
    st._src_memo = [None, None]
    st._cache = None
    return st


@pytest.mark.parametrize("variant", (None, "home-zone"))
@pytest.mark.parametrize("jump_home", (True, False))
def test_move_lists_next_to_pieces_home(variant, jump_home):
    """The MOVE lists where pieces are home, with the option jump_home on (the default) and
    off (a piece home may not be jumped over): the step-by-step reference's lists; off, some
    lists are shorter than the same position's with the option on."""
    shorter = 0
    for i in range(120):
        st = crowded_position(derive_seed(77, i), variant, jump_home)
        ms = st.legal_moves()
        assert ms == reference_moves(st), (variant, jump_home, i)
        st.jump_home = True                 # the same position with the option on
        st._cache = None
        shorter += len(ms) < len(st.legal_moves())
    assert shorter == 0 if jump_home else shorter > 10
