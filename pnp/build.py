"""The build: one readable function of named stages.

    load -> validate -> expand quantities -> lay out and render faces -> impose -> write

Everything that can fail on the data (text that does not fit, a missing glyph, a broken template)
fails before the first file is written, for every requested game and language at once. The write
stage is all or nothing too: every document (cards, boards, parts, PNGs, every language, every
game) goes to a staging folder and replaces the previous output only once all are written.
"""
from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from pnp import (
    collector,
    components,  # light: its drawing code loads when first used (pnp.components.__getattr__)
    composition,  # light too: the rules checker loads for a pack that has rules
    tuckbox,  # light too: loads when a deck has a tuck box (pnp.tuckbox.__getattr__)
)
from pnp.errors import DataError, OutputError, PnpError, Problem, Problems, display_path
from pnp.facecache import FaceCache
from pnp.i18n import sheet as sheet_text
from pnp.i18n.status import stale_summary
from pnp.limits import MAX_FACES_PER_BUILD
from pnp.loadcache import LoadCache
from pnp.pack import Card, Deck, Pack, load_pack
from pnp.preview import write_previews
from pnp.print_constants import BLEED_MM, FLIPS, LAYOUTS, PRINTER_MARGIN_MM  # noqa: F401  (re-exported: the CLI and tests read them here)
from pnp.progress import BuildProgress
from pnp.render.faces import FaceMaker, RenderedFace
from pnp.render.templates import TEMPLATE_NO_BACK, TemplateProblem
from pnp.render.textbox import TEXT_CONTROL
from pnp.sheets.pdfcommon import Staging, remove_leftovers, staged
from pnp.sheets.pdfparts import PdfParts
from pnp.sheets.pdfwriter import Face, SheetCard, write_cards_pdf
from pnp.sheets.sprues import NoLayoutError, find_sprue
from pnp.text import digits, fonts
from pnp.text.fitreport import TEXT_FIT, TEXT_GLYPH, TEXT_ICON, TEXT_MARKUP, TEXT_OFF_CARD, TEXT_SMALL, FitIssue
from pnp.yamlsource import dotted

if TYPE_CHECKING:   # boards, parts, tuck boxes and PNG previews load when a build makes them (start-up time)
    from pnp.components import ComponentPlan
    from pnp.tuckbox import TuckBoxPlan

FACES = ("front", "back")
TEXT_MISSING = "text.missing"           # a text key the build language lacks (also the loader's code)
PRINT_NO_LAYOUT = "print.no-layout"     # a deck's card size fits no sheet layout on this paper
CACHE_UNWRITABLE = "cache.unwritable"   # the face cache folder cannot be written: a warning, the build goes on
SHEET_WORDS = "i18n.sheet-words"        # shared sheet words printing in English (pnp lacks the language)
WARNED_TEXT = (TEXT_SMALL, TEXT_OFF_CARD)  # text problems the build prints as warnings and goes on
# a text's own problems: said where the text is written (at_the_texts)
TEXT_PROBLEMS = (TEXT_FIT, TEXT_GLYPH, TEXT_CONTROL, TEXT_MARKUP, TEXT_ICON)


class UnknownLanguageError(PnpError):
    pass


class BuildTooLargeError(PnpError):
    """More card faces than pnp.limits.MAX_FACES_PER_BUILD: refused before anything is rendered."""


class RulesError(PnpError):
    """The deck breaks its game's composition rules (`pnp check`); `--force` prints it anyway."""

    exit_code = 1


class UnusableRulesError(RulesError):
    """The game's rules file itself is broken: unusable data, exit 2 like any DataError."""

    exit_code = DataError.exit_code


@dataclass(frozen=True)
class BuildOptions:
    """What `pnp build` was asked for."""

    lang: str | None = None            # None or "all": every declared language of each game
    paper: str = "a4"                  # a4 | letter
    layout: str = "duplex"             # duplex | gutterfold
    flip: str = "long"                 # long | short (duplex only)
    back_offset_mm: tuple[float, float] = (0.0, 0.0)
    printer_margin_mm: float = PRINTER_MARGIN_MM  # the paper edge's dead zone: no art, mark or text in it
    out: Path = Path("output")
    png: bool = False
    mat: bool = False                  # also the full-size play mats (components of type *-mat)
    force: bool = False                # print even when the rules checker finds errors
    strict: bool = False               # a missing translation is an error, not the English text
    digits: str | None = None          # latin | arabic-indic for the rtl languages; None: pack.yaml's (pnp.text.digits)
    cache: bool = True                 # read and fill the face cache (pnp.facecache); --no-cache: draw all


