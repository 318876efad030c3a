"""The preview's model: the pack as last saved, its faces per language, its findings.

`Preview.reload()` (the watcher calls it on every save) reads the pack like `pnp check` does
(pnp.check.runner.load_for_check: every load problem as a finding, the pack when it is usable),
adds the composition rules' findings, and re-renders the languages someone is looking at through
the build's own pipeline (pnp.build.faces_of, pnp.render.faces.FaceMaker). Faces whose content key
did not change come from the cache (cache.py); `redraws` counts the faces actually rendered.

Everything runs under one lock: ReportLab and PDFium are not thread-safe, and a request must
never see half a reload.
"""
from __future__ import annotations

import shutil
import sys
import tempfile
import threading
import traceback
from dataclasses import dataclass, field
from pathlib import Path

import pnp
from pnp.build import FACES, TEXT_MISSING, BuildOptions, PreparedFaces, faces_of, render_components, write_pdf
from pnp.check.runner import load_for_check, missing_texts
from pnp.components import write_components
from pnp.composition import ERROR, Finding, check_composition, finding
from pnp.errors import display_path
from pnp.pack import Card, Deck, Pack
from pnp.render.faces import FaceMaker, RenderedFace, pack_context
from pnp.render.templates import Renderer, TemplateProblem
from pnp.serve.cache import CachedFace, FaceCache, ImageStore
from pnp.serve.images import face_pngs, pdf_page_pngs
from pnp.serve.keys import TemplateSources, card_data, digest, fonts_fingerprint
from pnp.serve.recording import CallRecorder, TextBox

PAGE_SETS_KEPT = 16          # sheets / components renderings kept (each is a few pages)


@dataclass(frozen=True)
class FaceView:
    side: str                      # "front" / "back"
    image: str                     # image key ("" when the face could not be drawn)
    boxes: tuple[TextBox, ...] = ()


@dataclass
class CardView:
    card: Card                     # the first copy; card.quantity is the number of copies
    faces: list[FaceView]
    findings: list[Finding] = field(default_factory=list)

    @property
    def texts(self) -> list[str]:
        """The strings printed on the card, front first (for captions and alt text)."""
        return [box.text for face in self.faces for box in face.boxes if box.text.strip()]


@dataclass
class LangView:
    lang: str
    decks: list[tuple[Deck, list[CardView]]]
    findings: list[Finding]                        # those that concern no card on the page
    prepared: PreparedFaces | None                 # every card instance, for the sheets (None: a face failed)


@dataclass(frozen=True)
class Page:
    image: str
    label: str


@dataclass
class Pages:
    pages: list[Page]
    findings: list[Finding] = field(default_factory=list)
    note: str = ""


