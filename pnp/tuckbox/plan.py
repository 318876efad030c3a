"""Tuck boxes planned and drawn: what `pnp.tuckbox` (the package's docstring) exposes."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnp import print_constants as pc
from pnp.errors import DataError, Problem, Problems
from pnp.i18n import sheet as sheet_text
from pnp.i18n.direction import is_rtl
from pnp.i18n.texts import MissingText, Texts
from pnp.outputfiles import write_bytes_atomically
from pnp.pack import Card, Deck, Pack
from pnp.render.faces import FaceMaker, RenderedFace
from pnp.render.templates import TemplateProblem
from pnp.text.fitreport import FitReport, MeasuredBox
from pnp.tuckbox.draw import Art, PanelText, StripText, page_face, write_pdf
from pnp.tuckbox.geometry import (  # noqa: F401  (re-exported: the sizes callers and tests read)
    DEPTH_PLAY_MM,
    HOME_CARD_THICKNESS_MM,
    MIN_DEPTH_MM,
    PLAY_MM,
    BoxSize,
    MmRect,
    Piece,
)
from pnp.tuckbox.pagecache import PageCache
from pnp.tuckbox.pages import PRINTER_MARGIN_MM, PageSpec, Placed, fits, pack_pieces
from pnp.units import pt_to_mm

if TYPE_CHECKING:                       # pnp.build imports this module
    from pnp.build import PreparedFaces
    from pnp.facecache import FaceCache

TUCKBOX_TOO_LARGE = "tuckbox.too-large"     # a deck's box does not fit the paper even in two pieces
MAX_CARD_THICKNESS_MM = 3.0                 # thicker than any card stock: a preset's typo, not paper


@dataclass(frozen=True)
class TuckBoxNet:
    """One box: what it holds, its sizes, its pieces and where they are printed."""

    deck: str | None           # the deck's id; None for the whole game's box
    name: str                  # the printed name, in the build language
    size: BoxSize
    pieces: tuple[Piece, ...]  # one, or two for a net split in two
    placements: tuple[Placed, ...] = ()

    @property
    def width(self) -> float:
        return self.size.width

    @property
    def height(self) -> float:
        return self.size.height

    @property
    def depth(self) -> float:
        return self.size.depth

    @property
    def panels(self) -> dict[str, MmRect]:
        """Every part's rectangle (mm, net coordinates): back, front, side-left, side-right, lid,
        tongue, bottom, bottom-glue, glue-tab, the four dust flaps, join-tab (two pieces)."""
        return {part.name: part.rect for piece in self.pieces for part in piece.parts}

    def page_parts(self) -> list[tuple[int, str, MmRect]]:
        """(page, part, rectangle in mm from the page's top-left) for every part."""
        return [(p.page, part.name, p.to_page(part.rect)) for p in self.placements for part in p.piece.parts]

    def page_bounds(self) -> list[tuple[int, MmRect]]:
        """(page, rectangle) of each piece, everything it prints included."""
        return [(p.page, p.to_page(p.piece.bounds)) for p in self.placements]


@dataclass
class TuckBoxPlan:
    """Every box of one pack in one language, laid out and drawn, not yet written."""

    pack: Pack
    lang: str
    paper: str
    margin: float
    nets: list[TuckBoxNet] = field(default_factory=list)
    pages: list[PageSpec] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)       # boxes not made, and why
    boxes: list[tuple[int, MeasuredBox, str]] = field(default_factory=list)   # (page, box, key): `pnp i18n fit`
    _faces: list[Any] = field(default_factory=list)
    _arts: list[Art | None] = field(default_factory=list)
    _kept: PageCache | None = None                          # the face cache's pages, and the PDF (write_tuckboxes)
    _page_keys: list[str] = field(default_factory=list)     # each page's key there


def _check_arguments(paper: str, thickness: float, margin: float) -> None:
    """A caller's (a preset's) mistake, not the pack's: ValueError."""
    if paper not in pc.PAPER_SIZES_MM:
        raise ValueError(f"unknown paper {paper!r} (known: {', '.join(pc.PAPERS)})")
    if not (math.isfinite(thickness) and 0 < thickness <= MAX_CARD_THICKNESS_MM):
        raise ValueError(f"card_thickness_mm must be above 0 and at most {MAX_CARD_THICKNESS_MM:g}, not {thickness!r}")
    if not (math.isfinite(margin) and 0 <= margin < min(pc.PAPER_SIZES_MM[paper]) / 4):
        raise ValueError(f"margin_mm {margin!r} is not a printer margin")


