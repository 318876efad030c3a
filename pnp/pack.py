"""Load a game pack: read its YAML, validate it against the schema, expand quantities.

`load_pack` is the one way in for the printer, the checker and the rules engines, so all of them
see the same cards. Every problem found is collected and raised together as a `DataError`.
"""
from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnp import schema, shipped, spreadsheets
from pnp.components.types import COMPONENT  # import-light: the schemas only, no drawing code
from pnp.errors import DataError, PnpError, Problem, Problems, display_path, shortened
from pnp.i18n.hashes import hash_file
from pnp.i18n.plurals import PluralText, check_forms, is_plural_mapping, with_folded
from pnp.limits import MAX_CARDS, MAX_INT, MAX_PACK_FILES, MAX_PLAYERS, MAX_QUANTITY
from pnp.text import packfonts
from pnp.units import card_size_pt, named_card_sizes
from pnp.yamlsource import Source, dotted, load_source, parse_source, read_source_text

if TYPE_CHECKING:
    from pnp.loadcache import LoadCache

DATA_DIR = shipped.data_dir()              # the shipped games, wherever pnp is installed
TEMPLATES_DIR = shipped.templates_dir()    # the shipped templates (_base/ and the games')
PACK_FILE = "pack.yaml"
DEFAULT_CARD_SIZE = "poker"


class UnknownGameError(PnpError):
    pass


@dataclass
class Kind:
    id: str
    front: str
    back: str | None
    fields: dict[str, Any]          # name -> type as declared in pack.yaml
    schema: schema.Schema           # a card of this kind: id, kind, quantity and the fields
    # where a card's name and rules text come from, for exports that show text (pnp.cardtext):
    # a field path through refs (`symbol.item`) or a text key (`rule.item`); None: not declared
    title: str | None = None
    rules: str | None = None


@dataclass
class Card:
    """One physical card (quantities already expanded)."""

    id: str                 # instance id: base id, or base id + "#n" when the quantity is above 1
    base_id: str
    kind: str
    deck: str
    copy: int               # 1..quantity
    quantity: int
    fields: dict[str, Any]  # as written in YAML; `text` fields hold text keys
    file: Path
    line: int


@dataclass
class Deck:
    id: str
    name: str               # text key
    size_pt: tuple[float, float]
    back: str | None
    cards: list[Card]
    file: Path
    # the card file as loaded (lines of every key): the rules checker reads it here, not again
    source: Source | None = field(default=None, repr=False, compare=False)
    tuckbox: bool = True    # pack.yaml `tuckbox`: the build prints a tuck box for the deck


@dataclass
class Pack:
    id: str
    root: Path
    name: str
    languages: list[str]
    players: dict[str, int]
    palette: dict[str, str]
    collections: dict[str, Any]
    kinds: dict[str, Kind]
    decks: list[Deck]
    texts: dict[str, dict[str, str]]   # lang -> dotted key -> text (a `PluralText` for plural forms)
    template_dirs: list[Path]
    sources: dict[str, Source] = field(default_factory=dict)
    # lang -> dotted key -> (file, line) of the key in text/<lang>.yaml (keys read from the file only)
    text_locations: dict[str, dict[str, tuple[Path, int]]] = field(default_factory=dict)
    # not-strict loads: problems that did not stop the load (a missing translation resolved by fallback)
    warnings: list[Problem] = field(default_factory=list)
    engine: str | None = None          # the `pnp.engines` entry point that plays this game
    components: list[dict] = field(default_factory=list)   # validated components.yaml entries
    # style -> {"file": Path, "arabic": Path | None}: the pack's own fonts (pnp.text.packfonts)
    fonts: dict[str, dict[str, Path | None]] = field(default_factory=dict)
    icons: Path | None = None          # the pack's icon folder: one SVG per icon, `:name:` in text
    # synthesized key -> a text written in the data (a literal or a mapping per language; see Text)
    literal_texts: dict[str, schema.LiteralText] = field(default_factory=dict)
    text_floor_pt: float = schema.TEXT_FLOOR_PT_DEFAULT   # pack.yaml text_floor_pt: `pnp i18n fit`'s floor
    digits: dict[str, str] = field(default_factory=dict)   # lang -> digit system (schema.DIGITS)
    # lang -> dotted key -> text: the shared sheet words of a language pnp lacks, from the pack's
    # text/sheet/<lang>.yaml (pnp.i18n.sheet); with where each is written
    sheet_words: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def source_language(self) -> str:
        return self.languages[0]

    def cards(self) -> list[Card]:
        return [card for deck in self.decks for card in deck.cards]

    def boxed_decks(self) -> list[Deck]:
        """The decks that get a tuck box (pnp.tuckbox): those with cards whose entry does not
        say `tuckbox: false`."""
        return [deck for deck in self.decks if deck.cards and deck.tuckbox]

    def deck(self, deck_id: str) -> Deck:
        for deck in self.decks:
            if deck.id == deck_id:
                return deck
        raise KeyError(deck_id)

    def text(self, lang: str, key: str) -> str:
        return self.texts[lang][key]


def available_packs() -> list[Path]:
    """Shipped packs, sorted by name."""
    if not DATA_DIR.is_dir():
        return []
    return sorted(p for p in DATA_DIR.iterdir() if (p / PACK_FILE).is_file())


def find_pack(name_or_path: str | Path) -> Path:
    """A shipped pack's name (`cimiterio`) or the path of any pack folder."""
    candidate = Path(name_or_path)
    if (candidate / PACK_FILE).is_file():
        return candidate
    shipped = DATA_DIR / str(name_or_path)
    if (shipped / PACK_FILE).is_file():
        return shipped
    names = ", ".join(p.name for p in available_packs()) or "none"
    raise UnknownGameError(f"unknown game {str(name_or_path)!r}: not a pack folder (no {PACK_FILE}) "
                           f"and not a shipped game (known: {names})")


def read_pack(root: Path, problems: Problems) -> Pack | None:
    """Read the pack at `root` as far as possible, adding every problem found to `problems`
    (for the checker, which reports them instead of stopping)."""
    main = load_source(root / PACK_FILE, problems)
    if main is None:
        return None
    try:
        return _read_pack(root, main, problems)
    except DataError as error:      # pack.yaml is not a mapping: nothing more can be read
        problems.items.extend(p for p in error.problems if p not in problems.items)
        return None


def load_pack(name_or_path: str | Path, strict: bool = True, load_cache: LoadCache | None = None,
              languages: Collection[str] | None = None) -> Pack:
    """Load and validate a pack. `strict=False`: a text key missing in a language is a warning
    (`pack.warnings`) and resolves to the English text (or the source language's when the pack has
    no English); `strict=True`: it is an error. `load_cache` (pnp.loadcache): a card file read
    without problems by an earlier build, and unchanged since, is taken from it. `languages`: the
    languages a missing text is reported for (a build of one language is not stopped, nor its
    output filled with warnings, by another language still being translated); None: every declared
    language, as `pnp check` wants."""
    root = find_pack(name_or_path)
    problems = Problems()
    main = load_source(root / PACK_FILE, problems)
    if main is None:
        raise DataError(problems.items)
    pack = _read_pack(root, main, problems, strict=strict, load_cache=load_cache, reported=languages)
    problems.raise_if_any()
    return pack


