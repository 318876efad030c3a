"""`pnp i18n lint`: the shipped packs lint clean; drift introduced into copies of them is found,
each finding with its code, file, line and key."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.i18n.lint import contains, holds_prefix

DATA = Path(__file__).resolve().parents[1] / "data"


def lint(*args: str) -> tuple[int, list[dict]]:
    result = CliRunner().invoke(main, ["i18n", "lint", *args, "--format", "json"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    payload = json.loads(result.output)
    assert payload["exit"] == result.exit_code
    return result.exit_code, payload["findings"]


def copy(tmp_path: Path, game: str) -> Path:
    target = tmp_path / game
    shutil.copytree(DATA / game, target)
    return target


def replace(file: Path, old: str, new: str) -> int:
    """Replace `old` once in `file`; the 1-based line where it was."""
    text = file.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    file.write_text(text.replace(old, new), encoding="utf-8")
    return text[:text.index(old)].count("\n") + 1


def where(findings: list[dict]) -> set[tuple[str, str, int, str, str]]:
    return {(f["rule"], Path(f["file"]).name, f["line"], f["key"], f["lang"]) for f in findings}


def test_shipped_packs_and_sheet_words_lint_clean():
    status, findings = lint()
    assert findings == [] and status == 0


def test_glossary_term_and_forbidden_variant(tmp_path):
    pack = copy(tmp_path, "zombie-run")
    line = replace(pack / "text" / "uk.yaml", 'heading: "Спеціальне правило (раз за хід, за бажанням)"',
                   'heading: "Особливий хід (раз за хід, за бажанням)"')
    status, findings = lint(str(pack))
    assert status == 1
    assert where(findings) == {("i18n.glossary", "uk.yaml", line, "aid.special.heading", "uk"),
                               ("i18n.forbidden", "uk.yaml", line, "aid.special.heading", "uk")}
    glossary = next(f for f in findings if f["rule"] == "i18n.glossary")
    assert glossary["detail"]["term"] == "спеціальне правило" and glossary["severity"] == "error"


def test_same_source_text_two_ways(tmp_path):
    pack = copy(tmp_path, "cimiterio")
    # en deck.gate and ui.gate are both "Gate": the Italian must word them alike
    line = replace(pack / "text" / "it.yaml", '  gate: "Cancello"\n  event:', '  gate: "Il cancello"\n  event:')
    status, findings = lint(str(pack))
    assert status == 1
    assert where(findings) == {("i18n.two-ways", "it.yaml", line, "ui.gate", "it")}
    assert findings[0]["detail"]["other_key"] == "deck.gate"


def test_two_games_wording_one_english_text_two_ways(tmp_path):
    packs = [copy(tmp_path, game) for game in ("cimiterio", "zombie-run", "zombies-vs-vampires")]
    # "Your turn" is "Dein Zug" in every game; one game drifts
    line = replace(packs[1] / "text" / "de.yaml", 'heading: "Dein Zug"', 'heading: "Du bist dran"')
    assert lint(str(packs[1]))[0] == 0          # alone, the game is consistent with itself
    status, findings = lint(*map(str, packs))
    assert status == 1
    assert where(findings) == {("i18n.two-ways", "de.yaml", line, "aid.turn.heading", "de")}
    assert Path(findings[0]["file"]).parent.parent.name == "zombie-run"
    assert "(cimiterio)" in findings[0]["message"]


def test_homonyms_are_exempt(tmp_path):
    pack = copy(tmp_path, "zombies-vs-vampires")
    replace(pack / "text" / "glossary.yaml", "homonyms:\n  - Goal", "homonyms: []\n#  - Goal")
    status, findings = lint(str(pack))
    assert status == 1
    assert {(f["rule"], f["key"]) for f in findings} == {("i18n.two-ways", "ui.goal")}
    assert {f["lang"] for f in findings} == {"it", "uk", "ar"}


def test_mixed_form_of_address(tmp_path):
    pack = copy(tmp_path, "cimiterio")
    line_uk = replace(pack / "text" / "uk.yaml", '"Візьми карту події та виконай її."',
                      '"Візьміть карту події та виконайте її."')
    line_de = replace(pack / "text" / "de.yaml", '"Zieh eine Ereigniskarte und handle sie ab."',
                      '"Ziehen Sie eine Ereigniskarte und handeln Sie sie ab."')
    line_it = replace(pack / "text" / "it.yaml", '"Pesca una carta evento e risolvila."',
                      '"Pescate una carta evento e risolvetela."')
    status, findings = lint(str(pack))
    assert status == 1
    assert where(findings) == {("i18n.address", "uk.yaml", line_uk, "aid.turn.event", "uk"),
                               ("i18n.address", "de.yaml", line_de, "aid.turn.event", "de"),
                               ("i18n.address", "it.yaml", line_it, "aid.turn.event", "it")}
    assert {f["detail"]["form"] for f in findings} == {"ви", "Sie", "voi"}


def test_times_sign_and_percent(tmp_path):
    pack = copy(tmp_path, "zombies-vs-vampires")
    line_x = replace(pack / "text" / "de.yaml", "Nie innerhalb einer 3×3-Heimatzone", "Nie innerhalb einer 3x3-Heimatzone")
    line_pct = replace(pack / "text" / "de.yaml", 'aid_goal: "Wer zuerst', 'aid_goal: "100% sicher: Wer zuerst')
    status, findings = lint(str(pack))
    assert status == 1
    assert where(findings) == {("i18n.times-sign", "de.yaml", line_x, "aid.walls.home", "de"),
                               ("i18n.percent", "de.yaml", line_pct, "ui.aid_goal", "de")}
    assert {f["rule"]: f["severity"] for f in findings} == {"i18n.times-sign": "error", "i18n.percent": "warning"}


def test_percent_warning_alone_passes_unless_strict(tmp_path):
    pack = copy(tmp_path, "zombies-vs-vampires")
    replace(pack / "text" / "de.yaml", 'aid_goal: "Wer zuerst', 'aid_goal: "100% sicher: Wer zuerst')
    assert lint(str(pack))[0] == 0
    assert lint(str(pack), "--strict")[0] == 1


def test_a_game_cannot_rename_a_shared_sheet_word(tmp_path):
    pack = copy(tmp_path, "zombie-run")
    # even the same words: the next edit of the shared word would silently skip this game
    line = replace(pack / "text" / "uk.yaml", 'components:\n  parts:',
                   'components:\n  aid: "Пам\'ятка гравця"\n  parts:') + 1
    status, findings = lint(str(pack))
    assert status == 1
    assert where(findings) == {("i18n.shared-word", "uk.yaml", line, "components.aid", "uk")}
    # declared on purpose: no finding
    glossary = pack / "text" / "glossary.yaml"
    glossary.write_text("own_wording: [components.aid]\n" + glossary.read_text(encoding="utf-8"), encoding="utf-8")
    assert lint(str(pack)) == (0, [])


def test_a_broken_glossary_is_unusable(tmp_path):
    pack = copy(tmp_path, "zombie-run")
    line = replace(pack / "text" / "glossary.yaml", "  - en: deck\n", "  - en: deck\n    colour: red\n") + 1
    status, findings = lint(str(pack))
    assert status == 2
    assert [(Path(f["file"]).name, f["line"], f["fatal"]) for f in findings] == [("glossary.yaml", line, True)]
    assert "colour" in findings[0]["message"]


@pytest.mark.parametrize("text, term, lang, expected", [
    ("Gib alle 5 Aktionskarten weiter.", "Karte", "de", True),            # German compound
    ("Вартові та пам'ятки гравців", "пам'ятка", "uk", True),              # inflection
    ("Lo scaccia l'oggetto con lo stesso simbolo.", "oggetto", "it", True),  # elision
    ("الحارسان وملخّصات القواعد", "ملخص القواعد", "ar", True),            # proclitic, plural, shadda
    ("Aiuto al giocatore", "promemoria", "it", False),
    ("Draw the top card.", "card", "en", True),
    ("Show your hand and discard it.", "card", "en", False),               # "discard" is not "card"
])
def test_term_matching(text, term, lang, expected):
    assert contains(text, term, lang) is expected


def test_forbidden_variant_is_a_word_beginning():
    assert holds_prefix("Візьми верхню картку", "картк", "uk")
    assert not holds_prefix("Візьми верхню карту", "картк", "uk")


def test_the_shared_sheet_words_are_linted_too(monkeypatch):
    from dataclasses import replace as with_value

    from pnp.i18n import lint as lint_module

    original = lint_module.sheet_texts

    def drifted(lang):
        texts = original(lang)
        if lang == "uk":
            texts["components.print"] = with_value(texts["components.print"], value="Друкуйте в масштабі 100%")
            texts["sheet.title"] = with_value(texts["sheet.title"], value="{game} — картки")
        return texts

    monkeypatch.setattr(lint_module, "sheet_texts", drifted)
    found = lint_module.lint_sheet()
    assert {(f.rule, Path(f.file).name, f.key, f.lang) for f in found} == {
        ("i18n.address", "uk.yaml", "components.print", "uk"), ("i18n.forbidden", "uk.yaml", "sheet.title", "uk")}
    lines = (Path(lint_module.sheet.FOLDER) / "uk.yaml").read_text(encoding="utf-8").split("\n")
    for f in found:
        assert lines[f.line - 1].lstrip().startswith(f.key.split(".")[-1] + ":")


def test_a_new_game_is_held_only_to_the_shared_words_not_to_the_shipped_games(tmp_path):
    """The shared glossary is words every game prints (card, tile, player aid); a shipped game's
    vocabulary, such as Italian 'zombi' for 'zombie', is that game's (it was shared, and a new
    game with an Italian 'zombie' broke its rule)."""
    assert CliRunner().invoke(main, ["new", "fourth", "--dir", str(tmp_path)]).exit_code == 0
    it = tmp_path / "fourth" / "text" / "it.yaml"
    it.write_text(it.read_text(encoding="utf-8") + 'extra:\n  horde: "Uno zombie per ogni carta"\n', encoding="utf-8")
    en = tmp_path / "fourth" / "text" / "en.yaml"
    en.write_text(en.read_text(encoding="utf-8") + 'extra:\n  horde: "One zombie for each card"\n', encoding="utf-8")
    status, findings = lint(str(tmp_path / "fourth"))
    assert (status, findings) == (0, [])
