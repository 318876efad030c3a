"""Limits on input (pnp/limits.py, docs/limits.md) and one defect, one message.

Each limit is crossed once in a copy of a shipped pack: `pnp check` / `pnp build` in a child
process with a timeout exit 2 with the file, line and code, no traceback, nothing written. Each
cascade (a broken file whose knock-on errors used to follow it) is exactly one message."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pnp import limits
from pnp.pack import available_packs

SHIPPED = {p.name: p for p in available_packs()}
DOCS = Path(__file__).resolve().parent.parent / "docs" / "limits.md"
TIMEOUT = 300


def copy(tmp_path: Path, game: str) -> Path:
    return Path(shutil.copytree(SHIPPED[game], tmp_path / game))


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"test setup: {old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def line_of(path: Path, needle: str) -> int:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if needle in line:
            return number
    raise AssertionError(needle)


def pnp(*args: str) -> subprocess.CompletedProcess:
    # a child with a time limit: a limit that does not hold must fail the test, not hang the run
    return subprocess.run([sys.executable, "-m", "pnp.cli", *args], capture_output=True, text=True, timeout=TIMEOUT)


def check(pack: Path) -> tuple[int, list[tuple[str, str, int]]]:
    """`pnp check --no-print` of `pack`: (exit status, [(code, file in the pack, line)])."""
    result = pnp("check", str(pack), "--no-print", "--format", "json")
    assert "Traceback" not in result.stderr, result.stderr
    payload = json.loads(result.stdout)
    found = [(f["rule"], Path(f["file"]).resolve().relative_to(pack.resolve()).as_posix() if f["file"] else "",
              f["line"]) for f in payload["findings"]]
    return result.returncode, found


def build_refused(pack: Path, tmp_path: Path) -> str:
    """`pnp build` of `pack` exits 2 with a message and writes nothing; returns its stderr."""
    out = tmp_path / "out"
    result = pnp("build", str(pack), "--out", str(out), "--strict")
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    assert not out.exists()
    return result.stderr


# ---- the documentation names every limit with its value ----------------------------------------

def test_every_limit_is_documented_with_its_value():
    documented = dict(re.findall(r"^\| `([A-Z_]+)` \| (\d+)", DOCS.read_text(encoding="utf-8"), re.M))
    constants = {name: value for name, value in vars(limits).items() if name.isupper() and isinstance(value, int)}
    assert len(constants) >= 12
    assert documented == {name: str(value) for name, value in constants.items()}


# ---- each limit, crossed once ---------------------------------------------------------------------

def test_a_file_over_the_size_limit_is_refused_unread(tmp_path):
    pack = copy(tmp_path, "zombie-run")
    symbols = pack / "symbols.yaml"
    size = symbols.stat().st_size
    with symbols.open("a", encoding="utf-8") as handle:      # a valid file, only too large
        handle.write("#" * (limits.MAX_FILE_BYTES - size) + "\n")
    assert symbols.stat().st_size == limits.MAX_FILE_BYTES + 1
    assert check(pack) == (2, [("yaml.too-large", "symbols.yaml", 0)])
    assert re.search(r"symbols\.yaml: the file is 8\.0 MB, more than the 8 MB", build_refused(pack, tmp_path))


def test_a_count_of_a_billion_is_refused_at_load_on_its_line(tmp_path):
    pack = copy(tmp_path, "cimiterio")
    events = pack / "cards" / "events.yaml"
    edit(events, "{id: event-awake-e, kind: awakening, spot: e, count: 2}",
         "{id: event-awake-e, kind: awakening, spot: e, count: 1000000000}")
    line = line_of(events, "count: 1000000000")
    assert check(pack) == (2, [("schema.range", "cards/events.yaml", line)])
    stderr = build_refused(pack, tmp_path)
    assert f"events.yaml:{line}: card event-awake-e.count: 1000000000 is out of range: it must be from " \
           "-1,000,000 to 1,000,000" in stderr
    assert "1 problem in the data" in stderr


@pytest.mark.parametrize("file,old,new,needle,code", [
    ("cards/main.yaml", "{id: item-bat, kind: item, symbol: bat, quantity: 3}",
     "{id: item-bat, kind: item, symbol: bat, quantity: 1001}", "quantity: 1001", "schema.range"),
    ("pack.yaml", "players: {min: 3, max: 7}", "players: {min: 3, max: 1000}", "players:", "schema.range"),
    ("rules.yaml", "equals: 63", "equals: .inf", "equals: .inf", "rules.invalid"),   # detail: schema.range
], ids=["quantity", "players", "infinity"])
def test_a_number_over_its_fields_bound_is_refused_on_its_line(tmp_path, file, old, new, needle, code):
    pack = copy(tmp_path, "zombie-run")
    edit(pack / file, old, new)
    assert check(pack) == (2, [(code, file, line_of(pack / file, needle))])


def test_more_cards_than_a_pack_may_hold_is_one_message_naming_the_deck(tmp_path):
    pack = copy(tmp_path, "zombie-run")
    cards = pack / "cards" / "main.yaml"
    text = cards.read_text(encoding="utf-8")
    expanded = 1000 * text.count("quantity: 3}") + len(re.findall(r"^- \{", text, re.M)) - text.count("quantity: 3}")
    cards.write_text(text.replace("quantity: 3}", "quantity: 1000}"), encoding="utf-8")
    assert check(pack) == (2, [("pack.too-large", "pack.yaml", line_of(pack / "pack.yaml", "cards: cards/main.yaml"))])
    stderr = build_refused(pack, tmp_path)
    assert re.search(r"pack\.yaml:\d+: decks\[0\]\.cards: the decks hold " + f"{expanded:,}" + r" cards once quantities are expanded, "
                     r"more than the 20,000 one pack may \(crossed at .*main\.yaml:\d+\)", stderr), stderr


def test_a_value_longer_than_the_text_limit_is_refused_on_its_line(tmp_path):
    pack = copy(tmp_path, "zombie-run")
    en = pack / "text" / "en.yaml"
    edit(en, 'bat: "Star"', 'bat: "' + "Star " * (limits.MAX_TEXT_CHARS // 5 + 1) + '"')
    line = line_of(en, "bat: \"Star Star")
    assert check(pack) == (2, [("yaml.too-large", "text/en.yaml", line)])
    assert f"en.yaml:{line}: symbol.bat: a value of 20,005 characters" in build_refused(pack, tmp_path)


def test_a_pack_naming_too_many_files_is_refused_before_reading_them(tmp_path):
    pack = copy(tmp_path, "zombie-run")
    many = ", ".join(f"en-x{i}" for i in range(limits.MAX_PACK_FILES))
    edit(pack / "pack.yaml", "languages: [uk, en, it, ar, de]", f"languages: [uk, {many}]")
    assert check(pack) == (2, [("pack.too-large", "pack.yaml", line_of(pack / "pack.yaml", "languages:"))])


# ---- one defect, one message ---------------------------------------------------------------------

@pytest.mark.parametrize("content,code,line", [
    ("", "text.empty", 0),
    ("# nothing translated yet\n", "text.empty", 0),
    ("[a, list]\n", "schema.type", 1),
    ("game: {name: [\n", "yaml.syntax", 2),
], ids=["empty", "comments-only", "not-a-mapping", "syntax-error"])
def test_an_unusable_text_file_is_one_message_not_every_key_missing(tmp_path, content, code, line):
    pack = copy(tmp_path, "cimiterio")
    (pack / "text" / "it.yaml").write_text(content, encoding="utf-8")
    assert check(pack) == (2, [(code, "text/it.yaml", line)])
    if code == "text.empty":
        assert "text/it.yaml is empty" in build_refused(pack, tmp_path)


def test_a_misspelt_card_field_is_one_message_on_its_line_and_no_template_runs(tmp_path):
    pack = copy(tmp_path, "cimiterio")
    tombs = pack / "cards" / "tombs.yaml"
    edit(tombs, "{id: tomb-01, kind: tomb, deceased: don-ettore}", "{id: tomb-01, kind: tomb, deceasd: don-ettore}")
    line = line_of(tombs, "deceasd")
    assert check(pack) == (2, [("schema.unknown-key", "cards/tombs.yaml", line)])
    stderr = build_refused(pack, tmp_path)
    assert stderr.startswith("1 problem in the data:\n")
    assert f"tombs.yaml:{line}: card tomb-01.deceasd: unknown key 'deceasd'" in stderr


@pytest.mark.parametrize("game,file,old,new,expected_file,needle,code", [
    # a kind's field misspelt in pack.yaml: one message there, not one per zombie card (35)
    ("cimiterio", "pack.yaml", "      movement: int", "      movment: int", "pack.yaml", "movment:",
     "schema.declaration"),
    # a collection entry's field misspelt in pack.yaml: not one per entry (14 avenues)
    ("cimiterio", "pack.yaml", 'axis: "enum:row|col"', 'axes: "enum:row|col"', "pack.yaml", "axes:",
     "schema.declaration"),
    # a kind renamed in pack.yaml: one message for the card file, not one per card (35)
    ("cimiterio", "pack.yaml", "  tomb:\n", "  tombe:\n", "cards/tombs.yaml", "id: tomb-01,", "schema.unknown-kind"),
    # a collection renamed in pack.yaml: not one per reference to it (20)
    ("zombie-run", "pack.yaml", "  symbols:\n", "  symbls:\n", "cards/main.yaml", "symbol: bat", "schema.reference"),
    # an entry's id misspelt: not also every card that refers to it
    ("cimiterio", "deceased.yaml", "- {id: don-ettore,", "- {idd: don-ettore,", "deceased.yaml", "idd:",
     "schema.unknown-key"),
    # `kind` misspelt on a card: the typo, not "kind is missing"
    ("cimiterio", "cards/tombs.yaml", "{id: tomb-01, kind: tomb,", "{id: tomb-01, knd: tomb,", "cards/tombs.yaml",
     "knd:", "schema.unknown-key"),
    # a syntax error in a collection file: not its references nor its shape
    ("zombie-run", "symbols.yaml", "  hue: 335\n", "  hue: [335\n", "symbols.yaml", "hue: [335", "yaml.syntax"),
    # a parent key misspelt in a text file: one typo on its line, not one per key below it (8)
    # nor a missing text on every card whose template asks for one of them
    ("zombie-run", "text/it.yaml", "\nui:\n", "\nuii:\n", "text/it.yaml", "uii:", "schema.unknown-key"),
], ids=["kind-field", "collection-field", "kind-renamed", "collection-renamed", "entry-id", "card-kind-key",
        "collection-syntax", "text-parent"])
def test_one_defect_is_one_message(tmp_path, game, file, old, new, expected_file, needle, code):
    pack = copy(tmp_path, game)
    edit(pack / file, old, new)
    assert check(pack) == (2, [(code, expected_file, line_of(pack / expected_file, needle))])


def test_a_component_count_over_its_bound_is_refused_on_its_line(tmp_path):
    pack = copy(tmp_path, "cimiterio")
    edit(pack / "components.yaml", "  count: 2\n", "  count: 1001\n")
    assert check(pack) == (2, [("schema.range", "components.yaml", line_of(pack / "components.yaml", "count: 1001"))])
