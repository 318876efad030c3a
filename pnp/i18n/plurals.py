"""CLDR plural categories from Babel, and their mapping to gettext plural indices.

A text value may be a *plural mapping*: a YAML mapping whose keys are all CLDR categories
(`zero one two few many other`). It must hold exactly the categories its language uses (Babel's
`Locale.plural_form.tags`) plus `other`, which is always required. Loaded, it is a `PluralText`:
a `str` (its `other` form, so code that only wants "a string" keeps working) that also carries
every form; `t(key, n=...)` picks the form with `category(lang, n)`.
"""
from __future__ import annotations

from decimal import Decimal
from functools import lru_cache

from babel import Locale, UnknownLocaleError

CATEGORIES = ("zero", "one", "two", "few", "many", "other")   # CLDR order, also the YAML order

# Numbers used to tie gettext plural indices to CLDR categories and to give translators examples.
_SAMPLES = (*range(0, 1001), 1_000_000, 2_000_000, 1_000_001)
# Numbers with visible fraction digits (CLDR operands v and f): "1.0" is `other` in German, and
# Hebrew's `one` also holds 0.5. Written as Decimals, because Babel reads the float 1.0 as 1.
_FRACTIONS = tuple(Decimal(f"{whole}.{fraction}") for whole in range(0, 13)
                   for fraction in ("0", "1", "5", "00", "01", "25"))


class PluralText(str):
    """A text with plural forms. As a plain `str` it is the `other` form."""

    forms: dict[str, str]

    def __new__(cls, forms: dict[str, str]) -> "PluralText":
        default = forms.get("other")
        if default is None:
            default = next(iter(forms.values()), "")
        self = super().__new__(cls, default)
        self.forms = {cat: forms[cat] for cat in CATEGORIES if cat in forms}
        return self

    def __reduce__(self):
        return (PluralText, (self.forms,))

    def __repr__(self) -> str:
        return f"PluralText({self.forms!r})"


def is_plural_mapping(value) -> bool:
    """A non-empty mapping whose keys are all CLDR categories and whose values are all text."""
    return (isinstance(value, dict) and bool(value)
            and all(isinstance(k, str) and k in CATEGORIES for k in value)
            and all(isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in value.values()))


@lru_cache(maxsize=None)
def locale(lang: str) -> Locale:
    """Babel's locale for a declared language code (`uk`, `pt-BR`, `pt_BR`); ValueError if unknown."""
    try:
        return Locale.parse(lang.replace("-", "_"))
    except (UnknownLocaleError, ValueError) as error:
        raise ValueError(f"language {lang!r} is unknown to CLDR (Babel): {error}") from None


@lru_cache(maxsize=None)
def required_categories(lang: str) -> tuple[str, ...]:
    """The categories a plural text in `lang` must have, in CLDR order (always with `other`)."""
    tags = set(locale(lang).plural_form.tags) | {"other"}
    return tuple(cat for cat in CATEGORIES if cat in tags)


def category(lang: str, n) -> str:
    """The CLDR category of the number `n` in `lang` (`one`, `few`, ...)."""
    return locale(lang).plural_form(n)


def pick(text: str, lang: str, n) -> str:
    """The form of `text` for the number `n` (a plain string is its own only form)."""
    if isinstance(text, PluralText):
        forms = text.forms
        return forms.get(category(lang, n), forms.get("other", str(text)))
    return str(text)


@lru_cache(maxsize=None)
def examples(lang: str) -> dict[str, tuple]:
    """A few numbers of each category, for messages and translator comments."""
    found: dict[str, list] = {cat: [] for cat in required_categories(lang)}
    for n in (*_SAMPLES, 0.5, 1.5):
        cat = category(lang, n)
        if len(found.setdefault(cat, [])) < 6:
            found[cat].append(n)
    return {cat: tuple(values) for cat, values in found.items()}


def describe_examples(lang: str, cat: str) -> str:
    values = examples(lang).get(cat, ())
    return ", ".join(f"{v:g}" if isinstance(v, float) else str(v) for v in values) + ("…" if len(values) >= 6 else "")


