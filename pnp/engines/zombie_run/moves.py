"""Zombie! Run for Your Lives!: the move encoding, shared by the engine and its tools.

A move is the int ``kind << 16 | type << 8 | target``: one of the kinds below, a card *type*
(:mod:`.deck`: items, then zombies, then the symbol-less zombie) and a target seat (0-based).
Moves without a card or a target leave those bytes 0.
"""
from __future__ import annotations

PLAY = 1          # Z3 (living) / Z9 (zombie player): play a card onto a table
SPECIAL = 2       # Z11: zombie onto own table or item onto another living player's table
DISCARD_HAND = 3  # Z6: no playable card: show hand, discard it, draw 5, go on
PASS = 4          # Z6 already used this turn and still nothing playable / nothing drawn (see docs)
DISCARD = 5       # Z9: a zombie player's drawn card cannot be played anywhere: discard it


def mk(kind: int, ctype: int = 0, target: int = 0) -> int:
    """The move of ``kind`` putting card type ``ctype`` onto seat ``target``'s table."""
    return kind << 16 | ctype << 8 | target


def decode(move: int) -> tuple[int, int, int]:
    """(kind, card type, target seat) of ``move``."""
    return move >> 16, move >> 8 & 0xFF, move & 0xFF
