"""Positions as data: undo snapshots, ``to_dict`` / ``from_dict`` and ``from_position`` (the
test and scenario positions)."""
from __future__ import annotations

from pnp.engines.core import Outcome, RecordError
from pnp.engines.zombies_vs_vampires.bot_support import BotSupport
from pnp.engines.zombies_vs_vampires.moves import F_BUILD, F_MOVE, F_PM, GAME, PH_ACT, PH_BUILD

_POSITION_KEYS = {"pieces", "walls", "die", "wall_size", "turn", "supply", "first"}


class Records(BotSupport):
    """Saving and restoring positions."""

    def _snapshot(self):
        # tuples, not lists: the undo stack of a long game holds thousands of records, and
        # the cyclic GC walks every list in it on each full collection (it stops tracking a
        # tuple of ints); the move list is kept as a tuple for the same reason
        c = self._cache
        return (tuple(self.pos), tuple(self.occ_by), self.occ, self.EB, self.NB, self.HP,
                self.VP, self.spots6, tuple(self.walls), tuple(self.wall_serial),
                self.next_serial, tuple(self.supply), tuple(self.home), tuple(self.turns_taken),
                tuple(self.finishers), self.total_turns, self._outcome, self.phase, self.face,
                self.face_text, self.steps, self.wsize, self.rerolled,
                None if c is None else tuple(c))

    def _restore(self, snap) -> None:
        (pos, occ_by, self.occ, self.EB, self.NB, self.HP, self.VP, self.spots6, walls,
         serial, self.next_serial, supply, home, turns_taken, finishers, self.total_turns,
         self._outcome, self.phase, self.face, self.face_text, self.steps, self.wsize,
         self.rerolled, cache) = snap
        self.pos = list(pos)
        self.occ_by = list(occ_by)
        self.walls = list(walls)
        self.wall_serial = list(serial)
        self.supply = list(supply)
        self.home = list(home)
        self.turns_taken = list(turns_taken)
        self.finishers = list(finishers)
        self._cache = None if cache is None else list(cache)

    def _clear_walls(self) -> None:
        self.EB = self.NB = self.HP = self.VP = 0
        self.spots6 = self.geo.open_spots
        self.walls, self.wall_serial = [], []
        self.next_serial = 1
        self.supply = list(self.total_walls)

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
        self._set_pieces([tuple(g.parse_sq(x) for x in q) for q in s["pieces"]])
        if s.get("total_walls"):
            self.total_walls = (0,) + tuple(int(x) for x in s["total_walls"])
        self._clear_walls()
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
        unknown = set(spec) - _POSITION_KEYS
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
            st._set_pieces([tuple(g.parse_sq(x) for x in q) for q in pieces])
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
