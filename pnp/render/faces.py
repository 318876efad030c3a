"""Card instances -> SVG faces -> compiled drawings (pnp.render.svgcanvas).

Identical SVG (the copies of a card, a deck's shared back) is converted once: the SVG text's hash
is the face's key, and the sheet writer draws each key once as a PDF form.
"""
from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pnp import facecache
from pnp.facecache import FaceCache
from pnp.i18n import sheet
from pnp.i18n.direction import is_rtl
from pnp.i18n.texts import Texts
from pnp.pack import Card, Deck, Pack
from pnp.print_constants import BLEED_MM, SAFE_MM
from pnp.render.art import ART_ERROR, ArtError, ArtLibrary
from pnp.render.facedata import PackedFace, face_data, face_from_data
from pnp.render.failures import TemplateFailures
from pnp.render.svgcanvas import UnsupportedSvg, compile_svg
from pnp.render.templates import Record, Renderer, TemplateProblem, TextKeys
from pnp.render.templatesources import TemplateSources
from pnp.render.textbox import TEXT_CONTROL, XML_ILLEGAL, control_characters
from pnp.text import digits, hyphenate, packfonts
from pnp.text.fitreport import FitIssue, MeasuredBox
from pnp.units import pt_to_mm


@dataclass(frozen=True)
class RenderedFace:
    key: str
    svg: str
    drawing: Any
    issues: tuple[FitIssue, ...] = ()          # text that does not fit or has no glyph
    missing_keys: tuple[str, ...] = ()         # text keys the language lacks (printed as the key)
    text_keys: Mapping[str, str] = field(default_factory=dict, compare=False)   # string -> its one key
    boxes: tuple[MeasuredBox, ...] = field(default=(), compare=False)   # every text box, for `pnp i18n fit`

    def text_key(self, text: str) -> str:
        """The text key that produced `text` on this face, "" when none or several did."""
        return self.text_keys.get(text, "")


_Record = Record      # its old name


def card_context(pack: Pack, card: Card, lang: str, keys: TextKeys | None = None,
                 missing: list[str] | None = None, texts: Texts | None = None) -> Record:
    """A card's fields for its templates, `text` fields resolved in `lang` (recorded in `keys`;
    a key the language lacks prints as the key and goes to `missing`)."""
    texts = texts if texts is not None else Texts.of(pack, lang)
    keys = keys if keys is not None else TextKeys()
    missing = missing if missing is not None else []

    def text(key: Any) -> Any:
        if key in texts:
            return keys.add(texts.raw(key), key)
        missing.append(str(key))
        return key

    kind = pack.kinds[card.kind]
    values: dict[str, Any] = {"id": card.id, "base_id": card.base_id, "kind": card.kind, "deck": card.deck,
                              "copy": card.copy, "quantity": card.quantity}
    for name, spec in kind.fields.items():
        value = card.fields.get(name)
        base = spec.rstrip("?").removeprefix("list:")
        if value is not None and base == "text":
            value = [text(v) for v in value] if isinstance(value, list) else text(value)
        elif value is not None and base.startswith("ref:"):
            items = _collection_index(pack, base[4:])
            values[f"{name}_id"] = value
            value = [items.get(v) for v in value] if isinstance(value, list) else items.get(value)
        values[name] = value
    return Record(values, "card")


def _collection_index(pack: Pack, name: str) -> dict:
    collection = pack.collections.get(name)
    if isinstance(collection, list):
        return {item["id"]: _wrap(item, f"{name} entry") for item in collection
                if isinstance(item, dict) and "id" in item}
    return {}


def pack_context(pack: Pack, lang: str) -> dict[str, Any]:
    """What every template sees of the pack and the language, cards' and components' art alike:
    `pack` (id, name, languages, collections, players), `collections`, `palette`, `lang`, `rtl`
    and `direction`. Plain records, never the loader's objects (no paths reach a template)."""
    collections = Record({name: _wrap(value, name) for name, value in pack.collections.items()},
                         "pack.collections")
    rtl = is_rtl(lang)
    return {
        "pack": Record(dict(id=pack.id, name=pack.texts[lang].get(pack.name, pack.name),
                            languages=list(pack.languages), collections=collections,
                            players=Record(pack.players, "pack.players")), "pack"),
        "collections": collections, "palette": Record(pack.palette, "palette"), "lang": lang, "rtl": rtl,
        "direction": "rtl" if rtl else "ltr",
    }


