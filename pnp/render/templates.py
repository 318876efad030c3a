"""Render card faces from Jinja2 SVG templates in a sandbox.

Card text is data, never code: the environment is sandboxed and autoescapes for XML, so a card
saying `{{ 7*7 }}` or `<b>&` prints exactly that.
"""
from __future__ import annotations

import colorsys
import hashlib
import random
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from jinja2.sandbox import SandboxedEnvironment

from pnp.i18n.lookup import TextLookupError
from pnp.i18n.texts import MissingText, Texts
from pnp.render.textbox import make_textbox
from pnp.text.fitreport import FitReport

# What went wrong with a template; the build's Problem and `pnp check`'s finding carry the code.
TEMPLATE_NOT_FOUND = "template.not-found"   # no such template file
TEMPLATE_SYNTAX = "template.syntax"         # Jinja2 cannot parse it
TEMPLATE_UNDEFINED = "template.undefined"   # it reads a variable or field the context lacks
TEMPLATE_UNSAFE = "template.unsafe"         # the sandbox refused an operation
TEXT_LOOKUP = "text.lookup"                 # t() of a plural text without n, or a placeholder without a value
TEMPLATE_SVG = "template.svg"               # its SVG uses what pnp.render.svgcanvas does not draw
TEMPLATE_NO_BACK = "template.no-back"       # a card has no back template (neither kind nor deck gives one)
TEMPLATE_ERROR = "template.error"           # any other error while it renders


class TemplateProblem(Exception):
    """A template is missing or broken, with the `code` of what went wrong and, when known, the
    template file and line (`template`, `line`)."""

    def __init__(self, code: str, message: str, template: str = "", line: int = 0):
        super().__init__(message)
        self.code = code
        self.message = message
        self.template = template
        self.line = line


class TextKeys:
    """Which text key produced which string while one face renders (t(), text fields, names), so a
    string that does not fit can be traced to the one key to fix."""

    def __init__(self) -> None:
        self._keys: dict[str, set[str]] = {}

    def add(self, text: Any, key: str) -> Any:
        self._keys.setdefault(str(text), set()).add(key)
        return text

    def unique(self) -> dict[str, str]:
        """String -> key, for the strings exactly one key produced."""
        return {text: next(iter(keys)) for text, keys in self._keys.items() if len(keys) == 1}


def hsl(h: float, s: float, l: float) -> str:  # noqa: E741 - h, s, l as in CSS
    """CSS-like hsl (h in degrees, s and l in 0..100) as '#rrggbb' (the SVG compiler takes hex colours only)."""
    r, g, b = colorsys.hls_to_rgb((float(h) % 360) / 360.0, max(0.0, min(1.0, l / 100.0)), max(0.0, min(1.0, s / 100.0)))
    return "#{:02x}{:02x}{:02x}".format(round(r * 255), round(g * 255), round(b * 255))


def seeded(*key: Any) -> random.Random:
    """A random generator that gives the same numbers for the same key on every run."""
    digest = hashlib.sha256("\x1f".join(str(k) for k in key).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


@dataclass
class Renderer:
    """One sandboxed environment per pack: templates are compiled once and reused."""

    template_dirs: list[Path]

    def __post_init__(self) -> None:
        self.env = SandboxedEnvironment(
            loader=jinja2.FileSystemLoader([str(d) for d in self.template_dirs]),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
        )
        # the sandbox's own `range` stays: it refuses loops of more than 100,000 steps
        self.env.globals.update(hsl=hsl, seeded=seeded, min=min, max=max, abs=abs,
                                round=round, len=len, enumerate=enumerate, zip=zip)
        self.env.filters["mm"] = lambda v: f"{float(v):.3f}"

    def render(self, template_name: str, context: dict[str, Any], texts: Texts, lang: str,
               keys: TextKeys | None = None) -> tuple[str, FitReport]:
        """The SVG of one face and what went wrong with its text; the strings `t()` returns are
        recorded in `keys`. A text key the language lacks prints as the key and is reported in
        the FitReport's `missing_keys` (the build fails on it, after every face is checked)."""
        report = FitReport()
        keys = keys if keys is not None else TextKeys()

        def t(key: str, n=None, **values) -> str:
            """The `lang` text of `key`; `n` picks the plural form (CLDR) and fills `{n}`, other
            keyword values fill `{name}` placeholders."""
            try:
                return keys.add(texts.t(key, n, **values), key)
            except MissingText:
                report.missing_keys.append(key)
                return key
            except TextLookupError as error:
                raise TemplateProblem(TEXT_LOOKUP, str(error)) from None

        try:
            template = self.env.get_template(template_name)
            svg = template.render({**context, "t": t, "textbox": make_textbox(report), "lang": lang})
        except TemplateProblem as error:
            name, line = self._where(error, template_name)
            raise TemplateProblem(error.code, f"template {name}:{line}: {error}" if line else
                                  f"template {name}: {error}", name, line) from None
        except jinja2.TemplateNotFound as error:
            raise TemplateProblem(TEMPLATE_NOT_FOUND, f"template {error.name!r} not found in "
                                  f"{', '.join(map(str, self.template_dirs))}", str(error.name)) from None
        except jinja2.TemplateSyntaxError as error:
            name = error.name or template_name
            raise TemplateProblem(TEMPLATE_SYNTAX, f"template {error.filename or name}:{error.lineno}: {error.message}",
                                  name, error.lineno or 0) from None
        except jinja2.UndefinedError as error:
            raise self._problem(TEMPLATE_UNDEFINED, error, template_name, str(error.message)) from None
        except (jinja2.sandbox.SecurityError, OverflowError) as error:   # OverflowError: the sandbox's range
            raise self._problem(TEMPLATE_UNSAFE, error, template_name, f"unsafe operation refused ({error})") from None
        except (TypeError, ValueError, KeyError, AttributeError, ZeroDivisionError) as error:
            raise self._problem(TEMPLATE_ERROR, error, template_name, f"{type(error).__name__}: {error}") from None
        return svg, report

    def _problem(self, code: str, error: Exception, template_name: str, message: str) -> TemplateProblem:
        name, line = self._where(error, template_name)
        where = f"{name}:{line}" if line else name
        return TemplateProblem(code, f"template {where}: {message}", name, line)

    def _where(self, error: Exception, template_name: str) -> tuple[str, int]:
        """The template (top-level, base or macro file) and line the error was raised at: Jinja2
        rewrites tracebacks so that template frames name the template file and line."""
        roots = [Path(d).resolve() for d in self.template_dirs]
        for frame in reversed(traceback.extract_tb(error.__traceback__)):
            path = Path(frame.filename).resolve()
            for root in roots:
                if path.is_relative_to(root):
                    return path.relative_to(root).as_posix(), frame.lineno or 0
        return template_name, 0