@dataclass
class PreparedFaces:
    """Every card of one pack rendered in one language, ready to impose."""

    pack: Pack
    lang: str
    cards: list[tuple[Card, RenderedFace, RenderedFace]]


@dataclass
class BuildResult:
    files: list[Path] = field(default_factory=list)
    faces: int = 0
    warnings: list[Problem] = field(default_factory=list)
    cleaned: int = 0                   # leftover temp files and staging folders of interrupted builds
    drawn: list[str] = field(default_factory=list)   # "card:side" of each face drawn (not from the cache)
    cached: int = 0                    # faces read back from the face cache
    reused: int = 0                    # PDF streams (faces' forms, pages) written as the last build wrote them


def build(games: list[str], options: BuildOptions, progress: BuildProgress | None = None) -> BuildResult:
    """Build `games` as `options` say; `progress` (pnp.progress) counts faces drawn and pages written."""
    try:
        with collector.eased():                                        # fewer collector passes
            return _build(games, options, progress)
    finally:
        if progress is not None:
            progress.finish()


def _build(games: list[str], options: BuildOptions, progress: BuildProgress | None) -> BuildResult:
    check_out_folder(options.out)
    load_cache = LoadCache() if options.cache else None                # card files unchanged since the last build
    built = None if options.lang in (None, "all") else {options.lang}   # missing texts said for these only
    packs = [load_pack(game, strict=options.strict, load_cache=load_cache, languages=built)   # load + validate + expand
             for game in games]
    if not options.force:
        check_rules(packs, built)                                      # composition rules
    for pack in packs:
        release_checked_data(pack)                                     # flat memory
    jobs = [(pack, lang) for pack in packs for lang in languages_for(pack, options.lang)]
    words = [p for pack, lang in jobs for p in sheet_word_problems(pack, lang)]   # sheet words in English
    if options.strict and any(p.get("english") for p in words):
        raise DataError([p for p in words if p.get("english")])
    stale = [p for pack, lang in jobs for p in stale_summary(pack, lang)]   # a warning, even under --strict
    check_face_count(jobs)                                             # bounded time and memory
    check_layouts(packs, options)                                      # every deck fits the paper
    prepared: list[PreparedFaces] = []
    plans: list[ComponentPlan | None] = []
    boxes: list[TuckBoxPlan | None] = []
    problems: list[Problem] = []
    cache = FaceCache() if options.cache else None
    if progress is not None:
        progress.stage("faces drawn", sum(2 * len(pack.cards()) for pack, _lang in jobs))
    for pack, lang in jobs:                                            # lay out + render
        with digits.using(digits.for_language(pack.digits, lang, options.digits)):   # how numbers print
            faces, on_faces = render_faces(pack, lang, cache=cache, keep_svg=False, packed=True,
                                           on_card=progress.advance if progress is not None else None)
            prepared.append(faces)
            plan, on_components = render_components(pack, lang, options)  # boards, parts, aids
            plans.append(plan)
            box = plan_boxes(faces, options, cache)                       # a tuck box per deck
            boxes.append(box)
            on_boxes = box.problems if box is not None else []
            problems.extend(at_the_texts(pack, [*on_faces, *on_components, *on_boxes]))   # as `pnp check` says them
    if cache is not None:
        cache.save()                                                   # the faces drawn, even if the build stops
    # Text printed under MIN_PRINTED_PT still prints (a designer may want it), and text past the
    # card's edge may be inside a transform that brings it back: warnings, not refusals.
    small = [p for p in problems if p.code in WARNED_TEXT]
    problems = [p for p in problems if p.code not in WARNED_TEXT]
    if problems:
        raise DataError(problems)
    result = BuildResult(warnings=[*(w for pack in packs for w in pack.warnings), *words, *stale, *small])
    result.cleaned = sum(remove_leftovers(output_dir(pack, options)) for pack in packs)
    with staged() as staging:                                          # impose + write, all or nothing
        written = write_documents(prepared, plans, boxes, options, staging, progress, cache)
    result.files = [staging.final(path) for path in written]
    result.faces = sum(2 * len(faces.cards) for faces in prepared)
    if cache is not None:
        result.drawn, result.cached, result.reused = cache.drawn, cache.hits, cache.streams_reused
        if cache.unwritable:
            result.warnings.append(Problem(str(cache.folder), 0, "faces",
                                           f"the face cache could not be written ({cache.unwritable}): every "
                                           "build draws every face; set PNP_CACHE_DIR to a folder pnp may write to",
                                           code=CACHE_UNWRITABLE))
        cache.trim()
    else:
        result.drawn = [f"{card.id}:{side}" for faces in prepared for card, *_ in faces.cards for side in FACES]
    return result


