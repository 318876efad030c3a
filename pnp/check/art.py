"""`pnp check`'s art findings: the effective resolution of every raster art file at the size
it prints (pixels per printed inch along each of its axes; the lower counts).

- art.resolution  (warning) an image prints at under MIN_ART_PPI: it will look soft or
                  pixelated; once per image and printed size, naming the template and the cards

The faces are those the print checks rendered (pnp.check.printing), as the build renders them; a
face that fails is reported there, not here.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from pnp.build import PreparedFaces, faces_of
from pnp.composition import WARNING, Finding, finding
from pnp.pack import Pack
from pnp.units import PT_PER_MM

ART_RESOLUTION = "art.resolution"
MIN_ART_PPI = 300          # what print shops ask for; home printers print 300 to 600


@dataclass
class _Printed:
    """One image printed at one size: where, and by which cards."""

    href: str
    path: str
    pixels: tuple[int, int]
    ppi: float
    size_mm: tuple[float, float]
    template: str
    cards: dict[str, None] = field(default_factory=dict)


class ArtResolution:
    """Collects, language by language, every raster image as printed; `findings()` gives an
    art.resolution warning for each one under MIN_ART_PPI, once per image, printed size and
    template (every language's faces: a language that prints other art counts too)."""

    def __init__(self, pack: Pack):
        self.pack = pack
        self.printed: dict[tuple, _Printed] = {}

    def add(self, prepared: PreparedFaces) -> None:
        """The images of one language's faces (as the print checks rendered them)."""
        pack = self.pack
        for card, *faces in prepared.cards:
            templates = faces_of(pack, pack.deck(card.deck), card)
            for face, template in zip(faces, templates, strict=True):
                for use in getattr(face.drawing, "images", ()):
                    size = tuple(round(v / PT_PER_MM, 1) for v in use.printed_pt)
                    entry = self.printed.setdefault((use.path, size, template),
                                                    _Printed(use.href, use.path, use.pixels, min(use.ppi), size,
                                                             template))
                    entry.cards[card.base_id] = None

    def findings(self) -> list[Finding]:
        return [_warning(self.pack, entry) for entry in self.printed.values() if entry.ppi < MIN_ART_PPI]


def _warning(pack: Pack, entry: _Printed) -> Finding:
    cards = list(entry.cards)
    shown = ", ".join(cards[:3]) + (f" and {len(cards) - 3} more" if len(cards) > 3 else "")
    width, height = entry.pixels
    return finding(WARNING, ART_RESOLUTION, entry.path, 0, entry.href,
                   f"{width} x {height} px printed at {entry.size_mm[0]:g} x {entry.size_mm[1]:g} mm is "
                   f"{entry.ppi:.0f} ppi, under {MIN_ART_PPI} (template {entry.template}, card"
                   f"{'s' * (len(cards) != 1)} {shown})",
                   f"use an image of at least {_needed(entry)} px, or print it smaller", pack.id,
                   ppi=round(entry.ppi, 1), template=entry.template, cards=tuple(cards),
                   printed_mm=entry.size_mm, pixels=entry.pixels)


def _needed(entry: _Printed) -> str:
    """The pixel size that prints at MIN_ART_PPI at this size."""
    w, h = (round(mm / 25.4 * MIN_ART_PPI) for mm in entry.size_mm)
    return f"{w} x {h}"
