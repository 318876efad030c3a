"""The PDF streams of a previous build, reused: a rebuild after one card changed writes the other
faces' forms and the other sheets' pages from the face cache instead of drawing them again.

    parts = PdfParts.open(folder, document)   # the streams the last build of this document wrote
    parts.form(canvas, name, drawing)         # define form `name`: reused, or drawn and kept
    parts.page(canvas, key, draw)             # end the page: reused, or drawn by draw() and kept
    parts.save()                              # the streams this build used, for the next one
                                              # (written as they come; parts.discard() if it fails)

A form's or page's content stream is a function of its own inputs (the face drawing's content
address, the sheet's geometry, texts and form names: the entry's key) and of one thing the
document decides: which code each character gets in ReportLab's TrueType subsets, and the
subsets' names (`/F2+0`); drawing may also raise the document's PDF version (transparency).
ReportLab numbers characters in order of first use, so a stream's bytes depend on what was drawn
before it. Each entry therefore records what the stream asked of the fonts while it was drawn
(`_fonts_of`): per font its characters, each once in order of first use, with the code each
got, and the subset names it asked for with their answers. Reusing it (`replay`) first checks
those answers against the document as it is now: the characters the document has coded must
have the recorded codes, and those it has not are split in the recorded order (which gives them
the codes drawing would) and must then have theirs. Only when every answer holds is the stored
stream written, and the calls' effects kept; otherwise the fonts are put back as they were and
the face or page is drawn as usual. Either way the PDF is byte for byte the PDF of a build
without the cache (tests/test_facecache.py, tests/test_pdfparts.py). A check is a dictionary
lookup per character: a rebuild checks ~1,200 streams.

Streams whose drawing adds other objects to the document (images, transparency, gradients,
colour spaces, a font first registered while drawing) are always drawn: their entries are not
kept. The file is plain JSON text, a line an entry under a line with its format number
(`read_entries`), one per document, in the face cache folder; one that does not read is
ignored, an entry that does not parse is drawn again, and every stream read back is checked
against its hash.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from reportlab import Version as REPORTLAB_VERSION
from reportlab import rl_config
from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfbase.pdfdoc import PDF_SUPPORT_VERSION

from pnp.facecache import is_str_list, mark_used, read_keyed_lines
from pnp.keptparses import KeptParses

FORMAT = 2               # 2: font calls as characters with their codes (_fonts_of), a line an entry
SUFFIX = ".parts"        # not .json: the face cache's index files are the *.json ones
_SHEETS = Path(__file__).resolve().parent


class Applied:
    """A stream filter already applied: names itself, changes nothing (see pdfwriter._encode_now)."""

    def __init__(self, pdfname: str):
        self.pdfname = pdfname

    def encode(self, text):
        return text


@lru_cache(maxsize=None)
def _applied(name: str) -> Applied:
    """One Applied per filter name, shared by every stream (thousands of pages and forms)."""
    return Applied(name)


def set_encoded_stream(obj: Any, content: str | bytes, filters: list[str], comment: str,
                       stream: pdfdoc.PDFStream | None = None) -> None:
    """Give a page or form object its content stream, already encoded with `filters` (PDF names);
    `stream`: the PDFStream to carry it (default a plain one, made here)."""
    if stream is None:
        stream = pdfdoc.PDFStream(content=content, filters=[_applied(name) for name in filters])
    stream.__Comment__ = comment
    obj.Contents, obj.stream, obj.compression = stream, None, 0


def add_empty_form(canvas: Any, name: str, width: float, height: float) -> Any:
    """canvas.beginForm(name, 0, 0, width, height); canvas.endForm(): the form object of a form
    nothing is drawn in (its stream is set afterwards), added to the document; returned. Between
    pages, as the cards PDF defines its forms (no page code, form or forms in use pending), this
    does what those calls do without the graphics state they save, reset and put back (which
    nothing drawn changes): the same object, with the same attributes, and the canvas's
    accumulators restarted: 3 us a form instead of 20 (a rebuild reuses ~1,000 forms).
    tests/test_pdfparts.py compares both ways' objects and canvases."""
    if canvas._code or canvas._formData is not None or canvas._codeStack or canvas._formsinuse:   # noqa: SLF001
        canvas.beginForm(name, 0, 0, width, height)
        canvas.endForm()
    else:
        form = pdfdoc.PDFFormXObject(lowerx=0, lowery=0, upperx=width, uppery=height)
        form.compression = canvas._pageCompression               # noqa: SLF001  (endForm's, in its order)
        form.setStreamList([canvas._preamble])                   # noqa: SLF001  (nothing drawn after it)
        form._colorsUsed = canvas._colorsUsed                    # noqa: SLF001
        form.ExtGState = None                                    # a fresh graphics state's: none
        form.XObjects = None                                     # no forms in use
        form.Annots = canvas._annotationrefs                     # noqa: SLF001
        canvas._doc.addForm(name, form)                          # noqa: SLF001
        canvas._restartAccumulators()                            # noqa: SLF001
    doc = canvas._doc                                            # noqa: SLF001
    return doc.idToObject[doc.getXObjectName(name)]


