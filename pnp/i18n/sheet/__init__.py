"""Sheet and UI text shared by every game: the string pack in this folder, one `<lang>.yaml` each.

What it holds (stable keys, English source in en.yaml):

    sheet.*       card sheets: the "Print at 100%..." line, duplex/gutterfold help, test bar, page label
    components.*  component pages: instruction line, page label, cut/fold/glue legend, board tiles,
                  assembly map, the default names of the board/parts/mat documents and player aids
    calibrate.*   the duplex calibration sheet (`pnp calibrate --lang`)

The files are nested mappings of strings, like a game's text/<lang>.yaml; a mapping whose keys are
CLDR plural categories is a plural text (`PluralText`) and must have exactly the categories its
language needs. Look texts up with `t(lang, key, n=..., **values)` (the same rules as a template's
`t()`: pnp.i18n.lookup). A language this pack lacks falls back to English (`texts(lang)`; see
below for a game's own words of it);
`check()` lists every missing key, stray key, plural or placeholder problem (a test keeps it empty).

These are the shared sheet words: every game prints them from here, so a game cannot rename the
legend, the player aid or cut/fold/glue by accident. A game names its own documents (`GAME_NAMED`:
what its board, parts and mat are called) in its text/<lang>.yaml; any other `components.*` key
there is an `i18n.shared-word` finding of `pnp i18n lint` unless the game's text/glossary.yaml
declares it `own_wording` (pnp.components.core.Context.t still looks at the game's text first);
`sheet.*` and `calibrate.*` come only from here.

A language this pack lacks: a game (or its translator) supplies the words in the pack's
`text/sheet/<lang>.yaml` (SUPPLIED), the keys of en.yaml translated, checked as these files are
(pnp.pack: a key en.yaml lacks is `text.unknown-key` with a did-you-mean, `text.plural`,
`text.placeholder`; a file of an undeclared language is an error). They print before the English
fallback (`source`, `t_in`, `card_instructions(lang, supplied)`, pnp.i18n.texts.Texts); a build in
a language whose words still fall back to English, wholly or in part, says so once
(`i18n.sheet-words`, pnp.build.sheet_word_problems: how many, and the file to write), an error
under --strict; `pnp check` warns. A language this pack has keeps its own words: a game's
text/sheet/<lang>.yaml for it is not used (an `i18n.sheet-words` warning), since the point of these
words is that every game prints them alike and a fix here reaches every game; a better wording
belongs here, in pnp. Such a file is translated by hand (copy en.yaml): `pnp i18n export` does not
carry it.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pnp.i18n.direction import direction, is_rtl  # noqa: F401 - the sheet writers ask here
from pnp.i18n.lookup import translate
from pnp.i18n.placeholders import placeholders
from pnp.i18n.plurals import PluralText, check_forms, is_plural_mapping
from pnp.yamlsource import load_shipped

FOLDER = Path(__file__).resolve().parent
SOURCE = "en"
# the shared keys a game words its own way (its documents' names), without declaring anything
GAME_NAMED = frozenset({"components.board", "components.parts", "components.mat"})


@lru_cache(maxsize=None)
def languages() -> tuple[str, ...]:
    """The languages of the string pack (English first)."""
    found = sorted(p.stem for p in FOLDER.glob("*.yaml"))
    return tuple([SOURCE] + [lang for lang in found if lang != SOURCE])


def _flatten(value, path: tuple, out: dict, lang: str, problems: list[str]) -> None:
    key = ".".join(path)
    if path and is_plural_mapping(value):
        # its forms are checked by check() (babel's plural rules cost a build ~30 ms to load)
        out[key] = PluralText({str(cat): str(text) for cat, text in value.items()})
    elif isinstance(value, dict):
        for child_key, child in value.items():
            _flatten(child, path + (str(child_key),), out, lang, problems)
    elif isinstance(value, str) and path:
        out[key] = value
    else:
        problems.append(f"{lang}.yaml: {key or '(top)'}: expected text or a mapping, got {type(value).__name__}")


@lru_cache(maxsize=None)
def _load(lang: str) -> tuple[dict, tuple[str, ...]]:
    path = FOLDER / f"{lang}.yaml"
    problems: list[str] = []
    out: dict = {}
    _flatten(load_shipped(path) or {}, (), out, lang, problems)
    return out, tuple(problems)


def has_language(lang: str) -> bool:
    return lang in languages()


def table(lang: str) -> dict:
    """The loaded texts of one language of the pack (do not modify); see `texts` for a copy."""
    return _load(lang)[0]


def texts(lang: str) -> dict:
    """Key -> text (str or PluralText) in `lang`, or in English when the pack lacks `lang`."""
    return dict(_load(lang if has_language(lang) else SOURCE)[0])


def t(lang: str, key: str, n=None, **values) -> str:
    """One text in `lang` (English if the pack lacks the language), plural form picked for `n`,
    placeholders filled. Raises pnp.i18n.lookup.TextLookupError for an unknown key."""
    lang = lang if has_language(lang) else SOURCE
    return translate(_load(lang)[0], lang, key, n, **values)


def _placeholders(text) -> set[str]:
    if isinstance(text, PluralText):
        return set().union(*(placeholders(form) for form in text.forms.values()))
    return placeholders(text)


def _plural_problems(lang: str, table: dict) -> list[str]:
    return [f"{lang}.yaml: {key}: {message}" for key, text in table.items() if isinstance(text, PluralText)
            for message in check_forms(lang, text.forms)]


def check() -> list[str]:
    """Every problem of the pack: a key missing from a language or unknown to English, a text that
    is plural in one language and not in English, placeholders that differ, bad plural forms."""
    source, problems = _load(SOURCE)
    found = list(problems) + _plural_problems(SOURCE, source)
    for lang in languages()[1:]:
        table, more = _load(lang)
        found.extend(more)
        found.extend(_plural_problems(lang, table))
        found.extend(f"{lang}.yaml: {key}: missing (en: {str(text)!r})" for key, text in source.items()
                     if key not in table)
        found.extend(f"{lang}.yaml: {key}: {message}" for key, _code, message in differences(table))
        found.extend(f"{lang}.yaml: {key}: not in en.yaml" for key in table if key not in source)
    return found


def differences(words: dict) -> list[tuple[str, str, str]]:
    """(key, code, message) of each text of `words` (one language's, pnp's or a game's
    text/sheet/<lang>.yaml) that English words otherwise: plural in one language only
    (`text.plural`), other placeholders (`text.placeholder`). Keys English lacks are the caller's."""
    source = table(SOURCE)
    found = []
    for key, other in words.items():
        text = source.get(key)
        if text is None:
            continue
        if isinstance(text, PluralText) != isinstance(other, PluralText):
            found.append((key, "text.plural", "plural forms in one language only"))
        want, got = _placeholders(text), _placeholders(other)
        # a plural form may leave {n} out ("قطعتان": two tiles), but no other placeholder
        if got - want or (want - got) - ({"n"} if isinstance(text, PluralText) else set()):
            found.append((key, "text.placeholder", f"placeholders {sorted(got)} differ from en {sorted(want)}"))
    return found


