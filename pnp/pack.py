"""Load a game pack: read its YAML, validate it against the schema, expand quantities.

`load_pack` is the one way in for the printer, the checker and the rules engines, so all of them
see the same cards. Every problem found is collected and raised together as a `DataError`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnp import schema
from pnp.errors import DataError, PnpError, Problem, Problems, display_path
from pnp.i18n.plurals import PluralText, check_forms, is_plural_mapping
from pnp.units import card_size_pt
from pnp.yamlsource import Source, dotted, load_source

REPO_ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = REPO_ROOT / "data"
TEMPLATES_DIR = REPO_ROOT / "templates"
PACK_FILE = "pack.yaml"
DEFAULT_CARD_SIZE = "poker"


class UnknownGameError(PnpError):
    pass


@dataclass
class Kind:
    id: str
    front: str
    back: str | None
    fields: dict[str, str]


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

    @property
    def source_language(self) -> str:
        return self.languages[0]

    def cards(self) -> list[Card]:
        return [card for deck in self.decks for card in deck.cards]

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


def load_pack(name_or_path: str | Path, strict: bool = True) -> Pack:
    """Load and validate a pack. `strict=False`: a text key missing in a language is a warning
    (`pack.warnings`) and resolves to the English text (or the source language's when the pack has
    no English); `strict=True`: it is an error."""
    root = find_pack(name_or_path)
    problems = Problems()
    main = load_source(root / PACK_FILE, problems)
    if main is None:
        problems.raise_if_any()
    pack = _read_pack(root, main, problems, strict=strict)
    problems.raise_if_any()
    return pack


def _check_mapping(source: Source, path: tuple, value: Any, fields: dict[str, schema.Field],
                   problems: Problems, what: str) -> bool:
    if not isinstance(value, dict):
        problems.add(source.file, source.line(path), dotted(path) or what,
                     f"expected a mapping for {what}, got {schema.describe(value)}")
        return False
    for key in value:
        if key not in fields:
            known = ", ".join(fields)
            problems.add(source.file, source.line(path + (key,)), dotted(path + (key,)),
                         f"unknown key {key!r} in {what} (known keys: {known})", source.snippet(path + (key,)))
    for key, spec in fields.items():
        if spec.required and key not in value:
            problems.add(source.file, source.line(path), dotted(path + (key,)), f"missing required key {key!r} in {what}")
    return True


def _simple(source: Source, path: tuple, value: Any, spec: str, problems: Problems) -> bool:
    message = schema.scalar_problem(spec, value)
    if message:
        problems.add(source.file, source.line(path), dotted(path), message, source.snippet(path))
        return False
    return True


def _read_pack(root: Path, main: Source, problems: Problems, strict: bool = True) -> Pack:
    data = main.value
    if not _check_mapping(main, (), data, schema.PACK_FIELDS, problems, "pack.yaml"):
        raise DataError(problems.items)
    pack_id = data.get("id", root.name)
    _simple(main, ("id",), pack_id, "slug", problems)
    _simple(main, ("name",), data.get("name"), "text", problems)
    languages = data.get("languages") or []
    if _simple(main, ("languages",), languages, "list:lang", problems) and not languages:
        problems.add(main.file, main.line(("languages",)), "languages", "declare at least one language")
    languages = [lang for lang in languages if isinstance(lang, str)] if isinstance(languages, list) else []
    players = data.get("players") or {}
    if _check_mapping(main, ("players",), players, {"min": schema.Field("int", ""), "max": schema.Field("int", "")},
                      problems, "players"):
        for bound in ("min", "max"):
            if bound in players:
                _simple(main, ("players", bound), players[bound], "int", problems)
    palette = data.get("palette") or {}
    if isinstance(palette, dict):
        for name, colour in palette.items():
            _simple(main, ("palette", name), colour, "color", problems)

    collections = _read_collections(root, main, data.get("collections") or {}, problems)
    kinds = _read_kinds(main, data.get("kinds") or {}, problems)
    texts, text_sources, text_locations = _read_texts(root, languages, problems)
    template_dirs = [root / "templates", TEMPLATES_DIR]
    decks = _read_decks(root, main, data.get("decks"), kinds, collections, problems)
    pack = Pack(id=str(pack_id), root=root, name=str(data.get("name")), languages=languages,
                players=players if isinstance(players, dict) else {}, palette=palette if isinstance(palette, dict) else {},
                collections={name: src.value for name, src in collections.items()}, kinds=kinds, decks=decks,
                texts=texts, template_dirs=template_dirs,
                sources={"pack": main, **{f"collection:{k}": v for k, v in collections.items()}, **text_sources},
                text_locations=text_locations)
    _check_text_keys(pack, main, problems, strict)
    return pack


def _read_collections(root: Path, main: Source, declared: Any, problems: Problems) -> dict[str, Source]:
    out: dict[str, Source] = {}
    if not isinstance(declared, dict):
        problems.add(main.file, main.line(("collections",)), "collections", "expected a mapping name -> file")
        return out
    for name, file_name in declared.items():
        if not _simple(main, ("collections", name), file_name, "str", problems):
            continue
        source = load_source(root / file_name, problems)
        if source is not None:
            out[name] = source
    return out


def _read_kinds(main: Source, declared: Any, problems: Problems) -> dict[str, Kind]:
    kinds: dict[str, Kind] = {}
    if not isinstance(declared, dict):
        problems.add(main.file, main.line(("kinds",)), "kinds", "expected a mapping kind -> definition")
        return kinds
    for kind_id, body in declared.items():
        path = ("kinds", kind_id)
        if not _check_mapping(main, path, body, schema.KIND_FIELDS, problems, f"kind {kind_id!r}"):
            continue
        fields = body.get("fields") or {}
        if not isinstance(fields, dict):
            problems.add(main.file, main.line(path + ("fields",)), dotted(path + ("fields",)), "expected a mapping name -> type")
            fields = {}
        for name, spec in fields.items():
            if name in schema.CARD_KEYS:
                problems.add(main.file, main.line(path + ("fields", name)), dotted(path + ("fields", name)),
                             f"{name!r} is reserved for every card")
            elif not (isinstance(spec, str) and schema.FIELD_TYPE.match(spec)):
                problems.add(main.file, main.line(path + ("fields", name)), dotted(path + ("fields", name)),
                             f"unknown field type {spec!r} (use int, number, bool, str, text, color, "
                             "enum:a|b, ref:<collection>, list:<type>; add '?' for optional)")
        front = body.get("front")
        _simple(main, path + ("front",), front, "str", problems)
        _simple(main, path + ("back",), body.get("back"), "str?", problems)
        kinds[str(kind_id)] = Kind(str(kind_id), str(front), body.get("back"), {str(k): str(v) for k, v in fields.items()})
    return kinds


def _read_texts(root: Path, languages: list[str], problems: Problems) -> tuple[dict, dict, dict]:
    texts: dict[str, dict[str, str]] = {}
    sources: dict[str, Source] = {}
    locations: dict[str, dict[str, tuple[Path, int]]] = {}
    for lang in languages:
        source = load_source(root / "text" / f"{lang}.yaml", problems)
        flat: dict[str, str] = {}
        if source is not None:
            where: dict[str, tuple[Path, int]] = {}
            _flatten(source, (), source.value, flat, problems, lang, where)
            sources[f"text:{lang}"] = source
            locations[lang] = where
        texts[lang] = flat
    return texts, sources, locations


def _flatten(source: Source, path: tuple, value: Any, out: dict[str, str], problems: Problems,
             lang: str = "", where: dict | None = None) -> None:
    """Nested mappings -> dotted keys. A mapping whose keys are all CLDR plural categories is one
    text with plural forms (`PluralText`), checked against the categories `lang` uses."""
    if path and is_plural_mapping(value):
        key = ".".join(str(p) for p in path)
        forms = {str(cat): str(text) for cat, text in value.items()}
        for message in check_forms(lang, forms):
            problems.add(source.file, source.line(path), dotted(path), message, source.snippet(path))
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
        problems.add(source.file, source.line(path), dotted(path), f"expected text, got {schema.describe(value)}",
                     source.snippet(path))


def _collection_ids(collection: Source) -> set:
    value = collection.value
    if isinstance(value, list):
        return {item.get("id") for item in value if isinstance(item, dict)}
    if isinstance(value, dict):
        return set(value)
    return set()


def _read_decks(root: Path, main: Source, declared: Any, kinds: dict[str, Kind],
                collections: dict[str, Source], problems: Problems) -> list[Deck]:
    decks: list[Deck] = []
    if not isinstance(declared, list):
        if declared is not None:
            problems.add(main.file, main.line(("decks",)), "decks", f"expected a list of decks, got {schema.describe(declared)}")
        return decks
    seen_cards: dict[str, tuple[Path, int]] = {}
    seen_decks: set[str] = set()
    for index, body in enumerate(declared):
        path = ("decks", index)
        if not _check_mapping(main, path, body, schema.DECK_FIELDS, problems, f"deck #{index + 1}"):
            continue
        deck_id = body.get("id")
        if not _simple(main, path + ("id",), deck_id, "slug", problems):
            continue
        if deck_id in seen_decks:
            problems.add(main.file, main.line(path + ("id",)), dotted(path + ("id",)), f"duplicate deck id {deck_id!r}")
        seen_decks.add(deck_id)
        size_spec = body.get("card_size", DEFAULT_CARD_SIZE)
        try:
            size = card_size_pt(size_spec)
        except ValueError as error:
            problems.add(main.file, main.line(path + ("card_size",)), dotted(path + ("card_size",)), str(error))
            size = card_size_pt(DEFAULT_CARD_SIZE)
        _simple(main, path + ("back",), body.get("back"), "str?", problems)
        cards: list[Card] = []
        if _simple(main, path + ("cards",), body.get("cards"), "str", problems):
            source = load_source(root / body["cards"], problems)
            if source is not None:
                cards = _read_cards(source, deck_id, kinds, collections, seen_cards, problems)
        decks.append(Deck(deck_id, str(body.get("name")), size, body.get("back"), cards, root / str(body.get("cards"))))
    return decks


def _read_cards(source: Source, deck_id: str, kinds: dict[str, Kind], collections: dict[str, Source],
                seen: dict[str, tuple[Path, int]], problems: Problems) -> list[Card]:
    cards: list[Card] = []
    if not isinstance(source.value, list):
        problems.add(source.file, 1, "", f"expected a list of cards, got {schema.describe(source.value)}")
        return cards
    for index, body in enumerate(source.value):
        path = (index,)
        line = source.line(path)
        if not isinstance(body, dict):
            problems.add(source.file, line, f"[{index}]", f"expected a card mapping, got {schema.describe(body)}")
            continue
        card_id = body.get("id")
        label = f"card {card_id}" if isinstance(card_id, str) else f"card #{index + 1}"
        if "id" not in body:
            problems.add(source.file, line, f"{label}.id", "missing required key 'id'")
        elif _simple(source, path + ("id",), card_id, "slug", problems):
            if card_id in seen:
                first_file, first_line = seen[card_id]
                problems.add(source.file, source.line(path + ("id",)), f"{label}.id",
                             f"duplicate card id {card_id!r} (first in {first_file.name}:{first_line})")
            else:
                seen[card_id] = (source.file, source.line(path + ("id",)))
        kind_id = body.get("kind")
        kind = kinds.get(kind_id) if isinstance(kind_id, str) else None
        if "kind" not in body:
            problems.add(source.file, line, f"{label}.kind", "missing required key 'kind'")
        elif kind is None:
            problems.add(source.file, source.line(path + ("kind",)), f"{label}.kind",
                         f"unknown kind {kind_id!r} (known: {', '.join(kinds) or 'none'})", source.snippet(path + ("kind",)))
        quantity = body.get("quantity", 1)
        if _simple(source, path + ("quantity",), quantity, "int", problems) and quantity < 1:
            problems.add(source.file, source.line(path + ("quantity",)), f"{label}.quantity", "quantity must be at least 1")
            quantity = 1
        if not isinstance(quantity, int) or isinstance(quantity, bool):
            quantity = 1
        fields = {k: v for k, v in body.items() if k not in schema.CARD_KEYS}
        if kind is not None:
            _check_card_fields(source, path, label, fields, kind, collections, problems)
        cards.extend(expand_quantities(str(card_id), str(kind_id), deck_id, quantity, fields, source.file, line))
    return cards


def _check_card_fields(source: Source, path: tuple, label: str, fields: dict, kind: Kind,
                       collections: dict[str, Source], problems: Problems) -> None:
    for name, value in fields.items():
        if name not in kind.fields:
            problems.add(source.file, source.line(path + (name,)), f"{label}.{name}",
                         f"unknown key {name!r} for a {kind.id} card (known: {', '.join(['id', 'kind', 'quantity', *kind.fields])})",
                         source.snippet(path + (name,)))
    for name, spec in kind.fields.items():
        if name not in fields:
            if not spec.endswith("?"):
                problems.add(source.file, source.line(path), f"{label}.{name}", f"missing required key {name!r} ({spec})")
            continue
        value = fields[name]
        message = schema.scalar_problem(spec, value)
        if message:
            problems.add(source.file, source.line(path + (name,)), f"{label}.{name}", message, source.snippet(path + (name,)))
            continue
        base = spec.rstrip("?").removeprefix("list:")
        if base.startswith("ref:") and value is not None:
            target = base[4:]
            if target not in collections:
                problems.add(source.file, source.line(path + (name,)), f"{label}.{name}",
                             f"refers to collection {target!r}, which the pack does not declare")
                continue
            ids = _collection_ids(collections[target])
            for item in value if isinstance(value, list) else [value]:
                if item not in ids:
                    problems.add(source.file, source.line(path + (name,)), f"{label}.{name}",
                                 f"{item!r} is not an id in {target} ({collections[target].file.name})",
                                 source.snippet(path + (name,)))


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


def _check_text_keys(pack: Pack, main: Source, problems: Problems, strict: bool = True) -> None:
    """Every printed text key exists in every declared language. Not strict: a missing text (a
    printed key, or any key of the source language or English) takes the fallback language's text
    and becomes a warning."""
    wanted: list[tuple[str, Path, int, str]] = [(pack.name, main.file, main.line(("name",)), "name")]
    for index, deck in enumerate(pack.decks):
        wanted.append((deck.name, main.file, main.line(("decks", index, "name")), f"decks[{index}].name"))
    seen_bases: set[str] = set()
    for card in pack.cards():
        if card.base_id in seen_bases or card.kind not in pack.kinds:
            continue
        seen_bases.add(card.base_id)
        for name, spec in pack.kinds[card.kind].fields.items():
            if spec.rstrip("?").removeprefix("list:") != "text" or card.fields.get(name) is None:
                continue
            values = card.fields[name] if isinstance(card.fields[name], list) else [card.fields[name]]
            for key in values:
                wanted.append((str(key), card.file, card.line, f"card {card.base_id}.{name}"))
    if not strict:
        _fill_from_fallback(pack, wanted)
    for key, file, line, where in wanted:
        for lang in pack.languages:
            if key not in pack.texts.get(lang, {}):
                problems.add(file, line, where, f"text key {key!r} has no {lang!r} text (add it to text/{lang}.yaml)")


def _fill_from_fallback(pack: Pack, wanted: list[tuple[str, Path, int, str]]) -> None:
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
            pack.warnings.append(Problem(display_path(file), line, where,
                                         f"text key {key!r} has no {lang!r} text: using the {source!r} text "
                                         f"(add it to text/{lang}.yaml)"))
