"""Zombie! Run for Your Lives!: what may go onto which table, and what happens when it lands.

Each rule point is defined once here, on the int encoding (:mod:`.deck`, :mod:`.moves`), and
every path uses it: the move generator, the one-move check, the random-move sampler, the playout
loop and the position loader.

A table is one int: bit t is set when card type t lies on it (an item, t < S, or a zombie with a
symbol, S <= t < 2S), and the symbol-less zombies (Z14) are a unary count from bit 2S up (one
bit per card: 0b1, 0b11...). So the items on table ``tab`` are ``PC[tab & IM]`` (Z7) and its
zombies ``PC[tab >> S]`` (Z8, the symbol-less ones included). Two per-type tables hold Z5 and Z4:

* ``FULL[t]``: the bit that is set when a table cannot take t (Z5: no two identical cards; for
  the symbol-less zombie, its ``roach_cap``-th copy, see the roach-distinct variant);
* ``TWIN[t]``: the bit (= the type) of the card t cancels (Z4: same symbol, other kind); for the
  symbol-less zombie a bit that is never set (Z14: never cancelled).
"""
from __future__ import annotations

from pnp.engines.core import GameState, Outcome
from pnp.engines.zombie_run.deck import ZRData
from pnp.engines.zombie_run.moves import DISCARD_HAND, PASS, PLAY, SPECIAL

PH_LIVING = 0   # a living player decides (special / play / discard-hand / pass)
PH_ZOMBIE = 1   # a zombie player decides where its drawn card goes (Z9)
PH_OVER = 2


def put(tab: int, t: int) -> int:
    """Table ``tab`` with card type ``t`` added: the lowest clear bit from bit t up is set, i.e.
    bit t for an item or a zombie with a symbol (clear by Z5), the next bit of the unary count
    for the symbol-less zombie."""
    return tab | (tab >> t) + 1 << t


