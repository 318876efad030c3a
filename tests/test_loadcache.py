"""The load cache (pnp/loadcache.py): a card file unchanged since an earlier build is taken from it
instead of being composed and checked again, and the pack loaded is the pack loaded without it;
a file with problems is read (and its problems reported) every time; a card id another file took
is still reported; a damaged or hostile entry is ignored; --no-cache writes none; trim covers it."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import test_facecache as shared

from pnp.errors import DataError
from pnp.facecache import FaceCache
from pnp.loadcache import SUFFIX, LoadCache
from pnp.pack import load_pack

build, edit = shared.build, shared.edit
cache_dir = shared.cache_dir          # the fixture: an empty face cache for the test
EXTRA = ("- {id: delta, kind: plain, title: {en: Delta, it: Delta in italiano}, body: card.beta.body,"
         " colour: red, value: 4}\n"
         "- {id: epsilon, kind: double, title: card.alpha.title, body: card.beta.body, colour: blue, value: 5,"
         " quantity: 2}\n")


@pytest.fixture
def two_decks(tiny_pack) -> Path:
    """The tiny pack with a second deck, whose file writes a text in the data (both languages)."""
    edit(tiny_pack / "pack.yaml", "    cards: cards/main.yaml\n",
         "    cards: cards/main.yaml\n  - id: extra\n    name: deck.main\n    back: tiny/back.svg.j2\n"
         "    cards: cards/extra.yaml\n")
    (tiny_pack / "cards" / "extra.yaml").write_text(EXTRA, encoding="utf-8")
    return tiny_pack


def loaded(pack) -> dict:
    """Everything a load gives that the cache could change."""
    return {"cards": [(c.id, c.base_id, c.kind, c.deck, c.copy, c.quantity, c.fields, c.file, c.line)
                      for c in pack.cards()],
            "sources": [(d.source.value, d.source.lines, d.source.text_lines) for d in pack.decks],
            "texts": pack.texts, "literals": pack.literal_texts, "warnings": pack.warnings}


def problems_of(pack: Path, cache: LoadCache | None) -> list:
    with pytest.raises(DataError) as error:
        load_pack(str(pack), load_cache=cache)
    return [(p.code, p.file, p.line, p.key, p.message) for p in error.value.problems]


def test_an_unchanged_card_file_is_taken_from_the_cache(two_decks, tmp_path):
    first = LoadCache(tmp_path / "c")
    load_pack(str(two_decks), load_cache=first)
    assert (first.hits, first.stored) == (0, 2)
    again = LoadCache(tmp_path / "c")
    pack = load_pack(str(two_decks), load_cache=again)
    assert (again.hits, again.stored) == (2, 0)
    assert loaded(pack) == loaded(load_pack(str(two_decks)))
    assert "card.extra.delta.title" in pack.literal_texts and pack.texts["it"]["card.extra.delta.title"] == \
        "Delta in italiano"

    edit(two_decks / "cards" / "extra.yaml", "value: 4}", "value: 6}")      # one file changed: read again
    third = LoadCache(tmp_path / "c")
    pack = load_pack(str(two_decks), load_cache=third)
    assert (third.hits, third.stored) == (1, 1)
    assert loaded(pack) == loaded(load_pack(str(two_decks)))
    assert pack.deck("extra").cards[0].fields["value"] == 6


def test_a_card_file_with_problems_is_read_and_reported_every_time(two_decks, tmp_path):
    edit(two_decks / "cards" / "extra.yaml", "value: 4}", "value: four}")
    expected = problems_of(two_decks, None)
    assert [p[0] for p in expected] == ["schema.type"]
    for _ in range(2):
        cache = LoadCache(tmp_path / "c")
        assert problems_of(two_decks, cache) == expected
        assert cache.stored + cache.hits == 1                               # main.yaml only
    assert len(list((tmp_path / "c").rglob(f"*{SUFFIX}"))) == 1


def test_a_card_id_an_earlier_file_took_is_reported_with_the_cache(two_decks, tmp_path):
    load_pack(str(two_decks), load_cache=LoadCache(tmp_path / "c"))        # both files kept
    with (two_decks / "cards" / "main.yaml").open("a", encoding="utf-8") as cards:
        cards.write("- {id: delta, kind: plain, title: card.beta.title, body: card.beta.body, colour: red,"
                    " value: 9}\n")
    expected = problems_of(two_decks, None)
    assert [p[0] for p in expected] == ["cards.duplicate-id"] and Path(expected[0][1]).name == "extra.yaml"
    assert problems_of(two_decks, LoadCache(tmp_path / "c")) == expected   # extra.yaml unchanged, read again


@pytest.mark.parametrize("damage", ["garbage", "shape", "kind", "format", "tuple-lines"])
def test_a_damaged_entry_is_ignored_and_the_file_read(two_decks, tmp_path, damage):
    load_pack(str(two_decks), load_cache=LoadCache(tmp_path / "c"))
    files = sorted((tmp_path / "c").rglob(f"*{SUFFIX}"))
    assert len(files) == 2
    for path in files:
        data = json.loads(path.read_bytes())
        if damage == "garbage":
            path.write_bytes(b"\x80{not json")
            continue
        if damage == "shape":
            data["cards"][0][3] = "not the fields"                         # a card's fields: not a mapping
        elif damage == "kind":
            data["cards"][0][1] = "no-such-kind"
        elif damage == "format":
            data["format"] = 99
        else:
            data["lines"][0] = [[0, "id"], 1] if path == files[0] else ["nowhere", "one"]   # a step that is a list, a line no number
        path.write_text(json.dumps(data), encoding="utf-8")
    cache = LoadCache(tmp_path / "c")
    pack = load_pack(str(two_decks), load_cache=cache)
    assert cache.hits == 0 and cache.stored == 2                           # read, and written again
    assert loaded(pack) == loaded(load_pack(str(two_decks)))


def test_the_build_uses_it_no_cache_writes_none_and_trim_covers_it(two_decks, tmp_path, cache_dir):
    build(two_decks, tmp_path / "nocache", cache=False)
    assert list(cache_dir.rglob(f"*{SUFFIX}")) == []
    build(two_decks, tmp_path / "first")
    assert len(list(cache_dir.rglob(f"*{SUFFIX}"))) == 2
    edit(two_decks / "cards" / "extra.yaml", "value: 4}", "value: 6}")
    rebuilt = build(two_decks, tmp_path / "rebuilt")
    assert rebuilt.drawn == ["delta:front", "delta:back"]
    build(two_decks, tmp_path / "fresh", cache=False)
    assert shared.cards_pdf(tmp_path / "rebuilt") == shared.cards_pdf(tmp_path / "fresh")
    FaceCache(folder=cache_dir, limit=0).trim()
    assert list(cache_dir.rglob(f"*{SUFFIX}")) == []


def test_the_code_digest_covers_every_module_the_loader_imports():
    """A change to any module `import pnp.pack` loads may change what a file reads as: each one's
    source is in the digest that keys the entries (a development checkout keeps its version)."""
    import subprocess
    import sys

    from pnp.loadcache import loading_code

    listed = subprocess.run([sys.executable, "-c", "import sys, pnp.pack; print('\\n'.join(m.__file__ for n, m in "
                             "sys.modules.items() if n == 'pnp' or n.startswith('pnp.')))"],
                            capture_output=True, text=True, check=True).stdout.split()
    covered = {path.resolve() for path in loading_code()}
    assert len(listed) > 10
    assert [file for file in listed if Path(file).resolve() not in covered] == []