def dynamic_fonts() -> list[Any]:
    """The registered TrueType fonts that subset, each once (one may be registered under several
    names), by name."""
    fonts = {id(f): f for f in list(pdfmetrics._fonts.values()) if getattr(f, "_dynamicFont", 0)}   # noqa: SLF001
    return sorted(fonts.values(), key=lambda f: f.fontName)


class FontCalls:
    """Records, while open, every subset call on the registered TrueType fonts: ("s", font, text)
    for splitString, ("n", font, subset) for getSubsetInternalName, and ("v", "", keys) for the
    document's ensureMinPdfVersion (transparency: PDF 1.4); what they answered is read off the
    fonts afterwards (`_fonts_of`)."""

    def __init__(self, doc: Any):
        self.doc = doc
        self.calls: list[list] = []           # [kind, font, argument]
        # each font once: one may be registered under several names
        self.fonts = dynamic_fonts()
        self.registered = set(pdfmetrics._fonts)                                                  # noqa: SLF001
        self.mapped = set(doc.fontMapping)
        self.objects = doc.objectcounter        # images, shadings, graphics states add objects

    def __enter__(self) -> FontCalls:
        calls = self.calls
        for font in self.fonts:
            split, name = font.splitString, font.getSubsetInternalName

            def recording_split(text, doc, encoding="utf-8", _split=split, _font=font.fontName):
                calls.append(["s", _font, str(text)])
                return _split(text, doc, encoding)

            def recording_name(subset, doc, _name=name, _font=font.fontName):
                calls.append(["n", _font, subset])
                return _name(subset, doc)

            font.splitString, font.getSubsetInternalName = recording_split, recording_name
        ensure = self.doc.ensureMinPdfVersion

        def recording_version(*keys: str) -> None:      # transparency makes the document PDF 1.4
            calls.append(["v", "", list(keys)])
            ensure(*keys)

        self.doc.ensureMinPdfVersion = recording_version
        return self

    def __exit__(self, *exc: object) -> None:
        for font in self.fonts:
            del font.splitString, font.getSubsetInternalName   # the class's methods again
        del self.doc.ensureMinPdfVersion

    def clean(self, objects: int) -> bool:
        """Nothing changed in the document but through the calls seen and `objects` new objects
        (the form or page itself): no font registered, none named otherwise."""
        named = {call[1] for call in self.calls if call[0] == "n"}
        fonts = {f.fontName for f in self.fonts}
        new = set(self.doc.fontMapping) - self.mapped
        return (set(pdfmetrics._fonts) == self.registered and new <= named and new <= fonts   # noqa: SLF001
                and self.doc.objectcounter - self.objects <= objects)


