"""The on-disk cache of loaded card files: a rebuild reads a deck's card file that did not change
without composing its YAML or checking its cards against the schema again.

    cache = LoadCache()                         # <face cache folder> (PNP_CACHE_DIR respected)
    load_pack(game, load_cache=cache)           # pnp.pack reads and fills it, file by file

An entry is found by a content address, the sha256 of everything reading the file depends on
(`LoadCache.key`): the file's text and path, the deck it is read for (its id and default kind),
the pack's languages and card kinds as pack.yaml declares them, and the source of the code that
reads and checks it (pnp.pack, pnp.schema, pnp.yamlsource, pnp.limits, this module). It holds
what pnp.pack keeps of the file: its value and the line of every key path (pnp.yamlsource.Source),
each card as checked (id, kind, quantity, fields, line), the text keys, references and texts
written in the data that the schema check collected (checked against the whole pack after every
file is read, as for a file read now), and the ids the file gives cards.

Only a file that was read without a single problem is kept: a file with problems is read again
every time, so its problems are reported exactly as they are without the cache. A file whose
card ids another file already used is read again too (the duplicate is reported where it is
found). Entries are plain JSON with a format number (never pickle: the cache folder is one anyone
may write to, so nothing read back runs code); each is checked field by field as it is read, and
one that does not parse or does not hold what it should is ignored (the file is read). Files sit
in the face cache folder (`<k[:2]>/<k>.load`), so the cache's size limit and trim
(pnp.facecache.FaceCache.trim) and `--no-cache` cover them.
"""
from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

FORMAT = 1
SUFFIX = ".load"
_PACKAGE = Path(__file__).resolve().parent
# The code a loaded file's cards come from: a change to any of it (in a development checkout,
# where the version stays put) must not give the old code's cards.
# A folder stands for every .py and .yaml file below it. Every module `import pnp.pack` loads is here
# (tests/test_loadcache.py).
_LOADING_CODE = ("__init__.py", "pack.py", "schema.py", "yamlsource.py", "limits.py", "units.py", "loadcache.py",
                 "errors.py", "shipped/__init__.py", "spreadsheets.py", "outputfiles.py", "i18n", "text", "components/__init__.py",
                 "components/types.py")


def loading_code() -> list[Path]:
    """The source files whose change must not give a cached file's old reading."""
    return sorted(p for part in _LOADING_CODE for p in ([_PACKAGE / part] if part.endswith(".py") else
                  (_PACKAGE / part).rglob("*")) if p.suffix in (".py", ".yaml"))


@lru_cache(maxsize=1)
def code_digest() -> str:
    import pnp
    from pnp.facecache import file_digest

    return hashlib.sha256(json.dumps([FORMAT, pnp.__version__, [(p.relative_to(_PACKAGE).as_posix(), file_digest(p))
                                                                 for p in loading_code()]]).encode()).hexdigest()


class LoadCache:
    """One build's view of the cache folder for loaded card files (see the module doc)."""

    def __init__(self, folder: Path | None = None):
        from pnp.facecache import default_folder

        self.folder = folder if folder is not None else default_folder()
        self.hits = 0                       # files given from the cache
        self.stored = 0                     # files read and kept
        self.unwritable = ""                # why an entry could not be written (the build goes on)

    def key(self, file: Path, text: str, context: Any) -> str:
        """The content address of reading `file`, whose text is `text`, with `context` (plain
        JSON data: what else its reading depends on)."""
        data = json.dumps([code_digest(), str(file), context], ensure_ascii=False, sort_keys=True, default=repr)
        h = hashlib.sha256(data.encode())
        h.update(b"\0")
        h.update(text.encode("utf-8", "surrogatepass"))
        return h.hexdigest()

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}{SUFFIX}"

    def get(self, key: str) -> dict | None:
        """The entry under `key` as checked by `parse_entry`; None when there is none or it does
        not read."""
        path = self._path(key)
        try:
            data = json.loads(path.read_bytes())
        except (OSError, ValueError, RecursionError):
            return None
        entry = parse_entry(data)
        if entry is not None:
            from pnp.facecache import mark_used

            mark_used(path)                         # the eviction order
        return entry

    def put(self, key: str, entry: dict) -> None:
        """Keep `entry` (made by pnp.pack, plain data) when it reads back exactly as it is: a value
        JSON would change (a tuple, a date, a number key) is not kept, the file read every time."""
        from pnp.outputfiles import atomic_path

        data = {"format": FORMAT, **entry}
        try:
            text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False, default=_refuse)
        except (TypeError, ValueError, RecursionError):
            return
        if json.loads(text) != data or parse_entry(json.loads(text)) is None:
            return
        path = self._path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8") as out:
                out.write(text)
            self.stored += 1
        except OSError as error:
            self.unwritable = self.unwritable or f"{self.folder}: {error.strerror or error}"


def _refuse(value: Any) -> Any:
    raise TypeError(f"not JSON data: {type(value).__name__}")


# ------------------------------------------------------------------ checking what is read

def parse_entry(data: Any) -> dict | None:
    """An entry's JSON checked field by field (the shapes `put` writes); None when it is not one.
    Values (the file's, a card's fields, a reference's) are any JSON data, as the file gave them.
    The entry's "lines" become the Source's map (key path tuple -> line)."""
    from pnp.facecache import is_str_map

    if type(data) is not dict or data.get("format") != FORMAT or "value" not in data:
        return None
    try:
        lines = {tuple(path[:-1]): path[-1] for path in data["lines"]}    # a step that is not hashable: TypeError
        if not all(type(line) is int for line in lines.values()):
            return None
        for card_id, kind, quantity, fields, line in data["cards"]:
            if not (type(card_id) is str and type(kind) is str and type(quantity) is int and quantity >= 1
                    and type(fields) is dict and type(line) is int):
                return None
        for card_id, line in data["ids"]:
            if not (type(card_id) is str and type(line) is int):
                return None
        for key, line, where in data["texts"]:
            if not (type(key) is str and type(line) is int and type(where) is str):
                return None
        for _collection, _value, line, where, snippet in data["refs"]:
            if not (type(_collection) is str and type(line) is int and type(where) is str and type(snippet) is str):
                return None
        for key, texts, line, where, text_lines in data["literals"]:
            if not (type(key) is str and is_str_map(texts) and type(line) is int and type(where) is str
                    and is_str_map(text_lines, int)):
                return None
        if not is_str_map(data["bodies"], int):
            return None
    except (TypeError, ValueError, KeyError):          # not a list, a record of another length...
        return None
    return {**data, "lines": lines}
