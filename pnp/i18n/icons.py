"""Inline icons of a translation against its source's: `:skull:` (pnp.text.markup).

A translation should print the icons its source prints, the same number of each (the same
multiset of names); their order may change with the sentence. `compare` says which the translation
lacks and which it adds. Found by `pnp check` (`text.icons`, at the translation's file and line:
pnp.i18n.translated) and by PO/XLIFF import (`po.icons`, at the msgstr's line: a warning, the
translation is imported; a placeholder mismatch, which breaks the text, is refused instead).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from pnp.i18n.plurals import PluralText
from pnp.text.markup import parse

TEXT_ICONS = "text.icons"
PO_ICONS = "po.icons"


def _forms(text) -> list[str]:
    if isinstance(text, PluralText):
        return [str(form) for form in text.forms.values()]
    return [str(form) for form in text] if isinstance(text, (tuple, list)) else [str(text)]


def icons(text) -> Counter[str]:
    """The icon names `text` prints, counted; of a plural text (or a tuple of forms), its form with the most of each."""
    found = Counter[str]()
    for form in _forms(text):
        found |= Counter(parse(form, lambda _name: True)[0].icons)
    return found


def shown(counted: Counter[str]) -> str:
    """`:skull: x2, :heart:` (sorted by name), or `none`."""
    return ", ".join(f":{name}:" + (f" x{n}" if n > 1 else "") for name, n in sorted(counted.items())) or "none"


@dataclass(frozen=True)
class IconMismatch:
    source: Counter[str]
    translation: Counter[str]

    @property
    def missing(self) -> Counter[str]:
        return self.source - self.translation

    @property
    def extra(self) -> Counter[str]:
        return self.translation - self.source

    def __bool__(self) -> bool:
        return self.source != self.translation

    def message(self) -> str:
        parts = [f"lacks {shown(self.missing)}" if self.missing else "",
                 f"adds {shown(self.extra)}" if self.extra else ""]
        return (f"the translation {' and '.join(p for p in parts if p)} (the source's icons: {shown(self.source)}; "
                f"the translation's: {shown(self.translation)}); an icon is written :name:, and may move in the sentence")


def compare(source, translation) -> IconMismatch:
    """The icons of `source` and `translation` (str, PluralText or forms); falsy when they match."""
    return IconMismatch(icons(source), icons(translation))