def _deck_size(deck: Deck, thickness: float) -> BoxSize:
    w, h = (pt_to_mm(v) for v in deck.size_pt)
    return BoxSize(len(deck.cards), w, h, thickness)


def _game_size(decks: list[Deck], thickness: float) -> BoxSize:
    sizes = [_deck_size(deck, thickness) for deck in decks]
    return BoxSize(sum(s.cards for s in sizes), max(s.card_w for s in sizes), max(s.card_h for s in sizes),
                   thickness)


def _deck_index(pack: Pack, deck: Deck) -> int:
    """The deck's position in pack.yaml's `decks` list."""
    source = pack.sources.get("pack")
    declared = (source.value or {}).get("decks") or [] if source is not None else []
    for index, body in enumerate(declared):
        if isinstance(body, dict) and body.get("id") == deck.id:
            return index
    return pack.decks.index(deck)


def _too_large(problems: Problems, pack: Pack, deck: Deck, size: BoxSize, paper: str, margin: float) -> None:
    index = _deck_index(pack, deck)
    source = pack.sources.get("pack")
    file = source.file if source else pack.root / "pack.yaml"
    line = source.line(("decks", index, "cards")) if source else 0
    problems.add(TUCKBOX_TOO_LARGE, file, line, f"decks[{index}].cards",
                 f"deck {deck.id!r}: its tuck box ({size.cards} cards of {size.card_w:g} x {size.card_h:g} mm, "
                 f"{size.width:g} x {size.height:g} x {size.depth:.1f} mm inside) does not fit {paper} paper "
                 f"inside a {margin:g} mm printer margin, even in two pieces: print it on larger paper, "
                 "split the deck, or give it no tuck box (`tuckbox: false`)", deck=deck.id, cards=size.cards, width_mm=size.width, height_mm=size.height,
                 depth_mm=size.depth, paper=paper)


class _Backs:
    """Each deck's back as its cards' backs are drawn: taken from the faces the build already
    rendered when it has them, else rendered here (one FaceMaker, made only when needed)."""

    def __init__(self, pack: Pack, lang: str, faces: PreparedFaces | None):
        self.pack, self.lang = pack, lang
        self.drawn = {card.id: (front, back) for card, front, back in faces.cards} if faces else {}
        self.failed = {card.id for card in pack.cards()} - set(self.drawn) if faces else set()
        self.maker: FaceMaker | None = None

    def art(self, deck: Deck) -> Art | None:
        """The deck's back; a deck of two-faced cards has no common back: its first card's front,
        the face the box would show if it were glass."""
        card = deck.cards[0]
        if card.id in self.failed:                       # the build reported its faces; no art
            return None
        side = "back" if deck.back else "front"
        face = self._drawn(deck, card, side) or self._render(deck, card, side)
        if face is None:
            return None
        w, h = (pt_to_mm(v) for v in deck.size_pt)
        return Art(face.key, face.drawing, w, h)

    def _drawn(self, deck: Deck, card: Card, side: str) -> RenderedFace | None:
        pair = self.drawn.get(card.id)
        if pair is None or (side == "back" and self.pack.kinds[card.kind].back is not None):
            return None                                  # a two-faced card's own back is not the deck's
        return pair[1] if side == "back" else pair[0]

    def _render(self, deck: Deck, card: Card, side: str) -> RenderedFace | None:
        if self.maker is None:
            self.maker = FaceMaker(self.pack, self.lang)
        template = deck.back or self.pack.kinds[card.kind].front         # side is "back" when deck.back is set
        try:
            return self.maker.face(template, deck, card, side)
        except TemplateProblem as error:
            self.maker.failures.add(error, card, "back")
            return None

    def problems(self) -> list:
        return self.maker.failures.problems() if self.maker is not None else []


