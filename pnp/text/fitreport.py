"""The one record of text that does not fit its box or cannot be drawn, for cards and components.

The text layer measures; whoever draws (card templates through `textbox`, component drawers
through `Sketch.text`) adds a `FitIssue` to the `FitReport` of the face or page being drawn; the
build, `pnp check` and `pnp i18n fit` read the issues' fields, never their wording.
"""
from __future__ import annotations

from dataclasses import dataclass, field

TEXT_FIT = "text.fit"        # does not fit even at the smallest allowed size
TEXT_GLYPH = "text.glyph"    # a character no font of the box has
TEXT_SMALL = "text.small"    # printed smaller than MIN_PRINTED_PT: a warning, not a refusal
TEXT_MARKUP = "text.markup"  # rich-text markup that does not balance (pnp.text.markup)
TEXT_ICON = "text.icon"      # an inline icon that is not in the pack, or cannot be drawn
TEXT_OFF_CARD = "text.off-card"  # printed text reaching past the card's edge: a warning, it is cut off

# The smallest type we call readable on a printed card or sheet (issue 12: "any printed text
# under 6 pt" is a finding); a floor, the same for every pack and language.
MIN_PRINTED_PT = 6.0


@dataclass(frozen=True)
class FitIssue:
    code: str                          # TEXT_FIT, TEXT_GLYPH, TEXT_SMALL, TEXT_MARKUP, TEXT_ICON, TEXT_OFF_CARD
    text: str                          # the string as it was given to the box
    box_mm: tuple[float, float]        # the box's width and height
    min_size_pt: float                 # the smallest size the box allows
    font: str                          # the font style asked for ("regular", "bold", ...)
    missing: tuple[str, ...] = ()      # TEXT_GLYPH: the characters without a glyph
    what: str = ""                     # which part of a component page, e.g. "player aid"
    size_pt: float = 0.0               # TEXT_SMALL: the size the text is printed at
    reason: str = ""                   # TEXT_MARKUP, TEXT_ICON, TEXT_OFF_CARD: what is wrong, in a designer's words

    def facts(self) -> dict:
        """The issue as a Problem's detail (see `from_facts`)."""
        facts = {"text": self.text, "box_mm": self.box_mm, "min_size_pt": self.min_size_pt, "font": self.font,
                 "missing": self.missing, "what": self.what}
        if self.size_pt:
            facts["size_pt"] = self.size_pt
        if self.reason:
            facts["reason"] = self.reason
        return facts

    @classmethod
    def from_facts(cls, code: str, get) -> "FitIssue":
        """The issue back from a Problem's detail, or from the face cache's JSON (where tuples
        come back as lists); `get(name, default)` reads it."""
        return cls(code, get("text", ""), tuple(get("box_mm", (0.0, 0.0))), get("min_size_pt", 0.0), get("font", ""),
                   tuple(get("missing", ())), get("what", ""), get("size_pt", 0.0), get("reason", ""))

    @property
    def message(self) -> str:
        label = f"{self.what}: " if self.what else ""
        if self.code in (TEXT_MARKUP, TEXT_ICON, TEXT_OFF_CARD):
            return f"{label}{self.text!r}: {self.reason}"
        if self.code == TEXT_SMALL:
            w, h = self.box_mm
            return (f"{label}{self.text!r} prints at {self.size_pt:g} pt in its {w:g}x{h:g} mm box, under the "
                    f"{MIN_PRINTED_PT:g} pt that reads on paper")
        if self.code == TEXT_GLYPH:
            return f"{label}{self.text!r}: no glyph for {', '.join(map(repr, self.missing))} in {self.font}"
        w, h = self.box_mm
        return f"{label}{self.text!r} does not fit a {w:g}x{h:g} mm box even at {self.min_size_pt:g} pt"


@dataclass(frozen=True)
class MeasuredBox:
    """One box of text as it is printed (for a fit report of everything printed)."""

    text: str
    box_mm: tuple[float, float]
    size_pt: float | None              # the size it prints at; None when the drawer did not say
    font: str
    what: str = ""
    nominal_pt: float | None = None    # the size asked for, before any shrinking
    min_size_pt: float | None = None   # the smallest size the box allows
    lines: tuple[str, ...] = ()        # the printed lines, in logical order (hyphens included)
    overflow: bool = False             # does not fit even at min_size_pt

    @property
    def shrunk(self) -> bool:
        return self.size_pt is not None and self.nominal_pt is not None and self.size_pt < self.nominal_pt - 1e-9


@dataclass
class FitReport:
    """Everything that went wrong with text while one face or page was drawn, and every box measured."""

    issues: list[FitIssue] = field(default_factory=list)
    missing_keys: list[str] = field(default_factory=list)   # text keys with no text in the language
    boxes: list[MeasuredBox] = field(default_factory=list)  # every box measured, in drawing order
    # TEXT_OFF_CARD issues of textboxes marked in the face's SVG: an issue only once the whole
    # SVG shows no transform moving it (pnp.render.textbox.off_card_issues), so not in `issues` yet
    off_card: list[FitIssue] = field(default_factory=list)

    def measure(self, text: str, box_mm: tuple[float, float], min_size_pt: float, font: str,
                overflow: bool, missing: tuple[str, ...] | list[str], what: str = "", *,
                size_pt: float | None = None, nominal_pt: float | None = None,
                lines: tuple[str, ...] = ()) -> None:
        """Record one box; an issue for what the layout found wrong. `size_pt` is the size the
        text prints at: under MIN_PRINTED_PT it is a TEXT_SMALL issue (a warning), unless it overflows;
        `nominal_pt` the size asked for and `lines` the printed lines (for `pnp i18n fit`)."""
        self.boxes.append(MeasuredBox(text, box_mm, size_pt, font, what, nominal_pt, min_size_pt, tuple(lines),
                                      overflow))
        # text that does not fit is already an error at its smallest size: no second, smaller finding
        if size_pt is not None and size_pt < MIN_PRINTED_PT - 1e-9 and text.strip() and not overflow:
            self.issues.append(FitIssue(TEXT_SMALL, text, box_mm, min_size_pt, font, (), what, float(size_pt)))
        if overflow:
            self.issues.append(FitIssue(TEXT_FIT, text, box_mm, min_size_pt, font, (), what))
        if missing:
            self.issues.append(FitIssue(TEXT_GLYPH, text, box_mm, min_size_pt, font, tuple(missing), what))
