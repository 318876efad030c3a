"""Zombie! Run for Your Lives!: the legal moves, the one-move check, the random-move sampler and
the diagnosis of an illegal move. All of them ask the rules of :mod:`.rules`
(``_move_for``, ``_has_play``, ``_z6_move``, ``_zombie_targets``)."""
from __future__ import annotations

from collections.abc import Callable

from pnp.engines.zombie_run.moves import DISCARD, DISCARD_HAND, PASS, PLAY, SPECIAL, decode
from pnp.engines.zombie_run.rules import PH_LIVING, PH_OVER, PH_ZOMBIE
from pnp.engines.zombie_run.turns import Turns


class Legality(Turns):
    """Move generation and legality."""

    def legal_moves(self) -> list[int]:
        """Every legal move once: a zombie player's placements (Z9) or its discard; a living
        player's normal plays (Z3) by card, then its specials (Z11) and the Z6 move.

        ``_move_for`` for every seat at once (``_generate``). The list is also left in
        ``_legal_memo`` (a copy the caller cannot change), so ``push`` of one of its moves
        skips the one-move check."""
        if self.phase == PH_OVER:
            return []
        ms = self._generate()
        self._legal_memo = ms
        return ms[:]

    def _generate(self) -> list[int]:
        """The legal moves (``legal_moves``), a new list, the game not over: cards in the order
        of ``set(hand)``, per card the seats ascending, read from the masks of :mod:`.rules`
        (``_acc``: Z5, ``_iok`` / ``_zok``: Z12) and its tables of ready-made moves."""
        p = self.turn
        acc = self._acc                                     # living seats only
        if self.phase:                                      # PH_ZOMBIE
            hand = self.hands[p]                            # Z9: the drawn card, any type
            if not hand:
                return [PASS << 16]
            t = hand[0]
            return list(self.PLAYS[t][acc[t]]) or [DISCARD << 16 | t << 8]
        plays: list[int] = []
        if self.special_used:                               # Z11: once a turn
            normals = self.NORMALS[p]                       # [t][seats] -> plays
            for t in set(self.hands[p]):                    # Z3: an item onto your own table,
                plays += normals[t][acc[t]]                 # a zombie onto another's
            return plays or [self._z6_move()]               # no normal play possible: Z6
        mover = self.MOVER[p]                               # [t][seats] -> (plays, specials)
        specials: list[int] = []
        own = 1 << p
        others = self._live & ~own
        iok = self._iok
        zok = self._zok & own
        if zok and not others & ~iok:
            # Z12 binds nobody (no other table at 4 items, yours below 4 zombies), the common
            # case: Z3 and Z11 read together, without Z12
            for t in set(self.hands[p]):
                normal, special = mover[t][acc[t]]
                plays += normal
                specials += special
        else:
            # Z12 leaves out of a card's mask the seats its special may not reach, so the same
            # table gives the moves (a normal play keeps its seats: own for an item, the others
            # for a zombie): Z11 an item onto another's table, not its 5th item unless that
            # table holds the item's zombie (Z4 cancels them); a zombie onto your own, not your
            # 5th zombie unless it cancels an item (the symbol-less one cancels none, Z14)
            S = self.S
            R = self.ROACH
            iok |= own
            zok = self._zok | ~own
            for t in set(self.hands[p]):
                if t < S:
                    seats = acc[t] & (iok | ~acc[t + S])
                elif t < R:
                    seats = acc[t] & (zok | ~acc[t - S])
                else:
                    seats = acc[t] & zok
                normal, special = mover[t][seats]
                plays += normal
                specials += special
        if not plays:                                       # no normal play possible: Z6
            specials.append(self._z6_move())
        plays += specials
        return plays

    def _legal_one(self, move: object) -> bool:
        """Is ``move`` legal here? O(hand) without building the move list."""
        ph = self.phase
        if ph == PH_OVER or not isinstance(move, int) or move < 0:
            return False
        kind, t, q = decode(move)
        hand = self.hands[self.turn]
        if ph == PH_ZOMBIE:
            if not hand:
                return move == PASS << 16
            if t != hand[0]:
                return False
            if kind == PLAY:
                return q < self.players and self._live >> q & 1 == 1 and self._can_place(t, q)
            return kind == DISCARD and q == 0 and not self._zombie_targets(t)
        if kind == PLAY or kind == SPECIAL:
            return (t in hand and q < self.players and self.alive[q] and
                    self._move_for(t, q) == move)
        if kind == DISCARD_HAND or kind == PASS:
            return move == self._z6_move() and not self._has_play()
        return False

    def random_move(self, rnd: Callable[[], float]) -> int:
        """A uniformly random legal move; ``rnd`` is ``random.Random().random``."""
        if self.phase != PH_LIVING:
            ms = self.legal_moves()
            return ms[int(rnd() * len(ms))]
        return self._sample_living(rnd, self._living_seats())

    def _sample_living(self, rnd: Callable[[], float], live: list[int]) -> int:
        """A living player's uniformly random legal move, by rejection sampling over the
        candidate set {distinct card in hand} x {living seat} + {Z6 move}, which holds every
        legal move exactly once (falls back to the full list after 8 misses)."""
        ts = list(set(self.hands[self.turn]))
        nl = len(live)
        u = len(ts) * nl + 1
        move_for = self._move_for
        for _ in range(8):
            k = int(rnd() * u)
            if k == u - 1:
                if not self._has_play():
                    return self._z6_move()
                continue
            m = move_for(ts[k // nl], live[k % nl])
            if m >= 0:
                return m
        ms = self.legal_moves()
        return ms[int(rnd() * len(ms))]

    # ---------------------------------------------------------------- legality diagnosis
    def _illegal_reason(self, move):
        if self._outcome is not None:
            return ("end", "the game is over")
        if not isinstance(move, int):
            return ("move", "not a move of this game")
        if self._legal_one(move):
            return None
        kind, t, q = decode(move)
        p = self.turn
        S = self.S
        if kind in (PLAY, SPECIAL, DISCARD) and t not in self.hands[p]:
            return ("Z9" if self.phase == PH_ZOMBIE else "Z3", "that card is not in the hand")
        if q >= self.players:
            return ("Z3", "no such player")
        if self.phase == PH_ZOMBIE:
            if kind == PLAY:
                if not self.alive[q]:
                    return ("Z9", "a zombie player plays onto a living player's table")
                return ("Z5", "that table already holds an identical card")
            if kind == DISCARD:
                return ("Z9", "the drawn card can be played, so it must be")
            return ("Z9", "a zombie player plays or discards the drawn card")
        if kind == PLAY:
            if t < S and q != p:
                return ("Z3", "an item goes onto your own table (or use the special rule)")
            if t >= S and q == p:
                return ("Z3", "a zombie goes onto another player's table (or use the special rule)")
            if not self.alive[q]:
                return ("Z3", "zombie players have no table")
            return ("Z5", "that table already holds an identical card")
        if kind == SPECIAL:
            if self.special_used:
                return ("Z11", "the special rule is used at most once per turn")
            if t < S and q == p or t >= S and q != p:
                return ("Z11", "special: a zombie onto your own table or an item onto another's")
            if not self.alive[q]:
                return ("Z11", "special items go to a living player")
            if not self._can_place(t, q):
                return ("Z5", "that table already holds an identical card")
            if t < S:
                return ("Z12", "the special rule cannot give another player their 5th item")
            return ("Z12", "the special rule cannot give you your 5th zombie")
        if kind == DISCARD_HAND:
            if self.z6_used:
                return ("Z6", "the hand was already replaced this turn; pass")
            return ("Z6", "a card can be played, so the hand cannot be discarded")
        if kind == PASS:
            return ("Z3", "a card can be played (or the hand replaced, Z6)")
        return ("move", "not a legal move here")
