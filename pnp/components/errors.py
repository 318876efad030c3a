"""What a component drawer raises and the codes its problems carry: a module of its own, so that
the drawing kit (pnp.components.svgkit, which tuck boxes use too) can raise them without loading
the drawers' shared machinery (pnp.components.core: tiling, parts pages)."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pnp.render.templates import TemplateProblem

COMPONENT_DATA = "component.data"          # the data a component reads is missing or wrong
COMPONENT_TEMPLATE = "component.template"  # an art or component template drew unusable SVG or named an
                                           # unknown colour (one that fails to render: template.*)
COMPONENT_SIZE = "component.size"          # a part does not fit the page


class ComponentError(Exception):
    """Component data that cannot be drawn; `key` names the entry's setting it is about. A
    template the setting names that fails carries its problem as `template` (a
    pnp.render.templates.TemplateProblem, which knows the template's file and line when the
    template could be read): that is where it is reported."""

    def __init__(self, message: str, key: str | None = None, code: str = COMPONENT_DATA,
                 template: TemplateProblem | None = None):
        super().__init__(message)
        self.message = message
        self.key = key
        self.code = code
        self.template = template

    @classmethod
    def of_template(cls, problem: TemplateProblem, key: str) -> ComponentError:
        """The error of the entry's setting `key`, whose template failed with `problem`."""
        return cls(problem.message, key, problem.code, problem)
