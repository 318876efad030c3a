"""`pnp i18n lint`: one term per thing, one form of address and one way of writing numbers per language.

Findings (pnp.composition.findings.Finding, the same as `pnp check`'s), each at the file, line and
key of the text to fix:

    i18n.glossary     the English text holds a glossary term, the translation lacks the chosen term
    i18n.forbidden    a text holds a variant the glossary forbids (`not:`)
    i18n.two-ways     one English text translated two ways within one language (game + shared words;
                      with several games, also between games); the wording most keys use is the
                      reference, the others are the findings
    i18n.address      a text addresses the reader in another form than the language's (conventions.yaml)
    i18n.times-sign   "x" between two numbers (3x3): write "×"
    i18n.percent      a space before "%" where the language writes none, or none where it wants one
    i18n.shared-word  a game's text file holds a shared sheet word (legend, player aid title...) that
                      only pnp/i18n/sheet may word, and its glossary does not declare it `own_wording`
    glossary.*        the glossary file itself is wrong (schema problems: exit 2)

Matching a term (what "holds the chosen term" means): texts and terms are split into words; each
word of the term must match consecutive words of the text, where a text word matches a term word
when it is that word, or starts with the term word's stem (the word minus its last letter, or last
two from 6 letters on) and is at most 4 letters longer than the stem: `Spielhilfe` matches
`Spielhilfen`, `пам'ятка` matches `пам'ятки`/`пам'ятку`, `l'oggetto` holds `oggetto`; in German (`compounds: true`) the stem may stand anywhere in a word
(`Aktionskarten` holds `Karte`). Irregular forms are listed in `forms:`.
Arabic words may carry proclitics (و ب ل ال...), and short vowels and shadda are ignored. English
source terms match a word or its plural (-s, -es, -y/-ies), case-insensitively.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from pnp import schema
from pnp.composition.findings import ERROR, WARNING, Finding, finding
from pnp.errors import Problems, display_path
from pnp.i18n import sheet
from pnp.i18n.plurals import PluralText
from pnp.yamlsource import Source, load_shipped, load_source

CONVENTIONS_FILE = Path(__file__).resolve().parent / "conventions.yaml"
SHARED_GLOSSARY = Path(__file__).resolve().parent / "glossary.yaml"
GLOSSARY_NAME = "glossary.yaml"         # data/<game>/text/glossary.yaml
PIVOT = "en"
MAX_ENDING = 4                          # letters an inflected word may add to a term word's stem

GLOSSARY = "i18n.glossary"
FORBIDDEN = "i18n.forbidden"
TWO_WAYS = "i18n.two-ways"
ADDRESS = "i18n.address"
TIMES = "i18n.times-sign"
PERCENT = "i18n.percent"
SHARED_WORD = "i18n.shared-word"

WORD = re.compile(r"\w+(?:['’ʼ]\w+)*")
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
TIMES_X = re.compile(r"\d\s?[xX]\s?\d")
PERCENT_SPACED = re.compile(r"\d[\s\u00a0\u202f]%")
PERCENT_TIGHT = re.compile(r"\d%")


# ---- data: conventions and glossaries

@dataclass(frozen=True)
class Convention:
    address: str = ""
    other_address: tuple[tuple[str, re.Pattern], ...] = ()
    percent_space: bool | None = None
    proclitics: tuple[str, ...] = ()
    strip: str = ""
    compounds: bool = False


@lru_cache(maxsize=None)
def conventions() -> dict[str, Convention]:
    raw = load_shipped(CONVENTIONS_FILE) or {}
    out = {}
    for lang, spec in raw.items():
        others = tuple((name, re.compile(r"(?<!\w)(?:" + pattern + r")(?!\w)"))
                       for name, patterns in (spec.get("other_address") or {}).items() for pattern in patterns)
        out[lang] = Convention(str(spec.get("address") or ""), others, spec.get("percent_space"),
                               tuple(spec.get("proclitics") or ()), str(spec.get("strip") or ""),
                               bool(spec.get("compounds")))
    return out


def convention(lang: str) -> Convention:
    return conventions().get(lang.split("-")[0], Convention())


@dataclass(frozen=True)
class Term:
    en: str
    lang: str
    term: str
    forms: tuple[str, ...] = ()
    forbidden: tuple[str, ...] = ()
    line: int = 0                                   # of the entry in its glossary file
    skip_keys: frozenset[str] = frozenset()         # text keys where the English means something else
    file: str = ""                                   # the glossary it comes from (display path)


@dataclass
class Glossary:
    file: Path | None = None
    terms: list[Term] = field(default_factory=list)
    own_wording: frozenset[str] = frozenset()
    homonyms: frozenset[str] = frozenset()
    problems: list[Finding] = field(default_factory=list)

    def merged(self, other: "Glossary") -> "Glossary":
        return Glossary(self.file, self.terms + other.terms, self.own_wording | other.own_wording,
                        self.homonyms | other.homonyms, self.problems + other.problems)


def load_glossary(path: Path, game: str = "") -> Glossary:
    """A glossary file checked against pnp.schema.GLOSSARY; a missing file is an empty glossary.
    Schema problems come back as fatal findings (exit 2), all at once."""
    if not path.is_file():
        return Glossary()
    problems = Problems()
    source = load_source(path, problems)
    value: Any = {}
    if source is not None:
        value = schema.Validator(source, problems).check(source.value if source.value is not None else {},
                                                         schema.GLOSSARY)
    found = [finding(ERROR, p.code or "glossary.schema", p.file, p.line, p.key, p.message, game=game, fatal=True)
             for p in problems.items]
    if found or source is None:
        return Glossary(path, problems=found)
    terms = []
    for i, entry in enumerate(value.get("terms") or []):
        for lang, spec in (entry.get("in") or {}).items():
            spec = {"term": spec} if isinstance(spec, str) else spec
            terms.append(Term(entry["en"], str(lang), spec["term"], tuple(spec.get("forms") or ()),
                              tuple(spec.get("not") or ()), source.line(("terms", i, "in", lang)),
                              frozenset(entry.get("skip_keys") or ()), display_path(path)))
    return Glossary(path, terms, frozenset(value.get("own_wording") or ()), frozenset(value.get("homonyms") or ()))


# ---- matching

def _normal(text: str, lang: str) -> str:
    strip = convention(lang).strip
    if strip:
        text = text.translate({ord(c): None for c in strip})
    return PLACEHOLDER.sub(" ", text).casefold()


def words(text: str, lang: str) -> list[str]:
    return WORD.findall(_normal(text, lang))


def _stem(word: str) -> str:
    if len(word) >= 6:
        return word[:-2]
    if len(word) >= 4:
        return word[:-1]
    return word


def _word_matches(token: str, word: str, lang: str) -> bool:
    candidates = [token] + [token[len(p):] for p in convention(lang).proclitics if token.startswith(p)
                            and len(token) - len(p) >= 2]
    if "'" in token or "’" in token:          # Italian elision: l'oggetto, dell'ideatore
        candidates.append(re.split(r"['’]", token)[-1])
    stem = _stem(word)
    if convention(lang).compounds and len(stem) >= 3:     # German: the term may be a compound's part
        return any(stem in c for c in candidates)
    return any(c == word or (c.startswith(stem) and len(c) - len(stem) <= MAX_ENDING) for c in candidates)


def _english_matches(token: str, word: str) -> bool:
    return token in (word, word + "s", word + "es") or (word.endswith("y") and token == word[:-1] + "ies")


def contains(text: str, term: str, lang: str) -> bool:
    """Does `text` hold `term` (inflection tolerated as the module docstring says)?"""
    tokens, wanted = words(text, lang), words(term, lang)
    if not wanted:
        return False
    match = _english_matches if lang == PIVOT else (lambda tok, w: _word_matches(tok, w, lang))
    return any(all(match(tokens[i + j], w) for j, w in enumerate(wanted))
               for i in range(len(tokens) - len(wanted) + 1))


def holds_prefix(text: str, variant: str, lang: str) -> bool:
    """A forbidden variant: its words, the last one as a word's beginning (`картк` finds `картки`)."""
    tokens, wanted = words(text, lang), words(variant, lang)
    if not wanted:
        return False
    n = len(wanted)
    for i in range(len(tokens) - n + 1):
        window = tokens[i:i + n]
        head = all(a == b for a, b in zip(window[:-1], wanted[:-1]))
        last = window[-1]
        bare = [last] + [last[len(p):] for p in convention(lang).proclitics if last.startswith(p)]
        if head and any(b.startswith(wanted[-1]) for b in bare):
            return True
    return False


