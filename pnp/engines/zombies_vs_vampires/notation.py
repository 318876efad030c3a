"""Move texts and position descriptions.

``move c3>c5>e5`` (the route: each leg a straight orthogonal line, walked square by square and
jumping every piece on it, so ``c3>c5`` walks c4 when it is empty and jumps it when it is not;
a leg that is not straight, ``e5>f6``, is refused, never re-read as a route; the engine writes
one square per step), ``build h:d4-3``, ``remove h:d4-3`` / ``remove w7`` (the 7th wall built), ``build``
(under the +/- face: choose to build, then the size die is rolled), ``pass``, ``reroll``,
``roll action`` / ``roll size`` (V15 variants). Squares and walls: geometry.py.
"""
from __future__ import annotations

from pnp.engines.core import IllegalMoveError
from pnp.engines.zombies_vs_vampires.legality import Legality
from pnp.engines.zombies_vs_vampires.moves import (
    BUILD,
    F_BUILD,
    MOVE,
    PASS,
    PH_ACT,
    PH_BUILD,
    PMBUILD,
    REMOVE,
    REROLL,
    ROLL,
    mkmove,
)

_WORDS = {"pass": PASS << 24, "reroll": REROLL << 24, "build": PMBUILD << 24,
          "roll action": ROLL << 24, "roll size": ROLL << 24 | 1}


class Notation(Legality):
    """Text in and out."""

    def move_text(self, move: int) -> str:
        kind = move >> 24
        a = move >> 12 & 0xFFF
        b = move & 0xFFF
        g = self.geo
        if kind == MOVE:
            k = self._move_steps() or 2
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
        if s in _WORDS:
            return _WORDS[s]
        verb, _, rest = s.partition(" ")
        try:
            if verb == "move":
                sqs = [g.parse_sq(x) for x in rest.split(">")]
                if len(sqs) < 2:
                    raise ValueError("write move FROM>...>TO")
                bad = self._check_path(sqs)      # the route the text names, even from>to
                if bad:
                    raise self.illegal(text, *bad)
                return mkmove(MOVE, sqs[0], sqs[-1])
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
        except IllegalMoveError:
            raise
        except ValueError as e:
            raise self.illegal(text, "notation", str(e)) from None
        raise self.illegal(text, "notation", "moves: move A>B>C, build h:d4-3, remove w7 / "
                                             "remove h:d4-3, build, pass, reroll, roll action|size")

    def move_subjects(self, text: str) -> set[str]:
        """The piece a move text names (``move e5>...`` names e5), for the replay's list of that
        piece's legal moves; walls and words name none. Never raises."""
        verb, _, rest = " ".join(str(text).strip().lower().split()).partition(" ")
        if verb != "move":
            return set()
        try:
            return {self.geo.sq_name(self.geo.parse_sq(rest.split(">")[0]))}
        except ValueError:
            return set()

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
