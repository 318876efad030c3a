"""A rebuild's cards PDF written from the last build's file, when only faces' drawings changed.

After one card's text changed, every object of the cards PDF but that card's face form is what
the last build wrote, byte for byte, at the same object number: the forms are named and numbered
in order of first use, the pages show them by name, and the fonts' subsets depend only on which
characters the streams use in which order. So the new PDF is the last one with the changed form
objects replaced (each drawn and formatted in a scratch document), the objects after them moved
and the cross-reference table written again: no page or form goes through ReportLab, and the streams file
(pnp.sheets.pdfparts) is written again from its lines. It is the PDF a build without the cache
writes (tests/test_pdfsplice.py compares).

What makes it so, each checked (any check that fails: the PDF is written as usual, through
pnp.sheets.pdfparts, which records a new layout):
- the layout the last build recorded (`Recorder`, a file beside its streams file) reads, and
  names the same document: the writer's arguments, the drawing and PDF code, the canvas start;
- the last output is there, of the recorded size and sha256, and its cross-reference table and
  trailer read back as ReportLab writes them;
- the streams file holds the entries the last build wrote, in its order;
- the same faces in the same places: the same number of forms in order of first use, and each
  page's key the same (its inputs: the names of the forms it shows, their sizes, the sheet);
- each changed form has the same size, added nothing to the document's fonts when the last build
  drew it (`fresh`), and its new drawing, made in a scratch document whose fonts are put in the
  last build's final state (`replay`), uses only characters coded before its place, fonts named
  before its place, no PDF version its place did not have and no other object, and its object
  names no other object than the font dictionary, numbered as in the document.
  The fonts then go through the same states as last time: every other stream, the font objects
  and every object number stay as they were.
"""
from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfbase.pdfdoc import PDF_SUPPORT_VERSION

from pnp.facecache import mark_used
from pnp.outputfiles import write_text_atomically
from pnp.sheets.pdfparts import FontCalls, PdfParts, dynamic_fonts, kept_entry, replay, subset_codes
from pnp.text.fonts import register_font

FORMAT = 1
SUFFIX = ".layout"
_XREF_LINE = b"%010d 00000 n \n"         # a cross-reference entry as ReportLab writes it
_FONTS = "BasicFonts"                      # ReportLab's name of the document's font dictionary
_REFERENCE = re.compile(rb"(\d+) 0 R")


class FormMaker(Protocol):
    """How the writer makes a face's form (pnp.sheets.pdfwriter._Forms), for a scratch document."""

    def draw(self, face: Any, name: str) -> None:
        """Define form `name` of `face` as the writer does."""


@dataclass(frozen=True)
class PageSpec:
    """One page as the streams file keys it: the faces it shows (forms are defined in this order,
    each at its first use), its size and its inputs besides the form names and sizes."""
    faces: Sequence[Any]            # pdfwriter.Face: key, drawing (width, height, cache_id)
    size: tuple[float, float]
    rest: list


def form_order(pages: Sequence[PageSpec]) -> tuple[list[Any], list[int]]:
    """The faces in order of first use (form i is `pnpface<i>`), and each placed face's form
    number, page after page."""
    index: dict[str, int] = {}
    forms: list[Any] = []
    uses: list[int] = []
    for page in pages:
        for face in page.faces:
            n = index.get(face.key)
            if n is None:
                n = index[face.key] = len(forms)
                forms.append(face)
            uses.append(n)
    return forms, uses


def page_inputs(names: list[str], page: PageSpec) -> list:
    """A page's inputs as the streams file keys it: the names of the forms it shows, the faces'
    sizes (their matrices), the rest."""
    return [names, [[float(f.drawing.width), float(f.drawing.height)] for f in page.faces], *page.rest]


def layout_path(parts: PdfParts) -> Path | None:
    return parts.path.with_suffix(SUFFIX) if parts.path is not None else None


