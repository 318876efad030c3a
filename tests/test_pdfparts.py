"""Reused PDF streams (pnp/sheets/pdfparts.py) and the build's flat memory (packed faces, the PDF
written as it is formatted): a rebuild writes the unchanged forms and pages from the cache, and
its PDF is byte for byte the PDF of a build without the cache, even when a changed card gives
the other faces' characters other codes in the font subsets."""
from __future__ import annotations

import json
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest
import test_facecache as shared

from pnp import build as pipeline
from pnp.keptparses import KeptParses
from pnp.render.facedata import PackedFace
from pnp.render.svgcanvas import CompiledFace
from pnp.sheets import pdfparts
from pnp.sheets.pdfcommon import new_canvas, save_streamed

build, edit = shared.build, shared.edit
cache_dir = shared.cache_dir          # the fixture: an empty face cache for the test


def entries(path: Path) -> dict[str, dict]:
    return {key: json.loads(text) for key, text in pdfparts.read_entries(path).items()}


def cards_pdf(out: Path) -> bytes:
    return (out / "tiny" / "tiny-cards-en-a4.pdf").read_bytes()


def test_an_unchanged_build_writes_every_stream_from_the_cache(tiny_pack, tmp_path, cache_dir):
    first = build(tiny_pack, tmp_path / "first")
    assert first.reused == 0
    again = build(tiny_pack, tmp_path / "again")
    # tiny: alpha's, beta's and gamma's fronts, gamma's second face, the deck back: 5 forms; 1 sheet, 2 pages
    assert again.reused == 7
    assert cards_pdf(tmp_path / "again") == cards_pdf(tmp_path / "first")


def test_a_changed_card_redraws_its_form_only(tiny_pack, tmp_path, cache_dir):
    build(tiny_pack, tmp_path / "first")
    edit(tiny_pack / "cards/main.yaml", "colour: blue, value: 2}", "colour: blue, value: 3}")       # beta's value
    rebuilt = build(tiny_pack, tmp_path / "rebuilt")
    assert rebuilt.drawn == ["beta:front", "beta:back"] and rebuilt.reused == 6       # the pages too: same form names
    build(tiny_pack, tmp_path / "fresh", cache=False)
    assert cards_pdf(tmp_path / "rebuilt") == cards_pdf(tmp_path / "fresh")


def test_a_new_character_early_in_the_document_renumbers_the_later_streams(tiny_pack, tmp_path, cache_dir):
    """ReportLab gives ASCII characters their own codes and the others the next free one, in order
    of first use. alpha is drawn first: a new "§" on it takes the code beta's "¤" had, which moves
    up one. beta's drawing is unchanged (read from the face cache) but its stored stream no
    longer holds: its font calls answer otherwise, so it is drawn again."""
    edit(tiny_pack / "text" / "en.yaml", "beta: {title: Beta,", "beta: {title: Beta ¤,")
    build(tiny_pack, tmp_path / "first")
    edit(tiny_pack / "text" / "en.yaml", "alpha: {title: Alpha,", "alpha: {title: Alpha §,")
    rebuilt = build(tiny_pack, tmp_path / "rebuilt")
    assert [face for face in rebuilt.drawn if not face.startswith("alpha")] == []     # beta: from the face cache
    assert rebuilt.reused < 6                                                           # beta's form: drawn
    build(tiny_pack, tmp_path / "fresh", cache=False)
    assert cards_pdf(tmp_path / "rebuilt") == cards_pdf(tmp_path / "fresh")


