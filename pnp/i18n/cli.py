"""`pnp i18n`: translation status, PO export/import, accept, fit."""
from __future__ import annotations

import json
from pathlib import Path

import click

from pnp.errors import PnpError


def _load(game: str):
    from pnp.pack import load_pack

    return load_pack(game, strict=False)


def _langs(pack, lang: str | None, with_source: bool = True) -> list[str]:
    if lang in (None, "all"):
        return [code for code in pack.languages if with_source or code != pack.source_language]
    if lang not in pack.languages:
        raise PnpError(f"{pack.id}: unknown language {lang!r} (this game has: {', '.join(pack.languages)})")
    return [lang]


@click.group()
def i18n() -> None:
    """Translations: coverage, PO files for translators, text that does not fit."""


@i18n.command()
@click.argument("games", nargs=-1)
@click.option("--keys/--no-keys", default=True, show_default=True, help="List the missing and stale keys.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def status(games, keys, as_json):
    """Coverage per game and language: translated/total, missing and stale texts.

    Stale: the source-language text changed since the translation was imported (or accepted).
    Untracked: translated, but no record of the source it was made from (counted as translated).
    """
    from pnp.i18n.status import pack_status
    from pnp.pack import available_packs

    games = list(games) or [p.name for p in available_packs()]
    everything = {}
    for game in games:
        pack = _load(game)
        rows = pack_status(pack)
        everything[pack.id] = {"source": pack.source_language, "languages": [r.to_dict() for r in rows]}
        if as_json:
            continue
        click.echo(f"{pack.id} (source language: {pack.source_language})")
        for row in rows:
            if row.is_source:
                click.echo(f"  {row.lang}: {row.total}/{row.total} (source)")
                continue
            extra = [f"{len(row.missing)} missing", f"{len(row.stale)} stale"]
            if row.untracked:
                extra.append(f"{len(row.untracked)} untracked")
            if row.obsolete:
                extra.append(f"{len(row.obsolete)} obsolete")
            percent = 100 * row.translated / row.total if row.total else 100
            click.echo(f"  {row.lang}: {row.translated}/{row.total} translated ({percent:.0f}%), {', '.join(extra)}")
            if keys:
                for label, items in (("missing", row.missing), ("stale", row.stale), ("obsolete", row.obsolete)):
                    for key in items:
                        click.echo(f"    {label}: {key}")
    if as_json:
        click.echo(json.dumps(everything, ensure_ascii=False, indent=2))


@i18n.command()
@click.argument("game")
@click.option("--format", "fmt", type=click.Choice(["po"]), default="po", show_default=True)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder for <game>.pot and <lang>.po  [default: output/i18n/<game>]")
def export(game, fmt, out):
    """Write a POT and one PO per translation language (msgctxt = text key)."""
    from pnp.i18n.po import export as export_po

    pack = _load(game)
    out = out or Path("output") / "i18n" / pack.id
    for path in export_po(pack, out):
        click.echo(f"wrote {path}")


@i18n.command(name="import")
@click.argument("game")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
def import_(game, files):
    """Write the translations of PO FILES back into the game's text/<lang>.yaml.

    The language comes from each PO's Language header. Entries that are untranslated or fuzzy
    are skipped. A syntax error (an unterminated string, a misplaced keyword), a control
    character, a translation that drops or invents a {placeholder} or has a stray brace, a plural
    form without {n} that stands for several numbers, an unknown key or a missing plural form
    stops the import (exit 2) with every problem listed; nothing is written then. A translation
    of an older source text is imported, marked stale, with a warning.
    """
    from pnp.errors import location
    from pnp.i18n.po import import_files

    pack = _load(game)
    result = import_files(pack, list(files))
    for warning in result.warnings:
        click.echo(f"{location(warning.file, warning.line, warning.key, severity='warning')} {warning.message} "
                   f"[{warning.code}]", err=True)
    for note in result.notes:
        click.echo(f"note: {note}", err=True)
    for lang, changed in result.changed.items():
        click.echo(f"{lang}: {len(changed)} text{'s' * (len(changed) != 1)} changed, "
                   f"{result.unchanged.get(lang, 0)} unchanged")
    for path in result.files:
        click.echo(f"wrote {path}")


@i18n.command()
@click.argument("game")
@click.option("--lang", default=None, help="Language (default: every translation language).")
@click.argument("keys", nargs=-1)
def accept(game, lang, keys):
    """Mark the present translations (or KEYS) as made from today's source text (clears stale)."""
    from pnp.i18n.status import accept as accept_keys

    pack = _load(game)
    for lang_, count in accept_keys(pack, _langs(pack, lang, with_source=False), list(keys) or None).items():
        click.echo(f"{lang_}: {count} translation{'s' * (count != 1)} marked up to date")


@i18n.command()
@click.argument("game")
@click.option("--lang", default=None, help="Language (default: all declared).")
def fit(game, lang):
    """Texts that overflow their box even at the minimum size, or lack glyphs, per language.

    Exit status 1 when any text does not fit."""
    from pnp.i18n.fit import fit_report

    pack = _load(game)
    report = fit_report(pack, _langs(pack, lang))
    bad = 0
    for lang_, issues in report.items():
        if not issues:
            click.echo(f"{pack.id} [{lang_}]: every text fits")
            continue
        bad += len(issues)
        click.echo(f"{pack.id} [{lang_}]: {len(issues)} problem{'s' * (len(issues) != 1)}")
        for issue in issues:
            if issue.keys:
                label = ", ".join(issue.keys) if issue.exact else "text containing " + ", ".join(issue.keys)
            else:
                label = "text" if issue.issue is not None else "template"
            where = f" ({issue.location[0]}:{issue.location[1]})" if issue.location else ""
            click.echo(f"  {label}{where}: {issue.shown}")
            for place in issue.where[:5]:
                click.echo(f"      on {place}")
            if len(issue.where) > 5:
                click.echo(f"      ... and {len(issue.where) - 5} more")
    fallbacks = [w for w in pack.warnings if w.code == "text.missing" and w.get("language") in report]
    if fallbacks:
        click.echo(f"note: {len(fallbacks)} missing translation{'s' * (len(fallbacks) != 1)} laid out with "
                   "the fallback text (see `pnp i18n status`)", err=True)
    if bad:
        raise click.exceptions.Exit(1)


# ---- pnp i18n lint: glossary terms, one translation per source text, form of address, signs

@i18n.command()
@click.argument("games", nargs=-1)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--strict", is_flag=True, help="Warnings fail the lint too (exit 1).")
def lint(games, fmt, strict):
    """Terms and conventions of every language of GAMES (default: every shipped game and the shared
    sheet words): a glossary term translated another way (text/glossary.yaml, pnp/i18n/glossary.yaml),
    a forbidden variant, one source text translated two ways, a mixed form of address, "x" between
    numbers, the space before "%", a game's text renaming a shared sheet word. With several games,
    also one English text worded two ways by two games.

    Exit status: 0 clean, 1 errors (or warnings with --strict), 2 a pack or glossary that cannot be used."""
    from pnp.check.findings import exit_code
    from pnp.composition.findings import ERROR, WARNING
    from pnp.i18n.lint import lint_across, lint_pack, lint_sheet
    from pnp.pack import available_packs

    names = list(games) or [p.name for p in available_packs()]
    findings = [] if games else lint_sheet()
    packs = [_load(game) for game in names]       # a pack that does not load: its problems, exit 2
    for pack in packs:
        findings.extend(lint_pack(pack))
    if len(packs) > 1 and not any(f.fatal for f in findings):
        findings.extend(lint_across(packs))       # the same English, worded alike in every game
    status = exit_code(findings, strict)
    if fmt == "json":
        click.echo(json.dumps({"games": names, "exit": status, "findings": [f.to_dict() for f in findings]},
                              ensure_ascii=False, indent=2, default=str))
    else:
        for f in findings:
            click.echo(str(f))
        errors = sum(f.severity == ERROR for f in findings)
        warnings = sum(f.severity == WARNING for f in findings)
        label = ", ".join(names) + ("" if games else " and the shared sheet words")
        click.echo(f"{label}: {errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"
                   if findings else f"{label}: clean")
    click.get_current_context().exit(status)