def plan_boxes(faces: PreparedFaces, options: BuildOptions, cache: FaceCache | None) -> TuckBoxPlan | None:
    """The tuck boxes of the pack in the build's language; None when no deck wants one (its
    pack.yaml entry says `tuckbox: false`): then pnp.tuckbox's code and its drawing kit
    (svgwrite) are not even loaded, a tenth of a small build's start."""
    if not faces.pack.boxed_decks():
        return None
    return tuckbox.plan_tuckboxes(faces.pack, faces.lang, options.paper,
                                  card_thickness_mm=tuckbox.HOME_CARD_THICKNESS_MM,
                                  margin_mm=options.printer_margin_mm, faces=faces, cache=cache)


def write_documents(prepared: list[PreparedFaces], plans: list[ComponentPlan | None],
                    boxes: list[TuckBoxPlan | None],
                    options: BuildOptions, staging: Staging, progress: BuildProgress | None = None,
                    cache: FaceCache | None = None) -> list[Path]:
    """Write every document of the build into the staging folders; returns the staged files. With
    the face `cache`, the cards PDF reuses the streams of an earlier build (pnp.sheets.pdfparts)."""
    written: list[Path] = []
    for faces, plan, box in zip(prepared, plans, boxes, strict=True):
        folder = staging.folder(output_dir(faces.pack, options))
        if plan is not None:                                           # boards, parts (pnp.components)
            written.extend(components.write_components(plan, folder, png=options.png))
        if not faces.cards:                                            # a game without cards (yet)
            continue
        written.append(write_pdf(faces, options, folder, on_page=progress.pages if progress is not None else None,
                                 cache=cache))
        if box is not None and box.pages:
            target = folder / f"{faces.pack.id}-tuckboxes-{faces.lang}-{options.paper}.pdf"
            tuckbox.write_tuckboxes(box, target)
            written.append(target)
        if options.png:
            written.extend(write_previews(faces, folder))
    return written


def check_out_folder(out: Path) -> None:
    """Refuse an output folder that is a file before any work is done."""
    if out.exists() and not out.is_dir():
        raise OutputError(f"--out {display_path(out)}: is a file, not a folder")


def check_face_count(jobs: list[tuple[Pack, str]]) -> None:
    """Refuse a build of more than MAX_FACES_PER_BUILD card faces (two per card, per language)
    before rendering any: it would take hours and more memory than the machine has."""
    per_game: dict[str, int] = {}
    for pack, _lang in jobs:
        per_game[pack.id] = per_game.get(pack.id, 0) + 2 * sum(len(deck.cards) for deck in pack.decks)
    total = sum(per_game.values())
    if total > MAX_FACES_PER_BUILD:
        games = ", ".join(f"{game} {count:,}" for game, count in per_game.items())
        raise BuildTooLargeError(f"this build would render {total:,} card faces ({games}; front and back, "
                                 f"every language), more than the {MAX_FACES_PER_BUILD:,} one build may "
                                 "(pnp.limits.MAX_FACES_PER_BUILD): build fewer games or one --lang at a time")


def check_layouts(packs: list[Pack], options: BuildOptions) -> None:
    """Refuse, before rendering, a deck whose cards fit no sheet of the paper with the bleed and
    crop marks every card needs outside the printer margin: one problem per deck, at its card_size."""
    problems = Problems()
    for pack in packs:
        main = pack.sources.get("pack")
        for index, deck in enumerate(pack.decks):
            if not deck.cards:
                continue
            try:
                find_sprue(*deck.size_pt, options.paper, options.layout, options.printer_margin_mm)
            except NoLayoutError as error:
                where = ("decks", index, "card_size")
                problems.add(PRINT_NO_LAYOUT, main.file if main else pack.root / "pack.yaml",
                             main.line(where) if main else 0, dotted(where),
                             f"deck {deck.id!r}: {error} (try another --paper or --layout, or a smaller"
                             " --printer-margin)", main.snippet(where) if main else "",
                             paper=options.paper, layout=options.layout, printer_margin=options.printer_margin_mm)
    if problems.items:
        raise DataError(problems.items)


