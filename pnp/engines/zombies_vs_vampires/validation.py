"""A record's starting position checked in the game's terms before it is set up: one piece a
square, on the board (V1); walls only of the supply's sizes and no more than it holds (V7, V10),
inside the board and outside the home zones, never overlapping or crossing (V9); the die, the
wall size and the seats in range. Both forms: the compact one (``from_position``) and a
to_dict() snapshot."""
from __future__ import annotations

from typing import Any

from pnp.engines.checks import BIG, Findings, TwoFormChecks
from pnp.engines.zombies_vs_vampires.moves import F_BUILD, F_CHOICE, F_MOVE, F_PM, PH_ACT, PH_OVER
from pnp.engines.zombies_vs_vampires.records import Records
from pnp.engines.zombies_vs_vampires.walls import fits, toggled
from pnp.schema import Field, Schema

COMPACT_POSITION = Schema("zombies-vs-vampires position", "A position written by hand (from_position).", {
    "pieces": Field("list:list:str", "Per seat: the squares of its pieces.", None),
    "walls": Field("list:str", "The walls on the board (h:d4-3, v:e5-1).", None),
    "die": Field("any", "The action die's face: 2 4 6 2* build pm, or build-size.", None),
    "wall_size": Field("int", "The size die's face (for build).", None),
    "turn": Field("int", "The seat to move (0-based).", None),
    "first": Field("int", "The seat that starts each round.", None),
    "supply": Field("list:int", "Walls of size 1, 2, 3 still off the board.", None),
}, unique=None)
SNAPSHOT_STATE = Schema("zombies-vs-vampires snapshot", "A position as to_dict() writes it.", {
    "pieces": Field("list:list:str", "Per seat: the squares of its pieces."),
    "walls": Field("list:list:str", "The walls: [w<serial>, h:d4-3]."),
    "next_serial": Field("int", "The serial number of the next wall."),
    "supply": Field("list:int", "Walls of size 1, 2, 3 off the board."),
    "total_walls": Field("list:int", "Walls of size 1, 2, 3 in the game.", None),
    "home": Field("list:int", "Per seat: pieces in its far zone."),
    "turns_taken": Field("list:int", "Per seat: turns begun."),
    "first": Field("int", "The seat that starts each round."),
    "finishers": Field("list:int", "Seats with every piece home."),
    "total_turns": Field("int", "Turns begun in all."),
    "phase": Field("int", "0 choose, 1 act, 2 build, 3 over."),
    "face": Field("int", "The action die: -1 none, 0 move, 1 build, 2 +/-, 3 2* choice."),
    "face_text": Field("str", "The face as printed.", None),
    "steps": Field("int", "Steps the die allows."),
    "wsize": Field("int", "The size die's face."),
    "rerolled": Field("bool", "V15: rerolled this turn."),
    "outcome": Field("any", "The outcome, or null.", None),
}, unique=None)


