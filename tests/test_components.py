"""Boards, tiles, pieces, walls, dice, aids and pack-drawn components (pnp.components), measured in
the PDFs they make; the component types' registry and the problems bad component data gives."""
from __future__ import annotations

import ctypes
import re
import shutil
from collections import Counter
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.components import plan_components, types, write_components
from pnp.components import style as st
from pnp.errors import DataError, display_path
from pnp.pack import load_pack
from pnp.sheets.parts import paper_size, plan_tiles

MM = 72 / 25.4
ZVV = "zombies-vs-vampires"
DATA = Path(__file__).resolve().parent.parent / "data"


def build(*args) -> str:
    result = CliRunner().invoke(main, ["build", *map(str, args)])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def zvv(tmp_path_factory) -> dict[str, Path]:
    """Zombies vs Vampires built through the CLI, English, on A4 and Letter."""
    out = tmp_path_factory.mktemp("zvv")
    build(ZVV, "--lang", "en", "--out", out, "--png")
    build(ZVV, "--lang", "en", "--paper", "letter", "--out", out)
    return {"dir": out / ZVV, **{f"{doc}-{paper}": out / ZVV / f"{ZVV}-{doc}-en-{paper}.pdf"
                                 for doc in ("board", "parts") for paper in ("a4", "letter")}}


