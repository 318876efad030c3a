"""Sheet and UI text in every language: the shared string pack (pnp/i18n/sheet), the card sheets'
instructions, the component pages (legend, page label, test bar), the calibration sheet, and Arabic
drawn shaped and right-to-left by the text layer, mirrored where it should be."""
from __future__ import annotations

import dataclasses
import re
import shutil
import subprocess
import unicodedata
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from conftest import cimiterio_with_spanish
from pdftext import pdf_pages
from reportlab.pdfbase import pdfmetrics

from pnp.build import render_faces
from pnp.cli import main
from pnp.components import plan_components, write_components
from pnp.components.core import Context
from pnp.components.svgkit import to_face
from pnp.i18n import sheet
from pnp.i18n.plurals import category, required_categories
from pnp.pack import load_pack
from pnp.render.svgcanvas import _op_glyphs, _op_line_glyphs
from pnp.sheets import Face, SheetCard, write_calibration_pdf, write_cards_pdf
from pnp.sheets.info import draw_text
from pnp.text import fonts, shaping

TESTS = Path(__file__).resolve().parent
TINY = TESTS / "packs" / "tiny"
LANGS = ("en", "it", "uk", "ar", "de")
ARABIC = "PnpArabic-Regular"


@pytest.fixture(scope="module", autouse=True)
def registered():
    fonts.register_all()


def page_text(path: Path, index: int) -> str:
    document = pdfium.PdfDocument(str(path))
    try:
        return document[index].get_textpage().get_text_range()
    finally:
        document.close()


def words(text: str) -> str:
    return " ".join(re.sub("[\u200e\u200f\u202a-\u202e]", "", text).split())


def arabic_words(text: str) -> list[str]:
    """The words of a text without combining marks (poppler puts a shadda before its letter)."""
    bare = "".join(c for c in text if not unicodedata.combining(c))
    # Arabic letters, other letters and numbers apart: poppler glues "مم50" and "الورقةTiny"
    return re.findall(r"[\u0620-\u064a\u066e-\u06d3]+|[^\W\d_\u0600-\u06ff]+|\d+", bare)


def has_text(lang: str, expected: str, text: str) -> bool:
    """`expected` is in `text`; for Arabic, which poppler re-orders around numbers and
    punctuation, every word of it is there (shaped glyphs read back as the right letters)."""
    if lang != "ar":
        return words(expected) in text
    found = set(arabic_words(text))
    return all(word in found for word in arabic_words(expected))


def poppler_text(path: Path, first: int = 1, last: int | None = None) -> str:
    """Text in logical order as poppler reads it (it applies the bidi algorithm; pdfium does not)."""
    args = ["pdftotext", "-raw", "-f", str(first)] + (["-l", str(last)] if last else []) + [str(path), "-"]
    return words(subprocess.run(args, capture_output=True, text=True, check=True).stdout)


def sheet_text_of(path: Path, lang: str, index: int = 0, last: int | None = None) -> str:
    if lang == "ar":
        if not shutil.which("pdftotext"):
            pytest.skip("pdftotext (poppler) is needed to read Arabic back in logical order")
        return poppler_text(path, index + 1, last or index + 1)
    return words(page_text(path, index))


def isolated_gids(text: str, font: str = ARABIC) -> set[int]:
    return {gid for char in text if not char.isspace() for gid in shaping.shape(char, font, True).gids()}


def drawn_gids(font: str, glyphs: str) -> list[int]:
    face = pdfmetrics.getFont(font).face
    return [face.charToGlyph[ord(c)] for c in glyphs]


# --------------------------------------------------------------------------------------------
# The string pack

def test_string_pack_has_every_key_in_every_language():
    assert set(LANGS) <= set(sheet.languages())
    assert sheet.check() == []                        # a missing or broken translation fails here
    english = sheet.table("en")
    for lang in LANGS:
        assert set(sheet.table(lang)) == set(english), lang


