"""Zombies vs Vampires -- reference rules engine (rule points V1..V15).

Interpretations and variants: docs/rules/zombies-vs-vampires.md.

Geometry. An N x N board (the pack's 13 by default). Squares are bits of Python ints laid out row by row with
one guard column: square (r, c) is bit ``r*W + c`` with ``W = N + 1`` (row 0 is row "1" at the
bottom, column 0 is "a" on the left), so a shift by 1 / W moves a whole set of squares east /
north and the guard column swallows wrap-around. Walls lie in the grooves between squares (V9):

* ``EB``: squares whose east side has a wall (a vertical groove), ``NB``: squares whose north
  side has a wall (a horizontal groove). Movement masks them before shifting; these two ints are
  also the groove-occupancy sets used for "no overlap".
* ``HP`` / ``VP``: lattice points strictly inside a horizontal / vertical wall; a new wall
  crosses another when one of its interior points is an interior point of a perpendicular wall.

Wall notation: ``h:d4-3`` = a horizontal wall on the north side of d4 running east over 3
squares (d4, e4, f4); ``v:d4-2`` = a vertical wall on the east side of d4 running north over 2
squares (d4, d5).

Moves are ints ``kind << 24 | a << 12 | b``; text forms: ``move c3>c5>e5`` (each landing square;
``c3>e5`` is accepted too), ``build h:d4-3``, ``remove h:d4-3`` / ``remove w7`` (the 7th wall
built), ``build`` (under the +/- face: choose to build, then the size die is rolled), ``pass``,
``reroll``, ``roll action`` / ``roll size`` (V15 variants).
"""
from __future__ import annotations

import functools
import random
from pathlib import Path
from typing import ClassVar

from pnp.engines.core import GameState, Outcome, RecordError, register

GAME = "zombies-vs-vampires"
DATA_DIR = Path(__file__).resolve().parent.parent.parent / "data" / GAME

# documented fallback defaults (docs/rules/zombies-vs-vampires.md), equal to the shipped pack
DEFAULT_SIZE = 13
DEFAULT_WALLS = (6, 5, 4)          # size 1, 2, 3
DEFAULT_ACTION_DIE = ("2", "4", "6", "build", "pm", "2*")
DEFAULT_SIZE_DIE = (1, 2, 3, 1, 2, 3)
DEFAULT_SEATS = {2: ("nw", "ne"), 3: ("nw", "ne", "se"), 4: ("nw", "ne", "se", "sw")}
PIECES = 9
ZONE = 3

_FH = ("fh0", "fh1", "fh2", "fh3")   # counter keys: own turns until a seat's first piece home
# move kinds
MOVE, BUILD, REMOVE, PMBUILD, PASS, REROLL, ROLL = 1, 2, 3, 4, 5, 6, 7
# phases
PH_CHOOSE, PH_ACT, PH_BUILD, PH_OVER = 0, 1, 2, 3
# die faces (internal)
F_MOVE, F_BUILD, F_PM = 0, 1, 2


def default_zones(n: int) -> tuple:
    """The four 3x3 corner zones as (id, col0, col1, row0, row1, opposite) with rows counted from
    the TOP (0) like the pack's board.yaml."""
    e = n - ZONE
    return (("nw", 0, 2, 0, 2, "se"), ("ne", e, n - 1, 0, 2, "sw"),
            ("se", e, n - 1, e, n - 1, "nw"), ("sw", 0, 2, e, n - 1, "ne"))


def mkmove(kind: int, a: int = 0, b: int = 0) -> int:
    return kind << 24 | a << 12 | b


# ------------------------------------------------------------------------------- data
def _defaults() -> dict:
    return {"size": DEFAULT_SIZE, "walls": DEFAULT_WALLS, "action_die": DEFAULT_ACTION_DIE,
            "size_die": DEFAULT_SIZE_DIE, "zones": None, "seats": dict(DEFAULT_SEATS),
            "source": "defaults"}


def _load_zvv_data(root: Path | None = None) -> dict:
    """Board size, home zones, seating, wall supply and dice of ``data/zombies-vs-vampires``
    (the printed pack: board.yaml, walls.yaml, dice.yaml): through ``pnp.pack.load_pack``, else
    read with yaml.safe_load, else the documented defaults (a missing or half-written pack must
    not break the engine)."""
    root = root or DATA_DIR
    if not (root / "pack.yaml").exists():
        return _defaults()
    try:
        from pnp.pack import load_pack
        coll = load_pack(root).collections
        return _zvv_from(coll.get("board"), coll.get("walls"), coll.get("dice"),
                         f"{root} (load_pack)")
    except Exception:
        pass
    try:
        import yaml
        pack = yaml.safe_load((root / "pack.yaml").read_text(encoding="utf-8")) or {}
        coll = pack.get("collections") or {}

        def load(name):
            f = coll.get(name)
            if not f or not (root / f).exists():
                return None
            return yaml.safe_load((root / f).read_text(encoding="utf-8"))

        return _zvv_from(load("board"), load("walls"), load("dice"), f"{root} (yaml)")
    except Exception:
        return _defaults()


def _zvv_from(board, walls, dice, source) -> dict:
    out = _defaults()
    if isinstance(board, dict):
        size = board.get("size")
        if isinstance(size, dict):
            if size.get("cols") != size.get("rows"):
                raise ValueError("square boards only")
            size = size.get("cols")
        out["size"] = int(size)
        zones = []
        for z in board.get("zones") or []:
            c0, c1 = (int(x) for x in z["cols"])
            r0, r1 = (int(x) for x in z["rows"])
            zones.append((str(z["id"]), c0, c1, r0, r1, str(z["opposite"])))
        if zones:
            out["zones"] = tuple(zones)
        seats = {int(st["players"]): tuple(str(x) for x in st["zones"])
                 for st in board.get("seats") or []}
        if seats:
            out["seats"] = seats
    if walls:
        w = _walls_from(walls)
        if w:
            out["walls"] = w
    if isinstance(dice, list):
        for die in dice:
            faces = die.get("faces") or []
            if len(faces) != 6:
                continue
            if die.get("id") == "size":
                out["size_die"] = tuple(int(f["size"]) for f in faces)
            elif die.get("id") == "action":
                out["action_die"] = tuple(_face(f) for f in faces)
    out["source"] = source
    return out


def _face(f) -> str:
    if isinstance(f, dict):
        act = str(f.get("action", "")).lower()
        if act == "move":
            return str(int(f["steps"]))
        if act == "build":
            return "build"
        if act in ("build-or-remove", "pm", "plus-minus"):
            return "pm"
        if act in ("two-star", "2*"):
            return "2*"
        f = f.get("id")
    s = str(f).strip().lower()
    return {"±": "pm", "+/-": "pm", "two-star": "2*", "two": "2", "four": "4",
            "six": "6"}.get(s, s)


def _walls_from(v) -> tuple | None:
    counts = {}
    if isinstance(v, dict):
        for k, n in v.items():
            try:
                counts[int(str(k).replace("size", "").strip("-_ "))] = int(
                    n if not isinstance(n, dict) else n.get("count", n.get("quantity")))
            except (TypeError, ValueError):
                return None
    else:
        for e in v:
            if not isinstance(e, dict):
                return None
            size = e.get("size", e.get("length"))
            n = e.get("count", e.get("quantity", 1))
            try:
                counts[int(size)] = counts.get(int(size), 0) + int(n)
            except (TypeError, ValueError):
                return None
    if set(counts) != {1, 2, 3}:
        return None
    return (counts[1], counts[2], counts[3])


@functools.cache
def zvv_data() -> dict:
    """The shipped pack's data, read once."""
    return _load_zvv_data()