# ---- the words of a language pnp lacks, supplied by a game (text/sheet/<lang>.yaml)

SUPPLIED = "text/sheet"     # in a pack: <lang>.yaml, the keys of en.yaml


def source(lang: str, key: str, supplied: dict | None = None) -> tuple[dict, str] | None:
    """(table, language) the shared text of `key` in `lang` comes from: pnp's own words of `lang`;
    for a language pnp lacks, the game's `supplied` ones (its text/sheet/<lang>.yaml), then English.
    None for a key English lacks."""
    if has_language(lang):
        own = table(lang)
        return (own, lang) if key in own else None
    if supplied and key in supplied:
        return supplied, lang
    english = table(SOURCE)
    return (english, SOURCE) if key in english else None


def t_in(lang: str, key: str, supplied: dict | None, n=None, **values) -> str:
    """t(), with a game's `supplied` words for a language pnp lacks."""
    found = source(lang, key, supplied)
    if found is None:
        return t(lang, key, n, **values)        # raises the lookup's own error
    return translate(found[0], found[1], key, n, **values)


def unsupplied(lang: str, supplied: dict | None = None) -> list[str]:
    """The shared keys that print in English in `lang`: none for a language pnp has; else those the
    game's `supplied` words lack."""
    if has_language(lang):
        return []
    return [key for key in table(SOURCE) if key not in (supplied or {})]


# ---- what the writers take

def card_instructions(lang: str, supplied: dict | None = None) -> dict[str, str]:
    """The `instructions` of pnp.sheets.pdfwriter.write_cards_pdf in `lang` (`supplied`: a game's
    words for a language pnp lacks)."""
    keys = ("print", "duplex_long", "duplex_short", "gutterfold", "instructions", "test_bar", "label",
            "front", "back", "gutterfold_side")
    return {key: t_in(lang, f"sheet.{key}", supplied) for key in keys}


def parts_instructions(lang: str, overrides: dict | None = None) -> dict[str, str]:
    """The `instructions` of pnp.sheets.parts.write_parts_pdf in `lang` (`overrides`: key ->
    text from a game pack, for `components.print` and `components.test_bar`)."""
    overrides = overrides or {}

    def one(key: str) -> str:
        return str(overrides.get(key) or t(lang, key))
    return {"print": one("components.print"), "test_bar": one("components.test_bar"),
            "label": t(lang, "components.page_label")}


def calibration_texts(lang: str, targets: int = 5) -> dict:
    """The `texts` of pnp.sheets.calibrate.write_calibration_pdf in `lang`."""
    return {
        "title": t(lang, "calibrate.title"),
        "front": [t(lang, "calibrate.front_1"), t(lang, "calibrate.front_2")],
        "back": [t(lang, "calibrate.back_1"), t(lang, "calibrate.back_2"), t(lang, "calibrate.back_3"),
                 t(lang, "calibrate.back_4", n=targets)],
        "long": t(lang, "calibrate.flip_long"),
        "short": t(lang, "calibrate.flip_short"),
        "test_bar": t(lang, "calibrate.test_bar"),
    }
