"""`pnp export`: one game's cards in a preset's form, all or nothing.

    load -> render every face of every language (all problems at once) -> write into a staging
    folder -> move into output/<game>/export-<preset>/<lang>/ together

A failure part way leaves the previous export as it was; files a previous export wrote and this
one did not (a sheet fewer, a card removed) are removed once the new export is in place, so the
folder always holds exactly one export to upload.
"""
from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field, replace
from pathlib import Path

from pnp.build import check_face_count, check_out_folder, languages_for
from pnp.errors import DataError, PnpError, Problem
from pnp.export.colour import CmykConverter, load_cmyk_profile
from pnp.export.faces import ExportDeck, render_decks
from pnp.export.pdfx import write_pdfx
from pnp.export.presets import Preset, find_preset
from pnp.export.raster import png_bytes, rasterize
from pnp.export.tts import write_deck
from pnp.outputfiles import Staging, remove_leftovers, staged, write_bytes_atomically
from pnp.pack import Pack, load_pack
from pnp.render.faces import RenderedFace
from pnp.tuckbox import TuckBoxPlan, plan_tuckboxes, write_tuckboxes


class ExportError(PnpError):
    """An export that cannot be made as asked (an option the preset does not take, two files of
    one name)."""


@dataclass(frozen=True)
class ExportOptions:
    preset: str
    lang: str | None = None            # None or "all": every declared language
    out: Path = Path("output")
    dpi: int | None = None             # None: the preset's
    icc: Path | None = None            # the CMYK profile of pdfx presets (None: the default one)
    strict: bool = False               # a missing translation is an error, not the source text


@dataclass
class ExportResult:
    preset: Preset
    folder: Path
    files: list[Path] = field(default_factory=list)
    removed: int = 0                   # stale files of a previous export
    cleaned: int = 0                   # leftovers of an interrupted one
    tuckboxes: list[Path] = field(default_factory=list)   # beside `folder`: for home printing, not the shop
    warnings: list[Problem] = field(default_factory=list)


def export(game: str, options: ExportOptions) -> ExportResult:
    preset = find_preset(options.preset)
    converter = _converter(preset, options)
    dpi = options.dpi or preset.dpi
    check_out_folder(options.out)
    built = None if options.lang in (None, "all") else {options.lang}   # missing texts said for these only
    pack = load_pack(game, strict=options.strict, languages=built)
    languages = languages_for(pack, options.lang)
    check_face_count([(pack, lang) for lang in languages])
    rendered = {lang: render_decks(pack, lang, preset) for lang in languages}   # every problem first
    boxes = _tuckboxes(pack, preset, languages)
    folder = options.out / pack.id / f"export-{preset.name}"
    # the tuck boxes are RGB A4 nets to print at home, which no shop takes: they go beside the
    # folder a shop is sent, never in it
    boxes_folder = options.out / pack.id / f"tuckboxes-{preset.name}"
    result = ExportResult(preset, folder, warnings=list(pack.warnings))
    result.cleaned = sum(remove_leftovers(f) for f in (folder, boxes_folder) if f.is_dir())
    with staged() as staging:
        written = _write_all(pack, preset, rendered, converter, dpi, staging, folder)
        for lang, box in boxes.items():
            target = staging.folder(boxes_folder) / lang / f"{pack.id}-tuckboxes-{lang}-a4.pdf"
            target.parent.mkdir(parents=True, exist_ok=True)
            write_tuckboxes(box, target)
            result.tuckboxes.append(staging.final(target))
    result.files = [staging.final(path) for path in written]
    for lang in languages:
        for root in (folder, boxes_folder):
            result.removed += _remove_stale(root / lang, {*result.files, *result.tuckboxes})
    return result


def _tuckboxes(pack: Pack, preset: Preset, languages: list[str]) -> dict[str, TuckBoxPlan]:
    """Tuck-box nets (A4, to print at home) for cards the shop prints: sized from the shop's trim
    and the preset's stock thickness. None for Tabletop Simulator, whose cards are not paper."""
    if preset.output == "tts":
        return {}
    decks = [replace(deck, size_pt=preset.trim_pt(deck.size_pt)) for deck in pack.decks]
    shop_cards = replace(pack, decks=decks)
    plans = {lang: plan_tuckboxes(shop_cards, lang, "a4", card_thickness_mm=preset.card_thickness_mm)
             for lang in languages}
    problems = [p for plan in plans.values() for p in plan.problems]
    if problems:
        raise DataError(problems)
    return {lang: plan for lang, plan in plans.items() if plan.pages}


