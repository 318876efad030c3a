"""Which texts do not fit their box (even at the template's minimum size) or lack glyphs, per
language: the build's own layout (`pnp.build.render_faces`, without drawing) says so.

The build's problems carry the FitIssue's fields and, when exactly one text key produced the
string, that key; a composed string (a key plus a number...) is traced to the keys it contains.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from pnp.build import fit_issue, render_faces
from pnp.errors import Problem, display_path
from pnp.i18n.plurals import PluralText
from pnp.pack import Pack
from pnp.text.fitreport import FitIssue

SHOWN_CHARS = 70        # a longer text is shortened in the listing


@dataclass
class TextFit:
    """One text that does not fit (or cannot be drawn) in one language, with every face it is on."""

    lang: str
    message: str                      # what is wrong, e.g. "'Due facce...' does not fit a 50x40 mm box even at 6 pt"
    issue: FitIssue | None            # None: a template problem, not a fit one
    keys: list[str]                   # text keys it comes from ("contains:" keys when composed)
    exact: bool                       # True: the text is exactly the text of `keys`
    where: list[str] = field(default_factory=list)   # "card alpha front (cards/main.yaml:1)"
    location: tuple[str, int] | None = None          # where the translation is (text/<lang>.yaml:line)

    @property
    def text(self) -> str | None:
        return self.issue.text if self.issue else None

    @property
    def shown(self) -> str:
        """The message with a long text shortened."""
        if self.issue is None or len(self.issue.text) <= SHOWN_CHARS:
            return self.message
        return replace(self.issue, text=self.issue.text[:SHOWN_CHARS - 3] + "...").message


def _keys_for(pack: Pack, lang: str, text: str) -> tuple[list[str], bool]:
    texts = pack.texts.get(lang, {})
    exact = [k for k, v in texts.items()
             if str(v) == text or (isinstance(v, PluralText) and text in v.forms.values())]
    if exact:
        return exact, True
    parts = [k for k, v in texts.items() if len(str(v)) >= 3 and str(v) in text]
    return parts, False


def fit_report(pack: Pack, langs: list[str]) -> dict[str, list[TextFit]]:
    report: dict[str, list[TextFit]] = {}
    for lang in langs:
        _faces, problems = render_faces(pack, lang, drawings=False)
        found: dict[tuple, TextFit] = {}
        for problem in problems:
            group, entry = _entry(pack, lang, problem)
            found.setdefault(group, entry).where.append(_where(problem))
        report[lang] = list(found.values())
    return report


def _where(problem: Problem) -> str:
    face = f" {problem.face}" if problem.face else ""
    return f"{problem.key}{face} ({problem.file}:{problem.line})"


def _entry(pack: Pack, lang: str, problem: Problem) -> tuple[tuple, TextFit]:
    issue = fit_issue(problem)
    if issue is None:     # a template or missing-text problem, not a fit one: show it as it is
        return (problem.code, problem.message), TextFit(lang, problem.message, None, [], False)
    text_key = problem.get("text_key", "")
    keys, exact = ([text_key], True) if text_key else _keys_for(pack, lang, issue.text)
    location = None
    if exact and len(keys) == 1:
        found = pack.text_locations.get(lang, {}).get(keys[0])
        if found:
            location = (display_path(found[0]), found[1])
    return (issue, *keys), TextFit(lang, issue.message, issue, keys, exact, location=location)
