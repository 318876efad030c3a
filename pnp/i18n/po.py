"""PO/POT export and import (Babel's `pofile`), the formats translators' tools (Poedit, Weblate,
Lokalize, OmegaT, Crowdin...) read and write.

One entry per text key of the source language (the pack's first language), in file order:
- `msgctxt` the dotted key, `msgid` the source text, `msgstr` the translation;
- a plural text has `msgid` (the source's `one` form, else its first) and `msgid_plural` (the
  source's `other` form) and one `msgstr[i]` per gettext form of the target language, in the order
  of the `Plural-Forms` header Babel writes for it; extracted comments say which CLDR category and
  numbers each index stands for;
- extracted comments for the translator saying where the text is printed and in what box
  (`#. card event-bell front: 45.0 x 8.6 mm box, 11 pt`; components and tuck boxes by document
  and page), from the fit report of the source language (pnp.i18n.fit), when export is given it;
- `#, max-length:N` (Weblate's flag; Poedit shows it) when a box the text is printed in holds one
  line only (its height is under two lines at the pack's floor size, `text_floor_pt`; not a box
  whose text may not shrink, which its drawer cut to the text, as a player aid's lines): N is the
  box's width over the mean advance of one character of the target language at the floor size
  in the box's font (`max_length`), the smallest N over such boxes;
- `#, python-brace-format` when the text has `{placeholders}` (so `msgfmt --check` checks them);
  `#, fuzzy` when the current translation is stale, with the source it was made from as the
  previous msgid (`#| msgid`, from text/.source-texts.yaml: `hashes`) when pnp recorded it;
- no hash: the entry's own source (msgid, msgid_plural, `#. source <category>:`) is what import
  compares with today's source to tell a stale translation (`exported_source`);
- `#: text/<source>.yaml:<line>` where the source text is; for a text written in the card data
  (a literal or a mapping per language, see pnp.pack) the card file and line, with an extracted
  comment naming the card and field (`#. card knight.title`); its msgctxt is its synthesized key
  (`card.<deck>.<card>.<field>`), stable while cards are reordered, and import writes its
  translation into text/<lang>.yaml under that key (comments kept, pnp.i18n.yamledit) — never into
  the card file, which may be a spreadsheet; a translation the card data itself holds
  (`{en: ..., it: ...}`, a `title.it` column) is edited there, and import leaves it with a note.

Import is strict and all or nothing: a syntax error (Babel's reader guesses where it should
refuse), a control character, a placeholder the source lacks or a source placeholder left out, a
stray brace, a plural form without `{n}` that stands for several numbers, an unknown or repeated
key: each is a Problem (`po.syntax`, `po.control-char`, `po.placeholder`, `po.plural`,
`po.duplicate`...) with file and line, and no file is written. A translation whose icons (`:skull:`)
are not its source's is imported with a `po.icons` warning (pnp.i18n.icons: icons may move, and a
language may word one; a wrong placeholder breaks the text), and one longer than its entry's
`#, max-length:N` with a `po.max-length` warning (it prints smaller or does not fit: `pnp i18n fit`). A translation of an older source
text (its msgid, msgid_plural or `#. source <category>:` forms are not today's; a PO exported
before issue 16: its `source-hash` comment) is imported, recorded as stale with the hash of that
source (kept in text/.source-texts.yaml), with a `po.stale` warning: the next export flags it
fuzzy with the old source as `#| msgid`, as gettext keeps a changed entry; but not over a present
translation made from today's source (`po.older` warning, counted "not imported"): importing an old
PO again does not undo newer work. Two files of one language translating one key two ways are
`po.conflict` (neither wins); a file whose keys are mostly unknown is one `po.other-game` (with the
game its Project-Id-Version names), not a list of `po.unknown-key`. The language is the Language
header, else the file name (`es.po`).

Export does not overwrite a file that holds translations the game does not have yet (a non-empty
msgstr that is not the one export would write): one `po.pending` per such file, unless forced.

Plural headers: `plurals.gettext_plurals` (Italian, Spanish, Catalan, French: two forms, as
gettext, Poedit and Weblate write them; CLDR `many` folds into `other` on import).
"""
from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import PoFileError, read_po, unescape, write_po

from pnp.errors import Problem, Problems, display_path, shortened
from pnp.i18n import hashes as hashes_mod
from pnp.i18n import icons
from pnp.i18n.hashes import own_text, source_keys  # noqa: F401 - also asked for here
from pnp.i18n.placeholders import compare, placeholders
from pnp.i18n.plurals import (
    CATEGORIES,
    PluralText,
    describe_examples,
    folded_into,
    gettext_plurals,
    required_categories,
    single_number_categories,
)
from pnp.i18n.yamledit import YamlEditError, render_texts
from pnp.limits import MAX_PO_BYTES, MAX_PO_PROBLEMS
from pnp.outputfiles import write_bytes_atomically, write_text_atomically
from pnp.pack import Pack

HASH_COMMENT = re.compile(r"^source-hash:\s*(\S+)\s*$")      # PO files exported before issue 16
SOURCE_FORM = re.compile(r"^source (zero|one|two|few|many|other): (.*)$", re.S)
MAX_USES_SHOWN = 4        # printed places listed in an entry's comments; then "... and N more"


@dataclass(frozen=True)
class Use:
    """One place a text key is printed, for the translator's comments."""

    where: str                       # "card event-bell front", "board p1 (components[0], lattice-guide) · legend"
    box_mm: tuple[float, float]
    size_pt: float | None
    font: str                        # the style of the box ("regular", "bold"...)
    single_line: bool                # the box holds one line at the floor size: a max-length applies

    def comment(self) -> str:
        w, h = self.box_mm
        size = f", {self.size_pt:g} pt" if self.size_pt else ""
        return f"{self.where}: {w:.1f} x {h:.1f} mm box{size}" + (", one line" if self.single_line else "")


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
    """Deterministic dates: the newest text file's (or card file with texts') modification time."""
    files = [pack.root / "text" / f"{lang}.yaml" for lang in pack.languages]
    files += sorted({Path(literal.file) for literal in pack.literal_texts.values()})
    stamp = max((f.stat().st_mtime for f in files if f.is_file()), default=0)
    return dt.datetime.fromtimestamp(int(stamp), tz=dt.timezone.utc)