def _converter(preset: Preset, options: ExportOptions) -> CmykConverter | None:
    if preset.output != "pdfx":
        if options.icc is not None:
            raise ExportError(f"--icc: preset {preset.name!r} writes RGB {preset.output} files; an ICC "
                              "profile applies to the CMYK presets (dtc)")
        return None
    converter = CmykConverter(load_cmyk_profile(options.icc))
    _ = converter.transform                                # a missing sRGB profile fails here, not mid-write
    return converter


def _write_all(pack: Pack, preset: Preset, rendered: dict[str, list[ExportDeck]],
               converter: CmykConverter | None, dpi: int, staging: Staging, folder: Path) -> list[Path]:
    staged_folder = staging.folder(folder)
    written: list[Path] = []
    for lang, decks in rendered.items():
        out = staged_folder / lang
        title = pack.texts[lang].get(pack.name, pack.id)
        for deck in decks:
            if preset.output == "pdfx":
                assert converter is not None
                written += _write_pdfx(deck, preset, converter, out, pack.id, title)
            elif preset.output == "png":
                written += _write_pngs(deck, preset, dpi, out, pack.id)
            else:
                written += write_deck(deck, preset, dpi, out, folder / lang, pack.id, write_bytes_atomically)
    _refuse_duplicates(written, preset)
    return written


def _refuse_duplicates(paths: list[Path], preset: Preset) -> None:
    seen: set[Path] = set()
    for path in paths:
        if path in seen:
            raise ExportError(f"preset {preset.name!r}: two files would be named {path.name!r}; its file "
                              "patterns need {n} or {card} to tell them apart (pnp/export/presets.yaml)")
        seen.add(path)


def _write_pdfx(deck: ExportDeck, preset: Preset, converter: CmykConverter, out: Path, game: str,
                title: str) -> list[Path]:
    cards = _cards(deck, preset)
    written = []
    for role, faces in (("fronts", [c.front for c in cards]), ("backs", [c.back for c in cards])):
        target = out / preset.file(role, game=game, deck=deck.deck.id, card="", n=0, sheet=0)
        target.parent.mkdir(parents=True, exist_ok=True)
        write_pdfx(target, faces, deck.frame, converter, title=f"{title}: {deck.name} ({role})",
                   subject=f"pnp export {preset.name}: {game}, deck {deck.deck.id}, {role}")
        written.append(target)
    return written


def _cards(deck: ExportDeck, preset: Preset) -> list:
    """The cards that get a file (or page) each: every copy, or the first copy of each card."""
    return deck.cards if preset.copies == "each" else [c for c in deck.cards if c.card.copy == 1]


def _write_pngs(deck: ExportDeck, preset: Preset, dpi: int, out: Path, game: str) -> list[Path]:
    """A PNG per card front (and own back), and the deck's back once; each distinct face is
    rasterized once however many copies are written."""
    planned: list[tuple[Path, RenderedFace]] = []
    names = dict(game=game, deck=deck.deck.id, sheet=0)
    for n, card in enumerate(_cards(deck, preset), start=1):
        label = card.card.base_id if preset.copies == "once" else card.card.id.replace("#", "-")
        planned.append((out / preset.file("front", **names, card=label, n=n), card.front))
        if card.own_back:
            planned.append((out / preset.file("back", **names, card=label, n=n), card.back))
    plain = next((c.back for c in deck.cards if not c.own_back), None)
    if plain is not None:
        planned.append((out / preset.file("deck_back", **names, card="back", n=0), plain))
    faces = list({face.key: face for _, face in planned}.values())
    images = dict(zip([f.key for f in faces], (png_bytes(im, dpi) for im in rasterize(faces, deck.frame, dpi))))
    for target, face in planned:
        write_bytes_atomically(target, images[face.key])
    return [target for target, _ in planned]


def _remove_stale(folder: Path, keep: set[Path]) -> int:
    """Delete the files below `folder` this export did not write, and folders left empty."""
    removed = 0
    if not folder.is_dir():
        return 0
    for root, dirs, files in os.walk(folder, topdown=False):
        for name in files:
            path = Path(root) / name
            if path not in keep:
                with contextlib.suppress(OSError):
                    path.unlink()
                    removed += 1
        for name in dirs:
            with contextlib.suppress(OSError):
                (Path(root) / name).rmdir()               # only when empty
    return removed
