"""Gradients in print-shop exports: RGB shadings (painted by `sh` or as shading patterns, inside
form XObjects) become DeviceCMYK shadings whose ramp follows the converted RGB ramp."""
from __future__ import annotations

import io
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from PIL import Image, ImageChops, ImageStat

from pnp.cli import main
from pnp.export.colour import CmykConverter, ColourConversionError, load_cmyk_profile
from pnp.export.faces import Frame
from pnp.export.pdfx import make_pdfx
from pnp.export.shadings import RAMP_TOLERANCE, convert_shading

ARTFUL = Path(__file__).resolve().parent / "packs" / "artful"   # a sky gradient on every front, a gold banner
RED, BLUE, GREEN = (1, 0, 0), (0, 0, 1), (0, 1, 0)
# Colours inside the SWOP gamut, so that the CMYK page can look like the RGB one (pure sRGB blue or
# green cannot be printed: they come out duller whatever the conversion)
PAPER, BRICK, GOLD, OCHRE, NAVY = (0.97, 0.96, 0.92), (0.64, 0.16, 0.16), (0.95, 0.84, 0.48), (0.78, 0.59, 0.12), \
    (0.16, 0.32, 0.64)


@pytest.fixture(scope="module")
def converter() -> CmykConverter:
    return CmykConverter(load_cmyk_profile())


def _walk(obj, seen: set) -> list:
    """Every dictionary and stream reachable from `obj`, each once."""
    found = []
    stack = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, (pikepdf.Dictionary, pikepdf.Stream, pikepdf.Array)):
            if item.is_indirect:
                if item.objgen in seen:
                    continue
                seen.add(item.objgen)
            if isinstance(item, pikepdf.Array):
                stack.extend(item)
            else:
                found.append(item)
                stack.extend(item.values())
    return found


def _type2_functions(function) -> list:
    if int(function.FunctionType) == 2:
        return [function]
    return [leaf for f in function.Functions for leaf in _type2_functions(f)]


def _evaluate(function, x: float) -> list[float]:
    """A Type 2 or Type 3 (stitching) PDF function at x, as a viewer computes it."""
    start, end = (float(v) for v in function.Domain)
    x = min(max(x, start), end)
    if int(function.FunctionType) == 2:
        t = x ** float(function.get("/N", 1))
        return [float(a) + t * (float(b) - float(a)) for a, b in zip(function.C0, function.C1)]
    edges = [start, *(float(v) for v in function.Bounds), end]
    piece = next(i for i in range(len(edges) - 1) if x <= edges[i + 1] or i == len(edges) - 2)
    e0, e1 = float(function.Encode[2 * piece]), float(function.Encode[2 * piece + 1])
    a, b = edges[piece], edges[piece + 1]
    return _evaluate(function.Functions[piece], e0 + (x - a) / (b - a) * (e1 - e0))


def _ramp(c0, c1) -> pikepdf.Dictionary:
    return pikepdf.Dictionary(FunctionType=2, Domain=[0, 1], C0=list(c0), C1=list(c1), N=1)


def _gradient_pdf() -> bytes:
    """A page whose one form XObject paints an axial paper-to-brick `sh` on its left half and fills
    its right half with a radial shading pattern, gold to ochre to navy (a stitching)."""
    pdf = pikepdf.new()
    axial = pikepdf.Dictionary(ShadingType=2, ColorSpace=pikepdf.Name.DeviceRGB, Coords=[0, 0, 100, 0],
                               Extend=[True, True], Function=_ramp(PAPER, BRICK))
    stitched = pikepdf.Dictionary(FunctionType=3, Domain=[0, 1], Bounds=[0.5], Encode=[0, 1, 0, 1],
                                  Functions=[_ramp(GOLD, OCHRE), _ramp(OCHRE, NAVY)])
    radial = pikepdf.Dictionary(ShadingType=3, ColorSpace=pikepdf.Name.DeviceRGB, Coords=[150, 50, 0, 150, 50, 50],
                                Extend=[True, True], Function=stitched)
    pattern = pikepdf.Dictionary(Type=pikepdf.Name.Pattern, PatternType=2, Shading=pdf.make_indirect(radial))
    form = pdf.make_stream(b"q 0 0 100 100 re W n /Sh0 sh Q /Pattern cs /P0 scn 100 0 100 100 re f",
                           Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form, BBox=[0, 0, 200, 100],
                           Resources=pikepdf.Dictionary(Shading=pikepdf.Dictionary(Sh0=pdf.make_indirect(axial)),
                                                        Pattern=pikepdf.Dictionary(P0=pdf.make_indirect(pattern))))
    page = pikepdf.Page(pikepdf.Dictionary(Type=pikepdf.Name.Page, MediaBox=[0, 0, 200, 100],
                                           Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(Fm0=form)),
                                           Contents=pdf.make_stream(b"q /Fm0 Do Q")))
    pdf.pages.append(page)
    pdf.docinfo["/Title"] = "gradients"                        # make_pdfx fills an Info dictionary in
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def _cmyk_pdf(rgb: bytes, converter: CmykConverter) -> bytes:
    pdf = pikepdf.open(io.BytesIO(rgb))
    make_pdfx(pdf, Frame(trim=(180, 80), bleed=10), converter, "gradients")
    out = io.BytesIO()
    pdf.save(out, deterministic_id=True)
    return out.getvalue()


