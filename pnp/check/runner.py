"""check_pack: load a pack as far as it goes, then run its rules and the print checks.

A load problem becomes a finding of the same id as its code (schema.unknown-key, yaml.syntax,
text.missing...); nothing here reads a problem's wording.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from pnp.build import sheet_word_problems
from pnp.check.art import ArtResolution
from pnp.check.printing import render_findings
from pnp.composition import ERROR, WARNING, Finding, check_composition, finding
from pnp.engines.reachability import engine_finding
from pnp.engines.reachability import pack_findings as reachability_findings
from pnp.errors import Problem, Problems
from pnp.i18n.translated import translation_findings
from pnp.pack import Pack, UnknownGameError, find_pack, read_pack
from pnp.text import packfonts

TEXT_MISSING = "text.missing"
# Load problems that leave a complete pack behind: the other checks still run and exit is 1, not 2.
NON_FATAL = {TEXT_MISSING}
ALL_CHECKS = frozenset({"rules", "print"})
# (text.missing has none: its message says where the text goes, a text file or the data's cell)
_HINTS = {"cards.duplicate-id": "give every card its own id"}


def load_finding(problem: Problem, game: str) -> Finding:
    """A loader problem as a finding: its code is the rule id; `text.missing` is not fatal."""
    if problem.code == "yaml.syntax":
        hint = f"the line shown (or the one before it): {problem.snippet}" if problem.snippet else ""
    else:
        hint = _HINTS.get(problem.code, problem.snippet and f"at: {problem.snippet}")
    lang = problem.lang or problem.get("language", "")
    return Finding(ERROR, problem.code, problem.file, problem.line, problem.key, problem.message, hint or "", game,
                   problem.code not in NON_FATAL, lang, problem.face, problem.detail)


def load_for_check(name_or_path: str | Path) -> tuple[Pack | None, list[Finding]]:
    """Like load_pack, but returns the pack read so far with its problems as findings."""
    try:
        root = find_pack(name_or_path)
    except UnknownGameError as error:
        return None, [finding(ERROR, "pack.unknown", str(name_or_path), 0, "", error.message,
                              "give a shipped game's name or a folder holding pack.yaml", str(name_or_path), True)]
    game = root.name
    problems = Problems()
    pack = read_pack(root, problems)
    findings = [load_finding(p, pack.id if pack else game) for p in sorted(set(problems.items))]
    if pack is not None:
        # sheet words a build prints in English (pnp lacks the language): a warning, as the build's
        findings.extend(replace(load_finding(p, pack.id), severity=WARNING, fatal=False)
                        for lang in pack.languages for p in sheet_word_problems(pack, lang))
        findings.extend(translation_findings(pack))     # text.icons, text.stale: warnings at the translation
    if pack is not None and pack.fonts and not problems.items:
        # A pack with its own fonts: characters of its texts that no font of the language covers.
        # A warning here, since a printed one is already a text.glyph error at its box (a text no
        # face prints may be fine); the shipped fonts' coverage is the text.glyph check's alone.
        findings.extend(replace(load_finding(p, pack.id), severity=WARNING, fatal=False)
                        for p in packfonts.coverage_problems(pack))
    return pack, findings


def _missing_text(f: Finding) -> tuple[str, str] | None:
    """The (text key, language) a finding reports as missing, if it is about one (the loader's
    text.missing and a `text` rule's findings carry both as detail)."""
    key, lang = f.get("text_key"), f.get("language")
    return (str(key), str(lang)) if key and lang else None


def missing_texts(findings: list[Finding]) -> set[tuple[str, str]]:
    """The (text key, language) pairs the findings already report as missing."""
    return {pair for pair in map(_missing_text, findings) if pair is not None}


def check_pack(name_or_path: str | Path, checks: frozenset | set = ALL_CHECKS,
               languages: list[str] | None = None) -> list[Finding]:
    """Every finding for one pack, sorted by file and line.

    `checks` picks the optional groups: "rules" (data/<game>/rules.yaml) and "print" (render every
    face in every language: text fit, glyph coverage, face size, the art's resolution; the slow
    part). Load problems are always reported; a finding with `fatal=True` means the pack cannot be
    used (exit 2)."""
    pack, findings = load_for_check(name_or_path)
    if pack is None or any(f.fatal for f in findings):
        return _sorted(findings)
    # A missing text is reported once: by the loader, else by a rule (`text` kind), else by rendering.
    if "rules" in checks:
        loaded = missing_texts(findings)
        findings.extend(f for f in check_composition(pack) if _missing_text(f) not in loaded)
    if "engine" in checks and pack.engine:          # can every rule point happen? (pnp.engines.reachability)
        findings.extend(reachability_findings(pack))
    elif pack.engine:                               # is it installed at all (its code not loaded)
        findings.extend(f for f in [engine_finding(pack, WARNING)] if f is not None)
    if "print" in checks:
        art = ArtResolution(pack)                       # measured on the faces the print checks draw
        findings.extend(render_findings(pack, languages, missing_texts(findings), art.add))
        if not any(f.fatal for f in findings):          # faces that fail are reported, not measured
            findings.extend(art.findings())
    return _sorted(findings)


def _sorted(findings: list[Finding]) -> list[Finding]:
    unique = list(dict.fromkeys(findings))
    return sorted(unique, key=Finding.sort_key)
