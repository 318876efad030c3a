"""Cimiterio rules engine (rule points C1-C26 of the games brief; interpretations in
docs/rules/cimiterio.md).

Geometry comes from the data pack (``data/cimiterio/map.yaml``) and the cards from
``data/cimiterio/cards/*.yaml``: the engine plays with the same cards that are printed.

Move notation (text <-> tuple):

- ``move G1 14,5>14,1`` / ``move G1 14,5>14,1 G2 14,9>13,14``  -> ``("move", f1, t1, f2, t2)``
  ring indices of the guardian stops, -1 for a guardian that stays (C6);
- ``noise G1`` / ``noise G2`` / ``noise G1+G2`` (simultaneous, C12) / ``noise G1,G2`` /
  ``noise G2,G1`` (one after the other, C7)                    -> ``("noise", mode)``;
- ``pass`` (C5)                                                 -> ``("pass",)``;
- ``first 7,3``: which of the groups tied for distance to the gate moves first (C19)
                                                                -> ``("first", cell)``;
- ``personal keep`` / ``personal 1`` .. ``personal 3``: the owner's choice for the personalised
  zombie (C24)                                                 -> ``("personal", n)`` (0 = keep).

Cells are written ``row,col`` of the map grid (0-based, border included); internally a cell is
``row * width + col``.
"""
from __future__ import annotations

import functools
from pathlib import Path

import yaml

from pnp.engines.core import GameState, Outcome, RecordError, register

REPO_ROOT = Path(__file__).resolve().parent.parent.parent
PACK_ROOT = REPO_ROOT / "data" / "cimiterio"

SLOTS = "AAAEAAE"        # C4: three actions, an event, two actions, an event
GATE_INTACT, GATE_DAMAGED, GATE_BROKEN = 0, 1, 2
GATE_NAMES = ("intact", "damaged", "broken")
NOISE_MODES = ("1", "2", "1+2", "1,2", "2,1")

EV_NOISE, EV_AWAKE, EV_QUIET, EV_BELL, EV_RESHUFFLE = range(5)
EV_KINDS = ("noise", "awakening", "quiet", "bell", "reshuffle")


# ----------------------------------------------------------------------------- pack reading
def _load_map(pack_root: Path | str = PACK_ROOT) -> dict:
    """The cemetery map (collection ``map`` of the pack). Plain YAML for now; will switch to
    ``pnp.pack.load_pack("cimiterio").collections["map"]``."""
    with open(Path(pack_root) / "map.yaml", encoding="utf-8") as fh:
        return yaml.safe_load(fh)


DEFAULT_EVENTS = (
    [("noise", a) for a in ("west", "east", "cypresses", "crows", "main", "central-x", "north")]
    + [("awakening", s, n) for s, n in (("b", 3), ("c", 3), ("e", 2), ("f", 2), ("g", 1), ("h", 1))]
    + [("quiet",)] * 3 + [("bell",)] * 2 + [("reshuffle",)]
)


def _read_cards(path: Path) -> list[dict]:
    if not path.exists():
        return []
    with open(path, encoding="utf-8") as fh:
        data = yaml.safe_load(fh) or []
    out = []
    for card in data:
        for _ in range(int(card.get("quantity", 1))):
            out.append(card)
    return out


def _load_cards(pack_root: Path | str = PACK_ROOT) -> dict:
    """Zombies (deceased id, points), events, gate strength and action limits from the pack's
    card files; defaults when a file is missing (the 95 cards of C1)."""
    root = Path(pack_root) / "cards"
    zombies = [(c["deceased"], int(c.get("points", 1))) for c in _read_cards(root / "zombies.yaml")]
    if not zombies:
        zombies = [(f"deceased-{i + 1:02d}", 2 if i == 34 else 1) for i in range(35)]
    events = []
    for c in _read_cards(root / "events.yaml"):
        k = c["kind"]
        if k == "noise":
            events.append(("noise", c["avenue"]))
        elif k == "awakening":
            events.append(("awakening", c["spot"], int(c["count"])))
        elif k in ("quiet", "bell", "reshuffle"):
            events.append((k,))
        else:
            raise RecordError(f"cimiterio: unknown event kind {k!r}")
    if not events:
        events = list(DEFAULT_EVENTS)
    gate = _read_cards(root / "gate.yaml")
    holds = (int(gate[0].get("intact_holds", 5)), int(gate[0].get("damaged_holds", 3))) if gate else (5, 3)
    actions = _read_cards(root / "actions.yaml")
    max_stops = int(actions[0].get("max_stops", 3)) if actions else 3
    pull = int(actions[0].get("pull", 2)) if actions else 2
    moves = {int(c.get("movement", 2)) for c in _read_cards(root / "zombies.yaml")} or {2}
    return {"zombies": zombies, "events": events, "holds": holds, "n_actions": len(actions) or 5,
            "max_stops": max_stops, "pull": pull, "movement": max(moves)}


