"""Each file of a pack is read and parsed once: `pnp build` (which runs the rules checker first)
and `pnp check` hand the loaded pack, card files included, to the checker; and a rule finding on a
card still names its card file and line."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from pnp import build, yamlsource
from pnp.check import check_pack
from pnp.composition import check_composition
from pnp.pack import load_pack

RULES = """rules:
  - id: cards.total
    type: total
    equals: 5
    message: the tiny deck has five cards
  - id: values
    type: allowed
    select: {kind: plain}
    field: value
    in: [1, 2, 3]
    message: a card is worth 1 to 3
"""


@pytest.fixture
def reads(monkeypatch) -> Counter:
    """file name -> how many times pnp.yamlsource read it (every pack file goes through there)."""
    counted: Counter = Counter()
    read = yamlsource._read_text

    def counting(file: Path, problems):
        counted[file.relative_to(file.parents[1]).as_posix() if file.parent.name in ("cards", "text")
                else file.name] += 1
        return read(file, problems)

    monkeypatch.setattr(yamlsource, "_read_text", counting)
    return counted


@pytest.fixture
def ruled_pack(tiny_pack: Path) -> Path:
    (tiny_pack / "rules.yaml").write_text(RULES, encoding="utf-8")
    return tiny_pack


EVERY_FILE = {"pack.yaml", "colours.yaml", "cards/main.yaml", "text/en.yaml", "text/it.yaml", "rules.yaml"}


def test_a_build_reads_every_file_of_the_pack_once(ruled_pack, reads, tmp_path):
    result = build.build([str(ruled_pack)], build.BuildOptions(lang="en", out=tmp_path / "out"))
    assert result.files
    assert set(reads) == EVERY_FILE
    assert [name for name, count in reads.items() if count != 1] == []


def test_check_reads_every_file_of_the_pack_once(ruled_pack, reads):
    assert check_pack(ruled_pack, {"rules"}) == []
    assert set(reads) == EVERY_FILE
    assert [name for name, count in reads.items() if count != 1] == []


def test_a_rule_finding_on_a_card_names_its_file_and_the_line_of_the_field(ruled_pack, reads):
    cards = ruled_pack / "cards" / "main.yaml"
    beta = "- {id: beta, kind: plain, title: card.beta.title, body: card.beta.body, colour: blue, value: 2}"
    block = "- id: beta\n  kind: plain\n  title: card.beta.title\n  body: card.beta.body\n  colour: blue\n  value: 7"
    cards.write_text(cards.read_text(encoding="utf-8").replace(beta, block), encoding="utf-8")
    findings = check_composition(load_pack(ruled_pack))
    assert [(f.rule, Path(f.file).name, f.line, f.key) for f in findings] == [
        ("values", "main.yaml", 7, "card beta.value")]
    assert reads["cards/main.yaml"] == 1
