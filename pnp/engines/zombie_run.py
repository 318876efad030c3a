"""Zombie! Run for Your Lives! -- reference rules engine (rule points Z1..Z14).

Interpretations and variants: docs/rules/zombie-run.md. The position is kept as small ints so a
complete random game costs a fraction of a millisecond (see ``playout``):

* a card *type*: ``0..S-1`` item of symbol s, ``S..2S-1`` zombie of symbol s-S, ``2S`` the
  symbol-less zombie (Z14). Identical cards are interchangeable, so hands, deck and discard hold
  types; the printed cards are the multiset ``copies[type]`` read from the data pack.
* a table: item bitmask, zombie bitmask, symbol-less zombie count.
* a move: the int ``kind << 16 | type << 8 | target`` (kinds in :mod:`zombie_run_rules`).

Turn flow: at the start of a turn the engine draws automatically (Z3/Z9, chance from the
state's RNG, Z13 reshuffles); the player then makes one or more decisions:
living player: ``special ...`` (Z11, optional, once) and then ``play ...`` / ``discard-hand``
(Z6) / ``pass`` (Z6 already used); zombie player (Z9): ``play ...`` or ``discard``.
"""
from __future__ import annotations

import functools
import random
from hashlib import blake2b as _blake2b
from pathlib import Path
from struct import unpack as _unpack
from typing import ClassVar

from pnp.engines.core import GameState, Outcome, RecordError, register
from pnp.engines.zombie_run_rules import (DISCARD, DISCARD_HAND, PASS, PLAY, SPECIAL, mk,
                                          popcounts)

GAME = "zombie-run"
DATA_DIR = Path(__file__).resolve().parent.parent.parent / "data" / GAME

# documented defaults (used when the data pack is missing or unreadable); placeholders, see docs
DEFAULT_SYMBOLS = ("bat", "umbrella", "bus", "pan", "extinguisher", "bicycle", "ladder",
                   "plunger", "flashlight", "headphones")
DEFAULT_ROACH = "roach"
DEFAULT_COPIES = 3
DEFAULT_ROACH_COPIES = 3


# ------------------------------------------------------------------------------- data
class ZRData:
    """The deck as the engine sees it: symbols, the symbol-less zombie id, copies per type."""

    def __init__(self, symbols, roach, item_copies, zombie_copies, roach_copies, source):
        self.symbols = tuple(symbols)
        self.S = len(self.symbols)
        self.roach = roach
        self.copies = tuple(item_copies) + tuple(zombie_copies) + (roach_copies,)
        self.ROACH = 2 * self.S
        self.NT = 2 * self.S + 1
        self.total = sum(self.copies)
        self.source = source
        self.names = tuple([f"item:{s}" for s in self.symbols] +
                           [f"zombie:{s}" for s in self.symbols] + [f"zombie:{roach}"])
        self.index = {n: i for i, n in enumerate(self.names)}
        self.card_ids: dict[str, int] = {}  # printed card id (base) -> type
        self.deck_template = [t for t in range(self.NT) for _ in range(self.copies[t])]
        self.popcount = popcounts(self.S)

    def type_of(self, token: str) -> int:
        t = self.index.get(token)
        if t is None:
            t = self.card_ids.get(token.partition("#")[0])   # item-bat or item-bat#2
        if t is None:
            raise ValueError(f"unknown card {token!r}; cards are item:<symbol> / zombie:<symbol> "
                             f"with symbols {', '.join(self.symbols)} and zombie:{self.roach}")
        return t


def _default_data() -> ZRData:
    n = len(DEFAULT_SYMBOLS)
    return ZRData(DEFAULT_SYMBOLS, DEFAULT_ROACH, [DEFAULT_COPIES] * n, [DEFAULT_COPIES] * n,
                  DEFAULT_ROACH_COPIES, "defaults")


def _load_zr_data(root: Path | None = None) -> ZRData:
    """The printed deck of ``data/zombie-run``: through ``pnp.pack.load_pack`` (validated,
    quantities expanded), else by reading pack.yaml and its card files with yaml.safe_load, else
    the documented defaults (a missing or half-written pack must not break the engine).

    A card is an item (kind ``item``) or a zombie (kind ``zombie`` with a symbol, or kind
    ``roach`` / a zombie without symbol: the symbol-less zombie of Z14)."""
    root = root or DATA_DIR
    if not (root / "pack.yaml").exists():
        return _default_data()
    try:
        from pnp.pack import load_pack
        pack = load_pack(root)
        cards = [(c.base_id, c.kind, c.fields.get("symbol"), 1) for c in pack.cards()]
        coll = pack.collections.get("symbols") or []
        d = _zr_from_cards(cards, [e["id"] if isinstance(e, dict) else str(e) for e in coll],
                           f"{root} (load_pack)")
        if d is not None:
            return d
    except Exception:
        pass
    try:
        import yaml
        pack = yaml.safe_load((root / "pack.yaml").read_text(encoding="utf-8")) or {}
        cards = []
        for deck in pack.get("decks") or []:
            for c in yaml.safe_load((root / deck["cards"]).read_text(encoding="utf-8")) or []:
                cards.append((str(c.get("id")), str(c.get("kind") or ""), c.get("symbol"),
                              int(c.get("quantity", 1))))
        sym_order: list[str] = []
        sym_coll = (pack.get("collections") or {}).get("symbols")
        if sym_coll:
            coll = yaml.safe_load((root / sym_coll).read_text(encoding="utf-8")) or []
            sym_order = [e["id"] if isinstance(e, dict) else str(e) for e in coll]
        return _zr_from_cards(cards, sym_order, f"{root} (yaml)") or _default_data()
    except Exception:
        return _default_data()