class Preview:
    def __init__(self, root: Path):
        self.root = root
        self.lock = threading.RLock()
        self._changed = threading.Condition(self.lock)
        self.version = 0
        self.cache = FaceCache()
        self.images = ImageStore()
        self.redraws = 0                           # faces rendered since start
        self.rasterized = 0                        # face images made since start
        self.last_redrawn: list[str] = []          # card instances (face "id:side") rendered by the last reload
        self.pack: Pack | None = None
        self.findings: list[Finding] = []          # load and rules findings (the fatal ones when pack is None)
        self.active: set[str] = set()              # languages someone looked at
        self.fonts = fonts_fingerprint()
        self._views: dict[str, LangView] = {}
        self._pages: dict[str, Pages] = {}
        self._renderers: dict[tuple, tuple[Renderer, CallRecorder]] = {}
        self.template_references: dict[str, tuple[str | None, ...]] = {}   # see keys.TemplateSources
        self.workdir = Path(tempfile.mkdtemp(prefix="pnp-serve-"))
        self.reload()

    # ------------------------------------------------------------------ reload and wait
    def reload(self) -> None:
        with self.lock:
            self.last_redrawn = []
            self._views = {}
            try:
                self._load()
                if self.pack is not None:
                    for lang in sorted(self.active & set(self.pack.languages)) or [self.pack.source_language]:
                        self._views[lang] = self._render(lang)
            except Exception as error:   # noqa: BLE001 - a bug must not stop the server: show it, go on
                traceback.print_exc(file=sys.stderr)
                self.pack = None
                self.findings = [finding(ERROR, "serve.internal", self.root, 0, "", f"{type(error).__name__}: "
                                         f"{error} (the preview failed; see the terminal)", fatal=True)]
            self.version += 1
            self._changed.notify_all()

    def wait_for_change(self, seen: int, timeout: float) -> int:
        """The version once it differs from `seen`, or after `timeout` seconds."""
        with self._changed:
            self._changed.wait_for(lambda: self.version != seen, timeout)
            return self.version

    def close(self) -> None:
        shutil.rmtree(self.workdir, ignore_errors=True)

    def _load(self) -> None:
        pack, findings = load_for_check(self.root)
        if pack is None or any(f.fatal for f in findings):
            self.pack, self.findings = None, [f for f in findings if f.fatal]
            return
        # As `pnp check` without its print checks (those are the faces this preview renders), and a
        # missing text reported once.
        loaded = missing_texts(findings)
        rules = [f for f in check_composition(pack) if not missing_texts([f]) & loaded]
        self.pack, self.findings = pack, findings + rules

    # ------------------------------------------------------------------ faces
    def view(self, lang: str | None) -> LangView | None:
        """The cards in `lang` (the source language when it is not one of the pack's); None when the
        pack does not load (see `findings`)."""
        with self.lock:
            if self.pack is None:
                return None
            if lang not in self.pack.languages:
                lang = self.pack.source_language
            self.active.add(lang)
            if lang not in self._views:
                self._views[lang] = self._render(lang)
            return self._views[lang]

    def _render(self, lang: str) -> LangView:
        pack = self.pack
        assert pack is not None
        maker = FaceMaker(pack, lang)
        maker.renderer, recorder = self._renderer(pack)
        renderer = _FaceRenderer(self, maker, recorder, lang)
        decks: list[tuple[Deck, list[CardView]]] = []
        instances: list[tuple[Card, RenderedFace, RenderedFace]] = []
        complete = True
        for deck in pack.decks:
            views: list[CardView] = []
            for card in deck.cards:
                faces, problems = renderer.card(deck, card)
                if card.copy == 1:
                    views.append(CardView(card, [FaceView(side, entry.face.key, tuple(entry.recording.boxes))
                                                 if entry else FaceView(side, "") for side, entry in faces],
                                          problems))
                front, back = (entry for _, entry in faces)
                if front is not None and back is not None:
                    instances.append((card, front.face, back.face))
                else:
                    complete = False
            decks.append((deck, views))
        self._rasterize(renderer.new_faces)
        unplaced = _attach(decks, self.findings)
        return LangView(lang, decks, unplaced, PreparedFaces(pack, lang, instances) if complete else None)

    def _renderer(self, pack: Pack) -> tuple[Renderer, CallRecorder]:
        """One template environment for the session: Jinja compiles a template once and compiles
        it again only when its file changes (its loader checks the file's time), where a new
        environment per reload would compile every template a redrawn face uses."""
        dirs = tuple(pack.template_dirs)
        if dirs not in self._renderers:
            renderer = Renderer(list(dirs))
            self._renderers[dirs] = (renderer, CallRecorder(renderer))
        return self._renderers[dirs]

    def _rasterize(self, faces: list[RenderedFace]) -> None:
        wanted = {face.key: face.drawing for face in faces if face.key not in self.images}
        for key, png in zip(wanted, face_pngs(list(wanted.values())), strict=True):
            self.images.put(key, png)
        self.rasterized += len(wanted)

    # ------------------------------------------------------------------ sheets and components
    def sheets(self, lang: str | None, paper: str) -> Pages | None:
        """The imposed pages as they print (duplex: each front page, then its back)."""
        with self.lock:
            view = self.view(lang)
            if view is None or self.pack is None:
                return None
            if view.prepared is None:
                return Pages([], note="a card could not be drawn (see its findings): no sheets until it is fixed")
            if not view.prepared.cards:
                return Pages([], note="this pack has no cards")
            prepared = view.prepared
            key = digest("sheets", view.lang, paper, [(c.id, f.key, b.key) for c, f, b in prepared.cards])
            return self._pages_for(key, lambda folder: [write_pdf(prepared, BuildOptions(paper=paper, out=folder))])

    def components(self, lang: str | None, paper: str) -> Pages | None:
        """Boards, parts and aids, drawn and written as `pnp build` does (per reload: they read the
        whole pack)."""
        with self.lock:
            view = self.view(lang)
            if view is None or self.pack is None:
                return None
            options = BuildOptions(paper=paper)
            plan, problems = render_components(self.pack, view.lang, options)
            if plan is None:
                return Pages([], note="this pack has no components")
            found = [finding(ERROR, p.code, p.file, p.line, p.key, p.message, lang=p.lang) for p in problems]
            key = digest("components", self.version, view.lang, paper)
            pages = self._pages_for(key, lambda folder: write_components(plan, folder))
            return Pages(pages.pages, found, pages.note)

    def _pages_for(self, key: str, write) -> Pages:
        """Rasterize the PDFs `write(folder)` makes, once per key."""
        if key not in self._pages:
            folder = self.workdir / key
            pages = []
            for pdf in write(folder):
                for number, png in enumerate(pdf_page_pngs(pdf), start=1):
                    image = digest(key, pdf.name, number)[:40]
                    self.images.put(image, png)
                    pages.append(Page(image, f"{pdf.stem} · page {number}"))
            shutil.rmtree(folder, ignore_errors=True)
            while len(self._pages) >= PAGE_SETS_KEPT:
                self._pages.pop(next(iter(self._pages)))
            self._pages[key] = Pages(pages)
        return self._pages[key]


