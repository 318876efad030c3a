"""pnp.sheets.pdfsplice: a rebuild's cards PDF written from the last build's file when only faces'
drawings changed, byte for byte the PDF a build without the cache writes; any other change (a
character new to the document, a face shared or unshared, another option, a touched output or
cache file) writes it through ReportLab as before."""
from __future__ import annotations

import io
import json
import random
import shutil
import sys
from pathlib import Path

import pytest
import test_facecache as shared
from reportlab.pdfgen.canvas import Canvas

from pnp import build as pipeline
from pnp.sheets import pdfsplice

build, edit, cache_dir = shared.build, shared.edit, shared.cache_dir
CARDS = "cards/main.yaml"
TEXT = "text/en.yaml"
REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def spliced(monkeypatch) -> list[bool]:
    """Whether each cards PDF written since was spliced (pdfsplice.rewrite wrote it)."""
    seen: list[bool] = []
    real = pdfsplice.rewrite

    def recording(*args, **kwargs):
        written = real(*args, **kwargs)
        seen.append(written is not None)
        return written

    monkeypatch.setattr(pdfsplice, "rewrite", recording)
    return seen


def pdf(out: Path, pack: str = "tiny") -> bytes:
    return (out / pack / f"{pack}-cards-en-a4.pdf").read_bytes()


def fresh(pack: Path, tmp_path: Path, **options) -> bytes:
    """The cards PDF a build without the cache writes now."""
    folder = tmp_path / "fresh"
    shutil.rmtree(folder, ignore_errors=True)
    pipeline.build([str(pack)], pipeline.BuildOptions(lang="en", out=folder, cache=False, **options))
    return pdf(folder, pack.name)


def test_a_changed_card_is_spliced_into_the_last_pdf(tiny_pack, tmp_path, cache_dir, spliced):
    out = tmp_path / "out"
    build(tiny_pack, out)
    assert spliced == [False]                                   # no last build: drawn, layout recorded
    edit(tiny_pack / TEXT, "over several lines", "over many lines")            # beta's front only
    again = build(tiny_pack, out)
    assert spliced == [False, True] and again.reused == 6       # 5 forms and 2 pages: 1 form drawn
    assert pdf(out) == fresh(tiny_pack, tmp_path)
    assert streams_keys(cache_dir) == streams_keys(tmp_path / "other" / "faces", lambda: build(tiny_pack, tmp_path / "o2"))
    edit(tiny_pack / CARDS, "colour: blue, value: 3}", "colour: red, value: 9}")  # gamma's front (its second
    third = build(tiny_pack, out)                                                   # face shows neither)
    assert spliced[-1] and pdf(out) == fresh(tiny_pack, tmp_path) and third.reused == 6
    build(tiny_pack, out)                                       # nothing changed: the same file again
    assert spliced[-1] and pdf(out) == fresh(tiny_pack, tmp_path)


def test_a_character_new_to_the_document_is_drawn_through_reportlab(tiny_pack, tmp_path, cache_dir, spliced):
    """A character no stream coded before the changed face would get its code there and move the
    codes of every later first use: the PDF is drawn. So is one when the face that first coded a
    character changes (its first use moves later, or the character leaves the document), and one
    whose face uses a character first coded after it; a character coded before it is spliced."""
    out = tmp_path / "out"
    build(tiny_pack, out)
    steps = [("over several lines", "over séveral lines", False),       # é new to the document
             ("over séveral lines", "over several lines", False),       # é's first coder changes: é gone
             ("body: Two faces}", "body: Two fées}", False),            # é new again, gamma codes it
             ("A longer body", "A longér body", False),                 # beta, before gamma, uses é
             ("body: Two fées}", "body: Two féés}", True),              # é coded by beta, before gamma
             ("{title: Gamma,", "{title: Gammé,", False)]               # but never in the bold titles
    for old, new, splices in steps:
        edit(tiny_pack / TEXT, old, new)
        build(tiny_pack, out)
        assert spliced[-1] is splices and pdf(out) == fresh(tiny_pack, tmp_path), new
    assert len(spliced) == 1 + len(steps)


