"""`pnp i18n import` is strict: a damaged PO file is refused whole, every problem with its file,
line, key and code, and nothing is written (hardening issue 14, item 6)."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import copy_exported

from pnp.cli import main
from pnp.errors import DataError
from pnp.i18n import hashes
from pnp.i18n.plurals import single_number_categories
from pnp.i18n.po import MAX_PO_BYTES, MAX_PO_PROBLEMS, import_files
from pnp.i18n.status import pack_status
from pnp.pack import load_pack

DATA = Path(__file__).resolve().parent.parent / "data"


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    """A copy of cimiterio (source: Italian) and, beside it, its PO files as `pnp i18n export` writes them."""
    folder = tmp_path_factory.mktemp("exported")
    shutil.copytree(DATA / "cimiterio", folder / "cimiterio")
    # a text with two named placeholders: the tile label, which the shipped pack now takes from the
    # shared sheet words (pnp/i18n/sheet), worded here by the game itself as packs may
    for lang, label in (("it", "Foglio"), ("de", "Blatt")):
        text = folder / "cimiterio" / "text" / f"{lang}.yaml"
        text.write_text(text.read_text(encoding="utf-8").replace(
            "\ncomponents:\n", f'\ncomponents:\n  tile: "{label} {{row}}.{{col}}"\n', 1), encoding="utf-8")
    result = CliRunner().invoke(main, ["i18n", "export", str(folder / "cimiterio"), "--out", str(folder / "po")])
    assert result.exit_code == 0, result.output
    return folder


@pytest.fixture
def game(exported, tmp_path) -> Path:
    """This test's own copy of the pack, its PO files in tmp_path/po."""
    return copy_exported(exported, tmp_path)


def _texts(pack: Path) -> dict[str, bytes]:
    """Every file of the pack's text folder, byte for byte (the YAML texts and the hash file)."""
    return {path.name: path.read_bytes() for path in sorted((pack / "text").iterdir())}


def _damage(po: Path, *edits: tuple[str, str]) -> str:
    text = po.read_text(encoding="utf-8")
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    po.write_bytes(text.encode("utf-8"))
    return text


def _entry_start(text: str, line: int) -> int:
    """The first line (comments included) of the entry holding `line`: after the blank line before it.
    (Issue 16: an entry's comment lines vary with where its text is printed, and the source-hash one went.)"""
    lines = text.split("\n")
    while line > 1 and lines[line - 2].strip():
        line -= 1
    return line


def _line(text: str, fragment: str) -> int:
    """The 1-based line of the one line holding `fragment`."""
    found = [number for number, line in enumerate(text.split("\n"), 1) if fragment in line]
    assert len(found) == 1, (fragment, found)
    return found[0]


def _refused(pack: Path, po: Path) -> tuple[str, list]:
    """Import through the CLI (exit 2, no traceback, nothing written) and through the API (the
    problems themselves); returns the CLI's output and the problems."""
    before = _texts(pack)
    result = CliRunner().invoke(main, ["i18n", "import", str(pack), str(po)])
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit) and "Traceback" not in result.output
    assert _texts(pack) == before                                      # no half import
    with pytest.raises(DataError) as error:
        import_files(load_pack(pack, strict=False), [po])
    assert _texts(pack) == before
    return result.output, error.value.problems


