"""Issue 16 item 3: hyphenation before shrinking, and the fit report of everything printed."""
from __future__ import annotations

import json
import re

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
    legend = next(t for t in texts if t.what == "legend" and t.text.startswith("Умовні позначки"))
    assert legend.box.box_mm == pytest.approx((22.0, 7.0), abs=0.05) and len(legend.box.lines) == 2          # it wraps
    assert legend.box.size_pt == 7.5 and legend.box.nominal_pt == 8 and legend.box.shrunk
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
