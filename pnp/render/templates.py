"""Render card faces from Jinja2 SVG templates in a sandbox.

Card text is data, never code: the environment is sandboxed and autoescapes for XML, so a card
saying `{{ 7*7 }}` or `<b>&` prints exactly that.
"""
from __future__ import annotations

import colorsys
import functools
import hashlib
import inspect
import os
import posixpath
import random
import re
import sys
import threading
import traceback
from collections.abc import Iterator, Mapping
from dataclasses import InitVar, dataclass
from pathlib import Path
from typing import Any

import jinja2
from jinja2 import nodes
from jinja2.sandbox import SandboxedEnvironment
from jinja2.utils import missing

from pnp.i18n.lookup import TextLookupError
from pnp.i18n.texts import MissingText, Texts
from pnp.limits import MAX_TEMPLATE_BYTES, MAX_TEMPLATE_EXPONENT, MAX_TEMPLATE_VALUE
from pnp.render.textbox import make_textbox, off_card_issues
from pnp.schema import did_you_mean
from pnp.shipped import templates_dir
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
TEMPLATE_CYCLE = "template.cycle"           # templates extend, include or import each other in a circle
TEMPLATE_RECURSION = "template.recursion"   # a macro or recursive loop calls itself without end
TEMPLATE_OUTSIDE = "template.outside"       # it resolves outside the pack (a `..` or a symlink): not read
TEMPLATE_TOO_BIG = "template.too-big"       # a template file larger than MAX_TEMPLATE_BYTES: not read


# The names a template gets for its box's size are short (a card face's, a template component's
# `w` and `h`); a designer who writes them out means those.
_SHORT_NAMES = {"width": "w", "height": "h"}


class TemplateProblem(Exception):
    """A template is missing or broken, with the `code` of what went wrong and, when known, the
    template (`template`, its name below templates/), its `line` and the `file` it is read from.
    `message` is the whole message ("template a.svg.j2:3: ..."), `reason` what went wrong alone
    (for a report that shows the file and line itself); `text_key` the text key concerned, if any."""

    def __init__(self, code: str, message: str, template: str = "", line: int = 0, file: str = "",
                 reason: str = "", text_key: str = ""):
        super().__init__(message)
        self.code = code
        self.message = message
        self.template = template
        self.line = line
        self.file = file
        self.reason = reason or message
        self.text_key = text_key


class TemplateRefused(jinja2.TemplateError):
    """A template name that would read a file outside the templates' confines (see ConfinedLoader);
    `code` says why (TEMPLATE_OUTSIDE, TEMPLATE_TOO_BIG)."""

    def __init__(self, code: str, name: str, reason: str):
        super().__init__(f"template {name!r} {reason}")
        self.code = code
        self.name = name
        self.reason = reason


class ConfinedLoader(jinja2.FileSystemLoader):
    """A FileSystemLoader that reads no file outside its confines: a pack's templates/ must stay in
    the pack's folder, the shipped templates in theirs. Jinja already refuses a name with `..`
    (as "not found"); a symlink, of a file or of a folder on the way, it follows. Here both are
    refused, by name, before the file is opened, and so is a file too large to be a template."""

    def __init__(self, template_dirs: list[Path]):
        super().__init__([str(d) for d in template_dirs])
        shipped = templates_dir().resolve()
        # the pack's own templates/ may point anywhere inside the pack; the shipped ones stay home
        self.confines = [Path(d).resolve() if Path(d).resolve() == shipped else Path(d).absolute().parent.resolve()
                         for d in template_dirs]

    def get_source(self, environment: jinja2.Environment, template: str):
        if os.pardir in template.split("/"):
            raise TemplateRefused(TEMPLATE_OUTSIDE, template, "refused: '..' would leave the templates folder "
                                  "(name a template by its path below templates/)")
        pieces = jinja2.loaders.split_template_path(template)
        found = self._first(pieces)
        if found is not None:
            self._check(template, found[0], found[1])
        source, filename, uptodate = super().get_source(environment, template)

        def still_this_file() -> bool:
            # Jinja's check looks at the file it read only: a file of the same name added to an
            # earlier folder (a pack's own copy of a shipped template, saved during `--watch` or
            # `pnp serve`) would never be read in this process
            return uptodate() and self._first(pieces) == found

        return source, filename, still_this_file

    def _first(self, pieces: list[str]) -> tuple[str, Path] | None:
        """The file these path pieces name in the first folder that has it, and its confines."""
        for searchpath, confine in zip(self.searchpath, self.confines, strict=True):
            filename = posixpath.join(searchpath, *pieces)
            if os.path.isfile(filename):
                return filename, confine
        return None

    @staticmethod
    def _check(template: str, filename: str, confine: Path) -> None:
        real = Path(os.path.realpath(filename))
        if not real.is_relative_to(confine):
            raise TemplateRefused(TEMPLATE_OUTSIDE, template, f"refused: it is a link to a file outside "
                                  f"{confine} (copy the file into the pack instead)")
        size = real.stat().st_size
        if size > MAX_TEMPLATE_BYTES:
            raise TemplateRefused(TEMPLATE_TOO_BIG, template, f"refused: {size:,} bytes, more than a template "
                                  f"may have ({MAX_TEMPLATE_BYTES:,})")


