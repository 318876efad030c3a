"""A record's starting position checked in the game's terms before it is set up: every card a
printed one, no more copies of a card than the deck has across the hands, tables, discard pile
and deck; tables that keep Z4 (never an item and its zombie), Z5 (no two identical cards) and Z8
(a zombie player has no table); one entry per seat; the seat to move in range. Both forms: the
compact one (``from_position``) and a to_dict() snapshot."""
from __future__ import annotations

from typing import Any

from pnp.engines.checks import BIG, Findings
from pnp.engines.zombie_run.records import Records
from pnp.engines.zombie_run.rules import PH_OVER
from pnp.schema import Field, Schema

COMPACT_POSITION = Schema("zombie-run position", "A position written by hand (from_position).", {
    "hands": Field("list:list:str", "Per seat: the cards in its hand (item:bat, zombie:roach...).", None),
    "tables": Field("list:list:str", "Per seat: the cards on its table.", None),
    "alive": Field("list:bool", "Per seat: still living (false: a zombie player).", None),
    "deck": Field("list:str", "Cards on top of the deck, top first.", None),
    "discard": Field("list:str", "The discard pile.", None),
    "turn": Field("int", "The seat to move (0-based).", None),
    "special_used": Field("bool", "The special move was used this turn.", None),
    "z6_used": Field("bool", "Z6 was used this turn.", None),
}, unique=None)
SNAPSHOT_STATE = Schema("zombie-run snapshot", "A position as to_dict() writes it.", {
    "deck": Field("list:str", "The deck, the top last."),
    "discard": Field("list:str", "The discard pile."),
    "hands": Field("list:list:str", "Per seat: its hand."),
    "tables": Field("list:list:str", "Per seat: its table."),
    "alive": Field("list:bool", "Per seat: still living."),
    "special_used": Field("bool", "The special move was used this turn."),
    "z6_used": Field("bool", "Z6 was used this turn."),
    "phase": Field("int", "0 a living player decides, 1 a zombie player, 2 over."),
    "turns": Field("int", "Turns begun."),
    "outcome": Field("any", "The outcome, or null.", None),
    "seen": Field("list:list:any", "Positions seen (repetition guard): [key, times].", None),
}, unique=None)


class PositionChecks(Records):
    """``validate_position`` for both position forms."""

    compact_position_schema = COMPACT_POSITION
    snapshot_state_schema = SNAPSHOT_STATE

    def validate_position(self, position: dict) -> list[tuple[tuple, str]]:
        found = Findings()
        snapshot = "state" in position
        s = position["state"] if snapshot else position
        root = ("state",) if snapshot else ()
        n = self.players
        left = list(self.data.copies)
        for key in ("hands", "tables"):
            rows = s.get(key)
            if rows is None:
                continue
            if found.per_seat(rows, root + (key,), n, key):
                for q, cards in enumerate(rows):
                    types = [self._count_card(x, root + (key, q, i), found, left) for i, x in enumerate(cards)]
                    if key == "tables":
                        self._check_table(q, cards, types, root + (key, q), found)
        alive = s.get("alive")
        if alive is not None and found.per_seat(alive, root + ("alive",), n, "alive"):
            for q, cards in enumerate(s.get("tables") or []):
                if not alive[q] and cards and q < n:
                    found.add(root + ("tables", q), f"P{q + 1} is a zombie player and has no table (Z8)")
        for key in ("discard", "deck"):
            for i, x in enumerate(s.get(key) or []):
                self._count_card(x, root + (key, i), found, left)
        if snapshot:
            self._check_snapshot(s, left, found)
        elif s.get("turn") is not None:
            found.seat(s["turn"], ("turn",), n, "turn: the seat to move")
        return found.items

    def _count_card(self, text: str, path: tuple, found: Findings, left: list[int]) -> int | None:
        """The card type ``text`` names, counted against the printed copies."""
        t = found.parsed(self.data.type_of, text, path, "card")
        if t is None:
            return None
        left[t] -= 1
        if left[t] == -1:
            found.add(path, f"more than the {self.data.copies[t]} printed copies of {self.data.names[t]}")
        return t

    def _check_table(self, q: int, cards: list, types: list, path: tuple, found: Findings) -> None:
        """Z4, Z5: what one table may hold."""
        d = self.data
        S = d.S
        seen: dict[int, int] = {}
        roaches = 0
        for i, t in enumerate(types):
            if t is None:
                continue
            if t == d.ROACH:
                roaches += 1
                if roaches > self.roach_cap:
                    found.add(path + (i,), f"P{q + 1}'s table holds {roaches} {cards[i]} (Z5)")
                continue
            if t in seen:
                found.add(path + (i,), f"P{q + 1}'s table holds {cards[i]} twice (Z5)")
            twin = t + S if t < S else t - S
            if twin in seen:
                found.add(path + (i,), f"P{q + 1}'s table holds {cards[i]} and {d.names[twin]} (Z4)")
            seen[t] = i

    def _check_snapshot(self, s: dict, left: list[int], found: Findings) -> None:
        """A whole position: every printed card somewhere, the phase and counters in range."""
        d = self.data
        short = [f"{left[t]} {d.names[t]}" for t in range(d.NT) if left[t] > 0]
        if short:
            found.add(("state",), "cards placed nowhere: " + ", ".join(short))
        found.in_range(s["phase"], ("state", "phase"), 0, PH_OVER, "phase")
        found.in_range(s["turns"], ("state", "turns"), 0, BIG, "turns")
        for i, item in enumerate(s.get("seen") or []):
            if len(item) != 2 or not isinstance(item[1], int) or _has_mapping(item[0]):
                found.add(("state", "seen", i), f"seen: [position key (lists), times], not {item!r}")
        out = s.get("outcome")
        if out is not None and not (isinstance(out, dict) and {"winners", "scores", "reason", "rule"} <= set(out)
                                    and isinstance(out["winners"], list) and isinstance(out["scores"], list)):
            found.add(("state", "outcome"), "outcome: null or {winners, scores, reason, rule}")


def _has_mapping(value: Any) -> bool:
    if isinstance(value, dict):
        return True
    return isinstance(value, list) and any(_has_mapping(v) for v in value)
