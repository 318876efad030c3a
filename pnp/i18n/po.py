"""PO/POT export and import (Babel's `pofile`), the formats translators' tools (Poedit, Weblate,
Lokalize, OmegaT, Crowdin...) read and write.

One entry per text key of the source language (the pack's first language), in file order:
- `msgctxt` the dotted key, `msgid` the source text, `msgstr` the translation;
- a plural text has `msgid` (the source's `one` form, else its first) and `msgid_plural` (the
  source's `other` form) and one `msgstr[i]` per gettext form of the target language, in the order
  of the `Plural-Forms` header Babel writes for it; extracted comments say which CLDR category and
  numbers each index stands for;
- `#. source-hash: ...` the hash of the source text the entry was exported from (see `hashes`);
- `#, python-brace-format` when the text has `{placeholders}` (so `msgfmt --check` checks them);
  `#, fuzzy` when the current translation is stale;
- `#: text/<source>.yaml:<line>` where the source text is.
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po, write_po

from pnp.errors import DataError, Problem, display_path
from pnp.i18n import hashes as hashes_mod
from pnp.i18n.placeholders import placeholders
from pnp.i18n.plurals import (
    CATEGORIES,
    PluralText,
    check_forms,
    describe_examples,
    gettext_plurals,
    required_categories,
)
from pnp.i18n.yamledit import YamlEditError, set_texts
from pnp.pack import Pack

HASH_COMMENT = re.compile(r"^source-hash:\s*(\S+)\s*$")


def source_keys(pack: Pack) -> list[str]:
    """The source language's keys in file order."""
    return list(pack.text_locations.get(pack.source_language, {}))


def own_text(pack: Pack, lang: str, key: str):
    """The text `lang`'s own file has for `key` (None if missing: fallbacks do not count)."""
    if key in pack.text_locations.get(lang, {}):
        return pack.texts[lang][key]
    return None


def _ids(source) -> str | tuple[str, str]:
    if isinstance(source, PluralText):
        forms = source.forms
        singular = forms.get("one", next(iter(forms.values())))
        return singular, forms.get("other", str(source))
    return str(source)


def _source_placeholders(source) -> set[str]:
    forms = source.forms.values() if isinstance(source, PluralText) else [str(source)]
    return set().union(*(placeholders(f) for f in forms))


def _date(pack: Pack) -> dt.datetime:
    """Deterministic dates: the newest text file's modification time."""
    files = [pack.root / "text" / f"{lang}.yaml" for lang in pack.languages]
    stamp = max((f.stat().st_mtime for f in files if f.is_file()), default=0)
    return dt.datetime.fromtimestamp(int(stamp), tz=dt.timezone.utc)


def _version(pack: Pack) -> str:
    """The source texts' fingerprint: two exports from the same source carry the same version."""
    source = pack.texts[pack.source_language]
    return hashes_mod.text_hash("\n".join(f"{k}={hashes_mod.text_hash(source[k])}" for k in source_keys(pack)))


def build_catalog(pack: Pack, lang: str | None, recorded: dict[str, dict[str, str]] | None = None) -> Catalog:
    """The POT (`lang=None`) or the PO of one language."""
    source_lang = pack.source_language
    date = _date(pack)
    catalog = Catalog(locale=lang, project=f"pnp-{pack.id}", version=_version(pack), fuzzy=False, charset="utf-8",
                      creation_date=date, revision_date=date, last_translator="pnp i18n export",
                      header_comment=f"# Texts of the pnp game {pack.id!r} (source language: {source_lang}).\n"
                                     f"# msgctxt is the text key; see `pnp i18n import`.")
    if lang is not None:
        catalog.language_team = f"{lang}"
    hashes = (recorded or {}).get(lang or "", {})
    forms_info = gettext_plurals(lang) if lang else None
    for key in source_keys(pack):
        source = pack.texts[source_lang][key]
        if str(source) == "" and not isinstance(source, PluralText):
            continue
        translation = own_text(pack, lang, key) if lang else None
        plural = isinstance(source, PluralText) or isinstance(translation, PluralText)
        msgid = _ids(source)
        if plural and isinstance(msgid, str):
            msgid = (msgid, msgid)
        current_hash = hashes_mod.text_hash(source)
        comments = [f"source-hash: {current_hash}"]
        if isinstance(source, PluralText):
            comments += [f"source {cat}: {form}" for cat, form in source.forms.items() if cat not in ("one", "other")]
        if plural and lang and forms_info:
            comments += [f"msgstr[{i}] = {cat}: n = {describe_examples(lang, cat)}" for i, cat in enumerate(forms_info[2])]
        string: str | tuple[str, ...]
        if plural:
            string = _plural_strings(translation, forms_info[2]) if forms_info else ("", "")
        else:
            string = "" if translation is None else str(translation)
        flags = set()
        if _source_placeholders(source):
            flags.add("python-brace-format")
        if translation is not None and hashes.get(key) not in (None, current_hash):
            flags.add("fuzzy")
        file, line = pack.text_locations[source_lang][key]
        message = Message(msgid, string, locations=[(f"text/{source_lang}.yaml", line)],
                          auto_comments=comments, context=key)
        message.flags = flags          # Babel guesses python-format from a '%': the texts are not
        catalog[msgid] = message       # %-formatted, and msgfmt would check "50% c" as a directive
    return catalog