def render_components(pack: Pack, lang: str, options: BuildOptions) -> tuple[ComponentPlan | None, list[Problem]]:
    """Draw the pack's non-card components (pnp.components); (None, []) when it declares none. The
    problems carry codes (component.*, text.fit, text.glyph, text.missing...) and the language."""
    if not pack.components:                                            # (pnp.components.has_components)
        return None, []
    plan = components.plan_components(pack, lang, options.paper, mat=options.mat)
    return plan, list(plan.problems)


def _face_problems(problems: Problems, face: RenderedFace, card: Card, side: str, lang: str) -> None:
    """What went wrong with the text of one face: each FitIssue's fields go to the problem's detail
    (see fit_issue) with `text_key`, the key that produced the text when exactly one did."""
    label = f"card {card.base_id}"
    for issue in face.issues:
        problems.add(issue.code, card.file, card.line, label, issue.message, lang=lang, face=side,
                     text_key=face.text_key(issue.text), **issue.facts())
    for key in face.missing_keys:
        problems.add(TEXT_MISSING, card.file, card.line, label, f"text key {key!r} has no {lang!r} text", lang=lang,
                     face=side, text_key=key, language=lang)


def sheet_word_problems(pack: Pack, lang: str) -> list[Problem]:
    """The shared sheet words (pnp.i18n.sheet: print instructions, page labels, the cut/fold/glue
    legend, "Player aid"...) a build in `lang` prints in English, pnp lacking the language and the
    pack's text/sheet/<lang>.yaml (if any) lacking them: one problem (detail `english`: how many;
    an error under --strict). A text/sheet/<lang>.yaml of a language pnp has is not used: pnp's
    own words print, alike in every game (a warning, never an error: pnp may come to ship the
    language after the game wrote it)."""
    supplied = pack.sheet_words.get(lang)
    file = display_path(pack.root / sheet_text.SUPPLIED / f"{lang}.yaml")
    if sheet_text.has_language(lang):
        if supplied is None:
            return []
        return [Problem(file, 0, "", f"not used: pnp has its own {lang!r} sheet words "
                        f"(pnp/i18n/sheet/{lang}.yaml), which every game prints alike", code=SHEET_WORDS,
                        lang=lang, detail=(("language", lang),))]
    english = sheet_text.unsupplied(lang, supplied)
    if not english:
        return []
    total = len(sheet_text.table(sheet_text.SOURCE))
    if supplied is None:
        said = (f"pnp has no {lang!r} sheet words: all {total} print in English (the print instructions, page "
                f"labels, the cut/fold/glue legend, 'Player aid'...); write this file, the keys of "
                f"pnp/i18n/sheet/en.yaml translated")
    else:
        shown = ", ".join(english[:4]) + (", ..." if len(english) > 4 else "")
        said = (f"{len(english)} of the {total} shared sheet words are not here and print in English ({shown}); "
                f"add them, translated (the keys of pnp/i18n/sheet/en.yaml)")
    return [Problem(file, 0, "", said, code=SHEET_WORDS, lang=lang,
                    detail=(("english", len(english)), ("language", lang)))]


def at_the_texts(pack: Pack, problems: list[Problem]) -> list[Problem]:
    """A text's own problem (TEXT_PROBLEMS: it does not fit, a glyph no font has, markup...) is
    said where the text is written when a text file has it: at its key's line in text/<lang>.yaml,
    keyed by the text key, the card or component it prints on leading the message; and once per
    text, code and language however many faces print it ('(and 35 more faces)'). A text written
    in the card data keeps its card's place. The build and `pnp check` (pnp.check.printing) both
    say them so; the other problems are returned as they are."""
    out: list[Problem | tuple] = []
    groups: dict[tuple, list[Problem]] = {}
    for problem in problems:
        text_key = problem.get("text_key") if problem.code in TEXT_PROBLEMS else None
        located = pack.text_locations.get(problem.lang, {}).get(text_key) if text_key else None
        if located is None or display_path(located[0]) == problem.file:
            out.append(problem)
            continue
        file, line = located
        moved = replace(problem, file=display_path(file), line=line, key=str(text_key), snippet="",
                        message=f"{problem.key}: {problem.message}")
        group = (moved.code, moved.file, moved.line, moved.key, moved.lang)
        if group not in groups:
            groups[group] = []
            out.append(group)
        groups[group].append(moved)
    return [item if isinstance(item, Problem) else _merged(groups[item]) for item in out]