def _fonts_of(calls: list[list], doc: Any) -> tuple[list[list], list[list], list[list[str]]]:
    """What a stream just drawn asked of the document, each thing once: per font (in order of
    first use) its characters in order of first use with the code each has now, each subset
    name asked with its answer (in order), and each set of ensureMinPdfVersion keys. A font's
    subsets give a character its code the first time it is split and name the font the first
    time a subset name is asked for, so making these calls again, in this order, leaves the
    fonts as drawing did; and their answers are every code and name the stream's bytes hold."""
    chars: dict[str, dict[str, None]] = {}
    names: list[list] = []
    versions: list[list[str]] = []
    for kind, font, arg in calls:
        if kind == "s":                            # a no-break space is split as a space
            chars.setdefault(font, {}).update(dict.fromkeys(arg.replace("\xa0", " ")))
        elif kind == "n":
            if not any(n[0] == font and n[1] == arg for n in names):
                names.append([font, arg, pdfmetrics.getFont(font).getSubsetInternalName(arg, doc)])
        elif arg not in versions:
            versions.append(arg)
    fonts = []
    for font, seen in chars.items():
        text = "".join(seen)
        fonts.append([font, text, subset_codes(pdfmetrics.getFont(font).state[doc].assignments, text)])
    return fonts, names, versions


def subset_codes(assignments: dict[int, int], text: str) -> str:
    """The code each character of `text` has in a font's subsets, as a string of those code
    points (str.translate: one C loop); a character the font lacks, which has no code (splitString
    gives it 0, always), stays itself."""
    return text.translate(assignments)


def replay(entry: dict, doc: Any) -> bool:
    """Make an entry's font calls (`_fonts_of`) on this document when they answer as recorded:
    split the characters its fonts have not coded yet, in its order, ask its subset names, raise
    the PDF version. True when every character got the code, and every subset the name, the
    stream's bytes hold; otherwise (or for an entry that does not read: a font not registered,
    a malformed entry) False, and the document's fonts are as they were (the stream is drawn,
    making its own calls): nothing an entry says changes the document unless it holds."""
    fonts, names, versions = entry.get("fonts"), entry.get("names"), entry.get("version")
    if not (isinstance(fonts, list) and isinstance(names, list) and isinstance(versions, list)):
        return False
    undo: list[tuple[Any, Any]] = []               # (font, its state before) for every font split
    try:
        for font_name, text, codes in fonts:
            font = pdfmetrics.getFont(font_name)
            if not (getattr(font, "_dynamicFont", 0) and isinstance(text, str) and isinstance(codes, str)):
                return _undo(undo, doc)
            state = font.state.get(doc)
            assigned = state.assignments if state is not None else {}
            fresh = set(map(ord, text)).difference(assigned)     # not coded yet (usually none)
            if fresh:
                glyphs = font.face.charToGlyph
                new = [c for c in text if (o := ord(c)) in fresh and (o in glyphs or o == 0xA0)]
                if new:
                    undo.append((font, None if state is None else
                                 (state.assignments.copy(), [list(s) for s in state.subsets], state.nextCode)))
                    font.splitString("".join(new), doc)
                    assigned = font.state[doc].assignments
            if subset_codes(assigned, text) != codes:
                return _undo(undo, doc)
        naming: dict[int, str] = {}                # fonts these calls name first, as ReportLab names them
        for font_name, subset, answer in names:
            font = pdfmetrics.getFont(font_name)
            state = font.state.get(doc)
            if not (getattr(font, "_dynamicFont", 0) and type(subset) is int and state is not None
                    and 0 <= subset < len(state.subsets)):
                return _undo(undo, doc)
            internal = state.internalName or naming.setdefault(
                id(font), f"{state.namePrefix}{len(doc.fontMapping) + len(naming) + 1}")
            if f"/{internal}+{subset}" != answer:
                return _undo(undo, doc)
        if not all(isinstance(keys, list) and all(isinstance(k, str) and k in PDF_SUPPORT_VERSION for k in keys)
                   for keys in versions):
            return _undo(undo, doc)
    except (KeyError, ValueError, TypeError, IndexError):
        return _undo(undo, doc)
    for font_name, subset, _answer in names:      # every answer holds: name them as drawing would
        font = pdfmetrics.getFont(font_name)
        if font.state[doc].internalName is None:   # (once named, asking changes nothing)
            font.getSubsetInternalName(subset, doc)
    for keys in versions:
        doc.ensureMinPdfVersion(*keys)
    return True


