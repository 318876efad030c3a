"""Gradients (PDF shadings) in CMYK, for the print-shop PDFs (pnp.export.pdfx).

The faces' gradients are axial and radial shadings in DeviceRGB whose colour is a function of one
parameter: an exponential function (Type 2, from C0 to C1) or a stitching of them (Type 3), as
pnp.render.svgcanvas writes. A shading becomes DeviceCMYK with a new function giving the CMYK of
the same colours. Converting only C0 and C1 is not enough: the ICC transform is not linear, so the
CMYK ramp between the converted ends drifts from the converted RGB ramp (about 30 delta-E halfway
between red and blue). Each ramp is therefore halved until linear CMYK follows the converted RGB
colour within RAMP_TOLERANCE at a quarter, half and three quarters of every piece, and written as a
stitching function of those pieces. Along a ramp every colour goes through the ICC transform,
greys included (a grey sent to the black plate alone would jump out of a coloured ramp); a ramp
from grey to grey stays on the black plate, where it is exact.

Sampled functions (Type 0, 8 or 16 bits) have every sample converted. What cannot be converted
exactly is refused with its reason: PostScript calculator functions (Type 4), a function per
colour component, mesh shadings that carry a colour per vertex.
"""
from __future__ import annotations

import math
import struct
from collections.abc import Callable
from typing import Any

import pikepdf
from pikepdf import Name
from PIL import Image

from pnp.export.colour import CmykConverter, ColourConversionError

Cmyk = tuple[float, float, float, float]

RAMP_TOLERANCE = 0.01      # largest gap (0..1 of one ink) between linear CMYK and the converted ramp
MAX_HALVINGS = 6           # a ramp is cut into at most 2**6 = 64 pieces
PROBES = (0.25, 0.5, 0.75)  # where inside a piece the gap is measured
MAX_FUNCTION_DEPTH = 8     # stitchings of stitchings: a cycle of references must not recurse forever
RGB_FAMILIES = {"/DeviceRGB", "/CalRGB"}
KEPT_FAMILIES = {"/DeviceGray", "/DeviceCMYK", "/CalGray"}


def colour_space_kind(space: Any) -> str:
    """'rgb' (to convert), 'keep' (grey, CMYK, a pattern of its own colours), or else the name of
    the colour space, for the message that refuses it."""
    family = _family(space)
    if family in RGB_FAMILIES:
        return "rgb"
    if family in KEPT_FAMILIES:
        return "keep"
    if family == "/ICCBased":
        components = int(space[1].get("/N", 0))
        return "rgb" if components == 3 else "keep" if components in (1, 4) else f"{family} ({components} components)"
    if family == "/Pattern":      # [/Pattern base] colours an uncoloured tiling pattern in `base`
        if not isinstance(space, pikepdf.Array) or len(space) < 2 or colour_space_kind(space[1]) == "keep":
            return "keep"
        return f"an uncoloured pattern over {_family(space[1])}"
    return family


def _family(space: Any) -> str:
    return str(space[0]) if isinstance(space, pikepdf.Array) else str(space)


def convert_shadings(pdf: pikepdf.Pdf, resources: Any, converter: CmykConverter) -> None:
    """Every shading of `resources` in DeviceCMYK, in place: those the `sh` operator paints
    (/Shading) and those shading patterns fill with (/Pattern, PatternType 2). Converting twice is
    harmless: a CMYK shading is left as it is."""
    for shading in (resources.get("/Shading") or {}).values():
        convert_shading(pdf, shading, converter)
    for pattern in (resources.get("/Pattern") or {}).values():
        if pattern.get("/PatternType") == 2:
            convert_shading(pdf, pattern.Shading, converter)


def convert_shading(pdf: pikepdf.Pdf, shading: Any, converter: CmykConverter) -> None:
    """One shading dictionary (or stream) in DeviceCMYK, in place."""
    kind = colour_space_kind(shading.get("/ColorSpace"))
    if kind == "keep":
        return
    if kind != "rgb":
        raise ColourConversionError(f"a shading (gradient) in {kind} cannot be converted to CMYK "
                                    "(only RGB, grey and CMYK can)")
    function = shading.get("/Function")
    if function is None:
        raise ColourConversionError(f"a mesh shading (ShadingType {int(shading.get('/ShadingType', 0))}) with "
                                    "a colour per vertex cannot be converted to CMYK yet: use linear or "
                                    "radial gradients in print-shop exports")
    if isinstance(function, pikepdf.Array):
        raise ColourConversionError("a shading (gradient) with one function per colour component cannot be "
                                    "converted to CMYK yet")
    shading.Function = cmyk_function(pdf, function, converter)
    shading.ColorSpace = Name.DeviceCMYK
    if "/Background" in shading:
        shading.Background = pikepdf.Array(converter.rgb_through_profile(*_numbers(shading.Background)))


def cmyk_function(pdf: pikepdf.Pdf, function: Any, converter: CmykConverter, depth: int = 0) -> Any:
    """A new function giving the CMYK of the colours the RGB `function` gives (the original may
    be shared by another shading, so it is left alone)."""
    kind = int(function.get("/FunctionType", -1))
    if depth > MAX_FUNCTION_DEPTH:
        raise ColourConversionError(f"a shading's colour function nests more than {MAX_FUNCTION_DEPTH} "
                                    "stitching functions")
    if kind == 2:
        return _exponential(function, converter)
    if kind == 3:
        return pikepdf.Dictionary(
            FunctionType=3, Domain=pikepdf.Array(_numbers(function.Domain)),
            Bounds=pikepdf.Array(_numbers(function.Bounds)), Encode=pikepdf.Array(_numbers(function.Encode)),
            Functions=pikepdf.Array([cmyk_function(pdf, f, converter, depth + 1) for f in function.Functions]))
    if kind == 0:
        return _sampled(pdf, function, converter)
    what = "a PostScript calculator function (FunctionType 4)" if kind == 4 else f"a function of FunctionType {kind}"
    raise ColourConversionError(f"a shading (gradient) whose colours come from {what} cannot be converted to "
                                "CMYK exactly")


