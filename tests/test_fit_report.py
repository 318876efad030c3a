"""Issue 16 item 3: hyphenation before shrinking, and the fit report of everything printed."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.i18n.fit import language_fit
from pnp.pack import load_pack
from pnp.render.textbox import make_textbox
from pnp.text import hyphenate
from pnp.text.fitreport import FitReport
from pnp.text.layout import layout

GERMAN = "Der Friedhofswächter kommt"
ARABIC = "حارسالمقبرةالقديمةيأتي"


def test_a_long_german_word_in_a_narrow_box_hyphenates_instead_of_shrinking():
    plain = layout(GERMAN, "regular", 18, 12, 9, 5)
    assert plain.lines == ("Der", "Friedhofswächter", "kommt") and plain.size_pt == 6.0    # shrinks without
    with hyphenate.using("de"):
        got = layout(GERMAN, "regular", 18, 12, 9, 5)
    assert got.size_pt == 9 and not got.shrunk and not got.overflow
    assert got.lines == ("Der Fried-", "hofswäch-", "ter kommt")
    assert max(got.widths_mm) <= 18


def test_a_small_shrink_is_kept_rather_than_a_break_and_a_large_one_is_not():
    from pnp.text.layout import width_mm

    title = "Muskelprotz-Zombie"
    wide = width_mm(title, "bold", 12)
    with hyphenate.using("de"):
        slight = layout(title, "bold", wide * 0.99, 10, 12, 6)          # 11.75 pt on one line: kept
        much = layout(title, "bold", wide * 0.8, 12, 12, 6)             # 9.5 pt plain: broken instead
    assert slight.lines == (title,) and 10.8 <= slight.size_pt < 12
    assert much.lines == ("Muskelprotz-", "Zombie") and much.size_pt == 12


def test_text_that_fits_is_never_hyphenated():
    with hyphenate.using("de"):
        got = layout(GERMAN, "regular", 80, 12, 9, 5)
    assert got.lines == (GERMAN,) and got.size_pt == 9


def test_the_card_textbox_hyphenates_in_the_build_language_and_reports_the_lines():
    report = FitReport()
    with hyphenate.using("de"):
        markup = make_textbox(report)(GERMAN, 0, 0, 18, 12, size=9, min_size=5)
    [box] = report.boxes
    assert box.size_pt == 9 and box.nominal_pt == 9 and not box.shrunk
    assert box.lines == ("Der Fried-", "hofswäch-", "ter kommt")
    assert re.findall(r">([^<]+)</text>", str(markup)) == ["Der Fried-", "hofswäch-", "ter kommt"]


def test_german_keeps_ck_together_and_breaks_after_a_hyphen_without_a_second_one():
    assert [head for head, _ in hyphenate.breaks("Glockenturm", "de")] == ["Glocken-", "Glo-"]
    assert hyphenate.breaks("Spiel-Hilfe", "de") == (("Spiel-", "Hilfe"),)
    assert hyphenate.breaks("Умовні", "uk")[0] == ("Умов-", "ні")
    assert hyphenate.breaks("Glockenturm", "fr") == ()


def test_arabic_never_hyphenates():
    assert hyphenate.breaks(ARABIC, "ar") == ()
    for lang in ("ar", "de"):              # not in an Arabic build, nor an Arabic text in a German one
        with hyphenate.using(lang):
            got = layout(ARABIC, "regular", 12, 12, 9, 4)
        assert got.lines == (ARABIC,) and got.size_pt < 9
        assert "-" not in "".join(got.lines)


def test_hyphenation_is_deterministic_across_caches():
    with hyphenate.using("it"):
        first = layout("precipitevolissimevolmente arriva", "regular", 20, 10, 9, 5)
    hyphenate.breaks.cache_clear()
    from pnp.text import layout as layout_module
    layout_module._layout.cache_clear()
    with hyphenate.using("it"):
        again = layout("precipitevolissimevolmente arriva", "regular", 20, 10, 9, 5)
    assert first == again and any(line.endswith("-") for line in first.lines)


@pytest.fixture(scope="module")
def zombie_run_uk():
    return language_fit(load_pack("zombie-run", strict=False), "uk")


def test_the_report_covers_aids_parts_tuck_boxes_and_cards(zombie_run_uk):
    texts = zombie_run_uk.texts
    by_key = {(t.where.split(" (")[0].split(" ")[0], t.what, t.key): t for t in texts}
    aid = by_key[("parts", "aid heading", "aid.special.heading")]
    assert aid.box.box_mm == pytest.approx((80.0, 5.04), abs=0.01) and aid.box.size_pt == 8 and aid.where == "parts p1-2 (components[0], aid)"
    legend = next(t for t in texts if t.what == "legend" and t.text == "Позначки:")   # was "Умовні позначки:" (issue 16)
    assert legend.box.box_mm == pytest.approx((22.0, 7.0), abs=0.05) and legend.box.lines == ("Позначки:",)
    assert legend.box.size_pt == 8 and legend.box.nominal_pt == 8 and not legend.box.shrunk
    match = next(t for t in texts if t.key == "aid.turn.match")
    assert len(match.box.lines) == 3 and match.box.size_pt == 7.5 and match.box.box_mm[0] == pytest.approx(77.4)  # it wraps
    assert any(t.where.startswith("tuck box p") for t in texts)
    card = next(t for t in texts if t.key == "item.bat")
    assert card.where == "card item-bat front" and card.box.box_mm == pytest.approx((43.0, 12.5), abs=0.05) and card.box.lines == ("Бейсбольна бита",)
    assert zombie_run_uk.floor_pt == 6.0 and zombie_run_uk.findings == []


def test_the_board_and_mat_are_in_the_report():
    report = language_fit(load_pack("cimiterio", strict=False), "de")
    bell = [t for t in report.texts if t.text == "Glockenturm"]
    places = {(t.where.split(" (")[0], t.what, tuple(round(v, 1) for v in t.box.box_mm), t.box.size_pt) for t in bell}
    assert ("board p1", "legend", (42.5, 8.5), 6.5) in places
    assert any(where.startswith("mat p1-") and size == 12 for where, _, _, size in places)
    assert all(t.box.size_pt >= 6 for t in bell)


def test_a_pack_floor_above_the_sizes_gives_findings_with_file_line_and_key(tiny_pack):
    main_yaml = tiny_pack / "pack.yaml"
    main_yaml.write_text(main_yaml.read_text(encoding="utf-8") + "text_floor_pt: 30\n", encoding="utf-8")
    pack = load_pack(tiny_pack)
    assert pack.text_floor_pt == 30
    report = language_fit(pack, "it")
    assert report.findings and all(f.code == "text.small" for _, f in report.findings)
    keyed = [(t, f) for t, f in report.findings if f.key == "card.gamma.body"]
    [(text, finding)] = keyed
    assert finding.file.endswith("it.yaml") and finding.line == 6 and "under the pack's 30 pt floor" in finding.message
    result = CliRunner().invoke(main, ["i18n", "fit", str(tiny_pack), "--lang", "it", "--format", "json", "--findings"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)["languages"][0]
    assert data["floor_pt"] == 30 and len(data["texts"]) == len({id(t) for t, _ in report.findings})
    row = next(r for r in data["texts"] if r["key"] == "card.gamma.body")
    assert row["box_mm"] == [round(v, 2) for v in text.box.box_mm] and row["findings"][0]["code"] == "text.small"
    strict = CliRunner().invoke(main, ["i18n", "fit", str(tiny_pack), "--lang", "it", "--strict"])
    assert strict.exit_code == 1 and "text.small at " in strict.output


def test_a_floor_outside_its_bounds_is_refused_with_file_and_line(tiny_pack):
    from pnp.errors import DataError

    main_yaml = tiny_pack / "pack.yaml"
    main_yaml.write_text(main_yaml.read_text(encoding="utf-8") + "text_floor_pt: 0\n", encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_pack(tiny_pack)
    assert any(p.key == "text_floor_pt" for p in caught.value.problems)


# ---- sheet text: the margins of card sheets, component pages and the calibration sheet

SHEET_KEYS = {"sheet.instructions", "sheet.print", "sheet.duplex_long", "sheet.label", "sheet.test_bar",
              "components.print", "components.test_bar", "components.page_label"}


def _margin_rows(report):
    return [t for t in report.texts if " margin" in t.where or t.where.startswith("calibration sheet")]


@pytest.mark.parametrize("lang", ["en", "de", "it", "uk", "ar"])
def test_sheet_text_is_in_the_report_in_every_language(lang):
    from pnp.i18n import sheet

    report = language_fit(load_pack("zombie-run", strict=False), lang)
    rows = _margin_rows(report)
    cards = [t for t in rows if t.where.startswith("card sheet")]
    # 8 sheets of 8 poker cards on A4 (36 cards + 28 copies); sheet 8 has its own, partly filled, geometry
    assert {t.where.split(" margin")[0] for t in cards} >= {"card sheets 1-7 front", "card sheets 1-7 back"}
    assert {t.what for t in cards} >= {"page label", "test bar label (x)", "test bar label (y)", "print line"}
    for t in rows:
        w, h = t.box.box_mm
        assert t.key in SHEET_KEYS or t.key.startswith("calibrate."), t.key
        assert 4.5 <= t.box.size_pt <= 7 and t.box.nominal_pt == 7 and not t.box.overflow, (t.where, t.what)
        assert t.box.size_pt >= 6 and not t.findings          # the shipped texts print at or above the floor
        assert t.box.lines and "".join(t.box.lines).replace(" ", "") == t.text.replace(" ", "")
    for t in cards:   # between the crop marks: inside A4 less the 6.35 mm printer margin, a few mm deep
        w, h = t.box.box_mm
        assert 5 < w < 210 - 2 * 6.35 and 2.5 < h < 12, (t.what, w, h)
    label = next(t for t in cards if t.what == "page label" and t.where.startswith("card sheets 1-7 front"))
    title = load_pack("zombie-run", strict=False).texts[lang]["game.name"]
    assert title in label.text and "7/8" in label.text and label.file.endswith(f"text/{lang}.yaml")
    bar_x = next(t for t in cards if t.what == "test bar label (x)")
    assert bar_x.text == sheet.t(lang, "sheet.test_bar") and bar_x.file.endswith(f"i18n/sheet/{lang}.yaml")
    assert bar_x.line > 0
    # component pages: the 7 mm strips 6 mm inside the paper edge (198 mm on A4); the bar takes 51.5 mm
    parts = {t.what: t for t in rows if t.where == "parts p1 margin"}
    assert parts["print line"].box.box_mm == pytest.approx((198.0, 7.0), abs=0.01)
    assert parts["print line"].key == "components.print" and parts["print line"].box.size_pt == 7
    assert parts["test bar label"].box.box_mm == pytest.approx((146.5, 7.0), abs=0.01)
    assert parts["page label"].box.box_mm[0] < 146.5 and re.search(r" 1/[2-9] ", parts["page label"].text)
    # the calibration sheet: 12 mm side margins on A4, above the top targets
    calibration = {(t.where, t.key): t for t in rows if t.where.startswith("calibration sheet")}
    assert {key for _, key in calibration} == {"calibrate.front_1", "calibrate.front_2", "calibrate.back_1",
                                               "calibrate.back_2", "calibrate.back_3", "calibrate.back_4",
                                               "calibrate.test_bar"}
    first = calibration[("calibration sheet front", "calibrate.front_1")]
    assert first.box.box_mm[0] == pytest.approx(186.0) and 30 < first.box.box_mm[1] < 40


def test_the_ukrainian_calibration_line_wraps_instead_of_running_off_the_page():
    from pnp.sheets.calibrate import plan_text
    from pnp.text.layout import width_mm

    [front_1] = [t for t in plan_text("a4", "long", "uk") if t.key == "calibrate.front_1"]
    assert width_mm(front_1.box.text, "regular", 7) > 186          # one line would pass the right margin
    assert len(front_1.box.lines) == 2 and front_1.box.size_pt == 7 and not front_1.box.overflow
    assert front_1.baselines[0] - front_1.baselines[1] == pytest.approx(7 * 1.4)
    assert all(width_mm(line, "regular", 7) <= 186 for line in front_1.box.lines)


def test_sheet_text_is_drawn_where_and_how_large_the_report_says(tmp_path):
    """The report's sheet sizes are the ones in the PDF: German card sheets split the print line in
    two at 7 pt rather than print it whole at 5.6 pt."""
    import pypdfium2 as pdfium

    from pnp.build import BuildOptions, build

    report = language_fit(load_pack("zombie-run", strict=False), "de")
    pieces = {t.key: t for t in _margin_rows(report) if t.where.startswith("card sheets 1-7 front")}
    assert "sheet.instructions" not in pieces
    assert pieces["sheet.print"].box.size_pt == 7 and pieces["sheet.duplex_long"].box.size_pt == 7
    build(["zombie-run"], BuildOptions(lang="de", out=tmp_path))
    [pdf] = (tmp_path / "zombie-run").glob("zombie-run-cards-de-*.pdf")
    page = pdfium.PdfDocument(pdf)[0].get_textpage()
    text = page.get_text_range()
    assert pieces["sheet.print"].text in text and pieces["sheet.duplex_long"].text in text
    assert "nicht skalieren; beidseitig" not in text             # not the whole line, shrunk


def _long_word(n: int = 420) -> str:
    return ("Druckeinstellungsüberprüfung" * 20)[:n]


def test_an_over_long_game_name_leaves_the_page_label_off_the_card_sheet(tiny_pack):
    from conftest import replace_once

    replace_once(tiny_pack / "text" / "it.yaml", "game: {name: Piccolo Test}", f"game: {{name: {_long_word()}}}")
    report = language_fit(load_pack(tiny_pack), "it")
    labels = [t for t in _margin_rows(report) if t.key == "sheet.label"]
    assert labels and all(t.dropped and t.box.overflow and t.box.size_pt is None for t in labels)
    [finding] = labels[0].findings
    assert finding.code == "text.fit" and "left off the page" in finding.message
    assert finding.file.endswith("text/it.yaml") and finding.line == 1 and finding.key == "sheet.label"
    assert labels[0].contains == ["game.name"]
    w, h = labels[0].box.box_mm
    assert 5 < w < 200 and 2 < h < 12
    result = CliRunner().invoke(main, ["i18n", "fit", str(tiny_pack), "--lang", "it", "--findings"])
    assert result.exit_code == 1 and "text.fit at " in result.output and "page label" in result.output


def test_a_game_s_over_long_print_line_on_component_pages_is_a_finding(tmp_path):
    import shutil

    pack_dir = Path(shutil.copytree(load_pack("zombie-run", strict=False).root, tmp_path / "zombie-run"))
    de = pack_dir / "text" / "de.yaml"
    de.write_text(de.read_text(encoding="utf-8").replace("components:\n", f"components:\n  print: {_long_word()}\n", 1),
                  encoding="utf-8")
    pack = load_pack(pack_dir, strict=False)
    line = next(n for n, text in enumerate(de.read_text(encoding="utf-8").splitlines(), 1)
                if text.startswith("  print: Druck"))
    report = language_fit(pack, "de")
    rows = [t for t in _margin_rows(report) if t.key == "components.print"]
    assert rows and all(t.box.overflow and t.dropped for t in rows)
    assert rows[0].box.box_mm == pytest.approx((198.0, 7.0), abs=0.01)
    [finding] = rows[0].findings
    assert finding.code == "text.fit" and finding.file.endswith("text/de.yaml") and finding.line == line
    cards = [t for t in _margin_rows(report) if t.key.startswith("sheet.")]
    assert cards and not any(t.findings for t in cards)          # the card sheets' own text is the shared one
    data = json.loads(CliRunner().invoke(main, ["i18n", "fit", str(pack_dir), "--lang", "de", "--format", "json",
                                                "--findings"]).output)
    row = next(r for r in data["languages"][0]["texts"] if r["key"] == "components.print" and r["where"] == rows[0].where)
    assert row["dropped"] and row["size_pt"] is None and row["findings"][0]["code"] == "text.fit"
