"""The `pnp` command."""
from __future__ import annotations

import errno
import gc
import importlib
import sys
from pathlib import Path

import click

from pnp import collector
from pnp.errors import InternalError, OutputError, PnpError, display_path, os_error_text
from pnp.i18n.sheet import languages as sheet_languages
from pnp.print_constants import (
    CALIBRATION_SCALE_MM,
    FLIPS,
    LAYOUTS,
    MAX_BACK_OFFSET_MM,
    MAX_PRINTER_MARGIN_MM,
    PAPERS,
    PRINTER_MARGIN_MM,
)

# Commands of other packages, imported only when they run (or --help lists them): starting pnp
# stays light, and `pnp build` never imports the engines, the checker's CLI or the server.
LAZY_COMMANDS = {
    "check": "pnp.check.cli:check",
    "i18n": "pnp.i18n.cli:i18n",
    "replay": "pnp.engines.cli:replay",
    "simulate": "pnp.engines.cli:simulate",
    "playtest": "pnp.engines.cli:playtest",
    "serve": "pnp.serve.cli:serve",
    "export": "pnp.export.cli:export",
    "new": "pnp.scaffold.cli:new",
    "docs": "pnp.manual:docs",
}


def _offset(ctx, param, value: str) -> tuple[float, float]:
    try:
        x, y = (float(part) for part in value.split(","))
    except ValueError:
        raise click.BadParameter(f"expected X,Y in millimetres such as 0.5,-1, got {value!r}") from None
    limit = MAX_BACK_OFFSET_MM
    if not (abs(x) <= limit and abs(y) <= limit):           # also refuses nan
        raise click.BadParameter(f"{value!r}: each of X and Y within -{limit:g}..{limit:g} mm (`pnp calibrate` "
                                 f"reads up to {CALIBRATION_SCALE_MM:g} mm; a larger shift would move the backs "
                                 "off their fronts)")
    return x, y


