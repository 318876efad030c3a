"""The data-pack schema: every key a pack file may hold, its type and what it means.

Kept as data (one `Field` per key with its docstring) so the loader, the error messages and the
docs all read the same definition. Unknown keys are errors.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class Field:
    check: str          # a type spec understood by `type_problem`
    doc: str
    required: bool = True


PACK_FIELDS: dict[str, Field] = {
    "id": Field("slug", "Pack id; the same as the folder name for shipped packs."),
    "name": Field("text", "Text key of the game's printed name."),
    "languages": Field("list:lang", "Declared languages; the first is the source language."),
    "players": Field("players", "Player count range, e.g. {min: 1, max: 4}."),
    "palette": Field("map:color", "Named colours templates may use.", required=False),
    "collections": Field("map:str", "Game data files by name, e.g. map: map.yaml.", required=False),
    "kinds": Field("map:kind", "Card kinds: templates and typed fields.", required=False),
    "decks": Field("list:deck", "Decks in print order."),
    "templates": Field("str", "Template folder below templates/ (default: the pack id).", required=False),
}

KIND_FIELDS: dict[str, Field] = {
    "front": Field("str", "Front template, a path below templates/."),
    "back": Field("str?", "Back template for two-faced cards; null uses the deck's back.", required=False),
    "fields": Field("map:fieldtype", "Fields a card of this kind has: name -> type.", required=False),
    "doc": Field("str", "What this kind of card is, for designers.", required=False),
}

DECK_FIELDS: dict[str, Field] = {
    "id": Field("slug", "Deck id, unique in the pack."),
    "name": Field("text", "Text key of the deck's name."),
    "card_size": Field("size", "Named size (poker, bridge, ...) or '63mm x 88mm'.", required=False),
    "back": Field("str?", "Back template for single-faced cards.", required=False),
    "cards": Field("str", "Card list file, relative to the pack."),
}

CARD_KEYS = {"id", "kind", "quantity"}

SLUG = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
COLOR = re.compile(r"^#(?:[0-9a-fA-F]{3}){1,2}$")
LANGUAGE = re.compile(r"^[a-z]{2,3}(?:-[A-Za-z0-9]+)?$")
FIELD_TYPE = re.compile(r"^(?:list:)?(?:int|number|bool|str|text|color|enum:[^|]+(?:\|[^|]+)*|ref:[a-z0-9_-]+)\??$")


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


def scalar_problem(spec: str, value: Any) -> str | None:
    """None when `value` fits the card-field type `spec`, else what is wrong (refs checked elsewhere)."""
    optional = spec.endswith("?")
    spec = spec.rstrip("?")
    if value is None:
        return None if optional else "a value is required"
    if spec.startswith("list:"):
        if not isinstance(value, list):
            return f"expected a list, got {describe(value)}"
        for item in value:
            problem = scalar_problem(spec[5:], item)
            if problem:
                return problem
        return None
    checks: dict[str, Callable[[Any], bool]] = {
        "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
        "bool": lambda v: isinstance(v, bool),
        "str": lambda v: isinstance(v, str),
        "text": lambda v: isinstance(v, str),
        "color": lambda v: isinstance(v, str) and bool(COLOR.match(v)),
        "slug": lambda v: isinstance(v, str) and bool(SLUG.match(v)),
        "lang": lambda v: isinstance(v, str) and bool(LANGUAGE.match(v)),
    }
    names = {"int": "a whole number", "number": "a number", "bool": "true or false", "str": "text",
             "text": "a text key", "color": "a colour like '#a0b0c0'",
             "slug": "an id of lower-case letters, digits, '-' or '_'", "lang": "a language code like 'it'"}
    if spec.startswith("enum:"):
        allowed = spec[5:].split("|")
        return None if str(value) in allowed else f"expected one of {', '.join(allowed)}, got {describe(value)}"
    if spec.startswith("ref:"):
        return None if isinstance(value, (str, int)) and not isinstance(value, bool) else \
            f"expected an id, got {describe(value)}"
    check = checks.get(spec)
    if check is None:
        return f"unknown type {spec!r}"
    return None if check(value) else f"expected {names[spec]}, got {describe(value)}"
