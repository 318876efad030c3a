"""The one record of text that does not fit its box or cannot be drawn, for cards and components.

The text layer measures; whoever draws (card templates through `textbox`, component drawers
through `Sketch.text`) adds a `FitIssue` to the `FitReport` of the face or page being drawn; the
build, `pnp check` and `pnp i18n fit` read the issues' fields, never their wording.
"""
from __future__ import annotations

from dataclasses import dataclass, field

TEXT_FIT = "text.fit"        # does not fit even at the smallest allowed size
TEXT_GLYPH = "text.glyph"    # a character no font of the box has


@dataclass(frozen=True)
class FitIssue:
    code: str                          # TEXT_FIT or TEXT_GLYPH
    text: str                          # the string as it was given to the box
    box_mm: tuple[float, float]        # the box's width and height
    min_size_pt: float                 # the smallest size the box allows
    font: str                          # the font style asked for ("regular", "bold", ...)
    missing: tuple[str, ...] = ()      # TEXT_GLYPH: the characters without a glyph
    what: str = ""                     # which part of a component page, e.g. "player aid"

    def facts(self) -> dict:
        """The issue as a Problem's detail (see `from_facts`)."""
        return {"text": self.text, "box_mm": self.box_mm, "min_size_pt": self.min_size_pt, "font": self.font,
                "missing": self.missing, "what": self.what}

    @classmethod
    def from_facts(cls, code: str, get) -> "FitIssue":
        """The issue back from a Problem's detail; `get(name, default)` reads it."""
        return cls(code, get("text", ""), get("box_mm", (0.0, 0.0)), get("min_size_pt", 0.0), get("font", ""),
                   get("missing", ()), get("what", ""))

    @property
    def message(self) -> str:
        label = f"{self.what}: " if self.what else ""
        if self.code == TEXT_GLYPH:
            return f"{label}{self.text!r}: no glyph for {', '.join(map(repr, self.missing))} in {self.font}"
        w, h = self.box_mm
        return f"{label}{self.text!r} does not fit a {w:g}x{h:g} mm box even at {self.min_size_pt:g} pt"


@dataclass
class FitReport:
    """Everything that went wrong with text while one face or page was drawn."""

    issues: list[FitIssue] = field(default_factory=list)
    missing_keys: list[str] = field(default_factory=list)   # text keys with no text in the language

    def measure(self, text: str, box_mm: tuple[float, float], min_size_pt: float, font: str,
                overflow: bool, missing: tuple[str, ...] | list[str], what: str = "") -> None:
        """Record what the layout found for one box (nothing when it fits and draws)."""
        if overflow:
            self.issues.append(FitIssue(TEXT_FIT, text, box_mm, min_size_pt, font, (), what))
        if missing:
            self.issues.append(FitIssue(TEXT_GLYPH, text, box_mm, min_size_pt, font, tuple(missing), what))