class PnpGroup(click.Group):
    """The `pnp` group: whatever a command fails with ends as one message and exit 2, never a
    traceback. Commands say themselves what they could not write (OutputError); an OSError that
    reaches here still names its file and reason, and a RecursionError or MemoryError gets a last
    resort message asking for a report. Ctrl-C stays click's ("Aborted!")."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *LAZY_COMMANDS])

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in LAZY_COMMANDS:
            module, attr = LAZY_COMMANDS[name].split(":")
            return getattr(importlib.import_module(module), attr)
        return super().get_command(ctx, name)

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except OSError as error:
            if error.errno == errno.EPIPE:          # `pnp list | head`: click's own quiet exit
                raise
            raise PnpError(f"pnp {ctx.invoked_subcommand or ''}: {os_error_text(error)}") from None
        except (RecursionError, MemoryError) as error:
            raise InternalError.from_exception(error, ctx.invoked_subcommand or "") from None


def run() -> None:
    """The `pnp` console script: `main`, in a process that ends with its one command (so its
    modules may be frozen out of garbage collection: see `build`). `main` called from Python
    (tests, a designer's script) leaves the collector as it found it."""
    global _ONE_COMMAND
    _ONE_COMMAND = True
    main()


_ONE_COMMAND = False      # set by `run`


@click.group(cls=PnpGroup)
@click.version_option(package_name="pnp")
def main() -> None:
    """pnp: print-and-play forge for tabletop games."""


@main.command()
@click.argument("games", nargs=-1)
@click.option("--lang", default="all", show_default=True, help="Language code, or 'all' for every declared language.")
@click.option("--paper", type=click.Choice(PAPERS), default="a4", show_default=True)
@click.option("--layout", type=click.Choice(LAYOUTS), default="duplex", show_default=True)
@click.option("--flip", type=click.Choice(FLIPS), default="long", show_default=True,
              help="Duplex flip edge your printer uses.")
@click.option("--back-offset", default="0,0", callback=_offset, show_default=True,
              help="X,Y mm shift of every back page (read it off `pnp calibrate`).")
@click.option("--printer-margin", type=click.FloatRange(0, MAX_PRINTER_MARGIN_MM), default=PRINTER_MARGIN_MM,
              show_default=True, metavar="MM",
              help="Your printer's dead zone at the paper edge: crop marks, art and text stay outside it.")
@click.option("--out", type=click.Path(path_type=Path), metavar="DIRECTORY", default=Path("output"),
              show_default=True)
@click.option("--png", is_flag=True, help="Also write PNG previews: one per card face and a contact sheet per deck.")
@click.option("--mat", is_flag=True, help="Also write the full-size play mats a game declares, tiled across pages.")
@click.option("--force", is_flag=True, help="Print even if `pnp check` finds errors in the deck's composition.")
@click.option("--strict", is_flag=True, help="Fail on a missing translation instead of printing the English text.")
@click.option("--digits", type=click.Choice(["latin", "arabic-indic"]), default=None,
              help="Digits of the right-to-left languages (default: pack.yaml's `digits`, else latin).")
@click.option("--no-cache", "no_cache", is_flag=True,
              help="Draw every face afresh: neither read nor fill the face cache (PNP_CACHE_DIR/faces).")
@click.option("--watch", is_flag=True,
              help="Build, then build again on every save, redrawing only the faces that changed (Ctrl-C stops).")
def build(games, lang, paper, layout, flip, back_offset, printer_margin, out, png, mat, force, strict, no_cache,
          watch, digits):
    """Build printable PDFs for GAMES (pack names or pack folders; default: every shipped game)."""
    with collector.paused():
        from pnp import build as build_module
        from pnp.pack import available_packs
    if _ONE_COMMAND:
        # Everything alive now (the modules imported) stays alive to the end: left out of the
        # collector's passes, which would walk it again at each full collection, and at exit.
        gc.freeze()

    games = list(games) or [p.name for p in available_packs()]
    if not games:
        raise PnpError("no games to build: data/ holds no packs")
    options = build_module.BuildOptions(lang=lang, paper=paper, layout=layout, flip=flip,
                                        back_offset_mm=back_offset, printer_margin_mm=printer_margin, out=out,
                                        png=png, mat=mat, force=force, strict=strict, cache=not no_cache,
                                        digits=digits)
    from pnp.progress import BuildProgress

    if watch:
        from pnp.watch import watch as watch_builds

        try:
            watch_builds(games, options, lambda line: click.echo(line, err=True),
                         progress=lambda: BuildProgress.for_stream(sys.stderr), report=_build_report)
        except KeyboardInterrupt:
            pass
        click.echo("stopped watching", err=True)
        return
    _build_report(build_module.build(games, options, BuildProgress.for_stream(sys.stderr)))


def _build_report(result) -> None:
    """What `pnp build` says about a build: leftovers removed, warnings, the files written."""
    if result.cleaned:
        click.echo(f"removed {result.cleaned} leftover temp file{'s' * (result.cleaned != 1)} "
                   "of an interrupted build", err=True)
    for warning in result.warnings:
        click.echo(f"warning: {warning}", err=True)
    for path in result.files:
        if path.suffix == ".pdf":
            click.echo(f"wrote {path}")
    pngs = sum(1 for p in result.files if p.suffix == ".png")
    if pngs:
        click.echo(f"wrote {pngs} PNG previews")


@main.command(name="list")
@click.argument("games", nargs=-1)
def list_games(games):
    """Show games, their components, card counts and languages."""
    from pnp.pack import available_packs, load_pack
    from pnp.units import pt_to_mm

    paths = list(games) or [p.name for p in available_packs()]
    for name in paths:
        pack = load_pack(name)
        lang = pack.source_language
        title = pack.texts[lang].get(pack.name, pack.name)
        players = f"{pack.players.get('min')}-{pack.players.get('max')} players"
        click.echo(f"{pack.id}: {title} ({players}; languages: {', '.join(pack.languages)})")
        total = 0
        for deck in pack.decks:
            kinds: dict[str, int] = {}
            for card in deck.cards:
                kinds[card.kind] = kinds.get(card.kind, 0) + 1
            total += len(deck.cards)
            w, h = (round(pt_to_mm(v), 1) for v in deck.size_pt)
            detail = ", ".join(f"{n} {k}" for k, n in kinds.items())
            click.echo(f"  deck {deck.id}: {len(deck.cards)} cards, {w:g}x{h:g} mm ({detail})")
        click.echo(f"  {total} cards in all")
        for name_, value in pack.collections.items():
            size = f"{len(value)} entries" if isinstance(value, (list, dict)) else "data"
            click.echo(f"  data {name_}: {size}")
        if pack.components:
            click.echo(f"  components: {', '.join(entry['type'] for entry in pack.components)}")
        if pack.engine:
            click.echo(f"  rules engine: {pack.engine}")


@main.command()
@click.option("--paper", type=click.Choice(PAPERS), default="a4", show_default=True)
@click.option("--flip", type=click.Choice(FLIPS), default="long", show_default=True)
@click.option("--lang", type=click.Choice(sheet_languages()), default="en", show_default=True,
              help="Language of the sheet's instructions.")
@click.option("--out", type=click.Path(path_type=Path), metavar="DIRECTORY", default=Path("output"),
              show_default=True)
def calibrate(paper, flip, lang, out):
    """Write a two-sided test sheet to measure your printer's duplex drift."""
    from pnp.sheets.pdfcommon import remove_leftovers
    from pnp.sheets.pdfwriter import write_calibration_pdf
    from pnp.text import fonts

    if out.exists() and not out.is_dir():
        raise OutputError(f"--out {display_path(out)}: is a file, not a folder")
    target = out / (f"calibrate-{paper}-{flip}.pdf" if lang == "en" else f"calibrate-{lang}-{paper}-{flip}.pdf")
    try:
        out.mkdir(parents=True, exist_ok=True)
        remove_leftovers(out, recursive=False)      # a sheet an interrupted run left half-written
        write_calibration_pdf(target, paper=paper, flip=flip, lang=lang, font=fonts.register("regular"))
    except OSError as error:
        raise OutputError.writing(error) from None
    click.echo(f"wrote {target}")
    click.echo("Print it double-sided at 100%, hold it to the light and read the offset; "
               "then build with --back-offset X,Y")


@main.command(name="schema")
@click.argument("game", required=False)
@click.option("--json", "as_json", is_flag=True,
              help="Write JSON Schemas (and yaml-schemas.json for an editor's YAML language server).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("schemas"), show_default=True,
              help="Folder for --json.")
def schema_command(game, as_json, out):
    """Print the data reference: every file, key, type, default and meaning (docs/reference.md).
    With --json, write JSON Schemas instead; with GAME, also for that pack's collections and cards."""
    from pnp import schemadoc
    from pnp.pack import find_pack

    if not as_json:
        click.echo(schemadoc.reference(), nl=False)
        return
    for path in schemadoc.write_json_schemas(out, find_pack(game) if game else None):
        click.echo(f"wrote {path}")


if __name__ == "__main__":
    sys.exit(main())
