"""Translation coverage of a pack: per language, translated/total, missing, stale, untracked."""
from __future__ import annotations

from dataclasses import dataclass, field

from pnp.errors import Problem, Problems, display_path
from pnp.i18n import hashes as hashes_mod
from pnp.i18n import sheet
from pnp.i18n.hashes import own_text, source_keys
from pnp.pack import Pack

TEXT_STALE = "text.stale"      # a translation made from an older source text (a warning)


@dataclass
class LanguageStatus:
    lang: str
    is_source: bool
    total: int                                            # keys of the source language
    missing: list[str] = field(default_factory=list)      # no text in this language's file
    stale: list[str] = field(default_factory=list)        # the source text changed since the translation
    untracked: list[str] = field(default_factory=list)    # translated, no record of its source (see hashes)
    obsolete: list[str] = field(default_factory=list)     # keys the source language no longer has
    sheet_english: int = 0                                # shared sheet words printing in English (pnp lacks the language)
    sheet_total: int = 0                                  # shared sheet words in all
    sheet_file: str = ""                                  # where the game may give them: text/sheet/<lang>.yaml

    @property
    def translated(self) -> int:
        """Present and not stale."""
        return self.total - len(self.missing) - len(self.stale)

    def to_dict(self) -> dict:
        return {"lang": self.lang, "source": self.is_source, "total": self.total, "translated": self.translated,
                "missing": self.missing, "stale": self.stale, "untracked": self.untracked, "obsolete": self.obsolete,
                "sheet_words": {"english": self.sheet_english, "total": self.sheet_total, "file": self.sheet_file}}

    def sheet_line(self) -> str:
        """What status says of the shared sheet words printing in English ("" when none do)."""
        if not self.sheet_english:
            return ""
        if self.sheet_english < self.sheet_total:        # the game's file gives some
            return (f"sheet words: {self.sheet_english} of {self.sheet_total} print in English: add them to "
                    f"{self.sheet_file}, the keys of pnp/i18n/sheet/en.yaml translated")
        return (f"sheet words: {self.sheet_english} of {self.sheet_total} print in English (pnp has no {self.lang!r} "
                f"ones): write {self.sheet_file}, the keys of pnp/i18n/sheet/en.yaml translated")


def pack_status(pack: Pack, langs: list[str] | None = None) -> list[LanguageStatus]:
    """The status of each of `langs` (default: every language of the pack)."""
    keys = source_keys(pack)
    recorded = hashes_mod.read_hashes(pack.root)
    out = []
    for lang in langs if langs is not None else pack.languages:
        status = LanguageStatus(lang, lang == pack.source_language, len(keys))
        if not status.is_source:
            lang_hashes = recorded.get(lang, {})
            for key in keys:
                if own_text(pack, lang, key) is None:
                    status.missing.append(key)
                    continue
                have = lang_hashes.get(key)
                if have is None:
                    status.untracked.append(key)
                elif have != hashes_mod.text_hash(pack.texts[pack.source_language][key]):
                    status.stale.append(key)
            known = set(keys)
            status.obsolete = [k for k in pack.text_locations.get(lang, {}) if k not in known]
        _sheet_words(pack, status)
        out.append(status)
    return out


def stale_summary(pack: Pack, lang: str) -> list[Problem]:
    """One `text.stale` warning for a build in `lang` holding translations made from an older
    source text: how many, and where they are listed (pnp.i18n.translated says each, for check)."""
    if lang == pack.source_language or not hashes_mod.read_hashes(pack.root).get(lang):
        return []                                 # nothing recorded: nothing can be stale
    count = len(pack_status(pack, [lang])[0].stale)
    if not count:
        return []
    file = display_path(pack.root / "text" / f"{lang}.yaml")
    return [Problem(file, 0, "", f"{count} {lang} text{'s' * (count != 1)} stale: the {pack.source_language} source "
                    f"changed since translated; `pnp i18n status {pack.id}` lists them", code=TEXT_STALE, lang=lang,
                    detail=(("language", lang), ("stale", count)))]


def _sheet_words(pack: Pack, status: LanguageStatus) -> None:
    """The shared sheet words (pnp.i18n.sheet) a build in the language prints in English."""
    status.sheet_total = len(sheet.table(sheet.SOURCE))
    status.sheet_english = len(sheet.unsupplied(status.lang, pack.sheet_words.get(status.lang)))
    status.sheet_file = display_path(pack.root / sheet.SUPPLIED / f"{status.lang}.yaml")


@dataclass
class Accepted:
    """What `accept` did in one language."""

    stale: list[str] = field(default_factory=list)        # were stale, now up to date
    untracked: list[str] = field(default_factory=list)    # had no record, now recorded
    current: int = 0                                      # already up to date: unchanged
    absent: list[str] = field(default_factory=list)       # named keys the language has no text for


def unknown_keys(pack: Pack, keys: list[str]) -> Problems:
    """`i18n.unknown-key` for each of `keys` the source language does not have, with a guess."""
    import difflib

    order = source_keys(pack)
    known = set(order)
    problems = Problems()
    file = pack.root / "text" / f"{pack.source_language}.yaml"
    for key in keys:
        if key not in known:
            guess = difflib.get_close_matches(key, order, n=1)
            problems.add("i18n.unknown-key", file, 0, key, f"unknown text key: text/{pack.source_language}.yaml has "
                         f"no {key!r}" + (f"; did you mean {guess[0]!r}?" if guess else ""))
    return problems


def accept(pack: Pack, langs: list[str], keys: list[str] | None = None) -> dict[str, Accepted]:
    """Record today's source text as the one the present translations (or those of `keys`) were
    made from. An unknown key stops it (DataError, `i18n.unknown-key`) before anything is written."""
    unknown_keys(pack, keys or []).raise_if_any()
    order = source_keys(pack)
    recorded = hashes_mod.read_hashes(pack.root)
    sources = hashes_mod.read_sources(pack.root)
    done = {}
    for lang in langs:
        lang_hashes = recorded.setdefault(lang, {})
        result = done[lang] = Accepted()
        for key in keys or order:
            if own_text(pack, lang, key) is None:
                if keys:
                    result.absent.append(key)
                continue
            source = pack.texts[pack.source_language][key]
            current = hashes_mod.text_hash(source)
            before = lang_hashes.get(key)
            if before == current:
                result.current += 1
                continue
            (result.untracked if before is None else result.stale).append(key)
            lang_hashes[key] = current
            sources[current] = hashes_mod.source_value(source)
    if any(r.stale or r.untracked for r in done.values()):
        hashes_mod.write_hashes(pack.root, recorded, order)
        hashes_mod.write_sources(pack.root, sources, recorded)
    return done