def test_a_missing_translation_is_reported(tmp_path, monkeypatch):
    for lang in ("en", "it"):
        (tmp_path / f"{lang}.yaml").write_text((sheet.FOLDER / f"{lang}.yaml").read_text(encoding="utf-8")
                                               .replace('  back: "retro"\n', ""), encoding="utf-8")
    monkeypatch.setattr(sheet, "FOLDER", tmp_path)
    sheet.languages.cache_clear()
    sheet._load.cache_clear()
    try:
        assert any("it.yaml: sheet.back: missing" in p for p in sheet.check())
    finally:
        sheet.languages.cache_clear()
        sheet._load.cache_clear()


def test_a_plural_text_missing_a_form_is_reported(tmp_path, monkeypatch):
    """The plural forms are checked by check() (not on every load, which a build does)."""
    for lang in ("en", "uk"):
        text = (sheet.FOLDER / f"{lang}.yaml").read_text(encoding="utf-8")
        (tmp_path / f"{lang}.yaml").write_text(text.replace('    few: "{n} фрагменти"\n', ""), encoding="utf-8")
    monkeypatch.setattr(sheet, "FOLDER", tmp_path)
    sheet.languages.cache_clear()
    sheet._load.cache_clear()
    try:
        found = [p for p in sheet.check() if p.startswith("uk.yaml: components.tiles:")]
        assert len(found) == 1 and "few" in found[0]
    finally:
        sheet.languages.cache_clear()
        sheet._load.cache_clear()


@pytest.mark.parametrize("lang", LANGS)
def test_plural_texts_have_every_form_and_pick_by_number(lang):
    plural = sheet.table(lang)["components.tiles"]
    assert set(plural.forms) == set(required_categories(lang))
    for n in (0, 1, 2, 3, 4, 5, 11, 21, 100, 1_000_000):
        text = sheet.t(lang, "components.tiles", n=n)
        assert text == plural.forms[category(lang, n)].replace("{n}", str(n))
    if lang == "ar":
        assert sheet.t("ar", "components.tiles", n=2) == "ورقتان"
        assert sheet.t("ar", "components.tiles", n=4) == "4 أوراق"
        assert sheet.t("ar", "components.tiles", n=11) == "11 ورقةً"
    if lang == "uk":
        assert [sheet.t("uk", "components.tiles", n=n) for n in (1, 3, 5)] == ["1 фрагмент", "3 фрагменти",
                                                                              "5 фрагментів"]


def test_unknown_language_falls_back_to_english():
    assert sheet.t("fr", "sheet.front") == "front"
    assert sheet.direction("ar") == "rtl" and sheet.direction("uk") == "ltr"


# --------------------------------------------------------------------------------------------
# Card sheets: the tiny pack's faces, written in each language with the shared strings

@pytest.fixture(scope="module")
def tiny_cards():
    pack = load_pack(TINY)
    prepared, problems = render_faces(pack, pack.languages[0])
    assert problems == []
    cards = []
    for card, front, back in prepared.cards:
        deck = pack.deck(card.deck)
        cards.append(SheetCard(Face(front.key, front.drawing), Face(back.key, back.drawing), deck.size_pt[0],
                               deck.size_pt[1], card.id))
    return cards


@pytest.mark.parametrize("lang", LANGS)
def test_cards_pdf_sheet_text_in_every_language(lang, tiny_cards, tmp_path):
    path = tmp_path / f"cards-{lang}.pdf"
    report = write_cards_pdf(path, tiny_cards, paper="a4", title="Tiny", lang=lang,
                             instructions=sheet.card_instructions(lang), font=fonts.register("regular"))
    assert report.warnings == []
    data = path.read_bytes()
    assert b"PnpSans-Regular" in data                   # sheet text in the embedded text-layer fonts
    for index, side in enumerate(("front", "back")):
        text = sheet_text_of(path, lang, index)
        for key in ("sheet.print", "sheet.duplex_long", "sheet.test_bar"):
            assert has_text(lang, sheet.t(lang, key), text), (lang, key, text)
        label = sheet.t(lang, "sheet.label", title="Tiny", sheet=1, sheets=1, side=sheet.t(lang, f"sheet.{side}"))
        assert has_text(lang, label, text), (label, text)
    if lang == "ar":
        assert b"PnpArabic-Regular" in data


def test_cards_pdf_defaults_to_the_language_of_lang(tiny_cards, tmp_path):
    path = tmp_path / "de.pdf"
    write_cards_pdf(path, tiny_cards, lang="de", font=fonts.register("regular"))
    assert sheet.t("de", "sheet.print") in words(page_text(path, 0))


