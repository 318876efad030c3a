"""The player's decisions: action cards (C4-C7), the order of tied groups (C19) and the
personalised zombie (C24): which are legal, why another is not, and playing one.

Legality has one definition: the moves ``action_table`` generates (cached per guardian pair as a
tuple for ``legal_moves`` and as a set for the legality check); ``_why_illegal`` only explains a
move that is not among them.
"""
from __future__ import annotations

from pnp.engines.cimiterio.board import Board
from pnp.engines.cimiterio.turns import Turns

# C7: the noise modes (G1, G2, both together, one after the other) and the waves each starts
NOISE_QUEUES = {
    "1": (("guard", 0),),
    "2": (("guard", 1),),
    "1+2": (("guard", 2),),                     # both at once (C12)
    "1,2": (("guard", 0), ("guard", 1)),
    "2,1": (("guard", 1), ("guard", 0)),
}
NOISE_MODES = tuple(NOISE_QUEUES)
PERSONAL_CHOICES = (0, 1, 2, 3)                 # C24: keep it in its group, or move it 1-3 cells
PERSONAL_MOVES = tuple(("personal", n) for n in PERSONAL_CHOICES)


def action_table(B: Board, guards: tuple) -> tuple[tuple, frozenset, tuple]:
    """Every action-card move for guardians on ``guards`` (C5, C6, C7), as a tuple (the order
    ``legal_moves`` lists them in), as a set (the legality check) and, move by move, the
    guardians' stops after it (None for a noise or the pass: only a Move moves them, C6), which
    ``random_playout`` reads by the index it picked instead of working them out. The first call on a
    board makes them for every pair of stops at once (``_fill_action_tables``): a game's
    guardians wander over most pairs, and a table made mid-game costs that game's time."""
    got = B.move_cache.get(guards)
    if got is None:
        if not B.move_cache:
            _fill_action_tables(B)
            got = B.move_cache.get(guards)
        if got is None:             # a pair the fill did not make (not two stops): made as asked
            g1, g2 = guards
            got = _pair_table(B, g1, g2, _alone(B, g1, True), _alone(B, g2, False))
            B.move_cache[guards] = got
    return got


# C7: the noise modes, then C5's pass: the end of every action list
ACTION_TAIL = tuple(("noise", m) for m in NOISE_MODES) + (("pass",),)


def _alone(B: Board, g: int, first: bool) -> tuple:
    """C6: the Move actions of G1 (``first``) or G2 alone, from stop ``g``."""
    if first:
        return tuple([("move", g, t, -1, -1) for t in B.reach[g]])
    return tuple([("move", -1, -1, g, t) for t in B.reach[g]])


def _pair_table(B: Board, g1: int, g2: int, one: tuple, two: tuple,
                pairs: dict | None = None) -> tuple[tuple, frozenset, tuple]:
    """The action moves for G1 on ``g1`` and G2 on ``g2``: G1 alone (``one``), G2 alone
    (``two``), both, the noises, the pass; with the stops after each (as tuples of ``pairs``,
    shared by the tables, when given)."""
    r1, r2 = B.reach[g1], B.reach[g2]
    both = tuple([("move", g1, t1, g2, t2) for t1 in r1 for t2 in r2])
    moves = one + two + both + ACTION_TAIL
    after = ([(t1, g2) for t1 in r1] + [(g1, t2) for t2 in r2]
             + [(t1, t2) for t1 in r1 for t2 in r2])
    if pairs is not None:
        after = [pairs.get(p, p) for p in after]
    return moves, frozenset(moves), tuple(after) + (None,) * len(ACTION_TAIL)


def _fill_action_tables(B: Board) -> None:
    """``action_table`` for every pair of stops of ``B``; the one-guardian moves and the tail
    are tuples shared by the tables, which add one tuple per two-guardian move only."""
    stops = range(len(B.ring))
    ones = [_alone(B, g, True) for g in stops]
    twos = [_alone(B, g, False) for g in stops]
    cache = B.move_cache
    pairs = {(g1, g2): (g1, g2) for g1 in stops for g2 in stops}
    for pair in pairs:
        g1, g2 = pair
        cache[pair] = _pair_table(B, g1, g2, ones[g1], twos[g2], pairs)


def action_set(B: Board, guards: tuple) -> frozenset:
    """``action_table``'s moves as a set, for the legality check."""
    return action_table(B, guards)[1]


