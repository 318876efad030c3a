"""Localisation: CLDR plurals, placeholders, fallback, PO export/import, status, fit."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po
from click.testing import CliRunner

from pnp.build import render_faces
from pnp.cli import main
from pnp.errors import DataError
from pnp.i18n import hashes
from pnp.i18n.fit import fit_report
from pnp.i18n.lookup import TextLookupError, translate
from pnp.i18n.plurals import PluralText, gettext_plurals, required_categories
from pnp.i18n.po import export, import_files
from pnp.i18n.status import pack_status
from pnp.pack import load_pack

TESTS = Path(__file__).resolve().parent
PLURALS = TESTS / "packs" / "plurals"
NUMBERS = (0, 1, 2, 3, 11, 21, 100, 101)

# The expected phrase for each n, per language: (awaken, points, move).
EXPECTED = {
    "en": {n: (f"Awaken {n} zombie" + "s" * (n != 1), f"{n} point" + "s" * (n != 1), f"Move {n} step" + "s" * (n != 1))
           for n in NUMBERS},
    "de": {n: ((f"Erwecke {n} Zombie" + "s" * (n != 1)), (f"{n} Punkt" + "e" * (n != 1)), (f"Gehe {n} Schritt" + "e" * (n != 1)))
           for n in NUMBERS},
    "it": {n: ((f"Risveglia {n} zombi"), (f"{n} punto" if n == 1 else f"{n} punti"),
               (f"Muovi di {n} passo" if n == 1 else f"Muovi di {n} passi")) for n in NUMBERS},
    "uk": {
        0: ("Розбуди 0 мерців", "0 очок", "Пройди 0 кроків"),
        1: ("Розбуди 1 мерця", "1 очко", "Пройди 1 крок"),
        2: ("Розбуди 2 мерців", "2 очки", "Пройди 2 кроки"),
        3: ("Розбуди 3 мерців", "3 очки", "Пройди 3 кроки"),
        11: ("Розбуди 11 мерців", "11 очок", "Пройди 11 кроків"),
        21: ("Розбуди 21 мерця", "21 очко", "Пройди 21 крок"),
        100: ("Розбуди 100 мерців", "100 очок", "Пройди 100 кроків"),
        101: ("Розбуди 101 мерця", "101 очко", "Пройди 101 крок"),
    },
    "ar": {
        0: ("لا توقظ أي زومبي", "لا نقاط", "لا تتحرك"),
        1: ("أيقظ زومبيًا واحدًا", "نقطة واحدة", "تحرك خطوة واحدة"),
        2: ("أيقظ زومبيين", "نقطتان", "تحرك خطوتين"),
        3: ("أيقظ 3 زومبيات", "3 نقاط", "تحرك 3 خطوات"),
        11: ("أيقظ 11 زومبيًا", "11 نقطةً", "تحرك 11 خطوةً"),
        21: ("أيقظ 21 زومبيًا", "21 نقطةً", "تحرك 21 خطوةً"),
        100: ("أيقظ 100 زومبي", "100 نقطةٍ", "تحرك 100 خطوةٍ"),
        101: ("أيقظ 101 زومبي", "101 نقطةٍ", "تحرك 101 خطوةٍ"),
    },
}


@pytest.fixture
def plurals_pack(tmp_path) -> Path:
    target = tmp_path / "plurals"
    shutil.copytree(PLURALS, target)
    return target


def test_cldr_categories_per_language():
    assert required_categories("en") == ("one", "other")
    assert required_categories("de") == ("one", "other")
    assert required_categories("it") == ("one", "many", "other")       # Babel/CLDR: many = 1 000 000...
    assert required_categories("uk") == ("one", "few", "many", "other")
    assert required_categories("ar") == ("zero", "one", "two", "few", "many", "other")
    # gettext: uk has 3 msgstr forms (fractions' `other` has none), ar 6, it 2 as gettext, Poedit and
    # Weblate write it (issue 16: CLDR's `many` has no msgstr; plurals.GETTEXT_PLURAL_FORMS)
    assert gettext_plurals("uk")[0::2] == (3, ("one", "few", "many"))
    assert gettext_plurals("ar")[0::2] == (6, ("zero", "one", "two", "few", "many", "other"))
    assert gettext_plurals("it")[0::2] == (2, ("one", "other"))
    assert gettext_plurals("de")[0::2] == (2, ("one", "other"))


def test_a_plural_mapping_is_one_key():
    pack = load_pack(PLURALS)
    texts = pack.texts["uk"]
    assert isinstance(texts["rule.awaken"], PluralText)
    assert "rule.awaken.one" not in texts and "rule.move.few" not in texts
    assert str(texts["ui.points"]) == "{n} очка"          # as a plain string: the `other` form
    assert pack.text_locations["uk"]["rule.move"][1] == 6


@pytest.mark.parametrize("lang", sorted(EXPECTED))
@pytest.mark.parametrize("n", NUMBERS)
def test_t_picks_the_cldr_plural_form(lang, n):
    texts = load_pack(PLURALS).texts[lang]
    got = tuple(translate(texts, lang, key, n=n) for key in ("rule.awaken", "ui.points", "rule.move"))
    assert got == EXPECTED[lang][n]


def test_italian_many_and_ukrainian_fractions():
    pack = load_pack(PLURALS)
    assert translate(pack.texts["it"], "it", "ui.points", n=1_000_000) == "1000000 di punti"
    assert translate(pack.texts["uk"], "uk", "ui.points", n=1.5) == "1,5 очка"      # other; CLDR decimal comma


@pytest.mark.parametrize("lang", sorted(EXPECTED))
def test_templates_print_the_plural_forms(lang):
    pack = load_pack(PLURALS)
    faces, problems = render_faces(pack, lang, drawings=False)
    assert problems == []
    player = pack.texts[lang]["ui.player"]
    for card, front, _back in faces.cards:
        n = card.fields["value"]
        for phrase in EXPECTED[lang][n]:
            assert f">{phrase}</text>" in front.svg, (lang, n, phrase)
        assert f">{player}: {n}</text>" in front.svg            # a plain string with two placeholders


def test_t_errors():
    texts = load_pack(PLURALS).texts["en"]
    with pytest.raises(TextLookupError, match="plural forms"):
        translate(texts, "en", "ui.points")
    with pytest.raises(TextLookupError, match=r"\{who\}"):
        translate(texts, "en", "ui.score", n=3)
    with pytest.raises(TextLookupError, match="has no 'en' text"):
        translate(texts, "en", "ui.nope")
    assert translate(texts, "en", "ui.score", n=3, who="Ann") == "Ann: 3"


def test_literal_braces_are_not_placeholders():
    texts = load_pack(TESTS / "packs" / "tiny").texts["en"]
    assert translate(texts, "en", "card.alpha.body") == "Literal {{ 7*7 }} and <b>& stay text"
    assert translate(texts, "en", "card.alpha.body", n=2) == "Literal {{ 7*7 }} and <b>& stay text"


def test_plural_categories_are_checked_with_file_and_line(plurals_pack):
    uk = plurals_pack / "text" / "uk.yaml"
    uk.write_text(uk.read_text(encoding="utf-8").replace('    few: "Пройди {n} кроки"\n', ""), encoding="utf-8")
    de = plurals_pack / "text" / "de.yaml"
    de.write_text(de.read_text(encoding="utf-8").replace('{one: "{n} Punkt", other', '{one: "{n} Punkt", few: "{n} Punkte", other'),
                  encoding="utf-8")
    it = plurals_pack / "text" / "it.yaml"
    it.write_text(it.read_text(encoding="utf-8").replace('many: "{n} di punti", other: "{n} punti"', 'many: "{n} di punti"'),
                  encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_pack(plurals_pack)
    problems = {(Path(p.file).name, p.line, p.key): p.message for p in caught.value.problems}
    assert "few (2, 3, 4, 22, 23, 24…)" in problems[("uk.yaml", 6, "rule.move")]
    assert "lacks 'uk' form" in problems[("uk.yaml", 6, "rule.move")]
    assert "few that 'de' never uses" in problems[("de.yaml", 9, "ui.points")]
    assert "lacks 'it' form other" in problems[("it.yaml", 11, "ui.points")]
    assert len(problems) == 3


def test_an_italian_plural_written_one_other_takes_other_for_millions(plurals_pack):
    """CLDR's Italian `many` is for exact millions, and gettext tools ask for two forms: a text
    written `{one, other}` by hand is complete (as PO import makes it), its `many` its `other`; a
    missing `other` is still an error, and Ukrainian's `few` (2, 3, 4...) is never filled."""
    it = plurals_pack / "text" / "it.yaml"
    it.write_text(it.read_text(encoding="utf-8").replace('many: "{n} di punti", other: "{n} punti"', 'other: "{n} punti"'),
                  encoding="utf-8")
    texts = load_pack(plurals_pack).texts["it"]
    assert translate(texts, "it", "ui.points", n=1_000_000) == "1000000 punti"
    assert translate(texts, "it", "ui.points", n=3) == "3 punti"
    uk = plurals_pack / "text" / "uk.yaml"
    uk.write_text(uk.read_text(encoding="utf-8").replace('    few: "Пройди {n} кроки"\n', ""), encoding="utf-8")
    with pytest.raises(DataError, match="lacks 'uk' form few"):
        load_pack(plurals_pack)


