"""Draw a pack's components for one language and paper, collect what is wrong, write the PDFs.

`plan_components` draws every entry of `pack.components` with its type's drawer (types from
pnp.components.types) and files the result in its document (board, parts, mat). Nothing is
written: the plan's `problems` (pnp.errors.Problem, each with a code, components.yaml's file and
the entry's line, the key `components[<index>]` or `components[<index>].<setting>`, and the
language) let the build stop before anything is printed. `write_components` writes the PDFs.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnp.components import types
from pnp.components.core import (
    TEXT_LOOKUP,
    TEXT_MISSING,
    Context,
    Part,
    pack_parts,
    part_room,
)
from pnp.components.errors import COMPONENT_DATA, COMPONENT_SIZE, ComponentError
from pnp.errors import Problem, Problems, display_path
from pnp.pack import Pack
from pnp.render.svgcanvas import UnsupportedSvg
from pnp.sheets.parts import PartsPage, write_parts_pdf
from pnp.text import fonts, hyphenate, packfonts
from pnp.text.fitreport import FitReport, MeasuredBox
from pnp.units import PT_PER_IN
from pnp.yamlsource import dotted

DOCUMENTS = types.DOCUMENTS


@dataclass
class ComponentPlan:
    pack: Pack
    lang: str
    paper: str
    documents: dict[str, list[PartsPage]] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    # every text box drawn, for `pnp i18n fit`: (entry index or None for the parts pages' own text,
    # the document, its first and last page (0-based; parts: set once they are packed), the box, its key)
    boxes: list[tuple[int | None, str, tuple[int, int] | None, MeasuredBox, str]] = field(default_factory=list)


def has_components(pack: Pack) -> bool:
    return bool(pack.components)


class _Reporter:
    """Problems about the entries of components.yaml, in one language."""

    def __init__(self, pack: Pack, lang: str):
        self.source = pack.sources.get("components")
        self.file: Any = self.source.file if self.source is not None else pack.root / "pack.yaml"
        self.lang = lang
        self.problems = Problems()

    def add(self, code: str, index: int | None, key: str | None, message: str, **detail: Any) -> None:
        """A problem at entry `index`'s setting `key`, in this language unless `detail` says `lang`."""
        path: tuple = () if index is None else (index,) if not key else (index, key)
        label = "components" + dotted(path) if path else "components"
        snippet = self.source.snippet(path) if self.source is not None and path else ""
        self.problems.add(code, self.file, self._line(path), label, message, snippet, **{"lang": self.lang, **detail})

    def component_error(self, index: int, error: ComponentError) -> None:
        """A drawer's error. One of a template is the same in every language, so it is said in
        none (the reports keep one of equal problems); when the template could be read, at the
        template's file and line, as a card template's would be, naming the entry and its line."""
        template = error.template
        if template is None:
            self.add(error.code, index, error.key, error.message)
        elif not template.file:     # it could not be read: at the setting naming it
            self.add(error.code, index, error.key, error.message, lang="", component=index)
        else:
            path = (index, error.key) if error.key else (index,)
            self.problems.add(template.code, template.file, template.line, "components" + dotted(path),
                              f"{template.reason} (named at {display_path(self.file)}:{self._line(path)})",
                              template=template.template, template_line=template.line, component=index)

    def _line(self, path: tuple) -> int:
        return self.source.line(path) if self.source is not None and path else 0

    def text(self, index: int | None, ctx: Context) -> None:
        """What the text layer and the lookups found while `ctx.report` was being filled."""
        for issue in ctx.report.issues:
            known = {"text_key": key} if (key := ctx.text_keys.get(issue.text)) else {}
            self.add(issue.code, index, None, issue.message, **issue.facts(), **known)
        for key in dict.fromkeys(ctx.report.missing_keys):
            self.add(TEXT_MISSING, index, None, f"text key {key!r} has no {self.lang!r} text", text_key=key)
        for message in dict.fromkeys(ctx.lookup_errors):
            self.add(TEXT_LOOKUP, index, None, message)
        ctx.report, ctx.lookup_errors = FitReport(), []


def plan_components(pack: Pack, lang: str, paper: str, mat: bool = False) -> ComponentPlan:
    """Draw every component of `pack` (mat documents only with `mat`) in `lang` on `paper`, with
    the pack's own fonts and icons where it declares them (the loader reported unusable ones)."""
    with packfonts.using(packfonts.assets_of(pack)), hyphenate.using(lang):
        return _plan_components(pack, lang, paper, mat)


