"""The on-disk cache of compiled card faces: a rebuild redraws only the faces whose inputs changed.

    cache = FaceCache()                       # <user cache dir>/faces (PNP_CACHE_DIR respected)
    maker = FaceMaker(pack, lang, cache=cache)
    ...                                       # maker.face(...) reads and fills the cache
    cache.save()                              # the faces' index
    cache.trim()                              # least recently used files out, under the limit

A face is found by a content address, the sha256 of everything its drawing can depend on
(`FaceKeys`): the cache format, pnp's version and the source of its drawing code, the fonts'
bytes, the language, the bleed, the template's source with every template it extends, includes or
imports, and the face's whole rendering context (the card's fields with their texts resolved, the
deck, the pack's collections, palette and players). Two more inputs are only known once the
template has run: the texts it looked up with `t()` and the art files it drew. The entry records
them with their values (texts) and content hashes (art), and a lookup whose recorded texts or art
read differently now is a miss.

Two files per pack and language, plain JSON text with a format number (never pickle: the cache
is a folder anyone may write to, so reading it must not run code):

    faces/<i[:2]>/<i>.faces      a line per face: its key and its entry's JSON text (its drawing's
                                 id, the SVG's key, its text findings, the texts and art it read).
                                 `i` hashes what all those faces share (fonts, code, language,
                                 bleed, the pack's collections...): one file read and one written
                                 a build, not one per face (creating files was most of the cost of
                                 a first build). An entry is parsed when its face is looked up, and
                                 one used again is written back as the text it was read as: a
                                 rebuild's index is ~1,900 entries of which two changed, and
                                 encoding them all again was most of `save`.
    faces/<i[:2]>/<i>.drawings   a line per drawing: its id and its JSON text (width, height and
                                 the drawing operations of pnp.render.svgcanvas: PDF operators,
                                 text, images by href), kept as text until a face's PDF form is
                                 drawn, and written again as it was read (`read_drawings`).

A deck's shared back is one drawing however many cards point at it. Replaying the operations
into the PDF is exactly what drawing the freshly compiled face does, so a build from the cache is
byte-identical to one without (tests/test_facecache.py). A file that does not parse or does not
hold what it should is ignored and redrawn (and rewritten); writes are atomic
(pnp.outputfiles). `trim()` keeps the folder under MAX_FACE_CACHE_BYTES (pnp.limits), removing
the entries used longest ago (access time, set on every hit).
"""
from __future__ import annotations

import hashlib
import json
import os
import time
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from pnp.keptparses import KeptParses
from pnp.limits import MAX_FACE_CACHE_BYTES

FORMAT = 5                      # bump when an entry's layout or meaning changes (3: drawings in their own
                                # file; 4: the index a line a face; 5: text_keys of the issues' texts only)
_PACKAGE = Path(__file__).resolve().parent
# The code a face's drawing comes from: a change to any of it (in a development checkout, where
# the version stays put) must not replay drawings the old code made.
_DRAWING_CODE = ("render", "text", "i18n", "units.py", "print_constants.py")


def cache_root() -> Path:
    """pnp's cache folder on this machine (the font cache's parent; see pnp.text.fonts)."""
    import platformdirs

    return Path(os.environ.get("PNP_CACHE_DIR") or platformdirs.user_cache_dir("pnp"))


def default_folder() -> Path:
    return cache_root() / "faces"


# ------------------------------------------------------------------ keys

def plain(value: Any) -> Any:
    """Template records, tuples and plural texts as plain JSON data (a PluralText keeps its forms)."""
    if isinstance(value, str):
        forms = getattr(value, "forms", None)
        return {"plural": dict(forms)} if isinstance(forms, dict) else value
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if value is None or isinstance(value, (bool, int, float)):
        return value
    return repr(value)


