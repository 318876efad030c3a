"""Which way a language's text runs, from CLDR (Babel) rather than a hand-kept list."""
from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=None)
def is_rtl(lang: str) -> bool:
    """Right-to-left script (Arabic, Hebrew...)."""
    from babel import Locale, UnknownLocaleError

    try:
        return Locale.parse(str(lang).replace("-", "_")).character_order == "right-to-left"
    except (UnknownLocaleError, ValueError, TypeError):
        return False


def direction(lang: str) -> str:
    """"rtl" or "ltr": the base direction of translated text in `lang`."""
    return "rtl" if is_rtl(lang) else "ltr"