# (edit of de.po, the fragment of the line the problem is on, code, key, words of the message)
DAMAGE = {
    "unterminated": (('msgstr "Erwachen"', 'msgstr "Erwachen'), 'msgstr "Erwachen', "po.syntax",
                     "event.awakening.title", "no closing double quote"),
    "unterminated continuation": (('msgstr "Erwachen"', 'msgstr ""\n"Erwa\n"chen"'), '"Erwa', "po.syntax",
                                  "event.awakening.title", "no closing double quote"),
    "text after the string": (('msgstr "Erwachen"', 'msgstr "Erwa" "chen"'), 'msgstr "Erwa" "chen"', "po.syntax",
                              "event.awakening.title", "text after the closing double quote"),
    "unknown keyword": (('msgstr "Erwachen"', 'msgstrr "Erwachen"'), 'msgstrr', "po.syntax",
                        "event.awakening.title", "unknown or misformatted keyword 'msgstrr'"),
    "unknown escape": (('msgstr "Erwachen"', 'msgstr "Erwa\\qchen"'), 'Erwa\\qchen', "po.syntax",
                       "event.awakening.title", "unknown escape '\\q'"),
    "two msgstr": (('msgstr "Erwachen"', 'msgstr "Erwachen"\nmsgstr "Aufwachen"'), 'msgstr "Aufwachen"', "po.syntax",
                   "event.awakening.title", "msgstr where msgctxt or msgid belongs"),
    "no msgstr": (('msgstr "Erwachen"\n', ''), 'msgid "Risveglio"', "po.syntax",
                  "event.awakening.title", "the entry has no msgstr"),
    "index past nplurals": (('msgstr[1] "Erwecke {n} Zombies"', 'msgstr[1] "Erwecke {n} Zombies"\nmsgstr[2] "x"'),
                            'msgstr[2] "x"', "po.syntax", "event.awakening.count", "nplurals=2"),
    "raw BEL": (('msgstr "Erwachen"', 'msgstr "Erwa\x07chen"'), 'Erwa\x07chen', "po.control-char",
                "event.awakening.title", "U+0007"),
    "escaped BEL": (('msgstr "Erwachen"', 'msgstr "Erwa\\achen"'), 'Erwa\\achen', "po.control-char",
                    "event.awakening.title", "U+0007"),
    "NUL": (('msgstr "Erwachen"', 'msgstr "Erwa\x00chen"'), 'Erwa\x00chen', "po.control-char",
            "event.awakening.title", "U+0000"),
    "DEL": (('msgstr "Erwachen"', 'msgstr "Erwa\x7fchen"'), 'Erwa\x7fchen', "po.control-char",
            "event.awakening.title", "U+007F"),
    "C1": (('msgstr "Erwachen"', 'msgstr "Erwa\x85chen"'), 'Erwa\x85chen', "po.control-char",
           "event.awakening.title", "U+0085"),
    "unbalanced brace": (('msgstr[0] "bis zu {n} roten Punkt"', 'msgstr[0] "bis zu {n roten Punkt"'),
                         'msgstr[0] "bis zu {n roten', "po.placeholder", "action.move.stops", "stray '{'"),
    "lone closing brace": (('msgstr "Blatt {row}.{col}"', 'msgstr "Blatt {row}.{col} }"'), 'msgstr "Blatt',
                           "po.placeholder", "components.tile", "stray '}'"),
    "unknown placeholder": (('msgstr "Blatt {row}.{col}"', 'msgstr "Blatt {row}.{spalte}"'), 'msgstr "Blatt',
                            "po.placeholder", "components.tile", "drops {col} and invents {spalte}"),
    "missing placeholder": (('msgstr "Blatt {row}.{col}"', 'msgstr "Blatt {row}"'), 'msgstr "Blatt',
                            "po.placeholder", "components.tile", "drops {col}"),
    "plural other without {n}": (('msgstr[1] "Erwecke {n} Zombies"', 'msgstr[1] "Erwecke Zombies"'),
                                 'msgstr[1] "Erwecke Zombies"', "po.plural", "event.awakening.count",
                                 "msgstr[1] (other: n = 0, 2, 3"),
}


@pytest.mark.parametrize("case", sorted(DAMAGE))
def test_a_damaged_po_is_refused_with_file_line_key_and_code(game, case):
    edit, fragment, code, key, words = DAMAGE[case]
    po = game.parent / "po" / "de.po"
    text = _damage(po, edit)
    output, problems = _refused(game, po)
    line = _line(text, fragment)
    assert [(p.code, p.line, p.key) for p in problems] == [(code, line, key)], output
    assert words in problems[0].message
    assert f"de.po:{line}: {key}: " in output and words in output


