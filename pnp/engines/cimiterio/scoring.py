"""Captures, points, the gate and the end of the game (C9, C10, C13, C14, C21-C23)."""
from __future__ import annotations

from pnp.engines.cimiterio.state import (
    GATE_BROKEN,
    GATE_DAMAGED,
    GATE_INTACT,
    SLOTS,
    CimiterioState,
)
from pnp.engines.core import Outcome


class Scoring(CimiterioState):

    def _place(self, cell: int, zs: tuple) -> None:
        """Put zombies ``zs`` (bottom first) on ``cell``, on top of any group there (C10)."""
        old = self.stacks.get(cell, ())
        if old:
            self.fire("C10")
        self.stacks[cell] = old + tuple(zs)

    def _capture(self, z: int) -> None:
        """C9: the current player captures zombie ``z`` (C21 points; C23 tie-break win)."""
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

    def _uncapture(self, seat: int, n: int) -> None:
        """Take the last ``n`` zombies back from ``seat``'s captured pile, with their points."""
        pile = self.captured[seat]
        back, keep = pile[len(pile) - n:], pile[:len(pile) - n]
        caps = list(self.captured)
        caps[seat] = keep
        self.captured = tuple(caps)
        sc = list(self.scores)
        sc[seat] -= sum(self.value(z, seat) for z in back)
        self.scores = tuple(sc)

    def _attack(self, n: int) -> None:
        """C13: a group of ``n`` attacks the gate; C14: a broken gate ends the game."""
        intact, damaged = self.holds
        self.fire("C13")
        if self.gate == GATE_INTACT:
            if n > intact:
                self.gate = GATE_DAMAGED
        elif n > damaged:
            self.gate = GATE_BROKEN
            self.fire("C14")
            self.result = Outcome((), self.scores, "the zombies broke the gate", "C14")

    def _cemetery_empty(self) -> None:
        """C22: the cemetery is empty; the highest score wins, C23 breaks a tie."""
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
