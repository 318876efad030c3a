"""Components that are not cards: boards, mats, tokens, standees, walls, dice, player aids...

A pack lists what to print in `components.yaml` (pack.yaml: `components: components.yaml`): a
list of entries, each with a `type` and that type's settings (pnp.components.types: the shipped
types, their settings and the open registry), e.g.

    - {type: grid-board, board: board, pieces: pieces, coordinates: 9mm}
    - {type: dice, dice: dice, face: 18mm}
    - {type: template, template: my-game/track.svg.j2, width: 180mm, height: 40mm}

The loader validates every entry (unknown settings, wrong types and missing collections are errors
with file, line and key); drawers read the validated settings, the pack's collections and palette,
and draw with svgwrite (pnp.components.svgkit) and the pack's own art templates
(pnp.components.art), text laid out by the project's text layer. The pages go through
pnp.sheets.parts (the cards' PDF machinery). One build writes, per language:

    <game>-board-<lang>-<paper>.pdf   boards and layout guides (tiled with an assembly map if needed)
    <game>-parts-<lang>-<paper>.pdf   standees, tokens, walls, dice, player aids (with the legend)
    <game>-mat-<lang>-<paper>.pdf     only with --mat: full-size play mats, tiled

    plan = plan_components(pack, lang, paper, mat=False)   # draws everything; plan.problems: Problems
    paths = write_components(plan, out_dir, png=False)

This package's __init__ imports nothing: `pnp.components.types` (what the loader reads) stays
light; the names below are loaded from pnp.components.plan when first used.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pnp.components.plan import (
        DOCUMENTS,
        ComponentPlan,
        document_name,
        footer_template,
        has_components,
        plan_components,
        write_components,
        write_page_previews,
    )

__all__ = ["DOCUMENTS", "ComponentPlan", "document_name", "footer_template", "has_components",
           "plan_components", "write_components", "write_page_previews"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from pnp.components import plan
        return getattr(plan, name)
    raise AttributeError(f"module 'pnp.components' has no attribute {name!r}")
