"""Card instances -> SVG faces -> compiled drawings (pnp.render.svgcanvas).

Identical SVG (the copies of a card, a deck's shared back) is converted once: the SVG text's hash
is the face's key, and the sheet writer draws each key once as a PDF form.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from collections.abc import Mapping
from typing import Any

from pnp.render.svgcanvas import UnsupportedSvg, compile_svg

from pnp.pack import Card, Deck, Pack
from pnp.print_constants import BLEED_MM, SAFE_MM
from pnp.render.templates import Renderer, TemplateProblem
from pnp.text import fonts
from pnp.units import pt_to_mm

@dataclass(frozen=True)
class RenderedFace:
    key: str
    svg: str
    drawing: Any
    overflows: tuple[str, ...]
    missing: tuple[str, ...]


class _Record(Mapping):
    """Read-only data for templates: `card.name` works, a typo is an error (StrictUndefined), and
    unlike a dict there is no `copy`/`update` method to shadow a field of that name."""

    __slots__ = ("_data",)

    def __init__(self, data: dict | None = None, **more: Any):
        self._data = {**(data or {}), **more}

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self):
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)


def card_context(pack: Pack, card: Card, lang: str) -> _Record:
    texts = pack.texts[lang]
    kind = pack.kinds[card.kind]
    values: dict[str, Any] = {"id": card.id, "base_id": card.base_id, "kind": card.kind, "deck": card.deck,
                              "copy": card.copy, "quantity": card.quantity}
    for name, spec in kind.fields.items():
        value = card.fields.get(name)
        base = spec.rstrip("?").removeprefix("list:")
        if value is not None and base == "text":
            value = [texts.get(v, v) for v in value] if isinstance(value, list) else texts.get(value, value)
        elif value is not None and base.startswith("ref:"):
            items = _collection_index(pack, base[4:])
            values[f"{name}_id"] = value
            value = [items.get(v) for v in value] if isinstance(value, list) else items.get(value)
        values[name] = value
    return _Record(values)


def _collection_index(pack: Pack, name: str) -> dict:
    collection = pack.collections.get(name)
    if isinstance(collection, list):
        return {item["id"]: _wrap(item) for item in collection if isinstance(item, dict) and "id" in item}
    return {}


class FaceMaker:
    """Renders the faces of one pack in one language."""

    def __init__(self, pack: Pack, lang: str, drawings: bool = True):
        fonts.register_all()
        self.drawings = drawings  # False: lay out and check only (the checker), no SVG conversion
        self.rtl = is_rtl(lang)
        self.pack = pack
        self.lang = lang
        self.renderer = Renderer(pack.template_dirs)
        self._drawings: dict[str, Any] = {}
        collections = {name: _wrap(value) for name, value in pack.collections.items()}
        self._pack_context = _Record(id=pack.id, name=pack.texts[lang].get(pack.name, pack.name),
                                     languages=list(pack.languages), collections=collections,
                                     players=_Record(pack.players))

    def face(self, template: str, deck: Deck, card: Card | None, face: str) -> RenderedFace:
        w, h = (pt_to_mm(v) for v in deck.size_pt)
        context = {
            "card": card_context(self.pack, card, self.lang) if card else _Record(),
            "deck": _Record(id=deck.id, name=self.pack.texts[self.lang].get(deck.name, deck.name)),
            "pack": self._pack_context, "w": w, "h": h, "bleed": BLEED_MM, "safe": SAFE_MM,
            "palette": _Record(self.pack.palette), "face": face, "rtl": self.rtl,
        }
        svg, report = self.renderer.render(template, context, self.pack.texts[self.lang], self.lang)
        key = hashlib.sha256(svg.encode()).hexdigest()[:20]
        drawing = self._drawings.get(key)
        if drawing is None and self.drawings:
            try:
                drawing = compile_svg(svg)
            except UnsupportedSvg as error:
                raise TemplateProblem(f"template {template}: {error}") from None
            self._drawings[key] = drawing
        return RenderedFace(key, svg, drawing, tuple(report.overflows), tuple(report.missing))


def is_rtl(lang: str) -> bool:
    """Right-to-left script, from CLDR (Babel) rather than a hand-kept list."""
    from babel import Locale, UnknownLocaleError

    try:
        return Locale.parse(lang.replace("-", "_")).character_order == "right-to-left"
    except (UnknownLocaleError, ValueError):
        return False


def _wrap(value: Any) -> Any:
    if isinstance(value, dict):
        return _Record({k: _wrap(v) for k, v in value.items()})
    if isinstance(value, list):
        return [_wrap(v) for v in value]
    return value
