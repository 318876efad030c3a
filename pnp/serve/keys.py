"""What a face's cache key is made of: everything its drawing can depend on, hashed.

    key = sha256(pnp version, fonts, language, side, template sources (with every template it
                 extends, includes or imports), the deck, the card's render context, the pack's
                 shared context)

plus, checked after the key matches, the texts the template looked up with `t()` last time (see
cache.py): a card's own texts are in its render context, but `t("ui.move")` is only known once the
template has run.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pnp.render.templatesources import TemplateSources  # noqa: F401  (moved there: the build's face cache uses it)
from pnp.text import fonts


def plain(value: Any) -> Any:
    """Template records (read-only mappings) and tuples as plain JSON-able data."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def digest(*parts: Any) -> str:
    text = json.dumps(plain(parts), sort_keys=True, ensure_ascii=False, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()


def text_value(texts: Any, key: str) -> str:
    """A text as the cache compares it: its forms too (a PluralText is the `other` form as a str)."""
    if key not in texts:
        return "<missing>"
    raw = texts.raw(key)
    return repr((str(raw), plain(getattr(raw, "forms", None))))


def card_data(card: Any, texts: Any) -> dict[str, Any]:
    """A card as its key sees it: its fields as written and the text of every field value that is
    a text key (what `text` fields print). The collections a `ref:` field reads are in the pack's
    shared context, which is part of the key too; this is cheaper than the full render context."""
    keys = [v for value in card.fields.values() for v in (value if isinstance(value, list) else [value])
            if isinstance(v, str) and v in texts]
    return {"id": card.id, "kind": card.kind, "deck": card.deck, "copy": card.copy, "quantity": card.quantity,
            "fields": card.fields, "texts": {key: text_value(texts, key) for key in keys}}


def fonts_fingerprint() -> str:
    """The fonts a face is drawn with: the styles and their source files' size and date."""
    sources = sorted({str(style.source) for table in (fonts.STYLES, fonts.ARABIC_STYLES) for style in table.values()})
    stats = [(path, Path(path).stat().st_size, Path(path).stat().st_mtime_ns) for path in sources]
    return digest(fonts.cut_version(), repr(fonts.STYLES), repr(fonts.ARABIC_STYLES), stats)