def _merged(members: list[Problem]) -> Problem:
    first = members[0]
    if len(members) == 1:
        return first
    more = len(members) - 1
    return replace(first, message=f"{first.message} (and {more} more face{'s' if more > 1 else ''})")


def fit_issue(problem: Problem) -> FitIssue | None:
    """The FitIssue a text.fit or text.glyph problem was made from (None for other problems)."""
    if problem.code not in (TEXT_FIT, TEXT_GLYPH):
        return None
    return FitIssue.from_facts(problem.code, problem.get)


def release_checked_data(pack: Pack) -> None:
    """Let go of what only the load and the rules checker read (issue 13, flat memory: about 10 MB
    at 9,500 cards): the card files as loaded (their line maps and lines, pnp.yamlsource.Source)
    and the record of texts written in the data (Pack.literal_texts, for pnp i18n; the texts
    themselves stay in pack.texts). Every later problem names its card by the Card's own file and
    line."""
    for deck in pack.decks:
        deck.source = None
    pack.literal_texts = {}


def check_rules(packs: list[Pack], languages: Collection[str] | None = None) -> None:
    """Refuse decks that break their game's composition rules (or whose rules file is broken). The
    checker is loaded only for a pack that has rules. `languages`: those built (None: all); a
    finding about another language (a `text` rule's missing text) does not stop this build."""
    if not any(composition.has_rules(pack.root) for pack in packs):
        return
    # each finding once, in file and line order, as `pnp check` says them: a card of quantity 4
    # breaking a rule is one finding, not four
    errors = sorted(dict.fromkeys(f for pack in packs for f in composition.check_composition(pack)
                                  if f.severity == composition.ERROR and _built(f, pack, languages)),
                    key=composition.Finding.sort_key)
    if errors:
        lines = [f"the rules checker found {len(errors)} error{'s' * (len(errors) != 1)}; "
                 "nothing was printed (fix them, or build with --force):", *map(str, errors)]
        # the rules file itself unusable is a data error (exit 2), as in `pnp check`
        raise (UnusableRulesError if any(f.fatal for f in errors) else RulesError)("\n".join(lines))


def _built(finding: composition.Finding, pack: Pack, languages: Collection[str] | None) -> bool:
    """Whether a rules finding concerns the build: any but one about a declared language not built."""
    language = finding.get("language") or finding.lang
    return languages is None or language not in pack.languages or language in languages


def languages_for(pack: Pack, requested: str | None) -> list[str]:
    if requested in (None, "all"):
        return list(pack.languages)
    if requested not in pack.languages:
        raise UnknownLanguageError(f"{pack.id}: unknown language {requested!r} "
                                   f"(this game has: {', '.join(pack.languages)})")
    return [requested]


def faces_of(pack: Pack, deck: Deck, card: Card) -> tuple[str, str]:
    """Front and back templates: a two-faced kind names its back, others use the deck's back."""
    kind = pack.kinds[card.kind]
    back = kind.back or deck.back
    if back is None:
        raise TemplateProblem(TEMPLATE_NO_BACK, f"card {card.id} has no back: give kind {card.kind!r} or deck "
                              f"{deck.id!r} a back")
    return kind.front, back


