"""Tuck boxes (pnp.tuckbox): panel sizes from the deck's size and thickness, folds that meet, the
net inside the printable area on A4 and Letter, big decks split or refused, names in the PDF,
the same bytes every time."""
from __future__ import annotations

import dataclasses
import math

import pypdfium2 as pdfium
import pytest
import test_facecache as shared
from pdftext import pdf_pages

from pnp import print_constants as pc
from pnp.errors import DataError
from pnp.pack import load_pack
from pnp.scaffold.cli import write_pack
from pnp.tuckbox import (
    DEPTH_PLAY_MM,
    HOME_CARD_THICKNESS_MM,
    MIN_DEPTH_MM,
    PLAY_MM,
    TUCKBOX_TOO_LARGE,
    plan_tuckboxes,
    write_tuckboxes_pdf,
)
from pnp.tuckbox.draw import band_rect
from pnp.tuckbox.geometry import BoxSize, Piece, net
from pnp.tuckbox.pages import PRINTER_MARGIN_MM
from pnp.units import mm

POKER = (63.0, 88.0)
cache_dir = shared.cache_dir          # the fixture: an empty face cache for the test
build, edit = shared.build, shared.edit
TAROT = (70.0, 120.0)


@pytest.fixture(scope="module")
def zombie_run():
    return load_pack("zombie-run")


@pytest.fixture(scope="module")
def cimiterio():
    return load_pack("cimiterio")


def with_deck(pack, cards: int | None = None, size_mm: tuple[float, float] | None = None):
    """A copy of `pack` whose first deck holds `cards` cards (copies of its own) of `size_mm`."""
    deck = pack.decks[0]
    changes: dict = {}
    if cards is not None:
        changes["cards"] = [deck.cards[i % len(deck.cards)] for i in range(cards)]
    if size_mm is not None:
        changes["size_pt"] = (mm(size_mm[0]), mm(size_mm[1]))
    return dataclasses.replace(pack, decks=[dataclasses.replace(deck, **changes)])


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, abs_tol=1e-6)


# ---- sizes

def test_panels_are_the_card_plus_play_and_the_depth_is_the_stack_plus_play(zombie_run, tmp_path):
    nets = write_tuckboxes_pdf(zombie_run, "en", tmp_path / "box.pdf")
    assert [n.deck for n in nets] == ["main"]          # one deck: no separate game box
    (box,) = nets
    panels = box.panels
    depth = 63 * HOME_CARD_THICKNESS_MM + DEPTH_PLAY_MM
    assert close(depth, 20.4)
    for name in ("front", "back"):
        assert close(panels[name][2], POKER[0] + PLAY_MM) and close(panels[name][3], POKER[1] + PLAY_MM), name
    for name in ("side-left", "side-right"):
        assert close(panels[name][2], depth) and close(panels[name][3], POKER[1] + PLAY_MM), name
    for name in ("lid", "bottom"):
        assert close(panels[name][2], POKER[0] + PLAY_MM) and close(panels[name][3], depth), name


def test_the_depth_follows_the_stock_thickness(zombie_run):
    (box,) = plan_tuckboxes(zombie_run, "en", card_thickness_mm=0.35).nets
    assert close(box.depth, 63 * 0.35 + DEPTH_PLAY_MM)
    assert close(box.panels["side-left"][2], 63 * 0.35 + DEPTH_PLAY_MM)


def test_a_thin_deck_gets_a_box_deep_enough_to_fold(cimiterio):
    boxes = {n.deck: n for n in plan_tuckboxes(cimiterio, "it").nets}
    assert boxes["gate"].size.cards == 1
    assert close(boxes["gate"].depth, MIN_DEPTH_MM)
    assert close(boxes["tombs"].depth, 35 * HOME_CARD_THICKNESS_MM + DEPTH_PLAY_MM)


def test_the_whole_game_has_a_box_for_every_card(cimiterio):
    plan = plan_tuckboxes(cimiterio, "it")
    game = [n for n in plan.nets if n.deck is None]
    assert len(game) == 1 and game[0].size.cards == sum(len(d.cards) for d in cimiterio.decks) == 95
    assert close(game[0].depth, 95 * HOME_CARD_THICKNESS_MM + DEPTH_PLAY_MM)
    assert game[0].name == "Cimiterio"
    assert not plan.problems
    assert [n.deck for n in plan_tuckboxes(cimiterio, "it", game_box=False).nets] == [
        "gate", "tombs", "zombies", "actions", "events"]