class _FaceRenderer:
    """Renders the faces of one language through the cache, and the findings they raise."""

    def __init__(self, preview: Preview, maker: FaceMaker, recorder: CallRecorder, lang: str):
        self.preview, self.maker, self.recorder, self.lang = preview, maker, recorder, lang
        self.pack = maker.pack
        self.sources = TemplateSources(maker.renderer.env, preview.template_references)
        self.shared = digest(pack_context(self.pack, lang))
        self.new_faces: list[RenderedFace] = []
        self.missing_reported = missing_texts(preview.findings)

    def card(self, deck: Deck, card: Card) -> tuple[list[tuple[str, CachedFace | None]], list[Finding]]:
        problems: list[Finding] = []
        try:
            templates = faces_of(self.pack, deck, card)
        except TemplateProblem as error:
            return [(side, None) for side in FACES], [self._finding(card, error.code, str(error), "back")]
        faces: list[tuple[str, CachedFace | None]] = []
        for side, template in zip(FACES, templates, strict=True):
            try:
                entry = self._face(deck, card, side, template)
            except TemplateProblem as error:
                faces.append((side, None))
                problems.append(self._finding(card, error.code, str(error), side, template=error.template,
                                              template_line=error.line))
                continue
            faces.append((side, entry))
            if card.copy == 1:
                problems.extend(self._text_findings(card, side, entry.face))
        return faces, problems

    def _face(self, deck: Deck, card: Card, side: str, template: str) -> CachedFace:
        texts = self.maker.texts
        deck_record = (deck.id, self.pack.texts[self.lang].get(deck.name, deck.name), deck.size_pt)
        key = digest(pnp.__version__, self.preview.fonts, self.lang, side, template, self.sources.digest(template), deck_record,
                     card_data(card, texts), self.shared)
        entry = self.preview.cache.get(key, texts)
        if entry is not None:
            return entry
        self.recorder.start()
        try:
            face = self.maker.face(template, deck, card, side)
        finally:
            recording = self.recorder.stop()
        self.preview.redraws += 1
        self.preview.last_redrawn.append(f"{card.id}:{side}")
        self.new_faces.append(face)
        return self.preview.cache.put(key, face, recording, texts)

    def _text_findings(self, card: Card, side: str, face: RenderedFace) -> list[Finding]:
        """What the build would refuse about this face's text (see pnp.build._face_problems)."""
        found = [self._finding(card, issue.code, issue.message, side, **issue.facts()) for issue in face.issues]
        found += [self._finding(card, TEXT_MISSING, f"text key {key!r} has no {self.lang!r} text", side,
                                text_key=key, language=self.lang)
                  for key in face.missing_keys if (key, self.lang) not in self.missing_reported]
        return found

    def _finding(self, card: Card, code: str, message: str, side: str, **detail) -> Finding:
        return finding(ERROR, code, card.file, card.line, f"card {card.base_id}", message, game=self.pack.id,
                       lang=self.lang, face=side, **detail)


def _attach(decks: list[tuple[Deck, list[CardView]]], findings: list[Finding]) -> list[Finding]:
    """Put each load or rules finding beside the card it names (its key `card <id>...`, or the
    card's file and line); return those that concern no card."""
    by_id = {view.card.base_id: view for _, views in decks for view in views}
    by_place = {(display_path(view.card.file), view.card.line): view for view in by_id.values()}
    unplaced = []
    for f in findings:
        named = f.key.removeprefix("card ").split(".")[0].split("#")[0] if f.key.startswith("card ") else None
        view = by_id.get(named) if named else by_place.get((f.file, f.line))
        if view is None:
            unplaced.append(f)
        else:
            view.findings.append(f)
    return unplaced
