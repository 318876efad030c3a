"""Issue 16 item 4: PO files for translators (where a text is printed, its box, max-length, the
previous msgid of a fuzzy entry, no hash in the notes, gettext's plural headers), checked with
msgfmt --check and pofilter; XLIFF export and import through translate-toolkit."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from click.testing import CliRunner

from pnp.cli import main
from pnp.errors import DataError
from pnp.i18n.po import _mean_advance_mm, export, import_files, printed_uses
from pnp.pack import load_pack

TESTS = Path(__file__).resolve().parent
PLURALS = TESTS / "packs" / "plurals"
POFILTER = Path(shutil.which("pofilter") or Path(sys.executable).parent / "pofilter")
# pofilter's structural checks. Not pythonbraceformat: it wants {n} in every plural form, where an
# Arabic zero/one/two form says its number in words (pnp's own rule, pnp.i18n.placeholders, and
# msgfmt --check's, which checks the brace format of every entry, allow it).
STRUCTURAL = ("escapes", "newlines", "nplurals", "tabs", "printf")


@pytest.fixture
def plurals_pack(tmp_path) -> Path:
    target = tmp_path / "plurals"
    shutil.copytree(PLURALS, target)
    return target


def _entry(text: str, key: str) -> str:
    """The lines of the entry whose msgctxt is `key`, comments included."""
    for block in text.split("\n\n"):
        if f'msgctxt "{key}"' in block:
            return block
    raise AssertionError(f"no entry {key}")


def test_entries_say_where_the_text_is_printed_and_its_box(tiny_pack, tmp_path):
    pack = load_pack(tiny_pack)
    export(pack, tmp_path, printed_uses(pack))
    text = (tmp_path / "it.po").read_text(encoding="utf-8")
    body = _entry(text, "card.gamma.body")
    assert "#. card gamma front: 55.0 x 40.0 mm box, 10 pt\n" in body and "max-length" not in body
    name = _entry(text, "game.name")
    assert "#. card alpha back: 57.0 x 10.0 mm box, 12 pt\n" in name
    assert "#. tuck box p1 · tuck box front: 58.0 x 4.5 mm box, 7 pt, one line\n" in name
    # max-length: the one-line box's width over the mean advance of an Italian character at the
    # 6 pt floor in the box's font
    expected = int(58.0 / _mean_advance_mm(pack, "it", "regular", 6.0))
    assert 40 < expected < 80 and f"#, max-length:{expected}\n" in name
    catalog = read_po((tmp_path / "it.po").open("rb"))
    assert f"max-length:{expected}" in catalog.get("Tiny Test", context="game.name").flags


def test_no_source_hash_reaches_the_translator_and_stale_entries_carry_the_previous_msgid(plurals_pack, tmp_path):
    pack = load_pack(plurals_pack)
    export(pack, tmp_path)
    assert "source-hash" not in "".join(p.read_text(encoding="utf-8") for p in tmp_path.glob("*.po*"))
    import_files(pack, [tmp_path / "de.po"])                   # records what each translation was made from
    en = plurals_pack / "text" / "en.yaml"
    en.write_text(en.read_text(encoding="utf-8").replace("Counters", "Tokens"), encoding="utf-8")
    again = tmp_path / "again"
    export(load_pack(plurals_pack), again)
    entry = _entry((again / "de.po").read_text(encoding="utf-8"), "deck.counters")
    assert "#, fuzzy" in entry and '#| msgid "Counters"' in entry and 'msgid "Tokens"' in entry
    result = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(again / "de.po")], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_an_edited_msgid_is_stale_and_its_source_is_the_next_previous_msgid(plurals_pack, tmp_path):
    pack = load_pack(plurals_pack)
    export(pack, tmp_path)
    po = tmp_path / "de.po"
    po.write_text(po.read_text(encoding="utf-8").replace('msgid "Counters"', 'msgid "Old counters"'), encoding="utf-8")
    result = import_files(pack, [po])
    assert [w.code for w in result.warnings] == ["po.stale"]
    export(load_pack(plurals_pack), tmp_path / "next")
    entry = _entry((tmp_path / "next" / "de.po").read_text(encoding="utf-8"), "deck.counters")
    assert '#| msgid "Old counters"' in entry and "#, fuzzy" in entry


def test_italian_gets_the_two_plural_forms_gettext_expects_and_many_comes_back_from_other(plurals_pack, tmp_path):
    it = plurals_pack / "text" / "it.yaml"
    text = it.read_text(encoding="utf-8")
    it.write_text(re.sub(r"  move:\n(    .*\n)+", "", text), encoding="utf-8")      # rule.move untranslated
    pack = load_pack(plurals_pack)
    export(pack, tmp_path)
    po = tmp_path / "it.po"
    text = po.read_text(encoding="utf-8")
    assert '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"' in text
    assert "msgstr[2]" not in text
    text = text.replace('msgstr[1] "Risveglia {n} zombi"', 'msgstr[1] "Risveglia {n} non morti"')
    move = _entry(text, "rule.move")
    text = text.replace(move, move.replace('msgstr[0] ""', 'msgstr[0] "Fai {n} passo"')
                        .replace('msgstr[1] ""', 'msgstr[1] "Fai {n} passi"'))
    po.write_text(text, encoding="utf-8")
    result = import_files(pack, [po])
    assert not [n for n in result.notes if "rule." in n]            # no "copied msgstr[1]" note to check
    texts = load_pack(plurals_pack).texts["it"]
    assert texts["rule.move"].forms == {"one": "Fai {n} passo", "many": "Fai {n} passi", "other": "Fai {n} passi"}
    awaken = texts["rule.awaken"].forms                     # a many form the text has is kept
    assert awaken == {"one": "Risveglia {n} zombi", "many": "Risveglia {n} di zombi", "other": "Risveglia {n} non morti"}
    result = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(po)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("game", ["cimiterio", "zombie-run", "zombies-vs-vampires"])
def test_exported_po_files_pass_msgfmt_check_and_pofilter(game, tmp_path):
    pack = load_pack(game, strict=False)
    export(pack, tmp_path, printed_uses(pack))
    files = sorted(tmp_path.glob("*.po"))
    assert len(files) == len(pack.languages) - 1
    for path in files:
        result = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(path)], capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
        text = path.read_text(encoding="utf-8")
        assert "source-hash" not in text
        assert re.search(r"^#\. (card \S+ (front|back)|board p\d|parts) .*: [\d.]+ x [\d.]+ mm box", text, re.M)
        # max-length on every entry printed in a one-line box (the comments list the first few
        # places); Zombies vs Vampires prints none of its own texts on one line (its aid title
        # is a shared sheet word since issue 16)
        entries = text.split("\n\n")
        limited = [e for e in entries if re.search(r"^#, .*max-length:\d+", e, re.M)]
        assert all(e in limited for e in entries if re.search(r"^#\. .*, one line$", e, re.M))
        assert bool(limited) == (game != "zombies-vs-vampires")
        report = tmp_path / f"pofilter-{path.stem}.po"
        subprocess.run([str(POFILTER), "--progress=none", *[f"-t{t}" for t in STRUCTURAL], "-i", str(path),
                        "-o", str(report)], check=True, capture_output=True)
        assert not report.exists(), report.read_text(encoding="utf-8")     # pofilter writes only failures


def test_pofilter_does_find_a_broken_entry(plurals_pack, tmp_path):
    """The pofilter check above can fail."""
    export(load_pack(plurals_pack), tmp_path)
    po = tmp_path / "de.po"
    po.write_text(po.read_text(encoding="utf-8").replace('msgstr "Zähler"', 'msgstr "Zähler\\n"'), encoding="utf-8")
    report = tmp_path / "report.po"
    subprocess.run([str(POFILTER), "--progress=none", *[f"-t{t}" for t in STRUCTURAL], "-i", str(po), "-o", str(report)],
                   check=True, capture_output=True)
    assert "(pofilter) newlines" in report.read_text(encoding="utf-8")


def test_xliff_round_trip(plurals_pack, tmp_path):
    pytest.importorskip("translate.storage.poxliff")
    out = tmp_path / "xlf"
    result = CliRunner().invoke(main, ["i18n", "export", str(plurals_pack), "--format", "xliff", "--out", str(out)])
    assert result.exit_code == 0, result.output
    files = sorted(out.glob("*.xlf"))
    assert [p.stem for p in files] == ["ar", "de", "it", "uk"]
    before = {p.name: p.read_bytes() for p in (plurals_pack / "text").glob("*.yaml")}
    result = CliRunner().invoke(main, ["i18n", "import", str(plurals_pack), *map(str, files)])
    assert result.exit_code == 0, result.output
    assert {p.name: p.read_bytes() for p in (plurals_pack / "text").glob("*.yaml") if p.name in before} == before
    uk = out / "uk.xlf"
    text = uk.read_text(encoding="utf-8")
    assert 'id="deck.counters"' in text and 'maxwidth="' in text and 'size-unit="char"' in text
    assert 'restype="x-gettext-plurals"' in text and 'id="ui.points[2]"' in text
    text = text.replace(">Лічильники</target>", ">Жетони</target>")
    text = re.sub(r'(id="ui\.points\[1\]".*?<target[^>]*>)[^<]*', r"\g<1>{n} бали", text, flags=re.S)
    uk.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["i18n", "import", str(plurals_pack), str(uk)])
    assert result.exit_code == 0, result.output
    texts = load_pack(plurals_pack).texts["uk"]
    assert texts["deck.counters"] == "Жетони" and texts["ui.points"].forms["few"] == "{n} бали"


def test_an_xliff_problem_names_the_file_and_the_unit_line(plurals_pack, tmp_path):
    pytest.importorskip("translate.storage.poxliff")
    from pnp.i18n.xliff import export as export_xliff
    from pnp.i18n.xliff import import_files as import_xliff

    [_ar, de, _it, _uk] = sorted(export_xliff(load_pack(plurals_pack), tmp_path))
    text = de.read_text(encoding="utf-8").replace(">Zähler</target>", ">Zähler {x}</target>")
    de.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as caught:
        import_xliff(load_pack(plurals_pack), [de])
    [problem] = caught.value.problems
    unit_line = next(n for n, line in enumerate(text.split("\n"), 1) if 'id="deck.counters"' in line)
    assert (problem.code, Path(problem.file).name, problem.line, problem.key) == \
        ("po.placeholder", "de.xlf", unit_line, "deck.counters")


def test_a_broken_xliff_file_is_one_problem_with_its_line(plurals_pack, tmp_path):
    pytest.importorskip("translate.storage.poxliff")
    from pnp.i18n.xliff import import_files as import_xliff

    broken = tmp_path / "de.xlf"
    broken.write_text('<?xml version="1.0"?>\n<xliff version="1.1">\n<file>\n<body>\n</file>\n</xliff>\n',
                      encoding="utf-8")
    before = (plurals_pack / "text" / "de.yaml").read_bytes()
    with pytest.raises(DataError) as caught:
        import_xliff(load_pack(plurals_pack), [broken])
    [problem] = caught.value.problems
    assert (problem.code, Path(problem.file).name, problem.line) == ("po.syntax", "de.xlf", 5)
    assert (plurals_pack / "text" / "de.yaml").read_bytes() == before
