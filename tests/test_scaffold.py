"""`pnp new NAME`: a small complete pack that builds and checks clean at once, never written over
an existing folder, NAME checked as a pack id; every file of it teaches (has comments)."""
from __future__ import annotations

import csv
import hashlib
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from PIL import Image

from pnp.cli import main
from pnp.composition.schema import KINDS

TIMEOUT_S = 300     # a child that has not finished by then hangs (it takes seconds)
COMMENTS = {".yaml": "#", ".j2": "{#", ".svg": "<!--"}


def pnp(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "from pnp.cli import main; main()", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=TIMEOUT_S)


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_new_writes_a_complete_commented_pack(tmp_path):
    result = CliRunner().invoke(main, ["new", "dragon-duel", "--dir", str(tmp_path / "games")])
    assert result.exit_code == 0, result.output
    pack = tmp_path / "games" / "dragon-duel"
    files = files_of(pack)
    assert {"pack.yaml", "cards.csv", "rules.yaml", "text/en.yaml", "text/it.yaml", "templates/hero.svg.j2",
            "templates/spell.svg.j2", "templates/back.svg.j2", "art/emblem.png", "art/sigil.svg",
            "icons/heart.svg", "icons/skull.svg"} <= set(files)
    data = yaml.safe_load(files["pack.yaml"])
    assert data["id"] == "dragon-duel" and data["languages"] == ["en", "it"] and data["icons"] == "icons"
    assert set(data["kinds"]) == {"hero", "spell"} and data["decks"][0]["cards"] == "cards.csv"
    assert yaml.safe_load(files["text/en.yaml"])["game"]["name"] == "Dragon Duel"
    assert not [name for name, body in files.items() if b"__PACK_" in body]
    uncommented = [name for name, body in files.items()
                   if Path(name).suffix in COMMENTS and COMMENTS[Path(name).suffix] not in body.decode()]
    assert uncommented == []
    header = files["cards.csv"].decode().splitlines()[0].split(",")
    assert {"id", "kind", "quantity", "title", "title.it", "effect", "effect.it"} <= set(header)
    with Image.open(pack / "art" / "emblem.png") as emblem:      # printed at most 36 mm wide (hero.svg.j2)
        assert emblem.width / (36 / 25.4) >= 300


def test_new_writes_the_same_bytes_every_time(tmp_path):
    for folder in ("a", "b"):
        assert CliRunner().invoke(main, ["new", "same", "--dir", str(tmp_path / folder)]).exit_code == 0
    first, second = files_of(tmp_path / "a" / "same"), files_of(tmp_path / "b" / "same")
    assert first == second
    assert hashlib.sha256(first["art/emblem.png"]).hexdigest() == hashlib.sha256(
        (Path(__file__).parent.parent / "pnp/scaffold/starter/art/emblem.png").read_bytes()).hexdigest()


def test_the_starter_rules_name_every_rule_type(tmp_path):
    """rules.yaml's opening comment lists every rule type the checker accepts (its KINDS), once each
    and in the order KINDS declares them, so a new type is named there too ("#   type   what it checks")."""
    assert CliRunner().invoke(main, ["new", "typed", "--dir", str(tmp_path)]).exit_code == 0
    text = (tmp_path / "typed" / "rules.yaml").read_text(encoding="utf-8")
    header = text[:text.index("\nrules:")]
    assert [m.group(1) for m in re.finditer(r"^# {3}(\w+) {2,}\S", header, re.M)] == list(KINDS)


def test_a_name_that_is_not_a_pack_id_is_refused_and_nothing_written(tmp_path):
    result = CliRunner().invoke(main, ["new", "My Game", "--dir", str(tmp_path)])
    assert result.exit_code == 2, result.output
    assert result.output.splitlines() == [
        "1 problem in the data:",
        "pnp new: NAME: 'My Game' is not a pack id: expected an id of lower-case letters, digits, '-' or '_', "
        "got the text 'My Game' (for example: dragon-duel)"]
    assert list(tmp_path.iterdir()) == []


