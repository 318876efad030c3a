"""Art files in templates: <image href="art/..."> of PNG, JPEG and SVG files inside the pack,
embedded once per PDF, fitted as preserveAspectRatio says, refused (template.art, exit 2, no
traceback) when they cannot be drawn, and their print resolution checked by `pnp check`.

The pack is tests/packs/artful (a copy of tiny with art/); tests that break it work on a copy."""
from __future__ import annotations

import io
import json
import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from PIL import Image, ImageChops
from reportlab.graphics import renderPDF
from reportlab.pdfgen.canvas import Canvas
from svglib.svglib import svg2rlg

from pnp.cli import main
from pnp.render.art import ART_ERROR, MAX_ART_PIXELS, ArtError, ArtLibrary
from pnp.render.svgcanvas import compile_svg

ARTFUL = Path(__file__).resolve().parent / "packs" / "artful"
DPI = 100
TIMEOUT_S = 120
RED, BLUE, GREEN = (200, 30, 30), (30, 30, 200), (30, 160, 60)


@pytest.fixture
def artful(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    target = tmp_path / "artful"
    shutil.copytree(ARTFUL, target)
    return target


def build(pack: Path, *args: str):
    return CliRunner().invoke(main, ["build", str(pack), "--out", "out", "--lang", "en", *args])


def images_of(doc: pikepdf.Pdf) -> list[pikepdf.Stream]:
    """The image XObjects of a PDF that are drawn (soft masks, the alpha of another, left out)."""
    images = [o for o in doc.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]
    masks = {o.get("/SMask").objgen for o in images if "/SMask" in o}
    return [o for o in images if o.objgen not in masks]


def face_pdf(svg: str, root: Path) -> bytes:
    face = compile_svg(svg, art=ArtLibrary(root))
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(face.width, face.height), invariant=1)
    face.define_form(canvas, "face")
    canvas.doForm("face")
    canvas.showPage()
    canvas.save()
    return out.getvalue()


def raster(pdf: bytes) -> Image.Image:
    return pdfium.PdfDocument(pdf)[0].render(scale=DPI / 72).to_pil().convert("RGB")


def pixel(img: Image.Image, x_mm: float, y_mm: float) -> tuple[int, int, int]:
    return img.getpixel((int(x_mm / 25.4 * DPI), int(y_mm / 25.4 * DPI)))


def near(a: tuple[int, ...], b: tuple[int, ...], tolerance: int = 6) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


def svg(body: str, w: float = 40, h: float = 30) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" viewBox="0 0 {w} {h}">'
            f'<rect x="0" y="0" width="{w}" height="{h}" fill="white"/>{body}</svg>')


@pytest.fixture
def halves(tmp_path) -> Path:
    """art/halves.png: 40 x 20 px, the left half red, the right half blue."""
    art = tmp_path / "art"
    art.mkdir(exist_ok=True)
    image = Image.new("RGB", (40, 20), RED)
    image.paste(BLUE, (20, 0, 40, 20))
    image.save(art / "halves.png")
    return tmp_path


# ---------------------------------------------------------------------------------------------
# embedded once, reproducibly

def test_each_art_file_is_one_image_in_the_pdf_however_many_cards_use_it(artful):
    result = build(artful)
    assert result.exit_code == 0, result.output
    pdf = artful.parent / "out" / "artful" / "artful-cards-en-a4.pdf"
    doc = pikepdf.open(pdf)
    images = images_of(doc)
    sizes = sorted((int(o.Width), int(o.Height)) for o in images)
    # knight.png on the front of 5 cards (alpha x3, beta, gamma), gem.png inside frame.svg on
    # the same 5, moon.jpg on the 4 deck backs: one image each
    assert sizes == [(200, 200), (600, 800), (900, 900)]
    moon = next(o for o in images if int(o.Width) == 900)
    assert "/DCTDecode" in [str(f) for f in moon.Filter]          # the JPEG as it is, not re-encoded
    gem = next(o for o in images if int(o.Width) == 200)
    assert "/SMask" in gem                                         # its alpha channel kept
    doc.close()
    first = pdf.read_bytes()
    assert build(artful).exit_code == 0
    assert pdf.read_bytes() == first                               # same input, same bytes


