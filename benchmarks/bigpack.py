"""Large packs for benchmarks: many simple cards, or Cimiterio copied.

`simple_pack(folder, cards=950)` writes a pack of `cards` distinct poker cards, each with its own
title and rules text in two languages (a title, a wrapped body, a number, a colour band), in
decks of 95 (a tuck box holds that many) and a rules.yaml: the kind of game most print-and-play packs are, where reading the data is
a visible share of a build.

`big_pack(folder, copies=10)` writes a pack of 950 cards (10 x Cimiterio's 95) that passes
`pnp check`: each copy of a deceased has its own id, number and texts in every language, its tomb
and zombie point at it, and the rules' counts are scaled to match. The copies are real distinct
cards (their own ids and names), so nothing a cache or a de-duplication could share is shared
that would not be in a real 950-card game.

    .venv/bin/python benchmarks/bigpack.py /tmp/big [--simple 950 | --copies 10]
"""
from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

import yaml

from pnp.pack import DATA_DIR

SOURCE = "cimiterio"
DECK_CARDS = 95                                       # simple_pack's deck size
SCALED_RULES = {"total": ("equals", "max", "min")}   # rule type -> the counts that grow with the copies


def _suffix(value: str, copy: int) -> str:
    return value if copy == 0 else f"{value}-k{copy}"


def _dump(path: Path, value) -> None:
    path.write_text(yaml.safe_dump(value, allow_unicode=True, sort_keys=False, width=1000), encoding="utf-8")


def _load(path: Path):
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def big_pack(folder: Path, copies: int = 10) -> Path:
    """Write the pack into `folder` (replaced) and return it; 95 * copies cards."""
    source = DATA_DIR / SOURCE
    if folder.exists():
        shutil.rmtree(folder)
    shutil.copytree(source, folder)
    main = _load(folder / "pack.yaml")
    main["id"] = f"{SOURCE}-x{copies}"
    _dump(folder / "pack.yaml", main)
    deceased = _load(source / "deceased.yaml")
    _dump(folder / "deceased.yaml", [
        {**entry, "id": _suffix(entry["id"], k), "number": entry["number"] + k * len(deceased),
         "name": f"deceased.{_suffix(entry['id'], k)}.name", "epitaph": f"deceased.{_suffix(entry['id'], k)}.epitaph"}
        for k in range(copies) for entry in deceased])
    for text in sorted((folder / "text").glob("[!.]*.yaml")):
        texts = _load(text)
        if "deceased" not in texts:             # text/glossary.yaml: the translators' terms, no texts
            continue
        texts["deceased"] = {_suffix(name, k): body for k in range(copies) for name, body in texts["deceased"].items()}
        _dump(text, texts)
    (folder / "text" / ".source-hashes.yaml").unlink(missing_ok=True)   # the texts changed: no stale hashes
    for cards in sorted((folder / "cards").glob("*.yaml")):
        entries = _load(cards)
        _dump(cards, [{**card, "id": _suffix(card["id"], k),
                       **({"deceased": _suffix(card["deceased"], k)} if "deceased" in card else {})}
                      for k in range(copies) for card in entries])
    rules = _load(folder / "rules.yaml")
    for rule in rules["rules"]:
        for key in SCALED_RULES.get(rule["type"], ()):
            if key in rule:
                rule[key] *= copies
        if rule["type"] == "count":
            rule["expect"] = {name: n * copies for name, n in rule["expect"].items()}
    _dump(folder / "rules.yaml", rules)
    return folder


