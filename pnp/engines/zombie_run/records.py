"""Zombie! Run for Your Lives!: the position as data (``to_dict`` state, test and scenario
positions) and its consistency check."""
from __future__ import annotations

from pnp.engines.core import Outcome, RecordError
from pnp.engines.zombie_run.deck import GAME, fast_shuffle
from pnp.engines.zombie_run.rules import PH_LIVING, PH_ZOMBIE
from pnp.engines.zombie_run.turns import Turns

POSITION_KEYS = {"hands", "tables", "alive", "deck", "discard", "turn", "special_used", "z6_used"}


def _jsonable(x):
    return [_jsonable(y) for y in x] if isinstance(x, tuple) else x


def _hashable(x):
    return tuple(_hashable(y) for y in x) if isinstance(x, list) else x


class Records(Turns):
    """``_state_dict`` / ``_load_state``, ``from_position`` and ``check_invariants``."""

    def _pairs(self, q: int) -> int:
        """Z4 broken: the symbols of which q's table holds both the item and the zombie."""
        tab = self.tables[q]
        return tab & tab >> self.S & self.IM

    def _state_dict(self) -> dict:
        d = self.data
        return {
            "deck": [d.names[t] for t in self.deck],          # last = top
            "discard": [d.names[t] for t in self.discard],
            "hands": [[d.names[t] for t in h] for h in self.hands],
            "tables": [self._table_names(q) for q in range(self.players)],
            "alive": list(self.alive),
            "special_used": self.special_used,
            "z6_used": self.z6_used,
            "phase": self.phase,
            "turns": self.turns,
            "outcome": self._outcome.to_dict() if self._outcome else None,
            "seen": [[list(map(_jsonable, k)), v] for k, v in self._seen.items()],
        }

    def _load_state(self, s: dict) -> None:
        self._init_common()
        d = self.data
        self.deck = [d.type_of(x) for x in s["deck"]]
        self.discard = [d.type_of(x) for x in s["discard"]]
        self.hands = [[d.type_of(x) for x in h] for h in s["hands"]]
        self.tables = [0] * self.players
        self.alive = [bool(a) for a in s["alive"]]
        self.living = sum(self.alive)
        self._sync_masks()
        for q, tab in enumerate(s["tables"]):
            for x in tab:
                self._put(d.type_of(x), q)
        self.special_used = bool(s["special_used"])
        self.z6_used = bool(s["z6_used"])
        self.phase = int(s["phase"])
        self.turns = int(s["turns"])
        self._outcome = Outcome.from_dict(s["outcome"]) if s.get("outcome") else None
        self._seen = {_hashable(k): v for k, v in s.get("seen") or []}

    @classmethod
    def from_position(cls, spec: dict, players: int = 3, seed=0, variants=None, options=None):
        """A position for tests and scenario records, at the moment the seat to move decides
        (its turn's draw already in its hand). ``spec`` keys: ``hands`` and ``tables`` (per seat
        lists of cards such as item:bat / zombie:bus / zombie:roach), ``alive`` (per seat),
        ``deck`` (top cards, top first; every card not placed elsewhere goes under them in a
        seeded order), ``discard``, ``turn`` (seat, 0-based), ``special_used``, ``z6_used``."""
        spec = dict(spec or {})
        unknown = set(spec) - POSITION_KEYS
        if unknown:
            raise RecordError(f"{GAME}: unknown position keys {sorted(unknown)}")
        st = cls(players=players, seed=seed, variants=variants, options=options)
        d = st.data
        n = players
        left = list(d.copies)

        def take(x):
            t = d.type_of(str(x))
            left[t] -= 1
            if left[t] < 0:
                raise RecordError(f"{GAME}: more than {d.copies[t]} copies of {x}")
            return t

        hands = spec.get("hands") or [[] for _ in range(n)]
        tables = spec.get("tables") or [[] for _ in range(n)]
        if len(hands) != n or len(tables) != n:
            raise RecordError(f"{GAME}: hands and tables need one entry per seat ({n})")
        st.hands = [[take(x) for x in h] for h in hands]
        st.tables = [0] * n
        st.alive = [bool(a) for a in spec.get("alive", [True] * n)]
        st.living = sum(st.alive)
        st._sync_masks()
        for q, tab in enumerate(tables):
            for x in tab:
                t = take(x)
                if not st._can_place(t, q):
                    raise RecordError(f"{GAME}: P{q + 1} table holds {x} twice (Z5)")
                st._put(t, q)
            if st._pairs(q):
                raise RecordError(f"{GAME}: P{q + 1} table holds an item and its zombie (Z4)")
        st.discard = [take(x) for x in spec.get("discard") or []]
        top = [take(x) for x in spec.get("deck") or []]
        rest = [t for t in range(d.NT) for _ in range(left[t])]
        fast_shuffle(st.rng, rest)
        st.deck = rest + top[::-1]                  # last = top
        st.rules_fired.clear()             # a fresh position: nothing has happened yet
        st._fire_log.clear()
        st.counters.clear()
        st._count_log.clear()
        st.turn = int(spec.get("turn", 0))
        st.phase = PH_LIVING if st.alive[st.turn] else PH_ZOMBIE
        st.special_used = bool(spec.get("special_used", False))
        st.z6_used = bool(spec.get("z6_used", False))
        st.turns = 1
        st._seen = {}
        st._outcome = None
        probs = st.check_invariants()
        if probs:
            raise RecordError(f"{GAME}: bad position: {'; '.join(probs)}")
        return st

    def check_invariants(self) -> list[str]:
        d = self.data
        count = [0] * d.NT
        for t in self.deck + self.discard + [t for h in self.hands for t in h]:
            count[t] += 1
        probs = []
        for q, tab in enumerate(self.tables):
            for t in self._table_types(q):
                count[t] += 1
            if self._pairs(q):
                probs.append(f"Z4: P{q + 1} holds an item and a zombie of the same symbol")
            if not self.alive[q] and tab:
                probs.append(f"Z8: zombie player P{q + 1} still has a table")
            roaches = self.PC[tab >> self.ROACH]
            if roaches > self.roach_cap:
                probs.append(f"Z5: P{q + 1} holds {roaches} symbol-less zombies")
            if self._outcome is None and self.alive[q]:
                if self.PC[tab & self.IM] >= self.win_items:
                    probs.append(f"Z7: P{q + 1} has won but the game goes on")
                if self._zcount(q) >= self.lose_zombies:
                    probs.append(f"Z8: P{q + 1} should be a zombie")
        for t in range(d.NT):
            if count[t] != d.copies[t]:
                probs.append(f"card {d.names[t]}: {count[t]} accounted for, {d.copies[t]} printed")
        if sum(count) != d.total:
            probs.append(f"{sum(count)} cards accounted for, {d.total} printed")
        if self.living != sum(self.alive):
            probs.append("living count out of step")
        return probs + self._mask_problems()