class Rules(GameState):
    """The position's fields and the rules on them (the turn flow is in :mod:`.turns`)."""

    # slots: the engine's fields are read on every ply; the instance dict of a GameState with
    # more than 30 attributes is slower to read
    __slots__ = ("data", "S", "ROACH", "IM", "PC", "FULL", "TWIN", "win_items", "lose_zombies",
                 "roach_cap", "deck", "discard", "hands", "tables", "alive", "living",
                 "special_used", "z6_used", "phase", "turns", "_outcome", "max_turns", "rep_limit",
                 "_seen", "turn", "players")

    data: ZRData
    S: int                  # symbols; card types 0..S-1 items, S..2S-1 zombies
    ROACH: int              # the symbol-less zombie's type, 2S (also its first table bit)
    IM: int                 # the item bits of a table
    PC: list[int]           # popcount of a table's item bits / of its bits from S up
    FULL: tuple[int, ...]   # Z5, per card type (see the module docstring)
    TWIN: tuple[int, ...]   # Z4, per card type
    win_items: int          # Z7
    lose_zombies: int       # Z8
    roach_cap: int          # Z5: symbol-less zombies one table may hold (variant roach-distinct)
    deck: list[int]         # last = top
    discard: list[int]
    hands: list[list[int]]
    tables: list[int]       # per seat, see the module docstring
    alive: list[bool]
    living: int
    special_used: bool      # Z11 once a turn
    z6_used: bool           # Z6 once a turn (docs: "Cannot play any card")
    phase: int
    turns: int
    _outcome: Outcome | None

    def _init_rules(self, d: ZRData, roach_cap: int) -> None:
        S = self.S = d.S
        R = self.ROACH = d.ROACH
        self.IM = (1 << S) - 1
        self.PC = d.popcount
        self.roach_cap = roach_cap
        self.FULL = (*range(2 * S), R + roach_cap - 1)
        self.TWIN = (*range(S, 2 * S), *range(S), R + d.copies[R])

    # ---------------------------------------------------------------- what is on a table
    def _zcount(self, q: int) -> int:
        """Z8: the different zombies on q's table (the symbol-less ones: see roach_cap)."""
        return self.PC[self.tables[q] >> self.S]

    def _table_types(self, q: int) -> list[int]:
        """The card types on q's table: items, zombies, symbol-less zombies."""
        tab = self.tables[q]
        R = self.ROACH
        return [t for t in range(R) if tab >> t & 1] + [R] * self.PC[tab >> R]

    def _table_names(self, q: int) -> list[str]:
        names = self.data.names
        return [names[t] for t in self._table_types(q)]

    def _can_place(self, t: int, q: int) -> bool:
        """Z5: no two identical items / zombies on one table (symbol-less: see roach_cap)."""
        return not self.tables[q] >> self.FULL[t] & 1

    def _put(self, t: int, q: int) -> None:
        """Card type t onto q's table, no rule applied (see ``put``)."""
        self.tables[q] = put(self.tables[q], t)

    # ---------------------------------------------------------------- who may play what where
    def _living_seats(self) -> list[int]:
        return [q for q in range(self.players) if self.alive[q]]

    def _move_for(self, t: int, q: int) -> int:
        """The move putting card type ``t`` from the mover's hand onto the living seat ``q``'s
        table, or -1 if no rule allows it: a normal play (Z3: an item onto your own table, a
        zombie onto another's), else the special (Z11: the other way round, once a turn, and by
        Z12 neither another player's 5th item nor your own 5th zombie, counted after Z4)."""
        tab = self.tables[q]
        if tab >> self.FULL[t] & 1:                                     # Z5
            return -1
        if (t < self.S) == (q == self.turn):                            # Z3
            return PLAY << 16 | t << 8 | q
        if self.special_used:                                           # Z11: once a turn
            return -1
        if tab >> self.TWIN[t] & 1 or (                                 # Z12 after Z4
                self.PC[tab & self.IM] + 1 < self.win_items if t < self.S
                else self.PC[tab >> self.S] + 1 < self.lose_zombies):
            return SPECIAL << 16 | t << 8 | q
        return -1

    def _moves_for_card(self, t: int, live: list[int], plays: list[int],
                        specials: list[int]) -> None:
        """``_move_for(t, q)`` for every living seat ``q`` of ``live`` at once, the normal plays
        appended to ``plays`` and the specials to ``specials``, seats ascending: the same
        rules (Z5, Z3, Z11, Z12 after Z4) with the card's facts read once (the move generator
        asks this for every card in hand every ply; tests/test_movegen.py checks it equals
        ``_move_for`` seat by seat)."""
        tables = self.tables
        full = self.FULL[t]
        p = self.turn
        is_item = t < self.S
        mv = t << 8
        for q in live:
            tab = tables[q]
            if tab >> full & 1:                                         # Z5
                continue
            if is_item == (q == p):                                     # Z3
                plays.append(PLAY << 16 | mv | q)
        if self.special_used:                                           # Z11: once a turn
            return
        twin = self.TWIN[t]
        PC = self.PC
        if is_item:
            shift, mask, cap = 0, self.IM, self.win_items
        else:
            shift, mask, cap = self.S, -1, self.lose_zombies
        for q in live:
            tab = tables[q]
            if tab >> full & 1 or is_item == (q == p):                  # Z5, a normal play
                continue
            if tab >> twin & 1 or PC[tab >> shift & mask] + 1 < cap:   # Z12 after Z4
                specials.append(SPECIAL << 16 | mv | q)

    def _has_play(self) -> bool:
        """Z6: can the mover make a normal play (Z3) with some card of its hand?"""
        live = self._living_seats()
        for t in set(self.hands[self.turn]):
            for q in live:
                if self._move_for(t, q) >> 16 == PLAY:
                    return True
        return False

    def _z6_move(self) -> int:
        """Z6 when no normal play is possible: discard the hand, or pass if that was done."""
        return (PASS if self.z6_used else DISCARD_HAND) << 16

    def _zombie_targets(self, t: int) -> list[int]:
        """Z9: the living seats, ascending, whose table can take a zombie player's card t (Z5;
        Z12 does not apply)."""
        tables = self.tables
        bit = self.FULL[t]
        return [q for q in range(self.players) if self.alive[q] and not tables[q] >> bit & 1]

    # ---------------------------------------------------------------- a card lands
    def _place(self, t: int, q: int) -> None:
        """Put card type t on q's table (already checked with _can_place); Z4, Z7, Z8, Z10."""
        tab = self.tables[q]
        twin = self.TWIN[t]
        if tab >> twin & 1:                                             # Z4: pair cancels
            self.tables[q] = tab ^ 1 << twin
            self.discard += (t, twin)
            self.fire("Z4")
            return
        tab = self.tables[q] = tab | (tab >> t) + 1 << t                # put(tab, t)
        if t < self.S:
            if self.PC[tab & self.IM] >= self.win_items:                # Z7: saved
                self.fire("Z7")
                self._finish((q,), "saved: five different items", "Z7")
            return
        if t == self.ROACH:
            self.fire("Z14")                                            # Z14: never cancelled
        if self.PC[tab >> self.S] >= self.lose_zombies:                 # Z8: becomes a zombie
            self._zombify(q)

    def _zombify(self, q: int) -> None:
        """Z8: q's hand and table go to the discard pile; q plays on as a zombie (Z9)."""
        self.fire("Z8")
        self.discard += self.hands[q]
        self.hands[q].clear()
        self.discard += self._table_types(q)
        self.tables[q] = 0
        self.alive[q] = False
        self.living -= 1
        if self.living == 1:                                            # Z10: last survivor
            self.fire("Z10")
            self._finish((self.alive.index(True),), "last survivor", "Z10")

    def _finish(self, winners: tuple[int, ...], reason: str, rule: str) -> None:
        if self._outcome is not None:
            return
        scores = tuple(1 if p in winners else 0 for p in range(self.players))
        self._outcome = Outcome(tuple(winners), scores, reason, rule)
        self.phase = PH_OVER
