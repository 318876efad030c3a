"""Zombies vs Vampires -- reference rules engine (rule points V1..V15).

Interpretations and variants: docs/rules/zombies-vs-vampires.md. The game is
``ZombiesVsVampires`` (game.py, registered as ``zombies-vs-vampires``), built in layers:

- moves.py: move encoding, phases, die faces;
- data.py: the board, walls and dice read from the pack (``pnp.pack.load_pack``);
- geometry.py: the board as bits, home zones, wall candidates;
- steps.py: the movement rules (V4-V6, V11) as bitset functions;
- base.py: the configuration and the position;
- walls.py: where walls fit (V9), building and removing them;
- movement.py: reach, paths and steps of the pieces;
- legality.py: legal moves, the direct check, the rule a refused move breaks;
- notation.py: move texts; bot_support.py: distances and random play;
- records.py: snapshots and positions as data; game.py: the turn, the end, the figures;
- _native.c: the random playout in C (optional, built by setup.py; pnp.engines.native), driven
  by playout_native.py and checked game by game against the Python loop;
- bots.py: the racer bot.
"""
from pnp.engines.zombies_vs_vampires.bots import greedy_bot
from pnp.engines.zombies_vs_vampires.data import ZvvData, load_zvv_data, read_zvv, zvv_data
from pnp.engines.zombies_vs_vampires.game import ZombiesVsVampires
from pnp.engines.zombies_vs_vampires.geometry import Geometry, geometry
from pnp.engines.zombies_vs_vampires.moves import BUILD, GAME, MOVE, PASS, PMBUILD, REMOVE, REROLL, ROLL, mkmove

__all__ = ["BUILD", "GAME", "MOVE", "PASS", "PMBUILD", "REMOVE", "REROLL", "ROLL", "Geometry",
           "ZombiesVsVampires", "ZvvData", "geometry", "greedy_bot", "load_zvv_data", "mkmove",
           "read_zvv", "zvv_data"]