# ---- the schema of pack.yaml: every key declared once ----

PLAYERS = schema.Schema("players", "Player count range.", {
    "min": schema.Field("int", "Fewest players.", bounds=(1, MAX_PLAYERS)),
    "max": schema.Field("int", "Most players.", bounds=(1, MAX_PLAYERS)),
})
COLLECTION = schema.Schema("collection", "A file of game data that is not cards (a map, the pieces...).", {
    "file": schema.Field("path", "The YAML file, relative to the pack."),
    "doc": schema.Field("str", "What the data is, for designers.", ""),
    "items": schema.Field("fieldtypes?", "The file is a list of mappings with these fields "
                          "(name -> type, as card fields); an `id` field must be unique.", None),
    "fields": schema.Field("fieldtypes?", "The file is one mapping with these fields (name -> type).", None),
})
KIND = schema.Schema("kind", "A card kind: its templates and typed fields.", {
    "front": schema.Field("str", "Front template, a path below templates/."),
    "back": schema.Field("str?", "Back template for two-faced cards; null uses the deck's back.", None),
    "fields": schema.Field("fieldtypes", "Fields a card of this kind has: name -> type "
                           "(int, text, ref:<collection>... ; '?' for optional).", {}),
    "doc": schema.Field("str", "What this kind of card is, for designers.", ""),
    "title": schema.Field("str?", "The card's name as its front prints it, for exports that show text (Tabletop "
                          "Simulator's card name): a field path followed through refs (`title`, `symbol.item`) "
                          "ending at a text, or a text key (`gate.title`). None: exports name the card by its id.",
                          None),
    "rules": schema.Field("str?", "The card's rules text as its front prints it, for exports that show text (Tabletop "
                          "Simulator's card description, markup removed): a field path or a text key, as `title`. "
                          "None: no description.", None),
})
DECK = schema.Schema("deck", "A deck: its cards, size and back.", {
    "id": schema.Field("slug", "Deck id, unique in the pack."),
    "name": schema.Field("text", "The deck's name (a text, or a text key)."),
    "card_size": schema.Field("size", f"Named size ({named_card_sizes()}) or '63mm x 88mm'.", DEFAULT_CARD_SIZE),
    "back": schema.Field("str?", "Back template for single-faced cards.", None),
    "cards": schema.Field("path", "Card list file, relative to the pack: YAML (a list of cards) or a "
                          "spreadsheet (.csv; .xlsx or .ods with the `sheets` extra), one card per row "
                          "under a header row of field names."),
    "kind": schema.Field("str?", "The kind of the cards that name none (a spreadsheet without a `kind` "
                         "column, say).", None),
    "sheet": schema.Field("str?", "The sheet of an .xlsx/.ods card file; none: its first sheet.", None),
    "tuckbox": schema.Field("bool", "Print a tuck box for this deck (`pnp docs tuckbox`); false for a deck that "
                            "travels in the game's own box, or one too thick to fold from one sheet. A deck "
                            "without one is left out of the whole game's box too.", True),
})
PACK = schema.Schema("pack.yaml", "The entry of a game pack.", {
    "id": schema.Field("slug", "Pack id; the same as the folder name for shipped packs."),
    "name": schema.Field("text", "The game's printed name (a text, or a text key)."),
    "languages": schema.Field("list:lang", "Declared languages; the first is the source language."),
    "players": schema.Field(PLAYERS, "Player count range, e.g. {min: 1, max: 4}."),
    "engine": schema.Field("str?", "Name of the rules engine (a `pnp.engines` entry point) that plays "
                           "this game; none: the game is printed and checked only.", None),
    "palette": schema.Field("map:color", "Named colours templates and components may use.", {}),
    "collections": schema.Field(schema.Schema("", "collections", values=COLLECTION), "Game data files by "
                                "name, each with the fields of its entries.", {}),
    "components": schema.Field("path?", "What is printed besides cards (boards, parts, aids): "
                               "a list of components, see the component types.", None),
    "kinds": schema.Field(schema.Schema("", "kinds", values=KIND), "Card kinds: templates and typed fields.", {}),
    "decks": schema.Field([DECK], "Decks in print order.", []),
    "fonts": schema.Field(packfonts.FONTS, "The pack's own fonts by text style (regular, bold, "
                          "italic, or a name templates use), each a file in the pack.", {}),
    "icons": schema.Field("path?", "A folder of SVG icons in the pack, one file per icon (`skull.svg`); "
                          "card text draws one with `:skull:`.", None),
    "digits": schema.DIGITS,
    "seconds_per_turn": schema.Field("number?", "How long one player's turn takes at the table, in "
                                     "seconds (an estimate); `pnp playtest` turns simulated game "
                                     "lengths into minutes with it. None: no estimate.", None,
                                     bounds=(1, 3600)),
    "text_floor_pt": schema.TEXT_FLOOR_PT,
})
CARD_KEYS = {
    "id": schema.Field("slug", "Card id, unique in the pack."),
    "kind": schema.Field("str", "The card's kind, one of pack.yaml's kinds."),
    "quantity": schema.Field("int", "How many copies are printed.", 1, bounds=(1, MAX_QUANTITY)),
}


def validator(source: Source, problems: Problems, label=None, declarations: Source | None = None,
              literals: schema.TextLiterals | None = None) -> schema.Validator:
    """A validator for pack data: every number within +-MAX_INT (pnp.limits), unless its field is
    tighter; `declarations`: pack.yaml, where the schemas of collection entries were declared;
    `literals`: text fields may hold the text itself (see `text_literals`)."""
    return schema.Validator(source, problems, label, max_int=MAX_INT, declarations=declarations, literals=literals)


def text_literals(languages: list[str], prefix: str, value: Any) -> schema.TextLiterals | None:
    """Texts written in the data of one file take the key `<prefix>.<path>`, where each list index
    of the path is the entry's id when it has one (`card.main.knight.title`): stable while the
    entries are reordered, and what a translator sees as the msgctxt."""
    if not languages:
        return None
    return schema.TextLiterals(languages, lambda path: ".".join([prefix, *_stable_parts(value, path)]))


def _stable_parts(value: Any, path: tuple) -> list[str]:
    parts = []
    for step in path:
        if isinstance(step, int) and isinstance(value, list) and step < len(value):
            value = value[step]
            ident = value.get("id") if isinstance(value, dict) else None
            parts.append(ident if isinstance(ident, str) and schema.SLUG.match(ident) else str(step))
        else:
            value = value.get(step) if isinstance(value, dict) else None
            parts.append(str(step))
    return parts


def _declared_languages(main: Source) -> list[str]:
    """pack.yaml's languages as written (the schema checks them), for the texts of pack.yaml itself."""
    raw = main.value.get("languages") if isinstance(main.value, dict) else None
    return [lang for lang in raw if isinstance(lang, str)] if isinstance(raw, list) else []


def _pack_file(root: Path, name: str, main: Source, path: tuple, problems: Problems) -> Path | None:
    """`name` below the pack's folder; a path that leaves the pack is refused (paths never leave it)."""
    if not isinstance(name, str):              # the schema reported its type (schema.type)
        return None
    target = (root / name)
    try:
        target.resolve().relative_to(root.resolve())
    except ValueError:
        problems.add("pack.path", main.file, main.line(path), dotted(path),
                     f"{name!r} is outside the pack folder: a pack may only name its own files", main.snippet(path))
        return None
    return target


