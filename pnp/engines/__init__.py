"""Rules engines: the core protocol (:mod:`pnp.engines.core`) and one package per game.

Engines are found through the entry-point group ``pnp.engines`` (pyproject.toml), the shipped ones
the same way as a designer's own; each is imported only when its game is played.
"""
from pnp.engines.core import (  # noqa: F401
    ENTRY_POINT_GROUP,
    GameState,
    IllegalMoveError,
    Outcome,
    RecordError,
    Rng,
    engine_for,
    game_names,
    get_game,
    register,
    resolve_options,
)
