"""What a face's template asked for while it rendered: every `textbox()` and every `t()` call.

The templates run in the build's sandbox (pnp.render.templates), where every call a template makes
goes through `SandboxedEnvironment.call`. Wrapping that one method on the renderer's environment
lets the preview see, without changing the renderer, (1) each text box with the size the layout
used, for the card's fit report, and (2) each text key looked up with `t()`, which the face cache
needs because those texts are not part of the card's own data.
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any

from pnp.render import templates as render_templates
from pnp.render.templates import Renderer
from pnp.render.textbox import make_textbox
from pnp.text.fitreport import FitReport
from pnp.text.layout import layout

# textbox()'s parameters and defaults, read from the helper itself so they cannot drift.
_TEXTBOX = inspect.signature(make_textbox(FitReport()))


@dataclass(frozen=True)
class TextBox:
    """One textbox() of a face: what was asked and what the layout made of it."""

    text: str
    box_mm: tuple[float, float]
    font: str
    size_pt: float          # asked for
    min_size_pt: float
    used_pt: float          # what the layout used (smaller when it shrank)
    lines: int
    overflow: bool          # does not fit even at min_size_pt


@dataclass
class Recording:
    boxes: list[TextBox]
    text_keys: list[str]    # keys passed to t(), in call order


class CallRecorder:
    """Installs itself on a Renderer's sandbox; `start()` ... `stop()` brackets one face."""

    def __init__(self, renderer: Renderer):
        self._current: Recording | None = None
        sandboxed_call = renderer.env.call

        def call(context: Any, obj: Any, /, *args: Any, **kwargs: Any) -> Any:
            result = sandboxed_call(context, obj, *args, **kwargs)
            if self._current is not None:
                self._note(obj, args, kwargs)
            return result

        renderer.env.call = call  # type: ignore[method-assign]  # an instance attribute shadows the method

    def start(self) -> None:
        self._current = Recording([], [])

    def stop(self) -> Recording:
        recording, self._current = self._current or Recording([], []), None
        return recording

    def _note(self, obj: Any, args: tuple, kwargs: dict) -> None:
        assert self._current is not None
        module, name = getattr(obj, "__module__", ""), getattr(obj, "__name__", "")
        if module == render_templates.__name__ and name == "t" and args:
            self._current.text_keys.append(str(args[0]))
        elif module == make_textbox.__module__ and name == "textbox":
            # Jinja adds `_block_vars` / `_loop_vars` to calls in blocks and loops (Context.call drops them)
            arguments = {k: v for k, v in kwargs.items() if k in _TEXTBOX.parameters}
            self._current.boxes.append(_text_box(args, arguments))


def _text_box(args: tuple, kwargs: dict) -> TextBox:
    """The box as textbox() laid it out: the same call of the (cached) layout function."""
    bound = _TEXTBOX.bind(*args, **kwargs)
    bound.apply_defaults()
    a = bound.arguments
    text = "" if a["text"] is None else str(a["text"])
    result = layout(text, a["font"], float(a["w"]), float(a["h"]), float(a["size"]), float(a["min_size"]),
                    float(a["line_height"]), a["max_lines"], a["direction"])
    return TextBox(text, (float(a["w"]), float(a["h"])), a["font"], float(a["size"]), float(a["min_size"]),
                   result.size_pt, len([line for line in result.lines if line]), result.overflow)