def _read_pack(root: Path, main: Source, problems: Problems, strict: bool = True,
               load_cache: LoadCache | None = None, reported: Collection[str] | None = None) -> Pack:
    if not isinstance(main.value, dict):
        problems.add("schema.type", main.file, 1, "pack.yaml",
                     f"expected a mapping for pack.yaml, got {schema.describe(main.value)}")
        raise DataError(problems.items)
    checker = validator(main, problems, literals=text_literals(_declared_languages(main), "pack", main.value))
    data = checker.check(main.value, PACK)
    pack_id = data.get("id") or root.name
    languages = [lang for lang in data.get("languages") or [] if isinstance(lang, str)]
    if main.value.get("languages") == []:
        problems.add("schema.value", main.file, main.line(("languages",)), "languages", "declare at least one language")
    _check_file_count(main, data, languages, problems)
    checkers = [checker]
    collections = _read_collections(root, main, data.get("collections") or {}, problems, checkers, languages)
    components, components_source = _read_components(root, main, data.get("components"), problems, checkers,
                                                      languages)
    kinds = _read_kinds(main, data.get("kinds") or {}, problems)
    texts, text_sources, text_locations, unusable = _read_texts(root, languages, problems)
    sheet_words = _read_sheet_words(root, languages, problems)
    template_dirs = [root / "templates", TEMPLATES_DIR]
    decks = _read_decks(root, main, data.get("decks") or [], kinds, problems, checkers, languages, load_cache)
    literals = _add_literal_texts(root, [lit for c in checkers for lit in c.literal_texts], texts, text_locations,
                                  problems)
    _check_text_typos(texts, text_sources, text_locations, problems)
    _check_hash_typos(root, languages, text_locations, problems)
    _check_refs(checkers, collections, set(data.get("collections") or {}), problems)
    sources = {"pack": main, **{f"collection:{k}": v for k, (v, _) in collections.items()}, **text_sources}
    if components_source is not None:
        sources["components"] = components_source
    fonts, icons = _read_assets(root, main, data, problems)
    pack = Pack(id=str(pack_id), root=root, name=str(data.get("name")), languages=languages,
                players=data.get("players") or {}, palette=data.get("palette") or {},
                collections={name: value for name, (_, value) in collections.items()}, kinds=kinds, decks=decks,
                texts=texts, template_dirs=template_dirs, sources=sources, text_locations=text_locations,
                engine=data.get("engine"), components=components, fonts=fonts, icons=icons,
                literal_texts=literals, text_floor_pt=float(data.get("text_floor_pt") or schema.TEXT_FLOOR_PT_DEFAULT),
                digits=_digits(main, data, languages, problems), sheet_words=sheet_words)
    _check_text_keys(pack, [use for c in checkers for use in c.texts], problems, strict, skip=unusable,
                     reported=reported)
    if pack.fonts:                         # a declared font that cannot be used is refused at load
        problems.items.extend(packfonts.font_problems(pack))
    return pack


def _digits(main: Source, data: dict, languages: list[str], problems: Problems) -> dict[str, str]:
    """pack.yaml's `digits` (the schema checked the values); a language the pack does not declare
    is a problem."""
    declared = data.get("digits") or {}
    for lang in declared:
        if lang not in languages:
            problems.add("schema.value", main.file, main.line(("digits", lang)), f"digits.{lang}",
                         f"{lang!r} is not a declared language (the pack declares: {', '.join(languages)})")
    return {lang: system for lang, system in declared.items() if lang in languages}


def _read_assets(root: Path, main: Source, data: dict, problems: Problems
                 ) -> tuple[dict[str, dict[str, Path | None]], Path | None]:
    """The declared font files and icon folder, confined to the pack (their content is the text
    layer's to check)."""
    fonts: dict[str, dict[str, Path | None]] = {}
    for style, body in (data.get("fonts") or {}).items():
        if not isinstance(body, dict):
            continue
        files = {}
        for script in ("file", "arabic"):
            name = body.get(script)
            files[script] = None if name is None else _pack_file(root, name, main, ("fonts", style, script), problems)
        fonts[style] = files
    icons = data.get("icons")
    return fonts, (None if icons is None else _pack_file(root, icons, main, ("icons",), problems))


def _check_file_count(main: Source, data: dict, languages: list[str], problems: Problems) -> None:
    """Refuse a pack.yaml naming more than MAX_PACK_FILES files before any of them is read."""
    counts = {"collections": len(data.get("collections") or {}), "decks": len(data.get("decks") or []),
              "languages": len(languages), "components": 1 if data.get("components") else 0}
    total = sum(counts.values())
    if total <= MAX_PACK_FILES:
        return
    largest = max(counts, key=lambda name: counts[name])
    parts = ", ".join(f"{count} {name}" for name, count in counts.items() if count)
    problems.add("pack.too-large", main.file, main.line((largest,)), largest,
                 f"pack.yaml names {total:,} files ({parts}), more than the {MAX_PACK_FILES:,} one pack may",
                 main.snippet((largest,)), files=total)
    raise DataError(problems.items)


def _read_collections(root: Path, main: Source, declared: dict, problems: Problems,
                      checkers: list[schema.Validator], languages: list[str]) -> dict[str, tuple[Source, Any]]:
    out: dict[str, tuple[Source, Any]] = {}
    for name, body in declared.items():
        path = ("collections", name)
        if not body or "file" not in body:
            continue
        items, fields = body.get("items"), body.get("fields")
        if (items is None) == (fields is None):
            problems.add("schema.missing-key", main.file, main.line(path), dotted(path),
                         f"collection {name!r} must declare either `items` (a list of entries) or `fields` "
                         "(one mapping), with the type of every field")
            continue
        declared_fields = items if items is not None else fields
        where = path + ("items" if items is not None else "fields",)
        spec = _declared_schema(main, where, declared_fields, f"{name} entry" if items is not None else
                                f"{name} ({body['file']})", problems)
        if spec is None:
            continue
        file = _pack_file(root, body["file"], main, path + ("file",), problems)
        source = load_source(file, problems) if file is not None else None
        if source is None:
            continue
        checker = validator(source, problems, declarations=main,
                            literals=text_literals(languages, f"collection.{name}", source.value))
        value = checker.check(source.value, [spec] if items is not None else spec)
        checkers.append(checker)
        out[str(name)] = (source, value)
    schema.fold_shared_declarations(problems)
    return out


def _read_components(root: Path, main: Source, name: str | None, problems: Problems,
                     checkers: list[schema.Validator], languages: list[str]) -> tuple[list, Source | None]:
    if not name:
        return [], None
    file = _pack_file(root, name, main, ("components",), problems)
    source = load_source(file, problems) if file is not None else None
    if source is None:
        return [], None
    checker = validator(source, problems, label=_component_label,
                        literals=text_literals(languages, "component", source.value))
    value = checker.check(source.value, [COMPONENT])
    checkers.append(checker)
    return value, source


def _component_label(path: tuple) -> str:
    return "components" + dotted(path) if path and isinstance(path[0], int) else dotted(path)