def test_missing_translation_falls_back_to_english(tiny_pack):
    it = tiny_pack / "text" / "it.yaml"
    it.write_text(it.read_text(encoding="utf-8").replace("title: Beta, ", ""), encoding="utf-8")
    with pytest.raises(DataError, match="has no 'it' text"):
        load_pack(tiny_pack)                                 # strict by default
    pack = load_pack(tiny_pack, strict=False)
    assert pack.texts["it"]["card.beta.title"] == "Beta"     # the English text
    [warning] = pack.warnings
    assert "card.beta.title" in warning.message and "using the 'en' text" in warning.message
    faces, problems = render_faces(pack, "it", drawings=False)
    assert problems == []


def test_fallback_without_english_is_the_source_language(plurals_pack):
    pack_yaml = plurals_pack / "pack.yaml"
    pack_yaml.write_text(pack_yaml.read_text(encoding="utf-8").replace("[en, it, uk, ar, de]", "[de, uk]"), encoding="utf-8")
    uk = plurals_pack / "text" / "uk.yaml"
    uk.write_text(uk.read_text(encoding="utf-8").replace("  player: Гравець\n", ""), encoding="utf-8")
    pack = load_pack(plurals_pack, strict=False)
    assert pack.texts["uk"]["ui.player"] == "Spieler"
    assert [w.key for w in pack.warnings] == ["ui.player"]


