"""Move notation, text <-> tuple (the table is in the package docstring and
docs/rules/cimiterio.md)."""
from __future__ import annotations

import itertools

from pnp.engines.cimiterio.actions import NOISE_MODES
from pnp.engines.cimiterio.state import CimiterioState


class Notation(CimiterioState):

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
            return self._parse_guardian_moves(words[1:], bad)
        raise bad("notation", "unknown move; try move/noise/pass/first/personal")

    def move_subjects(self, text: str) -> set[str]:
        """The guardians a move text names (``move G1 ...`` names G1), for the replay's list of
        their legal moves; other moves name none. Never raises."""
        words = str(text).lower().split()
        if not words or words[0] != "move":
            return set()
        return {word.upper() for word in words[1:] if word in ("g1", "g2")}

    def _parse_guardian_moves(self, rest: list[str], bad) -> tuple:
        """``G1 r,c>r,c [G2 r,c>r,c]``; intermediate stops (``a>b>c``) must be consecutive (C6)."""
        B = self.B
        f = [-1, -1]
        to = [-1, -1]
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
                if any((b - a) % R not in (1, R - 1) for a, b in itertools.pairwise(idx)):
                    raise bad("C6", "guardians move along consecutive stops")
                if steps > self.cards.max_stops:
                    raise bad("C6", f"at most {self.cards.max_stops} stops")
            f[g], to[g] = idx[0], idx[-1]
        return ("move", f[0], to[0], f[1], to[1])
