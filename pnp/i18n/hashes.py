"""Stale translations: which source text each translation was made from.

`data/<game>/text/.source-hashes.yaml` maps language -> dotted key -> a short hash of the
source-language text the translation translates. `pnp i18n import` writes it (with the hash the PO
entry carried from export, so a source changed between export and import is caught), and
`pnp i18n accept` records the current source for translations edited by hand. A translation is
*stale* when its recorded hash differs from the hash of today's source text; a translation with no
record is *untracked* (counted as translated: nothing says it is out of date).

The PO files carry no hash: a PO entry's own source (its msgid, msgid_plural and the `#. source
<category>:` comments of the other plural forms) is the source it was translated from, so import
hashes that (`po.exported_source`); a translator's tool shows nothing that is not for them. (PO
files exported before issue 16 carry `#. source-hash: ...`: import still reads it.)

`data/<game>/text/.source-texts.yaml` maps each recorded hash to its source text (a plural one as
its forms): the text a stale translation was made from, which export writes as the fuzzy entry's
previous msgid (`#| msgid`), as gettext's msgmerge does. Import and accept add to it; a hash no
translation records any more is dropped.
"""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from pnp.i18n.plurals import PluralText
from pnp.outputfiles import write_text_atomically

if TYPE_CHECKING:
    from pnp.pack import Pack

HASH_FILE = ".source-hashes.yaml"
SOURCES_FILE = ".source-texts.yaml"
UNKNOWN = "unknown"       # recorded when the source of an imported translation cannot be told
HEADER = ("# pnp i18n: hash of the source-language text each translation was made from.\n"
          "# Written by `pnp i18n import` / `pnp i18n accept`; a differing hash means the translation is stale.\n")


def text_hash(text: str) -> str:
    if isinstance(text, PluralText):
        payload = "\x1e".join(f"{cat}\x1f{form}" for cat, form in text.forms.items())
    else:
        payload = str(text)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:12]


def source_keys(pack: Pack) -> list[str]:
    """The source language's keys in file order."""
    return list(pack.text_locations.get(pack.source_language, {}))


def own_text(pack: Pack, lang: str, key: str):
    """The text `lang`'s own file has for `key` (None if missing: fallbacks do not count)."""
    if key in pack.text_locations.get(lang, {}):
        return pack.texts[lang][key]
    return None


def hash_file(root: Path) -> Path:
    return root / "text" / HASH_FILE


def _mapping(path: Path) -> dict:
    """A YAML file's top mapping ({} when the file is missing or not a mapping)."""
    if not path.is_file():
        return {}
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return data if isinstance(data, dict) else {}


def read_hashes(root: Path) -> dict[str, dict[str, str]]:
    data = _mapping(hash_file(root))
    return {str(lang): {str(k): str(v) for k, v in (keys or {}).items()}
            for lang, keys in data.items() if isinstance(keys, dict) or keys is None}


def write_hashes(root: Path, hashes: dict[str, dict[str, str]], order: list[str]) -> None:
    """Write the hash file, keys of each language in source order (unknown keys after, sorted)."""
    rank = {key: i for i, key in enumerate(order)}
    data = {}
    for lang in sorted(hashes):
        keys = hashes[lang]
        if keys:
            data[lang] = {k: keys[k] for k in sorted(keys, key=lambda k: (rank.get(k, len(rank)), k))}
    body = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, default_flow_style=False, width=4096)
    write_text_atomically(hash_file(root), HEADER + body)


SOURCES_HEADER = ("# pnp i18n: the source-language text of each hash in .source-hashes.yaml, for the previous\n"
                  "# msgid (#| msgid) of stale translations in exported PO files. Written by `pnp i18n import` / `accept`.\n")


def sources_file(root: Path) -> Path:
    return root / "text" / SOURCES_FILE


def source_value(text: str) -> str | dict[str, str]:
    """A source text as the sources file holds it: a plural text as its forms."""
    return dict(text.forms) if isinstance(text, PluralText) else str(text)


def read_sources(root: Path) -> dict[str, str | dict[str, str]]:
    """hash -> the source text it is the hash of (a plural text: category -> form)."""
    data = _mapping(sources_file(root))
    found: dict[str, str | dict[str, str]] = {}
    for key, value in data.items():
        if isinstance(value, dict):
            found[str(key)] = {str(c): str(f) for c, f in value.items()}
        elif isinstance(value, str):
            found[str(key)] = value
    return found


def write_sources(root: Path, sources: dict[str, str | dict[str, str]], hashes: dict[str, dict[str, str]]) -> bool:
    """Write the sources of the hashes some translation records (sorted by hash); False when
    there is nothing to write and no file."""
    used = {h for keys in hashes.values() for h in keys.values()}
    kept = {h: sources[h] for h in sorted(sources) if h in used}
    path = sources_file(root)
    if not kept and not path.is_file():
        return False
    body = yaml.safe_dump(kept, allow_unicode=True, sort_keys=False, default_flow_style=False, width=4096)
    write_text_atomically(path, SOURCES_HEADER + (body if kept else ""))
    return True