def _undo(undo: list[tuple[Any, Any]], doc: Any) -> bool:
    """Put back the fonts' states `replay` changed; False (what it then answers)."""
    for font, before in reversed(undo):
        if before is None:
            del font.state[doc]
        else:
            state = font.state[doc]
            state.assignments, state.subsets, state.nextCode = before
    return False


def kept_entry(recorder: FontCalls, obj: Any, objects: int, **extra: Any) -> dict | None:
    """The entry of a form's or page's stream just drawn while `recorder` listened: its font
    calls (`_fonts_of`), its stream and filters, and `extra`; None when drawing changed the
    document in other ways than those calls and `objects` new objects (not kept)."""
    contents = obj.Contents
    if contents is None or not recorder.clean(objects):
        return None
    content = contents.content
    text = content.decode("latin-1") if isinstance(content, bytes) else content
    fonts, names, versions = _fonts_of(recorder.calls, recorder.doc)
    return {"fonts": fonts, "names": names, "version": versions, "stream": text, "sha": _sha(text),
            "binary": isinstance(content, bytes), "filters": [f.pdfname for f in contents.filters or ()], **extra}


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("latin-1")).hexdigest()[:32]


def _digest(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _code_digest() -> str:
    """The code a stream's bytes come from, besides pnp.facecache.code_digest (drawing code)."""
    from pnp.facecache import code_digest, file_digest, fonts_digest

    sheets = sorted((p.name, file_digest(p)) for p in _SHEETS.glob("*.py"))
    return _digest(FORMAT, code_digest(), fonts_digest(), sheets, REPORTLAB_VERSION, rl_config.useA85)


class _FormResources(pdfdoc.PDFResourceDictionary):
    """The resources ReportLab gives a form that names none (its fonts and every ProcSet, see
    PDFFormXObject.format), formatted once per document: a rebuild reuses about a thousand face
    forms, and formatting each one's copy of this dictionary was a twentieth of its time."""

    def __init__(self) -> None:
        super().__init__()
        self.basicFonts()
        self.allProcs()
        self._formatted: bytes | None = None

    def format(self, document: Any) -> bytes:
        if self._formatted is None:
            self._formatted = super().format(document)
        return self._formatted


class _KeptStream(pdfdoc.PDFStream):
    """A reused form's or page's stream, formatted as PDFStream.format formats it, but with the
    dictionary text shared by every stream of the same `shape` (a form's box and filters, a
    page's filters: the dictionary is the same but for its /Length: formatted once, with a
    stand-in length, and the length put in). The forms' dictionaries were a tenth of a one-card
    rebuild."""

    _LENGTH = 987654321              # a stand-in no dictionary text holds otherwise (exact as a float:
                                     # ReportLab writes numbers through one)

    def __init__(self, content: str | bytes, filters: list[str], shape: tuple, shared: dict[tuple, list[bytes]]):
        super().__init__(content=content, filters=[_applied(name) for name in filters])
        self.shape, self.shared = shape, shared

    def format(self, document: Any) -> bytes:
        halves = self.shared.get(self.shape)
        if halves is None:
            dictionary = pdfdoc.PDFDictionary(self.dictionary.dict.copy())
            dictionary["Filter"] = pdfdoc.PDFArray([pdfdoc.PDFName(f.pdfname) for f in self.filters])
            dictionary["Length"] = self._LENGTH
            halves = pdfdoc.format(dictionary, document).split(b"/Length " + pdfdoc.format(self._LENGTH, document))
            if len(halves) != 2:
                return super().format(document)
            self.shared[self.shape] = halves
        content = document.encrypt.encode(self.content)
        return (halves[0] + b"/Length " + pdfdoc.format(len(content), document) + halves[1] + b"\nstream\n"
                + pdfdoc.format(content, document) + b"endstream\n")


class PdfParts:
    """The reusable streams of one document (see the module doc)."""

    def __init__(self, path: Path | None, entries: dict[str, str]):
        self.path = path
        self._read = entries                  # key -> entry, its JSON text as read (read_entries)
        self._written = 0                     # entries used or made by this build, written to _out
        self._out: Any = None                 # the next file's temporary, written as entries come
        self.error = ""                       # why it could not be written
        self._context = ""
        self.reused = 0                       # streams written from the cache
        self._form_resources = _FormResources()   # what every reused form's dictionary names
        self._dictionaries: dict[tuple, list[bytes]] = {}   # _KeptStream's, by shape
        self.drawn = 0                        # streams drawn (and kept when they may be)
        self._room = FIRST_BUILD_KEPT         # characters of new entries a first build may keep (_use)
        self.sequence = hashlib.sha256()      # the keys written, in order (pnp.sheets.pdfsplice)
        self.page_keys: list[str] = []        # each page's key, in order (pnp.sheets.pdfsplice)

    @classmethod
    def open(cls, folder: Path, document: str) -> PdfParts:
        """The streams last kept for `document` (a name unique to the PDF: its pack and file)."""
        name = hashlib.sha256(document.encode()).hexdigest()
        path = folder / name[:2] / f"{name}{SUFFIX}"
        entries = read_entries(path)
        if entries:
            mark_used(path)                   # the eviction order
        return cls(path, entries)

    def page_key(self, canvas: Any, number: int, page_size: tuple[float, float], inputs: Any) -> str:
        """The key `page` gives page `number` (1-based) of `page_size` drawn from `inputs`."""
        return self._key(canvas, "page", number, page_size, inputs)

    def form_key(self, canvas: Any, drawing: Any) -> str:
        """The key `form` gives the form of `drawing` (a PackedFace with a cache_id)."""
        return self._key(canvas, "form", drawing.cache_id, drawing.width, drawing.height)

    def _key(self, canvas: Any, *parts: Any) -> str:
        if not self._context:
            self._context = _code_digest()
        # parts are strings, numbers and lists of them: repr writes each unambiguously (exactly, floats)
        text = f"{self._context}\0{canvas._preamble}\0{parts!r}"   # noqa: SLF001
        return hashlib.sha256(text.encode()).hexdigest()

    def _reusable(self, key: str, doc: Any) -> dict | None:
        """The entry of `key` if its stream's bytes hold in this document now (its font calls
        then made, `replay`); None otherwise, the document unchanged."""
        text = self._read.get(key)
        entry = KEPT.get(key, text) if text is not None else None
        if entry is None or not replay(entry, doc):
            return None
        return entry

    def _keep(self, key: str, recorder: FontCalls, obj: Any, objects: int, **extra: Any) -> None:
        entry = kept_entry(recorder, obj, objects, **extra)
        if entry is not None:
            self._use(key, entry)

    @staticmethod
    def _content(entry: dict) -> str | bytes:
        """A kept stream's content as ReportLab would write it: bytes, which it writes as they are
        (a str it encodes, each time, with its PDFDocEncoding codec, a Python charmap: ASCII
        but for U+0018-U+001F, which that codec refuses and no ASCII85 text holds)."""
        text = entry["stream"]
        if entry.get("binary"):
            return text.encode("latin-1")
        return text.encode("ascii") if text.isascii() and not _PDFDOC_ONLY.search(text) else text

    # ---------------------------------------------------------------- forms

    def form(self, canvas: Any, name: str, drawing: Any, define: Callable[[], None]) -> None:
        """Define form `name` of `drawing` (a PackedFace with a cache_id): its stream as kept, or
        `define()` (which draws and compresses it) while its font calls are recorded."""
        doc = canvas._doc   # noqa: SLF001
        key = self.form_key(canvas, drawing)
        entry = self._reusable(key, doc)
        if entry is not None:
            form = add_empty_form(canvas, name, drawing.width, drawing.height)
            content, shape = self._content(entry), (form.lowerx, form.lowery, form.upperx, form.uppery,
                                                    tuple(entry["filters"]))
            set_encoded_stream(form, content, entry["filters"], "xobject form stream",
                               _KeptStream(content, entry["filters"], shape, self._dictionaries))
            form.Resources = self._form_resources      # a kept form names none (see _keep's caller)
            self._use(key, entry, self._read[key])
            self.reused += 1
            return
        with FontCalls(doc) as recorder:
            define()
        self.drawn += 1
        form = doc.idToObject[doc.getXObjectName(name)]
        if form.Resources is None and not form.XObjects and not getattr(form, "_colorsUsed", None):
            self._keep(key, recorder, form, 1)

    # ---------------------------------------------------------------- pages

    def page(self, canvas: Any, inputs: Any, page_size: tuple[float, float], draw: Callable[[], list[str]]) -> list[str]:
        """End the current page, whose content is a function of `inputs` (JSON data: everything
        the page's drawing reads): its stream as kept, or `draw()` (which draws the page, shows
        and compresses it, returning its warnings) while its font calls are recorded. Returns the
        page's warnings."""
        doc = canvas._doc   # noqa: SLF001
        key = self.page_key(canvas, canvas.getPageNumber(), page_size, inputs)
        self.page_keys.append(key)
        entry = self._reusable(key, doc)
        if entry is not None and is_str_list(entry.get("xobjects")) and is_str_list(entry.get("warnings")):
            canvas.setPageSize(page_size)
            canvas._formsinuse = list(entry["xobjects"])   # noqa: SLF001  (what the page's doForm calls list)
            canvas.showPage()
            page = doc.Pages.pages[-1]
            page.hasImages = bool(entry.get("images"))
            content = self._content(entry)
            set_encoded_stream(page, content, entry["filters"], "page stream",
                               _KeptStream(content, entry["filters"], ("page", *entry["filters"]), self._dictionaries))
            self._use(key, entry, self._read[key])
            self.reused += 1
            return list(entry["warnings"])
        forms: list[str] = []
        original = canvas.showPage

        def show() -> None:                        # the forms the page drew, as showPage sees them
            forms.extend(canvas._formsinuse)       # noqa: SLF001
            original()

        canvas.showPage = show
        try:
            with FontCalls(doc) as recorder:
                warnings = draw()
        finally:
            del canvas.showPage
        self.drawn += 1
        page = doc.Pages.pages[-1]
        if not (page._colorsUsed or page.ExtGState or page._shadingUsed or page.Annots):   # noqa: SLF001
            self._keep(key, recorder, page, 1, xobjects=forms, warnings=warnings, images=bool(page.hasImages))
        return warnings

    # ---------------------------------------------------------------- the whole file again

    def has(self, key: str) -> bool:
        """The streams file read holds an entry of `key`."""
        return key in self._read

    def read_sequence(self) -> str:
        """The digest of the keys read, in the file's order (as `sequence` digests those written)."""
        return hashlib.sha256("".join(f"{key}\n" for key in self._read).encode()).hexdigest()

    def write_again(self, replaced: dict[str, tuple[str, dict] | None], added: list[tuple[str, dict]]) -> None:
        """Use every entry read, in the file's order, as it was read; for a key of `replaced`
        (old key -> new key and entry, or None: not kept) that instead; then the `added` entries
        (pnp.sheets.pdfsplice: the same streams but for faces drawn anew)."""
        for key, text in self._read.items():
            if key not in replaced:
                self._use(key, {}, text)
                self.reused += 1
            elif (new := replaced[key]) is not None:
                self._use(*new)
        for key, entry in added:
            self._use(key, entry)
        self.drawn += len(replaced) + len(added)

    # ---------------------------------------------------------------- file

    def _use(self, key: str, entry: dict, text: str | None = None) -> None:
        """Write an entry this build used (`text`: its line as read) or made to the next file (in
        drawing order; nothing of it is held but in KEPT: the streams are the PDF's own, kept by
        ReportLab until it is saved)."""
        if self.path is None or self.error:
            return
        try:
            if self._out is None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._out = open(self._temporary(), "w", encoding="utf-8")   # noqa: SIM115  (closed by save/discard)
                self._out.write(_HEADER)
            if text is None:
                text = json.dumps(entry, ensure_ascii=False, separators=(",", ":"))    # one line: no indent
                if self._read or len(text) <= self._room:    # kept (KEPT): _keep's entry is
                    KEPT.keep(key, text, entry)              # what the text reads back as
                    if not self._read:                       # a first build: up to FIRST_BUILD_KEPT
                        self._room -= len(text)
            self._out.write(f"{key} {text}\n")
            self._written += 1
            self.sequence.update(f"{key}\n".encode())
        except OSError as error:
            self.error = f"{self.path}: {error.strerror or error}"
            self.discard()

    def _temporary(self) -> Path:
        assert self.path is not None
        return self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")   # trim() removes one left behind

    def discard(self) -> None:
        """Forget the next file (a build that failed)."""
        if self._out is not None:
            self._out.close()
            self._out = None
            Path(self._temporary()).unlink(missing_ok=True)

    def save(self) -> str:
        """Put the next file in place: the streams this build used (those of faces since changed
        drop out); "" or why it could not be written (the build goes on: the face cache reports it)."""
        if self._out is None:
            return self.error
        try:
            self._out.close()
            self._out = None
            if self._written == len(self._read) and not self.drawn:    # the same entries: leave the file
                Path(self._temporary()).unlink(missing_ok=True)
            else:
                os.replace(self._temporary(), self.path)    # type: ignore[arg-type]
        except OSError as error:
            self.error = f"{self.path}: {error.strerror or error}"
            self.discard()
        return self.error


_HEADER = '{"format":%d}\n' % FORMAT
_PDFDOC_ONLY = re.compile("[\x18-\x1f]")     # ASCII characters PDFDocEncoding gives other bytes (breve...)


def _entry(text: str) -> dict | None:
    """The entry a streams file's line holds (its JSON `text`), when it reads as one: a stream
    whose hash matches and its filters' names; None otherwise."""
    try:
        entry = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(entry, dict):
        return None
    stream, filters = entry.get("stream"), entry.get("filters")
    if (not isinstance(stream, str) or entry.get("sha") != _sha(stream) or not isinstance(filters, list)
            or not all(isinstance(f, str) for f in filters)):
        return None
    return entry


# Entries read or made in this process (pnp.keptparses), by key: the next rebuild in the same
# process (pnp build --watch, the server's preview) reads the same lines again, and decoding and
# checking a thousand entries was a sixth of the cards PDF's time. A build that read a streams
# file keeps what it reads and makes; a first build (nothing read) keeps what it makes up to
# FIRST_BUILD_KEPT characters, about one document of 1,000 cards (so the first rebuild of
# `--watch` finds them), not all of a 10,000-card one (its peak would grow by ~12 MB).
KEPT: KeptParses[dict] = KeptParses(_entry, limit=4_000_000)     # ~3 documents of 1,000 cards, ~10 MB
FIRST_BUILD_KEPT = 1_500_000


def read_entries(path: Path) -> dict[str, str]:
    """A streams file's entries, key -> the entry's JSON text (parsed when the entry is used);
    {} for a file that is missing or not of this FORMAT. The file is a line of JSON with its
    format, then a line per entry: its key (64 hex digits), a space and the entry as JSON
    (pnp.facecache.read_keyed_lines). A rebuild writes the lines of the entries it reuses as
    they were read, without decoding and encoding them again."""
    entries = read_keyed_lines(path, _HEADER) or {}
    return {key: entry for key, entry in entries.items() if len(key) == 64}


def write_entries(path: Path, entries: dict[str, dict]) -> None:
    """Write `entries` (key -> entry) as read_entries reads them (tests make damaged files)."""
    path.write_text(_HEADER + "".join(f"{key} {json.dumps(entry, ensure_ascii=False, separators=(',', ':'))}\n"
                                      for key, entry in entries.items()), encoding="utf-8")