def _declared_schema(main: Source, path: tuple, declared: Any, what: str, problems: Problems) -> schema.Schema | None:
    """The schema written in pack.yaml (card fields, collection entries), or None with problems."""
    bad = schema.bad_declared_types(declared)
    for sub, value in bad:
        where = path + sub
        problems.add("schema.type", main.file, main.line(where), dotted(where),
                     f"unknown field type {value!r} ({schema.TYPE_HELP})", main.snippet(where))
    if bad:
        return None
    spec = schema.declared_type(declared, what, at=path)
    return spec if isinstance(spec, schema.Schema) else None


def _read_kinds(main: Source, declared: dict, problems: Problems) -> dict[str, Kind]:
    kinds: dict[str, Kind] = {}
    for kind_id, body in declared.items():
        path = ("kinds", kind_id)
        if not isinstance(body, dict) or "front" not in body:
            continue
        fields = body.get("fields") or {}
        if not isinstance(fields, dict):       # the kind's schema reported it (schema.type)
            fields = {}
        for name in fields:
            if name in CARD_KEYS:
                problems.add("schema.invalid", main.file, main.line(path + ("fields", name)),
                             dotted(path + ("fields", name)), f"{name!r} is reserved for every card")
        spec = _declared_schema(main, path + ("fields",), {k: v for k, v in fields.items() if k not in CARD_KEYS},
                                f"{kind_id} card", problems)
        card_schema = schema.Schema("", f"a {kind_id} card", {**CARD_KEYS, **(spec.fields if spec else {})})
        kinds[str(kind_id)] = Kind(str(kind_id), str(body["front"]), body.get("back"),
                                   {str(k): v for k, v in fields.items() if isinstance(v, str)}, card_schema,
                                   _str_or_none(body.get("title")), _str_or_none(body.get("rules")))
    return kinds


def _str_or_none(value: Any) -> str | None:
    """A kind's optional string key; anything else was reported by the kind's schema."""
    return value if isinstance(value, str) else None


def _read_texts(root: Path, languages: list[str], problems: Problems) -> tuple[dict, dict, dict, set[str]]:
    """The texts of every language, and the languages whose file cannot be used (unreadable,
    empty, not a mapping): that is one problem, on the file, and none of its keys is reported
    missing one by one."""
    texts: dict[str, dict[str, str]] = {}
    sources: dict[str, Source] = {}
    locations: dict[str, dict[str, tuple[Path, int]]] = {}
    unusable: set[str] = set()
    for lang in languages:
        source = load_source(root / "text" / f"{lang}.yaml", problems)
        flat: dict[str, str] = {}
        if source is None or not _usable_text_file(source, lang, problems):
            unusable.add(lang)
        else:
            where: dict[str, tuple[Path, int]] = {}
            _flatten(source, (), source.value, flat, problems, lang, where)
            sources[f"text:{lang}"] = source
            locations[lang] = where
        texts[lang] = flat
    return texts, sources, locations, unusable


def _read_sheet_words(root: Path, languages: list[str], problems: Problems) -> dict[str, dict[str, Any]]:
    """text/sheet/<lang>.yaml: the shared sheet words (pnp/i18n/sheet/en.yaml's keys: print
    instructions, page labels, the cut/fold/glue legend...) of a language, for one pnp lacks.
    Checked as pnp's own: a key en.yaml lacks (with a did-you-mean), plural forms, placeholders;
    a file of an undeclared language is an error too. Only the keys en.yaml has are kept."""
    from pnp.i18n import sheet

    folder = root / sheet.SUPPLIED
    if not folder.is_dir():
        return {}
    english = sheet.table(sheet.SOURCE)
    out: dict[str, dict[str, Any]] = {}
    for path in sorted(folder.glob("*.yaml")):
        lang = path.stem
        if lang not in languages:
            problems.add("schema.unknown-key", path, 0, "", f"{sheet.SUPPLIED}/{path.name}: {lang!r} is not a declared "
                         f"language{schema.did_you_mean(lang, languages)} (the pack declares: {', '.join(languages)})",
                         unknown=lang)
            continue
        source = load_source(path, problems)
        if source is None or source.value is None:
            continue
        if not isinstance(source.value, dict):
            problems.add("schema.type", source.file, 1, "", f"{sheet.SUPPLIED}/{path.name} must be a mapping of the "
                         f"keys of pnp/i18n/sheet/en.yaml, got {schema.describe(source.value)}", language=lang)
            continue
        flat: dict[str, Any] = {}
        where: dict[str, tuple[Path, int]] = {}
        _flatten(source, (), source.value, flat, problems, lang, where)
        known = sorted(english)
        for key in flat:
            if key not in english:
                problems.add("text.unknown-key", where[key][0], where[key][1], key,
                             f"{key!r} is no shared sheet word{schema.did_you_mean(key, known)} ({sheet.SUPPLIED}/"
                             f"{path.name} holds the keys of pnp/i18n/sheet/en.yaml)", text_key=key, language=lang)
        words = {key: text for key, text in flat.items() if key in english}
        for key, code, message in sheet.differences(words):
            problems.add(code, where[key][0], where[key][1], key, message, text_key=key, language=lang)
        out[lang] = words
    return out


def _usable_text_file(source: Source, lang: str, problems: Problems) -> bool:
    """A text file holds a mapping of text keys; an empty one (or only comments) or any other
    value is one problem naming the file."""
    name = f"text/{lang}.yaml"
    if source.value is None or source.value == {}:
        problems.add("text.empty", source.file, 0, "", f"{name} is empty: it holds no texts (write the {lang!r} "
                     f"texts, e.g. `game: {{name: ...}}`, or take {lang!r} out of languages in pack.yaml)",
                     language=lang)
        return False
    if not isinstance(source.value, dict):
        problems.add("schema.type", source.file, 1, "", f"{name} must be a mapping of text keys "
                     f"(`card: {{title: ...}}`), got {schema.describe(source.value)}", source.snippet(()),
                     language=lang)
        return False
    return True


def _add_literal_texts(root: Path, literals: list[schema.LiteralText], texts: dict[str, dict],
                       locations: dict[str, dict[str, tuple[Path, int]]], problems: Problems
                       ) -> dict[str, schema.LiteralText]:
    """Texts written in the data join the text files' under their synthesized keys, so templates,
    components, `pnp check` and `pnp i18n` read them like any other. A translation written in the
    data (`{en: ..., it: ...}`, a `title.it` column) and one in text/<lang>.yaml for the same
    text is one text given twice (`text.key-clash` naming both; `pnp i18n import` never writes
    such a key). A synthesized key that the source text file already uses (or that is a group of
    its keys, or below one of its texts) is a clash: the designer's key is kept."""
    out: dict[str, schema.LiteralText] = {}
    if not literals or not texts:
        return out
    source_lang = next(iter(texts))
    written = locations.get(source_lang, {})
    groups = {".".join(key.split(".")[:n]) for key in written for n in range(1, key.count(".") + 1)}
    for literal in literals:
        key = literal.key
        if key in out:          # a second card of the same id: cards.duplicate-id reports it, and
            continue            # the first card's text is no key of the text file's to clash with
        parts = key.split(".")
        clash = key if key in written or key in groups else \
            next((".".join(parts[:n]) for n in range(1, len(parts)) if ".".join(parts[:n]) in written), None)
        if clash is not None:
            file, line = written.get(clash, (root / "text" / f"{source_lang}.yaml", 0))
            problems.add("text.key-clash", literal.file, literal.line, literal.where,
                         f"this text is kept under the text key {key!r}, but text/{source_lang}.yaml uses "
                         f"{clash!r} (line {line}): rename that key, or name it here instead of writing the text",
                         text_key=key)
            continue
        out[key] = literal
        for lang, text in literal.texts.items():
            if lang != source_lang and key in locations.get(lang, {}):
                _translated_twice(literal, lang, locations[lang][key], problems)
            texts.setdefault(lang, {})[key] = text
            locations.setdefault(lang, {})[key] = (literal.file, literal.lines.get(lang, literal.line))
    return out