class _FontStates:
    """The fonts' state in one document, as a comparable value: per font its characters coded
    (-1: none yet), the fonts named, the fonts registered and the PDF version."""

    def __init__(self, doc: Any):
        self.doc = doc
        self.fonts = dynamic_fonts()
        self.names = [f.fontName for f in self.fonts]

    def now(self) -> tuple:
        """(characters coded per font, fonts named, fonts registered, PDF version)."""
        doc = self.doc
        counts = tuple(len(s.assignments) if (s := f.state.get(doc)) is not None else -1 for f in self.fonts)
        return counts, len(doc.fontMapping), len(pdfmetrics._fonts), doc._pdfVersion   # noqa: SLF001


class Recorder:
    """What a later rebuild needs to write this cards PDF from it, recorded while it is drawn
    through pnp.sheets.pdfparts: each form's place and what its drawing added to the fonts, the
    fonts' final state, the pages' keys and warnings; `save` writes it beside the streams file."""

    def __init__(self, canvas: Any):
        self.doc = canvas._doc                                  # noqa: SLF001
        self.states = _FontStates(self.doc)
        # each form: (its face, the fonts' state before it, whether it changed the fonts or added
        # objects); a state is kept once for all the forms that find it (most do: 10,000 cards' forms
        # are recorded in well under a megabyte)
        self.forms: list[tuple] = []
        self._states: dict[tuple, tuple] = {}
        self.final: dict[str, list] = {}       # the fonts' final state, as a pdfparts entry
        self.objects: list[int] = []           # each form's object number
        self.fonts_object = 0                  # the document's font dictionary's

    def form(self, face: Any, define: Callable[[], None]) -> None:
        """Define the form of `face` by `define()`, noting the fonts' state before and whether it changed."""
        doc = self.doc
        before, objects = self.states.now(), doc.objectcounter
        define()
        fresh = self.states.now() != before or doc.objectcounter != objects + 1
        self.forms.append((face, self._states.setdefault(before, before), fresh))

    def finish(self) -> None:
        """Note the fonts' final state (before saving: saving drops it) and each form's object."""
        doc = self.doc
        fonts = []
        for font in self.states.fonts:
            state = font.state.get(doc)
            if state is not None:
                text = "".join(map(chr, state.assignments))
                fonts.append([font.fontName, text, subset_codes(state.assignments, text)])
        names = [[name, 0, f"{internal}+0"] for name, internal in doc.fontMapping.items()]
        self.final = {"fonts": fonts, "names": names, "version": []}     # an entry for replay
        self.objects = [doc.idToObjectNumberAndVersion[doc.getXObjectName(f"pnpface{i}")][0]
                        for i in range(len(self.forms))]
        self.fonts_object = doc.idToObjectNumberAndVersion[_FONTS][0]   # what every form's resources name
        self.doc = self.states.doc = None       # nothing more to read: the document is freed with its canvas

    def save(self, parts: PdfParts, document: str, pdf: Path, warnings: list[str]) -> None:
        """Write the layout of the PDF just saved to `pdf` for the next rebuild; nothing when the
        streams file will not be written or a face has no content address. The file is hashed a
        megabyte at a time (a PDF of 10,000 cards is 12 MB: not held whole at a build's end); the
        rebuild reads its objects back (`_Xref`) before it splices."""
        path = layout_path(parts)
        if path is None or parts.error or any(not getattr(form[0].drawing, "cache_id", "") for form in self.forms):
            return
        digest, size = hashlib.sha256(), 0
        try:
            with open(pdf, "rb") as file:
                while block := file.read(1 << 20):
                    digest.update(block)
                    size += len(block)
        except OSError:
            return
        # each form: [face key, cache id, width, height, characters coded per font, fonts named and
        # PDF version before it, fresh] (see _rewrite)
        forms = [[face.key, face.drawing.cache_id, float(face.drawing.width), float(face.drawing.height),
                  list(before[0]), before[1], list(before[3]), fresh]
                 for face, before, fresh in self.forms]
        _write(path, {"format": FORMAT, "document": document, "size": size, "sha": digest.hexdigest(),
                      "sequence": parts.sequence.hexdigest(), "counted": self.states.names, "forms": forms,
                      "objects": self.objects, "fonts_object": self.fonts_object, "pages": parts.page_keys,
                      "warnings": warnings, "final": self.final})


