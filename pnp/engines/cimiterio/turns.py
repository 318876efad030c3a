"""The turn and the event cards: everything the engine plays by itself between two player
decisions (C4, C15-C20, C23, C25, C26)."""
from __future__ import annotations

from pnp.engines.cimiterio.movement import Movement
from pnp.engines.cimiterio.state import (
    EV_AWAKE,
    EV_NOISE,
    EV_QUIET,
    EV_RESHUFFLE,
    SLOTS,
)


class Turns(Movement):

    def _run(self) -> None:
        """Advance automatically until a player decision is needed or the game ends."""
        while self.result is None and self.pending is None:
            if self.wave is not None:
                if not self._play_wave():
                    return
                continue
            queue = self.queue
            if queue:
                self.queue = queue[1:]
                self._start_wave(queue[0])
                continue
            si = self.si
            slots = self.slots
            if si >= len(slots):
                # C4: the five action cards pass to the next player, whose first slot is an
                # action card (SLOTS)
                self.fire("C4")
                self.turn = (self.turn + 1) % self.players
                self.turns += 1
                self.slots = SLOTS
                self.si = 0
                return
            if slots[si] == "A":
                return
            self.si = si + 1
            self._draw_event()

    def _draw_event(self) -> None:
        # C15: events drawn after the 3rd and the 5th action (and for every passed action, C5)
        self.fire("C15")
        if not self.edeck:
            # interpretation: an empty event deck is rebuilt from the discard pile (C20 style)
            self.edeck = self.rng.shuffled(self.ediscard)
            self.ediscard = ()
        edeck = self.edeck
        e = edeck[-1]
        self.edeck = edeck[:-1]
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
        # A wave an event makes starts at once: _run draws an event only when no wave and no
        # queued wave are left, so it would be the next one either way.
        if k == EV_NOISE:
            self.fire("C16")
            self._gate_wave("C16", self.B.avenue_sets[ev[1]].intersection(self.stacks))
        elif k == EV_AWAKE:
            self._awaken(ev[1], ev[2])
        elif k == EV_QUIET:
            self.fire("C18")
        else:
            self.fire("C19")
            self.queue = self.queue + (("bell",),)      # the second pass, after this one
            self._gate_wave("C19", self.stacks)

    def _awaken(self, cell: int, count: int) -> None:
        """C17: ``count`` zombies from the deck onto the spot ``cell`` (C25 cap, C26 restless)."""
        if self.tiebreak >= 0:
            self.fire("C23")            # C23: awakening cards are ignored in the tie-break
            return
        room = min(len(self.zdeck), max(0, self._cap - self.awakened))
        if room <= 0:
            if self._restless and self.captured[self.turn]:
                # C26: take them back from the current player's captured pile (latest first)
                self.fire("C26")
                pile = self.captured[self.turn]
                take = pile[-count:][::-1]
                self._uncapture(self.turn, len(take))
                self._place(cell, take)
                return
            self.fire("C17")
            self.fire("C18")            # C17: with everybody awake it counts as all quiet
            if self._cap < self.nz and self.awakened >= self._cap:
                self.fire("C25")
            return
        self.fire("C17")
        n = min(room, count)
        drawn = self.zdeck[-n:][::-1]   # drawn one by one; the last one drawn ends face up
        self.zdeck = self.zdeck[:-n]
        self.awakened += n
        self._place(cell, drawn)
