"""Rules engines: the core protocol (:mod:`pnp.engines.core`) and one module per game."""
from pnp.engines.core import (  # noqa: F401
    GameState, IllegalMoveError, Outcome, RecordError, Rng, game_names, get_game, register,
    resolve_options,
)

# Register the shipped games. Each import is optional so a half-written engine cannot break
# the others.
import importlib as _importlib

for _mod in ("cimiterio", "zombie_run", "zvv", "zombies_vs_vampires"):
    try:
        _importlib.import_module(f"pnp.engines.{_mod}")
    except ModuleNotFoundError as _exc:  # only "this module does not exist yet"
        if _exc.name != f"pnp.engines.{_mod}":
            raise
