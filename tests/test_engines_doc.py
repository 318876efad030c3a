"""docs/engines.md's example engine is real: its code, pyproject entry point, commands and record
are taken from the page and run as a designer would (the entry point as pip would install it)."""
from __future__ import annotations

import re
import shlex
import sys
import tomllib
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.engines import core

PAGE = Path(__file__).resolve().parent.parent / "docs" / "engines.md"
BLOCK = re.compile(r"<!-- engines-doc: (?P<name>\S+) -->\n```\w*\n(?P<body>.*?)```", re.S)


def blocks() -> dict[str, str]:
    return {m["name"]: m["body"] for m in BLOCK.finditer(PAGE.read_text(encoding="utf-8"))}


@pytest.fixture
def installed(tmp_path, monkeypatch):
    """The page's package written out and registered as its pyproject.toml says."""
    found = blocks()
    package = tmp_path / "twenty-one-engine"
    (package / "twentyone").mkdir(parents=True)
    (package / "twentyone" / "__init__.py").write_text("", encoding="utf-8")
    (package / "twentyone" / "game.py").write_text(found["twentyone/game.py"], encoding="utf-8")
    monkeypatch.syspath_prepend(str(package))
    points = tomllib.loads(found["pyproject.toml"])["project"]["entry-points"][core.ENTRY_POINT_GROUP]
    real = core._entry_points
    monkeypatch.setattr(core, "_entry_points", lambda: {
        **real(), **{name: EntryPoint(name, value, core.ENTRY_POINT_GROUP) for name, value in points.items()}})
    monkeypatch.chdir(tmp_path)
    (tmp_path / "game.yaml").write_text(found["game.yaml"], encoding="utf-8")
    yield points
    sys.modules.pop("twentyone.game", None)
    sys.modules.pop("twentyone", None)
    core._REGISTRY.pop("twenty-one", None)


def test_the_page_has_every_block():
    assert set(blocks()) == {"twentyone/game.py", "pyproject.toml", "run", "game.yaml"}


def test_every_command_of_the_page_runs(installed):
    assert installed == {"twenty-one": "twentyone.game:TwentyOne"}
    commands = [line[2:] for line in blocks()["run"].splitlines() if line.startswith("$ ")]
    assert len(commands) == 3
    for command in commands:
        words = shlex.split(command)
        assert words[0] == "pnp"
        result = CliRunner().invoke(main, words[1:])
        assert result.exit_code == 0, f"{command}\n{result.output}"
    simulated = CliRunner().invoke(main, ["simulate", "twenty-one", "--games", "300", "--players", "2"])
    assert "never fired" not in simulated.output
    assert "moves of 3 (T2)" in simulated.output and "completed        300/300" in simulated.output


def test_the_example_keeps_the_protocol(installed):
    cls = core.get_game("twenty-one")
    st = cls.new(players=3, seed=5)
    before = st.to_dict()
    st.push(3)
    st.push(2)
    assert st.describe().startswith("total 5 of 21")
    st.pop()
    st.pop()
    assert st.to_dict() == before                          # undo is exact, rng included
    assert cls.from_dict(st.to_dict()).to_dict() == before
    with pytest.raises(core.IllegalMoveError):
        cls.new(players=2, seed=1, variants=["short"]).push(4)
    end = cls.new(players=2, seed=1, options={"target": 3})
    end.push(3)
    assert end.outcome().rule == "T3" and end.legal_moves() == []
    assert cls.from_dict(end.to_dict()).outcome() == end.outcome()