@pytest.mark.parametrize("damage", ["stream", "calls", "garbage"])
def test_a_damaged_parts_file_is_drawn_again_not_copied(tiny_pack, tmp_path, cache_dir, damage):
    build(tiny_pack, tmp_path / "first")
    files = list(cache_dir.rglob(f"*{pdfparts.SUFFIX}"))
    assert len(files) == 1
    data = entries(files[0])
    for entry in data.values():
        if damage == "stream":
            entry["stream"] = entry["stream"][:-8] + "zzzzzzzz"           # the hash no longer matches
        elif damage == "calls":
            entry["fonts"] = [["NoSuchFont", "x", "x"]]
    pdfparts.write_entries(files[0], data)
    if damage == "garbage":
        files[0].write_text(files[0].read_text().replace('"stream"', '{not json'), encoding="utf-8")
    rebuilt = build(tiny_pack, tmp_path / "rebuilt")
    assert rebuilt.reused == 0
    assert cards_pdf(tmp_path / "rebuilt") == cards_pdf(tmp_path / "first")
    assert build(tiny_pack, tmp_path / "again").reused == 7                           # rewritten


def test_the_build_keeps_faces_packed_and_they_unpack_to_the_drawing(tiny_pack):
    pack = pipeline.load_pack(str(tiny_pack))
    packed, _ = pipeline.render_faces(pack, "en", keep_svg=False, packed=True)
    plain, _ = pipeline.render_faces(pack, "en", keep_svg=False)
    for (_card, front, back), (_c, plain_front, plain_back) in zip(packed.cards, plain.cards, strict=True):
        for face, reference in ((front, plain_front), (back, plain_back)):
            assert isinstance(face.drawing, PackedFace) and isinstance(reference.drawing, CompiledFace)
            assert (face.drawing.width, face.drawing.height) == (reference.drawing.width, reference.drawing.height)
            assert face.drawing.unpack() == reference.drawing
            assert len(face.drawing.packed) < 2000 and face.boxes == ()


def test_a_streamed_save_writes_what_canvas_save_writes(tmp_path):
    def draw(path: Path):
        canvas = new_canvas(str(path), title="t", subject="s", author="", lang="en", duplex="Simplex")
        for page in range(3):
            canvas.setFont(canvas._fontname, 12)
            canvas.drawString(72, 72, f"page {page} ÄÖÜ")
            canvas.rect(10, 10, 100 + page, 50, fill=1)
            canvas.showPage()
        return canvas

    draw(tmp_path / "plain.pdf").save()
    save_streamed(draw(tmp_path / "streamed.pdf"))
    assert (tmp_path / "streamed.pdf").read_bytes() == (tmp_path / "plain.pdf").read_bytes()
    draw(tmp_path / "after.pdf").save()                   # a usual save afterwards still collects as before
    assert (tmp_path / "after.pdf").read_bytes() == (tmp_path / "plain.pdf").read_bytes()


def _plain(value, depth: int = 0):
    """`value` as comparable data: an object as its class and attributes (ReportLab's objects
    compare by identity), to a few levels."""
    if isinstance(value, (list, tuple)):
        return [_plain(v, depth) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v, depth) for k, v in value.items()}
    if hasattr(value, "__dict__") and not callable(value) and depth < 4:
        return (type(value).__name__, {k: _plain(v, depth + 1) for k, v in vars(value).items() if k != "_doc"})
    return value if isinstance(value, (str, bytes, int, float, type(None))) else type(value).__name__


