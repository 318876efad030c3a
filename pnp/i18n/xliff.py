"""XLIFF export and import through translate-toolkit (the `xliff` extra; it writes XLIFF 1.1,
the version its xlifffile declares, and reads 1.1 and 1.2), the second format for translators whose tools (memoQ, Trados, OmegaT,
Crowdin, Weblate...) prefer it to PO.

Export writes the PO catalog of each language (pnp.i18n.po.build_catalog) as translate-toolkit's
PO-flavoured XLIFF (`translate.storage.poxliff`, what its po2xliff writes and Pootle/Weblate read):
one <trans-unit> per text key whose `id` is the key (po2xliff itself drops msgctxt, our key, so
the units are made here), <source>/<target> (no <target> for an untranslated unit),
`approved="no"` for a fuzzy or untranslated entry (import skips a unit not approved), the translator
comments as <note from="developer">, a plural text as a <group restype="x-gettext-plurals"> of
one unit per gettext form (`key[0]`, `key[1]`...), and a one-line box's max-length as the XLIFF
attributes `maxwidth` + `size-unit="char"`.

Import reads the units back into a PO catalog and through the same strict checks as a PO file
(pnp.i18n.po: placeholders, plural forms, control characters, unknown keys, stale sources); each
problem names the .xlf file and the line of the unit it is about.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from pnp.errors import DataError, PnpError, Problem, Problems
from pnp.i18n import po as po_mod
from pnp.outputfiles import write_bytes_atomically
from pnp.pack import Pack

SUFFIX = ".xlf"
XLIFF_EXTRA = "pip install 'pnp[xliff]' (translate-toolkit)"


class XliffUnavailable(PnpError):
    """translate-toolkit is not installed."""


def _toolkit():
    try:
        from translate.misc.multistring import multistring
        from translate.storage import poxliff
    except ImportError as error:     # the optional extra
        raise XliffUnavailable(f"XLIFF needs translate-toolkit: {XLIFF_EXTRA} ({error})") from None
    return poxliff, multistring


def export(pack: Pack, out: Path, uses: dict[str, list[po_mod.Use]] | None = None, force: bool = False) -> list[Path]:
    """`<out>/<lang>.xlf` for every language but the source; a file already there that holds
    translations the game does not have yet is not overwritten unless `force` (as PO export)."""
    made = list(po_mod.catalogs(pack, out, SUFFIX, uses))
    if not force:
        po_mod.refuse_pending(pack, made, _existing)
    out.mkdir(parents=True, exist_ok=True)
    for path, lang, catalog in made:
        write_bytes_atomically(path, xliff_bytes(pack, str(lang), catalog))
    return [path for path, _lang, _catalog in made]


def _existing(pack: Pack, path: Path, problems: Problems) -> list[tuple[str, int, Any]] | None:
    """The units of an XLIFF file about to be overwritten, as (key, line, target)."""
    from babel.messages.pofile import read_po

    found = Problems()
    read = read_xliff(pack, path, found)
    if read is None:
        for problem in found.items:
            problems.add("po.pending", path, problem.line, "", f"cannot be read to tell whether it holds translations "
                         f"not imported yet ({problem.message}): export with --force to overwrite it")
        return None
    text, lines = read
    return [(message.context, lines.get(message.context, 0), message.string)
            for message in read_po(text.split("\n")) if message.id and message.context]


def xliff_bytes(pack: Pack, lang: str, catalog) -> bytes:
    poxliff, multistring = _toolkit()
    store = poxliff.PoXliffFile(sourcelanguage=pack.source_language, targetlanguage=lang)
    name = f"{pack.id}.pot"
    for message in catalog:
        if not message.id:
            continue
        source: Any = multistring(list(message.id)) if message.pluralizable else message.id
        unit = poxliff.PoXliffUnit(source)
        string = message.string
        unit.target = multistring(list(string)) if message.pluralizable else string
        unit.setid(message.context)
        for comment in message.auto_comments:
            unit.addnote(comment, origin="developer")
        for file, line in message.locations:
            unit.addlocation(f"{file}:{line}")
        store.addunit(unit)
        translated = any(string) if message.pluralizable else bool(string)
        unit.markfuzzy(message.fuzzy)
        if not translated:
            unit.markapproved(False)
        limit = next((flag.split(":", 1)[1] for flag in message.flags if flag.startswith("max-length:")), None)
        for element in _elements(unit):
            element.set("resname", message.context)
            if limit is not None:
                element.set("maxwidth", limit)
                element.set("size-unit", "char")
            if message.fuzzy or not translated:
                element.set("approved", "no")
            if not translated:               # no translation: no <target> (not an empty "translated" one)
                for target in [child for child in element if child.tag.endswith("target")]:
                    element.remove(target)
    store.setfilename(store.getfilenode("NoName"), name)
    return bytes(store)


def _elements(unit) -> list:
    """The <trans-unit> elements of a unit (a plural unit is a group of them)."""
    element = unit.xmlelement
    if element.tag.endswith("group"):
        return [child for child in element if child.tag.endswith("trans-unit")]
    return [element]


def read_xliff(pack: Pack, path: Path, problems: Problems) -> tuple[str, dict[str, int]] | None:
    """The file as the text of a PO file (for the PO reader) and the line of each key's unit."""
    poxliff, _multistring = _toolkit()
    try:
        store = poxliff.PoXliffFile.parsestring(path.read_bytes())
    except Exception as error:       # lxml's XMLSyntaxError and the toolkit's own: a file that is not XLIFF
        line = getattr(error, "lineno", 0) or 0
        problems.add("po.syntax", path, line, "", f"cannot read XLIFF: {error}")
        return None
    lang = store.gettargetlanguage() or ""
    if not lang:
        problems.add("po.language", path, 1, "target-language", "the <file> element has no target-language")
        return None
    from babel.messages.catalog import Catalog, Message

    from pnp.i18n.plurals import gettext_plurals

    catalog = Catalog(locale=lang.replace("-", "_"), charset="utf-8", fuzzy=False)
    try:
        nplurals, expr, _cats = gettext_plurals(lang)
        catalog.mime_headers = [("Plural-Forms", f"nplurals={nplurals}; plural={expr};")]
    except ValueError:
        pass                          # an unknown language: the PO reader says so
    lines: dict[str, int] = {}
    for unit in store.units:
        if unit.isheader():
            continue
        key = unit.getid().split("\x04")[-1]
        lines[key] = unit.xmlelement.sourceline or 0
        if unit.hasplural():
            sources = [str(s) for s in unit.source.strings]
            targets = [str(s) for s in unit.target.strings] if unit.target is not None else []
            msgid: Any = (sources[0], sources[1] if len(sources) > 1 else sources[0])
            string: Any = tuple(targets)
        else:
            msgid, string = str(unit.source), str(unit.target or "")
        notes = [n for n in (unit.getnotes("developer") or "").split("\n") if n]
        message = Message(msgid, string, context=key, auto_comments=notes,
                          flags={"fuzzy"} if unit.isfuzzy() else set())
        catalog[msgid] = message
    from io import BytesIO

    from babel.messages.pofile import write_po

    buffer = BytesIO()
    write_po(buffer, catalog, width=0, omit_header=False)
    return buffer.getvalue().decode("utf-8"), lines


