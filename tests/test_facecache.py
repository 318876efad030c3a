"""The face cache (pnp/facecache.py): a rebuild redraws only what changed, and its PDF is byte for
byte the PDF of a build without the cache; a broken entry is redrawn, never a crash; the folder
stays under its limit."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp import build as pipeline
from pnp.cli import main
from pnp.facecache import DRAWINGS, FORMAT, INDEX, FaceCache, read_drawings
from pnp.keptparses import KeptParses
from pnp.render import svgcanvas
from pnp.render.facedata import face_data, face_from_data
from pnp.render.svgcanvas import compile_svg

CARDS = "cards/main.yaml"


@pytest.fixture
def cache_dir(tmp_path, monkeypatch) -> Path:
    """An empty face cache for the test (the machine's font cache is left where it is)."""
    from pnp.text import fonts

    fonts_dir = fonts.cache_dir()
    folder = tmp_path / "cache"
    monkeypatch.setenv("PNP_CACHE_DIR", str(folder))
    monkeypatch.setattr(fonts, "cache_dir", lambda: fonts_dir)
    return folder / "faces"


def build(pack: Path, out: Path, cache: bool = True, lang: str = "en") -> pipeline.BuildResult:
    return pipeline.build([str(pack)], pipeline.BuildOptions(lang=lang, out=out, cache=cache))


def cards_pdf(out: Path, lang: str = "en") -> bytes:
    return (out / "tiny" / f"tiny-cards-{lang}-a4.pdf").read_bytes()


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_a_rebuild_redraws_only_the_changed_card_and_writes_the_same_bytes(tiny_pack, tmp_path, cache_dir):
    first = build(tiny_pack, tmp_path / "first")
    assert first.cached == 0 and len(first.drawn) == first.faces == 10   # alpha x3, beta, gamma: 5 cards
    again = build(tiny_pack, tmp_path / "again")
    assert again.drawn == [] and again.cached == 10
    assert cards_pdf(tmp_path / "again") == cards_pdf(tmp_path / "first")

    edit(tiny_pack / CARDS, "colour: blue, value: 2}", "colour: red, value: 7}")       # beta only
    rebuilt = build(tiny_pack, tmp_path / "rebuilt")
    assert rebuilt.drawn == ["beta:front", "beta:back"]
    fresh = build(tiny_pack, tmp_path / "fresh", cache=False)
    assert cards_pdf(tmp_path / "rebuilt") == cards_pdf(tmp_path / "fresh")
    assert cards_pdf(tmp_path / "rebuilt") != cards_pdf(tmp_path / "first")
    assert len(fresh.drawn) == 10


def test_a_text_a_template_looks_up_with_t_is_part_of_the_key(tiny_pack, tmp_path, cache_dir):
    """gamma's back prints t("ui.second"), a text in none of the card's fields."""
    build(tiny_pack, tmp_path / "first")
    en = tiny_pack / "text" / "en.yaml"
    text = en.read_text(encoding="utf-8")
    assert "second: Second face" in text
    en.write_text(text.replace("second: Second face", "second: Other face"), encoding="utf-8")
    rebuilt = build(tiny_pack, tmp_path / "rebuilt")
    assert rebuilt.drawn == ["gamma:back"]
    build(tiny_pack, tmp_path / "fresh", cache=False)
    assert cards_pdf(tmp_path / "rebuilt") == cards_pdf(tmp_path / "fresh")


def test_a_template_change_redraws_the_faces_drawn_with_it(tiny_pack, tmp_path, cache_dir):
    build(tiny_pack, tmp_path / "first")
    edit(tiny_pack / "templates" / "tiny" / "back.svg.j2", 'r="15"', 'r="12"')
    rebuilt = build(tiny_pack, tmp_path / "rebuilt")
    assert sorted(rebuilt.drawn) == sorted(f"{card}:back" for card in ("alpha#1", "alpha#2", "alpha#3", "beta"))
    build(tiny_pack, tmp_path / "fresh", cache=False)
    assert cards_pdf(tmp_path / "rebuilt") == cards_pdf(tmp_path / "fresh")


def test_art_files_are_part_of_the_key(tmp_path, cache_dir):
    from conftest import TESTS

    pack = tmp_path / "artful"
    shutil.copytree(TESTS / "packs" / "artful", pack)
    out = tmp_path / "o"
    first = pipeline.build([str(pack)], pipeline.BuildOptions(lang="en", out=out / "1"))
    assert first.drawn
    art = sorted(p for p in (pack / "art").iterdir() if p.suffix == ".png")[0]
    from PIL import Image
    with Image.open(art) as image:
        image.convert("RGB").point(lambda v: 255 - v).save(art)        # same name, other pixels
    rebuilt = pipeline.build([str(pack)], pipeline.BuildOptions(lang="en", out=out / "2"))
    assert rebuilt.drawn, "a face drawing the changed art file was read from the cache"
    pipeline.build([str(pack)], pipeline.BuildOptions(lang="en", out=out / "3", cache=False))
    for pdf in (out / "2" / "artful").glob("*cards*.pdf"):
        assert pdf.read_bytes() == (out / "3" / "artful" / pdf.name).read_bytes()


@pytest.mark.parametrize("damage", ["truncate", "garbage", "wrong-types", "unknown-font", "empty", "drawings-garbage",
                                    "drawings-truncate"])
def test_a_broken_entry_is_redrawn_not_a_crash(tiny_pack, tmp_path, cache_dir, damage):
    build(tiny_pack, tmp_path / "first")
    files = sorted(cache_dir.rglob(f"*{INDEX}"))
    assert files
    for path in files:
        data = path.read_bytes()
        if damage == "truncate":
            path.write_bytes(data[: len(data) // 2])
        elif damage == "garbage":
            path.write_bytes(b"\x00\xff not json")
        elif damage == "empty":
            path.write_bytes(b"")
        elif damage == "drawings-garbage":                            # the index's drawings file
            path.with_suffix(DRAWINGS).write_bytes(b"\x00\xff not drawings\nab cd\n")
        elif damage == "drawings-truncate":
            drawings = path.with_suffix(DRAWINGS)
            drawings.write_bytes(drawings.read_bytes()[: drawings.stat().st_size * 2 // 3])
        else:
            header, *lines = data.decode().splitlines()              # an index: a line a face
            faces = dict(line.split(" ", 1) for line in lines)
            drawings = read_drawings(path.with_suffix(DRAWINGS))     # and their drawings
            for drawing_id, text in drawings.items():
                drawing = json.loads(text)
                for op in drawing["ops"]:
                    if op[0] == "text_at" or op[0] == "text":
                        op[1] = "NoSuchFont-Bold" if damage == "unknown-font" else 12
                    elif op[0] == "literal" and damage == "wrong-types":
                        op[1] = {"not": "a string"}
                drawings[drawing_id] = json.dumps(drawing)
            path.with_suffix(DRAWINGS).write_text(f'{{"format":{FORMAT}}}\n' + "".join(
                f"{d} {text}\n" for d, text in drawings.items()), encoding="utf-8")
            if damage == "wrong-types":
                for key in list(faces)[::2]:
                    face = json.loads(faces[key])
                    face["issues"] = "many"
                    faces[key] = json.dumps(face)
            path.write_text(header + "\n" + "".join(f"{key} {face}\n" for key, face in faces.items()),
                            encoding="utf-8")
    rebuilt = build(tiny_pack, tmp_path / "rebuilt")
    assert rebuilt.cached < 10 and rebuilt.drawn
    build(tiny_pack, tmp_path / "fresh", cache=False)
    assert cards_pdf(tmp_path / "rebuilt") == cards_pdf(tmp_path / "fresh")
    again = build(tiny_pack, tmp_path / "again")                        # the broken entries were rewritten
    assert again.drawn == []


def test_the_index_holds_a_line_a_face_read_alone_and_written_back_as_read(tiny_pack, tmp_path, cache_dir):
    """A damaged line costs its own face only; an entry used again is written back as the text it
    was read as (not encoded again: a one-card rebuild writes the other faces' lines as they are)."""
    build(tiny_pack, tmp_path / "first")
    [index] = [p for p in cache_dir.rglob(f"*{INDEX}") if len(p.read_text(encoding="utf-8").splitlines()) == 11]
    header, *lines = index.read_text(encoding="utf-8").splitlines()      # the cards' 10 faces
    lines[0] = lines[0].split(" ", 1)[0] + ' {"drawing": "half an entry'
    key, entry = lines[1].split(" ", 1)
    lines[1] = f"{key} {json.dumps(json.loads(entry), separators=(', ', ': '))}"   # the same entry, spaced
    assert lines[1] != f"{key} {entry}"
    index.write_text(header + "\n" + "".join(f"{line}\n" for line in lines), encoding="utf-8")
    rebuilt = build(tiny_pack, tmp_path / "rebuilt")
    assert len(rebuilt.drawn) == 1 and rebuilt.cached == 9
    assert lines[1] in index.read_text(encoding="utf-8").splitlines()
    build(tiny_pack, tmp_path / "fresh", cache=False)
    assert cards_pdf(tmp_path / "rebuilt") == cards_pdf(tmp_path / "fresh")
    again = build(tiny_pack, tmp_path / "again")                        # the damaged line was rewritten
    assert again.drawn == [] and again.cached == 10


def test_a_face_read_back_names_the_key_of_each_text_it_reports(tiny_pack, tmp_path, cache_dir):
    """An entry keeps the text keys of its issues' texts only (not every text the face printed):
    the problems of faces read back are those of faces drawn, each text.fit naming its key."""
    from pnp.build import render_faces
    from pnp.pack import load_pack

    en = tiny_pack / "text" / "en.yaml"
    en.write_text(en.read_text(encoding="utf-8").replace("body: Two faces}", "body: " + "Overflowing " * 80 + "}"),
                  encoding="utf-8")

    def problems(cache: FaceCache | None) -> list[tuple]:
        _faces, found = render_faces(load_pack(tiny_pack), "en", cache=cache, keep_svg=False, packed=True)
        if cache is not None:
            cache.save()
        # the detail too: a box's size and missing characters read back as the tuples a drawn face has
        return [(p.code, p.key, p.face, p.message, p.get("text_key"), p.detail) for p in found]

    drawn = problems(None)
    assert [(code, key) for code, _k, _f, _m, key, _d in drawn if code == "text.fit"] == [("text.fit", "card.gamma.body")]
    first = FaceCache()
    assert problems(first) == drawn and first.hits == 0
    [index] = cache_dir.rglob(f"*{INDEX}")                            # the cards' faces (no tuck box here)
    kept = [json.loads(line.split(" ", 1)[1])["text_keys"] for line in index.read_text(encoding="utf-8").splitlines()[1:]]
    assert len(kept) == 10 and [list(keys.values()) for keys in kept if keys] == [["card.gamma.body"]]
    again = FaceCache()
    assert problems(again) == drawn and again.hits == 10 and again.drawn == []


def test_a_rebuild_in_the_process_parses_no_entry_it_parsed_before(tiny_pack, tmp_path, cache_dir, monkeypatch):
    """facecache.PARSED: an index line read again with the same text gives the entry parsed
    before; a line whose text changed (under the same face key) is parsed, and checked, anew."""
    from pnp import facecache

    monkeypatch.setattr(facecache, "PARSED", KeptParses(facecache._parsed_face, facecache.PARSED.limit))
    parsed: list[object] = []
    real = facecache.parse_face
    monkeypatch.setattr(facecache, "parse_face", lambda data, *more: parsed.append(data) or real(data, *more))
    build(tiny_pack, tmp_path / "first")
    assert parsed == []                                                 # an empty cache: nothing read
    again = build(tiny_pack, tmp_path / "again")
    assert again.cached == 10 and parsed                           # (faces of the same drawing: one text)
    parsed.clear()
    third = build(tiny_pack, tmp_path / "third")
    assert third.cached == 10 and parsed == []
    [index] = [p for p in cache_dir.rglob(f"*{INDEX}") if len(p.read_text(encoding="utf-8").splitlines()) == 11]
    header, *lines = index.read_text(encoding="utf-8").splitlines()
    key, entry = lines[0].split(" ", 1)
    face = json.loads(entry)
    face["issues"] = "many"                                             # the same face key, not an entry now
    lines[0] = f"{key} {json.dumps(face)}"
    index.write_text(header + "\n" + "".join(f"{line}\n" for line in lines), encoding="utf-8")
    damaged = build(tiny_pack, tmp_path / "damaged")
    assert len(parsed) == 1 and damaged.cached == 9 and len(damaged.drawn) == 1
    assert cards_pdf(tmp_path / "damaged") == cards_pdf(tmp_path / "first")


def test_an_index_line_that_does_not_read_is_no_face():
    from pnp.facecache import _parsed_face

    entry = {"drawing": "d0", "svg": "s", "sha": "h", "issues": [["text.overflow", {"key": "k"}]], "missing": [],
             "text_keys": {}, "texts": {}, "art": {}, "size": [1, 2]}
    face = _parsed_face(json.dumps(entry))
    assert face is not None and face.drawing_id == "d0" and face.issues == (("text.overflow", {"key": "k"}),)
    assert _parsed_face("{not json") is None and _parsed_face('{"drawing": 1}') is None
    assert _parsed_face(json.dumps({**entry, "size": [0, 2]})) is None


def test_no_cache_reads_and_writes_nothing(tiny_pack, tmp_path, cache_dir):
    result = CliRunner().invoke(main, ["build", str(tiny_pack), "--lang", "en", "--out", str(tmp_path / "o"),
                                       "--no-cache"])
    assert result.exit_code == 0, result.output
    assert not cache_dir.exists()
    result = CliRunner().invoke(main, ["build", str(tiny_pack), "--lang", "en", "--out", str(tmp_path / "o")])
    assert result.exit_code == 0, result.output
    assert len(list(cache_dir.rglob(f"*{INDEX}"))) > 0


def test_an_unwritable_cache_is_a_warning(tiny_pack, tmp_path, monkeypatch, cache_dir):
    cache_dir.parent.mkdir(parents=True)
    cache_dir.write_text("a file where the cache folder should be")
    result = build(tiny_pack, tmp_path / "o")
    assert [w.code for w in result.warnings] == [pipeline.CACHE_UNWRITABLE]
    assert cards_pdf(tmp_path / "o")


def test_trim_removes_the_least_recently_used_entries(tmp_path):
    cache = FaceCache(folder=tmp_path / "faces", limit=2500)
    for n in range(5):
        path = cache.folder / f"{n:02d}" / f"{n:02d}entry.json"
        path.parent.mkdir(parents=True)
        path.write_bytes(b"x" * 1000)
        os.utime(path, (1_000_000 + (n * 7) % 5 * 100, 1_000_000))      # access order: 0, 3, 1, 4, 2
    leftover = cache.folder / "aa" / ".x.json.abc.tmp"
    leftover.parent.mkdir()
    leftover.write_bytes(b"half")
    os.utime(leftover, (1_000_000, 1_000_000))
    assert cache.trim() == 4                         # three entries and the temp file of a killed build
    assert sorted(p.name for p in cache.folder.rglob("*.json")) == ["02entry.json", "04entry.json"]
    assert cache.trim() == 0


def test_a_hit_marks_the_entry_used(tiny_pack, tmp_path, cache_dir):
    build(tiny_pack, tmp_path / "first")
    indexes = list(cache_dir.rglob(f"*{INDEX}"))
    assert indexes
    for path in indexes:
        os.utime(path, (1_000_000, 1_000_000))
    build(tiny_pack, tmp_path / "again")
    assert all(path.stat().st_atime > 2_000_000 for path in indexes)


def test_every_drawing_operation_has_a_stored_form():
    """A new operation in pnp.render.svgcanvas needs its name in OPERATIONS (and facedata)."""
    ops = {name for name in vars(svgcanvas) if name.startswith("_op_")}
    assert ops == {op.__name__ for op in svgcanvas.OPERATIONS.values()}


def test_a_face_survives_the_round_trip(tmp_path):
    """Every kind of operation: paths, opacity, text, tspans, gradients, a shaped right-to-left run;
    JSON in between."""
    from pnp.text import fonts

    latin = fonts.register("regular")
    arabic = fonts.register_font(fonts.ARABIC_STYLES["regular"].name)
    svg = f"""<svg xmlns="http://www.w3.org/2000/svg" width="20mm" height="30mm" viewBox="0 0 20 30">
      <defs><linearGradient id="g"><stop offset="0" stop-color="red"/><stop offset="1" stop-color="blue"/>
      </linearGradient></defs>
      <rect width="20" height="30" fill="url(#g)"/>
      <circle cx="10" cy="10" r="4" fill="#123456" fill-opacity="0.5" stroke="black" stroke-opacity="0.25"/>
      <text x="10" y="20" font-size="3" text-anchor="middle" font-family="{latin}">Plain</text>
      <text x="2" y="25" font-size="2" font-family="{latin}">a <tspan font-weight="bold">bold</tspan> word</text>
      <text x="18" y="28" font-size="2" font-family="{arabic}" direction="rtl" unicode-bidi="bidi-override">مرحبا</text>
    </svg>"""
    face = compile_svg(svg)
    data = json.loads(json.dumps(face_data(face)))
    back = face_from_data(data, art=lambda href: None)
    assert back == face
    runs = [(args[3], again[3]) for (op, args), (_, again) in zip(face.ops, back.ops) if op.__name__ == "_op_glyphs"]
    assert runs and all(a.__shapeData__ == b.__shapeData__ for a, b in runs)   # str == ignores the positions
    assert {op[0] for op in data["ops"]} >= {"literal", "save", "restore", "fill_alpha", "stroke_alpha", "text",
                                             "text_at", "shade", "glyphs"}


def test_a_missing_art_file_fails_the_cached_build_as_it_fails_a_fresh_one(tmp_path, cache_dir):
    """Faces with the same SVG are compiled once: each one's entry must still name the art it draws."""
    from conftest import TESTS

    from pnp.errors import DataError

    pack = tmp_path / "artful"
    shutil.copytree(TESTS / "packs" / "artful", pack)
    pipeline.build([str(pack)], pipeline.BuildOptions(lang="en", out=tmp_path / "1"))
    (pack / "art" / "frame.svg").unlink()
    with pytest.raises(DataError) as cached:
        pipeline.build([str(pack)], pipeline.BuildOptions(lang="en", out=tmp_path / "2"))
    with pytest.raises(DataError) as fresh:
        pipeline.build([str(pack)], pipeline.BuildOptions(lang="en", out=tmp_path / "3", cache=False))
    assert str(cached.value) == str(fresh.value)
    assert "and 4 more cards" in str(fresh.value)


def test_a_changed_text_a_card_field_names_redraws_that_card(tiny_pack, tmp_path, cache_dir):
    """A card's `title: card.beta.title` is a text key: its text is part of the card's face keys
    (looked up once a build, words that are no key skip the lookup), so a changed text redraws
    the card that names it, and no other."""
    build(tiny_pack, tmp_path / "first")
    edit(tiny_pack / "text" / "en.yaml", "beta: {title: Beta,", "beta: {title: Better,")
    rebuilt = build(tiny_pack, tmp_path / "rebuilt")
    assert rebuilt.drawn == ["beta:front", "beta:back"]
    build(tiny_pack, tmp_path / "fresh", cache=False)
    assert cards_pdf(tmp_path / "rebuilt") == cards_pdf(tmp_path / "fresh")