@pytest.mark.parametrize("pending", ["", "page", "code", "form in use", "forms listed", "postscript"])
def test_an_empty_form_is_added_as_begin_and_end_form_add_it(tmp_path, pending):
    """pdfparts.add_empty_form (a reused form's object, without beginForm/endForm's graphics
    state) leaves the document and the canvas as those calls do: the form's attributes, the
    objects' numbers, every canvas attribute; and with something pending on the canvas (page
    code, a form in use: left to those calls), too."""
    from reportlab.lib.colors import CMYKColorSep

    def canvas_with(add):
        canvas = new_canvas(str(tmp_path / "x.pdf"), title="t", subject="s", author="", lang="en", duplex="Simplex")
        if pending == "page":                          # forms defined between pages, as the cards PDF does
            canvas.drawString(72, 72, "page 1")
            canvas.showPage()
        elif pending == "code":
            canvas.rect(10, 10, 20, 20, fill=1)
        elif pending == "form in use":
            canvas.beginForm("first", 0, 0, 10, 10)
            canvas.endForm()
            canvas.doForm("first")
        elif pending == "forms listed":                # as PdfParts.page lists a kept page's forms
            canvas.beginForm("first", 0, 0, 10, 10)
            canvas.endForm()
            canvas._formsinuse = ["first"]
        elif pending == "postscript":                  # after the page's stream: endForm drops it
            canvas.addPostScriptCommand("% after", 2)
        for n, size in enumerate([(200.5, 300.25), (63, 88)]):
            add(canvas, f"pnpface{n}", *size)
        canvas.setFillColor(CMYKColorSep(0, 0, 1, 0, spotName="Yellow"))    # the page's colours, not the forms'
        canvas.rect(10, 10, 20, 20, fill=1)
        canvas.drawString(72, 72, "after")
        return canvas

    def begin_end(canvas, name, width, height):
        canvas.beginForm(name, 0, 0, width, height)
        canvas.endForm()

    ours, reportlab = canvas_with(pdfparts.add_empty_form), canvas_with(begin_end)
    for name in ("pnpface0", "pnpface1"):
        assert _plain(ours._doc.idToObject[f"FormXob.{name}"]) == _plain(reportlab._doc.idToObject[f"FormXob.{name}"])
    assert _plain(vars(ours)) == _plain(vars(reportlab))
    for attribute in ("numberToId", "idToObjectNumberAndVersion", "inObject", "objectcounter"):
        assert getattr(ours._doc, attribute) == getattr(reportlab._doc, attribute)
    save_streamed(ours)
    ours_bytes = (tmp_path / "x.pdf").read_bytes()
    save_streamed(reportlab)
    assert ours_bytes == (tmp_path / "x.pdf").read_bytes()


def test_a_build_that_fails_writing_the_pdf_leaves_the_streams_file_as_it_was(tiny_pack, tmp_path, cache_dir,
                                                                              monkeypatch):
    from pnp.sheets import pdfwriter

    build(tiny_pack, tmp_path / "first")
    [kept] = cache_dir.rglob(f"*{pdfparts.SUFFIX}")
    before = kept.read_bytes()
    edit(tiny_pack / "cards/main.yaml", "colour: blue, value: 2}", "colour: blue, value: 3}")   # a stream to keep

    def failing(canvas):
        raise RuntimeError("disk gone")

    monkeypatch.setattr(pdfwriter, "save_streamed", failing)
    with pytest.raises(RuntimeError, match="disk gone"):
        build(tiny_pack, tmp_path / "second")
    assert kept.read_bytes() == before
    assert [p.name for p in cache_dir.rglob("*.tmp")] == []


def test_a_font_registered_under_two_names_is_recorded_once(tiny_pack, tmp_path, cache_dir):
    from reportlab.pdfbase import pdfmetrics

    from pnp.text import fonts

    regular = pdfmetrics.getFont(fonts.register("regular"))
    pdfmetrics._fonts["PnpSans-Regular-alias"] = regular            # as ReportLab's own aliases do
    try:
        build(tiny_pack, tmp_path / "first")
        again = build(tiny_pack, tmp_path / "again")
    finally:
        del pdfmetrics._fonts["PnpSans-Regular-alias"]
    assert again.reused == 7
    assert "splitString" not in vars(regular)                       # the class's method again
    assert cards_pdf(tmp_path / "again") == cards_pdf(tmp_path / "first")


def test_a_stream_keeps_each_character_and_subset_name_once(tiny_pack, tmp_path, cache_dir):
    """What a reused stream replays (pdfparts._fonts_of): a font's characters get their codes in
    order of first use, so splitting each character once, in that order, leaves the subsets as
    drawing did, and asking each subset's name once names it as drawing did. The tiny sheets
    print their words many times over; the entries must hold none twice, each with its code."""
    build(tiny_pack, tmp_path / "first")
    split = 0
    for entry in entries(next(cache_dir.rglob(f"*{pdfparts.SUFFIX}"))).values():
        fonts = [font for font, _text, _codes in entry["fonts"]]
        assert len(fonts) == len(set(fonts)), fonts
        for _font, text, codes in entry["fonts"]:
            assert len(text) == len(set(text)) == len(codes), text
            assert isinstance(codes, str) and "\0" not in codes, codes
            split += 1
        names = [(font, subset) for font, subset, _answer in entry["names"]]
        assert len(names) == len(set(names)), names
    assert split >= 7                                    # every stream of the tiny PDF prints text
    again = build(tiny_pack, tmp_path / "again")
    assert again.reused == 7 and cards_pdf(tmp_path / "again") == cards_pdf(tmp_path / "first")


