"""The games and templates shipped with pnp, found where the package is installed.

In the repository they are the top-level `data/`, `templates/` and `docs/` folders; pyproject.toml maps
them to the packages `pnp.shipped.data`, `pnp.shipped.templates` and `pnp.shipped.docs`, so a wheel installs them beside the
code and they are found beside this file from any working directory.
"""
from __future__ import annotations

from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]


def _folder(name: str) -> Path:
    # Installed from a wheel: the folder inside this package. The packs are read with ordinary
    # paths (YAML, templates), so a zipped install is not supported, and for a package on disk
    # importlib.resources.files() is this folder (importing it cost 0.2 % of a small build).
    installed = Path(__file__).resolve().parent / name
    if installed.is_dir():
        return installed
    # A source checkout (`pip install -e .` maps only `pnp/`): the folder at the top of it.
    return REPOSITORY / name


def data_dir() -> Path:
    """The shipped game packs, one folder per game."""
    return _folder("data")


def templates_dir() -> Path:
    """The shipped templates: `_base/` and one folder per shipped game."""
    return _folder("templates")


def docs_dir() -> Path:
    """The manual: the repository's docs/ (Markdown), read by `pnp docs`."""
    return _folder("docs")