def _version(pack: Pack) -> str:
    """The source texts' fingerprint: two exports from the same source carry the same version."""
    source = pack.texts[pack.source_language]
    return hashes_mod.text_hash("\n".join(f"{k}={hashes_mod.text_hash(source[k])}" for k in source_keys(pack)))


def build_catalog(pack: Pack, lang: str | None, recorded: dict[str, dict[str, str]] | None = None,
                  uses: dict[str, list[Use]] | None = None, sources: dict | None = None) -> Catalog:
    """The POT (`lang=None`) or the PO of one language; `uses`: where each key is printed (see
    `printed_uses`), `sources`: hash -> source text (`hashes.read_sources`) for previous msgids."""
    source_lang = pack.source_language
    date = _date(pack)
    catalog = Catalog(locale=lang, project=f"pnp-{pack.id}", version=_version(pack), fuzzy=False, charset="utf-8",
                      creation_date=date, revision_date=date, last_translator="pnp i18n export",
                      header_comment=f"# Texts of the pnp game {pack.id!r} (source language: {source_lang}).\n"
                                     f"# msgctxt is the text key; see `pnp i18n import`.")
    forms_info = gettext_plurals(lang) if lang else None
    if lang is not None and forms_info is not None:
        catalog.language_team = f"{lang}"
        # what gettext, Poedit and Weblate expect (plurals.GETTEXT_PLURAL_FORMS), not always Babel's
        catalog.mime_headers = [("Plural-Forms", f"nplurals={forms_info[0]}; plural={forms_info[1]};")]
    hashes = (recorded or {}).get(lang or "", {})
    lengths = _MaxLength(pack, lang or pack.source_language)
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
        comments = []
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
        previous = None
        if translation is not None and hashes.get(key) not in (None, current_hash):
            flags.add("fuzzy")
            previous = _previous_id(sources or {}, hashes[key], plural)
        file, line = pack.text_locations[source_lang][key]
        literal = pack.literal_texts.get(key)
        if literal is not None:
            comments.append(literal.where)
        places = (uses or {}).get(key, [])
        comments += [use.comment() for use in places[:MAX_USES_SHOWN]]
        if len(places) > MAX_USES_SHOWN:
            comments.append(f"... and {len(places) - MAX_USES_SHOWN} more places")
        limit = min((lengths.of(use) for use in places if use.single_line), default=None)
        if limit is not None:
            flags.add(f"max-length:{limit}")
        message = Message(msgid, string, locations=[(_pack_relative(pack, file), line)],
                          auto_comments=comments, context=key, previous_id=previous or ())
        message.flags = flags          # Babel guesses python-format from a '%': the texts are not
        catalog[msgid] = message       # %-formatted, and msgfmt would check "50% c" as a directive
    return catalog


def _previous_id(sources: dict, old_hash: str, plural: bool) -> str | tuple[str, str] | None:
    """The msgid (and msgid_plural) of the source a stale translation was made from, if recorded."""
    old = sources.get(old_hash)
    if old is None:
        return None
    ids = _ids(PluralText(old) if isinstance(old, dict) else old)
    if isinstance(ids, str):
        return (ids, ids) if plural else ids
    return ids if plural else ids[0]


class _MaxLength:
    """Weblate's max-length for a one-line box, in characters: the box's width over the mean
    advance of one character of the language at the pack's floor size in the box's font. The
    mean is measured on the language's own texts (its first MEAN_SAMPLE characters, spaces
    included, in source key order), laid out by pnp.text.layout (Arabic shaped): a translation of
    N average characters fills the box at the floor size, a longer one would shrink under it."""

    MEAN_SAMPLE = 4000

    def __init__(self, pack: Pack, lang: str):
        self.pack, self.lang = pack, lang
        self.floor = pack.text_floor_pt
        self.advance: dict[str, float] = {}

    def of(self, use: Use) -> int:
        if use.font not in self.advance:
            self.advance[use.font] = _mean_advance_mm(self.pack, self.lang, use.font, self.floor)
        return max(1, int(use.box_mm[0] / self.advance[use.font]))


def _mean_advance_mm(pack: Pack, lang: str, font: str, size_pt: float) -> float:
    from pnp.text import packfonts
    from pnp.text.layout import layout

    texts = pack.texts.get(lang, {})
    sample = " ".join(" ".join(str(texts[k]).split()) for k in source_keys(pack) if k in texts)[:_MaxLength.MEAN_SAMPLE]
    sample = sample.strip() or "n"
    with packfonts.using(packfonts.assets_of(pack)):
        try:
            result = layout(sample, font, 1e9, 1e9, size_pt, size_pt, 1.2, None, "auto")
        except (KeyError, ValueError):          # a style only a template knows: the regular one
            result = layout(sample, "regular", 1e9, 1e9, size_pt, size_pt, 1.2, None, "auto")
    return max(sum(result.widths_mm) / len(sample), 1e-3)


def printed_uses(pack: Pack, paper: str = "a4") -> dict[str, list[Use]]:
    """Where each text key is printed, laid out in the source language (boxes do not change with
    the language): card and face, component and page, with the box (pnp.i18n.fit)."""
    from pnp.i18n.fit import language_fit
    from pnp.text import fonts, packfonts

    report = language_fit(pack, pack.source_language, paper)
    floor_mm = pack.text_floor_pt / 72.0 * 25.4
    uses: dict[str, list[Use]] = {}
    with packfonts.using(packfonts.assets_of(pack)):
        for text in report.texts:
            if not text.key:
                continue
            box = text.box
            try:
                ascent, descent = fonts.vertical_metrics(box.font)
            except (KeyError, ValueError):
                ascent, descent = fonts.vertical_metrics("regular")
            two_lines_mm = floor_mm * (ascent - descent + 1.2)
            # a box whose text may not shrink (min size = asked size) was cut to its text by the
            # drawer, a block of a flowing layout (a player aid's lines): a longer text gets a taller
            # block, so its height says nothing about a length limit
            flowing = box.min_size_pt is not None and box.nominal_pt is not None and \
                abs(box.min_size_pt - box.nominal_pt) < 1e-9
            single = box.box_mm[1] < two_lines_mm and not flowing
            where = text.where + (f" · {text.what}" if text.what else "")
            for place in [where, *text.also]:
                uses.setdefault(text.key, []).append(Use(place, box.box_mm, box.size_pt, box.font, single))
    return uses


def _pack_relative(pack: Pack, file) -> str:
    """A file of the pack as a translator's tool shows it: relative to the pack, with slashes."""
    try:
        return Path(file).resolve().relative_to(pack.root.resolve()).as_posix()
    except ValueError:
        return Path(file).name