def _zr_from_cards(cards, sym_order, source) -> ZRData | None:
    """cards: (id, kind, symbol, quantity) tuples."""
    items: dict[str, int] = {}
    zombies: dict[str, int] = {}
    roach_n = 0
    ids: dict[str, tuple[str, str | None]] = {}
    for cid, kind, sym, q in cards:
        if "zombie" in kind or kind == "roach":
            if sym in (None, "", "none"):
                roach_n += q
                ids[cid] = ("roach", None)
            else:
                zombies[str(sym)] = zombies.get(str(sym), 0) + q
                ids[cid] = ("zombie", str(sym))
        elif "item" in kind:
            items[str(sym)] = items.get(str(sym), 0) + q
            ids[cid] = ("item", str(sym))
    if not items or not zombies:
        return None
    symbols = [s for s in sym_order if s in items or s in zombies]
    for s in list(items) + list(zombies):
        if s not in symbols:
            symbols.append(s)
    d = ZRData(symbols, DEFAULT_ROACH, [items.get(s, 0) for s in symbols],
               [zombies.get(s, 0) for s in symbols], roach_n, source)
    for cid, (k, s) in ids.items():
        if k == "roach":
            d.card_ids[cid] = d.ROACH
        elif k == "item":
            d.card_ids[cid] = d.symbols.index(s)
        else:
            d.card_ids[cid] = d.S + d.symbols.index(s)
    return d


@functools.cache
def zr_data() -> ZRData:
    """The shipped pack's data, read once."""
    return _load_zr_data()