def test_an_entry_whose_codes_do_not_hold_leaves_the_fonts_as_they_were(tiny_pack, tmp_path, cache_dir):
    """An entry claiming characters the stream does not print (and codes they would not get) is
    not reused, and the characters it split while checking are taken back: the subsets, and so
    every later stream and the embedded fonts, are those of a build without the cache."""
    build(tiny_pack, tmp_path / "first")
    [kept] = cache_dir.rglob(f"*{pdfparts.SUFFIX}")
    data = entries(kept)
    for entry in data.values():
        for font in entry["fonts"]:
            font[1] += "QZXJ§¤"                                     # new to the document: coded while checking
            font[2] += "\x01" * 6                                   # but not these codes
    pdfparts.write_entries(kept, data)
    rebuilt = build(tiny_pack, tmp_path / "rebuilt")
    assert rebuilt.reused == 0
    assert cards_pdf(tmp_path / "rebuilt") == cards_pdf(tmp_path / "first")


def test_quick_formatting_writes_the_bytes_reportlab_writes(tiny_pack, tmp_path, monkeypatch):
    """pnp.sheets.pdfformat answers pdfdoc.format and PDFName from tables while a cards PDF is
    saved: the PDF must be ReportLab's own, byte for byte, and ReportLab's functions back after."""
    import contextlib

    from reportlab.pdfbase import pdfdoc

    from pnp.sheets import pdfformat

    format_, name, quick = pdfdoc.format, pdfdoc.PDFName, pdfformat.quick_format
    build(tiny_pack, tmp_path / "quick", cache=False)
    assert (pdfdoc.format, pdfdoc.PDFName) == (format_, name)
    monkeypatch.setattr(pdfformat, "quick_format", contextlib.nullcontext)
    build(tiny_pack, tmp_path / "plain", cache=False)
    assert cards_pdf(tmp_path / "quick") == cards_pdf(tmp_path / "plain")
    with quick():                                             # (the module's is the plain one now)
        assert pdfdoc.format is not format_
        assert pdfdoc.format(1.5, None) == b"1.5" and pdfdoc.format(-0.0, None) == b"0"
        assert pdfdoc.PDFName("Form Xob#1") == "/Form#20Xob#231" == name("Form Xob#1")
        document = pdfdoc.PDFDocument()
        document.Reference(pdfdoc.PDFArray([1]), "thing")
        for _ in range(2):                                    # (a reference's number: looked up each time)
            assert pdfdoc.format(pdfdoc.PDFObjectReference("thing"), document) == b"%d 0 R" % document.objectcounter
        with pytest.raises(KeyError, match="forward reference"):          # not numbered: ReportLab's error
            pdfdoc.format(pdfdoc.PDFObjectReference("nothing"), document)


