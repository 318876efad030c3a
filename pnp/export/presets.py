"""Export presets as data: pnp/export/presets.yaml, validated on load with pnp.schema.

A preset says what a print shop or a digital table takes: the kind of output (a PDF/X, PNGs, a
Tabletop Simulator deck), the bleed past the trim, the raster resolution, whether each copy of a
card gets its own file, the card stock's thickness (for tuck boxes), the shop's own trim for the
common card sizes, and how the files are named. Every key is declared once, here.
"""
from __future__ import annotations

import functools
import string
from dataclasses import dataclass
from pathlib import Path

from pnp.errors import DataError, PnpError, Problems
from pnp.schema import Field, Schema, Validator, closest, scalar_problem
from pnp.units import card_size_pt, pt_to_mm
from pnp.yamlsource import load_source

PRESETS_FILE = Path(__file__).with_name("presets.yaml")
OUTPUTS = ("pdfx", "png", "tts")
COPIES = ("each", "once")
# The files each output kind writes (a `files:` key each), and the fields their patterns may use.
FILE_ROLES: dict[str, tuple[str, ...]] = {
    "pdfx": ("fronts", "backs"),
    "png": ("front", "back", "deck_back"),
    "tts": ("sheet", "back_sheet", "deck_back", "json"),
}
PATTERN_FIELDS = {"game": "g", "deck": "d", "card": "c", "n": 1, "sheet": 1}
PRESET_PROBLEM = "export.preset"       # a preset file value the schema cannot see is wrong
PRODUCT_TOLERANCE_MM = 1.0             # a deck this close to a product's card size uses the shop's trim
PRODUCT_MAX_CHANGE_MM = 2.0            # a shop's trim differs from the card by this much at most

PRODUCT = Schema("export-product", "A shop's trim for one card size.", {
    "card": Field("size", "The deck card size this product is for (poker, bridge... or '63mm x 88mm')."),
    "trim": Field("size", "The shop's trim for it, e.g. '2.5in x 3.5in'; the art is centred on it and "
                  "the bleed grown so it covers the shop's trim plus bleed."),
}, unique="card")
FILES = Schema("export-files", "File name patterns (str.format fields: game, deck, card, n, sheet).", {
    "fronts": Field("str?", "pdfx: the PDF of a deck's fronts, one card per page.", None),
    "backs": Field("str?", "pdfx: the PDF of a deck's backs, page i the back of front i.", None),
    "front": Field("str?", "png: a card's front.", None),
    "back": Field("str?", "png: the back of a card whose kind has its own back.", None),
    "deck_back": Field("str?", "png, tts: the deck's shared back.", None),
    "sheet": Field("str?", "tts: a sheet of faces (`sheet` counts from 1).", None),
    "back_sheet": Field("str?", "tts: a sheet of backs, for decks whose cards have their own backs.", None),
    "json": Field("str?", "tts: the saved-object JSON of a deck.", None),
})
PRESET = Schema("export-preset", "One export preset.", {
    "doc": Field("str", "What the preset is for, in one line (`pnp export --help` lists it)."),
    "output": Field("enum:" + "|".join(OUTPUTS), "pdfx: CMYK PDF/X-4 per deck; png: one PNG per face; "
                    "tts: Tabletop Simulator deck sheets and a saved-object JSON."),
    "bleed": Field("length", "Art past the trim on every side (e.g. 0.125in)."),
    "dpi": Field("int", "Raster resolution of PNGs (`--dpi` overrides it); tts: every card's, on as many sheets as it takes.",
                 bounds=(36, 1200)),
    "copies": Field("enum:" + "|".join(COPIES), "each: a file (or page, or slot) per copy of a card; "
                    "once: one per distinct card."),
    "card_thickness_mm": Field("number", "The card stock's thickness in mm (tuck boxes size from it).",
                               bounds=(0, 2)),
    "products": Field([PRODUCT], "The shop's trim for the card sizes it sells (none: the deck's own size).",
                      []),
    "files": Field(FILES, "How the written files are named, below output/<game>/export-<preset>/<lang>/."),
})
PRESETS = Schema("export-presets", "The export presets file.", {
    "presets": Field(Schema("", "The presets by name.", values=PRESET), "Every preset by its name."),
})


class UnknownPresetError(PnpError):
    """`--to` names no preset; the message lists them (with a did-you-mean)."""