def _plural_strings(translation, cats: tuple[str, ...]) -> tuple[str, ...]:
    if translation is None:
        return ("",) * len(cats)
    if isinstance(translation, PluralText):
        forms = translation.forms
        return tuple(forms.get(cat, forms.get("other", str(translation))) for cat in cats)
    return (str(translation),) * len(cats)


def export(pack: Pack, out: Path, uses: dict[str, list[Use]] | None = None, force: bool = False) -> list[Path]:
    """`<out>/<game>.pot` and `<out>/<lang>.po` for every language but the source; `uses` (see
    `printed_uses`) adds where each text is printed and its max-length. A PO already there that
    holds translations the game does not have yet is not overwritten (`refuse_pending`) unless
    `force`."""
    made = list(catalogs(pack, out, ".po", uses))
    if not force:
        refuse_pending(pack, made, _existing_po)
    out.mkdir(parents=True, exist_ok=True)
    for path, _lang, catalog in made:
        write_bytes_atomically(path, po_bytes(catalog))
    return [path for path, _lang, _catalog in made]


MAX_PENDING_SHOWN = 5      # keys a refused export names; then "..."


def refuse_pending(pack: Pack, made: list[tuple[Path, str | None, Catalog]],
                   existing: Callable[[Pack, Path, Problems], list[tuple[str, int, Any]] | None]) -> None:
    """Refuse to overwrite a file that holds work not imported yet (`po.pending`): an entry whose
    translation is not empty and is not the one the new file would carry, the game's own. One
    problem per file, with how many entries and the first keys; `existing` reads a file's entries
    as (key, line, msgstr) (None after a problem: a file that cannot be read is not overwritten)."""
    problems = Problems()
    for path, lang, catalog in made:
        if lang is None or not path.is_file():
            continue
        entries = existing(pack, path, problems)
        if entries is None:
            continue
        new = {message.context: _strings(message.string) for message in catalog if message.id}
        pending = [(key, line) for key, line, string in entries
                   if key in new and any(_strings(string)) and _strings(string) != new[key]]
        if pending:
            keys = ", ".join(key for key, _ in pending[:MAX_PENDING_SHOWN]) + (", ..." if len(pending) > MAX_PENDING_SHOWN else "")
            count = len(pending)
            problems.add("po.pending", path, pending[0][1], pending[0][0],
                         f"{count} entr{'ies hold' if count != 1 else 'y holds'} {lang!r} translations "
                         f"text/{lang}.yaml does not have yet ({keys}): import the file first "
                         f"(pnp i18n import), or export with --force to overwrite it", count=count)
    problems.raise_if_any()


def _strings(string) -> tuple[str, ...]:
    return tuple(text or "" for text in string) if isinstance(string, (tuple, list)) else (string or "",)


def _existing_po(pack: Pack, path: Path, problems: Problems) -> list[tuple[str, int, Any]] | None:
    """The entries of a PO file about to be overwritten, read leniently (Babel)."""
    try:
        with path.open("rb") as file:
            catalog = read_po(file)
    except (OSError, PoFileError, ValueError, UnicodeDecodeError) as error:
        problems.add("po.pending", path, getattr(error, "lineno", 0) or 0, "",
                     f"cannot be read to tell whether it holds translations not imported yet ({error}): "
                     "export with --force to overwrite it")
        return None
    return [(message.context, message.lineno or 0, message.string) for message in catalog
            if message.id and message.context]


def catalogs(pack: Pack, out: Path, suffix: str, uses: dict[str, list[Use]] | None = None):
    """(path, language, catalog) of the POT (suffix .po only) and of every translation language."""
    recorded = hashes_mod.read_hashes(pack.root)
    sources = hashes_mod.read_sources(pack.root)
    targets: list[tuple[Path, str | None]] = [(out / f"{pack.id}.pot", None)] if suffix == ".po" else []
    targets += [(out / f"{lang}{suffix}", lang) for lang in pack.languages if lang != pack.source_language]
    for path, lang in targets:
        yield path, lang, build_catalog(pack, lang, recorded, uses, sources)


def po_bytes(catalog: Catalog) -> bytes:
    from io import BytesIO

    buffer = BytesIO()
    write_po(buffer, catalog, width=0, sort_output=False, omit_header=False, ignore_obsolete=True,
             include_previous=True)
    return buffer.getvalue()


# ---- import -------------------------------------------------------------------------------------
# Babel's reader is lenient: it drops the last letter of an unterminated `msgstr "Erwachen`, keeps
# `msgstr "a" "b"` as `a" "b` and takes the first of two msgstr. So every file is first read by a
# strict scanner (`_scan`) that refuses what Babel would guess at, with file:line, and indexes each
# entry's lines; Babel then parses what is left and is the one reader of the entries' values.

PO_ESCAPES = frozenset('\\"abfnrtv')        # the escapes Babel decodes (babel.messages.pofile.unescape)
_KEYWORD = re.compile(r"(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)(?: +|$)(.*)$", re.S)
_LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)("?)(.*)$', re.S)
_ESCAPE = re.compile(r"\\(.)", re.S)
_NPLURALS = re.compile(r"^Plural-Forms:.*\bnplurals\s*=\s*(\d+)", re.M)
_CHARSET = re.compile(rb"^\"Content-Type:[^\"\n]*charset=([-\w.:]+)", re.M)
_INCOMPLETE = ("msgctxt", "msgid", "msgid_plural")      # states of an entry that still lacks its msgstr
_AFTER = {None: ("msgctxt", "msgid"), "msgctxt": ("msgid",), "msgid": ("msgid_plural", "msgstr"),
          "msgid_plural": ("msgstr[0]",), "msgstr": ("msgctxt", "msgid")}


@dataclass
class ImportResult:
    changed: dict[str, list[str]] = field(default_factory=dict)     # lang -> keys whose text changed
    unchanged: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)                  # fuzzy skipped, forms copied...
    files: list[Path] = field(default_factory=list)                 # written files
    warnings: list[Problem] = field(default_factory=list)           # po.stale: imported, but stale;
                                                                    # po.in-data, po.older: not imported
    not_imported: dict[str, int] = field(default_factory=dict)      # lang -> translations the data holds,
                                                                    # or older than the present one


