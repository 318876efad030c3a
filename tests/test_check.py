"""`pnp check`: the shipped packs check clean; each broken pack gets exactly its findings.

The broken packs are data (tests/broken/cases.yaml): a shipped pack copied to tmp_path with one
textual edit. Only the cases about print or language problems render faces (the slow part).
"""
import json
import re
import shutil
import time
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from pnp.check import Finding, check_pack, exit_code
from pnp.check.cli import check
from pnp.check.items import ItemIndex, parse_path
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