def _plural_strings(translation, cats: tuple[str, ...]) -> tuple[str, ...]:
    if translation is None:
        return ("",) * len(cats)
    if isinstance(translation, PluralText):
        forms = translation.forms
        return tuple(forms.get(cat, forms.get("other", str(translation))) for cat in cats)
    return (str(translation),) * len(cats)


def export(pack: Pack, out: Path) -> list[Path]:
    """`<out>/<game>.pot` and `<out>/<lang>.po` for every language but the source."""
    out.mkdir(parents=True, exist_ok=True)
    recorded = hashes_mod.read_hashes(pack.root)
    written = []
    targets = [(out / f"{pack.id}.pot", None)] + [(out / f"{lang}.po", lang)
                                                   for lang in pack.languages if lang != pack.source_language]
    for path, lang in targets:
        catalog = build_catalog(pack, lang, recorded)
        with path.open("wb") as handle:
            write_po(handle, catalog, width=0, sort_output=False, omit_header=False, ignore_obsolete=True)
        written.append(path)
    return written


@dataclass
class ImportResult:
    changed: dict[str, list[str]] = field(default_factory=dict)     # lang -> keys whose text changed
    unchanged: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)                  # fuzzy skipped, stale on arrival...
    files: list[Path] = field(default_factory=list)                 # written files


def _norm(lang: str) -> str:
    return lang.replace("-", "_").lower()


def _language_of(catalog: Catalog, path: Path, pack: Pack) -> str | None:
    wanted = []
    if catalog.locale is not None:
        wanted.append(str(catalog.locale))
        wanted.append(catalog.locale.language)
    if catalog.locale_identifier:
        wanted.append(catalog.locale_identifier)
    wanted.append(path.stem)
    for candidate in wanted:
        for lang in pack.languages:
            if _norm(lang) == _norm(candidate):
                return lang
    return None


def read_translations(pack: Pack, files: list[Path]) -> tuple[dict[str, dict], dict[str, dict[str, str]], list[str], list[Problem]]:
    """Parse and check PO files: (lang -> key -> new value, lang -> key -> source hash, notes, problems)."""
    updates: dict[str, dict] = {}
    new_hashes: dict[str, dict[str, str]] = {}
    notes: list[str] = []
    problems: list[Problem] = []
    source_lang = pack.source_language
    source_texts = pack.texts[source_lang]
    for path in files:
        shown = display_path(path)

        def problem(code: str, line: int, key: str, message: str, snippet: str = "", shown: str = shown) -> None:
            problems.append(Problem(shown, line, key, message, snippet, code))

        try:
            with path.open("rb") as handle:
                catalog = read_po(handle, abort_invalid=True)
        except Exception as error:   # babel raises PoFileError, UnicodeDecodeError, ValueError...
            problem("po.syntax", getattr(error, "lineno", 0) or 0, "", f"cannot read PO file: {error}")
            continue
        po_lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        lang = _language_of(catalog, path, pack)
        if lang is None:
            problem("po.language", 1, "Language", f"language {catalog.locale_identifier or path.stem!r} is not declared by "
                                   f"{pack.id} ({', '.join(pack.languages)}): set the Language header")
            continue
        if lang == source_lang:
            problem("po.language", 1, "Language", f"{lang!r} is the source language of {pack.id}: edit text/{lang}.yaml itself")
            continue
        nplurals, _expr, cats = gettext_plurals(lang)
        has_plurals = any(m.pluralizable for m in catalog if m.id)
        if has_plurals and catalog.num_plurals != nplurals:
            problem("po.plural-forms", 1, "Plural-Forms", f"the header has nplurals={catalog.num_plurals}, CLDR (Babel) has "
                                       f"nplurals={nplurals} for {lang} ({'; '.join(cats)}): re-export the PO")
            continue
        lang_updates = updates.setdefault(lang, {})
        lang_hashes = new_hashes.setdefault(lang, {})
        fuzzy = 0
        for message in catalog:
            if not message.id:
                continue                               # the header
            line = message.lineno or 0
            key = message.context
            if not key:
                problem("po.context", line, "", "entry without msgctxt: the msgctxt must be the text key", _first(message.id))
                continue
            if key not in source_texts:
                problem("po.unknown-key", line, key, f"unknown text key: text/{source_lang}.yaml has no {key!r}", _first(message.id))
                continue
            raw = message.string if isinstance(message.string, (tuple, list)) else (message.string,)
            strings: tuple[str, ...] = tuple(text or "" for text in raw)
            if not any(strings):
                continue                               # untranslated
            if message.fuzzy:
                fuzzy += 1
                continue
            source = source_texts[key]
            if isinstance(source, PluralText) and not message.pluralizable:
                problem("po.plural", line, key, "the source text has plural forms but this entry has no msgid_plural: "
                                   "re-export the PO", _first(message.id))
                continue
            if message.pluralizable:
                if len(strings) != nplurals or not all(strings):
                    empty = [f"msgstr[{i}] ({cats[i]})" for i in range(nplurals) if i >= len(strings) or not strings[i]]
                    problem("po.plural", line, key, f"plural forms missing: {', '.join(empty) or 'extra forms'}", _first(message.id))
                    continue
            bad = _placeholder_problems(source, list(strings), message.pluralizable)
            if bad:
                problem("po.placeholder", _msgstr_line(po_lines, line), key, bad, _first(strings))
                continue
            if message.pluralizable:
                forms = {cat: strings[i] for i, cat in enumerate(cats)}
                old = pack.texts[lang].get(key) if key in pack.text_locations.get(lang, {}) else None
                old_forms = old.forms if isinstance(old, PluralText) else {}
                for cat in [c for c in required_categories(lang) if c not in forms]:
                    if cat in old_forms:
                        forms[cat] = old_forms[cat]
                    else:
                        forms[cat] = strings[-1]
                        notes.append(f"{shown}:{line}: {key}: {lang} form {cat!r} (n = {describe_examples(lang, cat)}) "
                                     f"has no msgstr in gettext: copied msgstr[{len(strings) - 1}]; check it in text/{lang}.yaml")
                for message_text in check_forms(lang, forms):
                    problem("po.plural", line, key, message_text)
                value: str | dict[str, str] = {cat: forms[cat] for cat in CATEGORIES if cat in forms}
            else:
                value = strings[0]
            lang_updates[key] = value
            current = hashes_mod.text_hash(source)
            exported = _hash_comment(message)
            if exported is None:
                exported = current if message.id == _id_for(source, message.pluralizable) else hashes_mod.UNKNOWN
            if exported != current:
                notes.append(f"{shown}:{line}: {key}: translated from an older source text: imported, marked stale")
            lang_hashes[key] = exported
        if fuzzy:
            notes.append(f"{shown}: {fuzzy} fuzzy entr{'ies' if fuzzy != 1 else 'y'} not imported "
                         "(review them and clear the fuzzy flag)")
    return updates, new_hashes, notes, problems


