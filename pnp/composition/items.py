"""What a rule looks at: cards, or entries of a collection, each knowing its file and lines.

A rule's `select:` picks items:

    select: {kind: tomb}                         # cards (physical, quantities expanded)
    select: {deck: events, kind: [noise, bell]}  # several values: any of them
    select: {kind: zombie, where: {points: 2}}   # field values (a list: any of them)
    select: {two_faced: true}                    # cards whose kind has its own back
    select: {collection: "dice[id=size].faces"}  # entries of a collection, by path

Collection paths start with a collection name; `.key` enters a mapping, `[n]` a list item,
`[*]` every item, `[field=value]` the items whose field has that value.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp.pack import Card, Pack
from pnp.yamlsource import Source, dotted

MISSING = object()


class RuleSpecError(ValueError):
    """A rule asks for something the pack cannot give (a bad path, no such collection...)."""


@dataclass
class Item:
    label: str                  # "card tomb-07", "walls[1]"
    value: Any                  # a card's field mapping, or the collection entry (mapping or scalar)
    source: Source | None
    path: tuple                 # key path of the item inside source
    file: Path
    fallback_line: int = 0
    card: Card | None = None

    def get(self, name: str | None) -> Any:
        if name is None:
            return self.value
        if isinstance(self.value, dict):
            return _dig(self.value, name)
        return MISSING

    def line(self, name: str | None = None) -> int:
        if self.source is None:
            return self.fallback_line
        path = self.path
        if name is not None:
            path = path + tuple(name.split("."))
        return self.source.line(path)

    def key(self, name: str | None = None) -> str:
        return f"{self.label}.{name}" if name else self.label


def _dig(value: Any, dotted_name: str) -> Any:
    for part in dotted_name.split("."):
        if isinstance(value, dict) and part in value:
            value = value[part]
        else:
            return MISSING
    return value


class ItemIndex:
    """Builds items for one pack, with the per-field lines of the card files the loader read
    (each deck keeps its loaded file: nothing is parsed again)."""

    def __init__(self, pack: Pack):
        self.pack = pack
        self._card_items: list[Item] | None = None
        self._sources = {deck.source.file: deck.source for deck in pack.decks if deck.source is not None}
        self._entries: dict[Path, dict[int, int]] = {}      # card file -> line -> index of the entry there

    # -- cards ---------------------------------------------------------------------------------
    def card_items(self) -> list[Item]:
        if self._card_items is None:
            self._card_items = [self._card_item(card) for card in self.pack.cards()]
        return self._card_items

    def _entry_at(self, source: Source, line: int) -> int | None:
        """Index of the card entry that starts on `line` of the card file (the first, if several)."""
        if source.file not in self._entries:
            lines: dict[int, int] = {}
            for index in range(len(source.value) if isinstance(source.value, list) else 0):
                lines.setdefault(source.lines.get((index,), 0), index)
            self._entries[source.file] = lines
        return self._entries[source.file].get(line)

    def _card_item(self, card: Card) -> Item:
        source = self._sources.get(card.file)
        index = self._entry_at(source, card.line) if source is not None else None
        path: tuple = () if index is None else (index,)
        value = {"id": card.base_id, "instance": card.id, "kind": card.kind, "deck": card.deck,
                 "quantity": card.quantity, "copy": card.copy, **card.fields}
        return Item(f"card {card.base_id}", value, source if path else None, path, card.file, card.line, card)

    # -- collections ---------------------------------------------------------------------------
    def collection_items(self, path_text: str) -> list[Item]:
        steps = parse_path(path_text)
        name = steps[0]
        if name not in self.pack.collections:
            raise RuleSpecError(f"no collection {name!r} (the pack has: {', '.join(self.pack.collections) or 'none'})")
        source = self.pack.sources.get(f"collection:{name}")
        nodes: list[tuple[Any, tuple]] = [(self.pack.collections[name], ())]
        for step in steps[1:]:
            nodes = list(_step(nodes, step))
        file = source.file if source else self.pack.root
        items: list[Item] = []
        for value, path in nodes:
            if isinstance(value, list):   # a path ending on a list means its entries
                items.extend(Item(f"{name}{_label(path + (i,))}", v, source, path + (i,), file)
                             for i, v in enumerate(value))
            else:
                items.append(Item(f"{name}{_label(path)}", value, source, path, file))
        return items

    # -- selection -----------------------------------------------------------------------------
    def select(self, spec: dict | None) -> list[Item]:
        """The items a validated `select:` mapping (pnp.composition.schema.SELECT) picks."""
        spec = {k: v for k, v in (spec or {}).items() if v is not None}
        if "collection" in spec:
            items = self.collection_items(str(spec["collection"]))
            if {"deck", "kind", "two_faced"} & set(spec):
                raise RuleSpecError("deck, kind and two_faced select cards, not collection entries")
        else:
            items = self.card_items()
            for name in ("deck", "kind"):
                if name in spec:
                    wanted = _as_set(spec[name])
                    items = [item for item in items if item.value[name] in wanted]
            if "two_faced" in spec:
                want = bool(spec["two_faced"])
                items = [item for item in items
                         if item.card is not None and (self.pack.kinds[item.card.kind].back is not None) == want]
        for name, wanted in (spec.get("where") or {}).items():
            allowed = _as_list(wanted)
            items = [item for item in items if _in(item.get(str(name)), allowed)]
        return items


def same_value(a: Any, b: Any) -> bool:
    """Equality that keeps True apart from 1 and "1" apart from 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    return a == b and (type(a) is type(b) or isinstance(a, (int, float)) and isinstance(b, (int, float)))


def _in(value: Any, allowed: list) -> bool:
    if value is MISSING:
        value = None
    return any(same_value(value, a) for a in allowed)


def _as_list(value: Any) -> list:
    return list(value) if isinstance(value, (list, tuple, set)) else [value]


def _as_set(value: Any) -> set:
    return set(_as_list(value))


_TOKEN = re.compile(r"\s*(?:\[(?P<bracket>[^\]]*)\]|\.?(?P<name>[^.\[\]]+))")


def parse_path(text: str) -> list:
    steps: list = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if not match or match.end() == pos:
            raise RuleSpecError(f"cannot read path {text!r} at {text[pos:]!r}")
        pos = match.end()
        if match.group("name") is not None:
            steps.append(match.group("name").strip())
        else:
            inner = match.group("bracket").strip()
            if inner == "*":
                steps.append(("*",))
            elif inner.isdigit():
                steps.append(int(inner))
            elif "=" in inner:
                key, value = (s.strip() for s in inner.split("=", 1))
                steps.append(("=", key, value))
            else:
                raise RuleSpecError(f"cannot read [{inner}] in path {text!r}")
    if not steps or not isinstance(steps[0], str):
        raise RuleSpecError(f"path {text!r} must start with a collection name")
    return steps


def _step(nodes, step):
    for value, path in nodes:
        if isinstance(step, str):
            if isinstance(value, dict) and step in value:
                yield value[step], path + (step,)
        elif isinstance(step, int):
            if isinstance(value, list) and step < len(value):
                yield value[step], path + (step,)
        elif step[0] == "*":
            if isinstance(value, list):
                yield from ((v, path + (i,)) for i, v in enumerate(value))
            elif isinstance(value, dict):
                yield from ((v, path + (k,)) for k, v in value.items())
        else:
            _, key, wanted = step
            if isinstance(value, list):
                for i, v in enumerate(value):
                    if isinstance(v, dict) and str(v.get(key)) == wanted:
                        yield v, path + (i,)


def _label(path: tuple) -> str:
    text = dotted(path)
    return text if text.startswith("[") or not text else "." + text