def _po_entries(path: Path) -> dict:
    with path.open("rb") as handle:
        return {m.context: m for m in read_po(handle) if m.id}


def _save_po(path: Path, catalog_entries_edit) -> None:
    with path.open("rb") as handle:
        catalog = read_po(handle)
    for message in catalog:
        if message.id:
            catalog_entries_edit(message)
    with path.open("wb") as handle:
        write_po(handle, catalog, width=0)


def test_round_trip_export_edit_import_rebuild(tiny_pack, tmp_path):
    pack = load_pack(tiny_pack)
    files = export(pack, tmp_path / "po")
    assert sorted(p.name for p in files) == ["it.po", "tiny.pot"]
    entries = _po_entries(tmp_path / "po" / "it.po")
    assert entries["card.beta.title"].id == "Beta" and entries["card.beta.title"].string == "Beta"
    assert entries["card.alpha.body"].string == "Letterale {{ 7*7 }} e <b>& restano testo"
    before = (tiny_pack / "text" / "it.yaml").read_text(encoding="utf-8")

    def edit(message):
        if message.context == "card.beta.title":
            message.string = "Betta nuova"
    _save_po(tmp_path / "po" / "it.po", edit)
    result = import_files(pack, [tmp_path / "po" / "it.po"])
    assert result.changed == {"it": ["card.beta.title"]}
    after = (tiny_pack / "text" / "it.yaml").read_text(encoding="utf-8")
    assert after == before.replace("beta: {title: Beta,", "beta: {title: Betta nuova,")   # nothing else moved

    rebuilt = load_pack(tiny_pack)
    faces, problems = render_faces(rebuilt, "it", drawings=False)
    assert problems == []
    beta_front = next(front for card, front, _ in faces.cards if card.id == "beta")
    assert "Betta nuova" in beta_front.svg
    status = {s.lang: s for s in pack_status(rebuilt)}["it"]
    assert status.translated == status.total and "card.beta.title" not in status.untracked


