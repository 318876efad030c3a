"""`pnp i18n`: translation status, PO export/import, accept, fit."""
from __future__ import annotations

import json
from pathlib import Path

import click

from pnp.errors import PnpError
from pnp.print_constants import FLIPS, LAYOUTS, MAX_PRINTER_MARGIN_MM, PAPERS, PRINTER_MARGIN_MM


def _load(game: str):
    from pnp.pack import load_pack

    return load_pack(game, strict=False)


def _editable(pack):
    """The pack, when its files may be written; a game inside the installed package is refused:
    pip owns those files, and a reinstall or upgrade would silently undo the edit."""
    import pnp.shipped

    installed = Path(pnp.shipped.__file__).resolve().parent
    if pack.root.resolve().is_relative_to(installed):
        raise PnpError(
            f"{pack.id}: this game is installed inside pnp ({pack.root}); pnp does not write there, "
            f"since reinstalling pnp would undo it. Copy the game to a folder of your own and "
            f"name that folder instead:\n  cp -r {pack.root} {pack.id}\n  pnp i18n ... {pack.id} ...")
    return pack


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
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="json: machine-readable, as check, fit and lint write it.")
@click.option("--json", "as_json", is_flag=True, hidden=True, help="The same as --format json.")
def status(games, keys, fmt, as_json):
    """Coverage per game and language: translated/total, missing and stale texts.

    Stale: the source-language text changed since the translation was imported (or accepted).
    Untracked: translated, but no record of the source it was made from (counted as translated).
    Sheet words: in a language pnp has no sheet words for, how many of the shared ones (print line,
    page labels, cut/fold/glue legend...) print in English, and the file to write them in.
    """
    from pnp.i18n.status import pack_status
    from pnp.pack import available_packs

    as_json = as_json or fmt == "json"
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
            if row.sheet_line():
                click.echo(f"    {row.sheet_line()}")
            if keys:
                for label, items in (("missing", row.missing), ("stale", row.stale), ("obsolete", row.obsolete)):
                    for key in items:
                        click.echo(f"    {label}: {key}")
    if as_json:
        click.echo(json.dumps(everything, ensure_ascii=False, indent=2))


@i18n.command()
@click.argument("game")
@click.option("--format", "fmt", type=click.Choice(["po", "xliff"]), default="po", show_default=True,
              help="po: <game>.pot and <lang>.po (gettext); xliff: <lang>.xlf (XLIFF 1.1, needs pnp[xliff]).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder for the files  [default: output/i18n/<game>]")
@click.option("--paper", default="a4", show_default=True, help="Paper the components are laid out on, for "
              "the boxes the comments name.")
@click.option("--places/--no-places", default=True, show_default=True,
              help="Say where each text is printed, its box and max-length (lays the game out once).")
@click.option("--force", is_flag=True, help="Overwrite files that hold translations not imported yet.")
def export(game, fmt, out, paper, places, force):
    """Write a POT and one PO (or one XLIFF) per translation language (msgctxt / unit id = text key).

    Each entry says where its text is printed (card and face, component and page) and in what
    box; a box of one line gives it Weblate's max-length flag (XLIFF: maxwidth).

    A PO or XLIFF file already in the folder that holds translations the game does not have yet
    (work not imported) is not overwritten: the export stops (exit 2) naming each such file, how
    many entries and which keys; import it first, or pass --force to overwrite it. Right after an
    import nothing is pending and the export just writes."""
    from pnp.i18n.po import export as export_po
    from pnp.i18n.po import printed_uses

    pack = _load(game)
    out = out or Path("output") / "i18n" / pack.id
    uses = printed_uses(pack, paper) if places else None
    if fmt == "xliff":
        from pnp.i18n.xliff import export as export_xliff

        written = export_xliff(pack, out, uses, force)
    else:
        written = export_po(pack, out, uses, force)
    for path in written:
        click.echo(f"wrote {path}")