class _RecordingTexts(Texts):
    """The build's texts, noting every key looked up (the face cache keeps the texts a template
    read with `t()`: they are not in the card's own data)."""

    def __init__(self, texts: Texts):
        super().__init__(texts.own, texts.written, texts.lang, texts.supplied)
        object.__setattr__(self, "seen", [])

    def source(self, key: str) -> tuple[dict[str, Any], str] | None:
        self.seen.append(key)  # type: ignore[attr-defined]
        return super().source(key)


class _RecordingArt:
    """The pack's ArtLibrary, noting the href and content hash of every file a face draws."""

    def __init__(self, library: ArtLibrary):
        self.library = library
        self.seen: dict[str, str] = {}

    def __call__(self, href: str) -> Any:
        art = self.library(href)
        self.seen[href] = art_digest(art)
        return art


def art_digest(art: Any) -> str:
    """A raster's sha256 (RasterArt.digest) or an SVG art file's, of its text."""
    digest = getattr(art, "digest", None)
    return digest if isinstance(digest, str) else hashlib.sha256(art.text.encode()).hexdigest()


class FaceMaker:
    """Renders the faces of one pack in one language; with a `cache` (pnp.facecache.FaceCache),
    a face whose inputs are unchanged since it was last drawn is read back instead of drawn."""

    def __init__(self, pack: Pack, lang: str, drawings: bool = True, bleed_mm: float = BLEED_MM,
                 cache: FaceCache | None = None, keep_svg: bool = True, packed: bool = False):
        # no fonts registered here: the text layer registers (parses) each style on first use
        self.keep_svg = keep_svg  # False: faces carry no SVG text (a build needs only the drawings)
        self.packed = packed      # True: drawings kept compressed until drawn (PackedFace), no text
                                  # boxes kept (RenderedFace.boxes, for `pnp i18n fit`): the build
        self.bleed_mm = bleed_mm  # the art past the trim: home print's BLEED_MM, or a print shop's
        self.drawings = drawings  # False: lay out and check only (the checker), no SVG conversion
        self.rtl = is_rtl(lang)
        self.pack = pack
        self.lang = lang
        self.renderer = Renderer(pack.template_dirs)
        self.art = ArtLibrary(pack.root)              # <image href="art/..."> of the pack's files
        # the pack's own fonts and icons for textbox(); the loader already refused unusable fonts
        self.text_assets = packfonts.assets_of(pack)
        self._drawings: dict[str, Any] = {}
        self.texts = Texts.of(pack, lang)
        self._shared = pack_context(pack, lang)
        self._pack_context = self._shared["pack"]
        self.failures = TemplateFailures(pack, lang)    # faces that failed: one problem per broken template
        self.cache = cache if drawings else None
        if self.cache is not None:
            self._recording = _RecordingTexts(self.texts)
            self._art = _RecordingArt(self.art)
            self._sources = TemplateSources(self.renderer.env, {})
            self._last_card: tuple[Card | None, str] = (None, "")
            self._deck_parts: dict[str, str] = {}            # deck id -> its part of its faces' keys
            self._text_values: dict[str, str] = {}           # text key -> facecache.text_value (fixed for a build)
            # every key a text may have in this build (the pack's and the shared sheet strings' in
            # any language they fall back to): a card's words that are not keys skip the lookup
            self._maybe_keys = frozenset(self.texts.own).union(*(sheet.table(lang) for lang in
                                                                 {lang, sheet.SOURCE} if sheet.has_language(lang)))
            self._art_of: dict[str, dict[str, str]] = {}   # SVG key -> art files it draws (href -> sha256)
            self._sha_of: dict[str, str] = {}              # SVG key -> text_sha of its drawing's text
            self._static = facecache.digest(facecache.code_digest(), facecache.fonts_digest(),
                                            facecache.pack_assets_digest(pack), lang, bleed_mm, SAFE_MM,
                                            repr(digits.active()),     # how numbers print (build option)
                                            {name: (kind.front, kind.back, kind.fields) for name, kind in
                                             pack.kinds.items()}, self._shared)

    def face(self, template: str, deck: Deck, card: Card | None, face: str) -> RenderedFace:
        cache_key = ""
        if self.cache is not None:
            cache_key = self._cache_key(template, deck, card, face)
            cached = self._cached(cache_key)
            if cached is not None:
                return cached
            self._recording.seen.clear()  # type: ignore[attr-defined]
            self._art.seen.clear()
        w, h = (pt_to_mm(v) for v in deck.size_pt)
        texts = self.pack.texts[self.lang]
        keys = TextKeys()
        missing: list[str] = []
        keys.add(self._pack_context["name"], self.pack.name)
        context = {
            "card": card_context(self.pack, card, self.lang, keys, missing, self.texts) if card else Record({}, "card"),
            "deck": Record(dict(id=deck.id, name=keys.add(texts.get(deck.name, deck.name), deck.name)), "deck"),
            **self._shared, "w": w, "h": h, "bleed": self.bleed_mm, "safe": SAFE_MM, "face": face,
        }
        looked_up = self._recording if self.cache is not None else self.texts
        with packfonts.using(self.text_assets), hyphenate.using(self.lang):
            svg, report = self.renderer.render(template, context, looked_up, self.lang, keys, (w, h))
        if XML_ILLEGAL.search(svg):
            raise _control_problem(template, svg, keys)
        key = hashlib.sha256(svg.encode()).hexdigest()[:20]
        drawing = self._drawings.get(key)
        stored: bytes | None = None              # the drawing, when packed now (PackedFace.packed)
        if drawing is None and self.drawings:
            try:
                drawing = compile_svg(svg, art=self._art if self.cache is not None else self.art)
            except ArtError as error:
                raise self._art_problem(template, error) from None
            except UnsupportedSvg as error:      # at the template line that writes the element
                raise self.renderer.svg_problem(template, error) from None
            if self.cache is not None:      # what this SVG draws, for every face that has the same SVG
                self._art_of[key] = dict(self._art.seen)
            if self.packed:                 # each unique face kept once, compressed, until the PDF draws it
                data = face_data(drawing)
                if data is not None:
                    text = facecache.drawing_text(data)
                    drawing = PackedFace.of(text, drawing.width, drawing.height, self.art,
                                            self._drawing_id(key) if self.cache is not None else "")
                    if self.cache is not None:
                        stored = drawing.packed
                        self._sha_of[key] = facecache.text_sha(text)
            self._drawings[key] = drawing
        rendered = RenderedFace(key, svg if self.keep_svg else "", drawing, tuple(report.issues),
                                tuple(dict.fromkeys([*missing, *report.missing_keys])), keys.unique(),
                                () if self.packed else tuple(report.boxes))   # the build reads no boxes
        if self.cache is not None:
            self.cache.drawn.append(f"{card.id if card else deck.id}:{face}")
            self._store(cache_key, rendered, stored)
        return rendered

    def _drawing_id(self, svg_key: str) -> str:
        """A drawing's name in the cache: its SVG and the art files it draws (see _store)."""
        return facecache.digest(self._static, svg_key, self._art_of.get(svg_key, {}))

    def _cache_key(self, template: str, deck: Deck, card: Card | None, face: str) -> str:
        """Everything the face's render context is made of (see `face`), cheaper than the context:
        the card's fields as written with the text of each value that is a text key (a `ref:`
        field's collection is in the pack's shared context, part of `_static`), the deck's id,
        name and size, the side, and the template's sources."""
        deck_part = self._deck_parts.get(deck.id)
        if deck_part is None:                                    # the same for every card of the deck
            name = self._text_value(deck.name) if deck.name in self.texts else deck.name
            deck_part = self._deck_parts[deck.id] = f"{deck.id}\0{name}\0{deck.size_pt!r}"
        parts = (self._static, template, self._sources.digest(template), face, deck_part,
                 self._card_data(card))                          # strings: hashed as they are (speed)
        return hashlib.sha256("\0".join(parts).encode()).hexdigest()

    def _card_data(self, card: Card | None) -> str:
        """The card's part of its faces' keys (both faces of a card share it: made once)."""
        if card is None:
            return ""
        if self._last_card[0] is not card:
            values = [v for value in card.fields.values() for v in (value if isinstance(value, list) else [value])]
            maybe = self._maybe_keys
            texts = {v: t for v in values if isinstance(v, str) and v in maybe and (t := self._text_value(v, "")) != ""}
            self._last_card = (card, facecache.fast_digest(card.id, card.base_id, card.kind, card.deck, card.copy,
                                                           card.quantity, card.fields, texts))
        return self._last_card[1]

    def _text_value(self, key: str, missing: str = "\0missing") -> str:
        """facecache.text_value of `key` in the build's texts, worked out once a build;
        `missing` when there is no such text."""
        value = self._text_values.get(key)
        if value is None:
            value = self._text_values[key] = facecache.text_value(self.texts, key)
        return missing if value == "\0missing" else value

    def _cached(self, cache_key: str) -> RenderedFace | None:
        """The face the cache holds under `cache_key`, if the texts and art it read are unchanged."""
        assert self.cache is not None
        entry = self.cache.face(self._static, cache_key)
        if entry is None:
            return None
        if any(self._text_value(name) != value for name, value in entry.texts.items()):
            return None
        for href, digest in entry.art.items():
            try:
                if art_digest(self.art(href)) != digest:
                    return None
            except ArtError:
                return None
        drawing = self._drawings.get(entry.svg_key)
        if drawing is None:
            try:
                if self.packed:             # kept as read (its hash checked), decoded when the PDF draws it
                    text = self.cache.text_of(self._static, entry.drawing_id)
                    if text is None or facecache.text_sha(text) != entry.sha:
                        raise ValueError("not the drawing the entry names")
                    drawing = PackedFace.kept(text, *entry.size, self.art, entry.drawing_id)
                    self._sha_of[entry.svg_key] = entry.sha
                else:
                    drawing = face_from_data(self.cache.drawing(self._static, entry.drawing_id), self.art)
                issues = tuple(FitIssue.from_facts(code, facts.get) for code, facts in entry.issues)
            except (ValueError, TypeError, KeyError, AttributeError):   # not what this code wrote: redraw
                self.cache.discard(self._static, entry.drawing_id)
                return None
            self._drawings[entry.svg_key] = drawing
        else:
            issues = tuple(FitIssue.from_facts(code, facts.get) for code, facts in entry.issues)
        self._art_of.setdefault(entry.svg_key, dict(entry.art))
        self.cache.hits += 1
        return RenderedFace(entry.svg_key, "", drawing, issues, entry.missing_keys, entry.text_keys)

    def _store(self, cache_key: str, face: RenderedFace, stored: bytes | None) -> None:
        """Keep a face just drawn; `stored` is its drawing when this call packed it (else the
        drawing, shared with an earlier face of the same SVG, is in the cache already, or made now)."""
        assert self.cache is not None
        drawing_id = self._drawing_id(face.key)
        sha = self._sha_of.get(face.key)
        drawing: str | bytes | None = stored
        if sha is None:                          # not packed (the checker's faces), first of its SVG
            data = face_data(face.drawing)
            if data is None:
                return                           # a face the cache cannot hold: drawn every build
            drawing = facecache.drawing_text(data)
            sha = self._sha_of[face.key] = facecache.text_sha(drawing)
        seen = self._recording.seen  # type: ignore[attr-defined]
        entry = {"svg": face.key, "sha": sha, "issues": [[i.code, i.facts()] for i in face.issues],
                 "missing": list(face.missing_keys), "text_keys": facecache.issue_keys(face.issues, face.text_keys),
                 "texts": {name: self._text_value(name) for name in dict.fromkeys(seen)},
                 "art": self._art_of.get(face.key, {}), "size": [face.drawing.width, face.drawing.height]}
        self.cache.store(self._static, cache_key, entry, drawing_id, drawing)

    def _art_problem(self, template: str, error: ArtError) -> TemplateProblem:
        """An art file the face cannot draw, at the template line that names it when the href is
        written out there (a computed href is the card's: the problem then names the card)."""
        file = self.renderer.file_of(template)
        line = _line_naming(file, error.href) if file else 0
        where = f"{template}:{line}" if line else template
        return TemplateProblem(ART_ERROR, f"template {where}: {error}", template, line, file, str(error))