def _shown(value: Any) -> str:
    """A translation as a warning quotes it: its text, or its `other` form."""
    text = value.get("other", next(iter(value.values()), "")) if isinstance(value, dict) else str(value)
    return repr(shortened(text))


@dataclass
class _Entry:
    """One entry as the scanner saw it: where its lines are and the decoded string of each line."""

    block: int                                    # its first line, comments included
    last: int = 0                                 # its last line
    start: int = 0                                # its msgid line: Babel's Message.lineno
    broken: bool = False                          # has a syntax error: Babel does not see it
    pieces: dict[str, list[tuple[int, str]]] = field(default_factory=dict)   # keyword -> (line, text)

    @property
    def context(self) -> str:
        return "".join(text for _, text in self.pieces.get("msgctxt", []))

    def line_of(self, keyword: str) -> int:
        pieces = self.pieces.get(keyword)
        return pieces[0][0] if pieces else self.start


@dataclass
class _Scan:
    lines: list[str]
    entries: dict[int, _Entry] = field(default_factory=dict)      # by msgid line
    errors: list[tuple[str, int, str, str, str]] = field(default_factory=list)   # code, line, key, message, snippet
    _all: list[_Entry] = field(default_factory=list)

    def error(self, entry: _Entry | None, line: int, message: str, code: str = "po.syntax") -> None:
        if entry is not None:
            entry.broken = True
        self.errors.append((code, line, entry.context if entry else "", message, _shorten(self.lines[line - 1])))

    def new_entry(self, block: int) -> _Entry:
        entry = _Entry(block)
        self._all.append(entry)
        return entry

    def sound_lines(self) -> list[str]:
        """The lines with every broken entry blanked out (line numbers kept), for Babel."""
        lines = list(self.lines)
        for entry in self._all:
            if entry.broken:
                lines[entry.block - 1:entry.last] = [""] * (entry.last - entry.block + 1)
        return lines


def _shorten(text: str, width: int = 80) -> str:
    """A line for a message: trimmed, and control characters shown as escapes, not sent to the terminal."""
    text = text.strip()
    shown = text if len(text) <= width else text[:width - 1]
    shown = "".join(_escaped(c) if unicodedata.category(c) == "Cc" else c for c in shown)
    return shown if len(text) <= width else shown + "…"


def _escaped(char: str) -> str:
    return f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}"


def _expected(state: str | None) -> tuple[str, ...]:
    if state and state.startswith("msgstr["):
        return (f"msgstr[{int(state[7:-1]) + 1}]", "msgctxt", "msgid")
    return _AFTER[state]


def _literal(scan: _Scan, entry: _Entry | None, line: int, text: str) -> str | None:
    """The decoded text of one quoted PO string, or None after reporting what is wrong with it."""
    match = _LITERAL.match(text)
    if match is None:
        scan.error(entry, line, "expected a string in double quotes")
        return None
    body, closed, after = match.groups()
    if not closed:
        scan.error(entry, line, "the string has no closing double quote")
        return None
    if after.strip(" \t"):
        scan.error(entry, line, f"text after the closing double quote: {_shorten(after, 30)!r}")
        return None
    unknown = [char for char in _ESCAPE.findall(body) if char not in PO_ESCAPES]
    if unknown:
        scan.error(entry, line, f"unknown escape '\\{unknown[0]}' (a backslash itself is written '\\\\')")
        return None
    return unescape(f'"{body}"')


def _scan(lines: list[str]) -> _Scan:
    """Check the PO grammar line by line: keywords, their order in an entry (msgctxt? msgid
    (msgstr | msgid_plural msgstr[0] msgstr[1]...)), and every quoted string; one error per
    broken entry, then on to the next entry."""
    scan = _Scan(lines)
    state: str | None = None
    entry: _Entry | None = None
    block = 0                                     # first line of the comments before the next entry
    for number, raw in enumerate(lines, 1):
        line = raw.strip(" \t\r")
        if not line:
            continue
        if line.startswith("#~"):
            _scan_obsolete(scan, number, line[2:].strip(" \t"))
            continue
        if line.startswith("#"):
            if state in _INCOMPLETE and entry is not None and not entry.broken:
                scan.error(entry, entry.last, f"the entry has no msgstr (line {number}, a comment, ends it)")
            if entry is None or not entry.broken:
                state, entry = None, None
            block = block or number
            continue
        if entry is not None and entry.broken:
            if not _begins_entry(line, entry):
                entry.last, block = number, 0       # the rest of a broken entry: one error is enough
                continue
            state = None
        if line.startswith('"'):
            if entry is None or state is None:
                entry = scan.new_entry(block or number)
                entry.last = number
                scan.error(entry, number, "a string outside an entry (a keyword such as msgstr must come first)")
                block = 0
                continue
            entry.last = number
            text = _literal(scan, entry, number, line)
            if text is not None:
                entry.pieces[state].append((number, text))
            continue
        state, entry = _scan_keyword(scan, state, entry, number, line, block)
        block = 0
    if entry is not None and not entry.broken and state in _INCOMPLETE:
        scan.error(entry, entry.last, "the entry has no msgstr (the file ends)")
    _scan_plural_indices(scan)
    _scan_duplicates(scan)
    return scan


def _begins_entry(line: str, broken: _Entry) -> bool:
    """After a syntax error, the line where the next entry begins (a msgid of the broken entry's
    own, when the error was in its msgctxt, does not)."""
    if line.startswith("msgctxt"):
        return True
    return line.startswith("msgid") and not line.startswith("msgid_plural") and broken.start != 0


def _scan_plural_indices(scan: _Scan) -> None:
    """A msgstr[i] past the header's nplurals (Babel would refuse the whole file at its msgid)."""
    header = next((e for e in scan.entries.values() if not e.pieces.get("msgctxt")
                   and "".join(t for _, t in e.pieces.get("msgid", [])) == ""), None)
    found = _NPLURALS.search("".join(t for _, t in header.pieces.get("msgstr", []))) if header else None
    if found is None:
        return
    nplurals = int(found.group(1))
    for entry in scan.entries.values():
        extra = [k for k in entry.pieces if k.startswith("msgstr[") and int(k[7:-1]) >= nplurals]
        if extra and not entry.broken:
            scan.error(entry, entry.line_of(extra[0]), f"{extra[0]}, but the Plural-Forms header has nplurals={nplurals} "
                       f"(msgstr[0] to msgstr[{nplurals - 1}])")