# ---- the texts linted

@dataclass(frozen=True)
class Text:
    key: str
    lang: str
    value: Any            # str or PluralText
    file: str
    line: int

    @property
    def forms(self) -> list[str]:
        return list(self.value.forms.values()) if isinstance(self.value, PluralText) else [str(self.value)]

    @property
    def joined(self) -> str:
        return "\n".join(self.forms)

    @property
    def identity(self) -> Any:
        return tuple(sorted(self.value.forms.items())) if isinstance(self.value, PluralText) else str(self.value)


def game_texts(pack) -> dict[str, dict[str, Text]]:
    """lang -> key -> Text: what the game's own text files hold (no fallbacks)."""
    out: dict[str, dict[str, Text]] = {}
    for lang, where in (pack.text_locations or {}).items():
        table = pack.texts.get(lang, {})
        out[lang] = {key: Text(key, lang, table[key], str(file), line) for key, (file, line) in where.items()
                     if key in table}
    return out


@lru_cache(maxsize=None)
def _sheet_source(lang: str) -> Source | None:
    return load_source(sheet.FOLDER / f"{lang}.yaml", Problems())


def sheet_texts(lang: str) -> dict[str, Text]:
    """key -> Text of the shared sheet words in `lang` (with their lines in pnp/i18n/sheet/<lang>.yaml)."""
    if not sheet.has_language(lang):
        return {}
    source = _sheet_source(lang)
    file = str(sheet.FOLDER / f"{lang}.yaml")
    return {key: Text(key, lang, value, file, source.line(tuple(key.split("."))) if source else 0)
            for key, value in sheet.table(lang).items()}