# ----------------------------------------------------------------------------- static tables
class Board:
    """Everything about the map that never changes during a game, precomputed once."""

    def __init__(self, mp: dict, cards: dict, metric: str = "bfs", step: str = "down-first"):
        rows = [ln.strip() for ln in mp["grid"].strip("\n").splitlines()]
        rows = [ln[1:-1] if ln.startswith('"') and ln.endswith('"') else ln for ln in rows]
        self.H = H = len(rows)
        self.W = W = max(len(r) for r in rows)
        rows = [r.ljust(W) for r in rows]
        self.rows = rows
        ch = lambda c: rows[c // W][c % W]  # noqa: E731
        self.ch = ch
        n = W * H
        self.gap = [ch(c) in ".P" or "a" <= ch(c) <= "h" for c in range(n)]
        self.slots = tuple(c for c in range(n) if ch(c) == "T")           # C1, reading order
        self.spots = {ch(c): c for c in range(n) if "a" <= ch(c) <= "h"}  # C17
        self.piles = tuple(c for c in range(n) if ch(c) == "P")           # C2
        gates = [c for c in range(n) if ch(c) == "G"]
        if len(gates) != 1:
            raise RecordError("cimiterio map: exactly one gate G expected")
        self.gate = gates[0]
        self.centre = (H // 2) * W + W // 2
        if not self.gap[self.centre]:
            raise RecordError("cimiterio map: the centre must be a gap (C2, C23)")
        self.nbrs = [tuple(d for d in self._orth(c) if self.gap[d]) for c in range(n)]
        slotset = set(self.slots)
        self.tomb_adj = [frozenset(d for d in self._orth(c) if d in slotset) for c in range(n)]
        self.gate_adj = frozenset(d for d in self._orth(self.gate) if self.gap[d])
        # C3/C6: the ring of guardian stops, clockwise from the top-left stop
        stops = [c for c in range(n) if ch(c) == "o"]
        top = sorted((c for c in stops if c // W == 0), key=lambda c: c % W)
        right = sorted((c for c in stops if c % W == W - 1 and c // W != 0), key=lambda c: c // W)
        bottom = sorted((c for c in stops if c // W == H - 1), key=lambda c: -(c % W))
        left = sorted((c for c in stops if c % W == 0 and c // W != 0), key=lambda c: -(c // W))
        seen, ring = set(), []
        for c in top + right + bottom + left:
            if c not in seen:
                seen.add(c)
                ring.append(c)
        if len(ring) != len(stops):
            raise RecordError("cimiterio map: guardian stops must lie on the border")
        self.ring = tuple(ring)
        self.ring_index = {c: i for i, c in enumerate(ring)}
        R = len(ring)
        max_stops = cards["max_stops"]
        self.reach = []         # C6: ring indices reachable in 1..max_stops consecutive stops
        for i in range(R):
            dests = []
            for k in range(1, max_stops + 1):
                for j in ((i + k) % R, (i - k) % R):
                    if j != i and j not in dests:
                        dests.append(j)
            self.reach.append(tuple(dests))
        # C7: a guardian's straight line is the avenue its stop is at the end of
        self.line = []          # per stop: cells from nearest to farthest
        self.line_dist = []     # per stop: cell -> distance (1 = next to the stop)
        self.line_next = []     # per stop: cell -> next cell toward the stop (None at the end, C8)
        for s in ring:
            r, c = divmod(s, W)
            if r == 0:
                d = W
            elif r == H - 1:
                d = -W
            elif c == 0:
                d = 1
            else:
                d = -1
            cells = []
            x = s + d
            while 0 <= x < n and self.gap[x]:
                cells.append(x)
                x += d
            self.line.append(tuple(cells))
            self.line_dist.append({x: i + 1 for i, x in enumerate(cells)})
            self.line_next.append({x: (cells[i - 1] if i else None) for i, x in enumerate(cells)})
        # C16/C19: toward the gate. bfs = shortest path over gaps; manhattan = |dr|+|dc| to the gate
        gr, gc = divmod(self.gate, W)
        if metric == "bfs":
            dist = {}
            frontier = sorted(self.gate_adj)
            for c in frontier:
                dist[c] = 1
            while frontier:
                nxt = []
                for c in frontier:
                    for d in self.nbrs[c]:
                        if d not in dist:
                            dist[d] = dist[c] + 1
                            nxt.append(d)
                frontier = nxt
        elif metric == "manhattan":
            dist = {c: abs(c // W - gr) + abs(c % W - gc) for c in range(n) if self.gap[c]}
        else:
            raise RecordError(f"cimiterio: unknown metric {metric!r} (bfs, manhattan)")
        self.gate_dist = dist
        self.gate_next = {}
        for c in dist:
            if c in self.gate_adj:
                continue
            r, cc = divmod(c, W)
            toward = 1 if cc < gc else -1 if cc > gc else 0
            down = W if r < gr else -W
            horiz = [c + toward] if toward else [c + 1, c - 1]
            if step == "down-first":
                order = [c + down] + horiz + [c - toward if toward else c - down, c - down]
            elif step == "across-first":
                order = horiz + [c + down] + ([c - toward] if toward else []) + [c - down]
            else:
                raise RecordError(f"cimiterio: unknown step rule {step!r} (down-first, across-first)")
            best = None
            for d in order:
                if d in self.nbrs[c] and dist.get(d, 10 ** 9) < dist[c]:
                    best = d
                    break
            self.gate_next[c] = best
        av = {}
        for a in mp.get("avenues", []):
            idx = int(a["index"])
            if a["axis"] == "row":
                cells = tuple(idx * W + c for c in range(W) if self.gap[idx * W + c])
            else:
                cells = tuple(r * W + idx for r in range(H) if self.gap[r * W + idx])
            av[a["id"]] = cells
        self.avenues = av
        self.guardian_start = tuple(self.ring_index[r * W + c] for r, c in mp["guardian_start"])
        self.move_cache: dict[tuple, tuple] = {}
        self.move_sets: dict[tuple, frozenset] = {}

    def _orth(self, c: int):
        W, H = self.W, self.H
        r, cc = divmod(c, W)
        if r > 0:
            yield c - W
        if r < H - 1:
            yield c + W
        if cc > 0:
            yield c - 1
        if cc < W - 1:
            yield c + 1

    def cell_text(self, c: int) -> str:
        return f"{c // self.W},{c % self.W}"

    def parse_cell(self, text: str) -> int:
        try:
            r, c = (int(x) for x in text.strip().split(","))
        except ValueError:
            raise ValueError(f"bad cell {text!r} (expected row,col)") from None
        if not (0 <= r < self.H and 0 <= c < self.W):
            raise ValueError(f"cell {text!r} is off the map")
        return r * self.W + c


def _cards_from_pack(pack) -> dict:
    """The engine's card data from a loaded ``pnp.pack.Pack`` (quantities already expanded)."""
    by_deck = {d.id: d.cards for d in pack.decks}
    zombies = [(c.fields["deceased"], int(c.fields.get("points", 1))) for c in by_deck.get("zombies", [])]
    events = []
    for c in by_deck.get("events", []):
        if c.kind == "noise":
            events.append(("noise", c.fields["avenue"]))
        elif c.kind == "awakening":
            events.append(("awakening", c.fields["spot"], int(c.fields["count"])))
        else:
            events.append((c.kind,))
    gate = by_deck.get("gate") or []
    actions = by_deck.get("actions") or []
    return {
        "zombies": zombies, "events": events,
        "holds": ((int(gate[0].fields["intact_holds"]), int(gate[0].fields["damaged_holds"]))
                  if gate else (5, 3)),
        "n_actions": len(actions) or 5,
        "max_stops": int(actions[0].fields.get("max_stops", 3)) if actions else 3,
        "pull": int(actions[0].fields.get("pull", 2)) if actions else 2,
        "movement": max((int(c.fields.get("movement", 2)) for c in by_deck.get("zombies", [])),
                        default=2),
    }


@functools.lru_cache(maxsize=4)
def _pack_data(pack_root: str) -> tuple[dict, dict]:
    """(map, cards) of the pack: through ``pnp.pack.load_pack`` (the printer's loader, so the
    engine plays the printed cards); plain YAML if the loader is unavailable or rejects the pack."""
    try:
        from pnp.pack import load_pack
        pack = load_pack(pack_root)
        cards = _cards_from_pack(pack)
        if cards["zombies"] and cards["events"]:
            return pack.collections["map"], cards
    except Exception as exc:  # noqa: BLE001 - fall back, but say so
        import warnings
        warnings.warn(f"cimiterio engine: pnp.pack.load_pack failed ({exc}); reading YAML directly",
                      RuntimeWarning, stacklevel=2)
    return _load_map(pack_root), _load_cards(pack_root)


@functools.lru_cache(maxsize=16)
def _tables(pack_root: str, metric: str, step: str) -> tuple[Board, dict]:
    mp, cards = _pack_data(pack_root)
    return Board(mp, cards, metric, step), cards


# ----------------------------------------------------------------------------- the game
@register("cimiterio")
class Cimiterio(GameState):
    """Cimiterio: 1-4 players steer two guardians to lure 35 zombies back into their tombs."""

    min_players = 1
    max_players = 4
    rule_points = tuple(f"C{i}" for i in range(1, 27))
    default_options = {
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
        "attack": "adjacent",       # C13: adjacent (next to the gate with a move left) | arrive
        "pack": "",                 # pack root ("" = data/cimiterio)
    }
    stat_labels = {
        "gate_broken": "the zombies broke the gate (C14)",
        "gate_damaged": "the gate ended damaged or broken (C13)",
        "gate_attacks": "attacks on the gate (C13)",
        "captures_seat": "zombies captured by each seat (C9)",
        "zombies_awakened": "zombies awakened in all (C2/C17)",
        "merges": "groups merged (C10)",
        "splits": "groups split (C12)",
    }
    variants = {
        "quick": {"cap": 20},                                   # C25
        "quick-damaged": {"cap": 20, "gate_damaged": True},     # C25 with the gate damaged
        "restless": {"restless": True},                         # C26
        "personal": {"personal": 0, "personal_owner": 0},       # C24 (zombie 0 belongs to seat 0)
        "manhattan": {"metric": "manhattan"},
        "across-first": {"step": "across-first"},
        "cemetery-empty": {"end": "cemetery-empty"},
        "auto-order": {"order": "auto"},
        "arrive": {"attack": "arrive"},
    }

    # ---------------------------------------------------------------- setup
    def _tables(self):
        o = self.options
        root = o.get("pack") or str(PACK_ROOT)
        self.B, self.cards = _tables(root, o["metric"], o["step"])
        self.nz = len(self.cards["zombies"])
        self.ev = tuple(self._event_tuple(e) for e in self.cards["events"])
        self.values = tuple(p for _, p in self.cards["zombies"])
        self.holds = self.cards["holds"]
        self.pull = self.cards["pull"]
        self.movement = self.cards["movement"]
        self._order_choice = o["order"] == "choice"
        self._personal = int(o["personal"])
        self._personal_owner = int(o["personal_owner"])
        self._attack_any = o["attack"] != "arrive"
        if o["personal"] >= self.nz:
            raise RecordError(f"cimiterio: personal zombie {o['personal']} out of range")

    def _event_tuple(self, e):
        B = self.B
        if e[0] == "noise":
            if e[1] not in B.avenues:
                raise RecordError(f"cimiterio: noise event names unknown avenue {e[1]!r}")
            return (EV_NOISE, e[1])
        if e[0] == "awakening":
            if e[1] not in B.spots:
                raise RecordError(f"cimiterio: awakening event names unknown spot {e[1]!r}")
            return (EV_AWAKE, B.spots[e[1]], e[2])
        return ({"quiet": EV_QUIET, "bell": EV_BELL, "reshuffle": EV_RESHUFFLE}[e[0]],)

    def _blank(self):
        self._tables()
        self.stacks: dict[int, tuple] = {}
        self.tomb_of: tuple = ()
        self.zdeck: tuple = ()
        self.edeck: tuple = ()
        self.ediscard: tuple = ()
        self.guards = self.B.guardian_start
        self.gate = GATE_DAMAGED if self.options["gate_damaged"] else GATE_INTACT
        self.captured = tuple(() for _ in range(self.players))
        self.scores = tuple(0 for _ in range(self.players))
        self.slots = SLOTS
        self.si = 0
        self.wave = None
        self.queue: tuple = ()
        self.pending = None
        self.tiebreak = -1
        self.last_capturer = -1
        self.turns = 1
        self.result: Outcome | None = None
        self.awakened = 0
        self.last_event = -1

    def _setup(self):
        self._blank()
        rng = self.rng
        B = self.B
        # C1: shuffle the tomb, zombie and event decks; deal the tombs onto the slots
        tombs = rng.shuffled(range(self.nz))
        tomb_of = [0] * self.nz
        for slot, z in zip(B.slots, tombs):
            tomb_of[z] = slot
        self.tomb_of = tuple(tomb_of)
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

    # ---------------------------------------------------------------- undo
    def _snapshot(self):
        return (dict(self.stacks), self.zdeck, self.edeck, self.ediscard, self.guards, self.gate,
                self.captured, self.scores, self.slots, self.si, self.wave, self.queue,
                self.pending, self.tiebreak, self.last_capturer, self.turns, self.result,
                self.awakened, self.last_event, self.tomb_of)

    def _restore(self, s):
        (self.stacks, self.zdeck, self.edeck, self.ediscard, self.guards, self.gate,
         self.captured, self.scores, self.slots, self.si, self.wave, self.queue,
         self.pending, self.tiebreak, self.last_capturer, self.turns, self.result,
         self.awakened, self.last_event, self.tomb_of) = s

    # ---------------------------------------------------------------- legal moves
    def legal_moves(self) -> list:
        if self.result is not None:
            return []
        p = self.pending
        if p is not None:
            if p[0] == "order":
                return [("first", c) for c in p[1]]
            return [("personal", n) for n in (0, 1, 2, 3)]
        return list(_action_moves(self.B, self.guards))

    def _illegal_reason(self, move):
        if self.pending is None and self.result is None:
            # fast path: the action moves of this guardian pair, as a set
            try:
                if move in _action_set(self.B, self.guards):
                    return None
            except TypeError:
                return ("notation", "not a move")
        if self.result is not None:
            return (self.result.rule, "the game is over")
        try:
            kind = move[0]
        except (TypeError, IndexError):
            return ("notation", "not a move")
        p = self.pending
        if p is not None:
            if p[0] == "order":
                if kind == "first" and len(move) == 2 and move[1] in p[1]:
                    return None
                return ("C19", "the current player must choose which tied group moves first: "
                        + ", ".join("first " + self.B.cell_text(c) for c in p[1]))
            if kind == "personal" and len(move) == 2 and move[1] in (0, 1, 2, 3):
                return None
            return ("C24", "the owner must decide how the personalised zombie moves")
        if kind == "pass" and len(move) == 1:
            return None
        if kind == "noise":
            if len(move) == 2 and move[1] in NOISE_MODES:
                return None
            return ("C7", "noise by G1, G2, G1+G2 (together) or G1,G2 / G2,G1 (in turn)")
        if kind == "move":
            if len(move) != 5:
                return ("notation", "move needs guardian moves")
            _, f1, t1, f2, t2 = move
            if t1 == -1 and t2 == -1:
                return ("C6", "at least one guardian must move")
            for g, f, t in ((1, f1, t1), (2, f2, t2)):
                if t == -1:
                    continue
                if f != self.guards[g - 1]:
                    return ("C6", f"G{g} is at {self.B.cell_text(self.B.ring[self.guards[g - 1]])}")
                if not isinstance(t, int) or not (0 <= t < len(self.B.ring)):
                    return ("C3", "guardians stand only on the stops outside the cemetery")
                if t not in self.B.reach[f]:
                    return ("C6", f"G{g} moves at most {self.cards['max_stops']} consecutive stops")
            return None
        if kind == "first":
            return ("C19", "no tie to break now")
        if kind == "personal":
            return ("C24", "no personalised-zombie choice is pending")
        return ("notation", "unknown move")

    # ---------------------------------------------------------------- applying moves
    def _apply(self, move):
        kind = move[0]
        if kind == "first":
            self.pending = None
            rule, entries = self.wave
            cell = move[1]
            self.fire("C19")
            self.wave = (rule, tuple(e for e in entries if e[0] != cell))
            self._move_entry((cell, -1, 0))
        elif kind == "personal":
            entry = self.pending[1]
            self.pending = None
            rule, entries = self.wave
            self.wave = (rule, tuple(e for e in entries if e != entry))
            self._move_personal(entry, move[1])
        elif kind == "pass":
            # C5: every unplayed action card is replaced by an event card
            self.fire("C5")
            self.slots = self.slots[:self.si] + self.slots[self.si:].replace("A", "E")
        elif kind == "noise":
            self.si += 1
            self.fire("C7")
            m = move[1]
            if m == "1":
                self.queue = (("guard", 0),)
            elif m == "2":
                self.queue = (("guard", 1),)
            elif m == "1+2":
                self.queue = (("guard", 2),)
            elif m == "1,2":
                self.queue = (("guard", 0), ("guard", 1))
            else:
                self.queue = (("guard", 1), ("guard", 0))
        else:  # move, C6
            self.si += 1
            self.fire("C6")
            _, f1, t1, f2, t2 = move
            self.guards = (t1 if t1 != -1 else self.guards[0], t2 if t2 != -1 else self.guards[1])
        self._run()

    # ---------------------------------------------------------------- the automatic part
    def _run(self):
        """Advance automatically until a player decision is needed or the game ends."""
        while self.result is None:
            if self.pending is not None:
                return
            if self.wave is not None:
                if not self._step_wave():
                    return
                continue
            if self.queue:
                item, self.queue = self.queue[0], self.queue[1:]
                self._start_wave(item)
                continue
            if self.si >= len(self.slots):
                self._next_turn()
                continue
            if self.slots[self.si] == "A":
                return
            self.si += 1
            self._draw_event()

    def _next_turn(self):
        # C4: the five action cards pass to the next player
        self.fire("C4")
        self.turn = (self.turn + 1) % self.players
        self.turns += 1
        self.slots = SLOTS
        self.si = 0

    def _draw_event(self):
        # C15: events drawn after the 3rd and the 5th action (and for every passed action, C5)
        self.fire("C15")
        if not self.edeck:
            # interpretation: an empty event deck is rebuilt from the discard pile (C20 style)
            self.edeck = self.rng.shuffled(self.ediscard)
            self.ediscard = ()
        e = self.edeck[-1]
        self.edeck = self.edeck[:-1]
        self.last_event = e
        ev = self.ev[e]
        k = ev[0]
        if k == EV_RESHUFFLE:
            # C20: every event card, discarded or not (this one included), into one new deck
            self.fire("C20")
            self.edeck = self.rng.shuffled(self.edeck + self.ediscard + (e,))
            self.ediscard = ()
            return
        self.ediscard = self.ediscard + (e,)
        if k == EV_NOISE:
            self.fire("C16")
            self.queue = self.queue + (("avenue", ev[1]),)
        elif k == EV_AWAKE:
            self._awaken(ev[1], ev[2])
        elif k == EV_QUIET:
            self.fire("C18")
        else:
            self.fire("C19")
            self.queue = self.queue + (("bell",), ("bell",))

    def _awaken(self, cell, count):
        if self.tiebreak >= 0:
            self.fire("C23")            # C23: awakening cards are ignored in the tie-break
            return
        room = min(len(self.zdeck), max(0, self.options["cap"] - self.awakened))
        if room <= 0:
            if self.options["restless"] and self.captured[self.turn]:
                # C26: take them back from the current player's captured pile (latest first)
                self.fire("C26")
                pile = self.captured[self.turn]
                take = pile[-count:][::-1]
                self._uncapture(self.turn, len(take))
                self._place(cell, take)
                return
            self.fire("C17")
            self.fire("C18")            # C17: with everybody awake it counts as all quiet
            if self.options["cap"] < self.nz and self.awakened >= self.options["cap"]:
                self.fire("C25")
            return
        self.fire("C17")
        n = min(room, count)
        drawn = self.zdeck[-n:][::-1]   # drawn one by one; the last one drawn ends face up
        self.zdeck = self.zdeck[:-n]
        self.awakened += n
        self._place(cell, drawn)

    def _place(self, cell, zs):
        old = self.stacks.get(cell, ())
        if old:
            self.fire("C10")
        self.stacks[cell] = old + tuple(zs)

    def _uncapture(self, seat, n):
        pile = self.captured[seat]
        back, keep = pile[len(pile) - n:], pile[:len(pile) - n]
        caps = list(self.captured)
        caps[seat] = keep
        self.captured = tuple(caps)
        sc = list(self.scores)
        sc[seat] -= sum(self.value(z, seat) for z in back)
        self.scores = tuple(sc)

    def value(self, z: int, seat: int) -> int:
        """C21 points of zombie ``z`` for ``seat`` (C24: personalised zombie 3 / 4)."""
        if z == self.options["personal"]:
            return 3 if seat == self.options["personal_owner"] else 4
        return self.values[z]

    # waves: a set of groups that move in order of distance (nearest first)
    def _start_wave(self, item):
        """Queue the groups a wave moves, sorted nearest first. Unmoved groups never change
        distance during a wave (guardians do not move, groups only leave), so one sort suffices;
        absorbed groups are dropped as they merge (C10)."""
        B = self.B
        stacks = self.stacks
        kind = item[0]
        if kind == "avenue" or kind == "bell":
            gd = B.gate_dist
            if kind == "avenue":
                # C16: zombies in the named avenue move toward the gate, nearest to it first
                cells = [c for c in B.avenues[item[1]] if c in stacks]
                rule = "C16"
            else:
                # C19: every zombie moves toward the gate (this is one of the two passes)
                cells = list(stacks)
                rule = "C19"
            cells.sort(key=lambda c: (gd.get(c, 1 << 20), c))
            self.wave = (rule, tuple((c, -1, 0) for c in cells))
            return
        g = item[1]
        s1, s2 = self.guards
        if g < 2 or s1 == s2:
            # C8: one guardian's noise (two guardians on one stop make one noise together)
            if g == 2:
                g = 0
            dist = B.line_dist[self.guards[g]]
            cells = sorted((dist[c], c) for c in stacks if c in dist)
            self.wave = ("C8", tuple((c, g, 0) for _, c in cells))
            return
        # C12: both guardians at once
        d1, d2 = B.line_dist[s1], B.line_dist[s2]
        keyed = []
        for c, st in stacks.items():
            a, b = d1.get(c), d2.get(c)
            if a is None and b is None:
                continue
            if b is None or (a is not None and a < b):
                keyed.append((a, 0, 0, c))
            elif a is None or b < a:
                keyed.append((b, 0, 1, c))
            else:
                # exactly half way between the two guardians (C12)
                self.fire("C12")
                if len(st) >= 2 and B.line_next[s1][c] is not None and B.line_next[s2][c] is not None:
                    keyed.append((a, 1, 0, c))
                    keyed.append((a, 2, 1, c))
                # a lone zombie half way does not move
        keyed.sort()
        self.wave = ("C12", tuple((c, g, part) for _, part, g, c in keyed))

    def _step_wave(self) -> bool:
        """Move the next group of the current wave. False when a player choice is pending."""
        rule, entries = self.wave
        if not entries:
            self.wave = None
            return True
        e = entries[0]
        if e[1] < 0:
            if len(entries) > 1:
                gd = self.B.gate_dist
                d0 = gd.get(e[0])
                if gd.get(entries[1][0]) == d0 and self._order_choice:
                    # C19: equal distance from the gate, the current player chooses who goes first
                    tied = tuple(x[0] for x in entries if gd.get(x[0]) == d0)
                    self.pending = ("order", tied)
                    return False
        elif (self._personal >= 0 and e[2] == 0 and self.turn == self._personal_owner
              and self._personal in self.stacks.get(e[0], ())):
            self.pending = ("personal", e)
            return False
        self.wave = (rule, entries[1:])
        self._move_entry(e)
        return True

    def _move_entry(self, e):
        c, g, part = e
        st = self.stacks.get(c)
        if st is None:
            return
        if part == 1:
            k = (len(st) + 1) // 2            # C12: the upper half (with the leader) goes to G1
            self.stacks[c] = st[:len(st) - k]
            walker = st[len(st) - k:]
        else:
            del self.stacks[c]
            walker = st
        if part == 2:
            self.fire("C12")
        if g < 0:
            self._walk_gate(walker, c)
        else:
            self._walk(walker, c, self.guards[g], self.pull, True)

    def _walk_gate(self, stack, cell):
        """Event movement toward the gate (C16, C19): ``movement`` steps, tombs ignored, merging
        on the way (C10), attacking the gate with a step left (C13). Same as ``_walk`` with
        stop < 0 and no captures, unrolled for speed."""
        stacks = self.stacks
        B = self.B
        nexts = B.gate_next
        gate_adj = B.gate_adj
        steps = self.movement
        moved = self._attack_any
        while steps > 0:
            if cell in gate_adj:
                if moved:
                    self._attack(len(stack))   # C13: next to the gate with a move left
                break
            nxt = nexts.get(cell)
            if nxt is None:
                break
            cell = nxt
            steps -= 1
            moved = True
            other = stacks.pop(cell, None)
            if other:
                self.fire("C10")               # C10: merge and go on with the new group
                stack = other + stack
                self._absorbed(cell)
        old = stacks.get(cell)
        stacks[cell] = old + stack if old else stack

    def _move_personal(self, e, n):
        c, g, part = e
        p = self.options["personal"]
        st = self.stacks.pop(c)
        self.fire("C24")
        if n == 0:
            self._walk(st, c, self.guards[g], self.pull, True)
            return
        rest = tuple(z for z in st if z != p)
        if rest:
            self.stacks[c] = rest            # the personalised zombie leaves its group
        self._walk((p,), c, self.guards[g], n, True)
        if self.result is None and c in self.stacks and self.wave is not None:
            rest = self.stacks.pop(c)
            self._walk(rest, c, self.guards[g], self.pull, True)

    def _absorbed(self, cell):
        w = self.wave
        if w is not None:
            entries = w[1]
            for e in entries:
                if e[0] == cell:
                    self.wave = (w[0], tuple(e for e in entries if e[0] != cell))
                    return

    def _walk(self, stack, cell, stop, steps, capture):
        """Move a group (off the board while it walks) ``steps`` spaces toward guardian stop
        ``stop`` (ring index) or toward the gate (``stop`` < 0). C8-C11, C13."""
        B = self.B
        stacks = self.stacks
        tomb_adj = B.tomb_adj
        tomb_of = self.tomb_of
        if stop >= 0:
            nexts = B.line_next[stop]
        else:
            nexts = B.gate_next
        moved = self._attack_any
        while True:
            if capture:
                adj = tomb_adj[cell]
                while stack and tomb_of[stack[-1]] in adj:
                    # C9: orthogonally next to its own tomb at the start, during or at the end
                    self._capture(stack[-1])
                    stack = stack[:-1]
                    if self.result is not None:
                        if stack:
                            self._place(cell, stack)
                        return
                    if stack:
                        # C11: the next card is the new leader; a new group with its own moves
                        self.fire("C11")
                        steps = self.pull
                if not stack:
                    if not stacks:
                        self._cemetery_empty()
                    return
            if steps <= 0:
                break
            if stop < 0 and cell in B.gate_adj:
                if moved:
                    self._attack(len(stack))   # C13: next to the gate with a move left
                break
            nxt = nexts.get(cell)
            if nxt is None:
                if stop >= 0:
                    self.fire("C8")            # C8: nothing between it and the noise any more
                break
            cell = nxt
            steps -= 1
            moved = True
            other = stacks.pop(cell, None)
            if other:
                # C10: the covered leader turns face down, the mover stacks on top and goes on
                self.fire("C10")
                stack = other + stack
                self._absorbed(cell)
        if cell in stacks:
            stacks[cell] = stacks[cell] + stack
        else:
            stacks[cell] = stack

    def _attack(self, n):
        intact, damaged = self.holds
        self.fire("C13")
        if self.gate == GATE_INTACT:
            if n > intact:
                self.gate = GATE_DAMAGED
        elif n > damaged:
            self.gate = GATE_BROKEN
            self.fire("C14")
            self.result = Outcome((), self.scores, "the zombies broke the gate", "C14")

    def _capture(self, z):
        seat = self.turn
        self.fire("C9")
        self.fire("C21")
        caps = list(self.captured)
        caps[seat] = caps[seat] + (z,)
        self.captured = tuple(caps)
        sc = list(self.scores)
        sc[seat] += self.value(z, seat)
        self.scores = tuple(sc)
        self.last_capturer = seat
        if self.tiebreak == z:
            self.fire("C23")
            self.result = Outcome((seat,), self.scores,
                                  f"seat {seat} captured the tie-break zombie", "C23")

    def _cemetery_empty(self):
        o = self.options
        if o["end"] != "cemetery-empty" and self.zdeck and self.awakened < o["cap"]:
            return                       # interpretation: more zombies will still rise (C22)
        self.fire("C22")
        sc = self.scores
        top = max(sc)
        best = tuple(i for i, s in enumerate(sc) if s == top)
        if len(best) == 1 or self.players == 1:
            self.result = Outcome(best[:1], sc, "the cemetery is empty: highest score", "C22")
            return
        if not o["tiebreak"]:
            self.result = Outcome(best, sc, "the cemetery is empty: shared win", "C22")
            return
        # C23: the last capturer puts that zombie in the centre and starts; first capture wins
        self.fire("C23")
        seat = self.last_capturer
        z = self.captured[seat][-1]
        self._uncapture(seat, 1)
        self.stacks[self.B.centre] = (z,)
        self.tiebreak = z
        self.wave = None
        self.queue = ()
        self.pending = None
        self.turn = seat
        self.turns += 1
        self.slots = SLOTS
        self.si = 0

    # ---------------------------------------------------------------- outcome
    def outcome(self) -> Outcome | None:
        return self.result

    # ---------------------------------------------------------------- notation
    def move_text(self, move) -> str:
        B = self.B
        k = move[0]
        if k == "move":
            _, f1, t1, f2, t2 = move
            parts = ["move"]
            if t1 != -1:
                parts.append(f"G1 {B.cell_text(B.ring[f1])}>{B.cell_text(B.ring[t1])}")
            if t2 != -1:
                parts.append(f"G2 {B.cell_text(B.ring[f2])}>{B.cell_text(B.ring[t2])}")
            return " ".join(parts)
        if k == "noise":
            return "noise " + move[1].replace("1", "G1").replace("2", "G2")
        if k == "pass":
            return "pass"
        if k == "first":
            return "first " + B.cell_text(move[1])
        if k == "personal":
            return "personal " + ("keep" if move[1] == 0 else str(move[1]))
        raise ValueError(f"not a cimiterio move: {move!r}")

    def parse_move(self, text: str):
        B = self.B
        t = " ".join(str(text).replace("\u2192", ">").replace("->", ">").split())
        low = t.lower()

        def bad(rule, reason):
            return self.illegal(t, rule, reason)

        if low == "pass":
            return ("pass",)
        words = low.split(" ")
        if words[0] == "noise":
            spec = "".join(words[1:]).replace("g", "")
            if spec == "2+1":
                spec = "1+2"
            if spec not in NOISE_MODES:
                raise bad("C7", "noise G1 | G2 | G1+G2 | G1,G2 | G2,G1")
            return ("noise", spec)
        if words[0] == "first" and len(words) == 2:
            try:
                return ("first", B.parse_cell(words[1]))
            except ValueError as exc:
                raise bad("notation", str(exc)) from None
        if words[0] == "personal" and len(words) == 2:
            if words[1] == "keep":
                return ("personal", 0)
            if words[1] in ("1", "2", "3"):
                return ("personal", int(words[1]))
            raise bad("C24", "personal keep | 1 | 2 | 3")
        if words[0] == "move":
            f = [-1, -1]
            to = [-1, -1]
            rest = words[1:]
            if not rest or len(rest) % 2:
                raise bad("notation", "move G1 r,c>r,c [G2 r,c>r,c]")
            for i in range(0, len(rest), 2):
                g = {"g1": 0, "g2": 1}.get(rest[i])
                if g is None or to[g] != -1:
                    raise bad("notation", "move G1 r,c>r,c [G2 r,c>r,c]")
                try:
                    cells = [B.parse_cell(x) for x in rest[i + 1].split(">")]
                except ValueError as exc:
                    raise bad("notation", str(exc)) from None
                if len(cells) < 2:
                    raise bad("notation", "a guardian move is from>to")
                for c in cells:
                    if c not in B.ring_index:
                        raise bad("C3", f"{B.cell_text(c)} is not a guardian stop")
                idx = [B.ring_index[c] for c in cells]
                if len(idx) > 2:
                    R = len(B.ring)
                    steps = len(idx) - 1
                    if any((b - a) % R not in (1, R - 1) for a, b in zip(idx, idx[1:])):
                        raise bad("C6", "guardians move along consecutive stops")
                    if steps > self.cards["max_stops"]:
                        raise bad("C6", f"at most {self.cards['max_stops']} stops")
                f[g], to[g] = idx[0], idx[-1]
            return ("move", f[0], to[0], f[1], to[1])
        raise bad("notation", "unknown move; try move/noise/pass/first/personal")

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

        def entry(e):
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

    # ---------------------------------------------------------------- compact positions
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
            for i, (dec, _) in enumerate(self.cards["zombies"]):
                if ref == dec or ref == f"zombie-{i + 1:02d}":
                    return i
        raise RecordError(f"cimiterio: unknown zombie {ref!r}")

    def _event_ref(self, spec, used: set) -> int:
        parts = str(spec).split(":")
        want = parts[0]
        for i, ev in enumerate(self.cards["events"]):
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
        known = {"tombs", "stacks", "captured", "zombie_deck", "events", "guardians", "gate",
                 "turn", "slot", "discard"}
        unknown = set(spec) - known
        if unknown:
            raise RecordError(f"cimiterio position: unknown keys {sorted(unknown)}")
        B = st.B
        st.rules_fired.clear()
        st._fire_log.clear()
        st.counters.clear()
        st._count_log.clear()
        tombs = spec.get("tombs", "identity")
        if tombs == "identity":
            st.tomb_of = tuple(B.slots[:st.nz])
        elif tombs != "shuffled":
            order = [st.zombie_ref(r) for r in tombs]
            if sorted(order) != list(range(st.nz)):
                raise RecordError("cimiterio position: tombs must list every zombie once")
            tof = [0] * st.nz
            for slot, z in zip(B.slots, order):
                tof[z] = slot
            st.tomb_of = tuple(tof)
        used = set()
        st.stacks = {}
        for cell, refs in (spec.get("stacks") or {}).items():
            c = B.parse_cell(str(cell))
            if not B.gap[c]:
                raise RecordError(f"cimiterio position: {cell} is not a gap")
            zs = tuple(st.zombie_ref(r) for r in refs)
            st.stacks[c] = zs
            used.update(zs)
        caps = [[] for _ in range(players)]
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
                x, k = c, 0
                while x is not None and k <= self.pull:
                    if t in tomb_adj[x]:
                        v += 6.0          # a noise from this stop would capture the leader
                        break
                    x = nx.get(x)
                    k += 1
        return v

    # ---------------------------------------------------------------- simulation figures
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
        total = len(self.tomb_of) + self.nz + len(self.ev) + 1 + self.cards["n_actions"]
        if total != 95 and self.nz == 35:
            probs.append(f"{total} cards instead of 95")
        return probs


def _action_set(B: Board, guards: tuple) -> frozenset:
    got = B.move_sets.get(guards)
    if got is None:
        B.move_sets[guards] = got = frozenset(_action_moves(B, guards))
    return got


def _action_moves(B: Board, guards: tuple) -> tuple:
    """Every action-card move for guardians on ``guards`` (C5, C6, C7), cached per board."""
    cache = B.move_cache
    got = cache.get(guards)
    if got is not None:
        return got
    g1, g2 = guards
    out = []
    for t in B.reach[g1]:
        out.append(("move", g1, t, -1, -1))
    for t in B.reach[g2]:
        out.append(("move", -1, -1, g2, t))
    for t1 in B.reach[g1]:
        for t2 in B.reach[g2]:
            out.append(("move", g1, t1, g2, t2))
    out.extend(("noise", m) for m in NOISE_MODES)
    out.append(("pass",))
    cache[guards] = got = tuple(out)
    return got
