"""One defect, one message: the template failures of a pack's faces, grouped.

A broken template fails on every card that uses it, in every language; that is one thing to fix.
`TemplateFailures` collects the failures of one language's faces and makes one Problem per
defect: at the template's file and line (else the card's), naming the card that hit it first
(with its own file and line: a card's data may be what to fix) and how many more did. A template problem is not about a language (its `lang` is empty), so the same
defect met again while another language renders is an equal Problem, merged by every report
(the build's DataError and `pnp check` keep one of equal problems). A text problem
(text.lookup, text.control-char) stays one per language: each language has its own text to fix.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from pnp.errors import Problem, Problems, display_path
from pnp.pack import Card, Pack
from pnp.render.templates import TEMPLATE_NO_BACK, TemplateProblem
from pnp.render.textbox import TEXT_CONTROL


@dataclass
class _Group:
    error: TemplateProblem           # the first failure; the others are the same defect
    card: Card                       # the card that hit it first
    faces: set[str] = field(default_factory=set)
    cards: dict[str, None] = field(default_factory=dict)     # card ids (each copy is a card), in order


class TemplateFailures:
    """The template failures of one pack's faces in one language, one Problem per defect."""

    def __init__(self, pack: Pack, lang: str):
        self.pack = pack
        self.lang = lang
        self._groups: dict[tuple, _Group] = {}

    def add(self, error: TemplateProblem, card: Card, face: str) -> None:
        group = self._groups.setdefault(self._defect(error, card), _Group(error, card))
        group.faces.add(face)
        group.cards[card.id] = None

    @staticmethod
    def _defect(error: TemplateProblem, card: Card) -> tuple:
        """What makes two failures one defect: the same code at the same template line (or with the
        same reason when the line is unknown); a missing back, the same kind in the same deck."""
        if error.code == TEMPLATE_NO_BACK:
            return error.code, card.kind, card.deck
        return error.code, error.file or error.template, error.line, "" if error.line else error.reason

    def problems(self) -> list[Problem]:
        problems = Problems()
        for group in self._groups.values():
            error, card = group.error, group.card
            file, line, message = self._where(error, card)
            at_card = file == str(card.file)
            key = error.text_key if error.text_key and not at_card else f"card {card.base_id}"
            lang = self.lang if error.code.startswith("text.") else ""
            face = next(iter(group.faces)) if len(group.faces) == 1 else ""
            problems.add(error.code, file, line, key, message + self._cards(group, at_card), lang=lang, face=face,
                         template=error.template, template_line=error.line, cards=len(group.cards),
                         **({"text_key": error.text_key} if error.text_key else {}))
        return problems.items

    @staticmethod
    def _cards(group: _Group, at_card: bool) -> str:
        """Which card hit it first, and where it is (unless the problem is at that card already),
        and how many more did: " (card gate at cards/gate.yaml:1, and 94 more cards)"."""
        card, others = group.card, len(group.cards) - 1
        said = [] if at_card else [f"card {card.base_id} at {display_path(card.file)}:{card.line}"]
        if others:
            said.append(f"and {others} more card{'s' * (others != 1)}")
        return f" ({', '.join(said)})" if said else ""

    def _where(self, error: TemplateProblem, card: Card) -> tuple[str, int, str]:
        """The file, line and message of a failure: the template's file and line when known
        (the message then says only what is wrong), the text's line for a bad text, else the card."""
        if error.code == TEXT_CONTROL and error.text_key:
            located = self.pack.text_locations.get(self.lang, {}).get(error.text_key)
            if located:
                return str(located[0]), located[1], error.reason
        if error.file:
            return error.file, error.line, error.reason
        return str(card.file), card.line, error.message