# ---------------------------------------------------------------------------------------------
# fitting: preserveAspectRatio and clipping, pixel by pixel

@pytest.mark.parametrize("aspect, expected", [
    # a 40 x 20 px image (red | blue) into the box x 10..30, y 5..25 mm
    ("xMidYMid meet", {(15, 15): RED, (25, 15): BLUE, (20, 7): "white", (20, 23): "white"}),
    ("xMinYMin meet", {(15, 10): RED, (25, 10): BLUE, (20, 17): "white"}),
    ("xMaxYMax meet", {(15, 20): RED, (25, 20): BLUE, (20, 12): "white"}),
    ("xMidYMid slice", {(11, 6): RED, (19, 24): RED, (21, 6): BLUE, (29, 24): BLUE, (8, 15): "white",
                        (32, 15): "white"}),
    ("xMinYMid slice", {(11, 15): RED, (29, 15): RED, (32, 15): "white"}),
    ("xMaxYMid slice", {(11, 15): BLUE, (29, 15): BLUE, (8, 15): "white"}),
    ("none", {(11, 6): RED, (19, 24): RED, (21, 6): BLUE, (29, 24): BLUE}),
])
def test_image_fits_its_box_as_preserve_aspect_ratio_says(halves, aspect, expected):
    img = raster(face_pdf(svg(f'<image href="art/halves.png" x="10" y="5" width="20" height="20" '
                              f'preserveAspectRatio="{aspect}"/>'), halves))
    for (x, y), colour in expected.items():
        want = (255, 255, 255) if colour == "white" else colour
        assert near(pixel(img, x, y), want), (aspect, (x, y), pixel(img, x, y), want)


def test_stretched_image_matches_svglib(halves):
    # svglib draws <image> stretched to its box (it ignores preserveAspectRatio): compare "none"
    doc = svg('<image xlink:href="art/halves.png" x="4" y="3" width="30" height="22" preserveAspectRatio="none"/>'
              '<g transform="rotate(10 20 15)"><image href="art/halves.png" x="22" y="18" width="12" height="6" '
              'preserveAspectRatio="none"/></g>').replace('<svg ', '<svg xmlns:xlink="http://www.w3.org/1999/xlink" ')
    source = halves / "face.svg"
    source.write_text(doc, encoding="utf-8")        # svglib reads art/ next to the file, as we read it in the pack
    drawing = svg2rlg(str(source))
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(drawing.width, drawing.height), invariant=1)
    renderPDF.draw(drawing, canvas, 0, 0)
    canvas.showPage()
    canvas.save()
    ours, theirs = raster(face_pdf(doc, halves)), raster(out.getvalue())
    largest = ImageChops.difference(ours, theirs).convert("L").point(lambda v: 255 if v > 32 else 0)
    assert largest.histogram()[255] / (ours.width * ours.height) < 0.01      # edges of the image only


def test_clip_path_and_alpha_of_an_image(halves):
    # a PNG with a transparent half shows what is under it; a clip path cuts the image to a disc
    Image.new("RGBA", (20, 20), (0, 0, 0, 0)).save(halves / "art" / "clear.png")
    image = Image.open(halves / "art" / "clear.png")
    image.paste((*GREEN, 255), (0, 0, 10, 20))
    image.save(halves / "art" / "clear.png")
    img = raster(face_pdf(svg(
        '<defs><clipPath id="disc"><circle cx="20" cy="15" r="6"/></clipPath></defs>'
        '<rect x="0" y="0" width="40" height="30" fill="#dfb920"/>'
        '<image href="art/halves.png" x="0" y="0" width="40" height="30" preserveAspectRatio="none" '
        'clip-path="url(#disc)"/>'
        '<image href="art/clear.png" x="2" y="2" width="10" height="10"/>'), halves))
    assert near(pixel(img, 17, 15), RED) and near(pixel(img, 23, 15), BLUE)       # inside the disc
    assert near(pixel(img, 20, 6), (223, 185, 32))                                 # outside: the yellow
    assert near(pixel(img, 4, 7), GREEN) and near(pixel(img, 10, 7), (223, 185, 32))