@dataclass(frozen=True)
class Product:
    card_pt: tuple[float, float]      # the deck card size it is for
    trim_pt: tuple[float, float]      # the shop's trim


@dataclass(frozen=True)
class Preset:
    name: str
    doc: str
    output: str
    bleed_mm: float
    dpi: int
    copies: str
    card_thickness_mm: float
    products: tuple[Product, ...]
    files: dict[str, str]

    def trim_pt(self, card_pt: tuple[float, float]) -> tuple[float, float]:
        """The trim the shop cuts a card of this deck size to: its product's, else the deck's."""
        for product in self.products:
            if all(abs(pt_to_mm(a - b)) <= PRODUCT_TOLERANCE_MM for a, b in zip(card_pt, product.card_pt)):
                return product.trim_pt
        return card_pt

    def file(self, role: str, **fields) -> str:
        return self.files[role].format(**fields)


def load_presets(path: Path = PRESETS_FILE) -> dict[str, Preset]:
    """Every preset of `path`, validated: all problems at once as a DataError (file, line, key)."""
    problems = Problems()
    source = load_source(path, problems)
    if source is None:
        raise DataError(problems.items)
    validator = Validator(source, problems)
    checked = validator.check(source.value, PRESETS)
    presets = {}
    for name, entry in (checked.get("presets") or {}).items():
        if isinstance(entry, dict) and set(PRESET.fields) - {"products"} <= set(entry):
            presets[name] = _preset(name, entry, validator)
    problems.raise_if_any()
    return presets


def _preset(name: str, entry: dict, validator: Validator) -> Preset:
    path = ("presets", name)
    files = {role: pattern for role, pattern in entry["files"].items() if pattern is not None}
    for role in FILE_ROLES.get(entry["output"], ()):
        if role not in files:
            validator.add(PRESET_PROBLEM, path + ("files",), f"output {entry['output']!r} needs a file "
                          f"pattern {role!r}", missing=role)
    for role, pattern in files.items():
        reason = _pattern_problem(pattern)
        if reason:
            validator.add(PRESET_PROBLEM, path + ("files", role), f"file pattern {pattern!r}: {reason}")
    products = tuple(Product(card_size_pt(p["card"]), card_size_pt(p["trim"])) for p in entry["products"]
                     if isinstance(p, dict) and all(scalar_problem("size", p.get(k)) is None for k in ("card", "trim")))
    for index, product in enumerate(products):
        change = max(abs(pt_to_mm(a - b)) for a, b in zip(product.card_pt, product.trim_pt))
        if change > PRODUCT_MAX_CHANGE_MM:   # the art is centred, not scaled: a far trim would crop it
            validator.add(PRESET_PROBLEM, path + ("products", index, "trim"), f"the trim differs from the card "
                          f"size by {change:.2f} mm; at most {PRODUCT_MAX_CHANGE_MM:g} mm (the art is not scaled)")
    return Preset(name, entry["doc"], entry["output"], entry["bleed"], entry["dpi"], entry["copies"],
                  float(entry["card_thickness_mm"]), products, files)


def _pattern_problem(pattern: str) -> str:
    """Why a file name pattern cannot name files ("" when it can): unknown fields, a bad format,
    a name leaving the export folder."""
    try:
        fields = [f for _, f, _, _ in string.Formatter().parse(pattern) if f is not None]
        unknown = sorted({f for f in fields if f not in PATTERN_FIELDS})
        if unknown:
            return f"unknown field {unknown[0]!r} (known: {', '.join(PATTERN_FIELDS)})"
        name = pattern.format(**PATTERN_FIELDS)
    except (ValueError, IndexError, KeyError) as error:
        return f"not a str.format pattern ({error})"
    if name.startswith("/") or ".." in Path(name).parts:
        return "a file name must stay inside the export folder"
    return ""


@functools.cache
def shipped_presets() -> dict[str, Preset]:
    return load_presets()


def find_preset(name: str, presets: dict[str, Preset] | None = None) -> Preset:
    presets = shipped_presets() if presets is None else presets
    if name in presets:
        return presets[name]
    guess = closest(name, list(presets))
    hint = f"; did you mean {guess!r}?" if guess else ""
    raise UnknownPresetError(f"unknown export preset {name!r}{hint} (accepted: {', '.join(presets)})")