def _exponential(function: Any, converter: CmykConverter) -> pikepdf.Dictionary:
    """A Type 2 function from C0 to C1 as CMYK: one exponential function when both ends are grey
    (black plate alone, exact), else a stitching of linear pieces following the converted ramp."""
    start, end = _numbers(function.get("/Domain", [0, 1]))
    c0 = _numbers(function.get("/C0", [0]))
    c1 = _numbers(function.get("/C1", [1]))
    exponent = float(function.get("/N", 1))
    if len(c0) != 3 or len(c1) != 3:
        raise ColourConversionError(f"a shading's colour function gives {len(c0)} components in DeviceRGB, not 3")
    if _is_grey(c0) and _is_grey(c1):
        return _piece(converter.gray(c0[0]), converter.gray(c1[0]), [start, end], exponent)

    def colour_at(x: float) -> Cmyk:
        t = x ** exponent if x >= 0 or exponent.is_integer() else 0.0
        return converter.rgb_through_profile(*(a + t * (b - a) for a, b in zip(c0, c1)))

    points = ramp_points(colour_at, start, end)
    if len(points) == 2:
        return _piece(colour_at(start), colour_at(end), [start, end])
    pieces = [_piece(colour_at(a), colour_at(b), [0, 1]) for a, b in zip(points, points[1:])]
    return pikepdf.Dictionary(FunctionType=3, Domain=pikepdf.Array([start, end]),
                              Bounds=pikepdf.Array(points[1:-1]), Encode=pikepdf.Array([0, 1] * len(pieces)),
                              Functions=pikepdf.Array(pieces))


def ramp_points(colour_at: Callable[[float], Cmyk], start: float, end: float,
                halvings: int = MAX_HALVINGS) -> list[float]:
    """The points, `start` and `end` included, cutting [start, end] into pieces along which linear
    CMYK between a piece's ends stays within RAMP_TOLERANCE of `colour_at`: halved where it does not."""
    if halvings == 0 or _follows(colour_at, start, end):
        return [start, end]
    middle = (start + end) / 2
    return ramp_points(colour_at, start, middle, halvings - 1)[:-1] + ramp_points(colour_at, middle, end, halvings - 1)


def _follows(colour_at: Callable[[float], Cmyk], start: float, end: float) -> bool:
    first, last = colour_at(start), colour_at(end)
    for fraction in PROBES:
        exact = colour_at(start + (end - start) * fraction)
        if any(abs(a + (b - a) * fraction - e) > RAMP_TOLERANCE for a, b, e in zip(first, last, exact)):
            return False
    return True


def _piece(c0: Cmyk, c1: Cmyk, domain: list[float], exponent: float = 1.0) -> pikepdf.Dictionary:
    return pikepdf.Dictionary(FunctionType=2, Domain=pikepdf.Array(domain), C0=pikepdf.Array(c0),
                              C1=pikepdf.Array(c1), N=exponent)


def _sampled(pdf: pikepdf.Pdf, function: Any, converter: CmykConverter) -> pikepdf.Stream:
    """A Type 0 function with every RGB sample converted, written as 8-bit CMYK samples."""
    bits = int(function.get("/BitsPerSample", 0))
    value_range = _numbers(function.get("/Range", []))
    if bits not in (8, 16) or len(value_range) != 6:
        raise ColourConversionError(f"a shading's sampled colour function ({bits} bits, {len(value_range) // 2} "
                                    "outputs) cannot be converted to CMYK: only 8 or 16 bits of RGB can")
    size = [int(v) for v in function.Size]
    count = math.prod(size) * 3
    data = function.read_bytes()
    if len(data) * 8 < count * bits:
        raise ColourConversionError(f"a shading's sampled colour function holds {len(data)} bytes, fewer than "
                                    f"its Size {size} needs")
    samples = data[:count] if bits == 8 else struct.unpack(f">{count}H", data[:count * 2])
    decode = _numbers(function.get("/Decode", value_range))
    top = (1 << bits) - 1
    rgb = bytes(_sample_byte(sample, decode[2 * (i % 3):], value_range[2 * (i % 3):], top)
                for i, sample in enumerate(samples))
    cmyk = converter.image(Image.frombytes("RGB", (count // 3, 1), rgb)).tobytes()
    stream = pdf.make_stream(cmyk, FunctionType=0, Domain=function.Domain, Size=pikepdf.Array(size),
                             BitsPerSample=8, Range=pikepdf.Array([0, 1] * 4))
    for key in ("/Encode", "/Order"):
        if key in function:
            stream[key] = function[key]
    return stream


def _sample_byte(sample: int, decode: list[float], value_range: list[float], top: int) -> int:
    """A sample decoded as the PDF function reads it (Decode, then clipped to Range), as 0..255."""
    value = decode[0] + sample * (decode[1] - decode[0]) / top
    value = min(max(value, value_range[0]), value_range[1])
    return min(max(round(value * 255), 0), 255)


def _is_grey(rgb: list[float]) -> bool:
    return rgb[0] == rgb[1] == rgb[2]


def _numbers(array: Any) -> list[float]:
    return [float(v) for v in array]
