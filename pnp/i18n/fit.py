"""Which texts do not fit their box (even at the template's minimum size) or lack glyphs, per
language: the build's own layout (`pnp.build.render_faces`, without drawing) says so."""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from pnp.errors import Problem
from pnp.i18n.plurals import PluralText
from pnp.pack import Pack

_MESSAGE = re.compile(r"^\[(?P<lang>[^\]]+)\] (?P<side>front|back): (?P<text>'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")"
                      r"(?P<rest>.*)$", re.S)


@dataclass
class FitIssue:
    lang: str
    message: str                      # "does not fit a 50x40 mm box even at 6 pt", "no glyph for ..."
    text: str | None                  # the printed text, when the problem names it
    keys: list[str]                   # text keys it comes from ("contains:" keys when composed)
    exact: bool                       # True: `text` is exactly the text of `keys`
    where: list[str] = field(default_factory=list)   # "card alpha front (cards/main.yaml:1)"
    location: tuple[str, int] | None = None          # where the translation is (text/<lang>.yaml:line)


def _keys_for(pack: Pack, lang: str, text: str) -> tuple[list[str], bool]:
    texts = pack.texts.get(lang, {})
    exact = [k for k, v in texts.items()
             if str(v) == text or (isinstance(v, PluralText) and text in v.forms.values())]
    if exact:
        return exact, True
    parts = [k for k, v in texts.items() if len(str(v)) >= 3 and str(v) in text]
    return parts, False


def fit_report(pack: Pack, langs: list[str]) -> dict[str, list[FitIssue]]:
    from pnp.build import render_faces

    report: dict[str, list[FitIssue]] = {}
    for lang in langs:
        _faces, problems = render_faces(pack, lang, drawings=False)
        issues: dict[tuple, FitIssue] = {}
        for problem in problems:
            issue_key, issue = _issue(pack, lang, problem)
            existing = issues.setdefault(issue_key, issue)
            existing.where.append(_where(problem))
        report[lang] = list(issues.values())
    return report


def _where(problem: Problem) -> str:
    side = _MESSAGE.match(problem.message)
    face = f" {side.group('side')}" if side else ""
    return f"{problem.key}{face} ({problem.file}:{problem.line})"


def _issue(pack: Pack, lang: str, problem: Problem) -> tuple[tuple, FitIssue]:
    match = _MESSAGE.match(problem.message)
    if not match:     # a template problem, not a fit one: show it as it is
        message = problem.message.removeprefix(f"[{lang}] ")
        return (message,), FitIssue(lang, message, None, [], False)
    try:
        text = ast.literal_eval(match.group("text"))
    except (ValueError, SyntaxError):
        text = match.group("text")
    rest = match.group("rest").lstrip(": ").strip()
    keys, exact = _keys_for(pack, lang, text)
    location = None
    if exact and len(keys) == 1:
        found = pack.text_locations.get(lang, {}).get(keys[0])
        if found:
            from pnp.errors import display_path
            location = (display_path(found[0]), found[1])
    return (text, rest), FitIssue(lang, rest, text, keys, exact, location=location)
