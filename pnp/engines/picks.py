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

from pnp.engines.core import MASK64, PICK_BLOCK, next_tops

GAMMA = 0x9E3779B97F4A7C15      # splitmix64's step (Rng.next64)
BLOCK = PICK_BLOCK              # draws a block (next_tops' default): a game makes 20 to 130
                                # picks; callgrind over the benchmark's games: 16 -> 1,405,000
                                # instructions a Zombie Run game, 24 -> 1,394,300, 32 ->
                                # 1,398,700 (a lane costs about 1,200, a block 4,300 more; the
                                # lanes left at the end are lost)
__all__ = ["BLOCK", "GAMMA", "MASK64", "fast_pick", "next_tops"]   # next_tops: core's, shared
                                                                    # with Rng.shuffle


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
