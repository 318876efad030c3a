"""The benchmark's pick ``Rng.randbelow(n)``, a block at a time (Zombie Run's and Cimiterio's
``random_playout``).

A playout picks one move of every list with ``rng.randbelow(len(list))``: a splitmix64
output ``z`` (``Rng.next64``) and Lemire's ``z * n >> 64``, unless the low 64 bits of
``z * n`` are below ``n`` (then it draws again). Written out per pick that is a dozen
operations on 64- to 128-bit ints, each an allocated object: about a fifth of a game's
instructions. splitmix64 is counter based (the state after k draws is ``state + k * GAMMA``),
so the outputs of the next draws do not depend on the picks: ``next_tops`` computes a block of
them at once, as lanes of one big int (one multiplication per mixing step for the whole
block), and keeps the top 16 bits of each. A pick then is ``k = top * n``: when the low 16 bits
of ``k`` leave room (``fast_pick``), ``k >> 16`` is the very index ``randbelow`` returns, after
one draw; in the rare other case (about n in 65,536) the caller asks ``Rng.randbelow`` itself.
"""
from __future__ import annotations

import functools
from struct import Struct

from pnp.engines.core import MASK64

GAMMA = 0x9E3779B97F4A7C15      # splitmix64's step (Rng.next64)
BLOCK = 24                      # draws a block: a game makes 20 to 130 picks; callgrind over
                                # the benchmark's games: 16 -> 1,405,000 instructions a game,
                                # 24 -> 1,394,300, 32 -> 1,398,700 (a lane costs about 1,200,
                                # a block 4,300 more; the lanes left at the end are lost)
LANE = 128                      # bits a lane: a 64-bit value times a 64-bit constant fits


@functools.cache
def _lanes(k: int) -> tuple[int, int, int, Struct]:
    """``next_tops``' constants for ``k`` lanes: one bit at the bottom of each lane, the steps
    ``j * GAMMA mod 2**64`` of the draws j = 1..k, the 64-bit mask of each lane, and the Struct
    reading bits 48..63 of each lane."""
    ones = sum(1 << LANE * j for j in range(k))
    steps = sum((j + 1) * GAMMA % (1 << 64) << LANE * j for j in range(k))
    return ones, steps, MASK64 * ones, Struct("<" + "6xH8x" * k)


def next_tops(state: int, k: int = BLOCK) -> tuple[int, ...]:
    """The top 16 bits (``>> 48``) of the next ``k`` outputs of an ``Rng`` at ``state``, in
    order, then -1 (a sentinel that ``fast_pick`` refuses: the caller's sign that the block is
    used up). Each lane runs ``Rng.next64``'s steps; the last xor-shift (``z ^ z >> 31``) leaves
    bits 48..63 as they are, and the lanes' bits above 64 are never read, so neither is done."""
    ones, steps, lanes, tops = _lanes(k)
    z = (state * ones + steps) & lanes                      # the states state + j * GAMMA
    z = ((z ^ z >> 30) & lanes) * 0xBF58476D1CE4E5B9 & lanes
    z = ((z ^ z >> 27) & lanes) * 0x94D049BB133111EB
    return (*tops.unpack(z.to_bytes(LANE // 8 * k, "little")), -1)   # a lane holds its product


def fast_pick(top: int, n: int) -> int:
    """``Rng.randbelow(n)`` of the draw whose top 16 bits are ``top``, or -1 when they do not
    decide it (the playout loop has this test written out). With ``z = top * 2**48 + low``,
    ``z * n = k * 2**48 + low * n`` where ``k = top * n`` and ``low * n < n * 2**48``: if the
    low 16 bits r of ``k`` are in 1 .. 2**16 - n - 1, adding ``low * n`` carries nothing into
    bit 64, so ``z * n >> 64 == k >> 16``, and the low 64 bits of ``z * n`` are at least
    ``r * 2**48 >= n``, so Lemire's method draws no more. ``(k + n) & 0xFFFF > n`` holds exactly
    then (and never for the sentinel -1)."""
    k = top * n
    return k >> 16 if (k + n) & 0xFFFF > n else -1
