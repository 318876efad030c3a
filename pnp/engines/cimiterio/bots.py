"""Cimiterio: what a player cannot see, for the search bot (:mod:`pnp.engines.search`).

Cimiterio has no hands, so it defines no ``observation(seat)`` and every bot may play it; but
two decks lie face down: the event deck (C15) and the zombie deck (C17). A bot that searched
the real position would know the next events and awakenings, so ``mcts`` searches
determinisations instead: the same position with both decks in an order drawn from the
search's RNG, and the game's RNG reseeded (the reshuffles of C20 are not known either).
"""
from __future__ import annotations

from pnp.engines.core import Rng


def determinize(st, seat: int, rng: Rng):
    """A copy of ``st`` with the face-down event and zombie decks shuffled by ``rng`` (their
    cards are known, their order is not) and the game's RNG reseeded. ``seat`` sees what every
    player sees, so it does not change the result."""
    copy = st.copy()
    copy.edeck = rng.shuffled(sorted(copy.edeck))
    copy.zdeck = rng.shuffled(sorted(copy.zdeck))
    copy.rng = Rng(rng.next64())
    return copy