def test_a_rebuild_in_the_same_process_reads_its_entries_without_decoding_them(tiny_pack, tmp_path, cache_dir,
                                                                                 monkeypatch):
    """pdfparts.KEPT keeps each entry by its key with its line's text: the next build in the
    process (pnp build --watch) decodes and checks none of the lines the first build made or a
    later one read or made, and the PDF is the same. A line whose text changed is read afresh
    (the damaged-file tests)."""
    monkeypatch.setattr(pdfparts, "KEPT", KeptParses(pdfparts._entry, limit=pdfparts.KEPT.limit))   # none kept before
    encoded: list[str] = []
    decode = [json.loads]

    def decoding(text, *args, **kwargs):
        return decode[0](text, *args, **kwargs)

    def no_decoding(text, *args, **kwargs):
        raise AssertionError("decoded again")

    def entry_encoded(value, *args, **kwargs):                # (the code digest is JSON too)
        if not kwargs.get("ensure_ascii", True):
            encoded.append(value["stream"][:8])
        return json.dumps(value, *args, **kwargs)

    monkeypatch.setattr(pdfparts, "json", SimpleNamespace(loads=decoding, dumps=entry_encoded))
    first = build(tiny_pack, tmp_path / "first")
    assert first.reused == 0 and len(encoded) == 7 and len(pdfparts.KEPT.keys()) == 7
    decode[0] = no_decoding
    second = build(tiny_pack, tmp_path / "second")            # what the first build made: kept
    assert second.reused == 7 and len(encoded) == 7 and len(pdfparts.KEPT.keys()) == 7
    edit(tiny_pack / "cards/main.yaml", "colour: blue, value: 2}", "colour: blue, value: 3}")
    third = build(tiny_pack, tmp_path / "third")              # beta's stream made again (and kept)
    assert third.reused == 6 and len(encoded) == 8
    fourth = build(tiny_pack, tmp_path / "fourth")
    assert fourth.reused == 7 and len(encoded) == 8
    build(tiny_pack, tmp_path / "fresh", cache=False)
    assert cards_pdf(tmp_path / "fourth") == cards_pdf(tmp_path / "fresh") == cards_pdf(tmp_path / "third")


def test_a_first_build_keeps_what_it_makes_up_to_its_allowance(tiny_pack, tmp_path, cache_dir, monkeypatch):
    """A build that read no streams file keeps at most FIRST_BUILD_KEPT characters of the
    entries it makes (a one-off build of 10,000 cards would otherwise hold ~12 MB more at its
    peak), the first ones; the next build decodes the rest, then keeps them (a rebuild keeps all)."""
    monkeypatch.setattr(pdfparts, "KEPT", KeptParses(pdfparts._entry, limit=pdfparts.KEPT.limit))
    decoded: list[str] = []
    monkeypatch.setattr(pdfparts, "json", SimpleNamespace(loads=lambda text: decoded.append(text) or json.loads(text),
                                                          dumps=json.dumps))
    build(tiny_pack, tmp_path / "probe")                      # the entries' sizes, in the order made
    kept = pdfparts.KEPT.keys()
    assert len(kept) == 7
    lines = dict(line.split(" ", 1) for line in next(cache_dir.rglob(f"*{pdfparts.SUFFIX}")).read_text(
        encoding="utf-8").splitlines()[1:])
    sizes = [len(lines[key]) for key in kept]
    monkeypatch.setattr(pdfparts, "KEPT", KeptParses(pdfparts._entry, limit=pdfparts.KEPT.limit))
    monkeypatch.setattr(pdfparts, "FIRST_BUILD_KEPT", sum(sizes[:3]))
    shutil.rmtree(cache_dir)
    build(tiny_pack, tmp_path / "first")
    assert pdfparts.KEPT.keys() == kept[:3] and pdfparts.KEPT.size == sum(sizes[:3])
    decoded.clear()
    second = build(tiny_pack, tmp_path / "second")
    assert second.reused == 7 and len(decoded) == 4 and pdfparts.KEPT.keys() == kept
    decoded.clear()
    build(tiny_pack, tmp_path / "third")
    assert decoded == []
    assert cards_pdf(tmp_path / "third") == cards_pdf(tmp_path / "first") == cards_pdf(tmp_path / "probe")


def test_an_entry_line_that_does_not_read_is_no_entry():
    stream = "Gat%b9lC"
    good = {"stream": stream, "sha": pdfparts._sha(stream), "filters": ["ASCII85Decode", "FlateDecode"]}
    assert pdfparts._entry(json.dumps(good)) == good
    for bad in ({**good, "sha": pdfparts._sha("other")}, {**good, "filters": [1]}, {**good, "stream": 3}):
        assert pdfparts._entry(json.dumps(bad)) is None
    assert pdfparts._entry("{not json") is None and pdfparts._entry("[1]") is None