def game_may_word(key: str) -> bool:
    """A game names its own documents (board, parts, mat); every other shared key is the sheet's."""
    return key in sheet.GAME_NAMED


# ---- the checks

def _at(text: Text, severity: str, rule: str, message: str, hint: str, game: str, **detail) -> Finding:
    return finding(severity, rule, text.file, text.line, text.key, message, hint, game=game, lang=text.lang,
                   text_key=text.key, **detail)


def check_terms(pivot: dict[str, Text], texts: dict[str, dict[str, Text]], glossary: Glossary,
                game: str) -> list[Finding]:
    found = []
    for term in glossary.terms:
        lang_texts = texts.get(term.lang)
        if lang_texts is None:
            continue
        accepted = (term.term, *term.forms)
        for key, en in pivot.items():
            text = lang_texts.get(key)
            if text is None or key in term.skip_keys or not contains(en.joined, term.en, PIVOT):
                continue
            if not any(contains(text.joined, form, term.lang) for form in accepted):
                found.append(_at(text, ERROR, GLOSSARY, f"the English says {term.en!r}; the glossary's "
                                 f"{term.lang} term is {term.term!r}, this text does not use it: {text.joined!r}",
                                 f"use {term.term!r} (or a listed form); the term: {term.file}:{term.line}",
                                 game, term=term.term, source_term=term.en))
        for text in lang_texts.values():
            for variant in term.forbidden:
                if holds_prefix(text.joined, variant, term.lang):
                    found.append(_at(text, ERROR, FORBIDDEN, f"{variant!r} is a forbidden variant of "
                                     f"{term.term!r} ({term.en!r}): {text.joined!r}",
                                     f"write {term.term!r}", game, term=term.term, variant=variant))
    return found


def check_two_ways(pivot: dict[str, Text], texts: dict[str, dict[str, Text]], homonyms: frozenset[str],
                   game: str, across: bool = False) -> list[Finding]:
    """The same English text, translated differently in one language (first key: the reference).
    `across`: the ids are `<game>:<key>` of several games, and only pairs from two games count."""
    by_source: dict[Any, list[str]] = {}
    for ref, en in sorted(pivot.items()):
        if str(en.value) not in homonyms and words(en.joined, PIVOT):
            by_source.setdefault(en.identity, []).append(ref)
    found = []
    for refs in by_source.values():
        if len(refs) < 2:
            continue
        for lang, table in texts.items():
            if lang == PIVOT:
                continue
            present = [(ref, table[ref]) for ref in refs if ref in table]
            if not present:
                continue
            # the reference: the wording most keys use (the first of them on a tie)
            counts = Counter(text.identity for _, text in present)
            first = next(text for _, text in present if counts[text.identity] == max(counts.values()))
            for ref, other in present:
                if other.identity == first.identity or (across and other.file == first.file):
                    continue
                at = f"{first.key} ({_game_of(first)})" if across else first.key
                found.append(_at(other, ERROR, TWO_WAYS, f"the English {str(pivot[ref].value)!r} is "
                                 f"{first.joined!r} at {at} but {other.joined!r} here",
                                 "word both alike, or list the English under `homonyms:` in the glossary "
                                 "if the two mean different things", game or _game_of(other), other_key=first.key))
    return found


def _game_of(text: Text) -> str:
    """The game a text file belongs to (data/<game>/text/<lang>.yaml)."""
    return Path(text.file).parent.parent.name