class _Words:
    """The build language's texts, remembering which key each printed text came from."""

    def __init__(self, pack: Pack, lang: str):
        self.pack, self.lang = pack, lang
        self.texts = Texts.of(pack, lang)
        self.keys: dict[str, str] = {}

    def own(self, key: str, fallback: str) -> str:
        """A pack text (a deck's or the game's name)."""
        text = str(self.pack.texts.get(self.lang, {}).get(key, fallback))
        self.keys.setdefault(text, key)
        return text

    def sheet(self, key: str, **values) -> str:
        """A shared sheet string (the pack may override `components.*`)."""
        try:
            text = self.texts.t(key, **values)
        except MissingText:
            text = sheet_text.t(self.lang, key, **values)
        self.keys.setdefault(text, key)
        return text

    def where(self, text: str) -> tuple[Path | str, int, str]:
        """File, line and key of the text that printed `text`."""
        key = self.keys.get(text, "")
        found = (self.pack.text_locations or {}).get(self.lang, {}).get(key)
        if found:
            return found[0], found[1], key
        if key.startswith(("components.", "sheet.")):
            if not sheet_text.has_language(self.lang) and key in self.pack.sheet_words.get(self.lang, {}):
                return self.pack.root / sheet_text.SUPPLIED / f"{self.lang}.yaml", 0, key
            return sheet_text.FOLDER / f"{self.lang if sheet_text.has_language(self.lang) else 'en'}.yaml", 0, key
        return self.pack.root / "pack.yaml", 0, key


def _boxes(pack: Pack, thickness: float, game_box: bool, words: _Words) -> list[tuple[Deck | None, BoxSize, str]]:
    decks = pack.boxed_decks()
    boxes: list[tuple[Deck | None, BoxSize, str]] = [
        (deck, _deck_size(deck, thickness), words.own(deck.name, deck.id)) for deck in decks]
    if game_box and len(decks) > 1:
        boxes.append((None, _game_size(decks, thickness), words.own(pack.name, pack.id)))
    return boxes


def plan_tuckboxes(pack: Pack, lang: str, paper: str = "a4", *, card_thickness_mm: float = HOME_CARD_THICKNESS_MM,
                   margin_mm: float = PRINTER_MARGIN_MM, game_box: bool = True,
                   faces: PreparedFaces | None = None, cache: FaceCache | None = None) -> TuckBoxPlan:
    """Lay out and draw every box of `pack` in `lang` (see the module's docstring); writes nothing.
    `faces`: the cards the build rendered in `lang`, whose backs the boxes show (else rendered here).
    `cache`: the build's face cache, which keeps the pages drawn (pnp.tuckbox.pagecache); a plan
    made with it holds no measured text boxes (`plan.boxes`, for `pnp i18n fit`)."""
    _check_arguments(paper, card_thickness_mm, margin_mm)
    plan = TuckBoxPlan(pack, lang, paper, margin_mm)
    problems = Problems()
    words = _Words(pack, lang)
    backs = _Backs(pack, lang, faces)
    game = words.own(pack.name, pack.id)
    nets, arts, texts = [], [], []
    for deck, size, name in _boxes(pack, card_thickness_mm, game_box, words):
        pieces = fits(size, paper, margin_mm)
        if pieces is None:
            if deck is not None:
                _too_large(problems, pack, deck, size, paper, margin_mm)
            else:
                plan.skipped.append(f"the whole game's box ({size.cards} cards, {size.depth:.1f} mm deep) does "
                                    f"not fit {paper} paper: each deck has its own")
            continue
        art_deck = deck if deck is not None else next((d for d in pack.decks if d.back and d.cards),
                                                                 next(d for d in pack.decks if d.cards))
        arts.append(backs.art(art_deck) if art_deck is not None else None)
        nets.append(TuckBoxNet(deck.id if deck else None, name, size, pieces))
        sizes = f"{size.width:.1f} × {size.height:.1f} × {size.depth:.1f} mm"
        texts.append(PanelText(front=name, game=game if deck is not None else "", sides=name, sizes=sizes))
    plan.problems.extend(backs.problems())
    plan.pages, placed = pack_pieces([n.pieces for n in nets], paper, margin_mm) if nets else ([], [])
    plan.nets = [TuckBoxNet(n.deck, n.name, n.size, n.pieces, tuple(p for p in placed if p.net == i))
                 for i, n in enumerate(nets)]
    plan._arts = arts
    plan._kept = PageCache(cache, pack, lang) if cache is not None else None
    _draw_pages(plan, placed, texts, words, problems, plan._kept)
    plan.problems.extend(problems.items)
    return plan


