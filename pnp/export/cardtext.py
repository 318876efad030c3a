"""A card's name and rules text in one language, as plain strings: what an export that shows text
(Tabletop Simulator's card name and description) says of a card.

Templates decide what a face prints, so the pack says where a card's name and rules come from:
pack.yaml's `kinds.<kind>.title` and `.rules`. Each is a field path whose first part is one of the
kind's fields, followed through a `ref:` field into the collection entry (`symbol.item`: the
`item` of the card's symbol), or else a text key (`rule.item`). Either way it ends at a text key,
looked up in the language as a template's `t()` does. Markup is read by pnp.text.markup (the
parser the faces use) and dropped: bold and italic become plain, an icon its name in brackets
(`[skull]`), and digits print as on the card (pnp.text.digits). Text stays in logical order;
right-to-left text is left to the reader's bidi.
"""
from __future__ import annotations

from typing import Any

from pnp.errors import Problem, display_path
from pnp.i18n.lookup import TextLookupError
from pnp.i18n.texts import Texts
from pnp.pack import Card, Pack
from pnp.text import digits, markup, packfonts

CODE = "export.card-text"


class CardTexts:
    """The titles and rules of one pack's cards in one language; what cannot be resolved is kept
    in `problems`, one per kind and key (every card of a kind shares the mistake)."""

    def __init__(self, pack: Pack, lang: str):
        self.pack, self.lang = pack, lang
        self.texts = Texts.of(pack, lang)
        self.has_icon = packfonts.assets_of(pack).has_icon
        self.numbers = digits.for_language(pack.digits, lang)
        self.problems: list[Problem] = []
        self._reported: set[tuple[str, str]] = set()

    def title(self, card: Card) -> str | None:
        return self._text(card, "title")

    def rules(self, card: Card) -> str | None:
        return self._text(card, "rules")

    def _text(self, card: Card, role: str) -> str | None:
        kind = self.pack.kinds[card.kind]
        source = getattr(kind, role)
        if source is None:
            return None
        try:
            key = self._key(card, source)
            if key is None:                    # an optional field the card leaves out: no text
                return None
            text = self.texts.t(key)
        except TextLookupError as error:       # a path that ends elsewhere, a key the language lacks, plurals
            field = source.split(".")[0] in kind.fields
            self._problem(card, role, f"{source!r}: {error}" + ("" if field else f" (nor is it a field of {card.kind} "
                                                                              f"cards: {', '.join(kind.fields) or 'none'})"))
            return None
        rich, _ = markup.parse(text, self.has_icon)     # markup problems are the build's to report
        rich = digits.printed_rich(rich, self.numbers)
        icons = iter(rich.icons)
        return "".join(f"[{next(icons)}]" if char == markup.ICON_CHAR else char for char in rich.text)

    def _key(self, card: Card, source: str) -> str | None:
        """The text key `source` names for `card`: `source` itself, or, when its first part is a
        field of the card's kind, the value its path reaches through the declared fields (a ref
        steps into the collection entry, whose fields pack.yaml declares too)."""
        kind = self.pack.kinds[card.kind]
        first, *rest = source.split(".")
        if first not in kind.fields:
            return source
        declared: Any = kind.fields
        value: Any = card.fields
        where = f"{card.kind} cards"
        for part in [first, *rest]:
            if not isinstance(declared, dict) or part not in declared:
                known = ", ".join(declared) if isinstance(declared, dict) else "none"
                raise TextLookupError(f"{where} have no field {part!r} (theirs: {known})")
            declared, value = declared[part], value.get(part) if isinstance(value, dict) else None
            spec = declared.rstrip("?") if isinstance(declared, str) else ""
            if spec.startswith("ref:"):        # into the entry: its declared fields, its values
                collection = self.pack.sources["pack"].value.get("collections", {}).get(spec[4:], {})
                declared, where = collection.get("items"), f"{spec[4:]} entries"
                value = next((e for e in self.pack.collections.get(spec[4:]) or []
                              if isinstance(e, dict) and e.get("id") == value), None)
        if declared not in ("text", "text?"):
            raise TextLookupError(f"it ends at a field of type {declared if isinstance(declared, str) else 'mapping'}, "
                                  "not text")
        return value

    def _problem(self, card: Card, role: str, message: str) -> None:
        if (card.kind, role) not in self._reported:
            self._reported.add((card.kind, role))
            main = self.pack.sources["pack"]
            self.problems.append(Problem(display_path(main.file), main.line(("kinds", card.kind, role)),
                                         f"kinds.{card.kind}.{role}", message, code=CODE, lang=self.lang))
