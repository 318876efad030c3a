"""A translator's review, second round (set-up: the starter, `pnp new demo`, with Spanish added):
an icon left out of a translation is said (check, import), a stale translation is said where the
translator looks (check, build), and status says the sheet words that print in English (and takes
--format json as check, fit and lint do)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main

SOURCE = "Deal 1 :skull: to **every** hero in play."


def pnp(*args) -> CliRunner:
    return CliRunner().invoke(main, list(map(str, args)))


@pytest.fixture
def demo(tmp_path, monkeypatch) -> Path:
    """The starter with Spanish declared (its text file holding the game's name only)."""
    monkeypatch.chdir(tmp_path)
    assert pnp("new", "demo").exit_code == 0
    pack = tmp_path / "demo" / "pack.yaml"
    pack.write_text(pack.read_text(encoding="utf-8").replace("languages: [en, it]", "languages: [en, it, es]"),
                    encoding="utf-8")
    (tmp_path / "demo" / "text" / "es.yaml").write_text('game:\n  name: "Demo"\n', encoding="utf-8")
    return tmp_path / "demo"


def findings(game: Path, rule: str) -> list[dict]:
    result = pnp("check", game, "--no-print", "--format", "json")
    assert "Traceback" not in result.output
    return [f for f in json.loads(result.output)["findings"] if f["rule"] == rule]


def translate_in_po(game: Path, translation: str) -> Path:
    """Export, translate the curse's effect in po/es.po; the PO's path."""
    assert pnp("i18n", "export", game, "--out", "po").exit_code == 0
    po = Path("po/es.po")
    entry = f'msgctxt "card.main.curse.effect"\nmsgid "{SOURCE}"\nmsgstr ""'
    assert entry in po.read_text(encoding="utf-8")
    po.write_text(po.read_text(encoding="utf-8").replace(entry, entry[:-2] + json.dumps(translation, ensure_ascii=False)),
                  encoding="utf-8")
    return po


def line_of(path: Path, needle: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line)


# ---- 1. icons

@pytest.mark.parametrize("translation,missing,extra", [
    ("Inflige 1 skull: a cada héroe.", ":skull:", "none"),          # the icon's first colon lost
    ("Inflige 1 daño a cada héroe.", ":skull:", "none"),             # no icon at all
    ("Inflige 1 :skull: :heart: a cada héroe.", "none", ":heart:"),  # one the source does not have
    ("Inflige 1 :skull: :skull: a cada héroe.", "none", ":skull:"),  # the same icon twice
])
def test_an_icon_the_translation_lacks_or_adds_is_a_warning_at_its_line(demo, translation, missing, extra):
    es = demo / "text" / "es.yaml"
    es.write_text(es.read_text(encoding="utf-8") + f"card:\n  main:\n    curse:\n      effect: {json.dumps(translation, ensure_ascii=False)}\n",
                  encoding="utf-8")
    found = findings(demo, "text.icons")
    assert [(f["severity"], f["file"], f["line"], f["key"], f["lang"]) for f in found] == [
        ("warning", "demo/text/es.yaml", line_of(es, "effect:"), "card.main.curse.effect", "es")]
    assert (found[0]["detail"]["missing"], found[0]["detail"]["extra"]) == (missing, extra)
    assert "the source's icons: :skull:" in found[0]["message"]


def test_icons_in_another_order_are_no_finding_and_the_data_cell_is_checked_too(demo):
    es = demo / "text" / "es.yaml"
    es.write_text(es.read_text(encoding="utf-8") + "card:\n  main:\n    knight:\n      effect: "
                  "\"Bloquea un ataque. **Valiente**: cuando bloquea gana 1 :heart:.\"\n", encoding="utf-8")
    cards = demo / "cards.csv"
    cards.write_text(cards.read_text(encoding="utf-8").replace("Infliggi 1 :skull: a **ogni** eroe in gioco.",
                                                               "Infliggi 1 skull: a **ogni** eroe in gioco."),
                     encoding="utf-8")
    found = findings(demo, "text.icons")
    assert [(f["file"], f["line"], f["key"], f["lang"]) for f in found] == [
        ("demo/cards.csv", line_of(cards, "curse,"), "card.main.curse.effect", "it")]


def test_import_warns_of_a_lost_icon_at_the_msgstr_and_imports(demo):
    po = translate_in_po(demo, "Inflige 1 skull: a cada héroe.")
    result = pnp("i18n", "import", demo, po)
    assert result.exit_code == 0, result.output
    line = line_of(po, "Inflige 1 skull:")
    assert f"po/es.po:{line}: warning card.main.curse.effect: the translation lacks :skull:" in result.output
    assert "[po.icons]" in result.output
    assert "Inflige 1 skull: a cada héroe." in (demo / "text" / "es.yaml").read_text(encoding="utf-8")


# ---- 2. stale translations

def _stale_demo(demo: Path) -> None:
    """The curse's effect translated to Spanish (imported) and Italian (accepted), then changed in English."""
    assert pnp("i18n", "import", demo, translate_in_po(demo, "Inflige 1 :skull: a **cada** héroe.")).exit_code == 0
    assert pnp("i18n", "accept", demo, "--lang", "it").exit_code == 0
    assert findings(demo, "text.stale") == []
    cards = demo / "cards.csv"
    cards.write_text(cards.read_text(encoding="utf-8").replace(SOURCE, "Deal 2 :skull: to **every** hero in play."),
                     encoding="utf-8")


def test_check_says_each_stale_translation_at_its_line_and_accept_clears_it(demo):
    _stale_demo(demo)
    es = demo / "text" / "es.yaml"
    found = findings(demo, "text.stale")
    assert [(f["severity"], f["file"], f["line"], f["key"], f["lang"]) for f in found] == [
        ("warning", "demo/cards.csv", line_of(demo / "cards.csv", "curse,"), "card.main.curse.effect", "it"),
        ("warning", "demo/text/es.yaml", line_of(es, "effect:"), "card.main.curse.effect", "es")]
    assert "the en source text changed since this es text was translated" in found[1]["message"]
    assert "pnp i18n accept demo card.main.curse.effect --lang es" in found[1]["hint"]
    assert pnp("i18n", "accept", demo, "card.main.curse.effect", "--lang", "es").exit_code == 0
    assert [f["lang"] for f in findings(demo, "text.stale")] == ["it"]


def test_a_build_says_once_how_many_texts_are_stale_a_warning_under_strict_too(demo, tmp_path):
    _stale_demo(demo)
    result = pnp("build", demo, "--lang", "es", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    said = [line for line in result.output.splitlines() if "stale" in line]
    assert said == ["warning: demo/text/es.yaml: [es] 1 es text stale: the en source changed since translated; "
                    "`pnp i18n status demo` lists them"]
    result = pnp("build", demo, "--lang", "it", "--strict", "--out", tmp_path / "out")   # every text there
    assert result.exit_code == 0, result.output
    assert [line for line in result.output.splitlines() if "stale" in line] == [
        "warning: demo/text/it.yaml: [it] 1 it text stale: the en source changed since translated; "
        "`pnp i18n status demo` lists them"]
    assert pnp("i18n", "accept", demo, "--lang", "it").exit_code == 0
    result = pnp("build", demo, "--lang", "it", "--out", tmp_path / "out")
    assert result.exit_code == 0 and "stale" not in result.output, result.output


# ---- 3. sheet words in status

def test_status_says_the_sheet_words_that_print_in_english_and_the_file_to_write(demo):
    result = pnp("i18n", "status", demo, "--no-keys")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    at = lines.index(next(line for line in lines if line.startswith("  es: ")))
    assert re.fullmatch(r"    sheet words: (\d+) of \1 print in English \(pnp has no 'es' ones\): write "
                        r"demo/text/sheet/es\.yaml, the keys of pnp/i18n/sheet/en\.yaml translated", lines[at + 1])
    assert not any("sheet words" in line for line in lines if line is not lines[at + 1])     # it: pnp has its words
    rows = {row["lang"]: row for row in json.loads(pnp("i18n", "status", demo, "--json").output)["demo"]["languages"]}
    assert rows["es"]["sheet_words"]["english"] == rows["es"]["sheet_words"]["total"] > 0
    assert rows["es"]["sheet_words"]["file"] == "demo/text/sheet/es.yaml"
    assert rows["it"]["sheet_words"]["english"] == 0
    (demo / "text" / "sheet").mkdir()
    (demo / "text" / "sheet" / "es.yaml").write_text("sheet:\n  print: Imprimir al 100 %\n", encoding="utf-8")
    result = pnp("i18n", "status", demo, "--no-keys")
    total = rows["es"]["sheet_words"]["total"]
    assert (f"    sheet words: {total - 1} of {total} print in English: add them to demo/text/sheet/es.yaml, "
            "the keys of pnp/i18n/sheet/en.yaml translated") in result.output.splitlines(), result.output


def test_status_takes_format_json_as_check_fit_and_lint_do_and_json_still_works(demo):
    by_format = pnp("i18n", "status", demo, "--format", "json")
    assert by_format.exit_code == 0, by_format.output
    assert json.loads(by_format.output) == json.loads(pnp("i18n", "status", demo, "--json").output)
    assert "--json" not in pnp("i18n", "status", "--help").output          # a hidden alias


# ---- the PO's max-length

def test_import_warns_of_a_translation_longer_than_its_max_length_and_imports(demo):
    assert pnp("i18n", "export", demo, "--out", "po").exit_code == 0
    po = Path("po/es.po")
    text = po.read_text(encoding="utf-8")
    flag = re.search(r'#, max-length:(\d+)\nmsgctxt "ui.hero"\nmsgid "Hero"\nmsgstr ""', text)
    assert flag, "test setup: ui.hero has a max-length in the export"
    limit = int(flag.group(1))
    fits, too_long = "H" * limit, "Héroe legendario " * (limit // 17 + 1)
    po.write_text(text.replace(flag.group(0), flag.group(0)[:-2] + f'"{fits}"'), encoding="utf-8")
    result = pnp("i18n", "import", demo, po)
    assert result.exit_code == 0 and "[po.max-length]" not in result.output, result.output
    po.write_text(text.replace(flag.group(0), flag.group(0)[:-2] + f'"{too_long}"'), encoding="utf-8")
    result = pnp("i18n", "import", demo, po)
    assert result.exit_code == 0, result.output
    line = line_of(po, too_long)
    assert (f"po/es.po:{line}: warning ui.hero: {len(too_long)} characters, more than the {limit} its one-line box "
            f"holds (#, max-length:{limit})") in result.output
    assert "[po.max-length]" in result.output and "pnp i18n fit demo --lang es" in result.output
    assert too_long in (demo / "text" / "es.yaml").read_text(encoding="utf-8")
