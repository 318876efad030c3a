"""A quote or bracket a YAML file never closes is said at the line where it opens (its context
mark), not where the parser gives up: the end of the file, or the next line."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main


@pytest.fixture
def demo(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(main, ["new", "demo"]).exit_code == 0
    return tmp_path / "demo"


def findings(game: Path, rule: str) -> list[dict]:
    result = CliRunner().invoke(main, ["check", str(game), "--no-print", "--format", "json"])
    assert "Traceback" not in result.output
    return [f for f in json.loads(result.output)["findings"] if f["rule"] == rule]


TAIL = "".join(f"  k{i}: v{i}\n" for i in range(30))


@pytest.mark.parametrize("opened,said", [
    ('"Costo', "the double quote (\") opened at line 5 is never closed"),
    ("'Costo", "the single quote (') opened at line 5 is never closed"),
    ("{a: Costo", "the '{' opened at line 5 is not closed before line 6"),
    ("[Costo", "the '[' opened at line 5 is not closed before line 6"),
], ids=["double-quote", "single-quote", "flow-mapping", "flow-sequence"])
def test_a_quote_or_bracket_left_open_is_said_where_it_opens(demo, opened, said):
    it = demo / "text" / "it.yaml"
    it.write_text(f"game:\n  name: Demo\nui:\n  power: Forza\n  cost: {opened}\n{TAIL}", encoding="utf-8")
    found = findings(demo, "yaml.syntax")
    assert [(f["file"], f["line"]) for f in found] == [("demo/text/it.yaml", 5)]
    assert found[0]["message"].startswith(said), found[0]["message"]


def test_a_quote_left_open_at_the_end_of_the_file_is_never_closed_too(demo):
    it = demo / "text" / "it.yaml"
    it.write_text("game:\n  name: Demo\nui:\n  power: Forza\n  cost: [Costo\n", encoding="utf-8")
    found = findings(demo, "yaml.syntax")
    assert [(f["line"], f["message"].split(" (")[0]) for f in found] == [
        (5, "the '[' opened at line 5 is never closed: the file ends inside it")]
