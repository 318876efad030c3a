"""A record's starting position checked in Cimiterio's terms before it is set up: every zombie
at most once across the groups, the captured piles and the deck (C2, C9), groups only on gaps,
guardians only on the stops of the border (C3), events known to the pack, seats and slots in
range. Both forms: the compact one (``from_position``) and a to_dict() snapshot."""
from __future__ import annotations

from typing import Any

from pnp.engines.checks import BIG, Findings, Once, TwoFormChecks, is_int, where
from pnp.engines.cimiterio.positions import Positions
from pnp.engines.cimiterio.state import GATE_NAMES, SLOTS
from pnp.schema import Field, Schema

_GATES = "enum:" + "|".join(GATE_NAMES)
COMPACT_POSITION = Schema("cimiterio position", "A Cimiterio position written by hand (from_position).", {
    "tombs": Field("any", "identity | shuffled | the zombie on each tomb slot, in reading order.", None),
    "stacks": Field("map:list:any", "Groups: \"row,col\" -> zombies, bottom first (the leader last).", None),
    "captured": Field("map:list:any", "Captured zombies per seat (0-based).", None),
    "zombie_deck": Field("list:any", "Zombies on top of the deck, top first.", None),
    "events": Field("list:str", "Event cards on top of the deck, top first (noise:main, quiet...).", None),
    "discard": Field("list:str", "Event cards in the discard pile.", None),
    "guardians": Field("list:str", "The stops of G1 and G2 (\"row,col\").", None),
    "gate": Field(_GATES, "The gate's face.", None),
    "turn": Field("int", "The seat to move (0-based).", None),
    "slot": Field("int", "Actions already played this turn (0-3).", None),
}, unique=None)
SNAPSHOT_STATE = Schema("cimiterio snapshot", "A Cimiterio position as to_dict() writes it.", {
    "stacks": Field("map:list:int", "Groups: \"row,col\" -> zombie indices, bottom first."),
    "tomb_of": Field("list:str", "Per zombie: the cell of its tomb."),
    "zombie_deck": Field("list:int", "The zombie deck, the top last."),
    "event_deck": Field("list:int", "The event deck, the top last."),
    "event_discard": Field("list:int", "The event discard pile."),
    "guardians": Field("list:str", "The stops of G1 and G2."),
    "gate": Field(_GATES, "The gate's face."),
    "captured": Field("list:list:int", "Per seat: the zombies it captured."),
    "scores": Field("list:int", "Per seat: its points."),
    "slots": Field("str", "This turn's slots: A action, E event."),
    "slot": Field("int", "The next slot."),
    "wave": Field("any", "The wave under way: [rule, [[cell, guardian, part], ...]] or null.", None),
    "queue": Field("list:list:any", "Waves still to start.", None),
    "pending": Field("any", "A choice the player must make, or null.", None),
    "tiebreak": Field("int", "C23: the zombie whose capture wins (-1: none).", None),
    "last_capturer": Field("int", "The seat that captured last (-1: none).", None),
    "turns": Field("int", "Turns begun.", None),
    "result": Field("any", "The outcome, or null.", None),
    "awakened": Field("int", "Zombies ever awakened.", None),
    "last_event": Field("int", "The last event card drawn (-1: none).", None),
}, unique=None)


