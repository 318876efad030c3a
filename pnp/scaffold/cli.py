"""`pnp new NAME [--dir DIR]`: write the starter pack (pnp/scaffold/starter/) as DIR/NAME.

The starter is a folder of ordinary files shipped with pnp; `new` copies it and writes the pack's
id and printed name into pack.yaml and text/*.yaml (the `__PACK_ID__` and `__PACK_NAME__`
marks). It never writes into a folder that exists, and writes the pack into a temporary folder
beside the target first, moved into place whole: an interrupted `new` leaves no half pack.
"""
from __future__ import annotations

import shutil
import tempfile
from importlib import resources
from pathlib import Path

import click

from pnp import schema
from pnp.errors import DataError, OutputError, Problem, display_path, os_error_text

PLACEHOLDERS = (".yaml",)       # the files whose marks are filled in
NAME_ERROR = "new.name"         # NAME is not a pack id
EXISTS_ERROR = "new.exists"     # DIR/NAME exists: nothing is written


def starter_dir() -> Path:
    """The starter pack, wherever pnp is installed."""
    return Path(str(resources.files(__package__) / "starter"))


def printed_name(pack_id: str) -> str:
    """The game's first printed name, from its id: "dragon-duel" -> "Dragon Duel"."""
    return " ".join(word.capitalize() for word in pack_id.split("-") if word)


def fill_in(folder: Path, pack_id: str) -> None:
    """Write the pack's id and name over the starter's marks."""
    for file in sorted(folder.rglob("*")):
        if file.suffix in PLACEHOLDERS:
            text = file.read_text(encoding="utf-8")
            text = text.replace("__PACK_ID__", pack_id).replace("__PACK_NAME__", printed_name(pack_id))
            file.write_text(text, encoding="utf-8")


def write_pack(target: Path) -> None:
    """Copy the starter to `target` (which must not exist), filled in for the id `target.name`."""
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent))
    try:
        pack = staging / target.name
        shutil.copytree(starter_dir(), pack)
        fill_in(pack, target.name)
        pack.rename(target)         # refused (OSError) if target appeared meanwhile: nothing overwritten
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _name_problem(name: str) -> Problem | None:
    reason = schema.scalar_problem("slug", name)
    if reason is None:
        return None
    return Problem("pnp new", 0, "NAME", f"{name!r} is not a pack id: {reason} (for example: "
                   "dragon-duel)", code=NAME_ERROR)


@click.command()
@click.argument("name")
@click.option("--dir", "directory", type=click.Path(file_okay=False, path_type=Path), default=Path("."),
              show_default=True, help="The folder to write the pack's folder in.")
def new(name: str, directory: Path) -> None:
    """Write a small complete game as DIR/NAME: two card kinds and a back, cards in a CSV
    spreadsheet, English and Italian, a picture, an SVG sigil, icons for card text and
    composition rules, every file commented. It builds and checks clean as it is:

        pnp new my-game && pnp build my-game --lang all && pnp check my-game

    NAME is the pack's id: lowercase letters, digits and '-'. An existing folder is never
    overwritten."""
    problem = _name_problem(name)
    if problem:
        raise DataError([problem])
    target = directory / name
    if target.exists() or target.is_symlink():
        raise DataError([Problem(display_path(target), 0, "", "exists already: pnp new writes only a new "
                                 "folder and left it as it is (choose another NAME or --dir)", code=EXISTS_ERROR)])
    try:
        write_pack(target)
    except OSError as error:
        raise OutputError(f"pnp new: could not write {display_path(target)}: {os_error_text(error)}") from None
    click.echo(f"wrote {display_path(target)}/ (build it: pnp build {display_path(target)} --lang all)")
