"""A pack's own fonts (pnp.text.packfonts): a TTF is used as it is, a CFF OTF is converted into
the font cache (the same bytes every time), an unusable file is font.unusable at pack.yaml's line,
and glyph coverage per language names the characters no font has (font.coverage)."""
from __future__ import annotations

import json
import re
import shutil
import string
from pathlib import Path

import pytest

from pnp.errors import DataError, Problems
from pnp.pack import load_pack, read_pack
from pnp.render.textbox import make_textbox
from pnp.text import fonts
from pnp.text.fitreport import FitReport
from pnp.text.packfonts import FONT_COVERAGE, FONT_UNUSABLE, assets_and_problems, coverage_problems, using

PACK = Path(__file__).resolve().parent / "packs" / "richtext"
CHARS = string.ascii_letters + string.digits + " .,;:*&<>{}!?'-"     # no accented letters


def build_font(path: Path, family: str, cff: bool = False) -> None:
    """A small real font: a box glyph for each of CHARS (fontTools FontBuilder)."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.t2CharStringPen import T2CharStringPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    names = [".notdef"] + [f"g{ord(c)}" for c in CHARS]
    fb = FontBuilder(1000, isTTF=not cff)
    fb.setupGlyphOrder(names)
    fb.setupCharacterMap({ord(c): f"g{ord(c)}" for c in CHARS})
    drawn = {}
    for name in names:
        pen = T2CharStringPen(500, None) if cff else TTGlyphPen(None)
        if name != "g32":
            pen.moveTo((50, 0)), pen.lineTo((50, 700)), pen.lineTo((450, 700)), pen.lineTo((450, 0)), pen.closePath()
        drawn[name] = pen.getCharString() if cff else pen.glyph()
    if cff:
        fb.setupCFF(family, {"FullName": family}, drawn, {})
    else:
        fb.setupGlyf(drawn)
    fb.setupHorizontalMetrics({name: (500, 50) for name in names})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": family, "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=800, usWinAscent=800, usWinDescent=200, sCapHeight=700, fsType=0)
    fb.setupPost()
    fb.font["head"].created = fb.font["head"].modified = 3_000_000_000
    fb.save(str(path))


def pack_with_fonts(tmp_path: Path, declared: str, files: dict[str, bytes | None]) -> Path:
    root = tmp_path / "richtext"
    shutil.copytree(PACK, root)
    (root / "fonts").mkdir()
    for name, data in files.items():
        if data is None:
            build_font(root / "fonts" / name, "Box", cff=name.endswith(".otf"))
        else:
            (root / "fonts" / name).write_bytes(data)
    text = (root / "pack.yaml").read_text()
    (root / "pack.yaml").write_text(text.replace("icons: icons\n", f"icons: icons\nfonts:\n{declared}"))
    return root


def test_a_pack_ttf_draws_its_style_and_coverage_names_the_missing_characters(tmp_path):
    root = pack_with_fonts(tmp_path, "  regular: {file: fonts/Box.ttf}\n", {"Box.ttf": None})
    pack = load_pack(str(root))
    assets, problems = assets_and_problems(pack)
    assert problems == []
    name = fonts.chain_names(assets.style("regular"))[0]
    assert re.fullmatch(r"Pack-richtext-[0-9a-f]{16}", name)
    markup = str(make_textbox(FitReport(), assets)("Plain words", 0, 0, 50, 10))
    assert f'font-family="{name}"' in markup
    with using(assets):                                   # the active assets, as the renderer sets them
        assert f'font-family="{name}"' in str(make_textbox(FitReport())("Plain words", 0, 0, 50, 10))
    (problem,) = [p for p in coverage_problems(pack) if p.lang == "it"]
    assert problem.code == FONT_COVERAGE and problem.file.endswith("text/it.yaml") and problem.line > 0
    assert "U+00F9 'ù'" in problem.message and problem.get("characters") == ("ù",)
    assert problem.key == "card.beta.body"                 # "più": the example key
    assert [p.lang for p in coverage_problems(pack)] == ["it"]           # the English texts are covered


def test_a_pack_without_fonts_has_no_coverage_problems():
    assert coverage_problems(load_pack(str(PACK))) == []


def test_a_cff_otf_is_converted_into_the_cache_the_same_every_time(tmp_path):
    root = pack_with_fonts(tmp_path, "  display: {file: fonts/Box.otf}\n", {"Box.otf": None})
    pack = load_pack(str(root))
    assets, problems = assets_and_problems(pack)
    assert problems == []
    name = fonts.chain_names(assets.style("display"))[0]
    converted = fonts.font_path(name)
    assert converted.parent == fonts.cache_dir() and converted.read_bytes()[:4] == b"\x00\x01\x00\x00"
    from pnp.text.packfonts import _converted
    source = (root / "fonts" / "Box.otf").read_bytes()
    assert _converted(source) == _converted(source) == converted.read_bytes()
    markup = str(make_textbox(FitReport(), assets)("Title", 0, 0, 50, 10, font="display"))
    assert f'font-family="{name}"' in markup


def test_a_variable_ttf_is_cut_at_its_default_instance_into_the_cache(tmp_path):
    variable = fonts.NOTO_SANS.read_bytes()          # wght 100-900 (default 400), wdth 62.5-100
    root = pack_with_fonts(tmp_path, "  display: {file: fonts/Var.ttf}\n", {"Var.ttf": variable})
    assets, problems = assets_and_problems(load_pack(str(root)))
    assert problems == []
    converted = fonts.font_path(fonts.chain_names(assets.style("display"))[0])
    assert converted.parent == fonts.cache_dir()
    from fontTools.ttLib import TTFont
    static, source = TTFont(converted), TTFont(fonts.NOTO_SANS)
    assert not {"fvar", "gvar", "HVAR"} & set(static.keys())          # no variations left to ignore
    assert static["OS/2"].usWeightClass == 400
    cmap, default = static.getBestCmap(), source.getBestCmap()
    assert set(cmap) == set(default)                                   # every character kept
    # the default instance is the variable font's own outlines and advances: W, its widest letter
    assert static["hmtx"][cmap[ord("W")]] == source["hmtx"][default[ord("W")]]
    assert static["head"].created == source["head"].created            # no time of the cut stamped
    from pnp.text.packfonts import _converted
    assert _converted(variable) == converted.read_bytes()


@pytest.mark.parametrize("data, reason", [
    (b"not a font at all\n" * 100, "is not a font that can be read"),
    (None, "is not a font that can be read"),             # truncated (made below)
])
def test_an_unusable_font_file_is_a_problem_at_its_pack_yaml_line(tmp_path, data, reason):
    if data is None:
        build_font(tmp_path / "whole.ttf", "Box")
        data = (tmp_path / "whole.ttf").read_bytes()[:300]
    root = pack_with_fonts(tmp_path, "  bold: {file: fonts/Broken.ttf}\n", {"Broken.ttf": data})
    with pytest.raises(DataError) as refused:              # the loader refuses it, exit 2
        load_pack(str(root))
    assert refused.value.exit_code == 2
    assert [(p.code, p.key) for p in refused.value.problems] == [(FONT_UNUSABLE, "fonts.bold.file")]
    pack = read_pack(root, Problems())                       # read as far as it goes, as `pnp check` does
    assert pack is not None
    assets, problems = assets_and_problems(pack)
    (problem,) = problems
    lines = (root / "pack.yaml").read_text().splitlines()
    assert problem.code == FONT_UNUSABLE and problem.key == "fonts.bold.file"
    assert "Broken.ttf" in lines[problem.line - 1] and reason in problem.message
    assert assets.style("bold") == "bold"                  # the style falls back to the shipped font


def with_fs_type(tmp_path: Path, fs_type: int) -> bytes:
    """The box font with its OS/2 fsType (embedding licence) set to `fs_type`."""
    from fontTools.ttLib import TTFont

    build_font(tmp_path / "box.ttf", "Box")
    font = TTFont(tmp_path / "box.ttf")
    font["OS/2"].fsType = fs_type
    font.save(tmp_path / "licensed.ttf")
    return (tmp_path / "licensed.ttf").read_bytes()


def test_a_font_whose_licence_forbids_embedding_is_refused_by_check_and_build(tmp_path):
    from click.testing import CliRunner

    from pnp.check.cli import check
    from pnp.cli import main

    root = pack_with_fonts(tmp_path, "  bold: {file: fonts/Restricted.ttf}\n",
                           {"Restricted.ttf": with_fs_type(tmp_path, 0x0002)})
    result = CliRunner().invoke(check, [str(root), "--no-print", "--format", "json"])
    assert result.exit_code == 2, result.output
    (finding,) = json.loads(result.output)["findings"]
    assert finding["rule"] == FONT_UNUSABLE and finding["key"] == "fonts.bold.file"
    assert finding["file"].endswith("pack.yaml") and finding["line"] > 0
    assert "Restricted.ttf forbids embedding in a PDF: its OS/2 fsType is 0x0002 (restricted license" \
        in finding["message"]
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", str(root), "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert "fsType is 0x0002" in result.output and "Traceback" not in result.output
    assert not out.exists() or not any(out.rglob("*.pdf"))


# fsType -> the reason it is refused, or None: a PDF may embed it
LICENCES = {
    0x0000: None,                                       # installable
    0x0004: None,                                       # preview & print
    0x0008: None,                                       # editable
    0x000A: None,                 # restricted and editable (OS/2 before version 3): the least restrictive holds
    0x0002: "0x0002 (restricted license embedding",
    0x0100: "0x0100 (no subsetting",                    # ReportLab always embeds a subset
    0x0200: "0x0200 (bitmap embedding only",            # ReportLab embeds outlines
    0x0108: "0x0108 (no subsetting",                    # editable, but not to be subset
}


def test_each_licence_bit_that_forbids_a_pdf_embedding_is_named_and_the_others_are_used(tmp_path):
    files = {f"F{fs_type:04X}.ttf": with_fs_type(tmp_path, fs_type) for fs_type in LICENCES}
    declared = "".join(f"  s{fs_type:04x}: {{file: fonts/F{fs_type:04X}.ttf}}\n" for fs_type in LICENCES)
    pack = read_pack(pack_with_fonts(tmp_path, declared, files), Problems())
    assert pack is not None
    assets, problems = assets_and_problems(pack)
    refused = {p.key: p for p in problems}
    assert {p.code for p in problems} == {FONT_UNUSABLE}
    for fs_type, reason in LICENCES.items():
        key = f"fonts.s{fs_type:04x}.file"
        if reason is None:
            assert key not in refused
            assert fonts.chain_names(assets.style(f"s{fs_type:04x}"))[0].startswith("Pack-richtext-")
        else:
            assert f"F{fs_type:04X}.ttf forbids embedding in a PDF: its OS/2 fsType is {reason}" \
                in refused[key].message
    assert len(refused) == sum(reason is not None for reason in LICENCES.values())