def test_non_latin_sheet_text_never_uses_helvetica(tiny_cards, tmp_path):
    """Even with the base-14 default font, Cyrillic goes through the text layer's fonts."""
    path = tmp_path / "uk.pdf"
    write_cards_pdf(path, tiny_cards, lang="uk")
    assert sheet.t("uk", "sheet.print") in words(page_text(path, 0))
    assert b"PnpSans-Regular" in path.read_bytes()


class _Recorder:
    """Records what draw_text sends to a canvas."""

    def __init__(self):
        self.calls = []
        self.font = None

    def setFont(self, font, size):
        self.font = font

    def drawString(self, x, y, text):
        self.calls.append((self.font, x, str(text)))

    def addLiteral(self, literal):
        pass


def test_arabic_sheet_text_is_drawn_shaped():
    text = sheet.t("ar", "sheet.print")
    canvas = _Recorder()
    width = draw_text(canvas, 100, 10, text, fonts.register("regular"), 7, "rtl", "end")
    arabic = [(font, glyphs) for font, _, glyphs in canvas.calls if font.startswith("PnpArabic")]
    assert arabic
    gids = [gid for font, glyphs in arabic for gid in drawn_gids(font, glyphs)]
    # joined letters use initial/medial/final forms that no isolated letter uses
    assert len(set(gids) - isolated_gids(text)) >= 5
    # right-aligned at x=100: every run starts between 100 - width and 100
    assert all(100 - width - 1e-6 <= x <= 100 for _, x, _ in canvas.calls)


# --------------------------------------------------------------------------------------------
# Component pages

def _pack_in(game: str, langs=LANGS):
    """A shipped pack with every language of `langs` (missing ones borrow English) and without its
    own copies of the shared sheet keys, so the page text is the shared string pack's."""
    pack = load_pack(game, strict=False)
    shared = set(sheet.table("en"))
    texts = {}
    for lang in langs:
        own = pack.texts.get(lang) or pack.texts["en"]
        texts[lang] = {k: v for k, v in own.items() if k not in shared}
    return dataclasses.replace(pack, languages=list(langs), texts=texts)


@pytest.fixture(scope="module")
def zombie_run():
    return _pack_in("zombie-run")


@pytest.mark.parametrize("lang", LANGS)
def test_components_page_sheet_text_in_every_language(lang, zombie_run, tmp_path):
    plan = plan_components(zombie_run, lang, "a4")
    assert plan.problems == []
    [parts] = [p for p in write_components(plan, tmp_path) if "-parts-" in p.name]
    text = sheet_text_of(parts, lang)
    for key in ("components.print", "components.test_bar", "components.legend.title", "components.legend.cut",
                "components.legend.fold", "components.legend.glue"):
        assert has_text(lang, sheet.t(lang, key), text), (lang, key, text)
    page_word = {"en": "page", "it": "pagina", "uk": "сторінка", "ar": "الصفحة", "de": "Seite"}[lang]
    assert page_word in text


@pytest.fixture(scope="module")
def arabic_aid():
    """One Arabic player aid card of Zombie! Run (its own sample Arabic lines)."""
    from pnp.components import aid

    pack = _pack_in("zombie-run", ("en", "ar"))
    spec = next(e for e in pack.components if e["type"] == "aid")
    samples = ["تحرّك خطوة واحدة نحو أقرب مخرج", "اسحب بطاقة ثم العبها فورًا", "يهاجم الزومبي إذا كان معك"]
    ar = dict(pack.texts["ar"])
    for i, section in enumerate(spec["sections"]):
        ar[section["heading"]] = f"القسم {i + 1}"
        for j, line in enumerate(section["lines"]):
            ar[line["text"]] = samples[(i + j) % len(samples)]
    pack = dataclasses.replace(pack, texts={**pack.texts, "ar": ar})
    ctx = Context(pack, "ar", "a4")
    sections = [(ctx.t(sec["heading"]), [aid.aid_line(ctx, line) for line in sec["lines"]]) for sec in spec["sections"]]
    sketch = aid.card(ctx, spec, "بطاقة", sections, 1, 4)
    assert ctx.report.issues == [] and ctx.missing_keys == []
    return sketch, samples


