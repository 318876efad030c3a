"""Stale translations: which source text each translation was made from.

`data/<game>/text/.source-hashes.yaml` maps language -> dotted key -> a short hash of the
source-language text the translation translates. `pnp i18n import` writes it (with the hash the PO
entry carried from export, so a source changed between export and import is caught), and
`pnp i18n accept` records the current source for translations edited by hand. A translation is
*stale* when its recorded hash differs from the hash of today's source text; a translation with no
record is *untracked* (counted as translated: nothing says it is out of date).

The PO files carry the same hash in an extracted comment, `#. source-hash: 1a2b3c4d5e6f`.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

import yaml

from pnp.i18n.plurals import PluralText
from pnp.outputfiles import write_text_atomically

HASH_FILE = ".source-hashes.yaml"
UNKNOWN = "unknown"       # recorded when the source of an imported translation cannot be told
HEADER = ("# pnp i18n: hash of the source-language text each translation was made from.\n"
          "# Written by `pnp i18n import` / `pnp i18n accept`; a differing hash means the translation is stale.\n")


def text_hash(text: str) -> str:
    if isinstance(text, PluralText):
        payload = "\x1e".join(f"{cat}\x1f{form}" for cat, form in text.forms.items())
    else:
        payload = str(text)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:12]


def hash_file(root: Path) -> Path:
    return root / "text" / HASH_FILE


def read_hashes(root: Path) -> dict[str, dict[str, str]]:
    path = hash_file(root)
    if not path.is_file():
        return {}
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    if not isinstance(data, dict):
        return {}
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
