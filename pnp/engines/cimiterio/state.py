"""The Cimiterio position: what a game state holds, its undo record and its serialisation.

The rule modules (``turns``, ``movement``, ``actions``...) are mixins over this class, so every
attribute a rule reads or writes is declared here, in ``_blank``.
"""
from __future__ import annotations

import functools

from pnp.engines.cimiterio.board import Board
from pnp.engines.cimiterio.pack_data import Cards, tables
from pnp.engines.core import GameState, Outcome, RecordError

SLOTS = "AAAEAAE"        # C4: three actions, an event, two actions, an event
GATE_INTACT, GATE_DAMAGED, GATE_BROKEN = 0, 1, 2
GATE_NAMES = ("intact", "damaged", "broken")

EV_NOISE, EV_AWAKE, EV_QUIET, EV_BELL, EV_RESHUFFLE = range(5)
EV_KINDS = ("noise", "awakening", "quiet", "bell", "reshuffle")

# A wave entry (cell, guardian, part): the group on ``cell`` moves toward guardian 0/1 (noise) or
# the gate (-1, events); part 0 = the whole group, 1/2 = the upper/lower half of a split (C12).
Entry = tuple[int, int, int]


def _event_tuple(B: Board, e: tuple) -> tuple:
    """An event card as the engine plays it: (kind, avenue) / (kind, spot cell, count) / (kind,)."""
    if e[0] == "noise":
        if e[1] not in B.avenues:
            raise RecordError(f"cimiterio: noise event names unknown avenue {e[1]!r}")
        return (EV_NOISE, e[1])
    if e[0] == "awakening":
        if e[1] not in B.spots:
            raise RecordError(f"cimiterio: awakening event names unknown spot {e[1]!r}")
        return (EV_AWAKE, B.spots[e[1]], e[2])
    if e[0] not in EV_KINDS:
        raise RecordError(f"cimiterio: unknown event kind {e[0]!r}")
    return (EV_KINDS.index(e[0]),)


@functools.lru_cache(maxsize=32)
def rule_tables(pack: str, metric: str, step: str, map_id: str) -> tuple[Board, Cards, tuple, tuple]:
    """(board, cards, the event cards as played, the zombies' points) for a game's options: made
    once per option set, not at every set-up (a bad event card raises every time: errors are not
    cached)."""
    B, cards = tables(pack, metric, step, map_id)
    return B, cards, tuple(_event_tuple(B, e) for e in cards.events), tuple(p for _, p in cards.zombies)