@pytest.fixture(scope="module")
def cimiterio_mat(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("cim")
    plan = plan_components(load_pack("cimiterio"), "en", "letter", mat=True)
    assert not plan.problems
    write_components(plan, out)
    return out


class Path_:
    """A path object on a page: its bounds in mm (PDF: y up), fill/stroke colour and mode."""

    def __init__(self, obj, page_h):
        left, bottom, right, top = obj.get_bounds()
        self.x0, self.x1 = left / MM, right / MM
        self.y0, self.y1 = bottom / MM, top / MM
        self.w, self.h = self.x1 - self.x0, self.y1 - self.y0
        fill_mode, stroke = ctypes.c_int(), ctypes.c_int()
        raw.FPDFPath_GetDrawMode(obj.raw, ctypes.byref(fill_mode), ctypes.byref(stroke))
        self.filled, self.stroked = bool(fill_mode.value), bool(stroke.value)
        self.fill = self._colour(raw.FPDFPageObj_GetFillColor, obj) if self.filled else None
        self.stroke = self._colour(raw.FPDFPageObj_GetStrokeColor, obj) if self.stroked else None
        width = ctypes.c_float()
        raw.FPDFPageObj_GetStrokeWidth(obj.raw, ctypes.byref(width))
        matrix = obj.get_matrix()                            # the width is in the path's user space
        self.stroke_mm = width.value * (abs(matrix.a * matrix.d - matrix.b * matrix.c) ** 0.5) / MM

    @staticmethod
    def _colour(getter, obj):
        r, g, b, a = (ctypes.c_uint() for _ in range(4))
        getter(obj.raw, *(ctypes.byref(v) for v in (r, g, b, a)))
        return "#%02x%02x%02x" % (r.value, g.value, b.value)


def pages(pdf: Path):
    document = pdfium.PdfDocument(str(pdf))
    try:
        for page in document:
            h = page.get_height()
            paths = [Path_(o, h) for o in page.get_objects(filter=[raw.FPDF_PAGEOBJ_PATH], max_depth=3)]
            text = page.get_textpage().get_text_range()
            yield page.get_width() / MM, h / MM, paths, text
    finally:
        document.close()


def near(a, b, tol=0.05):
    return abs(a - b) <= tol


def fills(paths, colour):
    return [p for p in paths if p.filled and not p.stroked and p.fill == colour]


def cut_rects(paths):
    """Stroke-only paths in the cut style, with their bounds reduced to the line's centre (PDFium pads
    a stroked path's bounds by the full line width)."""
    rects = []
    for p in paths:
        if p.stroked and not p.filled and near(p.stroke_mm, st.CUT_MM, 0.01) and p.stroke == st.CUT_COLOUR:
            d = p.stroke_mm
            rects.append((p.x0 + d, p.y0 + d, p.x1 - d, p.y1 - d))
    return rects


# ---- Zombies vs Vampires: the board

@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_board_squares_have_the_pitch_and_zones_are_3x3(zvv, paper):
    pack = load_pack(ZVV)
    board = pack.collections["board"]
    pitch = board["pitch"]                                   # a length: millimetres
    square_fill = pack.palette["board"]
    tiles = list(pages(zvv[f"board-{paper}"]))[1:]          # page 1 is the assembly map
    zones = set()
    for _, _, paths, _ in tiles:
        squares = fills(paths, square_fill)
        assert len(squares) == 13 * 13 - 4 * 9              # every square outside the zones, once per tile
        assert all(near(s.w, pitch) and near(s.h, pitch) for s in squares)
        for p in paths:
            if p.filled and not p.stroked and near(p.w, 3 * pitch) and near(p.h, 3 * pitch):
                zones.add(p.fill)
    assert len(zones) == 4                                   # four home zones, four player colours


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_tiles_overlap_and_fit_the_printable_area(zvv, paper):
    pack = load_pack(ZVV)
    square_fill = pack.palette["board"]
    found = []
    for w, h, paths, _ in list(pages(zvv[f"board-{paper}"]))[1:]:
        cuts = cut_rects(paths)
        window = max(cuts, key=lambda r: (r[2] - r[0]) * (r[3] - r[1]))
        x0, y0, x1, y1 = window
        margin = st.PRINTABLE_MARGIN_MM
        assert x0 >= margin - 0.01 and y0 >= margin - 0.01 and x1 <= w - margin + 0.01 and y1 <= h - margin + 0.01
        squares = fills(paths, square_fill)
        origin = (min(s.x0 for s in squares), max(s.y1 for s in squares))   # board's top-left square corner
        found.append((window, origin))
    plan = plan_tiles(*_board_size(pack), paper)
    assert len(found) == plan.rows * plan.cols > 1
    for r in range(plan.rows):
        for c in range(plan.cols):
            (wa, oa) = found[r * plan.cols + c]
            if c + 1 < plan.cols:                            # right neighbour
                wb, ob = found[r * plan.cols + c + 1]
                overlap = (wa[2] - oa[0]) - (wb[0] - ob[0])   # in board coordinates
                assert near(overlap, st.TILE_OVERLAP_MM, 0.05) and overlap > st.PRINTABLE_MARGIN_MM
            if r + 1 < plan.rows:                            # neighbour below (PDF y runs up)
                wb, ob = found[(r + 1) * plan.cols + c]
                overlap = (oa[1] - wa[1]) - (ob[1] - wb[3])
                assert near(overlap, st.TILE_OVERLAP_MM, 0.05)


def _board_size(pack):
    from pnp.components.grid_board import board_geometry
    spec = next(e for e in pack.components if e["type"] == "grid-board")
    _, _, _, w, h = board_geometry(pack.collections["board"], spec["coordinates"])
    return w, h


def test_board_has_an_assembly_map_and_labelled_tiles(zvv):
    texts = [text for _, _, _, text in pages(zvv["board-a4"])]
    assert "Assembly map" in texts[0]
    for text in texts[1:]:
        assert "Tile" in text and "50 mm" in text and "Print at 100%" in text
    assert sum("1.1" in t for t in texts[1:]) >= 1 and any("2.2" in t for t in texts[1:])
    for letter in "ABCDEFGHIJKLM":                           # coordinates on the edges
        assert any(f"\n{letter}" in t or t.startswith(letter) or f" {letter}" in t for t in texts[1:])


# ---- pieces, walls, dice

@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_walls_stand_exactly_n_squares_long(zvv, paper):
    pack = load_pack(ZVV)
    pitch = pack.collections["board"]["pitch"]
    colour = pack.palette["wall"]
    sides = [p for _, _, paths, _ in pages(zvv[f"parts-{paper}"]) for p in fills(paths, colour)]
    assert all(near(p.h, 10.0) for p in sides)               # standing height
    lengths = Counter()
    for p in sides:
        n = round(p.w / pitch)
        assert abs(p.w - n * pitch) <= 0.2, p.w
        lengths[n] += 1
    assert lengths == {w["size"]: 2 * w["count"] for w in pack.collections["walls"]}   # two sides a wall


def test_dice_nets_have_six_faces_of_18mm(zvv):
    pack = load_pack(ZVV)
    face = next(e for e in pack.components if e["type"] == "dice")["face"]
    assert face == pytest.approx(18.0)                        # components.yaml's `face: 18mm`, in mm
    faces = [p for _, _, paths, _ in pages(zvv["parts-a4"]) for p in fills(paths, pack.palette["night"])]
    squares = [p for p in faces if near(p.w, p.h, 0.01)]
    assert len(squares) == 6 * len(pack.collections["dice"])
    assert all(near(p.w, face) for p in squares)
    text = " ".join(t for _, _, _, t in pages(zvv["parts-a4"]))
    for word in ("Build", "±", "2*", "Wall die", "Action die"):
        assert word in text


def test_36_pieces_with_their_colours(zvv):
    pack = load_pack(ZVV)
    paths = [p for _, _, ps, _ in pages(zvv["parts-a4"]) for p in ps]
    for piece in pack.collections["pieces"]:
        discs = [p for p in fills(paths, piece["hex"]) if near(p.w, 16.0) and near(p.h, 16.0)]
        assert len(discs) == piece["count"] == 9


def test_parts_pages_have_the_legend_and_test_bar(zvv):
    texts = [text for _, _, _, text in pages(zvv["parts-letter"])]
    assert len(texts) == 3                  # pieces and walls, dice, the four aids (the baseline layout)
    for text in texts:
        assert all(word in text for word in ("Legend", "cut", "fold", "glue", "50 mm"))


# ---- every declared language: each (game, lang) is drawn and written once per session

LANGUAGES = {"cimiterio": ("it", "en", "uk", "ar", "de"), "zombie-run": ("uk", "en", "it", "ar", "de"),
             ZVV: ("de", "en", "it", "uk", "ar")}
GAME_LANGS = [(game, lang) for game, langs in LANGUAGES.items() for lang in langs]


@pytest.fixture(scope="session")
def built(shipped_build):
    """built(game, lang) -> {"board"/"parts": PDF path, "pack": Pack}: the A4 components of the
    session's one build of each shipped game (conftest.shipped_build)."""
    packs: dict = {}

    def get(game: str, lang: str) -> dict:
        folder = shipped_build(game)
        pack = packs.setdefault(game, load_pack(game))
        files = {doc: folder / f"{game}-{doc}-{lang}-a4.pdf" for doc in ("board", "parts")}
        return {"pack": pack, **{doc: path for doc, path in files.items() if path.exists()}}
    return get


def test_every_game_declares_the_languages_tested():
    for game, langs in LANGUAGES.items():
        assert tuple(load_pack(game).languages) == langs


def text_boxes(pdf: Path, page: int = 0) -> list[tuple[float, float, float, float]]:
    """Every glyph (text object) of a page: (x0, x1, top, bottom) in mm from the top-left."""
    document = pdfium.PdfDocument(str(pdf))
    try:
        p = document[page]
        h = p.get_height()
        boxes = []
        for obj in p.get_objects(filter=[raw.FPDF_PAGEOBJ_TEXT], max_depth=5):
            left, bottom, right, top = obj.get_bounds()
            boxes.append((left / MM, right / MM, (h - top) / MM, (h - bottom) / MM))
        return boxes
    finally:
        document.close()


def clusters(boxes, gap: float = 2.5) -> list[tuple[float, float]]:
    """Glyph boxes of one line grouped into labels: (x0, x1) of runs of glyphs closer than `gap` mm."""
    spans: list[list[float]] = []
    for x0, x1, *_ in sorted(boxes):
        if spans and x0 - spans[-1][1] <= gap:
            spans[-1][1] = max(spans[-1][1], x1)
        else:
            spans.append([x0, x1])
    return [tuple(span) for span in spans]


# ---- player aids, one per player, in every declared language

AID_HEADINGS = {"cimiterio": "aid.gate.heading", "zombie-run": "aid.special.heading", ZVV: "aid.walls.heading"}


def aid_height(pack, lang: str, paper: str) -> float:
    """The aid card's height in this language: 118 mm (components.yaml's default), or taller where
    the text needs it to stay at 7.5 pt (pnp.components.aid.fit)."""
    from pnp.components import aid
    from pnp.components.core import Context, part_room
    spec = next(e for e in pack.components if e["type"] == "aid")
    ctx = Context(pack, lang, paper)
    sections = [(ctx.t(s["heading"]), [aid.aid_line(ctx, line) for line in s["lines"]]) for s in spec["sections"]]
    _, height, _, _ = aid.fit(sections, spec["width"] - 2 * aid.PAD, spec["height"], spec["max_size"],
                              spec["min_size"], part_room(paper)[1], ctx.direction)
    assert height >= spec["height"] == 118
    return height


@pytest.mark.parametrize("game,lang", GAME_LANGS)
def test_player_aids(built, game, lang):
    result = built(game, lang)
    pack = result["pack"]
    height = aid_height(pack, lang, "a4")
    cards, text = 0, ""
    for _, _, paths, page_text in pages(result["parts"]):
        cards += sum(1 for r in cut_rects(paths) if near(r[2] - r[0], 88) and near(r[3] - r[1], height))
        text += page_text
    assert cards == pack.players["max"]
    if lang != "ar":        # Arabic is extracted in visual order: its words are checked on the layout instead
        words = " ".join(text.split())
        assert " ".join(pack.texts[lang][AID_HEADINGS[game]].split()) in words


@pytest.mark.parametrize("game,lang", GAME_LANGS)
def test_footer_names_the_document_once(built, game, lang):
    result = built(game, lang)
    from pnp.components.core import Context
    name = Context(result["pack"], lang, "a4").t("components.parts")
    texts = [text for _, _, _, text in pages(result["parts"])]
    assert texts
    for text in texts:
        if lang == "ar":    # extracted in visual order: count the name's words
            assert min(text.split().count(word) for word in name.split()) == 1, text[-200:]
        else:
            assert text.count(name) == 1, text[-200:]


def copy_pack(tmp_path: Path, game: str) -> Path:
    copy = tmp_path / game
    shutil.copytree(DATA / game, copy)
    return copy


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_aid_lines_with_a_number_pick_the_plural(tmp_path):
    copy = copy_pack(tmp_path, ZVV)
    edit(copy / "components.yaml", "lines: [{text: ui.aid_move},",
         "lines: [{text: aid.die.move_n, n: 2}, {text: aid.die.move_n, n: 6},")
    from pnp.components.aid import aid_line
    from pnp.components.core import Context
    pack = load_pack(copy)
    uk, ar = Context(pack, "uk", "a4"), Context(pack, "ar", "a4")
    assert aid_line(uk, {"text": "aid.die.move_n", "n": 2}).endswith("2 кроки.")
    assert aid_line(uk, {"text": "aid.die.move_n", "n": 6}).endswith("6 кроків.")
    assert "خطوتين" in aid_line(ar, {"text": "aid.die.move_n", "n": 2})
    assert aid_line(uk, {"text": "aid.turn.roll", "n": None}) == pack.texts["uk"]["aid.turn.roll"]
    for lang in ("uk", "ar"):
        plan = plan_components(pack, lang, "a4")
        assert not plan.problems
        write_components(plan, tmp_path / "out")
    text = " ".join(" ".join(t for _, _, _, t in pages(tmp_path / "out" / f"{ZVV}-parts-uk-a4.pdf")).split())
    assert "щонайбільше на 6 кроків" in text and "щонайбільше на 2 кроки" in text


# ---- Zombies vs Vampires' dice faces never mirror

@pytest.mark.parametrize("lang", LANGUAGES[ZVV])
def test_die_face_two_star_reads_left_to_right(built, lang):
    text = " ".join(t for _, _, _, t in pages(built(ZVV, lang)["parts"]))
    assert "2*" in text
    if lang == "ar":
        from pnp.text.layout import layout
        faces = layout("2*", "bold", 18, 10, 21.6, 6, direction="ltr")
        assert not faces.runs or [run.text for run in faces.runs[0].runs] == ["2*"]


def test_bidi_isolates_are_laid_out_not_a_crash():
    from pnp.components.svgkit import Sketch
    from pnp.text.layout import layout
    line = "\u20662*\u2069: حرّك قطعة واحدة"
    result = layout(line, "regular", 80, 10, 9, 6, direction="rtl")
    assert not result.overflow
    runs = [run for run in result.runs[0].runs if run.text.strip("\u2066\u2069")]
    assert [r.text.strip("\u2066\u2069") for r in runs][-1] == "2*" and not runs[-1].rtl   # the logical start, at the right
    for text in ("Hello \u2067عالم\u2069!", "\u2068abc\u2069 حرّك", "\u2069 stray \u2066", "\u2066\u2067x"):
        for direction in ("auto", "ltr", "rtl"):
            layout(text, "regular", 40, 10, 9, 6, direction=direction)
    sketch = Sketch(80, 12, direction="rtl")
    sketch.text(line, 0, 0, 80, 12, size=9)
    assert not sketch.report.issues


# ---- Cimiterio

@pytest.mark.parametrize("lang", LANGUAGES["cimiterio"])
def test_cimiterio_guide_names_every_avenue_and_spot(built, lang):
    result = built("cimiterio", lang)
    pack = result["pack"]
    [(w, h, paths, text)] = list(pages(result["board"]))
    words = " ".join(text.split())
    for spot in "abcdefgh":
        assert f"\n{spot}" in text or f"{spot}\r" in text or f" {spot} " in f" {words} "
    if lang != "ar":
        for avenue in pack.collections["map"]["avenues"]:
            assert pack.texts[lang][avenue["name"]] in words
        assert pack.texts[lang]["ui.gate"] in words


def _legend_swatches(pack, paths):
    from pnp.components.style import tint
    pal = pack.palette
    colours = {tint(pal["stone"], 0.75), tint(pal["gap"], 0.55), pal["rot"], pal["spot"], pal["stop"],
               tint(pal["iron"], 0.15), pal["stone_2"]}
    found = [p for p in paths if p.filled and p.fill in colours and 3.5 < p.w < 5.2 and 3.5 < p.h < 7.5]
    lowest = min(p.y0 for p in found)           # the legend's two rows, under the map (PDF y runs up)
    return [p for p in found if p.y0 < lowest + 12]


@pytest.mark.parametrize("lang", LANGUAGES["cimiterio"])
def test_cimiterio_legend_swatch_sits_beside_its_own_words(built, lang):
    """Each legend entry is a unit: its swatch on the side its words start (right in Arabic), next
    to them; the entries run from that side."""
    result = built("cimiterio", lang)
    [(w, h, paths, _)] = list(pages(result["board"]))
    swatches = _legend_swatches(result["pack"], paths)
    assert len(swatches) == 7
    glyphs = text_boxes(result["board"])
    rtl = lang == "ar"
    rows = {}
    for sw in swatches:
        top, bottom = h - sw.y1, h - sw.y0
        line = [g for g in glyphs if g[2] < bottom and g[3] > top and g[3] - g[2] < 5]
        labels = clusters(line)
        own = [span for span in labels if (span[1] <= sw.x0 + 0.1 if rtl else span[0] >= sw.x1 - 0.1)]
        assert own, (lang, sw.fill)
        nearest = max(own, key=lambda span: span[1]) if rtl else min(own, key=lambda span: span[0])
        gap = sw.x0 - nearest[1] if rtl else nearest[0] - sw.x1
        assert 0 <= gap < 3.0, (lang, sw.fill, gap)                 # the words hug the swatch
        rows.setdefault(round(top), []).append(sw.x0)
    first_row = rows[min(rows)]
    assert (max(first_row) > w / 2) == rtl                            # entries start on the reading side


@pytest.mark.parametrize("lang", LANGUAGES["cimiterio"])
def test_cimiterio_gate_word_is_clear_of_the_bars(built, lang):
    result = built("cimiterio", lang)
    [(w, h, paths, _)] = list(pages(result["board"]))
    bars = [p for p in paths if p.stroked and p.stroke == "#d9d4c4"]
    assert bars
    x0, x1 = min(p.x0 for p in bars), max(p.x1 for p in bars)
    bar_top, bar_bottom = h - max(p.y1 for p in bars), h - min(p.y0 for p in bars)
    inside = [g for g in text_boxes(result["board"]) if g[0] >= x0 - 3 and g[1] <= x1 + 3
              and bar_top - 3 <= g[2] <= bar_bottom + 12]
    assert inside                                                     # the gate's word, under the bars
    assert all(g[2] >= bar_bottom for g in inside), (lang, inside, bar_bottom)


def test_cimiterio_mat_cells_are_card_sized_and_tiles_fit(cimiterio_mat):
    pdf = cimiterio_mat / "cimiterio-mat-en-letter.pdf"
    pw, ph = paper_size("letter")
    tombs = 0
    document = list(pages(pdf))
    assert "Assembly map" in document[0][3]
    for _, _, paths, _ in document[1:]:
        window = max(cut_rects(paths), key=lambda r: (r[2] - r[0]) * (r[3] - r[1]))
        assert window[0] >= 6 - 0.01 and window[2] <= pw - 6 + 0.01
        assert window[1] >= 6 - 0.01 and window[3] <= ph - 6 + 0.01
        for p in paths:   # tomb slots: stroked card outlines, 63 x 88 mm on the line's centre
            if p.filled and p.stroked and near(p.w - 2 * p.stroke_mm, 63) and near(p.h - 2 * p.stroke_mm, 88):
                tombs += 1
    assert tombs >= 35


def test_guardian_standees(cimiterio_mat):
    pdf = cimiterio_mat / "cimiterio-parts-en-letter.pdf"
    strips = [r for _, _, paths, _ in pages(pdf) for r in cut_rects(paths)
              if near(r[2] - r[0], 26) and near(r[3] - r[1], 2 * 13 + 2 * 45)]
    assert len(strips) == 2


# ---- the files

def test_file_names_previews_and_reproducible_bytes(zvv, tmp_path):
    assert sorted(p.name for p in zvv["dir"].glob("*.pdf")) == [
        f"{ZVV}-board-en-a4.pdf", f"{ZVV}-board-en-letter.pdf", f"{ZVV}-parts-en-a4.pdf", f"{ZVV}-parts-en-letter.pdf"]
    assert len(list((zvv["dir"] / "png-en" / "components").glob("*.png"))) >= 5
    build(ZVV, "--lang", "en", "--out", tmp_path)
    for doc in ("board", "parts"):
        assert (tmp_path / ZVV / f"{ZVV}-{doc}-en-a4.pdf").read_bytes() == zvv[f"{doc}-a4"].read_bytes()
    data = zvv["board-a4"].read_bytes()
    assert b"/PrintScaling /None" in data and b"+PnpSans-Regular" in data


def test_nothing_printed_near_the_paper_edge(zvv):
    """Rasterized: every page has ink, none within 5 mm of the edge."""
    document = pdfium.PdfDocument(str(zvv["board-a4"]))
    try:
        assert len(document) == 5                           # the assembly map and four tiles
        for page in document:
            image = page.render(scale=50 / 72).to_pil().convert("L")
            w, h = image.size
            edge = round(5 / 25.4 * 50) - 1
            pixels = image.load()
            border = [pixels[x, y] for x in range(w) for y in (*range(edge), *range(h - edge, h))]
            border += [pixels[x, y] for y in range(h) for x in (*range(edge), *range(w - edge, w))]
            assert min(border) > 250
            assert image.getextrema()[0] < 100
    finally:
        document.close()


def test_text_that_does_not_fit_is_a_build_error(tmp_path):
    copy = copy_pack(tmp_path, ZVV)
    edit(copy / "text" / "en.yaml", 'build: "Build"', 'build: "' + "Build a wall " * 40 + '"')
    result = CliRunner().invoke(main, ["build", str(copy), "--lang", "en", "--out", str(tmp_path / "out"), "--force"])
    assert result.exit_code == 2
    # said where the text is written (text/en.yaml), naming the component that prints it, as `pnp check` does
    said = [line for line in result.output.splitlines() if "does not fit" in line]
    assert len(said) == 1 and "text/en.yaml:" in said[0] and ": die.action.build: [en] components[3]: " in said[0]
    assert "| - type: dice" not in result.output      # the component's snippet is not shown under the text's line
    assert not (tmp_path / "out" / ZVV).exists() or not list((tmp_path / "out" / ZVV).glob("*.pdf"))
    plan = plan_components(load_pack(copy), "en", "a4")
    [problem] = {p for p in plan.problems}
    dice_line = _entry_line(copy / "components.yaml", "type: dice")
    assert (problem.code, problem.key, problem.line, problem.lang) == ("text.fit", "components[3]", dice_line, "en")
    assert problem.file.endswith("components.yaml") and problem.get("what") == "die face"
    assert problem.get("text").startswith("Build a wall") and problem.get("text_key") == "die.action.build"


def _entry_line(path: Path, text: str) -> int:
    """The line of components.yaml where the entry holding `text` starts."""
    lines = path.read_text(encoding="utf-8").splitlines()
    number = next(i for i, line in enumerate(lines, start=1) if text in line)
    return number if lines[number - 1].lstrip().startswith("-") else number


# ---- components.yaml is validated: every setting declared once, problems with file, line and key

def test_a_misspelt_setting_is_a_problem_with_file_line_and_key(tmp_path):
    copy = copy_pack(tmp_path, ZVV)
    edit(copy / "components.yaml", "  face: 18mm\n", "  faec: 30mm\n")
    with pytest.raises(DataError) as raised:
        load_pack(copy)
    [problem] = [p for p in raised.value.problems if p.code == "schema.unknown-key"]
    assert problem.file.endswith("components.yaml")
    assert problem.line == _entry_line(copy / "components.yaml", "faec: 30mm")
    assert problem.key == "components[3].faec"
    assert "did you mean 'face'" in problem.message


def test_every_setting_is_declared_once_with_a_doc_and_lengths_arrive_in_mm():
    from pnp.schema import Field
    for name, component_type in types.registered().items():
        for key, spec in component_type.schema.fields.items():
            assert isinstance(spec, Field) and spec.doc.strip(), (name, key)
    dice = next(e for e in load_pack(ZVV).components if e["type"] == "dice")
    assert (dice["face"], dice["tab"]) == (pytest.approx(18.0), pytest.approx(5.0))
    assert dice["art"] == "zombies-vs-vampires/die-face.svg.j2"


def test_a_collection_without_a_field_the_drawer_needs_is_a_problem():
    import dataclasses
    pack = load_pack(ZVV)
    board = {k: v for k, v in pack.collections["board"].items() if k != "pitch"}
    broken = dataclasses.replace(pack, collections={**pack.collections, "board": board})
    plan = plan_components(broken, "en", "a4")
    found = {(p.code, p.key, p.line) for p in plan.problems}
    source = pack.sources["components"]
    assert ("component.data", "components[0].board", source.line((0, "board"))) in found      # the board
    assert ("component.data", "components[2].board", source.line((2, "board"))) in found      # the walls
    assert all("pitch" in p.message and p.lang == "en" for p in plan.problems)
    assert "board" not in plan.documents


def test_an_unknown_colour_name_is_a_problem_on_its_setting(tmp_path):
    copy = copy_pack(tmp_path, ZVV)
    edit(copy / "components.yaml", "colour: wall,", "colour: wal,")
    plan = plan_components(load_pack(copy), "en", "a4")
    [problem] = plan.problems
    assert (problem.code, problem.key) == ("component.data", "components[2].colour")
    assert "'wal' is not a colour" in problem.message and "wall" in problem.message


# ---- a pack's own components and third-party component types

TRACK = """{#- A score track: one box per point, the game's name, the copy number. -#}
<rect x="0" y="0" width="{{ w|mm }}" height="{{ h|mm }}" fill="{{ colour(component.label) }}"/>
{% for i in range(10) %}<rect x="{{ (2 + i * 5)|mm }}" y="12" width="4" height="4" fill="none" stroke="#000000" stroke-width="0.3"/>{% endfor %}
{{ textbox(t("game.name") ~ " · " ~ copy ~ "/" ~ count, 2, 2, w - 4, 8, font="bold", size=9, min_size=5, fill="#000000") }}
"""


def test_a_pack_declared_template_component_is_drawn(tmp_path):
    copy = copy_pack(tmp_path, "zombie-run")
    (copy / "templates").mkdir()
    (copy / "templates" / "track.svg.j2").write_text(TRACK, encoding="utf-8")
    with (copy / "components.yaml").open("a", encoding="utf-8") as f:
        f.write("- {type: template, template: track.svg.j2, width: 54mm, height: 20mm, count: 3, label: hazard}\n")
    pack = load_pack(copy)
    plan = plan_components(pack, "en", "a4")
    assert not plan.problems
    [pdf] = write_components(plan, tmp_path / "out")
    document = list(pages(pdf))
    paths = [p for _, _, ps, _ in document for p in ps]
    text = " ".join(t for _, _, _, t in document)
    name = pack.texts["en"][pack.name]
    assert all(f"{name} · {n}/3" in text for n in (1, 2, 3))
    cuts = [r for r in cut_rects(paths) if near(r[2] - r[0], 54) and near(r[3] - r[1], 20)]
    assert len(cuts) == 3
    assert len([p for p in fills(paths, pack.palette["hazard"]) if near(p.w, 54) and near(p.h, 20)]) == 3
    boxes = [p for p in paths if p.stroked and not p.filled and near(p.stroke_mm, 0.3, 0.01)
             and near(p.w - 2 * p.stroke_mm, 4) and near(p.h - 2 * p.stroke_mm, 4)]
    assert len(boxes) == 30


def test_a_broken_pack_template_is_a_problem_not_a_traceback(tmp_path):
    copy = copy_pack(tmp_path, "zombie-run")
    (copy / "templates").mkdir()
    (copy / "templates" / "track.svg.j2").write_text("{{ no_such_value }}", encoding="utf-8")
    with (copy / "components.yaml").open("a", encoding="utf-8") as f:
        f.write("- {type: template, template: track.svg.j2, width: 54mm, height: 20mm}\n")
    plan = plan_components(load_pack(copy), "en", "a4")
    [problem] = plan.problems
    # at the template's line, like a card template's problem, naming the entry and where it is
    assert (problem.code, problem.key) == ("template.undefined", "components[1].template")
    assert (problem.file, problem.line) == (display_path(copy / "templates" / "track.svg.j2"), 1)
    entry = _entry_line(copy / "components.yaml", "track.svg.j2")
    assert problem.message == ("there is no variable 'no_such_value' "
                               f"(named at {display_path(copy / 'components.yaml')}:{entry})")


def draw_badge(ctx, spec):
    """A third-party drawer: one round badge of the entry's size with its text."""
    from pnp.components.core import part
    s = ctx.sketch(spec["size"], spec["size"])
    s.circle(spec["size"] / 2, spec["size"] / 2, spec["size"] / 2, fill=ctx.colour(spec["fill"], "fill"))
    s.text(spec["text"], 0, 0, spec["size"], spec["size"], font="bold", size=10, min_size=5, what="badge")
    s.cut_circle(spec["size"] / 2, spec["size"] / 2, spec["size"] / 2)
    return [[part(s, "badge")]]


def badge_type():
    from pnp.schema import Field, Schema
    return types.ComponentType("badge", Schema("badge component", "A round badge (a test's own type).", {
        "size": Field("length", "Diameter.", "20mm"),
        "text": Field("str", "What the badge says.", "BADGE"),
        "fill": Field("str", "Colour (a palette colour's name or '#rrggbb').", "#ffd700"),
    }, unique=None), draw_badge, "parts")


@pytest.fixture
def clean_registry(monkeypatch):
    """The registry as shipped, restored after the test."""
    monkeypatch.setattr(types, "_REGISTRY", dict(types._REGISTRY))
    monkeypatch.setattr(types, "_entry_points_loaded", True)


def _badge_pack(tmp_path) -> Path:
    copy = copy_pack(tmp_path, "zombie-run")
    with (copy / "components.yaml").open("a", encoding="utf-8") as f:
        f.write("- {type: badge, size: 25mm, text: HELLO, fill: hazard}\n")
    return copy


def _badge_is_drawn(copy: Path, tmp_path: Path) -> None:
    pack = load_pack(copy)
    assert pack.components[-1] == {"type": "badge", "size": pytest.approx(25.0), "text": "HELLO", "fill": "hazard"}
    plan = plan_components(pack, "en", "a4")
    assert not plan.problems
    [pdf] = write_components(plan, tmp_path / "out")
    document = list(pages(pdf))
    assert "HELLO" in " ".join(t for _, _, _, t in document)
    discs = [p for _, _, ps, _ in document for p in fills(ps, pack.palette["hazard"]) if near(p.w, 25) and near(p.h, 25)]
    assert len(discs) == 1


def test_a_registered_component_type_is_validated_and_drawn(tmp_path, clean_registry):
    copy = _badge_pack(tmp_path)
    with pytest.raises(DataError, match="type 'badge' is not known"):
        load_pack(copy)
    types.register(badge_type())
    _badge_is_drawn(copy, tmp_path)
    with pytest.raises(types.ComponentTypeError, match="already registered"):
        types.register(types.ComponentType("badge", badge_type().schema, "elsewhere:draw"))


def test_component_types_of_installed_packages_come_through_entry_points(tmp_path, clean_registry, monkeypatch):
    class EntryPoint:
        name, value = "badge", "pnp_badges:BADGE"

        def load(self):
            return badge_type()

    asked = []
    monkeypatch.setattr(types, "entry_points", lambda group: asked.append(group) or [EntryPoint()])
    monkeypatch.setattr(types, "_entry_points_loaded", False)
    _badge_is_drawn(_badge_pack(tmp_path), tmp_path)
    assert asked == ["pnp.components"]                      # loaded once, however often the types are asked for


def test_the_generic_components_know_no_game():
    """No module, function, constant or text key of pnp.components (or of the shared sheet strings)
    is named after a game, and the drawers' colours come from data: the only hex colours are the
    print style's (style.py), the settings' defaults (types.py) and plain black and white."""
    folder = Path(__file__).resolve().parent.parent / "pnp" / "components"
    games = [p.name for p in DATA.iterdir() if (p / "pack.yaml").is_file()]
    words = {w for game in games for w in [game, *game.split("-")] if w not in ("run", "vs")} | {"zvv", "cemetery",
                                                                                                  "guardian"}
    for module in folder.glob("*.py"):
        source = module.read_text(encoding="utf-8").lower()
        names = re.findall(r"^\s*(?:def|class)\s+(\w+)|^(\w+)\s*[:=]", source, re.M)
        for name in [n for pair in names for n in pair if n] + [module.stem]:
            assert not any(w in name for w in words), (module.name, name)
        if module.name not in ("style.py", "types.py"):
            assert set(re.findall(r"#[0-9a-f]{6}\b", source)) <= {"#000000", "#ffffff"}, module.name
    from pnp.i18n import sheet
    assert not [key for key in sheet.table("en") if any(w in key for w in words)]


@pytest.mark.parametrize("setting, value", [("width", "9999mm"), ("height", "9999mm")])
def test_a_part_too_big_for_the_page_is_reported_at_its_size_setting(tmp_path, setting, value):
    """The message names the entry's setting that made the part too big, at its line, not the
    entry's first line."""
    copy = copy_pack(tmp_path, "zombie-run")
    edit(copy / "components.yaml", "  title: components.aid\n", f"  title: components.aid\n  {setting}: {value}\n")
    line = (copy / "components.yaml").read_text(encoding="utf-8").splitlines().index(f"  {setting}: {value}") + 1
    result = CliRunner().invoke(main, ["build", str(copy), "--lang", "en", "--out", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert f"components.yaml:{line}: components[0].{setting}: " in result.output.replace("components.0", "components[0]")
    assert "does not fit the page" in result.output