def digest(*parts: Any) -> str:
    text = json.dumps(plain(parts), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def fast_digest(*parts: Any) -> str:
    """`digest` of data as pnp.yamlsource builds it from a file (plain str, int, float, bool,
    None, lists, mappings; a date as its repr, as `plain` gives it): the C encoder straight
    away, without `plain`'s walk (a face key is made of a card's fields: 950 cards, ~1,900 faces
    a build). Not for texts (a PluralText is a str subclass whose forms the encoder would not
    see). A mapping the encoder cannot sort (keys of several types) goes through `digest`,
    whose result may then differ from this one's for the same parts: a key is only ever
    compared with keys made the same way."""
    try:
        text = json.dumps(parts, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=repr)
    except (TypeError, ValueError):
        return digest(*parts)
    return hashlib.sha256(text.encode()).hexdigest()


@lru_cache(maxsize=None)
def _file_digest(path: str, size: int, mtime_ns: int) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as source:
        for block in iter(lambda: source.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def file_digest(path: Path | str) -> str:
    """The sha256 of a file's bytes (read once per process while its size and date stay put);
    "" for a file that cannot be read (whoever draws with it reports that)."""
    try:
        stat = os.stat(path)
        return _file_digest(str(path), stat.st_size, stat.st_mtime_ns)
    except OSError:
        return ""


def folder_digest(folder: Path | None) -> str:
    """The names and bytes of every file below `folder` (a pack's icons)."""
    if folder is None or not folder.is_dir():
        return ""
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    return digest([(p.relative_to(folder).as_posix(), file_digest(p)) for p in files])


@lru_cache(maxsize=1)
def code_digest() -> str:
    """pnp's version and the source of the code that draws a face."""
    import pnp

    files = sorted(p for part in _DRAWING_CODE for p in ([_PACKAGE / part] if part.endswith(".py") else
                   (_PACKAGE / part).rglob("*")) if p.suffix in (".py", ".yaml"))
    files.append(Path(__file__).resolve())
    return digest(FORMAT, pnp.__version__, [(p.relative_to(_PACKAGE).as_posix(), file_digest(p)) for p in files])


def fonts_digest() -> str:
    """The built-in fonts a face is drawn with: the source files' bytes and how they are cut."""
    from pnp.text import fonts

    sources = sorted({str(style.source) for table in (fonts.STYLES, fonts.ARABIC_STYLES) for style in table.values()})
    return digest(fonts.cut_version(), repr(fonts.STYLES), repr(fonts.ARABIC_STYLES),
                  [(Path(s).name, file_digest(s)) for s in sources])


def pack_assets_digest(pack: Any) -> str:
    """The pack's own fonts (bytes) and icons (every file's bytes)."""
    own = {style: {role: file_digest(path) if path else "" for role, path in files.items()}
           for style, files in (pack.fonts or {}).items()}
    return digest(own, folder_digest(pack.icons))


# ------------------------------------------------------------------ entries

class CachedFace(NamedTuple):
    """What a face entry holds, read back (see FaceCache.face). A named tuple: ~1,900 are made a
    rebuild, and a frozen dataclass sets each field through object.__setattr__ (several times the
    cost)."""

    drawing_id: str
    svg_key: str                              # the face's key in the PDF (its SVG's hash)
    issues: tuple[tuple[str, dict], ...]      # (code, FitIssue.facts())
    missing_keys: tuple[str, ...]
    text_keys: dict[str, str]                 # an issue's text -> the one key that produced it (see issue_keys)
    texts: dict[str, str]                     # text key -> its value when drawn (see text_value)
    art: dict[str, str]                       # href -> the file's sha256 when drawn
    sha: str                                  # text_sha of its drawing's JSON text
    size: tuple[float, float]                 # the drawing's width and height (points)


def issue_keys(issues: Any, text_keys: Mapping[str, str]) -> dict[str, str]:
    """What an entry keeps of a face's text keys (pnp.render.faces.RenderedFace.text_keys): those
    of its issues' texts, the only ones a build asks for (the key a text.fit problem names). Every
    text the face printed, long card texts included, was most of an entry, and so of the time a
    rebuild takes to read the index back."""
    return {issue.text: text_keys[issue.text] for issue in issues if issue.text in text_keys}


def text_sha(text: str) -> str:
    """What a face entry records of its drawing's text: a drawing read back whole and unchanged
    can be kept packed (pnp.render.facedata.PackedFace) without decoding it now."""
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _text(drawing: str | bytes) -> str:
    """A stored drawing as its JSON text (PackedFace keeps it zlib-compressed)."""
    return drawing if isinstance(drawing, str) else zlib.decompress(drawing).decode()


def drawing_text(data: dict) -> str:
    """A drawing's data (pnp.render.facedata.face_data) as the JSON text the cache stores."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def text_value(texts: Any, key: str) -> str:
    """A text as the cache compares it: its plural forms too; "\\0missing" when there is none. A
    plain text is itself after a \\x01 (no JSON text starts so): a card's texts are looked up
    for every face key, and encoding each was a twentieth of a one-card rebuild. `texts`: a
    pnp.i18n.texts.Texts (one lookup, `source`), or anything with `in` and `raw`."""
    source = getattr(texts, "source", None)
    if source is not None:
        found = source(key) if isinstance(key, str) else None
        if found is None:
            return "\0missing"
        raw = found[0][key]
    elif key not in texts:
        return "\0missing"
    else:
        raw = texts.raw(key)
    if type(raw) is str:
        return "\x01" + raw
    return json.dumps(plain(raw), sort_keys=True, ensure_ascii=False)


def is_str_list(value: Any) -> bool:
    """A list of strings, as JSON read back gives it (the cache files' checks)."""
    return type(value) is list and (not value or all(type(v) is str for v in value))


def is_str_map(value: Any, kind: type = str) -> bool:
    """A mapping of strings to values of type `kind`, as JSON read back gives it."""
    return type(value) is dict and (not value or all(type(k) is str and type(v) is kind for k, v in value.items()))


def parse_face(data: Any, index_format: int | None = None) -> CachedFace | None:
    """A face entry's JSON, checked field by field; None when it is not one. `index_format`: the
    format of the index the entry was read from, standing for the entry's own (an index's
    entries hold none)."""
    if not isinstance(data, dict) or (data.get("format") if index_format is None else index_format) != FORMAT:
        return None
    issues = data.get("issues")
    if not (isinstance(data.get("drawing"), str) and isinstance(data.get("svg"), str) and isinstance(issues, list)
            and all(isinstance(i, list) and len(i) == 2 and isinstance(i[0], str) and isinstance(i[1], dict)
                    for i in issues)
            and is_str_list(data.get("missing")) and is_str_map(data.get("text_keys")) and is_str_map(data.get("texts"))
            and is_str_map(data.get("art")) and isinstance(data.get("sha"), str) and _size(data.get("size"))):
        return None
    return CachedFace(data["drawing"], data["svg"], tuple((code, facts) for code, facts in issues),
                      tuple(data["missing"]), data["text_keys"], data["texts"], data["art"], data["sha"],
                      tuple(data["size"]))


def _size(value: Any) -> bool:
    if type(value) is not list or len(value) != 2:
        return False
    width, height = value
    return type(width) in (int, float) and type(height) in (int, float) and width > 0 and height > 0


def _parsed_face(text: str) -> CachedFace | None:
    """An index line's entry (its JSON text), checked; None when it is not one."""
    try:
        return parse_face(json.loads(text), FORMAT)
    except (ValueError, RecursionError):
        return None


# Face entries parsed in this process (pnp.keptparses), by their line's text (the faces of one
# drawing, a deck's 950 backs, have one entry text under as many keys; a line is short to hash): a
# rebuild in the same process (pnp build --watch, the server) reads ~1,900 index lines again. Only a line
# read from an index is kept: a face this build drew is stored as its JSON text, unparsed, so the
# first rebuild after a full build still parses every line (parsing them as they are stored would
# move that cost into the full build, not save it). ~320 characters a line: about 4,700 faces.
PARSED: KeptParses[CachedFace] = KeptParses(_parsed_face, limit=1_500_000)


@dataclass
class FaceCache:
    """One build's view of the cache folder: lookups, stores and what they did."""

    folder: Path = field(default_factory=default_folder)
    limit: int = MAX_FACE_CACHE_BYTES
    hits: int = 0
    drawn: list[str] = field(default_factory=list)     # "card:side" of every face drawn (a miss)
    broken: int = 0                                    # entries that did not read: ignored, redrawn
    unwritable: str = ""                               # why the cache could not be written (once)
    streams_reused: int = 0                            # PDF forms and pages written from the cache (pnp.sheets.pdfparts)
    _read_faces: dict[str, dict[str, str]] = field(default_factory=dict)   # index -> face -> its entry's text as read
    _read_drawings: dict[str, dict[str, Any]] = field(default_factory=dict)
    _faces: dict[str, dict[str, tuple[str, str]]] = field(default_factory=dict)   # index -> face -> (drawing,
                                                       # its entry's JSON text) used or made now
    _drawings: dict[str, dict[str, Any]] = field(default_factory=dict)  # index -> their drawings
    _changed: set[str] = field(default_factory=set)    # indexes with new entries, to write

    def _path(self, index: str) -> Path:
        return self.folder / index[:2] / f"{index}{INDEX}"

    def _drawings_path(self, index: str) -> Path:
        return self.folder / index[:2] / f"{index}{DRAWINGS}"

    def _load(self, index: str) -> None:
        """Read one index (a pack in a language, see the module doc) once a build; a file that
        does not parse, or is not an index, counts as empty."""
        if index in self._read_faces:
            return
        path = self._path(index)
        faces = read_keyed_lines(path, _INDEX_HEADER)       # face key -> its entry's JSON text
        drawings: dict[str, str] = {}
        if faces is None:
            self.broken += 1
            faces = {}
        elif faces:
            mark_used(path)                                 # the eviction order
            try:
                drawings = read_drawings(self._drawings_path(index))
            except ValueError:
                self.broken += 1
                faces = {}
        self._read_faces[index], self._read_drawings[index] = faces, drawings
        self._faces[index], self._drawings[index] = {}, {}

    def face(self, index: str, key: str) -> CachedFace | None:
        """The entry of face `key` in `index`, None when there is none (or it does not read)."""
        self._load(index)
        text = self._read_faces[index].get(key)
        if text is None:
            return None
        found = PARSED.get(text, text)       # by the text: the faces of one drawing share it (a deck's backs)
        if found is None:
            self.broken += 1
            return None
        self._faces[index][key] = (found.drawing_id, text)      # written back as it was read
        return found

    def drawing(self, index: str, drawing_id: str) -> Any:
        """A drawing's data (decoded by pnp.render.facedata), None when the index has none or it
        does not parse. The index holds each drawing as JSON text, parsed only when a face needs
        it: a string takes a fraction of the memory of the lists it parses to."""
        text = self.text_of(index, drawing_id)
        if text is None:
            return None
        try:
            return json.loads(text)
        except (ValueError, RecursionError):
            return None

    def text_of(self, index: str, drawing_id: str) -> str | None:
        """A drawing's JSON text as this build stored it or the index held it (then kept for
        `save`: a face uses it); None when there is none."""
        self._load(index)
        text = self._drawings[index].get(drawing_id)
        if text is None:
            text = self._read_drawings[index].get(drawing_id)
            if not isinstance(text, str):
                return None
            self._drawings[index][drawing_id] = text
        return _text(text)

    def discard(self, index: str, drawing_id: str) -> None:
        """Forget a drawing that did not read back (the face drawn again replaces it)."""
        self.broken += 1
        self._read_drawings[index].pop(drawing_id, None)
        self._drawings[index].pop(drawing_id, None)

    def store(self, index: str, key: str, entry: dict, drawing_id: str, drawing: str | bytes | None) -> None:
        """Keep a face drawn by this build, for `save`: its entry (with the `sha` of its drawing's
        text) and its drawing, the JSON text `drawing_text` writes or that text zlib-compressed
        (a PackedFace's bytes, shared: not held twice), or None when it is stored already. The
        entry is kept as its JSON text (a line of the index, which JSON's escapes keep on one
        line): a few hundred bytes rather than a tree of dicts."""
        self._load(index)
        self._faces[index][key] = (drawing_id, json.dumps({"drawing": drawing_id, **entry}, ensure_ascii=False,
                                                          separators=(",", ":")))
        if drawing is not None:
            self._drawings[index][drawing_id] = drawing
        self._changed.add(index)

    def save(self) -> None:
        """Write each index this build changed, holding the faces it used (an entry no face asked
        for this time is a card since changed or removed: left out, so an index does not grow).
        A cache that cannot be written does not fail the build: the first reason is kept in
        `unwritable`, for a warning."""
        from pnp.outputfiles import atomic_path

        for index, faces in self._faces.items():
            if self.unwritable or not (index in self._changed or len(faces) != len(self._read_faces[index])):
                continue
            read = self._read_drawings[index]
            drawings = {**read, **self._drawings[index]}
            used = sorted({d for d, _e in faces.values()} & drawings.keys())
            try:
                path = self._path(index)
                path.parent.mkdir(parents=True, exist_ok=True)
                if used != sorted(read) or any(d not in read for d in self._drawings[index]):
                    with atomic_path(self._drawings_path(index)) as tmp, open(tmp, "w", encoding="utf-8") as out:
                        out.write(_DRAWINGS_HEADER)
                        for d in used:                      # the texts as read or made: not encoded again
                            out.write(f"{d} {_text(drawings[d])}\n")
                with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8") as out:
                    out.write(_INDEX_HEADER)
                    for key, (_d, entry) in sorted(faces.items()):   # line by line, not one string
                        out.write(f"{key} {entry}\n")
            except OSError as error:
                self.unwritable = f"{self.folder}: {error.strerror or error}"
        # what was read and drawn is in the faces now (and on disk): not kept while the PDF is written
        self._changed.clear()
        self._read_faces, self._read_drawings, self._faces, self._drawings = {}, {}, {}, {}

    def trim(self) -> int:
        """Remove the entries used longest ago until the folder holds at most `limit` bytes (and
        temp files a killed build left behind); returns the number of files removed."""
        files = []
        total = 0
        now = time.time()
        removed = 0
        for path in self.folder.glob("*/*"):
            try:
                stat = path.stat()
            except OSError:
                continue
            if path.name.endswith(".tmp"):
                if now - stat.st_mtime > 3600:          # a build killed while writing it
                    removed += _unlink(path)
                continue
            files.append((stat.st_atime, path.name, stat.st_size, path))
            total += stat.st_size
        if total <= self.limit:
            return removed
        files.sort()                                    # oldest access first (name: a stable tie-break)
        for _atime, _name, size, path in files:
            if total <= self.limit:
                break
            removed += _unlink(path)
            total -= size
        return removed


INDEX = ".faces"
DRAWINGS = ".drawings"
_INDEX_HEADER = '{"format":%d,"of":"faces"}\n' % FORMAT
_DRAWINGS_HEADER = '{"format":%d}\n' % FORMAT


def read_drawings(path: Path) -> dict[str, str]:
    """An index's drawings file: drawing id -> its JSON text, as written (each face checks the
    text it uses against its entry's `sha`); {} when the file is missing; ValueError when it is
    not a drawings file of this FORMAT. A line a drawing (`read_keyed_lines`). Apart from the
    faces' entries: a rebuild parses the entries, a few hundred bytes a face, and keeps the
    drawings as text, parsed only for a face whose PDF form is drawn again."""
    drawings = read_keyed_lines(path, _DRAWINGS_HEADER)
    if drawings is None:
        raise ValueError("not a drawings file")
    mark_used(path)                          # the eviction order, as its index (a missing file: nothing)
    return drawings


def read_keyed_lines(path: Path, header: str) -> dict[str, str] | None:
    """A cache file of a first line `header` (its format), then a line an item: its key, a space
    and its JSON text (which holds no line break), kept as text: key -> text. {} when the file
    is missing; None when it cannot be read or is not of that format. The face cache's drawings
    and the cards PDF's kept streams (pnp.sheets.pdfparts) are written so."""
    try:
        text = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError):
        return None
    lines = text.split("\n")
    if lines[0] + "\n" != header:
        return None
    items = {}
    for line in lines[1:]:
        key, _, item = line.partition(" ")
        if key and item:
            items[key] = item
    return items


def mark_used(path: Path) -> None:
    """Date a cache file's access now (its modification date kept): `trim` removes the files
    used longest ago first."""
    try:
        os.utime(path, ns=(time.time_ns(), os.stat(path).st_mtime_ns))
    except OSError:
        pass


def _unlink(path: Path) -> int:
    try:
        path.unlink()
        return 1
    except OSError:
        return 0
