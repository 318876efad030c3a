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
subsets' names (`/F2+0`); drawing may also raise the document's PDF version (transparency). ReportLab numbers characters in order of first use, so a stream's
bytes depend on what was drawn before it. Each entry therefore records the font calls the
stream made while it was drawn (TTFont.splitString and getSubsetInternalName, in order, with
what they answered; each character and subset name once, `_condensed`). Reusing it replays those calls: the document's font state becomes exactly
what drawing would have made it, and the answers show whether the stream's bytes would be the
same. Only then is the stored stream written; otherwise the face or page is drawn as usual
(its calls, replayed already, change nothing more). Either way the PDF is byte for byte the PDF
of a build without the cache (tests/test_facecache.py).

Streams whose drawing adds other objects to the document (images, transparency, gradients,
colour spaces, a font first registered while drawing) are always drawn: their entries are not
kept. The file is plain JSON with a format number, one per document, in the face cache folder;
one that does not read is ignored, and every stream read back is checked against its hash.
"""
from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from reportlab import Version as REPORTLAB_VERSION
from reportlab import rl_config
from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfbase.pdfdoc import PDF_SUPPORT_VERSION

FORMAT = 1
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


class _FontCalls:
    """Records, while open, every subset call on the registered TrueType fonts: ("s", font, text)
    for splitString, ("n", font, subset) for getSubsetInternalName, and their answers; and
    ("v", "", keys) for the document's ensureMinPdfVersion (transparency: PDF 1.4)."""

    def __init__(self, doc: Any):
        self.doc = doc
        self.calls: list[list] = []           # [kind, font, argument]
        self.answers: list = []               # what each call answered
        # each font once: one may be registered under several names
        self.fonts = list({id(f): f for f in pdfmetrics._fonts.values() if getattr(f, "_dynamicFont", 0)}.values())  # noqa: SLF001
        self.registered = set(pdfmetrics._fonts)                                                  # noqa: SLF001
        self.mapped = set(doc.fontMapping)
        self.objects = doc.objectcounter        # images, shadings, graphics states add objects

    def __enter__(self) -> _FontCalls:
        calls, answers = self.calls, self.answers
        for font in self.fonts:
            split, name = font.splitString, font.getSubsetInternalName

            def recording_split(text, doc, encoding="utf-8", _split=split, _font=font.fontName):
                answer = _split(text, doc, encoding)
                calls.append(["s", _font, str(text)])
                answers.append(_answer(answer))
                return answer

            def recording_name(subset, doc, _name=name, _font=font.fontName):
                answer = _name(subset, doc)
                calls.append(["n", _font, subset])
                answers.append(answer)
                return answer

            font.splitString, font.getSubsetInternalName = recording_split, recording_name
        ensure = self.doc.ensureMinPdfVersion

        def recording_version(*keys: str) -> None:      # transparency makes the document PDF 1.4
            calls.append(["v", "", list(keys)])
            answers.append(None)
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


def _answer(split: list[tuple[int, bytes]]) -> list:
    return [[subset, codes.hex()] for subset, codes in split]


def _condensed(calls: list[list], answers: list, doc: Any) -> tuple[list[list], list]:
    """The calls of a stream just drawn, each character and each subset name once, with what they
    answer: what a replay must make. A font's subsets give a character its code the first time it
    is split and the subset its name the first time it is asked for, in that order, so these
    calls leave the fonts as the whole list does; and their answers hold every code and name the
    stream's bytes use, so they show as much. A sheet or face repeats its characters many times:
    replaying each once is a fraction of the work (a rebuild replays ~1,200 streams)."""
    seen: dict[str, set[str]] = {}
    named: set[tuple[str, Any]] = set()
    kept, said = [], []
    for (kind, font, arg), answer in zip(calls, answers, strict=True):
        if kind == "s":
            chars = seen.setdefault(font, set())
            new = "".join(dict.fromkeys(c for c in arg if c not in chars))
            if not new:
                continue
            chars.update(new)
            kept.append([kind, font, new])   # already coded: splitting again only reads the codes
            said.append(_answer(pdfmetrics.getFont(font).splitString(new, doc)))
        elif kind == "n":
            if (font, arg) not in named:
                named.add((font, arg))
                kept.append([kind, font, arg])
                said.append(answer)
        else:
            kept.append([kind, font, arg])
            said.append(answer)
    return kept, said