def _write(path: Path, layout: dict) -> None:
    try:
        write_text_atomically(path, json.dumps(layout, separators=(",", ":")))
    except OSError:
        pass                                           # the next rebuild draws: no harm done


def _read(path: Path) -> dict | None:
    try:
        layout = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        return None
    return layout if isinstance(layout, dict) and layout.get("format") == FORMAT else None


@dataclass(frozen=True)
class _Xref:
    """A PDF's objects as ReportLab wrote them: each object's offset (by number, from 1), where the
    cross-reference table starts and the trailer's dictionary."""
    offsets: list[int]
    start: int
    trailer: bytes

    @classmethod
    def read(cls, pdf: bytes) -> _Xref | None:
        """The table of `pdf`, when the file ends as ReportLab ends one and every object starts
        where the table says, in number order; None otherwise."""
        at = pdf.rfind(b"startxref\n")
        try:
            start = int(pdf[at + 10:pdf.index(b"\n", at + 10)])
            head_end = pdf.index(b"\n", start + 5)
            first, count = (int(x) for x in pdf[start + 5:head_end].split(b" "))
        except ValueError:
            return None
        if at < 0 or pdf[at:] != b"startxref\n%d\n%%%%EOF\n" % start or pdf[start:start + 5] != b"xref\n" or first:
            return None
        table = pdf[head_end + 1:head_end + 1 + 20 * count]
        try:
            offsets = [int(table[20 * n:20 * n + 10]) for n in range(1, count)]
        except ValueError:
            return None
        xref = cls(offsets, start, pdf[head_end + 1 + 20 * count:at])
        if (xref.table() != pdf[start:head_end + 1 + 20 * count] or not xref.trailer.startswith(b"trailer\n")
                or any(not pdf.startswith(b"%d 0 obj\n" % (n + 1), off) for n, off in enumerate(offsets))
                or offsets != sorted(offsets) or (offsets and offsets[-1] >= start)):
            return None
        return xref

    def table(self) -> bytes:
        return (b"xref\n0 %d\n0000000000 65535 f \n" % (len(self.offsets) + 1)
                + b"".join(_XREF_LINE % off for off in self.offsets))

    def span(self, number: int) -> tuple[int, int]:
        """Where object `number` (from 1) starts and ends."""
        end = self.offsets[number] if number < len(self.offsets) else self.start
        return self.offsets[number - 1], end


def splice(pdf: bytes, replaced: dict[int, bytes], xref: _Xref | None = None) -> bytes | None:
    """`pdf` (as ReportLab writes one; `xref`: its table, when read already) with the objects of
    `replaced` (number -> the whole new object, `n 0 obj` to `endobj`) in place of theirs; None
    when `pdf` does not read back."""
    xref = xref or _Xref.read(pdf)
    if xref is None or any(not 1 <= n <= len(xref.offsets) for n in replaced):
        return None
    out: list[bytes] = []
    offsets = list(xref.offsets)
    at = shift = 0
    for number in sorted(replaced):
        start, end = xref.span(number)
        out += [pdf[at:start], replaced[number]]
        at = end
        grown = len(replaced[number]) - (end - start)
        for n in range(number, len(offsets)):
            offsets[n] += grown
        shift += grown
    out.append(pdf[at:xref.start])
    moved = _Xref(offsets, xref.start + shift, xref.trailer)
    out += [moved.table(), xref.trailer, b"startxref\n%d\n%%%%EOF\n" % moved.start]
    return b"".join(out)


