"""Render card faces from Jinja2 SVG templates in a sandbox.

Card text is data, never code: the environment is sandboxed and autoescapes for XML, so a card
saying `{{ 7*7 }}` or `<b>&` prints exactly that.
"""
from __future__ import annotations

import colorsys
import hashlib
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from jinja2.sandbox import SandboxedEnvironment

from pnp.i18n.lookup import TextLookupError, translate
from pnp.render.textbox import FitReport, make_textbox


class TemplateProblem(Exception):
    """A template is missing or broken, or asks for a text key the pack lacks."""


def hsl(h: float, s: float, l: float) -> str:
    """CSS-like hsl (h in degrees, s and l in 0..100) as '#rrggbb' (the SVG compiler takes hex colours only)."""
    r, g, b = colorsys.hls_to_rgb((float(h) % 360) / 360.0, max(0.0, min(1.0, l / 100.0)), max(0.0, min(1.0, s / 100.0)))
    return "#{:02x}{:02x}{:02x}".format(round(r * 255), round(g * 255), round(b * 255))


def seeded(*key: Any) -> random.Random:
    """A random generator that gives the same numbers for the same key on every run."""
    digest = hashlib.sha256("\x1f".join(str(k) for k in key).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def _undefined_text(lang: str):
    def missing(key: str):
        raise TemplateProblem(f"text key {key!r} has no {lang!r} text")
    return missing


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
        self.env.globals.update(hsl=hsl, seeded=seeded, range=range, min=min, max=max, abs=abs,
                                round=round, len=len, enumerate=enumerate, zip=zip)
        self.env.filters["mm"] = lambda v: f"{float(v):.3f}"

    def render(self, template_name: str, context: dict[str, Any], texts: dict[str, str], lang: str) -> tuple[str, FitReport]:
        report = FitReport()

        def t(key: str, n=None, **values) -> str:
            """The `lang` text of `key`; `n` picks the plural form (CLDR) and fills `{n}`, other
            keyword values fill `{name}` placeholders."""
            try:
                return translate(texts, lang, key, n, **values)
            except TextLookupError as error:
                raise TemplateProblem(str(error)) from None

        try:
            template = self.env.get_template(template_name)
            svg = template.render(**context, t=t, textbox=make_textbox(report), lang=lang)
        except jinja2.TemplateNotFound as error:
            raise TemplateProblem(f"template {error.name!r} not found in {', '.join(map(str, self.template_dirs))}") from None
        except jinja2.TemplateSyntaxError as error:
            raise TemplateProblem(f"template {error.filename or template_name}:{error.lineno}: {error.message}") from None
        except jinja2.UndefinedError as error:
            raise TemplateProblem(f"template {template_name}: {error.message}") from None
        except jinja2.sandbox.SecurityError as error:
            raise TemplateProblem(f"template {template_name}: unsafe operation refused ({error})") from None
        except (TypeError, ValueError, KeyError, AttributeError, ZeroDivisionError) as error:
            raise TemplateProblem(f"template {template_name}: {type(error).__name__}: {error}") from None
        return svg, report
