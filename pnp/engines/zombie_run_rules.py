"""Zombie! Run for Your Lives! -- move encoding shared by the engine and its tools.

Rule points Z1..Z14 are from the brief (docs/rules/zombie-run.md). The engine works on small
ints so a complete random game costs well under a millisecond:

* card *types*: ``0..S-1`` items (symbol s), ``S..2S-1`` zombies (symbol s-S), ``2S`` the
  symbol-less zombie ("roach", Z14). Identical cards are interchangeable, so the state keeps
  types, never instance ids; the 63 printed cards are the multiset {type: copies}.
* tables: an item bitmask, a zombie bitmask and a roach count per player.
* a move is an int ``kind << 16 | type << 8 | target``.
"""
from __future__ import annotations

# move kinds
PLAY = 1          # Z3 (living) / Z9 (zombie player): play a card onto a table
SPECIAL = 2       # Z11: zombie onto own table or item onto another living player's table
DISCARD_HAND = 3  # Z6: no playable card: show hand, discard it, draw 5, go on
PASS = 4          # Z6 already used this turn and still nothing playable / nothing drawn (see docs)
DISCARD = 5       # Z9: a zombie player's drawn card cannot be played anywhere: discard it


def popcounts(bits: int) -> list[int]:
    """Table of set-bit counts for every mask of ``bits`` bits (one per symbol)."""
    return [bin(i).count("1") for i in range(1 << bits)]


def mk(kind: int, ctype: int = 0, target: int = 0) -> int:
    return kind << 16 | ctype << 8 | target