def _translated_twice(literal: schema.LiteralText, lang: str, written: tuple[Path, int], problems: Problems) -> None:
    """A translation written in the data whose text file has one too: which one prints would be a
    guess (the data's did, silently), so it is an error naming both."""
    file, line = written
    here = f"its `{literal.key.rsplit('.', 1)[-1]}.{lang}` column" if spreadsheets.is_spreadsheet(Path(literal.file)) \
        else f"its `{lang}:` here"
    problems.add("text.key-clash", literal.file, literal.lines.get(lang, literal.line), literal.where,
                 f"the {lang!r} text is given twice: {here} ({shortened(str(literal.texts[lang]), 40)!r}) and "
                 f"{display_path(file)}:{line} ({literal.key}); keep one of them", text_key=literal.key,
                 language=lang, other_file=display_path(file), other_line=line)


def _check_hash_typos(root: Path, languages: list[str], locations: dict[str, dict[str, tuple[Path, int]]],
                      problems: Problems) -> None:
    """The translator tool's hash file names languages and keys of the text files; a misspelt one
    (with the key it was meant to be close by and unhashed) is an error on its line."""
    if not hash_file(root).is_file():
        return
    source = load_source(hash_file(root), problems)
    if source is None or not isinstance(source.value, dict):
        return
    every_key = set().union(*(set(keys) for keys in locations.values()))
    for lang, hashes in source.value.items():
        if lang in languages and lang not in locations:
            continue        # its text file cannot be used, and is reported so
        if lang not in locations:
            problems.add("schema.unknown-key", source.file, source.line((lang,)), str(lang),
                         f"unknown language {lang!r}{schema.did_you_mean(str(lang), list(locations))} "
                         f"(the pack declares: {', '.join(locations)})", source.snippet((lang,)), unknown=lang)
            continue
        if not isinstance(hashes, dict):
            continue
        unhashed = [key for key in locations[lang] if key not in hashes]
        for key in hashes:
            # a key some text file has is right here (a misspelt text file is reported there)
            guess = schema.closest(str(key), unhashed) if key not in every_key else None
            if guess:
                problems.add("schema.unknown-key", source.file, source.line((lang, key)), f"{lang}.{key}",
                             f"unknown text key {key!r}; did you mean {guess!r}?", source.snippet((lang, key)),
                             unknown=key, suggestion=guess)


def _check_text_typos(texts: dict[str, dict], sources: dict[str, Source],
                      locations: dict[str, dict[str, tuple[Path, int]]], problems: Problems) -> None:
    """A key that only one language has, while a close key the others have is missing there, is a
    typo (`titel:` for `title:`): one error on its line, and the key it was meant to be is not
    reported missing again (`typo_for` in the problem's detail). A new key the other languages
    have not translated yet is not a typo: the language still has every key the others have."""
    from pnp.i18n import sheet

    if len(texts) < 2:
        return
    shared = sheet.table(sheet.SOURCE)
    for lang, flat in texts.items():
        others = set().union(*(set(t) for other, t in texts.items() if other != lang))
        missing_here = sorted(others - set(flat))
        renamed: dict[tuple[str, str], list[str]] = {}     # (typo, meant) -> the keys it was meant for
        for key in sorted(set(flat) - others):
            guess = schema.closest(key, missing_here)
            if guess is not None and key in locations.get(lang, {}):
                renamed.setdefault(_renamed_part(key, guess), []).append(guess)
        for (typo, meant), guesses in renamed.items():
            source = sources[f"text:{lang}"]
            path = tuple(typo.split("."))
            file, line = locations[lang][typo] if typo in locations[lang] else (source.file, source.line(path))
            below = f" ({len(guesses)} keys below it)" if len(guesses) > 1 else ""
            if typo in shared:          # no misspelling: the shared word, written where pnp does not look
                problems.add("schema.unknown-key", file, line, typo,
                             f"{typo!r} is a shared sheet word (no other language's text file has it): the words "
                             f"pnp lacks for {lang!r} go in {sheet.SUPPLIED}/{lang}.yaml (the keys of "
                             f"pnp/i18n/sheet/en.yaml); a game's own wording of one goes in every language's "
                             f"text file", source.snippet(path), unknown=typo, language=lang, lang=lang)
                continue
            problems.add("schema.unknown-key", file, line, typo,
                         f"unknown text key {typo!r}{below} (no other language has it); did you mean "
                         f"{meant!r}, which text/{lang}.yaml lacks?", source.snippet(path),
                         unknown=typo, suggestion=meant, typo_for=tuple(guesses), language=lang, lang=lang)


def _renamed_part(key: str, guess: str) -> tuple[str, str]:
    """Where a misspelt key differs from the key meant: a misspelt parent (`uix.move` for
    `ui.move`) is one typo for all the keys below it, reported once on the parent's line."""
    have, meant = key.split("."), guess.split(".")
    differ = [i for i, (a, b) in enumerate(zip(have, meant)) if a != b]
    if len(have) == len(meant) and len(differ) == 1 and differ[0] < len(have) - 1:
        cut = differ[0] + 1
        return ".".join(have[:cut]), ".".join(meant[:cut])
    return key, guess


def _flatten(source: Source, path: tuple, value: Any, out: dict[str, str], problems: Problems,
             lang: str = "", where: dict | None = None) -> None:
    """Nested mappings -> dotted keys. A mapping whose keys are all CLDR plural categories is one
    text with plural forms (`PluralText`), checked against the categories `lang` uses."""
    if path and is_plural_mapping(value):
        key = ".".join(str(p) for p in path)
        forms = with_folded(lang, {str(cat): str(text) for cat, text in value.items()})
        for message in check_forms(lang, forms):
            problems.add("text.plural", source.file, source.line(path), dotted(path), message, source.snippet(path))
        out[key] = PluralText(forms)
        if where is not None:
            where[key] = (source.file, source.line(path))
    elif isinstance(value, dict):
        for key, child in value.items():
            _flatten(source, path + (key,), child, out, problems, lang, where)
    elif isinstance(value, (str, int, float)) and not isinstance(value, bool) and path:
        key = ".".join(str(p) for p in path)
        out[key] = str(value)
        if where is not None:
            where[key] = (source.file, source.line(path))
    elif value is None and not path:
        return
    else:
        problems.add("schema.type", source.file, source.line(path), dotted(path), f"expected text, got {schema.describe(value)}",
                     source.snippet(path))