def _plan_components(pack: Pack, lang: str, paper: str, mat: bool) -> ComponentPlan:
    plan = ComponentPlan(pack, lang, paper)
    reporter = _Reporter(pack, lang)
    known = types.registered()
    ctx = Context(pack, lang, paper)
    groups: list[list[Part]] = []
    owners: dict[int, int] = {}       # a part's face -> its entry, for the pages of `plan.boxes`
    for index, spec in enumerate(pack.components):
        kind = known.get(str(spec.get("type"))) if isinstance(spec, dict) else None
        if kind is None:      # the loader reports it; a Pack built by hand may still hold one
            reporter.add(COMPONENT_DATA, index, "type", f"unknown component type {spec.get('type')!r} "
                         f"(known: {', '.join(sorted(known))})" if isinstance(spec, dict) else "not a mapping")
            continue
        if kind.document == "mat" and not mat:
            continue
        ctx.settings = spec
        first_page = len(plan.documents.get(kind.document, []))
        try:
            drawn = kind.drawer()(ctx, spec)
            if kind.document == "parts":
                _check_sizes(ctx, drawn)
        except ComponentError as error:
            reporter.component_error(index, error)
        except (KeyError, TypeError, ValueError, IndexError, UnsupportedSvg) as error:
            reporter.add(COMPONENT_DATA, index, None, f"{kind.name} cannot be drawn from this data: "
                         f"{type(error).__name__}: {error}")
        else:
            if kind.document == "parts":
                groups.extend(drawn)
                owners.update((id(part.face), index) for group in drawn for part in group)
            else:
                plan.documents.setdefault(kind.document, []).extend(drawn)
        pages = None if kind.document == "parts" else (first_page, len(plan.documents.get(kind.document, [])) - 1)
        _keep_boxes(plan, ctx, index, kind.document, pages)
        reporter.text(index, ctx)
    if groups:
        try:
            plan.documents["parts"] = pack_parts(ctx, groups, ctx.t("components.parts"))
        except ComponentError as error:
            reporter.add(error.code, None, None, error.message)
        _keep_boxes(plan, ctx, None, "parts", None)
        _parts_pages(plan, owners)
        reporter.text(None, ctx)
    plan.problems = list(dict.fromkeys(reporter.problems.items))
    return plan


def _keep_boxes(plan: ComponentPlan, ctx: Context, index: int | None, document: str,
                pages: tuple[int, int] | None) -> None:
    plan.boxes.extend((index, document, pages, box, ctx.text_keys.get(box.text) or "") for box in ctx.report.boxes)


def _parts_pages(plan: ComponentPlan, owners: dict[int, int]) -> None:
    """The parts pages each entry's boxes print on, once the parts are packed."""
    pages = plan.documents.get("parts", [])
    found: dict[int | None, list[int]] = {None: list(range(len(pages)))} if pages else {}
    for number, page in enumerate(pages):
        for placement in page.placements:
            if (index := owners.get(id(placement.face))) is not None:
                found.setdefault(index, []).append(number)
    plan.boxes = [(index, document, pages_ if document != "parts" or index not in found
                   else (min(found[index]), max(found[index])), box, key)
                  for index, document, pages_, box, key in plan.boxes]


def _check_sizes(ctx: Context, groups: list[list[Part]]) -> None:
    room_w, room_h = part_room(ctx.paper)
    for group in groups:
        for p in group:
            wide, tall = p.w > room_w + 1e-6, p.h > room_h + 1e-6
            if wide or tall:
                # at the entry's setting that made it so, when it has one (else at the entry)
                spec = ctx.settings if isinstance(ctx.settings, dict) else {}
                key = next((k for k, too_big in (("width", wide), ("height", tall), ("size", True))
                            if too_big and k in spec), None)
                raise ComponentError(f"{p.label or 'a part'} ({p.w:.0f}x{p.h:.0f} mm) does not fit the page "
                                     f"({room_w:.0f}x{room_h:.0f} mm under the legend on {ctx.paper})",
                                     key, code=COMPONENT_SIZE)


def document_name(pack: Pack, document: str, lang: str, paper: str) -> str:
    return f"{pack.id}-{document}-{lang}-{paper}.pdf"


def write_components(plan: ComponentPlan, out_dir: Path, png: bool = False) -> list[Path]:
    """Write the plan's documents (and with `png` a preview of each page) into `out_dir`, each file
    atomically; the build passes its staging folder (pnp.sheets.pdfcommon.staged), so a failure in
    one document leaves every previously built one as it was. Returns the files written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    ctx = Context(plan.pack, plan.lang, plan.paper)
    written = []
    instructions = page_instructions(ctx)
    for document in DOCUMENTS:
        pages = plan.documents.get(document)
        if not pages:
            continue
        target = out_dir / document_name(plan.pack, document, plan.lang, plan.paper)
        write_parts_pdf(target, pages, paper=plan.paper, title=f"{ctx.title} — {ctx.t('components.' + document)}",
                        subject=f"pnp print-and-play {document}: {plan.pack.id}", lang=plan.lang,
                        instructions=instructions, font=fonts.register("regular"))
        written.append(target)
        if png:
            written.extend(write_page_previews(target, out_dir / f"png-{plan.lang}" / "components"))
    return written


def page_instructions(ctx: Context) -> dict[str, str]:
    """The margin text of every component page (write_parts_pdf's `instructions`; the fit report
    reads it too): the game's own wording of components.print and components.test_bar where it
    has one, else the shared sheet words, and the page label's template."""
    return {"print": ctx.t("components.print"), "test_bar": ctx.t("components.test_bar"),
            "label": footer_template(ctx)}


def footer_template(ctx: Context) -> str:
    """The page footer: "<game> · page {page}/{pages} · {label}". The PDF's title names the
    document too ("<game> — Parts"), but every page label already starts with the document's name
    ("Parts", "Board · Tile 1.2", "Layout guide"), so the footer names the game only: the document
    is said once. (components.page_label's {title}; the other placeholders stay for the writer.)"""
    game = ctx.title.replace("{", "{{").replace("}", "}}")
    return ctx.t("components.page_label", title=game, page="{page}", pages="{pages}", label="{label}")


def write_page_previews(pdf: Path, folder: Path, dpi: int = 100) -> list[Path]:
    """One PNG per page of a components PDF."""
    import pypdfium2 as pdfium

    from pnp.preview import save_png
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    document = pdfium.PdfDocument(str(pdf))
    try:
        for number, page in enumerate(document, start=1):
            target = folder / f"{pdf.stem}-p{number:02d}.png"
            save_png(page.render(scale=dpi / PT_PER_IN).to_pil().convert("RGB"), target)
            written.append(target)
    finally:
        document.close()
    return written