class PositionChecks(TwoFormChecks, Records):
    """``validate_position`` for both position forms."""

    compact_position_schema = COMPACT_POSITION
    snapshot_state_schema = SNAPSHOT_STATE

    # ---------------------------------------------------------------- pieces and walls
    def _check_pieces(self, pieces: list, path: tuple, found: Findings) -> None:
        """V1: per seat at most its start zone's pieces, each on the board, one a square."""
        g = self.geo
        if not found.per_seat(pieces, path, self.players, "pieces"):
            return
        first: dict[int, str] = {}
        for p, squares in enumerate(pieces):
            if len(squares) > self.pieces_needed[p]:
                found.add(path + (p,), f"P{p + 1} has {self.pieces_needed[p]} pieces, not {len(squares)}")
            for i, text in enumerate(squares):
                s = found.parsed(g.parse_sq, text, path + (p, i), f"P{p + 1}'s piece on")
                if s is None:
                    continue
                if s in first:
                    found.add(path + (p, i), f"two pieces on {g.sq_name(s)}: {first[s]} and P{p + 1}'s "
                                             "(one piece a square)")
                else:
                    first[s] = f"P{p + 1}'s"

    def _check_walls(self, walls: list[tuple[tuple, str]], found: Findings, capped: bool) -> None:
        """V7/V9/V10: each wall a spot of the board outside the home zones, of a size the supply
        has, no more of a size than the supply holds (``capped``), none overlapping or crossing
        another."""
        g = self.geo
        placed: list[tuple[int, str]] = []
        per_size = [0, 0, 0, 0]
        for path, text in walls:
            spec = found.parsed(g.parse_wall, text, path, "wall")
            if spec is None:
                continue
            o, r, c, L = spec
            if L not in (1, 2, 3) or not self.total_walls[L]:
                sizes = [n for n in (1, 2, 3) if self.total_walls[n]]
                found.add(path, f"wall {text}: the supply has walls of size {', '.join(map(str, sizes))}, "
                                f"not {L}")
                continue
            ci = g.cand_index.get(spec)
            if ci is None:
                found.add(path, f"wall {text}: {self._why_no_spot(o, r, c, L)} (V9)")
                continue
            per_size[L] += 1
            if capped and per_size[L] == self.total_walls[L] + 1:
                found.add(path, f"wall {text}: the supply has only {self.total_walls[L]} walls of size {L}")
            for other, other_text in placed:
                if not fits(g, ci, toggled(g, other, (0, 0, 0, 0))):
                    found.add(path, f"wall {text} overlaps or crosses wall {other_text} (V9)")
                    break
            else:
                placed.append((ci, text))

    def _why_no_spot(self, o: int, r: int, c: int, L: int) -> str:
        """Why a wall named on the board is no wall spot: past the edge, or inside a zone."""
        g = self.geo
        N, W = g.N, g.W
        if (o == 0 and (r >= N - 1 or c + L > N)) or (o == 1 and (c >= N - 1 or r + L > N)):
            return "it runs along or past the board's edge"
        pairs = ([((r, c + i), (r + 1, c + i)) for i in range(L)] if o == 0 else
                 [((r + i, c), (r + i, c + 1)) for i in range(L)])
        for (a, b), (a2, b2) in pairs:
            z = g.zone_of.get(a * W + b)
            if z is not None and z == g.zone_of.get(a2 * W + b2):
                return f"it lies inside home zone {g.zone_ids[z]}"
        return "no wall may lie there"

    # ---------------------------------------------------------------- the compact form
    def _check_compact(self, spec: dict, found: Findings) -> None:
        if spec.get("pieces") is not None:
            self._check_pieces(spec["pieces"], ("pieces",), found)
        supply = spec.get("supply")
        if supply is not None:
            self._check_supply(supply, ("supply",), found)
        walls = spec.get("walls") or []
        self._check_walls([(("walls", i), w) for i, w in enumerate(walls)], found, capped=supply is None)
        die = spec.get("die")
        die_text = None if die is None else str(die)
        faces = sorted(set(self.action_die)) + ["build-size"]
        steps = die_text is not None and die_text.isdigit() and 1 <= int(die_text) <= 4 * self.geo.N
        if die_text is not None and die_text not in faces and not steps:
            found.add(("die",), f"die: a face of the action die ({' '.join(faces)}) or a number of "
                                f"steps, not {die!r}")
        size = spec.get("wall_size")
        sizes = sorted(set(self.size_die))
        if size is not None and size != 0 and size not in sizes:
            found.add(("wall_size",), f"wall_size: a face of the size die ({' '.join(map(str, sizes))}), "
                                      f"not {size}")
        elif die_text in ("build", "build-size") and not size:
            found.add(("wall_size",) if size is not None else (), "a build needs the size die's face "
                      f"(wall_size: {' '.join(map(str, sizes))})")
        for key in ("turn", "first"):
            if spec.get(key) is not None:
                found.seat(spec[key], (key,), self.players, key)

    def _check_supply(self, supply: list, path: tuple, found: Findings) -> None:
        if len(supply) != 3:
            found.add(path, f"supply: walls of size 1, 2 and 3 (three numbers), not {len(supply)}")
        for i, n in enumerate(supply[:3]):
            found.in_range(n, path + (i,), 0, 1000, f"walls of size {i + 1} in the supply")

    # ---------------------------------------------------------------- a to_dict() snapshot
    def _check_snapshot(self, s: dict, found: Findings) -> None:
        n = self.players
        st = ("state",)
        self._check_pieces(s["pieces"], st + ("pieces",), found)
        self._check_supply(s["supply"], st + ("supply",), found)
        if s.get("total_walls"):
            self._check_supply(s["total_walls"], st + ("total_walls",), found)
        walls = []
        for i, w in enumerate(s["walls"]):
            if len(w) != 2 or not w[0].startswith("w") or not w[0][1:].isdigit():
                found.add(st + ("walls", i), f"a wall is [w<serial>, h:d4-3], not {w!r}")
            else:
                walls.append((st + ("walls", i, 1), w[1]))
        if not found:     # the supply's sizes decide what a wall may be
            self._check_walls(walls, found, capped=False)
        found.in_range(s["next_serial"], st + ("next_serial",), 1, BIG, "next_serial")
        for key, hi in (("home", 26 * 26), ("turns_taken", BIG)):
            if found.per_seat(s[key], st + (key,), n, key):
                for p, v in enumerate(s[key]):
                    found.in_range(v, st + (key, p), 0, hi, f"{key} of P{p + 1}")
        found.seat(s["first"], st + ("first",), n, "first")
        for i, p in enumerate(s["finishers"]):
            found.seat(p, st + ("finishers", i), n, "a finisher")
        found.in_range(s["total_turns"], st + ("total_turns",), 0, BIG, "total_turns")
        found.in_range(s["phase"], st + ("phase",), 0, PH_OVER, "phase")
        found.in_range(s["face"], st + ("face",), -1, max(F_MOVE, F_BUILD, F_PM, F_CHOICE), "face")
        found.in_range(s["steps"], st + ("steps",), 0, 4 * self.geo.N, "steps")
        found.in_range(s["wsize"], st + ("wsize",), 0, 3, "wsize")
        if s["phase"] == PH_ACT and s["face"] == F_BUILD and not s["wsize"]:
            found.add(st + ("wsize",), "a build needs the size die's face (wsize 1..3)")
        out = s.get("outcome")
        if out is not None and not _outcome_like(out):
            found.add(st + ("outcome",), "outcome: null or {winners, scores, reason, rule}")


def _outcome_like(value: Any) -> bool:
    return (isinstance(value, dict) and {"winners", "scores", "reason", "rule"} <= set(value)
            and isinstance(value["winners"], list) and isinstance(value["scores"], list))
