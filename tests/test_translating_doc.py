"""docs/translating.md's walk-through runs as the page shows it: a new language started, exported,
one card title translated in the PO, imported, and what status and the build then say."""
from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from pnp.cli import main

DOC = Path(__file__).resolve().parent.parent / "docs" / "translating.md"


def pnp(*args: str) -> str:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_the_walk_through_runs_as_the_page_shows_it(tmp_path, monkeypatch):
    page = DOC.read_text(encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    pnp("new", "demo")
    pack = tmp_path / "demo" / "pack.yaml"
    assert "languages: [en, it]" in pack.read_text(encoding="utf-8")        # what the page's sed edits
    pack.write_text(pack.read_text(encoding="utf-8").replace("languages: [en, it]", "languages: [en, it, es]"),
                    encoding="utf-8")
    (tmp_path / "demo" / "text" / "es.yaml").write_text('game:\n  name: "Demo"\n', encoding="utf-8")
    shown = re.search(r"# (es: 1/16 translated \(6%\), 15 missing, 0 stale, 1 untracked)", page).group(1)
    assert shown in pnp("i18n", "status", "demo")
    assert "wrote po/es.po" in pnp("i18n", "export", "demo", "--out", "po")
    po = tmp_path / "po" / "es.po"
    entry = 'msgctxt "card.main.knight.title"\nmsgid "Knight"\nmsgstr ""'
    assert entry in po.read_text(encoding="utf-8")
    assert "#. card knight front: 53.0 x 10.0 mm box, 13 pt" in page
    assert "#. card knight front: 53.0 x 10.0 mm box, 13 pt" in po.read_text(encoding="utf-8")
    po.write_text(po.read_text(encoding="utf-8").replace(entry, entry[:-2] + '"Caballero"'), encoding="utf-8")
    imported = pnp("i18n", "import", "demo", "po/es.po")
    assert "es: 1 text changed" in page and "es: 1 text changed" in imported
    assert "wrote demo/text/es.yaml" in imported
    assert "es: 2/16 translated" in pnp("i18n", "status", "demo")
    # the page's promise: a build says the missing sheet words, and writes the Spanish PDFs
    built = CliRunner().invoke(main, ["build", "demo", "--lang", "es"])
    assert built.exit_code == 0, built.output
    assert "i18n.sheet-words" in page and "pnp has no 'es' sheet words" in built.output
    assert (tmp_path / "output" / "demo" / "demo-cards-es-a4.pdf").stat().st_size > 0
