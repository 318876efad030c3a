"""`pnp export GAME --to PRESET`: the cards as a print shop or a digital table takes them."""
from __future__ import annotations

from pathlib import Path

import click


def _preset_help() -> str:
    from pnp.export.presets import shipped_presets
    return "; ".join(f"{name}: {preset.doc}" for name, preset in shipped_presets().items())


@click.command(epilog="Presets are data: pnp/export/presets.yaml; `pnp docs export` says how to upload each.")
@click.argument("game")
@click.option("--to", "preset", required=True, metavar="PRESET", help="dtc, mpc, tgc, tts or png (see below).")
@click.option("--lang", default="all", show_default=True, help="Language code, or 'all' for every declared language.")
@click.option("--out", type=click.Path(path_type=Path), metavar="DIRECTORY", default=Path("output"),
              show_default=True, help="Written below DIRECTORY/<game>/export-<preset>/<lang>/.")
@click.option("--dpi", type=click.IntRange(36, 1200), default=None,
              help="Resolution of the PNGs (default: the preset's, 300); tts renders every card at it.")
@click.option("--icc", type=click.Path(path_type=Path), metavar="FILE", default=None,
              help="CMYK output profile for dtc (default: Ghostscript's Artifex CMYK SWOP profile).")
@click.option("--strict", is_flag=True, help="Fail on a missing translation instead of printing the source text.")
def export(game, preset, lang, out, dpi, icc, strict):
    """Export GAME's cards for a print shop (dtc, mpc, tgc), Tabletop Simulator (tts) or as PNGs (png)."""
    from pnp.export.run import ExportOptions
    from pnp.export.run import export as run_export

    result = run_export(game, ExportOptions(preset=preset, lang=lang, out=out, dpi=dpi, icc=icc, strict=strict))
    if result.cleaned:
        click.echo(f"removed {result.cleaned} leftover temp file{'s' * (result.cleaned != 1)} "
                   "of an interrupted export", err=True)
    for warning in result.warnings:
        click.echo(f"warning: {warning}", err=True)
    if result.removed:
        click.echo(f"removed {result.removed} file{'s' * (result.removed != 1)} of the previous export "
                   "that this one no longer writes", err=True)
    click.echo(f"wrote {len(result.files)} file{'s' * (len(result.files) != 1)} for {result.preset.name} "
               f"in {result.folder}")
    if result.tuckboxes:
        click.echo(f"tuck boxes for these cards, to print at home (not part of the {result.preset.name} upload): "
                   f"{result.tuckboxes[0].parent.parent}")