def _collection_ids(value: Any) -> set:
    if isinstance(value, list):
        # an id of the wrong type (a mapping, a list) is the schema's problem; it names nothing
        return {item.get("id") for item in value if isinstance(item, dict) and isinstance(item.get("id"), (str, int))}
    if isinstance(value, dict):
        return set(value)
    return set()


def _misspelt_ids(source: Source) -> set:
    """The values of entries whose `id` key is misspelt (`idd: bat`, reported on its line):
    references to them are that one defect, not dangling references of their own."""
    entries = source.value if isinstance(source.value, list) else []
    return {value for entry in entries if isinstance(entry, dict) and "id" not in entry
            for key, value in entry.items() if schema.closest(str(key), ["id"]) and isinstance(value, (str, int))}


def _has_garbled_id(value: Any) -> bool:
    return isinstance(value, list) and any(isinstance(item, dict) and "id" in item
                                           and not isinstance(item["id"], (str, int)) for item in value)


def _check_refs(checkers: list[schema.Validator], collections: dict[str, tuple[Source, Any]],
                declared: set[str], problems: Problems) -> None:
    """Every `ref:` value is an id of its collection; every `collection` value a declared collection.
    A collection that is declared but could not be read was reported already: its references are
    not reported again; references to a collection the pack does not declare are one problem per
    collection (a collection renamed in pack.yaml is one defect), on the first of them."""
    undeclared: dict[str, list[schema.RefUse]] = {}
    # ids as the files write them: an `id` field misspelt in pack.yaml is reported there, once
    ids_of = {name: _collection_ids(source.value) | _misspelt_ids(source) for name, (source, _) in collections.items()}
    # a collection with an id of the wrong type (`id: {}`, reported on its line) may hold any id
    garbled = {name for name, (source, _) in collections.items() if _has_garbled_id(source.value)}
    for checker in checkers:
        for ref in checker.refs:
            if ref.collection in declared - set(collections) or \
                    (ref.collection == schema.COLLECTIONS and ref.value in declared):
                continue
            if ref.collection == schema.COLLECTIONS:
                if ref.value not in collections:
                    undeclared.setdefault(str(ref.value), []).append(ref)
                continue
            if ref.collection not in collections:
                undeclared.setdefault(ref.collection, []).append(ref)
                continue
            source, value = collections[ref.collection]
            if ref.value not in ids_of[ref.collection] and ref.collection not in garbled:
                ids = _collection_ids(value)
                problems.add("schema.reference", ref.file, ref.line, ref.where,
                             f"{ref.value!r} is not an id in {ref.collection} ({source.file.name})"
                             f"{schema.did_you_mean(str(ref.value), sorted(map(str, ids)))}",
                             ref.snippet)
    for name, uses in undeclared.items():
        first = uses[0]
        more = f" ({len(uses) - 1} more references to it)" if len(uses) > 1 else ""
        problems.add("schema.reference", first.file, first.line, first.where,
                     f"no collection {name!r}{schema.did_you_mean(name, list(declared))} (the pack declares: "
                     f"{', '.join(sorted(declared)) or 'none'}){more}", first.snippet, references=len(uses))


@dataclass
class _CardReading:
    """What reading the card files of one pack keeps across its decks."""

    seen: dict[str, tuple[Path, int]] = field(default_factory=dict)   # card id -> where it is first
    expanded: int = 0               # cards after quantity, counted on past MAX_CARDS but not built
    crossed: tuple | None = None    # (deck index, card file, line) where MAX_CARDS was crossed
    # a kind's card problems, held back so a defect of its declaration is reported once (fold_entries)
    held: dict[str, list[Problem]] = field(default_factory=dict)
    bodies: dict[str, int] = field(default_factory=dict)             # kind -> cards written


def _read_decks(root: Path, main: Source, declared: list, kinds: dict[str, Kind], problems: Problems,
                checkers: list[schema.Validator], languages: list[str],
                load_cache: LoadCache | None = None) -> list[Deck]:
    decks: list[Deck] = []
    reading = _CardReading()
    # what reading a card file depends on besides its text and the deck (pnp.loadcache)
    declared_kinds = {kind_id: [kind.front, kind.back, kind.fields] for kind_id, kind in kinds.items()}
    seen_decks: set[str] = set()
    for index, body in enumerate(declared):
        path = ("decks", index)
        deck_id = body.get("id")
        if not isinstance(deck_id, str) or "cards" not in body:
            continue
        if deck_id in seen_decks:
            problems.add("decks.duplicate-id", main.file, main.line(path + ("id",)), dotted(path + ("id",)),
                         f"duplicate deck id {deck_id!r}")
        seen_decks.add(deck_id)
        size = card_size_pt(body["card_size"]) if schema.scalar_problem("size", body["card_size"]) is None \
            else card_size_pt(DEFAULT_CARD_SIZE)
        cards: list[Card] = []
        file = _pack_file(root, body["cards"], main, path + ("cards",), problems)
        source: Source | None = None
        if file is not None and load_cache is not None and not spreadsheets.is_spreadsheet(file):
            source, cards = _cached_card_file(load_cache, file, body, deck_id, index, kinds, reading, problems,
                                              checkers, languages, declared_kinds)
        elif file is not None:
            source = _load_card_file(file, body, kinds, languages, problems)
            if source is not None:
                cards = _read_cards(source, deck_id, index, kinds, reading, problems, checkers, languages,
                                    body.get("kind"))
        decks.append(Deck(deck_id, str(body.get("name")), size, body.get("back"), cards, root / str(body["cards"]),
                          source, body["tuckbox"] is not False))
    for kind_id, found in reading.held.items():
        schema.fold_entries(found, reading.bodies.get(kind_id, 0), main, ("kinds", kind_id, "fields"),
                            list(kinds[kind_id].fields), f"all {reading.bodies.get(kind_id, 0)} {kind_id} cards",
                            problems)
    if reading.crossed is not None:
        index, file, line = reading.crossed
        where = ("decks", index, "cards")
        problems.add("pack.too-large", main.file, main.line(where), dotted(where),
                     f"the decks hold {reading.expanded:,} cards once quantities are expanded, more than the "
                     f"{MAX_CARDS:,} one pack may (crossed at {display_path(file)}:{line})", main.snippet(where),
                     cards=reading.expanded)
    return decks


def _load_card_file(file: Path, deck: dict, kinds: dict[str, Kind], languages: list[str],
                    problems: Problems) -> Source | None:
    """A deck's card file: YAML, or a spreadsheet read into the same list of cards."""
    if spreadsheets.is_spreadsheet(file):
        types = {kind_id: kind.schema for kind_id, kind in kinds.items()}
        return spreadsheets.load_cards(file, types, languages, problems, deck.get("sheet"), deck.get("kind"))
    return load_source(file, problems)


