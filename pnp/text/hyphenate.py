"""Hyphenation: where a word may break at a line end, per language (pyphen's LibreOffice patterns).

The layout (pnp.text.layout) tries a hyphenated wrap before it shrinks text: at each size, the
plain wrap first (so text that fitted before prints exactly as before), then the same greedy wrap
where a word that does not fit on the end of a line is broken at its last pattern point that
fits, with the language's hyphen. Deterministic: the patterns ship inside the pyphen wheel.

Languages with patterns here: German, English, Italian, Ukrainian. Every other language (Arabic:
its letters join and are never broken with a hyphen) never hyphenates. The language is the build
language, set around the drawing of a face or page with `using(lang)`; text drawn outside any
`using` never hyphenates.

Conventions (`RULES`): the hyphen printed is U+002D, which every pnp font has and which is what
German, English, Italian and Ukrainian type use at a line break; a word that already holds a
hyphen ("Spiel-Hilfe", "п'ять-шість") breaks after it without a second one (German "Ergänzungs-
strich" rule, the same in the other three); German never splits "ck" and breaks before it (the patterns
break after it, "Glock-en", their rendering of the pre-1996 "Glok-ken": the break moves, "Glo-cken"); the shortest piece left on a line and carried over
are TeX's lefthyphenmin/righthyphenmin for the language (English 2/3, the others 2/2).
"""
from __future__ import annotations

import contextlib
import contextvars
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

HYPHEN = "-"


@dataclass(frozen=True)
class Rule:
    patterns: str          # pyphen's dictionary name
    left: int              # the fewest letters left before a break
    right: int             # the fewest letters carried after it
    hyphen: str = HYPHEN
    keep_ck: bool = False  # German since 1996: "ck" is never split, the break goes before it (Glo-cken)


RULES: dict[str, Rule] = {
    "de": Rule("de_DE", 2, 2, keep_ck=True),
    "en": Rule("en_US", 2, 3),
    "it": Rule("it_IT", 2, 2),
    "uk": Rule("uk_UA", 2, 2),
}

_LANG: contextvars.ContextVar[str] = contextvars.ContextVar("pnp_hyphenation_language", default="")
# the letters of a word: pattern points are looked up on them, punctuation around them is kept
_CORE = re.compile(r"^(\W*)(.*?)(\W*)$", re.S)


def rule_for(lang: str) -> Rule | None:
    """The hyphenation rule of a language code ('de', 'de-AT', 'uk_UA'); None: never hyphenate."""
    return RULES.get(lang.replace("_", "-").split("-")[0].lower()) if lang else None


@contextlib.contextmanager
def using(lang: str) -> Iterator[None]:
    """Hyphenate the text laid out inside the block in `lang` (a language without patterns: never)."""
    token = _LANG.set(lang if rule_for(lang) else "")
    try:
        yield
    finally:
        _LANG.reset(token)


def current() -> str:
    """The language text is hyphenated in now ("" for none)."""
    return _LANG.get()


@lru_cache(maxsize=None)
def _dictionary(lang: str):
    # imported on first use: a build that never hyphenates never loads the patterns
    import pyphen

    rule = rule_for(lang)
    assert rule is not None
    return pyphen.Pyphen(lang=rule.patterns, left=rule.left, right=rule.right)


@lru_cache(maxsize=65536)
def breaks(word: str, lang: str) -> tuple[tuple[str, str], ...]:
    """Every way to break `word` at a line end, longest first piece first: (what stays on the
    line, hyphen included, what goes to the next line). Empty for a language without patterns."""
    rule = rule_for(lang)
    if rule is None:
        return ()
    found: dict[int, str] = {}
    for index, char in enumerate(word[:-1]):
        if char in "-\u2010" and index > 0 and word[index + 1:].strip("-\u2010"):
            found[index + 1] = ""                         # after a hyphen the word has: no second one
    lead, core, _trail = _CORE.match(word).groups()       # type: ignore[union-attr]
    if core and "-" not in core and "\u2010" not in core:
        for position in _dictionary(lang).positions(core):
            if rule.keep_ck and core[position - 2:position].lower() == "ck":
                position -= 2          # the patterns break after "ck" (old "k-k"): today's German before it
            if rule.left <= position <= len(core) - rule.right:
                found.setdefault(len(lead) + position, rule.hyphen)
    return tuple((word[:at] + found[at], word[at:]) for at in sorted(found, reverse=True))