class TemplateMistake(jinja2.TemplateRuntimeError):
    """A template did something with a value that the value does not allow (added a number to a
    text, called a text, gave textbox() an argument it has no name for); the message says so in
    the designer's terms, with the values concerned."""


class TemplateRecursion(jinja2.TemplateRuntimeError):
    """A template went deeper than Python's stack allows (a cycle, a macro calling itself without
    end): a template error like any other, so every caller of the environment (cards, a pack's
    art) reports it as one; its traceback is the recursion's, for the template line."""


class Sandbox(SandboxedEnvironment):
    """The cards' sandbox, where a RecursionError becomes a TemplateRecursion and `*` and `**`
    cannot build a value that fills the memory ("x" * 10**10, 9 ** 10**9)."""

    # every arithmetic operator, so that `card.value + card.title` is reported with the values it met
    intercepted_binops = frozenset({"*", "**", "+", "-", "/", "//", "%"})

    def call_binop(self, context: jinja2.runtime.Context, operator: str, left: Any, right: Any) -> Any:
        if operator == "*" and _repeated_length(left, right) > MAX_TEMPLATE_VALUE:
            raise jinja2.sandbox.SecurityError(f"a value of more than {MAX_TEMPLATE_VALUE:,} items or characters")
        if operator == "**" and _int(left) and _int(right) and abs(left) > 1 and right > MAX_TEMPLATE_EXPONENT:
            raise jinja2.sandbox.SecurityError(f"a power above {MAX_TEMPLATE_EXPONENT}")
        try:
            return super().call_binop(context, operator, left, right)
        except TypeError:
            raise TemplateMistake(f"cannot compute {describe(left)} {operator} {describe(right)}") from None
        except ZeroDivisionError:
            raise TemplateMistake(f"{describe(left)} {operator} {describe(right)} divides by zero") from None

    def call(__self, __context: jinja2.runtime.Context, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805
        """Calls from a template: a value that is not a function, or arguments the function or
        macro does not take, are the template's mistake, said before the call (a TypeError from
        inside the function would be a different thing)."""
        if not callable(__obj):
            raise TemplateMistake(f"{describe(__obj)} is not a function or macro, it cannot be called")
        mistake = _argument_mistake(__obj, args, {k: v for k, v in kwargs.items() if not k.startswith("_")})
        if mistake:
            raise TemplateMistake(mistake)
        return super().call(__context, __obj, *args, **kwargs)

    def handle_exception(self, source: str | None = None):
        try:
            super().handle_exception(source)
        except RecursionError as error:
            raise TemplateRecursion("it calls itself without end (a macro or a recursive loop that never "
                                    "stops, or templates that extend, include or import each other); no "
                                    "template may go this deep").with_traceback(error.__traceback__) from None


class Record(Mapping):
    """Read-only data for templates: `card.name` works, a typo is an error (StrictUndefined), and
    unlike a dict there is no `copy`/`update` method to shadow a field of that name. `what` is
    what the designer calls it ("card", "deck", "deceased entry"), for messages."""

    __slots__ = ("_data", "_what")

    def __init__(self, data: Mapping | None = None, what: str = "record", **more: Any):
        self._data = {**(data or {}), **more}
        self._what = what

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return f"<{self._what}: {', '.join(map(str, self._data))}>"

    @property
    def what(self) -> str:
        return self._what


class UndefinedName(jinja2.UndefinedError):
    """A template used a name or field that does not exist; `variable` is the name when it is a
    variable of the template's context (the renderer, which knows the context, suggests one);
    `looked_up` the template file and line that looked the name up, when a template did."""

    def __init__(self, message: str | None = None, variable: str = "",
                 looked_up: tuple[str, int] | None = None):
        super().__init__(message)
        self.variable = variable
        self.looked_up = looked_up


def _template_line(frame: Any) -> tuple[str, int] | None:
    """The template file and line of the innermost compiled template frame from `frame` outwards
    (what jinja2.debug does to tracebacks), or None."""
    while frame is not None:
        template = frame.f_globals.get("__jinja_template__")
        if template is not None:
            return template.filename or "", template.get_corresponding_lineno(frame.f_lineno)
        frame = frame.f_back
    return None


class DesignerUndefined(jinja2.StrictUndefined):
    """StrictUndefined whose messages speak of the designer's data, never of Python classes:
    "card has no field 'titel' (its fields: ...; did you mean 'title'?)". It fails where it is
    used, which may be a macro far from the typo (`textbox(card.titel)` fails inside textbox), so
    it keeps the template line that looked the name up, and the message names that line."""

    __slots__ = ()

    def __init__(self, hint: str | None = None, obj: Any = missing, name: str | None = None,
                 exc: type[jinja2.TemplateRuntimeError] = jinja2.UndefinedError):
        if exc is jinja2.UndefinedError:     # keep the name for the renderer's "did you mean"
            variable = name if obj is missing and hint is None and isinstance(name, str) else ""
            exc = functools.partial(UndefinedName, variable=variable,  # type: ignore[assignment]
                                    looked_up=_template_line(sys._getframe(1)))
        super().__init__(hint, obj, name, exc)

    @property
    def _undefined_message(self) -> str:
        obj, name = self._undefined_obj, self._undefined_name
        if self._undefined_hint is None and isinstance(obj, Record):
            fields = list(obj)
            listed = ", ".join(fields) if fields else "none"
            return f"{obj.what} has no field {name!r} (its fields: {listed}{did_you_mean(str(name), fields)})"
        if self._undefined_hint is None and obj is missing:
            return f"there is no variable {name!r}"
        if self._undefined_hint is None:
            return _no_such_member(obj, name)
        return super()._undefined_message


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

    def containing(self, part: str) -> str:
        """The key of the first string holding `part` (a bad character), "" when none does."""
        return next((min(keys) for text, keys in self._keys.items() if part in text), "")


def hsl(h: float, s: float, l: float) -> str:  # noqa: E741 - h, s, l as in CSS
    """CSS-like hsl (h in degrees, s and l in 0..100) as '#rrggbb' (the SVG compiler takes hex colours only)."""
    r, g, b = colorsys.hls_to_rgb((float(h) % 360) / 360.0, max(0.0, min(1.0, l / 100.0)), max(0.0, min(1.0, s / 100.0)))
    return "#{:02x}{:02x}{:02x}".format(round(r * 255), round(g * 255), round(b * 255))


def seeded(*key: Any) -> random.Random:
    """A random generator that gives the same numbers for the same key on every run."""
    digest = hashlib.sha256("\x1f".join(str(k) for k in key).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


class CompiledTemplates(jinja2.BytecodeCache):
    """Jinja's compiled templates kept in this process's memory, for every Renderer: a rebuild in
    the same process (`pnp build --watch`, the server's preview) compiles only the templates whose
    text changed. Jinja finds an entry by the template's name and file and uses it only when the
    source's checksum is the one it was compiled from. Kept in memory only, never on disk: the
    cache folder is one anyone may write to, and what is read back from here runs. Every
    Renderer's Sandbox has the same options (the code depends on them); at most `limit`
    templates are kept, the oldest dropped first."""

    def __init__(self, limit: int = 512):
        self.limit = limit
        self._code: dict[str, bytes] = {}
        self._lock = threading.Lock()                # builds in threads (the server) share it

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)        # checks the source's checksum; a stale entry is ignored

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = bucket.bytecode_to_string()
        with self._lock:
            self._code.pop(bucket.key, None)         # a changed template moves to the newest end
            while len(self._code) >= self.limit:
                del self._code[next(iter(self._code))]
            self._code[bucket.key] = code


COMPILED = CompiledTemplates()


@dataclass
class Renderer:
    """One sandboxed environment per pack: templates are compiled once a process (COMPILED) and
    reused. `shared`: an environment another Renderer of the same folders made, to use instead
    of a new one (components' art keeps one a process, pnp.components.art.environment); what
    this one finds out about the templates (their references, cycles) stays its own."""

    template_dirs: list[Path]
    shared: InitVar[Sandbox | None] = None

    def __post_init__(self, shared: Sandbox | None) -> None:
        self.env = shared if shared is not None else Sandbox(
            loader=ConfinedLoader(self.template_dirs),
            autoescape=True,
            undefined=DesignerUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            bytecode_cache=COMPILED,
        )
        # the sandbox's own `range` stays: it refuses loops of more than 100,000 steps
        self.env.globals.update(hsl=hsl, seeded=seeded, min=min, max=max, abs=abs,
                                round=round, len=len, enumerate=enumerate, zip=zip)
        self.env.filters["mm"] = lambda v: f"{float(v):.3f}"
        self._references: dict[str, list[tuple[str, str, int]]] = {}
        self._acyclic: set[str] = set()
        self._cycles: dict[str, TemplateProblem] = {}     # template -> the cycle it is in (found once)

    def render(self, template_name: str, context: dict[str, Any], texts: Texts, lang: str,
               keys: TextKeys | None = None, card_mm: tuple[float, float] | None = None) -> tuple[str, FitReport]:
        """The SVG of one face and what went wrong with its text; the strings `t()` returns are
        recorded in `keys`; text printed past `card_mm` (the face's trim) is reported. A text key
        the language lacks prints as the key and is reported in the FitReport's `missing_keys`
        (the build fails on it, after every face is checked)."""
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

        values = {**context, "t": t, "textbox": make_textbox(report, card_mm=card_mm), "lang": lang}
        svg = self.run(template_name, values)
        svg, placed = off_card_issues(svg, report.off_card)     # the marks out, the issues judged
        report.issues.extend(placed)
        return svg, report

    def run(self, template_name: str, values: dict[str, Any]) -> str:
        """`template_name` rendered with `values` (every name it may use: a card face's or a
        component's art), or a TemplateProblem at the template line that failed."""
        if template_name in self._cycles:        # a cycle is in the templates' text: it fails every card alike
            raise _copy(self._cycles[template_name])
        try:
            svg = self.env.get_template(template_name).render(values)
        except TemplateProblem as error:
            raise self.problem(error.code, error, template_name, error.reason) from None
        except TemplateRefused as error:
            raise self.problem(error.code, error, template_name, error.reason, error.name) from None
        except jinja2.TemplateNotFound as error:
            raise self.problem(TEMPLATE_NOT_FOUND, error, template_name,
                               f"not found in {', '.join(map(str, self.template_dirs))}", str(error.name)) from None
        except jinja2.TemplateSyntaxError as error:
            name = error.name or template_name
            reason = self._unknown_filter(error) or str(error.message)
            raise TemplateProblem(TEMPLATE_SYNTAX, f"template {name}:{error.lineno}: {reason}", name,
                                  error.lineno or 0, error.filename or "", reason) from None
        except jinja2.UndefinedError as error:
            raise self.problem(TEMPLATE_UNDEFINED, error, template_name, self._undefined(error, values)) from None
        except (jinja2.sandbox.SecurityError, OverflowError) as error:   # OverflowError: the sandbox's range
            raise self.problem(TEMPLATE_UNSAFE, error, template_name, f"unsafe operation refused ({error})") from None
        except TemplateRecursion as error:
            cycle = self.cycle(template_name)
            if cycle is not None:
                self._cycles[template_name] = cycle
                raise _copy(cycle) from None
            raise self.problem(TEMPLATE_RECURSION, error, template_name, str(error.message)) from None
        except RecursionError as error:      # raised while Jinja parses or compiles it, not while it runs
            raise self.problem(TEMPLATE_RECURSION, error, template_name, "it nests tags or brackets too deep "
                               "to be read (thousands inside each other)") from None
        except TemplateMistake as error:
            raise self.problem(TEMPLATE_ERROR, error, template_name, str(error.message)) from None
        except (TypeError, ValueError, KeyError, AttributeError, ZeroDivisionError, IndexError,
                jinja2.TemplateError) as error:
            raise self.problem(TEMPLATE_ERROR, error, template_name, _plain_words(error)) from None
        return svg

    def _unknown_filter(self, error: jinja2.TemplateSyntaxError) -> str:
        """For a template that parses but names a filter or test Jinja does not have (found at
        compile time, as a TemplateAssertionError): which one, and the one probably meant."""
        if not isinstance(error, jinja2.TemplateAssertionError) or error.source is None:
            return ""
        try:
            tree = self.env.parse(error.source)
        except (jinja2.TemplateError, RecursionError):
            return ""
        for node_type, what, known in ((nodes.Filter, "filter", self.env.filters), (nodes.Test, "test", self.env.tests)):
            for node in tree.find_all(node_type):
                if node.lineno == error.lineno and node.name not in known:
                    return f"there is no {what} {node.name!r}{did_you_mean(node.name, list(known))}"
        return ""

    def _undefined(self, error: jinja2.UndefinedError, values: dict[str, Any]) -> str:
        """The message of an undefined name, with the variable it was probably meant to be."""
        message = str(error.message)
        variable = getattr(error, "variable", "")
        if variable:
            known = [*values, *self.env.globals]
            short = _SHORT_NAMES.get(variable)      # too far from `width` for a spelling match
            message += f"; did you mean {short!r}?" if short in known else did_you_mean(variable, known)
        return message

    def problem(self, code: str, error: Exception, template_name: str, reason: str,
                named: str = "") -> TemplateProblem:
        """`error` as a TemplateProblem at the template line it was raised at. `named`: the
        template that could not be read; the line naming it when another template does, else
        it is the card's template itself."""
        name, line, file = self._where(error, template_name)
        if named and line:
            reason = f"template {named!r} {reason}"
        elif named:
            name = named
        if isinstance(error, TemplateProblem) and error.file:      # it knows its place (a cycle)
            name, line, file = error.template, error.line, error.file
        where = f"{name}:{line}" if line else name
        return TemplateProblem(code, f"template {where}: {reason}", name, line, file, reason,
                               getattr(error, "text_key", ""))

    def _where(self, error: Exception, template_name: str) -> tuple[str, int, str]:
        """The template (top-level, base or macro file), line and file the error was raised at:
        Jinja2 rewrites tracebacks so that template frames name the template file and line."""
        roots = [Path(d).absolute() for d in self.template_dirs]    # not resolved: a link inside the pack
        looked_up = getattr(error, "looked_up", None)     # an undefined name: where it was looked up
        places = [looked_up] if looked_up else []
        places += [(frame.filename, frame.lineno or 0) for frame in reversed(traceback.extract_tb(error.__traceback__))]
        for filename, line in places:
            path = Path(filename).absolute()
            for root in roots:
                if path.is_relative_to(root):
                    return path.relative_to(root).as_posix(), line, str(path)
        return template_name, 0, ""

    # ---- SVG the compiler refused: where in the templates that element is written
    def svg_problem(self, template_name: str, error: Exception) -> TemplateProblem:
        """A TEMPLATE_SVG problem for an element pnp.render.svgcanvas refused (`error.element`,
        when the compiler gives it): at the template line that writes that element, searched in
        the template and those it extends, includes or imports (the rendered SVG's lines are not
        the template's). Without an element, at the template's file."""
        reason = str(error)
        element = getattr(error, "element", None)
        found = self._element_line(template_name, element) if element is not None else None
        name, line = found or (template_name, 0)
        where = f"{name}:{line}" if line else name
        return TemplateProblem(TEMPLATE_SVG, f"template {where}: {reason}", name, line, self.file_of(name), reason)

    def _element_line(self, template_name: str, element: Any) -> tuple[str, int] | None:
        """The template and line that most likely write `element`: a tag of its name with the
        most of its attributes (written out literally counts double); the card's own template
        first on a tie, then the templates it uses."""
        tag = str(element.tag).rsplit("}", 1)[-1]
        best: tuple[int, str, int] | None = None
        for name in self._templates_used(template_name):
            try:
                source = self.env.loader.get_source(self.env, name)[0]  # type: ignore[union-attr]
            except (jinja2.TemplateError, OSError, UnicodeDecodeError):
                continue
            for match in re.finditer(rf"<{re.escape(tag)}\b[^>]*>?", source):
                written = match.group(0)
                score = 1 + sum(1 + (f'{key}="{value}"' in written) for key, value in element.attrib.items()
                                if f"{key}=" in written)
                if best is None or score > best[0]:
                    best = (score, name, source.count("\n", 0, match.start()) + 1)
        return (best[1], best[2]) if best else None

    def _templates_used(self, template_name: str) -> list[str]:
        """`template_name` and every template it names, directly or through others, in order."""
        seen: dict[str, None] = {template_name: None}
        todo = [template_name]
        while todo:
            for target, _how, _line in self._refs(todo.pop(0)):
                if target not in seen:
                    seen[target] = None
                    todo.append(target)
        return list(seen)

    # ---- cycles: why a template recursed without end, from the templates' own text
    def cycle(self, template_name: str) -> TemplateProblem | None:
        """The problem of a template that extends, includes or imports itself, directly or
        through others (it never ends), naming every step; None when there is no such cycle.
        Only names written in the templates are followed. Asked after a RecursionError, so a
        template that renders costs nothing here."""
        if template_name in self._acyclic:
            return None
        cycle = self._cycle(template_name)
        if cycle is None:
            return None
        (first, _, line), *_ = cycle
        chain = ", ".join(f"{name}:{at} {how} {target}" for (name, how, at), (target, _, _) in
                          zip(cycle, [*cycle[1:], cycle[0]], strict=True))
        file = self.file_of(first)
        reason = f"{chain}: templates that extend, include or import each other never end"
        return TemplateProblem(TEMPLATE_CYCLE, f"template {first}:{line}: {reason}", first, line, file, reason)

    def _cycle(self, start: str) -> list[tuple[str, str, int]] | None:
        """The first cycle of template references reachable from `start`, as (template, how it
        refers to the next, line) steps; None when there is none. Iterative: a chain of thousands
        of templates does not exhaust Python's stack."""
        path: list[tuple[str, str, int]] = []          # the chain from `start` to the template being looked at
        on_path: dict[str, int] = {start: 0}
        stack = [(start, iter(self._refs(start)))]
        while stack:
            name, refs = stack[-1]
            step = next(refs, None)
            if step is None:
                stack.pop()
                on_path.pop(name)
                self._acyclic.add(name)
                if path:
                    path.pop()
                continue
            target, how, line = step
            if target in on_path:
                steps = [*path, (name, how, line)]
                return steps[on_path[target]:]
            if target in self._acyclic:
                continue
            path.append((name, how, line))
            on_path[target] = len(path)
            stack.append((target, iter(self._refs(target))))
        return None

    def _refs(self, name: str) -> list[tuple[str, str, int]]:
        """The templates `name` names in extends/include/import tags: (name, "extends"|"includes"|
        "imports", line). A template that cannot be read or parsed names none here: rendering it
        reports why."""
        if name not in self._references:
            try:
                source, filename, _ = self.env.loader.get_source(self.env, name)  # type: ignore[union-attr]
                tree = self.env.parse(source, name, filename)
            except (jinja2.TemplateError, OSError, UnicodeDecodeError, RecursionError):
                self._references[name] = []
                return []
            hows = {nodes.Extends: "extends", nodes.Include: "includes", nodes.Import: "imports",
                    nodes.FromImport: "imports"}
            found = []
            for node in tree.find_all(tuple(hows)):
                for target in _constant_names(getattr(node, "template", None)):
                    found.append((target, hows[type(node)], node.lineno))
            self._references[name] = found
        return self._references[name]

    def file_of(self, name: str) -> str:
        """The file template `name` is read from ("" when it cannot be)."""
        try:
            return self.env.loader.get_source(self.env, name)[1] or ""  # type: ignore[union-attr]
        except (jinja2.TemplateError, OSError, UnicodeDecodeError):
            return ""


# ---- the designer's terms: values and calls described without Python's names for them
_KINDS = ((bool, "yes/no value"), (int, "number"), (float, "number"), (str, "text"), (list, "list"),
          (tuple, "list"), (Mapping, "mapping"))


def describe(value: Any) -> str:
    """A value as a designer would name it: `text 'Knight'`, `number 3`, `card`, `nothing`."""
    if isinstance(value, jinja2.Undefined) or value is None:
        return "nothing"
    if isinstance(value, Record):
        return value.what
    if isinstance(value, jinja2.runtime.Macro):
        return f"macro {value.name}()"
    if isinstance(value, jinja2.environment.TemplateModule):
        return f"imported template {getattr(value, '__name__', '')!r}"
    if isinstance(value, jinja2.runtime.LoopContext):
        return "loop"
    for kind, word in _KINDS:
        if isinstance(value, kind):     # a number is shown; a text is not: it differs by language
            return f"{word} {value!r}" if kind in (int, float) else f"a {word}"
    return "a value"


def _no_such_member(obj: Any, name: Any) -> str:
    """The message for `obj.name` or `obj[name]` that does not exist, with what does."""
    if isinstance(obj, jinja2.environment.TemplateModule):
        # sorted: a module's names come from a set (Jinja's exported_vars), in a per-process order
        macros = sorted(key for key in vars(obj) if not key.startswith("_"))
        return (f"{describe(obj)} has no macro {name!r} (its macros: {', '.join(macros) or 'none'}"
                f"{did_you_mean(str(name), macros)})")
    if isinstance(obj, jinja2.runtime.LoopContext):
        members = [key for key in dir(jinja2.runtime.LoopContext) if not key.startswith("_")]
        return f"loop has no {name!r} (it has: {', '.join(members)}{did_you_mean(str(name), members)})"
    if isinstance(obj, (list, tuple)) and isinstance(name, int):
        return f"the list of {len(obj)} has no item {name} (items count from 0)"
    if isinstance(obj, Mapping):
        keys = [str(key) for key in obj]
        return f"{describe(obj)} has no key {name!r} (its keys: {', '.join(keys) or 'none'}{did_you_mean(str(name), keys)})"
    return f"{describe(obj)} has no field {name!r}"


def _argument_mistake(function: Any, args: tuple, kwargs: dict[str, Any]) -> str:
    """What is wrong with calling `function` (a helper such as textbox(), or a macro) with these
    arguments, in the designer's terms; "" when nothing is (or it cannot be known before)."""
    if isinstance(function, jinja2.runtime.Macro):
        return _macro_argument_mistake(function, args, kwargs)
    if not (inspect.isfunction(function) or inspect.ismethod(function)) or getattr(function, "jinja_pass_arg", None):
        return ""
    accepted = _accepted(function)
    if accepted.takes(args, kwargs):
        return ""
    signature = accepted.signature
    try:
        signature.bind(*args, **kwargs)
        return ""
    except TypeError:
        pass
    params = signature.parameters
    names = [n for n, p in params.items() if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    takes_any = any(p.kind == p.VAR_KEYWORD for p in params.values())
    called = f"{function.__name__}()"
    unknown = [key for key in kwargs if key not in names and not takes_any]
    if unknown:
        return f"{called} has no argument {unknown[0]!r} (its arguments: {', '.join(names)}{did_you_mean(unknown[0], names)})"
    positional = [n for n, p in params.items() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if len(args) > len(positional) and not any(p.kind == p.VAR_POSITIONAL for p in params.values()):
        return f"{called} takes at most {len(positional)} values in order ({', '.join(positional)}), got {len(args)}"
    given = set(positional[:len(args)]) | set(kwargs)
    needed = [n for n, p in params.items() if p.default is p.empty and p.kind in (p.POSITIONAL_OR_KEYWORD,
              p.KEYWORD_ONLY, p.POSITIONAL_ONLY) and n not in given]
    twice = sorted(set(positional[:len(args)]) & set(kwargs))
    if twice:
        return f"{called} got {twice[0]!r} twice (in order and by name)"
    return f"{called} needs {', '.join(map(repr, needed)) or 'other arguments'} (its arguments: {', '.join(names)})"


class Accepted:
    """What a function accepts, read from its signature once: `takes` answers the common call (a
    few values in order, the rest by name) without inspect's bind, which costs more than a
    textbox() call's own checks; a call it does not vouch for goes to bind and its messages."""

    __slots__ = ("signature", "in_order", "by_name", "needed")

    def __init__(self, signature: inspect.Signature):
        params = signature.parameters.values()
        self.signature = signature
        self.in_order = tuple(p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))
        self.by_name = frozenset(p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))
        self.needed = frozenset(p.name for p in params if p.default is p.empty and p.kind not in
                                (p.VAR_POSITIONAL, p.VAR_KEYWORD))

    def takes(self, args: tuple, kwargs: dict[str, Any]) -> bool:
        """True when bind() would take these arguments; False when it might not (then ask it)."""
        if len(args) > len(self.in_order):
            return False
        given = self.in_order[:len(args)]
        if any(key not in self.by_name or key in given for key in kwargs):
            return False
        return self.needed <= {*given, *kwargs}


_ACCEPTED: dict[tuple, Accepted] = {}


def _accepted(function: Any) -> Accepted:
    """The function's signature, worked out once per function body: the helpers (textbox(), t())
    are closures made afresh for every face, and reading a signature costs more than the call it
    checks (a sixth of a 95-card build's drawing time)."""
    plain = getattr(function, "__func__", function)
    key = (inspect.ismethod(function), plain.__code__, plain.__defaults__, plain.__kwdefaults__ and
           tuple(plain.__kwdefaults__.items()))
    try:
        found = _ACCEPTED.get(key)
    except TypeError:                        # a default that cannot be a key (a list): not kept
        return Accepted(inspect.signature(function))
    if found is None:
        found = _ACCEPTED[key] = Accepted(inspect.signature(function))
    return found


def _macro_argument_mistake(macro: jinja2.runtime.Macro, args: tuple, kwargs: dict[str, Any]) -> str:
    names = list(macro.arguments)
    called = f"macro {macro.name}()"
    unknown = [key for key in kwargs if key not in names and not (key == "caller" and macro.caller)]
    if unknown and not macro.catch_kwargs:
        return f"{called} has no argument {unknown[0]!r} (its arguments: {', '.join(names) or 'none'}" \
               f"{did_you_mean(unknown[0], names)})"
    if len(args) > len(names) and not macro.catch_varargs:
        return f"{called} takes {len(names)} value{'s' * (len(names) != 1)} ({', '.join(names) or 'none'}), got {len(args)}"
    return ""


_PYTHON_TYPES = {"str": "a text", "int": "a number", "float": "a number", "bool": "a yes/no value",
                 "NoneType": "nothing", "list": "a list", "tuple": "a list", "dict": "a mapping",
                 "Record": "a record", "Undefined": "nothing", "DesignerUndefined": "nothing"}


def _plain_words(error: Exception) -> str:
    """The text of an error raised inside Python code a template called (a filter, a loop over
    a number), with Python's type names put in plain words: "a number is not iterable"."""
    names = "|".join(_PYTHON_TYPES)

    def plain(match: re.Match) -> str:
        return f"{match.group(1) or ''}{_PYTHON_TYPES[match.group(2)]}"
    text = re.sub(rf"()'?\b({names})'? object\b'?", plain, str(error))
    text = re.sub(rf"(\bnot )?(?:\btype )?'?\b({names})\b'?", plain, text)
    return re.sub(r"\b[\w.]+\.<locals>\.", "", text) or "it cannot be rendered"


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _repeated_length(left: Any, right: Any) -> int:
    """The length `left * right` would have when it repeats a string or a sequence, else 0."""
    for sequence, times in ((left, right), (right, left)):
        if isinstance(sequence, (str, list, tuple)) and _int(times):
            return len(sequence) * times
    return 0


def _copy(problem: TemplateProblem) -> TemplateProblem:
    """A new exception like `problem` (raising one instance again would grow its traceback)."""
    return TemplateProblem(problem.code, problem.message, problem.template, problem.line, problem.file,
                           problem.reason, problem.text_key)


def _constant_names(node: nodes.Node | None) -> list[str]:
    """The template names an extends/include/import tag writes out (`"a.svg.j2"`, or a list of
    them for include); none when the name is computed."""
    if isinstance(node, nodes.Const) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (nodes.List, nodes.Tuple)):
        return [item.value for item in node.items if isinstance(item, nodes.Const) and isinstance(item.value, str)]
    return []
