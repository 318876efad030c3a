"""The data schema: every key any YAML file of a pack may hold, its type, default and meaning.

Each field is declared once, as a `Field` with a one-line docstring, inside a `Schema`; the loader
validates with it (`Validator`), the messages quote it (did-you-mean, the accepted keys) and the
docs (`pnp schema`, docs/reference.md) and the editor's JSON Schema (`pnp schema --json`) are
written from it. Unknown keys are errors everywhere.

Type specs (strings), the same for built-in files, card kinds and pack-declared collections:

    int number bool str text color slug lang length size path
    enum:a|b|c   ref:<collection>   list:<type>   map:<type>   <type>?   (optional: may be null)

`text` is a printed text: a text key (looked up in text/<lang>.yaml, must exist in every declared
language), or, where the reader allows literals (pack data: `TextLiterals`), the text itself in the
source language or a mapping language -> text (see `TEXT_KEY` for how a key is told from a text);
`length` is a length such as "18mm", "0.5in" or "12pt" (a bare number is millimetres) and is
converted to millimetres once, here; `size` a card size (poker, bridge... or "63mm x 88mm");
`path` a file inside the pack; `collection` the name of a collection the pack declares. A nested `Schema` (or a list of one) describes mappings.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from pnp.errors import Problems
from pnp.yamlsource import Source, dotted


class _Required:
    def __repr__(self) -> str:
        return "required"


REQUIRED: Any = _Required()


@dataclass(frozen=True)
class Field:
    type: Any           # a type spec (str), a Schema, a OneOf, or [Schema] for a list of mappings
    doc: str
    default: Any = REQUIRED
    bounds: tuple[int, int] | None = None   # an int/number field's lowest and highest value

    @property
    def required(self) -> bool:
        return self.default is REQUIRED


@dataclass
class Schema:
    """A mapping with declared keys (`fields`), or an open mapping name -> `values`."""

    name: str
    doc: str
    fields: dict[str, Field] = field(default_factory=dict)
    values: Any = None          # open mapping: the type of every value (keys are names)
    unique: str | None = "id"   # in a list of these, this key's values must be unique
    declared_at: tuple | None = None   # written in a pack: the key path of its fields in pack.yaml

    def __post_init__(self) -> None:
        if self.name:
            SCHEMAS.setdefault(self.name, self)


@dataclass
class OneOf:
    """A mapping whose `tag` key picks its schema (components and rules by `type`); in a list of
    them, the `unique` key must not repeat."""

    name: str
    doc: str
    tag: str
    choices: Callable[[], dict[str, Schema]]
    unique: str | None = None

    def __post_init__(self) -> None:
        if self.name:
            SCHEMAS.setdefault(self.name, self)


@dataclass(frozen=True)
class AnyOf:
    """A value of the first of `specs` that fits it; `what` names them all in messages."""

    specs: tuple
    what: str

    def __str__(self) -> str:
        return self.what


SCHEMAS: dict[str, Schema | OneOf] = {}   # every named schema, for the reference and JSON Schema

SLUG = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
# A text field's string is a text key when it has this shape (dotted lower-case words, no spaces:
# `card.knight.title`), else it is the text itself. The rule is syntactic so that a misspelt key is
# caught as a typo (with a did-you-mean) instead of printing as a literal; a literal text that looks
# like a key ("v1.2") is written as a mapping per language (`{en: v1.2}`).
TEXT_KEY = re.compile(r"^[a-z0-9_]+(?:\.[a-z0-9_-]+)+$")
COLOR = re.compile(r"^#(?:[0-9a-fA-F]{3}){1,2}$")
LANGUAGE = re.compile(r"^[a-z]{2,3}(?:-[A-Za-z0-9]+)?$")
SCALARS = ("int", "number", "bool", "str", "text", "color", "slug", "lang", "length", "size", "path",
           "collection", "fieldtypes", "any")
FIELD_TYPE = re.compile(r"^(?:(?:list|map):)*(?:" + "|".join(SCALARS) +
                        r"|enum:[^|?]+(?:\|[^|?]+)*|ref:[a-z0-9_-]+)\??$")

SCALAR_NAMES = {
    "int": "a whole number", "number": "a number", "bool": "true or false", "str": "text",
    "text": "a text (the words, a mapping language -> words, or a text key)", "color": "a colour like '#a0b0c0'",
    "slug": "an id of lower-case letters, digits, '-' or '_'", "lang": "a language code like 'it'",
    "length": "a length like '18mm', '0.5in' or '12pt'", "size": "a card size like 'poker' or '63mm x 88mm'",
    "path": "a file path inside the pack",
    "collection": "the name of a collection declared in pack.yaml",
    "fieldtypes": "field types: a mapping name -> type",
    "any": "any value (its meaning is checked by whoever reads it)",
}


def describe(value: Any) -> str:
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return f"a yes/no value ({value})"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def closest(word: str, known: list[str]) -> str | None:
    """The known word `word` was most probably meant to be, if any is close."""
    import difflib  # a did-you-mean is only for a misspelt name

    close = difflib.get_close_matches(str(word), [str(k) for k in known], n=1, cutoff=0.6)
    return close[0] if close else None


def did_you_mean(word: str, known: list[str]) -> str:
    """'; did you mean 'pitch'?' or nothing, to follow a message."""
    guess = closest(word, known)
    return f"; did you mean {guess!r}?" if guess else ""


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


_CHECKS: dict[str, Callable[[Any], bool]] = {
    "int": _is_int,
    "number": _is_number,
    "bool": lambda v: isinstance(v, bool),
    "str": lambda v: isinstance(v, str),
    "text": lambda v: isinstance(v, str) and bool(v.strip()),
    "color": lambda v: isinstance(v, str) and bool(COLOR.match(v)),
    "slug": lambda v: isinstance(v, str) and bool(SLUG.match(v)),
    "lang": lambda v: isinstance(v, str) and bool(LANGUAGE.match(v)),
    "path": lambda v: isinstance(v, str) and bool(v.strip()),
    "collection": lambda v: isinstance(v, str) and bool(SLUG.match(v)),
    "fieldtypes": lambda v: isinstance(v, dict),   # each type is checked by the reader (declared_type)
    "any": lambda v: True,                          # a game's own position format: the engine checks it
}


def scalar_problem(spec: str, value: Any) -> str | None:
    """None when `value` fits the scalar type `spec` (refs are checked by the caller; lists and
    mappings are the Validator's)."""
    optional = spec.endswith("?")
    spec = spec.rstrip("?")
    if value is None:
        return None if optional else "a value is required"
    if spec.startswith("enum:"):
        allowed = spec[5:].split("|")
        return None if str(value) in allowed and not isinstance(value, (bool, list, dict)) else \
            f"expected one of {', '.join(allowed)}, got {describe(value)}"
    if spec.startswith("ref:"):
        return None if isinstance(value, (str, int)) and not isinstance(value, bool) else \
            f"expected an id, got {describe(value)}"
    if spec in ("length", "size"):
        from pnp.units import card_size_pt, to_mm
        try:
            to_mm(value) if spec == "length" else card_size_pt(value)
        except (ValueError, TypeError):
            return f"expected {SCALAR_NAMES[spec]}, got {describe(value)}"
        return None
    check = _CHECKS.get(spec)
    if check is None:
        return f"unknown type {spec!r}"
    return None if check(value) else f"expected {SCALAR_NAMES[spec]}, got {describe(value)}"


def type_name(spec: Any) -> str:
    """A type spec as the reference writes it."""
    if isinstance(spec, (Schema, OneOf)):
        return spec.name or "mapping"
    if isinstance(spec, list):
        return f"list of {type_name(spec[0])}"
    return str(spec)


COLLECTIONS = "@collections"   # RefUse.collection of a `collection` value: a collection's name


@dataclass
class TextUse:
    key: str
    file: Any
    line: int
    where: str


@dataclass
class LiteralText:
    """A text written in the data itself (a literal or a mapping per language), kept under a
    synthesized text key so that every reader of texts finds it like a keyed one."""

    key: str                    # the synthesized key (TextLiterals.key_of)
    texts: dict[str, str]       # language -> text; the source language always
    file: Any
    line: int
    where: str                  # the label of the field, e.g. 'card knight.title'
    lines: dict[str, int] = field(default_factory=dict)   # language -> line (a sheet's column, a mapping's key)


@dataclass
class TextLiterals:
    """Lets a Validator take texts written in the data: `languages` (the source first) are the
    keys a per-language mapping may have; `key_of(path)` is the stable key of the field at `path`."""

    languages: list[str]
    key_of: Callable[[tuple], str]


@dataclass
class RefUse:
    collection: str
    value: Any
    file: Any
    line: int
    where: str
    snippet: str


class Validator:
    """Checks YAML values of one file against a schema, reporting into `problems`.

    `check` returns the value as the program should see it: defaults filled in, lengths in mm.
    Text keys and references met on the way are collected (`texts`, `refs`) for the caller, who
    knows the languages and the collections."""

    def __init__(self, source: Source, problems: Problems, label: Callable[[tuple], str] | None = None,
                 max_int: int | None = None, declarations: Source | None = None,
                 literals: TextLiterals | None = None):
        self.source = source
        self.problems = problems
        self.texts: list[TextUse] = []
        self.refs: list[RefUse] = []
        self.literals = literals            # None: a text field holds a text key only
        self.literal_texts: list[LiteralText] = []
        self.label = label or dotted
        # pack data bounds every number (pnp.limits.MAX_INT); a game record's rng state does not
        self.max_int = max_int
        self.declarations = declarations   # the file schemas with `declared_at` were written in

    def add(self, code: str, path: tuple, message: str, **detail: Any) -> None:
        self.problems.add(code, self.source.file, self.source.line(path), self.label(path) or self.source.file.name,
                          message, self.source.snippet(path), **detail)

    def check(self, value: Any, spec: Any, path: tuple = (), bounds: tuple[int, int] | None = None) -> Any:
        """`value` checked against `spec`; `bounds`: the field's own range of an int or number."""
        if isinstance(spec, Schema):
            return self.mapping(value, spec, path)
        if isinstance(spec, OneOf):
            return self.one_of(value, spec, path)
        if isinstance(spec, list):
            return self.records(value, spec[0], path)
        if isinstance(spec, AnyOf):
            for option in spec.specs:
                trial = type(self)(self.source, Problems(), self.label, self.max_int, self.declarations,
                                   self.literals)
                checked = trial.check(value, option, path, bounds)
                if not trial.problems:
                    self.texts += trial.texts
                    self.refs += trial.refs
                    self.literal_texts += trial.literal_texts
                    return checked
            self.add("schema.type", path, f"expected {spec.what}, got {describe(value)}", expected=spec.what)
            return value
        optional = spec.endswith("?")
        base = spec.rstrip("?")
        if base == "any":       # anything, null included: whoever reads it checks it
            return value
        if value is None:
            if not optional:
                self.add("schema.type", path, "a value is required")
            return None
        if base.startswith("list:"):
            if not isinstance(value, list):
                self.add("schema.type", path, f"expected a list, got {describe(value)}")
                return []
            return [self.check(item, base[5:], path + (i,)) for i, item in enumerate(value)]
        if base.startswith("map:"):
            if not isinstance(value, dict):
                self.add("schema.type", path, f"expected a mapping, got {describe(value)}")
                return {}
            return {k: self.check(v, base[4:], path + (k,)) for k, v in value.items()}
        if base == "text" and self.literals is not None:
            return self.text(value, path)
        message = scalar_problem(base, value)
        if message:
            code = "schema.value" if base.startswith("enum:") else "schema.type"
            self.add(code, path, message, expected=base)
            return value
        if base in ("int", "number") and not self.in_range(value, path, bounds):
            return value
        if base == "length":
            from pnp.units import to_mm
            return to_mm(value)
        if base == "text":
            self.texts.append(TextUse(value, self.source.file, self.source.line(path), self.label(path)))
        if base.startswith("ref:") or base == "collection":
            self.refs.append(RefUse(COLLECTIONS if base == "collection" else base[4:], value, self.source.file, self.source.line(path), self.label(path),
                                    self.source.snippet(path)))
        return value

    def text(self, value: Any, path: tuple) -> Any:
        """A text field where literals are allowed: a key (TEXT_KEY) is kept for the caller to look
        up; a literal or a mapping per language becomes a `LiteralText` and its synthesized key."""
        assert self.literals is not None
        languages = self.literals.languages
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = str(value)                      # `title: 1984` prints 1984
        if isinstance(value, str) and TEXT_KEY.match(value):
            self.texts.append(TextUse(value, self.source.file, self.source.line(path), self.label(path)))
            return value
        if isinstance(value, str) and value.strip() and languages:
            return self.literal({languages[0]: value}, path, {})
        if isinstance(value, dict) and languages:
            return self.text_mapping(value, path)
        self.add("schema.type", path, f"expected {SCALAR_NAMES['text']}, got {describe(value)}",
                 expected="text")
        return value

    def text_mapping(self, value: dict, path: tuple) -> Any:
        """`{en: Knight, it: Cavaliere}`: declared languages only, the source language required."""
        assert self.literals is not None
        languages = self.literals.languages
        texts: dict[str, str] = {}
        lines: dict[str, int] = {}
        for lang, text in value.items():
            if lang not in languages:
                self.add("schema.unknown-key", path + (lang,), f"unknown language {lang!r} in a text"
                         f"{did_you_mean(str(lang), languages)} (the pack declares: {', '.join(languages)})",
                         unknown=lang, suggestion=closest(str(lang), languages) or "")
            elif isinstance(text, (int, float)) and not isinstance(text, bool):
                texts[lang] = str(text)
            elif not isinstance(text, str) or not text.strip():
                self.add("schema.type", path + (lang,), f"expected the {lang!r} text, got {describe(text)}",
                         expected="text")
            else:
                texts[lang] = text
            lines[str(lang)] = self.source.line(path + (lang,))
        if languages[0] not in value:
            self.add("schema.missing-key", path, f"the text has no {languages[0]!r} (source language) text "
                     f"(it has: {', '.join(map(str, value)) or 'none'})", missing=languages[0])
            return None
        return self.literal(texts, path, lines)

    def literal(self, texts: dict[str, str], path: tuple, lines: dict[str, int]) -> str:
        assert self.literals is not None
        key = self.literals.key_of(path)
        line = self.source.line(path)
        self.literal_texts.append(LiteralText(key, texts, self.source.file, line, self.label(path), lines))
        self.texts.append(TextUse(key, self.source.file, line, self.label(path)))
        return key

    def in_range(self, value: float, path: tuple, bounds: tuple[int, int] | None) -> bool:
        """A number within its field's bounds, else within +-max_int (NaN and infinities never are)."""
        if bounds is None:
            if self.max_int is None:
                return True
            bounds = (-self.max_int, self.max_int)
        low, high = bounds
        if low <= value <= high:
            return True
        self.add("schema.range", path, f"{value!r} is out of range: it must be from {low:,} to {high:,}",
                 low=low, high=high)
        return False

    def mapping(self, value: Any, schema: Schema, path: tuple) -> dict:
        if not isinstance(value, dict):
            self.add("schema.type", path, f"expected a mapping ({schema.doc.rstrip('.')}), got {describe(value)}")
            return {}
        if schema.values is not None and not schema.fields:
            return {k: self.check(v, schema.values, path + (k,)) for k, v in value.items()}
        out: dict = {}
        known = list(schema.fields)
        meant: set[str] = set()     # required keys an unknown key was probably meant to be
        for key, item in value.items():
            if key not in schema.fields:
                guess = closest(key, [k for k in known if k not in value])
                if guess:
                    meant.add(guess)
                self.add("schema.unknown-key", path + (key,),
                         f"unknown key {key!r} in {self.what(schema, path)}{did_you_mean(key, known)} "
                         f"(known keys: {', '.join(known)})", unknown=key, suggestion=guess or "")
                continue
            out[key] = self.check(item, schema.fields[key].type, path + (key,), schema.fields[key].bounds)
        for key, spec in schema.fields.items():
            if key in value:
                continue
            if spec.required:
                if key in meant:        # one message per problem: the typo is already reported
                    continue
                held = self.source.missing(path + (key,))
                if held is None:
                    self.add("schema.missing-key", path,
                             f"missing required key {key!r} in {self.what(schema, path)} ({spec.doc.rstrip('.')})",
                             missing=key)
                elif held:              # a place the file has for it, empty: said there
                    self.add("schema.missing-key", path + (key,), f"{held}: {schema.name or schema.doc} needs "
                             f"its {key!r} ({spec.doc.rstrip('.')})", missing=key)
            else:
                out[key] = _default(spec)
        return out

    def one_of(self, value: Any, spec: OneOf, path: tuple) -> dict:
        if not isinstance(value, dict):
            self.add("schema.type", path, f"expected a mapping with {spec.tag!r}, got {describe(value)}")
            return {}
        choices = spec.choices()
        tag = value.get(spec.tag)
        if spec.tag not in value:
            typo = next((key for key in value if closest(str(key), [spec.tag])), None)
            if typo is not None:    # `typ: dice`: one message, on the typo
                self.add("schema.unknown-key", path + (typo,), f"unknown key {typo!r}; did you mean {spec.tag!r}? "
                         f"(every entry needs `{spec.tag}`)", unknown=typo, suggestion=spec.tag)
                return {}
        if not isinstance(tag, str) or tag not in choices:
            where = path + (spec.tag,) if spec.tag in value else path
            self.add("schema.value" if spec.tag in value else "schema.missing-key", where,
                     f"{spec.tag} {tag!r} is not known{did_you_mean(str(tag), list(choices))} "
                     f"(known: {', '.join(sorted(choices))})")
            return {}
        body = {k: v for k, v in value.items() if k != spec.tag}
        out = self.mapping(body, choices[tag], path)
        return {spec.tag: tag, **out}

    def records(self, value: Any, schema: Schema, path: tuple) -> list:
        """A list of mappings; `schema.unique` (normally `id`) must not repeat."""
        if not isinstance(value, list):
            self.add("schema.type", path, f"expected a list of {schema.name or 'entries'}, got {describe(value)}")
            return []
        out = []
        seen: dict[Any, int] = {}
        into, self.problems = self.problems, Problems()     # held back for fold_entries
        try:
            for index, item in enumerate(value):
                checked = self.check(item, schema, path + (index,))
                out.append(checked)
                unique = getattr(schema, "unique", None)
                ident = item.get(unique) if unique and isinstance(item, dict) else None
                if ident is None or isinstance(ident, (list, dict)):
                    continue
                if ident in seen:
                    self.add("schema.duplicate-id", path + (index, unique),
                             f"duplicate {unique} {ident!r} (first on line {seen[ident]})", duplicate=ident)
                else:
                    seen[ident] = self.source.line(path + (index, unique))
        finally:
            found, self.problems = self.problems, into
        declared_at = getattr(schema, "declared_at", None)
        if declared_at is not None and self.declarations is not None:
            inside = dotted(path)
            where = self.source.file.name + ("" if not inside or inside.startswith("[") else ".") + inside
            fold_entries(found.items, len(value), self.declarations, declared_at, list(schema.fields),
                         f"all {len(value)} entries of {where}", self.problems)
        else:
            self.problems.items.extend(found.items)
        return out

    def what(self, schema: Schema, path: tuple) -> str:
        """How messages name the mapping: the schema's name, else its description."""
        name = schema.name or schema.doc
        return f"{name} ({dotted(path)})" if path and not isinstance(path[-1], str) else name


def fold_shared_declarations(problems: Problems) -> None:
    """One declaration shared by several collections through a YAML alias (`fields: &map_fields`,
    `items: *map_fields`) is one line of pack.yaml: its defect is said once, for the first
    collection, not once per collection and entry that uses it."""
    seen: set = set()
    kept = []
    for p in problems.items:
        if p.code == "schema.declaration":
            mark = (p.file, p.line, p.get("unknown"), p.get("missing"))
            if mark in seen:
                continue
            seen.add(mark)
        kept.append(p)
    problems.items[:] = kept


def fold_entries(found: list, entries: int, declarations: Source, declared_at: tuple, declared: list[str],
                 entries_text: str, problems: Problems) -> None:
    """The problems `found` in the entries of one shape declared in a pack (a collection's entries,
    a kind's cards) into `problems`. A key that every entry has and the declaration lacks, or a
    declared field that no entry has, is a defect of the declaration: one problem on its line in
    pack.yaml (`declarations`, at `declared_at`), instead of one on every entry."""
    if entries < 2:
        problems.items.extend(found)
        return
    here = declarations.line(declared_at)
    if any(p.code == "schema.type" and str(p.file) == str(declarations.file) and p.line == here for p in problems.items):
        return                              # the declaration itself is unusable, and reported: no entry is checked
    folded: set = set()
    for code, name in ("schema.unknown-key", "unknown"), ("schema.missing-key", "missing"):
        groups: dict[str, list] = {}
        for problem in found:
            if problem.code == code and problem.get(name):
                groups.setdefault(str(problem.get(name)), []).append(problem)
        for key, group in groups.items():
            if len(group) < entries or (code == "schema.missing-key" and key not in declared):
                continue                    # some entries only: each is its own typo; `id` is no declared field
            folded.update(group)
            suggestion = group[0].get("suggestion") or ""
            if code == "schema.missing-key":
                where = declared_at + (key,)
                message = f"field {key!r} is declared here, but none of {entries_text} has it"
            elif suggestion in declared:
                where = declared_at + (suggestion,)
                message = f"field {suggestion!r} is declared here, but {entries_text} have {key!r} instead: misspelt?"
            else:
                where = declared_at
                message = (f"{entries_text} have key {key!r}, which is not declared here "
                           f"(declared: {', '.join(declared) or 'none'})")
            line = declarations.line(where)
            if any(p.code == "schema.declaration" and p.line == line and p.key == dotted(where)
                   and p.get(name) == key for p in problems.items):
                continue                    # the same list in every entry of an outer list: said once
            problems.add("schema.declaration", declarations.file, line, dotted(where), message,
                         declarations.snippet(where), **{name: key, "entries": entries})
    problems.items.extend(p for p in found if p not in folded)


def _default(spec: Field) -> Any:
    default = spec.default
    if isinstance(default, (list, dict)):
        return type(default)(default)
    if isinstance(spec.type, str) and spec.type.rstrip("?") == "length" and default is not None:
        from pnp.units import to_mm
        return to_mm(default)
    return default


# ---- field declarations written in data (card kinds, collections) ----

def declared_type(spec: Any, name: str = "", at: tuple | None = None) -> Any:
    """A type written in a pack (`int`, `{cols: int}`, `[{id: slug}]`) as a schema type, or None
    when it is not a type (the caller reports it); `at`: its key path in pack.yaml, kept by each
    mapping's schema (`declared_at`) so that a misspelt declaration is reported there."""
    if isinstance(spec, str):
        return spec if FIELD_TYPE.match(spec) else None
    if isinstance(spec, dict):
        fields = {}
        for key, sub in spec.items():
            sub_type = declared_type(sub, f"{name}.{key}" if name else str(key), None if at is None else at + (key,))
            if sub_type is None:
                return None
            optional = isinstance(sub_type, str) and sub_type.endswith("?")
            fields[str(key)] = Field(sub_type, f"declared in pack.yaml as {type_name(sub_type)}",
                                     None if optional else REQUIRED)
        return Schema("", name or "entry", fields, declared_at=at)
    if isinstance(spec, list) and len(spec) == 1:
        inner = declared_type(spec[0], name, None if at is None else at + (0,))
        if isinstance(inner, Schema):
            return [inner]
        return f"list:{inner}" if isinstance(inner, str) else None
    return None


def bad_declared_types(spec: Any, path: tuple = ()) -> list[tuple[tuple, Any]]:
    """Every place in a declared type that is not a type, for messages."""
    if isinstance(spec, str):
        return [] if FIELD_TYPE.match(spec) else [(path, spec)]
    if isinstance(spec, dict):
        return [bad for key, sub in spec.items() for bad in bad_declared_types(sub, path + (key,))]
    if isinstance(spec, list) and len(spec) == 1:
        return bad_declared_types(spec[0], path + (0,))
    return [(path, spec)]


TYPE_HELP = ("use int, number, bool, str, text, color, slug, length, size, path, enum:a|b, "
             "ref:<collection>, list:<type>, map:<type>, a mapping of fields, or [a mapping] for a "
             "list of them; add '?' for optional")


# ---- glossaries (`pnp i18n lint`): data/<game>/text/glossary.yaml and pnp/i18n/glossary.yaml ----
# Declared here, once, like every other file's keys; pnp.i18n.lint reads them with a Validator.

GLOSSARY_TERM = Schema("glossary term", "The chosen term of one language, with what the lint accepts and refuses.", {
    "term": Field("str", "The chosen term, as a text prints it in its base form (`Spielhilfe`, `пам'ятка гравця`)."),
    "forms": Field("list:str", "Other forms that count as the term: irregular inflections the stem rule "
                   "(each word minus its last letters) does not reach.", []),
    "not": Field("list:str", "Forbidden variants: a text of this language holding one (as a word or a word's "
                 "beginning) is a finding, whatever its source says.", []),
    "seed": Field("str?", "The seed's own term, as the user's document writes it (the chosen term follows it).", None),
    "seed_file": Field("str?", "The seed document the `seed` term comes from (its file name).", None),
    "note": Field("str?", "Why this term, for the next translator.", None),
}, unique=None)
GLOSSARY_ENTRY = Schema("glossary entry", "One term of the game: its English (source) form and its chosen form "
                        "per language.", {
    "en": Field("str", "The term in English, the pivot every text file shares (a text whose English holds it "
                "must hold the chosen term in every language listed)."),
    "note": Field("str?", "What the term names.", None),
    "skip_keys": Field("list:str", "Text keys whose English uses the word in another sense (`wall the others "
                       "in`); the term is not required there.", []),
    "in": Field(Schema("", "translations by language", values=AnyOf(("str", GLOSSARY_TERM),
                                                                     "a term, or {term, forms, not, seed...}")),
                "The chosen term per language code: the term itself, or a mapping with its forms, forbidden "
                "variants and seed.", {}),
}, unique="en")
GLOSSARY = Schema("glossary.yaml", "A game's glossary (data/<game>/text/glossary.yaml; the shared one: "
                  "pnp/i18n/glossary.yaml): one term per thing per language.", {
    "terms": Field([GLOSSARY_ENTRY], "The terms, one entry per English term.", []),
    "own_wording": Field("list:str", "Shared sheet keys (pnp/i18n/sheet: `components.legend.title`...) this "
                         "game's text files word their own way on purpose; any other shared key in a game's "
                         "text file is an `i18n.shared-word` finding.", []),
    "homonyms": Field("list:str", "English texts that may be translated several ways within one language "
                      "(one word, two meanings); exempt from `i18n.two-ways`.", []),
}, unique=None)


# ---- pack.yaml `text_floor_pt`: the smallest printed text a pack accepts (issue 16) ----------------
# Declared here, once, so `pnp schema`, docs/reference.md and the loader all read the same field;
# pnp.pack puts it in PACK, and `pnp i18n fit` reports every printed text under it (code text.small).

TEXT_FLOOR_PT_DEFAULT = 6.0
TEXT_FLOOR_PT = Field(
    "number",
    "The smallest type size (pt) this pack's printed text may shrink to before `pnp i18n fit` reports "
    "it (text.small): cards, player aids, boards, parts and tuck boxes, in every language. 6 pt is "
    "what reads on a home-printed card; a pack printed by a shop may accept less, a pack for "
    "children should ask for more.",
    TEXT_FLOOR_PT_DEFAULT,
    bounds=(1, 72),
)


# ---- printed digits (pack.yaml `digits`; read by pnp.text.digits)
DIGITS = Field("map:enum:latin|arabic-indic", "The digits numbers print with, per language: `latin` "
               "(0-9) or `arabic-indic` (٠-٩), e.g. {ar: arabic-indic}; a language not named prints "
               "Latin digits. Only how numbers print changes (card values, counts, numbers in texts), never the "
               "data; in a right-to-left language signs and number badges read right to left (`pnp docs text`). "
               "`pnp build --digits` overrides it for the right-to-left languages of a build.", {})