class CimiterioState(GameState):
    """Zombie groups are stacks (tuples of zombie indices, bottom first: the leader is the last
    element) on gap cells; decks are tuples whose top is the last element."""

    B: Board
    cards: Cards

    # ---------------------------------------------------------------- tables and blank state
    def _tables(self) -> None:
        o = self.options
        self.B, self.cards, self.ev, self.values = rule_tables(o["pack"], o["metric"], o["step"], o["map"])
        self.nz = len(self.cards.zombies)
        self.holds = self.cards.holds
        self.pull = self.cards.pull
        self.movement = self.cards.movement
        self._order_choice = o["order"] == "choice"
        self._personal = int(o["personal"])
        self._personal_owner = int(o["personal_owner"])
        self._attack_any = o["attack"] != "arrive"
        self._bell_captures = bool(o["bell_capture"])
        self._cap = o["cap"]
        self._restless = o["restless"]
        if o["personal"] >= self.nz:
            raise RecordError(f"cimiterio: personal zombie {o['personal']} out of range")

    def _blank(self) -> None:
        self._tables()
        self.stacks: dict[int, tuple] = {}
        self.tomb_of: tuple = ()          # per zombie: the cell of its tomb
        self.zdeck: tuple = ()
        self.edeck: tuple = ()
        self.ediscard: tuple = ()
        self.guards: tuple = self.B.guardian_start     # ring indices of G1, G2
        self.gate = GATE_DAMAGED if self.options["gate_damaged"] else GATE_INTACT
        self.captured: tuple = ((),) * self.players
        self.scores: tuple = (0,) * self.players
        self.slots = SLOTS                # this turn's slots, "A" action / "E" event (C4, C5)
        self.si = 0                       # the next slot
        self.wave: tuple[str, tuple[Entry, ...]] | None = None   # (rule, groups still to move)
        self.queue: tuple = ()            # waves still to start: ("guard", g) ("avenue", id) ("bell",)
        self.pending: tuple | None = None   # ("order", cells) (C19) | ("personal", entry) (C24)
        self.tiebreak = -1                # C23: the zombie whose capture wins
        self.last_capturer = -1
        self.turns = 1
        self.result: Outcome | None = None
        self.awakened = 0
        self.last_event = -1

    def _deal_tombs(self, order) -> None:
        """C1: the tomb cards of the zombies in ``order`` dealt onto the slots in reading order."""
        order = tuple(order)
        slots = self.B.slots
        if len(order) <= len(slots):
            # zombie z's tomb is the slot at z's place in ``order`` (the inverse permutation, by
            # a C-level sort: set-up is part of every simulated game)
            self.tomb_of = tuple(map(slots.__getitem__, sorted(range(len(order)), key=order.__getitem__)))
            return
        tomb_of = [0] * self.nz           # a map with fewer slots than zombies: the rest get 0
        for slot, z in zip(slots, order):
            tomb_of[z] = slot
        self.tomb_of = tuple(tomb_of)

    def value(self, z: int, seat: int) -> int:
        """C21 points of zombie ``z`` for ``seat`` (C24: personalised zombie 3 / 4)."""
        if z == self.options["personal"]:
            return 3 if seat == self.options["personal_owner"] else 4
        return self.values[z]

    # ---------------------------------------------------------------- undo
    def _snapshot(self):
        return (dict(self.stacks), self.zdeck, self.edeck, self.ediscard, self.guards, self.gate,
                self.captured, self.scores, self.slots, self.si, self.wave, self.queue,
                self.pending, self.tiebreak, self.last_capturer, self.turns, self.result,
                self.awakened, self.last_event, self.tomb_of)

    def _restore(self, s) -> None:
        (self.stacks, self.zdeck, self.edeck, self.ediscard, self.guards, self.gate,
         self.captured, self.scores, self.slots, self.si, self.wave, self.queue,
         self.pending, self.tiebreak, self.last_capturer, self.turns, self.result,
         self.awakened, self.last_event, self.tomb_of) = s

    # ---------------------------------------------------------------- serialisation
    def _state_dict(self) -> dict:
        B = self.B
        ct = B.cell_text

        def entry(e):
            return [ct(e[0]), e[1], e[2]]

        return {
            "stacks": {ct(c): list(s) for c, s in sorted(self.stacks.items())},
            "tomb_of": [ct(c) for c in self.tomb_of],
            "zombie_deck": list(self.zdeck),
            "event_deck": list(self.edeck),
            "event_discard": list(self.ediscard),
            "guardians": [ct(B.ring[g]) for g in self.guards],
            "gate": GATE_NAMES[self.gate],
            "captured": [list(c) for c in self.captured],
            "scores": list(self.scores),
            "slots": self.slots,
            "slot": self.si,
            "wave": None if self.wave is None else [self.wave[0], [entry(e) for e in self.wave[1]]],
            "queue": [list(q) for q in self.queue],
            "pending": (None if self.pending is None else
                        ["order", [ct(c) for c in self.pending[1]]] if self.pending[0] == "order"
                        else ["personal", entry(self.pending[1])]),
            "tiebreak": self.tiebreak,
            "last_capturer": self.last_capturer,
            "turns": self.turns,
            "result": None if self.result is None else self.result.to_dict(),
            "awakened": self.awakened,
            "last_event": self.last_event,
        }

    def _load_state(self, d: dict) -> None:
        self._blank()
        B = self.B
        pc = B.parse_cell

        def entry(e) -> Entry:
            return (pc(e[0]), int(e[1]), int(e[2]))

        self.stacks = {pc(k): tuple(int(z) for z in v) for k, v in d["stacks"].items()}
        self.tomb_of = tuple(pc(c) for c in d["tomb_of"])
        self.zdeck = tuple(d["zombie_deck"])
        self.edeck = tuple(d["event_deck"])
        self.ediscard = tuple(d["event_discard"])
        self.guards = tuple(B.ring_index[pc(c)] for c in d["guardians"])
        self.gate = GATE_NAMES.index(d["gate"])
        self.captured = tuple(tuple(c) for c in d["captured"])
        self.scores = tuple(d["scores"])
        self.slots = d["slots"]
        self.si = int(d["slot"])
        # records written by older engines may lack the keys below
        w = d.get("wave")
        self.wave = None if w is None else (w[0], tuple(entry(e) for e in w[1]))
        self.queue = tuple(tuple(q) for q in d.get("queue", ()))
        p = d.get("pending")
        self.pending = (None if p is None else ("order", tuple(pc(c) for c in p[1]))
                        if p[0] == "order" else ("personal", entry(p[1])))
        self.tiebreak = int(d.get("tiebreak", -1))
        self.last_capturer = int(d.get("last_capturer", -1))
        self.turns = int(d.get("turns", 1))
        r = d.get("result")
        self.result = None if r is None else Outcome.from_dict(r)
        self.awakened = int(d.get("awakened", self.nz - len(self.zdeck)))
        self.last_event = int(d.get("last_event", -1))