def _scan_keyword(scan: _Scan, state: str | None, entry: _Entry | None, number: int, line: str,
                  block: int) -> tuple[str | None, _Entry | None]:
    match = _KEYWORD.match(line)
    keyword = match.group(1) if match else ""
    expected = _expected(state)
    if keyword in ("msgctxt", "msgid") and keyword in expected and state != "msgctxt":
        entry = scan.new_entry(block or number)          # msgctxt or msgid begins an entry
    elif entry is None:
        entry = scan.new_entry(block or number)
    entry.last = number
    if match is None:
        scan.error(entry, number, f"unknown or misformatted keyword {line.split(None, 1)[0][:30]!r}")
        return state, entry
    if keyword not in expected:
        scan.error(entry, number, f"{keyword} where {' or '.join(expected)} belongs")
        return state, entry
    if keyword == "msgid":
        entry.start = number
        scan.entries[number] = entry
    text = _literal(scan, entry, number, match.group(3))
    if text is not None:
        entry.pieces.setdefault(keyword, []).append((number, text))
    return keyword, entry


def _scan_obsolete(scan: _Scan, number: int, rest: str) -> None:
    """An obsolete entry (`#~ msgid "..."`) is never imported; its strings must still be strings."""
    if not rest or rest.startswith("|"):
        return
    if not rest.startswith('"'):
        match = _KEYWORD.match(rest)
        if match is None:
            scan.error(None, number, f"unknown or misformatted keyword {rest.split(None, 1)[0][:30]!r} (obsolete entry)")
            return
        rest = match.group(3)
    _literal(scan, None, number, rest)


def _scan_duplicates(scan: _Scan) -> None:
    """Babel keeps the last of two entries with the same key: say so instead of picking one."""
    first: dict[str, int] = {}
    for entry in scan.entries.values():
        if entry.broken or not entry.pieces.get("msgctxt"):
            continue
        key = entry.context
        if key in first:
            scan.error(entry, entry.block, f"a second entry for {key!r} (the first is on line {first[key]})",
                       code="po.duplicate")
        else:
            first[key] = entry.block


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


class _CappedProblems(Problems):
    """At most MAX_PO_PROBLEMS problems of one file, then a count: a file of a hundred thousand
    broken entries is refused with a readable message, in seconds."""

    def __init__(self) -> None:
        super().__init__()
        self.counts: dict[str, int] = {}
        self.first_hidden: dict[str, tuple[Path | str, int]] = {}

    def add(self, code: str, file: Path | str, line: int, key: str, message: str, snippet: str = "",
            **detail) -> None:
        count = self.counts[str(file)] = self.counts.get(str(file), 0) + 1
        if count <= MAX_PO_PROBLEMS:
            super().add(code, file, line, key, message, snippet, **detail)
        elif count == MAX_PO_PROBLEMS + 1:
            self.first_hidden[str(file)] = (file, line)

    def close(self) -> None:
        """One last problem per file that had more than could be listed."""
        for name, (file, line) in self.first_hidden.items():
            hidden = self.counts[name] - MAX_PO_PROBLEMS
            super().add("po.too-many", file, line, "", f"{hidden} more problem{'s' * (hidden != 1)} from this line on, "
                        f"not listed (the first {MAX_PO_PROBLEMS} are)")
        self.first_hidden.clear()


@dataclass
class _Reading:
    """What the PO files say, before anything is written."""

    updates: dict[str, dict] = field(default_factory=dict)               # lang -> key -> new value
    hashes: dict[str, dict[str, str]] = field(default_factory=dict)      # lang -> key -> source hash
    sources: dict[str, str | dict[str, str]] = field(default_factory=dict)   # hash -> its source text
    notes: list[str] = field(default_factory=list)
    warnings: _CappedProblems = field(default_factory=_CappedProblems)
    problems: _CappedProblems = field(default_factory=_CappedProblems)
    older: dict[str, int] = field(default_factory=dict)                 # lang -> older than the present: kept
    origins: dict[tuple[str, str], tuple[Path, int, Any]] = field(default_factory=dict)   # (lang, key) -> file, line, value
    _recorded: dict[str, dict[str, str]] | None = None

    def recorded(self, pack: Pack) -> dict[str, dict[str, str]]:
        """The source hashes recorded now (text/.source-hashes.yaml), read once."""
        if self._recorded is None:
            self._recorded = hashes_mod.read_hashes(pack.root)
        return self._recorded


@dataclass
class _PoFile:
    """One PO file being read: its language and the scanner's index of its lines."""

    path: Path
    lang: str
    cats: tuple[str, ...]                         # the CLDR category of each msgstr index
    scan: _Scan
    unknown: list[tuple[int, str, str]] = field(default_factory=list)    # (line, key, msgid) the game lacks

    @property
    def shown(self) -> str:
        return display_path(self.path)

    def entry(self, message: Message) -> _Entry:
        return self.scan.entries.get(message.lineno or 0) or _Entry(block=message.lineno or 0, start=message.lineno or 0)


def read_translations(pack: Pack, files: list[Path]) -> _Reading:
    """Parse and check PO files; `problems` lists everything that stops the import."""
    reading = _Reading()
    for path in files:
        catalog, scan = _parse(path, reading.problems)
        if catalog is None or scan is None:
            continue
        lang = _checked_language(pack, catalog, path, reading.problems)
        if lang is None:
            continue
        po = _PoFile(path, lang, gettext_plurals(lang)[2], scan)
        fuzzy = sum(_read_message(pack, po, message, reading) for message in catalog if message.id)
        _unknown_keys(pack, po, catalog, reading.problems)
        if fuzzy:
            reading.notes.append(f"{po.shown}: {fuzzy} fuzzy entr{'ies' if fuzzy != 1 else 'y'} not imported "
                                 "(review them and clear the fuzzy flag)")
    reading.problems.close()
    reading.warnings.close()
    return reading


OTHER_GAME_SHOWN = 3        # keys named when a file seems to be another game's