@pytest.mark.parametrize("size", [POKER, TAROT, (44.0, 68.0)])
def test_folds_join_edges_of_the_same_length(size):
    """Every fold is a whole edge of both parts it joins; the panels around the box agree."""
    piece = net(BoxSize(54, *size, HOME_CARD_THICKNESS_MM))
    by_name = {part.name: part for part in piece.parts}
    for fold in piece.folds:
        for name in (fold.a, fold.b):
            outline = by_name[name].outline
            edges = {frozenset((outline[i], outline[(i + 1) % len(outline)])) for i in range(len(outline))}
            assert frozenset((fold.start, fold.end)) in edges, (fold, name)
    rect = {name: part.rect for name, part in by_name.items()}
    w, h = size[0] + PLAY_MM, size[1] + PLAY_MM
    d = 54 * HOME_CARD_THICKNESS_MM + DEPTH_PLAY_MM
    x = 0.0
    for name, width in (("back", w), ("side-left", d), ("front", w), ("side-right", d)):
        px, py, pw, ph = rect[name]
        assert close(px, x) and close(pw, width) and close(ph, h), name     # side by side, all H tall
        x += width
    assert close(rect["glue-tab"][0], x) and close(rect["glue-tab"][3], h)
    assert close(rect["lid"][1] + rect["lid"][3], rect["back"][1]) and close(rect["lid"][2], rect["back"][2])
    assert close(rect["tongue"][1] + rect["tongue"][3], rect["lid"][1])
    assert close(rect["bottom"][1], rect["front"][1] + h) and close(rect["bottom"][0], rect["front"][0])
    for side in ("side-left", "side-right"):
        for end in ("top", "bottom"):
            assert close(rect[f"{side}-dust-{end}"][2], d)
    # a side's four edges are all folds (nothing cuts it); the back's free edges are cut
    for side in ("side-left", "side-right"):
        assert Piece("side", (by_name[side],), piece.folds).cut_runs() == []
    assert len(Piece("back", (by_name["back"],), piece.folds).cut_runs()) == 1


# ---- the paper

def inside_margin(plan, margin: float) -> None:
    pages = {page.number: page for page in plan.pages}
    for box in plan.nets:
        for number, (x, y, w, h) in box.page_bounds():
            page = pages[number]
            assert x >= margin - 1e-6 and y >= margin - 1e-6, (box.deck, number)
            assert x + w <= page.width - margin + 1e-6 and y + h <= page.height - margin + 1e-6, (box.deck, number)


@pytest.mark.parametrize("paper", pc.PAPERS)
def test_every_net_fits_inside_the_printer_margin(cimiterio, zombie_run, paper):
    for pack in (cimiterio, zombie_run):
        plan = plan_tuckboxes(pack, pack.languages[0], paper)
        assert not plan.problems
        inside_margin(plan, PRINTER_MARGIN_MM)
    wide = plan_tuckboxes(cimiterio, "it", paper, margin_mm=12.0)
    inside_margin(wide, 12.0)


def test_nothing_is_printed_in_the_dead_zone(cimiterio, tmp_path):
    """Rendered pages are white within 6.35 mm of every paper edge."""
    path = tmp_path / "box.pdf"
    write_tuckboxes_pdf(cimiterio, "it", path, "letter")
    pdf = pdfium.PdfDocument(str(path))
    try:
        for index in range(len(pdf)):
            scale = 4                                      # 288 dpi: one pixel is 0.09 mm
            image = pdf[index].render(scale=scale).to_pil().convert("L")
            px_per_mm = scale * 72 / 25.4
            edge = math.floor(PRINTER_MARGIN_MM * px_per_mm) - 1
            w, h = image.size
            strips = [(0, 0, w, edge), (0, h - edge, w, h), (0, 0, edge, h), (w - edge, 0, w, h)]
            assert all(image.crop(box).getextrema()[0] == 255 for box in strips), index
            inner = image.crop((edge + 2, edge + 2, w - edge - 2, h - edge - 2)).getextrema()
            assert inner[0] < 100                          # and the page is not blank
    finally:
        pdf.close()


def test_a_wide_net_turns_the_page(cimiterio):
    """The 95-card game box (30 mm deep) is 198 mm wide: too wide for A4 portrait (197.3 mm
    inside the margins), so its page is landscape; Letter portrait holds it."""
    for paper, landscape in (("a4", True), ("letter", False)):
        plan = plan_tuckboxes(cimiterio, "it", paper)
        (game,) = [n for n in plan.nets if n.deck is None]
        (placed,) = game.placements
        assert plan.pages[placed.page].landscape is landscape, paper
        assert len(game.pieces) == 1