_FRONT = """{% extends "_base/card.svg.j2" %}
{% block art %}
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2*bleed }}" height="{{ h + 2*bleed }}" fill="{{ hsl(card.colour.hue, 60, 40) }}"/>
<rect x="{{ safe }}" y="{{ safe }}" width="{{ w - 2*safe }}" height="{{ h - 2*safe }}" rx="2" fill="{{ palette.paper }}"/>
{{ textbox(card.title, safe + 1, safe + 1, w - 2*safe - 2, 12, font="bold", size=14, min_size=8) }}
{{ textbox(card.body, safe + 1, 30, w - 2*safe - 2, 40, size=10, min_size=6) }}
{{ textbox(card.value ~ "", safe + 1, h - safe - 10, 10, 9, font="condensed", size=16, align="start") }}
{% endblock %}
"""
_BACK = """{% extends "_base/card.svg.j2" %}
{% block art %}
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2*bleed }}" height="{{ h + 2*bleed }}" fill="{{ palette.ink }}"/>
{{ textbox(pack.name, safe, h/2 - 5, w - 2*safe, 10, font="bold", size=12, fill="#ffffff") }}
{% endblock %}
"""
_WORDS = ("draw discard reveal swap steal guard trade gain lose move attack defend shuffle peek "
          "choose every other player card hand deck token coin turn round").split()
_SIMPLE_RULES = {"rules": [
    {"id": "cards.total", "type": "total", "equals": None, "message": "the deck has every card"},
    {"id": "values", "type": "allowed", "select": {"kind": "plain"}, "field": "value", "value_type": "int",
     "min": 1, "max": 10, "message": "a card is worth 1 to 10"},
    {"id": "text.titles", "type": "text", "select": {"kind": "plain"}, "field": "title",
     "message": "every title exists in every language"},
]}


def simple_pack(folder: Path, cards: int = 950) -> Path:
    """Write a pack of `cards` distinct plain poker cards into `folder` (replaced); return it."""
    if folder.exists():
        shutil.rmtree(folder)
    decks = -(-cards // DECK_CARDS)
    (folder / "cards").mkdir(parents=True)
    (folder / "text").mkdir()
    (folder / "templates" / "simple").mkdir(parents=True)
    (folder / "templates" / "simple" / "front.svg.j2").write_text(_FRONT, encoding="utf-8")
    (folder / "templates" / "simple" / "back.svg.j2").write_text(_BACK, encoding="utf-8")
    _dump(folder / "pack.yaml", {
        "id": f"simple-{cards}", "name": "game.name", "languages": ["en", "it"], "players": {"min": 2, "max": 6},
        "palette": {"ink": "#202020", "paper": "#f8f4ea"},
        "collections": {"colours": {"file": "colours.yaml", "doc": "Card colours.", "items": {"id": "slug", "hue": "int"}}},
        "kinds": {"plain": {"front": "simple/front.svg.j2",
                            "fields": {"title": "text", "body": "text", "colour": "ref:colours", "value": "int"}}},
        "decks": [{"id": f"deck-{d}", "name": "deck.main", "back": "simple/back.svg.j2", "cards": f"cards/deck-{d}.yaml"}
                  for d in range(decks)]})
    _dump(folder / "colours.yaml", [{"id": f"c{n}", "hue": n * 36} for n in range(10)])
    ids = [f"card-{n:04d}" for n in range(1, cards + 1)]
    for d in range(decks):
        _dump(folder / "cards" / f"deck-{d}.yaml", [
            {"id": card_id, "kind": "plain", "title": f"card.{card_id}.title", "body": f"card.{card_id}.body",
             "colour": f"c{n % 10}", "value": n % 10 + 1}
            for n, card_id in enumerate(ids) if n * decks // cards == d])
    for lang, prefix in (("en", "Card"), ("it", "Carta")):
        _dump(folder / "text" / f"{lang}.yaml", {
            "game": {"name": f"Simple {cards}"}, "deck": {"main": prefix},
            "card": {card_id: {"title": f"{prefix} {n + 1}",
                               "body": " ".join(_WORDS[(n * 7 + i * 3) % len(_WORDS)] for i in range(12 + n % 9)) + "."}
                     for n, card_id in enumerate(ids)}})
    rules = _SIMPLE_RULES
    rules["rules"][0]["equals"] = cards
    _dump(folder / "rules.yaml", rules)
    return folder


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--copies", type=int, default=10, help="copies of Cimiterio")
    parser.add_argument("--simple", type=int, metavar="CARDS", help="a pack of CARDS simple cards instead")
    args = parser.parse_args()
    print(simple_pack(args.folder, args.simple) if args.simple else big_pack(args.folder, args.copies))
    return 0


if __name__ == "__main__":
    sys.exit(main())