def _unknown_keys(pack: Pack, po: _PoFile, catalog: Catalog, problems: Problems) -> None:
    """One `po.unknown-key` per key the game lacks; when most of the file's keys are unknown (at
    least 3), one `po.other-game` instead: the file is another game's."""
    entries = sum(1 for message in catalog if message.id)
    if len(po.unknown) >= 3 and 2 * len(po.unknown) > entries:
        line, key, msgid = po.unknown[0]
        project = catalog.project or ""
        named = project[4:] if project.startswith("pnp-") else project
        said = f" (its Project-Id-Version names the game {named!r})" if named not in ("", "PROJECT", pack.id) else ""
        keys = ", ".join(k for _, k, _ in po.unknown[:OTHER_GAME_SHOWN])
        problems.add("po.other-game", po.path, line, key,
                     f"{len(po.unknown)} of its {entries} entries have text keys {pack.id} does not have ({keys}, ...): "
                     f"the file seems to be for another game{said}", msgid, unknown=len(po.unknown))
        return
    for line, key, msgid in po.unknown:
        problems.add("po.unknown-key", po.path, line, key,
                     f"unknown text key: text/{pack.source_language}.yaml has no {key!r}", msgid)


def _parse(path: Path, problems: Problems) -> tuple[Catalog | None, _Scan | None]:
    """The file scanned strictly, then read by Babel (without the entries the scanner refused)."""
    size = path.stat().st_size
    if size > MAX_PO_BYTES:
        problems.add("po.size", path, 0, "", f"{size:,} bytes: more than a PO file of texts can be "
                                             f"(at most {MAX_PO_BYTES:,})")
        return None, None
    text = _decoded(path, path.read_bytes(), problems)
    if text is None:
        return None, None
    scan = _scan(text.split("\n"))
    for code, line, key, message, snippet in scan.errors:
        problems.add(code, path, line, key, message, snippet)
    try:
        catalog = read_po(scan.sound_lines(), abort_invalid=True)
    except (PoFileError, ValueError) as error:     # Babel's own complaints: its line is 0-based
        lineno = getattr(error, "lineno", None)
        problems.add("po.syntax", path, lineno + 1 if isinstance(lineno, int) else 0, "", f"cannot read PO file: {error}")
        return None, None
    return catalog, scan


def _decoded(path: Path, data: bytes, problems: Problems) -> str | None:
    """The file's text in the charset its header declares (export writes UTF-8; a byte-order
    mark is tolerated)."""
    declared = _CHARSET.search(data[:4096])
    charset = declared.group(1).decode("ascii") if declared else "utf-8"
    try:
        return data.decode("utf-8-sig" if charset.lower().replace("_", "-") in ("utf-8", "utf8") else charset)
    except LookupError:
        line = data.count(b"\n", 0, declared.start() if declared else 0) + 1
        problems.add("po.syntax", path, line, "Content-Type", f"unknown charset {charset!r}: save the file as UTF-8")
    except UnicodeDecodeError as error:
        problems.add("po.syntax", path, data.count(b"\n", 0, error.start) + 1, "",
                     f"not {charset} (byte 0x{data[error.start]:02x}), the charset of its header: save it as UTF-8")
    return None


def _checked_language(pack: Pack, catalog: Catalog, path: Path, problems: Problems) -> str | None:
    lang = _language_of(catalog, path, pack)
    if lang is None:
        declared = f"{pack.id} ({', '.join(pack.languages)})"
        if catalog.locale_identifier:
            said = f"its Language header says {catalog.locale_identifier!r}, a language not declared by {declared}: " \
                   "fix the header, or add the language to pack.yaml's languages"
        else:
            said = f"it has no Language header, so its language is taken from its file name, {path.stem!r}, which is " \
                   f"not a language declared by {declared}: set the Language header (e.g. Language: " \
                   f"{pack.languages[-1]}) or name the file <language>.po"
        problems.add("po.language", path, 1, "Language", said)
        return None
    if lang == pack.source_language:
        problems.add("po.language", path, 1, "Language", f"{lang!r} is the source language of {pack.id}: "
                     f"edit text/{lang}.yaml itself")
        return None
    nplurals, _expr, cats = gettext_plurals(lang)
    if any(m.pluralizable for m in catalog if m.id) and catalog.num_plurals != nplurals:
        problems.add("po.plural-forms", path, 1, "Plural-Forms", f"the header has nplurals={catalog.num_plurals}, "
                     f"CLDR (Babel) has nplurals={nplurals} for {lang} ({'; '.join(cats)}): re-export the PO")
        return None
    return lang


def _read_message(pack: Pack, po: _PoFile, message: Message, reading: _Reading) -> bool:
    """Check one entry; record its text and source hash when nothing is wrong with it. True when
    it is a fuzzy translation, left out."""
    problems, entry = reading.problems, po.entry(message)
    line, key, msgid = message.lineno or 0, message.context, _first(message.id)
    source_texts = pack.texts[pack.source_language]
    if not key:
        problems.add("po.context", po.path, line, "", "entry without msgctxt: the msgctxt must be the text key", msgid)
        return False
    if key not in source_texts:
        po.unknown.append((line, key, msgid))       # reported once the whole file is read (_unknown_keys)
        return False
    raw = message.string if isinstance(message.string, (tuple, list)) else (message.string,)
    strings: tuple[str, ...] = tuple(text or "" for text in raw)
    if not any(strings):
        return False                               # untranslated
    if message.fuzzy:
        return True
    source = source_texts[key]
    before = len(problems.items)
    if not _plural_shape_ok(po, message, source, strings, problems):
        return False
    _check_control_chars(po, entry, key, message.pluralizable, problems)
    _check_placeholders(po, entry, key, message, source, strings, problems)
    if len(problems.items) == before:
        value = _plural_value(pack, po, key, line, strings, reading.notes) if message.pluralizable else strings[0]
        if _conflicts(po, key, line, value, reading):
            return False
        found = _exported_hash(pack, po, message, source, reading)
        if found is None:                          # older than the up-to-date translation: kept
            reading.older[po.lang] = reading.older.get(po.lang, 0) + 1
            return False
        reading.updates.setdefault(po.lang, {})[key] = value
        reading.hashes.setdefault(po.lang, {})[key] = found
        if not _translated_in_data(pack, po.lang, key):   # else not imported (po.in-data): its icons are the data's
            _check_icons(po, entry, key, message.pluralizable, source, strings, reading.warnings)
            _check_max_length(pack.id, po, entry, key, message, strings, reading.warnings)
    return False


