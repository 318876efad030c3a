"""The Cimiterio game class: options and variants, setup (C1-C3), and what the simulator and the
checks ask of a position (description, bot evaluation, figures, invariants)."""
from __future__ import annotations

from typing import ClassVar

from pnp.engines.cimiterio import bots
from pnp.engines.cimiterio.notation import Notation
from pnp.engines.cimiterio.playout import Playout
from pnp.engines.cimiterio.state import (
    GATE_BROKEN,
    GATE_DAMAGED,
    GATE_INTACT,
    GATE_NAMES,
)
from pnp.engines.cimiterio.validation import PositionChecks
from pnp.engines.core import Outcome, register


@register("cimiterio")
class Cimiterio(Playout, PositionChecks, Notation):
    """Cimiterio: 1-4 players steer two guardians to lure 35 zombies back into their tombs."""

    agent_encoding = "pnp.adapters.encodings:CimiterioEncoding"   # pnp.adapters (docs/agents.md)
    min_players = 1
    max_players = 4
    default_players = 2         # the usual game; 1 is the solo variant
    rule_points = tuple(f"C{i}" for i in range(1, 27))
    game_win_rules = ("C14",)   # the broken gate: the zombies win, every player loses
    tie_break_rules = ("C23",)  # the tie-break zombie decides a tie on points
    default_options: ClassVar[dict] = {
        "metric": "bfs",            # path toward the gate: bfs (shortest over gaps) | manhattan
        "step": "down-first",       # tie between equally short steps: down-first | across-first
        "end": "deck-empty",        # C22: deck-empty (cemetery empty and nobody left to wake) | cemetery-empty
        "cap": 35,                  # C25: most zombies ever awakened (initial piles included)
        "gate_damaged": False,      # C25: the gate starts on its damaged face
        "restless": False,          # C26
        "personal": -1,             # C24: zombie index of the personalised zombie (-1: none)
        "personal_owner": 0,        # C24: its owner's seat
        "order": "choice",          # C19 ties: choice (current player) | auto (reading order)
        "tiebreak": True,           # C23 on; off = shared win
        "attack": "arrive",         # C13: arrive (the seed: "se arrivano adiacenti, ma hanno ancora un movimento") | adjacent
        "bell_capture": True,       # C9/C19: the bell tower's moves capture too (the seed's general C9; only C16 exempts)
        "map": "",                  # C1: a map id of the pack (map.yaml or maps.yaml); "" = map.yaml's
        "pack": "",                 # the pack's name or folder ("" = the shipped cimiterio)
    }
    stat_labels: ClassVar[dict[str, str]] = {
        "gate_broken": "the zombies broke the gate (C14)",
        "gate_damaged": "the gate ended damaged or broken (C13)",
        "gate_attacks": "attacks on the gate (C13)",
        "captures_seat": "zombies captured by each seat (C9)",
        "zombies_awakened": "zombies awakened in all (C2/C17)",
        "merges": "groups merged (C10)",
        "splits": "groups split (C12)",
    }
    variants: ClassVar[dict[str, dict]] = {
        "quick": {"cap": 20},                                   # C25
        "quick-damaged": {"cap": 20, "gate_damaged": True},     # C25 with the gate damaged
        "restless": {"restless": True},                         # C26
        "personal": {"personal": 0, "personal_owner": 0},       # C24 (zombie 0 belongs to seat 0)
        "manhattan": {"metric": "manhattan"},
        "across-first": {"step": "across-first"},
        "cemetery-empty": {"end": "cemetery-empty"},
        "auto-order": {"order": "auto"},
        "arrive": {"attack": "arrive"},
        "adjacent": {"attack": "adjacent"},
        "bell-captures": {"bell_capture": True},
        "bell-ignores": {"bell_capture": False},
    }
    # the event and zombie decks are face down: simulations play only bots that see
    # observation(seat) (filled in below, after the class: they rebuild positions of it)
    observation_bots: ClassVar[dict] = {}
    # `pnp check --engine` plays both: greedy passes (C5) and loses the gate (C14), the
    # tactician empties the cemetery (C22) (pnp.engines.reachability)
    check_bots: ClassVar[tuple[str, ...]] = ("greedy", "tactician")
    # Rule points that only a variant can fire (the reachability check plays these variants for
    # them, pnp.engines.reachability): rule -> variants.
    rule_variants: ClassVar[dict[str, tuple[str, ...]]] = {
        "C24": ("personal",),
        "C25": ("quick", "quick-damaged"),
        "C26": ("restless",),
    }

    # ---------------------------------------------------------------- setup
    def _setup(self) -> None:
        self._blank()
        rng = self.rng
        B = self.B
        # C1: shuffle the tomb, zombie and event decks; deal the tombs onto the slots
        self._deal_tombs(rng.shuffled(range(self.nz)))
        self.fire("C1")
        zdeck = list(rng.shuffled(range(self.nz)))
        self.edeck = rng.shuffled(range(len(self.ev)))
        # C2: five piles of two, the top card face up (the leader = last element)
        for cell in B.piles:
            a = zdeck.pop()
            b = zdeck.pop()
            self.stacks[cell] = (a, b)
        self.fire("C2")
        self.zdeck = tuple(zdeck)
        self.awakened = self.nz - len(zdeck)
        self.fire("C3")  # C3: guardians start beside the gate (map guardian_start)
        if self.options["gate_damaged"]:
            self.fire("C25")
        self._run()

    def outcome(self) -> Outcome | None:
        return self.result

    def describe(self) -> str:
        B = self.B
        if self.result is not None:
            return f"game over ({self.result.reason}), scores {list(self.scores)}"
        n = sum(len(s) for s in self.stacks.values())
        what = ("choice" if self.pending else
                f"action {self.slots[:self.si].count('A') + 1}" if self.si < len(self.slots) else "end")
        return (f"turn {self.turns}, seat {self.turn} to move ({what}), gate {GATE_NAMES[self.gate]}, "
                f"G1 {B.cell_text(B.ring[self.guards[0]])} G2 {B.cell_text(B.ring[self.guards[1]])}, "
                f"{n} zombies in {len(self.stacks)} groups, {len(self.zdeck)} in the deck, "
                f"scores {list(self.scores)}")

    # ---------------------------------------------------------------- bots and simulation
    def heuristic(self, seat: int) -> float:
        """Greedy-bot evaluation: own points minus the best rival's, the gate's health, how close
        the groups are to the gate, and captures one noise away from a guardian's present stop."""
        r = self.result
        if r is not None:
            if r.rule == "C14":
                return -10000.0
            return 1000.0 if seat in r.winners else -500.0
        sc = self.scores
        rival = max((s for i, s in enumerate(sc) if i != seat), default=0)
        v = 20.0 * (sc[seat] - rival) + 2.0 * sc[seat]
        damaged = self.gate == GATE_DAMAGED
        if damaged:
            v -= 60.0
        B = self.B
        gd = B.gate_dist
        tomb_adj = B.tomb_adj
        tomb_of = self.tomb_of
        lines = [B.line_next[g] for g in set(self.guards)]
        for c, st in self.stacks.items():
            d = gd.get(c, 30)
            n = len(st)
            if d < 8:
                v -= (8 - d) * n * (3.0 if damaged else 1.5)
            if n >= 4:
                v -= n
            t = tomb_of[st[-1]]
            for nx in lines:
                if c not in nx:
                    continue
                x: int | None = c
                k = 0
                while x is not None and k <= self.pull:
                    if t in tomb_adj[x]:
                        v += 6.0          # a noise from this stop would capture the leader
                        break
                    x = nx.get(x)
                    k += 1
        return v

    def determinize(self, seat: int, rng) -> "Cimiterio":
        """This position with the face-down decks in an order drawn from ``rng``, for the ismcts
        search bot (see :func:`.bots.determinize`)."""
        return bots.determinize(self, seat, rng)

    # ---------------------------------------------------------------- reachability (pnp.engines.reachability)
    @classmethod
    def config_label(cls, options: dict) -> str:
        """The map and readings a finding names: what decides which rules can fire."""
        from pnp.engines.cimiterio.pack_data import map_ids
        mp = options["map"] or map_ids(options["pack"])[0]
        return (f"map {mp}, C13 {options['attack']}, bell tower "
                f"{'captures' if options['bell_capture'] else 'ignores tombs'}")

    @classmethod
    def unreachable_rules(cls, options: dict) -> dict[str, str]:
        """Rule points the map's tables show can never fire with ``options``."""
        from pnp.engines.cimiterio.pack_data import tables
        B = tables(options["pack"], options["metric"], options["step"], options["map"])[0]
        out = {}
        # C12: a split needs a gap exactly half way between two stops whose lines cross it
        half_way = any(a != b and B.line_dist[a].get(c) == B.line_dist[b].get(c) is not None
                       for a in range(len(B.ring)) for b in range(a + 1, len(B.ring))
                       for c in B.line_dist[a])
        if not half_way:
            out["C12"] = "no gap lies half way between two guardian stops in line with it"
        return out

    # ---------------------------------------------------------------- hidden information
    def observation(self, seat: int) -> dict:
        """What ``seat`` sees: everything but the order of the event and zombie decks (C15,
        C17) and the RNG; bots get only this (see :mod:`.bots`)."""
        return bots.observation(self, seat)

    def stats(self) -> dict:
        rf = self.rules_fired
        return {
            "gate_broken": int(self.gate == GATE_BROKEN),
            "gate_damaged": int(self.gate != GATE_INTACT),
            "gate_attacks": rf.get("C13", 0),
            "captures_seat": [len(c) for c in self.captured],
            "zombies_awakened": self.awakened,
            "merges": rf.get("C10", 0),
            "splits": rf.get("C12", 0),
        }

    # ---------------------------------------------------------------- checks
    def check_invariants(self) -> list[str]:
        B = self.B
        probs = []
        board = [z for s in self.stacks.values() for z in s]
        caught = [z for c in self.captured for z in c]
        allz = board + caught + list(self.zdeck)
        if sorted(allz) != list(range(self.nz)):
            probs.append(f"zombie cards not all accounted for: {len(allz)} seen, "
                         f"{len(set(allz))} distinct of {self.nz}")
        if sorted(self.tomb_of) != sorted(B.slots[:self.nz]):
            probs.append("tomb cards not all on their slots")
        evs = list(self.edeck) + list(self.ediscard)
        if sorted(evs) != list(range(len(self.ev))):
            probs.append(f"event cards not all accounted for ({len(evs)} of {len(self.ev)})")
        for c, s in self.stacks.items():
            if not s:
                probs.append(f"empty stack at {B.cell_text(c)}")
            if not B.gap[c]:
                probs.append(f"zombie on a non-gap cell {B.cell_text(c)} (tomb or gate)")
        for seat, c in enumerate(self.captured):
            if sum(self.value(z, seat) for z in c) != self.scores[seat]:
                probs.append(f"seat {seat} score {self.scores[seat]} != captured value")
        total = len(self.tomb_of) + self.nz + len(self.ev) + 1 + self.cards.n_actions
        if total != 95 and self.nz == 35:
            probs.append(f"{total} cards instead of 95")
        return probs


Cimiterio.observation_bots = bots.observation_bots()
