"""A translator's review of `pnp i18n` (set-up: cimiterio with Spanish added, its PO files exported):
import writes text that reads back as the same string, export does not overwrite work not imported,
an old PO does not undo a newer translation, accept names what it marks and refuses unknown keys,
two files of one language that disagree are refused, and the messages say what is true."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import copy_exported

from pnp.cli import main
from pnp.errors import DataError
from pnp.i18n.plurals import PluralText
from pnp.i18n.po import export, import_files
from pnp.pack import load_pack

DATA = Path(__file__).resolve().parent.parent / "data"

# each must come back from import -> load_pack exactly (YAML 1.1 reads many of them plain as
# something else: 3:2 is 182, No is false, ~ is null, 2024-01-01 a date...)
NASTY = ["3:2", "1:0", "No", "Yes", "On", "Off", "NO", "y", "n", "true", "null", "~", "2024-01-01", "1e3", "0x1F",
         "012", ".5", "-.inf", ".nan", " lead", "trail ", "a: b", "a #b", "#x", "- x", "? x", ": x", "@x", "`x", "!x",
         "&x", "*x", "%x", "|x", ">x", "'x", '"x', "x'", "[x]", "x, y", "1_000", "+1", "=", "<<", "a\\b", "tab\there",
         "multi\nline", "trailing\n", "  two\n  lines ", "ø ü ь ع", "\u00a0nbsp"]


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    """cimiterio with Spanish declared (its file holding only the game's name) and its PO files."""
    folder = tmp_path_factory.mktemp("review")
    game = folder / "cimiterio"
    shutil.copytree(DATA / "cimiterio", game)
    pack_yaml = game / "pack.yaml"
    text = pack_yaml.read_text(encoding="utf-8")
    assert "languages: [it, en, uk, ar, de]" in text
    pack_yaml.write_text(text.replace("languages: [it, en, uk, ar, de]", "languages: [it, en, uk, ar, de, es]"),
                         encoding="utf-8")
    (game / "text" / "es.yaml").write_text('game:\n  name: "Cimiterio"\n', encoding="utf-8")
    result = _pnp("export", game, "--out", folder / "po", "--no-places")
    assert result.exit_code == 0, result.output
    return folder


@pytest.fixture
def game(exported, tmp_path) -> Path:
    return copy_exported(exported, tmp_path)


def _pnp(*args):
    return CliRunner().invoke(main, ["i18n", *map(str, args)])


def _po_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")


def _translate(po: Path, translations: dict[str, str]) -> None:
    """Set the msgstr of each key's (singular) entry, clearing its fuzzy flag."""
    text = po.read_text(encoding="utf-8")
    for key, value in translations.items():
        pattern = re.compile(r'(#, fuzzy\n)?(#\| msgid "[^\n]*"\n)?(msgctxt "' + re.escape(key) +
                             r'"\nmsgid "[^\n]*"\n)msgstr "[^\n]*"\n')
        text, count = pattern.subn(lambda m, v=value: m.group(3) + f'msgstr "{_po_escape(v)}"\n', text)
        assert count == 1, key
    po.write_text(text, encoding="utf-8")


def _plain_keys(game: Path, count: int) -> list[str]:
    """Keys of singular source texts without placeholders or braces."""
    pack = load_pack(game, strict=False)
    texts = pack.texts[pack.source_language]
    keys = [key for key in pack.text_locations[pack.source_language]
            if not isinstance(texts[key], PluralText) and str(texts[key]) and "{" not in str(texts[key])
            and "}" not in str(texts[key]) and "\n" not in str(texts[key]) and '"' not in str(texts[key])
            and key not in pack.literal_texts]
    assert len(keys) >= count
    return keys[:count]


# ---- 1. import writes text that reads back as the same string

def test_every_nasty_string_round_trips_through_po_import(game):
    keys = _plain_keys(game, len(NASTY))
    wanted = dict(zip(keys, NASTY))
    _translate(game.parent / "po" / "es.po", wanted)
    result = _pnp("import", game, game.parent / "po" / "es.po")
    assert result.exit_code == 0, result.output
    texts = load_pack(game, strict=False).texts["es"]
    assert {key: texts[key] for key in keys} == wanted
    assert all(type(texts[key]) is str for key in keys)
    assert _pnp("status", game).exit_code == 0


def test_every_nasty_string_round_trips_through_xliff_import(game, tmp_path):
    pytest.importorskip("translate.storage.poxliff")
    out = tmp_path / "xliff"
    assert _pnp("export", game, "--format", "xliff", "--out", out, "--no-places").exit_code == 0
    keys = _plain_keys(game, len(NASTY))
    wanted = dict(zip(keys, NASTY))
    from translate.storage import poxliff

    store = poxliff.PoXliffFile.parsestring((out / "es.xlf").read_bytes())
    for unit in store.units:
        key = unit.getid().split("\x04")[-1]
        if key in wanted:
            unit.target = wanted[key]
            unit.markfuzzy(False)
            unit.xmlelement.set("approved", "yes")
    (out / "es.xlf").write_bytes(bytes(store))
    result = _pnp("import", game, out / "es.xlf")
    assert result.exit_code == 0, result.output
    texts = load_pack(game, strict=False).texts["es"]
    assert {key: texts[key] for key in keys} == wanted


def test_a_number_like_translation_replacing_a_plain_one_is_quoted(game):
    """A key the file already holds plain (`tombs: Tombe`) takes a value that must be quoted."""
    es = game / "text" / "es.yaml"
    es.write_text('game:\n  name: Cimiterio\ndeck:\n  tombs: Tumbas\n', encoding="utf-8")
    _translate(game.parent / "po" / "es.po", {"deck.tombs": "3:2", "game.name": "No"})
    result = _pnp("import", game, game.parent / "po" / "es.po")
    assert result.exit_code == 0, result.output
    texts = load_pack(game, strict=False).texts["es"]
    assert (texts["deck.tombs"], texts["game.name"]) == ("3:2", "No")


# ---- 2. export does not overwrite work not imported

@pytest.mark.parametrize("fmt", ["po", "xliff"])
def test_export_refuses_to_overwrite_translations_not_imported(game, tmp_path, fmt):
    if fmt == "xliff":
        pytest.importorskip("translate.storage.poxliff")
    out = tmp_path / "out"
    assert _pnp("export", game, "--format", fmt, "--out", out, "--no-places").exit_code == 0
    target = out / ("es.po" if fmt == "po" else "es.xlf")
    if fmt == "po":
        _translate(target, {"deck.gate": "Puerta", "deck.tombs": "Tumbas"})
    else:
        text = target.read_text(encoding="utf-8")
        for key, value in (("deck.gate", "Puerta"), ("deck.tombs", "Tumbas")):
            text = re.sub(r'(id="' + re.escape(key) + r'"[^>]*>\s*<source>[^<]*</source>)',
                          lambda m, v=value: m.group(1) + f'\n        <target state="translated">{v}</target>', text)
            text = re.sub(r'(<trans-unit[^>]*id="' + re.escape(key) + r'"[^>]*) approved="no"', r'\1 approved="yes"', text)
        target.write_text(text, encoding="utf-8")
    before = target.read_bytes()
    again = _pnp("export", game, "--format", fmt, "--out", out, "--no-places")
    assert again.exit_code == 2, again.output
    assert "Traceback" not in again.output
    problems = [line for line in again.output.splitlines() if "[po.pending]" in line or "po.pending" in line
                or "entries hold" in line]
    assert len(problems) == 1, again.output
    assert target.name in problems[0] and "2 entries hold 'es' translations" in problems[0]
    assert "deck.gate" in problems[0] and "deck.tombs" in problems[0] and "--force" in problems[0]
    assert target.read_bytes() == before
    assert "wrote" not in again.output
    if fmt == "po":
        with pytest.raises(DataError) as caught:
            export(load_pack(game, strict=False), out)
        assert [(p.code, p.key) for p in caught.value.problems] == [("po.pending", "deck.gate")]
    # imported, nothing is pending: exporting again just works
    imported = _pnp("import", game, target)
    assert imported.exit_code == 0, imported.output
    fine = _pnp("export", game, "--format", fmt, "--out", out, "--no-places")
    assert fine.exit_code == 0, fine.output
    assert load_pack(game, strict=False).texts["es"]["deck.gate"] == "Puerta"


def test_export_force_overwrites(game, tmp_path):
    po = game.parent / "po" / "es.po"
    _translate(po, {"deck.gate": "Puerta"})
    assert _pnp("export", game, "--out", po.parent, "--no-places").exit_code == 2
    forced = _pnp("export", game, "--out", po.parent, "--no-places", "--force")
    assert forced.exit_code == 0, forced.output
    assert 'msgstr "Puerta"' not in po.read_text(encoding="utf-8")


# ---- 3. an older PO does not replace a newer, up-to-date translation

def _change_source(game: Path, old: str, new: str) -> None:
    it = game / "text" / "it.yaml"
    text = it.read_text(encoding="utf-8")
    assert text.count(old) == 1
    it.write_text(text.replace(old, new), encoding="utf-8")


def _es_status(game: Path) -> str:
    """The Spanish line of `pnp i18n status` (a line on its sheet words follows it)."""
    return next(line for line in _pnp("status", game, "--no-keys").output.splitlines() if line.startswith("  es: "))


def test_an_older_po_does_not_undo_a_newer_translation(game, tmp_path):
    po = game.parent / "po" / "es.po"
    _translate(po, {"gate.intact.hold": "Aguanta el golpe."})
    assert _pnp("import", game, po).exit_code == 0
    old = tmp_path / "old.po"
    shutil.copy(po, old)
    _change_source(game, "Regge l'urto.", "Regge l'urto senza danni.")
    assert _pnp("export", game, "--out", po.parent, "--no-places").exit_code == 0
    assert "#, fuzzy" in po.read_text(encoding="utf-8")
    _translate(po, {"gate.intact.hold": "Aguanta el golpe sin daños."})
    assert _pnp("import", game, po).exit_code == 0
    assert "0 stale" in _es_status(game)
    hashes_before = (game / "text" / ".source-hashes.yaml").read_bytes()

    again = _pnp("import", game, old)
    assert again.exit_code == 0, again.output
    assert load_pack(game, strict=False).texts["es"]["gate.intact.hold"] == "Aguanta el golpe sin daños."
    line = next(n for n, text in enumerate(old.read_text(encoding="utf-8").splitlines(), 1)
                if text == 'msgid "Regge l\'urto."')
    assert f"old.po:{line}: warning gate.intact.hold: " in again.output and "[po.older]" in again.output
    assert "not imported" in again.output
    assert "1 not imported" in again.output
    assert ", 0 stale" in _es_status(game)
    assert (game / "text" / ".source-hashes.yaml").read_bytes() == hashes_before
    # over a translation that is itself stale, an older one still lands (marked stale, as before)
    _change_source(game, "Regge l'urto senza danni.", "Regge ogni urto.")
    stale = _pnp("import", game, old)
    assert stale.exit_code == 0, stale.output
    assert "[po.stale]" in stale.output and "[po.older]" not in stale.output
    assert load_pack(game, strict=False).texts["es"]["gate.intact.hold"] == "Aguanta el golpe."


# ---- 4. accept

def test_accept_refuses_an_unknown_key_with_a_guess(game):
    before = {p.name: p.read_bytes() for p in (game / "text").iterdir()}
    result = _pnp("accept", game, "gate.intact.hol", "--lang", "de")
    assert result.exit_code == 2, result.output
    assert "gate.intact.hol" in result.output and "did you mean 'gate.intact.hold'?" in result.output
    assert "[i18n.unknown-key]" in result.output or "unknown text key" in result.output
    assert "marked up to date" not in result.output
    assert {p.name: p.read_bytes() for p in (game / "text").iterdir()} == before


def test_accept_names_the_keys_it_marks(game):
    _change_source(game, "Regge l'urto.", "Regge l'urto senza danni.")
    result = _pnp("accept", game)
    assert result.exit_code == 0, result.output
    lines = {line.split(":")[0]: line for line in result.output.splitlines()}
    assert "1 stale translation marked up to date (gate.intact.hold)" in lines["de"]
    assert "already up to date" in lines["de"]
    again = _pnp("accept", game, "--lang", "de")
    assert "de: 0 stale translations marked up to date" in again.output


# ---- 5. stray braces: the advice says what the formatter does

def test_the_stray_brace_advice_does_not_call_doubling_an_escape(game):
    po = game.parent / "po" / "es.po"
    _translate(po, {"deck.gate": "Mover {x"})
    result = _pnp("import", game, po)
    assert result.exit_code == 2, result.output
    assert "a literal brace is doubled" not in result.output
    assert "it is not an escape" in result.output
    # and indeed a doubled brace prints as written
    _translate(po, {"deck.gate": "Mover {{x}}"})
    assert _pnp("import", game, po).exit_code == 0
    from pnp.i18n.texts import Texts

    assert Texts.of(load_pack(game, strict=False), "es").t("deck.gate") == "Mover {{x}}"
    assert Texts.of(load_pack(game, strict=False), "es").t("deck.gate", x=1) == "Mover {{x}}"


# ---- 6. two files of one language that disagree

def test_two_files_of_one_language_that_disagree_are_refused(game, tmp_path):
    po = game.parent / "po" / "es.po"
    a, b = tmp_path / "a.po", tmp_path / "b.po"
    shutil.copy(po, a)
    shutil.copy(po, b)
    _translate(a, {"deck.gate": "Puerta", "deck.tombs": "Tumbas"})
    _translate(b, {"deck.gate": "Portón", "deck.tombs": "Tumbas"})
    before = {p.name: p.read_bytes() for p in (game / "text").iterdir()}
    result = _pnp("import", game, a, b)
    assert result.exit_code == 2, result.output
    line = next(n for n, text in enumerate(a.read_text(encoding="utf-8").splitlines(), 1)
                if text == 'msgctxt "deck.gate"') + 1
    assert f"b.po:{line}: deck.gate: " in result.output and f"a.po:{line}" in result.output
    assert "[po.conflict]" in result.output or "conflicts with" in result.output
    assert "deck.tombs" not in result.output                 # the same translation twice is no conflict
    with pytest.raises(DataError) as caught:
        import_files(load_pack(game, strict=False), [a, b])
    assert [(p.code, p.key, p.line) for p in caught.value.problems] == [("po.conflict", "deck.gate", line)]
    assert {p.name: p.read_bytes() for p in (game / "text").iterdir()} == before


# ---- 7. smaller

def test_xliff_export_writes_no_empty_translated_target(game, tmp_path):
    pytest.importorskip("translate.storage.poxliff")
    out = tmp_path / "xliff"
    assert _pnp("export", game, "--format", "xliff", "--out", out, "--no-places").exit_code == 0
    text = (out / "es.xlf").read_text(encoding="utf-8")
    assert '<target state="translated"></target>' not in text and "<target/>" not in text
    unit = re.search(r'<trans-unit[^>]*id="deck.gate".*?</trans-unit>', text, re.S)
    assert unit is not None and "<target" not in unit.group(0)


def test_an_unapproved_xliff_unit_is_reported_in_xliff_words(game, tmp_path):
    pytest.importorskip("translate.storage.poxliff")
    out = tmp_path / "xliff"
    assert _pnp("export", game, "--format", "xliff", "--out", out, "--no-places").exit_code == 0
    xlf = out / "es.xlf"
    text = re.sub(r'(id="deck.gate"[^>]*>\s*<source>[^<]*</source>)',
                  lambda m: m.group(1) + '\n        <target state="translated">Puerta</target>',
                  xlf.read_text(encoding="utf-8"))
    xlf.write_text(text, encoding="utf-8")
    result = _pnp("import", game, xlf)
    assert result.exit_code == 0, result.output
    assert 'approved="yes"' in result.output and "fuzzy flag" not in result.output


def test_a_po_without_language_header_says_the_file_name_is_used(game, tmp_path):
    empty = tmp_path / "empty.po"
    empty.write_text("", encoding="utf-8")
    result = _pnp("import", game, empty)
    assert result.exit_code == 2, result.output
    assert "no Language header" in result.output and "file name" in result.output and "'empty'" in result.output


def test_another_games_po_is_said_to_be_for_another_game(game, tmp_path):
    other = tmp_path / "zombie-run"
    shutil.copytree(DATA / "zombie-run", other)
    assert _pnp("export", other, "--out", tmp_path / "zpo", "--no-places").exit_code == 0
    result = _pnp("import", game, tmp_path / "zpo" / "de.po")
    assert result.exit_code == 2, result.output
    assert "1 problem in the data:" in result.output
    assert "seems to be for another game" in result.output and "'zombie-run'" in result.output
    assert "[po.unknown-key]" not in result.output



@pytest.mark.parametrize("name", ["no", "12"])
def test_a_new_game_named_like_a_yaml_value_loads(tmp_path, name):
    """`pnp new` writes the id and printed name into pack.yaml and text/*.yaml: quoted, so `no`
    stays the text 'no' (not false) and `12` the text '12' (not a number)."""
    made = CliRunner().invoke(main, ["new", name, "--dir", str(tmp_path)])
    assert made.exit_code == 0, made.output
    pack = load_pack(tmp_path / name)
    assert pack.id == name
    assert pack.texts["en"]["game.name"] == name.capitalize()