def _line_naming(file: str, href: str) -> int:
    """The first line of `file` with `href` in quotes; 0 when none has it (or it is unreadable)."""
    try:
        with open(file, encoding="utf-8") as lines:
            for number, line in enumerate(lines, 1):
                if f'"{href}"' in line or f"'{href}'" in line:
                    return number
    except (OSError, UnicodeDecodeError):
        pass
    return 0


def _control_problem(template: str, svg: str, keys: TextKeys) -> TemplateProblem:
    """A face whose SVG holds a character XML cannot hold (a C0 control such as BEL, U+0007):
    the text it came from, by its key when one text key produced it. (Text in a `textbox()` never
    gets here: the box reports it as a text.control-char issue and prints without it.)"""
    chars = control_characters(svg)
    key = keys.containing(chars[0])
    shown = ", ".join(f"U+{ord(c):04X}" for c in chars)
    what = f"text {key!r}" if key else "a text on this face (from the card's data or the template)"
    reason = (f"{what} holds the control character {shown}, which cannot be printed (XML allows none "
              "but tab and newline): remove it from the text")
    return TemplateProblem(TEXT_CONTROL, f"template {template}: {reason}", template, reason=reason, text_key=key)


def _wrap(value: Any, what: str) -> Any:
    """Collection data as Records named for messages: "deceased entry", "map.avenues entry"."""
    if isinstance(value, dict):
        return Record({k: _wrap(v, f"{what}.{k}") for k, v in value.items()}, what)
    if isinstance(value, list):
        return [_wrap(v, f"{what} entry") for v in value]
    return value