def import_files(pack: Pack, files: list[Path]) -> po_mod.ImportResult:
    """Import XLIFF files (and PO files among them) with the PO importer's checks; problems name
    the .xlf file and the line of the unit."""
    problems = Problems()
    converted: dict[Path, tuple[Path, dict[str, int]]] = {}
    po_files: list[Path] = []
    import tempfile

    with tempfile.TemporaryDirectory(prefix="pnp-xliff-") as folder:
        for index, path in enumerate(files):
            if path.suffix.lower() not in (SUFFIX, ".xliff"):
                po_files.append(path)
                continue
            read = read_xliff(pack, path, problems)
            if read is None:
                continue
            target = Path(folder) / f"{index}-{path.stem}.po"
            target.write_text(read[0], encoding="utf-8")
            converted[target] = (path, read[1])
            po_files.append(target)
        problems.raise_if_any()
        try:
            return _renamed(po_mod.import_files(pack, po_files), converted)
        except DataError as error:
            raise type(error)([_where(p, converted) for p in error.problems]) from None


def _where(problem: Problem, converted: dict[Path, tuple[Path, dict[str, int]]]) -> Problem:
    """A problem about a converted file, at the .xlf file and its unit's line (and a converted
    file its message names, as that .xlf file)."""
    other_line = problem.get("other_line")
    for temp, (path, lines) in converted.items():
        shown = po_mod.display_path(temp)
        if f"{shown}:{other_line}" in problem.message:       # po.conflict: the other file's unit
            problem = replace(problem, message=problem.message.replace(
                f"{shown}:{other_line}", f"{po_mod.display_path(path)}:{lines.get(problem.key, 0)}"))
    for temp, (path, lines) in converted.items():
        if str(problem.file) in (str(temp), po_mod.display_path(temp)):
            return replace(problem, file=str(path), line=lines.get(problem.key, 0))
    return problem


def _renamed(result: po_mod.ImportResult, converted) -> po_mod.ImportResult:
    result.warnings = [_where(w, converted) for w in result.warnings]
    for temp, (path, _lines) in converted.items():
        shown = po_mod.display_path(temp)
        result.notes = [_xliff_words(note.replace(shown, po_mod.display_path(path)).replace(str(temp), str(path)))
                        if shown in note or str(temp) in note else note for note in result.notes]
    return result


def _xliff_words(note: str) -> str:
    """A PO importer's note in XLIFF's words: a fuzzy entry is a unit not approved."""
    return note.replace("fuzzy entries not imported (review them and clear the fuzzy flag)",
                        'units not approved, not imported (review them and set approved="yes")') \
        .replace("fuzzy entry not imported (review them and clear the fuzzy flag)",
                 'unit not approved, not imported (review it and set approved="yes")')