def test_import_plurals_and_new_keys_in_source_order(plurals_pack, tmp_path):
    de = plurals_pack / "text" / "de.yaml"
    de.write_text(de.read_text(encoding="utf-8").replace("  player: Spieler\n", ""), encoding="utf-8")
    pack = load_pack(plurals_pack)           # ui.player is only used by t(): not a load error
    export(pack, tmp_path / "po")
    uk_entries = _po_entries(tmp_path / "po" / "uk.po")
    assert uk_entries["ui.points"].string == ("{n} очко", "{n} очки", "{n} очок")
    assert len(_po_entries(tmp_path / "po" / "ar.po")["ui.points"].string) == 6

    def edit_de(message):
        if message.context == "ui.player":
            message.string = "Spielerin"
        if message.context == "rule.move":
            message.string = ("Gehe {n} Feld", "Gehe {n} Felder")
    _save_po(tmp_path / "po" / "de.po", edit_de)

    def edit_uk(message):
        if message.context == "ui.points":
            message.string = ("{n} бал", "{n} бали", "{n} балів")
    _save_po(tmp_path / "po" / "uk.po", edit_uk)
    import_files(pack, [tmp_path / "po" / "de.po", tmp_path / "po" / "uk.po"])

    text = de.read_text(encoding="utf-8")
    # a new key goes where the source has it, quoted like its neighbours
    assert text.index("points:") < text.index('player: "Spielerin"') < text.index("score:")
    assert "one: \"Gehe {n} Feld\"" in text
    uk_text = (plurals_pack / "text" / "uk.yaml").read_text(encoding="utf-8")
    assert uk_text.startswith("# Ukrainian: one (1, 21, 31...)")                            # comments kept
    assert 'points: {one: "{n} бал", few: "{n} бали", many: "{n} балів", other: "{n} очка"}' in uk_text  # other kept
    reloaded = load_pack(plurals_pack)
    assert translate(reloaded.texts["de"], "de", "rule.move", n=2) == "Gehe 2 Felder"
    assert translate(reloaded.texts["uk"], "uk", "ui.points", n=22) == "22 бали"


def test_placeholder_mismatch_is_refused_with_every_problem(plurals_pack, tmp_path):
    pack = load_pack(plurals_pack)
    export(pack, tmp_path / "po")
    po = tmp_path / "po" / "uk.po"
    text = po.read_text(encoding="utf-8")
    text = text.replace('msgstr "{who}: {n}"', 'msgstr "{who}: {count}"')
    text = text.replace('msgstr[2] "{n} очок"', 'msgstr[2] "очок"')            # uk many is 0, 5-20, 25...: needs {n}
    text = text.replace('msgstr[1] "Пройди {n} кроки"', 'msgstr[1] "Пройди {n} кроки, {who}"')
    po.write_text(text, encoding="utf-8")
    before = (plurals_pack / "text" / "uk.yaml").read_bytes()
    result = CliRunner().invoke(main, ["i18n", "import", str(plurals_pack), str(po)])
    assert result.exit_code == 2, result.output
    lines = text.splitlines()
    score_line = lines.index('msgstr "{who}: {count}"') + 1
    move_line = next(i for i, line in enumerate(lines, 1) if line.startswith("msgstr[0] \"Пройди"))
    assert f"uk.po:{score_line}: ui.score: the translation drops {{n}} and invents {{count}}" in result.output
    assert f"uk.po:{move_line}: rule.move: the translation invents {{who}}" in result.output
    points_line = lines.index('msgstr[2] "очок"') + 1
    assert f"uk.po:{points_line}: ui.points: msgstr[2] (many: n = 0, 5, 6, 7, 8, 9…) of msgid '{{n}} point' " \
           "leaves out {n}" in result.output
    assert "3 problems" in result.output
    assert (plurals_pack / "text" / "uk.yaml").read_bytes() == before        # nothing written


