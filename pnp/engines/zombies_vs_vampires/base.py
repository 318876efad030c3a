"""The attributes of a game of Zombies vs Vampires and its configuration from the pack.

The engine is one class, ``ZombiesVsVampires`` (game.py), built in layers, each a module:
base (this: configuration and position) -> walls -> movement -> legality -> notation ->
bot_support -> records -> validation -> game. A layer uses only the layers below it.
"""
from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from pnp.engines.core import GameState, Outcome, RecordError
from pnp.engines.zombies_vs_vampires.data import zones_for, zvv_data
from pnp.engines.zombies_vs_vampires.geometry import Geometry, geometry
from pnp.engines.zombies_vs_vampires.moves import F_BUILD, F_CHOICE, F_MOVE, F_PM, GAME

LONE_HANDICAP = 2       # variant lone-handicap: turns the lone racer gives up (docs: seat fairness)


def _face(text: str, twostar: str) -> tuple[str, int, int]:
    """(text, face, steps) of one face of the action die: build (V7), +/- (V8), 2* (a plain 2,
    or the choice of variant twostar-choice), or a move of that many steps (V4)."""
    if text == "build":
        return text, F_BUILD, 0
    if text == "pm":
        return text, F_PM, 0
    if text == "2*":
        return (text, F_CHOICE, 0) if twostar == "choice" else (text, F_MOVE, 2)
    return text, F_MOVE, int(text)


