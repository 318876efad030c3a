"""Compact, hand-written positions for scenario records (``Cimiterio.from_position``) and the
names they give zombies and event cards."""
from __future__ import annotations

from typing import Any

from pnp.engines.cimiterio.state import GATE_NAMES, SLOTS
from pnp.engines.cimiterio.turns import Turns
from pnp.engines.core import RecordError

POSITION_KEYS = {"tombs", "stacks", "captured", "zombie_deck", "events", "guardians", "gate",
                 "turn", "slot", "discard"}


class Positions(Turns):

    def position_mismatches(self, key: str, want, got: dict) -> list[tuple[tuple, Any, Any, str]] | None:
        """``expect.position`` in Cimiterio's terms: ``stacks`` as full lists of zombie refs or as
        group sizes, ``absent`` cells that must be empty, ``captured`` per seat as zombie refs,
        ``zombies_on_board`` a count; other keys compare as written."""
        ref = self.zombie_ref
        bad: list[tuple[tuple, Any, Any, str]] = []
        if key == "stacks":
            for cell, v in want.items():
                g = got["stacks"].get(cell)
                if isinstance(v, int):
                    if g is None or len(g) != v:
                        bad.append(((key, cell), v, g, f"stack {cell}: expected {v} zombies, got {g}"))
                else:
                    vv = [ref(x) for x in v]
                    if g != vv:
                        bad.append(((key, cell), vv, g, f"stack {cell}: expected {vv}, got {g}"))
        elif key == "absent":
            for i, cell in enumerate(want):
                if cell in got["stacks"]:
                    bad.append(((key, i), None, got["stacks"][cell],
                                f"cell {cell} should be empty, holds {got['stacks'][cell]}"))
        elif key == "captured":
            for seat, refs in want.items():
                vv = [ref(x) for x in refs]
                if got["captured"][int(seat)] != vv:
                    bad.append(((key, seat), vv, got["captured"][int(seat)],
                                f"captured[{seat}]: expected {vv}, got {got['captured'][int(seat)]}"))
        elif key == "zombies_on_board":
            n = sum(len(s) for s in got["stacks"].values())
            if n != want:
                bad.append(((key,), want, n, f"zombies on board: expected {want}, got {n}"))
        else:
            return None
        return bad

    def zombie_ref(self, ref) -> int:
        """A zombie named by index (int), deceased id, ``zombie-NN`` card id, or ``@r,c`` (the
        zombie whose tomb is at r,c)."""
        if isinstance(ref, int):
            if 0 <= ref < self.nz:
                return ref
        elif isinstance(ref, str):
            if ref.startswith("@"):
                c = self.B.parse_cell(ref[1:])
                if c in self.tomb_of:
                    return self.tomb_of.index(c)
            for i, (dec, _) in enumerate(self.cards.zombies):
                if ref == dec or ref == f"zombie-{i + 1:02d}":
                    return i
        raise RecordError(f"cimiterio: unknown zombie {ref!r}")

    def _event_ref(self, spec, used: set) -> int:
        """The first unused event card matching ``kind[:avenue or spot[:count]]``."""
        parts = str(spec).split(":")
        want = parts[0]
        for i, ev in enumerate(self.cards.events):
            if i in used or ev[0] != want:
                continue
            if want == "noise" and len(parts) > 1 and ev[1] != parts[1]:
                continue
            if want == "awakening" and len(parts) > 1 and ev[1] != parts[1]:
                continue
            if want == "awakening" and len(parts) > 2 and ev[2] != int(parts[2]):
                continue
            used.add(i)
            return i
        raise RecordError(f"cimiterio: no (more) event card matching {spec!r} in the pack")

    @classmethod
    def from_position(cls, spec: dict, players: int = 2, seed=0, variants=None, options=None):
        """Build a position from a compact, hand-written mapping (scenario files):

        ``tombs``: ``identity`` (zombie i's tomb on slot i, reading order; the default) or
        ``shuffled`` (as a seeded setup) or a list of zombie refs per slot; ``stacks``:
        ``{"r,c": [bottom, ..., leader]}`` (zombie refs); ``captured``: ``{seat: [refs]}``;
        ``zombie_deck``: refs top first (rest of the zombies below, in index order);
        ``events``: event specs top first (``noise:main``, ``awakening:b``, ``quiet``, ``bell``,
        ``reshuffle``; unnamed cards go below in pack order); ``guardians``: ``["r,c", "r,c"]``;
        ``gate``: intact|damaged; ``turn``: seat; ``slot``: actions already played this turn.
        """
        st = cls(players=players, seed=seed, variants=variants, options=options)
        unknown = set(spec) - POSITION_KEYS
        if unknown:
            raise RecordError(f"cimiterio position: unknown keys {sorted(unknown)}")
        B = st.B
        st.rules_fired.clear()
        st._fire_log.clear()
        st.counters.clear()
        st._count_log.clear()
        tombs = spec.get("tombs", "identity")
        if tombs == "identity":
            st._deal_tombs(range(st.nz))
        elif tombs != "shuffled":
            order = [st.zombie_ref(r) for r in tombs]
            if sorted(order) != list(range(st.nz)):
                raise RecordError("cimiterio position: tombs must list every zombie once")
            st._deal_tombs(order)
        used: set[int] = set()
        st.stacks = {}
        for cell, refs in (spec.get("stacks") or {}).items():
            c = B.parse_cell(str(cell))
            if not B.gap[c]:
                raise RecordError(f"cimiterio position: {cell} is not a gap")
            zs = tuple(st.zombie_ref(r) for r in refs)
            st.stacks[c] = zs
            used.update(zs)
        caps: list[list[int]] = [[] for _ in range(players)]
        for seat, refs in (spec.get("captured") or {}).items():
            caps[int(seat)] = [st.zombie_ref(r) for r in refs]
            used.update(caps[int(seat)])
        st.captured = tuple(tuple(c) for c in caps)
        st.scores = tuple(sum(st.value(z, s) for z in c) for s, c in enumerate(st.captured))
        top = [st.zombie_ref(r) for r in spec.get("zombie_deck", [])]
        rest = [z for z in range(st.nz) if z not in used and z not in top]
        if any(z in used for z in top):
            raise RecordError("cimiterio position: a zombie is both on the board and in the deck")
        st.zdeck = tuple(rest[::-1]) + tuple(top[::-1])   # top of the deck = last element
        st.awakened = st.nz - len(st.zdeck)
        if "events" in spec or "discard" in spec:
            ev_used: set = set()
            top_e = [st._event_ref(s, ev_used) for s in spec.get("events", [])]
            disc = [st._event_ref(s, ev_used) for s in spec.get("discard", [])]
            rest_e = [i for i in range(len(st.ev)) if i not in ev_used]
            st.edeck = tuple(rest_e[::-1]) + tuple(top_e[::-1])
            st.ediscard = tuple(disc)
        if "guardians" in spec:
            st.guards = tuple(B.ring_index[B.parse_cell(c)] for c in spec["guardians"])
        if "gate" in spec:
            st.gate = GATE_NAMES.index(spec["gate"])
        st.turn = int(spec.get("turn", 0))
        slot = int(spec.get("slot", 0))
        a_slots = [i for i, ch in enumerate(SLOTS) if ch == "A"]
        if not 0 <= slot <= len(a_slots):
            raise RecordError(f"cimiterio position: slot must be 0..{len(a_slots)}")
        st.si = a_slots[slot - 1] + 1 if slot else 0       # next: an event if one is due
        st.wave, st.queue, st.pending, st.result = None, (), None, None
        st._run()
        return st