def test_every_problem_of_every_file_is_reported_at_once(game):
    po = game.parent / "po"
    de = _damage(po / "de.po", ('msgstr "Erwachen"', 'msgstr "Erwachen'),
                 ('msgstr "Blatt {row}.{col}"', 'msgstr "Blatt {row}.{col}}"'),    # stray } and no {col}: 2
                 ('msgstr[1] "Erwecke {n} Zombies"', 'msgstr[1] "Erwecke Zombies"'))
    uk = _damage(po / "uk.po", ('msgstr[0] "Розбуди {n} зомбі"', 'msgstr[0] "Розбуди {n}\x07 зомбі"'))
    before = _texts(game)
    result = CliRunner().invoke(main, ["i18n", "import", str(game), str(po / "uk.po"), str(po / "de.po")])
    assert result.exit_code == 2 and "5 problems in the data:" in result.output, result.output
    for name, text, fragment in (("de", de, 'msgstr "Erwachen'), ("de", de, 'msgstr "Blatt'),
                                 ("de", de, 'msgstr[1] "Erwecke Zombies"'), ("uk", uk, "Розбуди {n}\x07")):
        assert f"{name}.po:{_line(text, fragment)}: " in result.output
    assert "\x07" not in result.output                  # the snippet shows the control character escaped
    assert _texts(game) == before


def test_a_clean_round_trip_imports_the_translation(game):
    po = game.parent / "po" / "de.po"
    _damage(po, ('msgstr "Erwachen"', 'msgstr "Das Erwachen"'),
            ('msgstr[0] "Erwecke {n} Zombie"', 'msgstr[0] "Erwecke einen Zombie"'),   # de one is only 1
            ('msgstr "Blatt {row}.{col}"', 'msgstr "Blatt {row}.{col} {{fest}}"'))     # doubled: literal
    result = CliRunner().invoke(main, ["i18n", "import", str(game), str(po)])
    assert result.exit_code == 0, result.output
    assert "de: 3 texts changed" in result.output and "warning" not in result.output
    de = (game / "text" / "de.yaml").read_text(encoding="utf-8")
    assert 'title: "Das Erwachen"' in de and '"Erwecke einen Zombie"' in de and "{{fest}}" in de
    texts = load_pack(game).texts["de"]
    assert texts["event.awakening.title"] == "Das Erwachen"
    assert texts["event.awakening.count"].forms == {"one": "Erwecke einen Zombie", "other": "Erwecke {n} Zombies"}


@pytest.mark.parametrize("source", sorted(p.name for p in DATA.iterdir() if (p / "pack.yaml").is_file()))
def test_every_shipped_translation_re_imports_clean(source, tmp_path):
    """What export writes, import takes back unchanged: the strict rules refuse no shipped text."""
    pack = tmp_path / source
    shutil.copytree(DATA / source, pack)
    exported = CliRunner().invoke(main, ["i18n", "export", str(pack), "--out", str(tmp_path / "po")])
    assert exported.exit_code == 0, exported.output
    before = {name: data for name, data in _texts(pack).items() if name.endswith(".yaml") and name[0] != "."}
    result = CliRunner().invoke(main, ["i18n", "import", str(pack), *map(str, sorted((tmp_path / "po").glob("*.po")))])
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output
    changed = [line for line in result.output.splitlines() if "texts changed" in line]
    assert len(changed) == len(list((tmp_path / "po").glob("*.po"))) and all(": 0 texts" in line for line in changed)
    assert {name: data for name, data in _texts(pack).items() if name in before} == before


def test_a_form_for_several_numbers_must_keep_n_in_ukrainian(game):
    po = game.parent / "po" / "uk.po"
    text = _damage(po, ('msgstr[0] "Розбуди {n} зомбі"', 'msgstr[0] "Розбуди зомбі"'))
    output, problems = _refused(game, po)
    line = _line(text, 'msgstr[0] "Розбуди зомбі"')
    assert [(p.code, p.line, p.key, p.get("form"), p.get("category")) for p in problems] == [
        ("po.plural", line, "event.awakening.count", 0, "one")]
    assert "msgstr[0] (one: n = 1, 21, 31" in output and "'Risveglia {n} zombi'" in output


