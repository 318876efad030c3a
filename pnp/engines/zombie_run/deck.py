"""Zombie! Run for Your Lives!: the printed deck as the engine sees it, and its shuffle.

The deck is read from the data pack through :func:`pnp.pack.load_pack` (validated, quantities
expanded) and nothing else. A card *type* is an int: ``0..S-1`` the item of symbol s,
``S..2S-1`` the zombie of symbol s-S, ``2S`` the symbol-less zombie (kind ``roach``, Z14).
Identical cards are interchangeable, so hands, deck and discard hold types; the printed cards
are the multiset ``copies[type]``. Symbols are numbered in the order of the pack's ``symbols``
collection.
"""
from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable
from hashlib import blake2b
from operator import itemgetter
from pathlib import Path
from struct import Struct, unpack

from pnp.engines.core import Rng
from pnp.errors import DataError, Problem, display_path
from pnp.pack import Card, load_pack

GAME = "zombie-run"
ITEM, ZOMBIE, ROACH_KIND = "item", "zombie", "roach"     # the pack's card kinds


def popcounts(bits: int) -> list[int]:
    """Table of set-bit counts for every mask of ``bits`` bits (one per symbol)."""
    return [i.bit_count() for i in range(1 << bits)]


class ZRData:
    """The deck: symbols, copies per card type, card names and the printed card ids."""

    def __init__(self, symbols: list[str], item_copies: list[int], zombie_copies: list[int],
                 roach_copies: int, source: str):
        self.symbols = tuple(symbols)
        self.S = len(self.symbols)
        self.roach = ROACH_KIND
        self.copies = (*item_copies, *zombie_copies, roach_copies)
        self.ROACH = 2 * self.S
        self.NT = 2 * self.S + 1
        self.total = sum(self.copies)
        self.source = source
        self.names = tuple([f"{ITEM}:{s}" for s in self.symbols] +
                           [f"{ZOMBIE}:{s}" for s in self.symbols] + [f"{ZOMBIE}:{self.roach}"])
        self.index = {n: i for i, n in enumerate(self.names)}
        self.card_ids: dict[str, int] = {}  # printed card id (base) -> type
        self.deck_template = [t for t in range(self.NT) for _ in range(self.copies[t])]
        self.popcount = popcounts(self.NT - 1 - self.S + roach_copies)  # see rules.Rules.PC

    def type_of(self, token: str) -> int:
        """The card type named ``item:bat`` / ``zombie:roach`` or by a printed id ``item-bat#2``."""
        t = self.index.get(token)
        if t is None:
            t = self.card_ids.get(token.partition("#")[0])
        if t is None:
            raise ValueError(f"unknown card {token!r}; cards are item:<symbol> / zombie:<symbol> "
                             f"with symbols {', '.join(self.symbols)} and zombie:{self.roach}")
        return t


def _not_a_card(card: Card) -> DataError:
    return DataError([Problem(display_path(card.file), card.line, f"{card.base_id}.kind",
                              f"kind {card.kind!r} is not a {GAME} card "
                              f"({ITEM}, {ZOMBIE} or {ROACH_KIND})")])


def load_zr_data(root: str | Path = GAME) -> ZRData:
    """The deck of the pack at ``root`` (a folder or a shipped pack's name): its cards of kind
    ``item`` and ``zombie`` (each with a symbol) and ``roach`` (the symbol-less zombie of Z14).
    A pack that does not load raises pnp's error (``DataError``; ``UnknownGameError`` when
    there is none)."""
    pack = load_pack(root)
    names: dict[str, str] = {}                  # printed base id -> card name (item:bat)
    count: Counter[str] = Counter()
    for card in pack.cards():
        if card.kind == ROACH_KIND:
            name = f"{ZOMBIE}:{ROACH_KIND}"
        elif card.kind in (ITEM, ZOMBIE):
            name = f"{card.kind}:{card.fields['symbol']}"
        else:
            raise _not_a_card(card)
        names[card.base_id] = name
        count[name] += 1
    symbols = [e["id"] for e in pack.collections["symbols"]
               if count[f"{ITEM}:{e['id']}"] or count[f"{ZOMBIE}:{e['id']}"]]
    d = ZRData(symbols, [count[f"{ITEM}:{s}"] for s in symbols],
               [count[f"{ZOMBIE}:{s}"] for s in symbols], count[f"{ZOMBIE}:{ROACH_KIND}"],
               f"{root} (load_pack)")
    d.card_ids = {cid: d.index[name] for cid, name in names.items()}
    return d


@functools.cache
def zr_data() -> ZRData:
    """The shipped pack's deck, read once."""
    return load_zr_data()


def fast_shuffle(rng: Rng, items: list) -> None:
    """Shuffle in place, driven by the state's splitmix64 ``rng`` (one 64-bit draw): the draw
    seeds BLAKE2b, which gives a 32-bit key per card; the cards are sorted by key (a stable sort,
    so the rare equal keys keep a fixed order). Deterministic on every platform and a few
    microseconds for 63 cards."""
    n = len(items)
    if n < 2:
        return
    seed = rng.next64().to_bytes(8, "little")
    blocks = []
    for i in range((4 * n + 63) // 64):     # BLAKE2b(seed + i as 2 bytes), 64 bytes each
        h = _BLAKE2B.copy()
        h.update(seed + (_INDEX[i] if i < len(_INDEX) else i.to_bytes(2, "little")))
        blocks.append(h.digest())
    # the permutation applied by one itemgetter (a C loop; n >= 2, so it gives a tuple)
    items[:] = itemgetter(*key_order(b"".join(blocks), n))(items)


# an empty BLAKE2b-512, copied for each block: the digest of blake2b(data, digest_size=64)
# without parsing the constructor's options each time (set-up and every reshuffle shuffle)
_BLAKE2B = blake2b(digest_size=64)
_INDEX = tuple(i.to_bytes(2, "little") for i in range(64))


def key_order(buf: bytes, n: int) -> Iterable[int]:
    """The indexes ``0..n-1`` sorted by the ``n`` little-endian 32-bit keys at the start of
    ``buf``, equal keys in index order: ``sorted(range(n), key=keys.__getitem__)``.

    Below 256 cards without a Python call per card (the set-up shuffle took about two thirds of
    a new game's set-up): card i becomes the double 2**52 + key * 256 + i, exact as it is below
    2**53, written byte by byte (``_order_words``: the index, the key's four bytes, 0, then the
    bytes 0x30 0x43 of the sign and exponent); the doubles are sorted (floats compare faster than
    32-bit ints) and the index bytes read back from them. tests/test_zombie_run_speed_paths.py
    compares the two on keys with and without ties."""
    if n > 255:
        keys = unpack(f"<{n}I", buf[:4 * n])
        return sorted(range(n), key=keys.__getitem__)
    template, doubles = _order_words(n)
    words = bytearray(template)
    for b in range(4):                              # key byte b of every card
        words[1 + b::8] = buf[b:4 * n:4]
    return doubles.pack(*sorted(doubles.unpack(words)))[::8]


@functools.cache
def _order_words(n: int) -> tuple[bytes, Struct]:
    """``key_order``'s 8 bytes per card without the key (the index, zeros, 0x30 0x43) and the
    Struct of ``n`` little-endian doubles."""
    words = bytearray(8 * n)
    words[0::8] = bytes(range(n))
    words[6::8] = b"\x30" * n
    words[7::8] = b"\x43" * n
    return bytes(words), Struct(f"<{n}d")