def test_a_200_card_deck_is_split_in_two_glued_pieces(zombie_run, tmp_path):
    big = with_deck(zombie_run, cards=200)
    for paper in pc.PAPERS:
        plan = plan_tuckboxes(big, "en", paper)
        assert not plan.problems
        (box,) = plan.nets
        assert close(box.depth, 200 * HOME_CARD_THICKNESS_MM + DEPTH_PLAY_MM)
        assert [p.name for p in box.pieces] == ["A", "B"]
        a, b = box.pieces
        assert {part.name for part in a.parts} >= {"back", "side-left", "lid", "join-tab"}
        assert {part.name for part in b.parts} >= {"front", "side-right", "bottom", "glue-tab"}
        join = a.part("join-tab").rect
        assert close(join[3], box.height)                  # glued along the front's whole edge
        assert close(box.panels["side-left"][2], box.depth)
        inside_margin(plan, PRINTER_MARGIN_MM)
    path = tmp_path / "big.pdf"
    write_tuckboxes_pdf(big, "en", path)
    assert path.stat().st_size > 0


def test_a_deck_too_big_even_in_two_pieces_is_one_problem_and_no_file(zombie_run, tmp_path):
    huge = with_deck(zombie_run, cards=900)
    path = tmp_path / "huge.pdf"
    with pytest.raises(DataError) as raised:
        write_tuckboxes_pdf(huge, "en", path)
    error = raised.value
    assert error.exit_code == 2
    (problem,) = error.problems
    assert problem.code == TUCKBOX_TOO_LARGE
    assert problem.file.endswith("pack.yaml") and problem.line > 0 and problem.key == "decks[0].cards"
    assert problem.get("deck") == "main" and problem.get("cards") == 900 and problem.get("paper") == "a4"
    assert "'main'" in problem.message and "900 cards" in problem.message
    assert not path.exists() and list(tmp_path.iterdir()) == []


def test_a_non_poker_deck(zombie_run, tmp_path):
    tarot = with_deck(zombie_run, cards=78, size_mm=TAROT)
    path = tmp_path / "tarot.pdf"
    (box,) = write_tuckboxes_pdf(tarot, "en", path, "letter")
    assert close(box.panels["front"][2], 71.0) and close(box.panels["front"][3], 121.0)
    assert close(box.depth, 78 * HOME_CARD_THICKNESS_MM + DEPTH_PLAY_MM)
    assert "64.0 × 89.0" not in pdf_pages(path)[0] and "71.0 × 121.0 × 24.9 mm" in pdf_pages(path)[0]


# ---- the PDF

def text_in(path, page: int, rect) -> str:
    """The text a PDF page prints inside `rect` (mm from the page's top-left)."""
    pdf = pdfium.PdfDocument(str(path))
    try:
        height = pdf[page].get_height()
        x, y, w, h = (mm(v) for v in rect)
        return pdf[page].get_textpage().get_text_bounded(x, height - y - h, x + w, height - y)
    finally:
        pdf.close()


def test_each_front_carries_its_name_in_every_language(cimiterio, tmp_path):
    """The deck's (or the game's) name in the build language, Arabic included, on the front."""
    for lang in cimiterio.languages:
        path = tmp_path / f"box-{lang}.pdf"
        nets = write_tuckboxes_pdf(cimiterio, lang, path)
        for box in nets:
            key = cimiterio.decks[[d.id for d in cimiterio.decks].index(box.deck)].name if box.deck else cimiterio.name
            assert box.name == cimiterio.texts[lang][key]
            (page, front), = [(page, rect) for page, name, rect in box.page_parts() if name == "front"]
            assert box.name in text_in(path, page, front), (lang, box.name)


def test_the_back_does_not_show_through_the_name_band(tmp_path):
    """The starter's back prints the game's name low on a dark card, where the front's name band
    lies: the band is opaque paper, so that title cannot read as a ghost beside the box's names.
    The band's edges, left and right of its text, are white on the page."""
    write_pack(tmp_path / "lantern")
    path = tmp_path / "box.pdf"
    box, = write_tuckboxes_pdf(load_pack(tmp_path / "lantern"), "en", path)
    (page, front), = [(page, rect) for page, name, rect in box.page_parts() if name == "front"]
    x, y, w, h = band_rect(front)
    pdf = pdfium.PdfDocument(str(path))
    try:
        scale = 4                                          # 288 dpi: one pixel is 0.09 mm
        image = pdf[page].render(scale=scale).to_pil().convert("L")
    finally:
        pdf.close()
    px = scale * 72 / 25.4                                 # pixels per mm
    top, bottom = round((y + 0.3) * px), round((y + h - 0.3) * px)
    for left in (x + 0.3, x + w - 2.5):                    # the names start 3 mm inside the band
        edge = image.crop((round(left * px), top, round((left + 2.2) * px), bottom))
        assert edge.getextrema()[0] == 255, left
    assert image.crop((round(x * px), round((y - 5) * px), round((x + w) * px), round(y * px))).getextrema()[0] < 100


