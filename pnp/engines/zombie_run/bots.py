"""Zombie! Run for Your Lives!: bots that see only ``observation(seat)`` and answer a move text
(hands are hidden, Z1)."""
from __future__ import annotations

import random


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
