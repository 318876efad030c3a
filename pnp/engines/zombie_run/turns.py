"""Zombie! Run for Your Lives!: the deal, the draws and the turn flow, and applying a move.

At the start of a turn the engine draws automatically (Z3/Z9, chance from the state's RNG, Z13
reshuffles); the player then makes one or more decisions: a living player ``special ...`` (Z11,
optional, once) and then ``play ...`` / ``discard-hand`` (Z6) / ``pass`` (Z6 already used); a
zombie player (Z9) ``play ...`` or ``discard``. Two guards end a never-ending game with no
winner: the turn cap and the repetition check (docs/rules/zombie-run.md).
"""
from __future__ import annotations

from pnp.engines.core import Outcome
from pnp.engines.zombie_run.deck import fast_shuffle, zr_data
from pnp.engines.zombie_run.moves import DISCARD, DISCARD_HAND, PASS, PLAY, SPECIAL
from pnp.engines.zombie_run.rules import PH_LIVING, PH_ZOMBIE, Rules

ZT = tuple(f"zt{q}" for q in range(8))      # counter keys: zombie cards played onto seat q
ZT_LOG = tuple((key, 1) for key in ZT)      # their entries in the counters' undo log
CIRCULATION = 6     # a turn start with at most this many cards in deck + discard can repeat