def _cached_card_file(cache: LoadCache, file: Path, body: dict, deck_id: str, index: int, kinds: dict[str, Kind],
                      reading: _CardReading, problems: Problems, checkers: list[schema.Validator],
                      languages: list[str], declared_kinds: dict) -> tuple[Source | None, list[Card]]:
    """A YAML card file read through the load cache (pnp.loadcache): the entry of its text, else
    the file read and checked as without the cache, and kept when that found no problem."""
    text = read_source_text(file, problems)
    if text is None:
        return None, []
    key = cache.key(file, text, [deck_id, body.get("kind"), languages, declared_kinds])
    entry = cache.get(key)
    found = _from_entry(entry, file, text, deck_id, kinds, reading, checkers, problems, languages) \
        if entry is not None else None
    if found is not None:
        cache.hits += 1
        return found
    problems_before, held_before = len(problems.items), sum(map(len, reading.held.values()))
    seen_before, bodies_before = len(reading.seen), dict(reading.bodies)
    crossed_before, checkers_before = reading.crossed, len(checkers)
    source = parse_source(file, text, problems)
    if source is None:
        return None, []
    cards = _read_cards(source, deck_id, index, kinds, reading, problems, checkers, languages, body.get("kind"))
    if (len(problems.items) == problems_before and sum(map(len, reading.held.values())) == held_before
            and reading.crossed == crossed_before and len(checkers) == checkers_before + 1):
        checker = checkers[-1]
        cache.put(key, {
            "value": source.value, "lines": [[*path, line] for path, line in source.lines.items()],
            "cards": [[card.base_id, card.kind, card.quantity, card.fields, card.line] for card in cards
                      if card.copy == 1],
            "ids": [[card_id, line] for card_id, (_file, line) in list(reading.seen.items())[seen_before:]],
            "texts": [[use.key, use.line, use.where] for use in checker.texts],
            "refs": [[ref.collection, ref.value, ref.line, ref.where, ref.snippet] for ref in checker.refs],
            "literals": [[lit.key, lit.texts, lit.line, lit.where, lit.lines] for lit in checker.literal_texts],
            "bodies": {kind: count - bodies_before.get(kind, 0) for kind, count in reading.bodies.items()
                       if count != bodies_before.get(kind, 0)},
        })
    return source, cards


def _from_entry(entry: dict, file: Path, text: str, deck_id: str, kinds: dict[str, Kind], reading: _CardReading,
                checkers: list[schema.Validator], problems: Problems,
                languages: list[str]) -> tuple[Source, list[Card]] | None:
    """What reading the file gave when the entry was made (see _cached_card_file), put where
    reading it now would put it; None, changing nothing, when it cannot stand for the file now:
    a card id an earlier file of this build has (the file is read, the duplicate reported), the
    pack's card limit crossed, or a kind or quantity no card of this pack may have."""
    records = entry["cards"]
    expanded = sum(record[2] for record in records)
    if (any(card_id in reading.seen for card_id, _line in entry["ids"])
            or reading.expanded + expanded > MAX_CARDS
            or not all(record[1] in kinds and record[2] <= MAX_QUANTITY for record in records)
            or not all(kind in kinds for kind in entry["bodies"])):
        return None
    source = Source(file, entry["value"], entry["lines"], text.splitlines())
    for card_id, line in entry["ids"]:
        reading.seen[card_id] = (file, line)
    for kind, count in entry["bodies"].items():
        reading.bodies[kind] = reading.bodies.get(kind, 0) + count
    reading.expanded += expanded
    checker = validator(source, problems, label=_card_labeller(source),
                        literals=text_literals(languages, f"card.{deck_id}", source.value))
    checker.texts = [schema.TextUse(key, file, line, where) for key, line, where in entry["texts"]]
    checker.refs = [schema.RefUse(collection, value, file, line, where, snippet)
                    for collection, value, line, where, snippet in entry["refs"]]
    checker.literal_texts = [schema.LiteralText(key, texts, file, line, where, lines)
                             for key, texts, line, where, lines in entry["literals"]]
    checkers.append(checker)
    cards: list[Card] = []
    for card_id, kind_id, quantity, fields, line in records:
        cards.extend(expand_quantities(card_id, kind_id, deck_id, quantity, fields, file, line))
    return source, cards


def _card_label(value: Any, path: tuple) -> str:
    """'card tomb-01.deceased' for a key path (index, key, ...) in a card file."""
    if not path or not isinstance(path[0], int):
        return dotted(path)
    body = value[path[0]] if isinstance(value, list) and path[0] < len(value) else None
    card_id = body.get("id") if isinstance(body, dict) else None
    label = f"card {card_id}" if isinstance(card_id, str) else f"card #{path[0] + 1}"
    rest = dotted(path[1:])
    return f"{label}.{rest}" if rest else label


def _read_cards(source: Source, deck_id: str, deck_index: int, kinds: dict[str, Kind], reading: _CardReading,
                problems: Problems, checkers: list[schema.Validator], languages: list[str],
                default_kind: str | None = None) -> list[Card]:
    cards: list[Card] = []
    if not isinstance(source.value, list):
        problems.add("schema.type", source.file, 1, "", f"expected a list of cards, got {schema.describe(source.value)}")
        return cards
    mine = Problems()           # this file's problems: those of a known kind are held for fold_entries
    checker = validator(source, mine, label=_card_labeller(source),
                        literals=text_literals(languages, f"card.{deck_id}", source.value))
    checkers.append(checker)
    unknown_kinds: dict[str, list[tuple]] = {}
    for index, body in enumerate(source.value):
        path = (index,)
        line = source.line(path)
        if not isinstance(body, dict):
            checker.add("schema.type", path, f"expected a card mapping, got {schema.describe(body)}")
            continue
        if "kind" not in body and default_kind is not None:
            body = {**body, "kind": default_kind}
        kind_id = body.get("kind")
        kind = kinds.get(kind_id) if isinstance(kind_id, str) else None
        if "kind" in body and kind is None:
            unknown_kinds.setdefault(str(kind_id), []).append(path + ("kind",))
        card_schema = kind.schema if kind is not None else schema.Schema("", "a card", dict(CARD_KEYS))
        if kind is None:   # check what every card has; its kind's fields cannot be known
            missing = [key for key in CARD_KEYS if key not in body]
            # ...keeping a misspelt `knd:`, so that it is reported as the typo it is, not `kind` missing
            body = {k: v for k, v in body.items() if k in CARD_KEYS or schema.closest(str(k), missing)}
        before = len(mine.items)
        checked = checker.check(body, card_schema, path)
        card_id = checked.get("id")
        if isinstance(card_id, str) and "id" in body and schema.scalar_problem("slug", card_id) is None:
            if card_id in reading.seen:
                first_file, first_line = reading.seen[card_id]
                checker.add("cards.duplicate-id", path + ("id",),
                            f"duplicate card id {card_id!r} (first in {first_file.name}:{first_line})")
            else:
                reading.seen[card_id] = (source.file, source.line(path + ("id",)))
        if kind is None:
            continue
        reading.bodies[kind.id] = reading.bodies.get(kind.id, 0) + 1
        reading.held.setdefault(kind.id, []).extend(mine.items[before:])
        del mine.items[before:]
        quantity = checked.get("quantity", 1)
        if not isinstance(quantity, int) or isinstance(quantity, bool) or not 1 <= quantity <= MAX_QUANTITY:
            quantity = 1        # reported by the validator (CARD_KEYS bounds it)
        reading.expanded += quantity
        if reading.expanded > MAX_CARDS:    # counted on for the message, never built
            reading.crossed = reading.crossed or (deck_index, source.file, line)
            continue
        fields = {k: v for k, v in checked.items() if k not in CARD_KEYS}
        cards.extend(expand_quantities(str(card_id), str(kind_id), deck_id, quantity, fields, source.file, line))
    for kind_id, paths in unknown_kinds.items():
        _unknown_kind(checker, kind_id, paths, kinds)
    problems.items.extend(mine.items)
    return cards