def test_jpeg_turned_by_its_exif_orientation(tmp_path):
    # a phone photo stored on its side: shown upright, as browsers show it
    (tmp_path / "art").mkdir()
    image = Image.new("RGB", (40, 20), RED)
    image.paste(BLUE, (20, 0, 40, 20))
    exif = Image.Exif()
    exif[0x0112] = 6                                      # "rotate 90 clockwise to view"
    image.save(tmp_path / "art" / "photo.jpg", exif=exif, quality=95)
    art = ArtLibrary(tmp_path)("art/photo.jpg")
    assert (art.width, art.height) == (20, 40)
    img = raster(face_pdf(svg('<image href="art/photo.jpg" x="10" y="0" width="15" height="30"/>'), tmp_path))
    assert near(pixel(img, 17, 7), RED, 20) and near(pixel(img, 17, 22), BLUE, 20)


def test_svg_art_is_drawn_in_place_and_confined(tmp_path):
    art = tmp_path / "art"
    art.mkdir()
    (art / "badge.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><defs><linearGradient id="g">'
        '<stop offset="0" stop-color="#c81e1e"/><stop offset="1" stop-color="#c81e1e"/></linearGradient></defs>'
        '<rect width="10" height="10" fill="url(#g)"/><rect x="20" width="10" height="10" fill="black"/></svg>',
        encoding="utf-8")
    # viewBox 10x10 into a 20x10 box: centred (x 15..25), the black rect beyond the viewBox clipped away
    img = raster(face_pdf(svg('<image href="art/badge.svg" x="10" y="10" width="20" height="10"/>'), tmp_path))
    assert near(pixel(img, 20, 15), RED) and pixel(img, 12, 15) == (255, 255, 255)
    assert pixel(img, 28, 15) == (255, 255, 255)
    # art that draws itself, through another file
    (art / "a.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1">'
                               '<image href="art/b.svg" width="1" height="1"/></svg>', encoding="utf-8")
    (art / "b.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1">'
                               '<image href="art/a.svg" width="1" height="1"/></svg>', encoding="utf-8")
    with pytest.raises(ArtError, match=r"art/a.svg -> art/b.svg -> art/a.svg"):
        compile_svg(svg('<image href="art/a.svg" width="5" height="5"/>'), art=ArtLibrary(tmp_path))
    (art / "bad.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><foo/></svg>',
                                 encoding="utf-8")
    with pytest.raises(ArtError, match=r"art 'art/bad.svg': .*<foo> is not supported") as caught:
        compile_svg(svg('<image href="art/bad.svg" width="5" height="5"/>'), art=ArtLibrary(tmp_path))
    assert caught.value.code == ART_ERROR


# ---------------------------------------------------------------------------------------------
# refused: named, with a code, before anything is decoded

