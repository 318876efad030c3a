"""Cimiterio rules engine (rule points C1-C26 of the games brief; interpretations in
docs/rules/cimiterio.md).

The map comes from the pack's ``map`` collection and the cards from its decks, both through
``pnp.pack.load_pack``: the engine plays with the same cards that are printed.

Modules, from the ground up: ``board`` (the map's static tables), ``pack_data`` (reading the
pack), ``state`` (the position, undo, serialisation), ``scoring`` (captures, the gate, the end),
``movement`` (waves and walks of zombie groups), ``turns`` (the turn and the event cards),
``actions`` (the player's moves: legal, illegal, played), ``notation``, ``positions`` (compact
scenario positions) and ``game`` (the registered class).

Move notation (text <-> tuple):

- ``move G1 14,5>14,1`` / ``move G1 14,5>14,1 G2 14,9>13,14``  -> ``("move", f1, t1, f2, t2)``
  ring indices of the guardian stops, -1 for a guardian that stays (C6);
- ``noise G1`` / ``noise G2`` / ``noise G1+G2`` (simultaneous, C12) / ``noise G1,G2`` /
  ``noise G2,G1`` (one after the other, C7)                    -> ``("noise", mode)``;
- ``pass`` (C5)                                                 -> ``("pass",)``;
- ``first 7,3``: which of the groups tied for distance to the gate moves first (C19)
                                                                -> ``("first", cell)``;
- ``personal keep`` / ``personal 1`` .. ``personal 3``: the owner's choice for the personalised
  zombie (C24)                                                 -> ``("personal", n)`` (0 = keep).

Cells are written ``row,col`` of the map grid (0-based, border included); internally a cell is
``row * width + col``.
"""
from pnp.engines.cimiterio.board import Board
from pnp.engines.cimiterio.game import Cimiterio
from pnp.engines.cimiterio.pack_data import Cards

__all__ = ["Board", "Cards", "Cimiterio"]
