"""Translation coverage of a pack: per language, translated/total, missing, stale, untracked."""
from __future__ import annotations

from dataclasses import dataclass, field

from pnp.i18n import hashes as hashes_mod
from pnp.i18n.po import own_text, source_keys
from pnp.pack import Pack


@dataclass
class LanguageStatus:
    lang: str
    is_source: bool
    total: int                                            # keys of the source language
    missing: list[str] = field(default_factory=list)      # no text in this language's file
    stale: list[str] = field(default_factory=list)        # the source text changed since the translation
    untracked: list[str] = field(default_factory=list)    # translated, no record of its source (see hashes)
    obsolete: list[str] = field(default_factory=list)     # keys the source language no longer has

    @property
    def translated(self) -> int:
        """Present and not stale."""
        return self.total - len(self.missing) - len(self.stale)

    def to_dict(self) -> dict:
        return {"lang": self.lang, "source": self.is_source, "total": self.total, "translated": self.translated,
                "missing": self.missing, "stale": self.stale, "untracked": self.untracked, "obsolete": self.obsolete}


def pack_status(pack: Pack) -> list[LanguageStatus]:
    keys = source_keys(pack)
    recorded = hashes_mod.read_hashes(pack.root)
    out = []
    for lang in pack.languages:
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
        out.append(status)
    return out


def accept(pack: Pack, langs: list[str], keys: list[str] | None = None) -> dict[str, int]:
    """Record today's source text as the one the present translations were made from."""
    order = source_keys(pack)
    recorded = hashes_mod.read_hashes(pack.root)
    sources = hashes_mod.read_sources(pack.root)
    counts = {}
    for lang in langs:
        lang_hashes = recorded.setdefault(lang, {})
        n = 0
        for key in keys or order:
            if key in order and own_text(pack, lang, key) is not None:
                source = pack.texts[pack.source_language][key]
                lang_hashes[key] = hashes_mod.text_hash(source)
                sources[lang_hashes[key]] = hashes_mod.source_value(source)
                n += 1
        counts[lang] = n
    hashes_mod.write_hashes(pack.root, recorded, order)
    hashes_mod.write_sources(pack.root, sources, recorded)
    return counts
