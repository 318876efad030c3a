"""End to end: `pnp build` on the shipped packs and the tiny pack, measured in the PDFs."""
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from conftest import cimiterio_with_spanish

from pnp.cli import main
from pnp.pack import load_pack

MM = 72 / 25.4


def build(*args) -> str:
    result = CliRunner().invoke(main, ["build", *map(str, args)])
    assert result.exit_code == 0, result.output
    return result.output


def page_texts(pdf: Path) -> list[str]:
    document = pdfium.PdfDocument(str(pdf))
    try:
        return [page.get_textpage().get_text_range() for page in document]
    finally:
        document.close()


@pytest.fixture(scope="session")
def cimiterio_out(shipped_build) -> Path:
    return shipped_build("cimiterio")


@pytest.fixture(scope="session")
def zombie_run_out(shipped_build) -> Path:
    return shipped_build("zombie-run")


def test_cimiterio_pack_has_95_cards_in_its_decks():
    pack = load_pack("cimiterio")
    counts = {deck.id: len(deck.cards) for deck in pack.decks}
    assert sum(counts.values()) == 95
    assert sorted(counts.values()) == [1, 5, 19, 35, 35]


def test_zombie_run_pack_has_63_cards_one_deck():
    pack = load_pack("zombie-run")
    assert [len(deck.cards) for deck in pack.decks] == [63]
    kinds = {}
    for card in pack.cards():
        kinds[card.kind] = kinds.get(card.kind, 0) + 1
    assert sum(n for k, n in kinds.items() if k != "item") == 33
    assert kinds["item"] == 30


@pytest.mark.parametrize("lang", ["it", "en"])
def test_cimiterio_a4_is_12_front_and_12_back_sheets(cimiterio_out, lang):
    """95 poker cards, 8 a sheet (2 x 4 sideways: 3 x 3 leaves no room for bleed and marks)."""
    pdf = cimiterio_out / f"cimiterio-cards-{lang}-a4.pdf"
    document = pdfium.PdfDocument(str(pdf))
    try:
        assert len(document) == 24
        for page in document:
            width, height = page.get_size()
            assert abs(width / MM - 210) < 0.05 and abs(height / MM - 297) < 0.05
    finally:
        document.close()


@pytest.mark.parametrize("lang", ["uk", "en"])
def test_zombie_run_a4_is_8_front_and_8_back_sheets(zombie_run_out, lang):
    document = pdfium.PdfDocument(str(zombie_run_out / f"zombie-run-cards-{lang}-a4.pdf"))
    try:
        assert len(document) == 16
    finally:
        document.close()


def test_fronts_show_names_in_each_language(cimiterio_out, zombie_run_out):
    pack = load_pack("cimiterio")
    for lang in ("it", "en"):
        text = "\n".join(page_texts(cimiterio_out / f"cimiterio-cards-{lang}-a4.pdf")[0::2])
        words = " ".join(text.split())
        for entry in pack.collections["deceased"]:
            name = " ".join(pack.texts[lang][entry["name"]].split())
            # A long name may wrap: every word of it must be on the fronts.
            assert all(word in words for word in name.split()), (lang, name)
    zr = load_pack("zombie-run")
    for lang in ("uk", "en"):
        words = " ".join(" ".join(page_texts(zombie_run_out / f"zombie-run-cards-{lang}-a4.pdf")[0::2]).split())
        for symbol in zr.collections["symbols"]:
            item = zr.texts[lang][symbol["item"]]
            assert all(word in words for word in item.split()), (lang, item)
    ukrainian = [c for c in words if "\u0400" <= c <= "\u04ff"]
    assert not ukrainian  # the last `words` are English
    uk_words = " ".join(page_texts(zombie_run_out / "zombie-run-cards-uk-a4.pdf"))
    assert sum("\u0400" <= c <= "\u04ff" for c in uk_words) > 200