def png_header(width: int, height: int) -> bytes:
    """A PNG whose header claims width x height pixels (a decompression bomb's few bytes)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b"")


@pytest.fixture
def hostile(tmp_path) -> Path:
    pack = tmp_path / "pack"
    (pack / "art").mkdir(parents=True)
    (tmp_path / "outside.png").write_bytes(b"")
    Image.new("RGB", (4, 4)).save(tmp_path / "outside.png")
    (pack / "art" / "link.png").symlink_to(tmp_path / "outside.png")
    (pack / "art" / "notes.txt").write_text("hello", encoding="utf-8")
    (pack / "art" / "corrupt.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"garbage" * 20)
    Image.new("RGB", (4, 4)).save(pack / "art" / "jpeg.png", format="JPEG")
    (pack / "art" / "bomb.png").write_bytes(png_header(100_000, 100_000))
    (pack / "art" / "huge.png").write_bytes(png_header(8_000, 8_000))
    (pack / "art" / "picture.gif").write_bytes(b"GIF89a")
    return pack


@pytest.mark.parametrize("href, words", [
    ("../outside.png", ["'..'"]),
    ("/etc/hostname", ["absolute"]),
    ("http://example.com/a.png", ["URLs"]),
    ("data:image/png;base64,iVBORw0KGgo=", ["URLs"]),
    ("C:\\art\\a.png", ["'/'"]),
    ("art/missing.png", ["no such file"]),
    ("art/link.png", ["link to a file outside the pack"]),
    ("art/notes.txt", [".txt", "PNG, JPEG or SVG"]),
    ("art/picture.gif", [".gif", "PNG, JPEG or SVG"]),
    ("art/corrupt.png", ["not a readable PNG"]),
    ("art/jpeg.png", ["holds JPEG", "not the PNG"]),
    ("art/huge.png", ["8,000 x 8,000 pixels", f"{MAX_ART_PIXELS:,}"]),
    ("art/bomb.png", ["more pixels than", f"{MAX_ART_PIXELS:,}"]),
    ("", ["empty href"]),
])
def test_refused_art_names_the_href_and_why(hostile, href, words):
    with pytest.raises(ArtError) as caught:
        compile_svg(svg(f'<image href="{href}" width="5" height="5"/>'), art=ArtLibrary(hostile))
    assert caught.value.code == ART_ERROR and caught.value.href == href
    for word in words:
        assert word in str(caught.value), str(caught.value)


def test_a_decompression_bomb_is_refused_from_its_header(hostile):
    # in a child with a timeout: were its pixels decoded, 10^10 of them would take the machine along
    code = ("import sys; from pnp.render.art import ArtLibrary, ArtError\n"
            "try:\n    ArtLibrary(sys.argv[1])('art/bomb.png')\nexcept ArtError as e:\n    print(e)\n")
    result = subprocess.run([sys.executable, "-c", code, str(hostile)], capture_output=True, text=True,
                            timeout=TIMEOUT_S)
    assert "more pixels than an art file may have" in result.stdout, result.stdout + result.stderr


def test_build_and_check_refuse_missing_art_at_the_template_line(artful):
    template = artful / "templates" / "artful" / "front.svg.j2"
    line = next(n for n, text in enumerate(template.read_text(encoding="utf-8").splitlines(), 1)
                if 'href="art/frame.svg"' in text)
    (artful / "art" / "frame.svg").rename(artful / "art" / "frame.svg.old")
    result = build(artful)
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert f"front.svg.j2:{line}:" in result.output
    assert "art 'art/frame.svg': no such file in the pack" in result.output
    assert result.output.count("art/frame.svg") == 2                  # once, for every card it failed on
    assert "(card alpha at artful/cards/main.yaml:1, and 4 more cards)" in result.output
    assert not (artful.parent / "out" / "artful").exists()           # nothing written
    checked = CliRunner().invoke(main, ["check", str(artful), "--format", "json"])
    assert checked.exit_code == 2
    findings = json.loads(checked.output)["findings"]
    assert [(f["rule"], f["line"]) for f in findings] == [(ART_ERROR, line)]


def test_a_computed_href_names_the_card_that_gave_it(artful):
    cards = artful / "cards" / "main.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("portrait: knight.png}", "portrait: ../../x.png}", 1),
                     encoding="utf-8")
    result = build(artful)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "art 'art/../../x.png': refused: '..' would leave the pack's folder" in result.output
    assert "(card alpha at artful/cards/main.yaml:1, and 2 more cards)" in result.output


# ---------------------------------------------------------------------------------------------
# pnp check: the resolution each raster prints at

def test_check_warns_once_for_art_under_300_ppi(artful):
    result = CliRunner().invoke(main, ["check", str(artful), "--format", "json"])
    assert result.exit_code == 0, result.output                       # a warning: the pack is usable
    findings = json.loads(result.output)["findings"]
    assert [f["rule"] for f in findings] == ["art.resolution"]
    found = findings[0]
    assert found["severity"] == "warning" and found["key"] == "art/knight.png"
    assert found["file"].endswith("art/knight.png")
    # 600 x 800 px sliced into the 55 mm wide window: 600 / (55 / 25.4) = 277 ppi
    assert found["detail"]["ppi"] == pytest.approx(277.1, abs=0.2)
    assert found["detail"]["cards"] == ["alpha", "beta", "gamma"]
    assert found["detail"]["template"] == "artful/front.svg.j2"
    text = CliRunner().invoke(main, ["check", str(artful)]).output
    assert "277 ppi, under 300 (template artful/front.svg.j2, cards alpha, beta, gamma)" in text
    assert CliRunner().invoke(main, ["check", "--strict", str(artful)]).exit_code == 1
    # a sharper portrait: clean
    Image.open(artful / "art" / "knight.png").resize((660, 880)).save(artful / "art" / "knight.png")
    assert CliRunner().invoke(main, ["check", str(artful)]).output.strip().endswith("clean")