# ------------------------------------------------------------------------------- geometry
class Geometry:
    """Everything that depends only on the board: bit layout, zones, wall candidates."""

    def __init__(self, n: int, zones: tuple | None = None):
        if not 7 <= n <= 26:
            raise RecordError(f"board size {n} not in 7..26")
        self.N = N = n
        self.W = W = n + 1
        self.board = sum(1 << (r * W + c) for r in range(N) for c in range(N))
        self.full = (1 << (W * (N + 2))) - 1          # every bit a shift of the board can reach
        self.squares = [r * W + c for r in range(N) for c in range(N)]
        zones = zones or default_zones(n)
        self.zone_ids = [z[0] for z in zones]
        self.zone_masks = []
        self.zone_of = {}
        self.zone_squares = []
        self.zone_corner = []               # the zone square farthest from the board centre
        for zi, (zid, c0, c1, y0, y1, opp) in enumerate(zones):
            sq = [(N - 1 - y) * W + c for y in range(y0, y1 + 1) for c in range(c0, c1 + 1)]
            if not all(0 <= c0 <= c1 < N and 0 <= y0 <= y1 < N for _ in [0]):
                raise RecordError(f"zone {zid} is off the board")
            self.zone_squares.append(sorted(sq))
            self.zone_masks.append(sum(1 << s for s in sq))
            for s in sq:
                self.zone_of[s] = zi
            ctr = (N - 1) / 2
            self.zone_corner.append(max(sq, key=lambda s: abs(s // W - ctr) + abs(s % W - ctr)))
        self.opposite = [self.zone_ids.index(z[5]) for z in zones]
        # bit extraction tables: POS[i][byte] = the square indices of that byte's set bits.
        # Lanes: the move generator runs one BFS per piece side by side in one big int, lane i
        # at bit i*LS; LS leaves a guard row (shifts north/south fall into it) and is a whole
        # number of bytes.
        self.LS = ((N + 1) * W + 7) // 8 * 8
        self.lane_bytes = self.LS // 8
        self.lane_full = (1 << self.LS) - 1
        self.REP = [sum(1 << (i * self.LS) for i in range(m)) for m in range(PIECES + 1)]
        self.nbytes = self.lane_bytes
        self.POS = [[tuple(8 * i + k for k in range(8) if b >> k & 1) for b in range(256)]
                    for i in range(self.nbytes)]
        # wall candidates: (orient, r, c, L) -> masks; orient 0 = h, 1 = v
        self.cands: list[tuple] = []        # (o, r, c, L, groove_mask, interior_mask)
        self.cand_index: dict[tuple, int] = {}
        self.by_size: dict[int, list[int]] = {1: [], 2: [], 3: []}
        P = N + 1                           # lattice points (y, x), 0..N each: y*P + x
        for L in (1, 2, 3):
            for o in (0, 1):
                for r in range(N):
                    for c in range(N):
                        if o == 0:          # north side of (r, c..c+L-1)
                            if r >= N - 1 or c + L > N:
                                continue
                            cells = [(r, c + i) for i in range(L)]
                            other = [(r + 1, c + i) for i in range(L)]
                            inner = [(r + 1) * P + c + i for i in range(1, L)]
                        else:               # east side of (r..r+L-1, c)
                            if c >= N - 1 or r + L > N:
                                continue
                            cells = [(r + i, c) for i in range(L)]
                            other = [(r + i, c + 1) for i in range(L)]
                            inner = [(r + i) * P + c + 1 for i in range(1, L)]
                        bad = False
                        for (a, b), (a2, b2) in zip(cells, other):   # V9: not inside a zone
                            za = self.zone_of.get(a * W + b)
                            if za is not None and za == self.zone_of.get(a2 * W + b2):
                                bad = True
                        if bad:
                            continue
                        gm = sum(1 << (a * W + b) for a, b in cells)
                        im = sum(1 << p for p in inner)
                        self.cand_index[(o, r, c, L)] = len(self.cands)
                        self.by_size[L].append(len(self.cands))
                        self.cands.append((o, r, c, L, gm, im))
        # bit-parallel wall spots: a wall is named by its start square bit x = r*W + c; the
        # lattice of groove end points uses the same layout (P = N + 1 = W), so a horizontal
        # wall's interior points are x + W + i and a vertical wall's x + i*W + 1 (0 < i < L)
        self.start_mask = {}
        self.start_ci = {}
        for (o, r, c, L), ci in self.cand_index.items():
            x = r * W + c
            self.start_mask[(L, o)] = self.start_mask.get((L, o), 0) | 1 << x
            self.start_ci.setdefault((L, o), {})[x] = ci
        self.nbytes_full = (W * (N + 2) + 7) // 8
        self.POSF = [[tuple(8 * i + k for k in range(8) if b >> k & 1) for b in range(256)]
                     for i in range(self.nbytes_full)]
        self.build_lists = {L: ([(BUILD << 24 | ci << 12, self.cands[ci][4], self.cands[ci][5])
                                 for ci in self.by_size[L] if self.cands[ci][0] == 0],
                                [(BUILD << 24 | ci << 12, self.cands[ci][4], self.cands[ci][5])
                                 for ci in self.by_size[L] if self.cands[ci][0] == 1])
                            for L in (1, 2, 3)}

    def sq_name(self, s: int) -> str:
        r, c = divmod(s, self.W)
        return f"{chr(97 + c)}{r + 1}"

    def parse_sq(self, text: str) -> int:
        t = text.strip().lower()
        if len(t) < 2 or not t[0].isalpha() or not t[1:].isdigit():
            raise ValueError(f"bad square {text!r}")
        c = ord(t[0]) - 97
        r = int(t[1:]) - 1
        if not (0 <= c < self.N and 0 <= r < self.N):
            raise ValueError(f"square {text!r} is off the board")
        return r * self.W + c

    def wall_name(self, ci: int) -> str:
        o, r, c, L, _, _ = self.cands[ci]
        return f"{'hv'[o]}:{self.sq_name(r * self.W + c)}-{L}"

    def parse_wall(self, text: str) -> tuple:
        t = text.strip().lower()
        o, _, rest = t.partition(":")
        sq, _, ln = rest.partition("-")
        if o not in ("h", "v") or not ln.isdigit():
            raise ValueError(f"bad wall {text!r}: write h:<square>-<size> or v:<square>-<size>")
        s = self.parse_sq(sq)
        r, c = divmod(s, self.W)
        return ("hv".index(o), r, c, int(ln))


_GEOM: dict = {}


def geometry(n: int, zones: tuple | None = None) -> Geometry:
    key = (n, zones)
    g = _GEOM.get(key)
    if g is None:
        g = _GEOM[key] = Geometry(n, zones)
    return g


_POPCOUNT8 = tuple(bin(i).count("1") for i in range(256))


def _bits(x: int):
    while x:
        low = x & -x
        yield low.bit_length() - 1
        x ^= low


# ------------------------------------------------------------------------------- engine
@register(GAME)
class ZombiesVsVampires(GameState):
    """Zombies vs Vampires (2-4 players)."""

    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    default_options: ClassVar[dict] = {
        "size": None,            # board size; None = the pack's (13)
        "walls": None,           # "6,5,4" = walls of size 1,2,3; None = the pack's
        "exact": False,          # V4: False = up to n steps (clarifications), True = exactly n
        "twostar": "two",        # the "2*" face: two | reroll | choice (see docs)
        "v15": "off",            # V15 designer's rule: off | choose | reroll
        "end": "round",          # V12/V13: round = finish the round then V13; immediate
        "home": "zone",          # V11: zone = home pieces move only inside the far zone;
                                 #      locked = a piece ending its move there never moves again
        "jump_home": True,       # pieces safe at home may still be jumped over
        "seats": None,           # start zones in seat order, e.g. "nw,se"; None = the pack's
        "max_turns": 3000,       # never-ending guard (total turns)
    }
    rule_points: ClassVar[tuple] = ("V1", "V3", "V4", "V7", "V8", "V9", "V10", "V11", "V12",
                                    "V13", "V14", "V15")   # V5/V6/V2: movement constraints
    stat_labels: ClassVar[dict[str, str]] = {
        "walls_built": "walls built (V7/V8/V9)",
        "walls_removed": "walls removed (V8/V10)",
        "jump_moves": "moves that needed a jump (V6)",
        "blocked_turns": "blocked turns: no legal move / no wall spot (V14)",
        "turns_to_first_home": "turns (all players) until the first piece got home (V11)",
        "own_turns_to_first_home": "each seat's own turns until its first piece got home",
        "home_at_end": "pieces home at the end, per seat",
        "spoilers": "pieces squatting in another seat's far zone at the end",
    }
    variants: ClassVar[dict[str, dict]] = {
        "exact": {"exact": True},
        "twostar-reroll": {"twostar": "reroll"},
        "twostar-choice": {"twostar": "choice"},
        "v15-choose": {"v15": "choose"},
        "v15-reroll": {"v15": "reroll"},
        "immediate-end": {"end": "immediate"},
        "home-locked": {"home": "locked"},
        "head-on": {"seats": "nw,se"},
        "board11": {"size": 11, "walls": "4,3,2"},
        "board15": {"size": 15},
        "board19": {"size": 19, "walls": "8,7,6"},
    }

    # ---------------------------------------------------------------- setup
    def _init_common(self):
        d = zvv_data()
        o = self.options
        n = int(o["size"] or d["size"])
        zones = d["zones"] if n == d["size"] else None      # other sizes: corner zones
        self.geo = geometry(n, zones)
        w = o["walls"] or d["walls"]
        if isinstance(w, str):
            w = tuple(int(x) for x in w.replace("/", ",").split(","))
        self.total_walls = (0,) + tuple(int(x) for x in w)
        if len(self.total_walls) != 4:
            raise RecordError("walls: three counts (sizes 1, 2, 3)")
        self.action_die = tuple(d["action_die"])
        self.size_die = tuple(d["size_die"])
        if o["twostar"] not in ("two", "reroll", "choice"):
            raise RecordError("twostar: two | reroll | choice")
        if o["v15"] not in ("off", "choose", "reroll"):
            raise RecordError("v15: off | choose | reroll")
        if o["end"] not in ("round", "immediate"):
            raise RecordError("end: round | immediate")
        self.exact = bool(o["exact"])
        g = self.geo
        seats = d["seats"].get(self.players) or DEFAULT_SEATS[self.players]
        if o["seats"]:
            seats = tuple(x.strip() for x in str(o["seats"]).replace("/", ",").split(","))
        try:
            self.corners = tuple(g.zone_ids.index(z) for z in seats)
        except ValueError:
            raise RecordError(f"seats: zones are {', '.join(g.zone_ids)}") from None
        if len(self.corners) != self.players:
            raise RecordError(f"seats: name {self.players} zones")
        self.target_mask = [g.zone_masks[g.opposite[z]] for z in self.corners]
        self.max_turns = int(o["max_turns"])
        if o["home"] not in ("zone", "locked"):
            raise RecordError("home: zone | locked")
        self.home_zone_mode = o["home"] == "zone"
        self._cache = None
        self._wm = None                 # cached wall masks (see _wall_masks)
        self._lm = None                 # the same for the all-pieces BFS (_lane_reach)
        self._reach_memo = None         # last all-pieces reach (random_move), keyed by position
        self._jump_memo = None          # (move, occ, EB, NB, needed a jump) from the last check

    def _setup(self) -> None:
        self._init_common()
        g = self.geo
        self.pos = [tuple(g.zone_squares[z]) for z in self.corners]         # V1
        self.occ_by = [sum(1 << s for s in p) for p in self.pos]
        self.occ = 0
        for m in self.occ_by:
            self.occ |= m
        self.EB = self.NB = self.HP = self.VP = 0
        self.walls: list[int] = []         # candidate indices on the board, in build order
        self.wall_serial: list[int] = []   # serial number (w1, w2...) of each, same order
        self.next_serial = 1
        self.supply = list(self.total_walls)                                 # V1: all off
        self.home = [0] * self.players
        self.turns_taken = [0] * self.players
        self.first = self.rng.randbelow(self.players)                         # V1 random
        self.turn = self.first
        self.finishers: list[int] = []
        self.total_turns = 0
        self._outcome = None
        self.fire("V1")
        self._begin_turn()

    # ---------------------------------------------------------------- turn flow
    def _begin_turn(self) -> None:
        self.total_turns += 1
        self.turns_taken[self.turn] += 1
        self.rerolled = False
        self.face = -1
        self.steps = 0
        self.wsize = 0
        self._cache = None
        if self.total_turns > self.max_turns:
            self.fire("cap")
            self._finish([], f"turn cap {self.max_turns} reached (seed {self.seed!r})", "cap")
            return
        if self.options["v15"] == "choose" and self.home[self.turn]:
            self.phase = PH_CHOOSE                                            # V15
            return
        self._roll_action()

    def _roll_action(self) -> None:
        """V3: roll the action die and set up the decision."""
        self.phase = PH_ACT
        self.fire("V3")
        while True:
            f = self.action_die[self.rng.randbelow(6)]
            if f == "2*" and self.options["twostar"] == "reroll":
                self.fire("2*-reroll")
                continue
            break
        self.face_text = f
        if f in ("build",):
            self.face = F_BUILD
            self.fire("V7")
            self._roll_size()
        elif f == "pm":
            self.face = F_PM
        elif f == "2*" and self.options["twostar"] == "choice":
            self.face = F_PM + 1          # choose: move 2 / build / remove (see legal_moves)
        else:
            self.face = F_MOVE
            self.steps = 2 if f == "2*" else int(f)

    def _roll_size(self) -> None:
        self.wsize = self.size_die[self.rng.randbelow(6)]

    def _end_turn(self) -> None:
        p = self.turn
        if self.home[p] == PIECES and p not in self.finishers:
            self.finishers.append(p)
            self.fire("V12")
            if self.options["end"] == "immediate":
                self._decide()
                return
        nxt = (p + 1) % self.players
        if self.finishers and nxt == self.first:          # round over: V12/V13
            self._decide()
            return
        self.turn = nxt
        self._begin_turn()

    def _decide(self) -> None:
        f = self.finishers
        if len(f) == 1:
            self._finish(f, "all nine pieces home", "V12")
            return
        least = min(self.turns_taken[p] for p in f)
        win = [p for p in f if self.turns_taken[p] == least]
        self.fire("V13")
        self._finish(win, "tie in the same round: fewer turns, else shared" if len(win) > 1
                     else "tie in the same round: fewer turns wins", "V13")

    def _finish(self, winners, reason, rule) -> None:
        self._outcome = Outcome(tuple(sorted(winners)), tuple(self.home), reason, rule)
        self.phase = PH_OVER
        self._cache = None

    # ---------------------------------------------------------------- movement
    def _wall_masks(self) -> tuple:
        """(nEB, nWB, nNB, nSB): squares whose east / west / north / south side is open,
        as non-negative ints (cached until the walls change)."""
        wm = self._wm
        EB = self.EB
        NB = self.NB
        if wm is not None and wm[0] == EB and wm[1] == NB:
            return wm[2]
        full = self.geo.full
        W = self.geo.W
        masks = (full & ~EB, full & ~(EB << 1), full & ~NB, full & ~(NB << W))
        self._wm = (EB, NB, masks)
        return masks

    def _reach(self, p: int, s: int, k: int, jumps: bool = True) -> int:
        """Squares the piece of seat p on s can end on with up to k steps (V4-V6, V11);
        ``jumps=False``: walking only (for the jump statistics)."""
        g = self.geo
        W = g.W
        bit = 1 << s
        occ = self.occ ^ bit
        empty = g.board & ~occ
        tgt = self.target_mask[p]
        if not jumps:
            jo = 0
        elif self.options["jump_home"]:
            jo = occ
        else:
            jo = occ & ~self._home_set()
        nEB, nWB, nNB, nSB = self._wall_masks()
        zone_mode = self.home_zone_mode
        seen = bit
        front = bit
        reach = 0
        for _ in range(k):
            if zone_mode and front & tgt:
                # V11 (default "zone"): a piece in its far zone never leaves it
                fin = front & tgt
                front &= ~tgt
                nxt = self._expand(fin, empty, jo, nEB, nWB, nNB, nSB, W) & tgt
                if front:
                    nxt |= self._expand(front, empty, jo, nEB, nWB, nNB, nSB, W)
            else:
                e = (front & nEB) << 1
                w = (front & nWB) >> 1
                n = (front & nNB) << W
                so = (front & nSB) >> W
                nxt = (e | w | n | so) & empty
                if jo:
                    nxt |= ((e & jo & nEB) << 1 | (w & jo & nWB) >> 1 |
                            (n & jo & nNB) << W | (so & jo & nSB) >> W) & empty
            nxt &= ~seen
            if not nxt:
                break
            seen |= nxt
            reach |= nxt
            front = nxt
        return reach

    @staticmethod
    def _expand(front, empty, jo, nEB, nWB, nNB, nSB, W):
        e = (front & nEB) << 1
        w = (front & nWB) >> 1
        n = (front & nNB) << W
        so = (front & nSB) >> W
        return ((e | w | n | so) & empty) | (
            ((e & jo & nEB) << 1 | (w & jo & nWB) >> 1 |
             (n & jo & nNB) << W | (so & jo & nSB) >> W) & empty)

    def _home_set(self) -> int:
        m = 0
        for p in range(self.players):
            m |= self.occ_by[p] & self.target_mask[p]
        return m

    def _step_targets(self, p: int, s: int, occ: int) -> list[int]:
        """Single steps (walk or jump) from s with the given occupancy (for exact paths)."""
        g = self.geo
        W = g.W
        out = []
        jo = occ if self.options["jump_home"] else occ & ~self._home_set()
        for d, sh in enumerate((1, -1, W, -W)):                 # E W N S
            if self._blocked(s, d):
                continue
            t = s + sh
            if not (0 <= t and (g.board >> t) & 1):
                continue
            if not (occ >> t) & 1:
                out.append(t)
            elif (jo >> t) & 1 and not self._blocked(t, d):
                u = t + sh
                if u >= 0 and (g.board >> u) & 1 and not (occ >> u) & 1:
                    out.append(u)
        return out

    def _blocked(self, s: int, d: int) -> bool:
        W = self.geo.W
        if d == 0:
            return bool(self.EB >> s & 1)
        if d == 1:
            return s == 0 or bool(self.EB >> (s - 1) & 1)
        if d == 2:
            return bool(self.NB >> s & 1)
        return s < W or bool(self.NB >> (s - W) & 1)

    def _succ(self, p: int, cur: int, occ0: int) -> list[int]:
        """One step (walk or jump) from cur; V11 "zone": from inside the far zone only into it."""
        out = self._step_targets(p, cur, occ0)
        tgt = self.target_mask[p]
        if self.home_zone_mode and (tgt >> cur) & 1:
            out = [t for t in out if (tgt >> t) & 1]
        return out

    def _exact_paths(self, p: int, s: int, k: int, want: int | None = None):
        """Destinations (or one path to ``want``) of simple paths of exactly k steps (variant
        exact); a path may also end on the step that enters the far zone."""
        occ0 = self.occ ^ (1 << s)
        tgt = self.target_mask[p]
        dests = set()
        found = []

        def dfs(cur, path, left):
            if found:
                return
            for t in self._succ(p, cur, occ0):
                if t in path:
                    continue
                ends = left == 1 or ((tgt >> t) & 1 and not (tgt >> cur) & 1)
                if ends:
                    if want is None:
                        dests.add(t)
                    elif t == want:
                        found.append(path + [t])
                        return
                if left > 1:
                    dfs(t, path + [t], left - 1)

        dfs(s, [s], k)
        if want is not None:
            return found[0] if found else None
        return dests

    def _path(self, p: int, s: int, t: int, k: int) -> list[int] | None:
        """A shortest path (up-to mode) or an exact path from s to t, as squares incl. s."""
        if self.exact:
            return self._exact_paths(p, s, k, want=t)
        occ0 = self.occ ^ (1 << s)
        prev = {s: None}
        frontier = [s]
        for _ in range(k):
            nf = []
            for cur in frontier:
                for u in self._succ(p, cur, occ0):
                    if u not in prev:
                        prev[u] = cur
                        nf.append(u)
            frontier = nf
            if t in prev:
                break
        if t not in prev:
            return None
        out = [t]
        while prev[out[-1]] is not None:
            out.append(prev[out[-1]])
        return out[::-1]

    def movable(self, p: int) -> list[int]:
        """Pieces of p that may move (V11: home pieces only in the "zone" reading)."""
        if self.home_zone_mode:
            return list(self.pos[p])
        tgt = self.target_mask[p]
        return [s for s in self.pos[p] if not (tgt >> s) & 1]

    # ---------------------------------------------------------------- walls
    def _can_build(self, ci: int) -> bool:
        o, r, c, L, gm, im = self.geo.cands[ci]
        if o == 0:
            return not (gm & self.NB) and not (im & self.VP)
        return not (gm & self.EB) and not (im & self.HP)

    def _build(self, ci: int) -> None:
        o, r, c, L, gm, im = self.geo.cands[ci]
        if o == 0:
            self.NB |= gm
            self.HP |= im
        else:
            self.EB |= gm
            self.VP |= im
        self.walls.append(ci)
        self.wall_serial.append(self.next_serial)
        self.next_serial += 1
        self.supply[L] -= 1

    def _remove(self, ci: int) -> None:
        o, r, c, L, gm, im = self.geo.cands[ci]
        if o == 0:
            self.NB &= ~gm
            self.HP &= ~im
        else:
            self.EB &= ~gm
            self.VP &= ~im
        i = self.walls.index(ci)
        del self.walls[i]
        del self.wall_serial[i]
        self.supply[L] += 1                                                   # V10

    def build_spots(self, size: int) -> list[int]:
        """Candidate indices where a wall of ``size`` may be built now (V9, V10)."""
        return [m >> 12 & 0xFFF for m in self._build_moves(size)]

    def _build_spots(self, L: int) -> tuple[int, int]:
        """(horizontal, vertical) start-square bitsets of the legal spots for a wall of size L
        (V9: no overlap, no crossing, not inside a zone; the supply is not checked here)."""
        g = self.geo
        full = g.full
        W = g.W
        F = full & ~self.NB
        C = full & ~self.VP
        SH = g.start_mask[(L, 0)] & F
        G = full & ~self.EB
        CH = full & ~self.HP
        SV = g.start_mask[(L, 1)] & G
        for i in range(1, L):
            SH &= (F >> i) & (C >> (W + i))
            SV &= (G >> (i * W)) & (CH >> (i * W + 1))
        return SH, SV

    def _build_moves(self, size: int) -> list[int]:
        """Every legal wall spot of ``size`` as BUILD moves, in candidate order."""
        if self.supply[size] <= 0:
            return []                                                         # V10
        SH, SV = self._build_spots(size)
        g = self.geo
        ch = g.start_ci[(size, 0)]
        cv = g.start_ci[(size, 1)]
        B = BUILD << 24
        return [B | ch[x] << 12 for x in _bits(SH)] + [B | cv[x] << 12 for x in _bits(SV)]

    def _build_moves_ref(self, size: int) -> list[int]:
        """Reference: every candidate tested one by one (kept for the tests)."""
        if self.supply[size] <= 0:
            return []                                                         # V10
        H, V = self.geo.build_lists[size]
        NB, EB, HP, VP = self.NB, self.EB, self.HP, self.VP
        return ([m for m, gm, im in H if not gm & NB and not im & VP] +       # V9: no overlap,
                [m for m, gm, im in V if not gm & EB and not im & HP])        # no crossing

    # ---------------------------------------------------------------- legal moves
    def legal_moves(self) -> list[int]:
        if self._cache is not None:
            return self._cache[0]
        ms = self._gen()
        self._cache = (ms, set(ms))
        return ms

    def _move_moves(self, p: int, k: int) -> list[int]:
        if self.exact:
            out = []
            for s in self.movable(p):
                base = MOVE << 24 | s << 12
                out += [base | t for t in sorted(self._exact_paths(p, s, k))]
            return out
        srcs, reach = self._lane_reach(p, k)
        if not reach:
            return []
        g = self.geo
        m = len(srcs)
        out = []
        POS = g.POS
        lb = g.lane_bytes
        raw = reach.to_bytes(lb * m, "little")
        for i, s in enumerate(srcs):
            chunk = raw[i * lb:(i + 1) * lb]
            if not any(chunk):
                continue
            sq = []
            for j, b in enumerate(chunk):
                if b:
                    sq += POS[j][b]
            base = MOVE << 24 | s << 12
            out += [base | t for t in sq]
        return out

    def _lane_reach(self, p: int, k: int) -> tuple[list[int], int]:
        """(movable pieces, reach): one BFS lane per piece in one int (up-to mode)."""
        srcs = self.movable(p)
        m = len(srcs)
        if not m:
            return srcs, 0
        g = self.geo
        LS = g.LS
        W = g.W
        REP = g.REP[m]
        full = g.lane_full
        origins = 0
        for i, s in enumerate(srcs):
            origins |= 1 << (s + i * LS)
        occ = self.occ
        empty = ((g.board & ~occ) * REP) | origins          # each lane: its own origin vacated
        if self.options["jump_home"]:
            jo = (occ * REP) ^ origins
        else:
            jo = ((occ & ~self._home_set()) * REP) & ~origins
        EB = self.EB
        NB = self.NB
        lm = self._lm
        if lm is not None and lm[0] == EB and lm[1] == NB and lm[2] == m:
            nEB, nWB, nNB, nSB = lm[3]
        else:
            nEB = (full & ~EB) * REP
            nWB = (full & ~(EB << 1)) * REP
            nNB = (full & ~NB) * REP
            nSB = (full & ~(NB << W)) * REP
            self._lm = (EB, NB, m, (nEB, nWB, nNB, nSB))
        tgt = self.target_mask[p] * REP
        zone_mode = self.home_zone_mode
        seen = origins
        front = origins
        reach = 0
        for _ in range(k):
            if zone_mode and front & tgt:
                fin = front & tgt                 # V11 "zone": never leave the far zone
                front &= ~tgt
                e = (fin & nEB) << 1
                w = (fin & nWB) >> 1
                n = (fin & nNB) << W
                so = (fin & nSB) >> W
                nxt = (((e | w | n | so) & empty) | (
                    ((e & jo & nEB) << 1 | (w & jo & nWB) >> 1 |
                     (n & jo & nNB) << W | (so & jo & nSB) >> W) & empty)) & tgt
            else:
                nxt = 0
            if front:
                e = (front & nEB) << 1
                w = (front & nWB) >> 1
                n = (front & nNB) << W
                so = (front & nSB) >> W
                nxt |= ((e | w | n | so) & empty) | (
                    ((e & jo & nEB) << 1 | (w & jo & nWB) >> 1 |
                     (n & jo & nNB) << W | (so & jo & nSB) >> W) & empty)
            nxt &= ~seen
            if not nxt:
                break
            seen |= nxt
            reach |= nxt
            front = nxt
        return srcs, reach

    def _gen(self) -> list[int]:
        ph = self.phase
        p = self.turn
        if ph == PH_OVER:
            return []
        if ph == PH_CHOOSE:
            return [ROLL << 24, ROLL << 24 | 1]
        out: list[int] = []
        if ph == PH_BUILD:
            out = self._build_moves(self.wsize)
            return out or [PASS << 24]                                       # V14
        f = self.face
        if f == F_MOVE:
            out = self._move_moves(p, self.steps)
        elif f == F_BUILD:
            out = self._build_moves(self.wsize)
        elif f == F_PM:
            out = [REMOVE << 24 | ci << 12 for ci in self.walls]              # V8
            out.append(PMBUILD << 24)
        else:                                                                 # 2* = choice
            out = self._move_moves(p, 2)
            out += [REMOVE << 24 | ci << 12 for ci in self.walls]
            out.append(PMBUILD << 24)
        if not out:
            out.append(PASS << 24)
        if self.options["v15"] == "reroll" and self.home[p] and not self.rerolled:
            out.append(REROLL << 24)                                          # V15
        return out

    def _illegal_reason(self, move):
        if self._outcome is not None:
            return ("end", "the game is over")
        if not isinstance(move, int):
            return ("move", "not a move of this game")
        cache = self._cache
        if cache is not None:
            if move in cache[1]:
                return None
        elif self._legal_direct(move):
            return None
        kind = move >> 24
        a = move >> 12 & 0xFFF
        b = move & 0xFFF
        g = self.geo
        p = self.turn
        if kind == MOVE:
            if self.phase != PH_ACT or self.face not in (F_MOVE, F_PM + 1):
                return ("V3", f"the die shows {self.face_text!r}: no movement this turn")
            if a not in self.pos[p]:
                return ("V4", "move one of your own pieces")
            if (self.target_mask[p] >> a) & 1 and not self.home_zone_mode:
                return ("V11", "a piece home in the far zone stays there (variant locked)")
            if (self.home_zone_mode and (self.target_mask[p] >> a) & 1
                    and not (self.target_mask[p] >> b) & 1):
                return ("V11", "a piece in its far zone never leaves it")
            return self._diagnose_path(move)
        if kind == BUILD:
            if not (self.phase == PH_BUILD or (self.phase == PH_ACT and self.face == F_BUILD)):
                return ("V3", f"the die shows {self.face_text!r}: no building now")
            if a >= len(g.cands):
                return ("V9", "not a wall spot")
            o, r, c, L, gm, im = g.cands[a]
            if L != self.wsize:
                return ("V7", f"the size die shows {self.wsize}")
            if self.supply[L] <= 0:
                return ("V10", f"no wall of size {L} left in the supply")
            if gm & (self.NB if o == 0 else self.EB):
                return ("V9", "walls never overlap")
            return ("V9", "walls never cross")
        if kind == REMOVE:
            if not (self.phase == PH_ACT and self.face in (F_PM, F_PM + 1)):
                return ("V8", "walls are removed only on the +/- face")
            return ("V8", "no such wall on the board")
        if kind == PASS:
            return ("V14" if self.phase == PH_BUILD or self.face == F_BUILD else "V4",
                    "a legal action exists")
        if kind == PMBUILD:
            return ("V8", "choosing to build is for the +/- face")
        if kind == REROLL:
            return ("V15", "no re-roll available")
        return ("V3", "not a legal move here")

    def _legal_direct(self, move: int) -> bool:
        """Is ``move`` legal here? Checked directly (one piece's BFS, one wall spot...) without
        generating every legal move; equal to ``move in legal_moves()`` (tested)."""
        if move < 0:
            return False
        kind = move >> 24
        a = move >> 12 & 0xFFF
        b = move & 0xFFF
        ph = self.phase
        if ph == PH_ACT:
            f = self.face
            if kind == MOVE:
                if f == F_MOVE:
                    k = self.steps
                elif f == F_PM + 1:
                    k = 2
                else:
                    return False
                p = self.turn
                if not (self.occ_by[p] >> a) & 1:
                    return False
                if not self.home_zone_mode and (self.target_mask[p] >> a) & 1:
                    return False
                if self.exact:
                    return b in self._exact_paths(p, a, k)
                memo = self._reach_memo
                if (memo is not None and memo[0] == self.occ and memo[3] == p and memo[4] == k
                        and memo[1] == self.EB and memo[2] == self.NB and f == F_MOVE):
                    srcs = memo[5]
                    if a in srcs:
                        LS = self.geo.LS
                        return b < LS and bool(memo[6] >> (srcs.index(a) * LS + b) & 1)
                # walking reach first (a subset of the full reach, and cheaper); the jump
                # statistic of the move falls out of it and is kept for _apply
                W = self.geo.W
                ra, ca = divmod(a, W)
                rb, cb = divmod(b, W)
                if abs(ra - rb) + abs(ca - cb) <= k and self._reach(p, a, k, jumps=False) >> b & 1:
                    self._jump_memo = (move, self.occ, self.EB, self.NB, p, f, k, False)
                    return True
                if self._reach(p, a, k) >> b & 1:
                    self._jump_memo = (move, self.occ, self.EB, self.NB, p, f, k, True)
                    return True
                return False
            if kind == BUILD:
                return f == F_BUILD and b == 0 and self._build_ok(a, self.wsize)
            if kind == REMOVE:
                return f >= F_PM and b == 0 and a in self.walls
            if kind == PMBUILD:
                return f >= F_PM and move == PMBUILD << 24
            if kind == REROLL:
                return (move == REROLL << 24 and self.options["v15"] == "reroll"
                        and self.home[self.turn] > 0 and not self.rerolled)
            if kind == PASS:
                return move in set(self._gen())
            return False
        if ph == PH_BUILD:
            if kind == BUILD:
                return b == 0 and self._build_ok(a, self.wsize)
            return move == PASS << 24 and not self._build_moves(self.wsize)
        if ph == PH_CHOOSE:
            return kind == ROLL and a == 0 and b in (0, 1)
        return False

    def _build_ok(self, ci: int, size: int) -> bool:
        cands = self.geo.cands
        return (ci < len(cands) and cands[ci][3] == size and self.supply[size] > 0
                and self._can_build(ci))

    def _diagnose_path(self, move):
        a = move >> 12 & 0xFFF
        b = move & 0xFFF
        W = self.geo.W
        if b - a in (1, -1, W, -W, 2, -2, 2 * W, -2 * W):
            bad = self._check_path([a, b])
            if bad:
                return bad
        k = self.steps if self.face == F_MOVE else 2
        if self._path(self.turn, a, b, 4 * self.geo.N * self.geo.N) if not self.exact else None:
            return ("V4", f"more than {k} steps away")
        return ("V5", "that square cannot be reached (walls and pieces in the way)")

    # ---------------------------------------------------------------- apply
    def _apply(self, move: int) -> None:
        kind = move >> 24
        a = move >> 12 & 0xFFF
        b = move & 0xFFF
        p = self.turn
        self._cache = None
        if kind == MOVE:
            if self._was_jump(p, a, b):
                self.count("jumps")
            pos = self.pos[p]
            i = pos.index(a)
            self.pos[p] = pos[:i] + (b,) + pos[i + 1:]
            mv = (1 << a) | (1 << b)
            self.occ_by[p] ^= mv
            self.occ ^= mv
            self.fire("V4")
            tg = self.target_mask[p]
            if (tg >> b) & 1 and not (tg >> a) & 1:
                if not any(self.home):
                    self.count("first_home", self.total_turns)
                if not self.home[p]:
                    self.count(_FH[p], self.turns_taken[p])
                self.home[p] += 1
                self.fire("V11")
            self._end_turn()
        elif kind == BUILD:
            self._build(a)
            self.fire("V9")
            self._end_turn()
        elif kind == REMOVE:
            self._remove(a)
            self.fire("V8")
            self.fire("V10")
            self._end_turn()
        elif kind == PMBUILD:
            self.fire("V8")
            self._roll_size()
            self.phase = PH_BUILD
        elif kind == PASS:
            self.fire("V14" if (self.phase == PH_BUILD or self.face == F_BUILD) else "pass")
            self._end_turn()
        elif kind == REROLL:
            self.fire("V15")
            self.rerolled = True
            self._roll_action()
        elif kind == ROLL:
            self.fire("V15")
            if a == 0 and b == 0:
                self._roll_action()
            else:                         # the 1-2-3 die: move that many steps (docs)
                self.phase = PH_ACT
                self.face = F_MOVE
                self.steps = self.size_die[self.rng.randbelow(6)]
                self.face_text = f"size die {self.steps}"
        else:  # pragma: no cover
            raise ValueError(move)

    def _was_jump(self, p: int, a: int, b: int) -> bool:
        """Statistics: the move a>b could not have been made by walking alone (it needed at
        least one jump). Called before the piece leaves a."""
        W = self.geo.W
        k = self.steps if self.face == F_MOVE else 2
        jm = self._jump_memo
        if (jm is not None and jm[0] == (MOVE << 24 | a << 12 | b) and jm[1] == self.occ
                and jm[2] == self.EB and jm[3] == self.NB and jm[4] == p
                and jm[5] == self.face and jm[6] == k):
            return jm[7]
        ra, ca = divmod(a, W)
        rb, cb = divmod(b, W)
        if abs(ra - rb) + abs(ca - cb) > k:
            return True
        return not (self._reach(p, a, k, jumps=False) >> b) & 1

    # ---------------------------------------------------------------- outcome / undo
    def outcome(self):
        return self._outcome

    def _snapshot(self):
        return (self.pos[:], self.occ_by[:], self.occ, self.EB, self.NB, self.HP,
                self.VP, self.walls[:], self.wall_serial[:], self.next_serial, self.supply[:],
                self.home[:], self.turns_taken[:], self.finishers[:], self.total_turns,
                self._outcome, self.phase, self.face, self.face_text, self.steps, self.wsize,
                self.rerolled, self._cache)

    def _restore(self, snap) -> None:
        (self.pos, self.occ_by, self.occ, self.EB, self.NB, self.HP, self.VP, self.walls,
         self.wall_serial, self.next_serial, self.supply, self.home, self.turns_taken,
         self.finishers, self.total_turns, self._outcome, self.phase, self.face, self.face_text,
         self.steps, self.wsize, self.rerolled, self._cache) = snap

    # ---------------------------------------------------------------- notation
    def move_text(self, move: int) -> str:
        kind = move >> 24
        a = move >> 12 & 0xFFF
        b = move & 0xFFF
        g = self.geo
        if kind == MOVE:
            k = self.steps if self.face == F_MOVE else 2
            path = None
            if self.phase == PH_ACT and a in self.pos[self.turn]:
                path = self._path(self.turn, a, b, k)
            if not path:
                path = [a, b]
            return "move " + ">".join(g.sq_name(s) for s in path)
        if kind == BUILD:
            return "build " + g.wall_name(a)
        if kind == REMOVE:
            return "remove " + g.wall_name(a)
        if kind == PMBUILD:
            return "build"
        if kind == PASS:
            return "pass"
        if kind == REROLL:
            return "reroll"
        if kind == ROLL:
            return "roll size" if (a or b) else "roll action"
        return repr(move)

    def parse_move(self, text: str) -> int:
        s = " ".join(str(text).strip().lower().split())
        g = self.geo
        if s in ("pass", "reroll", "build", "roll action", "roll size"):
            return {"pass": PASS << 24, "reroll": REROLL << 24, "build": PMBUILD << 24,
                    "roll action": ROLL << 24, "roll size": ROLL << 24 | 1}[s]
        verb, _, rest = s.partition(" ")
        try:
            if verb == "move":
                sqs = [g.parse_sq(x) for x in rest.split(">")]
                if len(sqs) < 2:
                    raise ValueError("write move FROM>...>TO")
                mv = mkmove(MOVE, sqs[0], sqs[-1])
                if len(sqs) > 2:
                    bad = self._check_path(sqs)
                    if bad:
                        raise self.illegal(text, *bad)
                return mv
            if verb in ("build", "remove"):
                if verb == "remove" and rest.startswith("w") and rest[1:].isdigit():
                    serial = int(rest[1:])
                    if serial not in self.wall_serial:
                        raise self.illegal(text, "V8", f"no wall w{serial} on the board")
                    return mkmove(REMOVE, self.walls[self.wall_serial.index(serial)])
                spec = g.parse_wall(rest)
                ci = g.cand_index.get(spec)
                if ci is None:
                    o, r, c, L = spec
                    if L not in (1, 2, 3):
                        raise self.illegal(text, "V9", "walls have size 1, 2 or 3")
                    if (o == 0 and (r >= g.N - 1 or c + L > g.N)) or (
                            o == 1 and (c >= g.N - 1 or r + L > g.N)):
                        raise self.illegal(text, "V9", "the wall would leave the board's "
                                                       "inner grooves")
                    raise self.illegal(text, "V9", "no wall inside a 3x3 home zone")
                return mkmove(BUILD if verb == "build" else REMOVE, ci)
        except ValueError as e:
            if isinstance(e, Exception) and e.__class__.__name__ == "IllegalMoveError":
                raise
            raise self.illegal(text, "notation", str(e)) from None
        raise self.illegal(text, "notation", "moves: move A>B>C, build h:d4-3, remove w7 / "
                                             "remove h:d4-3, build, pass, reroll, roll action|size")

    def _check_path(self, sqs: list[int]):
        """Validate an explicit path step by step; returns (rule, reason) or None."""
        p = self.turn
        if self.phase != PH_ACT or self.face not in (F_MOVE, F_PM + 1):
            return ("V3", "no movement this turn")
        k = self.steps if self.face == F_MOVE else 2
        if len(sqs) - 1 > k:
            return ("V4", f"{len(sqs) - 1} steps, the die allows {k}")
        if self.exact and len(sqs) - 1 < k and not (
                (self.target_mask[p] >> sqs[-1]) & 1 and not (self.target_mask[p] >> sqs[-2]) & 1):
            return ("V4", f"exactly {k} steps (variant exact)")
        if sqs[0] not in self.pos[p]:
            return ("V4", "move one of your own pieces")
        occ0 = self.occ ^ (1 << sqs[0])
        g = self.geo
        W = g.W
        for i in range(len(sqs) - 1):
            s, t = sqs[i], sqs[i + 1]
            tg = self.target_mask[p]
            if self.home_zone_mode and (tg >> s) & 1 and not (tg >> t) & 1:
                return ("V11", "a piece in its far zone never leaves it")
            if t in self._step_targets(p, s, occ0):
                if self.exact and t in sqs[:i + 1]:
                    return ("V4", "an exact path may not revisit a square")
                continue
            diff = t - s
            d = {1: 0, -1: 1, W: 2, -W: 3, 2: 0, -2: 1, 2 * W: 2, -2 * W: 3}.get(diff)
            if d is None:
                return ("V5", f"{g.sq_name(s)}>{g.sq_name(t)} is not an orthogonal step or jump")
            if abs(diff) in (1, W):
                if self._blocked(s, d):
                    return ("V5", f"a wall between {g.sq_name(s)} and {g.sq_name(t)}")
                return ("V6", f"{g.sq_name(t)} is occupied")
            mid = s + diff // 2
            if not (occ0 >> mid) & 1:
                return ("V6", f"a jump needs a piece on {g.sq_name(mid)}")
            if self._blocked(s, d) or self._blocked(mid, d):
                return ("V6", "never jump over a wall")
            if (occ0 >> t) & 1:
                return ("V6", f"{g.sq_name(t)} is occupied")
            return ("V6", "illegal jump")
        return None

    def describe(self) -> str:
        g = self.geo
        p = self.turn
        ph = ("choose die", "act", "build", "over")[self.phase]
        die = getattr(self, "face_text", "?")
        s = (f"zvv {g.N}x{g.N} ply {self.ply}, P{p + 1} ({g.zone_ids[self.corners[p]]}) "
             f"to move, phase {ph}, die {die}")
        if self.phase == PH_BUILD or self.face == F_BUILD:
            s += f", wall size {self.wsize}"
        s += f"; home {self.home}; walls " + (", ".join(
            f"w{n}={g.wall_name(ci)}" for ci, n in zip(self.walls, self.wall_serial)) or "none")
        s += f"; supply {self.supply[1:]}; pieces " + " | ".join(
            " ".join(g.sq_name(x) for x in sorted(q)) for q in self.pos)
        return s

    def ascii(self) -> str:
        g = self.geo
        rows = []
        for r in range(g.N - 1, -1, -1):
            line = ""
            top = ""
            for c in range(g.N):
                s = r * g.W + c
                ch = "."
                for q in range(self.players):
                    if (self.occ_by[q] >> s) & 1:
                        ch = "ZVRG"[q]
                if ch == "." and s in g.zone_of:
                    ch = ","
                line += ch + ("|" if (self.EB >> s) & 1 else " ")
                top += ("--" if (self.NB >> s) & 1 else "  ")
            rows.append(top)
            rows.append(f"{r + 1:2d} " + line)
        rows.append("   " + " ".join(chr(97 + c) for c in range(g.N)))
        return "\n".join(rows[1:])

    # ---------------------------------------------------------------- serialisation
    def _state_dict(self) -> dict:
        g = self.geo
        return {
            "pieces": [[g.sq_name(s) for s in q] for q in self.pos],
            "walls": [[f"w{n}", g.wall_name(ci)] for ci, n in zip(self.walls, self.wall_serial)],
            "next_serial": self.next_serial,
            "supply": self.supply[1:],
            "total_walls": list(self.total_walls[1:]),
            "home": self.home[:],
            "turns_taken": self.turns_taken[:],
            "first": self.first,
            "finishers": self.finishers[:],
            "total_turns": self.total_turns,
            "phase": self.phase,
            "face": self.face,
            "face_text": getattr(self, "face_text", ""),
            "steps": self.steps,
            "wsize": self.wsize,
            "rerolled": self.rerolled,
            "outcome": self._outcome.to_dict() if self._outcome else None,
        }

    def _load_state(self, s: dict) -> None:
        self._init_common()
        g = self.geo
        self.pos = [tuple(g.parse_sq(x) for x in q) for q in s["pieces"]]
        self.occ_by = [sum(1 << x for x in q) for q in self.pos]
        self.occ = 0
        for m in self.occ_by:
            self.occ |= m
        self.EB = self.NB = self.HP = self.VP = 0
        self.walls, self.wall_serial = [], []
        if s.get("total_walls"):
            self.total_walls = (0,) + tuple(int(x) for x in s["total_walls"])
        self.supply = list(self.total_walls)
        self.next_serial = 1
        for name, spec in s["walls"]:
            ci = g.cand_index[g.parse_wall(spec)]
            self._build(ci)
            self.wall_serial[-1] = int(str(name).lstrip("w"))
        self.next_serial = int(s["next_serial"])
        self.supply = [0] + [int(x) for x in s["supply"]]
        self.home = [int(x) for x in s["home"]]
        self.turns_taken = [int(x) for x in s["turns_taken"]]
        self.first = int(s["first"])
        self.finishers = [int(x) for x in s["finishers"]]
        self.total_turns = int(s["total_turns"])
        self.phase = int(s["phase"])
        self.face = int(s["face"])
        self.face_text = s.get("face_text", "")
        self.steps = int(s["steps"])
        self.wsize = int(s["wsize"])
        self.rerolled = bool(s["rerolled"])
        self._outcome = Outcome.from_dict(s["outcome"]) if s.get("outcome") else None
        self._cache = None

    @classmethod
    def from_position(cls, spec: dict, players: int = 2, seed=0, variants=None, options=None):
        """A position for tests and scenario records. ``spec`` keys: ``pieces`` (per seat a list
        of squares; fewer than 9 only for tests), ``walls`` (["h:d4-3", ...]), ``die`` (the face
        showing: 2 4 6 2* build pm, or build-size = the wall size die after "build" under pm),
        ``wall_size``, ``turn`` (seat to move, 0-based), ``first`` (the seat that starts each
        round, default ``turn``), ``supply`` ([n1, n2, n3])."""
        spec = dict(spec or {})
        unknown = set(spec) - {"pieces", "walls", "die", "wall_size", "turn", "supply", "first"}
        if unknown:
            raise RecordError(f"{GAME}: unknown position keys {sorted(unknown)}")
        pieces = spec.get("pieces")
        walls = spec.get("walls") or ()
        die = str(spec.get("die", "4"))
        wall_size = int(spec.get("wall_size", 0))
        turn = int(spec.get("turn", 0))
        supply = spec.get("supply")
        st = cls(players=players, seed=seed, variants=variants, options=options)
        g = st.geo
        if pieces is not None:
            st.pos = [tuple(g.parse_sq(x) for x in q) for q in pieces]
            st.occ_by = [sum(1 << x for x in q) for q in st.pos]
            st.occ = 0
            for m in st.occ_by:
                st.occ |= m
            st.home = [sum(1 for x in q if (st.target_mask[i] >> x) & 1)
                       for i, q in enumerate(st.pos)]
        for w in walls:
            ci = g.cand_index[g.parse_wall(w)]
            if not st._can_build(ci):
                raise RecordError(f"wall {w} overlaps or crosses")
            st._build(ci)
        if supply is not None:         # a game with this many walls in the supply
            st.supply = [0] + [int(x) for x in supply]
            on = [0, 0, 0, 0]
            for ci in st.walls:
                on[g.cands[ci][3]] += 1
            st.total_walls = tuple(on[L] + st.supply[L] if L else 0 for L in range(4))
        st.rules_fired.clear()             # a fresh position: nothing has happened yet
        st._fire_log.clear()
        st.counters.clear()
        st._count_log.clear()
        st.turn = turn
        st.first = int(spec.get("first", turn))
        st.turns_taken = [1 if (q - st.first) % players <= (turn - st.first) % players else 0
                          for q in range(players)]
        st.total_turns = sum(st.turns_taken)
        st.phase = PH_ACT
        st.face_text = die
        st.wsize = wall_size
        if die == "build":
            st.face = F_BUILD
        elif die == "pm":
            st.face = F_PM
        elif die == "build-size":        # after choosing to build under +/-
            st.face = F_PM
            st.phase = PH_BUILD
        else:
            st.face = F_MOVE
            st.steps = 2 if die == "2*" else int(die)
        st._cache = None
        return st

    # ---------------------------------------------------------------- invariants
    def check_invariants(self) -> list[str]:
        probs = []
        g = self.geo
        for L in (1, 2, 3):
            on = sum(1 for ci in self.walls if g.cands[ci][3] == L)
            if on + self.supply[L] != self.total_walls[L]:
                probs.append(f"V10: size {L}: {on} on board + {self.supply[L]} in supply != "
                             f"{self.total_walls[L]}")
            if self.supply[L] < 0:
                probs.append(f"V10: negative supply of size {L}")
        NB = EB = HP = VP = 0
        for ci in self.walls:
            o, r, c, L, gm, im = g.cands[ci]
            if o == 0:
                if gm & NB or im & VP:
                    probs.append(f"V9: wall {g.wall_name(ci)} overlaps or crosses")
                NB |= gm
                HP |= im
            else:
                if gm & EB or im & HP:
                    probs.append(f"V9: wall {g.wall_name(ci)} overlaps or crosses")
                EB |= gm
                VP |= im
        if (NB, EB, HP, VP) != (self.NB, self.EB, self.HP, self.VP):
            probs.append("wall bitsets out of step with the wall list")
        occ = 0
        for p, q in enumerate(self.pos):
            if len(set(q)) != len(q):
                probs.append(f"P{p + 1}: two pieces on one square")
            m = sum(1 << x for x in q)
            if m & occ:
                probs.append("two pieces on one square")
            occ |= m
            if m != self.occ_by[p]:
                probs.append(f"P{p + 1}: occupancy out of step")
            h = sum(1 for x in q if (self.target_mask[p] >> x) & 1)
            if h != self.home[p]:
                probs.append(f"P{p + 1}: home count {self.home[p]} != {h}")
            if m & ~g.board:
                probs.append(f"P{p + 1}: a piece off the board")
        if occ != self.occ:
            probs.append("occupancy out of step")
        return probs

    # ---------------------------------------------------------------- simulation figures
    def stats(self) -> dict:
        rf = self.rules_fired
        c = self.counters
        n = self.players
        spoil = 0
        for q in range(n):
            for r in range(n):
                if r != q:
                    spoil += (self.occ_by[q] & self.target_mask[r]).bit_count()
        return {
            "walls_built": rf.get("V9", 0),
            "walls_removed": rf.get("V10", 0),
            "jump_moves": c.get("jumps", 0),
            "blocked_turns": rf.get("V14", 0) + rf.get("pass", 0),
            "turns_to_first_home": c.get("first_home") or None,
            "own_turns_to_first_home": [c.get(_FH[q]) or None for q in range(n)],
            "home_at_end": list(self.home),
            "spoilers": spoil,
        }

    # ---------------------------------------------------------------- bot helpers
    @property
    def turn_count(self) -> int:
        return self.total_turns

    def heuristic(self, seat: int) -> float:
        out = self._outcome
        if out is not None:
            return 1000.0 if seat in out.winners else -1000.0
        own = self.race_cost(seat)
        best_other = min(self.race_cost(q) for q in range(self.players) if q != seat)
        return best_other - own + 2.0 * self.home[seat]

    def distance_map(self, p: int) -> dict[int, int]:
        """Steps (walking, walls respected, pieces ignored) from each square to p's far zone."""
        _, layers = self._dist_layers(self.target_mask[p])
        return {s: d for d, layer in enumerate(layers) for s in _bits(layer)}

    def piece_distance_map(self, p: int) -> dict[int, int]:
        """Steps from each empty square to an empty square of p's far zone, walking and jumping
        around walls and pieces as they stand now (a BFS over the move graph, whose walk and
        jump edges join empty squares both ways)."""
        g = self.geo
        W = g.W
        empty = g.board & ~self.occ
        jo = self.occ
        EB, NB = self.EB, self.NB
        nEB, nWB, nNB, nSB = ~EB, ~(EB << 1), ~NB, ~(NB << W)
        front = self.target_mask[p] & empty
        seen = front
        dist = {}
        d = 0
        while front:
            for s in _bits(front):
                dist[s] = d
            nxt = self._expand(front, empty, jo, nEB, nWB, nNB, nSB, W) & ~seen
            seen |= nxt
            front = nxt
            d += 1
        return dist

    def _dist_layers(self, src: int):
        g = self.geo
        W = g.W
        EB, NB = self.EB, self.NB
        nEB, nWB, nNB, nSB = ~EB, ~(EB << 1), ~NB, ~(NB << W)
        board = g.board
        seen = src
        front = src
        layers = [src]
        while front:
            nxt = ((front & nEB) << 1 | (front & nWB) >> 1 | (front & nNB) << W |
                   (front & nSB) >> W) & board & ~seen
            # moving INTO a square: the wall test is on the source side; symmetric grooves
            seen |= nxt
            front = nxt
            if nxt:
                layers.append(nxt)
        return None, layers

    def race_cost(self, p: int) -> int:
        """Sum over p's pieces of the walking distance to the far zone (walls respected,
        pieces ignored); unreachable pieces cost 4*N*N."""
        _, layers = self._dist_layers(self.target_mask[p])
        left = self.occ_by[p]
        total = 0
        for d, layer in enumerate(layers):
            hit = left & layer
            if hit:
                total += d * hit.bit_count()
                left &= ~hit
        total += left.bit_count() * 4 * self.geo.N * self.geo.N
        return total

    def random_move(self, rnd) -> int:
        """A uniformly random legal move: the same move as ``legal_moves()[int(rnd() * n)]``,
        but on a move face it picks the index straight from the reach bitset (no list)."""
        if (self.phase == PH_ACT and self.face == F_MOVE and not self.exact
                and self._cache is None and not (self.options["v15"] == "reroll"
                                                 and self.home[self.turn] and not self.rerolled)):
            srcs, reach = self._lane_reach(self.turn, self.steps)
            # remember the reach of this exact position (keyed by its values, so a stale memo
            # can never match): push's legality check then reads the piece's lane
            self._reach_memo = (self.occ, self.EB, self.NB, self.turn, self.steps, srcs, reach)
            total = reach.bit_count()
            idx = int(rnd() * (total or 1))
            if not total:
                return PASS << 24
            g = self.geo
            LS = g.LS
            full = g.lane_full
            POS = g.POS
            PC8 = _POPCOUNT8
            for i, s in enumerate(srcs):
                lane = reach >> (i * LS) & full
                c = lane.bit_count()
                if idx >= c:
                    idx -= c
                    continue
                for j, byte in enumerate(lane.to_bytes(g.lane_bytes, "little")):
                    if byte:
                        c = PC8[byte]
                        if idx < c:
                            return MOVE << 24 | s << 12 | POS[j][byte][idx]
                        idx -= c
        if ((self.phase == PH_BUILD or (self.phase == PH_ACT and self.face == F_BUILD))
                and self._cache is None and not (self.phase == PH_ACT
                                                 and self.options["v15"] == "reroll"
                                                 and self.home[self.turn] and not self.rerolled)):
            L = self.wsize
            if self.supply[L] > 0:
                SH, SV = self._build_spots(L)
                nh = SH.bit_count()
                total = nh + SV.bit_count()
            else:
                total = 0
            idx = int(rnd() * (total or 1))
            if not total:
                return PASS << 24                                             # V14
            g = self.geo
            if idx < nh:
                bits, ci = SH, g.start_ci[(L, 0)]
            else:
                bits, ci, idx = SV, g.start_ci[(L, 1)], idx - nh
            PC8 = _POPCOUNT8
            POSF = g.POSF
            for j, byte in enumerate(bits.to_bytes(g.nbytes_full, "little")):
                if byte:
                    c = PC8[byte]
                    if idx < c:
                        return BUILD << 24 | ci[POSF[j][byte][idx]] << 12
                    idx -= c
        ms = self.legal_moves()
        return ms[int(rnd() * len(ms))]

    def playout(self, chooser: random.Random | None = None, seed: int = 0, bot=None):
        """Play to the end without undo records: uniformly random legal moves, or ``bot``
        (a function (state, rng) -> move int)."""
        ch = chooser or random.Random(seed)
        while self._outcome is None:
            m = bot(self, ch) if bot else self.random_move(ch.random)
            self._apply(m)
            self.ply += 1
        return self._outcome


# ------------------------------------------------------------------------------- bots
def greedy_bot(st: ZombiesVsVampires, rng: random.Random) -> int:
    """Races (largest drop in the BFS walking distance of the moved piece, home first) and builds
    walls to hinder the leader (largest rise of the leader's race cost minus its own)."""
    ms = st.legal_moves()
    if len(ms) == 1:
        return ms[0]
    p = st.turn
    kinds = {m >> 24 for m in ms}
    if ROLL in kinds:
        return ROLL << 24          # the action die: builds and big moves
    g = st.geo
    if MOVE in kinds:
        walls_only = st.distance_map(p)
        real = st.piece_distance_map(p)                  # around walls AND pieces (jumps too)
        far = 4 * g.N * g.N
        dist = {sq: d + 3 for sq, d in walls_only.items()}   # blocked for now: walls-only + 3
        dist.update(real)
        occ = st.occ
        tg = st.target_mask[p]
        cur = {}
        for a in set(m >> 12 & 0xFFF for m in ms if m >> 24 == MOVE):
            if (tg >> a) & 1:
                cur[a] = 0
                continue
            near = [real[t] + 1 for t in st._succ(p, a, occ ^ (1 << a)) if t in real]
            cur[a] = min(near) if near else dist.get(a, far)
        z = g.opposite[st.corners[p]]
        cr, cc = divmod(g.zone_corner[z], g.W)                      # the zone's outer corner
        depth = {}
        for q in g.zone_squares[z]:
            r, c = divmod(q, g.W)
            depth[q] = 0.5 + 0.3 * (4 - abs(r - cr) - abs(c - cc))
        best, bs = None, None
        for m in ms:
            if m >> 24 != MOVE:
                continue
            a = m >> 12 & 0xFFF
            b = m & 0xFFF
            sc = cur[a] - dist.get(b, far) + rng.random() * 0.01
            sc += depth.get(b, 0.0) - depth.get(a, 0.0)   # fill the far zone from the back
            if bs is None or sc > bs:
                best, bs = m, sc
        if bs is not None and bs > 0 or PMBUILD not in kinds:
            return best
    others = [q for q in range(st.players) if q != p]
    if not others:
        return ms[0]
    costs = {q: st.race_cost(q) for q in range(st.players)}
    leader = min(others, key=lambda q: costs[q])
    builds = [m for m in ms if m >> 24 == BUILD]
    removes = [m for m in ms if m >> 24 == REMOVE]
    if builds:
        cand = builds if len(builds) <= 24 else rng.sample(builds, 24)
        return _best_wall(st, cand, p, leader, costs) or cand[0]
    if removes:
        best, bs = None, 0
        for m in removes:
            o, r, c, L, gm, im = g.cands[m >> 12 & 0xFFF]
            if o == 0:
                st.NB &= ~gm
            else:
                st.EB &= ~gm
            gain = (costs[p] - st.race_cost(p)) - (costs[leader] - st.race_cost(leader))
            if o == 0:
                st.NB |= gm
            else:
                st.EB |= gm
            if gain > bs:
                best, bs = m, gain
        if best is not None:
            return best
    if PMBUILD << 24 in ms:
        return PMBUILD << 24
    return ms[int(rng.random() * len(ms))]


def _best_wall(st, cand, p, leader, costs):
    best, bs = None, None
    for m in cand:
        ci = m >> 12 & 0xFFF
        o, r, c, L, gm, im = st.geo.cands[ci]
        if o == 0:
            st.NB |= gm
        else:
            st.EB |= gm
        sc = (st.race_cost(leader) - costs[leader]) - (st.race_cost(p) - costs[p])
        if o == 0:
            st.NB &= ~gm
        else:
            st.EB &= ~gm
        sc += st_rng_tiebreak(m)
        if bs is None or sc > bs:
            best, bs = m, sc
    return best


def st_rng_tiebreak(m: int) -> float:
    return (m * 2654435761 % 1000) * 1e-6


ZombiesVsVampires.bots = {"racer": greedy_bot}      # simulate / playtest: --bot racer