def _check_max_length(game: str, po: _PoFile, entry: _Entry, key: str, message: Message, strings: tuple[str, ...],
                      warnings: Problems) -> None:
    """`po.max-length` (a warning: the translation is imported) when a form is longer than the entry's
    `#, max-length:N` flag, the characters its one-line box holds at the floor size (export's
    `max_length`): it will shrink under the floor or not fit, which `pnp i18n fit` measures."""
    limits = [int(flag.partition(":")[2]) for flag in message.flags
              if flag.startswith("max-length:") and flag.partition(":")[2].isdigit()]
    if not limits:
        return
    limit = min(limits)
    longest = max(strings, key=len)
    if len(longest) > limit:
        index = strings.index(longest)
        keyword = _msgstr_keywords(message.pluralizable, len(strings))[index]
        warnings.add("po.max-length", po.path, entry.line_of(keyword), key,
                     f"{len(longest)} characters, more than the {limit} its one-line box holds (#, max-length:{limit}): "
                     f"imported; it will print smaller or not fit (`pnp i18n fit {game} --lang {po.lang}` measures it)",
                     _shorten(longest), length=len(longest), limit=limit)


def _check_icons(po: _PoFile, entry: _Entry, key: str, plural: bool, source, strings: tuple[str, ...],
                 warnings: Problems) -> None:
    """`po.icons` (a warning: the translation is imported) when the translation's icons are not the source's."""
    mismatch = icons.compare(source, strings)
    if mismatch:
        warnings.add(icons.PO_ICONS, po.path, entry.line_of(_msgstr_keywords(plural, len(strings))[0]), key,
                     mismatch.message(), _shorten(_first(strings)),
                     missing=icons.shown(mismatch.missing), extra=icons.shown(mismatch.extra))


def _conflicts(po: _PoFile, key: str, line: int, value, reading: _Reading) -> bool:
    """Two files of one language translating one key two ways: neither wins (`po.conflict`)."""
    first = reading.origins.setdefault((po.lang, key), (po.path, line, value))
    if first[0] == po.path or first[2] == value:
        return False
    reading.problems.add("po.conflict", po.path, line, key,
                         f"{_shown(value)} conflicts with {_shown(first[2])}, the {po.lang!r} translation "
                         f"{display_path(first[0])}:{first[1]} gives for the same key: import one of the two "
                         "(or make them agree)", other_file=str(first[0]), other_line=first[1])
    return True


def _plural_shape_ok(po: _PoFile, message: Message, source, strings: tuple[str, ...], problems: Problems) -> bool:
    line, key = message.lineno or 0, message.context or ""
    if isinstance(source, PluralText) and not message.pluralizable:
        problems.add("po.plural", po.path, line, key, "the source text has plural forms but this entry has no "
                     "msgid_plural: re-export the PO", _first(message.id))
        return False
    if message.pluralizable and (len(strings) != len(po.cats) or not all(strings)):
        empty = [f"msgstr[{i}] ({cat})" for i, cat in enumerate(po.cats) if i >= len(strings) or not strings[i]]
        problems.add("po.plural", po.path, line, key, f"plural forms missing: {', '.join(empty) or 'extra forms'}",
                     _first(message.id))
        return False
    return True


def _msgstr_keywords(plural: bool, count: int) -> list[str]:
    return [f"msgstr[{i}]" for i in range(count)] if plural else ["msgstr"]


def _check_control_chars(po: _PoFile, entry: _Entry, key: str, plural: bool, problems: Problems) -> None:
    """A translation is printed text: a control character (C0 but tab and newline, DEL, C1) in it
    is a paste accident that would print as a missing glyph or nothing. Bidi controls are not
    refused: the text layer orders right-to-left text by them (pnp.text.unibidi)."""
    for keyword in _msgstr_keywords(plural, len(po.cats)):
        for line, text in entry.pieces.get(keyword, []):
            bad = next((char for char in text if char not in "\n\t" and unicodedata.category(char) == "Cc"), None)
            if bad is not None:
                problems.add("po.control-char", po.path, line, key, f"{keyword} has the control character "
                             f"U+{ord(bad):04X}: a translation is printed text", _shorten(po.scan.lines[line - 1]),
                             char=f"U+{ord(bad):04X}")


def _check_placeholders(po: _PoFile, entry: _Entry, key: str, message: Message, source, strings: tuple[str, ...],
                        problems: Problems) -> None:
    """The rule of `pnp.i18n.placeholders.compare`, each finding on the line of its msgstr."""
    plural = message.pluralizable
    source_forms = list(source.forms.values()) if isinstance(source, PluralText) else [str(source)]
    singles = single_number_categories(po.lang)
    found = compare(source_forms, list(strings), [cat in singles for cat in po.cats] if plural else None)
    keywords = _msgstr_keywords(plural, len(strings))
    have = ", ".join(f"{{{p}}}" for p in sorted(set().union(*(placeholders(f) for f in source_forms)))) or "none"
    parts = []
    if found.dropped:
        parts.append("drops " + ", ".join(f"{{{p}}}" for p in found.dropped))
    if found.invented:
        parts.append("invents " + ", ".join(f"{{{p}}}" for p in found.invented))
    if parts:
        problems.add("po.placeholder", po.path, entry.line_of(keywords[0]), key,
                     f"the translation {' and '.join(parts)} (the source has placeholders: {have})", _first(strings),
                     dropped=found.dropped, invented=found.invented)
    for form, brace in found.stray:
        problems.add("po.placeholder", po.path, entry.line_of(keywords[form]), key,
                     f"{keywords[form]} has a stray {brace!r} (a placeholder is {{name}}; any other brace is printed "
                     f"as written, {brace * 2} too: it is not an escape; a brace the source lacks is a typo); the source has placeholders: {have}", _shorten(strings[form]),
                     form=form, brace=brace)
    for form in found.number_dropped:
        cat = po.cats[form]
        allowed = ", ".join(f"{c} ({describe_examples(po.lang, c)})" for c in po.cats if c in singles) or "none"
        problems.add("po.plural", po.path, entry.line_of(keywords[form]), key,
                     f"{keywords[form]} ({cat}: n = {describe_examples(po.lang, cat)}) of msgid {_first(message.id)!r} "
                     f"leaves out {{n}}: only a form for a single number may say it in words ({po.lang}: {allowed})",
                     _shorten(strings[form]), form=form, category=cat)