def _card_labeller(source: Source):
    """'card tomb-01.deceased', with the cell of a spreadsheet: 'card knight.title (Sheet1!C14)'."""
    def label(path: tuple) -> str:
        text = _card_label(source.value, path)
        cell = source.cell(path) if isinstance(source, spreadsheets.SheetSource) else ""
        return f"{text} ({cell})" if cell else text
    return label


def _unknown_kind(checker: schema.Validator, kind_id: str, paths: list[tuple], kinds: dict[str, Kind]) -> None:
    """One message for every card of a file that names the same unknown kind (a kind renamed in
    pack.yaml is one defect), on the first of them."""
    more = ""
    if len(paths) > 1:
        lines = [str(checker.source.line(path)) for path in paths[1:6]]
        more = f"; {len(paths) - 1} more cards of this file have it (lines {', '.join(lines)}" \
               f"{', ...' if len(paths) > 6 else ''})"
    checker.add("schema.unknown-kind", paths[0], f"unknown kind {kind_id!r}{schema.did_you_mean(kind_id, list(kinds))} "
                f"(known: {', '.join(kinds) or 'none'}){more}", unknown=kind_id, cards=len(paths))


def expand_quantities(card_id: str, kind: str, deck: str, quantity: int, fields: dict,
                      file: Path, line: int) -> list[Card]:
    """The one place where `quantity: n` becomes n physical cards."""
    if quantity == 1:
        return [Card(card_id, card_id, kind, deck, 1, 1, fields, file, line)]
    return [Card(f"{card_id}#{n}", card_id, kind, deck, n, quantity, fields, file, line)
            for n in range(1, quantity + 1)]


def fallback_language(pack: Pack, lang: str) -> str | None:
    """Where a missing `lang` text comes from: English if the pack declares it, else the source."""
    for candidate in ("en", pack.source_language):
        if candidate in pack.languages and candidate != lang:
            return candidate
    return None


def _check_text_keys(pack: Pack, uses: list[schema.TextUse], problems: Problems, strict: bool = True,
                     skip: set[str] | frozenset[str] = frozenset(), reported: Collection[str] | None = None) -> None:
    """Every text key the data names (pack, decks, cards, collections, components) exists in every
    declared language of `reported` (None: all) but those of `skip` (their text file is unusable,
    and reported so). Not strict: a missing text takes the fallback language's text and becomes a
    warning (for the languages of `reported` only)."""
    wanted = [(use.key, use.file, use.line, use.where) for use in uses]
    wanted = _check_unknown_keys(pack, wanted, problems, skip)
    checked = [lang for lang in pack.languages if reported is None or lang in reported]
    if not strict:
        _fill_from_fallback(pack, wanted, checked)
    # a key a text file misspelt is reported once, on the misspelling (_check_text_typos)
    said = {(key, p.get("language")) for p in problems.items for key in p.get("typo_for") or ()}
    for key, file, line, where in wanted:
        for lang in checked:
            if lang not in skip and key not in pack.texts.get(lang, {}) and (key, lang) not in said:
                said.add((key, lang))
                problems.add("text.missing", file, line, where, _missing_message(pack, key, lang),
                             text_key=key, language=lang)


def _missing_message(pack: Pack, key: str, lang: str) -> str:
    literal = pack.literal_texts.get(key)
    if literal is None:
        return f"text key {key!r} has no {lang!r} text ({_where_to_add(pack, key, lang)})"
    shown = shortened(next(iter(literal.texts.values()), ""), 40)
    return (f"the text {shown!r} has no {lang!r} translation ({_where_to_add(pack, key, lang)}, or translate "
            "it with `pnp i18n export`/`import`)")


def _where_to_add(pack: Pack, key: str, lang: str) -> str:
    """Where the `lang` text of `key` is added: a text file's key, or beside a text written in
    the data (a spreadsheet's column, a field's mapping)."""
    literal = pack.literal_texts.get(key)
    if literal is None:
        return f"add it to text/{lang}.yaml"
    if spreadsheets.is_spreadsheet(Path(literal.file)):
        return f"fill its `{key.rsplit('.', 1)[-1]}.{lang}` column"
    return f"write it as {{{pack.source_language}: ..., {lang}: ...}}"


MAX_SUGGESTED = 100     # misspelt keys given a did-you-mean: each is a search of every key


def _check_unknown_keys(pack: Pack, wanted: list[tuple[str, Path, int, str]], problems: Problems,
                        skip: set[str] | frozenset[str]) -> list[tuple[str, Path, int, str]]:
    """A text field's key that no text file has is a misspelt key (`text.unknown-key`, with a
    did-you-mean), not a missing translation; the others are returned. Not said while a text file
    is unusable (the key may be in it). The shared sheet words (components.aid) are in every
    language (pnp/i18n/sheet) and are never asked of the pack's own text files."""
    from pnp.i18n import sheet

    shared = set(sheet.table(sheet.SOURCE))
    known = set().union(*(set(texts) for texts in pack.texts.values()))
    wanted = [item for item in wanted if item[0] in known or item[0] not in shared]   # a game's own wording is checked
    if skip:
        return wanted
    ordered = sorted(known)
    guesses: dict[str, str] = {}
    kept = []
    for key, file, line, where in wanted:
        if key in known:
            kept.append((key, file, line, where))
            continue
        if key not in guesses:
            guesses[key] = schema.did_you_mean(key, ordered) if len(guesses) < MAX_SUGGESTED else ""
        problems.add("text.unknown-key", file, line, where,
                     f"text key {key!r} is in no text file{guesses[key]} (a text key, dotted lower-case words, "
                     f"names a text of text/<lang>.yaml; to print these very words write "
                     f"{{{pack.source_language}: {key}}})", text_key=key)
    return kept


def _fill_from_fallback(pack: Pack, wanted: list[tuple[str, Path, int, str]], warned: list[str]) -> None:
    """Every language takes a missing text from its fallback; those of `warned` say so."""
    places: dict[str, tuple[Path, int, str]] = {}
    for lang in dict.fromkeys(["en", pack.source_language]):
        for key, (file, line) in pack.text_locations.get(lang, {}).items():
            places.setdefault(key, (file, line, key))
    for key, file, line, where in wanted:
        places.setdefault(key, (file, line, where))
    for lang in pack.languages:
        fallback = fallback_language(pack, lang)
        texts = pack.texts.setdefault(lang, {})
        for key, (file, line, where) in places.items():
            if key in texts or fallback is None:
                continue
            source = fallback if key in pack.texts.get(fallback, {}) else pack.source_language
            if key not in pack.texts.get(source, {}) or source == lang:
                continue
            texts[key] = pack.texts[source][key]
            if lang not in warned:
                continue
            pack.warnings.append(Problem(display_path(file), line, where,
                                         f"text key {key!r} has no {lang!r} text: using the {source!r} text "
                                         f"({_where_to_add(pack, key, lang)})", code="text.missing",
                                         detail=(("language", lang), ("text_key", key))))