@i18n.command(name="import")
@click.argument("game")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
def import_(game, files):
    """Write the translations of PO or XLIFF FILES (.po, .xlf) back into the game's text/<lang>.yaml.

    The language comes from each PO's Language header (without one, from its file name: es.po is
    Spanish; XLIFF: target-language). Entries that are
    untranslated or fuzzy are skipped. A syntax error (an unterminated string, a misplaced keyword), a control
    character, a translation that drops or invents a {placeholder} or has a stray brace, a plural
    form without {n} that stands for several numbers, an unknown key or a missing plural form
    stops the import (exit 2) with every problem listed; nothing is written then; so do two files
    giving one key of one language two translations. A translation of an older source text is
    imported, marked stale, with a warning; but not over a translation made from today's source
    (an old PO imported again): that one is kept, and the entry counted "not imported".

    Every text is written so that it reads back as exactly the same string (quoted when YAML would
    read it as a number, yes/no, a date, null...).
    """
    from pnp.errors import location
    from pnp.i18n.po import import_files

    pack = _editable(_load(game))
    if any(path.suffix.lower() in (".xlf", ".xliff") for path in files):
        from pnp.i18n.xliff import import_files as import_any

        result = import_any(pack, list(files))
    else:
        result = import_files(pack, list(files))
    for warning in result.warnings:
        click.echo(f"{location(warning.file, warning.line, warning.key, severity='warning')} {warning.message} "
                   f"[{warning.code}]", err=True)
    for note in result.notes:
        click.echo(f"note: {note}", err=True)
    for lang, changed in result.changed.items():
        held = result.not_imported.get(lang, 0)
        click.echo(f"{lang}: {len(changed)} text{'s' * (len(changed) != 1)} changed, "
                   f"{result.unchanged.get(lang, 0)} unchanged"
                   + (f", {held} not imported (see the warnings)" if held else ""))
    for path in result.files:
        click.echo(f"wrote {path}")


@i18n.command()
@click.argument("game")
@click.option("--lang", default=None, help="Language (default: every translation language).")
@click.argument("keys", nargs=-1)
def accept(game, lang, keys):
    """Mark the present translations (or KEYS) as made from today's source text (clears stale).

    Without --lang, every translation language. Each language's line names the stale keys marked
    up to date (the first ten, then a count), how many untracked translations got a
    record and how many were up to date already. An unknown key stops it (exit 2, with a guess)
    before anything is written."""
    from pnp.i18n.status import accept as accept_keys

    pack = _editable(_load(game))
    for lang_, done in accept_keys(pack, _langs(pack, lang, with_source=False), list(keys) or None).items():
        parts = [f"{len(done.stale)} stale translation{'s' * (len(done.stale) != 1)} marked up to date"
                 + (f" ({_listed(done.stale)})" if done.stale else "")]
        if done.untracked:
            parts.append(f"{len(done.untracked)} untracked recorded as up to date ({_listed(done.untracked)})")
        parts.append(f"{done.current} already up to date")
        if done.absent:
            parts.append(f"no {lang_} text for {_listed(done.absent)}: nothing to accept")
        click.echo(f"{lang_}: " + ", ".join(parts))


ACCEPT_SHOWN = 10      # keys `accept` names per language and kind; then "and N more"


def _listed(keys: list[str]) -> str:
    more = len(keys) - ACCEPT_SHOWN
    return ", ".join(keys[:ACCEPT_SHOWN]) + (f" and {more} more" if more > 0 else "")


@i18n.command()
@click.argument("game")
@click.option("--lang", default=None, help="Language (default: all declared).")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True,
              help="table: one row per printed text; json: the same, machine-readable.")
@click.option("--paper", type=click.Choice(PAPERS), default="a4", show_default=True,
              help="Paper everything is laid out on.")
@click.option("--layout", type=click.Choice(LAYOUTS), default="duplex", show_default=True,
              help="Card sheet layout, as `pnp build --layout` (its margins hold the sheet text).")
@click.option("--flip", type=click.Choice(FLIPS), default="long", show_default=True,
              help="Duplex flip edge, as `pnp build --flip` (the print line names it).")
@click.option("--printer-margin", type=click.FloatRange(0, MAX_PRINTER_MARGIN_MM), default=PRINTER_MARGIN_MM,
              show_default=True, metavar="MM", help="As `pnp build --printer-margin`: the card sheets' margins.")
