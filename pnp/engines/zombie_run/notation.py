"""Zombie! Run for Your Lives!: move notation and the position in words.

Cards are ``item:bat``, ``zombie:bus``, ``zombie:roach`` (or a printed id, ``item-bat#2``);
seats ``P1``..``P7``. Moves: ``play CARD[>Pn|>self]``, ``special CARD>Pn|self``,
``discard-hand``, ``discard [CARD]``, ``pass`` (docs/rules/zombie-run.md, Notation).
"""
from __future__ import annotations

from pnp.engines.zombie_run.moves import DISCARD, DISCARD_HAND, PASS, PLAY, SPECIAL, decode, mk
from pnp.engines.zombie_run.rules import PH_OVER, PH_ZOMBIE
from pnp.engines.zombie_run.turns import Turns


class Notation(Turns):
    """``move_text`` / ``parse_move`` and ``describe``."""

    def _seat(self, q: int) -> str:
        return f"P{q + 1}"

    def move_text(self, move: int) -> str:
        kind, t, q = decode(move)
        name = self.data.names[t]
        if kind == PLAY:
            if t < self.S and self.phase != PH_ZOMBIE and q == self.turn:
                return f"play {name}"
            return f"play {name}>{self._seat(q)}"
        if kind == SPECIAL:
            tgt = "self" if q == self.turn else self._seat(q)
            return f"special {name}>{tgt}"
        if kind == DISCARD_HAND:
            return "discard-hand"
        if kind == DISCARD:
            return f"discard {name}"
        if kind == PASS:
            return "pass"
        return repr(move)

    def parse_move(self, text: str) -> int:
        s = " ".join(str(text).strip().split())
        if s == "discard-hand":
            return DISCARD_HAND << 16
        if s == "pass":
            return PASS << 16
        verb, _, rest = s.partition(" ")
        if verb == "discard":
            if not rest and self.hands[self.turn]:
                return mk(DISCARD, self.hands[self.turn][0], 0)
            return mk(DISCARD, self._card(rest, text), 0)
        if verb not in ("play", "special"):
            raise self.illegal(text, "notation", "moves: play CARD[>P<n>|>self], special CARD>"
                               "P<n>|self, discard-hand, discard [CARD], pass")
        card, _, target = rest.partition(">")
        t = self._card(card.strip(), text)
        target = target.strip()
        if not target or target == "self":
            if not target and (verb == "special" or (t >= self.S and self.phase != PH_ZOMBIE)):
                raise self.illegal(text, "notation", "name the target player: >P<n>")
            q = self.turn
        else:
            if target[:1].upper() != "P" or not target[1:].isdigit():
                raise self.illegal(text, "notation", "targets are P1..P<n> or self")
            q = int(target[1:]) - 1
            if not 0 <= q < self.players:
                raise self.illegal(text, "Z3", f"no player {target}")
        return mk(PLAY if verb == "play" else SPECIAL, t, q)

    def move_subjects(self, text: str) -> set[str]:
        """The card a move text names (``play item:bat>P2``, ``special ...``, ``discard ...``),
        for the replay's list of that card's legal plays; other moves name none. Never raises."""
        verb, _, rest = " ".join(str(text).strip().split()).partition(" ")
        if verb not in ("play", "special", "discard") or not rest:
            return set()
        try:
            return {self.data.names[self.data.type_of(rest.partition(">")[0].strip())]}
        except ValueError:               # not a card of this deck
            return set()

    def _card(self, token: str, text: str) -> int:
        try:
            return self.data.type_of(token)
        except ValueError as e:
            raise self.illegal(text, "notation", str(e)) from None

    def describe(self) -> str:
        d = self.data
        me = self._seat(self.turn)
        parts = [(f"zombie-run ply {self.ply}, turn {self.turns}, {me} to move"
                  f" ({'living' if self.alive[self.turn] else 'zombie'}); deck {len(self.deck)},"
                  f" discard {len(self.discard)}")]
        for q in range(self.players):
            if not self.alive[q]:
                parts.append(f"{self._seat(q)}: zombie")
                continue
            tab = self._table_names(q)
            parts.append(f"{self._seat(q)}: table [{', '.join(tab)}] hand {len(self.hands[q])}")
        if self.phase != PH_OVER:
            parts.append(f"hand of {me}: "
                         f"[{', '.join(d.names[t] for t in sorted(self.hands[self.turn]))}]")
        return "; ".join(parts)