def test_categories_of_a_single_number_come_from_the_cldr_rules():
    assert single_number_categories("de") == {"one"}
    assert single_number_categories("uk") == set()              # one: 1, 21, 31...
    assert single_number_categories("ar") == {"zero", "one", "two"}
    assert single_number_categories("fr") == set()              # one: 0, 1 and 1.5
    assert single_number_categories("he") == {"two"}            # one: 1 and 0.5


def test_a_second_entry_for_a_key_is_refused(game):
    po = game.parent / "po" / "de.po"
    text = po.read_text(encoding="utf-8") + '\nmsgctxt "event.awakening.title"\nmsgid "Risveglio"\nmsgstr "Aufwachen"\n'
    po.write_text(text, encoding="utf-8")
    output, problems = _refused(game, po)
    second = _line(text, 'msgstr "Aufwachen"') - 2                     # its msgctxt line
    first = _entry_start(text, _line(text, 'msgstr "Erwachen"'))      # its first comment line
    assert [(p.code, p.line, p.key) for p in problems] == [("po.duplicate", second, "event.awakening.title")]
    assert f"de.po:{second}: event.awakening.title: a second entry for 'event.awakening.title' " \
           f"(the first is on line {first})" in output


def test_a_po_file_too_big_to_be_texts_is_refused_unread(game):
    po = game.parent / "po" / "de.po"
    with po.open("r+b") as handle:
        handle.truncate(MAX_PO_BYTES + 1)                 # sparse: no disk or memory used
    output, problems = _refused(game, po)
    assert [p.code for p in problems] == ["po.size"]