def test_fonts_are_embedded_subsets(cimiterio_out):
    data = (cimiterio_out / "cimiterio-cards-it-a4.pdf").read_bytes()
    assert b"/FontFile2" in data
    assert b"+PnpSans-Regular" in data and b"+PnpSans-Bold" in data


def test_viewer_hints(cimiterio_out):
    data = (cimiterio_out / "cimiterio-cards-it-a4.pdf").read_bytes()
    assert b"/PrintScaling /None" in data
    assert b"/Duplex /DuplexFlipLongEdge" in data


def test_same_input_same_bytes(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    build("tests/packs/tiny", "--out", first)
    build("tests/packs/tiny", "--out", second)
    for pdf in (first / "tiny").glob("*.pdf"):
        assert pdf.read_bytes() == (second / "tiny" / pdf.name).read_bytes()


def test_card_text_is_data_not_code(tmp_path):
    build("tests/packs/tiny", "--out", tmp_path, "--lang", "en")
    text = " ".join(" ".join(page_texts(tmp_path / "tiny" / "tiny-cards-en-a4.pdf")).split())
    assert "{{ 7*7 }}" in text
    assert "<b>&" in text
    assert "49" not in text


def test_png_previews(tmp_path):
    output = build("tests/packs/tiny", "--out", tmp_path, "--lang", "en", "--png")
    assert "PNG previews" in output
    from PIL import Image
    folder = tmp_path / "tiny" / "png-en"
    fronts = sorted(p.name for p in (folder / "main").glob("*-front.png"))
    assert fronts == ["alpha-front.png", "beta-front.png", "gamma-front.png"]
    assert (folder / "main" / "back.png").exists() and (folder / "main" / "gamma-back.png").exists()
    with Image.open(folder / "main" / "alpha-front.png") as image:
        # 63x88 mm trim + 3 mm bleed each side at 150 dpi
        assert abs(image.width - 69 / 25.4 * 150) <= 1 and abs(image.height - 94 / 25.4 * 150) <= 1
    assert (folder / "main-contact.png").exists()


def test_pack_folder_outside_the_repository(tiny_pack, tmp_path):
    build(tiny_pack, "--out", tmp_path / "out", "--lang", "it", "--paper", "letter")
    pdf = tmp_path / "out" / "tiny" / "tiny-cards-it-letter.pdf"
    document = pdfium.PdfDocument(str(pdf))
    try:
        width, height = document[0].get_size()
        assert abs(width / MM - 215.9) < 0.05 and abs(height / MM - 279.4) < 0.05
        assert len(document) == 2
    finally:
        document.close()


def test_list_shows_games_counts_and_languages():
    result = CliRunner().invoke(main, ["list"])
    assert result.exit_code == 0, result.output
    assert "cimiterio" in result.output and "95 cards in all" in result.output
    assert "zombie-run" in result.output and "63 cards in all" in result.output
    assert "languages: it, en, uk, ar, de" in result.output


def test_build_refuses_a_deck_that_breaks_its_rules_unless_forced(tmp_path):
    import shutil

    pack = tmp_path / "cimiterio"
    shutil.copytree(Path(__file__).resolve().parent.parent / "data" / "cimiterio", pack)
    zombies = pack / "cards" / "zombies.yaml"
    text = zombies.read_text(encoding="utf-8")
    zombies.write_text(text.replace("points: 1", "points: 2", 1), encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", str(pack), "--out", str(out), "--lang", "en"])
    assert result.exit_code == 1, result.output
    assert "rules checker found" in result.output and "--force" in result.output
    assert "zombies.yaml" in result.output
    assert not list(out.rglob("*.pdf"))
    forced = CliRunner().invoke(main, ["build", str(pack), "--out", str(out), "--lang", "en", "--force"])
    assert forced.exit_code == 0, forced.output
    assert (out / "cimiterio" / "cimiterio-cards-en-a4.pdf").exists()


def test_a_language_in_progress_stops_neither_the_rules_nor_the_strict_build_of_another(tmp_path):
    """cimiterio's rules ask every deceased name in every language: a strict German build is not
    refused for the Spanish still being written; the Spanish build and `--lang all` are."""
    pack = cimiterio_with_spanish(tmp_path, 'game:\n  name: "Cimiterio"\n')
    out = tmp_path / "out"
    german = CliRunner().invoke(main, ["build", str(pack), "--out", str(out), "--lang", "de", "--strict"])
    assert german.exit_code == 0, german.output
    assert "'es'" not in german.output and (out / "cimiterio" / "cimiterio-cards-de-a4.pdf").exists()
    for lang in ("es", "all"):
        refused = CliRunner().invoke(main, ["build", str(pack), "--out", str(out), "--lang", lang, "--strict"])
        assert refused.exit_code == 2 and "has no 'es' text" in refused.output


def test_one_list_of_papers():
    import re

    import pnp
    from pnp import print_constants
    from pnp.check import printing

    assert print_constants.PAPERS == tuple(print_constants.PAPER_SIZES_MM) == ("a4", "letter")
    assert printing.PAPERS is print_constants.PAPERS
    package = Path(pnp.__file__).parent
    defined = [str(f.relative_to(package)) for f in package.rglob("*.py")
               if re.search(r"^PAPERS\b", f.read_text(encoding="utf-8"), re.M)]
    assert defined == ["print_constants.py"]


def test_face_problems_carry_code_language_face_and_the_key_of_the_text(tiny_pack):
    from pnp.build import fit_issue, render_faces

    en = tiny_pack / "text" / "en.yaml"
    en.write_text(en.read_text(encoding="utf-8").replace("body: Two faces}", "body: " + "Overflowing " * 80 + "}"),
                  encoding="utf-8")
    front = tiny_pack / "templates" / "tiny" / "front.svg.j2"
    front.write_text(front.read_text(encoding="utf-8").replace("{% endblock %}", "{{ t('ui.nope') }}\n{% endblock %}"),
                     encoding="utf-8")
    _faces, problems = render_faces(load_pack(tiny_pack), "en", drawings=False)
    fit = [p for p in problems if p.code == "text.fit"]
    assert [(p.key, p.lang, p.face, p.get("text_key")) for p in fit] == [("card gamma", "en", "front", "card.gamma.body")]
    issue = fit_issue(fit[0])
    assert issue is not None and issue.box_mm == (55, 40) and issue.min_size_pt == 6 and issue.text.startswith("Overflowing")
    assert str(fit[0]).startswith(f"{fit[0].file}:3: card gamma: [en] front: 'Overflowing ")
    # a key the language lacks does not stop the face: every card is checked, each names the key
    missing = sorted((p.key, p.face, p.get("text_key")) for p in problems if p.code == "text.missing")
    assert missing == [("card alpha", "front", "ui.nope"), ("card beta", "front", "ui.nope"),
                       ("card gamma", "front", "ui.nope")]


def test_a_broken_rules_file_stops_the_build(tiny_pack, tmp_path):
    (tiny_pack / "rules.yaml").write_text("rules:\n  - id: cards.total\n    type: totl\n    equals: 3\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["build", str(tiny_pack), "--out", str(tmp_path / "out"), "--lang", "en"])
    assert result.exit_code == 2, result.output               # unusable data, the same status as `pnp check`
    assert CliRunner().invoke(main, ["check", str(tiny_pack), "--no-print"]).exit_code == 2
    assert "[rules.invalid]" in result.output and "did you mean 'total'?" in result.output
    (tiny_pack / "rules.yaml").write_text("rules:\n  - id: cards.total\n    type: total\n    equals: 4\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["build", str(tiny_pack), "--out", str(tmp_path / "out"), "--lang", "en"])
    assert result.exit_code == 1 and "[cards.total]" in result.output, result.output
    assert "5 found, expected exactly 4" in result.output
    assert not list((tmp_path / "out").rglob("*.pdf"))