def test_same_bytes_every_time(cimiterio, tmp_path):
    first, second = tmp_path / "a.pdf", tmp_path / "b.pdf"
    write_tuckboxes_pdf(cimiterio, "ar", first)
    write_tuckboxes_pdf(cimiterio, "ar", second)
    assert first.read_bytes() == second.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.pdf", "b.pdf"]     # no temp file left


def test_a_name_that_cannot_fit_is_a_problem_at_its_text(zombie_run, tmp_path):
    texts = {lang: dict(table) for lang, table in zombie_run.texts.items()}
    key = zombie_run.decks[0].name
    texts["en"][key] = "Zombie " * 60
    pack = dataclasses.replace(zombie_run, texts=texts)
    plan = plan_tuckboxes(pack, "en")
    fits = [p for p in plan.problems if p.code == "text.fit"]
    assert fits and all(p.key == key and p.get("text_key") == key and p.lang == "en" for p in fits)
    assert fits[0].file.endswith("en.yaml") and fits[0].line > 0
    path = tmp_path / "box.pdf"
    with pytest.raises(DataError):
        write_tuckboxes_pdf(pack, "en", path)
    assert not path.exists()


@pytest.mark.parametrize("thickness", [0.0, -0.3, float("nan"), 10.0])
def test_a_thickness_that_is_no_card_is_refused(zombie_run, thickness):
    with pytest.raises(ValueError, match="card_thickness_mm"):
        plan_tuckboxes(zombie_run, "en", card_thickness_mm=thickness)


def test_a_rebuild_reads_unchanged_tuck_box_pages_back_and_writes_the_same_bytes(tiny_pack, tmp_path, monkeypatch,
                                                                                 cache_dir):
    """With the face cache a page of tuck boxes whose inputs are the same is read back, not
    sketched again (pnp.tuckbox.pagecache); a renamed deck draws its page again; every build's
    tuck-box PDF is byte for byte the one a build without the cache writes."""
    import pnp.tuckbox.plan

    drawn: list[int] = []
    page_face = pnp.tuckbox.page_face
    monkeypatch.setattr(pnp.tuckbox.plan, "page_face", lambda page, *rest: drawn.append(page.number) or page_face(page, *rest))
    boxes = "tiny/tiny-tuckboxes-en-a4.pdf"
    build(tiny_pack, tmp_path / "first")
    assert drawn == [0]
    build(tiny_pack, tmp_path / "again")
    assert drawn == [0]                                                # read back
    assert (tmp_path / "again" / boxes).read_bytes() == (tmp_path / "first" / boxes).read_bytes()
    edit(tiny_pack / "text" / "en.yaml", "deck: {main: Main deck}", "deck: {main: Main cards}")
    build(tiny_pack, tmp_path / "renamed")
    assert drawn == [0, 0]                                             # the name is on it: drawn
    build(tiny_pack, tmp_path / "fresh", cache=False)
    assert (tmp_path / "renamed" / boxes).read_bytes() == (tmp_path / "fresh" / boxes).read_bytes()
    assert (tmp_path / "renamed" / boxes).read_bytes() != (tmp_path / "first" / boxes).read_bytes()
    assert pdf_pages(tmp_path / "renamed" / boxes)[0].count("Main cards") >= 1