def test_arabic_components_text_is_shaped(arabic_aid):
    sketch, samples = arabic_aid
    face = to_face(sketch.svg())
    runs = [args for op, args in face.ops if op in (_op_glyphs, _op_line_glyphs) and args[0].startswith("PnpArabic")]
    assert runs
    gids = [gid for font, _, _, glyphs, _ in runs for gid in drawn_gids(font, str(glyphs))]
    assert len(set(gids) - isolated_gids("".join(samples))) >= 5


def test_arabic_aid_is_right_aligned_with_bullets_on_the_right(arabic_aid):
    from pnp.components.aid import BULLET, PAD
    AID_W = 88.0                # the aid's width (components.yaml keeps the default)

    sketch, samples = arabic_aid
    svg = sketch.svg()
    lines = re.findall(r'<text x="([\d.]+)"[^>]*direction="rtl"[^>]*>([^<]*)</text>', svg)
    right = [float(x) for x, text in lines if text in samples]
    # rtl runs anchored at the right edge of the text column, left of the bullets
    assert right and all(abs(x - (AID_W - PAD - BULLET)) < 0.01 for x in right)
    bullets = [float(cx) for cx in re.findall(r'<circle cx="([\d.]+)" cy="[\d.]+" fill="#[0-9a-fA-F]+" r="0.55"', svg)]
    assert bullets and all(abs(cx - (AID_W - PAD - 0.8)) < 0.01 for cx in bullets)
    number = re.search(r'<text x="([\d.]+)"[^>]*>1/4</text>', svg)
    assert number and float(number.group(1)) < AID_W / 2                   # the card number moves left


def test_arabic_board_coordinates_do_not_mirror():
    from pnp.components import grid_board

    pack = _pack_in("zombies-vs-vampires", ("en", "ar"))
    ctx = Context(pack, "ar", "a4")
    sketch = grid_board.draw_board(ctx, next(e for e in pack.components if e["type"] == "grid-board"))
    svg = sketch.svg()
    letters = re.findall(r'<text x="([\d.]+)" y="([\d.]+)"[^>]*>([A-M])</text>', svg)
    top = sorted((float(x), letter) for x, y, letter in letters if float(y) < 9)
    assert [letter for _, letter in top] == list("ABCDEFGHIJKLM")             # A stays at the left
    numbers = re.findall(r'<text x="([\d.]+)" y="([\d.]+)"[^>]*>(\d+)</text>', svg)
    left = sorted((float(y), int(n)) for x, y, n in numbers if float(x) < 9)
    assert [n for _, n in left] == list(range(1, 14))                        # 1 stays at the top
    assert not re.search(r'<text[^>]*direction="rtl"[^>]*>([A-M]|\d+)</text>', svg)


def test_arabic_legend_order_is_mirrored():

    pack = _pack_in("zombies-vs-vampires", ("en", "ar"))
    for lang, expect_title_right in (("en", False), ("ar", True)):
        ctx = Context(pack, lang, "a4")
        core_svg = _legend_svg(ctx)
        positions = {}
        for key in ("title", "cut", "glue"):
            word = sheet.t(lang, f"components.legend.{key}")
            match = re.search(r'<text x="([\d.]+)"[^>]*>' + re.escape(word), core_svg)
            assert match, (lang, key)
            positions[key] = float(match.group(1))
        assert (positions["title"] > positions["cut"] > positions["glue"]) == expect_title_right, positions
        assert (positions["title"] < positions["cut"] < positions["glue"]) != expect_title_right, positions


def _legend_svg(ctx) -> str:
    """The legend's SVG (core.legend returns a compiled part; redraw it on a recording sketch)."""
    from pnp.components import core

    captured = {}
    original = core.part

    def grab(sketch, label=""):
        captured["svg"] = sketch.svg()
        return original(sketch, label)
    core.part = grab
    try:
        core.legend(ctx, 198)
    finally:
        core.part = original
    return captured["svg"]


# --------------------------------------------------------------------------------------------
# Calibration