def _render(data: bytes) -> Image.Image:
    document = pdfium.PdfDocument(data)
    try:
        return document[0].render(scale=1).to_pil().convert("RGB")
    finally:
        document.close()


def test_shadings_in_a_form_by_sh_and_by_pattern_become_cmyk_and_look_the_same(converter):
    rgb = _gradient_pdf()
    cmyk = _cmyk_pdf(rgb, converter)
    assert b"/DeviceRGB" not in cmyk
    pdf = pikepdf.open(io.BytesIO(cmyk))
    shadings = [d for d in _walk(pdf.Root, set()) if "/ShadingType" in d]
    assert sorted(int(s.ShadingType) for s in shadings) == [2, 3]
    for shading in shadings:
        assert shading.ColorSpace == pikepdf.Name.DeviceCMYK
        for function in _type2_functions(shading.Function):
            assert len(function.C0) == len(function.C1) == 4
    before, after = _render(rgb), _render(cmyk)
    mean = ImageStat.Stat(ImageChops.difference(before, after)).mean
    assert max(mean) < 4, mean                                  # out of 255, per channel
    for x in range(5, 200, 10):                                 # along both gradients, mid-height
        assert max(abs(a - b) for a, b in zip(before.getpixel((x, 50)), after.getpixel((x, 50)))) <= 16, x


def test_the_cmyk_ramp_follows_the_converted_rgb_ramp_not_just_its_ends(converter):
    shading = pikepdf.Dictionary(ShadingType=2, ColorSpace=pikepdf.Name.DeviceRGB, Coords=[0, 0, 1, 0],
                                 Function=_ramp(RED, BLUE), Background=[0, 1, 0])
    convert_shading(pikepdf.new(), shading, converter)
    assert [float(v) for v in shading.Background] == list(converter.rgb_through_profile(*GREEN))
    assert len(shading.Function.Functions) > 1                  # red to blue bends in CMYK: pieces
    for step in range(65):
        t = step / 64
        exact = converter.rgb_through_profile(*(a + t * (b - a) for a, b in zip(RED, BLUE)))
        assert _evaluate(shading.Function, t) == pytest.approx(exact, abs=RAMP_TOLERANCE + 1 / 255), t


def test_a_grey_ramp_stays_one_exact_piece_on_the_black_plate(converter):
    shading = pikepdf.Dictionary(ShadingType=2, ColorSpace=pikepdf.Name.DeviceRGB, Coords=[0, 0, 1, 0],
                                 Function=pikepdf.Dictionary(FunctionType=2, Domain=[0, 1], C0=[1, 1, 1],
                                                             C1=[0.2, 0.2, 0.2], N=2))
    convert_shading(pikepdf.new(), shading, converter)
    function = shading.Function
    assert int(function.FunctionType) == 2 and float(function.N) == 2
    assert [float(v) for v in function.C0] == [0, 0, 0, 0]
    assert [float(v) for v in function.C1] == [0, 0, 0, 0.8]


