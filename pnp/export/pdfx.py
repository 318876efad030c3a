"""Print-shop PDFs: one card per page, CMYK, PDF/X-4.

ReportLab draws the pages in sRGB as the build does (one form XObject per distinct face); pikepdf
then makes the file a PDF/X-4: every content stream rewritten with `rg`/`RG`, `g`/`G` and
DeviceRGB `sc`/`scn` turned into CMYK `k`/`K` (pnp.export.colour), RGB images converted, the empty
`BT /F1 12 Tf ET` ReportLab writes at the top of every page removed with the base-14 Helvetica it
names (a preflight rejects any font that is not embedded), /TrimBox and /BleedBox on every page,
the OutputIntent carrying the ICC profile, PDF version 1.6 and GTS_PDFXVersion in Info and XMP.
Gradients (shadings, painted by `sh` or filled with as shading patterns) become DeviceCMYK shadings
(pnp.export.shadings); tiling patterns are content streams converted like forms. What cannot be
converted (a mesh shading, a PostScript function, an RGB inline image) is refused with its reason.
"""
from __future__ import annotations

import hashlib
import io
import uuid
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import pikepdf
from pikepdf import ContentStreamInstruction, Name, Operator

from pnp.export.colour import CmykConverter, ColourConversionError
from pnp.export.faces import Frame, faces_pdf
from pnp.export.shadings import colour_space_kind, convert_shadings
from pnp.outputfiles import atomic_path
from pnp.render.faces import RenderedFace

PDFX_VERSION = "PDF/X-4"
PDF_VERSION = "1.6"                         # PDF/X-4 is based on PDF 1.6
FIXED_DATE_PDF = "D:20000101000000+00'00'"  # ReportLab's invariant date: same input, same bytes
FIXED_DATE_XMP = "2000-01-01T00:00:00+00:00"
PRODUCER = "pnp (ReportLab, pikepdf)"
TEXT_STATE = {"Tf", "TL", "Tc", "Tw", "Tz", "Ts", "Tr"}   # text operators that draw nothing

__all__ = ["ColourConversionError", "convert_instructions", "font_is_embedded", "make_pdfx", "write_pdfx"]


def write_pdfx(target: Path, faces: list[RenderedFace], frame: Frame, converter: CmykConverter, *,
               title: str, subject: str) -> None:
    """Write `faces`, one per page on the frame's page, as a CMYK PDF/X-4 at `target`, atomically."""
    pdf = pikepdf.open(io.BytesIO(faces_pdf(faces, frame, title, subject)))
    make_pdfx(pdf, frame, converter, title)
    with atomic_path(target) as temp:
        pdf.save(temp, force_version=PDF_VERSION, deterministic_id=True, compress_streams=True,
                 object_stream_mode=pikepdf.ObjectStreamMode.disable)


def make_pdfx(pdf: pikepdf.Pdf, frame: Frame, converter: CmykConverter, title: str) -> None:
    """Turn an sRGB PDF of cards on the frame's pages into a PDF/X-4 (in place)."""
    used_fonts: set[str] = set()
    for owner, resources in _content_streams(pdf):
        converted = convert_instructions(pikepdf.parse_content_stream(owner), resources, converter, used_fonts)
        data = pikepdf.unparse_content_stream(converted)
        if isinstance(owner, pikepdf.Page):
            owner.obj.Contents = pdf.make_stream(data)
        else:
            owner.write(data)
        _convert_images(resources, converter)
        convert_shadings(pdf, resources, converter)
    _drop_unused_fonts(pdf, used_fonts)
    _check_fonts_embedded(pdf)
    _set_boxes(pdf, frame)
    _add_output_intent(pdf, converter)
    _set_metadata(pdf, title)


def _content_streams(pdf: pikepdf.Pdf) -> Iterator[tuple[Any, Any]]:
    """Every page and every form XObject and tiling pattern they use (each once), with its resources."""
    seen: set[tuple[int, int]] = set()

    def forms(resources: Any) -> Iterator[tuple[Any, Any]]:
        xobjects = [x for x in (resources.get("/XObject") or {}).values() if x.get("/Subtype") == "/Form"]
        tiles = [p for p in (resources.get("/Pattern") or {}).values() if p.get("/PatternType") == 1]
        for stream in xobjects + tiles:
            if stream.objgen in seen:
                continue
            seen.add(stream.objgen)
            inner = stream.get("/Resources") or pikepdf.Dictionary()
            yield stream, inner
            yield from forms(inner)

    for page in pdf.pages:
        resources = page.obj.get("/Resources") or pikepdf.Dictionary()
        yield page, resources
        yield from forms(resources)


