"""The compiled random playout (``_native.c``, pnp.engines.native) driven from a position.

``native_playout(state, rng, module)`` packs the position into the flat arrays the C code reads
(their layout is named by the module: ``CFG_FIELDS``, ``STATE_FIELDS``), plays the game to its
end there and writes the result back: pieces, walls (and from them the wall masks and the kept
spots, as the Python engine would hold them), supply, home counts, the turn, the die, both RNGs,
``ply``, ``rules_fired`` and the counters (new keys in the order they were first touched, as the
Python loop inserts them); the game is then ended by the Python engine's own ``_decide`` or
``_finish`` (V12, V13, the turn cap). It returns None, having changed nothing, for anything the C
code does not play: a game class that redefines any method, an RNG that is not a plain ``Rng``, a
board outside 7..26, an inconsistent position (two pieces on a square, walls that overlap...),
out-of-range numbers, the exact variant with more than ``MAX_EXACT_STEPS`` steps, a game already
over. The Python engine stays the definition; tests/test_zvv_native.py checks both play the same
games.
"""
from __future__ import annotations

from array import array
from types import ModuleType
from typing import TYPE_CHECKING

from pnp.engines.core import Rng
from pnp.engines.zombies_vs_vampires.geometry import Geometry, spot_sets
from pnp.engines.zombies_vs_vampires.moves import PH_ACT, PH_BUILD, PH_CHOOSE
from pnp.engines.zombies_vs_vampires.walls import fits, toggled

if TYPE_CHECKING:
    from pnp.engines.zombies_vs_vampires.game import ZombiesVsVampires

BIG = 1 << 60            # numbers of the position the C code takes (int64, with room to count)
STEPS_MAX = 1 << 40      # a face's steps (_native.c: faces)
_CANDS: dict[Geometry, bytes] = {}
_CLASSES: dict[type, bool] = {}


def _cands(g: Geometry) -> bytes:
    """The wall candidates as (orientation, row, column, size) bytes (kept per geometry)."""
    got = _CANDS.get(g)
    if got is None:
        got = _CANDS[g] = bytes(x for o, r, c, L, _, _ in g.cands for x in (o, r, c, L))
    return got


def plays_class(cls: type) -> bool:
    """The C code plays ZombiesVsVampires itself, or a subclass that only sets data (e.g. its
    own pack_root): a subclass that defines a method may change the rules, so Python plays it."""
    got = _CLASSES.get(cls)
    if got is None:
        from pnp.engines.zombies_vs_vampires.game import ZombiesVsVampires
        got = False
        for c in cls.__mro__:
            if c is ZombiesVsVampires:
                got = True
                break
            if any(callable(v) or isinstance(v, (classmethod, staticmethod, property))
                   for k, v in vars(c).items() if k not in ("__module__", "__doc__", "__qualname__")):
                break
        _CLASSES[cls] = got
    return got


def _small(*values: int) -> bool:
    return all(type(v) is int and -BIG <= v <= BIG for v in values)


def _walls_fit(st: ZombiesVsVampires) -> bool:
    """The walls on the board, built again in order, each fits (V9) and they are the wall masks
    the position holds."""
    g = st.geo
    ws = (0, 0, 0, 0)
    for ci in st.walls:
        if not (type(ci) is int and 0 <= ci < len(g.cands)) or not fits(g, ci, ws):
            return False
        ws = toggled(g, ci, ws)
    return ws == st._wall_set()


def supported(st: ZombiesVsVampires, rng: object, module: ModuleType) -> bool:
    """Whether the C code plays this position with this RNG (see the module docstring)."""
    g = st.geo
    if type(rng) is not Rng or type(st.rng) is not Rng or not plays_class(type(st)):
        return False
    if st._outcome is not None or st.phase not in (PH_CHOOSE, PH_ACT, PH_BUILD):
        return False
    if not (module.MIN_N <= g.N <= module.MAX_N and 1 <= st.players <= 4):
        return False
    if st.face not in (-1, 0, 1, 2, 3) or st.wsize not in (0, 1, 2, 3) or st.rerolled not in (True, False):
        return False
    faces = st._faces
    if not faces or not st.size_die or len(faces) > 64 or len(st.size_die) > 64:
        return False
    if any(not (type(k) is int and 0 <= k <= STEPS_MAX) for _, _, k in faces):
        return False
    if any(s not in (1, 2, 3) for s in st.size_die):
        return False
    if st._twostar_reroll and all(t == "2*" for t, _, _ in faces):
        return False
    if st.exact and (st.steps > module.MAX_EXACT_STEPS
                     or any(k > module.MAX_EXACT_STEPS for _, _, k in faces)):
        return False
    if not (_small(st.total_turns, st.steps, st.next_serial, st.max_turns, *st.supply, *st.home,
                   *st.turns_taken, *st.pieces_needed, *st.sit_out) and len(st.supply) == 4):
        return False
    n = st.players
    if not (0 <= st.turn < n and 0 <= st.first < n and len(st.finishers) <= n
            and all(type(p) is int and 0 <= p < n for p in st.finishers)
            and len(set(st.finishers)) == len(st.finishers)):
        return False
    occ = 0
    for q, m in zip(st.pos, st.occ_by):
        mq = 0
        for s in q:
            if type(s) is not int or s < 0 or not (g.board >> s) & 1:
                return False
            mq |= 1 << s
        if mq != m or mq & occ or mq.bit_count() != len(q):
            return False
        occ |= mq
    if occ != st.occ or len(st.walls) != len(st.wall_serial) or not _small(*st.wall_serial):
        return False
    return _walls_fit(st)