def test_a_rebuild_writes_the_kept_tuck_box_pdf_until_what_it_shows_changes(tiny_pack, tmp_path, monkeypatch,
                                                                            cache_dir):
    """The tuck-box PDF is kept whole in the face cache (pnp.tuckbox.pagecache): a build whose
    boxes have the same inputs writes it from there, another card's text changes none of them; a
    new back (the boxes' art) or a damaged kept file draws it again; each one byte for byte the
    PDF of a build without the cache."""
    import pnp.tuckbox.plan
    from pnp.tuckbox.pagecache import DOCUMENT

    drawn: list[str] = []
    write_pdf = pnp.tuckbox.plan.write_pdf
    monkeypatch.setattr(pnp.tuckbox.plan, "write_pdf", lambda path, *rest, **named: drawn.append(str(path)) or
                        write_pdf(path, *rest, **named))
    boxes = "tiny/tiny-tuckboxes-en-a4.pdf"

    def fresh(name: str) -> bytes:
        count = len(drawn)
        build(tiny_pack, tmp_path / name, cache=False)
        del drawn[count:]
        return (tmp_path / name / boxes).read_bytes()

    build(tiny_pack, tmp_path / "first")
    assert len(drawn) == 1
    build(tiny_pack, tmp_path / "again")
    assert len(drawn) == 1 and (tmp_path / "again" / boxes).read_bytes() == (tmp_path / "first" / boxes).read_bytes()
    edit(tiny_pack / "cards/main.yaml", "colour: blue, value: 2}", "colour: red, value: 7}")       # beta's front
    build(tiny_pack, tmp_path / "card")
    assert len(drawn) == 1 and (tmp_path / "card" / boxes).read_bytes() == fresh("fresh-card")
    edit(tiny_pack / "templates" / "tiny" / "back.svg.j2", 'r="15"', 'r="12"')
    build(tiny_pack, tmp_path / "back")
    assert len(drawn) == 2 and (tmp_path / "back" / boxes).read_bytes() == fresh("fresh-back")
    assert (tmp_path / "back" / boxes).read_bytes() != (tmp_path / "first" / boxes).read_bytes()
    kept = list(cache_dir.rglob(f"*{DOCUMENT}"))
    assert len(kept) == 2
    for path in kept:
        data = bytearray(path.read_bytes())
        data[-100] ^= 1                                                  # a byte of the PDF
        path.write_bytes(bytes(data))
    build(tiny_pack, tmp_path / "damaged")
    assert len(drawn) == 3 and (tmp_path / "damaged" / boxes).read_bytes() == fresh("fresh-damaged")


def test_a_deck_may_go_without_a_tuck_box(cimiterio, tmp_path):
    """pack.yaml's `tuckbox: false`: no net for that deck, and its cards are not in the whole
    game's box; a deck too big for any box then builds without a problem."""
    plan = plan_tuckboxes(dataclasses.replace(cimiterio, decks=[
        dataclasses.replace(d, tuckbox=d.id not in ("tombs", "zombies")) for d in cimiterio.decks]), "it")
    assert [n.deck for n in plan.nets] == ["gate", "actions", "events", None]
    assert [n.size.cards for n in plan.nets if n.deck is None] == [25]          # 1 + 5 + 19
    huge = with_deck(load_pack("zombie-run"), cards=900)
    unboxed = dataclasses.replace(huge, decks=[dataclasses.replace(huge.decks[0], tuckbox=False)])
    assert plan_tuckboxes(unboxed, "en").nets == [] and not plan_tuckboxes(unboxed, "en").problems


def test_a_pack_whose_decks_have_no_tuck_box_builds_without_the_tuck_box_code(tiny_pack, tmp_path):
    """The build writes no tuck-box PDF and does not even load the tuck-box code or svgwrite."""
    import subprocess
    import sys
    edit(tiny_pack / "pack.yaml", "    name: deck.main\n", "    name: deck.main\n    tuckbox: false\n")
    out = tmp_path / "out"
    script = ("import json, sys\nimport pnp.cli\n"
              f"pnp.cli.main(['build', {str(tiny_pack)!r}, '--lang', 'en', '--out', {str(out)!r}], "
              "standalone_mode=False)\n"
              "print(json.dumps(sorted(m for m in sys.modules if m.startswith(('pnp.tuckbox.', 'svgwrite')))))")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "[]"
    assert sorted(p.name for p in (out / "tiny").iterdir()) == ["tiny-cards-en-a4.pdf"]


def test_tuckbox_must_be_true_or_false(tiny_pack, tmp_path):
    edit(tiny_pack / "pack.yaml", "    name: deck.main\n", "    name: deck.main\n    tuckbox: maybe\n")
    with pytest.raises(DataError) as raised:
        load_pack(tiny_pack)
    (problem,) = raised.value.problems
    assert problem.key == "decks[0].tuckbox" and problem.file.endswith("pack.yaml") and problem.line > 0
    # the field's own check, not the loader's unknown-key report at the same place
    assert problem.code != "schema.unknown-key"
    assert "expected true or false" in problem.message and "'maybe'" in problem.message
