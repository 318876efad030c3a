"""Hostile input is refused with a message, in bounded time: YAML that expands without bound,
values nested without end, and template loops of a billion steps (part of the hardening work)."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from pnp.errors import SNIPPET_CHARS, Problems
from pnp.limits import MAX_INT, MAX_TEMPLATE_RANGE
from pnp.pack import available_packs, read_pack
from pnp.yamlsource import MAX_DEPTH, load_source

SHIPPED = {p.name: p for p in available_packs()}

BILLION_LAUGHS = "\n".join(
    ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    + [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 10)]
) + "\n"


def test_aliases_that_expand_a_billion_times_are_refused(tmp_path):
    file = tmp_path / "laughs.yaml"
    file.write_text(BILLION_LAUGHS, encoding="utf-8")
    assert len(file.read_bytes()) < 1000
    problems = Problems()
    # in a child process with a time limit: a regression must fail the test, not hang the run
    code = ("from pathlib import Path; from pnp.errors import Problems; from pnp.yamlsource import load_source;"
            f"p = Problems(); s = load_source(Path({str(file)!r}), p); print(s is None, [x.code for x in p.items])")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.stdout.split() == ["True", "['yaml.too-large']"], result.stdout + result.stderr
    assert load_source(file, problems) is None and "more than" in problems.items[0].message


def test_values_nested_past_the_limit_are_refused(tmp_path):
    file = tmp_path / "deep.yaml"
    file.write_text("[" * 1000 + "]" * 1000 + "\n", encoding="utf-8")
    problems = Problems()
    assert load_source(file, problems) is None
    assert [p.code for p in problems.items] == ["yaml.too-large"]
    fine = tmp_path / "fine.yaml"
    fine.write_text("[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "\n", encoding="utf-8")
    assert load_source(fine, Problems()) is not None


def test_a_whole_deck_on_one_line_is_quoted_in_short(tmp_path):
    """One flow-style line can hold every card: a problem in one card quotes that line cut to
    SNIPPET_CHARS (it quoted all of it: 409 KB for one wrong number among 5,000 cards)."""
    pack = shutil.copytree(SHIPPED["zombie-run"], tmp_path / "zr")
    cards = [f"{{id: c{i}, kind: item, symbol: bat, quantity: {'many' if i == 4000 else 1}}}" for i in range(5000)]
    (pack / "cards" / "main.yaml").write_text("[" + ", ".join(cards) + "]\n", encoding="utf-8")
    problems = Problems()
    read_pack(pack, problems)
    (problem,) = [p for p in problems.items if p.key == "card c4000.quantity"]
    assert problem.line == 1 and problem.snippet.startswith("[{id: c0, kind: item")
    assert len(problem.snippet) == SNIPPET_CHARS and problem.snippet.endswith("…")
    assert len(str(problem)) < 400


def test_a_collection_that_expands_without_bound_stops_the_pack_with_its_file(tmp_path):
    pack = shutil.copytree(SHIPPED["zombie-run"], tmp_path / "zr")
    (pack / "symbols.yaml").write_text(BILLION_LAUGHS, encoding="utf-8")
    problems = Problems()
    read_pack(pack, problems)
    assert [(Path(p.file).name, p.code) for p in problems.items] == [("symbols.yaml", "yaml.too-large")]


def test_a_million_step_template_loop_is_refused_not_run(tmp_path):
    # the largest count the loader lets through (a billion is refused at load: tests/test_limits.py)
    # is still ten times the loop the template sandbox allows
    assert MAX_INT > MAX_TEMPLATE_RANGE
    pack = shutil.copytree(SHIPPED["cimiterio"], tmp_path / "cim")
    events = pack / "cards" / "events.yaml"
    text = events.read_text(encoding="utf-8")
    assert "count: 2" in text
    events.write_text(text.replace("count: 2", f"count: {MAX_INT}", 1), encoding="utf-8")
    # in a child process with a time limit: a loop that really ran would hang, not fail
    result = subprocess.run([sys.executable, "-m", "pnp.cli", "build", str(pack), "--lang", "it", "--force",
                             "--out", str(tmp_path / "out")], capture_output=True, text=True, timeout=300)
    assert result.returncode == 2, result.stderr
    assert "unsafe operation refused" in result.stderr and "events.yaml" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists()


# What the fuzz test (tests/test_fuzz.py) found: values of the wrong type where pack.yaml names a
# file or declares fields, and a collection id that is a mapping. Each is one message, no traceback.
FUZZ_FINDINGS = [
    ("zombie-run", "pack.yaml", lambda d: d["kinds"]["item"].update(fields=True), "kinds.item.fields"),
    ("zombie-run", "pack.yaml", lambda d: d["kinds"]["item"].update(fields="x"), "kinds.item.fields"),
    ("zombie-run", "pack.yaml", lambda d: d.update(components=7), "components"),
    ("zombie-run", "pack.yaml", lambda d: d["collections"]["symbols"].update(file=None), "collections.symbols.file"),
    ("zombies-vs-vampires", "pack.yaml", lambda d: d["collections"]["board"].update(file=7), "collections.board.file"),
    ("zombie-run", "pack.yaml", lambda d: d["decks"][0].update(cards=[]), "decks[0].cards"),
    ("zombie-run", "symbols.yaml", lambda d: d[0].update(id={}), "[0].id"),
]


@pytest.mark.parametrize("game,file,mutate,key", FUZZ_FINDINGS,
                         ids=["fields-bool", "fields-text", "components-int", "file-null", "file-int", "cards-list",
                              "id-mapping"])
def test_a_value_of_the_wrong_type_is_one_message_not_a_traceback(tmp_path, game, file, mutate, key):
    pack = shutil.copytree(SHIPPED[game], tmp_path / game)
    data = yaml.safe_load((pack / file).read_text(encoding="utf-8"))
    mutate(data)
    (pack / file).write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "pnp.cli", "check", str(pack), "--no-print", "--format", "json"],
                            capture_output=True, text=True, timeout=120)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 2, result.stdout + result.stderr
    findings = json.loads(result.stdout)["findings"]
    assert [(f["rule"], Path(f["file"]).name, f["key"]) for f in findings] == [("schema.type", file, key)]


TAGGED = """- {id: red, hue: 0}
- {id: blue, hue: !!int ten}
- {id: green, hue: !!python/object:os.system 120}
- !shade {id: grey, hue: 0}
"""


def test_a_tag_yaml_cannot_read_is_one_message_at_its_line_not_a_traceback(tiny_pack):
    (tiny_pack / "colours.yaml").write_text(TAGGED, encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "pnp.cli", "check", str(tiny_pack), "--no-print", "--format", "json"],
                            capture_output=True, text=True, timeout=120)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 2, result.stdout + result.stderr
    findings = json.loads(result.stdout)["findings"]
    assert [(f["rule"], Path(f["file"]).name, f["line"], f["key"]) for f in findings
            if f["rule"].startswith("yaml.")] == [("yaml.unsupported", "colours.yaml", 2, "[1].hue"),
                                                  ("yaml.unsupported", "colours.yaml", 3, "[2].hue")]
    messages = [f["message"] for f in findings if f["rule"] == "yaml.unsupported"]
    assert "cannot read 'ten' as !!int" in messages[0]
    assert "the tag !!python/object:os.system is not supported" in messages[1]


def test_a_key_that_is_not_a_word_is_one_message(tmp_path):
    file = tmp_path / "keys.yaml"
    file.write_text("? [tuple, key]\n: 1\n!odd k: 2\nfine: 3\n", encoding="utf-8")
    problems = Problems()
    source = load_source(file, problems)
    assert source is not None and source.value == {"fine": 3}
    assert [(p.code, p.line) for p in problems.items] == [("yaml.unsupported", 1), ("yaml.unsupported", 3)]