def native_playout(st: ZombiesVsVampires, rng: Rng, module: ModuleType) -> int | None:
    """Play ``st`` to its end in C (as ``random_playout`` plays it in Python) and return the
    moves played; None when the C code does not play it (nothing changed then)."""
    if not supported(st, rng, module):
        return None
    g = st.geo
    n = st.players
    seats = range(4)
    same = rng is st.rng
    cfg = {"N": g.N, "players": n, "exact": st.exact, "twostar_reroll": st._twostar_reroll,
           "v15_choose": st._v15_choose, "v15_reroll": st.v15_reroll,
           "end_immediate": st._end_immediate, "home_zone": st.home_zone_mode,
           "jump_home": st.jump_home, "max_turns": st.max_turns, "same_rng": same}
    for p in seats:
        cfg[f"pieces_needed{p}"] = st.pieces_needed[p] if p < n else 0
        cfg[f"sit_out{p}"] = st.sit_out[p] if p < n else 0
    state = {"turn": st.turn, "first": st.first, "total_turns": st.total_turns,
             "phase": st.phase, "face": st.face, "steps": st.steps, "wsize": st.wsize,
             "rerolled": st.rerolled, "face_text": module.TEXT_UNCHANGED, "face_text_steps": 0,
             "next_serial": st.next_serial, "nwalls": len(st.walls), "nfin": len(st.finishers)}
    for L in range(4):
        state[f"supply{L}"] = st.supply[L]
    for p in seats:
        state[f"home{p}"] = st.home[p] if p < n else 0
        state[f"turns_taken{p}"] = st.turns_taken[p] if p < n else 0
        state[f"finishers{p}"] = st.finishers[p] if p < len(st.finishers) else 0
        state[f"npos{p}"] = len(st.pos[p]) if p < n else 0
    nbytes = (g.W * (g.N + 2) + 63) // 64 * 8
    masks = b"".join(m.to_bytes(nbytes, "little") for p in range(n)
                     for m in (st.target_mask[p], st.keep_in[p]))
    cands = _cands(g)
    walls = array("q", bytes(16 * len(g.cands)))
    for i, (ci, serial) in enumerate(zip(st.walls, st.wall_serial)):
        walls[2 * i] = ci
        walls[2 * i + 1] = serial
    st_arr = array("q", [int(state[k]) for k in module.STATE_FIELDS])
    pieces = array("q", [s for q in st.pos for s in q])
    rngs = array("Q", [rng.state, st.rng.state])
    plies, end, (fired, counted) = module.playout(
        array("q", [int(cfg[k]) for k in module.CFG_FIELDS]),
        array("q", [x for text, face, steps in st._faces for x in (face, steps, text == "2*")]),
        array("q", st.size_die), cands, masks, st_arr, pieces, walls, rngs)
    _write_back(st, rng, module, dict(zip(module.STATE_FIELDS, st_arr)), pieces, walls, rngs,
                fired, counted, same)
    if end == module.END_DECIDE:
        st._decide()
    elif end == module.END_CAP:
        st._finish([], f"turn cap {st.max_turns} reached (seed {st.seed!r})", "cap")
    st.ply += plies
    return plies


def _write_back(st: ZombiesVsVampires, rng: Rng, module: ModuleType, s: dict, pieces: array,
                walls: array, rngs: array, fired: tuple, counted: tuple, same: bool) -> None:
    """The position the C code left, in the engine's attributes (the caches keyed by values stay;
    the movable-piece memo is dropped)."""
    g = st.geo
    n = st.players
    at = 0
    pos = []
    for p in range(n):
        k = s[f"npos{p}"]
        pos.append(tuple(pieces[at:at + k]))
        at += k
    st._set_pieces(pos)
    st.home = [s[f"home{p}"] for p in range(n)]
    st.turns_taken = [s[f"turns_taken{p}"] for p in range(n)]
    st.finishers = [s[f"finishers{i}"] for i in range(s["nfin"])]
    st.turn = s["turn"]
    st.total_turns = s["total_turns"]
    st.phase = s["phase"]
    st.face = s["face"]
    st.steps = s["steps"]
    st.wsize = s["wsize"]
    st.rerolled = bool(s["rerolled"])
    text = s["face_text"]
    if text == module.TEXT_SIZE_DIE:
        st.face_text = f"size die {s['face_text_steps']}"
    elif text != module.TEXT_UNCHANGED:
        st.face_text = st._faces[text][0]
    nw = s["nwalls"]
    st.walls = list(walls[0:2 * nw:2])
    st.wall_serial = list(walls[1:2 * nw:2])
    st.next_serial = s["next_serial"]
    st.supply = [s[f"supply{L}"] for L in range(4)]
    ws = (0, 0, 0, 0)
    for ci in st.walls:
        ws = toggled(g, ci, ws)
    st.NB, st.EB, st.HP, st.VP = ws
    st.spots6 = spot_sets(g, ws)
    rng.state = rngs[0]
    if not same:
        st.rng.state = rngs[1]
    names = module.RULES
    rf = st.rules_fired
    for i, k in fired:
        rf[names[i]] += k
    names = module.COUNTERS
    c = st.counters
    for i, k in counted:
        c[names[i]] += k
    st._src_memo = [None] * n
    st._gen_reach = None
    st._gen_info = None