def fast_shuffle(rng, items: list) -> None:
    """Shuffle in place, driven by the state's splitmix64 ``rng`` (one 64-bit draw): the draw
    seeds BLAKE2b, which gives a 32-bit key per card; the cards are sorted by key (a stable sort,
    so the rare equal keys keep a fixed order). Deterministic on every platform and a few
    microseconds for 63 cards."""
    n = len(items)
    if n < 2:
        return
    seed = rng.next64().to_bytes(8, "little")
    need = 4 * n
    buf = b"".join(_blake2b(seed + i.to_bytes(2, "little"), digest_size=64).digest()
                   for i in range((need + 63) // 64))
    keys = _unpack(f"<{n}I", buf[:need])
    items[:] = [items[i] for i in sorted(range(n), key=keys.__getitem__)]


# ------------------------------------------------------------------------------- engine
_ZT = tuple(f"zt{q}" for q in range(8))      # counter keys: zombie cards played onto seat q
PH_LIVING = 0   # a living player decides (special / play / discard-hand / pass)
PH_ZOMBIE = 1   # a zombie player decides where its drawn card goes (Z9)
PH_OVER = 2


@register(GAME)
class ZombieRun(GameState):
    """Zombie! Run for Your Lives! (3-7 players)."""

    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 7
    default_options: ClassVar[dict] = {
        "hand": 4,                 # Z1
        "redraw": 5,               # Z6
        "win_items": 5,            # Z7
        "lose_zombies": 5,         # Z8
        "roach_distinct": False,   # Z5/Z8: symbol-less zombies count as different cards
        "first": 0,                # Z2: seat of the first player
        "max_turns": 2000,         # never-ending guard: turn cap
        "repetition": 3,           # never-ending guard: same position this many times
    }
    variants: ClassVar[dict[str, dict]] = {
        "roach-distinct": {"roach_distinct": True},
        "quick": {"max_turns": 300},
    }
    rule_points: ClassVar[tuple] = ("Z1", "Z2", "Z3", "Z4", "Z6", "Z7", "Z8", "Z9", "Z10",
                                    "Z11", "Z13", "Z14")   # Z5, Z12: constraints (scenarios)
    stat_labels: ClassVar[dict[str, str]] = {
        "zombies_onto_seat": "zombie cards played onto each seat by others (Z3/Z9)",
        "eliminated_seat": "seat turned zombie (Z8)",
        "eliminations": "players turned zombie (Z8)",
        "reshuffles": "deck reshuffles (Z13)",
        "special_uses": "special-rule uses (Z11)",
        "hand_discards": "hands shown and replaced (Z6)",
        "cancellations": "item/zombie pairs cancelled (Z4)",
    }

    # ---------------------------------------------------------------- setup
    def _init_common(self):
        d = self.data = zr_data()
        self.S = d.S
        self.ROACH = d.ROACH
        self.PC = d.popcount
        o = self.options
        self.win_items = int(o["win_items"])
        self.lose_zombies = int(o["lose_zombies"])
        self.roach_cap = d.copies[d.ROACH] if o["roach_distinct"] else 1
        self.max_turns = int(o["max_turns"])
        self.rep_limit = int(o["repetition"])
        self._seen: dict = {}

    def _setup(self) -> None:
        self._init_common()
        n = self.players
        d = self.data
        deck = d.deck_template[:]
        fast_shuffle(self.rng, deck)
        self.deck = deck
        self.discard: list[int] = []
        self.hands = [[] for _ in range(n)]
        self.items = [0] * n
        self.zombies = [0] * n
        self.roaches = [0] * n
        self.alive = [True] * n
        self.living = n
        self.special_used = False
        self.z6_used = False
        self.phase = PH_LIVING
        self.turns = 0
        self._outcome: Outcome | None = None
        hand = int(self.options["hand"])
        if hand * n <= len(deck):
            for p in range(n):                  # Z1: deal 4 each, hidden (as if drawn one by one)
                self.hands[p] = deck[-1:-hand - 1:-1]
                del deck[-hand:]
        else:
            for p in range(n):
                self._draw(p, hand)
        self.fire("Z1")
        self.turn = int(self.options["first"]) % n   # Z2
        self.fire("Z2")
        self._begin_turn()

    # ---------------------------------------------------------------- primitives
    def _draw(self, p: int, k: int) -> int:
        """Draw k cards for p; Z13 reshuffles the discard pile when the deck runs out. With both
        empty nothing more is drawn (documented). Returns the number drawn."""
        deck = self.deck
        hand = self.hands[p]
        got = 0
        for _ in range(k):
            if not deck:
                if not self.discard:
                    self.fire("Z13-empty")
                    break
                deck.extend(self.discard)
                self.discard.clear()
                fast_shuffle(self.rng, deck)
                self.fire("Z13")
            hand.append(deck.pop())
            got += 1
        return got

    def _zcount(self, q: int) -> int:
        return self.PC[self.zombies[q]] + self.roaches[q]

    def _can_place(self, t: int, q: int) -> bool:
        """Z5: no two identical items / zombies on one table (symbol-less: see roach_cap)."""
        S = self.S
        if t < S:
            return not (self.items[q] >> t) & 1
        if t < 2 * S:
            return not (self.zombies[q] >> (t - S)) & 1
        return self.roaches[q] < self.roach_cap

    def _place(self, t: int, q: int) -> None:
        """Put card type t on q's table (already checked with _can_place); Z4, Z7, Z8, Z10."""
        S = self.S
        if t < S:
            bit = 1 << t
            if self.zombies[q] & bit:                       # Z4: pair cancels
                self.zombies[q] ^= bit
                self.discard.append(t)
                self.discard.append(t + S)
                self.fire("Z4")
                return
            self.items[q] |= bit
            if self.PC[self.items[q]] >= self.win_items:   # Z7: saved
                self.fire("Z7")
                self._finish((q,), "saved: five different items", "Z7")
            return
        if t < 2 * S:
            bit = 1 << (t - S)
            if self.items[q] & bit:                         # Z4
                self.items[q] ^= bit
                self.discard.append(t)
                self.discard.append(t - S)
                self.fire("Z4")
                return
            self.zombies[q] |= bit
        else:
            self.roaches[q] += 1                            # Z14: never cancelled
            self.fire("Z14")
        if self._zcount(q) >= self.lose_zombies:            # Z8: becomes a zombie
            self._zombify(q)

    def _zombify(self, q: int) -> None:
        self.fire("Z8")
        S = self.S
        disc = self.discard
        disc.extend(self.hands[q])
        self.hands[q].clear()
        m = self.items[q]
        for s in range(S):
            if m >> s & 1:
                disc.append(s)
        m = self.zombies[q]
        for s in range(S):
            if m >> s & 1:
                disc.append(S + s)
        disc.extend([self.ROACH] * self.roaches[q])
        self.items[q] = self.zombies[q] = self.roaches[q] = 0
        self.alive[q] = False
        self.living -= 1
        if self.living == 1:                                # Z10: last survivor
            self.fire("Z10")
            w = self.alive.index(True)
            self._finish((w,), "last survivor", "Z10")

    def _finish(self, winners, reason, rule) -> None:
        if self._outcome is not None:
            return
        scores = tuple(1 if p in winners else 0 for p in range(self.players))
        self._outcome = Outcome(tuple(winners), scores, reason, rule)
        self.phase = PH_OVER

    def _begin_turn(self) -> None:
        """Start the turn of seat self.turn: Z3/Z9 draw; never-ending guards."""
        self.turns += 1
        p = self.turn
        self.special_used = False
        self.z6_used = False
        if self.turns > self.max_turns:
            self.fire("cap")
            self._finish((), f"turn cap {self.max_turns} reached (seed {self.seed!r})", "cap")
            return
        if len(self.deck) + len(self.discard) <= 6:
            # only a position with (almost) no cards in circulation can loop for ever
            key = self._position_key()
            c = self._seen.get(key, 0) + 1
            self._seen[key] = c
            if c >= self.rep_limit:
                self.fire("repetition")
                self._finish((), f"position repeated {c} times (seed {self.seed!r})",
                             "repetition")
                return
        if self.alive[p]:
            self.phase = PH_LIVING
            self._draw(p, 1)                                # Z3
        else:
            self.phase = PH_ZOMBIE
            self._draw(p, 1)                                # Z9

    def _position_key(self):
        return (self.turn, tuple(self.deck), tuple(sorted(self.discard)),
                tuple(tuple(sorted(h)) for h in self.hands), tuple(self.items),
                tuple(self.zombies), tuple(self.roaches))

    def _end_turn(self) -> None:
        if self._outcome is not None:
            return
        self.turn = (self.turn + 1) % self.players        # Z2 clockwise; zombies keep turns
        self._begin_turn()

    # ---------------------------------------------------------------- moves
    def legal_moves(self) -> list[int]:
        ph = self.phase
        if ph == PH_OVER:
            return []
        p = self.turn
        hand = self.hands[p]
        out: list[int] = []
        S = self.S
        S2 = 2 * S
        n = self.players
        alive = self.alive
        if ph == PH_ZOMBIE:                                 # Z9: the drawn card, any type
            if not hand:
                return [PASS << 16]
            t = hand[0]
            for q in range(n):
                if alive[q] and self._can_place(t, q):
                    out.append(PLAY << 16 | t << 8 | q)
            if not out:
                out.append(DISCARD << 16 | t << 8)
            return out
        items = self.items
        zombies = self.zombies
        roaches = self.roaches
        others = [q for q in range(n) if alive[q] and q != p]
        ip = items[p]
        sp: list[int] = []                                   # specials (Z11)
        special = not self.special_used
        if special:
            zc_ok = self.PC[zombies[p]] + roaches[p] + 1 < self.lose_zombies   # Z12
            room = [q for q in others if self.PC[items[q]] + 1 < self.win_items]
        cap = self.roach_cap
        for t in set(hand):
            if t < S:
                bit = 1 << t
                if not ip & bit:                            # Z3 item -> own table (Z5)
                    out.append(0x10000 | t << 8 | p)
                if special:                                 # Z11 item -> another living player
                    base = 0x20000 | t << 8                 # Z12: not their 5th (Z4 cancels)
                    sp += [base | q for q in others if not items[q] & bit and (
                        zombies[q] & bit or q in room)]
            elif t < S2:
                bit = 1 << (t - S)
                base = 0x10000 | t << 8                     # Z3 zombie -> another player (Z5)
                out += [base | q for q in others if not zombies[q] & bit]
                if special and not zombies[p] & bit and (ip & bit or zc_ok):
                    sp.append(0x20000 | t << 8 | p)         # Z11/Z12
            else:
                base = 0x10000 | t << 8
                out += [base | q for q in others if roaches[q] < cap]
                if special and roaches[p] < cap and zc_ok:
                    sp.append(0x20000 | t << 8 | p)
        if not out:                                         # no normal play possible: Z6
            sp.append((PASS if self.z6_used else DISCARD_HAND) << 16)
        return out + sp if sp else out

    def _apply(self, move: int) -> None:
        kind = move >> 16
        t = move >> 8 & 0xFF
        q = move & 0xFF
        p = self.turn
        hand = self.hands[p]
        if kind == PLAY:
            hand.remove(t)
            if self.phase == PH_ZOMBIE:
                self.fire("Z9")
            else:
                self.fire("Z3")
            if t >= self.S and q != p:
                self.count(_ZT[q])                          # stats: zombies played onto q
            self._place(t, q)
            self._end_turn()
        elif kind == SPECIAL:
            hand.remove(t)
            self.fire("Z11")
            self.special_used = True
            self._place(t, q)
            if self._outcome is None:
                self._draw(p, 1)                            # Z11: draw another card
        elif kind == DISCARD_HAND:
            self.fire("Z6")
            self.discard.extend(hand)
            hand.clear()
            self.z6_used = True
            self._draw(p, int(self.options["redraw"]))
        elif kind == DISCARD:
            self.fire("Z9-discard")
            self.discard.append(t)
            hand.remove(t)
            self._end_turn()
        elif kind == PASS:
            self.fire("pass")
            self._end_turn()
        else:  # pragma: no cover
            raise ValueError(f"bad move {move!r}")

    # ---------------------------------------------------------------- O(1) legality
    def _has_play(self, p: int) -> bool:
        """Z6: can p make a normal play (an item onto its table, a zombie onto another's)?"""
        S = self.S
        items = self.items
        for t in self.hands[p]:
            if t < S:
                if not items[p] >> t & 1:
                    return True
            else:
                for q in range(self.players):
                    if q != p and self.alive[q] and self._can_place(t, q):
                        return True
        return False

    def _legal_one(self, move: int) -> bool:
        """Is ``move`` legal here? O(hand) without building the move list."""
        ph = self.phase
        if ph == PH_OVER or not isinstance(move, int) or move < 0:
            return False
        kind = move >> 16
        t = move >> 8 & 0xFF
        q = move & 0xFF
        p = self.turn
        hand = self.hands[p]
        n = self.players
        if ph == PH_ZOMBIE:
            if not hand:
                return move == PASS << 16
            if kind == PLAY:
                return (t == hand[0] and q < n and self.alive[q] and self._can_place(t, q))
            if kind == DISCARD:
                return (q == 0 and t == hand[0] and
                        not any(self.alive[x] and self._can_place(t, x) for x in range(n)))
            return False
        if kind == PLAY or kind == SPECIAL:
            if t not in hand or q >= n or not self.alive[q]:
                return False
            S = self.S
            if kind == PLAY:
                if (t < S) != (q == p):
                    return False
                return self._can_place(t, q)
            if self.special_used or (t < S) == (q == p) or not self._can_place(t, q):
                return False
            if t < S:                                   # Z12: not another player's 5th item
                return bool(self.zombies[q] >> t & 1) or (
                    self.PC[self.items[q]] + 1 < self.win_items)
            if t < 2 * S and self.items[p] >> (t - S) & 1:
                return True                             # Z4 cancels: not a 5th zombie
            return self.PC[self.zombies[p]] + self.roaches[p] + 1 < self.lose_zombies
        if kind == DISCARD_HAND or kind == PASS:
            if move & 0xFFFF:
                return False
            if (kind == PASS) != self.z6_used:
                return False
            return not self._has_play(p)
        return False

    def random_move(self, rnd) -> int:
        """A uniformly random legal move, by rejection sampling over the candidate set
        {distinct card in hand} x {living seat} + {Z6 move}, which holds every legal move exactly
        once (falls back to the full list after 8 misses). ``rnd`` is ``random.Random().random``.
        The candidate test is ``_legal_one`` inlined (the same test as the playout kernel)."""
        if self.phase != PH_LIVING:
            ms = self.legal_moves()
            return ms[int(rnd() * len(ms))]
        p = self.turn
        alive = self.alive
        ts = list(set(self.hands[p]))
        live = [q for q in range(self.players) if alive[q]]
        nl = len(live)
        u = len(ts) * nl + 1
        S = self.S
        items = self.items
        zombies = self.zombies
        roaches = self.roaches
        PC = self.PC
        special_used = self.special_used
        for _ in range(8):
            k = int(rnd() * u)
            if k == u - 1:
                if not self._has_play(p):
                    return (PASS if self.z6_used else DISCARD_HAND) << 16
                continue
            t = ts[k // nl]
            q = live[k % nl]
            if t < S:
                bit = 1 << t
                if q == p:
                    if not items[p] & bit:
                        return 0x10000 | t << 8 | q
                elif not special_used and not items[q] & bit and (
                        zombies[q] & bit or PC[items[q]] + 1 < self.win_items):
                    return 0x20000 | t << 8 | q
            elif t < 2 * S:
                bit = 1 << (t - S)
                if q != p:
                    if not zombies[q] & bit:
                        return 0x10000 | t << 8 | q
                elif not special_used and not zombies[p] & bit and (
                        items[p] & bit or PC[zombies[p]] + roaches[p] + 1 < self.lose_zombies):
                    return 0x20000 | t << 8 | q
            elif q != p:
                if roaches[q] < self.roach_cap:
                    return 0x10000 | t << 8 | q
            elif not special_used and roaches[p] < self.roach_cap and (
                    PC[zombies[p]] + roaches[p] + 1 < self.lose_zombies):
                return 0x20000 | t << 8 | q
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
        kind = move >> 16
        t = move >> 8 & 0xFF
        q = move & 0xFF
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

    # ---------------------------------------------------------------- outcome
    def outcome(self) -> Outcome | None:
        return self._outcome

    # ---------------------------------------------------------------- undo
    def _snapshot(self):
        return (self.deck[:], self.discard[:], [h[:] for h in self.hands], self.items[:],
                self.zombies[:], self.roaches[:], self.alive[:], self.living, self.special_used,
                self.z6_used, self.phase, self.turns, self._outcome,
                dict(self._seen) if self._seen else None)

    def _restore(self, snap) -> None:
        (self.deck, self.discard, self.hands, self.items, self.zombies, self.roaches,
         self.alive, self.living, self.special_used, self.z6_used, self.phase, self.turns,
         self._outcome, seen) = snap
        self._seen = seen if seen is not None else {}

    # ---------------------------------------------------------------- notation
    def _seat(self, q: int) -> str:
        return f"P{q + 1}"

    def move_text(self, move: int) -> str:
        kind = move >> 16
        t = move >> 8 & 0xFF
        q = move & 0xFF
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

    def _card(self, token: str, text: str) -> int:
        try:
            return self.data.type_of(token)
        except ValueError as e:
            raise self.illegal(text, "notation", str(e)) from None

    def describe(self) -> str:
        d = self.data
        parts = [f"zombie-run ply {self.ply}, turn {self.turns}, {self._seat(self.turn)} to move"
                 f" ({'living' if self.alive[self.turn] else 'zombie'}); deck {len(self.deck)},"
                 f" discard {len(self.discard)}"]
        for q in range(self.players):
            if not self.alive[q]:
                parts.append(f"{self._seat(q)}: zombie")
                continue
            tab = self._table_names(q)
            parts.append(f"{self._seat(q)}: table [{', '.join(tab)}] hand {len(self.hands[q])}")
        if self.phase != PH_OVER:
            parts.append(f"hand of {self._seat(self.turn)}: "
                         f"[{', '.join(d.names[t] for t in sorted(self.hands[self.turn]))}]")
        return "; ".join(parts)

    def _table_names(self, q: int) -> list[str]:
        d = self.data
        S = self.S
        out = [d.names[s] for s in range(S) if self.items[q] >> s & 1]
        out += [d.names[S + s] for s in range(S) if self.zombies[q] >> s & 1]
        out += [d.names[self.ROACH]] * self.roaches[q]
        return out

    def heuristic(self, seat: int) -> float:
        """Public evaluation (tables only, never hands) for the generic greedy bot."""
        out = self._outcome
        if out is not None:
            return 1000.0 if seat in out.winners else -1000.0
        if not self.alive[seat]:
            return -500.0

        def val(q):
            return 3.0 * self.PC[self.items[q]] - 2.0 * self._zcount(q)

        others = [val(q) for q in range(self.players) if q != seat and self.alive[q]]
        return val(seat) - (max(others) if others else 0.0)

    # ---------------------------------------------------------------- simulation figures
    def stats(self) -> dict:
        rf = self.rules_fired
        c = self.counters
        n = self.players
        return {
            "zombies_onto_seat": [c.get(_ZT[q], 0) for q in range(n)],
            "eliminated_seat": [0 if a else 1 for a in self.alive],
            "eliminations": n - self.living,
            "reshuffles": rf.get("Z13", 0),
            "special_uses": rf.get("Z11", 0),
            "hand_discards": rf.get("Z6", 0),
            "cancellations": rf.get("Z4", 0),
        }

    # ---------------------------------------------------------------- hidden information
    def observation(self, seat: int) -> dict:
        """What ``seat`` may see: its own hand, every table, hand sizes, deck size, the discard
        pile (face up) and whose turn it is. Bots get only this."""
        d = self.data
        return {
            "game": GAME,
            "seat": seat,
            "to_move": self.turn,
            "phase": ("living", "zombie", "over")[self.phase],
            "hand": sorted(d.names[t] for t in self.hands[seat]),
            "hand_sizes": [len(h) for h in self.hands],
            "alive": list(self.alive),
            "tables": [self._table_names(q) for q in range(self.players)],
            "deck": len(self.deck),
            "discard": sorted(d.names[t] for t in self.discard),
            "special_used": self.special_used,
            "legal": ([self.move_text(m) for m in self.legal_moves()]
                      if seat == self.turn else []),
        }

    # ---------------------------------------------------------------- serialisation
    def _state_dict(self) -> dict:
        d = self.data
        return {
            "deck": [d.names[t] for t in self.deck],          # last = top
            "discard": [d.names[t] for t in self.discard],
            "hands": [[d.names[t] for t in h] for h in self.hands],
            "tables": [self._table_names(q) for q in range(self.players)],
            "alive": list(self.alive),
            "special_used": self.special_used,
            "z6_used": self.z6_used,
            "phase": self.phase,
            "turns": self.turns,
            "outcome": self._outcome.to_dict() if self._outcome else None,
            "seen": [[list(map(_jsonable, k)), v] for k, v in self._seen.items()],
        }

    def _load_state(self, s: dict) -> None:
        self._init_common()
        d = self.data
        self.deck = [d.type_of(x) for x in s["deck"]]
        self.discard = [d.type_of(x) for x in s["discard"]]
        self.hands = [[d.type_of(x) for x in h] for h in s["hands"]]
        n = self.players
        self.items = [0] * n
        self.zombies = [0] * n
        self.roaches = [0] * n
        for q, tab in enumerate(s["tables"]):
            for x in tab:
                t = d.type_of(x)
                if t < self.S:
                    self.items[q] |= 1 << t
                elif t < 2 * self.S:
                    self.zombies[q] |= 1 << (t - self.S)
                else:
                    self.roaches[q] += 1
        self.alive = [bool(a) for a in s["alive"]]
        self.living = sum(self.alive)
        self.special_used = bool(s["special_used"])
        self.z6_used = bool(s["z6_used"])
        self.phase = int(s["phase"])
        self.turns = int(s["turns"])
        self._outcome = Outcome.from_dict(s["outcome"]) if s.get("outcome") else None
        self._seen = {_hashable(k): v for k, v in s.get("seen") or []}

    @classmethod
    def from_position(cls, spec: dict, players: int = 3, seed=0, variants=None, options=None):
        """A position for tests and scenario records, at the moment the seat to move decides
        (its turn's draw already in its hand). ``spec`` keys: ``hands`` and ``tables`` (per seat
        lists of cards such as item:bat / zombie:bus / zombie:roach), ``alive`` (per seat),
        ``deck`` (top cards, top first; every card not placed elsewhere goes under them in a
        seeded order), ``discard``, ``turn`` (seat, 0-based), ``special_used``, ``z6_used``."""
        spec = dict(spec or {})
        unknown = set(spec) - {"hands", "tables", "alive", "deck", "discard", "turn",
                               "special_used", "z6_used"}
        if unknown:
            raise RecordError(f"{GAME}: unknown position keys {sorted(unknown)}")
        st = cls(players=players, seed=seed, variants=variants, options=options)
        d = st.data
        n = players
        left = list(d.copies)

        def take(x):
            t = d.type_of(str(x))
            left[t] -= 1
            if left[t] < 0:
                raise RecordError(f"{GAME}: more than {d.copies[t]} copies of {x}")
            return t

        hands = spec.get("hands") or [[] for _ in range(n)]
        tables = spec.get("tables") or [[] for _ in range(n)]
        if len(hands) != n or len(tables) != n:
            raise RecordError(f"{GAME}: hands and tables need one entry per seat ({n})")
        st.hands = [[take(x) for x in h] for h in hands]
        st.items = [0] * n
        st.zombies = [0] * n
        st.roaches = [0] * n
        for q, tab in enumerate(tables):
            for x in tab:
                t = take(x)
                if not st._can_place(t, q):
                    raise RecordError(f"{GAME}: P{q + 1} table holds {x} twice (Z5)")
                if t < st.S:
                    st.items[q] |= 1 << t
                elif t < 2 * st.S:
                    st.zombies[q] |= 1 << (t - st.S)
                else:
                    st.roaches[q] += 1
            if st.items[q] & st.zombies[q]:
                raise RecordError(f"{GAME}: P{q + 1} table holds an item and its zombie (Z4)")
        st.alive = [bool(a) for a in spec.get("alive", [True] * n)]
        st.living = sum(st.alive)
        st.discard = [take(x) for x in spec.get("discard") or []]
        top = [take(x) for x in spec.get("deck") or []]
        rest = [t for t in range(d.NT) for _ in range(left[t])]
        fast_shuffle(st.rng, rest)
        st.deck = rest + top[::-1]                  # last = top
        st.rules_fired.clear()             # a fresh position: nothing has happened yet
        st._fire_log.clear()
        st.counters.clear()
        st._count_log.clear()
        st.turn = int(spec.get("turn", 0))
        st.phase = PH_LIVING if st.alive[st.turn] else PH_ZOMBIE
        st.special_used = bool(spec.get("special_used", False))
        st.z6_used = bool(spec.get("z6_used", False))
        st.turns = 1
        st._seen = {}
        st._outcome = None
        probs = st.check_invariants()
        if probs:
            raise RecordError(f"{GAME}: bad position: {'; '.join(probs)}")
        return st

    # ---------------------------------------------------------------- invariants
    def check_invariants(self) -> list[str]:
        d = self.data
        count = [0] * d.NT
        for t in self.deck:
            count[t] += 1
        for t in self.discard:
            count[t] += 1
        for h in self.hands:
            for t in h:
                count[t] += 1
        S = self.S
        probs = []
        for q in range(self.players):
            for s in range(S):
                if self.items[q] >> s & 1:
                    count[s] += 1
                if self.zombies[q] >> s & 1:
                    count[S + s] += 1
            count[self.ROACH] += self.roaches[q]
            if self.items[q] & self.zombies[q]:
                probs.append(f"Z4: P{q + 1} holds an item and a zombie of the same symbol")
            if not self.alive[q] and (self.items[q] or self.zombies[q] or self.roaches[q]):
                probs.append(f"Z8: zombie player P{q + 1} still has a table")
            if self.roaches[q] > self.roach_cap:
                probs.append(f"Z5: P{q + 1} holds {self.roaches[q]} symbol-less zombies")
            if self._outcome is None and self.alive[q]:
                if self.PC[self.items[q]] >= self.win_items:
                    probs.append(f"Z7: P{q + 1} has won but the game goes on")
                if self._zcount(q) >= self.lose_zombies:
                    probs.append(f"Z8: P{q + 1} should be a zombie")
        for t in range(d.NT):
            if count[t] != d.copies[t]:
                probs.append(f"card {d.names[t]}: {count[t]} accounted for, {d.copies[t]} printed")
        if sum(count) != d.total:
            probs.append(f"{sum(count)} cards accounted for, {d.total} printed")
        if self.living != sum(self.alive):
            probs.append("living count out of step")
        return probs

    # ---------------------------------------------------------------- fast random games
    def playout(self, chooser: random.Random | None = None, seed: int = 0,
                fast: bool = True) -> Outcome:
        """Play uniformly random legal moves (``random_move``) to the end, without undo records
        (the undo history is cleared). ``fast`` runs the inlined kernel ``_playout_kernel``;
        ``fast=False`` the reference loop ``random_move`` + ``_apply``. Both consume the chooser
        and the game RNG identically, so they reach the same final state (tested)."""
        ch = chooser or random.Random(seed)
        rnd = ch.random
        self._undo.clear()
        self.move_stack.clear()
        if fast:
            self._playout_kernel(rnd)
            return self._outcome
        pick = self.random_move
        apply = self._apply
        while self._outcome is None:
            apply(pick(rnd))
            self.ply += 1
        return self._outcome

    def _playout_kernel(self, rnd) -> None:
        """The hot loop of ``playout``: ``random_move`` and the common cases of ``_apply`` (a
        living player's play or special) inlined on local variables; rare cases (zombie
        players, Z6, Z8, reshuffles, the guards) go through the ordinary methods."""
        S = self.S
        S2 = 2 * S
        n = self.players
        live = [q for q in range(n) if self.alive[q]]
        nl = len(live)
        hands = self.hands
        items = self.items
        zombies = self.zombies
        roaches = self.roaches
        alive = self.alive
        deck = self.deck
        win = self.win_items
        lose = self.lose_zombies
        rcap = self.roach_cap
        PC = self.PC
        rf = self.rules_fired
        apply = self._apply
        begin = self._begin_turn
        discard = self.discard
        max_turns = self.max_turns
        LIVING = PH_LIVING
        ZOMBIE = PH_ZOMBIE
        PLAY_ = PLAY << 16
        SPECIAL_ = SPECIAL << 16
        z3 = z11 = z4 = z9 = 0
        tgt = [0] * n
        plies = 0
        while self._outcome is None:
            plies += 1
            if self.phase != LIVING:
                p = self.turn
                hand = hands[p]
                if self.phase != ZOMBIE or len(hand) != 1:        # rare: nothing drawn
                    ms = self.legal_moves()
                    apply(ms[int(rnd() * len(ms))])
                    if self.living != nl:
                        live = [q for q in range(n) if alive[q]]
                        nl = len(live)
                    continue
                # ---- a zombie player's turn (Z9), inline: the drawn card onto a living
                # player's table (uniform over the legal targets, ascending seats, as
                # legal_moves lists them), else discarded
                t = hand[0]
                if t < S:
                    bit = 1 << t
                    ql = [q for q in live if not items[q] & bit]
                elif t < S2:
                    bit = 1 << (t - S)
                    ql = [q for q in live if not zombies[q] & bit]
                else:
                    ql = [q for q in live if roaches[q] < rcap]
                k = int(rnd() * (len(ql) or 1))
                hand.pop()
                if ql:
                    q = ql[k]
                    z9 += 1
                    if t >= S:
                        tgt[q] += 1
                    self._place(t, q)
                    if self._outcome is not None:
                        break
                    if self.living != nl:
                        live = [q for q in range(n) if alive[q]]
                        nl = len(live)
                else:
                    self.fire("Z9-discard")
                    discard.append(t)
                nxt = p + 1
                if nxt == n:
                    nxt = 0
                self.turn = nxt
                if deck and self.turns < max_turns and len(deck) + len(discard) > 6:
                    self.turns += 1
                    self.special_used = False
                    self.z6_used = False
                    self.phase = ZOMBIE if not alive[nxt] else LIVING
                    hands[nxt].append(deck.pop())                   # Z3 / Z9
                else:
                    begin()
                continue
            p = self.turn
            hand = hands[p]
            ts = list(set(hand))
            u = len(ts) * nl + 1
            m = -1
            special_used = self.special_used
            for _ in range(8):
                k = int(rnd() * u)
                if k == u - 1:
                    if not self._has_play(p):
                        m = (PASS if self.z6_used else DISCARD_HAND) << 16
                        break
                    continue
                t = ts[k // nl]
                q = live[k % nl]
                if t < S:
                    bit = 1 << t
                    if q == p:
                        if not items[p] & bit:
                            m = PLAY_ | t << 8 | q
                            break
                    elif not special_used and not items[q] & bit and (
                            zombies[q] & bit or PC[items[q]] + 1 < win):
                        m = SPECIAL_ | t << 8 | q
                        break
                elif t < S2:
                    bit = 1 << (t - S)
                    if q != p:
                        if not zombies[q] & bit:
                            m = PLAY_ | t << 8 | q
                            break
                    elif not special_used and not zombies[p] & bit and (
                            items[p] & bit or PC[zombies[p]] + roaches[p] + 1 < lose):
                        m = SPECIAL_ | t << 8 | q
                        break
                elif q != p:
                    if roaches[q] < rcap:
                        m = PLAY_ | t << 8 | q
                        break
                elif not special_used and roaches[p] < rcap and (
                        PC[zombies[p]] + roaches[p] + 1 < lose):
                    m = SPECIAL_ | t << 8 | q
                    break
            if m < 0:
                ms = self.legal_moves()
                m = ms[int(rnd() * len(ms))]
            kind = m >> 16
            if kind > 2:                                            # not PLAY / SPECIAL
                apply(m)
                if self.living != nl:
                    live = [q for q in range(n) if alive[q]]
                    nl = len(live)
                continue
            t = m >> 8 & 0xFF
            q = m & 0xFF
            hand.remove(t)
            if kind == 1:                                           # PLAY
                z3 += 1
                if t >= S:
                    tgt[q] += 1
            else:
                z11 += 1
                self.special_used = True
            # ---- _place(t, q), common cases inline
            if t < S:
                bit = 1 << t
                if zombies[q] & bit:                                # Z4
                    zombies[q] ^= bit
                    discard.append(t)
                    discard.append(t + S)
                    z4 += 1
                else:
                    items[q] |= bit
                    if PC[items[q]] >= win:                          # Z7
                        self.fire("Z7")
                        self._finish((q,), "saved: five different items", "Z7")
                        break
            elif t < S2:
                bit = 1 << (t - S)
                if items[q] & bit:                                  # Z4
                    items[q] ^= bit
                    discard.append(t)
                    discard.append(t - S)
                    z4 += 1
                else:
                    zombies[q] |= bit
                    if PC[zombies[q]] + roaches[q] >= lose:         # Z8
                        self._zombify(q)
                        if self._outcome is not None:
                            break
                        live.remove(q)
                        nl -= 1
            else:
                roaches[q] += 1                                     # Z14
                self.fire("Z14")
                if PC[zombies[q]] + roaches[q] >= lose:
                    self._zombify(q)
                    if self._outcome is not None:
                        break
                    live.remove(q)
                    nl -= 1
            if kind == 2:                                           # SPECIAL
                if deck:                                            # Z11: draw another
                    hand.append(deck.pop())
                else:
                    self._draw(p, 1)
                continue
            # ---- _end_turn / _begin_turn, common case inline
            nxt = p + 1
            if nxt == n:
                nxt = 0
            self.turn = nxt
            if deck and self.turns < max_turns and len(deck) + len(discard) > 6:
                self.turns += 1
                self.special_used = False
                self.z6_used = False
                if not alive[nxt]:
                    self.phase = ZOMBIE
                hands[nxt].append(deck.pop())                       # Z3 / Z9
            else:
                begin()
        self.ply += plies
        if z9:
            rf["Z9"] += z9
        if z3:
            rf["Z3"] += z3
        if z11:
            rf["Z11"] += z11
        if z4:
            rf["Z4"] += z4
        cnt = self.counters
        for q in range(n):
            if tgt[q]:
                cnt[_ZT[q]] += tgt[q]
        self._fire_log = []                 # no undo after a playout: drop the logs
        self._count_log = []

def _jsonable(x):
    return [_jsonable(y) for y in x] if isinstance(x, tuple) else x


def _hashable(x):
    return tuple(_hashable(y) for y in x) if isinstance(x, list) else x


# ------------------------------------------------------------------------------- bots
def random_bot(obs: dict, rng: random.Random) -> str:
    """A bot sees only its observation (own hand, tables, counts) and answers move text."""
    return rng.choice(obs["legal"])


def greedy_bot(obs: dict, rng: random.Random) -> str:
    """Prefers: an item for itself, a zombie onto the player with most items, no specials."""
    legal = obs["legal"]
    tables = obs["tables"]
    best, best_score = None, None
    for m in legal:
        score = rng.random()
        if m.startswith("play item") and ">" not in m:
            score += 10
        elif m.startswith("play zombie"):
            tgt = int(m.rsplit(">P", 1)[1]) - 1
            score += 5 + sum(1 for c in tables[tgt] if c.startswith("item:"))
        elif m.startswith("special zombie") and any(
                c.startswith("item:") and c.split(":")[1] == m.split(":")[1].split(">")[0]
                for c in tables[obs["seat"]]):
            score -= 5
        elif m.startswith("special"):
            score -= 2
        if best_score is None or score > best_score:
            best, best_score = m, score
    return best


ZombieRun.observation_bots = {"random": random_bot, "greedy": greedy_bot}