class Actions(Turns):

    def legal_moves(self) -> list:
        """The legal moves. They are also left in ``_legal_memo`` (the core's ``push`` then
        takes a move found there without the one-move check): the action moves as their
        cached frozenset, where ``in`` is one hash lookup instead of a scan of ~50 tuples."""
        if self.result is not None:
            return []
        p = self.pending
        if p is None:
            B = self.B
            moves, self._legal_memo, _ = (B.move_cache.get(self.guards)
                                          or action_table(B, self.guards))
            return list(moves)
        if p[0] == "order":
            got = tuple(map(self.B.first_move.__getitem__, p[1]))
        else:
            got = PERSONAL_MOVES
        self._legal_memo = got
        return list(got)

    def _illegal_reason(self, move):
        if self.result is not None:
            return (self.result.rule, "the game is over")
        p = self.pending
        if p is None:
            try:
                if move in action_set(self.B, self.guards):
                    return None
            except TypeError:
                return ("notation", "not a move")
        try:
            kind = move[0]
        except (TypeError, IndexError):
            return ("notation", "not a move")
        if p is None:
            return self._why_illegal(kind, move)
        if p[0] == "order":
            if kind == "first" and len(move) == 2 and move[1] in p[1]:
                return None
            return ("C19", "the current player must choose which tied group moves first: "
                    + ", ".join("first " + self.B.cell_text(c) for c in p[1]))
        if kind == "personal" and len(move) == 2 and move[1] in PERSONAL_CHOICES:
            return None
        return ("C24", "the owner must decide how the personalised zombie moves")

    def _why_illegal(self, kind, move) -> tuple[str, str]:
        """The rule an action-time move of kind ``kind`` breaks (it is not among ``action_moves``)."""
        if kind == "noise":
            return ("C7", "noise by G1, G2, G1+G2 (together) or G1,G2 / G2,G1 (in turn)")
        if kind == "move":
            if len(move) != 5:
                return ("notation", "move needs guardian moves")
            _, f1, t1, f2, t2 = move
            if t1 == -1 and t2 == -1:
                return ("C6", "at least one guardian must move")
            B = self.B
            for g, f, t in ((1, f1, t1), (2, f2, t2)):
                if t == -1:
                    if f != -1:
                        return ("notation", f"G{g} stays: its move is -1, -1")
                    continue
                if f != self.guards[g - 1]:
                    return ("C6", f"G{g} is at {B.cell_text(B.ring[self.guards[g - 1]])}")
                if not isinstance(t, int) or not (0 <= t < len(B.ring)):
                    return ("C3", "guardians stand only on the stops outside the cemetery")
                if t not in B.reach[f]:
                    return ("C6", f"G{g} moves at most {self.cards.max_stops} consecutive stops")
        if kind == "first":
            return ("C19", "no tie to break now")
        if kind == "personal":
            return ("C24", "no personalised-zombie choice is pending")
        return ("notation", "unknown move")

    def _apply(self, move) -> None:
        kind = move[0]
        if kind == "move":          # C6 (the commonest move first: most of the list)
            # (random_playout plays a Move the same way, with the stops after it from the table)
            self.si = si = self.si + 1
            self.fire("C6")
            t1 = move[2]
            t2 = move[4]
            g = self.guards
            self.guards = (g[0] if t1 < 0 else t1, g[1] if t2 < 0 else t2)
            slots = self.slots
            if si < len(slots) and slots[si] == "A" and self.wave is None and not self.queue:
                return              # the next action card: nothing for _run to play in between
        elif kind == "first":
            assert self.wave is not None
            self.pending = None
            self.fire("C19")
            # C19: the chosen group moves first, then the wave goes on (_run below finds it
            # done, or the next choice pending)
            self._play_gate_wave(self.wave[0], move[1])
        elif kind == "noise":
            self.si += 1
            self.fire("C7")
            self.queue = NOISE_QUEUES[move[1]]
        elif kind == "pass":
            # C5: every unplayed action card is replaced by an event card
            self.fire("C5")
            self.slots = self.slots[:self.si] + self.slots[self.si:].replace("A", "E")
        else:
            assert kind == "personal" and self.wave is not None and self.pending is not None
            entry = self.pending[1]
            self.pending = None
            rule, entries = self.wave
            self.wave = (rule, tuple([e for e in entries if e != entry]))
            self._move_personal(entry, move[1])
        self._run()