def test_faces_that_become_one_or_two_are_drawn_through_reportlab(tiny_pack, tmp_path, cache_dir, spliced):
    out = tmp_path / "out"
    build(tiny_pack, out)
    edit(tiny_pack / CARDS, "quantity: 3}", "quantity: 2}\n- {id: beta2, kind: plain, title: card.beta.title, "
         "body: card.beta.body, colour: blue, value: 2}")
    build(tiny_pack, out)                                       # the same forms, shown in other places
    assert spliced == [False, False] and pdf(out) == fresh(tiny_pack, tmp_path)
    edit(tiny_pack / CARDS, "quantity: 2}\n- {id: beta2, kind: plain, title: card.beta.title, "
         "body: card.beta.body, colour: blue, value: 2}", "quantity: 3}")
    edit(tiny_pack / CARDS, "body: card.alpha.body, colour: red, value: 1, quantity: 3}",
         "body: card.alpha.body, colour: red, value: 1, quantity: 2}\n"
         "- {id: alpha2, kind: plain, title: card.alpha.title, body: card.alpha.body, colour: red, value: 4}")
    build(tiny_pack, out)                                       # alpha's third copy: a face of its own
    assert spliced[-1] is False and pdf(out) == fresh(tiny_pack, tmp_path)
    edit(tiny_pack / CARDS, "colour: red, value: 4}", "colour: red, value: 1}")     # the same face again
    build(tiny_pack, out)
    assert spliced[-1] is False and pdf(out) == fresh(tiny_pack, tmp_path)


def test_another_option_or_a_touched_output_is_drawn_through_reportlab(tiny_pack, tmp_path, cache_dir, spliced):
    out = tmp_path / "out"
    build(tiny_pack, out)
    edit(tiny_pack / TEXT, "over several lines", "over many lines")
    target = out / "tiny" / "tiny-cards-en-a4.pdf"
    target.write_bytes(target.read_bytes().replace(b"/Creator (pnp)", b"/Creator (pnq)"))
    build(tiny_pack, out)                                       # not the file the layout describes
    assert spliced == [False, False] and pdf(out) == fresh(tiny_pack, tmp_path)
    edit(tiny_pack / TEXT, "over many lines", "over more lines")
    target.unlink()
    build(tiny_pack, out)
    assert spliced[-1] is False and pdf(out) == fresh(tiny_pack, tmp_path)
    edit(tiny_pack / TEXT, "over more lines", "over some lines")
    pipeline.build([str(tiny_pack)], pipeline.BuildOptions(lang="en", out=out, printer_margin_mm=5))
    assert spliced[-1] is False and pdf(out) == fresh(tiny_pack, tmp_path, printer_margin_mm=5)


@pytest.mark.parametrize("damage", ["garbage", "truncate", "types", "sha", "fonts-object", "objects-reversed",
                                    "objects-shifted", "objects-not-a-form", "streams", "streams-line"])