def _replay(calls: Any, doc: Any) -> str | None:
    """Make `calls` again on this document's fonts; the digest of their answers (`_answers`), or
    None when a call cannot be made (a font not registered, a malformed entry)."""
    if not isinstance(calls, list):
        return None
    answers: list = []
    try:
        for kind, font_name, arg in calls:
            if kind == "v" and isinstance(arg, list) and all(key in PDF_SUPPORT_VERSION for key in arg):
                doc.ensureMinPdfVersion(*arg)
                answers.append(None)
                continue
            font = pdfmetrics.getFont(font_name)
            if not getattr(font, "_dynamicFont", 0):
                return None
            if kind == "s" and isinstance(arg, str):
                answers.append(_answer(font.splitString(arg, doc)))
            elif kind == "n" and isinstance(arg, int) and not isinstance(arg, bool):
                answers.append(font.getSubsetInternalName(arg, doc))
            else:
                return None
    except (KeyError, ValueError, TypeError, IndexError):
        return None
    return _answers(answers)


def _answers(answers: list) -> str:
    """What a stream's font calls answered, as one digest: the codes and subset names its bytes hold."""
    return _digest(answers)


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


class _KeptFormStream(pdfdoc.PDFStream):
    """A reused face form's stream, formatted as PDFStream.format formats it, but with the
    dictionary text shared by every form of the same box and filters (the dictionary is the same
    but for its /Length: formatted once, with a stand-in length, and the length put in). The
    forms' dictionaries were a tenth of a one-card rebuild."""

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

    def __init__(self, path: Path | None, entries: dict[str, Any]):
        self.path = path
        self._read = entries                  # key -> entry, as read
        self._written = 0                     # entries used or made by this build, written to _out
        self._out: Any = None                 # the next file's temporary, written as entries come
        self.error = ""                       # why it could not be written
        self._context = ""
        self.reused = 0                       # streams written from the cache
        self._form_resources = _FormResources()   # what every reused form's dictionary names
        self._form_dictionaries: dict[tuple, list[bytes]] = {}   # _KeptFormStream's, by box and filters
        self.drawn = 0                        # streams drawn (and kept when they may be)

    @classmethod
    def open(cls, folder: Path, document: str) -> PdfParts:
        """The streams last kept for `document` (a name unique to the PDF: its pack and file)."""
        name = hashlib.sha256(document.encode()).hexdigest()
        path = folder / name[:2] / f"{name}{SUFFIX}"
        entries: dict[str, Any] = {}
        try:
            data = json.loads(path.read_bytes())
            if isinstance(data, dict) and data.get("format") == FORMAT and isinstance(data.get("entries"), dict):
                entries = data["entries"]
                os.utime(path, ns=(time.time_ns(), os.stat(path).st_mtime_ns))   # the eviction order
        except (OSError, ValueError, RecursionError):
            pass
        return cls(path, entries)

    def _key(self, canvas: Any, *parts: Any) -> str:
        if not self._context:
            self._context = _code_digest()
        return _digest(self._context, canvas._preamble, *parts)   # noqa: SLF001

    def _reusable(self, key: str, doc: Any) -> dict | None:
        """The entry of `key` if its stream's bytes hold in this document now; its font calls are
        replayed either way (what drawing it would do first)."""
        entry = self._read.get(key)
        if not isinstance(entry, dict):
            return None
        calls = entry.get("calls")
        try:
            answers = _replay(json.loads(calls), doc) if isinstance(calls, str) else None
        except (ValueError, RecursionError):
            answers = None
        stream, filters = entry.get("stream"), entry.get("filters")
        if (answers is None or answers != entry.get("answers") or not isinstance(stream, str)
                or entry.get("sha") != _sha(stream) or not isinstance(filters, list)
                or not all(isinstance(f, str) for f in filters)):
            return None
        return entry

    def _keep(self, key: str, recorder: _FontCalls, obj: Any, objects: int, **extra: Any) -> None:
        contents = obj.Contents
        if contents is None or not recorder.clean(objects):
            return
        content = contents.content
        text = content.decode("latin-1") if isinstance(content, bytes) else content
        calls, answers = _condensed(recorder.calls, recorder.answers, recorder.doc)
        self._use(key, {"calls": json.dumps(calls, ensure_ascii=False, separators=(",", ":")),
                           "answers": _answers(answers), "stream": text, "sha": _sha(text), "binary": isinstance(content, bytes),
                           "filters": [f.pdfname for f in contents.filters or ()], **extra})

    @staticmethod
    def _content(entry: dict) -> str | bytes:
        return entry["stream"].encode("latin-1") if entry.get("binary") else entry["stream"]

    # ---------------------------------------------------------------- forms

    def form(self, canvas: Any, name: str, drawing: Any, define: Callable[[], None]) -> None:
        """Define form `name` of `drawing` (a PackedFace with a cache_id): its stream as kept, or
        `define()` (which draws and compresses it) while its font calls are recorded."""
        doc = canvas._doc   # noqa: SLF001
        key = self._key(canvas, "form", drawing.cache_id, drawing.width, drawing.height)
        entry = self._reusable(key, doc)
        if entry is not None:
            canvas.beginForm(name, 0, 0, drawing.width, drawing.height)
            canvas.endForm()
            form = doc.idToObject[doc.getXObjectName(name)]
            content, shape = self._content(entry), (form.lowerx, form.lowery, form.upperx, form.uppery,
                                                    tuple(entry["filters"]))
            set_encoded_stream(form, content, entry["filters"], "xobject form stream",
                               _KeptFormStream(content, entry["filters"], shape, self._form_dictionaries))
            form.Resources = self._form_resources      # a kept form names none (see _keep's caller)
            self._use(key, entry)
            self.reused += 1
            return
        with _FontCalls(doc) as recorder:
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
        key = self._key(canvas, "page", canvas.getPageNumber(), page_size, inputs)
        entry = self._reusable(key, doc)
        if entry is not None and _strings(entry.get("xobjects")) and _strings(entry.get("warnings")):
            canvas.setPageSize(page_size)
            canvas._formsinuse = list(entry["xobjects"])   # noqa: SLF001  (what the page's doForm calls list)
            canvas.showPage()
            page = doc.Pages.pages[-1]
            page.hasImages = bool(entry.get("images"))
            set_encoded_stream(page, self._content(entry), entry["filters"], "page stream")
            self._use(key, entry)
            self.reused += 1
            return list(entry["warnings"])
        forms: list[str] = []
        original = canvas.showPage

        def show() -> None:                        # the forms the page drew, as showPage sees them
            forms.extend(canvas._formsinuse)       # noqa: SLF001
            original()

        canvas.showPage = show
        try:
            with _FontCalls(doc) as recorder:
                warnings = draw()
        finally:
            del canvas.showPage
        self.drawn += 1
        page = doc.Pages.pages[-1]
        if not (page._colorsUsed or page.ExtGState or page._shadingUsed or page.Annots):   # noqa: SLF001
            self._keep(key, recorder, page, 1, xobjects=forms, warnings=warnings, images=bool(page.hasImages))
        return warnings

    # ---------------------------------------------------------------- file

    def _use(self, key: str, entry: dict) -> None:
        """Write an entry this build used or made to the next file (in drawing order; nothing of it
        is held: the streams are the PDF's own, kept by ReportLab until it is saved)."""
        if self.path is None or self.error:
            return
        try:
            if self._out is None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._out = open(self._temporary(), "w", encoding="utf-8")   # noqa: SIM115  (closed by save/discard)
                self._out.write('{"format":%d,"entries":{' % FORMAT)
            self._out.write("," if self._written else "")
            self._out.write(json.dumps(key) + ":" + json.dumps(entry, ensure_ascii=False, separators=(",", ":")))
            self._written += 1
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
            self._out.write("}}")
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


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)
