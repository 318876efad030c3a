"""Text typed into the card data: a literal (the source language), a mapping per language, or a
text key; every such text takes part in the translator workflow (export, import, status)."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import CARDTEXT
from conftest import replace_once as replace
from pdftext import pdf_pages

from pnp.cli import main
from pnp.errors import DataError
from pnp.pack import load_pack

KNIGHT = "card.main.knight.title"      # the synthesized key of the knight's literal title



def run(*args: str):
    return CliRunner().invoke(main, list(args))


def card(pack, card_id):
    return next(c for c in pack.cards() if c.base_id == card_id)


def test_literals_and_mappings_become_texts_under_stable_keys():
    pack = load_pack(CARDTEXT, strict=False)
    knight, bishop, king = card(pack, "knight"), card(pack, "bishop"), card(pack, "king")
    assert knight.fields["title"] == KNIGHT and pack.texts["en"][KNIGHT] == "Knight"
    assert KNIGHT not in pack.text_locations["it"]            # no Italian yet: borrowed from English
    assert pack.texts["it"][KNIGHT] == "Knight" and [w.get("text_key") for w in pack.warnings] == [KNIGHT]
    assert bishop.fields["title"] == "card.main.bishop.title"
    assert (pack.texts["en"]["card.main.bishop.title"], pack.texts["it"]["card.main.bishop.title"]) == ("Bishop", "Alfiere")
    assert king.fields["title"] == "card.king.title"           # a text key stays a key
    assert pack.texts["it"][pack.name] == "Testo nelle carte"  # pack.yaml's own texts too
    assert pack.texts["it"][pack.deck("sheet").name] == "Mazzo del foglio"
    file, line = pack.text_locations["en"][KNIGHT]
    assert (Path(file).name, line) == ("main.yaml", 2)


def test_a_strict_build_refuses_an_untranslated_literal_and_a_loose_one_borrows_it(pack_dir, tmp_path):
    strict = run("build", str(pack_dir), "--out", str(tmp_path / "strict"), "--lang", "it", "--strict")
    assert strict.exit_code == 2 and "Traceback" not in strict.output
    assert "main.yaml:2: card knight.title: the text 'Knight' has no 'it' translation" in strict.output
    assert not list((tmp_path / "strict").rglob("*.pdf"))
    loose = run("build", str(pack_dir), "--out", str(tmp_path / "loose"), "--lang", "it")
    assert loose.exit_code == 0, loose.output
    text = pdf_pages(next((tmp_path / "loose").rglob("*cards-it*.pdf")))[0]
    for typed in ("Knight", "Alfiere", "Muove in diagonale", "Si muove a L", "Re", "Torre", "Pedone"):
        assert typed in text
    check = run("check", str(pack_dir), "--no-print")
    assert check.exit_code == 1 and "[text.missing]" in check.output


def test_a_misspelt_key_is_a_typo_with_a_did_you_mean_not_a_literal(pack_dir):
    replace(pack_dir / "cards/main.yaml", "title: card.king.title", "title: card.king.titel")
    with pytest.raises(DataError) as error:
        load_pack(pack_dir, strict=False)
    [problem] = error.value.problems
    assert (problem.code, problem.line, problem.key, problem.get("text_key")) == \
        ("text.unknown-key", 9, "card king.title", "card.king.titel")
    assert "did you mean 'card.king.title'?" in problem.message
    result = run("check", str(pack_dir), "--no-print")
    assert result.exit_code == 2 and "[text.unknown-key]" in result.output


def test_a_mapping_names_declared_languages_and_the_source_one(pack_dir):
    replace(pack_dir / "cards/main.yaml", "title: {en: Bishop, it: Alfiere}", "title: {en: Bishop, itt: Alfiere}")
    replace(pack_dir / "cards/main.yaml", "body: {en: Moves diagonally, it: Muove in diagonale}",
            "body: {it: Muove in diagonale}")
    with pytest.raises(DataError) as error:
        load_pack(pack_dir, strict=False)
    found = sorted((p.code, p.line, p.key) for p in error.value.problems)
    assert found == [("schema.missing-key", 6, "card bishop.body"), ("schema.unknown-key", 5, "card bishop.title.itt")]
    unknown = next(p for p in error.value.problems if p.code == "schema.unknown-key")
    assert "did you mean 'it'?" in unknown.message


def test_a_literal_whose_key_the_text_file_already_uses_is_a_clash(pack_dir):
    replace(pack_dir / "text/en.yaml", "card:\n", "card:\n  main: {knight: {title: Old}}\n")
    with pytest.raises(DataError) as error:
        load_pack(pack_dir, strict=False)
    assert [(p.code, p.line, p.get("text_key")) for p in error.value.problems] == [("text.key-clash", 2, KNIGHT)]


def test_translator_round_trip_export_fill_import_build(pack_dir, tmp_path):
    comment = "# Italian texts of the keyed cards\n"
    assert (pack_dir / "text/it.yaml").read_text(encoding="utf-8").startswith(comment)
    out = tmp_path / "po"
    assert run("i18n", "export", str(pack_dir), "--out", str(out)).exit_code == 0
    po = (out / "it.po").read_text(encoding="utf-8")
    entry = po[po.index(f'msgctxt "{KNIGHT}"') - 160:]
    # issue 16: the export also says where the text is printed and in what box
    assert "#. card knight.title\n#. card knight front: 55.0 x 12.0 mm box, 14 pt\n#: cards/main.yaml:2\n" in entry \
        and 'msgid "Knight"\nmsgstr ""' in entry
    status = run("i18n", "status", str(pack_dir))
    assert "missing: card.main.knight.title" in status.output
    (out / "it.po").write_text(po.replace('msgid "Knight"\nmsgstr ""', 'msgid "Knight"\nmsgstr "Cavaliere"'),
                               encoding="utf-8")
    first = run("i18n", "import", str(pack_dir), str(out / "it.po"))
    assert first.exit_code == 0 and "it: 1 text changed" in first.output, first.output
    written = (pack_dir / "text/it.yaml").read_text(encoding="utf-8")
    assert written.startswith(comment) and "title: Cavaliere" in written
    again = run("i18n", "import", str(pack_dir), str(out / "it.po"))
    assert again.exit_code == 0 and "it: 0 texts changed" in again.output
    assert (pack_dir / "text/it.yaml").read_text(encoding="utf-8") == written      # idempotent
    pack = load_pack(pack_dir)                                 # strict: nothing is missing any more
    assert pack.texts["it"][KNIGHT] == "Cavaliere"
    status = run("i18n", "status", str(pack_dir), "--json")
    assert '"missing": []' in status.output and "(100%)" in run("i18n", "status", str(pack_dir)).output
    build = run("build", str(pack_dir), "--out", str(tmp_path / "out"), "--lang", "it", "--strict")
    assert build.exit_code == 0, build.output
    assert "Cavaliere" in pdf_pages(next((tmp_path / "out").rglob("*cards-it*.pdf")))[0]


def test_import_leaves_a_translation_written_in_the_card_data_where_it_is(pack_dir, tmp_path):
    out = tmp_path / "po"
    run("i18n", "export", str(pack_dir), "--out", str(out))
    po = (out / "it.po").read_text(encoding="utf-8")
    assert 'msgid "Bishop"\nmsgstr "Alfiere"' in po
    (out / "it.po").write_text(po.replace('msgstr "Alfiere"', 'msgstr "Vescovo"'), encoding="utf-8")
    before = (pack_dir / "text/it.yaml").read_bytes()
    result = run("i18n", "import", str(pack_dir), str(out / "it.po"))
    assert result.exit_code == 0, result.output
    assert (f"{pack_dir / 'cards' / 'main.yaml'}:5: warning card.main.bishop.title: the 'it' translation "
            "'Vescovo' was not imported: card bishop.title has its 'it' text written beside it in the data; "
            "change it there [po.in-data]") in result.output
    assert "[po.in-data]" in result.output
    assert "unchanged, 1 not imported (see the warnings)" in result.output
    assert (pack_dir / "text/it.yaml").read_bytes() == before
    assert load_pack(pack_dir, strict=False).texts["it"]["card.main.bishop.title"] == "Alfiere"


def test_a_collection_entry_may_hold_its_text_too(pack_dir):
    replace(pack_dir / "pack.yaml", "items: {id: slug, hue: int}", "items: {id: slug, hue: int, name: text?}")
    colours = (pack_dir / "colours.yaml").read_text(encoding="utf-8")
    assert "{id: red, hue: 0}" in colours
    replace(pack_dir / "colours.yaml", "{id: red, hue: 0}", "{id: red, hue: 0, name: {en: Red, it: Rosso}}")
    pack = load_pack(pack_dir, strict=False)
    red = next(item for item in pack.collections["colours"] if item["id"] == "red")
    assert red["name"] == "collection.colours.red.name"
    assert (pack.texts["en"][red["name"]], pack.texts["it"][red["name"]]) == ("Red", "Rosso")


def test_a_translations_markup_fit_and_glyph_errors_are_said_at_the_translation(pack_dir, tmp_path):
    """The build says a text's own problem where the text is written (text/it.yaml's line and
    key, naming the card it prints on), once per text and language, as `pnp check` does."""
    replace(pack_dir / "cards/main.yaml", "- {id: king,", "- {id: queen, kind: plain, title: {en: Queen, it: Regina}, "
            "body: card.king.body, colour: red, value: 8}\n- {id: king,")
    (pack_dir / "text/it.yaml").write_text(
        "# Italian texts of the keyed cards\n"
        "deck: {main: Mazzo principale}\n"
        "card:\n"
        f"  king:\n    title: {'Re ' * 80}\n"
        "    body: \"Un passo \U0001F9DF in ogni direzione\"\n"
        "  main:\n    knight: {title: \"**Cavaliere\"}\n", encoding="utf-8")
    built = run("build", str(pack_dir), "--out", str(tmp_path / "out"), "--lang", "it")
    assert built.exit_code == 2 and "Traceback" not in built.output
    said = [line for line in built.output.splitlines() if "[it]" in line]
    assert len(said) == 3, built.output
    assert "cardtext/text/it.yaml:5: card.king.title: [it] front: card king: " in said[0]
    assert "does not fit" in said[0]
    assert "cardtext/text/it.yaml:6: card.king.body: [it] front: card " in said[1]
    assert "no glyph" in said[1] and said[1].endswith("(and 1 more face)")          # the king and the queen
    assert "cardtext/text/it.yaml:8: card.main.knight.title: [it] front: card knight: " in said[2]
    assert "opens bold that never closes" in said[2]
    assert not list((tmp_path / "out").rglob("*.pdf"))
    checked = run("check", str(pack_dir))
    for line in ("text/it.yaml:5: error [text.fit] card.king.title", "text/it.yaml:6: error [text.glyph] card.king.body",
                 "text/it.yaml:8: error [text.markup] card.main.knight.title"):
        assert line in checked.output


def test_a_translation_in_the_data_and_in_the_text_file_is_a_clash_naming_both(pack_dir, tmp_path):
    """A `title.it` column (or an `it:` of a card's mapping) and text/it.yaml's entry for the same
    text: which one prints would be a guess (the data's did, silently); an error naming both."""
    with (pack_dir / "text/it.yaml").open("a", encoding="utf-8") as file:
        file.write("  main:\n    bishop: {title: Vescovo}\n  sheet:\n    rook: {title: Torre nera}\n")
    checked = run("check", str(pack_dir))
    assert checked.exit_code == 2 and "Traceback" not in checked.output
    said = [line for line in checked.output.splitlines() if "[text.key-clash]" in line]
    assert len(said) == 2, checked.output
    assert "cards/main.yaml:5: error [text.key-clash] card bishop.title: [it] the 'it' text is given twice: " \
           "its `it:` here ('Alfiere') and " in said[0] and "text/it.yaml:6 (card.main.bishop.title)" in said[0]
    assert "cards/sheet.csv:2: error [text.key-clash] card rook.title (C2): [it] the 'it' text is given twice: " \
           "its `title.it` column ('Torre') and " in said[1] and "text/it.yaml:8 (card.sheet.rook.title)" in said[1]
    built = run("build", str(pack_dir), "--out", str(tmp_path / "out"), "--lang", "it")
    assert built.exit_code == 2 and built.output.count("is given twice") == 2
    assert not list((tmp_path / "out").rglob("*.pdf"))