def rewrite(target: str, last: Path | None, parts: PdfParts, document: str, pages: Callable[[], Sequence[PageSpec]],
            scratch: Callable[[], tuple[Any, FormMaker]]) -> list[str] | None:
    """Write the cards PDF of `pages()` to `target` from `last` (the last build's output of it) and
    the layout it recorded, the streams file again through `parts`, and the new layout; the
    pages' warnings. None when it cannot be (see the module doc): nothing written, `parts`
    untouched. `scratch()` makes an empty canvas like the document's and the writer's form maker
    for it."""
    path = layout_path(parts)
    if path is None or last is None:
        return None
    layout = _read(path)
    if layout is None or layout.get("document") != document:
        return None
    mark_used(path)                                            # the face cache's eviction order
    try:
        return _rewrite(target, last, parts, pages(), scratch, layout)
    except (KeyError, IndexError, TypeError, ValueError):     # a layout that does not read as one
        return None


def _rewrite(target: str, last: Path, parts: PdfParts, pages: Sequence[PageSpec],
             scratch: Callable[[], tuple[Any, FormMaker]], layout: dict) -> list[str] | None:
    forms, uses = form_order(pages)
    old_forms = layout["forms"]
    if len(forms) != len(old_forms) or parts.read_sequence() != layout["sequence"]:
        return None
    changed = [i for i, (face, old) in enumerate(zip(forms, old_forms))
               if face.drawing.cache_id != old[1] or face.key != old[0]]
    if any(not face.drawing.cache_id for face in forms) or any(
            old_forms[i][7] or [float(forms[i].drawing.width), float(forms[i].drawing.height)] != old_forms[i][2:4]
            for i in changed):
        return None
    canvas, maker = scratch()
    keys = [parts.page_key(canvas, n, page.size, page_inputs([f"pnpface{i}" for i in shown], page))
            for n, (page, shown) in enumerate(_page_uses(pages, uses), start=1)]
    if keys != layout["pages"]:
        return None
    try:
        pdf = last.read_bytes()
    except OSError:
        return None
    if len(pdf) != layout["size"] or hashlib.sha256(pdf).hexdigest() != layout["sha"]:
        return None
    doc = canvas._doc                                          # noqa: SLF001
    if changed and not (_registered(font for font, _text, _codes in layout["final"]["fonts"])
                        and replay(layout["final"], doc)):
        return None
    states = _FontStates(doc)
    xref = _Xref.read(pdf)
    if xref is None:
        return None
    replaced_objects: dict[int, bytes] = {}
    replaced_lines: dict[str, tuple[str, dict] | None] = {}
    added_lines: list[tuple[str, dict]] = []
    for i in changed:
        drawn = _drawn(canvas, maker, states, forms[i], f"pnpface{i}", layout, old_forms[i])
        if drawn is None:
            return None
        entry, body = drawn
        number = layout["objects"][i]
        if not _names_form(pdf, xref, i, number) or number in replaced_objects:
            return None
        replaced_objects[number] = b"%d 0 obj\n" % number + body + (b"" if body.endswith(b"\n") else b"\n") + b"endobj\n"
        old_key, new_key = parts.form_key(canvas, _Drawing(*old_forms[i][1:4])), parts.form_key(canvas, forms[i].drawing)
        if parts.has(old_key):                 # the streams file as a rebuild drawing it would leave it
            replaced_lines[old_key] = None if entry is None else (new_key, entry)
        elif entry is not None:
            added_lines.append((new_key, entry))
        old_forms[i][:2] = [forms[i].key, forms[i].drawing.cache_id]
    spliced = splice(pdf, replaced_objects, xref) if replaced_objects else pdf
    if spliced is None:
        return None
    with open(target, "wb") as out:
        out.write(spliced)
    parts.write_again(replaced_lines, added_lines)
    path = layout_path(parts)
    if changed and path is not None and not parts.error:      # (nothing changed: the same layout)
        _write(path, {**layout, "size": len(spliced), "sha": hashlib.sha256(spliced).hexdigest(),
                      "sequence": parts.sequence.hexdigest(), "forms": old_forms})
    return list(layout["warnings"])


