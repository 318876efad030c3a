"""Print and language checks every pack gets, without a rules file.

- text.missing   a printed text key lacks a declared language (the loader finds these; surfaced here)
- text.fit       a string does not fit its box even at the template's smallest size
- text.glyph     a character no font of the box covers (it would print as a blank or a box)
- template.error a template fails for a card (missing template, undefined variable...)
- print.size     a rendered face is not the deck's card size plus bleed on every side
"""
from __future__ import annotations

from dataclasses import replace
import re
from pathlib import Path

from pnp.check.findings import ERROR, Finding, finding
from pnp.errors import Problem
from pnp.pack import Pack
from pnp.print_constants import BLEED_MM
from pnp.units import pt_to_mm

_LANG = re.compile(r"^\[(?P<lang>[^\]]+)\] (?:(?P<side>front|back): )?(?P<rest>.*)$", re.S)
_OVERFLOW = re.compile(r"^(?P<text>'.*'|\".*\") does not fit a ", re.S)
_GLYPH = re.compile(r"^(?P<text>'.*'|\".*\"): no glyph for ", re.S)
_SVG_SIZE = re.compile(r"<svg\b[^>]*?\bwidth=\"(?P<w>[\d.]+)mm\"[^>]*?\bheight=\"(?P<h>[\d.]+)mm\"", re.S)


def _text_location(pack: Pack, lang: str, shown: str) -> tuple[Path, int, str] | None:
    """The text file line of the key whose string is `shown`, when exactly one key has it."""
    try:
        import ast
        text = ast.literal_eval(shown)
    except (ValueError, SyntaxError):
        return None
    keys = [k for k, v in pack.texts.get(lang, {}).items() if v == text]
    source = pack.sources.get(f"text:{lang}")
    if len(set(keys)) != 1 or source is None:
        return None
    return source.file, source.line(tuple(keys[0].split("."))), keys[0]


PAPERS = ("a4", "letter")


def render_findings(pack: Pack, languages: list[str] | None = None, missing_text: set | None = None) -> list[Finding]:
    """Render every face in every language; overflow, glyph and template problems as findings."""
    from pnp.build import BuildOptions, render_components, render_faces

    out: list[Finding] = []
    missing_text = missing_text or set()
    for lang in languages or pack.languages:
        prepared, problems = render_faces(pack, lang, drawings=False)
        out.extend(_problem_finding(pack, problem, missing_text) for problem in problems)
        out.extend(_size_findings(pack, prepared))
        # Boards, parts and aids print text too: draw them on both papers; a problem found on both
        # is one finding (identical findings are merged when the report is sorted).
        for paper in PAPERS:
            _plan, problems = render_components(pack, lang, BuildOptions(paper=paper))
            for problem in problems:
                found = _problem_finding(pack, problem, missing_text)
                if found is not None and found.rule == "template.error":
                    found = replace(found, rule="component.render",
                                    hint="shorten the text or fix the component data")
                out.append(found)
    return _merge([f for f in out if f is not None])


def _merge(findings: list[Finding]) -> list[Finding]:
    """One finding per text key and problem: a string shown on 30 cards is one thing to fix."""
    groups: dict[tuple, list[Finding]] = {}
    for f in findings:
        in_text_file = f.rule in ("text.fit", "text.glyph", "text.missing") and not f.key.startswith("card ")
        group = (f.rule, f.file, f.line, f.key) if in_text_file else (id(f),)
        groups.setdefault(group, []).append(f)
    out = []
    for members in groups.values():
        first = members[0]
        if len(members) > 1:
            first = replace(first, message=f"{first.message} (and {len(members) - 1} more face"
                            f"{'s' if len(members) > 2 else ''})")
        out.append(first)
    return out


def _problem_finding(pack: Pack, problem: Problem, missing_text: set) -> Finding | None:
    match = _LANG.match(problem.message)
    lang = match.group("lang") if match else ""
    rest = match.group("rest") if match else problem.message
    side = (match.group("side") or "") if match else ""
    card = problem.key
    overflow, glyph = _OVERFLOW.match(rest), _GLYPH.match(rest)
    if overflow or glyph:
        rule = "text.fit" if overflow else "text.glyph"
        hint = ("shorten the text (or give its box more room in the template)" if overflow else
                "use characters the card fonts cover, or add a font that covers them")
        located = _text_location(pack, lang, (overflow or glyph).group("text"))
        if located:
            file, line, key = located
            return finding(ERROR, rule, file, line, key, f"[{lang}] {card} {side}: {rest}", hint, pack.id)
        return finding(ERROR, rule, problem.file, problem.line, card, f"[{lang}] {side}: {rest}", hint, pack.id)
    key_match = re.search(r"text key '([^']+)' has no '([^']+)' text", rest)
    if key_match:
        key, key_lang = key_match.groups()
        if (key, key_lang) in missing_text:
            return None           # already reported by the loader as text.missing
        source = pack.sources.get(f"text:{key_lang}")
        if source is not None:    # a key only templates or collections use: point at its would-be parent
            parent = tuple(key.split("."))[:-1]
            line = source.line(parent) if parent and parent in source.lines else 0
            return finding(ERROR, "text.missing", source.file, line, key,
                           f"text key {key!r} has no {key_lang!r} text (needed by {card})",
                           f"add {key} to text/{key_lang}.yaml", pack.id)
    return finding(ERROR, "template.error", problem.file, problem.line, card, f"[{lang}] {rest}",
                   "fix the template or the card data it reads", pack.id)


def _size_findings(pack: Pack, prepared) -> list[Finding]:
    out = []
    seen: set[tuple[str, str]] = set()
    for card, *faces in prepared.cards:
        deck = pack.deck(card.deck)
        want = tuple(pt_to_mm(v) + 2 * BLEED_MM for v in deck.size_pt)
        for side, face in zip(("front", "back"), faces):
            match = _SVG_SIZE.search(face.svg)
            if match is None:
                got = None
            else:
                got = (float(match.group("w")), float(match.group("h")))
            if got is not None and all(abs(a - b) < 0.05 for a, b in zip(got, want)):
                continue
            template = pack.kinds[card.kind].front if side == "front" else (pack.kinds[card.kind].back or deck.back)
            if (template, deck.id) in seen:
                continue
            seen.add((template, deck.id))
            shown = "no width/height in mm" if got is None else f"{got[0]:g}x{got[1]:g} mm"
            out.append(finding(ERROR, "print.size", card.file, card.line, f"card {card.base_id}",
                               f"[{prepared.lang}] {side} face ({template}) is {shown}, expected "
                               f"{want[0]:g}x{want[1]:g} mm (deck {deck.id} card size plus {BLEED_MM:g} mm bleed)",
                               "extend _base/card.svg.j2 and draw with w, h and bleed", pack.id))
    return out