def test_a_hostile_file_is_refused_with_a_bounded_report(game):
    """A megabyte-long unterminated string and ten thousand broken entries: the first problems and
    a count, in a child process so a regression hangs nothing."""
    po = game.parent / "po" / "de.po"
    text = _damage(po, ('msgstr "Erwachen"', 'msgstr "' + "\\\\a" * 400_000))
    po.write_text(text + '\nmsgctxt "x"\nmsgid "y\n' * 10_000, encoding="utf-8")
    before = _texts(game)
    run = subprocess.run([sys.executable, "-m", "pnp.cli", "i18n", "import", str(game), str(po)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert f"{MAX_PO_PROBLEMS + 1} problems in the data:" in run.stderr
    assert f"{10_001 - MAX_PO_PROBLEMS} more problems from this line on, not listed" in run.stderr
    assert len(run.stderr) < 100 * (MAX_PO_PROBLEMS + 1) * 3                 # each snippet shortened
    assert _texts(game) == before


def test_a_translation_of_an_older_source_is_imported_stale_with_a_warning(game):
    po = game.parent / "po" / "de.po"
    text = _damage(po, ('msgstr "Erwachen"', 'msgstr "Das Erwachen"'))
    it = game / "text" / "it.yaml"
    it.write_text(it.read_text(encoding="utf-8").replace('"Risveglio"', '"Il risveglio"', 1), encoding="utf-8")
    result = CliRunner().invoke(main, ["i18n", "import", str(game), str(po)])
    assert result.exit_code == 0, result.output
    line = _line(text, 'msgid "Risveglio"')
    assert (f"de.po:{line}: warning event.awakening.title: translated from an older source text "
            f"(text/it.yaml:55 now has 'Il risveglio')") in result.output and "[po.stale]" in result.output
    assert "warning" not in result.output.replace("warning event.awakening.title", "", 1)
    pack = load_pack(game)
    assert pack.texts["de"]["event.awakening.title"] == "Das Erwachen"              # imported...
    assert {s.lang: s for s in pack_status(pack)}["de"].stale == ["event.awakening.title"]   # ...as stale
    result = import_files(pack, [po])
    assert [(w.code, w.line, w.key) for w in result.warnings] == [("po.stale", line, "event.awakening.title")]


def test_a_msgid_edited_in_the_po_is_stale_whatever_its_hash_comment_says(game):
    po = game.parent / "po" / "de.po"
    text = _damage(po, ('msgid "Risveglio"\nmsgstr "Erwachen"', 'msgid "Risveglio!"\nmsgstr "Erwachen!"'))
    # the present translation has no record of its source (were it up to date, an entry made from
    # another source would not replace it: test_i18n_review, po.older)
    recorded = hashes.read_hashes(game)
    del recorded["de"]["event.awakening.title"]
    hashes.write_hashes(game, recorded, list(load_pack(game).text_locations["it"]))
    result = import_files(load_pack(game), [po])
    assert [(w.code, w.line, w.key) for w in result.warnings] == [
        ("po.stale", _line(text, 'msgid "Risveglio!"'), "event.awakening.title")]
    # issue 16: the hash recorded is that of the source the entry says it was made from (its msgid),
    # and that source is kept for the next export's previous msgid (was: UNKNOWN, the source lost)
    recorded = hashes.read_hashes(game)["de"]["event.awakening.title"]
    assert recorded == hashes.text_hash("Risveglio!") and hashes.read_sources(game)[recorded] == "Risveglio!"
    assert {s.lang: s for s in pack_status(load_pack(game))}["de"].stale == ["event.awakening.title"]


def test_a_text_file_that_cannot_be_edited_stops_the_import_before_any_file_is_written(game, monkeypatch):
    """Every language's YAML is made before the first is written: when ruamel cannot edit the last
    one, the first is not left imported alone."""
    from pnp.i18n import po as po_module
    from pnp.i18n.yamledit import YamlEditError

    po = game.parent / "po"
    _damage(po / "de.po", ('msgstr "Erwachen"', 'msgstr "Das Erwachen"'))
    _damage(po / "uk.po", ('msgstr[0] "Розбуди {n} зомбі"', 'msgstr[0] "Розбуди {n} мерця"'))
    real = po_module.render_texts

    def render(target, changed, order):
        if target.name == "uk.yaml":
            raise YamlEditError("cannot edit the file: found duplicate key", 7, "deck")
        return real(target, changed, order)
    monkeypatch.setattr(po_module, "render_texts", render)
    before = _texts(game)
    with pytest.raises(DataError) as error:
        import_files(load_pack(game), [po / "de.po", po / "uk.po"])
    assert [(p.code, p.file.endswith("uk.yaml"), p.line, p.key) for p in error.value.problems] == [
        ("po.write", True, 7, "deck")]
    assert _texts(game) == before


@pytest.mark.parametrize("command", [["import"], ["accept", "--lang", "de"]])
def test_a_game_installed_inside_pnp_is_never_written(exported, tmp_path, monkeypatch, command):
    """From a wheel the shipped games live in site-packages/pnp/shipped/data: pip owns those files
    and a reinstall undoes any edit, so `import` and `accept` refuse them (exit 2) and write
    nothing; the same pack in a folder of the user's is written as usual."""
    import pnp.shipped

    installed = tmp_path / "site-packages" / "pnp" / "shipped"
    shutil.copytree(exported / "cimiterio", installed / "data" / "cimiterio")
    (installed / "__init__.py").write_text("")
    monkeypatch.setattr(pnp.shipped, "__file__", str(installed / "__init__.py"))
    before = {p: p.read_bytes() for p in (installed / "data").rglob("*") if p.is_file()}
    args = [str(exported / "po" / "de.po")] if command == ["import"] else []
    refused = CliRunner().invoke(main, ["i18n", *command, str(installed / "data" / "cimiterio"), *args])
    assert refused.exit_code == 2, refused.output
    assert "cimiterio: this game is installed inside pnp" in refused.output
    assert f"cp -r {installed / 'data' / 'cimiterio'} cimiterio" in refused.output
    assert {p: p.read_bytes() for p in (installed / "data").rglob("*") if p.is_file()} == before
    own = tmp_path / "mine" / "cimiterio"
    shutil.copytree(exported / "cimiterio", own)
    accepted = CliRunner().invoke(main, ["i18n", *command, str(own), *args])
    assert accepted.exit_code == 0, accepted.output