@dataclass(frozen=True)
class _Drawing:
    """What PdfParts.form_key reads of a drawing."""
    cache_id: str
    width: float
    height: float


def _registered(fonts: Iterable[str]) -> bool:
    """Every one of these fonts (the last build's document used them) is registered with ReportLab,
    registered now when it is not: a process registers fonts as it first draws with them, so which
    are registered depends on the documents it drew before (a rebuild that splices them all draws
    none); only the document's own fonts matter to its bytes. False for a font pnp cannot register
    (a pack's font not defined in this process: drawn as usual)."""
    try:
        for font in fonts:
            register_font(font)
    except (KeyError, OSError, ValueError):
        return False
    return True


def _names_form(pdf: bytes, xref: _Xref, i: int, number: int) -> bool:
    """The last PDF's pages show face i's form as object `number`, and that object is a form: the
    layout is read from a folder anyone may write to, and a wrong number would splice the new
    face over another object without a trace."""
    if not 1 <= number <= len(xref.offsets):
        return False
    start, end = xref.span(number)
    return b"/FormXob.pnpface%d %d 0 R" % (i, number) in pdf and b"/Subtype /Form" in pdf[start:end]


def _page_uses(pages: Sequence[PageSpec], uses: list[int]) -> list[tuple[PageSpec, list[int]]]:
    out = []
    at = 0
    for page in pages:
        out.append((page, uses[at:at + len(page.faces)]))
        at += len(page.faces)
    return out


def _drawn(canvas: Any, maker: FormMaker, states: _FontStates, face: Any, name: str, layout: dict,
           old: list) -> tuple[dict | None, bytes] | None:
    """Draw `face` as form `name` in the scratch document (fonts in the last build's final state):
    its streams-file entry (None when pnp.sheets.pdfparts would not keep it) and the form object's
    body as the document writes it, when it uses only what its place had
    (`old`: the counts of characters coded and fonts named before it, and the PDF version) and
    adds nothing else; None otherwise."""
    doc = canvas._doc                                          # noqa: SLF001
    before, objects = states.now(), doc.objectcounter
    with FontCalls(doc) as recorder:
        maker.draw(face, name)
    form = doc.idToObject[doc.getXObjectName(name)]
    if states.now()[:3] != before[:3] or doc.objectcounter != objects + 1 or not recorder.clean(1):
        return None                        # a font, a name or an object its place did not have
    calls = kept_entry(recorder, form, 1) or {}
    if any(PDF_SUPPORT_VERSION[key] > tuple(old[6]) for keys in calls.get("version", ()) for key in keys):
        return None                        # a PDF version its place did not have
    counts = dict(zip(layout["counted"], old[4]))
    final = {font: {c: rank for rank, c in enumerate(text)} for font, text, _ in layout["final"]["fonts"]}
    for font, text, _codes_now in calls.get("fonts", ()):
        ranks, glyphs = final.get(font, {}), pdfmetrics.getFont(font).face.charToGlyph
        if any(ranks.get(c, len(ranks)) >= counts.get(font, -1) for c in text if ord(c) in glyphs):
            return None                    # a character first coded at or after this place
    mapping = [font for font, _subset, _answer in layout["final"]["names"]]
    if any(font not in mapping or mapping.index(font) >= old[5] for font, _subset, _answer in calls.get("names", ())):
        return None                        # a font named at or after this place
    keep = form.Resources is None and not form.XObjects and not getattr(form, "_colorsUsed", None)
    body = pdfdoc.format(form, doc, toplevel=1)     # (the dictionaries pdfwriter shares: the same bytes)
    references = {int(n) for n in _REFERENCE.findall(body[:body.find(b"\nstream\n")])}
    fonts = doc.idToObjectNumberAndVersion.get(_FONTS, (None,))[0]
    if references - {fonts} or fonts != layout["fonts_object"]:
        return None                        # another object named: its number here is not the document's
    return (calls if keep else None), body