def convert_instructions(instructions: list, resources: Any, converter: CmykConverter,
                         used_fonts: set[str]) -> list:
    """The instructions with every RGB and grey colour in CMYK and empty text objects removed;
    the fonts they still select are added to `used_fonts`."""
    out: list = []
    spaces = ["/DeviceGray", "/DeviceGray"]            # current fill, stroke colour space
    stack: list[list[str]] = []
    for instruction in _without_empty_text(instructions):
        if isinstance(instruction, pikepdf.ContentStreamInlineImage):
            _check_inline_image(instruction)
            out.append(instruction)
            continue
        operands, op = list(instruction.operands), str(instruction.operator)
        if op in ("rg", "RG"):
            out.append(_cmyk(converter.rgb(*operands), "k" if op == "rg" else "K"))
        elif op in ("g", "G"):
            out.append(_cmyk(converter.gray(float(operands[0])), "k" if op == "g" else "K"))
        elif op in ("cs", "CS"):
            space = _space_kind(operands[0], resources)
            spaces[op == "CS"] = space
            out.append(ContentStreamInstruction([Name.DeviceCMYK], instruction.operator) if space == "rgb"
                       else instruction)
        elif op in ("sc", "scn", "SC", "SCN"):
            if spaces[op.isupper()] == "rgb":
                out.append(ContentStreamInstruction(list(converter.rgb(*operands[:3])), instruction.operator))
            else:
                out.append(instruction)
        else:                                   # `sh` included: its shading is converted in the resources
            if op == "q":
                stack.append(list(spaces))
            elif op == "Q" and stack:
                spaces = stack.pop()
            elif op == "Tf":
                used_fonts.add(str(operands[0]))
            out.append(instruction)
    return out


def _without_empty_text(instructions: list) -> list:
    """`BT ... ET` blocks that only set text state (ReportLab's `BT /F1 12 Tf 14.4 TL ET`) left out."""
    kept: list = []
    index = 0
    while index < len(instructions):
        instruction = instructions[index]
        if _operator(instruction) == "BT":
            end = index + 1
            while end < len(instructions) and _operator(instructions[end]) in TEXT_STATE:
                end += 1
            if end < len(instructions) and _operator(instructions[end]) == "ET":
                index = end + 1
                continue
        kept.append(instruction)
        index += 1
    return kept


def _operator(instruction) -> str:
    return "" if isinstance(instruction, pikepdf.ContentStreamInlineImage) else str(instruction.operator)


def _cmyk(values: tuple[float, ...], op: str) -> ContentStreamInstruction:
    return ContentStreamInstruction(list(values), Operator(op))


def _space_kind(name: Any, resources: Any) -> str:
    """'rgb', 'keep' (grey, CMYK, /Pattern: a pattern's colours are converted where it is
    defined) for a colour space operand; anything else is refused."""
    key = str(name)
    space = (resources.get("/ColorSpace") or {}).get(key)
    kind = colour_space_kind(name if space is None else space)
    if kind in ("rgb", "keep"):
        return kind
    shown = key if space is None or kind == key else f"{key} ({kind})"
    raise ColourConversionError(f"the colour space {shown} cannot be converted to CMYK (only RGB, grey and CMYK can)")


def _check_inline_image(image: pikepdf.ContentStreamInlineImage) -> None:
    space = str(image.iimage.obj.get("/ColorSpace", image.iimage.obj.get("/CS", "/DeviceGray")))
    if space not in ("/DeviceGray", "/G", "/DeviceCMYK", "/CMYK"):
        raise ColourConversionError(f"an inline image in {space} cannot be converted to CMYK")


def _convert_images(resources: Any, converter: CmykConverter) -> None:
    """Every RGB image XObject of `resources` re-encoded in CMYK (8 bits, Flate)."""
    for xobject in (resources.get("/XObject") or {}).values():
        if xobject.get("/Subtype") != "/Image":
            continue
        space = xobject.get("/ColorSpace")
        family = str(space[0]) if isinstance(space, pikepdf.Array) else str(space)
        if family in ("/DeviceGray", "/DeviceCMYK") or xobject.get("/ImageMask", False):
            continue
        if family not in ("/DeviceRGB", "/ICCBased", "/Indexed", "/CalRGB"):
            raise ColourConversionError(f"an image in {family} cannot be converted to CMYK")
        image = converter.image(pikepdf.PdfImage(xobject).as_pil_image())
        xobject.write(zlib.compress(image.tobytes(), 9), filter=Name.FlateDecode)
        xobject.ColorSpace = Name.DeviceCMYK
        xobject.BitsPerComponent = 8
        for key in ("/DecodeParms", "/Decode"):
            if key in xobject:
                del xobject[key]


