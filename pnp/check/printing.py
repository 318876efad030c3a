"""Print and language checks every pack gets, without a rules file.

- text.missing      a text key a template asks for lacks a language (the loader finds printed fields' keys)
- text.fit          a string does not fit its box even at the template's smallest size
- text.glyph        a character no font of the box covers (it would print as a blank or a box)
- template.*        a template fails: template.not-found, template.syntax, template.undefined, template.unsafe,
                    template.no-back, template.cycle, template.recursion, template.outside, template.too-big,
                    template.svg, template.error; one finding per broken template (pnp.render.failures),
                    at its file and line, naming the first card it failed on and how many more (or
                    the components.yaml entry whose template it is)
- text.lookup       t() of a plural text without its number, or a placeholder without a value
- text.control-char a text holds a character XML cannot hold (BEL, U+0007...): it cannot be printed
- text.markup       rich-text markup that does not balance (`**bold` never closed...; pnp.text.markup)
- text.icon         an inline `:icon:` the pack's icons folder lacks, or an icon file that cannot be drawn
- text.small        a warning: text printed under 6 pt (MIN_PRINTED_PT), with its size, box and card face
- component.*       a component (board, parts, aids) cannot be drawn: component.data, component.template,
                    component.size (pnp.components)
- print.size        a rendered face is not the deck's card size plus bleed on every side

The faces and components are rendered by the build's own functions; their problems carry a code
and facts (language, face, the text and its key), which is all that is read here. `pnp build`
refuses every one of them (exit 2), so they are fatal here too: `pnp check` exits 2 on them,
as the build would. Only print.size, which the build does not check, is an error (exit 1).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from pnp.build import (
    FACES,
    TEXT_MISSING,
    BuildOptions,
    PreparedFaces,
    at_the_texts,
    render_components,
    render_faces,
)
from pnp.composition import ERROR, WARNING, Finding, finding
from pnp.errors import Problem, display_path
from pnp.pack import Pack
from pnp.print_constants import BLEED_MM, PAPERS
from pnp.render.textbox import TEXT_CONTROL
from pnp.text.fitreport import (
    MIN_PRINTED_PT,
    TEXT_FIT,
    TEXT_GLYPH,
    TEXT_ICON,
    TEXT_MARKUP,
    TEXT_OFF_CARD,
    TEXT_SMALL,
)
from pnp.units import pt_to_mm

_SVG_SIZE = re.compile(r"<svg\b[^>]*?\bwidth=\"(?P<w>[\d.]+)mm\"[^>]*?\bheight=\"(?P<h>[\d.]+)mm\"", re.S)
_HINTS = {
    TEXT_FIT: "shorten the text (or give its box more room in the template)",
    TEXT_GLYPH: "use characters the card fonts cover, or add a font that covers them",
    TEXT_CONTROL: "remove the control character from the text (it is invisible in most editors)",
    TEXT_MARKUP: "balance the stars (**bold**, *italic*), or write \\* for a star that is just a star",
    TEXT_ICON: "add the icon's SVG to the pack's icons folder, or write \\: for colons that are just colons",
}
_SMALL_HINT = (f"give the text a size of {MIN_PRINTED_PT:g} pt or more (min_size in the template), "
               "a larger box, or a shorter text")
_OFF_CARD_HINT = ("move the textbox inside the card in the template: (0, 0) is the trim's top-left corner, "
                  "the card is w x h mm, and words belong `safe` mm inside it")
# The build refuses a pack with any of these problems (DataError, exit 2): so does `pnp check`.
_REFUSED_BY_BUILD = True
_COMPONENT_HINT = "fix the component's entry in components.yaml (or the data it reads)"
_TEMPLATE_HINT = "fix the template or the card data it reads"
_COMPONENT_TEMPLATE_HINT = "fix the template or the component's entry in components.yaml"


def render_findings(pack: Pack, languages: list[str] | None = None,
                    reported: set[tuple[str, str]] | None = None,
                    on_faces: Callable[[PreparedFaces], None] | None = None) -> list[Finding]:
    """Render every face and component in every language; their problems as findings. A missing
    (text key, language) in `reported` is not reported again. `on_faces` sees each language's
    faces, for checks that measure what was drawn (pnp.check.art), before they are let go."""
    out: list[Finding | None] = []
    reported = reported or set()
    for lang in languages or pack.languages:
        # drawings too: an SVG the compiler cannot draw (template.svg) stops the build, so it fails the check
        prepared, problems = render_faces(pack, lang, drawings=True)
        if on_faces is not None:
            on_faces(prepared)
        # Boards, parts and aids print text too: draw them on every paper; a problem found on
        # several is one finding (identical findings are merged when the report is sorted).
        for paper in PAPERS:
            _plan, found = render_components(pack, lang, BuildOptions(paper=paper))
            problems = [*problems, *found]
        # a text's problem at the text, once per text, as the build says it
        out.extend(_finding(pack, problem, reported) for problem in at_the_texts(pack, problems))
        out.extend(_size_findings(pack, prepared))
    return _merge(pack, [f for f in out if f is not None])


def _merge(pack: Pack, findings: list[Finding]) -> list[Finding]:
    """One finding per text key and problem: a missing text asked by 30 cards is one thing to fix
    (a text's own problems are merged by at_the_texts)."""
    text_files = {display_path(source.file) for name, source in pack.sources.items() if name.startswith("text:")}
    groups: dict[tuple, list[Finding]] = {}
    for f in findings:
        group = (f.rule, f.file, f.line, f.key, f.lang) if f.file in text_files else (id(f),)
        groups.setdefault(group, []).append(f)
    out = []
    for members in groups.values():
        first = members[0]
        if len(members) > 1:
            first = replace(first, message=f"{first.message} (and {len(members) - 1} more face"
                            f"{'s' if len(members) > 2 else ''})")
        out.append(first)
    return out


def _finding(pack: Pack, problem: Problem, reported: set[tuple[str, str]]) -> Finding | None:
    """A render problem as a finding, by its code; at the text file's line when the text's key is known."""
    code, lang = problem.code, problem.lang
    text_key = problem.get("text_key", "")
    if code == TEXT_SMALL:
        return _small(pack, problem)
    if code == TEXT_OFF_CARD:           # a warning, like the build's
        return Finding(WARNING, code, problem.file, problem.line, problem.key, problem.message, _OFF_CARD_HINT,
                       pack.id, False, problem.lang, problem.face, problem.detail)
    if code in _HINTS:                  # at the text file's line already when a text file has it (at_the_texts)
        return _at_problem(pack, problem, _HINTS[code])
    if code == TEXT_MISSING:
        # an error, not fatal: the build prints the source language's text (it refuses it only
        # with --strict), as the loader's text.missing says
        if (text_key, lang) in reported:
            return None             # already reported, by the loader or a rules check
        source = pack.sources.get(f"text:{lang}")
        if source is None:
            return replace(_at_problem(pack, problem, f"add {text_key} to text/{lang}.yaml"), fatal=False)
        parent = tuple(text_key.split("."))[:-1]    # the key's would-be parent in the text file
        line = source.line(parent) if parent and parent in source.lines else 0
        return finding(ERROR, TEXT_MISSING, source.file, line, text_key,
                       f"text key {text_key!r} has no {lang!r} text (needed by {problem.key})",
                       f"add {text_key} to text/{lang}.yaml", pack.id, False, lang=lang,
                       face=problem.face, text_key=text_key, language=lang)
    if problem.get("component") is not None:       # a component's template failed
        return _at_problem(pack, problem, _COMPONENT_TEMPLATE_HINT)
    return _at_problem(pack, problem, _COMPONENT_HINT if code.startswith("component.") else _TEMPLATE_HINT)


def _small(pack: Pack, problem: Problem) -> Finding:
    """text.small: a warning (the build prints it), naming the size, the box and the card face."""
    w, h = problem.get("box_mm", (0.0, 0.0))
    size = problem.get("size_pt", 0.0)
    message = (f"{problem.get('text', '')!r} prints at {size:g} pt in a {w:g}x{h:g} mm box, "
               f"under {MIN_PRINTED_PT:g} pt")
    return Finding(WARNING, TEXT_SMALL, problem.file, problem.line, problem.key, message, _SMALL_HINT, pack.id,
                   False, problem.lang, problem.face, problem.detail)


def _at_problem(pack: Pack, problem: Problem, hint: str) -> Finding:
    return Finding(ERROR, problem.code, problem.file, problem.line, problem.key, problem.message, hint, pack.id,
                   _REFUSED_BY_BUILD, problem.lang, problem.face, problem.detail)


def _size_findings(pack: Pack, prepared: PreparedFaces) -> list[Finding]:
    out = []
    seen: set[tuple[str | None, str]] = set()
    for card, *faces in prepared.cards:
        deck = pack.deck(card.deck)
        want = tuple(pt_to_mm(v) + 2 * BLEED_MM for v in deck.size_pt)
        for side, face in zip(FACES, faces, strict=True):
            match = _SVG_SIZE.search(face.svg)
            got = None if match is None else (float(match.group("w")), float(match.group("h")))
            if got is not None and all(abs(a - b) < 0.05 for a, b in zip(got, want, strict=True)):
                continue
            template = pack.kinds[card.kind].front if side == "front" else (pack.kinds[card.kind].back or deck.back)
            if (template, deck.id) in seen:
                continue
            seen.add((template, deck.id))
            shown = "no width/height in mm" if got is None else f"{got[0]:g}x{got[1]:g} mm"
            out.append(finding(ERROR, "print.size", card.file, card.line, f"card {card.base_id}",
                               f"face ({template}) is {shown}, expected {want[0]:g}x{want[1]:g} mm "
                               f"(deck {deck.id} card size plus {BLEED_MM:g} mm bleed)",
                               "extend _base/card.svg.j2 and draw with w, h and bleed", pack.id,
                               lang=prepared.lang, face=side, template=template or ""))
    return out