def test_an_existing_folder_is_never_written_over(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "pack.yaml").write_text("id: mine\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["new", "mine"])
    assert result.exit_code == 2, result.output
    assert result.output.splitlines() == [
        "1 problem in the data:",
        "mine: exists already: pnp new writes only a new folder and left it as it is (choose another NAME or --dir)"]
    assert files_of(tmp_path / "mine") == {"pack.yaml": b"id: mine\n"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine"]      # no staging folder left


def test_the_new_pack_builds_and_checks_clean_at_once(tmp_path):
    assert pnp("new", "first-game", cwd=tmp_path).returncode == 0
    built = pnp("build", "first-game", "--lang", "all", "--out", "out", cwd=tmp_path)
    assert built.returncode == 0, built.stdout + built.stderr
    assert built.stderr == ""                                           # no warning either
    for lang in ("en", "it"):
        pdf = tmp_path / "out" / "first-game" / f"first-game-cards-{lang}-a4.pdf"
        assert pdf.read_bytes().startswith(b"%PDF-")
    checked = pnp("check", "first-game", cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.strip().splitlines()[-1] == "first-game: clean"


def test_a_duplicate_card_id_is_one_error_not_three(tmp_path):
    """A card row copied whole: `cards.duplicate-id` names it. Its texts (written in the row) are
    the first card's keys again, not keys of text/en.yaml: no `text.key-clash` follows."""
    assert CliRunner().invoke(main, ["new", "dup", "--dir", str(tmp_path)]).exit_code == 0
    cards = tmp_path / "dup" / "cards.csv"
    rows = cards.read_text(encoding="utf-8").splitlines()
    cards.write_text("\n".join(rows + rows[-1:]) + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(tmp_path / "dup")])
    assert result.exit_code == 2, result.output
    codes = [line.split("[")[1].split("]")[0] for line in result.output.splitlines() if " error [" in line]
    assert codes == ["cards.duplicate-id"], result.output
    assert f"cards.csv:{len(rows) + 1}: error [cards.duplicate-id]" in result.output


def test_a_missing_translation_in_a_sheet_points_at_its_column(tmp_path):
    """A card text written in cards.csv is translated in its `title.it` column, not in
    text/it.yaml: the build's warning and the check's error both say so, and nothing says
    otherwise (the check's old hint named the language's text file)."""
    assert CliRunner().invoke(main, ["new", "sheet", "--dir", str(tmp_path)]).exit_code == 0
    cards = tmp_path / "sheet" / "cards.csv"
    with cards.open(encoding="utf-8", newline="") as file:
        rows = list(csv.reader(file))
    rows[1][rows[0].index("title.it")] = ""
    with cards.open("w", encoding="utf-8", newline="") as file:
        csv.writer(file).writerows(rows)
    built = CliRunner().invoke(main, ["build", str(tmp_path / "sheet"), "--lang", "it", "--out", str(tmp_path / "out")])
    checked = CliRunner().invoke(main, ["check", str(tmp_path / "sheet")])
    for output in (built.output, checked.output):
        assert "fill its `title.it` column" in output, output
        assert "text/it.yaml" not in output and "text file" not in output, output


@pytest.mark.parametrize("size", ["mini", "tarot", '"88.9mm x 63.5mm"'])
def test_the_starter_lays_out_on_any_card_size(tmp_path, size):
    """The starter's places follow the card's w x h: on a mini or a landscape card its effect text
    stays on the card (it was fixed at y 60-73 mm, past a 63.5 mm mini card's edge)."""
    assert CliRunner().invoke(main, ["new", "sized", "--dir", str(tmp_path)]).exit_code == 0
    pack = tmp_path / "sized" / "pack.yaml"
    pack.write_text(pack.read_text(encoding="utf-8").replace("card_size: poker ", f"card_size: {size} "),
                    encoding="utf-8")
    checked = CliRunner().invoke(main, ["check", str(tmp_path / "sized")])
    assert checked.exit_code == 0, checked.output
    assert checked.output.strip().splitlines()[-1].endswith("sized: clean"), checked.output


def _effect_at(tmp_path, name: str, before: str = "", after: str = "") -> Path:
    """A starter pack whose hero effect is drawn at y 80 mm of its 88 mm card (wrapped in
    `before` and `after`)."""
    assert CliRunner().invoke(main, ["new", name, "--dir", str(tmp_path)]).exit_code == 0
    hero = tmp_path / name / "templates" / "hero.svg.j2"
    source = hero.read_text(encoding="utf-8")
    line = next(x for x in source.splitlines() if x.startswith("{{ textbox(card.effect"))
    hero.write_text(source.replace(line, before + line.replace("text_y,", "80,") + after), encoding="utf-8")
    return tmp_path / name


def test_text_past_the_card_edge_is_a_warning_with_its_figures(tmp_path):
    pack = _effect_at(tmp_path, "edge")
    checked = CliRunner().invoke(main, ["check", str(pack)])
    assert checked.exit_code == 0, checked.output          # a warning: the build goes on
    found = [x for x in checked.output.splitlines() if "[text.off-card]" in x]
    # the knight's and the archer's three lines end 1.9 mm past the edge, in en and it; the
    # healer's one line, centred in the 80-91.5 mm box, ends on the card
    assert len(found) == 4, checked.output
    assert all(" warning [text.off-card] card " in x and "past the 63x88 mm card (bottom at y 89.9 mm)" in x
               for x in found), found
    assert not [x for x in found if "card healer" in x]
    built = CliRunner().invoke(main, ["build", str(pack), "--lang", "en", "--out", str(tmp_path / "out")])
    assert built.exit_code == 0, built.output
    assert sum("warning:" in x and "past the 63x88 mm card" in x for x in built.output.splitlines()) == 2
    assert (tmp_path / "out" / "edge" / "edge-cards-en-a4.pdf").is_file()


def test_text_inside_a_transform_is_not_judged_by_its_own_coordinates(tmp_path):
    """y 80 moved up 30 mm by its group prints on the card: no warning."""
    pack = _effect_at(tmp_path, "moved", '<g transform="translate(0,-30)">', "</g>")
    checked = CliRunner().invoke(main, ["check", str(pack)])
    assert checked.exit_code == 0, checked.output
    assert checked.output.strip().splitlines()[-1].endswith("moved: clean"), checked.output


def test_a_rule_broken_by_a_card_of_quantity_four_is_one_error_in_build_as_in_check(tmp_path):
    """The build listed a finding once per copy of the card ("found 4 errors", the same line
    four times) where `pnp check` says it once."""
    assert CliRunner().invoke(main, ["new", "rules", "--dir", str(tmp_path)]).exit_code == 0
    cards = tmp_path / "rules" / "cards.csv"
    with cards.open(encoding="utf-8", newline="") as file:
        rows = list(csv.reader(file))
    knight = next(row for row in rows if row[0] == "knight")
    knight[rows[0].index("quantity")], knight[rows[0].index("power")] = "4", "9"
    with cards.open("w", encoding="utf-8", newline="") as file:
        csv.writer(file).writerows(rows)
    built = CliRunner().invoke(main, ["build", str(tmp_path / "rules"), "--lang", "en", "--out", str(tmp_path / "out")])
    assert built.exit_code != 0
    assert "the rules checker found 1 error;" in built.output, built.output
    assert built.output.count("[heroes.power] card knight.power") == 1


def test_a_template_word_missing_in_a_language_is_an_error_the_build_survives(tmp_path):
    """`pnp check` called a missing template word fatal ('cannot be used as it is', exit 2) while
    `pnp build` prints the source language's word and writes the PDF; now both agree: an error
    to fix (exit 1), refused only by `build --strict`."""
    assert CliRunner().invoke(main, ["new", "words", "--dir", str(tmp_path)]).exit_code == 0
    it = tmp_path / "words" / "text" / "it.yaml"
    it.write_text(it.read_text(encoding="utf-8").replace("  power: Forza\n", ""), encoding="utf-8")
    checked = CliRunner().invoke(main, ["check", str(tmp_path / "words")])
    assert checked.exit_code == 1, checked.output
    assert "error [text.missing] ui.power: [it]" in checked.output and "cannot be used" not in checked.output
    out = tmp_path / "out"
    built = CliRunner().invoke(main, ["build", str(tmp_path / "words"), "--lang", "it", "--out", str(out)])
    assert built.exit_code == 0 and "text key 'ui.power' has no 'it' text: using the 'en' text" in built.output
    strict = CliRunner().invoke(main, ["build", str(tmp_path / "words"), "--lang", "it", "--strict",
                                       "--out", str(tmp_path / "strict")])
    assert strict.exit_code == 2 and not list((tmp_path / "strict").rglob("*.pdf")), strict.output