def _font_dicts(pdf: pikepdf.Pdf) -> Iterator[Any]:
    for page in pdf.pages:
        fonts = page.obj.get("/Resources", pikepdf.Dictionary()).get("/Font")
        if fonts is not None:
            yield fonts
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Form":
            fonts = obj.get("/Resources", pikepdf.Dictionary()).get("/Font")
            if fonts is not None:
                yield fonts


def _drop_unused_fonts(pdf: pikepdf.Pdf, used: set[str]) -> None:
    """Resource fonts no content stream selects (ReportLab lists Helvetica everywhere) removed.
    ReportLab names fonts document-wide (F1, F2...), so the names used anywhere are the ones kept."""
    for fonts in _font_dicts(pdf):
        for name in [key for key in fonts.keys() if key not in used]:
            del fonts[name]


def _check_fonts_embedded(pdf: pikepdf.Pdf) -> None:
    for fonts in _font_dicts(pdf):
        for name, font in fonts.items():
            if not font_is_embedded(font):
                raise ColourConversionError(f"font {name} ({font.get('/BaseFont')}) is not embedded; PDF/X needs "
                                            "every font embedded")


def font_is_embedded(font: Any) -> bool:
    """Whether a font dictionary carries its font program (a Type 3 font is its own program)."""
    if font.get("/Subtype") == "/Type3":
        return True
    if font.get("/Subtype") == "/Type0":
        font = font.DescendantFonts[0]
    descriptor = font.get("/FontDescriptor")
    return descriptor is not None and any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))


def _set_boxes(pdf: pikepdf.Pdf, frame: Frame) -> None:
    page_w, page_h = frame.page
    bleed = frame.bleed
    for page in pdf.pages:
        page.obj.MediaBox = pikepdf.Array([0, 0, page_w, page_h])
        page.obj.BleedBox = pikepdf.Array([0, 0, page_w, page_h])
        page.obj.TrimBox = pikepdf.Array([bleed, bleed, page_w - bleed, page_h - bleed])


def _add_output_intent(pdf: pikepdf.Pdf, converter: CmykConverter) -> None:
    profile = converter.profile
    icc = pdf.make_stream(profile.data)
    icc.N = 4
    pdf.Root.OutputIntents = pikepdf.Array([pikepdf.Dictionary(
        Type=Name.OutputIntent, S=Name.GTS_PDFX, OutputConditionIdentifier="Custom",
        OutputCondition=profile.description, Info=profile.description, RegistryName="http://www.color.org",
        DestOutputProfile=icc)])


def _set_metadata(pdf: pikepdf.Pdf, title: str) -> None:
    """Info and XMP saying the same (PDF/X-4 checks they agree), with ReportLab's fixed dates and
    ids made from the pages' content: the same cards give the same bytes."""
    info = pdf.trailer.Info
    info.Title = title
    info.Creator = "pnp"
    info.Producer = PRODUCER
    info.CreationDate = FIXED_DATE_PDF
    info.ModDate = FIXED_DATE_PDF
    info.Trapped = Name("/False")
    info.GTS_PDFXVersion = PDFX_VERSION
    digest = hashlib.sha256()
    for page in pdf.pages:
        digest.update(page.obj.Contents.read_bytes())
    document_id = uuid.UUID(digest.hexdigest()[:32])
    pdf.Root.Metadata = pdf.make_stream(_xmp(title, document_id).encode("utf-8"), Type=Name.Metadata,
                                        Subtype=Name.XML)


def _xmp(title: str, document_id: uuid.UUID) -> str:
    return f"""<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:dc="http://purl.org/dc/elements/1.1/"
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:pdf="http://ns.adobe.com/pdf/1.3/"
    xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
    xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/">
   <dc:format>application/pdf</dc:format>
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">{escape(title)}</rdf:li></rdf:Alt></dc:title>
   <xmp:CreateDate>{FIXED_DATE_XMP}</xmp:CreateDate>
   <xmp:ModifyDate>{FIXED_DATE_XMP}</xmp:ModifyDate>
   <xmp:MetadataDate>{FIXED_DATE_XMP}</xmp:MetadataDate>
   <xmp:CreatorTool>pnp</xmp:CreatorTool>
   <pdf:Producer>{PRODUCER}</pdf:Producer>
   <pdf:Trapped>False</pdf:Trapped>
   <xmpMM:DocumentID>uuid:{document_id}</xmpMM:DocumentID>
   <xmpMM:InstanceID>uuid:{document_id}</xmpMM:InstanceID>
   <xmpMM:VersionID>1</xmpMM:VersionID>
   <xmpMM:RenditionClass>default</xmpMM:RenditionClass>
   <pdfxid:GTS_PDFXVersion>{PDFX_VERSION}</pdfxid:GTS_PDFXVersion>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>"""
