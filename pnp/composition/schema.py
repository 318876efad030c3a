"""The rules file (`data/<game>/rules.yaml`) as a schema: every key, its type, default and meaning.

    rules:
      - id: tombs.pairing        # unique in the file; findings carry it
        type: pairing            # the rule kind: picks the schema of the other keys (KINDS)
        severity: error          # error (default) | warning
        message: "..."           # what the rule demands, in one line (rule points welcome: C1)
        hint: "..."              # optional: how to fix a failure
        left: {kind: tomb}       # ...plus the keys of its kind
        right: {kind: zombie}
        by: deceased

A kind is a `Schema` here and a check function in pnp.composition.rules; a new game adds a rules
file, not checker code. Validate with `Validator(source, problems).check(value, RULES_FILE)`.
"""
from __future__ import annotations

from typing import Any

from pnp.composition.findings import ERROR, SEVERITIES
from pnp.schema import REQUIRED, AnyOf, Field, OneOf, Schema


def _kind(name: str, doc: str, **fields: Field) -> Schema:
    return Schema(f"{name} rule", doc, {**COMMON, **fields}, unique=None)


COMMON = {
    "id": Field("str", "Rule id, unique in the file (e.g. tombs.pairing); findings carry it."),
    "severity": Field(f"enum:{'|'.join(SEVERITIES)}", "error: `pnp build` refuses the deck; warning: reported only.",
                      ERROR),
    "message": Field("str", "What the rule demands, in one line (rule points welcome).", ""),
    "hint": Field("str", "How to fix a failure.", ""),
    "doc": Field("str?", "A note for whoever edits the rules; never printed.", None),
}

NAMES = AnyOf(("str", "list:str"), "a name or a list of names")
PATH_OR_LIST = AnyOf(("str", "list:any"), "a collection path or a list of values")

SELECT = Schema("rule select", "Which items a rule looks at: cards (the default: every card) or collection entries.", {
    "collection": Field("str?", "Entries of a collection by path, e.g. \"dice[id=size].faces\" (not cards).", None),
    "deck": Field(NAMES, "Cards of this deck (or of any of these decks).", None),
    "kind": Field(NAMES, "Cards of this kind (or of any of these kinds).", None),
    "where": Field("map:any", "Field -> value (or list of values, any of them) the items must have.", None),
    "two_faced": Field("bool?", "true: cards whose kind has its own back; false: the others.", None),
}, unique=None)

BOUND = Schema("rule bound", "A count: exactly `equals`, or between `min` and `max`.", {
    "equals": Field("number?", "Exactly this many.", None),
    "min": Field("number?", "At least this many.", None),
    "max": Field("number?", "At most this many.", None),
}, unique=None)


def _select(doc: str = "Which items count (default: every card).", default: Any = None) -> Field:
    return Field(SELECT, doc, default)


def _bounds(what: str) -> dict[str, Field]:
    return {"equals": Field("number?", f"Exactly this {what}.", None),
            "min": Field("number?", f"At least this {what}.", None),
            "max": Field("number?", f"At most this {what}.", None)}


def _grid(**chars: str) -> dict[str, Field]:
    return {"grid": Field("str", "Collection path of the grid text, e.g. map.grid."),
            **{name: Field("str", doc) for name, doc in chars.items()}}


_FIELD = Field("str", "The field of the selected items the rule reads.")
_OPTIONAL_FIELD = Field("str?", "The field of the selected items the rule reads (default: the entries themselves).", None)

