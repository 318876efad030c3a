"""The `pnp check` command (registered in pnp/cli.py with `main.add_command(check)`)."""
from __future__ import annotations

import json

import click

from pnp.check.findings import exit_code
from pnp.check.runner import ALL_CHECKS, check_pack
from pnp.composition.findings import ERROR, WARNING
from pnp.pack import available_packs


@click.command()
@click.argument("games", nargs=-1)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--strict", is_flag=True, help="Warnings fail the check too (exit 1).")
@click.option("--no-print", is_flag=True, help="Skip the print checks (rendering every face: text fit, glyphs, size, "
              "and the text keys only templates ask for, which rendering finds).")
@click.option("--engine", is_flag=True, help="Also play a small fixed-seed batch with the pack's rules engine: "
              "rule points that cannot fire or did not fire (rules.unreachable, rules.unfired).")
def check(games, fmt, strict, no_print, engine):
    """Check GAMES (pack names or folders; default: every shipped game): composition rules from
    each pack's rules.yaml, missing translations, text fit and glyph coverage in every language.

    Exit status: 0 clean, 1 errors (or warnings with --strict), 2 a pack that cannot be used."""
    games = list(games) or [p.name for p in available_packs()]
    checks = ALL_CHECKS - ({"print"} if no_print else set()) | ({"engine"} if engine else set())
    findings = []
    for game in games:
        findings.extend(check_pack(game, checks))
    status = exit_code(findings, strict)
    if fmt == "json":
        payload = {"games": games, "exit": status,
                   "errors": sum(f.severity == ERROR for f in findings),
                   "warnings": sum(f.severity == WARNING for f in findings),
                   "findings": [f.to_dict() for f in findings]}
        click.echo(json.dumps(payload, ensure_ascii=False, indent=2, default=str))   # detail may hold paths
    else:
        for f in findings:
            click.echo(str(f))
        errors = sum(f.severity == ERROR for f in findings)
        warnings = len(findings) - errors
        summary = f"{', '.join(games)}: {errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"
        if status == 2:
            summary += " (cannot be used as it is)"
        click.echo(summary if findings else f"{', '.join(games)}: clean")
    click.get_current_context().exit(status)
