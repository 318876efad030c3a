"""`pnp docs`: the manual is readable wherever pnp is installed, and every `pnp docs NAME` that pnp's
messages, help and starter files name is a document it has."""
from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from pnp.cli import main

ROOT = Path(__file__).resolve().parent.parent
PNP_DOCS = re.compile(r"`pnp docs ([\w/.-]+)`")


def test_docs_lists_every_document_with_its_title():
    result = CliRunner().invoke(main, ["docs"])
    assert result.exit_code == 0, result.output
    names = [line.split()[0] for line in result.output.splitlines()[:-1]]
    assert names == sorted(p.relative_to(ROOT / "docs").with_suffix("").as_posix() for p in (ROOT / "docs").rglob("*.md"))
    assert "rules/zombie-run           Zombie! Run for Your Lives!: rules as the engine plays them" in result.output


def test_docs_prints_a_document_as_it_is():
    for name in ("reference", "rules/cimiterio", "docs/tutorial.md"):
        result = CliRunner().invoke(main, ["docs", name])
        assert result.exit_code == 0, result.output
        file = name.removeprefix("docs/").removesuffix(".md")
        assert result.output == (ROOT / "docs" / f"{file}.md").read_text(encoding="utf-8")


def test_an_unknown_document_is_one_message_with_a_guess():
    result = CliRunner().invoke(main, ["docs", "refrence"])
    assert result.exit_code == 2
    assert result.output.startswith("no document 'refrence' (the documents: agents, bots, ")
    assert result.output.rstrip().endswith("did you mean 'reference'?)")


def test_every_document_pnp_names_exists():
    named = {match for path in (ROOT / "pnp").rglob("*") if path.is_file() and path.suffix in {".py", ".yaml", ".svg", ".j2", ".csv"}
             for match in PNP_DOCS.findall(path.read_text(encoding="utf-8", errors="replace"))}
    assert {"reference", "bots", "cluster", "export", "svg", "text", "tuckbox"} <= named
    missing = [name for name in sorted(named - {"NAME"}) if not (ROOT / "docs" / f"{name}.md").is_file()]
    assert missing == []