# The Plural-Forms gettext, Poedit and Weblate give a language, where Babel's (read from CLDR) differ.
# CLDR 42 gave Italian, Spanish, Catalan and French a `many` for exact millions ("1 milione di
# zombi", "1 million de zombies"), which Babel writes as a third gettext form; every gettext tool
# keeps these languages at two forms, and a translator asked for a third does not know what to
# write. pnp writes two: msgstr[0] is CLDR `one`, msgstr[1] is `other`. CLDR `many` has no msgstr:
# import keeps the text's present `many` form, or gives it msgstr[1] (`other`, what gettext prints
# for a million), without a note (`FOLDED`). Ukrainian (3) and Arabic (6) are as Babel writes them.
GETTEXT_PLURAL_FORMS: dict[str, tuple[int, str]] = {
    "it": (2, "(n != 1)"), "es": (2, "(n != 1)"), "ca": (2, "(n != 1)"), "fr": (2, "(n > 1)"),
}
FOLDED: dict[str, dict[str, str]] = {lang: {"many": "other"} for lang in GETTEXT_PLURAL_FORMS}


def _base(lang: str) -> str:
    return lang.replace("_", "-").split("-")[0].lower()


def folded_into(lang: str, cat: str) -> str | None:
    """The category whose msgstr a CLDR category with no msgstr of its own takes (see FOLDED)."""
    return FOLDED.get(_base(lang), {}).get(cat)


def with_folded(lang: str, forms: dict[str, str]) -> dict[str, str]:
    """`forms` with each missing category of FOLDED filled from the form it folds into, as PO
    import fills it and as gettext prints a million: an Italian text written `{one, other}` by
    hand (as every gettext tool asks for it) is complete; its `many` is its `other`."""
    folds = FOLDED.get(_base(lang))
    if not folds:
        return forms
    return {**forms, **{cat: forms[into] for cat, into in folds.items() if cat not in forms and into in forms}}


@lru_cache(maxsize=None)
def gettext_plurals(lang: str) -> tuple[int, str, tuple[str, ...]]:
    """`(nplurals, plural expression, category of each msgstr index)` for a PO `Plural-Forms`
    header: Babel's, or the gettext tools' own where they differ (GETTEXT_PLURAL_FORMS). The index
    -> category mapping is measured: each index's numbers are run through the CLDR rule (so `uk`,
    whose gettext rule has 3 forms, maps to one/few/many and its fraction-only `other` has no msgstr)."""
    # for PO files only: a build does not load Babel's catalog machinery (~20 ms)
    import gettext

    from babel.messages.plurals import get_plural

    tup = get_plural(locale(lang))
    num_plurals, plural_expr = GETTEXT_PLURAL_FORMS.get(_base(lang), (tup.num_plurals, tup.plural_expr))
    rule = gettext.c2py(plural_expr)
    seen: dict[int, dict[str, int]] = {}
    for n in _SAMPLES:
        index = rule(n)
        counts = seen.setdefault(index, {})
        cat = category(lang, n)
        counts[cat] = counts.get(cat, 0) + 1
    cats = []
    for index in range(num_plurals):
        used = seen.get(index)
        if not used:
            raise ValueError(f"{lang}: gettext plural index {index} is used by no number")
        cats.append(max(used, key=lambda cat: used[cat]))
    return num_plurals, plural_expr, tuple(cats)


@lru_cache(maxsize=None)
def single_number_categories(lang: str) -> frozenset[str]:
    """The categories of `lang` that stand for one number only (German and English `one`: 1;
    Arabic `zero`, `one`, `two`; Welsh `few`: 3), whose form may say the number in words and leave
    `{n}` out. Ukrainian `one` (1, 21, 31...) or French `one` (0, 1, 1.5) are not among them.
    Measured, like the gettext mapping: the samples each category holds, counted by value."""
    values: dict[str, set[Decimal]] = {}
    for n in (*_SAMPLES, *_FRACTIONS):
        values.setdefault(category(lang, n), set()).add(Decimal(n))
    return frozenset(cat for cat, held in values.items() if len(held) == 1)


def check_forms(lang: str, forms: dict) -> list[str]:
    """Messages for a plural mapping that lacks a category `lang` needs, or has one it never uses."""
    try:
        needed = required_categories(lang)
    except ValueError as error:
        return [str(error)]
    messages = []
    missing = [cat for cat in needed if cat not in forms]
    if missing:
        detail = "; ".join(f"{cat} ({describe_examples(lang, cat)})" for cat in missing)
        messages.append(f"plural text lacks {lang!r} form{'s' * (len(missing) > 1)} {detail} "
                        f"({lang} needs {', '.join(needed)})")
    extra = [cat for cat in forms if cat not in needed]
    if extra:
        messages.append(f"plural text has form{'s' * (len(extra) > 1)} {', '.join(extra)} that {lang!r} "
                        f"never uses ({lang} needs {', '.join(needed)})")
    return messages
