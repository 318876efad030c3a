"""Zombie! Run for Your Lives! -- reference rules engine (rule points Z1..Z14), registered as
``zombie-run``: the game class :class:`ZombieRun` (``pnp.engines.zombie_run:ZombieRun``).

Modules: ``moves`` (the int move encoding), ``deck`` (the printed deck from the data pack, the
shuffle), ``rules`` (each rule point once, on the int encoding), ``turns`` (deal, draws, turn
flow, applying a move), ``legality`` (legal moves, the one-move check, the random sampler),
``playout`` (complete random games), ``notation``, ``records`` (the position as data),
``bots`` (observation bots) and ``game`` (the registered class).
"""
from pnp.engines.zombie_run.bots import greedy_bot, random_bot
from pnp.engines.zombie_run.deck import GAME, ZRData, fast_shuffle, load_zr_data, zr_data
from pnp.engines.zombie_run.game import ZombieRun
from pnp.engines.zombie_run.moves import DISCARD, DISCARD_HAND, PASS, PLAY, SPECIAL, mk

__all__ = ["DISCARD", "DISCARD_HAND", "GAME", "PASS", "PLAY", "SPECIAL", "ZRData", "ZombieRun",
           "fast_shuffle", "greedy_bot", "load_zr_data", "mk", "random_bot", "zr_data"]
