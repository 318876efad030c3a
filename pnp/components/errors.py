"""What a component drawer raises and the codes its problems carry: a module of its own, so that
the drawing kit (pnp.components.svgkit, which tuck boxes use too) can raise them without loading
the drawers' shared machinery (pnp.components.core: tiling, parts pages)."""
from __future__ import annotations

COMPONENT_DATA = "component.data"          # the data a component reads is missing or wrong
COMPONENT_TEMPLATE = "component.template"  # an art or component template is missing or broken
COMPONENT_SIZE = "component.size"          # a part does not fit the page


class ComponentError(Exception):
    """Component data that cannot be drawn; `key` names the entry's setting it is about."""

    def __init__(self, message: str, key: str | None = None, code: str = COMPONENT_DATA):
        super().__init__(message)
        self.message = message
        self.key = key
        self.code = code
