"""`pnp docs`: the manual (the repository's docs/ folder, installed inside the package as
pnp.shipped.docs), listed or printed, so that a user of the wheel can read what pnp's messages,
starter files and help name (`pnp docs reference`, `pnp docs rules/zombie-run`)."""
from __future__ import annotations

from pathlib import Path

import click

from pnp.errors import PnpError
from pnp.schema import did_you_mean
from pnp.shipped import docs_dir


class UnknownDocument(PnpError):
    """A name `pnp docs` has no document for."""


def documents() -> dict[str, Path]:
    """Every document by name: its path below docs/ without `.md` (`reference`, `rules/cimiterio`),
    then the rules documents of installed engines that pnp does not ship (`engine_documents`)."""
    root = docs_dir()
    shipped = {path.relative_to(root).with_suffix("").as_posix(): path for path in sorted(root.rglob("*.md"))}
    return {**shipped, **engine_documents(set(shipped))}


def engine_documents(known: set[str]) -> dict[str, Path]:
    """`rules/<engine>` for each installed engine whose class names its rules in `rules_doc` (a
    Markdown file beside the engine's module, or an absolute path), unless `known` has that name.
    An engine that does not load is left out: `pnp check` and the engine commands say why."""
    import inspect

    from pnp.engines.core import RecordError, game_names, get_game
    found = {}
    for name in game_names():
        if f"rules/{name}" in known:
            continue
        try:
            cls = get_game(name)
        except RecordError:
            continue
        doc = getattr(cls, "rules_doc", None)
        if doc:
            path = Path(inspect.getfile(cls)).parent / doc    # an absolute `doc` stays itself
            if path.is_file():
                found[f"rules/{name}"] = path
    return found


def title(path: Path) -> str:
    """The document's first heading."""
    with path.open(encoding="utf-8") as file:
        for line in file:
            if line.startswith("# "):
                return line[2:].strip()
    return ""


@click.command()
@click.argument("name", required=False)
def docs(name: str | None) -> None:
    """Print the manual's document NAME (Markdown); without NAME, list them all."""
    found = documents()
    if name is None:
        width = max(map(len, found), default=0)
        for key, path in found.items():
            click.echo(f"{key:{width}s}  {title(path)}")
        click.echo(f"(in {docs_dir()}, and an installed engine's own rules; `pnp docs NAME` prints one)")
        return
    chosen = found.get(name.removesuffix(".md").removeprefix("docs/"))
    if chosen is None:
        raise UnknownDocument(f"no document {name!r} (the documents: {', '.join(found)}"
                              f"{did_you_mean(name, list(found))})")
    click.echo(chosen.read_text(encoding="utf-8"), nl=False)
