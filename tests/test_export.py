"""`pnp export`: print-shop PDF/X, PNGs, Tabletop Simulator decks, measured with pikepdf and Pillow."""
from __future__ import annotations

import io
import json
import shutil
from pathlib import Path
from urllib.parse import unquote, urlparse

import pikepdf
import pytest
from click.testing import CliRunner
from PIL import Image, ImageCms

from pnp.cli import main
from pnp.export.colour import DEFAULT_CMYK_PROFILE, SRGB_PROFILE, CmykConverter, load_cmyk_profile
from pnp.export.pdfx import ColourConversionError, convert_instructions, font_is_embedded
from pnp.export.presets import load_presets
from pnp.units import PT_PER_MM

TESTS = Path(__file__).resolve().parent
TINY = TESTS / "packs" / "tiny"
TINY_CARDS = ["alpha#1", "alpha#2", "alpha#3", "beta", "gamma"]   # tests/packs/tiny, copies expanded
INCH_MM = 25.4
BLEED_MM = INCH_MM / 8


def run_export(*args: str):
    return CliRunner().invoke(main, ["export", *args], catch_exceptions=False)


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """exported(preset, *options) -> the export-<preset> folder of tests/packs/tiny, made once per options."""
    out = tmp_path_factory.mktemp("export")
    done: dict[tuple, Path] = {}

    def get(preset: str, *options: str) -> Path:
        key = (preset, *options)
        if key not in done:
            target = out / "-".join(key)
            result = run_export(str(TINY), "--to", preset, "--lang", "en", "--out", str(target), *options)
            assert result.exit_code == 0, result.output
            done[key] = target / "tiny" / f"export-{preset}" / "en"
        return done[key]
    return get


# ------------------------------------------------------------------------------- dtc: PDF/X-4
def _mm(value) -> float:
    return float(value) / PT_PER_MM


def _streams(pdf: pikepdf.Pdf):
    """(instructions, resources) of every page and form XObject."""
    for page in pdf.pages:
        yield pikepdf.parse_content_stream(page), page.Resources
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Form":
            yield pikepdf.parse_content_stream(obj), obj.get("/Resources", pikepdf.Dictionary())


def test_dtc_pdf_is_pdfx4_with_boxes_output_intent_and_one_page_per_card(exported):
    folder = exported("dtc")
    for name in ("tiny-main-fronts.pdf", "tiny-main-backs.pdf"):
        pdf = pikepdf.open(folder / name)
        assert pdf.pdf_version == "1.6"
        assert len(pdf.pages) == len(TINY_CARDS)                      # every copy its own page
        assert str(pdf.trailer.Info.GTS_PDFXVersion) == "PDF/X-4"
        assert pdf.trailer.Info.Trapped == pikepdf.Name("/False")
        xmp = pdf.Root.Metadata.read_bytes().decode()
        assert "<pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion>" in xmp
        (intent,) = pdf.Root.OutputIntents
        assert intent.S == "/GTS_PDFX" and intent.Type == "/OutputIntent"
        assert intent.DestOutputProfile.N == 4
        assert intent.DestOutputProfile.read_bytes() == DEFAULT_CMYK_PROFILE.read_bytes()
        for page in pdf.pages:   # poker at DriveThruCards: 2.5 x 3.5 in trim, 1/8 in bleed
            trim = [_mm(v) for v in page.TrimBox]
            bleed = [_mm(v) for v in page.BleedBox]
            assert trim[2] - trim[0] == pytest.approx(2.5 * INCH_MM, abs=0.01)
            assert trim[3] - trim[1] == pytest.approx(3.5 * INCH_MM, abs=0.01)
            assert bleed == pytest.approx([0, 0, 2.5 * INCH_MM + 2 * BLEED_MM, 3.5 * INCH_MM + 2 * BLEED_MM], abs=0.01)
            assert trim[:2] == pytest.approx([BLEED_MM, BLEED_MM], abs=0.01)
            assert [_mm(v) for v in page.MediaBox] == pytest.approx(bleed, abs=0.01)


