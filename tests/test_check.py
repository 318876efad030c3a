"""`pnp check`: the shipped packs check clean; each broken pack gets exactly its findings.

The broken packs are data (tests/broken/cases.yaml): a shipped pack copied to tmp_path with one
textual edit. Only the cases about print or language problems render faces (the slow part).
"""
import ast
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from pnp.build import PreparedFaces
from pnp.check import Finding, check_pack, exit_code, printing
from pnp.check.cli import check
from pnp.check.runner import load_finding
from pnp.composition import load_rules
from pnp.composition.items import ItemIndex, parse_path
from pnp.errors import Problem, display_path
from pnp.pack import DATA_DIR, load_pack

CASES = yaml.safe_load((Path(__file__).parent / "broken" / "cases.yaml").read_text(encoding="utf-8"))
SHIPPED = ["cimiterio", "zombie-run", "zombies-vs-vampires"]


def broken_pack(tmp_path: Path, case: dict) -> Path:
    target = tmp_path / case["game"]
    shutil.copytree(DATA_DIR / case["game"], target)
    path = target / case["file"]
    text = path.read_text(encoding="utf-8")
    assert case["old"] in text, f"test setup: {case['old']!r} not in {case['file']}"
    path.write_text(text.replace(case["old"], case["new"], 1), encoding="utf-8")
    return target


def line_of(path: Path, needle: str, regex: bool = False) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    hits = [n for n, line in enumerate(lines, 1) if (re.search(needle, line) if regex else needle in line)]
    assert len(hits) == 1, f"test setup: {needle!r} is on lines {hits} of {path}"
    return hits[0]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_broken_pack_gets_exactly_its_findings(tmp_path, case, monkeypatch):
    pack = broken_pack(tmp_path, case)
    monkeypatch.chdir(tmp_path)      # findings name files relative to the working directory
    findings = check_pack(pack, set(case["checks"]))
    got = sorted((f.rule, f.file, f.line) for f in findings)
    want = sorted((e["rule"], f"{case['game']}/{e['file']}",
                   e["line"] if "line" in e else
                   line_of(pack / e["file"], e.get("at") or e["at_re"], "at_re" in e)) for e in case["expect"])
    assert got == want, "\n".join(map(str, findings))
    assert exit_code(findings) == case["exit"]
    for f in findings:
        assert f.message and f.key is not None and f.severity in ("error", "warning")


@pytest.mark.parametrize("game", SHIPPED)
def test_shipped_pack_checks_clean(game):
    result = CliRunner().invoke(check, [game])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == f"{game}: clean"