def test_a_damaged_layout_or_streams_file_is_drawn_through_reportlab(tiny_pack, tmp_path, cache_dir, spliced, damage):
    out = tmp_path / "out"
    build(tiny_pack, out)
    [layout] = cache_dir.rglob(f"*{pdfsplice.SUFFIX}")
    text = layout.read_text(encoding="utf-8")
    data = json.loads(text)
    if damage == "garbage":
        layout.write_bytes(b"\xff\x00 not json")
    elif damage == "truncate":
        layout.write_text(text[:len(text) // 2], encoding="utf-8")
    elif damage == "types":
        layout.write_text(json.dumps({**data, "forms": [[1, 2]] * len(data["forms"]), "objects": "x"}),
                          encoding="utf-8")
    elif damage == "sha":
        layout.write_text(json.dumps({**data, "sha": "0" * 64}), encoding="utf-8")
    elif damage == "fonts-object":                              # not the number the scratch document gives it
        layout.write_text(json.dumps({**data, "fonts_object": data["fonts_object"] + 1}), encoding="utf-8")
    elif damage.startswith("objects-"):                        # the forms' object numbers, consistently
        objects = data["objects"]                               # wrong: the sha still holds
        objects = {"objects-reversed": objects[::-1], "objects-shifted": [n + 1 for n in objects],
                   "objects-not-a-form": [data["fonts_object"]] * len(objects)}[damage]
        layout.write_text(json.dumps({**data, "objects": objects}), encoding="utf-8")
    elif damage == "streams":
        [streams] = cache_dir.rglob("*.parts")
        streams.unlink()
    else:                                                       # a page's entry gone: it is drawn again
        [streams] = cache_dir.rglob("*.parts")
        lines = streams.read_text(encoding="utf-8").splitlines(keepends=True)
        streams.write_text("".join(lines[:-1]), encoding="utf-8")
    edit(tiny_pack / TEXT, "over several lines", "over many lines")
    build(tiny_pack, out)
    assert spliced == [False, False] and pdf(out) == fresh(tiny_pack, tmp_path)
    [streams] = cache_dir.rglob("*.parts")
    assert len(streams.read_text(encoding="utf-8").splitlines()) == 1 + 7     # every form and page again
    edit(tiny_pack / TEXT, "over many lines", "over more lines")
    build(tiny_pack, out)                                       # the layout written again: spliced
    assert spliced[-1] is True and pdf(out) == fresh(tiny_pack, tmp_path)


def test_random_edits_of_a_bigger_pack_give_a_fresh_builds_bytes(tmp_path, cache_dir, spliced):
    """Forty cards, a run of edits of every kind (a word, several cards, a letter new to the
    document, an edit undone, a card added and removed): after each, the PDF spliced or drawn is
    the PDF a build without the cache writes; most are spliced."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        from bench_build import make_pack, write_cards
    finally:
        sys.path.remove(str(REPO / "benchmarks"))
    pack = make_pack(tmp_path / "p" / "poker", 40)
    out = tmp_path / "out"
    cards = pack / "cards" / "d0.yaml"
    build(pack, out)
    rng = random.Random(7)
    for step in range(12):
        text = cards.read_text(encoding="utf-8")
        kind = step % 6
        if kind == 0:
            write_cards(pack, 40, changed=rng.randrange(40))
        elif kind == 1:
            lines = text.splitlines(keepends=True)
            for i in rng.sample(range(len(lines)), 3):
                lines[i] = lines[i].replace("move", "moved", 1)
            cards.write_text("".join(lines), encoding="utf-8")
        elif kind == 2:
            cards.write_text(text.replace("draw", "drâw", 1), encoding="utf-8")
        elif kind == 3:
            cards.write_text(text.replace("drâw", "draw"), encoding="utf-8")
        elif kind == 4:
            cards.write_text(text + text.splitlines(keepends=True)[0].replace("id: ", "id: extra"), encoding="utf-8")
        else:
            write_cards(pack, 40)
        build(pack, out)
        assert pdf(out, "poker") == fresh(pack, tmp_path), f"step {step}"
    assert sum(spliced) >= 4, spliced


def test_splice_moves_the_objects_after_a_replaced_one_and_writes_the_table_again():
    def document(word: str) -> bytes:
        target = io.BytesIO()
        canvas = Canvas(target, invariant=1, pageCompression=1)
        for n, text in enumerate(["first", word, "third"]):
            canvas.beginForm(f"f{n}")
            canvas.drawString(10, 10, text)
            canvas.endForm()
        for n in range(3):
            canvas.doForm(f"f{n}")
            canvas.showPage()
        canvas.save()
        return target.getvalue()

    old, new = document("second"), document("a much longer second form")
    xref_old, xref_new = pdfsplice._Xref.read(old), pdfsplice._Xref.read(new)
    assert xref_old is not None and xref_new is not None and len(xref_old.offsets) == len(xref_new.offsets)
    changed = [n for n in range(1, len(xref_old.offsets) + 1)
               if old[slice(*xref_old.span(n))] != new[slice(*xref_new.span(n))]]
    assert len(changed) == 1
    [number] = changed
    assert pdfsplice.splice(old, {number: new[slice(*xref_new.span(number))]}) == new
    assert pdfsplice.splice(old, {}) == old
    assert pdfsplice.splice(old, {len(xref_old.offsets) + 1: b""}) is None
    assert pdfsplice._Xref.read(old.replace(b"startxref", b"startxrex")) is None
    assert pdfsplice._Xref.read(old[:-1]) is None


def test_faces_with_their_own_resources_are_spliced_too(tiny_pack, tmp_path, cache_dir, spliced):
    """A face drawn with transparency names its graphics states in resources of its own (the
    streams file keeps no such form: a rebuild draws it every time); spliced, its object is
    formatted in the scratch document, naming only the document's font dictionary."""
    edit(tiny_pack / "templates/tiny/front.svg.j2", 'rx="2" fill="{{ palette.paper }}"/>',
         'rx="2" fill="{{ palette.paper }}" fill-opacity="0.8"/>')
    out = tmp_path / "out"
    build(tiny_pack, out)
    assert b"/ExtGState" in pdf(out)
    edit(tiny_pack / TEXT, "over several lines", "over many lines")
    again = build(tiny_pack, out)
    assert spliced == [False, True] and pdf(out) == fresh(tiny_pack, tmp_path)
    assert again.reused == 4                     # the 3 fronts are not kept: the back, its second face, 2 pages
    assert streams_keys(cache_dir) == streams_keys(tmp_path / "other" / "faces", lambda: build(tiny_pack, tmp_path / "o2"))
    (out / "tiny" / "tiny-cards-en-a4.pdf").unlink()
    build(tiny_pack, out)                        # drawn, with the streams the splice left
    assert spliced[-1] is False and pdf(out) == fresh(tiny_pack, tmp_path)


def streams_keys(faces: Path, build_first=None) -> list[str]:
    """The keys of the streams file in the face cache `faces` (after `build_first()` with the face
    cache there, when given)."""
    if build_first is not None:
        import os
        saved = os.environ["PNP_CACHE_DIR"]
        os.environ["PNP_CACHE_DIR"] = str(faces.parent)
        try:
            build_first()
        finally:
            os.environ["PNP_CACHE_DIR"] = saved
    [streams] = faces.rglob("*.parts")
    return sorted(line.split(" ", 1)[0] for line in streams.read_text(encoding="utf-8").splitlines()[1:])


def test_a_face_that_loses_its_own_resources_gets_its_streams_entry(tiny_pack, tmp_path, cache_dir, spliced):
    """Beta's front has transparency (resources of its own: no streams entry); its new drawing has
    none: spliced, and the streams file gets the entry a rebuild drawing it would write."""
    edit(tiny_pack / "templates/tiny/front.svg.j2", 'rx="2" fill="{{ palette.paper }}"/>',
         'rx="2" fill="{{ palette.paper }}"{% if card.value == 2 %} fill-opacity="0.8"{% endif %}/>')
    out = tmp_path / "out"
    build(tiny_pack, out)
    edit(tiny_pack / CARDS, "colour: blue, value: 2}", "colour: blue, value: 5}")
    build(tiny_pack, out)
    assert spliced == [False, True] and pdf(out) == fresh(tiny_pack, tmp_path)
    assert streams_keys(cache_dir) == streams_keys(tmp_path / "other" / "faces", lambda: build(tiny_pack, tmp_path / "o2"))


def test_fonts_registered_by_other_documents_do_not_stop_the_splice(tiny_pack, tmp_path, cache_dir, spliced,
                                                                   monkeypatch):
    """A process registers fonts as it first draws with them, so a rebuild's process (a new `pnp
    build`, which may splice every document and draw none) has other fonts registered than the
    last build's had; only the document's own fonts matter to its bytes."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    from pnp.text.fonts import font_path, register

    out = tmp_path / "out"
    build(tiny_pack, out)
    extra = TTFont("PnpTestOtherDocument", str(font_path(register("regular"))))
    monkeypatch.setitem(pdfmetrics._fonts, extra.fontName, extra)                  # noqa: SLF001
    edit(tiny_pack / TEXT, "over several lines", "over many lines")
    build(tiny_pack, out)
    assert spliced == [False, True] and pdf(out) == fresh(tiny_pack, tmp_path)
