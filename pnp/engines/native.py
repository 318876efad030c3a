"""Compiled playouts: an engine's optional C version of its hottest loop, ``random_playout``.

An engine may ship ``_native.c`` beside its Python modules; setup.py builds every
``pnp/**/_native.c`` as an optional extension (a machine without a C compiler still installs
pnp, and plays the same games in pure Python). The Python engine stays the definition of the
rules: a compiled playout must leave the position, the RNG, the ply, ``rules_fired`` and the
counters exactly as the Python playout does (each engine's tests replay both, game by game), so
a record, a report or a simulation is the same bytes with or without it.

``PNP_PURE_PYTHON=1`` in the environment turns every compiled playout off (benchmarks compare the
two; tests compare them in one process by passing ``native=None``).
"""
from __future__ import annotations

import importlib
import os
from types import ModuleType

PURE_PYTHON = "PNP_PURE_PYTHON"


def native(module: str) -> ModuleType | None:
    """The compiled module ``module`` (dotted name), or None when it was not built or
    ``PNP_PURE_PYTHON`` is set."""
    if os.environ.get(PURE_PYTHON):
        return None
    try:
        return importlib.import_module(module)
    except ImportError:
        return None
