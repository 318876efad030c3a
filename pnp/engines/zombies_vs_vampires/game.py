"""The game class: options and variants, set-up, the turn, applying a move, the end (V1-V3,
V7, V8, V11-V15), invariants and the simulation figures."""
from __future__ import annotations

from types import ModuleType
from typing import ClassVar

from pnp.engines.core import Outcome, Rng, register
from pnp.engines.native import native as native_module
from pnp.engines.zombies_vs_vampires.base import LONE_HANDICAP
from pnp.engines.zombies_vs_vampires.bots import greedy_bot
from pnp.engines.zombies_vs_vampires.moves import (
    BUILD,
    F_BUILD,
    F_MOVE,
    FH,
    GAME,
    MOVE,
    PASS,
    PH_ACT,
    PH_BUILD,
    PH_CHOOSE,
    PH_OVER,
    PMBUILD,
    REMOVE,
    REROLL,
    ROLL,
)
from pnp.engines.zombies_vs_vampires.playout_native import native_playout
from pnp.engines.zombies_vs_vampires.validation import PositionChecks
from pnp.engines.zombies_vs_vampires.walls import all_spots, fits, toggled

NATIVE = "pnp.engines.zombies_vs_vampires._native"     # the compiled playout (_native.c)


@register(GAME)
class ZombiesVsVampires(PositionChecks):
    """Zombies vs Vampires (2-4 players)."""

    agent_encoding = "pnp.adapters.encodings:ZombiesVsVampiresEncoding"   # pnp.adapters (docs/agents.md)
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    default_options: ClassVar[dict] = {
        "size": None,            # board size; None = the pack's (13)
        "walls": None,           # "6,5,4" = walls of size 1,2,3; None = the pack's
        "exact": False,          # V4: False = up to n steps (clarifications), True = exactly n
        "twostar": "two",        # the "2*" face: two | reroll | choice (see docs)
        "v15": "off",            # V15 designer's rule: off | choose | reroll
        "end": "immediate",      # V12 "ends at once" (فوراً, sofort): the first to bring all
                                 #      home wins; round = finish the round, then V13 (variant)
        "home": "locked",        # V11 "leave it there" (اتركها هناك, lasse sie dort): a piece
                                 #      ending its move in its far zone never moves again;
                                 #      zone = it may still move inside the zone (variant)
        "jump_home": True,       # pieces safe at home may still be jumped over
        "seats": None,           # start zones in seat order, e.g. "nw,se"; None = the pack's
        "handicap": 0,           # turns a lone racer sits out at the start (seat fairness:
                                 #      the seat whose far zone nobody starts in, 3 players)
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
        "finish-round": {"end": "round"},        # V12/V13: the round is played out
        "home-zone": {"home": "zone"},           # V11: home pieces move inside the far zone
        "immediate-end": {"end": "immediate"},   # the defaults since issue 15, kept by name so
        "home-locked": {"home": "locked"},       # records that name them still replay
        "head-on": {"seats": "nw,se"},
        "lone-handicap": {"handicap": LONE_HANDICAP},   # evens 3 players (docs: seat fairness)
        "board11": {"size": 11, "walls": "4,3,2"},
        "board15": {"size": 15},
        "board19": {"size": 19, "walls": "8,7,6"},
    }
    bots: ClassVar[dict] = {"racer": greedy_bot}      # simulate / playtest: --bot racer

    # ---------------------------------------------------------------- setup
    def _setup(self) -> None:
        self._init_common()
        g = self.geo
        self._set_pieces([tuple(g.zone_squares[z]) for z in self.corners])      # V1
        self._clear_walls()                                                     # V1: all off
        self.turns_taken = [0] * self.players
        self.first = self.rng.randbelow(self.players)                         # V1 random
        self.turn = self.first
        self.finishers = []
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
        if self.turns_taken[self.turn] <= self.sit_out[self.turn]:
            self.fire("handicap")               # option handicap: this turn is given up
            self._end_turn()
            return
        if self._v15_choose and self.home[self.turn]:
            self.phase = PH_CHOOSE                                            # V15
            return
        self._roll_action()

    def _roll_action(self) -> None:
        """V3: roll the action die and set up the decision."""
        self.phase = PH_ACT
        self.fire("V3")
        faces = self._faces
        while True:
            f, face, steps = faces[self.rng.randbelow(len(faces))]
            if f == "2*" and self._twostar_reroll:
                self.fire("2*-reroll")
                continue
            break
        self.face_text = f
        self.face = face
        if face == F_MOVE:
            self.steps = steps
        elif face == F_BUILD:
            self.fire("V7")
            self._roll_size()

    def _roll_size(self) -> None:
        self.wsize = self.size_die[self.rng.randbelow(len(self.size_die))]

    def _end_turn(self) -> None:
        p = self.turn
        if self.home[p] == self.pieces_needed[p] and p not in self.finishers:
            self.finishers.append(p)
            self.fire("V12")
            if self._end_immediate:
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

    def outcome(self):
        return self._outcome

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
            self._move_piece(p, a, b)
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
                self.steps = self.size_die[self.rng.randbelow(len(self.size_die))]
                self.face_text = f"size die {self.steps}"
        else:  # pragma: no cover
            raise ValueError(move)

    def _move_piece(self, p: int, a: int, b: int) -> None:
        """Seat p's piece on a goes to b (V4), and gets home if b is in its far zone (V11)."""
        pos = self.pos[p]
        i = pos.index(a)
        self.pos[p] = new = pos[:i] + (b,) + pos[i + 1:]
        mv = (1 << a) | (1 << b)
        self.occ_by[p] ^= mv
        self.occ ^= mv
        self.fire("V4")
        tg = self.target_mask[p]
        src = self._src_memo[p]
        if (src is not None and src[0] is pos and a in src[1]
                and (self.home_zone_mode or not (tg >> b) & 1)):
            # the movable pieces and their lanes (Movement._sources) follow the piece: it
            # keeps its lane (one that gets home in reading "locked" leaves the list: redone)
            srcs = src[1][:]
            j = srcs.index(a)
            srcs[j] = b
            off = self.geo.LS * j                 # lane j starts at bit off
            self._src_memo[p] = (new, srcs, src[2] ^ (1 << (a + off)) ^ (1 << (b + off)))
        if (tg >> b) & 1 and not (tg >> a) & 1:
            if not any(self.home):
                self.count("first_home", self.total_turns)
            if not self.home[p]:
                self.count(FH[p], self.turns_taken[p])
            self.home[p] += 1
            self.fire("V11")

    def random_playout(self, rng: Rng, native: ModuleType | bool | None = True) -> int:
        """The core's ``random_playout`` (the whole ``legal_moves()`` list every ply, its move
        ``rng.randbelow(len)``, played to the end), in C when it can be (``native``: True = the
        compiled playout ``_native.c`` when pnp.engines.native finds it built and
        ``PNP_PURE_PYTHON`` is not set; None or False = Python; a module = that one), for the
        positions playout_native.py says it plays, the same game to the last field
        (tests/test_zvv_native.py); else ``_python_playout``."""
        if native is True:
            native = native_module(NATIVE)
        if native:
            assert isinstance(native, ModuleType)
            n = native_playout(self, rng, native)
            if n is not None:
                self._undo.clear()
                self.move_stack.clear()
                self._legal_memo = None
                self._cache = None
                self._fire_log = []
                self._count_log = []
                return n
        return self._python_playout(rng)

    def _python_playout(self, rng: Rng) -> int:
        """The core's ``random_playout`` (the whole ``legal_moves()`` list every ply, its move
        ``rng.randbelow(len)``, played to the end) without undo records: ``_gen`` makes the
        list ``legal_moves()`` returns and ``_apply``, the rules and turn flow of ``push``,
        plays the move, without push's one-move check (the move was just generated here) or
        its snapshot. The common ply, a move turn (``_gen``'s first case: the die shows a
        move and there is no V15 re-roll), is ``_gen``'s and ``_apply``'s case written out: the
        MOVE list, the jump statistic (``_was_jump`` without its memo, which only a legality
        check of this very position fills and which then holds the same answer), the piece
        moved and the next turn. The undo history is cleared and the logs of fired rules and
        counters, which only ``pop`` reads, are dropped; position, RNG, ply, ``rules_fired``
        and the counters end as the push loop leaves them (tests/test_zvv_playout.py)."""
        self._undo.clear()
        self.move_stack.clear()
        gen = self._gen
        apply = self._apply
        pick = rng.randbelow
        move_moves = self._move_moves
        needs_jump = self._needs_jump
        move_piece = self._move_piece
        end_turn = self._end_turn
        common = not self.v15_reroll
        n = 0
        while self._outcome is None:
            n += 1
            if common and self.phase == PH_ACT and self.face == F_MOVE:
                p = self.turn
                k = self.steps
                moves = move_moves(p, k)                                      # V4
                if moves:
                    move = moves[pick(len(moves))]
                    a = move >> 12 & 0xFFF
                    b = move & 0xFFF
                    if needs_jump(p, a, b, k):
                        self.count("jumps")
                    move_piece(p, a, b)
                    end_turn()
                    continue
                moves.append(PASS << 24)                                      # V14
            else:
                moves = gen()
            apply(moves[pick(len(moves))])
        self.ply += n
        self._legal_memo = None
        self._cache = None
        self._fire_log = []
        self._count_log = []
        return n

    def _was_jump(self, p: int, a: int, b: int) -> bool:
        """Statistics: the move a>b could not have been made by walking alone (it needed at
        least one jump). Called before the piece leaves a."""
        jm = self._jump_memo                # set by the legality check of this very position
        if (jm is not None and jm[0] == (MOVE << 24 | a << 12 | b) and jm[1] == self.occ
                and jm[2] == self.EB and jm[3] == self.NB and jm[4] == p
                and jm[5] == self.face and jm[6] == self.steps):
            return jm[7]
        return self._needs_jump(p, a, b, self._move_steps())

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
        ws = (0, 0, 0, 0)
        for ci in self.walls:
            if not fits(g, ci, ws):
                probs.append(f"V9: wall {g.wall_name(ci)} overlaps or crosses")
            ws = toggled(g, ci, ws)
        if ws != self._wall_set():
            probs.append("wall bitsets out of step with the wall list")
        if self.spots6 != all_spots(g, ws):
            probs.append("V9: the kept wall spots are out of step with the walls")
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
            "own_turns_to_first_home": [c.get(FH[q]) or None for q in range(n)],
            "home_at_end": list(self.home),
            "spoilers": spoil,
        }
