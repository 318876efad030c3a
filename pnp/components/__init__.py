"""Components that are not cards: boards, tiles, standees, pieces, walls, dice, player aids.

A pack lists what to print in its `components` collection (data/<game>/components.yaml): a list of
entries, each with a `type` (one of DRAWERS) and that drawer's settings, e.g.

    - {type: square-board, board: board, pieces: pieces}
    - {type: dice, dice: dice, face: 18mm}

Drawers use svgwrite (pnp.components.svgkit) with text laid out by the project's text layer; the
pages go through pnp.sheets.parts (the cards' PDF machinery). One build writes, per language:

    <game>-board-<lang>-<paper>.pdf   boards and layout guides (tiled with an assembly map if needed)
    <game>-parts-<lang>-<paper>.pdf   standees, pieces, walls, dice, player aids (with the legend)
    <game>-mat-<lang>-<paper>.pdf     only with --mat: full-size play mats, tiled

    plan = plan_components(pack, lang, paper, mat=False)   # draws everything, collects problems
    paths = write_components(plan, out_dir, png=False)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pnp.components.core import ComponentError, Context, Part, pack_parts, tiled_pages
from pnp.pack import Pack
from pnp.sheets.parts import PartsPage, write_parts_pdf
from pnp.text import fonts

DOCUMENTS = ("board", "parts", "mat")
COLLECTION = "components"


@dataclass
class ComponentPlan:
    pack: Pack
    lang: str
    paper: str
    documents: dict[str, list[PartsPage]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def _square_board(ctx, spec, docs, parts, mat):
    from pnp.components import zvv
    sketch, w, h = zvv.draw_board(ctx, spec)
    from pnp.components.svgkit import sketch_face
    docs.setdefault("board", []).extend(tiled_pages(ctx, sketch_face(sketch), w, h, ctx.t("components.board")))


def _parts(module: str, function: str):
    def drawer(ctx, spec, docs, parts, mat):
        import importlib
        groups = getattr(importlib.import_module(f"pnp.components.{module}"), function)(ctx, spec)
        parts.extend(groups)
    return drawer


def _cemetery_guide(ctx, spec, docs, parts, mat):
    from pnp.components import cimiterio
    docs.setdefault("board", []).extend(cimiterio.guide_pages(ctx, spec))


def _cemetery_mat(ctx, spec, docs, parts, mat):
    if mat:
        from pnp.components import cimiterio
        docs.setdefault("mat", []).extend(cimiterio.mat_pages(ctx, spec))


DRAWERS = {
    "square-board": _square_board,
    "tokens": _parts("zvv", "draw_tokens"),
    "walls": _parts("zvv", "draw_walls"),
    "dice": _parts("zvv", "draw_dice"),
    "cemetery-guide": _cemetery_guide,
    "cemetery-mat": _cemetery_mat,
    "standee": _parts("cimiterio", "draw_standees"),
    "aid": _parts("aids", "draw_aids"),
}


def has_components(pack: Pack) -> bool:
    return COLLECTION in pack.collections


def plan_components(pack: Pack, lang: str, paper: str, mat: bool = False) -> ComponentPlan:
    plan = ComponentPlan(pack, lang, paper)
    entries = pack.collections.get(COLLECTION) or []
    if not isinstance(entries, list):
        plan.problems.append("the components collection must be a list of {type: ...} entries")
        return plan
    ctx = Context(pack, lang, paper)
    parts: list[list[Part]] = []
    for index, spec in enumerate(entries):
        kind = spec.get("type") if isinstance(spec, dict) else None
        if kind not in DRAWERS:
            plan.problems.append(f"entry {index + 1}: unknown component type {kind!r} "
                                 f"(known: {', '.join(sorted(DRAWERS))})")
            continue
        try:
            DRAWERS[kind](ctx, spec, plan.documents, parts, mat)
        except (ComponentError, KeyError, TypeError, ValueError) as error:
            plan.problems.append(f"entry {index + 1} ({kind}): {type(error).__name__}: {error}")
    if parts:
        try:
            plan.documents["parts"] = pack_parts(ctx, parts, ctx.t("components.parts"))
        except ComponentError as error:
            plan.problems.append(str(error))
    plan.problems.extend(f"[{lang}] {message}" for message in ctx.issues.all())
    plan.problems.extend(f"[{lang}] text key {key!r} has no {lang!r} text" for key in dict.fromkeys(ctx.missing_keys))
    return plan


def document_name(pack: Pack, document: str, lang: str, paper: str) -> str:
    return f"{pack.id}-{document}-{lang}-{paper}.pdf"


def write_components(plan: ComponentPlan, out_dir: Path, png: bool = False) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    ctx = Context(plan.pack, plan.lang, plan.paper)
    written = []
    instructions = {"print": ctx.t("components.print"), "test_bar": ctx.t("components.test_bar"),
                    "label": footer_template(ctx)}
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

    from pnp.preview import _save_png
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    document = pdfium.PdfDocument(str(pdf))
    try:
        for number, page in enumerate(document, start=1):
            target = folder / f"{pdf.stem}-p{number:02d}.png"
            _save_png(page.render(scale=dpi / 72.0).to_pil().convert("RGB"), target)
            written.append(target)
    finally:
        document.close()
    return written
