"""Zombie! Run for Your Lives!: bots that see only ``observation(seat)`` and answer a move text
(hands are hidden, Z1), and ``determinize``, the positions a seat cannot tell from the real one
(for the ``ismcts`` search bot, :mod:`pnp.engines.search`)."""
from __future__ import annotations

import random

from pnp.engines.core import Rng


def random_bot(obs: dict, rng: random.Random) -> str:
    """A bot sees only its observation (own hand, tables, counts) and answers move text."""
    return rng.choice(obs["legal"])


def greedy_bot(obs: dict, rng: random.Random) -> str:
    """Prefers: an item for itself, a zombie onto the player with most items, no specials."""
    legal = obs["legal"]
    tables = obs["tables"]
    best, best_score = legal[0], None
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


def determinize(st, seat: int, rng: Rng):
    """A copy of ``st`` as ``seat`` might believe it to be: its own hand, the tables, the
    discard pile and the hand sizes as they are; the cards it cannot see (the other hands and
    the deck) dealt again from ``rng``; the game's RNG reseeded (future reshuffles unknown).
    Only what ``observation(seat)`` shows decides the result: the unseen cards are sorted
    before the shuffle and the visible piles are put in a fixed order."""
    copy = st.copy()
    hands = copy.hands
    unseen = sorted(copy.deck + [t for q, hand in enumerate(hands) if q != seat for t in hand])
    rng.shuffle(unseen)
    for q, hand in enumerate(hands):
        if q != seat:
            hands[q] = unseen[:len(hand)]
            del unseen[:len(hand)]
    hands[seat].sort()
    copy.deck = unseen
    copy.discard.sort()
    copy._seen = {}                 # turn-start positions: they hold the real deck order
    copy.rng = Rng(rng.next64())
    return copy
