"""Named placeholders in texts: `{n}`, `{name}`.

A placeholder is `{identifier}` not doubled: `{{ 7*7 }}` or `{{n}}` stay literal text. Texts are
only formatted when `t()` is given values, so a text with braces and no placeholders prints as is.
"""
from __future__ import annotations

import re
from numbers import Real

PLACEHOLDER = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)\}(?!\})")


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(str(text)))


def format_value(value, lang: str) -> str:
    if isinstance(value, bool) or not isinstance(value, Real):
        return str(value)
    if isinstance(value, int):
        return str(value)
    from babel.numbers import format_decimal

    from pnp.i18n.plurals import locale
    return format_decimal(float(value), locale=locale(lang), group_separator=False)


def fill(text: str, values: dict, lang: str) -> str:
    """Replace every placeholder with its value; KeyError naming the first one without a value."""
    def one(match: re.Match) -> str:
        name = match.group(1)
        if name not in values:
            raise KeyError(name)
        return format_value(values[name], lang)
    return PLACEHOLDER.sub(one, str(text))