@click.option("--findings", "only_findings", is_flag=True, help="List only the texts with a finding.")
@click.option("--strict", is_flag=True, help="Exit 1 on text under the floor too (text.small).")
def fit(game, lang, fmt, paper, layout, flip, printer_margin, only_findings, strict):
    """Every printed text per language (cards, player aids, boards, the mat, parts, tuck boxes, and
    the sheet text in the margins of card sheets, component pages and the calibration sheet):
    where it is, its key, its box (mm), the size it got against the size asked for (pt), its
    lines, and a finding when it prints under the pack's floor (pack.yaml text_floor_pt, default
    6 pt: text.small) or does not fit even at its minimum size (text.fit; sheet text that fits no
    margin is left off the page).

    Exit status 1 when any text does not fit or lacks glyphs (with --strict: or is under the floor)."""
    from pnp.i18n.fit import language_fit
    from pnp.sheets.sprues import NoLayoutError

    pack = _load(game)
    try:
        reports = [language_fit(pack, lang_, paper, layout, flip, printer_margin) for lang_ in _langs(pack, lang)]
    except NoLayoutError as error:
        raise PnpError(f"{pack.id}: {error} (try another --paper or --layout, or a smaller --printer-margin)") \
            from None
    bad = sum(len(r.problems) for r in reports) + sum(1 for r in reports for _, f in r.findings
                                                      if strict or f.code == "text.fit")
    if fmt == "json":
        click.echo(json.dumps({"game": pack.id, "paper": paper, "languages": [_fit_json(r, only_findings)
                                                                               for r in reports]},
                              ensure_ascii=False, indent=2))
    else:
        for report in reports:
            _fit_table(pack, report, only_findings)
    fallbacks = [w for w in pack.warnings if w.code == "text.missing" and w.get("language") in
                 {r.lang for r in reports}]
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


def _fit_json(report, only_findings: bool) -> dict:
    return {"lang": report.lang, "floor_pt": report.floor_pt,
            "texts": [t.to_dict() for t in report.texts if t.findings or not only_findings],
            "problems": [{"message": p.message, "keys": p.keys, "exact": p.exact, "where": p.where,
                          "code": p.issue.code if p.issue else None,
                          "location": list(p.location) if p.location else None} for p in report.problems]}


def _fit_table(pack, report, only_findings: bool) -> None:
    findings = report.findings
    shrunk = sum(1 for t in report.texts if t.box.shrunk)
    click.echo(f"{pack.id} [{report.lang}]: {len(report.texts)} printed texts, {shrunk} shrunk, "
               f"{len(findings)} under the {report.floor_pt:g} pt floor or not fitting")
    rows = [t for t in report.texts if t.findings or not only_findings]
    if rows:
        header = ("where", "key", "box mm", "pt (asked)", "lines", "text / finding")
        table = [header] + [_fit_row(t) for t in rows]
        widths = [min(60, max(len(row[i]) for row in table)) for i in range(len(header) - 1)]
        for row in table:
            cells = [cell[:w].ljust(w) for cell, w in zip(row, widths)]
            click.echo("  " + "  ".join(cells + [row[-1]]).rstrip())
    if report.problems:
        click.echo(f"{pack.id} [{report.lang}]: {len(report.problems)} problem{'s' * (len(report.problems) != 1)}")
    elif not findings:
        click.echo(f"{pack.id} [{report.lang}]: every text fits")
    for issue in report.problems:
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


def _fit_row(text) -> tuple[str, ...]:
    box = text.box
    where = text.where + (f" +{len(text.also)}" if text.also else "")
    if text.what:
        where += f" · {text.what}"
    size = "?" if box.size_pt is None else f"{box.size_pt:g}"
    asked = f" ({box.nominal_pt:g})" if box.nominal_pt is not None and box.shrunk else ""
    shown = " / ".join(box.lines) if box.lines else box.text
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    notes = "; ".join(f"{f.code} at {f.file}:{f.line}" for f in text.findings)
    key = text.key or ("~" + ", ".join(text.contains) if text.contains else "-")
    return (where, key, f"{box.box_mm[0]:.1f}x{box.box_mm[1]:.1f}", size + asked, str(len(box.lines)),
            shown + (f"  <- {notes}" if notes else ""))
