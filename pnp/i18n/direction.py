"""Which way a language's text runs, from CLDR (Babel) rather than a hand-kept list."""
from __future__ import annotations

import pickle
from functools import lru_cache


@lru_cache(maxsize=None)
def is_rtl(lang: str) -> bool:
    """Right-to-left script (Arabic, Hebrew...): CLDR's character order of the locale."""
    from babel import Locale, UnknownLocaleError

    try:
        locale = Locale.parse(str(lang).replace("-", "_"))
    except (UnknownLocaleError, ValueError, TypeError):
        return False
    name = str(locale)
    if "_" not in name:
        return _own_character_order(name) == "right-to-left"
    return locale.character_order == "right-to-left"


def _own_character_order(language: str) -> str:
    """The character order a language's own CLDR file gives, else root's ("left-to-right"). For a
    bare language code this is what `Locale.character_order` answers (tests/test_direction.py
    compares every one Babel has), without Babel loading and merging the root locale and its
    global data first (half of what the lookup cost, ~5 % of a small build's instructions)."""
    from babel import localedata

    with open(localedata.resolve_locale_filename(language), "rb") as data:
        own = pickle.load(data)       # Babel's own data file, shipped in its package
    return own.get("character_order", "left-to-right")


def direction(lang: str) -> str:
    """"rtl" or "ltr": the base direction of translated text in `lang`."""
    return "rtl" if is_rtl(lang) else "ltr"
