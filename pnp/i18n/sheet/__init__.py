"""Sheet and UI text shared by every game: the string pack in this folder, one `<lang>.yaml` each.

What it holds (stable keys, English source in en.yaml):

    sheet.*       card sheets: the "Print at 100%..." line, duplex/gutterfold help, test bar, page label
    components.*  component pages: instruction line, page label, cut/fold/glue legend, board tiles,
                  assembly map, the default names of the board/parts/mat documents and player aids
    calibrate.*   the duplex calibration sheet (`pnp calibrate --lang`)

The files are nested mappings of strings, like a game's text/<lang>.yaml; a mapping whose keys are
CLDR plural categories is a plural text (`PluralText`) and must have exactly the categories its
language needs. Look texts up with `t(lang, key, n=..., **values)` (the same rules as a template's
`t()`: pnp.i18n.lookup). A language this pack lacks falls back to English (`texts(lang)`);
`check()` lists every missing key, stray key, plural or placeholder problem (a test keeps it empty).

These are the shared sheet words: every game prints them from here, so a game cannot rename the
legend, the player aid or cut/fold/glue by accident. A game names its own documents (`GAME_NAMED`:
what its board, parts and mat are called) in its text/<lang>.yaml; any other `components.*` key
there is an `i18n.shared-word` finding of `pnp i18n lint` unless the game's text/glossary.yaml
declares it `own_wording` (pnp.components.core.Context.t still looks at the game's text first);
`sheet.*` and `calibrate.*` come only from here.
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
        for key, text in source.items():
            if key not in table:
                found.append(f"{lang}.yaml: {key}: missing (en: {str(text)!r})")
                continue
            other = table[key]
            if isinstance(text, PluralText) != isinstance(other, PluralText):
                found.append(f"{lang}.yaml: {key}: plural forms in one language only")
            want, got = _placeholders(text), _placeholders(other)
            # a plural form may leave {n} out ("قطعتان": two tiles), but no other placeholder
            if got - want or (want - got) - ({"n"} if isinstance(text, PluralText) else set()):
                found.append(f"{lang}.yaml: {key}: placeholders {sorted(got)} differ from en {sorted(want)}")
        found.extend(f"{lang}.yaml: {key}: not in en.yaml" for key in table if key not in source)
    return found


# ---- what the writers take

def card_instructions(lang: str) -> dict[str, str]:
    """The `instructions` of pnp.sheets.pdfwriter.write_cards_pdf in `lang`."""
    keys = ("print", "duplex_long", "duplex_short", "gutterfold", "instructions", "test_bar", "label",
            "front", "back", "gutterfold_side")
    return {key: t(lang, f"sheet.{key}") for key in keys}


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