class ZvvBase(GameState):
    """Configuration (the pack's board, walls and dice, and the options) and position."""

    pack_root: ClassVar[str | Path] = GAME    # the pack the game is read from (load_pack)

    # configuration: fixed for a game
    geo: Geometry
    total_walls: tuple[int, ...]        # (0, walls of size 1, 2, 3): the supply at the start
    action_die: tuple[str, ...]
    size_die: tuple[int, ...]
    exact: bool                         # V4 variant exact
    corners: tuple[int, ...]            # per seat: its start zone (index in geo.zone_ids)
    target_mask: list[int]              # per seat: its far zone (V2)
    keep_in: list[int]                  # per seat: the zone its pieces never leave (V11) or 0
    pieces_needed: list[int]            # per seat: pieces it must bring home (V2)
    max_turns: int
    home_zone_mode: bool                # V11: True = "zone", False = "locked"
    jump_home: bool                     # option jump_home: pieces home may be jumped (V6)
    v15_reroll: bool                    # V15 variant v15-reroll
    _v15_choose: bool                   # V15 variant v15-choose
    _twostar_reroll: bool               # variant twostar-reroll
    _end_immediate: bool                # V12 "ends at once" (the default)
    _faces: tuple[tuple[str, int, int], ...]    # the action die: (text, face, steps) a face
    sit_out: list[int]                  # per seat: turns it gives up at the start (handicap)
    # position
    pos: list[tuple[int, ...]]          # per seat: its pieces' squares
    occ_by: list[int]                   # per seat: the same as a set of squares
    occ: int                            # every piece
    EB: int                             # walls: squares with a wall on the east side
    NB: int                             # ... on the north side
    HP: int                             # lattice points inside a horizontal wall
    VP: int                             # ... inside a vertical wall
    spots6: tuple[int, ...]             # V9: the legal wall spots per (size, orientation) of
                                        # geometry.SPOT_KINDS, kept up to date (walls.py)
    walls: list[int]                    # candidate indices on the board, in build order
    wall_serial: list[int]              # serial number (w1, w2...) of each, same order
    next_serial: int
    supply: list[int]                   # [0, size 1, size 2, size 3] off the board
    home: list[int]                     # per seat: pieces in its far zone
    turns_taken: list[int]
    first: int                          # the seat that starts each round
    finishers: list[int]
    total_turns: int
    phase: int
    face: int
    face_text: str
    steps: int
    wsize: int
    rerolled: bool
    _outcome: Outcome | None
    # caches, all keyed by the values they were computed from
    _cache: list[int] | None            # legal_moves() of this position
    _wm: tuple | None                   # (EB, NB, open sides) (Movement._wall_masks)
    _lm: tuple | None                   # (EB, NB, open sides in every lane)
    _reach_memo: tuple | None           # last all-pieces reach (random_move), keyed by position
    _jump_memo: tuple | None            # (move, occ, EB, NB, seat, face, steps, needed a jump)
    _blists: dict                       # size -> (spots H, spots V, parts H, parts V)
    _src_memo: list                     # per seat: (its squares tuple, movable, lane origins)
    _gen_reach: tuple | None            # (movable, lanes) of the last MOVE list generated
    _gen_info: tuple | None             # (that list, movable, lanes): Legality._illegal_reason

    def _init_common(self) -> None:
        """Read the pack and the options into the configuration (no chance used)."""
        d = zvv_data(self.pack_root)
        o = self.options
        n = int(o["size"] or d.size)
        self.geo = geometry(n, zones_for(d, n))
        w = o["walls"] or d.walls
        if isinstance(w, str):
            w = tuple(int(x) for x in w.replace("/", ",").split(","))
        self.total_walls = (0,) + tuple(int(x) for x in w)
        if len(self.total_walls) != 4:
            raise RecordError("walls: three counts (sizes 1, 2, 3)")
        self.action_die = d.action_die
        self.size_die = d.size_die
        if o["twostar"] not in ("two", "reroll", "choice"):
            raise RecordError("twostar: two | reroll | choice")
        if o["v15"] not in ("off", "choose", "reroll"):
            raise RecordError("v15: off | choose | reroll")
        if o["end"] not in ("round", "immediate"):
            raise RecordError("end: round | immediate")
        self.exact = bool(o["exact"])
        g = self.geo
        if o["seats"]:
            seats = tuple(x.strip() for x in str(o["seats"]).replace("/", ",").split(","))
        elif self.players in d.seats:
            seats = d.seats[self.players]
        else:
            raise RecordError(f"the pack seats no {self.players}-player game: give seats=...")
        try:
            self.corners = tuple(g.zone_ids.index(z) for z in seats)
        except ValueError:
            raise RecordError(f"seats: zones are {', '.join(g.zone_ids)}") from None
        if len(self.corners) != self.players:
            raise RecordError(f"seats: name {self.players} zones")
        self.target_mask = [g.zone_masks[g.opposite[z]] for z in self.corners]
        # V2: all of a seat's pieces home, one piece for each square of its start zone (V1)
        self.pieces_needed = [len(g.zone_squares[z]) for z in self.corners]
        self.max_turns = int(o["max_turns"])
        if o["home"] not in ("zone", "locked"):
            raise RecordError("home: zone | locked")
        self.home_zone_mode = o["home"] == "zone"
        self.jump_home = bool(o["jump_home"])
        # V11, default "locked" (the seeds' "leave it there"): a piece home never moves again
        # (Movement.movable), so no zone to keep it in; variant home-zone: it never leaves the
        # zone but may move inside it (steps.reach)
        self.keep_in = [t if self.home_zone_mode else 0 for t in self.target_mask]
        self.v15_reroll = o["v15"] == "reroll"
        # the options the turn reads, looked up once: per face of the action die, (its text,
        # the face, the steps of a move) in die order (V3, V4; "2*" per option twostar)
        self._v15_choose = o["v15"] == "choose"
        self._twostar_reroll = o["twostar"] == "reroll"
        self._end_immediate = o["end"] == "immediate"
        self._faces = tuple(_face(f, o["twostar"]) for f in self.action_die)
        # seat fairness: a lone racer is a seat whose far zone is nobody's start zone while
        # another seat's is someone's (3 players: one seat races to the empty corner and wins
        # far more than its share, docs); option handicap: it gives up its first n turns
        h = int(o["handicap"])
        if h < 0:
            raise RecordError("handicap: a number of turns, 0 or more")
        lone = [g.opposite[z] not in self.corners for z in self.corners]
        self.sit_out = [h if lone[p] and not all(lone) else 0 for p in range(self.players)]
        self._cache = None
        self._wm = None
        self._lm = None
        self._reach_memo = None
        self._jump_memo = None
        self._blists = {}
        self._src_memo = [None] * self.players
        self._gen_reach = None
        self._gen_info = None

    def _set_pieces(self, pos: list[tuple[int, ...]]) -> None:
        """Put the pieces on these squares (per seat) and count the ones home."""
        self.pos = pos
        self.occ_by = [sum(1 << x for x in q) for q in pos]
        self.occ = 0
        for m in self.occ_by:
            self.occ |= m
        self.home = [(self.occ_by[i] & self.target_mask[i]).bit_count() for i in range(len(pos))]
