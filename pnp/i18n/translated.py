"""What `pnp check` says of each translation against its source, at the translation's file and line:

    text.icons   its icons are not the source's (pnp.i18n.icons): a warning
    text.stale   the source text changed since it was translated (pnp.i18n.status): a warning;
                 `pnp i18n accept` (the translation still holds) or a new translation clears it

Untracked translations (no record of their source) are never stale. A build says the stale texts
of each language it builds once, as a count (pnp.i18n.status.stale_summary).
"""
from __future__ import annotations

from pnp.composition.findings import WARNING, Finding, finding
from pnp.errors import display_path
from pnp.i18n import icons as icons_mod
from pnp.i18n.hashes import own_text, source_keys
from pnp.i18n.status import TEXT_STALE, pack_status
from pnp.pack import Pack


def _where(pack: Pack, lang: str, key: str) -> tuple[str, int]:
    file, line = pack.text_locations[lang][key]
    return display_path(file), line


def icon_findings(pack: Pack) -> list[Finding]:
    """`text.icons` for each translation whose icons differ from its source's."""
    found = []
    source_texts = pack.texts.get(pack.source_language, {})
    for lang in pack.languages:
        if lang == pack.source_language:
            continue
        for key in source_keys(pack):
            translation = own_text(pack, lang, key)
            if translation is None:
                continue
            mismatch = icons_mod.compare(source_texts[key], translation)
            if mismatch:
                file, line = _where(pack, lang, key)
                found.append(finding(WARNING, icons_mod.TEXT_ICONS, file, line, key, mismatch.message(),
                                     f"give the translation the source's icons ({icons_mod.shown(mismatch.source)})",
                                     pack.id, lang=lang, text_key=key,
                                     missing=icons_mod.shown(mismatch.missing), extra=icons_mod.shown(mismatch.extra)))
    return found


def stale_findings(pack: Pack) -> list[Finding]:
    """`text.stale` for each translation made from an older source text."""
    found = []
    for status in pack_status(pack):
        for key in status.stale:
            file, line = _where(pack, status.lang, key)
            found.append(finding(
                WARNING, TEXT_STALE, file, line, key,
                f"stale: the {pack.source_language} source text changed since this {status.lang} text was translated",
                f"translate it again (pnp i18n export marks it fuzzy), or if it still holds: "
                f"pnp i18n accept {pack.id} {key} --lang {status.lang}",
                pack.id, lang=status.lang, text_key=key))
    return found


def translation_findings(pack: Pack) -> list[Finding]:
    return [*icon_findings(pack), *stale_findings(pack)]
