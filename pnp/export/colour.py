"""sRGB to CMYK through an ICC profile, with Pillow's ImageCms (LittleCMS).

The faces are drawn in sRGB (templates write '#rrggbb'). A print shop wants CMYK: every colour
goes through one LittleCMS transform from the sRGB profile to the output profile (by default
Ghostscript's "Artifex CMYK SWOP Profile", /usr/share/color/icc/ghostscript/default_cmyk.icc from
the Debian package libgs-common), relative colorimetric with black point compensation, the usual
choice for flat vector colours. Neutral greys (r = g = b: black text, hairlines) go to the black
plate only, so text never needs four plates to register.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image, ImageCms

from pnp.errors import PnpError, display_path

ICC_DIR = Path("/usr/share/color/icc/ghostscript")
DEFAULT_CMYK_PROFILE = ICC_DIR / "default_cmyk.icc"   # "Artifex CMYK SWOP Profile" (libgs-common)
SRGB_PROFILE = ICC_DIR / "srgb.icc"                   # "Artifex Software sRGB ICC Profile"
ICC_PACKAGE = "libgs-common"


class ProfileError(PnpError):
    """The ICC profile is missing, unreadable or not a CMYK output profile."""


class ColourConversionError(PnpError):
    """The page holds colour pnp cannot convert to CMYK (a mesh shading, a PostScript function...)."""


@dataclass(frozen=True)
class CmykProfile:
    path: Path
    data: bytes               # the ICC file, embedded as the PDF/X OutputIntent
    description: str


def load_cmyk_profile(path: Path | None = None) -> CmykProfile:
    """The CMYK output profile at `path` (default: DEFAULT_CMYK_PROFILE), checked to be one."""
    path = Path(path) if path is not None else DEFAULT_CMYK_PROFILE
    shown = display_path(path)
    hint = f" (install the Debian package {ICC_PACKAGE}, or give --icc FILE)" if path == DEFAULT_CMYK_PROFILE else ""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ProfileError(f"--icc {shown}: cannot read the ICC profile: {error.strerror or error}{hint}") from None
    try:
        profile = ImageCms.ImageCmsProfile(str(path))
    except (OSError, ImageCms.PyCMSError) as error:
        raise ProfileError(f"--icc {shown}: not an ICC profile ({error})") from None
    space = profile.profile.xcolor_space.strip()
    if space != "CMYK":
        raise ProfileError(f"--icc {shown}: a profile for {space}, not CMYK; a print shop needs a CMYK output profile")
    description = ImageCms.getProfileDescription(profile).strip() or path.name
    return CmykProfile(path, data, description)


@dataclass
class CmykConverter:
    """Converts sRGB colours (0..1 each) and RGB images to CMYK through `profile`; each colour
    once (a face uses a handful, thousands of times)."""

    profile: CmykProfile
    _cache: dict[tuple[int, int, int], tuple[float, float, float, float]] = field(default_factory=dict)
    _ramp_cache: dict[tuple[int, int, int], tuple[float, float, float, float]] = field(default_factory=dict)

    @functools.cached_property
    def transform(self) -> ImageCms.ImageCmsTransform:
        if not SRGB_PROFILE.is_file():
            raise ProfileError(f"the sRGB profile {SRGB_PROFILE} is missing (install the Debian package {ICC_PACKAGE})")
        return ImageCms.buildTransform(str(SRGB_PROFILE), str(self.profile.path), "RGB", "CMYK",
                                       renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                       flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)

    def rgb(self, r: float, g: float, b: float) -> tuple[float, float, float, float]:
        """(c, m, y, k), each 0..1 rounded to 4 places, for an sRGB colour."""
        key = tuple(_byte(v) for v in (r, g, b))
        cmyk = self._cache.get(key)   # type: ignore[arg-type]
        if cmyk is None:
            cmyk = self._cache[key] = self._convert(key)   # type: ignore[index, arg-type]
        return cmyk

    def rgb_through_profile(self, r: float, g: float, b: float) -> tuple[float, float, float, float]:
        """(c, m, y, k) for an sRGB colour through the ICC transform alone, greys included: the
        colours along a gradient, where a grey sent to the black plate would break the ramp."""
        key = tuple(_byte(v) for v in (r, g, b))
        cmyk = self._ramp_cache.get(key)   # type: ignore[arg-type]
        if cmyk is None:
            cmyk = self._ramp_cache[key] = self._through_profile(key)   # type: ignore[index, arg-type]
        return cmyk

    def gray(self, level: float) -> tuple[float, float, float, float]:
        """A grey (0 black .. 1 white) on the black plate alone."""
        return 0.0, 0.0, 0.0, round(1 - min(max(level, 0.0), 1.0), 4)

    def _convert(self, rgb: tuple[int, int, int]) -> tuple[float, float, float, float]:
        if rgb[0] == rgb[1] == rgb[2]:
            return self.gray(rgb[0] / 255)
        return self._through_profile(rgb)

    def _through_profile(self, rgb: tuple[int, int, int]) -> tuple[float, float, float, float]:
        pixel = ImageCms.applyTransform(Image.new("RGB", (1, 1), rgb), self.transform)
        assert pixel is not None
        c, m, y, k = pixel.getpixel((0, 0))   # type: ignore[misc]
        return round(c / 255, 4), round(m / 255, 4), round(y / 255, 4), round(k / 255, 4)

    def image(self, image: Image.Image) -> Image.Image:
        """An RGB image in CMYK through the same transform."""
        converted = ImageCms.applyTransform(image.convert("RGB"), self.transform)
        assert converted is not None
        return converted


def _byte(value: float) -> int:
    return min(max(round(float(value) * 255), 0), 255)