def _tree(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


def test_dtc_folder_holds_only_what_the_shop_takes_and_the_tuck_box_goes_beside_it(tmp_path):
    """The folder sent to DriveThruCards holds its CMYK PDF/X files and nothing else (docs/export.md
    lists it file by file); the RGB A4 tuck box, for home printing, is written next to it."""
    old = tmp_path / "tiny/export-dtc/en/tiny-tuckboxes-en-a4.pdf"      # where an earlier pnp put it
    old.parent.mkdir(parents=True)
    old.write_bytes(b"old")
    result = run_export(str(TINY), "--to", "dtc", "--lang", "en", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert _tree(tmp_path / "tiny/export-dtc") == ["en/tiny-main-backs.pdf", "en/tiny-main-fronts.pdf"]
    assert _tree(tmp_path / "tiny/tuckboxes-dtc") == ["en/tiny-tuckboxes-en-a4.pdf"]
    assert f"tuck boxes for these cards, to print at home (not part of the dtc upload): " \
           f"{tmp_path / 'tiny/tuckboxes-dtc'}" in result.output
    assert "wrote 2 files for dtc" in result.output


def test_dtc_pdf_has_only_cmyk_colour_and_embedded_fonts(exported):
    for name in ("tiny-main-fronts.pdf", "tiny-main-backs.pdf"):
        pdf = pikepdf.open(exported("dtc") / name)
        operators = set()
        for instructions, resources in _streams(pdf):
            operators |= {str(i.operator) for i in instructions}
            fonts = resources.get("/Font", {})
            assert fonts, "the faces have text"
            for font in fonts.values():
                assert font_is_embedded(font), font.get("/BaseFont")
                assert "Helvetica" not in str(font.get("/BaseFont"))
            assert "/DeviceRGB" not in repr(resources.get("/ColorSpace", {}))
        assert not operators & {"rg", "RG", "g", "G", "sc", "scn", "SC", "SCN", "sh"}
        assert "k" in operators
        assert b"/DeviceRGB" not in (exported("dtc") / name).read_bytes()


def _instructions(text: bytes) -> list:
    pdf = pikepdf.new()
    return pikepdf.parse_content_stream(pdf.make_stream(text))


def test_rgb_operators_become_the_icc_transform_of_their_colour_and_the_empty_preamble_goes():
    converter = CmykConverter(load_cmyk_profile())
    transform = ImageCms.buildTransform(str(SRGB_PROFILE), str(DEFAULT_CMYK_PROFILE), "RGB", "CMYK",
                                        renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                        flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
    expected = ImageCms.applyTransform(Image.new("RGB", (1, 1), (51, 102, 204)), transform).getpixel((0, 0))
    used: set[str] = set()
    out = convert_instructions(_instructions(b"BT /F1 12 Tf 14.4 TL ET 0.2 0.4 0.8 rg 0 G /DeviceRGB cs 1 0 0 sc "
                                             b"BT /F2 9 Tf (x) Tj ET"), pikepdf.Dictionary(), converter, used)
    ops = [(str(i.operator), [float(v) for v in i.operands]) for i in out[:2]]
    assert ops[0] == ("k", pytest.approx([v / 255 for v in expected], abs=1e-4))
    assert ops[1] == ("K", [0, 0, 0, 1])                     # grey: the black plate alone
    assert str(out[2].operands[0]) == "/DeviceCMYK" and str(out[2].operator) == "cs"
    assert str(out[3].operator) == "sc" and len(out[3].operands) == 4
    assert used == {"/F2"}                                   # the empty BT /F1 12 Tf ET is gone
    assert [str(i.operator) for i in out].count("BT") == 1


def test_sh_and_pattern_fills_are_kept_and_an_uncoloured_pattern_over_rgb_is_refused():
    # the shadings and shading patterns themselves are converted in the resources
    # (tests/test_export_gradients.py); the content stream that paints them stays as it is
    converter = CmykConverter(load_cmyk_profile())
    out = convert_instructions(_instructions(b"/Sh0 sh /Pattern cs /P0 scn 0 0 1 1 re f"), pikepdf.Dictionary(),
                               converter, set())
    assert [str(i.operator) for i in out] == ["sh", "cs", "scn", "re", "f"]
    assert str(out[1].operands[0]) == "/Pattern" and str(out[2].operands[0]) == "/P0"
    resources = pikepdf.Dictionary(ColorSpace=pikepdf.Dictionary(
        CS0=pikepdf.Array([pikepdf.Name.Pattern, pikepdf.Name.DeviceRGB])))
    with pytest.raises(ColourConversionError, match=r"/CS0 \(an uncoloured pattern over /DeviceRGB\) cannot be converted"):
        convert_instructions(_instructions(b"/CS0 cs 1 0 0 /P1 scn"), resources, converter, set())


def test_missing_icc_profile_is_one_message_exit_2_and_writes_nothing(tmp_path):
    result = run_export(str(TINY), "--to", "dtc", "--out", str(tmp_path), "--icc", str(tmp_path / "none.icc"))
    assert result.exit_code == 2
    assert "none.icc: cannot read the ICC profile" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "tiny").exists()


def test_an_rgb_profile_is_refused(tmp_path):
    result = run_export(str(TINY), "--to", "dtc", "--out", str(tmp_path), "--icc", str(SRGB_PROFILE))
    assert result.exit_code == 2 and "not CMYK" in result.output


# ------------------------------------------------------------------------------- PNG presets
def _dpi(image: Image.Image) -> int:
    return round(image.info["dpi"][0])


def test_tgc_writes_825x1125_at_300_dpi_for_every_copy(exported):
    folder = exported("tgc") / "main"
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["001-alpha-1.png", "002-alpha-2.png", "003-alpha-3.png", "004-beta.png",
                     "005-gamma-back.png", "005-gamma.png", "back.png"]
    for path in folder.iterdir():
        with Image.open(path) as image:
            assert image.size == (825, 1125) and _dpi(image) == 300
    assert (folder / "001-alpha-1.png").read_bytes() == (folder / "003-alpha-3.png").read_bytes()


def test_mpc_writes_their_822x1122_poker_size(exported):
    with Image.open(exported("mpc") / "main" / "front" / "004-beta.png") as image:
        assert image.size == (822, 1122) and _dpi(image) == 300


def test_png_at_any_dpi_is_the_deck_size_plus_an_eighth_inch(exported):
    folder = exported("png", "--dpi", "150") / "main"
    assert sorted(p.name for p in folder.iterdir()) == ["alpha-front.png", "back.png", "beta-front.png",
                                                        "gamma-back.png", "gamma-front.png"]
    with Image.open(folder / "beta-front.png") as image:        # 63 x 88 mm + 2 x 3.175 mm at 150 dpi
        assert image.size == (round((63 + 2 * BLEED_MM) / INCH_MM * 150), round((88 + 2 * BLEED_MM) / INCH_MM * 150))
        assert _dpi(image) == 150


def test_a_non_poker_deck_keeps_its_own_size(tmp_path):
    pack = tmp_path / "tiny"
    shutil.copytree(TINY, pack)
    text = (pack / "pack.yaml").read_text()
    (pack / "pack.yaml").write_text(text.replace("    back: tiny/back.svg.j2", "    card_size: 70mm x 100mm\n"
                                                 "    back: tiny/back.svg.j2"))
    assert run_export(str(pack), "--to", "tgc", "--lang", "en", "--out", str(tmp_path / "out")).exit_code == 0
    assert run_export(str(pack), "--to", "dtc", "--lang", "en", "--out", str(tmp_path / "out")).exit_code == 0
    with Image.open(tmp_path / "out/tiny/export-tgc/en/main/004-beta.png") as image:
        assert image.size == (round((70 + 2 * BLEED_MM) / INCH_MM * 300), round((100 + 2 * BLEED_MM) / INCH_MM * 300))
    pdf = pikepdf.open(tmp_path / "out/tiny/export-dtc/en/tiny-main-fronts.pdf")
    page = pdf.pages[0]
    trim = [_mm(v) for v in page.TrimBox]
    assert (trim[2] - trim[0], trim[3] - trim[1]) == pytest.approx((70, 100), abs=0.01)


# ------------------------------------------------------------------------------- Tabletop Simulator
def _path(url: str) -> Path:
    assert url.startswith("file:///")
    return Path(unquote(urlparse(url).path))


def _colour_at(image: Image.Image, x: float, y: float) -> tuple[int, int, int]:
    return image.convert("RGB").getpixel((int(x), int(y)))


def test_tts_sheet_holds_every_copy_in_order_and_the_hidden_slot(exported):
    folder = exported("tts")
    save = json.loads((folder / "tiny-main.json").read_text())
    (deck,) = save["ObjectStates"]
    assert deck["Name"] == "DeckCustom"
    assert deck["DeckIDs"] == [100, 101, 102, 103, 104]
    assert [card["GMNotes"] for card in deck["ContainedObjects"]] == TINY_CARDS
    entry = deck["CustomDeck"]["1"]
    assert (entry["NumWidth"], entry["NumHeight"]) == (3, 2)       # 5 cards + the hidden slot, near square
    assert entry["UniqueBack"] is True                              # gamma has a back of its own
    sheet = Image.open(_path(entry["FaceURL"]))
    backs = Image.open(_path(entry["BackURL"]))
    assert sheet.size == backs.size and max(sheet.size) <= 4096
    cell_w, cell_h = sheet.width / 3, sheet.height / 2
    faces = exported("png") / "main"                               # the same faces, 1/8 in bleed
    references = [faces / f"{card.split('#')[0]}-front.png" for card in TINY_CARDS] + [faces / "back.png"]
    back_refs = [faces / "back.png"] * 4 + [faces / "gamma-back.png"] + [faces / "back.png"]
    points = [(0.02, 0.5), (0.5, 0.5), (0.5, 0.04), (0.97, 0.97)]   # border, body, title, corner
    for slot, (face, back) in enumerate(zip(references, back_refs, strict=True)):
        for image, reference in ((sheet, face), (backs, back)):
            with Image.open(reference) as ref:
                bleed = ref.width - ref.width * 63 / (63 + 2 * BLEED_MM)
                trim_w, trim_h = ref.width - bleed, ref.height - bleed
                row, column = divmod(slot if slot < len(TINY_CARDS) else 5, 3)   # the hidden card: the last slot
                for u, v in points:
                    got = _colour_at(image, (column + u) * cell_w, (row + v) * cell_h)
                    want = _colour_at(ref, bleed / 2 + u * trim_w, bleed / 2 + v * trim_h)
                    assert max(abs(a - b) for a, b in zip(got, want)) <= 12, (slot, reference.name, u, v)


@pytest.mark.parametrize("cards, sheets", [(10, [(4, 3)]), (63, [(5, 3)] * 4 + [(4, 2)])])
def test_tts_sheets_hold_every_card_at_300_dpi(tmp_path, cards, sheets):
    """A 63 x 88 mm card at 300 dpi is 744 x 1039 px: 4096 px sheets hold 5 x 3 slots, so a deck
    takes as many sheets as it needs rather than shrinking its cards into one 10 x 7 grid."""
    pack = tmp_path / "tiny"
    shutil.copytree(TINY, pack)
    deck = pack / "cards/main.yaml"
    deck.write_text(deck.read_text().replace("quantity: 3", f"quantity: {cards - 2}"))
    assert run_export(str(pack), "--to", "tts", "--lang", "en", "--out", str(tmp_path / "out")).exit_code == 0
    state = json.loads((tmp_path / "out/tiny/export-tts/en/tiny-main.json").read_text())["ObjectStates"][0]
    assert len(state["DeckIDs"]) == cards
    grids = []
    for number, entry in state["CustomDeck"].items():
        grids.append((entry["NumWidth"], entry["NumHeight"]))
        with Image.open(_path(entry["FaceURL"])) as sheet:
            assert max(sheet.size) <= 4096 and entry["NumWidth"] <= 10 and entry["NumHeight"] <= 7
            across = sheet.width / entry["NumWidth"] / (63 / INCH_MM)          # px per inch of one card
            down = sheet.height / entry["NumHeight"] / (88 / INCH_MM)
            assert across == pytest.approx(300, abs=1) and down == pytest.approx(300, abs=1), number
            assert _dpi(sheet) == 300
    assert grids == sheets


def test_tts_shared_back_is_one_image(tmp_path):
    pack = tmp_path / "tiny"
    shutil.copytree(TINY, pack)
    cards = (pack / "cards/main.yaml").read_text().replace("kind: double", "kind: plain")
    (pack / "cards/main.yaml").write_text(cards)
    assert run_export(str(pack), "--to", "tts", "--lang", "en", "--out", str(tmp_path / "out")).exit_code == 0
    folder = tmp_path / "out/tiny/export-tts/en"
    entry = json.loads((folder / "tiny-main.json").read_text())["ObjectStates"][0]["CustomDeck"]["1"]
    assert entry["UniqueBack"] is False
    assert _path(entry["BackURL"]) == (folder / "main-back.png").resolve()
    assert sorted(p.name for p in folder.iterdir()) == ["main-back.png", "main-faces-1.png", "tiny-main.json"]


@pytest.fixture(scope="module")
def zombie_run_tts(tmp_path_factory):
    """zombie-run's TTS deck in Italian and Arabic: lang -> the cards of its saved object."""
    out = tmp_path_factory.mktemp("zr")
    decks = {}
    for lang in ("it", "ar"):
        assert run_export("zombie-run", "--to", "tts", "--lang", lang, "--out", str(out)).exit_code == 0
        save = json.loads((out / f"zombie-run/export-tts/{lang}/zombie-run-main.json").read_text(encoding="utf-8"))
        decks[lang] = save["ObjectStates"][0]["ContainedObjects"]
    return decks


@pytest.mark.parametrize("lang, title, rules", [
    ("it", "Mazza da baseball", "Scaccia lo zombi con lo stesso simbolo: scarta entrambe le carte."),
    ("ar", "مضرب بيسبول", "تطرد الزومبي الذي يحمل الرمز نفسه: تخلّص من البطاقتين معًا."),
])
def test_tts_cards_carry_their_printed_title_and_rules_in_the_export_language(zombie_run_tts, lang, title, rules):
    # data/zombie-run: kinds.item.title is symbol.item (symbols.yaml: bat -> item.bat), rules is rule.item
    card = zombie_run_tts[lang][1]                                       # cards/main.yaml: bat x 3 first
    assert (card["Nickname"], card["Description"]) == (title, rules)
    assert card["GMNotes"] == "item-bat#2"                               # the id, for the designer
    # logical order, as written in text/ar.yaml: the first character is the word's first letter
    assert card["Nickname"][0] == title[0] and card["Nickname"] != title[::-1]


def test_tts_description_is_plain_text_and_an_untitled_kind_keeps_its_id(tmp_path):
    pack = tmp_path / "richtext"
    shutil.copytree(TESTS / "packs" / "richtext", pack)
    text = (pack / "pack.yaml").read_text()
    (pack / "pack.yaml").write_text(text.replace("    front: tiny/front.svg.j2\n    fields:",
                                                 "    front: tiny/front.svg.j2\n    rules: body\n    fields:", 1))
    assert run_export(str(pack), "--to", "tts", "--lang", "en", "--out", str(tmp_path / "out")).exit_code == 0
    save = json.loads((tmp_path / "out/richtext/export-tts/en/richtext-main.json").read_text())
    cards = save["ObjectStates"][0]["ContainedObjects"]
    alpha = cards[0]
    assert alpha["Description"] == "Gain two coins [coin] and flee [skull] now; 3 * 4 stays"
    assert alpha["Nickname"] == alpha["GMNotes"] == "alpha#1"            # no title declared: the id
    assert cards[-1]["Description"] == ""                                # gamma's kind declares no rules


def test_a_kind_title_that_names_no_text_is_one_message_exit_2(tmp_path):
    pack = tmp_path / "tiny"
    shutil.copytree(TINY, pack)
    text = (pack / "pack.yaml").read_text()
    (pack / "pack.yaml").write_text(text.replace("    title: title\n", "    title: value\n"))
    result = run_export(str(pack), "--to", "tts", "--lang", "en", "--out", str(tmp_path / "out"))
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.output.count("kinds.plain.title") == 1 and "kinds.double.title" in result.output
    assert not (tmp_path / "out" / "tiny").exists()


# ------------------------------------------------------------------------------- all or nothing, same bytes
def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("preset", ["dtc", "tts", "tgc"])
def test_same_input_same_bytes(tmp_path, preset):
    args = [str(TINY), "--to", preset, "--lang", "en", "--out", str(tmp_path)]
    assert run_export(*args).exit_code == 0
    first = _files(tmp_path)
    assert run_export(*args).exit_code == 0
    assert _files(tmp_path) == first and first


def test_a_failed_export_leaves_the_previous_one_whole(tmp_path):
    pack = tmp_path / "tiny"
    shutil.copytree(TINY, pack)
    args = [str(pack), "--to", "tgc", "--lang", "en", "--out", str(tmp_path / "out")]
    assert run_export(*args).exit_code == 0
    before = _files(tmp_path / "out")
    (pack / "templates/tiny/back.svg.j2").write_text("{% extends '_base/card.svg.j2' %}{% block art %}"
                                                     "{{ nothing.here }}{% endblock %}")
    result = run_export(*args)
    assert result.exit_code == 2 and "back.svg.j2" in result.output and "Traceback" not in result.output
    assert _files(tmp_path / "out") == before


def test_unknown_preset_names_the_accepted_ones(tmp_path):
    result = run_export(str(TINY), "--to", "dct", "--out", str(tmp_path))
    assert result.exit_code == 2
    assert "did you mean 'dtc'?" in result.output and "accepted: dtc, mpc, tgc, tts, png" in result.output


def test_icc_is_refused_for_rgb_presets(tmp_path):
    result = run_export(str(TINY), "--to", "tgc", "--out", str(tmp_path), "--icc", str(DEFAULT_CMYK_PROFILE))
    assert result.exit_code == 2 and "--icc" in result.output


def test_broken_presets_file_reports_every_problem_with_line_and_key(tmp_path):
    presets = tmp_path / "presets.yaml"
    presets.write_text("presets:\n  x:\n    doc: d\n    output: png\n    bleed: 3mm\n    dpi: 300\n"
                       "    copies: each\n    card_thickness_mm: 0.3\n    colour: cmyk\n"
                       "    files: {front: '{dek}.png', back: 'b.png', deck_back: '../b.png'}\n")
    from pnp.errors import DataError
    with pytest.raises(DataError) as caught:
        load_presets(presets)
    found = {(p.code, p.line, p.key) for p in caught.value.problems}
    assert ("schema.unknown-key", 9, "presets.x.colour") in found
    assert ("export.preset", 10, "presets.x.files.front") in found
    assert ("export.preset", 10, "presets.x.files.deck_back") in found
    assert len(found) == 3


def test_every_shipped_preset_declares_its_card_thickness():
    from pnp.export.presets import shipped_presets
    presets = shipped_presets()
    assert {"dtc", "mpc", "tgc", "tts", "png"} <= set(presets)
    assert presets["dtc"].card_thickness_mm == pytest.approx(0.31)


def test_stale_files_of_a_previous_export_are_removed(tmp_path):
    args = [str(TINY), "--to", "png", "--lang", "en", "--out", str(tmp_path)]
    stale = tmp_path / "tiny/export-png/en/main/old-card-front.png"
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"old")
    result = run_export(*args)
    assert result.exit_code == 0 and not stale.exists()
    assert "removed 1 file of the previous export" in result.output


def test_images_are_converted_too():
    """An RGB image XObject is re-encoded in CMYK through the same transform (pnp's faces have
    none yet; a pack's art may)."""
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen.canvas import Canvas

    from pnp.export.faces import Frame
    from pnp.export.pdfx import make_pdfx
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1)
    canvas.drawImage(ImageReader(Image.new("RGB", (4, 4), (255, 0, 0))), 0, 0, 10, 10)
    canvas.showPage()
    canvas.save()
    pdf = pikepdf.open(io.BytesIO(buffer.getvalue()))
    make_pdfx(pdf, Frame((100.0, 100.0), 9.0), CmykConverter(load_cmyk_profile()), "t")
    (image,) = [o for o in pdf.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]
    assert image.ColorSpace == "/DeviceCMYK"
    assert pikepdf.PdfImage(image).as_pil_image().getpixel((0, 0)) == CmykConverter(load_cmyk_profile()) \
        .image(Image.new("RGB", (1, 1), (255, 0, 0))).getpixel((0, 0))


def test_shop_exports_size_the_tuck_box_from_the_shops_trim_and_stock():
    """A deck printed by a shop is cut to the shop's trim (poker 2.5 x 3.5 in) on the preset's stock:
    its tuck box is sized from those, not from the home-printed card."""
    from pnp.export.presets import shipped_presets
    from pnp.export.run import _tuckboxes
    from pnp.pack import load_pack
    from pnp.tuckbox import DEPTH_PLAY_MM, PLAY_MM, plan_tuckboxes

    pack = load_pack("zombie-run")
    dtc = shipped_presets()["dtc"]
    [net] = _tuckboxes(pack, dtc, ["en"])["en"].nets
    [home] = plan_tuckboxes(pack, "en", "a4").nets
    cards = len(pack.decks[0].cards)
    assert net.width == pytest.approx(63.5 + PLAY_MM) and net.height == pytest.approx(88.9 + PLAY_MM)
    assert net.depth == pytest.approx(cards * dtc.card_thickness_mm + DEPTH_PLAY_MM)
    assert home.width == pytest.approx(63.0 + PLAY_MM) and net.depth > home.depth
    assert _tuckboxes(pack, shipped_presets()["tts"], ["en"]) == {}