def _msgstr_line(lines: list[str], start: int) -> int:
    """The line of the first msgstr of the entry whose msgid is on line `start` (Babel's lineno)."""
    for number in range(max(start, 1), len(lines) + 1):
        if lines[number - 1].startswith("msgstr"):
            return number
    return start


def _first(value) -> str:
    if isinstance(value, (tuple, list)):
        value = value[0] if value else ""
    return str(value).splitlines()[0] if value else ""


def _id_for(source, plural: bool):
    ids = _ids(source)
    if plural and isinstance(ids, str):
        return (ids, ids)
    return ids


def _hash_comment(message: Message) -> str | None:
    for comment in message.auto_comments:
        match = HASH_COMMENT.match(comment.strip())
        if match:
            return match.group(1)
    return None


def _placeholder_problems(source, strings: list[str], plural: bool) -> str:
    """A translation must use exactly the source's placeholders. In plural forms `{n}` may be
    left out of a form ("a zombie"), but not out of all of them."""
    wanted = _source_placeholders(source)
    found = [placeholders(s) for s in strings]
    used: set[str] = set().union(*found)
    invented = sorted(used - wanted)
    if plural:
        dropped = sorted((wanted - {"n"} - set[str].intersection(*found)) | ({"n"} & wanted - used))
    else:
        dropped = sorted(wanted - found[0])
    parts = []
    if dropped:
        parts.append("drops " + ", ".join(f"{{{p}}}" for p in dropped))
    if invented:
        parts.append("invents " + ", ".join(f"{{{p}}}" for p in invented))
    if not parts:
        return ""
    have = ", ".join(f"{{{p}}}" for p in sorted(wanted)) or "none"
    return f"the translation {' and '.join(parts)} (the source has placeholders: {have})"


def import_files(pack: Pack, files: list[Path]) -> ImportResult:
    """Check every file, then (only if nothing is wrong) write the texts and the source hashes."""
    updates, new_hashes, notes, problems = read_translations(pack, files)
    if problems:
        raise DataError(problems)
    result = ImportResult(notes=notes)
    order = source_keys(pack)
    recorded = hashes_mod.read_hashes(pack.root)
    write_errors = []
    for lang, values in updates.items():
        changed = {}
        for key, value in values.items():
            old = own_text(pack, lang, key)
            old_value = old.forms if isinstance(old, PluralText) else (None if old is None else str(old))
            if old_value != value:
                changed[key] = value
        result.changed[lang] = list(changed)
        result.unchanged[lang] = len(values) - len(changed)
        if changed:
            target = pack.root / "text" / f"{lang}.yaml"
            try:
                set_texts(target, changed, order)
            except YamlEditError as error:
                write_errors.append(Problem(display_path(target), 0, "", str(error), code="po.write"))
                continue
            result.files.append(target)
        recorded.setdefault(lang, {}).update(new_hashes.get(lang, {}))
    if any(new_hashes.values()):
        hashes_mod.write_hashes(pack.root, recorded, order)
        result.files.append(hashes_mod.hash_file(pack.root))
    if write_errors:
        raise DataError(write_errors)
    return result