def test_a_sampled_function_has_every_sample_converted(converter):
    pdf = pikepdf.new()
    samples = bytes([255, 0, 0, 128, 128, 255, 0, 0, 255])
    function = pdf.make_stream(samples, FunctionType=0, Domain=[0, 1], Range=[0, 1, 0, 1, 0, 1], Size=[3],
                               BitsPerSample=8)
    shading = pikepdf.Dictionary(ShadingType=2, ColorSpace=pikepdf.Name.DeviceRGB, Coords=[0, 0, 1, 0],
                                 Function=function)
    convert_shading(pdf, shading, converter)
    out = shading.Function
    assert [float(v) for v in out.Range] == [0, 1] * 4 and int(out.BitsPerSample) == 8
    data = out.read_bytes()
    assert len(data) == 12
    for i, rgb in enumerate([(255, 0, 0), (128, 128, 255), (0, 0, 255)]):
        expected = converter.rgb_through_profile(*(v / 255 for v in rgb))
        assert [v / 255 for v in data[4 * i:4 * i + 4]] == pytest.approx(expected, abs=1e-4)


@pytest.mark.parametrize(("shading", "reason"), [
    (pikepdf.Dictionary(ShadingType=2, ColorSpace=pikepdf.Name.DeviceRGB, Coords=[0, 0, 1, 0],
                        Function=pikepdf.Dictionary(FunctionType=4, Domain=[0, 1], Range=[0, 1] * 3)),
     "PostScript calculator function"),
    (pikepdf.Dictionary(ShadingType=4, ColorSpace=pikepdf.Name.DeviceRGB), "a colour per vertex"),
    (pikepdf.Dictionary(ShadingType=2, ColorSpace=pikepdf.Array([pikepdf.Name.Indexed, pikepdf.Name.DeviceRGB, 1,
                                                                 b"\0\0\0\1\1\1"]),
                        Function=_ramp([0], [1])), "in /Indexed"),
])
def test_a_shading_that_cannot_be_converted_exactly_is_refused_with_its_reason(converter, shading, reason):
    with pytest.raises(ColourConversionError, match=reason):
        convert_shading(pikepdf.new(), shading, converter)


def test_a_pack_with_gradients_exports_to_dtc_with_no_rgb_left(tmp_path):
    result = CliRunner().invoke(main, ["export", str(ARTFUL), "--to", "dtc", "--lang", "en", "--out", str(tmp_path)],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    folder = tmp_path / "artful" / "export-dtc" / "en"
    fronts = folder / "artful-main-fronts.pdf"
    for path in (fronts, folder / "artful-main-backs.pdf"):
        assert b"/DeviceRGB" not in path.read_bytes()
    pdf = pikepdf.open(fronts)
    seen: set = set()
    objects = [d for page in pdf.pages for d in _walk(page.obj, seen)]
    shadings = [d for d in objects if "/ShadingType" in d]
    assert len(shadings) >= 2                                   # the sky and the banner's gold, per colour
    for shading in shadings:
        assert shading.ColorSpace == pikepdf.Name.DeviceCMYK
        for function in _type2_functions(shading.Function):
            assert len(function.C0) == len(function.C1) == 4
    images = [d for d in objects if d.get("/Subtype") == "/Image" and not d.get("/ImageMask", False)]
    assert images and all(str(i.ColorSpace) in ("/DeviceCMYK", "/DeviceGray") for i in images)
    again = tmp_path / "again"
    CliRunner().invoke(main, ["export", str(ARTFUL), "--to", "dtc", "--lang", "en", "--out", str(again)])
    assert (again / "artful" / "export-dtc" / "en" / fronts.name).read_bytes() == fronts.read_bytes()


def test_a_tiling_pattern_is_a_content_stream_converted_like_a_form(converter):
    pdf = pikepdf.new()
    tile = pdf.make_stream(b"1 0 0 rg 0 0 5 5 re f", Type=pikepdf.Name.Pattern, PatternType=1, PaintType=1,
                           TilingType=1, BBox=[0, 0, 10, 10], XStep=10, YStep=10, Resources=pikepdf.Dictionary())
    page = pikepdf.Page(pikepdf.Dictionary(Type=pikepdf.Name.Page, MediaBox=[0, 0, 100, 100],
                                           Resources=pikepdf.Dictionary(Pattern=pikepdf.Dictionary(T0=tile)),
                                           Contents=pdf.make_stream(b"/Pattern cs /T0 scn 0 0 100 100 re f")))
    pdf.pages.append(page)
    pdf.docinfo["/Title"] = "tiles"
    make_pdfx(pdf, Frame(trim=(80, 80), bleed=10), converter, "tiles")
    (fill, *_) = pikepdf.parse_content_stream(pdf.pages[0].Resources.Pattern.T0)
    assert str(fill.operator) == "k"
    assert [float(v) for v in fill.operands] == list(converter.rgb(*RED))