class Turns(Rules):
    """Setup, draws, turn flow and ``_apply`` (undo: ``_snapshot`` / ``_restore``)."""

    max_turns: int
    rep_limit: int
    first_draw: bool
    _seen: dict

    # ---------------------------------------------------------------- setup
    def _init_common(self) -> None:
        d = self.data = zr_data()
        o = self.options
        self.win_items = int(o["win_items"])
        self.lose_zombies = int(o["lose_zombies"])
        self._init_rules(d, d.copies[d.ROACH] if o["roach_distinct"] else 1)
        self.max_turns = int(o["max_turns"])
        self.rep_limit = int(o["repetition"])
        self.first_draw = bool(o["first_draw"])
        self._seen = {}

    def _setup(self) -> None:
        self._init_common()
        n = self.players
        deck = self.data.deck_template[:]
        fast_shuffle(self.rng, deck)
        self.deck = deck
        self.discard = []
        self.hands = [[] for _ in range(n)]
        self.tables = [0] * n
        self.alive = [True] * n
        self.living = n
        self._empty_masks(n)
        self.special_used = False
        self.z6_used = False
        self.phase = PH_LIVING
        self.turns = 0
        self._outcome = None
        first = int(self.options["first"]) % n
        # Z1: deal 4 each; variant even-seats (seat fairness): the last seat in turn order gets
        # `last_extra` more
        sizes = [int(self.options["hand"])] * n
        sizes[(first - 1) % n] += int(self.options["last_extra"])
        if sum(sizes) <= len(deck):
            for p, hand in enumerate(sizes):    # hidden, as if drawn one by one
                self.hands[p] = deck[-1:-hand - 1:-1]
                del deck[-hand:]
        else:
            for p, hand in enumerate(sizes):
                self._draw(p, hand)
        self.fire("Z1")
        self.turn = first                       # Z2
        self.fire("Z2")
        self._begin_turn()

    # ---------------------------------------------------------------- draws
    def _draw(self, p: int, k: int) -> int:
        """Draw k cards for p; Z13 reshuffles the discard pile when the deck runs out. With both
        empty nothing more is drawn (documented). Returns the number drawn."""
        deck = self.deck
        hand = self.hands[p] = self.hands[p][:]             # a new list (see _snapshot)
        got = 0
        for _ in range(k):
            if not deck:
                if not self.discard:
                    self.fire("Z13-empty")
                    break
                deck.extend(self.discard)
                self.discard = []                           # a new list (see _snapshot)
                fast_shuffle(self.rng, deck)
                self.fire("Z13")
            hand.append(deck.pop())
            got += 1
        return got

    # ---------------------------------------------------------------- turn flow
    def _begin_turn(self, advance: bool = False) -> None:
        """Start a turn: with ``advance`` the next seat's (Z2: clockwise, zombie players keep
        their turns; nothing once the game is over), else seat self.turn's (the first turn).
        Never-ending guards, then the Z3/Z9 draw."""
        if advance:
            if self._outcome is not None:
                return
            p = self.turn = (self.turn + 1) % self.players
        else:
            p = self.turn
        turns = self.turns = self.turns + 1
        self.special_used = self.z6_used = False
        deck = self.deck
        if turns > self.max_turns:
            self.fire("cap")
            self._finish((), f"turn cap {self.max_turns} reached (seed {self.seed!r})", "cap")
            return
        if len(deck) <= CIRCULATION and len(deck) + len(self.discard) <= CIRCULATION:
            # only a position with (almost) no cards in circulation can loop for ever
            key = self._position_key()
            c = self._seen.get(key, 0) + 1
            self._seen = {**self._seen, key: c}     # a new dict: undo records keep the old one
            if c >= self.rep_limit:
                self.fire("repetition")
                self._finish((), f"position repeated {c} times (seed {self.seed!r})",
                             "repetition")
                return
        self.phase = PH_LIVING if self._live >> p & 1 else PH_ZOMBIE
        if not advance and not self.first_draw:             # seat fairness: the first player
            self.fire("first-no-draw")                      # plays the first turn undrawn
            return
        if deck:                                            # Z3 / Z9: draw a card
            self.hands[p] = [*self.hands[p], deck.pop()]
        else:
            self._draw(p, 1)                                # Z13

    def _position_key(self) -> tuple:
        """The position at a turn start: seat, deck order, discard, hands, tables (each table
        as item mask, zombie mask, symbol-less zombie count)."""
        S, IM, R = self.S, self.IM, self.ROACH
        tables = self.tables
        return (self.turn, tuple(self.deck), tuple(sorted(self.discard)),
                tuple(tuple(sorted(h)) for h in self.hands), tuple(t & IM for t in tables),
                tuple(t >> S & IM for t in tables), tuple(self.PC[t >> R] for t in tables))

    # ---------------------------------------------------------------- moves
    def _apply(self, move: int) -> None:
        kind = move >> 16
        p = self.turn
        hand = self.hands[p] = self.hands[p][:]             # a new list (see _snapshot)
        if kind == PLAY:
            # card type t from the hand onto q's table, the turn ends (Z3 living, Z9 a zombie
            # player; most moves of a game: fire and count written out)
            t = move >> 8 & 0xFF
            q = move & 0xFF
            hand.remove(t)
            rule = "Z9" if self.phase else "Z3"             # PH_ZOMBIE else PH_LIVING
            if t >= self.S and q != p:                      # stats: zombies played onto q
                self.counters[ZT[q]] += 1
                self._count_log.append(ZT_LOG[q])
            self.rules_fired[rule] += 1
            self._fire_log.append(rule)
            self._place(t, q)
            self._begin_turn(True)
        elif kind == SPECIAL:
            # Z11: used up for the turn, the card lands and the player draws another
            t = move >> 8 & 0xFF
            q = move & 0xFF
            hand.remove(t)
            self.special_used = True
            self.rules_fired["Z11"] += 1
            self._fire_log.append("Z11")
            self._place(t, q)
            if self._outcome is None:
                if self.deck:
                    hand.append(self.deck.pop())
                else:
                    self._draw(p, 1)                        # Z13
        elif kind == DISCARD_HAND:
            self.fire("Z6")
            self.discard.extend(hand)
            self.hands[p] = []
            self.z6_used = True
            self._draw(p, int(self.options["redraw"]))
        elif kind == DISCARD:
            self.fire("Z9-discard")
            t = move >> 8 & 0xFF
            self.discard.append(t)
            hand.remove(t)
            self._begin_turn(True)
        elif kind == PASS:
            self.fire("pass")
            self._begin_turn(True)
        else:  # pragma: no cover
            raise ValueError(f"bad move {move!r}")

    def outcome(self) -> Outcome | None:
        return self._outcome

    # ---------------------------------------------------------------- undo
    # A move never changes a hand, ``alive`` or ``_seen`` in place: it puts a new list (dict)
    # there, so the undo record keeps the old ones by reference. The discard pile only grows
    # in place during a move, or is replaced by a new list (Z13), so the record keeps the list
    # and its length. The deck, the tables and the Z5 masks are copied.
    def _snapshot(self) -> tuple:
        return (self.deck[:], self.discard, len(self.discard), self.hands[:], self.tables[:],
                self.alive, self.living, self.special_used, self.z6_used, self.phase,
                self.turns, self._outcome, self._seen, self._acc[:], self._iok, self._zok, self._live)

    def _restore(self, snap: tuple) -> None:
        (self.deck, discard, n, self.hands, self.tables, self.alive, self.living,
         self.special_used, self.z6_used, self.phase, self.turns, self._outcome, self._seen,
         self._acc, self._iok, self._zok, self._live) = snap
        del discard[n:]
        self.discard = discard