def _draw_pages(plan: TuckBoxPlan, placed: list[Placed], texts: list[PanelText], words: _Words,
                problems: Problems, kept: PageCache | None = None) -> None:
    direction = "rtl" if is_rtl(plan.lang) else "ltr"
    game = words.own(plan.pack.name, plan.pack.id)
    legend = {kind: words.sheet(f"components.legend.{kind}") for kind in ("cut", "fold", "glue")}
    report = FitReport()
    for page in plan.pages:
        on_page = [p for p in placed if p.page == page.number]
        names = " · ".join(dict.fromkeys(plan.nets[p.net].name for p in on_page))
        strip = StripText(words.sheet("components.print"), legend, words.sheet("components.test_bar"),
                          *(words.sheet("components.page_label", title=game, page=page.number + 1,
                                        pages=len(plan.pages), label=label) for label in (names, "")))
        first, found = len(report.boxes), None
        if kept is not None:
            key = kept.key(page, on_page, [texts[p.net] for p in on_page], strip, plan.margin, direction)
            plan._page_keys.append(key)
            found = kept.read(key)
        if found is not None:
            plan._faces.append(found)
            continue
        issues = len(report.issues)
        plan._faces.append(page_face(page, on_page, texts, strip, plan.margin, direction, report))
        if kept is not None:
            kept.keep(key, plan._faces[-1], report.issues[issues:])
        else:
            plan.boxes.extend((page.number, box, words.where(box.text)[2]) for box in report.boxes[first:])
    for issue in dict.fromkeys(report.issues):          # one problem per text, not per page
        file, line, key = words.where(issue.text)
        problems.add(issue.code, file, line, key, issue.message, lang=plan.lang, text_key=key, **issue.facts())


def write_tuckboxes(plan: TuckBoxPlan, path: str | Path) -> list[TuckBoxNet]:
    """Write a plan without problems to `path` (atomically; the same plan gives the same bytes)."""
    if plan.problems:
        raise DataError(plan.problems)
    if not plan.pages:
        raise ValueError(f"{plan.pack.id}: no deck has cards: there is no tuck box to print")
    game = plan.pack.texts.get(plan.lang, {}).get(plan.pack.name, plan.pack.id)
    title = f"{game} · {sheet_text.t_in(plan.lang, 'components.tuckbox', plan.pack.sheet_words.get(plan.lang))}"
    placed = [p for net in plan.nets for p in net.placements]
    kept, key = plan._kept, None
    if kept is not None:                    # the PDF of the same inputs, kept whole (pnp.tuckbox.pagecache)
        key = kept.document_key(plan._page_keys, plan.pages, placed, plan._arts, plan.margin, title, plan.lang)
        pdf = kept.read_document(key) if key is not None else None
        if pdf is not None:
            write_bytes_atomically(Path(path), pdf)
            return plan.nets
    write_pdf(path, plan.pages, plan._faces, placed, plan._arts, plan.margin, title=title, lang=plan.lang)
    if kept is not None and key is not None:
        kept.keep_document(key, Path(path).read_bytes())
    return plan.nets


def write_tuckboxes_pdf(pack: Pack, lang: str, path: str | Path, paper: str = "a4", *,
                        card_thickness_mm: float = HOME_CARD_THICKNESS_MM, margin_mm: float = PRINTER_MARGIN_MM,
                        game_box: bool = True) -> list[TuckBoxNet]:
    """Plan and write the tuck boxes of `pack` in `lang`; DataError (exit 2) before anything is
    written when a deck's box cannot be printed or a name cannot be drawn."""
    plan = plan_tuckboxes(pack, lang, paper, card_thickness_mm=card_thickness_mm, margin_mm=margin_mm,
                          game_box=game_box)
    return write_tuckboxes(plan, path)