@pytest.mark.parametrize("lang", LANGS)
def test_calibration_sheet_in_every_language(lang, tmp_path):
    path = tmp_path / f"cal-{lang}.pdf"
    write_calibration_pdf(path, lang=lang, font=fonts.register("regular"))
    front = sheet_text_of(path, lang, 0)
    back = sheet_text_of(path, lang, 1)
    flip = sheet.t(lang, "calibrate.flip_long")
    assert has_text(lang, sheet.t(lang, "calibrate.front_1", flip=flip), front)
    assert has_text(lang, sheet.t(lang, "calibrate.back_4", n=5), back)
    assert has_text(lang, sheet.t(lang, "calibrate.test_bar"), front)
    assert has_text(lang, sheet.t(lang, "calibrate.test_bar"), back)
    if lang == "ar":
        assert "--back-offset X,Y" in back and "خذ متوسط" in back


def test_calibrate_cli_takes_lang(tmp_path):
    result = CliRunner().invoke(main, ["calibrate", "--lang", "uk", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    [pdf] = tmp_path.glob("calibrate-uk-*.pdf")
    assert "Калібрування двобічного друку" in page_text(pdf, 0)
    bad = CliRunner().invoke(main, ["calibrate", "--lang", "xx", "--out", str(tmp_path)])
    assert bad.exit_code != 0


# ---- a language pnp's sheet words lack: said, and a game may supply them (text/sheet/<lang>.yaml)

SPANISH_WORDS = """\
sheet:
  print: "Imprimir al 100% / tamaño real — sin escalar"
  duplex_long: "dúplex: voltear por el borde largo"
  label: "{title} · hoja {sheet}/{sheets} · {side}"
  front: "anverso"
components:
  legend: {title: "Leyenda", cut: "cortar", fold: "doblar", glue: "pegar"}
  aid: "Ayuda de juego"
  tiles: {one: "{n} pieza", many: "{n} piezas", other: "{n} piezas"}
"""


def test_a_language_pnp_has_no_sheet_words_for_is_said_once_and_refused_under_strict(tmp_path):
    assert not sheet.has_language("es")
    pack = cimiterio_with_spanish(tmp_path)
    out = tmp_path / "out"
    built = CliRunner().invoke(main, ["build", str(pack), "--lang", "es", "--out", str(out)])
    assert built.exit_code == 0, built.output
    said = [line for line in built.output.splitlines() if "sheet words" in line]
    total = len(sheet.table(sheet.SOURCE))
    assert len(said) == 1 and "text/sheet/es.yaml: [es] pnp has no 'es' sheet words: " \
        f"all {total} print in English" in said[0] and "pnp/i18n/sheet/en.yaml" in said[0]
    from pnp.build import BuildOptions, build
    result = build([str(pack)], BuildOptions(lang="es", out=tmp_path / "api"))
    assert [(w.code, w.lang, w.get("english")) for w in result.warnings if w.code == "i18n.sheet-words"] \
        == [("i18n.sheet-words", "es", total)]
    strict = CliRunner().invoke(main, ["build", str(pack), "--lang", "es", "--strict", "--out", str(tmp_path / "s")])
    assert strict.exit_code == 2 and "pnp has no 'es' sheet words" in strict.output and "Traceback" not in strict.output
    assert not list((tmp_path / "s").rglob("*.pdf"))
    german = CliRunner().invoke(main, ["build", str(pack), "--lang", "de", "--strict", "--out", str(tmp_path / "d")])
    assert german.exit_code == 0 and "sheet words" not in german.output, german.output
    checked = CliRunner().invoke(main, ["check", str(pack), "--no-print"])
    assert "warning [i18n.sheet-words] [es] pnp has no 'es' sheet words" in checked.output


def test_a_pack_supplies_the_sheet_words_pnp_lacks_and_they_print(tmp_path):
    pack = cimiterio_with_spanish(tmp_path)
    (pack / "text" / "sheet").mkdir()
    (pack / "text" / "sheet" / "es.yaml").write_text(SPANISH_WORDS, encoding="utf-8")
    out = tmp_path / "out"
    built = CliRunner().invoke(main, ["build", str(pack), "--lang", "es", "--out", str(out)])
    assert built.exit_code == 0, built.output
    total = len(sheet.table(sheet.SOURCE))
    assert f"[es] {total - 10} of the {total} shared sheet words are not here and print in English" in built.output
    parts = " ".join(pdf_pages(out / "cimiterio" / "cimiterio-parts-es-a4.pdf"))
    for word in ("Leyenda", "cortar", "doblar", "pegar", "Ayuda de juego"):
        assert word in parts
    assert "Legend" not in parts and "Player aid" not in parts
    cards = pdf_pages(out / "cimiterio" / "cimiterio-cards-es-a4.pdf")[0]
    assert "Imprimir al 100% / tamaño real — sin escalar; dúplex: voltear por el borde largo" in words(cards)
    assert "hoja 1/12 · anverso" in cards
    # complete: no warning, and --strict builds
    english = (sheet.FOLDER / "en.yaml").read_text(encoding="utf-8")
    full = english.replace('"cut"', '"cortar"').replace('title: "Legend"', 'title: "Leyenda"')
    full = full.replace('one: "{n} tile"', 'one: "{n} pieza"\n    many: "{n} piezas"')
    full = full.replace('one: "Read the', 'many: "Average the {n} targets."\n    one: "Read the')
    (pack / "text" / "sheet" / "es.yaml").write_text(full, encoding="utf-8")
    strict = CliRunner().invoke(main, ["build", str(pack), "--lang", "es", "--strict", "--out", str(out)])
    assert strict.exit_code == 0 and "sheet words" not in strict.output, strict.output


def test_a_packs_sheet_words_are_checked_like_pnps(tmp_path):
    pack = cimiterio_with_spanish(tmp_path)
    (pack / "text" / "sheet").mkdir()
    (pack / "text" / "sheet" / "es.yaml").write_text(
        'sheet:\n  label: "{titulo} · hoja {sheet}/{sheets} · {side}"\n'
        'components:\n  legend:\n    cutt: "cortar"\n  aid: {one: "Ayuda", other: "Ayudas"}\n'
        '  tiles:\n    one: "{n} pieza"\n', encoding="utf-8")
    (pack / "text" / "sheet" / "fr.yaml").write_text('sheet: {print: "Imprimer"}\n', encoding="utf-8")
    (pack / "text" / "sheet" / "de.yaml").write_text('sheet: {print: "Drucken"}\n', encoding="utf-8")
    checked = CliRunner().invoke(main, ["check", str(pack), "--no-print"])
    assert checked.exit_code == 2 and "Traceback" not in checked.output
    for said in ("text/sheet/es.yaml:2: error [text.placeholder] sheet.label: [es] placeholders",
                 "text/sheet/es.yaml:5: error [text.unknown-key] components.legend.cutt: [es] "
                 "'components.legend.cutt' is no shared sheet word; did you mean 'components.legend.cut'?",
                 "text/sheet/es.yaml:6: error [text.plural] components.aid: [es] plural forms in one language only",
                 "text/sheet/es.yaml:7: error [text.plural] components.tiles:",
                 "text/sheet/fr.yaml: error [schema.unknown-key] text/sheet/fr.yaml: 'fr' is not a declared language",
                 "text/sheet/de.yaml: warning [i18n.sheet-words] [de] not used: pnp has its own 'de' sheet words"):
        assert said in checked.output, said
    built = CliRunner().invoke(main, ["build", str(pack), "--lang", "de", "--out", str(tmp_path / "out")])
    assert built.exit_code == 2 and "components.legend.cutt" in built.output


def test_a_shared_word_in_a_text_file_of_a_new_language_points_to_text_sheet(tmp_path):
    pack = cimiterio_with_spanish(tmp_path, 'game:\n  name: "Cimiterio"\ncomponents: {legend: {cut: cortar}}\n')
    checked = CliRunner().invoke(main, ["check", str(pack), "--no-print"])
    said = [line for line in checked.output.splitlines() if "components.legend.cut" in line]
    assert len(said) == 1 and "text/es.yaml:3: error [schema.unknown-key] components.legend.cut: [es] " \
        "'components.legend.cut' is a shared sheet word" in said[0] and "text/sheet/es.yaml" in said[0]
    assert "did you mean 'components.mat'" not in checked.output