def test_cli_json_exit_codes_and_every_game_at_once(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    bad_rules = broken_pack(tmp_path / "a", next(c for c in CASES if c["name"] == "two creator zombies"))
    unusable = broken_pack(tmp_path / "b", next(c for c in CASES if c["name"] == "yaml syntax error"))
    runner = CliRunner()
    result = runner.invoke(check, [str(bad_rules), "--no-print", "--format", "json"])
    assert result.exit_code == 1, result.output
    data = json.loads(result.output)
    assert data["exit"] == 1 and data["errors"] == 1
    (only,) = data["findings"]
    assert set(only) >= {"severity", "rule", "file", "line", "key", "message", "hint"}
    assert only["rule"] == "zombies.creator" and only["key"] == "card zombie-35"
    assert "rules.yaml" in only["hint"]
    result = runner.invoke(check, [str(bad_rules), str(unusable), "zombies-vs-vampires", "--no-print"])
    assert result.exit_code == 2, result.output       # unusable input wins over errors
    assert "[zombies.creator]" in result.output and "[yaml.syntax]" in result.output
    result = runner.invoke(check, ["no-such-game", "--no-print"])
    assert result.exit_code == 2 and "[pack.unknown]" in result.output


def test_strict_makes_warnings_fail(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    case = next(c for c in CASES if c["name"] == "two creator zombies")
    pack = broken_pack(tmp_path, case)
    rules = pack / "rules.yaml"
    rules.write_text(rules.read_text(encoding="utf-8").replace(
        "  - id: zombies.creator\n", "  - id: zombies.creator\n    severity: warning\n"), encoding="utf-8")
    assert CliRunner().invoke(check, [str(pack), "--no-print"]).exit_code == 0
    result = CliRunner().invoke(check, [str(pack), "--no-print", "--strict"])
    assert result.exit_code == 1 and "warning [zombies.creator]" in result.output


def test_broken_rules_file_is_unusable_input(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    pack = tmp_path / "zombie-run"
    shutil.copytree(DATA_DIR / "zombie-run", pack)
    rules = pack / "rules.yaml"
    rules.write_text(rules.read_text(encoding="utf-8").replace("type: each", "type: eech", 1), encoding="utf-8")
    findings = check_pack(pack, {"rules"})
    assert [(f.rule, f.line) for f in findings] == [("rules.invalid", line_of(rules, "type: eech"))]
    assert exit_code(findings) == 2


def test_a_pack_without_rules_file_gets_the_generic_checks(tiny_pack):
    assert check_pack(tiny_pack) == []


def test_collection_paths():
    pack = load_pack("zombies-vs-vampires")
    index = ItemIndex(pack)
    faces = index.collection_items("dice[id=size].faces")
    assert [f.get("size") for f in faces] == [1, 2, 3, 1, 2, 3]
    assert faces[0].label == "dice[0].faces[0]"
    assert [i.value for i in index.collection_items("board.seats[*].zones")][:3] == ["nw", "ne", "nw"]
    assert parse_path("map.avenues[*].id") == ["map", "avenues", ("*",), "id"]


# ---- findings are made from codes and facts, never from wording -----------------------------------
def test_load_problems_are_classified_by_code_not_by_wording():
    odd = Problem("text/uk.yaml", 3, "card x.name", "duplicate key 'x': YAML syntax error", code="text.missing",
                  detail=(("language", "uk"), ("text_key", "card.x")))
    f = load_finding(odd, "g")
    assert (f.rule, f.fatal, f.lang, f.get("text_key")) == ("text.missing", False, "uk", "card.x")
    f = load_finding(Problem("a.yaml", 1, "k", "text key 'a' has no 'en' text", code="yaml.syntax"), "g")
    assert (f.rule, f.fatal) == ("yaml.syntax", True)


def test_render_problems_are_classified_by_code_not_by_wording(tiny_pack, monkeypatch):
    pack = load_pack(tiny_pack)
    made = [Problem("cards/main.yaml", 3, "card gamma", "'Due facce' does not fit a 1x1 mm box even at 6 pt",
                    code="template.undefined", lang="it", face="back"),
            Problem("cards/main.yaml", 3, "card gamma", "an unusual message", code="text.fit", lang="it",
                    face="front", detail=(("text", "Due facce"), ("text_key", "card.gamma.body"))),
            Problem("cards/main.yaml", 3, "card gamma", "text key 'card.beta.body' has no 'it' text",
                    code="text.glyph", lang="it", face="back", detail=(("text", "?"),))]
    monkeypatch.setattr(printing, "render_faces", lambda pack, lang, drawings: (PreparedFaces(pack, lang, []), made))
    got = sorted((f.rule, f.file, f.line, f.key, f.lang, f.face) for f in printing.render_findings(pack, ["it"]))
    file, line = pack.text_locations["it"]["card.gamma.body"]
    assert got == sorted([("template.undefined", "cards/main.yaml", 3, "card gamma", "it", "back"),
                          ("text.fit", display_path(file), line, "card.gamma.body", "it", "front"),
                          ("text.glyph", "cards/main.yaml", 3, "card gamma", "it", "back")])


def test_a_missing_text_is_reported_once(tiny_pack, monkeypatch):
    """By the loader, else a rule, else rendering: the pairs (text key, language) say which, not the message."""
    pack = load_pack(tiny_pack)
    made = [Problem("cards/main.yaml", 3, "card gamma", "odd", code="text.missing", lang="it", face="front",
                    detail=(("language", "it"), ("text_key", "ui.help"))),
            Problem("cards/main.yaml", 3, "card gamma", "odd", code="text.missing", lang="it", face="front",
                    detail=(("language", "it"), ("text_key", "ui.other")))]
    monkeypatch.setattr(printing, "render_faces", lambda pack, lang, drawings: (PreparedFaces(pack, lang, []), made))
    found = printing.render_findings(pack, ["it"], {("ui.help", "it")})
    assert [(f.rule, f.key, f.lang, f.get("language")) for f in found] == [("text.missing", "ui.other", "it", "it")]
    assert found[0].line == line_of(tiny_pack / "text" / "it.yaml", "ui: {second")


def _overflow(tiny_pack: Path, *keys: str) -> str:
    """The Italian text of `keys` (card.<id>.body) replaced by one string too long for its box."""
    it = tiny_pack / "text" / "it.yaml"
    long = "Due facce molto lunghe " * 40
    text = it.read_text(encoding="utf-8")
    for key in keys:
        card = key.split(".")[1]
        text = re.sub(rf"(  {card}: {{title: [^,]+, body: ).*}}", lambda m: m.group(1) + long + "}", text)
    it.write_text(text, encoding="utf-8")
    return long.strip()


def test_print_findings_carry_language_face_and_the_key_of_the_text(tiny_pack, monkeypatch):
    monkeypatch.chdir(tiny_pack.parent)
    _overflow(tiny_pack, "card.gamma.body")
    [f] = check_pack(tiny_pack, {"print"})
    assert (f.rule, f.lang, f.face, f.key) == ("text.fit", "it", "front", "card.gamma.body")
    assert (f.file, f.line) == ("tiny/text/it.yaml", line_of(tiny_pack / "text" / "it.yaml", "gamma:"))
    assert str(f).startswith("tiny/text/it.yaml:6: error [text.fit] card.gamma.body: [it] front: card gamma: ")
    data = CliRunner().invoke(check, [str(tiny_pack), "--format", "json"]).output
    [entry] = json.loads(data)["findings"]
    assert (entry["lang"], entry["face"], entry["detail"]["text_key"]) == ("it", "front", "card.gamma.body")


def test_the_key_is_the_one_the_card_used_even_when_two_keys_hold_the_same_text(tiny_pack, monkeypatch):
    monkeypatch.chdir(tiny_pack.parent)
    _overflow(tiny_pack, "card.beta.body", "card.gamma.body")     # one string, two keys: no search by value
    it = tiny_pack / "text" / "it.yaml"
    got = sorted((f.key, f.line) for f in check_pack(tiny_pack, {"print"}))
    assert got == [("card.beta.body", line_of(it, "beta:")), ("card.gamma.body", line_of(it, "gamma:"))]


def test_a_template_problem_names_the_template_line_and_the_face(tiny_pack):
    second = tiny_pack / "templates" / "tiny" / "second.svg.j2"
    second.write_text(second.read_text(encoding="utf-8").replace("{% endblock %}", "{{ card.nosuch }}\n{% endblock %}"),
                      encoding="utf-8")
    [f] = check_pack(tiny_pack, {"print"}, languages=["en"])
    line = line_of(second, "card.nosuch")
    # one finding per broken template, at its file and line, in no one language (pnp.render.failures)
    assert (f.rule, f.key, f.lang, f.face) == ("template.undefined", "card gamma", "", "back")
    assert (f.get("template"), f.get("template_line")) == ("tiny/second.svg.j2", line)
    assert (f.file, f.line) == (display_path(second), line) and f.fatal
    assert f.message.startswith("card has no field 'nosuch' (its fields: ")


# ---- rules.yaml through the schema ----------------------------------------------------------------
def _rules_findings(tmp_path: Path, old: str, new: str) -> tuple[list[Finding], Path]:
    pack = tmp_path / "zombie-run"
    shutil.copytree(DATA_DIR / "zombie-run", pack)
    rules = pack / "rules.yaml"
    text = rules.read_text(encoding="utf-8")
    assert old in text
    rules.write_text(text.replace(old, new, 1), encoding="utf-8")
    rules_list, findings = load_rules(pack, "zombie-run")
    assert rules_list == [] and all(f.fatal for f in findings)
    return findings, rules


def test_rules_file_keys_are_checked_by_the_schema_with_did_you_mean(tmp_path):
    findings, rules = _rules_findings(tmp_path, "    equals: 63\n", "    equal: 63\n")
    [f] = findings
    assert (f.rule, f.line, f.get("problem")) == ("rules.invalid", line_of(rules, "equal: 63"), "schema.unknown-key")
    assert "did you mean 'equals'?" in f.message and "known keys: id, severity, message, hint, doc" in f.message


@pytest.mark.parametrize("old,new,problem", [
    ("select: {kind: item}\n", "select: {knd: item}\n", "schema.unknown-key"),
    ("    equals: 63\n", "    equals: sixty-three\n", "schema.type"),
    ("    type: total\n    equals: 63\n", "    type: total\n    equals: 63\n    severity: fatal\n", "schema.value"),
    ("  - id: items.per-symbol\n", "  - id: cards.total\n", "schema.duplicate-id"),
    ("    by: deck\n", "", "schema.missing-key"),
    ("    values: symbols\n", "    values: {a: 1}\n", "schema.type"),
])
def test_rules_file_problems(tmp_path, old, new, problem):
    findings, rules = _rules_findings(tmp_path, old, new)
    assert [(f.rule, f.get("problem")) for f in findings] == [("rules.invalid", problem)]


# pnp.composition's __init__ loads these when their names are first used (a build of a pack
# without rules never does): imported here by name, so that what the package loads later is checked.
COMPOSITION = "pnp.composition, pnp.composition.rules, pnp.composition.findings"


def test_build_and_composition_do_not_import_check():
    code = (f"import sys, {COMPOSITION}, pnp.build; names = [m for m in sys.modules if m.startswith('pnp.check')]; "
            "assert not names, names")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).resolve().parent.parent)
    code = (f"import sys, {COMPOSITION}; names = [m for m in sys.modules if m.startswith(('pnp.build', 'pnp.check'))]; "
            "assert not names, names")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).resolve().parent.parent)


@pytest.mark.parametrize("module", ["pnp/build.py", "pnp/composition", "pnp/check"])
def test_no_function_local_imports_of_pnp_in_build_check_and_composition(module):
    """An import inside a function would hide an import cycle (build <-> check). One kind is
    allowed: a package's module `__getattr__` loading the package's own modules when their names
    are first used (pnp.composition's); test_build_and_composition_do_not_import_check imports
    those modules by name, so a cycle through them still shows."""
    root = Path(__file__).resolve().parent.parent
    files = [root / module] if module.endswith(".py") else sorted((root / module).glob("*.py"))
    for file in files:
        package = ".".join(file.relative_to(root).parent.parts)
        tree = ast.parse(file.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                local = [n for n in ast.walk(node) if isinstance(n, ast.ImportFrom) and (n.module or "").startswith("pnp")
                         or isinstance(n, ast.Import) and any(a.name.startswith("pnp") for a in n.names)]
                if file.name == "__init__.py" and node.name == "__getattr__" and node in tree.body:
                    local = [n for n in local if not (isinstance(n, ast.ImportFrom) and n.module == package
                                                      and all(f"{package}.{a.name}" in COMPOSITION for a in n.names))]
                assert not local, f"{file.name}: {node.name} imports inside the function"