def _plural_value(pack: Pack, po: _PoFile, key: str, line: int, strings: tuple[str, ...], notes: list[str]) -> dict[str, str]:
    """The CLDR mapping of a plural entry; a category gettext has no msgstr for (Ukrainian `other`,
    for fractions) keeps its present form, else takes the last msgstr."""
    lang = po.lang
    forms = {cat: strings[i] for i, cat in enumerate(po.cats)}
    old = own_text(pack, lang, key)
    old_forms = old.forms if isinstance(old, PluralText) else {}
    for cat in [c for c in required_categories(lang) if c not in forms]:
        if cat in old_forms:
            forms[cat] = old_forms[cat]
        elif (into := folded_into(lang, cat)) in forms:     # Italian `many`: gettext's `other` (plurals.FOLDED)
            forms[cat] = forms[into]
        else:
            forms[cat] = strings[-1]
            notes.append(f"{po.shown}:{line}: {key}: {lang} form {cat!r} (n = {describe_examples(lang, cat)}) "
                         f"has no msgstr in gettext: copied msgstr[{len(strings) - 1}]; check it in text/{lang}.yaml")
    return {cat: forms[cat] for cat in CATEGORIES if cat in forms}


def _exported_hash(pack: Pack, po: _PoFile, message: Message, source, reading: _Reading) -> str | None:
    """The hash of the source text the entry was translated from: its own source (`exported_source`),
    recorded with its text for the next export's previous msgid. A translation of an older source
    is imported as gettext keeps a fuzzy entry: it lands, recorded as stale, and the next export
    flags it fuzzy for review; but not over a translation made from today's source (None, with a
    `po.older` warning): an old PO imported again must not undo newer work. (A PO exported before
    issue 16 says its hash in a comment.)"""
    current = hashes_mod.text_hash(source)
    legacy = _hash_comment(message)
    exported = exported_source(message, source)
    if exported is None:
        found = current if legacy is None else legacy
    else:
        found = legacy if legacy not in (None, current) else hashes_mod.text_hash(exported)
        reading.sources[found] = hashes_mod.source_value(exported)
    if found == current:
        reading.sources[current] = hashes_mod.source_value(source)
    else:
        today = _id_for(source, message.pluralizable)
        key = message.context or ""
        _file, line = pack.text_locations[pack.source_language][key]
        if own_text(pack, po.lang, key) is not None and reading.recorded(pack).get(po.lang, {}).get(key) == current:
            reading.warnings.add("po.older", po.path, message.lineno or 0, key,
                                 f"translated from an older source text than the present {po.lang!r} translation, "
                                 f"which is up to date with text/{pack.source_language}.yaml:{line} "
                                 f"({_first(today)!r}): not imported", _first(message.id))
            return None
        reading.warnings.add("po.stale", po.path, message.lineno or 0, message.context or "",
                             f"translated from an older source text (text/{pack.source_language}.yaml:{line} now has "
                             f"{_first(today)!r}): imported, marked stale; the next export flags it fuzzy",
                             _first(message.id))
    return found


def exported_source(message: Message, source) -> str | PluralText | None:
    """The source text a PO entry was exported from, when it is not today's `source` (None when it
    is): its msgid, or for a plural entry msgid (one), msgid_plural (other) and the other forms
    from its `#. source <category>: <form>` comments."""
    extra = {}
    for comment in message.auto_comments:
        found = SOURCE_FORM.match(comment.strip())
        if found:
            extra[found.group(1)] = found.group(2)
    today_extra = ({cat: form for cat, form in source.forms.items() if cat not in ("one", "other")}
                   if isinstance(source, PluralText) else {})
    if message.id == _id_for(source, message.pluralizable) and extra == today_extra:
        return None
    if not message.pluralizable:
        return str(message.id)
    singular, plural = tuple(message.id)[:2]
    forms = {"one": singular, **extra, "other": plural}
    return PluralText({cat: forms[cat] for cat in CATEGORIES if cat in forms})


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


def import_files(pack: Pack, files: list[Path]) -> ImportResult:
    """Check every file, then (only if nothing is wrong) write the texts and the source hashes.
    Every text file is made before the first is written, so a failure writes nothing."""
    reading = read_translations(pack, files)
    reading.problems.raise_if_any()
    result = ImportResult(notes=reading.notes, warnings=sorted(reading.warnings.items))
    order = source_keys(pack)
    rendered, write_errors, in_data_warnings = {}, Problems(), Problems()
    for lang, values in reading.updates.items():
        changed = _changed(pack, lang, values)
        in_data = [key for key in changed if _translated_in_data(pack, lang, key)]
        for key in in_data:         # the data holds this translation: a warning, where to change it
            file, line = pack.text_locations[lang][key]
            in_data_warnings.add("po.in-data", file, line, key,
                                 f"the {lang!r} translation {_shown(changed.pop(key))} was not imported: "
                                 f"{pack.literal_texts[key].where} has its {lang!r} text written beside it in the "
                                 "data; change it there",
                                 lang=lang)
        result.changed[lang] = list(changed)
        result.not_imported[lang] = len(in_data) + reading.older.pop(lang, 0)
        result.unchanged[lang] = len(values) - len(changed) - len(in_data)
        if changed:
            target = pack.root / "text" / f"{lang}.yaml"
            try:
                rendered[target] = render_texts(target, changed, order)
            except YamlEditError as error:
                write_errors.add("po.write", target, error.line, error.key, str(error))
    for lang, count in reading.older.items():       # languages of which nothing else was imported
        result.changed[lang], result.unchanged[lang], result.not_imported[lang] = [], 0, count
    write_errors.raise_if_any()
    result.warnings += in_data_warnings.items
    for target, text in rendered.items():
        write_text_atomically(target, text)
        result.files.append(target)
    if any(reading.hashes.values()):
        recorded = hashes_mod.read_hashes(pack.root)
        for lang, keys in reading.hashes.items():
            recorded.setdefault(lang, {}).update(keys)
        hashes_mod.write_hashes(pack.root, recorded, order)
        result.files.append(hashes_mod.hash_file(pack.root))
        if hashes_mod.write_sources(pack.root, {**hashes_mod.read_sources(pack.root), **reading.sources}, recorded):
            result.files.append(hashes_mod.sources_file(pack.root))
    return result


def _translated_in_data(pack: Pack, lang: str, key: str) -> bool:
    """The translation is part of the card data (`{en: ..., it: ...}`, a `title.it` column)."""
    literal = pack.literal_texts.get(key)
    return literal is not None and lang in literal.texts


def _changed(pack: Pack, lang: str, values: dict) -> dict:
    changed = {}
    for key, value in values.items():
        old = own_text(pack, lang, key)
        old_value = old.forms if isinstance(old, PluralText) else (None if old is None else str(old))
        if old_value != value:
            changed[key] = value
    return changed
