"""Tuck boxes: a printable net per deck, and one for the whole game, that folds into a box the
deck slides into (docs/tuckbox.md: how to cut, fold and glue, and the sizes).

    plan = plan_tuckboxes(pack, lang, paper="a4", card_thickness_mm=0.30)   # nothing written
    plan.problems            # Problems with codes (tuckbox.too-large, text.fit, template.*...)
    nets = write_tuckboxes(plan, path)                                      # atomic, same bytes

or `write_tuckboxes_pdf(pack, lang, path, ...)`, which raises DataError (exit 2) for the problems
before writing anything. Each `TuckBoxNet` exposes its parts' rectangles in mm: `panels` in the
net's own coordinates, `page_parts()` and `page_bounds()` on the pages.

Sizes (pnp.tuckbox.geometry): front and back are the card plus PLAY_MM, the depth is cards x
`card_thickness_mm` plus DEPTH_PLAY_MM (at least MIN_DEPTH_MM). A net that does not fit the
paper's printable area (paper less `margin_mm`, 6.35 mm by default, less the two text strips)
turns to a landscape page, else is split into two pieces joined by a glue tab; a deck whose
pieces still do not fit is a `tuckbox.too-large` problem naming the deck, its sizes and the
paper. The whole game's box (every deck's cards together, sized to the largest card) is made
only for a game of several decks, and only where it fits; else `plan.skipped` says why.

This package's __init__ imports nothing: the planning and drawing code (pnp.tuckbox.plan, with
its drawing kit, svgwrite) loads when a name is first taken from it, so a build whose decks have
no tuck box (`tuckbox: false`) never loads it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pnp.tuckbox.plan import (  # noqa: F401
        DEPTH_PLAY_MM,
        HOME_CARD_THICKNESS_MM,
        MAX_CARD_THICKNESS_MM,
        MIN_DEPTH_MM,
        PLAY_MM,
        PRINTER_MARGIN_MM,
        TUCKBOX_TOO_LARGE,
        BoxSize,
        MmRect,
        Piece,
        TuckBoxNet,
        TuckBoxPlan,
        plan_tuckboxes,
        write_tuckboxes,
        write_tuckboxes_pdf,
    )


def __getattr__(name: str) -> Any:
    """`pnp.tuckbox.<name>`: loads the planning code on first use (PEP 562)."""
    if name.startswith("__") or name == "plan":   # `plan` itself: the import machinery asks first
        raise AttributeError(name)
    from pnp.tuckbox import plan
    return getattr(plan, name)