def check_conventions(texts: dict[str, dict[str, Text]], game: str) -> list[Finding]:
    found = []
    for lang, table in texts.items():
        conv = convention(lang)
        for text in table.values():
            body = PLACEHOLDER.sub(" ", text.joined)
            normal = body.translate({ord(c): None for c in conv.strip}) if conv.strip else body
            for name, pattern in conv.other_address:
                hit = pattern.search(normal)
                if hit:
                    found.append(_at(text, ERROR, ADDRESS, f"{hit.group(0)!r} addresses the reader as "
                                     f"{name!r}; {lang} texts use {conv.address!r}",
                                     "word it in the language's form of address (pnp/i18n/conventions.yaml)",
                                     game, form=name, word=hit.group(0)))
                    break
            hit = TIMES_X.search(body)
            if hit:
                found.append(_at(text, ERROR, TIMES, f"{hit.group(0)!r}: a letter x between numbers",
                                 "write the multiplication sign: 3×3", game, found=hit.group(0)))
            if conv.percent_space is True and PERCENT_TIGHT.search(body):
                found.append(_at(text, WARNING, PERCENT, "no space before %", f"{lang}: write 100 % "
                                 "(a no-break space before %)", game))
            elif conv.percent_space is False and PERCENT_SPACED.search(body):
                found.append(_at(text, WARNING, PERCENT, "a space before %", f"{lang}: write 100%", game))
    return found


def check_shared_words(texts: dict[str, dict[str, Text]], glossary: Glossary, game: str) -> list[Finding]:
    shared = set(sheet.table(sheet.SOURCE))
    found = []
    for table in texts.values():
        for key, text in sorted(table.items()):
            if key in shared and not game_may_word(key) and key not in glossary.own_wording:
                found.append(_at(text, ERROR, SHARED_WORD, f"{key} is a shared sheet word: pnp/i18n/sheet/"
                                 f"{text.lang}.yaml words it for every game",
                                 f"delete it here (the shared text prints), or declare `own_wording: [{key}]` "
                                 f"in text/{GLOSSARY_NAME} to word it this game's way on purpose", game))
    return found


# ---- entry points

def lint_pack(pack) -> list[Finding]:
    """Every finding for one game: its texts (and the shared words it prints) against its glossary,
    the shared glossary and each language's conventions."""
    game = pack.id
    glossary = load_glossary(pack.root / "text" / GLOSSARY_NAME, game).merged(load_glossary(SHARED_GLOSSARY))
    if glossary.problems:
        return sorted(glossary.problems, key=Finding.sort_key)
    own = game_texts(pack)
    pivot_lang = PIVOT if PIVOT in own else pack.source_language
    # the words this game prints: its own texts, then the shared words it does not override
    printed = {lang: {**sheet_texts(lang), **table} for lang, table in own.items()}
    pivot = printed.get(pivot_lang, {})
    found = check_terms(pivot, own, glossary, game)
    found += check_two_ways(pivot, printed, glossary.homonyms, game)
    found += check_conventions(own, game)
    found += check_shared_words(own, glossary, game)
    return sorted(set(found), key=Finding.sort_key)


def lint_across(packs: list) -> list[Finding]:
    """One English text translated two ways in one language by two games (`Your turn` is the same
    words in every game); the homonyms of every glossary are exempt."""
    pivot: dict[str, Text] = {}
    texts: dict[str, dict[str, Text]] = {}
    homonyms = set(load_glossary(SHARED_GLOSSARY).homonyms)
    for pack in packs:
        own = game_texts(pack)
        if PIVOT not in own:
            continue
        homonyms |= load_glossary(pack.root / "text" / GLOSSARY_NAME, pack.id).homonyms
        pivot.update({f"{pack.id}:{key}": text for key, text in own[PIVOT].items()})
        for lang, table in own.items():
            texts.setdefault(lang, {}).update({f"{pack.id}:{key}": text for key, text in table.items()})
    return sorted(set(check_two_ways(pivot, texts, frozenset(homonyms), "", across=True)), key=Finding.sort_key)


def lint_sheet() -> list[Finding]:
    """The shared sheet words themselves: the shared glossary, two ways, conventions."""
    glossary = load_glossary(SHARED_GLOSSARY)
    if glossary.problems:
        return glossary.problems
    texts = {lang: sheet_texts(lang) for lang in sheet.languages()}
    pivot = texts[sheet.SOURCE]
    found = check_terms(pivot, texts, glossary, "sheet")
    found += check_two_ways(pivot, texts, glossary.homonyms, "sheet")
    found += check_conventions(texts, "sheet")
    return sorted(set(found), key=Finding.sort_key)
