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
        own = _StringsOnly(data).load()       # Babel's own data file, shipped in its package
    order = own.get("character_order", "left-to-right")
    return order if isinstance(order, str) else "left-to-right"


class _Skipped:
    """Whatever object the locale file holds besides plain data (date patterns, plural rules...)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        pass

    def __setstate__(self, state: object) -> None:
        pass


class _StringsOnly(pickle.Unpickler):
    """Reads the file's dicts, lists and strings and builds none of its objects: the one string
    wanted needs no class, and building Babel's date patterns imported `babel.dates` (1 % of a
    95-card build's instructions). It imports nothing the file names, either."""

    def find_class(self, module: str, name: str) -> type:
        return _Skipped


def direction(lang: str) -> str:
    """"rtl" or "ltr": the base direction of translated text in `lang`."""
    return "rtl" if is_rtl(lang) else "ltr"