KINDS: dict[str, Schema] = {
    "total": _kind("total", "The number of selected cards (or collection entries).",
                   select=_select(), **_bounds("many"),
                   noun=Field("str", "What is counted, in the message (e.g. \"tombs\").", "found")),
    "count": _kind("count", "The number of selected items per value of a field.",
                   select=_select(), by=Field("str", "The field whose values are counted."),
                   expect=Field(Schema("", "value -> count", values=AnyOf(("number", BOUND), "a number or {min, max}"),
                                       unique=None), "Value -> count (or {equals, min, max})."),
                   only=Field("bool", "Refuse values that `expect` does not list.", False)),
    "each": _kind("each", "Every value (of a list or a collection) appears on a number of selected items.",
                  values=Field(PATH_OR_LIST, "The values: a list, or a collection path (entries give their id)."),
                  values_field=Field("str", "With a collection path: the entries' field that is the value.", "id"),
                  select=_select(), field=_FIELD, **_bounds("many items per value")),
    "pairing": _kind("pairing", "One-to-one between two selections by a field.",
                     left=_select("The left side.", REQUIRED), right=_select("The right side.", REQUIRED),
                     by=Field(NAMES, "The field that pairs them, or [left_field, right_field]."),
                     names=Field("list:str?", "What the two sides are called in messages, e.g. [tomb, zombie].", None),
                     same=Field("list:any?", "Fields (or [left, right] pairs) that must be equal on both cards "
                                             "of a pair.", None)),
    "unique": _kind("unique", "A field's value is unique among the selected items (copies count apart).",
                    select=_select(), field=_FIELD),
    "allowed": _kind("allowed", "A field's values lie in a set (`in`) and/or a range (`min`, `max`, `equals`).",
                     select=_select(), field=_FIELD,
                     **{"in": Field("list:any?", "The allowed values.", None)}, **_bounds("value"),
                     value_type=Field("enum:int|number|str|bool?", "The type every value must have "
                                      "(number when a bound is given).", None),
                     required=Field("bool", "Every selected item must have the field.", True)),
    "reference": _kind("reference", "A field's value exists in a collection (`in`) or is a character of a text "
                       "such as a grid map (`chars_of`).",
                       select=_select(), field=_OPTIONAL_FIELD,
                       **{"in": Field(PATH_OR_LIST, "Collection path of the allowed values, e.g. "
                                      "map.avenues[*].id (entries give `in_field`).", None)},
                       in_field=Field("str", "With `in`: the entries' field that is the value.", "id"),
                       chars_of=Field("str?", "Collection path of a text whose characters are the allowed values.",
                                      None)),
    "text": _kind("text", "A field holds a text key present in every declared language (collections: the "
                  "loader checks only card text fields).",
                  select=_select(), field=_OPTIONAL_FIELD,
                  required=Field("bool", "Every selected item must have the field.", True)),
    "distinct_at_least": _kind("distinct_at_least", "At least a number of distinct values of a field.",
                               select=_select(), field=_FIELD,
                               equals=Field("number?", "Exactly this many distinct values.", None),
                               min=Field("number", "At least this many distinct values."),
                               max=Field("number?", "At most this many distinct values.", None)),
    "sequence": _kind("sequence", "The selected items' field values, in order, are exactly a list.",
                      select=_select(), field=_FIELD,
                      equals=Field("any", "The expected values, in order (a list; null for a missing value).")),
    "card_size": _kind("card_size", "Decks share one card size.",
                       decks=Field(NAMES, "The decks (default: all).", None),
                       equals=Field("size?", "The size, named (poker...) or \"63mm x 88mm\" (default: the first "
                                    "deck's).", None)),
    "grid_count": _kind("grid_count", "The number of cells of a grid map holding one of some characters.",
                        **_grid(char="The characters counted."), **_bounds("many cells")),
    "grid_adjacent": _kind("grid_adjacent", "Every cell of some characters has an orthogonal neighbour among others.",
                           **_grid(char="The characters of the cells checked.",
                                   next_to="The characters one neighbour must be.")),
    "grid_outside": _kind("grid_outside", "Every cell of some characters lies outside the bounding box of a region.",
                          **_grid(char="The characters of the cells checked.",
                                  region="The characters of the region.")),
    "grid_reachable": _kind("grid_reachable", "Every `to` cell is reachable from a `from` cell by orthogonal steps "
                            "over `over` cells.",
                            **_grid(**{"from": "The characters of the start cells.",
                                       "to": "The characters of the cells to reach.",
                                       "over": "The characters of the cells a step may land on."})),
    "zones": _kind("zones", "Rectangular zones on a square board: size, inside the board, apart from each other.",
                   board=Field("str", "Collection path of the board mapping (with size: {cols, rows})."),
                   zones=Field("str", "Collection path of the zone list (each {cols: [a, b], rows: [a, b]})."),
                   zone_size=Field("int?", "Every zone spans this many columns and rows.", None),
                   count=Field("int?", "The number of zones.", None),
                   apart=Field("int", "Squares between zones (0: they may touch; 1: no shared edge or corner).", 1)),
}

RULE = OneOf("rule", "One composition rule; `type` picks its kind.", "type", lambda: KINDS, unique="id")

RULES_FILE = Schema("rules.yaml", "A game's composition rules.", {
    "rules": Field([RULE], "The rules, checked in order."),
    "doc": Field("str?", "A note for whoever edits the rules; never printed.", None),
}, unique=None)