def render_faces(pack: Pack, lang: str, drawings: bool = True, bleed_mm: float = BLEED_MM,
                 cache: FaceCache | None = None, keep_svg: bool = True, packed: bool = False,
                 on_card: Callable[[int], None] | None = None) -> tuple[PreparedFaces, list[Problem]]:
    """Lay out and render every face; `drawings=False` only checks (no SVG conversion).

    Every problem names the card (file, line, key "card <id>"), the language and the face, and
    carries its code: text.fit / text.glyph (detail: the FitIssue's fields and `text_key`, the key
    that produced the text when exactly one did), text.missing, or a template.* code: one problem
    per broken template, at its file and line (pnp.render.failures). With a `cache`, faces whose
    inputs are unchanged are read back from it (pnp.facecache), the others drawn and stored;
    `keep_svg=False` leaves the faces' SVG text out (RenderedFace.svg == ""), as the build does;
    `packed=True` keeps each unique drawing compressed until the PDF draws it (a PackedFace of
    pnp.render.facedata) and of each face only its key and drawing once its problems are taken:
    the build's memory stays flat however many cards it prints."""
    maker = FaceMaker(pack, lang, drawings=drawings, bleed_mm=bleed_mm, cache=cache, keep_svg=keep_svg,
                      packed=packed)
    problems = Problems()
    cards = []
    for deck in pack.decks:
        for card in deck.cards:
            rendered: list[RenderedFace] = []
            side = "back"                                  # faces_of fails for want of a back
            try:
                templates = faces_of(pack, deck, card)
                for side, template in zip(FACES, templates, strict=True):
                    rendered.append(maker.face(template, deck, card, side))
            except TemplateProblem as error:
                maker.failures.add(error, card, side)      # one problem per defect, not per card
                continue
            if card.copy == 1:
                for side, face in zip(FACES, rendered, strict=True):
                    _face_problems(problems, face, card, side, lang)
            if packed:       # the build: what the faces said is in `problems`; keep only what is printed
                rendered = [RenderedFace(face.key, "", face.drawing) for face in rendered]
            cards.append((card, rendered[0], rendered[1]))
            if on_card is not None:
                on_card(2)                                 # its two faces: drawn or read back
    return PreparedFaces(pack, lang, cards), problems.items + maker.failures.problems()


def output_dir(pack: Pack, options: BuildOptions) -> Path:
    return options.out / pack.id


def pdf_name(pack: Pack, lang: str, options: BuildOptions) -> str:
    layout = "" if options.layout == "duplex" else f"-{options.layout}"
    return f"{pack.id}-cards-{lang}-{options.paper}{layout}.pdf"


def write_pdf(faces: PreparedFaces, options: BuildOptions, folder: Path | None = None,
              on_page: Callable[[int, int], None] | None = None, cache: FaceCache | None = None) -> Path:
    """The cards PDF of one pack and language, into `folder` (default: the pack's output folder);
    with the face `cache`, the form and page streams of the last build of this PDF whose inputs
    are unchanged are reused (pnp.sheets.pdfparts: the same bytes, drawn once)."""
    pack = faces.pack
    target = (folder or output_dir(pack, options)) / pdf_name(pack, faces.lang, options)
    target.parent.mkdir(parents=True, exist_ok=True)
    sheet_cards = []
    sizes = {deck.id: deck.size_pt for deck in pack.decks}
    for card, front, back in faces.cards:
        trim_w, trim_h = sizes[card.deck]
        sheet_cards.append(SheetCard(front=Face(front.key, front.drawing), back=Face(back.key, back.drawing),
                                     trim_w=trim_w, trim_h=trim_h, label=card.id))
    title = pack.texts[faces.lang].get(pack.name, pack.id)
    supplied = pack.sheet_words.get(faces.lang)                        # a language pnp's sheet words lack
    parts = None
    if cache is not None:
        parts = PdfParts.open(cache.folder, f"{pack.root.resolve()}\0{target.name}")
    # Sheet text (instructions, page labels, test bar) in the build language, from the string pack
    # every game shares (pnp/i18n/sheet), drawn through the text layer's fonts (Cyrillic, Arabic).
    try:
        write_cards_pdf(target, sheet_cards, paper=options.paper, layout=options.layout, flip=options.flip,
                        back_offset=options.back_offset_mm,
                        title=sheet_text.t_in(faces.lang, "sheet.title", supplied, game=title),
                        subject=f"pnp print-and-play sheets: {pack.id}", lang=faces.lang,
                        instructions=sheet_text.card_instructions(faces.lang, supplied), font=fonts.register("regular"),
                        printer_margin=options.printer_margin_mm, on_page=on_page, page_reports=False, parts=parts,
                        last=output_dir(pack, options) / target.name)
    except BaseException:
        if parts is not None:
            parts.discard()                                    # no half-written file of streams
        raise
    if parts is not None and cache is not None:
        why = parts.save()
        cache.unwritable = cache.unwritable or why
        cache.streams_reused += parts.reused
    return target
