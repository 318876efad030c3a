"""The fit report: every text pnp prints, per language, with its box and the size it got; and
which texts do not fit their box (even at the minimum size) or lack glyphs.

Everything printed is laid out by the build's own code, without writing: card faces
(`pnp.build.render_faces`), components (boards, the mat, parts, player aids:
`pnp.components.plan.plan_components`, the mat included) and tuck boxes
(`pnp.tuckbox.plan_tuckboxes`). Each text box they measure (`pnp.text.fitreport.MeasuredBox`) is
one `PrintedText`: where it is (card and face, or component and page), its key, its box, the size
it printed at against the size asked for, its lines, and its findings: `text.small` under the
pack's floor (pack.yaml `text_floor_pt`, pnp.schema.TEXT_FLOOR_PT), `text.fit` when it does not
fit even at its minimum size. (The margin text of the card and parts sheets, the print
instruction and page labels, is placed by pnp.sheets.info at write time and is not in the report.)

The build's problems carry the FitIssue's fields and, when exactly one text key produced the
string, that key; a composed string (a key plus a number...) is traced to the keys it contains.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import NamedTuple

from pnp.build import fit_issue, render_faces
from pnp.errors import Problem, display_path
from pnp.i18n import sheet as sheet_text
from pnp.i18n.plurals import PluralText
from pnp.pack import Pack
from pnp.print_constants import PRINTER_MARGIN_MM
from pnp.text import fonts
from pnp.text.fitreport import TEXT_FIT, TEXT_SMALL, FitIssue, MeasuredBox

SHOWN_CHARS = 70        # a longer text is shortened in the listing


@dataclass
class TextFit:
    """One text that does not fit (or cannot be drawn) in one language, with every face it is on."""

    lang: str
    message: str                      # what is wrong, e.g. "'Due facce...' does not fit a 50x40 mm box even at 6 pt"
    issue: FitIssue | None            # None: a template problem, not a fit one
    keys: list[str]                   # text keys it comes from ("contains:" keys when composed)
    exact: bool                       # True: the text is exactly the text of `keys`
    where: list[str] = field(default_factory=list)   # "card alpha front (cards/main.yaml:1)"
    location: tuple[str, int] | None = None          # where the translation is (text/<lang>.yaml:line)

    @property
    def text(self) -> str | None:
        return self.issue.text if self.issue else None

    @property
    def shown(self) -> str:
        """The message with a long text shortened."""
        if self.issue is None or len(self.issue.text) <= SHOWN_CHARS:
            return self.message
        return replace(self.issue, text=self.issue.text[:SHOWN_CHARS - 3] + "...").message


def _keys_for(pack: Pack, lang: str, text: str) -> tuple[list[str], bool]:
    texts = pack.texts.get(lang, {})
    exact = [k for k, v in texts.items()
             if str(v) == text or (isinstance(v, PluralText) and text in v.forms.values())]
    if exact:
        return exact, True
    parts = [k for k, v in texts.items() if len(str(v)) >= 3 and str(v) in text]
    return parts, False


def fit_report(pack: Pack, langs: list[str]) -> dict[str, list[TextFit]]:
    """The card texts that do not fit or cannot be drawn, per language (cards only; see `language_fit`)."""
    report: dict[str, list[TextFit]] = {}
    for lang in langs:
        _faces, problems = render_faces(pack, lang, drawings=False)
        report[lang] = _problems(pack, lang, problems)
    return report


def _problems(pack: Pack, lang: str, problems: list[Problem]) -> list[TextFit]:
    found: dict[tuple, TextFit] = {}
    for problem in problems:
        group, entry = _entry(pack, lang, problem)
        found.setdefault(group, entry).where.append(_where(problem))
    return list(found.values())


@dataclass(frozen=True)
class Finding:
    """What is wrong with one printed text: `code` text.small (under the pack's floor) or text.fit."""

    code: str
    message: str
    file: str            # where to change it: the text's line in text/<lang>.yaml when its key is known,
    line: int            # else the card or component entry that prints it
    key: str

    def to_dict(self) -> dict:
        return {"code": self.code, "message": self.message, "file": self.file, "line": self.line, "key": self.key}


@dataclass
class PrintedText:
    """One text as it is printed in one language."""

    lang: str
    where: str                        # "card alpha front", "board p1 (components[0], lattice-guide)"
    what: str                         # which part of a component page ("legend", "aid text"); "" on cards
    key: str                          # the text key that produced it ("" when none or several did)
    box: MeasuredBox
    file: str                         # the card or component entry that prints it
    line: int
    findings: list[Finding] = field(default_factory=list)
    also: list[str] = field(default_factory=list)   # other places with the same text in the same box
    contains: list[str] = field(default_factory=list)   # no one key: the keys whose text it holds ("{x}:")
    dropped: bool = False             # sheet text that fits no margin: left off the page (text.fit)

    @property
    def text(self) -> str:
        return self.box.text

    def to_dict(self) -> dict:
        box = self.box
        return {"lang": self.lang, "where": self.where, "what": self.what, "key": self.key, "text": box.text,
                "box_mm": [round(box.box_mm[0], 2), round(box.box_mm[1], 2)], "size_pt": box.size_pt,
                "nominal_pt": box.nominal_pt, "min_size_pt": box.min_size_pt, "font": box.font,
                "lines": list(box.lines), "file": self.file, "line": self.line, "also": self.also,
                "contains": self.contains, "dropped": self.dropped,
                "findings": [f.to_dict() for f in self.findings]}


@dataclass
class LanguageFit:
    """The fit report of one language: every printed text, and the build's text problems."""

    lang: str
    floor_pt: float
    texts: list[PrintedText]
    problems: list[TextFit]           # does not fit, no glyph, template or missing-text problems

    @property
    def findings(self) -> list[tuple[PrintedText, Finding]]:
        return [(text, finding) for text in self.texts for finding in text.findings]


def language_fit(pack: Pack, lang: str, paper: str = "a4", layout: str = "duplex", flip: str = "long",
                 printer_margin: float = PRINTER_MARGIN_MM) -> LanguageFit:
    """Lay out everything `pack` prints in `lang` on `paper` and measure every text (the card
    sheets as `pnp build --layout --flip --printer-margin` prints them)."""
    from pnp.components.plan import has_components, plan_components
    from pnp.tuckbox import plan_tuckboxes

    floor = pack.text_floor_pt
    faces, problems = render_faces(pack, lang, drawings=False)
    printed = _card_texts(pack, lang, faces)
    plan = None
    if has_components(pack):
        plan = plan_components(pack, lang, paper, mat=True)
        problems = problems + [p for p in plan.problems if p.code.startswith("text.")]
        printed += _component_texts(pack, lang, plan)
    if any(deck.cards for deck in pack.decks):
        boxes = plan_tuckboxes(pack, lang, paper)
        file = display_path(pack.root / "pack.yaml")
        printed += [PrintedText(lang, f"tuck box p{page + 1}", box.what, key, box, file, 0)
                    for page, box, key in boxes.boxes]
    printed += sheet_margin_texts(pack, lang, faces, plan, paper, layout, flip, printer_margin)
    texts = _merged(printed)
    for text in texts:
        if not text.key:       # a composed text ("{legend}:", "1/7"): the keys it holds, if any
            keys, exact = _keys_for(pack, lang, text.text)
            if exact and len(keys) == 1:
                text.key = keys[0]
            elif not exact:
                text.contains = keys
        text.findings = _findings(pack, text, floor)
    return LanguageFit(lang, floor, texts, _problems(pack, lang, problems))


def _card_texts(pack: Pack, lang: str, faces) -> list[PrintedText]:
    printed = []
    for card, *rendered in faces.cards:
        if card.copy != 1:
            continue
        for side, face in zip(("front", "back"), rendered):
            printed += [PrintedText(lang, f"card {card.base_id} {side}", "", face.text_key(box.text), box,
                                    display_path(card.file), card.line) for box in face.boxes]
    return printed


def _component_texts(pack: Pack, lang: str, plan) -> list[PrintedText]:
    source = pack.sources.get("components")
    printed = []
    for index, document, pages, box, key in plan.boxes:
        spec = pack.components[index] if index is not None else {}
        label = document if pages is None else \
            f"{document} p{pages[0] + 1}" + (f"-{pages[1] + 1}" if pages[1] > pages[0] else "")
        entry = f"components[{index}], {spec.get('type')}" if index is not None else "parts pages"
        line = source.line((index,)) if source is not None and index is not None else 0
        file = display_path(source.file) if source is not None else display_path(pack.root / "pack.yaml")
        printed.append(PrintedText(lang, f"{label} ({entry})", box.what, key, box, file, line))
    return printed


# ---- sheet text: the margins of card sheets, component pages and the calibration sheet

class _Trim(NamedTuple):
    trim_w: float
    trim_h: float


def sheet_margin_texts(pack: Pack, lang: str, faces, plan, paper: str, layout: str = "duplex", flip: str = "long",
                       printer_margin: float = PRINTER_MARGIN_MM) -> list[PrintedText]:
    """The sheet text of every page as the PDF writers place it: card sheets (one page per sheet
    geometry and side stands for its run of sheets, labelled with the run's last, widest, sheet
    number), every page of every component document (`plan`, when the pack has components), and
    the calibration sheet."""
    from pnp.components.core import Context
    from pnp.components.plan import DOCUMENTS, page_instructions
    from pnp.sheets.calibrate import plan_text
    from pnp.sheets.info import measured
    from pnp.sheets.parts import place_page_text
    from pnp.sheets.pdfwriter import place_sheet_text, plan_sheets, sheet_texts, sides

    font = fonts.register("regular")
    direction = sheet_text.direction(lang)
    printed: list[PrintedText] = []

    name = pack.text_locations.get(lang, {}).get(pack.name)

    def add(where: str, found) -> None:
        for item, box in found:
            file, line = _sheet_location(lang, item.key)
            contains = _SHEET_PARTS.get(item.key, {}).get(layout, [])
            if item.key in _LABELS:        # the game's name makes a page label long: its line is the one to change
                contains = [pack.name]
                if name:
                    file, line = display_path(name[0]), name[1]
            printed.append(PrintedText(lang, where, box.what, item.key, box, file, line, contains=contains,
                                       dropped=box.overflow and box.size_pt is None))

    cards = [_Trim(*pack.deck(card.deck).size_pt) for card, *_ in faces.cards]
    if cards:
        sheets = plan_sheets(cards, paper, layout, flip, printer_margin)
        texts = sheet_texts(lang, sheet_text.card_instructions(lang))
        title = sheet_text.t(lang, "sheet.title", game=pack.texts.get(lang, {}).get(pack.name, pack.id))
        runs: dict[int, list[int]] = {}      # a geometry -> its sheets' numbers
        for number, (_sprue, geo, _chunk) in enumerate(sheets, start=1):
            runs.setdefault(id(geo), []).append(number)
        for numbers in runs.values():
            geo = sheets[numbers[0] - 1][1]
            label = f"card sheet {numbers[0]}" if len(numbers) == 1 else f"card sheets {numbers[0]}-{numbers[-1]}"
            for side in sides(layout):
                placed, missing = place_sheet_text(geo, texts, side, layout, flip, numbers[-1], len(sheets), title,
                                                   font, direction)
                add(f"{label} {side} margin", measured(placed, missing, font))
    if plan is not None:
        instructions = page_instructions(Context(pack, lang, paper))
        for document in DOCUMENTS:
            pages = plan.documents.get(document) or []
            for number, page in enumerate(pages, start=1):
                label = instructions["label"].format(page=number, pages=len(pages), label=page.label)
                placed, missing = place_page_text(paper, page.landscape, instructions["print"],
                                                  instructions["test_bar"], label, font, direction)
                add(f"{document} p{number} margin", measured(placed, missing, font))
    for text in plan_text(paper, flip, lang):
        file, line = _sheet_location(lang, text.key)
        printed.append(PrintedText(lang, f"calibration sheet {text.side}", text.what, text.key, text.box, file, line))
    return printed


# a composed sheet text: the keys it holds, by layout
_SHEET_PARTS = {"sheet.instructions": {"duplex": ["sheet.print", "sheet.duplex_long"],
                                       "gutterfold": ["sheet.print", "sheet.gutterfold"]}}


_LABELS = ("sheet.label", "components.page_label")


def _sheet_location(lang: str, key: str) -> tuple[str, int]:
    """Where the shared sheet text `key` is worded in `lang` (pnp/i18n/sheet/<lang>.yaml and line)."""
    from pnp.i18n.lint import sheet_texts

    found = sheet_texts(lang if sheet_text.has_language(lang) else sheet_text.SOURCE).get(key)
    return (display_path(Path(found.file)), found.line) if found else ("", 0)


def _merged(printed: list[PrintedText]) -> list[PrintedText]:
    """One row per text, box and size: a card back printed on forty cards is one row (`also`)."""
    rows: dict[tuple, PrintedText] = {}
    for text in printed:
        if not text.box.text.strip():
            continue
        b = text.box
        group = (text.what, text.key, b.text, b.box_mm, b.size_pt, b.nominal_pt, b.font, b.lines)
        first = rows.setdefault(group, text)
        if first is not text and text.where not in first.also and text.where != first.where:
            first.also.append(text.where)
    return list(rows.values())


def _findings(pack: Pack, text: PrintedText, floor: float) -> list[Finding]:
    box = text.box
    file, line = text.file, text.line
    if text.key or len(text.contains) == 1:
        found = pack.text_locations.get(text.lang, {}).get(text.key or text.contains[0])
        if found:
            file, line = display_path(found[0]), found[1]
    w, h = box.box_mm
    key = text.key or ", ".join(text.contains)
    if box.overflow:
        dropped = ": it is left off the page" if text.dropped else ""
        return [Finding(TEXT_FIT, f"{box.text!r} does not fit its {w:.1f}x{h:.1f} mm box even at "
                                  f"{box.min_size_pt or 0:g} pt{dropped}", file, line, key)]
    if box.size_pt is not None and box.size_pt < floor - 1e-9:
        return [Finding(TEXT_SMALL, f"{box.text!r} prints at {box.size_pt:g} pt in its {w:.1f}x{h:.1f} mm box, "
                                    f"under the pack's {floor:g} pt floor", file, line, key)]
    return []


def _where(problem: Problem) -> str:
    face = f" {problem.face}" if problem.face else ""
    return f"{problem.key}{face} ({problem.file}:{problem.line})"


def _entry(pack: Pack, lang: str, problem: Problem) -> tuple[tuple, TextFit]:
    issue = fit_issue(problem)
    if issue is None:     # a template or missing-text problem, not a fit one: show it as it is
        return (problem.code, problem.message), TextFit(lang, problem.message, None, [], False)
    text_key = problem.get("text_key", "")
    keys, exact = ([text_key], True) if text_key else _keys_for(pack, lang, issue.text)
    location = None
    if exact and len(keys) == 1:
        found = pack.text_locations.get(lang, {}).get(keys[0])
        if found:
            location = (display_path(found[0]), found[1])
    return (issue, *keys), TextFit(lang, issue.message, issue, keys, exact, location=location)
