"""Named placeholders in texts: `{n}`, `{name}`.

A placeholder is `{identifier}` not doubled: `{{ 7*7 }}` or `{{n}}` stay literal text. Texts are
only formatted when `t()` is given values, so a text with braces and no placeholders prints as is.

`compare` is the rule a translation follows (PO import refuses what it finds): the source's
placeholders and no others, `{n}` in every plural form but those of a single number, and no stray
brace the source does not have (`{n rote Punkte`, `{n}}`, `{ n }` are typos, not placeholders).
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from numbers import Real

PLACEHOLDER = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)\}(?!\})")
_LITERAL_BRACES = re.compile(r"\{\{|\}\}")
NUMBER = "n"                 # the placeholder `t(key, n=...)` fills in a plural text


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(str(text)))


def stray_braces(text: str) -> Counter[str]:
    """How many `{` and `}` of `text` are neither part of a placeholder nor doubled literal braces."""
    rest = _LITERAL_BRACES.sub("", PLACEHOLDER.sub("", str(text)))
    return Counter(char for char in rest if char in "{}")


@dataclass(frozen=True)
class Mismatch:
    """What is wrong with a translation's placeholders (empty: nothing). Form indices count the
    translation's forms (its gettext msgstr indices in a PO)."""

    dropped: tuple[str, ...] = ()                 # source placeholders missing ({n} of a plural: number_dropped)
    invented: tuple[str, ...] = ()                # placeholders the source does not have
    number_dropped: tuple[int, ...] = ()          # plural forms without {n} that stand for several numbers
    stray: tuple[tuple[int, str], ...] = ()       # (form, brace): braces the source does not have

    def __bool__(self) -> bool:
        return bool(self.dropped or self.invented or self.number_dropped or self.stray)


def compare(source: Sequence[str], translation: Sequence[str], single_number: Sequence[bool] | None = None) -> Mismatch:
    """Check a translation's forms against the source's forms (one form each for a plain text).
    `single_number` says, for each form of a plural translation, whether its category stands for a
    single number (see `pnp.i18n.plurals.single_number_categories`): only such a form may leave
    `{n}` out ("ein Zombie"); None for a plain text, where every placeholder is needed."""
    wanted: set[str] = set().union(*(placeholders(form) for form in source))
    found = [placeholders(form) for form in translation]
    used: set[str] = set().union(*found)
    required = wanted - {NUMBER} if single_number is not None else wanted
    in_every_form = set[str].intersection(*found) if found else set()
    dropped = sorted(required - in_every_form)
    number_dropped: tuple[int, ...] = ()
    if single_number is not None and NUMBER in wanted:
        number_dropped = tuple(i for i, names in enumerate(found) if NUMBER not in names and not single_number[i])
    allowed = Counter[str]()
    for form in source:
        allowed |= stray_braces(form)                  # a brace the source has is the author's literal text
    stray = tuple((i, brace) for i, form in enumerate(translation)
                  for brace, count in sorted((stray_braces(form) - allowed).items()) for _ in range(count))
    return Mismatch(tuple(dropped), tuple(sorted(used - wanted)), number_dropped, stray)


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
