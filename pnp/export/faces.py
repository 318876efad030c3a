"""The card faces of an export, rendered for the shop's page: its trim, its bleed.

A shop cuts a deck to its own trim (DriveThruCards and The Game Crafter cut a 63 x 88 mm poker deck
at 2.5 x 3.5 in). Each face is rendered once by the build's face maker with a bleed large enough to
cover the shop's trim plus bleed, and centred on that page: the art is never scaled, the safe zone
stays where the template put it, and a bleed is a parameter, not a rescale.
"""
from __future__ import annotations

import io
import math
from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from pnp.build import render_faces
from pnp.errors import DataError, Problem
from pnp.export.cardtext import CardTexts
from pnp.export.presets import Preset
from pnp.pack import Card, Deck, Pack
from pnp.render.faces import RenderedFace
from pnp.text import digits
from pnp.units import mm, pt_to_mm


@dataclass(frozen=True)
class Frame:
    """An export page in points: the shop's trim with `bleed` on every side."""

    trim: tuple[float, float]
    bleed: float

    @property
    def page(self) -> tuple[float, float]:
        return self.trim[0] + 2 * self.bleed, self.trim[1] + 2 * self.bleed

    def art_bleed_mm(self, card_pt: tuple[float, float]) -> float:
        """The bleed a face of this card size needs to cover the page, rounded up to 0.001 mm
        (templates write lengths to 0.001 mm)."""
        page = self.page
        need = max((page[0] - card_pt[0]) / 2, (page[1] - card_pt[1]) / 2)
        return math.ceil(round(pt_to_mm(need) * 1000, 6)) / 1000


@dataclass(frozen=True)
class ExportCard:
    card: Card
    front: RenderedFace
    back: RenderedFace
    own_back: bool          # its kind has a back of its own (else it shows the deck's back)
    title: str | None = None    # its name and rules text in the export's language, when its kind
    rules: str | None = None    # declares them (pnp.export.cardtext)


@dataclass
class ExportDeck:
    deck: Deck
    name: str               # the deck's name in the export language
    frame: Frame
    cards: list[ExportCard]

    @property
    def shared_back(self) -> RenderedFace | None:
        """The deck's back when every card shows it, else None (some card has its own back)."""
        if not self.cards or any(c.own_back for c in self.cards):
            return None
        return self.cards[0].back


def render_decks(pack: Pack, lang: str, preset: Preset) -> list[ExportDeck]:
    """Every deck of `pack` with cards, its faces rendered in `lang` for the preset's page. Any
    problem of any face (text that does not fit, a broken template) is a DataError, all at once."""
    frames = {deck.id: Frame(preset.trim_pt(deck.size_pt), mm(preset.bleed_mm)) for deck in pack.decks}
    by_bleed: dict[float, list[str]] = {}
    for deck in pack.decks:
        by_bleed.setdefault(frames[deck.id].art_bleed_mm(deck.size_pt), []).append(deck.id)
    rendered: dict[str, tuple[RenderedFace, RenderedFace]] = {}
    problems: list[Problem] = []
    for bleed, deck_ids in by_bleed.items():          # one pass per distinct bleed (one, usually)
        with digits.using(digits.for_language(pack.digits, lang)):    # the pack's digits, as pnp build
            prepared, found = render_faces(pack, lang, bleed_mm=bleed)
        problems.extend(found)
        rendered.update({card.id: (front, back) for card, front, back in prepared.cards if card.deck in deck_ids})
    card_texts = CardTexts(pack, lang)
    decks = []
    texts = pack.texts[lang]
    for deck in pack.decks:
        cards = [ExportCard(card, *rendered[card.id], own_back=pack.kinds[card.kind].back is not None,
                            title=card_texts.title(card), rules=card_texts.rules(card))
                 for card in deck.cards if card.id in rendered]
        if cards:
            decks.append(ExportDeck(deck, texts.get(deck.name, deck.name), frames[deck.id], cards))
    if problems or card_texts.problems:
        raise DataError(problems + card_texts.problems)
    return decks


def draw_face_page(canvas: Canvas, forms: dict[str, str], face: RenderedFace, frame: Frame) -> None:
    """One page of the frame's size holding `face` centred on it; each distinct face is one form
    XObject (`forms`: face key -> form name), so copies cost nothing."""
    page_w, page_h = frame.page
    canvas.setPageSize((page_w, page_h))
    name = forms.get(face.key)
    if name is None:
        name = forms[face.key] = f"pnpface{len(forms)}"
        face.drawing.define_form(canvas, name)
    canvas.saveState()
    canvas.translate((page_w - face.drawing.width) / 2, (page_h - face.drawing.height) / 2)
    canvas.doForm(name)
    canvas.restoreState()
    canvas.showPage()


def faces_pdf(faces: list[RenderedFace], frame: Frame, title: str = "", subject: str = "") -> bytes:
    """An sRGB PDF of `faces`, one per page of the frame's size (each distinct face one form)."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1, pageCompression=1)
    canvas.setTitle(title)
    canvas.setSubject(subject)
    canvas.setCreator("pnp")
    forms: dict[str, str] = {}
    for face in faces:
        draw_face_page(canvas, forms, face, frame)
    canvas.save()
    return buffer.getvalue()