class PositionChecks(TwoFormChecks, Positions):
    """``validate_position`` for both position forms."""

    compact_position_schema = COMPACT_POSITION
    snapshot_state_schema = SNAPSHOT_STATE

    # ---------------------------------------------------------------- names in game terms
    def zombie_name(self, z: int) -> str:
        return f"zombie {z} ({self.cards.zombies[z][0]})"

    def _zombie(self, ref: Any, path: tuple, found: Findings) -> int | None:
        """A zombie named by a compact position (index, deceased id, zombie-NN, @tomb)."""
        if not isinstance(ref, (int, str)) or isinstance(ref, bool):
            found.add(path, f"a zombie is named by its number (0..{self.nz - 1}) or deceased id, not {ref!r}")
            return None
        return found.parsed(self.zombie_ref, ref, path, "zombie")

    def _zombie_index(self, z: int, path: tuple, found: Findings) -> int | None:
        return z if found.in_range(z, path, 0, self.nz - 1, "a zombie number") else None

    def _gap_cell(self, text: Any, path: tuple, found: Findings, what: str) -> int | None:
        """A cell a group may stand on (a gap of the map: not a tomb, the gate or the border)."""
        B = self.B
        c = found.parsed(B.parse_cell, str(text), path, what)
        if c is not None and not B.gap[c]:
            found.add(path, f"{what} {text}: a zombie group stands only on a gap, not on "
                            f"{'a tomb' if c in B.slots else 'the gate' if c == B.gate else 'a wall or stop'}")
            return None
        return c

    def _guardians(self, cells: list, path: tuple, found: Findings) -> None:
        """C3: two guardians, each on a stop of the border."""
        B = self.B
        if len(cells) != 2:
            found.add(path, f"two guardians (G1, G2), not {len(cells)}")
            return
        for g, text in enumerate(cells):
            c = found.parsed(B.parse_cell, text, path + (g,), f"guardian G{g + 1}")
            if c is not None and c not in B.ring_index:
                found.add(path + (g,), f"guardian G{g + 1} at {text} is not on a guardian stop "
                                       f"(the stops: {' '.join(B.cell_text(s) for s in B.ring)})")

    def _groups(self, stacks: dict, path: tuple, found: Findings, once: Once, compact: bool) -> None:
        for cell, zombies in stacks.items():
            where = path + (cell,)
            self._gap_cell(cell, where, found, "group at")
            if not zombies:
                found.add(where, f"the group at {cell} has no zombies (leave the cell out)")
            for i, ref in enumerate(zombies):
                z = (self._zombie(ref, where + (i,), found) if compact
                     else self._zombie_index(ref, where + (i,), found))
                if z is not None:
                    once.see(z, where + (i,), self.zombie_name(z))

    def _zombie_list(self, refs: list, path: tuple, found: Findings, once: Once, compact: bool) -> list[int]:
        out = []
        for i, ref in enumerate(refs):
            z = self._zombie(ref, path + (i,), found) if compact else self._zombie_index(ref, path + (i,), found)
            if z is not None and once.see(z, path + (i,), self.zombie_name(z)):
                out.append(z)
        return out

    # ---------------------------------------------------------------- the compact form
    def _check_compact(self, spec: dict, found: Findings) -> None:
        once = Once(found, _place)
        tombs = spec.get("tombs")
        if isinstance(tombs, list):
            if len(tombs) != self.nz:
                found.add(("tombs",), f"tombs lists the zombie of each of the {self.nz} tomb slots, "
                                      f"not {len(tombs)}")
            self._zombie_list(tombs, ("tombs",), found, Once(found), compact=True)
        elif tombs not in (None, "identity", "shuffled"):
            found.add(("tombs",), f"tombs: identity, shuffled or a list of zombies, not {tombs!r}")
        self._groups(spec.get("stacks") or {}, ("stacks",), found, once, compact=True)
        for seat, refs in (spec.get("captured") or {}).items():
            if found.seat(int(seat) if isinstance(seat, str) and seat.isdigit() else seat,
                          ("captured", seat), self.players, "captured: a seat"):
                self._zombie_list(refs, ("captured", seat), found, once, compact=True)
        self._zombie_list(spec.get("zombie_deck") or [], ("zombie_deck",), found, once, compact=True)
        used: set[int] = set()
        for key in ("events", "discard"):
            for i, text in enumerate(spec.get(key) or []):
                found.parsed(lambda t: self._event_ref(t, used), text, (key, i), "event card")
        if spec.get("guardians") is not None:
            self._guardians(spec["guardians"], ("guardians",), found)
        if spec.get("turn") is not None:
            found.seat(spec["turn"], ("turn",), self.players, "turn: the seat to move")
        if spec.get("slot") is not None:
            found.in_range(spec["slot"], ("slot",), 0, SLOTS.count("A"), "slot: actions already played")

    # ---------------------------------------------------------------- a to_dict() snapshot
    def _check_snapshot(self, s: dict, found: Findings) -> None:
        B = self.B
        players = self.players
        once = Once(found, _place)
        self._groups(s["stacks"], ("state", "stacks"), found, once, compact=False)
        if found.per_seat(s["captured"], ("state", "captured"), players, "captured"):
            for seat, zs in enumerate(s["captured"]):
                self._zombie_list(zs, ("state", "captured", seat), found, once, compact=False)
        self._zombie_list(s["zombie_deck"], ("state", "zombie_deck"), found, once, compact=False)
        if not found:
            once.missing(range(self.nz), ("state",), self.zombie_name)
        tombs = s["tomb_of"]
        if len(tombs) != self.nz:
            found.add(("state", "tomb_of"), f"tomb_of: one tomb per zombie ({self.nz}), not {len(tombs)}")
        tomb_once = Once(found, _state_where)
        for z, text in enumerate(tombs):
            c = found.parsed(B.parse_cell, text, ("state", "tomb_of", z), "tomb")
            if c is not None and c not in B.slots:
                found.add(("state", "tomb_of", z), f"the tomb of zombie {z} at {text} is not a tomb slot")
            elif c is not None:
                tomb_once.see(c, ("state", "tomb_of", z), f"the tomb at {text}")
        events = Once(found, _state_where)
        for key in ("event_deck", "event_discard"):
            for i, e in enumerate(s[key]):
                if found.in_range(e, ("state", key, i), 0, len(self.ev) - 1, "an event card number"):
                    events.see(e, ("state", key, i), f"event card {e}")
        self._guardians(s["guardians"], ("state", "guardians"), found)
        if found.per_seat(s["scores"], ("state", "scores"), players, "scores"):
            for seat, n in enumerate(s["scores"]):
                found.in_range(n, ("state", "scores", seat), 0, BIG, "a score")
        slots = s["slots"]
        if not slots or set(slots) - {"A", "E"} or len(slots) > 2 * len(SLOTS):
            found.add(("state", "slots"), f"slots: a row of A (action) and E (event), like {SLOTS}, not {slots!r}")
        else:
            found.in_range(s["slot"], ("state", "slot"), 0, len(slots), "slot: the next slot")
        self._check_flow(s, found)

    def _check_flow(self, s: dict, found: Findings) -> None:
        """The automatic flow under way: the wave, the waves queued, a pending choice, counters."""
        B = self.B
        wave = s.get("wave")
        if wave is not None:
            if not (isinstance(wave, list) and len(wave) == 2 and isinstance(wave[0], str)
                    and isinstance(wave[1], list)):
                found.add(("state", "wave"), "wave: [rule, [[cell, guardian, part], ...]] or null")
            else:
                for i, e in enumerate(wave[1]):
                    self._wave_entry(e, ("state", "wave", 1, i), found)
        for i, item in enumerate(s.get("queue") or []):
            path = ("state", "queue", i)
            ok = (item == ["bell"] or (len(item) == 2 and item[0] == "guard" and item[1] in (0, 1, 2)
                                       and is_int(item[1]))
                  or (len(item) == 2 and item[0] == "avenue" and isinstance(item[1], str)
                      and item[1] in B.avenues))
            if not ok:
                found.add(path, f"queue: [guard, 0|1|2], [avenue, {'|'.join(B.avenues)}] or [bell], not {item!r}")
        pending = s.get("pending")
        if pending is not None:
            at = ("state", "pending")
            if isinstance(pending, list) and len(pending) == 2 and pending[0] == "order" \
                    and isinstance(pending[1], list):
                for i, cell in enumerate(pending[1]):
                    self._gap_cell(cell, at + (1, i), found, "tied group at")
            elif isinstance(pending, list) and len(pending) == 2 and pending[0] == "personal":
                self._wave_entry(pending[1], at + (1,), found)
            else:
                found.add(at, "pending: [order, [cells]], [personal, [cell, guardian, part]] or null")
        if s.get("tiebreak") is not None:
            found.in_range(s["tiebreak"], ("state", "tiebreak"), -1, self.nz - 1, "tiebreak: a zombie or -1")
        if s.get("last_capturer") is not None:
            found.in_range(s["last_capturer"], ("state", "last_capturer"), -1, self.players - 1,
                           "last_capturer: a seat or -1")
        if s.get("turns") is not None:
            found.in_range(s["turns"], ("state", "turns"), 1, BIG, "turns")
        if s.get("awakened") is not None:
            found.in_range(s["awakened"], ("state", "awakened"), 0, BIG, "awakened")
        if s.get("last_event") is not None:
            found.in_range(s["last_event"], ("state", "last_event"), -1, len(self.ev) - 1,
                           "last_event: an event card or -1")
        result = s.get("result")
        if result is not None and not (isinstance(result, dict)
                                       and {"winners", "scores", "reason", "rule"} <= set(result)
                                       and isinstance(result["winners"], list)
                                       and isinstance(result["scores"], list)):
            found.add(("state", "result"), "result: null or {winners, scores, reason, rule}")

    def _wave_entry(self, e: Any, path: tuple, found: Findings) -> None:
        if not (isinstance(e, list) and len(e) == 3):
            found.add(path, f"a wave entry is [cell, guardian, part], not {e!r}")
            return
        self._gap_cell(e[0], path + (0,), found, "moving group at")
        found.in_range(e[1], path + (1,), -1, 1, "the guardian it moves to (0, 1; -1 the gate)")
        found.in_range(e[2], path + (2,), 0, 2, "part (0 whole, 1 upper, 2 lower half)")


def _state_where(path: tuple) -> str:
    return where(path[1:] if path[:1] == ("state",) else path)


def _place(path: tuple) -> str:
    """Where a zombie is, as a player says it."""
    path = path[1:] if path[:1] == ("state",) else path
    if path[0] == "stacks":
        return f"the group at {path[1]}"
    if path[0] == "captured":
        return f"seat {path[1]}'s captured pile"
    if path[0] == "zombie_deck":
        return "the zombie deck"
    return where(path)