def test_unknown_key_and_source_language_po_are_refused(tiny_pack, tmp_path):
    pack = load_pack(tiny_pack)
    export(pack, tmp_path)
    po = tmp_path / "it.po"
    po.write_text(po.read_text(encoding="utf-8").replace('msgctxt "ui.second"', 'msgctxt "ui.third"'), encoding="utf-8")
    with pytest.raises(DataError, match="unknown text key"):
        import_files(pack, [po])
    en = tmp_path / "en.po"
    en.write_text(po.read_text(encoding="utf-8").replace("Language: it", "Language: en"), encoding="utf-8")
    with pytest.raises(DataError, match="is the source language"):
        import_files(pack, [en])


msgfmt = shutil.which("msgfmt")


@pytest.mark.skipif(msgfmt is None, reason="GNU gettext msgfmt not installed (apt-get install gettext)")
@pytest.mark.parametrize("source", ["tiny", "plurals"])
def test_exported_files_pass_msgfmt_check(source, tmp_path):
    pack_dir = tmp_path / source
    shutil.copytree(TESTS / "packs" / source, pack_dir)
    # a '%' must not make Babel flag the entry python-format (msgfmt would read "% c" as a directive)
    en = pack_dir / "text" / "en.yaml"
    en.write_text(en.read_text(encoding="utf-8").replace("game: {name: ", "game: {name: 50% chance "), encoding="utf-8")
    files = export(load_pack(pack_dir, strict=False), tmp_path / "po")
    for path in files:
        run = subprocess.run([msgfmt, "--check", "-o", "/dev/null", str(path)], capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        if path.suffix == ".po":
            assert run.stderr == "", run.stderr                # not even a header warning


@pytest.mark.skipif(msgfmt is None, reason="GNU gettext msgfmt not installed")
def test_msgfmt_agrees_a_dropped_placeholder_is_broken(plurals_pack, tmp_path):
    export(load_pack(plurals_pack), tmp_path)
    po = tmp_path / "de.po"
    po.write_text(po.read_text(encoding="utf-8").replace('msgstr "{who}: {n}"', 'msgstr "{who}"'), encoding="utf-8")
    run = subprocess.run([msgfmt, "--check", "-o", "/dev/null", str(po)], capture_output=True, text=True)
    assert run.returncode != 0


def test_status_counts_missing_and_stale(plurals_pack, tmp_path):
    de = plurals_pack / "text" / "de.yaml"
    de.write_text(de.read_text(encoding="utf-8").replace("  player: Spieler\n", ""), encoding="utf-8")
    pack = load_pack(plurals_pack)
    rows = {s.lang: s for s in pack_status(pack)}
    assert rows["en"].is_source and rows["en"].total == 7
    assert rows["de"].missing == ["ui.player"] and rows["de"].translated == 6
    assert rows["it"].stale == [] and len(rows["it"].untracked) == 7

    export(pack, tmp_path)
    import_files(pack, [tmp_path / "it.po"])                      # records the source hashes for it
    en = plurals_pack / "text" / "en.yaml"
    en.write_text(en.read_text(encoding="utf-8").replace("deck: {counters: Counters}", "deck: {counters: Counter cards}")
                  .replace('"{n} point"', '"{n} pt"'), encoding="utf-8")
    pack = load_pack(plurals_pack)
    rows = {s.lang: s for s in pack_status(pack)}
    assert rows["it"].stale == ["deck.counters", "ui.points"] and rows["it"].translated == 5
    assert rows["uk"].stale == []                                 # untracked: nothing says it is out of date

    export(pack, tmp_path / "again")                              # stale entries go out fuzzy
    entries = _po_entries(tmp_path / "again" / "it.po")
    assert entries["ui.points"].fuzzy and not entries["game.name"].fuzzy
    result = import_files(pack, [tmp_path / "again" / "it.po"])  # fuzzy entries are not imported
    assert any("2 fuzzy entries not imported" in note for note in result.notes)

    old_po = tmp_path / "it.po"                                   # a PO exported before the change:
    import_files(pack, [old_po])                                  # imported, but still stale
    assert {s.lang: s for s in pack_status(load_pack(plurals_pack))}["it"].stale == ["deck.counters", "ui.points"]

    output = CliRunner().invoke(main, ["i18n", "status", str(plurals_pack)]).output
    assert "it: 5/7 translated (71%), 0 missing, 2 stale" in output
    assert "de: 6/7 translated (86%), 1 missing, 0 stale, 6 untracked" in output
    assert "    missing: ui.player" in output and "    stale: ui.points" in output

    accepted = CliRunner().invoke(main, ["i18n", "accept", str(plurals_pack), "--lang", "it"])
    assert accepted.exit_code == 0, accepted.output
    assert {s.lang: s for s in pack_status(load_pack(plurals_pack))}["it"].stale == []


def test_hash_file_is_in_source_order(plurals_pack, tmp_path):
    pack = load_pack(plurals_pack)
    export(pack, tmp_path)
    import_files(pack, [tmp_path / "ar.po"])
    recorded = hashes.read_hashes(plurals_pack)
    assert list(recorded["ar"]) == list(pack.text_locations["en"])


def test_fit_names_the_key_that_does_not_fit(tiny_pack):
    it = tiny_pack / "text" / "it.yaml"
    it.write_text(it.read_text(encoding="utf-8").replace("body: Due facce", "body: " + "Due facce molto lunghe " * 40),
                  encoding="utf-8")
    pack = load_pack(tiny_pack)
    report = fit_report(pack, ["en", "it"])
    assert report["en"] == []
    [issue] = report["it"]
    assert issue.keys == ["card.gamma.body"] and issue.exact
    assert issue.location[1] == 6 and "does not fit" in issue.message
    assert issue.where == [f"card gamma front ({Path(issue.where[0].split('(')[1][:-1])})"]
    result = CliRunner().invoke(main, ["i18n", "fit", str(tiny_pack)])
    assert result.exit_code == 1
    assert "tiny [en]: every text fits" in result.output and "tiny [it]: 1 problem" in result.output
    assert "card.gamma.body (" in result.output


def test_fit_names_the_key_the_card_used_when_two_keys_hold_the_same_text(tiny_pack):
    it = tiny_pack / "text" / "it.yaml"
    long = "Due facce molto lunghe " * 40
    text = it.read_text(encoding="utf-8").replace("body: Due facce}", f"body: {long}}}")
    text = text.replace("body: Un testo più lungo che deve andare a capo su più righe dentro la zona sicura della carta.}",
                        f"body: {long}}}")
    it.write_text(text, encoding="utf-8")
    report = fit_report(load_pack(tiny_pack), ["it"])["it"]
    got = sorted((issue.keys, issue.exact, issue.location[1]) for issue in report)
    assert got == [(["card.beta.body"], True, 5), (["card.gamma.body"], True, 6)]
    assert all(issue.issue is not None and issue.issue.code == "text.fit" for issue in report)


def test_fit_notes_the_fallback_texts_it_laid_out(tiny_pack):
    it = tiny_pack / "text" / "it.yaml"
    it.write_text(it.read_text(encoding="utf-8").replace("title: Beta, ", ""), encoding="utf-8")
    result = CliRunner().invoke(main, ["i18n", "fit", str(tiny_pack), "--lang", "it"])
    assert result.exit_code == 0, result.output
    assert "note: 1 missing translation laid out with the fallback text" in result.output
    result = CliRunner().invoke(main, ["i18n", "fit", str(tiny_pack), "--lang", "en"])
    assert "note:" not in result.output
