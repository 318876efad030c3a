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

``_move_for`` asks these per (card, seat). The move generator (``legal_moves``) asks the same
rules for every seat at once: the position keeps, per card type t, the seat mask ``_acc[t]`` of
the living seats whose table can take t (Z5), and the seat masks ``_iok`` / ``_zok`` of the
tables below their 5th item / 5th zombie (Z12); a card lands, a table changes, and ``_place`` sets the
bits that change. tests/test_movegen.py checks the lists against ``_move_for`` seat by seat.
"""
from __future__ import annotations

import functools

from pnp.engines.core import GameState, Outcome
from pnp.engines.zombie_run.deck import ZRData
from pnp.engines.zombie_run.moves import DISCARD, DISCARD_HAND, PASS, PLAY, SPECIAL

PH_LIVING = 0   # a living player decides (special / play / discard-hand / pass)
PH_ZOMBIE = 1   # a zombie player decides where its drawn card goes (Z9)
PH_OVER = 2


SEATS = 7          # at most 7 players: a byte per card type holds a seat mask


@functools.cache
def seat_moves(kind: int, nt: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """``[t][seats]``: the moves of ``kind`` putting card type t onto each seat of the mask
    ``seats``, seats ascending (the generator's order); built once, shared."""
    return tuple(tuple(tuple(kind << 16 | t << 8 | q for q in range(SEATS) if m >> q & 1)
                       for m in range(1 << SEATS)) for t in range(nt))


@functools.cache
def mover_moves(S: int, nt: int) -> tuple[tuple[tuple[tuple[tuple[int, ...], tuple[int, ...]], ...], ...], ...]:
    """``[p][t][seats]``: (normal plays, specials) of living mover p with card type t, where
    ``seats`` are the living seats whose table can take t (Z5): an item (t < S) is played onto
    p's own table (Z3) and given to another (Z11), a zombie the other way round; Z12 left out
    (the generator's loop where it binds nobody). Seats ascending; built once, shared."""
    plays, specials = seat_moves(PLAY, nt), seat_moves(SPECIAL, nt)
    return tuple(tuple(tuple((plays[t][m & own], specials[t][m & ~own]) if t < S else
                             (plays[t][m & ~own], specials[t][m & own])
                             for m in range(1 << SEATS))
                       for t in range(nt))
                 for own in (1 << p for p in range(SEATS)))


@functools.cache
def normal_moves(S: int, nt: int) -> tuple[tuple[tuple[tuple[int, ...], ...], ...], ...]:
    """``[p][t][seats]``: the normal plays of ``mover_moves`` alone (after a special, Z11)."""
    return tuple(tuple(tuple(pair[0] for pair in row) for row in mover)
                 for mover in mover_moves(S, nt))


@functools.cache
def byte_bits(width: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """``[k][b]``: the positions ``8k + i`` of the bits set in byte ``b``, for the bytes of a
    ``width``-bit mask."""
    return tuple(tuple(tuple(8 * k + i for i in range(8) if b >> i & 1) for b in range(256))
                 for k in range((width + 7) // 8))


@functools.cache
def move_fields(S: int, twin: tuple[int, ...]) -> dict[int, tuple[int, int, int, int, int, int,
                                                                    int]]:
    """Every move of the card types of ``twin`` (``TWIN``) -> (kind, card type t, target seat
    q, stats slot, 1 << t, 1 << q, 1 << TWIN[t]): what ``moves.decode`` gives and the bits the
    playout loop asks, read from a table (shifts and masks cost more than a look-up); the slot
    is the seat a zombie card is played onto by a normal play (Z3, Z9: always another's
    table), else ``SEATS`` (no seat: the loop counts it there)."""
    none = (0, 0, 0, SEATS, 1, 1, 1)
    return {kind << 16 | t << 8 | q: (kind, t, q, q if kind == PLAY and t >= S else SEATS,
                                      1 << t, 1 << q, 1 << twin[t])
            for kind in (PLAY, SPECIAL, DISCARD) for t in range(len(twin)) for q in range(SEATS)} | {
        DISCARD_HAND << 16: (DISCARD_HAND, *none[1:]), PASS << 16: (PASS, *none[1:])}


@functools.lru_cache(maxsize=16)
def _rule_tables(d: ZRData, roach_cap: int) -> tuple:
    """IM, FULL, TWIN (module docstring), the generator's move tables of deck ``d`` with
    ``roach_cap`` symbol-less zombies to a table, and BIT (built once per deck, shared)."""
    S, R = d.S, d.ROACH
    twin = (*range(S, 2 * S), *range(S), R + d.copies[R])
    return ((1 << S) - 1, (*range(2 * S), R + roach_cap - 1), twin, seat_moves(PLAY, d.NT),
            normal_moves(S, d.NT), mover_moves(S, d.NT),
            tuple(1 << i for i in range(max(SEATS, max(twin) + 1))))


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
                 "_seen", "turn", "players", "_acc", "_iok", "_zok", "_live",
                 "PLAYS", "NORMALS", "MOVER", "BIT")

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
    _acc: list[int]         # per card type t, bit q: q is living and its table can take t (Z5)
    _iok: int               # bit q: q's table holds fewer than win_items - 1 items (Z12)
    _zok: int               # bit q: fewer than lose_zombies - 1 zombies (Z12)
    _live: int              # bit q: q is a living player
    PLAYS: tuple            # seat_moves(PLAY): [t][seats] -> moves
    NORMALS: tuple          # normal_moves: [p][t][seats] -> plays
    MOVER: tuple            # mover_moves: [p][t][seats] -> (plays, specials)
    BIT: tuple[int, ...]    # 1 << i for a seat, a card type or a twin (a look-up is cheaper)

    def _init_rules(self, d: ZRData, roach_cap: int) -> None:
        self.S = d.S
        self.ROACH = d.ROACH
        self.PC = d.popcount
        self.roach_cap = roach_cap
        (self.IM, self.FULL, self.TWIN, self.PLAYS, self.NORMALS, self.MOVER,
         self.BIT) = _rule_tables(d, roach_cap)

    # ---------------------------------------------------------------- the generator's masks
    def _fresh_masks(self) -> tuple[list[int], int, int, int]:
        """``_acc``, ``_iok``, ``_zok`` and ``_live`` computed afresh from the tables (a zombie
        player has no table: no bit in ``_acc``, so a card's mask is already one of living
        seats; its empty table counts below every threshold)."""
        iok = zok = 0
        FULL, PC, IM, S = self.FULL, self.PC, self.IM, self.S
        acc = [0] * len(FULL)
        for q, tab in enumerate(self.tables):
            for t, bit in enumerate(FULL):
                if self.alive[q] and not tab >> bit & 1:                # Z5
                    acc[t] |= 1 << q
            iok |= (PC[tab & IM] + 1 < self.win_items) << q           # Z12
            zok |= (PC[tab >> S] + 1 < self.lose_zombies) << q
        return acc, iok, zok, sum(1 << q for q, a in enumerate(self.alive) if a)

    def _sync_masks(self) -> None:
        """The generator's masks set from the position (after it is set up or loaded; moves
        keep them up to date in ``_place`` and ``_zombify``)."""
        self._acc, self._iok, self._zok, self._live = self._fresh_masks()

    def _empty_masks(self, n: int) -> None:
        """The masks of ``n`` living players with empty tables (a new game), directly."""
        every = (1 << n) - 1
        self._acc = [every] * len(self.FULL)            # every table takes every card (Z5)
        self._iok = every if 1 < self.win_items else 0  # Z12: 0 items, 0 zombies
        self._zok = every if 1 < self.lose_zombies else 0
        self._live = every

    def _mask_problems(self) -> list[str]:
        """The kept masks differ from fresh ones (check_invariants)."""
        if (self._acc, self._iok, self._zok, self._live) == self._fresh_masks():
            return []
        return ["move generator masks out of step with the tables"]

    def _recount(self, q: int, tab: int) -> None:
        """q's table is now ``tab``: its Z12 bits."""
        b = 1 << q
        PC = self.PC
        self._iok = self._iok | b if PC[tab & self.IM] + 1 < self.win_items else self._iok & ~b
        self._zok = self._zok | b if PC[tab >> self.S] + 1 < self.lose_zombies else self._zok & ~b

    # ---------------------------------------------------------------- what is on a table
    def _zcount(self, q: int) -> int:
        """Z8: the different zombies on q's table (the symbol-less ones: see roach_cap)."""
        return self.PC[self.tables[q] >> self.S]

    def _table_types(self, q: int) -> list[int]:
        """The card types on q's table: items, zombies, symbol-less zombies."""
        tab = self.tables[q]
        R = self.ROACH
        types: list[int] = []
        bits = tab & (1 << R) - 1
        for row in byte_bits(R):                    # the set bits below R, ascending, a byte
            types += row[bits & 255]                # at a time (Z8 empties a whole table)
            bits >>= 8
        return types + [R] * self.PC[tab >> R]

    def _table_names(self, q: int) -> list[str]:
        names = self.data.names
        return [names[t] for t in self._table_types(q)]

    def _can_place(self, t: int, q: int) -> bool:
        """Z5: no two identical items / zombies on one table (symbol-less: see roach_cap)."""
        return not self.tables[q] >> self.FULL[t] & 1

    def _put(self, t: int, q: int) -> None:
        """Card type t onto q's table, no rule applied (see ``put``)."""
        tab = self.tables[q] = put(self.tables[q], t)
        if tab >> self.FULL[t] & 1:                                     # Z5: t no more
            self._acc[t] &= ~(1 << q)
        self._recount(q, tab)

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
        seats = self._acc[t]                                              # Z5
        return [q for q in range(self.players) if seats >> q & 1]

    # ---------------------------------------------------------------- a card lands
    def _place(self, t: int, q: int) -> None:
        """Put card type t on q's table (already checked with _can_place); Z4, Z7, Z8, Z10.
        The generator's masks follow: Z5 (``_acc``) and, as the counts only grow when a card
        stays, the Z12 bits (``_iok`` / ``_zok``) only fall."""
        tables = self.tables
        tab = tables[q]
        twin = self.TWIN[t]
        if tab >> twin & 1:                                             # Z4: pair cancels
            tab = tables[q] = tab ^ 1 << twin
            self._acc[twin] |= 1 << q                                   # room for twin (Z5)
            self._recount(q, tab)
            self.discard += (t, twin)
            self.fire("Z4")
            return
        if t < self.ROACH:      # put(tab, t): bit t, clear by Z5 and set now: t no more (Z5)
            tab = tables[q] = tab | 1 << t
            self._acc[t] &= ~(1 << q)
        else:
            tab = tables[q] = tab | (tab >> t) + 1 << t                 # put(tab, t)
            if tab >> self.FULL[t] & 1:                                 # Z5: t no more
                self._acc[t] &= ~(1 << q)
        if t < self.S:
            if self.PC[tab & self.IM] + 1 >= self.win_items:
                self._item_threshold(q, tab)
            return
        if t == self.ROACH:
            self.fire("Z14")                                            # Z14: never cancelled
        if self.PC[tab >> self.S] + 1 >= self.lose_zombies:
            self._zombie_threshold(q, tab)

    # A card stays on q's table (now ``tab``), which reaches one below the items of Z7 / the
    # zombies of Z8 or more (the callers ask the count; most landings stop there).
    def _item_threshold(self, q: int, tab: int) -> None:
        self._iok &= ~(1 << q)                                          # Z12 from now on
        if self.PC[tab & self.IM] >= self.win_items:                    # Z7: saved
            self.fire("Z7")
            self._finish((q,), "saved: five different items", "Z7")

    def _zombie_threshold(self, q: int, tab: int) -> None:
        self._zok &= ~(1 << q)                                          # Z12 from now on
        if self.PC[tab >> self.S] >= self.lose_zombies:                 # Z8: becomes a zombie
            self._zombify(q)

    def _zombify(self, q: int) -> None:
        """Z8: q's hand and table go to the discard pile; q plays on as a zombie (Z9)."""
        self.fire("Z8")
        self.discard += self.hands[q]
        self.hands[q] = []                          # a new list, like alive (see _snapshot)
        self.discard += self._table_types(q)
        self.tables[q] = 0
        b = 1 << q
        self._acc = list(map((~b).__and__, self._acc))                  # no table
        self._recount(q, 0)
        self.alive = [*self.alive]
        self.alive[q] = False
        self._live &= ~(1 << q)
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
