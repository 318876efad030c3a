"""The texts a build prints in one language, and the one rule for where each comes from.

    texts = Texts.of(pack, "it")
    texts.t("ui.move")              # the pack's own text, else the string pack every game shares

The pack's own text (text/<lang>.yaml) wins, except a text the loader only borrowed from the
fallback language (a missing translation, not --strict), which loses to a real translation in the
shared sheet strings (pnp/i18n/sheet, or the pack's text/sheet/<lang>.yaml for a language pnp
lacks). A key neither has raises `MissingText`. Card templates,
component drawers and card fields all look texts up here.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pnp.i18n import sheet
from pnp.i18n.lookup import TextLookupError, translate


class MissingText(TextLookupError):
    """No text for the key in the language (the pack's nor the shared strings)."""

    def __init__(self, key: str, lang: str):
        super().__init__(f"text key {key!r} has no {lang!r} text")
        self.key = key
        self.lang = lang


@dataclass(frozen=True)
class Texts:
    own: dict[str, Any]          # the pack's texts in `lang`, fallbacks included (pack.texts[lang])
    written: frozenset[str]      # the keys text/<lang>.yaml itself holds (not borrowed)
    lang: str
    # the pack's text/sheet/<lang>.yaml: the shared words of a language pnp lacks (pnp.i18n.sheet)
    supplied: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, pack: Any, lang: str) -> "Texts":
        return cls(pack.texts.get(lang, {}), frozenset((pack.text_locations or {}).get(lang, {})), lang,
                   (getattr(pack, "sheet_words", None) or {}).get(lang, {}))

    def source(self, key: str) -> tuple[dict[str, Any], str] | None:
        """(table, language) the text of `key` comes from, or None."""
        found = sheet.source(self.lang, key, self.supplied)
        borrowed = key not in self.written and found is not None and found[1] == self.lang
        if key in self.own and not borrowed:
            return self.own, self.lang
        return found

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self.source(key) is not None

    def raw(self, key: str) -> Any:
        """The text as written (a PluralText keeps its forms), without filling it."""
        found = self.source(key)
        if found is None:
            raise MissingText(key, self.lang)
        return found[0][key]

    def t(self, key: str, n=None, **values) -> str:
        """The text of `key`, its plural form picked for `n`, placeholders filled."""
        found = self.source(key)
        if found is None:
            raise MissingText(key, self.lang)
        table, lang = found
        return translate(table, lang, key, n, **values)
